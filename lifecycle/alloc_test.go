//go:build !race

// The race detector's instrumentation changes allocation counts, so the tests of this file
// run only without it (go test, not go test -race).

package lifecycle

import (
	"testing"
	"time"
)

// Rule: hot paths do not allocate. Frame is called for every relayed frame, whatever the
// player's phase and whatever generation the client claims; Advance runs every tick and
// appends to a buffer the host reuses.
func TestFrameAndAdvanceDoNotAllocate(t *testing.T) {
	w := newWorld(t, Config{RespawnDelay: time.Nanosecond})
	alive := spawned(t, w, 0, 0)
	dying := spawned(t, w, 0, 1)
	if _, err := w.CountDeath(dying, Count{At: time.Hour, Killer: noKiller, Cause: 24}, 0); err != nil {
		t.Fatal(err)
	}
	dead := spawned(t, w, 0, 2)
	reportDeath(t, w, 0, dead, PoseDefault)

	for _, tc := range []struct {
		name  string
		h     Handle
		claim Claim
		want  FrameVerdict
	}{
		{"alive", alive, Claim{Alive: true, Gen: 1}, FrameRelayed},
		{"dying", dying, Claim{Alive: false, Gen: 1}, FrameRelayed},
		{"dead", dead, Claim{Alive: false, Gen: 1}, FrameRelayed},
		{"a life never granted", alive, Claim{Alive: true, Gen: 5}, FrameOfFutureLife},
		{"a previous life", alive, Claim{Alive: true, Gen: 0}, FrameOfPreviousLife},
	} {
		var got FrameVerdict
		allocs := testing.AllocsPerRun(100, func() {
			f, err := w.Frame(time.Second, tc.h, tc.claim, 0)
			if err != nil {
				t.Fatal(err)
			}
			got = f.Verdict
		})
		if got != tc.want {
			t.Fatalf("frame %s: %v, want %v", tc.name, got, tc.want)
		}
		if allocs != 0 {
			t.Errorf("frame %s: %v allocations, want 0", tc.name, allocs)
		}
	}

	// Advance on a reused buffer, both idle and while it commits and grants: each run kills
	// player 3 by the server's deadline and respawns it through a remembered request.
	h := spawned(t, w, 0, 3)
	dst := make([]Due, 0, 4)
	now := time.Second
	var kinds [2]DueKind
	allocs := testing.AllocsPerRun(100, func() {
		if due := w.Advance(now, dst[:0]); len(due) != 0 {
			t.Fatalf("idle Advance at %v: %v", now, due)
		}
		g := w.slots[3].gen
		if _, err := w.CountDeath(h, Count{At: now, Killer: alive, Cause: 24}, 0); err != nil {
			t.Fatal(err)
		}
		now += 2 * time.Second
		due := w.Advance(now, dst[:0])
		if len(due) != 1 {
			t.Fatalf("Advance at %v: %v, want the commit", now, due)
		}
		kinds[0] = due[0].Kind
		if _, err := w.RespawnRequest(now, h, g); err != nil {
			t.Fatal(err)
		}
		if err := w.ZeroAcknowledged(h, g); err != nil {
			t.Fatal(err)
		}
		now += time.Millisecond // past the respawn delay
		due = w.Advance(now, dst[:0])
		if len(due) != 1 {
			t.Fatalf("Advance at %v: %v, want the grant", now, due)
		}
		kinds[1] = due[0].Kind
		if _, err := w.Frame(now, h, Claim{Alive: true, Gen: g.Next()}, 100); err != nil {
			t.Fatal(err)
		}
	})
	if kinds != [2]DueKind{DueCommit, DueGrant} {
		t.Fatalf("Advance settled %v, want a commit then a grant", kinds)
	}
	if allocs != 0 {
		t.Errorf("Advance: %v allocations, want 0", allocs)
	}
}
