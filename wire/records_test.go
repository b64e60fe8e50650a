package wire

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEveryMessageCarriesTheFieldsItsRecordNames lists, per message, the fields the
// domain packages' rules (and issue 2) require, with the wire type they must have.
func TestEveryMessageCarriesTheFieldsItsRecordNames(t *testing.T) {
	want := map[ID][]string{
		// The frame: vitals' [health-revision] and [client-order], inventory's [weapon-revision], lifecycle's [death-epoch].
		IDPlayerSync: {"VitalRev u16", "DamageSeq u16", "WeaponRev u16", "Weapon u8", "Clip u16", "Total u16",
			"Health f32", "Armor f32", "Alive bit", "DeathEpoch u16", "Position 3×f32", "Facing u16 angle",
			"Velocity 3×i16", "Vehicle u16 id", "Seat bits", "FireHeld bit"},
		// The relayed frame: lifecycle's [server-commits-death], teams' [teammate-stamp] and [damage-groups].
		IDRemotePlayerSync: {"Player u16 id", "Alive bit", "DeathEpoch u16", "Health f32", "Stamp.Teammate bit",
			"Stamp.Rev u16", "SyncSeq u16", "DamageGroup u16"},
		IDVehicleSync:       {"Vehicle u16 id", "Position 3×f32", "Rotation 4×f32"},
		IDRemoteVehicleSync: {"Vehicle u16 id", "Position 3×f32", "Rotation 4×f32", "Stamp.Teammate u8 bool", "Stamp.Rev u16"},
		// The report: vitals' [trust-in-fields].
		IDDamageReport: {"DamageSeq u16", "VitalRev u16", "Attacker u16 id", "Weapon u8", "BodyPart u8",
			"HealthBefore f32", "HealthAfter f32", "ArmorBefore f32", "ArmorAfter f32", "Loss f32",
			"Ref.Kind u8 enum", "Ref.Seq u16"},
		// Lifecycle: lifecycle's [lifecycle-edges], [respawn-idempotent], [player-token].
		IDDeathReport:    {"Weapon u8", "Pose u8"},
		IDRespawnRequest: {"DeathEpoch u16"},
		IDRespawnPlayer:  {"DeathEpoch u16", "Position 3×f32"},
		IDPlayerWasted:   {"Player u16 id", "PlayerToken u32", "Pose u8", "Killer u16 id", "Weapon u8"},
		IDPlayerSpawned:  {"Player u16 id", "PlayerToken u32", "SyncSeq u16", "DeathEpoch u16", "Position 3×f32"},
		IDPlayerShow:     {"Player u16 id", "PlayerToken u32", "DeathEpoch u16", "Alive bit", "SyncSeq u16", "DamageGroup u16"},
		// Shots: rewind's [rewind-to-shooters-view], inventory's [shot-sanity-check], vitals' [damage-floor].
		IDWeaponShot: {"Weapon u8", "Origin 3×f32", "HitPos 3×f32", "ShotSeq u16", "PropertiesRev u16", "DeathEpoch u16"},
		IDVehicleShot: {"Vehicle u16 id", "Weapon u8", "Origin 3×f32", "HitPos 3×f32", "ShotSeq u16",
			"PropertiesRev u16"},
		IDRemoteWeaponShot: {"Shooter u16 id", "ShotSeq u16", "Stamp.Teammate bit", "Stamp.Rev u16",
			"Rewind.Valid bit", "Rewind.Position 3×f32", "Rewind.InVehicle bit", "Rewind.Vehicle u16 id",
			"Rewind.VehiclePosition 3×f32", "Rewind.VehicleRotation 4×f32"},
		IDRemoteVehicleShot: {"Shooter u16 id", "Vehicle u16 id", "ShotSeq u16", "Stamp.Teammate bit", "Stamp.Rev u16",
			"Rewind.Valid bit", "Rewind.Position 3×f32", "Rewind.InVehicle bit", "Rewind.Vehicle u16 id",
			"Rewind.VehiclePosition 3×f32", "Rewind.VehicleRotation 4×f32"},
		IDProjectileLaunch: {"Projectile u16", "Weapon u8", "Origin 3×f32", "Velocity 3×f32"},
		IDRemoteProjectile: {"Owner u16 id", "Projectile u16", "Stamp.Teammate u8 bool", "Stamp.Rev u16"},
		IDDetonation:       {"Projectile u16", "Position 3×f32"},
		IDRemoteDetonation: {"Owner u16 id", "Projectile u16", "Position 3×f32", "Stamp.Teammate u8 bool", "Stamp.Rev u16"},
		// vitals' [sources-of-damage], teams' [teammate-stamp].
		IDStealthKill:          {"Victim u16 id"},
		IDRemoteStealthKill:    {"Attacker u16 id", "Victim u16 id", "Stamp.Teammate u8 bool"},
		IDVehicleExplode:       {"Vehicle u16 id"},
		IDRemoteVehicleExplode: {"Vehicle u16 id", "Author u16 id", "Stamp.Teammate u8 bool", "Stamp.Rev u16"},
		IDCreateExplosion:      {"Creator u16 id", "Position 3×f32", "Effect u16", "Stamp.Teammate u8 bool"},
		// A fire sent late carries how long it has burned, so its recipient burns only what is left.
		IDCreateFire: {"Creator u16 id", "Position 3×f32", "Effect u16", "Age u16", "Stamp.Teammate u8 bool"},
		// The gamemode's health commands: vitals' [one-command-queue].
		IDSetHealth:         {"Rev u16", "Health f32"},
		IDSetArmor:          {"Rev u16", "Armor f32"},
		IDGiveHealth:        {"Rev u16", "Amount f32", "Max f32"},
		IDGiveArmor:         {"Rev u16", "Amount f32", "Max f32"},
		IDDamageMultipliers: {"Rev u16", "Melee f32", "Fire f32", "Spray f32", "Extinguisher f32", "Explosion f32", "PredatorGun f32"},
		IDWeaponProperties:  {"Rev u16", "Weapon u8", "DamagePoor f32", "DamageStd f32", "DamagePro f32", "Range f32"},
		// The five weapon commands: inventory's [give-rules], [weapon-revision].
		IDGiveWeapon:     {"Rev u16", "Weapon u8", "Ammo u16", "SetAsCurrent u8 bool"},
		IDTakeWeapon:     {"Rev u16", "Weapon u8"},
		IDSetWeaponAmmo:  {"Rev u16", "Weapon u8", "Total u16", "Clip u16"},
		IDClearWeapons:   {"Rev u16"},
		IDSetArmedWeapon: {"Rev u16", "Weapon u8"},
		// Round-trip time: rewind's [rtt-by-ping]; Disconnect: lifecycle's [lifecycle-edges].
		IDPing:       {"Seq u16", "Time u32"},
		IDPong:       {"Seq u16", "Time u32"},
		IDDisconnect: {"Reason u8 enum"},
	}
	for id, fields := range want {
		l := layoutOf(id)
		for _, nt := range fields {
			name, typ, _ := strings.Cut(nt, " ")
			i := l.fieldIndex(name)
			if i == noField {
				t.Errorf("%v has no field %s", id, name)
				continue
			}
			if got := l.fields[i].typ; got != typ {
				t.Errorf("%v.%s travels as %s, want %s", id, name, got, typ)
			}
		}
	}
}

func TestPlayerFrameFitsIn48Bytes(t *testing.T) {
	if got := IDPlayerSync.Size(); got > 48 {
		t.Errorf("PlayerSync is %d bytes, the issue asks for at most 48", got)
	}
	if got := len(mustAppend(t, sampleOf(t, IDPlayerSync))); got != IDPlayerSync.Size() {
		t.Errorf("encoded PlayerSync is %d bytes, its layout %d", got, IDPlayerSync.Size())
	}
}

func TestMaxSizeIsTheLargestMessage(t *testing.T) {
	largest := 0
	for _, id := range IDs() {
		largest = max(largest, id.Size())
	}
	if largest != MaxSize {
		t.Errorf("MaxSize is %d, the largest message is %d bytes", MaxSize, largest)
	}
	buf := make([]byte, 0, MaxSize)
	for _, m := range samples() {
		b, err := m.Append(buf[:0])
		if err != nil || &b[:1][0] != &buf[:1][0] {
			t.Errorf("%v: Append into a MaxSize buffer reallocated (%v)", m.ID(), err)
		}
	}
}

// TestEveryPacketThatCanHurtCarriesATeammateStamp: teams' [teammate-stamp] stamps the relation into
// every relayed frame (player and vehicle), shot, projectile and detonation, and every
// server effect with a creator; the list is closed over the server-to-client messages.
func TestEveryPacketThatCanHurtCarriesATeammateStamp(t *testing.T) {
	canHurt := map[ID]bool{
		IDRemotePlayerSync: true, IDRemoteVehicleSync: true, IDRemoteWeaponShot: true, IDRemoteVehicleShot: true,
		IDRemoteProjectile: true, IDRemoteDetonation: true, IDRemoteStealthKill: true, IDRemoteVehicleExplode: true,
		IDCreateExplosion: true, IDCreateFire: true,
	}
	for _, id := range IDs() {
		l := layoutOf(id)
		has := l.fieldIndex("Stamp.Teammate") != noField && l.fieldIndex("Stamp.Rev") != noField
		if has != canHurt[id] {
			t.Errorf("%v: carries a stamp %v, can hurt %v", id, has, canHurt[id])
		}
		if canHurt[id] && id.Direction() != ServerToClient {
			t.Errorf("%v: a stamped packet must come from the server", id)
		}
	}
}

// TestHealthAndWeaponCommandsCarryTheirRevision: each health or armor command carries
// the connection's next health revision (vitals' [health-revision]), each of the five weapon commands
// the player's next inventory revision (inventory's [weapon-revision]), both uint16 in the first
// field, and the revision survives the wrap at 65535.
func TestHealthAndWeaponCommandsCarryTheirRevision(t *testing.T) {
	for _, id := range []ID{IDSetHealth, IDSetArmor, IDGiveHealth, IDGiveArmor,
		IDGiveWeapon, IDTakeWeapon, IDSetWeaponAmmo, IDClearWeapons, IDSetArmedWeapon} {
		f := layoutOf(id).fields[0]
		if f.name != "Rev" || f.typ != "u16" || f.off != HeaderSize {
			t.Errorf("%v: first field %s %s at %d, want Rev u16 at %d", id, f.name, f.typ, f.off, HeaderSize)
		}
		for _, rev := range []uint16{0, 1, 65534, 65535} {
			m := sampleOf(t, id)
			reflect.ValueOf(m).Elem().FieldByName("Rev").SetUint(uint64(rev))
			got := New(id)
			if err := got.Decode(mustAppend(t, m)); err != nil {
				t.Fatalf("%v rev %d: %v", id, rev, err)
			}
			if r := reflect.ValueOf(got).Elem().FieldByName("Rev").Uint(); r != uint64(rev) {
				t.Errorf("%v: rev %d came back as %d", id, rev, r)
			}
		}
	}
}

// TestGiveWeaponCarriesSetAsCurrent: a give may leave the held weapon alone.
func TestGiveWeaponCarriesSetAsCurrent(t *testing.T) {
	for _, cur := range []bool{false, true} {
		m := &GiveWeapon{Rev: 1, Weapon: 31, Ammo: 100, SetAsCurrent: cur}
		var got GiveWeapon
		if err := got.Decode(mustAppend(t, m)); err != nil || got != *m {
			t.Errorf("set_as_current %v: got %+v, %v", cur, got, err)
		}
	}
}

// TestSetWeaponAmmoClipSentinelMeansNotSet: Clip 0xFFFF is "not set" and is valid
// whatever the total; any other clip is part of the total.
func TestSetWeaponAmmoClipSentinelMeansNotSet(t *testing.T) {
	for _, c := range []struct {
		total, clip uint16
		want        error
	}{
		{0, NoClip, nil},
		{300, NoClip, nil},
		{300, 300, nil},
		{300, 0, nil},
		{300, 301, ErrInconsistent},
		{65535, 65534, nil},
	} {
		m := &SetWeaponAmmo{Rev: 2, Weapon: 31, Total: c.total, Clip: c.clip}
		b, err := m.Append(nil)
		if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("total %d clip %d: Append = %v, want %v", c.total, c.clip, err, c.want)
			continue
		}
		if err == nil {
			var got SetWeaponAmmo
			if err := got.Decode(b); err != nil || got != *m {
				t.Errorf("total %d clip %d: decoded %+v, %v", c.total, c.clip, got, err)
			}
		}
	}
	if NoClip != 0xFFFF {
		t.Errorf("NoClip = %#x, the record's sentinel is 0xFFFF", NoClip)
	}
}

// TestDeathPoseIsARawByteTheDecoderDoesNotWhitelist: the lifecycle package replaces a
// pose the game cannot produce; the decoder passes every byte through.
func TestDeathPoseIsARawByteTheDecoderDoesNotWhitelist(t *testing.T) {
	for pose := range 256 {
		for _, m := range []Message{
			&DeathReport{DeathEpoch: 1, Killer: NoPlayer, Weapon: 255, Pose: uint8(pose)},
			&PlayerWasted{Player: 1, PlayerToken: 2, Killer: NoPlayer, Pose: uint8(pose)},
		} {
			got := New(m.ID())
			if err := got.Decode(mustAppend(t, m)); err != nil || !cmp.Equal(got, m) {
				t.Fatalf("%v pose %d: %v", m.ID(), pose, err)
			}
		}
	}
}

// TestBodyPartAndWeaponAreRawBytes: the body part whitelist (vitals'
// [trust-in-fields]) and the weapon catalogue belong to vitals and inventory, which answer with
// verdicts; the wire carries any byte.
func TestBodyPartAndWeaponAreRawBytes(t *testing.T) {
	for v := range 256 {
		m := *sampleOf(t, IDDamageReport).(*DamageReport)
		m.BodyPart, m.Weapon = uint8(v), uint8(255-v)
		var got DamageReport
		if err := got.Decode(mustAppend(t, &m)); err != nil || got != m {
			t.Fatalf("body part %d weapon %d: %v", v, 255-v, err)
		}
	}
}

// TestRelayedHealthIsNeverLethalWhileAlive: lifecycle's [server-commits-death] relays a living player's frame with
// hp <= 0 as hp = 1; the wire refuses a living player at 0 both ways, and a dead one may
// lie at 0.
func TestRelayedHealthIsNeverLethalWhileAlive(t *testing.T) {
	m := *sampleOf(t, IDRemotePlayerSync).(*RemotePlayerSync)
	m.Alive, m.Health = true, 0
	if _, err := m.Append(nil); !errors.Is(err, ErrInconsistent) {
		t.Errorf("alive at 0 health: Append = %v, want ErrInconsistent", err)
	}
	m.Health = 1
	mustAppend(t, &m)
	m.Alive, m.Health = false, 0
	mustAppend(t, &m)
}

// TestRelayedFrameCarriesTheServersLifeState: the relayed frame has its own alive and
// death_epoch (the server's), distinct fields from the client's frame, and a dead
// subject's frame relays alive=false with its epoch intact.
func TestRelayedFrameCarriesTheServersLifeState(t *testing.T) {
	relay := RemotePlayerSync{Player: 5, SyncSeq: 9, DeathEpoch: 65535, Alive: false, Health: 0, Vehicle: NoVehicle}
	var got RemotePlayerSync
	if err := got.Decode(mustAppend(t, &relay)); err != nil || got != relay {
		t.Fatalf("%v %+v", err, got)
	}
	relay.Alive, relay.Health = true, 1
	if err := got.Decode(mustAppend(t, &relay)); err != nil || got != relay {
		t.Fatalf("%v %+v", err, got)
	}
}

func TestRemoteWeaponShotCarriesTheRecipientsRewoundPoseAndItsVehiclesPose(t *testing.T) {
	m := sampleOf(t, IDRemoteWeaponShot).(*RemoteWeaponShot)
	var got RemoteWeaponShot
	if err := got.Decode(mustAppend(t, m)); err != nil {
		t.Fatal(err)
	}
	if !got.Rewind.Valid || got.Rewind.Position != posC || !got.Rewind.InVehicle || got.Rewind.Vehicle != 412 ||
		got.Rewind.VehiclePosition != posB || got.Rewind.VehicleRotation != unitQuat {
		t.Errorf("rewind lost: %+v", got.Rewind)
	}
	// Without a rewind the pose fields are zero and the shot still carries its stamp.
	m.Rewind = Rewind{}
	b := mustAppend(t, m)
	for _, name := range []string{"Rewind.Position", "Rewind.Vehicle", "Rewind.VehiclePosition", "Rewind.VehicleRotation"} {
		f := fieldAt(t, IDRemoteWeaponShot, name)
		for _, x := range b[f.off : f.off+f.width] {
			if x != 0 {
				t.Errorf("%s is not zero without a rewind", name)
			}
		}
	}
}

// TestCriticalMessagesAreTheLifecycleEdgesAndTheZero: PlayerWasted and PlayerSpawned
// (lifecycle's [lifecycle-edges]), SetHealth(0) (vitals' [server-zero-after-death]), the victim's DeathReport.
func TestCriticalMessagesAreTheLifecycleEdgesAndTheZero(t *testing.T) {
	critical := map[ID]bool{IDPlayerWasted: true, IDPlayerSpawned: true, IDDeathReport: true}
	for _, m := range samples() {
		want := critical[m.ID()]
		if r, ok := m.(*DamageReport); ok {
			want = r.HealthAfter == 0
		}
		if got := Critical(m); got != want {
			t.Errorf("Critical(%v) = %v", m.ID(), got)
		}
		if Critical(m) && m.ID().Delivery() != Reliable && m.ID() != IDDamageReport {
			t.Errorf("%v is critical but not reliable", m.ID())
		}
	}
	if !Critical(&DamageReport{HealthBefore: 30, HealthAfter: 0, Loss: 30}) {
		t.Error("the lethal DamageReport is not critical")
	}
	if Critical(&DamageReport{HealthBefore: 30, HealthAfter: 10, Loss: 20}) {
		t.Error("a DamageReport that leaves health is critical")
	}
	if !Critical(&SetHealth{Rev: 3, Health: 0}) {
		t.Error("SetHealth(0) is not critical")
	}
	if Critical(&SetArmor{Rev: 3, Armor: 0}) {
		t.Error("SetArmor(0) is critical")
	}
}

// TestDeliveryFollowsTheRecords: frames, shots and relays are datagrams; commands,
// lifecycle edges and claims ride the reliable lane; a damage report is unreliable except
// the lethal one.
func TestDeliveryFollowsTheRecords(t *testing.T) {
	reliable := []ID{IDDeathReport, IDRespawnRequest, IDPlayerWasted, IDPlayerSpawned, IDRespawnPlayer,
		IDSetHealth, IDSetArmor, IDGiveHealth, IDGiveArmor, IDDamageMultipliers, IDGiveWeapon, IDTakeWeapon,
		IDSetWeaponAmmo, IDClearWeapons, IDSetArmedWeapon, IDWeaponProperties, IDCreateExplosion, IDCreateFire,
		IDStealthKill, IDVehicleExplode, IDRemoteStealthKill, IDRemoteVehicleExplode, IDPlayerShow, IDPlayerHide,
		IDVehicleShow, IDVehicleHide}
	unreliable := []ID{IDPlayerSync, IDRemotePlayerSync, IDVehicleSync, IDRemoteVehicleSync, IDWeaponShot,
		IDVehicleShot, IDRemoteWeaponShot, IDRemoteVehicleShot, IDPing, IDPong}
	for _, id := range reliable {
		if id.Delivery() != Reliable {
			t.Errorf("%v travels %v, want reliable", id, id.Delivery())
		}
	}
	for _, id := range unreliable {
		if id.Delivery() != Unreliable {
			t.Errorf("%v travels %v, want unreliable", id, id.Delivery())
		}
	}
	if IDDamageReport.Delivery() != ReliableIfLethal {
		t.Errorf("DamageReport travels %v", IDDamageReport.Delivery())
	}
}

func TestDirectionsFollowTheIDRanges(t *testing.T) {
	for _, id := range IDs() {
		var want Direction
		switch {
		case id >= 0x01 && id <= 0x3F:
			want = ClientToServer
		case id >= 0x40 && id <= 0x9F:
			want = ServerToClient
		case id >= 0xA0 && id <= 0xAF:
			want = BothWays
		}
		if id.Direction() != want {
			t.Errorf("%v (0x%02x) is %v, its range says %v", id, uint8(id), id.Direction(), want)
		}
	}
	if ID(0).Known() || ID(0).Direction() != 0 || ID(0).Size() != 0 || New(0) != nil {
		t.Error("id 0 must not be a message")
	}
}

// TestHealthCommandRangesAreTheRecords: set takes 0..200 (MAX_VITAL_SET); add takes an
// amount and a max above 0 and at most 200.
func TestHealthCommandRangesAreTheRecords(t *testing.T) {
	for _, c := range []struct {
		m    Message
		want error
	}{
		{&SetHealth{Health: 0}, nil},
		{&SetHealth{Health: 200}, nil},
		{&SetHealth{Health: 200.00002}, ErrOutOfRange},
		{&SetHealth{Health: -1}, ErrOutOfRange},
		{&SetArmor{Armor: 200}, nil},
		{&GiveHealth{Amount: 25, Max: 100}, nil},
		{&GiveHealth{Amount: 0, Max: 100}, ErrOutOfRange},
		{&GiveHealth{Amount: 25, Max: 0}, ErrOutOfRange},
		{&GiveArmor{Amount: 200, Max: 200}, nil},
		{&GiveArmor{Amount: 201, Max: 200}, ErrOutOfRange},
		{&DamageMultipliers{Melee: 0, PredatorGun: 100}, nil}, // 0 refuses the hit: valid
		{&DamageMultipliers{Fire: -0.5}, ErrOutOfRange},
	} {
		_, err := c.m.Append(nil)
		if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("%v: Append = %v, want %v", c.m, err, c.want)
		}
	}
}

// TestStringIsDeterministic compares every sample's String with the golden file
// testdata/strings.golden (rewrite it with -update).
func TestStringIsDeterministic(t *testing.T) {
	var b strings.Builder
	for _, m := range samples() {
		s := m.String()
		if s != m.String() {
			t.Errorf("%v: String differs between calls", m.ID())
		}
		b.WriteString(s + "\n")
	}
	const golden = "testdata/strings.golden"
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), b.String()); d != "" {
		t.Errorf("String output changed (-golden +now); run with -update if intended:\n%s", d)
	}
}

func TestEnumStrings(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{RefWeaponShot.String(), "weapon_shot"},
		{RefKind(99).String(), "RefKind(99)"},
		{HitPlayerObject.String(), "player_object"},
		{HitType(6).String(), "HitType(6)"},
		{ReasonOverflow.String(), "overflow"},
		{Reason(9).String(), "Reason(9)"},
		{ID(0x3F).String(), "ID(0x3f)"},
		{IDRemoteWeaponShot.String(), "RemoteWeaponShot"},
		{ClientToServer.String(), "client to server"},
		{Direction(9).String(), "Direction(9)"},
		{ReliableIfLethal.String(), "unreliable; reliable if lethal"},
		{Delivery(9).String(), "Delivery(9)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
