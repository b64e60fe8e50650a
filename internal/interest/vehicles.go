package interest

import (
	"fmt"
	"math"
)

// MaxPoints is the most ids a Points index holds (ids 0..MaxPoints-1).
const MaxPoints = math.MaxUint16

// Points is a spatial index of things other than players (the vehicles of a world) in the
// horizontal plane: a uniform spatial hash of Cell-wide cells, as the Manager's
// ([points-index]). It decides nothing; the host asks it which points lie near a place
// and decides who is shown what. Placing, moving and removing a point and asking what
// lies near a place do not allocate; the index holds at most the ids given to NewPoints.
type Points struct {
	cell    float32
	mask    uint32
	buckets []uint32 // the first id of each bucket, none when empty
	next    []uint32 // the next id in the same bucket
	prev    []uint32 // the previous id in the same bucket, none for the first
	in      []uint32 // the bucket of each id, none while absent
	cx, cy  []int32
	x, y    []float32
}

// NewPoints returns an empty index of ids 0..n-1 (1 <= n <= MaxPoints) whose cells are
// cell metres wide: a query of radius at most cell reads at most 3×3 cells.
func NewPoints(n int, cell float32) (*Points, error) {
	if n < 1 || n > MaxPoints || !(cell > 0) || cell > MaxCoordinate {
		return nil, fmt.Errorf("%w: points %d, cell %v", ErrConfig, n, cell)
	}
	b := 64
	for b < n {
		b <<= 1
	}
	p := &Points{cell: cell, mask: uint32(b - 1), buckets: make([]uint32, b), next: make([]uint32, n),
		prev: make([]uint32, n), in: make([]uint32, n), cx: make([]int32, n), cy: make([]int32, n),
		x: make([]float32, n), y: make([]float32, n)}
	for i := range p.buckets {
		p.buckets[i] = none
	}
	for i := range p.in {
		p.in[i] = none
	}
	return p, nil
}

func (p *Points) cellOf(x, y float32) (int32, int32) {
	return int32(math.Floor(float64(x / p.cell))), int32(math.Floor(float64(y / p.cell)))
}

func (p *Points) hash(cx, cy int32) uint32 {
	return (uint32(cx)*0x9E3779B1 ^ uint32(cy)*0x85EBCA77) & p.mask
}

// Place puts id at (x, y), or moves it there. A position that is not finite or lies
// beyond MaxCoordinate is refused (ErrBadPosition), an id out of range too (ErrBadID);
// nothing changes then.
func (p *Points) Place(id uint16, x, y float32) error {
	if int(id) >= len(p.in) {
		return fmt.Errorf("%w: %d", ErrBadID, id)
	}
	if !finite(x) || !finite(y) || abs(x) > MaxCoordinate || abs(y) > MaxCoordinate {
		return fmt.Errorf("%w: (%v, %v)", ErrBadPosition, x, y)
	}
	cx, cy := p.cellOf(x, y)
	p.x[id], p.y[id] = x, y
	if p.in[id] != none && p.cx[id] == cx && p.cy[id] == cy {
		return nil
	}
	p.Remove(id)
	h := p.hash(cx, cy)
	p.cx[id], p.cy[id], p.in[id] = cx, cy, h
	p.prev[id], p.next[id] = none, p.buckets[h]
	if p.buckets[h] != none {
		p.prev[p.buckets[h]] = uint32(id)
	}
	p.buckets[h] = uint32(id)
	return nil
}

// Remove takes id out of the index (nothing for an id absent or out of range).
func (p *Points) Remove(id uint16) {
	if int(id) >= len(p.in) || p.in[id] == none {
		return
	}
	h := p.in[id]
	if p.prev[id] != none {
		p.next[p.prev[id]] = p.next[id]
	} else {
		p.buckets[h] = p.next[id]
	}
	if p.next[id] != none {
		p.prev[p.next[id]] = p.prev[id]
	}
	p.in[id], p.prev[id], p.next[id] = none, none, none
}

// Has reports whether id is in the index.
func (p *Points) Has(id uint16) bool { return int(id) < len(p.in) && p.in[id] != none }

// Near appends to dst every id within r metres of (x, y) in the plane, with its squared
// distance, in no particular order; a radius above the cell reads more cells (at most
// what a square of side 2r covers).
func (p *Points) Near(dst []Point, x, y, r float32) []Point {
	if !finite(x) || !finite(y) || !(r >= 0) || !finite(r) {
		return dst
	}
	r2 := r * r
	x0, y0 := p.cellOf(x-r, y-r)
	x1, y1 := p.cellOf(x+r, y+r)
	for cx := x0; cx <= x1; cx++ {
		for cy := y0; cy <= y1; cy++ {
			for id := p.buckets[p.hash(cx, cy)]; id != none; id = p.next[id] {
				if p.cx[id] != cx || p.cy[id] != cy {
					continue // another cell sharing the bucket
				}
				dx, dy := p.x[id]-x, p.y[id]-y
				if d2 := dx*dx + dy*dy; d2 <= r2 {
					dst = append(dst, Point{ID: uint16(id), D2: d2})
				}
			}
		}
	}
	return dst
}

// Point is one answer of Near: an id and its squared distance from the place asked.
type Point struct {
	// ID is the point's id.
	ID uint16
	// D2 is its squared distance in the plane from the place asked, in square metres.
	D2 float32
}
