//go:build !race

// The race detector instruments memory accesses and changes what escapes to the heap, so
// allocation counts measured under -race are not those of a normal build: this file is
// left out of race builds (the benchmarks still report allocations there).

package vitals

import (
	"testing"
	"time"
)

// TestHotPathsDoNotAllocate: a frame taken in order, a bullet report taken in order and
// the per-tick Advance allocate nothing (DESIGN: hot paths do not allocate).
func TestHotPathsDoNotAllocate(t *testing.T) {
	const runs = 100
	t.Run("frame in order", func(t *testing.T) {
		p := livePlayer(t)
		now, seq := time.Duration(0), uint16(1)
		wrong := FrameVerdict(0)
		allocs := testing.AllocsPerRun(runs, func() {
			seq++
			now += 33 * time.Millisecond
			r, err := p.Frame(now, FrameInput{Seq: seq, Health: 100})
			if err != nil || r.Verdict != FrameCounted {
				wrong = r.Verdict
			}
		})
		if wrong != 0 {
			t.Fatalf("a frame was not counted in order: %v", wrong)
		}
		if allocs != 0 {
			t.Fatalf("a frame in order allocates %v times", allocs)
		}
	})
	t.Run("frame in order under regeneration", func(t *testing.T) {
		p := livePlayer(t)
		now, seq := time.Duration(0), uint16(1)
		for s := range 20 { // 20 adds a second apart, never echoed: 15 still in flight
			now = time.Duration(s) * time.Second
			if _, err := p.AddHealth(now, 1, 100); err != nil {
				t.Fatal(err)
			}
		}
		allocs := testing.AllocsPerRun(runs, func() {
			seq++
			now += 33 * time.Millisecond
			if _, err := p.Frame(now, FrameInput{Seq: seq, Health: 10}); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Fatalf("a frame under regeneration allocates %v times", allocs)
		}
	})
	t.Run("bullet report in order", func(t *testing.T) {
		p := livePlayer(t)
		now := time.Duration(0)
		in := colt(0, Vitals{})
		in.Floor, in.Loss = 0.09, 0.1 // keeps the player alive through every run
		wrong := ReportVerdict(0)
		allocs := testing.AllocsPerRun(runs, func() {
			in.Seq++
			now += 10 * time.Millisecond
			l := p.Ledger()
			in.Before, in.After = l, Vitals{Health: l.Health - in.Loss}
			r, err := p.Report(now, in)
			if err != nil || r.Verdict != ReportApplied || len(r.Reports) != 1 {
				wrong = r.Verdict
			}
		})
		if wrong != 0 {
			t.Fatalf("a report was not applied in order: %v", wrong)
		}
		if allocs != 0 {
			t.Fatalf("a bullet report in order allocates %v times", allocs)
		}
	})
	t.Run("advance", func(t *testing.T) {
		p := livePlayer(t)
		now, seq := time.Duration(0), uint16(1)
		forced := 0
		allocs := testing.AllocsPerRun(runs, func() {
			// a frame waiting for a report that never comes, a tick with nothing due, and
			// the tick its wait runs out
			seq++
			now += 10 * time.Millisecond
			if _, err := p.Frame(now, FrameInput{Seq: seq, DamageSeq: seq, Health: 100}); err != nil {
				panic(err)
			}
			p.Advance(now + ReportWait/2)
			now += ReportWait
			forced += int(p.Advance(now).FramesCounted)
		})
		if forced != runs+1 { // AllocsPerRun calls the function once more to warm up
			t.Fatalf("Advance counted %d waiting frames, want %d", forced, runs+1)
		}
		if allocs != 0 {
			t.Fatalf("Advance allocates %v times", allocs)
		}
	})
}
