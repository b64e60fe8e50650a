package rewind

import (
	"errors"
	"math"
	"testing"
	"time"
)

// The approaches' step sequences are in testdata/scenarios/approach.txt.

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
