package refserver

import (
	"math"
	"time"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// The seat table: who sits where is the server's, from accepted entries only (the wire
// has no message to enter a vehicle: a frame that names a seat its player does not hold
// is its claim to enter).

// seatHold is the seat a player holds: what every frame reads (a frame on foot asks
// whether one is held, to leave it), kept in the player's line 1 apart from seatPast.
type seatHold struct {
	held    bool
	vehicle uint16
	seat    uint8
}

// seatPast is when the held seat was taken, and what a player's frames in a seat and its
// refused entries leave: only a frame in a seat, a death or a shot of a seated player and
// a refused entry read it.
type seatPast struct {
	heldAt time.Duration // when the held seat (seatHold) was taken

	// The last accepted frame in a seat, for a shot fired from it that arrives after the
	// frame that left it.
	sat        bool
	satVehicle uint16
	satSeat    uint8
	satAt      time.Duration
	satLife    uint64

	// The last SetPlayerPosition sent to put a refused entry back (EntryCorrectionInterval).
	fixed bool
	fixAt time.Duration
}

// holds reports whether p holds seat s of vehicle v.
func (h *seatHold) holds(v uint16, s uint8) bool { return h.held && h.vehicle == v && h.seat == s }

// freeSeats returns a vehicle's seat table with every seat free.
func freeSeats() (s [inventory.MaxVehicleSeats]PlayerID) {
	for i := range s {
		s[i] = NoPlayer
	}
	return s
}

// satWithin reports whether p held seat s of vehicle v by a frame of the last window in
// its current life (or holds it now).
func (w *World) satWithin(p *player, v uint16, s uint8, window time.Duration) bool {
	if p.seat.holds(v, s) {
		return true
	}
	h := &p.seatPast
	return h.sat && h.satVehicle == v && h.satSeat == s && h.satLife == p.lifeSerial && w.now-h.satAt <= window
}

// judgeEntry judges a frame's claim on seat m.Seat of vehicle m.Vehicle, which p does not
// hold: the vehicle exists and is not wrecked, the seat exists on its model and is free,
// p is alive, and p's accepted position lies within EntryReach of the vehicle's accepted
// position. It changes nothing.
func (w *World) judgeEntry(p *player, m *wire.PlayerSync) (Verdict, PlayerID, string) {
	v := w.vehicle(m.Vehicle)
	switch {
	case v == nil:
		return VerdictUnknownVehicle, NoPlayer, "entry: no such vehicle"
	case v.wrecked:
		return VerdictWrecked, NoPlayer, "entry: the vehicle is a wreck"
	case int(m.Seat) >= w.models.Seats(v.model):
		return VerdictNoSuchSeat, NoPlayer, "entry: the model has no such seat"
	case v.seats[m.Seat] != NoPlayer && v.seats[m.Seat] != p.id:
		return VerdictSeatTaken, v.seats[m.Seat], "entry: another player holds the seat"
	case !m.Alive || !w.life.MayAct(p.handle):
		return VerdictNotAlive, NoPlayer, "entry: not alive"
	case !p.frame.have || dist(p.frame.pos, v.pos) > EntryReach:
		return VerdictOutOfReach, NoPlayer, "entry: too far from the vehicle"
	}
	return VerdictAccepted, NoPlayer, ""
}

// refuseEntry refuses a frame whose entry claim failed, whole: it is not relayed and not
// recorded anywhere. It is raised as input_refused, and the player is put back where the
// server last accepted it (at most every EntryCorrectionInterval, when its lane has
// room): its client believes it sits in the seat, and a SetPlayerPosition takes it out.
func (w *World) refuseEntry(now time.Duration, p *player, m *wire.PlayerSync, v Verdict, holder PlayerID, detail string) Verdict {
	w.stats.EntriesRefused++
	w.raise(Event{Kind: EventInputRefused, At: now, Player: p.id, Other: holder, Vehicle: m.Vehicle, Verdict: v, Detail: detail})
	if p.frame.have && (!p.seatPast.fixed || now-p.seatPast.fixAt >= EntryCorrectionInterval) {
		fix := &w.msgs.position
		*fix = wire.SetPlayerPosition{Position: p.frame.pos, Facing: p.frame.facing}
		if p.ep.CanQueue(fix) == nil {
			if _, ok := w.queue(now, p, fix); ok {
				p.seatPast.fixed, p.seatPast.fixAt = true, now
			}
		}
	}
	return v
}

// takeSeat carries out an accepted frame's seat: leaving the one p held (a frame on foot,
// in another seat or another vehicle), taking the one it names (granted by judgeEntry, or
// already held), and remembering the last frame in a seat.
func (w *World) takeSeat(now time.Duration, p *player, veh uint16, seat uint8) {
	h := &p.seat
	if veh == NoVehicle {
		w.leaveSeat(p)
		return
	}
	if !h.holds(veh, seat) {
		w.leaveSeat(p)
		v := w.vehicle(veh)
		if v == nil { // judged before: cannot happen
			return
		}
		if d := dist(p.frame.pos, v.pos); d > w.stats.EntryReachMax {
			w.stats.EntryReachMax = d
		}
		v.seats[seat] = p.id
		h.held, h.vehicle, h.seat, p.seatPast.heldAt = true, veh, seat, now
		w.stats.Entries++
		w.vsSeated(now, p, veh)
	}
	sp := &p.seatPast
	sp.sat, sp.satVehicle, sp.satSeat, sp.satAt, sp.satLife = true, veh, seat, now, p.lifeSerial
}

// seatedFor reports whether p has held a seat for longer than window.
func (w *World) seatedFor(p *player, window time.Duration) bool {
	return p.seat.held && w.now-p.seatPast.heldAt > window
}

// leaveSeat frees the seat p holds, if any.
func (w *World) leaveSeat(p *player) {
	h := &p.seat
	if !h.held {
		return
	}
	if v := w.vehicle(h.vehicle); v != nil && v.seats[h.seat] == p.id {
		v.seats[h.seat] = NoPlayer
	}
	h.held = false
}

// driverOf returns the player holding vehicle v's driver's seat, or nil.
func (w *World) driverOf(v *vehicle) *player {
	if v.seats[0] == NoPlayer {
		return nil
	}
	return w.conn(v.seats[0])
}

// gunOrigin judges a vehicle shot's origin: within gun's MountReach, VehicleGunSlack and
// the vehicle's speed times VehicleGunLag of the gun's mount on the vehicle's accepted
// pose. It returns how far beyond the mount reach the origin lay, and whether it passes.
func gunOrigin(v *vehicle, gun *inventory.VehicleGun, origin wire.Vec3) (float32, bool) {
	muzzle := gun.Muzzle(inventory.Vec3(v.pos), inventory.Quat(v.rot))
	off := dist(origin, wire.Vec3(muzzle)) - gun.MountReach
	speed := float32(math.Sqrt(float64(v.vel.X)*float64(v.vel.X) + float64(v.vel.Y)*float64(v.vel.Y) + float64(v.vel.Z)*float64(v.vel.Z)))
	lag := min(speed, VehicleGunMaxSpeed) * float32(VehicleGunLag.Seconds())
	return off - lag, off <= VehicleGunSlack+lag
}

// PlayerSeat returns the vehicle and seat the server granted player id (the seat table's:
// an accepted entry, not yet left), and false when it sits in none or is not connected.
func (w *World) PlayerSeat(id PlayerID) (vehicle uint16, seat uint8, ok bool) {
	p := w.conn(id)
	if p == nil || !p.seat.held {
		return NoVehicle, 0, false
	}
	return p.seat.vehicle, p.seat.seat, true
}
