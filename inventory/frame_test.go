package inventory

import (
	"testing"
	"time"
)

// The case of a give in flight (TestGiveInFlightIsNotUndoneByOldFrames), a
// frame that overtakes its shot (TestFrameThatOvertakesItsShotDoesNotDeductTwice) and the
// last round's shot after the empty frame (TestFrameShowingZeroBeforeTheLastShotStillAcceptsIt)
// are scenarios in testdata/scenarios/loss_order.txt.

func TestRevisionGateIsStrictEquality(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 50, true)
	give(t, inv, 0, wColt, 17, false)
	give(t, inv, 0, wSniper, 10, false) // revision 3
	tests := []struct {
		echo uint16
		want FrameVerdict
	}{
		{3, FrameMerged},
		{2, FrameStaleRevision},
		{0, FrameStaleRevision},
		{65535, FrameStaleRevision},
		{4, FrameFutureRevision},
		{3 + 32768, FrameStaleRevision}, // unordered: not the current revision
		{3 + 1000, FrameFutureRevision},
	}
	for _, tc := range tests {
		before := ammoOf(t, inv, wM4)
		r := inv.Frame(time.Second, Frame{WeaponRev: tc.echo, Weapon: wM4, Total: before - 1, Clip: 10})
		if r.Verdict != tc.want {
			t.Errorf("echo %d: %v, want %v", tc.echo, r, tc.want)
		}
		after := ammoOf(t, inv, wM4)
		if (tc.want == FrameMerged) != (after == before-1) {
			t.Errorf("echo %d: total %d -> %d", tc.echo, before, after)
		}
	}
}

func TestRevisionGateHoldsAcrossTheWrap(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 500, true)
	for inv.Rev() != 65535 {
		if _, err := inv.SetArmed(0, wM4); err != nil {
			t.Fatal(err)
		}
	}
	if r := inv.Frame(0, echo(inv, wM4, 499, 49)); r.Verdict != FrameMerged {
		t.Fatalf("at 65535: %v", r)
	}
	g := give(t, inv, 0, wM4, 100, true)
	if g.Rev != 0 {
		t.Fatalf("the revision after 65535 is %d, want 0", g.Rev)
	}
	if r := inv.Frame(0, Frame{WeaponRev: 65535, Weapon: wM4, Total: 10, Clip: 10}); r.Verdict != FrameStaleRevision {
		t.Fatalf("echo 65535 after the wrap: %v", r)
	}
	if got := ammoOf(t, inv, wM4); got != 599 {
		t.Fatalf("a stale frame across the wrap pulled the store to %d", got)
	}
	if r := inv.Frame(0, Frame{WeaponRev: 1, Weapon: wM4, Total: 10, Clip: 10}); r.Verdict != FrameFutureRevision {
		t.Fatalf("echo 1 after the wrap: %v", r)
	}
	if r := inv.Frame(0, Frame{WeaponRev: 0, Weapon: wM4, Total: 598, Clip: 10}); r.Verdict != FrameMerged {
		t.Fatalf("echo 0 after the wrap: %v", r)
	}
	if got := ammoOf(t, inv, wM4); got != 598 {
		t.Fatalf("store %d, want 598", got)
	}
}

func TestFrameMovesTheHeldWeaponOnlyWithinTheStore(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 50, true)
	give(t, inv, 0, wColt, 17, false)
	if r := inv.Frame(0, echo(inv, wColt, 17, 17)); r.Verdict != FrameMerged || inv.Held() != wColt {
		t.Fatalf("switch to an owned weapon: %v held %d", r, inv.Held())
	}
	before := inv.Slots()
	for _, w := range []uint8{wDeagle, wMinigun, 40} { // not owned; 40 is the satchel's detonator
		if r := inv.Frame(0, echo(inv, w, 500, 500)); r.Verdict != FrameHeldNotInStore {
			t.Fatalf("frame holding %d: %v", w, r)
		}
	}
	for _, w := range []uint8{wUnused, 47, 255} {
		if r := inv.Frame(0, echo(inv, w, 500, 500)); r.Verdict != FrameUnknownWeapon {
			t.Fatalf("frame holding %d: %v", w, r)
		}
	}
	if inv.Slots() != before || inv.Held() != wColt {
		t.Fatal("a frame holding a weapon outside the store changed the store")
	}
	if r := inv.Frame(0, echo(inv, Fists, 0, 0)); r.Verdict != FrameMerged || inv.Held() != Fists {
		t.Fatalf("fists: %v held %d", r, inv.Held())
	}
}

func TestFrameLowersTheTotalAndNeverRaisesIt(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 50, true)
	inv.Frame(0, echo(inv, wM4, 40, 40))
	if got := ammoOf(t, inv, wM4); got != 40 {
		t.Fatalf("store %d after a frame showing 40", got)
	}
	inv.Frame(0, echo(inv, wM4, 9000, 50))
	if got := ammoOf(t, inv, wM4); got != 40 {
		t.Fatalf("store %d after a frame showing 9000: an observation never adds", got)
	}
}

func TestClipMovesFreelyUnderTheTotal(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 100, true)
	inv.Frame(0, echo(inv, wM4, 100, 3))
	if s := inv.Slots()[5]; s.Clip != 3 {
		t.Fatalf("clip %d after shooting down the clip", s.Clip)
	}
	inv.Frame(0, echo(inv, wM4, 100, 50)) // a reload raises the clip
	if s := inv.Slots()[5]; s.Clip != 50 {
		t.Fatalf("clip %d after a reload", s.Clip)
	}
	inv.Frame(0, echo(inv, wM4, 20, 60000)) // never above the total
	if s := inv.Slots()[5]; s.Clip != 20 || s.Total != 20 {
		t.Fatalf("%v: the clip stays under the total", s)
	}
}

// TestFrozenCounterGetsThirtyShotsFromThirtyRounds: the client shows 30 rounds forever;
// the server spends one per shot and refuses the 31st.
func TestFrozenCounterGetsThirtyShotsFromThirtyRounds(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 30, true)
	now := time.Duration(0)
	for i := range 30 {
		now += 100 * ms
		inv.Frame(now, echo(inv, wM4, 30, 30))
		if r := inv.Shot(now, true, shotOf(wM4, 0, 20)); r.Verdict != Accepted || r.Paid != PaidFromStore {
			t.Fatalf("shot %d: %v", i+1, r)
		}
	}
	now += 100 * ms
	inv.Frame(now, echo(inv, wM4, 30, 30))
	if r := inv.Shot(now, true, shotOf(wM4, 0, 20)); r.Verdict != NoAmmo {
		t.Fatalf("shot 31 from a frozen counter: %v, want no ammo", r)
	}
	if got := ammoOf(t, inv, wM4); got != 0 {
		t.Fatalf("store %d, want 0", got)
	}
}

func TestCreditOfAFrameExpires(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 30, true)
	inv.Frame(0, echo(inv, wM4, 20, 20)) // 10 rounds counted by the frame
	if r := inv.Shot(CreditHold-ms, true, shotOf(wM4, 0, 20)); r.Paid != PaidByFrame {
		t.Fatalf("within the hold: %v", r)
	}
	if r := inv.Shot(CreditHold, true, shotOf(wM4, 0, 20)); r.Paid != PaidFromStore {
		t.Fatalf("after the hold: %v", r)
	}
	if got := ammoOf(t, inv, wM4); got != 19 {
		t.Fatalf("store %d, want 19", got)
	}
}

// fire sends frames every step from start for d with the continuous weapon w held and
// fire held, showing a frozen total, and returns the rounds the server spent.
func fire(inv *Inventory, w uint8, start, d, step time.Duration, shown uint16, rev uint16) (spent int, end time.Duration) {
	now := start
	for ; now <= start+d; now += step {
		r := inv.Frame(now, Frame{WeaponRev: rev, Weapon: w, Total: shown, Clip: shown, FireHeld: true})
		spent += int(r.FireSpent)
	}
	return spent, now
}

func TestContinuousFireSpendsTenRoundsPerSecond(t *testing.T) {
	for _, step := range []time.Duration{20 * ms, 33 * ms, 50 * ms, 100 * ms} {
		inv := newInv(t)
		give(t, inv, 0, wFlame, 500, true)
		spent, _ := fire(inv, wFlame, 0, 10*time.Second, step, 500, inv.Rev())
		if spent < 99 || spent > 100 {
			t.Errorf("frames every %v for 10 s: spent %d, want 10 per second", step, spent)
		}
		if got := ammoOf(t, inv, wFlame); int(got) != 500-spent {
			t.Errorf("store %d after spending %d", got, spent)
		}
	}
}

func TestContinuousFireFrozenCounterRunsDry(t *testing.T) {
	for _, w := range []uint8{wFlame, wSpraycan, 42} {
		inv := newInv(t)
		give(t, inv, 0, w, 200, true)
		spent, _ := fire(inv, w, 0, 25*time.Second, 50*ms, 200, inv.Rev())
		if spent != 200 || ammoOf(t, inv, w) != 0 {
			t.Errorf("weapon %d: spent %d, store %d: a frozen counter must run dry", w, spent, ammoOf(t, inv, w))
		}
	}
}

func TestContinuousFireCountsOnlyTimeBetweenFramesOfOnePress(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wFlame, 500, true)
	rev := inv.Rev()
	// Lost frames: a 400 ms gap between two frames with the fire held counts in full.
	inv.Frame(0, Frame{WeaponRev: rev, Weapon: wFlame, Total: 500, Clip: 500, FireHeld: true})
	r := inv.Frame(400*ms, Frame{WeaponRev: rev, Weapon: wFlame, Total: 500, Clip: 500, FireHeld: true})
	if r.FireSpent != 4 {
		t.Fatalf("a 400 ms gap spent %d, want 4", r.FireSpent)
	}
	// Released: the next press starts free.
	inv.Frame(450*ms, Frame{WeaponRev: rev, Weapon: wFlame, Total: 500})
	r = inv.Frame(460*ms, Frame{WeaponRev: rev, Weapon: wFlame, Total: 500, Clip: 500, FireHeld: true})
	if r.FireSpent != 0 {
		t.Fatalf("the first frame of a press spent %d", r.FireSpent)
	}
	// Taps shorter than a round never spend.
	inv.Frame(500*ms, Frame{WeaponRev: rev, Weapon: wFlame, Total: 500})
	total := 0
	for i := range 20 {
		at := time.Second + time.Duration(i)*200*ms
		total += int(inv.Frame(at, Frame{WeaponRev: rev, Weapon: wFlame, Total: 500, Clip: 500, FireHeld: true}).FireSpent)
		total += int(inv.Frame(at+50*ms, Frame{WeaponRev: rev, Weapon: wFlame, Total: 500, Clip: 500, FireHeld: true}).FireSpent)
		total += int(inv.Frame(at+100*ms, Frame{WeaponRev: rev, Weapon: wFlame, Total: 500}).FireSpent)
	}
	if total != 0 {
		t.Fatalf("20 taps of 50 ms spent %d", total)
	}
	// Fire held with a gun or with fists spends nothing.
	give(t, inv, 0, wM4, 50, true)
	fire(inv, wM4, 10*time.Second, time.Second, 50*ms, 50, inv.Rev())
	if got := ammoOf(t, inv, wM4); got != 50 {
		t.Fatalf("fire held with a gun spent %d", 50-got)
	}
}

func TestContinuousFireSpendsWhateverTheFrameEchoes(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wFlame, 100, true)
	stale := inv.Rev()
	give(t, inv, 0, wFlame, 100, true) // adds: the client's old rounds still burn
	spent, _ := fire(inv, wFlame, 0, 5*time.Second, 50*ms, 100, stale)
	if spent < 49 {
		t.Fatalf("a client that never echoes spent only %d in 5 s", spent)
	}
	spent, _ = fire(inv, wFlame, 10*time.Second, 5*time.Second, 50*ms, 100, inv.Rev()+7)
	if spent < 49 {
		t.Fatalf("a client echoing a future revision spent only %d in 5 s", spent)
	}
}

func TestFrameVerdictNames(t *testing.T) {
	for v, want := range map[FrameVerdict]string{
		FrameMerged: "merged", FrameHeldNotInStore: "held weapon not in the store",
		FrameUnknownWeapon: "unknown weapon", FrameStaleRevision: "stale weapon revision",
		FrameFutureRevision: "future weapon revision", 0: "FrameVerdict(0)",
	} {
		if v.String() != want {
			t.Errorf("%d: %q", v, v.String())
		}
	}
	if s := (FrameResult{Verdict: FrameMerged, FireSpent: 2}).String(); s != "merged, fire spent 2" {
		t.Errorf("%q", s)
	}
}

// TestContinuousFireIsFreeWhileTheClipReloads: a spraycan set to 20 rounds with a clip
// of 5 sprays 5, then reloads for a second with the fire still held; the frames show
// the empty clip, and the server spends nothing for the reload.
func TestContinuousFireIsFreeWhileTheClipReloads(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wSpraycan, 100, true)
	set, err := inv.SetAmmo(0, wSpraycan, 20, 5)
	if err != nil {
		t.Fatal(err)
	}
	now := DisplacedGrace + time.Second
	inv.Frame(now, Frame{WeaponRev: set.Rev, Weapon: wSpraycan, Total: 20, Clip: 5}) // settles the set
	now += DisplacedGrace
	spent := 0
	at := func(d time.Duration, total, clip uint16) {
		spent += int(inv.Frame(now+d, Frame{WeaponRev: set.Rev, Weapon: wSpraycan, Total: total, Clip: clip, FireHeld: true}).FireSpent)
	}
	at(0, 20, 5)
	at(50*ms, 18, 3)
	at(100*ms, 16, 1)
	for d := 150 * ms; d <= 1150*ms; d += 50 * ms {
		at(d, 15, 0) // reloading
	}
	if spent > 1 {
		t.Fatalf("spent %d while the clip reloaded; the client sprayed 5", spent)
	}
	if got := ammoOf(t, inv, wSpraycan); got != 15 {
		t.Fatalf("store %d, want the client's 15", got)
	}
}

// A frame that shows another weapon of the store held, with fewer rounds, both switches to
// it and merges its count into it (the held slot's state moves to the front of the store
// as it becomes the held one: the merge must land there, not in the slot's old place).
func TestFrameThatSwitchesWeaponMergesIntoTheNewHeldOne(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 50, true)
	give(t, inv, 0, wDeagle, 21, false)
	if inv.Held() != wM4 {
		t.Fatalf("held %d, want the M4", inv.Held())
	}
	r := inv.Frame(time.Second, echo(inv, wDeagle, 14, 7))
	if r.Verdict != FrameMerged {
		t.Fatalf("%v", r)
	}
	if inv.Held() != wDeagle {
		t.Fatalf("held %d after the frame, want the Deagle", inv.Held())
	}
	slots := inv.Slots()
	if got := slots[inv.cat.slot[wDeagle]]; got != (Slot{Weapon: wDeagle, Total: 14, Clip: 7}) {
		t.Fatalf("Deagle slot %v, want total 14 clip 7", got)
	}
	if got := slots[inv.cat.slot[wM4]]; got.Weapon != wM4 || got.Total != 50 {
		t.Fatalf("M4 slot %v, want its 50 rounds", got)
	}
	checkStore(t, inv)
	// Back to the M4, with fewer rounds too.
	if r := inv.Frame(2*time.Second, echo(inv, wM4, 40, 20)); r.Verdict != FrameMerged {
		t.Fatalf("%v", r)
	}
	slots = inv.Slots()
	if inv.Held() != wM4 || slots[inv.cat.slot[wM4]] != (Slot{Weapon: wM4, Total: 40, Clip: 20}) ||
		slots[inv.cat.slot[wDeagle]] != (Slot{Weapon: wDeagle, Total: 14, Clip: 7}) {
		t.Fatalf("held %d, slots %v", inv.Held(), slots)
	}
	checkStore(t, inv)
}

// A frame without the fire held ends the press and forgets its fire time (a frame that
// does not fire writes the press's state only while one is on, so the state with no press
// must be the zero one).
func TestFrameWithoutFireForgetsThePress(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wFlame, 500, true)
	for i, clip := range []uint16{500, 500, 0, 500} { // the third frame shows a reload
		inv.Frame(time.Duration(i)*40*ms, Frame{WeaponRev: inv.Rev(), Weapon: wFlame, Total: 500, Clip: clip, FireHeld: true})
	}
	if inv.fireWeapon != wFlame || inv.fireAcc == 0 {
		t.Fatalf("press %d, fire time %v: the press is not on", inv.fireWeapon, inv.fireAcc)
	}
	inv.Frame(200*ms, Frame{WeaponRev: inv.Rev(), Weapon: wFlame, Total: 500, Clip: 500})
	checkStore(t, inv)
	inv.Frame(2*time.Second, Frame{WeaponRev: inv.Rev(), Weapon: wFlame, Total: 500, Clip: 0, FireHeld: true})
	inv.Frame(2*time.Second+40*ms, Frame{WeaponRev: inv.Rev(), Weapon: wM4, Total: 500, Clip: 0})
	checkStore(t, inv)
}
