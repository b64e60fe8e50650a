package rewind

import (
	"fmt"
	"testing"
	"time"
)

// restartCases are the discontinuities that start a player's history anew, each with
// where the entity stands afterwards.
var restartCases = []struct {
	name    string
	to      Vec3
	restart func(w *World, now time.Duration, to Vec3) error
}{
	{"gamemode move", Vec3{9, 3, 0}, func(w *World, now time.Duration, to Vec3) error { return w.MovePlayer(now, 0, to) }},
	{"respawn", Vec3{9, 3, 0}, func(w *World, now time.Duration, to Vec3) error { return w.RespawnPlayer(now, 0, to) }},
	{"teleport", Vec3{9, 3 + DefaultTeleportDistance, 0}, func(w *World, now time.Duration, to Vec3) error {
		v, err := w.RecordPlayer(now, 0, to, NoVehicle)
		if err == nil && v != Teleported {
			return fmt.Errorf("a jump beyond the teleport distance was %v", v)
		}
		return err
	}},
	{"freeze", Vec3{9, 3, 0}, func(w *World, now time.Duration, to Vec3) error {
		if _, err := w.RecordPlayer(now, 0, to, NoVehicle); err != nil {
			return err
		}
		return w.FreezePlayer(now, 0, true)
	}},
}

func TestEveryDiscontinuityStartsTheHistoryAnew(t *testing.T) {
	for _, c := range restartCases {
		t.Run(c.name, func(t *testing.T) {
			w := mustWorld(t, Config{Players: 1, Vehicles: 1})
			must(t, w.AddPlayer(0, 0))
			for i := range 10 {
				must2[RecordVerdict](t)(w.RecordPlayer(time.Duration(i)*33*ms, 0, Vec3{float32(i), 0, 0}, NoVehicle))
			}
			to := c.to
			must(t, c.restart(w, 400*ms, to))
			must2[RecordVerdict](t)(w.RecordPlayer(500*ms, 0, Vec3{to.X, to.Y + 1, 0}, NoVehicle))
			for _, at := range []time.Duration{0, 200 * ms, 350 * ms, 399 * ms, 400 * ms} {
				if got := must2[Vec3](t)(w.PlayerAt(at, 0)); got != to {
					t.Errorf("PlayerAt(%v) = %v, want the new epoch's first sample %v", at, got, to)
				}
			}
			if want := (Vec3{to.X, to.Y + 0.5, 0}); !near(must2[Vec3](t)(w.PlayerAt(450*ms, 0)), want, 1e-6) {
				t.Errorf("PlayerAt(450ms) = %v, want %v within the new epoch", must2[Vec3](t)(w.PlayerAt(450*ms, 0)), want)
			}
			if tr := w.ptrack(0); tr.back != 1 {
				t.Errorf("the new epoch holds %d samples, want 2", tr.back+1)
			}
		})
	}
}

func TestUnfreezeStartsTheHistoryAnewToo(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	must2[RecordVerdict](t)(w.RecordPlayer(0, 0, Vec3{0, 0, 0}, NoVehicle))
	must(t, w.FreezePlayer(10*ms, 0, true))
	e := w.players[0].nw.ep
	must(t, w.FreezePlayer(20*ms, 0, true)) // no change: no new epoch
	if w.players[0].nw.ep != e {
		t.Errorf("freezing a frozen player started a new epoch")
	}
	must2[RecordVerdict](t)(w.RecordPlayer(30*ms, 0, Vec3{1, 0, 0}, NoVehicle))
	must(t, w.FreezePlayer(40*ms, 0, false))
	if w.players[0].nw.ep != e+1 {
		t.Errorf("unfreezing did not start a new epoch")
	}
	if got := must2[Vec3](t)(w.PlayerAt(35*ms, 0)); got != (Vec3{1, 0, 0}) {
		t.Errorf("PlayerAt before the unfreeze = %v, want where it stood {1 0 0}", got)
	}
}

func TestFramesFasterThanMaxFrameRateAreMergedAndTheHistoryStillCoversTheCap(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	// A client flooding 1000 frames a second, moving at 10 m/s along x.
	counts := map[RecordVerdict]int{}
	var now time.Duration
	for i := range 3000 {
		now = time.Duration(i) * time.Millisecond
		counts[must2[RecordVerdict](t)(w.RecordPlayer(now, 0, Vec3{float32(i) / 100, 0, 0}, NoVehicle))]++
	}
	if counts[Merged] < 2000 {
		t.Errorf("verdicts %v: a 1 kHz flood should mostly merge", counts)
	}
	tr := w.ptrack(0)
	if span := tr.s[tr.last&ringMask].t - tr.s[tr.oldest()&ringMask].t; span < RewindCap {
		t.Errorf("the history spans %v, less than RewindCap", span)
	}
	for _, back := range []time.Duration{0, 100 * ms, 250 * ms, 399 * ms, RewindCap} {
		at := now - back
		want := Vec3{float32(at/time.Millisecond) / 100, 0, 0}
		if got := must2[Vec3](t)(w.PlayerAt(at, 0)); !near(got, want, 1e-3) {
			t.Errorf("PlayerAt(now-%v) = %v, want %v", back, got, want)
		}
	}
	must(t, w.checkInvariants())
}

func TestHistoryAt128HzKeepsEveryFrameAndCoversTheCap(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	var now time.Duration
	for i := range 256 {
		now = time.Duration(i) * MinSampleSpacing
		v := must2[RecordVerdict](t)(w.RecordPlayer(now, 0, Vec3{float32(i), 0, 0}, NoVehicle))
		if i > 0 && v != Appended {
			t.Fatalf("frame %d at 128 Hz: %v, want appended", i, v)
		}
	}
	tr := w.ptrack(0)
	if span := tr.s[tr.last&ringMask].t - tr.s[tr.oldest()&ringMask].t; span != (HistoryDepth-1)*MinSampleSpacing || span < RewindCap {
		t.Errorf("span %v, want %v (≥ %v)", span, (HistoryDepth-1)*MinSampleSpacing, RewindCap)
	}
	// now-400ms lies 51.2 frames back: between frames 204 and 205 of 255.
	if got := must2[Vec3](t)(w.PlayerAt(now-RewindCap, 0)); !near(got, Vec3{255 - 51.2, 0, 0}, 1e-3) {
		t.Errorf("PlayerAt(now-400ms) = %v, want {203.8 0 0}", got)
	}
}

func TestHistoryCoversTheCapAtAnyArrivalPattern(t *testing.T) {
	for _, seed := range seeds(t, 40) {
		r := rng(seed)
		w := mustWorld(t, Config{Players: 1, Vehicles: 1})
		must(t, w.AddPlayer(0, 0))
		var now time.Duration
		for range 2000 {
			// bursts, floods, honest rates and pauses, mixed
			switch r.IntN(4) {
			case 0:
				now += time.Duration(r.IntN(3)) * time.Millisecond
			case 1:
				now += time.Duration(r.IntN(10000)) * time.Microsecond
			case 2:
				now += 33 * ms
			default:
				now += time.Duration(r.IntN(200)) * time.Millisecond
			}
			must2[RecordVerdict](t)(w.RecordPlayer(now, 0, Vec3{float32(r.Float64()), 0, 0}, NoVehicle))
			tr := w.ptrack(0)
			if tr.back == HistoryDepth-1 { // the ring is full of this epoch
				if old := tr.s[tr.oldest()&ringMask].t; old > now-RewindCap {
					t.Fatalf("seed %d: the oldest kept sample is at %v, after now-400ms = %v", seed, old, now-RewindCap)
				}
			}
		}
		if err := w.checkInvariants(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// refMarks is the bookkeeping a track's head keeps as distances back from the newest
// sample, kept the plain way: sequence numbers (the epoch's first sample, the window
// start, the floor of approaches), moved as the rules of track say.
type refMarks struct{ first, ws, floor int }

func (m *refMarks) oldest(last int) int { return max(last-HistoryDepth+1, m.first) }

// TestHeadDistancesMatchSequenceNumbers: the oldest retained sample, the window start and
// the floor of approaches that a head keeps as byte distances back from the newest sample
// are, after any sequence of records, moves, respawns and clears, those the sequence
// numbers of the track's rules give (the floor as an approach sees it: never before the
// oldest sample the ring retains).
func TestHeadDistancesMatchSequenceNumbers(t *testing.T) {
	for _, seed := range seeds(t, 24) {
		r := rng(seed)
		var hd head
		var rg ring
		tr := track{&hd, &rg}
		var m refMarks
		var now time.Duration
		for step := range 4000 {
			switch k := r.IntN(100); {
			case k < 2:
				tr.clear()
			case k < 5:
				had := tr.has
				tr.start(now, Vec3{})
				m.first, m.ws = tr.last, tr.last
				if !had {
					m.floor = tr.last
				}
			case k < 6:
				if tr.has {
					tr.fence()
					m.floor = tr.last
				}
			default:
				// Frames a few to a few hundred milliseconds apart, so the window start
				// lags the newest sample by anything from none to the whole ring.
				switch r.IntN(3) {
				case 0:
					now += time.Duration(r.IntN(8)) * time.Millisecond
				case 1:
					now += 33 * time.Millisecond
				default:
					now += time.Duration(r.IntN(300)) * time.Millisecond
				}
				had := tr.has
				v, _ := tr.push(now, Vec3{float32(r.IntN(3)), 0, 0}, 100, true)
				if !had {
					m.first, m.ws, m.floor = tr.last, tr.last, tr.last
					break
				}
				if v == Started || v == Teleported {
					t.Fatalf("seed %d step %d: a step of at most 2 m started an epoch", seed, step)
				}
				if o := tr.last - HistoryDepth + 1; m.ws < o {
					m.ws = o
				}
				for m.ws < tr.last && rg[(m.ws+1)&ringMask].t <= now-RewindCap {
					m.ws++
				}
			}
			if !tr.has {
				continue
			}
			if got, want := tr.oldest(), m.oldest(tr.last); got != want {
				t.Fatalf("seed %d step %d: oldest %d, want %d (last %d)", seed, step, got, want, tr.last)
			}
			if got := tr.ws(); got != m.ws {
				t.Fatalf("seed %d step %d: window start %d, want %d (last %d)", seed, step, got, m.ws, tr.last)
			}
			if got, want := tr.floor(), max(tr.last-HistoryDepth+1, m.floor); got != want {
				t.Fatalf("seed %d step %d: floor %d, want %d (last %d)", seed, step, got, want, tr.last)
			}
		}
	}
}
