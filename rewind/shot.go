package rewind

import (
	"fmt"
	"math"
	"math/bits"
	"time"
)

// Ray is a shot's ray as the shooter's frame or shot packet gives it.
type Ray struct {
	// Kind is the kind of shot: WeaponRay and VehicleGunRay rewind, CannonRay does not.
	Kind RayKind
	// Origin is where the ray starts.
	Origin Vec3
	// Direction is where it points; any finite, non-zero length (it is normalised).
	Direction Vec3
	// Length is how far it reaches, in metres: finite, above 0, at most MaxRayLength.
	Length float32
}

// Recipient is one player a shot's ray passed near, and the pose the server sends it in
// its own RemoteWeaponShot. This pose is the one pose of the shot: the host hands the
// same value to the attribution of the hit and to the god_mode and vehicle_god_mode
// detectors, so all of them judge against exactly what the recipient was told.
type Recipient struct {
	// Player is the recipient.
	Player PlayerID
	// Verdict says whether (and with what) the recipient was rewound.
	Verdict RecipientVerdict
	// Position is where the recipient puts its body for the shot's trace.
	Position Vec3
	// Vehicle is the vehicle the recipient sits in, or NoVehicle on foot.
	Vehicle VehicleID
	// VehiclePose is where the recipient puts its copy of Vehicle (and itself with it)
	// for the trace; the zero Pose when Vehicle is NoVehicle.
	VehiclePose Pose
	// Distance is how far Position lies from the ray, in metres.
	Distance float32
}

// ShotResult is what Shot found.
type ShotResult struct {
	// Verdict says how the recipients were placed.
	Verdict ShotVerdict
	// At is the moment the recipients were rewound to: now − Back.
	At time.Duration
	// Back is how far the shot rewinds: the shooter's round-trip time, at most RewindCap;
	// 0 for ShotNoRTT and ShotCannon.
	Back time.Duration
	// Recipients are the players the ray passed near, in ascending id order, written
	// into the slice given to Shot.
	Recipients []Recipient
}

// query is one shot's parameters, shared by the broadphase and the naive scan.
type query struct {
	seg         segment
	at          time.Duration
	shooter     int
	shooterSeat VehicleID
}

func checkRay(r Ray) error {
	if r.Kind < WeaponRay || r.Kind > CannonRay {
		return fmt.Errorf("%w: %d", ErrBadRayKind, r.Kind)
	}
	if !validPosition(r.Origin) {
		return fmt.Errorf("%w: ray origin %v", ErrBadPosition, r.Origin)
	}
	d := r.Direction
	if !finite(d.X) || !finite(d.Y) || !finite(d.Z) {
		return fmt.Errorf("%w: %v", ErrBadDirection, d)
	}
	dx, dy, dz := float64(d.X), float64(d.Y), float64(d.Z)
	if n2 := dot3(dx, dy, dz, dx, dy, dz); !(n2 >= minDirection2) {
		return fmt.Errorf("%w: %v has no length", ErrBadDirection, d)
	}
	if !(r.Length > 0 && r.Length <= MaxRayLength) {
		return fmt.Errorf("%w: %v not in (0, %d]", ErrBadLength, r.Length, MaxRayLength)
	}
	return nil
}

// minDirection2 is the smallest squared length a ray's direction may have.
const minDirection2 = 1e-12

// Shot answers a shot fired by shooter at now along ray: every other player whose
// rewound position lies within its near distance of the ray, with the pose to send it.
//
// The moment is now minus the shooter's round-trip time (RTT), at most RewindCap back.
// A recipient on foot gets its accepted path at that moment; a recipient sitting in a
// vehicle gets its own and its vehicle's at the same moment, except in the shooter's
// vehicle, a frozen one or a wrecked one, where both stay at their present poses. A
// CannonRay rewinds nobody and lists nobody. The shooter is never a recipient.
//
// The recipients are written into dst's backing array from index 0 (pass a slice with
// capacity for every player, such as make([]Recipient, 0, MaxPlayers), and Shot does
// not allocate). Shot changes nothing in the World.
func (w *World) Shot(now time.Duration, shooter PlayerID, ray Ray, dst []Recipient) (ShotResult, error) {
	if err := w.checkClock(now); err != nil {
		return ShotResult{}, err
	}
	s, err := w.player(shooter)
	if err != nil {
		return ShotResult{}, err
	}
	if err := checkRay(ray); err != nil {
		return ShotResult{}, err
	}
	res := ShotResult{Verdict: ShotCannon, At: now, Recipients: dst[:0]}
	if ray.Kind == CannonRay {
		return res, nil
	}
	res.Verdict = ShotNoRTT
	if rtt, ok := w.meters[shooter].rtt(); ok {
		res.Verdict, res.Back = ShotRewound, min(rtt, RewindCap)
		res.At = now - res.Back
	}
	q := query{seg: newSegment(ray.Origin, ray.Direction, ray.Length), at: res.At, shooter: int(shooter), shooterSeat: s.seat}
	w.collect(&q)
	out := res.Recipients
	for k, word := range w.cand {
		if word == 0 {
			continue
		}
		w.cand[k] = 0
		for word != 0 {
			id := k<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			if r, ok := w.evaluate(&q, id); ok {
				out = append(out, r)
			}
		}
	}
	res.Recipients = out
	return res, nil
}

// evaluate decides whether player id is a recipient of the shot q and with which pose.
func (w *World) evaluate(q *query, id int) (Recipient, bool) {
	p := &w.players[id]
	if id == q.shooter || !p.placed {
		return Recipient{}, false
	}
	rc := Recipient{Player: PlayerID(id), Verdict: RewoundOnFoot, Vehicle: p.seat}
	var v *vehicle
	if p.seat != NoVehicle {
		v = &w.vehicles[p.seat]
		switch {
		case p.seat == q.shooterSeat:
			rc.Verdict = InShooterVehicle
		case v.frozen:
			rc.Verdict = InFrozenVehicle
		case v.wrecked:
			rc.Verdict = InWreckedVehicle
		default:
			rc.Verdict = RewoundInVehicle
		}
	}
	rewound := rc.Verdict.Rewound()
	if rewound {
		rc.Position = w.ptracks[id].at(q.at)
	} else {
		rc.Position = p.pos
	}
	near := w.nearOf(p)
	d2 := q.seg.dist2(rc.Position)
	if d2 > near*near {
		return Recipient{}, false
	}
	rc.Distance = float32(math.Sqrt(d2))
	if v != nil {
		if rewound {
			rc.VehiclePose = v.poseAt(q.at)
		} else {
			rc.VehiclePose = v.present()
		}
	}
	return rc, true
}
