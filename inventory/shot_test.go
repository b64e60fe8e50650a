package inventory

import (
	"errors"
	"math"
	"testing"
	"time"
)

// A shot of a weapon owned but not held (TestShotWithAWeaponOwnedButNotHeldIsAccepted) is a
// scenario in testdata/scenarios/loss_order.txt.

func TestAShotgunPullIsOneRound(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wShotgun, 10, true)
	r := inv.Shot(0, true, shotOf(wShotgun, 0, 20))
	if r.Verdict != Accepted || r.Pellets != 15 || r.Damage != 10 || !r.HasDamage {
		t.Fatalf("%v pellets %d damage %v", r, r.Pellets, r.Damage)
	}
	if got := ammoOf(t, inv, wShotgun); got != 9 {
		t.Fatalf("store %d: one pull of 15 pellets is one round", got)
	}
}

func TestShotValidationVerdicts(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		name  string
		alive bool
		shot  Shot
		want  Verdict
	}{
		{"valid", true, shotOf(wM4, 0, 50), Accepted},
		{"shooter not alive", false, shotOf(wM4, 0, 50), NotAlive},
		{"weapon 47", true, shotOf(47, 0, 50), UnknownWeapon},
		{"unused id 19", true, shotOf(19, 0, 50), UnknownWeapon},
		{"a knife is no gun", true, shotOf(wKnife, 0, 1), WrongKind},
		{"a grenade is no gun", true, shotOf(wGrenade, 0, 1), WrongKind},
		{"the flamethrower sends no shots", true, shotOf(wFlame, 0, 1), WrongKind},
		{"the fists", true, shotOf(Fists, 0, 1), WrongKind},
		{"a gun not in the store", true, shotOf(wSniper, 0, 50), NotOwned},
		{"a gun with no rounds", true, shotOf(wRifle, 0, 50), NoAmmo},
		{"NaN in the ray", true, Shot{Weapon: wM4, End: Vec3{nan, 0, 0}}, BadGeometry},
		{"infinite ray", true, Shot{Weapon: wM4, Origin: Vec3{0, float32(math.Inf(-1)), 0}}, BadGeometry},
		{"at the range plus slack", true, shotOf(wM4, 0, 90+RangeSlack), Accepted},
		{"beyond the range plus slack", true, shotOf(wM4, 0, 90+RangeSlack+0.01), OutOfRange},
		{"properties never published", true, shotOf(wM4, 1, 50), PropertiesFuture},
		{"properties too old", true, shotOf(wM4, 65000, 50), PropertiesTooOld},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv := newInv(t)
			give(t, inv, 0, wM4, 50, false)
			give(t, inv, 0, wRifle, 0, false)
			before := cloneInventory(inv)
			r := inv.Shot(time.Second, tc.alive, tc.shot)
			if r.Verdict != tc.want {
				t.Fatalf("%v, want %v", r, tc.want)
			}
			if tc.want != Accepted && !sameInventory(inv, &before) {
				t.Fatal("a refused shot changed the store")
			}
		})
	}
}

func TestShotsKeepTheMinimumInterval(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wSniper, 100, true)
	// A burst at once: the allowance takes one shot plus what fits in 300 ms of an
	// 800 ms cadence.
	if r := inv.Shot(0, true, shotOf(wSniper, 0, 100)); r.Verdict != Accepted {
		t.Fatal(r)
	}
	before := cloneInventory(inv)
	if r := inv.Shot(0, true, shotOf(wSniper, 0, 100)); r.Verdict != TooFast {
		t.Fatalf("second sniper shot at once: %v", r)
	}
	if !sameInventory(inv, &before) {
		t.Fatal("a refused shot changed the store")
	}
	// 500 ms later is within the 300 ms allowance of the 800 ms cadence.
	if r := inv.Shot(500*ms, true, shotOf(wSniper, 0, 100)); r.Verdict != Accepted {
		t.Fatalf("sniper shot 500 ms after: %v", r)
	}
	// The next is due at 1600 ms; 1299 ms is more than 300 ms early.
	if r := inv.Shot(1299*ms, true, shotOf(wSniper, 0, 100)); r.Verdict != TooFast {
		t.Fatalf("sniper shot 301 ms early: %v", r)
	}
	if r := inv.Shot(1300*ms, true, shotOf(wSniper, 0, 100)); r.Verdict != Accepted {
		t.Fatalf("sniper shot 300 ms early: %v", r)
	}
	// Each weapon keeps its own cadence.
	give(t, inv, 0, wDeagle, 7, false)
	if r := inv.Shot(1300*ms, true, shotOf(wDeagle, 0, 10)); r.Verdict != Accepted {
		t.Fatalf("a Deagle shot beside the sniper: %v", r)
	}
}

func TestWeaponsWithoutAnIntervalAreNotRateChecked(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wGrenade, 50, true)
	for i := range 50 {
		if r := inv.Projectile(0, true, wGrenade); r.Verdict != Accepted {
			t.Fatalf("grenade %d thrown at once: %v", i+1, r)
		}
	}
	if r := inv.Projectile(0, true, wGrenade); r.Verdict != NoAmmo {
		t.Fatalf("the 51st grenade: %v; each still costs a round", r)
	}
}

func TestProjectileTakesOneRoundOfItsWeapon(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wRPG, 3, false)
	give(t, inv, 0, wM4, 50, true)
	give(t, inv, 0, wSatchel, 1, false)
	r := inv.Projectile(0, true, wRPG)
	if r.Verdict != Accepted || r.Paid != PaidFromStore || ammoOf(t, inv, wRPG) != 2 {
		t.Fatalf("%v, rockets %d", r, ammoOf(t, inv, wRPG))
	}
	if inv.Held() != wM4 {
		t.Fatalf("held %d: a projectile does not change the held weapon", inv.Held())
	}
	for _, tc := range []struct {
		name   string
		alive  bool
		weapon uint8
		want   Verdict
	}{
		{"not alive", false, wRPG, NotAlive},
		{"weapon 200", true, 200, UnknownWeapon},
		{"unused 21", true, 21, UnknownWeapon},
		{"a gun", true, wM4, WrongKind},
		{"not owned", true, wGrenade, NotOwned},
	} {
		before := cloneInventory(inv)
		if r := inv.Projectile(0, tc.alive, tc.weapon); r.Verdict != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, r, tc.want)
		}
		if !sameInventory(inv, &before) {
			t.Errorf("%s: a refused projectile changed the store", tc.name)
		}
	}
	inv.Projectile(0, true, wSatchel)
	if r := inv.Projectile(0, true, wSatchel); r.Verdict != NoAmmo {
		t.Fatalf("second satchel of one: %v", r)
	}
}

func TestMeleeValidation(t *testing.T) {
	tests := []struct {
		name     string
		alive    bool
		weapon   uint8
		distance float32
		want     Verdict
	}{
		{"fists", true, Fists, 1, Accepted},
		{"an owned knife", true, wKnife, 2, Accepted},
		{"a gun butt", true, wM4, 1, Accepted},
		{"a gun butt with an empty gun", true, wRifle, 1, Accepted},
		{"at 6 m", true, Fists, MeleeRange, Accepted},
		{"beyond 6 m", true, Fists, MeleeRange + 0.01, OutOfRange},
		{"NaN distance", true, Fists, float32(math.NaN()), BadGeometry},
		{"negative distance", true, Fists, -1, BadGeometry},
		{"a katana not owned", true, 8, 1, NotOwned},
		{"attacker dead", false, Fists, 1, NotAlive},
		{"unused 20", true, wUnused, 1, UnknownWeapon},
		{"weapon 99", true, 99, 1, UnknownWeapon},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv := newInv(t)
			give(t, inv, 0, wKnife, 1, true)
			give(t, inv, 0, wM4, 50, false)
			give(t, inv, 0, wRifle, 0, false)
			before := cloneInventory(inv)
			r := inv.Melee(0, tc.alive, tc.weapon, tc.distance)
			if r.Verdict != tc.want {
				t.Fatalf("%v, want %v", r, tc.want)
			}
			if r.Paid != NoPayment {
				t.Fatalf("a blow costs no round: %v", r.Paid)
			}
			if tc.want != Accepted && !sameInventory(inv, &before) {
				t.Fatal("a refused blow changed the store")
			}
			if tc.want == Accepted && inv.Slots() != before.Slots() {
				t.Fatal("a blow changed the slots")
			}
		})
	}
}

func TestMeleeKeepsTheWeaponsInterval(t *testing.T) {
	inv := newInv(t)
	// 250 ms per blow and a 1 s allowance: 5 blows at once, then one per 250 ms.
	for i := range 5 {
		if r := inv.Melee(0, true, Fists, 1); r.Verdict != Accepted {
			t.Fatalf("blow %d: %v", i+1, r)
		}
	}
	if r := inv.Melee(0, true, Fists, 1); r.Verdict != TooFast {
		t.Fatalf("sixth blow at once: %v", r)
	}
	if r := inv.Melee(250*ms, true, Fists, 1); r.Verdict != Accepted {
		t.Fatalf("blow 250 ms later: %v", r)
	}
}

// TestShotOfAWeaponTakenInFlightIsAcceptedUncharged: the server takes the Colt while
// the client is still firing it; the shots fired before the client applied the take
// arrive after it.
func TestShotOfAWeaponTakenInFlightIsAcceptedUncharged(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wColt, 17, true)
	inv.Frame(0, echo(inv, wColt, 17, 17))
	old := inv.Rev()
	tk, err := inv.Take(100*ms, wColt)
	if err != nil {
		t.Fatal(err)
	}
	// Shots fired before the take arrived at the client.
	for i := range 3 {
		r := inv.Shot(150*ms+time.Duration(i)*160*ms, true, shotOf(wColt, 0, 20))
		if r.Verdict != Accepted || r.Paid != NotCharged {
			t.Fatalf("old shot %d: %v", i, r)
		}
	}
	inv.Frame(600*ms, Frame{WeaponRev: old, Weapon: wColt, Total: 14, Clip: 14})
	// The client applied the take and echoes it at 700 ms; its last old shot may still
	// arrive within DisplacedShotGrace.
	inv.Frame(700*ms, Frame{WeaponRev: tk.Rev, Weapon: Fists})
	if r := inv.Shot(700*ms+DisplacedShotGrace-ms, true, shotOf(wColt, 0, 20)); r.Verdict != Accepted {
		t.Fatalf("old shot just within the grace: %v", r)
	}
	if r := inv.Shot(700*ms+DisplacedShotGrace, true, shotOf(wColt, 0, 20)); r.Verdict != NotOwned {
		t.Fatalf("shot after the grace: %v", r)
	}
}

// TestSetAmmoInFlightDoesNotChargeShotsFiredBeforeIt: the server sets the held M4 to 50
// while the client (at 200) is firing. The client's count after applying the set is 50
// whatever it fired before; charging those shots would put the server below it.
func TestSetAmmoInFlightDoesNotChargeShotsFiredBeforeIt(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 200, true)
	set, err := inv.SetAmmo(0, wM4, 50, ClipNotSet)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Duration(0)
	for range 10 { // fired before the client applied the set
		now += 100 * ms
		if r := inv.Shot(now, true, shotOf(wM4, 0, 20)); r.Verdict != Accepted || r.Paid != NotCharged {
			t.Fatalf("%v", r)
		}
	}
	if got := ammoOf(t, inv, wM4); got != 50 {
		t.Fatalf("store %d, want the 50 the client will have", got)
	}
	// The client applies the set (50) and fires 50 shots; every one is accepted. The
	// ones within DisplacedShotGrace of the echo are not charged (the server cannot tell
	// them from old shots), the later ones are.
	now += 100 * ms
	echoAt := now
	inv.Frame(now, Frame{WeaponRev: set.Rev, Weapon: wM4, Total: 50, Clip: 50})
	charged := 0
	for i := range 50 {
		now += 100 * ms
		r := inv.Shot(now, true, shotOf(wM4, 0, 20))
		if r.Verdict != Accepted {
			t.Fatalf("shot %d of the 50 after the set: %v", i+1, r)
		}
		if free := now < echoAt+DisplacedShotGrace; free != (r.Paid == NotCharged) {
			t.Fatalf("shot %d at %v (echo at %v): %v", i+1, now, echoAt, r)
		}
		if r.Paid == PaidFromStore {
			charged++
		}
	}
	if got := ammoOf(t, inv, wM4); int(got) != 50-charged {
		t.Fatalf("store %d after %d charged shots", got, charged)
	}
	// A frozen counter after the grace: every shot is charged until the store is dry.
	accepted := 0
	for range 100 {
		now += 100 * ms
		inv.Frame(now, Frame{WeaponRev: set.Rev, Weapon: wM4, Total: 50, Clip: 50})
		if r := inv.Shot(now, true, shotOf(wM4, 0, 20)); r.Verdict == Accepted {
			accepted++
		}
	}
	if accepted != 50-charged || ammoOf(t, inv, wM4) != 0 {
		t.Fatalf("frozen counter: %d more shots accepted, store %d", accepted, ammoOf(t, inv, wM4))
	}
}

// TestOverwrittenWeaponIsProtectedAtMostTheRoundTripWithoutEcho: the MP5's old shots after
// a pooled swap come only within the round trip (none measured: UnmeasuredRTT) plus
// OverwriteShotMargin, and spend from the Uzi that carries the MP5's rounds.
func TestOverwrittenWeaponIsProtectedAtMostTheRoundTripWithoutEcho(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wMP5, 30, true)
	give(t, inv, 0, wUzi, 20, true) // pooled swap: MP5's old shots may still come
	if got := ammoOf(t, inv, wUzi); got != 50 {
		t.Fatalf("Uzi %d, want 50", got)
	}
	window := UnmeasuredRTT + OverwriteShotMargin
	if r := inv.Shot(window-ms, true, shotOf(wMP5, 0, 20)); r.Verdict != Accepted || r.Paid != PaidFromStore {
		t.Fatalf("old MP5 shot within the window: %v", r)
	}
	for _, at := range []time.Duration{window, SettleTimeout - ms} {
		if r := inv.Shot(at, true, shotOf(wMP5, 0, 20)); r.Verdict != NotOwned {
			t.Fatalf("MP5 shot %v after the swap: %v", at, r)
		}
	}
	if got := ammoOf(t, inv, wUzi); got != 49 {
		t.Fatalf("Uzi %d: the MP5's old shot spends the rounds carried over to it", got)
	}
}

func TestEmptyWeaponTakenIsNotProtected(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wColt, 0, true)
	if _, err := inv.Take(0, wColt); err != nil {
		t.Fatal(err)
	}
	if r := inv.Shot(10*ms, true, shotOf(wColt, 0, 20)); r.Verdict != NotOwned {
		t.Fatalf("a shot of a weapon that had no rounds: %v", r)
	}
}

func TestVerdictAndPaymentNames(t *testing.T) {
	names := map[Verdict]string{
		Accepted: "accepted", NotAlive: "not alive", UnknownWeapon: "unknown weapon",
		WrongKind: "wrong kind of weapon", NotOwned: "weapon not owned", NoAmmo: "no ammo",
		BadGeometry: "bad geometry", OutOfRange: "out of range", TooFast: "too fast",
		PropertiesTooOld: "properties revision too old", PropertiesFuture: "properties revision never published",
		0: "Verdict(0)",
	}
	for v, want := range names {
		if v.String() != want {
			t.Errorf("%d: %q", v, v.String())
		}
	}
	for p, want := range map[Payment]string{NoPayment: "no payment", PaidFromStore: "paid from the store",
		PaidByFrame: "paid by a frame", NotCharged: "not charged", 9: "Payment(9)"} {
		if p.String() != want {
			t.Errorf("%d: %q", p, p.String())
		}
	}
	if s := (ShotResult{Verdict: TooFast}).String(); s != "too fast" {
		t.Errorf("%q", s)
	}
	if s := (Result{Verdict: Accepted, Paid: PaidFromStore}).String(); s != "accepted, paid from the store" {
		t.Errorf("%q", s)
	}
	if s := (Slot{Weapon: 31, Total: 80, Clip: 30}).String(); s != "weapon 31 total 80 clip 30" {
		t.Errorf("%q", s)
	}
	if s := (WeaponProperties{Rev: 4}).String(); s != "WeaponProperties rev=4" {
		t.Errorf("%q", s)
	}
	if s := (SetWeaponAmmo{Rev: 1, Weapon: 31, Total: 5, Clip: 2}).String(); s != "SetWeaponAmmo rev=1 weapon=31 total=5 clip=2" {
		t.Errorf("%q", s)
	}
}

// TestOldShotsOfAnOverwrittenWeaponSpendOnlyWhatItHad: the uncharged old shots of a weapon
// a command overwrote are bounded by the rounds it had when it was overwritten; beyond
// them, shots spend from the new store. A client firing forged shots in the grace gains
// no round it was not given.
func TestOldShotsOfAnOverwrittenWeaponSpendOnlyWhatItHad(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 5, true)
	inv.Frame(0, echo(inv, wM4, 5, 5))
	if _, err := inv.SetAmmo(10*ms, wM4, 20, ClipNotSet); err != nil {
		t.Fatal(err)
	}
	now := 10 * ms
	free, charged := 0, 0
	for range 30 { // the command is never echoed: the grace lasts, the rounds do not
		now += 100 * ms
		switch r := inv.Shot(now, true, shotOf(wM4, 0, 20)); {
		case r.Verdict != Accepted:
			if r.Verdict != NoAmmo {
				t.Fatalf("%v", r)
			}
		case r.Paid == NotCharged:
			free++
		default:
			charged++
		}
	}
	if free != 5 || charged != 20 {
		t.Fatalf("%d free and %d charged shots: want the 5 it had and the 20 it was set to", free, charged)
	}
}

func TestOverwrittenWeaponIsSettledByTheLanesAcknowledgement(t *testing.T) {
	inv := newInv(t)
	inv.SetRTT(RTTLimit, true) // the longest window of old shots
	give(t, inv, 0, wMP5, 30, true)
	g := give(t, inv, 0, wUzi, 20, true) // pooled swap: the MP5's old shots may still come
	if err := inv.Acknowledged(100*ms, g.Rev+1); !errors.Is(err, ErrFutureRevision) {
		t.Fatalf("acknowledging a revision never sent: %v", err)
	}
	if r := inv.Shot(400*ms, true, shotOf(wMP5, 0, 20)); r.Verdict != Accepted {
		t.Fatalf("old MP5 shot before any acknowledgement: %v", r)
	}
	// The lane acknowledged the give at 500 ms, and the client never echoes it in a frame.
	ackAt := 500 * ms
	if err := inv.Acknowledged(ackAt, g.Rev); err != nil {
		t.Fatal(err)
	}
	if r := inv.Shot(ackAt+DisplacedShotGrace-ms, true, shotOf(wMP5, 0, 20)); r.Verdict != Accepted {
		t.Fatalf("old MP5 shot within DisplacedShotGrace of the acknowledgement: %v", r)
	}
	if ackAt+DisplacedShotGrace >= RTTLimit+OverwriteShotMargin {
		t.Fatal("the test needs the acknowledgement's grace to end before the round trip's window")
	}
	if r := inv.Shot(ackAt+DisplacedShotGrace, true, shotOf(wMP5, 0, 20)); r.Verdict != NotOwned {
		t.Fatalf("old MP5 shot after DisplacedShotGrace of the acknowledgement, before the round trip's window: %v", r)
	}
}
