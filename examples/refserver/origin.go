package refserver

import (
	"fmt"
	"math"
	"time"

	"github.com/arbitergo/arbiter/rewind"
	"github.com/arbitergo/arbiter/wire"
)

// Where a client's own actions start. A shot's ray and a projectile's launch carry the
// point they start from, and every other client traces or simulates from it: a client
// must not be able to fire from beside its victim, or behind the victim's wall, while it
// stands elsewhere. The point is judged against the actor's accepted path (rewind's
// approach over OriginWindow); a detonation against where its weapon carries a projectile
// from the launch in the time since.

// Reach is what the World measured of one connection's accepted actions against what it
// accepted of the actor: the honest worst case the tolerances are sized from (the
// simulator reports it). Every field is a largest distance, in metres, over the accepted
// actions of the connection.
type Reach struct {
	// ShotOnFoot and ShotSeated: from a WeaponShot's origin to the shooter's accepted path
	// over OriginWindow, on foot and in a seat (a drive-by).
	ShotOnFoot, ShotSeated float32
	// Launch: from a projectile's launch on foot to the owner's path; VehicleLaunch: from
	// a vehicle's rocket to the vehicle's path.
	Launch, VehicleLaunch float32
	// Thrown and Rocket: from a projectile's launch to its detonation, for thrown weapons
	// (not counting a satchel that rode a vehicle farther) and for rockets.
	Thrown, Rocket float32
	// LostLaunch: from the detonation of a projectile whose launch never arrived to the
	// owner's path over LostLaunchLookback.
	LostLaunch float32
}

// Reach returns what the World measured of connection id's accepted actions (see Reach).
func (w *World) Reach(id PlayerID) (Reach, error) {
	p := w.conn(id)
	if p == nil {
		return Reach{}, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	r := p.reach
	r.ShotOnFoot, r.ShotSeated = p.shotOnFoot, p.shotSeated
	return r, nil
}

// seated reports whether p's frames put it in a vehicle's seat within OriginWindow of now
// in its current life.
func (p *player) seated(now time.Duration) bool {
	return p.riding && p.rideLife == p.lifeSerial && now-p.rideAt <= OriginWindow
}

// lead is how far an entity may have moved beyond the newest sample of the path a measured
// (its speed along that path, at most top, for OriginLead).
func lead(a rewind.Approach, top float64) float64 {
	if a.Span <= 0 {
		return 0
	}
	return min(a.Length/a.Span.Seconds(), top) * OriginLead.Seconds()
}

// ownOrigin judges the point at which p's own action (a shot's ray, a projectile thrown
// on foot) starts: it must lie within OriginReach of p's accepted path over OriginWindow
// (SeatedOriginReach when p sat in a vehicle within the window: its frames carry the
// vehicle's position), plus the lead of p's motion. It returns the distance, the
// tolerance, and whether p was seated; an actor without an accepted position has none.
func (w *World) ownOrigin(now time.Duration, p *player, at wire.Vec3) (d, tol float64, seated bool) {
	seated = p.seated(now)
	reach, top := float64(OriginReach), float64(MaxFootSpeed)
	if seated {
		reach, top = SeatedOriginReach, MaxOriginSpeed
	}
	a, err := w.rw.PlayerApproach(now-OriginWindow, p.id, rewind.Vec3(at))
	if err != nil {
		return math.Inf(1), reach, seated
	}
	return a.Distance, reach + lead(a, top), seated
}

// vehicleOrigin judges the point a vehicle's rocket starts at against the vehicle's
// accepted path over OriginWindow: within VehicleLaunchReach plus the vehicle's lead.
func (w *World) vehicleOrigin(now time.Duration, veh uint16, at wire.Vec3) (d, tol float64) {
	// A catalogue of the vehicles' mounts would put the rocket pod here: the mount's
	// offset turned by the vehicle's rewound rotation, and a small slack instead of the
	// vehicle's size.
	a, err := w.rw.VehicleApproach(now-OriginWindow, rewind.VehicleID(veh), rewind.Vec3(at))
	if err != nil {
		return math.Inf(1), VehicleLaunchReach
	}
	return a.Distance, VehicleLaunchReach + lead(a, MaxOriginSpeed)
}

// refuseShotFar refuses a shot whose origin lies d from the shooter's path, beyond tol:
// shot_refused with the distance (Amount) and the tolerance (Floor), without allocating.
func (w *World) refuseShotFar(now time.Duration, p *player, seq uint16, weapon uint8, d, tol float64) Verdict {
	w.stats.ShotsRefused++
	w.stats.FarOrigins++
	w.raise(Event{Kind: EventShotRefused, At: now, Player: p.id, Other: NoPlayer, Vehicle: NoVehicle, Weapon: weapon, Seq: seq,
		Verdict: VerdictFarOrigin, Detail: "origin", Amount: float32(min(d, math.MaxFloat32)), Floor: float32(tol)})
	return VerdictFarOrigin
}

// refuseProjectileFar refuses a launch or a detonation (what says which) d away from
// where it may lie, beyond tol: projectile_refused with the distance and the tolerance.
func (w *World) refuseProjectileFar(now time.Duration, p *player, seq uint16, weapon uint8, v Verdict, what string, d, tol float64) Verdict {
	if v == VerdictFarOrigin {
		w.stats.FarOrigins++
	} else {
		w.stats.FarDetonations++
	}
	w.raise(Event{Kind: EventProjectileRefused, At: now, Player: p.id, Other: NoPlayer, Vehicle: NoVehicle, Weapon: weapon, Seq: seq,
		Verdict: v, Detail: what, Amount: float32(min(d, math.MaxFloat32)), Floor: float32(tol)})
	return v
}

// throwReach is how far from its launch a thrown weapon's projectile may detonate: its
// Range in the newest catalogue table (the throw's reach) plus ThrowSlack.
func (w *World) throwReach(weapon uint8) float64 {
	props, err := w.catalog.Weapon(w.catalog.Revision(), weapon)
	if err != nil {
		return ThrowSlack
	}
	return float64(props.Range) + ThrowSlack
}

// travelBound is how far from its launch a projectile of weapon may detonate elapsed
// after the World accepted the launch: a rocket at RocketSpeed (with RocketTimeSlack), at
// most MaxRocketTravel; a thrown weapon its throwReach.
func (w *World) travelBound(weapon uint8, elapsed time.Duration) float64 {
	if w.catalog.Flies(weapon) {
		return min(RocketSpeed*(elapsed+RocketTimeSlack).Seconds(), MaxRocketTravel)
	}
	return w.throwReach(weapon)
}

// lostLaunchReach is how far from its owner's accepted path the detonation of a
// projectile whose launch never arrived may lie: the longest its weapon carries one (the
// time since the launch is unknown: a thrown weapon's Range, without the ThrowSlack of a
// detonation measured from its known launch, since here the owner's whole path stands for
// the launch point), the owner's own reach, and LostLaunchSlack.
func (w *World) lostLaunchReach(now time.Duration, p *player, weapon uint8) float64 {
	reach := float64(OriginReach)
	if p.seated(now) {
		reach = SeatedOriginReach
	}
	far := w.throwReach(weapon) - ThrowSlack
	if w.catalog.Flies(weapon) {
		far = MaxRocketTravel
	}
	return far + reach + LostLaunchSlack
}

// noteRides remembers in rec the vehicles a satchel thrown from origin may ride: those
// standing within its throw's reach and SatchelRideReach of the launch, the nearest
// MaxSatchelRides of them (by their newest accepted positions).
func (w *World) noteRides(rec *projectileRecord, origin wire.Vec3) {
	limit := float32(w.throwReach(rec.weapon) + SatchelRideReach)
	var d [MaxSatchelRides]float32
	rec.nrides = 0
	for i := range w.vehicles {
		v := &w.vehicles[i]
		if !v.exists || v.wrecked {
			continue
		}
		dv := dist(v.pos, origin)
		if dv > limit {
			continue
		}
		// Insert by distance; the farthest falls off a full list.
		n := int(rec.nrides)
		if n == MaxSatchelRides {
			if dv >= d[n-1] {
				continue
			}
			n--
		}
		j := n
		for j > 0 && d[j-1] > dv {
			d[j], rec.rides[j] = d[j-1], rec.rides[j-1]
			j--
		}
		d[j], rec.rides[j] = dv, uint16(i)
		rec.nrides = uint8(n + 1)
	}
}

// rode reports whether a satchel's detonation at pos lies on a vehicle it may ride: within
// SatchelRideReach (and the vehicle's lead) of that vehicle's accepted path over
// OriginWindow.
func (w *World) rode(now time.Duration, rec *projectileRecord, pos wire.Vec3) bool {
	for _, id := range rec.rides[:rec.nrides] {
		a, err := w.rw.VehicleApproach(now-OriginWindow, rewind.VehicleID(id), rewind.Vec3(pos))
		if err == nil && a.Distance <= SatchelRideReach+lead(a, MaxOriginSpeed) {
			return true
		}
	}
	return false
}
