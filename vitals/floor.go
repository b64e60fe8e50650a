package vitals

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
)

// The floor arithmetic of [damage-floor]. A floor must never be above the game's own damage to
// a player, or it would kill an honest player early.
const (
	// PlayerDamageFactor is what the game multiplies a weapon's damage by when the victim is
	// a player ped.
	PlayerDamageFactor float32 = 0.33
	// FloorMargin is taken off every floor: the loss a client computes in its own floats can
	// be below the game's by rounding.
	FloorMargin float32 = 0.01
	// MeleeFloorBase is the weakest melee move at zero stats: one floor covers every blow.
	MeleeFloorBase float32 = 1.32
	// PredatorDamage is the fixed damage of the Predator's guns.
	PredatorDamage float32 = 15
	// MaxMultiplier is the highest damage multiplier a table may hold.
	MaxMultiplier float32 = 100
)

func floorOf(base float32) float32 {
	if !finite(base) || base <= FloorMargin {
		return 0
	}
	return base - FloorMargin
}

// BulletFloor is the floor of one bullet (or one shotgun pellet) of a weapon whose
// damage, from the WeaponProperties revision the shot echoed at the tier the shot was fired
// at, is damage: 0.33 x damage - 0.01, never below 0. Vehicle guns use the standard tier.
// A non-finite or non-positive damage has no floor.
//
// Rules: [damage-floor].
func BulletFloor(damage float32) float32 {
	return floorOf(PlayerDamageFactor * damage)
}

// TierDamage picks the damage a bullet floor uses: the damage at the shooter's current
// tier, or the lower of the current and the previous tier when the skill changed less than
// SkillChangeGrace ago (sinceChange is the time since the change; pass a large value when it
// never changed).
//
// Rules: [damage-floor].
func TierDamage(current, previous float32, sinceChange time.Duration) float32 {
	if sinceChange >= 0 && sinceChange < SkillChangeGrace && previous < current {
		return previous
	}
	return current
}

// MeleeFloor is the floor of a melee blow under a melee multiplier m: 1.32 x m - 0.01.
//
// Rules: [damage-floor].
func MeleeFloor(m float32) float32 { return floorOf(MeleeFloorBase * m) }

// PredatorFloor is the floor of a Predator bullet under a Predator multiplier m:
// 0.33 x 15 x m - 0.01.
//
// Rules: [damage-floor].
func PredatorFloor(m float32) float32 { return floorOf(PlayerDamageFactor * PredatorDamage * m) }

//go:generate go tool stringer -type=Class -linecomment

// Class is the multiplier class of a damage: the weapon it arrives with, not its cause.
type Class uint8

// The multiplier classes (damage that WeaponProperties does not cover).
const (
	// ClassNone: no multiplier (bullets, vehicle guns, ramming, falls, drowning).
	ClassNone Class = iota // none
	// ClassMelee: melee blows.
	ClassMelee // melee
	// ClassFire: fire (37).
	ClassFire // fire
	// ClassSpray: the spraycan (41).
	ClassSpray // spray
	// ClassExtinguisher: the extinguisher (42).
	ClassExtinguisher // extinguisher
	// ClassExplosion: explosions (51).
	ClassExplosion // explosion
	// ClassPredator: the Predator's guns.
	ClassPredator // predator
)

// ClassOf is the multiplier class of a report: by its source, and for the environment by
// the weapon it arrives with (37 fire, 51 explosion), since the victim cannot tell the
// source of a fire or an explosion apart.
func ClassOf(s Source, weapon uint8) Class {
	switch s {
	case SourceMelee:
		return ClassMelee
	case SourcePredatorGun:
		return ClassPredator
	case SourceExplosion:
		return ClassExplosion
	case SourceFire:
		return ClassFire
	case SourceSpray:
		return ClassSpray
	case SourceExtinguisher:
		return ClassExtinguisher
	case SourceEnvironment:
		switch weapon {
		case WeaponFire:
			return ClassFire
		case WeaponExplosion:
			return ClassExplosion
		}
	}
	return ClassNone
}

// Multipliers is a damage multiplier table (DamageMultipliers): the victim's client applies
// it before the damage. 1 is the game's damage, 0 refuses the hit entirely.
type Multipliers struct {
	Melee        float32 // melee blows and gun butts
	Fire         float32 // fire (37)
	Spray        float32 // the spraycan (41)
	Extinguisher float32 // the extinguisher (42)
	Explosion    float32 // explosions (51)
	Predator     float32 // the Predator's guns
}

// DefaultMultipliers is the table a client applies before it got any: all 1.
var DefaultMultipliers = Multipliers{1, 1, 1, 1, 1, 1}

// Of returns the multiplier of a class (1 for ClassNone).
//
// Rules: [damage-multipliers].
func (m Multipliers) Of(c Class) float32 {
	switch c {
	case ClassMelee:
		return m.Melee
	case ClassFire:
		return m.Fire
	case ClassSpray:
		return m.Spray
	case ClassExtinguisher:
		return m.Extinguisher
	case ClassExplosion:
		return m.Explosion
	case ClassPredator:
		return m.Predator
	}
	return 1
}

// Validate checks every multiplier is finite and within 0..MaxMultiplier.
func (m Multipliers) Validate() error {
	for _, f := range [...]struct {
		name string
		v    float32
	}{
		{"melee", m.Melee}, {"fire", m.Fire}, {"spray", m.Spray},
		{"extinguisher", m.Extinguisher}, {"explosion", m.Explosion}, {"predator", m.Predator},
	} {
		if !finite(f.v) {
			return fmt.Errorf("%w: %s multiplier %v", ErrNotFinite, f.name, f.v)
		}
		if f.v < 0 || f.v > MaxMultiplier {
			return fmt.Errorf("%w: %s multiplier %v not in 0..%v", ErrOutOfRange, f.name, f.v, MaxMultiplier)
		}
	}
	return nil
}

func lowest(a, b Multipliers) Multipliers {
	return Multipliers{
		Melee:        min32(a.Melee, b.Melee),
		Fire:         min32(a.Fire, b.Fire),
		Spray:        min32(a.Spray, b.Spray),
		Extinguisher: min32(a.Extinguisher, b.Extinguisher),
		Explosion:    min32(a.Explosion, b.Explosion),
		Predator:     min32(a.Predator, b.Predator),
	}
}

// MultiplierCommand is a multiplier table to send to the client, with its table revision.
type MultiplierCommand struct {
	Rev   uint16      // the connection's table revision
	Table Multipliers // the table
}

// multState tracks which tables the client may be applying. settled is a table the client
// surely applies; low is the lowest, class by class, of settled and every table sent since.
// Until the last table sent is acknowledged and MultiplierGrace has passed, the floors use
// low; after that, last. Memory stays constant however many tables are sent. What a
// report reads while no table is pending (pending, last) comes first.
type multState struct {
	pending bool
	acked   bool
	rev     uint16
	last    Multipliers
	low     Multipliers
	ackAt   time.Duration
}

func newMultState() multState {
	return multState{last: DefaultMultipliers, low: DefaultMultipliers}
}

func (m *multState) settled(now time.Duration) bool {
	return !m.pending || (m.acked && now-m.ackAt >= MultiplierGrace)
}

// effective is the table the floors use at now.
func (m *multState) effective(now time.Duration) Multipliers {
	if m.settled(now) {
		return m.last
	}
	return m.low
}

func (m *multState) send(now time.Duration, t Multipliers) MultiplierCommand {
	if m.settled(now) {
		m.low = lowest(m.last, t)
	} else {
		m.low = lowest(m.low, t)
	}
	m.last = t
	m.rev = revision.Next(m.rev)
	m.pending = true
	m.acked = false
	return MultiplierCommand{Rev: m.rev, Table: t}
}

func (m *multState) ack(now time.Duration, rev uint16) error {
	if revision.Newer(rev, m.rev) {
		return fmt.Errorf("%w: multiplier table %d, last sent %d", ErrFutureRevision, rev, m.rev)
	}
	if rev == m.rev && m.pending && !m.acked {
		m.acked = true
		m.ackAt = now
	}
	return nil
}
