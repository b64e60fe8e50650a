package match

import (
	"math"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// The vehicle cheats: CheatVehicleGuns forges the guns of any vehicle, CheatSeatSteal
// claims the driver's seat of an honest player's car from far away.

// The vehicle cheats' habits.
const (
	// VehicleGunsEvery is how often a vehicle-guns cheater forges a volley.
	VehicleGunsEvery = 100 * time.Millisecond
	// VehicleGunsCopies is how many forged copies of its gun's ray a vehicle-guns cheater
	// driving an armed vehicle adds to each volley (far beyond the gun's cadence).
	VehicleGunsCopies = 4
	// ForgedRayLength is the length of the Sniper rays a vehicle-guns cheater fires from
	// an unarmed car (no vehicle gun reaches it).
	ForgedRayLength = 900
	// SeatStealDistance is how far, at least, from the car it claims a seat-steal cheater
	// stands.
	SeatStealDistance = 50
	// SeatStealHold is how long a seat-steal cheater keeps claiming a seat (its frames in
	// the seat, the car's forged frames) before it reports the car exploded.
	SeatStealHold = time.Second
	// SeatStealRest is how long a seat-steal cheater waits between two attempts.
	SeatStealRest = 5 * time.Second
)

// vehicleCheat is the state of the two vehicle cheats.
type vehicleCheat struct {
	next time.Duration // the next forged volley (vehicle guns) or attempt (seat steal)
	seq  uint16        // the last forged shot number
	// forbidden are the forged shots the catalogue forbids (a gun its vehicle does not
	// have, a seat that does not fire it, a ray beyond its range, on foot), by number.
	forbidden map[uint16]forgedGunShot
	relayed   map[uint16]bool
	// relayAt is when each of the cheater's vehicle shots was first relayed, per vehicle
	// (for the guns' cadence).
	relayAt map[uint16][]time.Duration

	// The vehicle it sat in last, and when (vehicle guns): a shot from its seat may still
	// be taken just after it got out (refserver.VehicleShotGrace).
	lastIn   uint16
	lastInAt time.Duration

	// seat steal
	target   *car          // the car whose driver's seat it claims
	claimAt  time.Duration // when the claim started
	exploded bool          // it reported the car exploded
	granted  bool          // the server relayed a frame of it in the target's seat this attempt
}

// forgedGunShot is what a forged vehicle shot said, to know its relay from an honest shot
// under the same number.
type forgedGunShot struct {
	vehicle     uint16
	weapon      uint8
	origin, end wire.Vec3
}

func newVehicleCheat() *vehicleCheat {
	return &vehicleCheat{forbidden: map[uint16]forgedGunShot{}, relayed: map[uint16]bool{}, relayAt: map[uint16][]time.Duration{}}
}

// busy reports whether a seat-steal cheater's bot must keep still: its client sits in a
// seat the cheat claims.
func (ch *cheater) busy() bool {
	return ch != nil && ch.kind == CheatSeatSteal && ch.veh != nil && ch.veh.target != nil
}

// forgeVehicles runs every client tick of a vehicle cheater.
func (m *Match) forgeVehicles(now time.Duration, p *player, send func([]byte)) {
	ch := p.cheat
	switch ch.kind {
	case CheatVehicleGuns:
		m.forgeGuns(now, p, send)
	case CheatSeatSteal:
		m.stealSeat(now, p)
	}
}

// forgeGuns fires what no honest client could: a Sniper round from an unarmed car, the
// driver's gun from a passenger's seat, an armed vehicle's gun from on foot, rays beyond
// the gun's range, and copies of the gun's rays far beyond its cadence.
func (m *Match) forgeGuns(now time.Duration, p *player, send func([]byte)) {
	ch, vc := p.cheat, p.cheat.veh
	c := p.c
	if m.quiet || !c.Alive() || now < vc.next {
		return
	}
	vc.next = now + VehicleGunsEvery
	cat := m.vehicles()
	veh, seat := c.Vehicle()
	forge := func(vehicle uint16, weapon uint8, origin, end wire.Vec3, forbidden bool) {
		vc.seq = max(vc.seq, c.Revisions().ShotSeq) + 1
		s := wire.VehicleShot{ShotSeq: vc.seq, DeathEpoch: c.DeathEpoch(), PropertiesRev: c.Revisions().Properties,
			Vehicle: vehicle, Weapon: weapon, HitType: wire.HitNone, Origin: origin, HitPos: end}
		if forbidden {
			vc.forbidden[vc.seq] = forgedGunShot{vehicle: vehicle, weapon: weapon, origin: origin, end: end}
		}
		ch.report.ForgedShots++
		ch.rewrite(&s, send)
	}
	ahead := func(from wire.Vec3, d float32) wire.Vec3 {
		a := float64(p.rng.Float64() * 2 * math.Pi)
		return add(from, wire.Vec3{X: d * float32(math.Cos(a)), Y: d * float32(math.Sin(a))})
	}
	if veh != wire.NoVehicle {
		vc.lastIn, vc.lastInAt = veh, now
	}
	if veh == wire.NoVehicle {
		// On foot: the guns of an armed car, from the car's own muzzle: not the one it just
		// left (a shot fired from its seat may still arrive after the frame on foot), nor one
		// it could be getting into (the frame of its entry may overtake the shot).
		for _, cr := range m.world.cars {
			if cr.id == vc.lastIn && now-vc.lastInAt <= 2*refserver.VehicleShotGrace ||
				dist(c.Position(), cr.pose.Position) < SeatStealDistance {
				continue
			}
			if gun, _, ok := cat.SeatGun(cr.model, 0); ok && !cr.wrecked {
				muzzle := wire.Vec3(gun.Muzzle(inventory.Vec3(cr.pose.Position), inventory.Quat(cr.pose.Rotation)))
				forge(cr.id, gun.Weapon, muzzle, ahead(muzzle, gun.Range/2), true)
				return
			}
		}
		return
	}
	cr := m.world.car(veh)
	if cr == nil {
		return
	}
	pose, _, _ := c.VehicleState()
	if gun, _, ok := cat.SeatGun(cr.model, seat); ok {
		// The driver of an armed vehicle: copies beyond the cadence, and one ray beyond
		// the gun's range.
		muzzle := wire.Vec3(gun.Muzzle(inventory.Vec3(pose.Position), inventory.Quat(pose.Rotation)))
		for range VehicleGunsCopies {
			forge(veh, gun.Weapon, muzzle, ahead(muzzle, gun.Range/2), false)
		}
		forge(veh, gun.Weapon, muzzle, ahead(muzzle, gun.Range+ForgedRayLength/2), true)
		return
	}
	if gun, _, ok := cat.SeatGun(cr.model, 0); ok {
		// A passenger of an armed vehicle: the driver's gun.
		muzzle := wire.Vec3(gun.Muzzle(inventory.Vec3(pose.Position), inventory.Quat(pose.Rotation)))
		forge(veh, gun.Weapon, muzzle, ahead(muzzle, gun.Range/2), true)
		return
	}
	// An unarmed car: a Sniper round 900 m long, which it does not own.
	from := add(pose.Position, wire.Vec3{Z: 1})
	forge(veh, weaponSniper, from, ahead(from, ForgedRayLength), true)
}

// weaponSniper is the Sniper rifle, which no vehicle fires and no bot owns.
const weaponSniper uint8 = 34

// stealSeat runs a seat-steal cheater's attempts: its client gets into the driver's seat
// of a car an honest player drives, from where it stands far away (and again whenever the
// server's SetPlayerPosition takes it out); it drives the car's frames to where it stands;
// after SeatStealHold it reports the car exploded. The attempt ends when the server puts
// it on foot after that report, or after SeatStealRest.
func (m *Match) stealSeat(now time.Duration, p *player) {
	vc := p.cheat.veh
	c := p.c
	if vc.target != nil {
		v, _ := c.Vehicle()
		if !c.Alive() || m.quiet || now-vc.claimAt > SeatStealHold+SeatStealRest || (v == wire.NoVehicle && vc.exploded) {
			vc.target = nil // the attempt is over
			vc.next = now + SeatStealRest
			return
		}
		pose := client.VehiclePose{Position: c.Position(), Rotation: wire.Quat{W: 1}}
		if v == wire.NoVehicle {
			// The server put it back on foot: it claims the seat again.
			if err := c.EnterVehicle(now, vc.target.id, 0, pose, VehicleHealth); err != nil {
				return
			}
		}
		_ = c.MoveVehicle(now, pose) // the car's frames: to where the cheater stands
		if !vc.exploded && now-vc.claimAt >= SeatStealHold {
			vc.exploded = true
			_, _ = c.VehicleHit(now, wire.NoPlayer, weaponExplosion, 2*VehicleHealth)
		}
		return
	}
	if m.quiet || now < vc.next || !c.Alive() || !c.Spawned() {
		return
	}
	if v, _ := c.Vehicle(); v != wire.NoVehicle {
		return
	}
	for _, cr := range m.world.cars {
		if cr.wrecked || cr.driver < 0 || m.players[cr.driver].cheat != nil {
			continue
		}
		if dist(c.Position(), cr.pose.Position) < SeatStealDistance {
			continue
		}
		pose := client.VehiclePose{Position: c.Position(), Rotation: wire.Quat{W: 1}}
		if err := c.EnterVehicle(now, cr.id, 0, pose, VehicleHealth); err != nil {
			return
		}
		vc.target, vc.claimAt, vc.exploded, vc.granted = cr, now, false, false
		p.cheat.report.Forged++
		return
	}
	vc.next = now + SeatStealRest
}

// weaponExplosion is the game's cause "explosion".
const weaponExplosion uint8 = 51

// watchVehicles sees the server's relays of a vehicle cheater's actions.
func (m *Match) watchVehicles(now time.Duration, msg wire.Message) {
	switch msg := msg.(type) {
	case *wire.RemoteVehicleShot:
		p := m.player(msg.Shooter)
		if p == nil || p.cheat == nil || p.cheat.kind != CheatVehicleGuns {
			return
		}
		vc := p.cheat.veh
		if vc.relayed[msg.ShotSeq] {
			return
		}
		vc.relayed[msg.ShotSeq] = true
		vc.relayAt[msg.Vehicle] = append(vc.relayAt[msg.Vehicle], now)
		// The number alone does not say it: its client's own shots take numbers too (a
		// forged shot refused leaves its number to the next honest one).
		if f, ok := vc.forbidden[msg.ShotSeq]; ok && f == (forgedGunShot{vehicle: msg.Vehicle, weapon: msg.Weapon, origin: msg.Origin, end: msg.HitPos}) {
			p.cheat.report.Gained++ // a shot the catalogue forbids, accepted
		}
	case *wire.RemotePlayerSync:
		p := m.player(msg.Player)
		if p == nil || p.cheat == nil || p.cheat.kind != CheatSeatSteal {
			return
		}
		vc := p.cheat.veh
		if vc.target != nil && !vc.granted && msg.Vehicle == vc.target.id && msg.Seat == 0 {
			vc.granted = true
			p.cheat.report.Gained++ // the seat, granted from far away
		}
	case *wire.RemoteVehicleSync:
		p := m.player(msg.Driver)
		if p != nil && p.cheat != nil && p.cheat.kind == CheatSeatSteal {
			p.cheat.report.Gained++ // the pose of a car it stole
		}
	}
}

// onVehicleCheatEvent counts a vehicle cheater's gains among the server's events about it.
func (m *Match) onVehicleCheatEvent(p *player, e refserver.Event) {
	ch := p.cheat
	switch {
	case ch.kind == CheatSeatSteal && e.Kind == refserver.EventVehicleExploded:
		ch.report.Gained++ // the explosion of a car it stole, its occupants counted dead
	case ch.kind == CheatVehicleGuns && e.Kind == refserver.EventPlayerDamage && e.Weapon == weaponSniper:
		ch.report.Gained++ // damage credited from a Sniper round it never had
	case e.Kind == refserver.EventInputRefused, e.Kind == refserver.EventVehicleExplodeRefused:
		ch.report.Refused++
	}
}

// finishVehicleCheat adds the gains known only at the end: the vehicle guns' rays beyond
// each gun's cadence (with its burst allowance).
func (m *Match) finishVehicleCheat(p *player) {
	ch := p.cheat
	if ch.kind != CheatVehicleGuns {
		return
	}
	for id, at := range ch.veh.relayAt {
		cr := m.world.car(id)
		if cr == nil {
			continue
		}
		if gun, _, ok := m.vehicles().SeatGun(cr.model, 0); ok {
			ch.report.Gained += cadenceExcess(at, gun.MinInterval)
		}
	}
}
