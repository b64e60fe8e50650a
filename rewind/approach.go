package rewind

import (
	"fmt"
	"math"
	"time"
)

// Approach is how near a point lies to an entity's accepted path over a span of time:
// what PlayerApproach and VehicleApproach answer. The host compares it with a point the
// entity's client claims as its own (where a shot started, where a projectile was
// launched), which the client cannot have produced farther from where it stood than its
// body, its vehicle and its motion allow.
type Approach struct {
	// Distance is the least distance, in metres, from the point to the path.
	Distance float64
	// Length is the length of the path over the span, in metres: the sum of its segments
	// within each epoch (a jump between two epochs adds nothing).
	Length float64
	// Span is the time the path covers: from its first point (the entity's position at
	// the span's start, or the oldest sample the history still holds after it) to its
	// newest sample. Length/Span is the entity's mean speed over it; zero when the path
	// is a single sample.
	Span time.Duration
	// Newest is the moment of the newest sample.
	Newest time.Duration
}

// PlayerApproach returns how near p lies to player id's accepted path from moment from to
// its newest sample: the path runs from where the player stood at from (interpolated,
// the first sample of the history when from lies before it) through every later sample.
// Unlike a rewind it does not stop at a discontinuity: the samples of an epoch that a
// move, a freeze change or a teleport ended within the span still belong to the path
// (the entity stood there; its client may still act from there for a moment), but no
// segment joins two epochs. It stops at a respawn: the path before belongs to another
// life. It changes nothing and does not allocate; ErrNoPosition for a player without a
// position.
func (w *World) PlayerApproach(from time.Duration, id PlayerID, p Vec3) (Approach, error) {
	if _, err := w.player(id); err != nil {
		return Approach{}, err
	}
	if !validPosition(p) {
		return Approach{}, fmt.Errorf("%w: %v", ErrBadPosition, p)
	}
	tr := w.ptrack(int(id))
	if !tr.has {
		return Approach{}, fmt.Errorf("%w: %d", ErrNoPosition, id)
	}
	return tr.approach(from, p, true), nil
}

// VehicleApproach is PlayerApproach for vehicle id's accepted path (its position only); a
// respawn of the vehicle is where it stops.
func (w *World) VehicleApproach(from time.Duration, id VehicleID, p Vec3) (Approach, error) {
	v, err := w.vehicle(id)
	if err != nil {
		return Approach{}, err
	}
	if !validPosition(p) {
		return Approach{}, fmt.Errorf("%w: %v", ErrBadPosition, p)
	}
	return v.track().approach(from, p, false), nil
}

// approach walks the track back from its newest sample to moment from (or to the floor,
// or to the oldest sample the ring retains) and measures p against the path (see
// PlayerApproach). With paths the track keeps its path lengths (cum) and the length is
// read from them; without, it is summed segment by segment. The track must hold a sample.
func (h track) approach(from time.Duration, p Vec3, paths bool) Approach {
	lo, n, s := h.floor(), h.last, h.s
	a := &h.nw // the newest sample, from the head
	out := Approach{Newest: a.t}
	best := dist2(p, a.pos)
	first := a.t
	for n > lo && a.t > from {
		b := &s[(n-1)&ringMask]
		if b.ep != a.ep {
			// A jump: the older epoch's newest sample is where the entity stood until it.
			best = min(best, dist2(p, b.pos))
			first = max(b.t, from)
			if b.t <= from {
				break
			}
		} else {
			start, f := b.pos, 0.0
			if b.t < from {
				// from lies between b and a (b.t < from < a.t): the path starts at the
				// entity's position at from.
				f = float64(from-b.t) / float64(a.t-b.t)
				start = lerp(b.pos, a.pos, f)
			}
			best = min(best, segDist2(p, start, a.pos))
			if paths {
				out.Length += (a.cum - b.cum) * (1 - f)
			} else {
				out.Length += math.Sqrt(dist2(start, a.pos))
			}
			first = max(b.t, from)
			if b.t < from {
				break
			}
		}
		n--
		a = b
	}
	out.Distance = math.Sqrt(best)
	out.Span = out.Newest - first
	return out
}

// segDist2 is the squared distance from p to the closed segment from a to b. Only a point
// whose projection falls inside the segment costs a division.
func segDist2(p, a, b Vec3) float64 {
	dx, dy, dz := float64(b.X)-float64(a.X), float64(b.Y)-float64(a.Y), float64(b.Z)-float64(a.Z)
	px, py, pz := float64(p.X)-float64(a.X), float64(p.Y)-float64(a.Y), float64(p.Z)-float64(a.Z)
	d := dot3(px, py, pz, dx, dy, dz)
	if d <= 0 {
		return dot3(px, py, pz, px, py, pz)
	}
	l2 := dot3(dx, dy, dz, dx, dy, dz)
	if d >= l2 {
		return dist2(p, b)
	}
	t := d / l2
	ex, ey, ez := madd(px, -dx, t), madd(py, -dy, t), madd(pz, -dz, t)
	return dot3(ex, ey, ez, ex, ey, ez)
}
