package rewind

import "math"

// The broadphase: spatial hashes over the players' centres in the horizontal plane, one
// per level of how far a player must be looked for around a ray.
//
// A player's centre and reach are a ball that holds every position a shot can rewind it
// to (see track.bound: about the midpoint of its path over the last RewindCap, with half
// that path's length as radius). Its need is its near distance (on foot or seated) plus
// its reach: any rewound position of it that lies within its near distance of a ray has
// a centre within its need of the ray.
//
// The player is filed in the first level whose limit covers its need (standing and
// walking players in the finest, drivers in coarser ones by their speed), or, when no
// level does (a jet, a cheat shaking its position), on the far list that every query
// scans. A query visits, in each level that holds anyone, the cells within the level's
// limit (plus gridSlack) of the ray, checks each player there against its own need, and
// the exact test decides the rest.
// So the candidates are a superset of the answer, and the levels, their limits and cell
// sizes change speed only, never the answer.
const (
	gridLevels  = 4
	gridBuckets = 1 << (2 * gridTileBits) // buckets of each level's hash: one per cell of a tile
	// walkReach is the reach the finest level allows beyond the on-foot near distance: a
	// run at 12 m/s covers 4.8 m in RewindCap, a reach of 2.4 m.
	walkReach = 2.5
	// slowReach and fastReach are the reaches the middle levels allow beyond the larger
	// near distance: a car at 40 m/s and one at 70 m/s. A level's band around the ray is
	// as wide as its limit, so a car is better off in a level not much wider than it
	// needs.
	slowReach = 8.0
	fastReach = 14.0
	// gridReach is the reach the coarsest level allows: 32 m covers anything the game
	// drives or flies at 160 m/s for RewindCap.
	gridReach = 32.0
	// gridSlack covers float rounding of positions (float32 near MaxCoordinate rounds to
	// under 1 cm) and of the bounds, so a candidate on the boundary is never lost.
	gridSlack = 0.5
	// farLevel is the level of a player on the far list.
	farLevel = gridLevels
)

// gridLevel is one spatial hash.
type gridLevel struct {
	heads [gridBuckets]uint16 // first player of each bucket, or none
	filed int                 // players filed here: a query skips a level of none
	limit float64             // the largest need a player filed here may have
	cell  float64             // cell side
	inv   float64             // 1/cell
}

// gridEntry is what a query reads of a filed player (in a level or on the far list),
// kept apart from the rest of its state: 16 bytes a player, four to a cache line and
// never across two, so the entries of a thousand players (16 KB) mostly stay in the L1
// cache and a frame, which rewrites its player's entry, writes one line. The links of
// the bucket's list lie apart again (World.next, World.prev): a frame rarely changes them,
// and a query walks next, 2 bytes a player.
type gridEntry struct {
	centre Vec3    // the centre of the ball of the player's rewound positions (see place)
	r      float32 // need + gridSlack, rounded: how close to a ray centre must lie to make a candidate
}

// setLevels derives the levels' limits from the near distances.
func (w *World) setLevels() {
	maxNear := max(w.near, w.vnear)
	limits := [gridLevels]float64{w.near + walkReach, maxNear + slowReach, maxNear + fastReach, maxNear + gridReach}
	// Metres, powers of two. The finest level holds the crowds on foot, where a finer
	// cell would save walking a few players at the price of visiting many more cells;
	// the coarsest holds few players, spread over a wide band around the ray.
	cells := [gridLevels]float64{16, 32, 32, 64}
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

// maxCell bounds a cell's coordinates: a centre lies between two valid positions, within
// MaxCoordinate of zero, and the finest cell is 16 m, so a cell fits an int16 (player
// keeps it in one). The constant fails to compile if that stops being true.
const maxCell = MaxCoordinate/16 + 1

const _ = uint64(math.MaxInt16 - maxCell)

// bucketOf hashes a cell to its bucket: the map is tiled by squares of 64 × 64 cells,
// and a cell goes to the bucket of its place in its tile. Unlike a multiplicative hash,
// this never puts two cells closer than 64 cells apart (a kilometre in the finest level)
// into one bucket, so in a crowd a bucket's list holds the players of one cell only and
// a query walks no one it does not need. A bucket can still hold several cells, far
// apart; a query checks each player it meets against the ray anyway.
func bucketOf(cx, cy int32) int {
	return int(uint32(cx)&gridTileMask | (uint32(cy)&gridTileMask)<<gridTileBits)
}

// A tile of the hash is 1<<gridTileBits cells a side.
const (
	gridTileBits = 6
	gridTileMask = 1<<gridTileBits - 1
)

// nearOf is player p's near distance: on foot or seated.
func (w *World) nearOf(p *player) float64 {
	if p.seat != NoVehicle {
		return w.vnear
	}
	return w.near
}

// place files player id by the ball of its rewound positions (after any change of its
// position, its history or its seat), and copies what a shot reads of its track into its
// player.
func (w *World) place(id int) {
	p := &w.players[id]
	tr := w.ptrack(id)
	e := &w.grid[id]
	near := w.nearOf(p)
	centre, reach := tr.bound(w.levels[gridLevels-1].limit - near)
	e.centre = centre
	p.tWS = tr.s[tr.ws()&ringMask].t
	// need is how far from a ray the centre may lie while a rewound position still lies
	// within the near distance of the ray.
	need := near + reach
	e.r = float32(need + gridSlack) // the rounding is far below gridSlack
	k := 0
	for k < gridLevels && need > w.levels[k].limit {
		k++
	}
	if k == farLevel {
		if p.level != farLevel {
			w.unfile(id)
			p.level = farLevel
			w.link(id, &w.farHead[0])
		}
		return
	}
	c32x, c32y := cellOf(centre, w.levels[k].inv)
	cx, cy := int16(c32x), int16(c32y) // see maxCell
	if p.level == int8(k) && cx == p.cx && cy == p.cy {
		return
	}
	w.unfile(id)
	p.level, p.cx, p.cy = int8(k), cx, cy
	w.link(id, &w.levels[k].heads[bucketOf(c32x, c32y)])
	w.levels[k].filed++
}

// link puts player id at the front of the list that starts at *head.
func (w *World) link(id int, head *uint16) {
	w.prev[id], w.next[id] = none, *head
	if n := *head; n != none {
		w.prev[n] = uint16(id)
	}
	*head = uint16(id)
}

// unfile takes player id out of the broadphase.
func (w *World) unfile(id int) {
	p := &w.players[id]
	var head *uint16
	switch {
	case p.level == farLevel:
		head = &w.farHead[0]
	case p.level >= 0:
		head = &w.levels[p.level].heads[bucketOf(int32(p.cx), int32(p.cy))]
		w.levels[p.level].filed--
	default:
		return
	}
	prev, next := w.prev[id], w.next[id]
	if prev != none {
		w.next[prev] = next
	} else {
		*head = next
	}
	if next != none {
		w.prev[next] = prev
	}
	w.prev[id], w.next[id] = none, none
	p.level = noLevel
}

// noLevel is the level of a player outside the broadphase.
const noLevel = -1

// scan marks as candidates of the query whose ray is s the players in n buckets of
// heads, from bucket b0 on, each a row of the tile (gridTile buckets) after the one
// before: the cells of one column of a level, from one row on (see bucketOf), or the far
// list (heads of one bucket). A candidate is a player whose centre lies within its need
// (r) of the ray. One call takes a whole column, so the ray stays in registers from one
// cell to the next.
//
// The test is looser than the distance to the segment, and cheaper: the centre lies
// within r of the ray's line, and its foot on the line within r of the segment (a
// cylinder with flat ends, which holds the capsule). It has no branch: in a crowd whether
// a player near the ray's cells is a candidate is a coin toss, which a branch predictor
// keeps losing. The squared distance from the line, |p|² − t², cancels, but not enough
// to matter: p is at most 4·MaxCoordinate long (a centre and the origin each within
// 2·MaxCoordinate of zero), so the error is below 1e-5 m², where gridSlack leaves r² at
// least 5 m² to spare.
func (w *World) scan(s *segment, heads []uint16, b0, n int) {
	grid, links, cand := w.grid, w.next, w.cand
	ox, oy, oz := s.ox, s.oy, s.oz
	dx, dy, dz := s.dx, s.dy, s.dz
	half := s.length / 2
	mask := len(heads) - 1
	for i := range n {
		for id := heads[(b0+i<<gridTileBits)&mask]; id != none; {
			e := grid[id]
			px := float64(e.centre.X) - ox
			py := float64(e.centre.Y) - oy
			pz := float64(e.centre.Z) - oz
			t := dot3(px, py, pz, dx, dy, dz)
			// Inside when both are at least zero: r² − (|p|² − t²), (half + r) − |t − half|.
			// A float's sign bit is set when it is below zero: neither sign bit is set.
			r := float64(e.r)
			a := float64(r*r) - (dot3(px, py, pz, px, py, pz) - float64(t*t))
			b := (half + r) - math.Abs(t-half)
			in := (math.Float64bits(a)|math.Float64bits(b))>>63 ^ 1
			cand[id>>6] |= in << (id & 63)
			id = links[id]
		}
	}
}

// collect marks in w.cand every player whose rewound position may lie within its near
// distance of q's ray.
func (w *World) collect(q *query) {
	w.scan(&q.seg, w.farHead[:], 0, 1)
	ax, ay := q.seg.ox, q.seg.oy
	bx, by := madd(ax, q.seg.dx, q.seg.length), madd(ay, q.seg.dy, q.seg.length)
	dx, dy := bx-ax, by-ay
	for k := range w.levels {
		lv := &w.levels[k]
		if lv.filed == 0 {
			continue
		}
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
			// Every player in a bucket is checked against the ray, whichever cell it
			// stands in: one of a cell far away that shares the bucket is checked for
			// nothing, and meeting a player twice only sets its bit twice.
			w.scan(&q.seg, lv.heads[:], bucketOf(cx, cy0), int(cy1-cy0)+1)
		}
	}
}
