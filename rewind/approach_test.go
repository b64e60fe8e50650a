package rewind

import (
	"errors"
	"math"
	"testing"
	"time"
)

// walkX records player id walking along X from x0, 1 m every 100 ms, n samples from t0.
func walkX(t *testing.T, w *World, id PlayerID, t0 time.Duration, x0 float32, n int) time.Duration {
	t.Helper()
	for i := range n {
		must2[RecordVerdict](t)(w.RecordPlayer(t0+time.Duration(i)*100*ms, id, Vec3{X: x0 + float32(i)}, NoVehicle))
	}
	return t0 + time.Duration(n-1)*100*ms
}

func approx(a, b float64) bool { return math.Abs(a-b) < 1e-5 }

func TestApproachMeasuresAPointAgainstThePathSinceAMoment(t *testing.T) {
	w := mustWorld(t, Config{Players: 2, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	now := walkX(t, w, 0, 0, 0, 11) // x = 0..10 over 1 s
	for _, c := range []struct {
		name   string
		from   time.Duration
		p      Vec3
		dist   float64
		length float64
		span   time.Duration
	}{
		{"beside the newest sample", now - 500*ms, Vec3{X: 10, Y: 3}, 3, 5, 500 * ms},
		{"beside the middle of the span", now - 500*ms, Vec3{X: 7.5, Y: -2}, 2, 5, 500 * ms},
		{"the span starts between two samples", now - 450*ms, Vec3{X: 5.5, Y: 1}, 1, 4.5, 450 * ms},
		{"before the span: measured from where it stood at its start", now - 450*ms, Vec3{X: 2}, 3.5, 4.5, 450 * ms},
		{"ahead of the newest sample: never extrapolated", now - 500*ms, Vec3{X: 14}, 4, 5, 500 * ms},
		{"a span from the newest moment on is the newest sample", now, Vec3{X: 10, Z: 2}, 2, 0, 0},
		{"a span older than the history starts at its first sample", -time.Second, Vec3{X: -1}, 1, 10, time.Second},
	} {
		a := must2[Approach](t)(w.PlayerApproach(c.from, 0, c.p))
		if !approx(a.Distance, c.dist) || !approx(a.Length, c.length) || a.Span != c.span || a.Newest != now {
			t.Errorf("%s: %+v, want distance %v length %v span %v newest %v", c.name, a, c.dist, c.length, c.span, now)
		}
	}
}

func TestApproachKeepsTheEpochAMoveEndedButStopsAtARespawn(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	now := walkX(t, w, 0, 0, 0, 5) // x = 0..4 until 400 ms
	// The gamemode moves it 500 m away: its client still acts from x=4 until it applies
	// the move.
	now += 50 * ms
	must(t, w.MovePlayer(now, 0, Vec3{X: 500}))
	a := must2[Approach](t)(w.PlayerApproach(now-300*ms, 0, Vec3{X: 4, Y: 1}))
	if !approx(a.Distance, 1) || !approx(a.Length, 2.5) {
		t.Errorf("after a move: %+v, want distance 1 to the old epoch and its path from x=1.5", a)
	}
	if p := must2[Vec3](t)(w.PlayerAt(now-100*ms, 0)); p != (Vec3{X: 500}) {
		t.Errorf("a rewind still stops at the move: %v", p)
	}
	// A frame of the old place still in flight: a teleport back, and the path holds both.
	now += 30 * ms
	must2[RecordVerdict](t)(w.RecordPlayer(now, 0, Vec3{X: 4.5}, NoVehicle))
	if a := must2[Approach](t)(w.PlayerApproach(now-300*ms, 0, Vec3{X: 500, Y: 2})); !approx(a.Distance, 2) {
		t.Errorf("the moved-to place within the span: %+v, want distance 2", a)
	}
	// A respawn fences the path: the previous life's places are gone at once.
	now += 10 * ms
	must(t, w.RespawnPlayer(now, 0, Vec3{X: -300}))
	a = must2[Approach](t)(w.PlayerApproach(now-300*ms, 0, Vec3{X: 4.5}))
	if !approx(a.Distance, 304.5) || a.Span != 0 {
		t.Errorf("after a respawn: %+v, want only the spawn point (304.5 m away)", a)
	}
}

func TestApproachStopsAtTheSlotsPreviousConnection(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	walkX(t, w, 0, 0, 0, 5)
	must(t, w.RemovePlayer(450*ms, 0))
	must(t, w.AddPlayer(450*ms, 0))
	if _, err := w.PlayerApproach(0, 0, Vec3{}); !errors.Is(err, ErrNoPosition) {
		t.Fatalf("a new connection without a position: %v, want ErrNoPosition", err)
	}
	must2[RecordVerdict](t)(w.RecordPlayer(460*ms, 0, Vec3{X: 100}, NoVehicle))
	if a := must2[Approach](t)(w.PlayerApproach(0, 0, Vec3{X: 2})); !approx(a.Distance, 98) {
		t.Errorf("%+v: the previous connection's path must not count", a)
	}
}

func TestVehicleApproachFollowsTheVehiclesPath(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 2})
	must(t, w.AddVehicle(0, 1, Pose{Position: Vec3{}, Rotation: identity}))
	for i := 1; i <= 10; i++ {
		must2[RecordVerdict](t)(w.RecordVehicle(time.Duration(i)*100*ms, 1, Pose{Position: Vec3{Y: float32(2 * i)}, Rotation: identity}))
	}
	a := must2[Approach](t)(w.VehicleApproach(500*ms, 1, Vec3{X: 3, Y: 12}))
	if !approx(a.Distance, 3) || !approx(a.Length, 10) || a.Span != 500*ms {
		t.Errorf("%+v, want distance 3, length 10 over 500 ms", a)
	}
	must(t, w.RespawnVehicle(time.Second+10*ms, 1, Pose{Position: Vec3{X: 50}, Rotation: identity}))
	if a := must2[Approach](t)(w.VehicleApproach(500*ms, 1, Vec3{Y: 20})); approx(a.Distance, 0) {
		t.Errorf("%+v: a respawned vehicle's old path must not count", a)
	}
}

func TestApproachRefusesBadInput(t *testing.T) {
	w := mustWorld(t, Config{Players: 2, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	must2[RecordVerdict](t)(w.RecordPlayer(0, 0, Vec3{}, NoVehicle))
	nan := float32(math.NaN())
	for _, c := range []struct {
		name string
		err  error
		want error
	}{
		{"unknown player", second(w.PlayerApproach(0, 1, Vec3{})), ErrUnknownPlayer},
		{"player out of range", second(w.PlayerApproach(0, 7, Vec3{})), ErrPlayerRange},
		{"NaN point", second(w.PlayerApproach(0, 0, Vec3{X: nan})), ErrBadPosition},
		{"point beyond the map", second(w.PlayerApproach(0, 0, Vec3{Y: 2 * MaxCoordinate})), ErrBadPosition},
		{"unknown vehicle", second(w.VehicleApproach(0, 0, Vec3{})), ErrUnknownVehicle},
		{"vehicle out of range", second(w.VehicleApproach(0, 3, Vec3{})), ErrVehicleRange},
	} {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// The path an approach measures holds every position a rewind into its span returns: a
// point is never nearer to any rewound position than the approach says.
func TestPropertyApproachIsNoFartherThanAnyRewoundPositionOfItsSpan(t *testing.T) {
	checked := 0
	for _, seed := range seeds(t, 8) {
		s := newSim(t, seed, 60, 400, allKinds)
		for range 1500 {
			s.step(time.Duration(1+s.r.IntN(4)) * time.Millisecond)
			i := s.r.IntN(len(s.movers))
			if len(s.movers[i].epoch) == 0 {
				continue
			}
			from := s.now - time.Duration(s.r.IntN(int(600*ms)))
			p := Vec3{X: float32(s.r.Float64()*800 - 400), Y: float32(s.r.Float64()*800 - 400), Z: float32(s.r.Float64() * 50)}
			a := must2[Approach](t)(s.w.PlayerApproach(from, PlayerID(i), p))
			for range 8 {
				at := from + time.Duration(s.r.Int64N(int64(s.now-from)+1))
				q := must2[Vec3](t)(s.w.PlayerAt(at, PlayerID(i)))
				if d := math.Sqrt(dist2(p, q)); d < a.Distance-1e-3 {
					t.Fatalf("seed %d: player %d rewound to %v stood %v from %v, nearer than the approach's %v", seed, i, at, d, p, a.Distance)
				}
			}
			if a.Length < 0 || a.Span < 0 || a.Span > s.now-from {
				t.Fatalf("seed %d: approach %+v from %v at %v", seed, a, from, s.now)
			}
			checked++
		}
	}
	if checked < 1500 {
		t.Errorf("only %d approaches checked", checked)
	}
}
