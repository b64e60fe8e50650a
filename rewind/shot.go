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
	// FromVehicle says the ray was fired by the guns of Vehicle (a VehicleShot): that
	// vehicle is the shooter's own, whatever the shooter's newest frame says. A host may
	// take a vehicle's shot that arrives just after the frame showing its driver on foot;
	// its passengers are still not rewound. Without it the shooter's own vehicle is the one
	// its newest frame seats it in. Vehicle must be an added vehicle (ErrVehicleRange,
	// ErrUnknownVehicle).
	FromVehicle bool
	// Vehicle is the vehicle that fired, when FromVehicle.
	Vehicle VehicleID
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
//
// Rules: [rewind-to-shooters-view], [rewind-cap], [rtt-by-ping].
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
	if ray.FromVehicle {
		if _, err := w.vehicle(ray.Vehicle); err != nil {
			return ShotResult{}, err
		}
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
	seat := s.seat
	if ray.FromVehicle {
		seat = ray.Vehicle
	}
	q := query{seg: newSegment(ray.Origin, ray.Direction, ray.Length), at: res.At, shooter: int(shooter), shooterSeat: seat}
	w.collect(&q)
	res.Recipients = w.recipients(&q, res.Recipients)
	return res, nil
}

// recipients appends to out every candidate of the shot q (collect's) that is one of its
// recipients, with its pose, in ascending id order, and clears the candidate set.
//
// A recipient is written straight into its slot of out, field by field: a Recipient
// built aside and copied in would be read back before its parts were written out, which
// stalls the copy. Only when out is full does one go by a copy, which append then grows
// as it would.
func (w *World) recipients(q *query, out []Recipient) []Recipient {
	var spare Recipient
	for k, word := range w.cand {
		if word == 0 {
			continue
		}
		w.cand[k] = 0
		for word != 0 {
			id := k<<6 | bits.TrailingZeros64(word)
			word &= word - 1
			p := &w.players[id]
			if id == q.shooter || !p.has {
				continue
			}
			verdict := RewoundOnFoot
			if p.seat != NoVehicle {
				verdict = w.seatVerdict(p.seat, q.shooterSeat)
			}
			pos := p.nw.pos
			if verdict.Rewound() && q.at < p.nw.t {
				pos = w.rewindPlayer(q.at, p, id)
			}
			d2 := q.seg.dist2(pos)
			if near := w.nearOf(p); d2 > near*near {
				continue
			}
			rc := &spare
			if n := len(out); n < cap(out) {
				rc = &out[:n+1][n]
			}
			rc.Player, rc.Verdict, rc.Position, rc.Vehicle = PlayerID(id), verdict, pos, p.seat
			rc.Distance = float32(math.Sqrt(d2))
			switch {
			case p.seat == NoVehicle:
				rc.VehiclePose = Pose{}
			case verdict.Rewound():
				rc.VehiclePose = w.rewindVehicle(q.at, p.seat)
			default:
				rc.VehiclePose = w.vehicles[p.seat].present()
			}
			if rc == &spare {
				out = append(out, spare)
			} else {
				out = out[:len(out)+1]
			}
		}
	}
	return out
}

// seatVerdict is the verdict of a recipient sitting in vehicle seat, for a shooter
// sitting in shooterSeat.
func (w *World) seatVerdict(seat, shooterSeat VehicleID) RecipientVerdict {
	switch vh := &w.vhot[seat]; {
	case seat == shooterSeat:
		return InShooterVehicle
	case vh.frozen:
		return InFrozenVehicle
	case vh.wrecked:
		return InWreckedVehicle
	}
	return RewoundInVehicle
}

// rewindPlayer returns player id's position at moment at, from the newest sample's time
// minus RewindCap on (a shot's moment) and before the newest sample's (at or after it
// the position is the newest sample's): what its track's at returns, found from the track's
// bookkeeping in p and its copy of the window start's time (see player). Such a moment lies
// at or after the window start, so the samples around it lie between the window start
// and the newest sample, and the first line of the samples read is the one that holds
// them.
func (w *World) rewindPlayer(at time.Duration, p *player, id int) Vec3 {
	if at <= p.tWS {
		// The epoch began after at, or at is the window start's moment exactly: the
		// general search, which knows the oldest sample.
		return w.ptrack(id).at(at)
	}
	tr := track{&p.head, &w.prings[id]}
	lo := (p.last - int(p.wsBack)) & ringMask // the window start's slot
	i, j, f := tr.search(at, lo, lo+int(p.wsBack), p.tWS, p.nw.t)
	return lerp(tr.s[i].pos, tr.s[j].pos, f) // i != j: tWS < at < tNew
}

// rewindVehicle returns vehicle id's pose at moment at: what its poseAt returns, found
// from its hot copy the way rewindPlayer finds a player's position.
func (w *World) rewindVehicle(at time.Duration, id VehicleID) Pose {
	vh := &w.vhot[id]
	lo := int(vh.oldSlot)
	return w.vehicles[id].poseIn(at, lo, lo+int(vh.span), vh.tOld, vh.tNew)
}
