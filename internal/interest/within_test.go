package interest

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// Rule [within]: Within finds exactly the placed players within the radius of a point,
// whatever the radius (the grid's cells, or every bucket past MaxWithinCells), and nothing
// for bad input.
func TestWithinFindsThePlacedPlayersWithinTheRadius(t *testing.T) {
	m := mustNew(t, Config{IDs: 600})
	rng := rand.New(rand.NewPCG(1, 2))
	type pt struct{ x, y float32 }
	at := map[ID]pt{}
	for id := range ID(500) {
		p := pt{rng.Float32()*3000 - 1500, rng.Float32()*3000 - 1500}
		place(t, m, time.Second, id, p.x, p.y)
		at[id] = p
	}
	m.Remove(7, nil) // gone: never found
	delete(at, 7)
	for _, r := range []float32{0, 5, 150, 232, 700, 5000} {
		for range 20 {
			x, y := rng.Float32()*3000-1500, rng.Float32()*3000-1500
			got := m.Within(nil, x, y, r)
			var want []ID
			for id, p := range at {
				if dx, dy := p.x-x, p.y-y; dx*dx+dy*dy <= r*r {
					want = append(want, id)
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("r %v at (%v, %v): %v, want %v", r, x, y, got, want)
			}
		}
	}
	nan := float32(math.NaN())
	for _, c := range [][3]float32{{nan, 0, 10}, {0, float32(math.Inf(1)), 10}, {0, 0, -1}, {0, 0, nan}, {0, 0, float32(math.Inf(1))}} {
		if got := m.Within(nil, c[0], c[1], c[2]); len(got) != 0 {
			t.Fatalf("%v: %v", c, got)
		}
	}
}
