package match

import (
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// The passengers' drive-bys.
const (
	// DriveByShare is the chance that a passenger with an enemy in sight fires out of its
	// window at a decision.
	DriveByShare = 0.3
	// DriveByRange is the farthest a passenger fires at.
	DriveByRange = 60
	// WindowOffset is how far from its car's centre, towards its target, a passenger's
	// muzzle is (its frames carry the car's position).
	WindowOffset = 1.2
)

// driveBy fires the passenger's M4 out of its window at the nearest enemy in sight (a
// drive-by): from beside the car's position its client holds, the way the target is.
func (b *bot) driveBy(now time.Duration, m *Match) {
	c := b.p.c
	if b.p.rng.Float64() >= DriveByShare {
		return
	}
	t := b.pickTarget(m)
	if t == nil || t.dist > DriveByRange {
		return
	}
	pos := c.Position()
	flat := sub(t.r.Position, pos)
	flat.Z = 0
	side := wire.Vec3{}
	if l := length(flat); l > 0.01 {
		side = scale(flat, WindowOffset/l)
	}
	muzzle := add(add(pos, side), wire.Vec3{Z: 0.6})
	_, _ = c.Fire(now, weaponM4, wire.HitPlayer, uint16(t.id), muzzle, add(t.r.Position, wire.Vec3{Z: 0.3}))
}
