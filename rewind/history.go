package rewind

import (
	"math"
	"time"
)

const ringMask = HistoryDepth - 1

// sample is one accepted position of a history. cum is the length of the path from the
// epoch's first sample to this one; ep is the epoch it belongs to (the track's epoch
// count when it was taken), so a walk back over the ring knows where a jump lies. 32
// bytes: two samples share a cache line, so a record touches the newest and the one
// before it at the cost of one line.
type sample struct {
	t   time.Duration
	cum float64
	pos Vec3
	ep  uint32
}

// ring is the sample store of one history: 2 KB, which the World keeps in a slice of
// its own (large slices are page-aligned), so each pair of samples 2k, 2k+1 shares one
// 64-byte line: the newest sample and the one a frame appends after it are one line
// every other frame, and an approach's walk back reads two samples a line.
type ring = [HistoryDepth]sample

// head is the bookkeeping of a track and a copy of its newest sample: 48 bytes, kept
// apart from its samples so that a player's can share one cache line with the rest of
// what a frame reads of the player (see player). With the copy, a frame finds the sample
// it extends, and the broadphase its newest position, without reading the ring: a frame
// touches the ring's line its new sample goes to and not also the one of the sample
// before. The oldest retained sample, the window start and the floor are kept as
// distances back from the newest sample, which fit a byte each: a frame's changes to them
// are a step, and no sequence number but the newest's is stored.
type head struct {
	last int // the newest sample's sequence number; meaningful when has
	// nw is a copy of the newest sample (slot last&ringMask), written with it. Its ep is
	// the epoch count: how many epochs this slot has started (the newest sample always
	// belongs to the current epoch).
	nw sample
	// back is last − the oldest retained sample of the epoch (at most HistoryDepth−1);
	// wsBack is last − ws (paths only: a vehicle's is left alone); floorBack is
	// last − floor, or HistoryDepth−1 when the floor lies farther back (an approach never
	// looks past the ring anyway).
	back, wsBack, floorBack uint8
	has                     bool // the track holds at least one sample
	provisional             bool // the newest sample is closer than MinSampleSpacing to the one before
	// added and frozen are the entity's own flags (a player's or a vehicle's), kept here
	// where the head's size leaves room for them: whether its slot is open, and whether
	// the gamemode froze it.
	added, frozen bool
}

// track is the bounded history of one entity's accepted positions, for its current epoch
// only: a discontinuity (a gamemode move, a freeze change, a respawn, a teleport) clears
// it and starts a new epoch at the entity's position. It is a view of two parts kept
// apart: the bookkeeping (head) and the samples (ring).
//
// Samples are numbered by a sequence that only grows (across epochs too); sample n lives
// in slot n&ringMask. The epoch holds samples from its first to last, of which the ring
// retains the newest HistoryDepth (from oldest on). Samples are ordered by time (equal
// times allowed).
//
// Kept samples are at least MinSampleSpacing apart, except that the newest one may be
// provisional: closer than that to the sample before it. The next frame then replaces
// the provisional sample rather than taking a slot of its own.
//
// The track also keeps what the broadphase needs: ws is the window start, the latest
// sample at or before (newest's time − RewindCap), or the oldest retained sample when
// there is none. Every position a rewind can return for a moment from newest's time −
// RewindCap on lies on the path from ws to the newest sample, whose length is
// cum[last] − cum[ws] (see bound).
//
// floor is the oldest sample an approach (see approach) may look at: the first sample
// since the track was cleared or the entity respawned. The samples of epochs that ended
// since (at a move, a freeze change, a teleport) stay visible to an approach while the
// ring holds them, never to a rewind.
type track struct {
	*head
	s *ring
}

// ws is the window start's sequence number (see track).
func (h track) ws() int { return h.last - int(h.wsBack) }

// floor is the sequence number of the oldest sample an approach may look at, or of the
// oldest one the ring retains when that is later.
func (h track) floor() int { return h.last - int(h.floorBack) }

// step1 is b+1, but never more than HistoryDepth−1: a distance back that the newest
// sample's step moved one farther.
func step1(b uint8) uint8 { return min(b+1, ringMask) }

// clear forgets the history (the entity left, or was added without a position).
func (h track) clear() {
	h.has = false
	h.provisional = false
}

// start begins a new epoch whose only sample is p at now, and returns its slot. The first
// epoch after a clear is also the floor of approaches.
func (h track) start(now time.Duration, p Vec3) int {
	h.last++
	h.back, h.wsBack = 0, 0
	if !h.has {
		h.floorBack = 0
	} else {
		h.floorBack = step1(h.floorBack)
	}
	i := h.last & ringMask
	h.nw = sample{t: now, pos: p, ep: h.nw.ep + 1}
	h.s[i] = h.nw
	h.has, h.provisional = true, false
	return i
}

// fence makes the newest sample the floor of approaches (a respawn: what came before
// belongs to another life).
func (h track) fence() { h.floorBack = 0 }

// oldest is the sequence number of the oldest retained sample of the epoch.
func (h track) oldest() int { return h.last - int(h.back) }

// newest returns the newest sample (the head's copy of it).
func (h track) newest() *sample { return &h.nw }

// push records an accepted position at now (now is not before the newest sample) and
// returns what became of it and the slot it went to. A jump longer than the teleport
// distance (squared: tele2) from the newest sample starts a new epoch. Without paths the
// path lengths and the window start are left alone (a vehicle's history needs neither).
func (h track) push(now time.Duration, p Vec3, tele2 float64, paths bool) (RecordVerdict, int) {
	if !h.has {
		return Started, h.start(now, p)
	}
	cur := &h.nw // the newest sample: its copy, not the ring's line
	d2 := dist2(p, cur.pos)
	if d2 > tele2 {
		return Teleported, h.start(now, p)
	}
	var v RecordVerdict
	if h.provisional {
		// Replace the provisional newest sample; the path now runs from the one before.
		prev := &h.s[(h.last-1)&ringMask]
		n := sample{t: now, pos: p, ep: cur.ep}
		if paths {
			n.cum = prev.cum + math.Sqrt(dist2(p, prev.pos))
		}
		h.provisional = now-prev.t < MinSampleSpacing
		h.s[h.last&ringMask], h.nw = n, n
		v = Merged
	} else {
		h.provisional = now-cur.t < MinSampleSpacing
		h.last++
		h.back, h.floorBack = step1(h.back), step1(h.floorBack)
		if paths {
			h.wsBack++ // advanceWindow brings it back within the ring
		}
		n := sample{t: now, pos: p, ep: cur.ep}
		if paths {
			n.cum = cur.cum + math.Sqrt(d2)
		}
		h.s[h.last&ringMask], h.nw = n, n
		v = Appended
	}
	if paths {
		h.advanceWindow(now)
	}
	return v, h.last & ringMask
}

// advanceWindow moves ws to the latest retained sample at or before newest − RewindCap,
// newest being at now.
func (h track) advanceWindow(now time.Duration) {
	h.wsBack = min(h.wsBack, ringMask) // not before the oldest sample the ring retains
	limit, last, back, r := now-RewindCap, h.last, h.wsBack, h.s
	for back > 0 && r[(last-int(back)+1)&ringMask].t <= limit {
		back--
	}
	h.wsBack = back
}

// bound returns a ball, its centre and its radius (the reach), that holds every
// position a rewind to a moment from newest − RewindCap on can return. Each such
// position x lies on the path from ws to the newest sample (see track), of length
// R = cum[last] − cum[ws]. The parts of that path from its start a to x and from x to
// its end b are no shorter than the straight lines, so |x−a| + |x−b| ≤ R, and then
// |x−m| ≤ R/2 for m the midpoint of a and b: a ball about m needs only half the radius
// of one about the newest position. It costs nothing and is tight for anything moving
// steadily. When R/2 is more than enough, the ball about the newest position out to the
// farthest sample since ws is taken if it is smaller: that one is tight for a cheat
// shaking back and forth (an interpolated position lies on a segment between two
// samples, so no farther from any point than the farther of the two).
//
// The centre is rounded to float32; the radius includes that rounding (as the sum of
// the three coordinates' errors, at least their Euclidean length).
func (h track) bound(enough float64) (Vec3, float64) {
	ws := h.ws()
	a, b := &h.s[ws&ringMask], &h.nw
	mx := (float64(a.pos.X) + float64(b.pos.X)) / 2
	my := (float64(a.pos.Y) + float64(b.pos.Y)) / 2
	mz := (float64(a.pos.Z) + float64(b.pos.Z)) / 2
	m := Vec3{float32(mx), float32(my), float32(mz)}
	r := (b.cum-a.cum)/2 + (math.Abs(float64(m.X)-mx) + math.Abs(float64(m.Y)-my) + math.Abs(float64(m.Z)-mz))
	if r <= enough {
		return m, r
	}
	m2 := 0.0
	for n := ws; n < h.last; n++ {
		m2 = max(m2, dist2(h.s[n&ringMask].pos, b.pos))
	}
	if f := math.Sqrt(m2); f < r {
		return b.pos, f
	}
	return m, r
}

// find locates moment at in the history: the slots i and j of the samples around it and
// the fraction f of the way from i to j. At or after the newest sample it is the newest
// (i == j); at or before the oldest retained sample, that sample: never extrapolated,
// never across an epoch. The track must hold a sample.
func (h track) find(at time.Duration) (i, j int, f float64) {
	lo, hi := h.oldest(), h.last
	return h.search(at, lo, hi, h.s[lo&ringMask].t, h.s[hi&ringMask].t)
}

// search is find between samples lo and hi (sequence numbers, lo <= hi, tlo and thi
// their times): at or after thi it is sample hi, at or before tlo sample lo, and in
// between the latest sample at or before at and the one after it. Between the oldest
// retained sample and the newest that is find. Any other lo with tlo < at gives the same
// answer as find too, bit for bit: the pair around at is unique.
func (h track) search(at time.Duration, lo, hi int, tlo, thi time.Duration) (i, j int, f float64) {
	if at >= thi {
		return hi & ringMask, hi & ringMask, 0
	}
	if at <= tlo {
		return lo & ringMask, lo & ringMask, 0
	}
	// Keep t[lo] <= at < t[hi]. Samples come at a steady rate, so a guess by time almost
	// always lands next to the answer: look at the guess and its neighbour first, and
	// bisect what is left.
	if hi-lo > 1 {
		g := lo + int(float64(hi-lo)*(float64(at-tlo)/float64(thi-tlo)))
		g = min(max(g, lo+1), hi-1)
		if tg := h.s[g&ringMask].t; tg <= at {
			lo, tlo = g, tg
			if tn := h.s[(g+1)&ringMask].t; tn > at {
				hi, thi = g+1, tn
			} else {
				lo, tlo = g+1, tn
			}
		} else {
			hi, thi = g, tg
			if tp := h.s[(g-1)&ringMask].t; tp <= at {
				lo, tlo = g-1, tp
			} else {
				hi, thi = g-1, tp
			}
		}
	}
	for hi-lo > 1 {
		g := int(uint(lo+hi) >> 1)
		if tg := h.s[g&ringMask].t; tg <= at {
			lo, tlo = g, tg
		} else {
			hi, thi = g, tg
		}
	}
	return lo & ringMask, hi & ringMask, float64(at-tlo) / float64(thi-tlo)
}

// at returns the position at moment at (see find).
func (h track) at(at time.Duration) Vec3 {
	lo, hi := h.oldest(), h.last // find, written out: one call fewer per rewind
	i, j, f := h.search(at, lo, hi, h.s[lo&ringMask].t, h.s[hi&ringMask].t)
	if i == j {
		return h.s[i].pos
	}
	return lerp(h.s[i].pos, h.s[j].pos, f)
}
