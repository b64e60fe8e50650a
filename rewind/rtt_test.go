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

func TestRTTIsUnknownBeforeTheFirstPong(t *testing.T) {
	w := newRTTWorld(t)
	if _, ok := w.RTT(0); ok {
		t.Fatal("RTT known before any ping")
	}
	must2[uint16](t)(w.Ping(0, 0))
	if _, ok := w.RTT(0); ok {
		t.Fatal("RTT known before any pong")
	}
}

func TestRTTIsTheMedianOfTheLastSamples(t *testing.T) {
	w := newRTTWorld(t)
	var now time.Duration
	for i, c := range []struct {
		rtt, want time.Duration
	}{
		{100 * ms, 0}, // no estimate before MinRTTSamples
		{120 * ms, 0},
		{80 * ms, 100 * ms},
		{140 * ms, 100 * ms},
		{130 * ms, 120 * ms}, // 80 100 120 130 140
		{150 * ms, 130 * ms}, // the 100 falls out: 80 120 130 140 150
	} {
		if v := answer(t, w, &now, c.rtt); v != PongAccepted {
			t.Fatalf("pong %d: %v", i, v)
		}
		got, ok := w.RTT(0)
		if c.want == 0 {
			if ok {
				t.Errorf("after sample %d (%v): RTT %v known before %d samples", i, c.rtt, got, MinRTTSamples)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("after sample %d (%v): RTT = %v, want %v", i, c.rtt, got, c.want)
		}
	}
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

func TestPongForAPingNeverSentIsUnknown(t *testing.T) {
	w := newRTTWorld(t)
	if v := must2[PongVerdict](t)(w.Pong(0, 0, 0)); v != PongUnknown {
		t.Errorf("pong before any ping: %v, want unknown", v)
	}
	seq := must2[uint16](t)(w.Ping(0, 0))
	for _, s := range []uint16{seq + 1, seq + 100, seq + 0x7FFF} {
		if v := must2[PongVerdict](t)(w.Pong(10*ms, 0, s)); v != PongUnknown {
			t.Errorf("pong for future ping %d: %v, want unknown", s, v)
		}
	}
	if _, ok := w.RTT(0); ok {
		t.Error("an unknown pong gave a sample")
	}
}

func TestDuplicatePongGivesNoSecondSample(t *testing.T) {
	w := newRTTWorld(t)
	seq := must2[uint16](t)(w.Ping(0, 0))
	if v := must2[PongVerdict](t)(w.Pong(100*ms, 0, seq)); v != PongAccepted {
		t.Fatalf("first pong: %v", v)
	}
	before := w.clone()
	if v := must2[PongVerdict](t)(w.Pong(700*ms, 0, seq)); v != PongDuplicate {
		t.Errorf("second pong: %v, want duplicate", v)
	}
	if !sameState(before, w) {
		t.Error("a duplicate pong changed the world")
	}
}

func TestPongLaterThanRTTCapIsExpired(t *testing.T) {
	w := newRTTWorld(t)
	seq := must2[uint16](t)(w.Ping(0, 0))
	if v := must2[PongVerdict](t)(w.Pong(RTTCap+1, 0, seq)); v != PongExpired {
		t.Errorf("pong after RTTCap: %v, want expired", v)
	}
	if _, ok := w.RTT(0); ok {
		t.Error("an expired pong gave a sample")
	}
	seq = must2[uint16](t)(w.Ping(RTTCap+1, 0))
	if v := must2[PongVerdict](t)(w.Pong(2*RTTCap+1, 0, seq)); v != PongAccepted {
		t.Errorf("pong exactly RTTCap after its ping: %v, want accepted", v)
	}
	if got, _ := w.RTT(0); got != RTTCap {
		t.Errorf("RTT = %v, want RTTCap", got)
	}
}

func TestPongForAPingWhoseSlotWasReusedIsExpired(t *testing.T) {
	w := newRTTWorld(t)
	first := must2[uint16](t)(w.Ping(0, 0))
	for i := 1; i <= MaxPendingPings; i++ {
		must2[uint16](t)(w.Ping(time.Duration(i)*ms, 0))
	}
	if v := must2[PongVerdict](t)(w.Pong(20*ms, 0, first)); v != PongExpired {
		t.Errorf("pong for a ping %d pings old: %v, want expired", MaxPendingPings, v)
	}
}

func TestReorderedPongsAreBothSamples(t *testing.T) {
	w := newRTTWorld(t)
	a := must2[uint16](t)(w.Ping(0, 0))
	b := must2[uint16](t)(w.Ping(500*ms, 0))
	if v := must2[PongVerdict](t)(w.Pong(600*ms, 0, b)); v != PongAccepted {
		t.Errorf("newer pong first: %v", v)
	}
	if v := must2[PongVerdict](t)(w.Pong(610*ms, 0, a)); v != PongAccepted {
		t.Errorf("older pong second: %v", v)
	}
	if got, _ := w.RTT(0); got != 100*ms {
		t.Errorf("RTT = %v, want the lower middle of 100ms and 610ms", got)
	}
}

func TestPingIsDueEveryPingInterval(t *testing.T) {
	w := newRTTWorld(t)
	if !w.PingDue(0, 0) {
		t.Error("a new connection is not due a ping")
	}
	must2[uint16](t)(w.Ping(0, 0))
	if w.PingDue(PingInterval-1, 0) {
		t.Error("due before PingInterval")
	}
	if !w.PingDue(PingInterval, 0) {
		t.Error("not due at PingInterval")
	}
	if w.PingDue(0, 1) || w.PingDue(0, 999) {
		t.Error("due for a player that is not added")
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

func TestReconnectionForgetsTheRTT(t *testing.T) {
	w := newRTTWorld(t)
	var now time.Duration
	setRTT(t, w, &now, 0, 80*ms)
	must(t, w.RemovePlayer(now, 0))
	must(t, w.AddPlayer(now, 0))
	if _, ok := w.RTT(0); ok {
		t.Error("a new connection inherited the old RTT")
	}
	if !w.PingDue(now, 0) {
		t.Error("a new connection is not due a ping")
	}
}
