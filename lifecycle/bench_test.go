package lifecycle

import (
	"testing"
	"time"
)

// The per-frame stamp of one living player: the hot path of the relay.
func BenchmarkFrameStamp(b *testing.B) {
	w := newWorld(b, Config{})
	h := spawned(b, w, 0, 500)
	claim := Claim{Alive: true, Gen: 1}
	b.ReportAllocs()
	var sink Stamp
	for b.Loop() {
		f, err := w.Frame(time.Second, h, claim, 0)
		if err != nil {
			b.Fatal(err)
		}
		sink = f.Stamp
	}
	_ = sink
}

// One tick of a full world: 1000 players, each relaying one frame (30 ticks a second is
// 30 000 stamps a second). Reported per tick.
func BenchmarkFrameStampWorld1000(b *testing.B) {
	w := newWorld(b, Config{MaxPlayers: 1000})
	hs := make([]Handle, 1000)
	for i := range hs {
		hs[i] = spawned(b, w, 0, PlayerID(i))
	}
	// A tenth of them dead, a tenth dying: every branch of the stamp.
	for i := 0; i < 1000; i += 10 {
		reportDeath(b, w, 0, hs[i], PoseDefault)
		if _, err := w.CountDeath(hs[i+1], Count{At: 0, Killer: noKiller, Cause: 24}, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, h := range hs {
			if _, err := w.Frame(time.Second, h, Claim{Alive: true, Gen: 1}, 50); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// The cheap check before every shot, report and command.
func BenchmarkMayAct(b *testing.B) {
	w := newWorld(b, Config{})
	h := spawned(b, w, 0, 7)
	b.ReportAllocs()
	ok := false
	for b.Loop() {
		ok = w.MayAct(h)
	}
	if !ok {
		b.Fatal("a living player may act")
	}
}

// Advance on a tick where nothing is due, with 1000 players of which 200 are waiting for
// something (a deadline or a grant).
func BenchmarkAdvanceIdle(b *testing.B) {
	w := newWorld(b, Config{MaxPlayers: 1000})
	for i := range PlayerID(1000) {
		h := spawned(b, w, 0, i)
		switch i % 10 {
		case 0:
			if _, err := w.CountDeath(h, Count{At: time.Hour, Killer: noKiller, Cause: 24}, 0); err != nil {
				b.Fatal(err)
			}
		case 1:
			reportDeath(b, w, time.Hour, h, PoseDefault)
			if _, err := w.RespawnRequest(time.Hour, h, 1); err != nil {
				b.Fatal(err)
			}
		}
	}
	dst := make([]Due, 0, 16)
	b.ReportAllocs()
	for b.Loop() {
		if due := w.Advance(time.Second, dst[:0]); len(due) != 0 {
			b.Fatal("nothing is due")
		}
	}
}
