package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// The external tests drive the reference server through the simulation kit: two honest
// bystanders on the simulated network, and the raw connections a test writes every
// message of (simkit.Raw), with no client model between the test and the server.

// rawKit starts a kit of cfg with two honest bystanders and n raw connections whose
// pongs and acknowledgements take rtt, and spawns each raw connection (life 1, its
// first frame on foot at the spawn point). A nil cfg.Loadout becomes an empty one, so
// that the tests give what they need; a zero MaxPlayers 16, MaxVehicles 8 (the arena's
// car is vehicle 0), RespawnDelay 1 s.
func rawKit(t *testing.T, cfg refserver.Config, rtt time.Duration, n int) (*simkit.Kit, []*simkit.Raw) {
	t.Helper()
	if cfg.Loadout == nil {
		cfg.Loadout = []refserver.Loadout{}
	}
	if cfg.MaxPlayers == 0 {
		cfg.MaxPlayers = 16
	}
	if cfg.MaxVehicles == 0 {
		cfg.MaxVehicles = 8
	}
	if cfg.RespawnDelay == 0 {
		cfg.RespawnDelay = time.Second
	}
	k := simkit.New(simkit.Config{Seed: 1, Server: cfg})
	_, err := k.Join("bystander1", simkit.Link{})
	require.NoError(t, err)
	_, err = k.Join("bystander2", simkit.Link{})
	require.NoError(t, err)
	raws := make([]*simkit.Raw, n)
	for i := range raws {
		raws[i], err = k.JoinRaw(string(rune('a' + i)))
		require.NoError(t, err)
		raws[i].SetRTT(rtt)
	}
	require.NoError(t, k.Start())
	for _, r := range raws {
		v, err := r.Send(&wire.RespawnRequest{DeathEpoch: 0})
		require.NoError(t, err)
		require.Equal(t, refserver.VerdictAccepted, v, "respawn request")
	}
	require.NoError(t, k.Advance(50*time.Millisecond))
	for _, r := range raws {
		sp, ok := lastOf[*wire.RespawnPlayer](r)
		require.True(t, ok, "%s was sent its spawn", r.Name())
		require.Equal(t, uint16(1), sp.DeathEpoch)
		v, err := r.Send(&wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: wire.NoVehicle, Position: sp.Position})
		require.NoError(t, err)
		require.Equal(t, refserver.VerdictAccepted, v, "the first living frame")
	}
	return k, raws
}

// lastOf returns the last message of type T the raw connection received.
func lastOf[T wire.Message](r *simkit.Raw) (T, bool) {
	var last T
	ok := false
	for _, m := range r.Received() {
		if v, is := m.(T); is {
			last, ok = v, true
		}
	}
	return last, ok
}

// eventsOf returns the kit's events of kind about player id.
func eventsOf(k *simkit.Kit, kind refserver.EventKind, id refserver.PlayerID) []refserver.Event {
	var out []refserver.Event
	for _, e := range k.EventsOf(kind) {
		if e.Player == id {
			out = append(out, e)
		}
	}
	return out
}

// must fails the test on an error and returns the verdict.
func must(t *testing.T) func(refserver.Verdict, error) refserver.Verdict {
	return func(v refserver.Verdict, err error) refserver.Verdict {
		t.Helper()
		require.NoError(t, err)
		return v
	}
}

const (
	deagle uint8 = 24
)

// rawDuel is two raw connections spawned 10 m apart on the X axis: a at the spawn point
// (the origin) holding weapon with 100 rounds (the give echoed in its frame 2), b at
// x = 10 (its frame 2). Both have sent frames 1 and 2, no shot and no report.
func rawDuel(t *testing.T, cfg refserver.Config, weapon uint8, rtt time.Duration, n int) (*simkit.Kit, []*simkit.Raw) {
	t.Helper()
	k, raws := rawKit(t, cfg, rtt, n)
	a, b := raws[0], raws[1]
	require.NoError(t, k.Server().GiveWeapon(k.Now(), a.ID(), weapon, 100, true))
	require.NoError(t, k.Advance(20*time.Millisecond))
	give, ok := lastOf[*wire.GiveWeapon](a)
	require.True(t, ok)
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.PlayerSync{Seq: 2, DeathEpoch: 1, Alive: true, Health: 100,
		Vehicle: wire.NoVehicle, WeaponRev: give.Rev, Weapon: weapon, Clip: min(100, 50), Total: 100})))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.PlayerSync{Seq: 2, DeathEpoch: 1, Alive: true, Health: 100,
		Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 10}})))
	for _, r := range raws {
		r.Clear()
	}
	return k, raws
}

// shot is a WeaponShot of life 1 from the origin to end (the properties' first revision).
func shot(seq uint16, weapon uint8, end wire.Vec3, ht wire.HitType, hid refserver.PlayerID) *wire.WeaponShot {
	return &wire.WeaponShot{ShotSeq: seq, DeathEpoch: 1, Weapon: weapon, HitType: ht, HitID: uint16(hid), HitPos: end}
}

// report is a DamageReport of a torso hit that took loss from before (health, armor), armor
// first.
func report(seq, vitalRev uint16, attacker refserver.PlayerID, weapon uint8, ref wire.Ref, health, armor, loss float32) *wire.DamageReport {
	fromArmor := min(loss, armor)
	return &wire.DamageReport{DamageSeq: seq, VitalRev: vitalRev, Attacker: attacker, Weapon: weapon, BodyPart: wire.BodyTorso,
		Ref: ref, HealthBefore: health, ArmorBefore: armor, HealthAfter: max(health-(loss-fromArmor), 0), ArmorAfter: armor - fromArmor,
		Loss: loss}
}

// lethal makes a's first shot hit b (at 100 health) and b report it as lethal (its first
// report): the ledger counts the death.
func lethal(t *testing.T, k *simkit.Kit, a, b *simkit.Raw, weapon uint8) {
	t.Helper()
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, weapon, wire.Vec3{X: 10}, wire.HitPlayer, b.ID()))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(report(1, 0, a.ID(), weapon, wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, 100, 0, 100))))
	ph, err := k.Server().Phase(b.ID())
	require.NoError(t, err)
	require.Equal(t, lifecycle.PhaseDying, ph, "the ledger counted the death")
}

// receivedOf returns the messages of type T the raw connection received (since its last
// Clear).
func receivedOf[T wire.Message](r *simkit.Raw) []T {
	var out []T
	for _, m := range r.Received() {
		if v, ok := m.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// ids returns the ids of the messages the raw connection received, in order.
func ids(r *simkit.Raw) []wire.ID {
	var out []wire.ID
	for _, m := range r.Received() {
		out = append(out, m.ID())
	}
	return out
}

// tick advances the kit by one server tick: what was sent is handled, the server's
// events are drained and its datagrams delivered.
func tick(t *testing.T, k *simkit.Kit) {
	t.Helper()
	require.NoError(t, k.Advance(simkitTick))
}

const simkitTick = 10 * time.Millisecond

// sender is what a test has sent on a raw connection so far (its frames' numbers and
// position, its seat, its shots' numbers), so that its next message continues them. It
// holds nothing the server sent: every number a frame echoes is the test's to set.
type sender struct {
	t      *testing.T
	k      *simkit.Kit
	r      *simkit.Raw
	seq    uint16 // the last frame's number
	gen    uint16
	pos    wire.Vec3
	veh    uint16
	seat   uint8
	weapon uint8
	shots  uint16 // the last shot's number
	// health and armor are what its own reports left it (a test's victim applies the
	// losses it reports, as a game would); dmg is its last report's number.
	health, armor float32
	dmg           uint16
}

// senders returns the senders of a rawDuel's connections: a at the origin holding
// weapon, b at x = 10, the others at the origin, each past its frame 2.
func senders(t *testing.T, k *simkit.Kit, r []*simkit.Raw, weapon uint8) []*sender {
	out := make([]*sender, len(r))
	for i, x := range r {
		out[i] = &sender{t: t, k: k, r: x, seq: 2, gen: 1, veh: wire.NoVehicle, health: 100}
	}
	out[0].weapon = weapon
	out[1].pos = wire.Vec3{X: 10}
	return out
}

// frame sends the next frame (alive, 100 health, at pos, in veh's seat) and returns the
// verdict.
func (s *sender) frame() refserver.Verdict {
	s.t.Helper()
	s.seq++
	seat := s.seat
	if s.veh == wire.NoVehicle {
		seat = 0
	}
	return must(s.t)(s.r.Send(&wire.PlayerSync{Seq: s.seq, DeathEpoch: s.gen, Alive: s.health > 0, Health: s.health, Armor: s.armor,
		DamageSeq: s.dmg, Weapon: s.weapon, Vehicle: s.veh, Seat: seat, Position: s.pos}))
}

// move sends n frames frameSpacing apart, each step further.
func (s *sender) move(step wire.Vec3, n int) {
	s.t.Helper()
	for range n {
		require.NoError(s.t, s.k.Advance(frameSpacing))
		s.pos = add3(s.pos, step)
		require.Equal(s.t, refserver.VerdictAccepted, s.frame())
	}
}

// shootFrom sends the next WeaponShot of its weapon from origin to end.
func (s *sender) shootFrom(origin, end wire.Vec3, ht wire.HitType, hid refserver.PlayerID) refserver.Verdict {
	s.t.Helper()
	s.shots++
	return must(s.t)(s.r.Send(&wire.WeaponShot{ShotSeq: s.shots, DeathEpoch: s.gen, PropertiesRev: s.k.Server().Catalog().Revision(),
		Weapon: s.weapon, HitType: ht, HitID: uint16(hid), Origin: origin, HitPos: end}))
}

// launch sends a ProjectileLaunch from origin (from vehicle veh, NoVehicle on foot).
func (s *sender) launch(seq uint16, weapon uint8, veh uint16, origin wire.Vec3) refserver.Verdict {
	s.t.Helper()
	return must(s.t)(s.r.Send(&wire.ProjectileLaunch{Projectile: seq, DeathEpoch: s.gen, Weapon: weapon, Vehicle: veh,
		Target: wire.NoVehicle, Origin: origin, Velocity: wire.Vec3{X: 15}}))
}

// detonate sends the Detonation of projectile seq at pos.
func (s *sender) detonate(seq uint16, weapon uint8, pos wire.Vec3) refserver.Verdict {
	s.t.Helper()
	return must(s.t)(s.r.Send(&wire.Detonation{Projectile: seq, DeathEpoch: s.gen, Weapon: weapon, Position: pos}))
}

const frameSpacing = 33 * time.Millisecond

func add3(a, b wire.Vec3) wire.Vec3 { return wire.Vec3{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z} }

// lastRefusal returns the newest event of kind k about id (ticking once so that it is
// drained).
func lastRefusal(t *testing.T, k *simkit.Kit, kind refserver.EventKind, id refserver.PlayerID) refserver.Event {
	t.Helper()
	tick(t, k)
	ev := eventsOf(k, kind, id)
	require.NotEmpty(t, ev)
	return ev[len(ev)-1]
}

// walkTo sends a frame on foot at pos, which must be accepted.
func (s *sender) walkTo(pos wire.Vec3) {
	s.t.Helper()
	s.veh, s.seat, s.pos = wire.NoVehicle, 0, pos
	require.Equal(s.t, refserver.VerdictAccepted, s.frame(), "the frame on foot")
}

// board walks to pos and sends its frame in seat of vehicle veh, returning its verdict.
func (s *sender) board(veh uint16, seat uint8, pos wire.Vec3) refserver.Verdict {
	s.t.Helper()
	s.walkTo(pos)
	s.veh, s.seat = veh, seat
	return s.frame()
}

// vshot sends the next VehicleShot from vehicle veh, from origin to end.
func (s *sender) vshot(veh uint16, weapon uint8, origin, end wire.Vec3) refserver.Verdict {
	s.t.Helper()
	s.shots++
	return must(s.t)(s.r.Send(&wire.VehicleShot{ShotSeq: s.shots, DeathEpoch: s.gen, PropertiesRev: s.k.Server().Catalog().Revision(),
		Vehicle: veh, Weapon: weapon, HitType: wire.HitNone, Origin: origin, HitPos: end}))
}

// refusedInputs returns the input_refused events of player id with verdict v (ticking
// once so that they are drained).
func refusedInputs(t *testing.T, k *simkit.Kit, id refserver.PlayerID, v refserver.Verdict) []refserver.Event {
	t.Helper()
	tick(t, k)
	var out []refserver.Event
	for _, e := range eventsOf(k, refserver.EventInputRefused, id) {
		if e.Verdict == v {
			out = append(out, e)
		}
	}
	return out
}

// shoot sends the next WeaponShot of its weapon from where it stands to end.
func (s *sender) shoot(end wire.Vec3, ht wire.HitType, hid refserver.PlayerID) refserver.Verdict {
	s.t.Helper()
	return s.shootFrom(s.pos, end, ht, hid)
}

// hit sends its next DamageReport: loss from attacker's weapon (ref the action it
// answers), taken from its armor first, then its health.
func (s *sender) hit(attacker refserver.PlayerID, weapon uint8, ref wire.Ref, loss float32) refserver.Verdict {
	s.t.Helper()
	s.dmg++
	m := report(s.dmg, 0, attacker, weapon, ref, s.health, s.armor, loss)
	s.health, s.armor = m.HealthAfter, m.ArmorAfter
	return must(s.t)(s.r.Send(m))
}
