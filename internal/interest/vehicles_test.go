package interest

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Rule [points-index]: Near finds exactly the points within the radius, through moves
// across cells and removals, and answers without allocating.
func TestPointsNearIsExact(t *testing.T) {
	const n = 500
	p, err := NewPoints(n, 220)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	xs, ys := make([]float32, n), make([]float32, n)
	in := make([]bool, n)
	var got []Point
	for step := range 4000 {
		id := uint16(rng.IntN(n))
		if rng.IntN(8) == 0 {
			p.Remove(id)
			in[id] = false
		} else {
			xs[id], ys[id] = float32(rng.Float64()*4000-2000), float32(rng.Float64()*4000-2000)
			if err := p.Place(id, xs[id], ys[id]); err != nil {
				t.Fatal(err)
			}
			in[id] = true
		}
		if p.Has(id) != in[id] {
			t.Fatalf("step %d: Has(%d) = %v", step, id, p.Has(id))
		}
		x, y, r := float32(rng.Float64()*4000-2000), float32(rng.Float64()*4000-2000), float32(rng.Float64()*300)
		got = p.Near(got[:0], x, y, r)
		var ids []uint16
		for _, q := range got {
			ids = append(ids, q.ID)
		}
		slices.Sort(ids)
		var want []uint16
		for i := range n {
			dx, dy := xs[i]-x, ys[i]-y
			if in[i] && dx*dx+dy*dy <= r*r {
				want = append(want, uint16(i))
			}
		}
		if !slices.Equal(ids, want) {
			t.Fatalf("step %d: Near(%v, %v, %v) = %v, want %v", step, x, y, r, ids, want)
		}
	}
	buf := make([]Point, 0, n)
	if a := testing.AllocsPerRun(100, func() {
		_ = p.Place(7, 10, 10)
		_ = p.Place(7, 900, -900)
		buf = p.Near(buf[:0], 0, 0, 220)
		p.Remove(7)
	}); a != 0 {
		t.Fatalf("%v allocations", a)
	}
}

// Rule [points-index]: bad input changes nothing.
func TestPointsRefusesBadInput(t *testing.T) {
	if _, err := NewPoints(0, 10); !errors.Is(err, ErrConfig) {
		t.Fatal(err)
	}
	if _, err := NewPoints(10, float32(math.NaN())); !errors.Is(err, ErrConfig) {
		t.Fatal(err)
	}
	p, _ := NewPoints(4, 100)
	if err := p.Place(4, 0, 0); !errors.Is(err, ErrBadID) {
		t.Fatal(err)
	}
	if err := p.Place(1, float32(math.Inf(1)), 0); !errors.Is(err, ErrBadPosition) {
		t.Fatal(err)
	}
	if err := p.Place(1, MaxCoordinate*2, 0); !errors.Is(err, ErrBadPosition) || p.Has(1) {
		t.Fatal(err)
	}
	if got := p.Near(nil, 0, 0, float32(math.NaN())); len(got) != 0 {
		t.Fatal(got)
	}
}
