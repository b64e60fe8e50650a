package inventory

import (
	"math/rand/v2"
	"testing"
	"time"
)

// The rules of this file: the rounds a command carries over into a pooled slot are spent
// once, whichever weapon of the slot fires them; an overwritten weapon's old shots are
// accepted only for the player's round trip plus OverwriteShotMargin after the command;
// continuous fire is charged for every moment between two frames that show it held.

// fireAll fires w every step from start until the store refuses it (or limit shots), and
// returns the shots accepted and the time after the last one.
func fireAll(inv *Inventory, w uint8, start, step time.Duration, limit int) (accepted int, end time.Duration) {
	now := start
	for range limit {
		if inv.Shot(now, true, shotOf(w, 0, 20)).Verdict == Accepted {
			accepted++
		}
		now += step
	}
	return accepted, now
}

// TestCarriedOverRoundsAreSpentOnce is issue 12's case: Uzi 50, then a give of the MP5
// with 10 (slot 4 pools its ammo: the MP5 has 60, the Uzi's 50 included). Shots of the
// replaced Uzi in the window are charged to the MP5's 60: whatever the client echoes,
// it fires at most the 50 it had plus the 10 it was given.
func TestCarriedOverRoundsAreSpentOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		ack  time.Duration // when the give is acknowledged; 0: never
	}{
		{"never echoes nor acknowledges", 0},
		{"acknowledged 50 ms after the give", 150 * ms},
	} {
		inv := newInv(t)
		inv.SetRTT(200*ms, true)
		give(t, inv, 0, wUzi, 50, true)
		inv.Frame(50*ms, echo(inv, wUzi, 50, 50))
		g := give(t, inv, 100*ms, wMP5, 10, false)
		if got := ammoOf(t, inv, wMP5); got != 60 {
			t.Fatalf("MP5 %d after the give, want 60", got)
		}
		if tc.ack > 0 {
			if err := inv.Acknowledged(tc.ack, g.Rev); err != nil {
				t.Fatal(err)
			}
		}
		uzi, end := fireAll(inv, wUzi, 110*ms, 55*ms, 80)
		mp5, _ := fireAll(inv, wMP5, end, 95*ms, 100)
		if uzi+mp5 != 60 {
			t.Errorf("%s: %d Uzi and %d MP5 shots accepted, want 60 in all (50 held + 10 given)", tc.name, uzi, mp5)
		}
	}
}

// TestCarriedOverShotsOfAnHonestClientAreAllAccepted: the client fires 5 Uzi shots before
// it applies the give, then the MP5's 55 (60 - 5); every one is accepted, and the server's
// count follows the client's exactly.
func TestCarriedOverShotsOfAnHonestClientAreAllAccepted(t *testing.T) {
	inv := newInv(t)
	inv.SetRTT(400*ms, true)
	give(t, inv, 0, wUzi, 50, true)
	inv.Frame(50*ms, echo(inv, wUzi, 50, 50))
	old := inv.Rev()
	g := give(t, inv, 100*ms, wMP5, 10, false)
	now := 100 * ms
	for i := range 5 { // fired before the give arrived, they reach the server after it
		now += 60 * ms
		if r := inv.Shot(now, true, shotOf(wUzi, 0, 20)); r.Verdict != Accepted {
			t.Fatalf("old Uzi shot %d: %v", i, r)
		}
		inv.Frame(now+ms, Frame{WeaponRev: old, Weapon: wUzi, Total: uint16(49 - i), Clip: uint16(49 - i)})
	}
	if got := ammoOf(t, inv, wMP5); got != 55 {
		t.Fatalf("MP5 %d after 5 old Uzi shots, want the client's 55", got)
	}
	inv.Frame(now+20*ms, Frame{WeaponRev: g.Rev, Weapon: wUzi, Total: 55, Clip: 50})
	for i := range 55 {
		now += 100 * ms
		if r := inv.Shot(now, true, shotOf(wMP5, 0, 20)); r.Verdict != Accepted {
			t.Fatalf("MP5 shot %d of 55: %v", i+1, r)
		}
	}
	if got := ammoOf(t, inv, wMP5); got != 0 {
		t.Fatalf("MP5 %d after the client's 55 shots, want 0", got)
	}
}

// TestCarriedOverCreditPaysTheShotsItCounted: a frame already counted two Uzi shots still
// in flight when the MP5 is given; they arrive after the give and are paid by that count,
// not a second time from the carried total.
func TestCarriedOverCreditPaysTheShotsItCounted(t *testing.T) {
	inv := newInv(t)
	inv.SetRTT(100*ms, true)
	give(t, inv, 0, wUzi, 50, true)
	inv.Frame(10*ms, echo(inv, wUzi, 48, 48)) // two shots in flight
	give(t, inv, 20*ms, wMP5, 10, false)
	if got := ammoOf(t, inv, wMP5); got != 58 {
		t.Fatalf("MP5 %d, want 58", got)
	}
	for i := range 2 {
		if r := inv.Shot(30*ms+time.Duration(i)*60*ms, true, shotOf(wUzi, 0, 20)); r.Verdict != Accepted || r.Paid != PaidByFrame {
			t.Fatalf("Uzi shot %d the frame counted: %v", i, r)
		}
	}
	if got := ammoOf(t, inv, wMP5); got != 58 {
		t.Fatalf("MP5 %d after the shots the frame counted, want 58", got)
	}
}

// TestCarriedOverThenTakenSpendsOneStock: Uzi 50, MP5 +10 (60), then the MP5 is taken. Old
// Uzi and MP5 shots share what the slot had when the take overwrote it: at most 60.
func TestCarriedOverThenTakenSpendsOneStock(t *testing.T) {
	inv := newInv(t)
	inv.SetRTT(300*ms, true)
	give(t, inv, 0, wUzi, 50, true)
	give(t, inv, 100*ms, wMP5, 10, false)
	if _, err := inv.Take(150*ms, wMP5); err != nil {
		t.Fatal(err)
	}
	if r := inv.Shot(200*ms, true, shotOf(wUzi, 0, 20)); r.Verdict != Accepted {
		t.Fatalf("an Uzi shot in flight across both commands: %v", r)
	}
	uzi, end := fireAll(inv, wUzi, 260*ms, 55*ms, 80)
	mp5, _ := fireAll(inv, wMP5, end, 95*ms, 80)
	if total := 1 + uzi + mp5; total > 60 {
		t.Fatalf("%d shots accepted after the swap and the take, want at most 60", total)
	}
}

// TestReplacedWeaponOfAPlainSlotFiresAtMostWhatItHadPlusTheGive: slot 2 does not pool.
// The Colt's 17 old rounds stay its own, the Deagle's 30 are the Deagle's: a client that
// never echoes fires at most 47.
func TestReplacedWeaponOfAPlainSlotFiresAtMostWhatItHadPlusTheGive(t *testing.T) {
	inv := newInv(t)
	inv.SetRTT(400*ms, true)
	give(t, inv, 0, wColt, 17, true)
	give(t, inv, 100*ms, wDeagle, 30, true)
	if got := ammoOf(t, inv, wDeagle); got != 30 {
		t.Fatalf("Deagle %d, want 30 (no carry-over)", got)
	}
	colt, end := fireAll(inv, wColt, 110*ms, 165*ms, 40)
	deagle, _ := fireAll(inv, wDeagle, end, 125*ms, 60)
	if colt > 17 || colt+deagle > 47 || deagle != 30 {
		t.Fatalf("%d Colt and %d Deagle shots: want at most the Colt's 17, and the Deagle's 30", colt, deagle)
	}
}

// TestOldShotsOfATakenWeaponEndWithTheRoundTrip is issue 17's case: the client withholds
// its acknowledgement and never echoes the take, and keeps firing the Deagle. Its old
// shots are accepted only while they could have been fired before the take arrived:
// the measured round trip plus OverwriteShotMargin after the take.
func TestOldShotsOfATakenWeaponEndWithTheRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		rtt      time.Duration
		measured bool
		window   time.Duration
	}{
		{0, true, OverwriteShotMargin},
		{150 * ms, true, 150*ms + OverwriteShotMargin},
		{400 * ms, true, 400*ms + OverwriteShotMargin},
		{0, false, UnmeasuredRTT + OverwriteShotMargin},
		{10 * time.Second, true, RTTLimit + OverwriteShotMargin}, // held-back pongs
	} {
		inv := newInv(t)
		give(t, inv, 0, wDeagle, 70, true)
		inv.Frame(50*ms, echo(inv, wDeagle, 70, 7))
		inv.SetRTT(tc.rtt, tc.measured)
		take := time.Second
		if _, err := inv.Take(take, wDeagle); err != nil {
			t.Fatal(err)
		}
		if r := inv.Shot(take+tc.window-ms, true, shotOf(wDeagle, 0, 20)); r.Verdict != Accepted || r.Paid != NotCharged {
			t.Errorf("rtt %v (measured %v): a shot just inside %v: %v", tc.rtt, tc.measured, tc.window, r)
		}
		for at := take + tc.window; at < take+SettleTimeout+time.Second; at += 130 * ms {
			if r := inv.Shot(at, true, shotOf(wDeagle, 0, 20)); r.Verdict != NotOwned {
				t.Errorf("rtt %v (measured %v): a taken Deagle fired %v after the take: %v", tc.rtt, tc.measured, at-take, r)
				break
			}
		}
	}
}

// TestOldShotsOfAnOverwrittenWeaponAreChargedAfterTheRoundTrip: SetAmmo keeps the weapon;
// after the window its shots are the new count's, however long the client stays silent.
func TestOldShotsOfAnOverwrittenWeaponAreChargedAfterTheRoundTrip(t *testing.T) {
	inv := newInv(t)
	inv.SetRTT(300*ms, true)
	give(t, inv, 0, wM4, 200, true)
	if _, err := inv.SetAmmo(0, wM4, 50, ClipNotSet); err != nil {
		t.Fatal(err)
	}
	if r := inv.Shot(300*ms+OverwriteShotMargin-ms, true, shotOf(wM4, 0, 20)); r.Paid != NotCharged {
		t.Fatalf("old shot within the window: %v", r)
	}
	if r := inv.Shot(2*time.Second, true, shotOf(wM4, 0, 20)); r.Paid != PaidFromStore {
		t.Fatalf("shot 2 s after the set, never echoed: %v", r)
	}
}

// TestContinuousFireOfAnOverwrittenWeaponResumesAfterTheRoundTrip: fire held with a
// flamethrower whose ammo was just set is free only while the set may be in flight.
func TestContinuousFireOfAnOverwrittenWeaponResumesAfterTheRoundTrip(t *testing.T) {
	inv := newInv(t)
	inv.SetRTT(200*ms, true)
	give(t, inv, 0, wFlame, 500, true)
	stale := inv.Rev()
	if _, err := inv.SetAmmo(0, wFlame, 400, ClipNotSet); err != nil {
		t.Fatal(err)
	}
	// The client never echoes the set and holds the fire for 5 s.
	spent, _ := fire(inv, wFlame, 0, 5*time.Second, 33*ms, 500, stale)
	if free := 200*ms + OverwriteShotMargin; spent < int((5*time.Second-free)/ContinuousSpendPeriod)-1 {
		t.Fatalf("spent %d in 5 s of fire held after a set never echoed", spent)
	}
}

// TestContinuousFireChargesTheFloorRateWhateverTheFrameSpacing: frames with the fire held
// count the whole time between them, so a client that sends them sparsely pays at least
// ContinuousSpendRate rounds per second.
func TestContinuousFireChargesTheFloorRateWhateverTheFrameSpacing(t *testing.T) {
	for _, step := range []time.Duration{33 * ms, 100 * ms, 150 * ms, 200 * ms, 500 * ms, time.Second} {
		inv := newInv(t)
		give(t, inv, 0, wFlame, 5000, true)
		d := 20 * time.Second
		spent, end := fire(inv, wFlame, 0, d, step, 5000, inv.Rev())
		held := end - step // the last frame; the first one starts the press
		if rate := float64(spent) / held.Seconds(); rate < ContinuousSpendRate*0.99 {
			t.Errorf("frames every %v: %d rounds in %v of fire held, %.2f per second", step, spent, held, rate)
		}
		if want := int(held / ContinuousSpendPeriod); spent != want {
			t.Errorf("frames every %v: spent %d, want %d (no more than the floor rate either)", step, spent, want)
		}
	}
}

// TestContinuousFireChargesTheFloorRateAtRandomSpacings: frames with the fire held at
// random gaps (10 ms to 1.2 s) are charged exactly the floor rate of the time held.
func TestContinuousFireChargesTheFloorRateAtRandomSpacings(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for run := range 50 {
		inv := newInv(t)
		give(t, inv, 0, wFlame, MaxWeaponAmmo, true)
		rev := inv.Rev()
		now, spent := time.Duration(0), 0
		for now < 30*time.Second {
			spent += int(inv.Frame(now, Frame{WeaponRev: rev, Weapon: wFlame, Total: 500, Clip: 500, FireHeld: true}).FireSpent)
			now += time.Duration(10+rng.IntN(1191)) * ms
		}
		if held := inv.fireLast; spent != int(held/ContinuousSpendPeriod) {
			t.Fatalf("run %d: %d rounds for %v of fire held, want %d", run, spent, held, int(held/ContinuousSpendPeriod))
		}
	}
}

// TestContinuousFireAfterAReloadCountsAtMostAFrameInterval: a gap that starts at a frame
// showing the clip empty (a reload, the weapon sprays nothing) counts at most MaxFireGap:
// the server cannot tell when in the gap the reload ended.
func TestContinuousFireAfterAReloadCountsAtMostAFrameInterval(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wSpraycan, 500, true)
	rev := inv.Rev()
	inv.Frame(0, Frame{WeaponRev: rev, Weapon: wSpraycan, Total: 500, Clip: 500, FireHeld: true})
	inv.Frame(100*ms, Frame{WeaponRev: rev, Weapon: wSpraycan, Total: 498, Clip: 0, FireHeld: true})
	r := inv.Frame(time.Second, Frame{WeaponRev: rev, Weapon: wSpraycan, Total: 498, Clip: 498, FireHeld: true})
	if want := uint16(MaxFireGap / ContinuousSpendPeriod); r.FireSpent > want {
		t.Fatalf("a 900 ms gap after an empty clip spent %d, want at most %d", r.FireSpent, want)
	}
}

// TestAnExpiredStockIsNotReopenedByACarryOver: the rounds a set ammo left as old rounds
// of a pooled slot are spent only within that command's windows; a swap a minute later
// carries the current total over and nothing else, so the Uzi's old shots after it pay
// from the MP5's total, not from the set's long-gone stock.
func TestAnExpiredStockIsNotReopenedByACarryOver(t *testing.T) {
	inv := newInv(t)
	inv.SetRTT(100*ms, true)
	give(t, inv, 0, wUzi, 400, true)
	if _, err := inv.SetAmmo(100*ms, wUzi, 20, ClipNotSet); err != nil {
		t.Fatal(err)
	}
	now := time.Minute
	inv.Frame(now, echo(inv, wUzi, 20, 20))
	give(t, inv, now, wMP5, 10, false)
	if r := inv.Shot(now+50*ms, true, shotOf(wUzi, 0, 20)); r.Verdict != Accepted || r.Paid != PaidFromStore {
		t.Fatalf("an old Uzi shot after the swap: %v", r)
	}
	uzi, end := fireAll(inv, wUzi, now+110*ms, 55*ms, 60)
	mp5, _ := fireAll(inv, wMP5, end, 95*ms, 60)
	if total := 1 + uzi + mp5; total != 30 {
		t.Fatalf("%d shots after the swap, want the 30 the slot held", total)
	}
}
