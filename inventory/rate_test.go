package inventory

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// arrival is one shot on its way to the server.
type arrival struct {
	at   time.Duration
	sent time.Duration
}

// jitteredArrivals returns the arrival times of shots sent at the given times over a
// link whose one-way delay starts at base and falls linearly by shrink over the run
// (a round trip improving: the worst bunching), with up to jitter of random extra
// delay and loss, sorted by arrival (reordered shots arrive out of send order).
func jitteredArrivals(rng *rand.Rand, sent []time.Duration, base, shrink, jitter time.Duration, loss float64) []arrival {
	end := sent[len(sent)-1] + 1
	var out []arrival
	for _, s := range sent {
		if rng.Float64() < loss {
			continue
		}
		delay := base - time.Duration(float64(shrink)*float64(s)/float64(end))
		delay += time.Duration(rng.Int64N(int64(jitter) + 1))
		out = append(out, arrival{at: s + delay, sent: s})
	}
	slices.SortStableFunc(out, func(a, b arrival) int { return int(a.at - b.at) })
	return out
}

func rateChecked() []uint8 {
	var out []uint8
	table := DefaultTable()
	for id, w := range table {
		if w.Kind == KindBullet && w.MinInterval > 0 {
			out = append(out, uint8(id))
		}
	}
	return out
}

// TestRateCheckNeverRefusesAnHonestShooterWithJitter: an honest shooter fires every
// gun of the catalogue at (or slower than) its minimum interval; its shots cross a link
// with 0-30 ms jitter, 5 % loss, reordering and a one-way delay that falls by up to
// 250 ms during the burst (RTT from 0 to 400 ms). None is refused.
func TestRateCheckNeverRefusesAnHonestShooterWithJitter(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		for _, w := range rateChecked() {
			inv := newInv(t)
			give(t, inv, 0, w, MaxWeaponAmmo, true)
			interval := DefaultTable()[w].MinInterval
			var sent []time.Duration
			now := time.Duration(rng.IntN(1000)) * ms
			for range 200 {
				sent = append(sent, now)
				gap := interval
				if rng.IntN(3) == 0 { // a pause now and then
					gap += time.Duration(rng.Int64N(int64(2 * interval)))
				}
				now += gap
			}
			base := time.Duration(rng.IntN(201)) * ms
			shrink := time.Duration(rng.IntN(251)) * ms
			jitter := time.Duration(rng.IntN(31)) * ms
			for _, a := range jitteredArrivals(rng, sent, base+shrink, shrink, jitter, 0.05) {
				if r := inv.Shot(a.at, true, shotOf(w, 0, 1)); r.Verdict != Accepted {
					t.Fatalf("seed %d weapon %d: honest shot sent at %v arriving at %v (base %v shrink %v jitter %v): %v",
						seed, w, a.sent, a.at, base, shrink, jitter, r)
				}
			}
		}
	}
}

// TestTwoShotsFired160msApartMayArrive100msApart is the brief's example with the Colt.
func TestTwoShotsFired160msApartMayArrive100msApart(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wColt, 100, true)
	// Sent at 0 and 160 ms; the first is delayed by 90 ms of jitter, the second by 30.
	for _, at := range []time.Duration{90 * ms, 190 * ms} {
		if r := inv.Shot(at, true, shotOf(wColt, 0, 10)); r.Verdict != Accepted {
			t.Fatalf("shot arriving at %v: %v", at, r)
		}
	}
	// Reordered: the second shot arrives first.
	inv2 := newInv(t)
	give(t, inv2, 0, wColt, 100, true)
	for _, at := range []time.Duration{200 * ms, 205 * ms} {
		if r := inv2.Shot(at, true, shotOf(wColt, 0, 10)); r.Verdict != Accepted {
			t.Fatalf("reordered shot arriving at %v: %v", at, r)
		}
	}
}

// TestRateCheckRefusesASpammer: a client firing 2, 4 or 10 times faster than the
// minimum interval is refused, and what it gets accepted over a long burst never
// exceeds the sustained cadence plus the burst allowance.
func TestRateCheckRefusesASpammer(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 11))
		for _, w := range rateChecked() {
			for _, factor := range []int{2, 4, 10} {
				inv := newInv(t)
				give(t, inv, 0, w, MaxWeaponAmmo, true)
				interval := DefaultTable()[w].MinInterval
				var sent []time.Duration
				for i := range 400 {
					sent = append(sent, time.Duration(i)*interval/time.Duration(factor))
				}
				arrivals := jitteredArrivals(rng, sent, 100*ms, 0, 30*ms, 0)
				accepted := 0
				for _, a := range arrivals {
					if inv.Shot(a.at, true, shotOf(w, 0, 1)).Verdict == Accepted {
						accepted++
					}
				}
				span := arrivals[len(arrivals)-1].at - arrivals[0].at
				limit := int(span/interval) + 1 + int(DefaultShotRateTolerance/interval) + 1
				if accepted > limit || accepted == len(arrivals) {
					t.Fatalf("seed %d weapon %d at %dx: %d of %d accepted, limit %d", seed, w, factor, accepted, len(arrivals), limit)
				}
			}
		}
	}
}

func TestMeleeRateToleratesBlowsReportedOverDifferentLinks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for range 200 {
		inv := newInv(t)
		// Blows every 250 ms, each reported by a victim whose link adds 0-800 ms.
		var arrivals []time.Duration
		for i := range 40 {
			arrivals = append(arrivals, time.Duration(i)*250*ms+time.Duration(rng.IntN(801))*ms)
		}
		slices.Sort(arrivals)
		for _, at := range arrivals {
			if r := inv.Melee(at, true, Fists, 1); r.Verdict != Accepted {
				t.Fatalf("blow arriving at %v: %v", at, r)
			}
		}
	}
}

// TestRateAllowanceCoversTheWorstHonestBunching builds the worst arrival pattern of an
// honest burst at full cadence: the one-way delay falls by 200 ms (a round trip going
// from 400 ms to 0) while the jitter delays the first shot by 30 ms and none after it.
// All of it lands; a delay that falls by more than the allowance would not.
func TestRateAllowanceCoversTheWorstHonestBunching(t *testing.T) {
	for _, w := range rateChecked() {
		interval := DefaultTable()[w].MinInterval
		run := func(fall time.Duration) (refused int) {
			inv := newInv(t)
			give(t, inv, 0, w, MaxWeaponAmmo, true)
			const n = 50
			for i := range n {
				sent := time.Duration(i) * interval
				delay := 400*ms - fall*time.Duration(i)/(n-1)
				if i == 0 {
					delay += 30 * ms
				}
				if inv.Shot(sent+delay, true, shotOf(w, 0, 1)).Verdict != Accepted {
					refused++
				}
			}
			return refused
		}
		if r := run(200 * ms); r != 0 {
			t.Errorf("weapon %d: %d honest shots refused", w, r)
		}
		if r := run(DefaultShotRateTolerance + 20*ms); r == 0 {
			t.Errorf("weapon %d: a fall beyond the allowance went unnoticed (the test proves nothing)", w)
		}
	}
}
