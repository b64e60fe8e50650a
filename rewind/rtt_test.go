package rewind

import (
	"testing"
	"time"
)

func newRTTWorld(t *testing.T) *World {
	t.Helper()
	w := mustWorld(t, Config{Players: 2, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	return w
}

// answer sends one ping at *now, answers it after rtt, and returns the pong's verdict.
func answer(t *testing.T, w *World, now *time.Duration, rtt time.Duration) PongVerdict {
	t.Helper()
	seq := must2[uint16](t)(w.Ping(*now, 0))
	*now += rtt
	v := must2[PongVerdict](t)(w.Pong(*now, 0, seq))
	*now += PingInterval
	return v
}

func TestSingleRTTSpikeDoesNotMoveTheEstimate(t *testing.T) {
	for _, spike := range []time.Duration{0, 5 * ms, 900 * ms, RTTCap} {
		// A spike as the very first sample, or the second: the first estimate is still
		// an honest sample.
		for first := range 2 {
			w := newRTTWorld(t)
			var now time.Duration
			for i := range MinRTTSamples {
				if i == first {
					answer(t, w, &now, spike)
				} else {
					answer(t, w, &now, 100*ms)
				}
			}
			if got, ok := w.RTT(0); !ok || got != 100*ms {
				t.Errorf("spike %v as sample %d: first estimate %v (%v), want 100ms", spike, first, got, ok)
			}
		}
		w := newRTTWorld(t)
		var now time.Duration
		answer(t, w, &now, 100*ms)
		answer(t, w, &now, 100*ms)
		for range 3 {
			answer(t, w, &now, 100*ms)
		}
		answer(t, w, &now, spike)
		answer(t, w, &now, 100*ms)
		if got, _ := w.RTT(0); got != 100*ms {
			t.Errorf("spike %v among samples of 100ms: RTT = %v, want 100ms", spike, got)
		}
	}
}

func TestPingIDsWrapAround(t *testing.T) {
	w := newRTTWorld(t)
	var now time.Duration
	for i := range 1<<16 + 100 {
		seq := must2[uint16](t)(w.Ping(now, 0))
		if seq != uint16(i) {
			t.Fatalf("ping %d has id %d", i, seq)
		}
		now += ms
		if v := must2[PongVerdict](t)(w.Pong(now, 0, seq)); v != PongAccepted {
			t.Fatalf("pong %d: %v", i, v)
		}
	}
}

func TestRTTNeverExceedsRTTCap(t *testing.T) {
	for _, seed := range seeds(t, 20) {
		r := rng(seed)
		w := newRTTWorld(t)
		var now time.Duration
		var pending []uint16
		for range 500 {
			switch r.IntN(3) {
			case 0:
				pending = append(pending, must2[uint16](t)(w.Ping(now, 0)))
			case 1:
				if len(pending) > 0 {
					k := r.IntN(len(pending))
					must2[PongVerdict](t)(w.Pong(now, 0, pending[k]))
				}
			default:
				must2[PongVerdict](t)(w.Pong(now, 0, uint16(r.Uint32())))
			}
			now += time.Duration(r.IntN(1500)) * ms
			if got, ok := w.RTT(0); ok && (got > RTTCap || got < 0) {
				t.Fatalf("seed %d: RTT %v outside 0..RTTCap", seed, got)
			}
		}
	}
}
