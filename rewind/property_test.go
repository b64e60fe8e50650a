package rewind

import (
	"math"
	"testing"
	"time"
)

func TestPropertyRewindToNowReturnsThePresentPose(t *testing.T) {
	for _, seed := range seeds(t, 8) {
		s := newSim(t, seed, 60, 400, allKinds)
		for range 1500 {
			s.step(time.Duration(1+s.r.IntN(4)) * time.Millisecond)
			for range 5 {
				i := s.r.IntN(len(s.movers))
				m := &s.movers[i]
				if len(m.epoch) == 0 {
					continue
				}
				present := m.epoch[len(m.epoch)-1].p
				for _, at := range []time.Duration{s.now, s.now + time.Duration(s.r.IntN(1000))*ms} {
					if got := must2[Vec3](t)(s.w.PlayerAt(at, PlayerID(i))); got != present {
						t.Fatalf("seed %d: player %d at now+%v = %v, want its present %v", seed, i, at-s.now, got, present)
					}
				}
				if v := VehicleID(i); s.owner[i] == i {
					want := s.w.vehicles[v].present()
					if got := must2[Pose](t)(s.w.VehicleAt(s.now, v)); got != want {
						t.Fatalf("seed %d: vehicle %d at now = %v, want %v", seed, v, got, want)
					}
				}
			}
		}
	}
}

func TestPropertyRewoundPositionLiesBetweenTwoSamplesOfOneEpoch(t *testing.T) {
	checked := 0
	for _, seed := range seeds(t, 8) {
		s := newSim(t, seed, 60, 400, allKinds)
		for range 1500 {
			s.step(time.Duration(1+s.r.IntN(4)) * time.Millisecond)
			i := s.r.IntN(len(s.movers))
			m := &s.movers[i]
			if len(m.epoch) == 0 {
				continue
			}
			at := s.now - time.Duration(s.r.IntN(int(600*ms)))
			got := must2[Vec3](t)(s.w.PlayerAt(at, PlayerID(i)))
			checkBetweenStoredSamples(t, seed, s.w.ptrack(i), m.epoch, at, got)
			checked++
		}
	}
	if checked < 1500 {
		t.Errorf("only %d rewinds checked", checked)
	}
}

// checkBetweenStoredSamples verifies that p, the rewind of tr to moment at, lies on the
// segment between the two consecutive stored samples around at (or is the first or the
// newest of them), that it is where linear interpolation in time puts it, and that every
// stored sample was fed in the current epoch of the model (epoch).
func checkBetweenStoredSamples(t *testing.T, seed uint64, tr track, epoch []stamped, at time.Duration, p Vec3) {
	t.Helper()
	var stored []stamped
	for s := tr.oldest(); s <= tr.last; s++ {
		stored = append(stored, stamped{tr.s[s&ringMask].t, tr.s[s&ringMask].pos})
	}
	// Every stored sample belongs to the model's current epoch.
	k := 0
	for _, st := range stored {
		for k < len(epoch) && epoch[k] != st {
			k++
		}
		if k == len(epoch) {
			t.Fatalf("seed %d: stored sample %+v is not of the current epoch %+v", seed, st, epoch)
		}
	}
	first, last := stored[0], stored[len(stored)-1]
	switch {
	case at >= last.t:
		if p != last.p {
			t.Fatalf("seed %d: at %v after the newest sample: %v, want %v", seed, at, p, last.p)
		}
		return
	case at <= first.t:
		if p != first.p {
			t.Fatalf("seed %d: at %v before the first sample: %v, want %v", seed, at, p, first.p)
		}
		return
	}
	j := 1
	for stored[j].t <= at {
		j++
	}
	a, b := stored[j-1], stored[j]
	// On the segment from a to b...
	ax, ay, az := float64(a.p.X), float64(a.p.Y), float64(a.p.Z)
	dx, dy, dz := float64(b.p.X)-ax, float64(b.p.Y)-ay, float64(b.p.Z)-az
	px, py, pz := float64(p.X)-ax, float64(p.Y)-ay, float64(p.Z)-az
	l2 := dx*dx + dy*dy + dz*dz
	u := 0.0
	if l2 > 0 {
		u = max(0, min(1, (px*dx+py*dy+pz*dz)/l2))
	}
	ex, ey, ez := px-u*dx, py-u*dy, pz-u*dz
	tol := 1e-6 * (1 + math.Abs(ax) + math.Abs(ay) + math.Abs(az) + math.Sqrt(l2))
	if off := math.Sqrt(ex*ex + ey*ey + ez*ez); off > tol {
		t.Fatalf("seed %d: %v lies %g m off the segment %v-%v", seed, p, off, a.p, b.p)
	}
	// ...at the fraction of the time from a to b.
	f := float64(at-a.t) / float64(b.t-a.t)
	want := Vec3{float32(ax + dx*f), float32(ay + dy*f), float32(az + dz*f)}
	if !near(p, want, tol) {
		t.Fatalf("seed %d: at %v between %+v and %+v: %v, want %v", seed, at, a, b, p, want)
	}
}

func TestPropertyVehicleRotationsStayUnitAndBetweenTheirSamples(t *testing.T) {
	for _, seed := range seeds(t, 6) {
		s := newSim(t, seed, 40, 400, []int{driver, jet})
		for range 800 {
			s.step(time.Duration(1+s.r.IntN(4)) * time.Millisecond)
			v := VehicleID(s.r.IntN(len(s.movers)))
			if !s.w.vehicles[v].added {
				continue
			}
			at := s.now - time.Duration(s.r.IntN(int(600*ms)))
			got := must2[Pose](t)(s.w.VehicleAt(at, v))
			q := got.Rotation
			if n := float64(q.W)*float64(q.W) + float64(q.X)*float64(q.X) + float64(q.Y)*float64(q.Y) + float64(q.Z)*float64(q.Z); math.Abs(n-1) > 1e-5 {
				t.Fatalf("seed %d: rotation %v is not unit", seed, q)
			}
			tr := s.w.vehicles[v].track()
			i, j, _ := tr.find(at)
			a, b := s.w.vehicles[v].rot[i], s.w.vehicles[v].rot[j]
			// The blend lies on the shorter arc: no farther from either end than they are
			// from each other.
			ab, aq, bq := angle(a, b), angle(a, q), angle(b, q)
			if aq > ab+1e-3 || bq > ab+1e-3 {
				t.Fatalf("seed %d: rotation %v is not between %v and %v", seed, q, a, b)
			}
		}
	}
}

// angle is the rotation angle between two unit quaternions.
func angle(a, b Quat) float64 {
	d := math.Abs(float64(a.W)*float64(b.W) + float64(a.X)*float64(b.X) + float64(a.Y)*float64(b.Y) + float64(a.Z)*float64(b.Z))
	return 2 * math.Acos(min(1, d))
}

func TestPropertyReachBoundsEveryRewoundPosition(t *testing.T) {
	checked := 0
	for _, seed := range seeds(t, 8) {
		s := newSim(t, seed, 60, 400, allKinds)
		for range 1500 {
			s.step(time.Duration(1+s.r.IntN(4)) * time.Millisecond)
			i := s.r.IntN(len(s.movers))
			p := &s.w.players[i]
			if !p.has {
				continue
			}
			// Any moment a shot from now on can rewind to: from now − RewindCap on.
			for range 4 {
				at := s.now - time.Duration(s.r.Int64N(int64(RewindCap)+1))
				got := must2[Vec3](t)(s.w.PlayerAt(at, PlayerID(i)))
				c := s.w.grid[i].centre
				if r := s.w.reach(i); math.Sqrt(dist2(got, c)) > r+1e-6*(1+r) {
					t.Fatalf("seed %d: player %d rewound to %v lies %v m from its centre %v, reach %v", seed, i, at, math.Sqrt(dist2(got, c)), c, r)
				}
				checked++
			}
		}
	}
	if checked < 3000 {
		t.Errorf("only %d rewinds checked", checked)
	}
}
