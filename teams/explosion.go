package teams

import (
	"fmt"
	"strconv"
)

// MaxOccupants is the most players one vehicle explosion can involve: a driver and nine
// passengers, more seats than any vehicle of the game has.
const MaxOccupants = 10

//go:generate go tool stringer -type=Outcome -linecomment

// Outcome is what a vehicle explosion does to one occupant.
type Outcome uint8

// The outcomes of JudgeExplosion.
const (
	// KilledByAuthor: the explosion has a credited killer, its author, and the occupant is
	// not the author's teammate: the server counts the occupant dead and the author is its
	// killer. The author itself, if inside, is not its own teammate and dies too.
	KilledByAuthor Outcome = iota + 1 // killed by the author
	// SparedTeammateOfAuthor: the occupant is the author's teammate: its client refuses the
	// explosion's damage, the server does not count it dead and gives it no killer.
	SparedTeammateOfAuthor // spared: teammate of the author
	// KilledByLastDamage: the explosion has no author and kills the occupant; the attacker
	// of its last damage, not a teammate, is the killer.
	KilledByLastDamage // killed, killer by the last damage
	// KilledTeammateUnnamed: the explosion has no author and kills the occupant; the
	// attacker of its last damage is its teammate and is not named: no killer.
	KilledTeammateUnnamed // killed, teammate not named
	// KilledNoKiller: the explosion has no author and kills the occupant, which has no last
	// damage from a player: no killer.
	KilledNoKiller // killed, no killer
)

// Dies reports whether the server counts the occupant dead.
func (o Outcome) Dies() bool {
	switch o {
	case KilledByAuthor, KilledByLastDamage, KilledTeammateUnnamed, KilledNoKiller:
		return true
	}
	return false
}

// Occupant is one player inside an exploding vehicle, as a fact for JudgeExplosion.
type Occupant struct {
	// Player is the occupant.
	Player PlayerID
	// Group is its damage group at the explosion.
	Group uint16
	// LastAttacker is the attacker of its last credited damage, NoPlayer for none.
	LastAttacker PlayerID
	// LastAttackerGroup is that attacker's damage group at the explosion.
	LastAttackerGroup uint16
}

// Explosion is the facts of an accepted vehicle explosion.
type Explosion struct {
	// Killer is the credited killer of the vehicle (the host's rule of vehicle damage
	// credit decides who that is), which makes it the explosion's author; NoPlayer for none.
	Killer PlayerID
	// KillerGroup is the killer's damage group at the explosion (ignored without a killer).
	KillerGroup uint16
	// Occupants are the players inside, at most MaxOccupants, each once.
	Occupants []Occupant
}

// Fate is what the explosion does to one occupant.
type Fate struct {
	// Player is the occupant.
	Player PlayerID
	// Outcome says whether it dies and why its killer is who it is.
	Outcome Outcome
	// Killer is the killer to name for its death, NoPlayer for none (and for one spared).
	Killer PlayerID
}

// String returns "player 3: killed by the author (killer 7)".
func (f Fate) String() string {
	k := "none"
	if f.Killer != NoPlayer {
		k = strconv.Itoa(int(f.Killer))
	}
	return "player " + strconv.Itoa(int(f.Player)) + ": " + f.Outcome.String() + " (killer " + k + ")"
}

// JudgeExplosion decides what an accepted vehicle explosion does to each occupant,
// appending one Fate per occupant, in the order given, to dst.
//
// With a credited killer, the killer is the explosion's author on every client: its
// teammates inside refuse the damage and are neither counted dead nor given that killer;
// everyone else inside dies with the author as killer. Without one, the explosion has no
// author and kills everyone inside; the attacker of an occupant's last damage is its
// killer unless it is the occupant's teammate.
//
// It is a pure function and does not allocate when dst has room. Bad facts (an id out of
// range, more than MaxOccupants occupants, an occupant twice) return dst unchanged and an
// error.
//
// Rules: [explosion-spares-teammates].
func JudgeExplosion(e Explosion, dst []Fate) ([]Fate, error) {
	if e.Killer != NoPlayer {
		if err := checkPlayer(e.Killer); err != nil {
			return dst, fmt.Errorf("killer: %w", err)
		}
	}
	if len(e.Occupants) > MaxOccupants {
		return dst, fmt.Errorf("%w: %d occupants, at most %d", ErrOccupants, len(e.Occupants), MaxOccupants)
	}
	for i, o := range e.Occupants {
		if err := checkPlayer(o.Player); err != nil {
			return dst, fmt.Errorf("occupant: %w", err)
		}
		if o.LastAttacker != NoPlayer {
			if err := checkPlayer(o.LastAttacker); err != nil {
				return dst, fmt.Errorf("last attacker: %w", err)
			}
		}
		for _, before := range e.Occupants[:i] {
			if before.Player == o.Player {
				return dst, fmt.Errorf("%w: player %d twice", ErrOccupants, o.Player)
			}
		}
	}
	for _, o := range e.Occupants {
		dst = append(dst, fateOf(e, o))
	}
	return dst, nil
}

func fateOf(e Explosion, o Occupant) Fate {
	f := Fate{Player: o.Player, Killer: NoPlayer}
	switch {
	case e.Killer != NoPlayer && AreTeammates(e.Killer, e.KillerGroup, o.Player, o.Group):
		f.Outcome = SparedTeammateOfAuthor
	case e.Killer != NoPlayer:
		f.Outcome, f.Killer = KilledByAuthor, e.Killer
	case o.LastAttacker == NoPlayer:
		f.Outcome = KilledNoKiller
	case AreTeammates(o.LastAttacker, o.LastAttackerGroup, o.Player, o.Group):
		f.Outcome = KilledTeammateUnnamed
	default:
		f.Outcome, f.Killer = KilledByLastDamage, o.LastAttacker
	}
	return f
}

// Seat is one occupant of an exploding vehicle as the host knows it; the registry adds the
// damage groups.
type Seat struct {
	// Player is the occupant.
	Player PlayerID
	// LastAttacker is the attacker of its last credited damage, NoPlayer for none.
	LastAttacker PlayerID
}

// JudgeExplosion judges an accepted vehicle explosion with JudgeExplosion, taking every
// damage group from the registry as it is now. killer is the credited killer (NoPlayer
// for none).
func (r *Registry) JudgeExplosion(killer PlayerID, seats []Seat, dst []Fate) ([]Fate, error) {
	if len(seats) > MaxOccupants {
		return dst, fmt.Errorf("%w: %d occupants, at most %d", ErrOccupants, len(seats), MaxOccupants)
	}
	var occ [MaxOccupants]Occupant
	for i, s := range seats {
		occ[i] = Occupant{
			Player:            s.Player,
			Group:             r.Group(s.Player),
			LastAttacker:      s.LastAttacker,
			LastAttackerGroup: r.Group(s.LastAttacker),
		}
	}
	return JudgeExplosion(Explosion{Killer: killer, KillerGroup: r.Group(killer), Occupants: occ[:len(seats)]}, dst)
}
