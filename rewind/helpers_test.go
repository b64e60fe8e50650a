package rewind

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"testing"
	"time"
)

const ms = time.Millisecond

// shotNaive is the reference the broadphase is measured against: the same validation and
// the same exact test, applied to every player slot in id order, with no grid, no far
// list, no pre-check, and none of the copies a shot reads instead of the histories.
func (w *World) shotNaive(now time.Duration, shooter PlayerID, ray Ray, dst []Recipient) (ShotResult, error) {
	if err := w.checkClock(now); err != nil {
		return ShotResult{}, err
	}
	s, err := w.player(shooter)
	if err != nil {
		return ShotResult{}, err
	}
	if err := checkRay(ray); err != nil {
		return ShotResult{}, err
	}
	res := ShotResult{Verdict: ShotCannon, At: now, Recipients: dst[:0]}
	if ray.Kind == CannonRay {
		return res, nil
	}
	res.Verdict = ShotNoRTT
	if rtt, ok := w.meters[shooter].rtt(); ok {
		res.Verdict, res.Back = ShotRewound, min(rtt, RewindCap)
		res.At = now - res.Back
	}
	seat := s.seat
	if ray.FromVehicle {
		if _, err := w.vehicle(ray.Vehicle); err != nil {
			return ShotResult{}, err
		}
		seat = ray.Vehicle
	}
	q := query{seg: newSegment(ray.Origin, ray.Direction, ray.Length), at: res.At, shooter: int(shooter), shooterSeat: seat}
	out := res.Recipients
	for id := range w.players {
		if r, ok := w.evaluateNaive(&q, id); ok {
			out = append(out, r)
		}
	}
	res.Recipients = out
	return res, nil
}

// evaluateNaive decides whether player id is a recipient of the shot q and with which
// pose, the obvious way: straight from the histories (track.at, vehicle.poseAt) and the
// vehicle's own flags.
func (w *World) evaluateNaive(q *query, id int) (Recipient, bool) {
	p := &w.players[id]
	if id == q.shooter || !p.has {
		return Recipient{}, false
	}
	rc := Recipient{Player: PlayerID(id), Verdict: RewoundOnFoot, Vehicle: p.seat}
	var v *vehicle
	if p.seat != NoVehicle {
		v = &w.vehicles[p.seat]
		switch {
		case p.seat == q.shooterSeat:
			rc.Verdict = InShooterVehicle
		case v.frozen:
			rc.Verdict = InFrozenVehicle
		case v.wrecked:
			rc.Verdict = InWreckedVehicle
		default:
			rc.Verdict = RewoundInVehicle
		}
	}
	rewound := rc.Verdict.Rewound()
	if rewound {
		rc.Position = w.ptrack(id).at(q.at)
	} else {
		rc.Position = w.ptrack(id).newest().pos
	}
	near := w.nearOf(p)
	d2 := q.seg.dist2(rc.Position)
	if d2 > near*near {
		return Recipient{}, false
	}
	rc.Distance = float32(math.Sqrt(d2))
	if v != nil {
		if rewound {
			rc.VehiclePose = v.poseAt(q.at)
		} else {
			rc.VehiclePose = v.present()
		}
	}
	return rc, true
}

// clone returns a deep copy of the World, to compare state before and after a call.
func (w *World) clone() *World { return w.cloneInto(&World{}) }

// cloneInto makes c a deep copy of w, reusing c's slices, and returns c.
func (w *World) cloneInto(c *World) *World {
	players, prings, meters := c.players, c.prings, c.meters
	vehicles, vhot, grid, next, prev, cand := c.vehicles, c.vhot, c.grid, c.next, c.prev, c.cand
	*c = *w
	c.players = append(players[:0], w.players...)
	c.prings = append(prings[:0], w.prings...)
	c.meters = append(meters[:0], w.meters...)
	c.vehicles = append(vehicles[:0], w.vehicles...)
	c.vhot = append(vhot[:0], w.vhot...)
	c.grid = append(grid[:0], w.grid...)
	c.next = append(next[:0], w.next...)
	c.prev = append(prev[:0], w.prev...)
	c.cand = append(cand[:0], w.cand...)
	return c
}

// sameState reports whether two Worlds hold the same state (ignoring slice capacities).
// Every part of the state is comparable with ==; no NaN is ever stored.
func sameState(a, b *World) bool {
	return a.cfg == b.cfg && a.clock == b.clock && a.tele2 == b.tele2 && a.near == b.near &&
		a.vnear == b.vnear && a.levels == b.levels &&
		slices.Equal(a.players, b.players) && slices.Equal(a.prings, b.prings) &&
		slices.Equal(a.meters, b.meters) && slices.Equal(a.vehicles, b.vehicles) && slices.Equal(a.vhot, b.vhot) &&
		slices.Equal(a.grid, b.grid) && slices.Equal(a.next, b.next) && slices.Equal(a.prev, b.prev) && a.farHead == b.farHead && slices.Equal(a.cand, b.cand)
}

// reach is player id's reach: the radius of the ball of its rewound positions about its
// grid entry's centre (see track.bound), as place computed it.
func (w *World) reach(id int) float64 {
	_, r := w.ptrack(id).bound(w.levels[gridLevels-1].limit - w.nearOf(&w.players[id]))
	return r
}

// need is how far from a ray player id's centre may lie while a rewound position of it
// still lies within its near distance of the ray (see place).
func (w *World) need(id int) float64 { return w.nearOf(&w.players[id]) + w.reach(id) }

// checkInvariants verifies the World's internal bookkeeping; nil when it is sound.
func (w *World) checkInvariants() error {
	for k, word := range w.cand {
		if word != 0 {
			return fmt.Errorf("candidate word %d not cleared: %x", k, word)
		}
	}
	inBucket := make([]int, len(w.players))
	for k := range w.levels {
		filed := 0
		for b, id := range w.levels[k].heads {
			prev := uint16(none)
			for steps := 0; id != none; steps++ {
				if steps > len(w.players) {
					return fmt.Errorf("level %d bucket %d: cycle", k, b)
				}
				p := &w.players[id]
				if p.level != int8(k) || bucketOf(int32(p.cx), int32(p.cy)) != b || w.prev[id] != prev {
					return fmt.Errorf("level %d bucket %d: player %d misfiled (level %d, prev %d want %d)", k, b, id, p.level, w.prev[id], prev)
				}
				inBucket[id]++
				filed++
				prev, id = id, w.next[id]
			}
		}
		if filed != w.levels[k].filed {
			return fmt.Errorf("level %d counts %d players, holds %d", k, w.levels[k].filed, filed)
		}
	}
	prev := uint16(none)
	for id, steps := w.farHead[0], 0; id != none; steps++ {
		if steps > len(w.players) {
			return fmt.Errorf("far list: cycle")
		}
		if w.players[id].level != farLevel || w.prev[id] != prev {
			return fmt.Errorf("far list: player %d misfiled (level %d, prev %d want %d)", id, w.players[id].level, w.prev[id], prev)
		}
		inBucket[id]++
		prev, id = id, w.next[id]
	}
	for id := range w.players {
		p := &w.players[id]
		tr := w.ptrack(id)
		placed := p.added && tr.has
		if tr.has && !p.added {
			return fmt.Errorf("player %d: has a position but is not added", id)
		}
		if want := b2i(placed); inBucket[id] != want {
			return fmt.Errorf("player %d (placed %v) is filed %d times", id, placed, inBucket[id])
		}
		if !placed {
			if p.level != noLevel {
				return fmt.Errorf("player %d without position has level %d", id, p.level)
			}
			if !p.added && p.seat != NoVehicle {
				return fmt.Errorf("removed player %d keeps seat %d", id, p.seat)
			}
			continue
		}
		if c, r := tr.bound(w.levels[gridLevels-1].limit - w.nearOf(p)); w.grid[id].centre != c || w.reach(id) != r {
			return fmt.Errorf("player %d: centre %v; track's %v, %v", id, w.grid[id].centre, c, r)
		}
		if p.tWS != tr.s[tr.ws()&ringMask].t {
			return fmt.Errorf("player %d: cached window start time %v, track %v", id, p.tWS, tr.s[tr.ws()&ringMask].t)
		}
		if r := float32(w.need(id) + gridSlack); w.grid[id].r != r {
			return fmt.Errorf("player %d: grid entry %+v, need %v", id, w.grid[id], w.need(id))
		}
		// Filed in the first level that covers its need.
		want := int8(0)
		for want < gridLevels && w.need(id) > w.levels[want].limit {
			want++
		}
		if p.level != want {
			return fmt.Errorf("player %d: need %v filed in level %d, want %d", id, w.need(id), p.level, want)
		}
		if p.level != farLevel {
			if cx, cy := cellOf(w.grid[id].centre, w.levels[p.level].inv); cx != int32(p.cx) || cy != int32(p.cy) {
				return fmt.Errorf("player %d: cell %d,%d, centre in %d,%d", id, p.cx, p.cy, cx, cy)
			}
		}
		if p.seat != NoVehicle && (int(p.seat) >= len(w.vehicles) || !w.vehicles[p.seat].added) {
			return fmt.Errorf("player %d sits in missing vehicle %d", id, p.seat)
		}
		if err := tr.check(w.clock, true); err != nil {
			return fmt.Errorf("player %d: %v", id, err)
		}
	}
	for id := range w.vehicles {
		v := &w.vehicles[id]
		if v.added != v.has {
			return fmt.Errorf("vehicle %d: added %v has %v", id, v.added, v.has)
		}
		var want vehicleHot
		if v.hot(&want); w.vhot[id] != want {
			return fmt.Errorf("vehicle %d: hot copy %+v, want %+v", id, w.vhot[id], want)
		}
		if !v.added {
			continue
		}
		if err := v.track().check(w.clock, false); err != nil {
			return fmt.Errorf("vehicle %d: %v", id, err)
		}
		for s := v.track().oldest(); s <= v.last; s++ {
			q := v.rot[s&ringMask]
			n := float64(q.W)*float64(q.W) + float64(q.X)*float64(q.X) + float64(q.Y)*float64(q.Y) + float64(q.Z)*float64(q.Z)
			if math.Abs(n-1) > 1e-5 {
				return fmt.Errorf("vehicle %d: rotation %v not unit", id, q)
			}
		}
	}
	return nil
}

// check verifies a track: times ordered and not after the clock, kept samples spaced,
// and with paths the window start where it belongs and the path lengths consistent.
func (h track) check(clock time.Duration, paths bool) error {
	if !h.has {
		return nil
	}
	o := h.oldest()
	if h.nw != h.s[h.last&ringMask] {
		return fmt.Errorf("the head's copy of the newest sample %+v is not the ring's %+v", h.nw, h.s[h.last&ringMask])
	}
	if h.s[h.last&ringMask].t > clock {
		return fmt.Errorf("newest sample %v after the clock %v", h.s[h.last&ringMask].t, clock)
	}
	if h.provisional && h.back == 0 {
		return fmt.Errorf("a lone first sample is provisional")
	}
	for s := o + 1; s <= h.last; s++ {
		a, b := h.s[(s-1)&ringMask].t, h.s[s&ringMask].t
		if b < a {
			return fmt.Errorf("sample %d at %v before %v", s, b, a)
		}
		if s < h.last && b-a < MinSampleSpacing {
			return fmt.Errorf("kept samples %d,%d only %v apart", s-1, s, b-a)
		}
		if s == h.last && !h.provisional && b-a < MinSampleSpacing {
			return fmt.Errorf("newest sample %v after the one before but not provisional", b-a)
		}
	}
	if !paths {
		return nil
	}
	ws := h.ws()
	if ws < o || ws > h.last {
		return fmt.Errorf("window start %d outside %d..%d", ws, o, h.last)
	}
	limit := h.s[h.last&ringMask].t - RewindCap
	if ws < h.last && h.s[(ws+1)&ringMask].t <= limit {
		return fmt.Errorf("window start %d too old", ws)
	}
	if ws > o && h.s[ws&ringMask].t > limit {
		return fmt.Errorf("window start %d too new", ws)
	}
	for s := o + 1; s <= h.last; s++ {
		step := math.Sqrt(dist2(h.s[(s-1)&ringMask].pos, h.s[s&ringMask].pos))
		if got := h.s[s&ringMask].cum - h.s[(s-1)&ringMask].cum; math.Abs(got-step) > 1e-6*(1+h.s[s&ringMask].cum) {
			return fmt.Errorf("path step %d is %v, want %v", s, got, step)
		}
	}
	return nil
}

func mustWorld(t testing.TB, cfg Config) *World {
	t.Helper()
	w, err := New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return w
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func must2[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// setRTT gives player id an RTT estimate of exactly rtt by RTTWindow pings answered
// after rtt, starting at *now, which it advances.
func setRTT(t testing.TB, w *World, now *time.Duration, id PlayerID, rtt time.Duration) {
	t.Helper()
	for range RTTWindow {
		seq := must2[uint16](t)(w.Ping(*now, id))
		*now += rtt
		if v := must2[PongVerdict](t)(w.Pong(*now, id, seq)); v != PongAccepted {
			t.Fatalf("pong %d: %v", seq, v)
		}
	}
	if got, ok := w.RTT(id); !ok || got != rtt {
		t.Fatalf("RTT = %v, %v; want %v", got, ok, rtt)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// near reports whether a and b are within eps of each other.
func near(a, b Vec3, eps float64) bool { return dist2(a, b) <= eps*eps }

var identity = Quat{W: 1}

// yaw is the rotation by deg degrees about the vertical axis.
func yaw(deg float64) Quat {
	h := deg * math.Pi / 360
	return Quat{W: float32(math.Cos(h)), Z: float32(math.Sin(h))}
}

// popcount of the candidate set (for tests of the broadphase's selectivity).
func (w *World) candidates() int {
	n := 0
	for _, word := range w.cand {
		n += bits.OnesCount64(word)
	}
	return n
}
