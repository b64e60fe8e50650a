package refserver

import (
	"math"
	"time"
)

// The cross-package rules, each a small pure value a host that wires its own server can
// copy alone: the facts come in as arguments (what the packages and the World accepted),
// the decision goes out as a Verdict. The World holds one of each, built from the
// package's constants (DefaultRules), and every correlation, claim and grace goes through
// them.

// ShotCreditRule decides whether a victim's damage report may be credited to an accepted
// shot (the shot credit): the shot is the attacker's, of its current life, accepted within
// Window, of the kind the report names, relayed to this life of the victim, fired with
// the weapon the report names, and the victim has a credit of it left (one per pellet; a
// shot credits at most MaxShotVictims victims).
type ShotCreditRule struct {
	// Window is how long after its acceptance a shot may still be credited
	// (ShotCreditWindow).
	Window time.Duration
}

// Identify judges the shot a report names: found is whether the attacker's shot ring holds
// a shot of that number, of the attacker's current life, of the kind (hand-held or vehicle
// gun) the report names; since is the time from its acceptance to the report; relayed
// whether it was accepted after the victim's current life began. It returns
// VerdictAccepted or the reason.
func (r ShotCreditRule) Identify(found bool, since time.Duration, relayed bool) Verdict {
	switch {
	case !found || since > r.Window:
		return VerdictNoSuchAction
	case !relayed:
		return VerdictNotRelayed
	}
	return VerdictAccepted
}

// Credit judges the report against the shot it identified: sameWeapon is whether the
// report names the shot's weapon, creditsLeft whether the victim has a credit of the shot
// left (or room as a new victim).
func (r ShotCreditRule) Credit(sameWeapon, creditsLeft bool) Verdict {
	switch {
	case !sameWeapon:
		return VerdictWrongWeapon
	case !creditsLeft:
		return VerdictNoCredit
	}
	return VerdictAccepted
}

// DetonationRule decides whether a victim's report of an explosion may be credited to the
// detonation of an attacker's projectile: the projectile is the attacker's, of its current
// life, and detonated less than Window ago, after the victim's life began; the report
// names an explosion (or the fire of a molotov); the victim stood within Radius (plus
// PositionSlack) of the detonation at that moment or now.
type DetonationRule struct {
	// Window is ExplosionWindow; Radius is BlastRadius.
	Window time.Duration
	Radius float32
}

// Judge returns VerdictAccepted or the reason: found is whether the attacker's projectile
// ring holds a detonated projectile of the number and life the report names; since the time
// from its detonation to the report; relayed whether it detonated after the victim's life
// began; cause whether the report's weapon is the detonation's (an explosion, or a
// molotov's fire); within whether the victim stood within Radius of it then or now.
func (r DetonationRule) Judge(found bool, since time.Duration, relayed, cause, within bool) Verdict {
	switch {
	case !found || since > r.Window:
		return VerdictNoSuchAction
	case !relayed:
		return VerdictNotRelayed
	case !cause:
		return VerdictWrongWeapon
	case !within:
		return VerdictTooFar
	}
	return VerdictAccepted
}

// ClaimReachRule decides whether a shooter's claimed hit feeds the target's god-mode
// detector: only when the ray passed within Player of the rewound body the target was
// sent (Vehicle of a vehicle's rewound pose), so that the target's own trace could have
// confirmed it; farther, the claim only says the shooter missed. A claim stamped teammate
// for its target never feeds it: the target was told to refuse the damage.
type ClaimReachRule struct {
	// Player is the reach around a body (ClaimReach); Vehicle around a vehicle's pose
	// (VehicleClaimReach).
	Player, Vehicle float32
}

// Feeds reports whether a claim whose ray passed distance from the pose the target was
// sent feeds its detector.
func (r ClaimReachRule) Feeds(distance float32, vehicle, teammate bool) bool {
	reach := r.Player
	if vehicle {
		reach = r.Vehicle
	}
	return !teammate && distance <= reach
}

// ActionGraceRule decides whether an attacker's blow or ram reported by its victim is
// still the attacker's: it may act now, or it died (the commit of its death) less than
// Grace ago in the same life: both were dealt alive, before the commit reached the victim.
type ActionGraceRule struct {
	// Grace is ActionGrace.
	Grace time.Duration
}

// Acted reports whether the attacker counts as acting: mayAct is the lifecycle's answer
// now; diedThisLife whether its death in its current life was committed, sinceDeath how
// long ago.
func (r ActionGraceRule) Acted(mayAct, diedThisLife bool, sinceDeath time.Duration) bool {
	return mayAct || diedThisLife && sinceDeath <= r.Grace
}

// RamRule decides whether a ram, a run-over or rotor blades a victim reports is the named
// driver's: one of its frames of the last Window put it in a driver's seat, and it came
// within Distance of the victim (the closest their paths came, ProximityRule).
type RamRule struct {
	// Distance is RamDistance; Window is ContinuousWindow.
	Distance float32
	Window   time.Duration
}

// Judge returns VerdictAccepted or the reason: sinceDriving is the time since the
// driver's last frame in a driver's seat in its current life (negative: none), closest
// the distance between the two.
func (r RamRule) Judge(acted bool, sinceDriving time.Duration, closest float32) Verdict {
	switch {
	case !acted:
		return VerdictAttackerNotAlive
	case sinceDriving < 0 || sinceDriving > r.Window:
		return VerdictNotDriving
	case !(closest <= r.Distance):
		return VerdictTooFar
	}
	return VerdictAccepted
}

// StealthKillRule decides the geometry and the weapon of a stealth kill (the server's whole
// decision): the knife, in the attacker's store, within Range by the closest their paths
// came. (Life, life counting and teams are judged before and after it.)
type StealthKillRule struct {
	// Range is StealthKillRange.
	Range float32
}

// Judge returns VerdictAccepted or the reason.
func (r StealthKillRule) Judge(knife, owned bool, closest float32) Verdict {
	switch {
	case !knife:
		return VerdictWrongKind
	case !owned:
		return VerdictNotOwned
	case !(closest <= r.Range):
		return VerdictOutOfRange
	}
	return VerdictAccepted
}

// VehicleCreditRule decides who authored a vehicle's explosion: the player the driver's
// report names, if its last accepted shot claiming a hit on that vehicle came within
// Window, in its current life ([vehicle-credit]).
type VehicleCreditRule struct {
	// Window is VehicleCreditWindow.
	Window time.Duration
}

// Credited reports whether the named player is the author: hitByIt is whether the
// vehicle's last claimed hit was its, sinceHit how long ago, sameLife whether it was in
// its current life.
func (r VehicleCreditRule) Credited(hitByIt, sameLife bool, sinceHit time.Duration) bool {
	return hitByIt && sameLife && sinceHit >= 0 && sinceHit <= r.Window
}

// ProximityRule measures how close two players came, by their accepted paths over
// Lookback sampled every Step, comparing moments at most Skew apart: a report arrives a
// one-way trip after the damage, what each side saw of the other was up to a round trip
// old, and the two paths reach the server over different links. It serves the blow, the
// ram, the spray and the stealth kill.
type ProximityRule struct {
	// Lookback is ProximityLookback, Skew ProximitySkew; Step is the sampling interval.
	Lookback, Skew, Step time.Duration
}

// MaxProximitySamples caps the samples of one path a ProximityRule compares.
const MaxProximitySamples = 64

// Closest returns the smallest distance between the paths a and b over the lookback from
// now (+Inf when they never overlap): at(t) returns a path's position at t, and whether it
// has one.
func (r ProximityRule) Closest(now time.Duration, a, b func(at time.Duration) (Point, bool)) float32 {
	step := max(r.Step, time.Millisecond)
	n := min(int(r.Lookback/step)+1, MaxProximitySamples)
	var pa, pb [MaxProximitySamples]Point
	var oka, okb [MaxProximitySamples]bool
	for i := range n {
		t := max(now-time.Duration(i)*step, 0)
		pa[i], oka[i] = a(t)
		pb[i], okb[i] = b(t)
	}
	skew := int(r.Skew / step)
	best := float32(math.Inf(1))
	for i := range n {
		if !oka[i] {
			continue
		}
		for j := max(i-skew, 0); j <= min(i+skew, n-1); j++ {
			if okb[j] {
				dx, dy, dz := float64(pa[i].X-pb[j].X), float64(pa[i].Y-pb[j].Y), float64(pa[i].Z-pb[j].Z)
				best = min(best, float32(math.Sqrt(dx*dx+dy*dy+dz*dz)))
			}
		}
	}
	return best
}

// Point is a position in metres.
type Point struct{ X, Y, Z float32 }

// Rules are the cross-package rules a World applies (DefaultRules).
type Rules struct {
	// ShotCredit credits a victim's report to an accepted shot.
	ShotCredit ShotCreditRule
	// Detonation credits a victim's report to a projectile's detonation.
	Detonation DetonationRule
	// ClaimReach lets a claimed hit feed the target's detector.
	ClaimReach ClaimReachRule
	// ActionGrace keeps a blow or a ram dealt alive its attacker's.
	ActionGrace ActionGraceRule
	// Ram attributes a ram, a run-over or rotor blades to a driver.
	Ram RamRule
	// StealthKill judges a stealth kill's weapon and reach.
	StealthKill StealthKillRule
	// VehicleCredit names a vehicle explosion's author.
	VehicleCredit VehicleCreditRule
	// Proximity measures how close two players came.
	Proximity ProximityRule
}

// DefaultRules are the rules with the package's constants.
func DefaultRules() Rules {
	return Rules{
		ShotCredit:    ShotCreditRule{Window: ShotCreditWindow},
		Detonation:    DetonationRule{Window: ExplosionWindow, Radius: BlastRadius},
		ClaimReach:    ClaimReachRule{Player: ClaimReach, Vehicle: VehicleClaimReach},
		ActionGrace:   ActionGraceRule{Grace: ActionGrace},
		Ram:           RamRule{Distance: RamDistance, Window: ContinuousWindow},
		StealthKill:   StealthKillRule{Range: StealthKillRange},
		VehicleCredit: VehicleCreditRule{Window: VehicleCreditWindow},
		Proximity:     ProximityRule{Lookback: ProximityLookback, Skew: ProximitySkew, Step: 100 * time.Millisecond},
	}
}
