package rewind

import "math"

// The broadphase: spatial hashes over the players' present positions in the horizontal
// plane, one per level of how far a player must be looked for around a ray.
//
// A player's need is its near distance (on foot or seated) plus its reach, the length of
// its path over the last RewindCap (see track): any rewound position of it that lies
// within its near distance of a ray has a present position within its need of the ray.
// The player is filed in the first level whose limit covers its need (standing and
// walking players in the finest, drivers in the coarsest), or, when no level does (a
// jet, a cheat shaking its position), on the far list that every query scans. A query
// visits, in each level, the cells within the level's limit (plus gridSlack) of the ray,
// checks each player there against its own need, and the exact test decides the rest.
// So the candidates are a superset of the answer, and the levels, their limits and cell
// sizes change speed only, never the answer.
const (
	gridLevels  = 3
	gridBuckets = 4096 // buckets of each level's hash (a power of two)
	gridShift   = 32 - 12
	// walkReach is the reach the finest level allows beyond the on-foot near distance: a
	// run at 7 m/s covers 2.8 m in RewindCap.
	walkReach = 5.0
	// slowReach is the reach the middle level allows beyond the larger near distance.
	slowReach = 8.0
	// gridReach is the reach the coarsest level allows: 32 m covers anything the game
	// drives or flies at 80 m/s for RewindCap.
	gridReach = 32.0
	// gridSlack covers float rounding of positions (float32 near MaxCoordinate rounds to
	// under 1 cm) and of the bounds, so a candidate on the boundary is never lost.
	gridSlack = 0.5
	// farLevel is the level of a player on the far list.
	farLevel = gridLevels
)

// The hash must have exactly 1<<(32-gridShift) buckets; this fails to compile otherwise.
const _ = uint64(gridBuckets - 1<<(32-gridShift))
const _ = uint64(1<<(32-gridShift) - gridBuckets)

// gridLevel is one spatial hash.
type gridLevel struct {
	heads [gridBuckets]uint16 // first player of each bucket, or none
	limit float64             // the largest need a player filed here may have
	cell  float64             // cell side
	inv   float64             // 1/cell
}

// setLevels derives the levels' limits from the near distances.
func (w *World) setLevels() {
	maxNear := max(w.near, w.vnear)
	limits := [gridLevels]float64{w.near + walkReach, maxNear + slowReach, maxNear + gridReach}
	cells := [gridLevels]float64{16, 32, 32} // metres, powers of two: the finest level holds the crowds
	for k := range w.levels {
		w.levels[k].limit = limits[k]
		w.levels[k].cell = cells[k]
		w.levels[k].inv = 1 / cells[k]
		for b := range w.levels[k].heads {
			w.levels[k].heads[b] = none
		}
	}
}

// cellOf returns the cell of a position in a grid whose cell side is 1/inv (the sides
// are powers of two, so the product is exactly the quotient).
func cellOf(p Vec3, inv float64) (int32, int32) {
	return int32(math.Floor(float64(p.X) * inv)), int32(math.Floor(float64(p.Y) * inv))
}

// bucketOf hashes a cell to its bucket.
func bucketOf(cx, cy int32) int {
	return int((uint32(cx)*0x9E3779B1 ^ uint32(cy)*0x85EBCA77) >> gridShift)
}

// nearOf is player p's near distance: on foot or seated.
func (w *World) nearOf(p *player) float64 {
	if p.seat != NoVehicle {
		return w.vnear
	}
	return w.near
}

// need is how far from a ray player p's present position may lie while a rewound
// position of it still lies within its near distance of the ray.
func (w *World) need(p *player) float64 { return w.nearOf(p) + p.reach }

// place files player id by its newest sample (after any change of its position, its
// history or its seat).
func (w *World) place(id int) {
	p := &w.players[id]
	tr := &w.ptracks[id]
	p.pos = tr.newest().pos
	p.reach = tr.reach(w.levels[gridLevels-1].limit - w.nearOf(p))
	p.placed = true
	need := w.need(p)
	k := 0
	for k < gridLevels && need > w.levels[k].limit {
		k++
	}
	if k == farLevel {
		if p.level != farLevel {
			w.unfile(id)
			p.level = farLevel
			p.farAt = uint16(len(w.far))
			w.far = append(w.far, uint16(id))
		}
		return
	}
	cx, cy := cellOf(p.pos, w.levels[k].inv)
	if p.level == int8(k) && cx == p.cx && cy == p.cy {
		return
	}
	w.unfile(id)
	b := bucketOf(cx, cy)
	heads := &w.levels[k].heads
	p.level, p.cx, p.cy = int8(k), cx, cy
	p.prev, p.next = none, heads[b]
	if p.next != none {
		w.players[p.next].prev = uint16(id)
	}
	heads[b] = uint16(id)
}

// unfile takes player id out of the broadphase.
func (w *World) unfile(id int) {
	p := &w.players[id]
	switch {
	case p.level == farLevel:
		last := len(w.far) - 1
		moved := w.far[last]
		w.far[p.farAt] = moved
		w.players[moved].farAt = p.farAt
		w.far = w.far[:last]
		p.farAt = none
	case p.level >= 0:
		if p.prev != none {
			w.players[p.prev].next = p.next
		} else {
			w.levels[p.level].heads[bucketOf(p.cx, p.cy)] = p.next
		}
		if p.next != none {
			w.players[p.next].prev = p.prev
		}
		p.prev, p.next = none, none
	}
	p.level = noLevel
}

// noLevel is the level of a player outside the broadphase.
const noLevel = -1

// consider marks player id as a candidate of query q when its present position lies
// within its need of the ray.
func (w *World) consider(q *query, id uint16) {
	p := &w.players[id]
	r := w.need(p) + gridSlack
	if q.seg.dist2(p.pos) <= r*r {
		w.cand[id>>6] |= 1 << (id & 63)
	}
}

// collect marks in w.cand every player whose rewound position may lie within its near
// distance of q's ray.
func (w *World) collect(q *query) {
	for _, id := range w.far {
		w.consider(q, id)
	}
	ax, ay := q.seg.ox, q.seg.oy
	bx, by := madd(ax, q.seg.dx, q.seg.length), madd(ay, q.seg.dy, q.seg.length)
	dx, dy := bx-ax, by-ay
	for k := range w.levels {
		lv := &w.levels[k]
		e, c, inv := lv.limit+gridSlack, lv.cell, lv.inv
		cx0 := int32(math.Floor((min(ax, bx) - e) * inv))
		cx1 := int32(math.Floor((max(ax, bx) + e) * inv))
		for cx := cx0; cx <= cx1; cx++ {
			// The part of the segment whose x lies within e of this column of cells...
			lo := float64(float64(cx)*c) - e
			hi := float64(float64(cx+1)*c) + e
			t0, t1 := 0.0, 1.0
			if dx != 0 {
				ta, tb := (lo-ax)/dx, (hi-ax)/dx
				if ta > tb {
					ta, tb = tb, ta
				}
				t0, t1 = max(t0, ta), min(t1, tb)
				if t0 > t1 {
					continue
				}
			} else if ax < lo || ax > hi {
				continue
			}
			// ...and the rows within e of that part's y range.
			y0, y1 := madd(ay, dy, t0), madd(ay, dy, t1)
			if y0 > y1 {
				y0, y1 = y1, y0
			}
			cy0 := int32(math.Floor((y0 - e) * inv))
			cy1 := int32(math.Floor((y1 + e) * inv))
			for cy := cy0; cy <= cy1; cy++ {
				for id := lv.heads[bucketOf(cx, cy)]; id != none; {
					p := &w.players[id]
					if p.cx == cx && p.cy == cy && p.level == int8(k) {
						w.consider(q, id)
					}
					id = p.next
				}
			}
		}
	}
}
