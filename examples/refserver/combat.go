package refserver

import (
	"errors"
	"math"
	"time"

	"github.com/arbitergo/arbiter/internal/interest"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/rewind"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// shotRecord is an accepted shot remembered for its victims' reports (the shot credit).
type shotRecord struct {
	at     time.Duration
	serial uint64 // the World's serial at the relay: which lives it was relayed to
	life   uint64 // the shooter's lifeSerial: a grant resets it
	// damage is the raw per-pellet damage the floor is computed from (the shot's revision,
	// at tier; 0 when the weapon has none); tier is the shooter's floor tier.
	damage  float32
	seq     uint16
	rev     uint16 // the relation revision the shot was relayed with
	valid   bool
	weapon  uint8
	pellets uint8
	// source is the damage's source: a bullet, a vehicle gun's, a Predator's, or the
	// explosion of a Rhino cannon's shell (cannon).
	source  vitals.Source
	tier    inventory.Tier
	nv      uint8
	vehicle uint16 // the vehicle whose gun fired, NoVehicle for a hand-held weapon
	victims [MaxShotVictims]shotVictim
}

// cannon reports whether the shot is a Rhino cannon's: its hits are the explosion's,
// without a floor.
func (r *shotRecord) cannon() bool { return r.source == vitals.SourceExplosion }

type shotVictim struct {
	id   PlayerID
	used uint8
}

// projectileRecord is an accepted projectile of one owner.
type projectileRecord struct {
	valid     bool
	detonated bool
	seq       uint16
	weapon    uint8
	life      uint64
	at        time.Duration
	origin    wire.Vec3
	detAt     time.Duration
	detSerial uint64
	detPos    wire.Vec3
	// healed: its launch never arrived; the detonation healed it (origin is the
	// detonation's position).
	healed bool
	// rides are the vehicles a satchel may ride (see SatchelRideReach).
	nrides uint8
	rides  [MaxSatchelRides]uint16
}

// mayAct is the lifecycle's check that p may act in the life epoch names.
func (w *World) mayAct(p *player, epoch uint16) Verdict {
	if !w.life.MayAct(p.handle) {
		return VerdictNotAlive
	}
	snap, err := w.life.Snapshot(p.id)
	if err != nil || uint16(snap.Gen) != epoch {
		return VerdictWrongEpoch
	}
	return VerdictAccepted
}

func inventoryVerdict(v inventory.Verdict) Verdict {
	switch v {
	case inventory.Accepted:
		return VerdictAccepted
	case inventory.NotAlive:
		return VerdictNotAlive
	case inventory.UnknownWeapon:
		return VerdictUnknownWeapon
	case inventory.WrongKind:
		return VerdictWrongKind
	case inventory.NotOwned:
		return VerdictNotOwned
	case inventory.NoAmmo:
		return VerdictNoAmmo
	case inventory.BadGeometry:
		return VerdictBadGeometry
	case inventory.OutOfRange:
		return VerdictOutOfRange
	case inventory.TooFast:
		return VerdictTooFast
	case inventory.PropertiesTooOld:
		return VerdictPropertiesTooOld
	case inventory.PropertiesFuture:
		return VerdictPropertiesFuture
	}
	return VerdictInvalid
}

// ray turns a shot's two points into a rewind ray, or reports why it has none.
func ray(kind rewind.RayKind, origin, end wire.Vec3) (rewind.Ray, bool) {
	d := rewind.Vec3{X: end.X - origin.X, Y: end.Y - origin.Y, Z: end.Z - origin.Z}
	l := float32(math.Sqrt(float64(d.X)*float64(d.X) + float64(d.Y)*float64(d.Y) + float64(d.Z)*float64(d.Z)))
	if !(l > 0) || l > rewind.MaxRayLength {
		return rewind.Ray{}, false
	}
	return rewind.Ray{Kind: kind, Origin: rewind.Vec3(origin), Direction: d, Length: l}, true
}

func (w *World) refuseShot(now time.Duration, p *player, seq uint16, weapon uint8, veh uint16, v Verdict, detail string) Verdict {
	w.stats.ShotsRefused++
	w.raise(Event{Kind: EventShotRefused, At: now, Player: p.id, Other: NoPlayer, Vehicle: veh, Weapon: weapon, Seq: seq, Verdict: v, Detail: detail})
	return v
}

// onWeaponShot judges a WeaponShot (see "The cross-package rules": shots): the shooter may act in the life
// the shot names, the shot number is new, the ray has a length and starts where the
// shooter was (ownOrigin: its accepted path over OriginWindow, its seat's vehicle for a
// drive-by), the inventory accepts it (owned, ammo, range from that origin, rate; it
// spends the round), then the rewind lists the recipients
// near the ray. Each connection gets its own RemoteWeaponShot: with the shooter's stamp
// for it, and its rewound pose when the ray passed near it. The shot is remembered for the
// victims' reports, and a claimed hit on a player near the ray feeds that player's god-mode
// detector with the same rewound pose the player was sent.
func (w *World) onWeaponShot(now time.Duration, p *player, m *wire.WeaponShot) Verdict {
	// The shooter's state in every package is read below, each on lines of its own: ask
	// for them all now, so the reads overlap.
	w.touched ^= w.life.Touch(p.id) ^ p.inv.Touch() ^ w.rw.TouchPlayer(p.id) ^ p.shotFilter.bits
	if v := w.mayAct(p, m.DeathEpoch); v != VerdictAccepted {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, NoVehicle, v, "")
	}
	if v := p.shotFilter.check(m.ShotSeq); v != VerdictAccepted {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, NoVehicle, v, "")
	}
	r, ok := ray(rewind.WeaponRay, m.Origin, m.HitPos)
	if !ok {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, NoVehicle, VerdictBadRay, "")
	}
	od, otol, seated := w.ownOrigin(now, p, m.Origin)
	if !(od <= otol) {
		return w.refuseShotFar(now, p, m.ShotSeq, m.Weapon, od, otol)
	}
	o := &w.msgs.rws
	*o = wire.RemoteWeaponShot{Shooter: p.id, ShotSeq: m.ShotSeq, Weapon: m.Weapon, HitType: m.HitType, HitID: m.HitID,
		Origin: m.Origin, HitPos: m.HitPos}
	enc, err := o.Append(w.enc[:0])
	if err != nil {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, NoVehicle, VerdictBadGeometry, err.Error())
	}
	w.enc = enc[:0]
	res, err := w.rw.Shot(now, p.id, r, w.recips[:0])
	if err != nil {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, NoVehicle, VerdictBadGeometry, err.Error())
	}
	aud := w.audience(p)
	w.touchRecipients(res.Recipients, &aud)
	if m.HitType == wire.HitPlayer {
		if v := w.conn(PlayerID(m.HitID)); v != nil {
			w.touched ^= v.vit.TouchClaim()
		}
	}
	sr := p.inv.Shot(now, true, inventory.Shot{Weapon: m.Weapon, PropsRev: m.PropertiesRev, Origin: inventory.Vec3(m.Origin), End: inventory.Vec3(m.HitPos)})
	if sr.Verdict != inventory.Accepted {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, NoVehicle, inventoryVerdict(sr.Verdict), sr.Verdict.String())
	}
	p.shotFilter.mark(m.ShotSeq)
	if seated {
		p.shotSeated = max(p.shotSeated, float32(od))
	} else {
		p.shotOnFoot = max(p.shotOnFoot, float32(od))
	}
	var damage float32
	if sr.HasDamage {
		damage = sr.Damage
	}
	w.remember(now, p, m.ShotSeq, m.Weapon, sr.Credits, vitals.SourceBullet, damage, sr.Tier, NoVehicle)
	w.claimHit(now, p, NoVehicle, m.HitType, m.HitID, r, res.Recipients, &aud, vitals.PlayerDamageFactor*sr.Damage, sr.Damage)
	w.relayShot(p, NoVehicle, enc, res.Recipients, &aud)
	return VerdictAccepted
}

// relayShot relays an accepted shot: the shared encoding enc (stamped by wire.PatchStamp) to
// every other connection, and to each recipient near the ray a datagram of its own
// instead, with the shooter's stamp for it and its rewound pose. A vehicle's shot (veh not
// NoVehicle) goes only to those that have the vehicle shown ([stream-vehicles]). aud is
// p's audience (w.audience). Who gets its own copy is decided here, at the shot
// ([stream-shots]); the copy itself is kept in the fan log with its rewound pose
// (fanLog.addCopy) and written at Flush, stamped there (emitCopies), so the shot reads
// no recipient's outbox.
func (w *World) relayShot(p *player, veh uint16, enc []byte, near []rewind.Recipient, aud *interest.Audience) {
	rev := w.teams.Rev()
	logged := w.logRelay(enc, p, w.relaySubject(p), rev)
	if logged && veh != NoVehicle {
		w.vsSkipVehicle(p, veh)
	}
	// A recipient's player is not read (only the World's bit of its slot and its stream
	// state), unless its copy is over MaxShotCopies.
	for i := range near {
		r := &near[i]
		q := r.Player
		if !w.connected(q) || !w.seesShooter(aud, q) || veh != NoVehicle && !w.vsSees(q, veh) {
			continue
		}
		if _, full := w.fan.addCopy(enc, q, p.id, rev, rewindOf(r)); full {
			w.players[q].caps.OutboxDropped++
			w.stats.OutboxDropped++
		}
		if logged {
			w.fan.skipLast(q)
		}
	}
	w.stats.Shots++
}

// touchRecipients asks for the lines of the recipients near a shot's ray that relayShot
// reads (their stream state; not their players: relayShot reads none), all at once: their
// reads then overlap, and with the shooter's work in between, instead of waiting for one
// another. (claimHit's victim is touched by onWeaponShot.)
func (w *World) touchRecipients(near []rewind.Recipient, aud *interest.Audience) {
	for i := range near {
		if q := near[i].Player; w.connected(q) {
			w.touched ^= aud.Touch(q)
		}
	}
}

// audience is who sees p while streaming (the zero Audience without: seesShooter does
// not ask it then), for the many recipients of one shot of p.
func (w *World) audience(p *player) interest.Audience {
	if w.stream == nil {
		return interest.Audience{}
	}
	return w.stream.Audience(p.id)
}

// seesShooter is q.sees(shooter) for a relay of the shooter whose audience is aud: true
// without streaming (everyone is sent the relays), else whether q sees the shooter.
func (w *World) seesShooter(aud *interest.Audience, q PlayerID) bool {
	return w.stream == nil || aud.Sees(q)
}

// rewindOf is the pose a recipient is sent: its rewound position, and its vehicle's pose
// when it is rewound with it.
func rewindOf(r *rewind.Recipient) wire.Rewind {
	out := wire.Rewind{Valid: true, Position: wire.Vec3(r.Position)}
	if r.Verdict == rewind.RewoundInVehicle && r.Vehicle != rewind.NoVehicle {
		out.InVehicle = true
		out.Vehicle = uint16(r.Vehicle)
		out.VehiclePosition = wire.Vec3(r.VehiclePose.Position)
		out.VehicleRotation = wire.Quat(r.VehiclePose.Rotation)
	}
	return out
}

// remember keeps an accepted shot for its victims' reports, in the shooter's ring; veh is
// the vehicle whose gun fired it (NoVehicle for a hand-held weapon).
func (w *World) remember(now time.Duration, p *player, seq uint16, weapon uint8, pellets int, src vitals.Source, damage float32, tier inventory.Tier, veh uint16) {
	rec := p.shots.slot(seq, now, w.rules.ShotCredit.Window, p.lifeSerial)
	*rec = shotRecord{
		valid:   true,
		vehicle: veh,
		seq:     seq,
		weapon:  weapon,
		pellets: uint8(min(pellets, 255)),
		source:  src,
		rev:     w.teams.Rev(),
		damage:  damage,
		tier:    tier,
		at:      now,
		serial:  w.nextSerial(),
		life:    p.lifeSerial,
	}
}

// claimHit feeds the god-mode detector of the player a shot claims to hit, if the ray
// passed near it: judged against the rewound pose it was sent; expected is the loss the
// hit would cause that player. A claim never feeds a detector when the victim was told not
// to apply it: a shot stamped "teammate" for the victim (friendly fire off) is refused by
// its client, which rightly feels nothing. A claimed hit on a vehicle is remembered as the
// vehicle's last hit (its explosion's credit), and feeds the vehicle_god_mode detector of
// its driver (vexpected is the loss it would cause the vehicle; see claimVehicleHit). veh
// is the vehicle whose gun fired, NoVehicle for a player's weapon: a victim that was not
// sent the shot ([stream-shots], [stream-vehicle-relays]) is not judged by it. aud is p's
// audience (w.audience).
func (w *World) claimHit(now time.Duration, p *player, veh uint16, ht wire.HitType, hid uint16, r rewind.Ray, near []rewind.Recipient, aud *interest.Audience, expected, vexpected float32) {
	switch ht {
	case wire.HitPlayer:
		victim := w.conn(PlayerID(hid)) // a HitPlayer HitID names a player
		if victim == nil || victim == p {
			return
		}
		if !w.seesShooter(aud, victim.id) || veh != NoVehicle && !w.vsSees(victim.id, veh) {
			return // relayShot sends it no copy: its client never saw the shot ([stream-vehicle-relays])
		}
		// The stamp relayShot sends the victim for this very shot (the same relation, in
		// the same call): a teammate's shot is refused by the victim's client.
		teammate := w.teams.Stamp(p.id, victim.id).Teammate
		for i := range near {
			if near[i].Player == PlayerID(hid) {
				if !w.rules.ClaimReach.Feeds(near[i].Distance, false, teammate) {
					return // its trace could not confirm it: not a claim to judge it by
				}
				if s, err := victim.vit.HitClaimed(now, min(max(expected, 0), vitals.MaxClaimedLoss)); err == nil && s.Raised {
					w.raiseSuspicion(now, victim, s)
				}
				return
			}
		}
	case wire.HitVehicle:
		if v := w.vehicle(hid); v != nil && !v.wrecked {
			v.hitBy, v.hitAt, v.hitLife = p.id, now, p.lifeSerial
			w.claimVehicleHit(now, p, veh, hid, r, near, aud, vexpected)
		}
	}
}

// claimVehicleHit feeds the vehicle_god_mode detector (vitals' [vehicle-god-mode-detector]) of the driver of vehicle
// hid, which a shot of p claims to hit: judged against the vehicle's pose the driver was
// sent as the shot's recipient (rewound with the vehicle, or its present pose when the
// vehicle is frozen), and counted only when the ray passed within VehicleClaimReach of
// that pose. A vehicle whose driver was not near the ray, an empty one, and
// the shooter's own are not judged: nobody's frames show their health for this shot. The
// shooter's stamp does not matter here: damage to a vehicle is not damage to a player, and
// a teammate's shot damages the car on its driver's client like anyone's.
func (w *World) claimVehicleHit(now time.Duration, p *player, veh, hid uint16, r rewind.Ray, near []rewind.Recipient, aud *interest.Audience, expected float32) {
	for i := range near {
		rc := &near[i]
		if uint16(rc.Vehicle) != hid {
			continue
		}
		if rc.Verdict != rewind.RewoundInVehicle && rc.Verdict != rewind.InFrozenVehicle {
			return // the shooter's own vehicle, or a wreck
		}
		d := w.conn(rc.Player)
		if d == nil || d == p || !d.frame.have || d.frame.vehicle != hid || d.frame.seat != 0 {
			continue // a passenger: its frames do not carry the vehicle's health
		}
		if !w.seesShooter(aud, d.id) || veh != NoVehicle && !w.vsSees(d.id, veh) {
			return // the driver was sent no copy of the shot ([stream-vehicle-relays])
		}
		if !w.rules.ClaimReach.Feeds(rayDistance(r, rc.VehiclePose.Position), true, false) {
			return
		}
		if s, err := w.vehicleDetector(d).HitClaimed(now, min(max(expected, 0), vitals.MaxVehicleClaimedLoss)); err == nil && s.Raised {
			w.raiseVehicleSuspicion(now, d, s)
		}
		return
	}
}

// rayDistance is the distance from point q to ray r's segment (+Inf for a ray without a
// direction).
func rayDistance(r rewind.Ray, q rewind.Vec3) float32 {
	dx, dy, dz := float64(r.Direction.X), float64(r.Direction.Y), float64(r.Direction.Z)
	n := math.Sqrt(dx*dx + dy*dy + dz*dz)
	if !(n > 0) {
		return float32(math.Inf(1))
	}
	dx, dy, dz = dx/n, dy/n, dz/n
	px, py, pz := float64(q.X)-float64(r.Origin.X), float64(q.Y)-float64(r.Origin.Y), float64(q.Z)-float64(r.Origin.Z)
	t := min(max(px*dx+py*dy+pz*dz, 0), float64(r.Length))
	ex, ey, ez := px-t*dx, py-t*dy, pz-t*dz
	return float32(math.Sqrt(ex*ex + ey*ey + ez*ez))
}

// onVehicleShot judges a VehicleShot by the vehicle catalogue: the shooter may act, the
// vehicle exists and is not wrecked, the weapon is one of its model's guns, the shooter
// holds a seat that fires that gun (or held it within VehicleShotGrace: a shot fired just
// before getting out may be overtaken by the frame on foot), the shot number is new, the
// ray no longer than the gun's range and starting at the gun's mount on the vehicle's
// accepted pose (gunOrigin), a kept properties revision for a gun of the weapon table, and
// the gun's own rate (per vehicle and gun: the model's interval with its burst). A vehicle
// gun's ray rewinds its recipients like a hand-held weapon's; the Rhino cannon's does not
// (it only sets the point of an explosion).
func (w *World) onVehicleShot(now time.Duration, p *player, m *wire.VehicleShot) Verdict {
	if v := w.mayAct(p, m.DeathEpoch); v != VerdictAccepted {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, v, "")
	}
	veh := w.vehicle(m.Vehicle)
	if veh == nil {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictUnknownVehicle, "")
	}
	if veh.wrecked {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictWrecked, "")
	}
	gun, gi, ok := w.models.Gun(veh.model, m.Weapon)
	if !ok {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictNotAGun, "")
	}
	// The seat: held now, or within the grace (the shot may be overtaken by the frame
	// that shows the shooter out of it).
	fired := false
	for s := uint8(0); s < inventory.MaxVehicleSeats && !fired; s++ {
		fired = gun.Seats.Has(s) && w.satWithin(p, m.Vehicle, s, VehicleShotGrace)
	}
	if !fired {
		if p.seat.held && p.seat.vehicle == m.Vehicle {
			return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictWrongSeat, "")
		}
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictNotInVehicle, "")
	}
	if v := p.shotFilter.check(m.ShotSeq); v != VerdictAccepted {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, v, "")
	}
	cannon := gun.Kind == inventory.GunCannon
	kind := rewind.VehicleGunRay
	if cannon {
		kind = rewind.CannonRay
	}
	r, ok := ray(kind, m.Origin, m.HitPos)
	if !ok {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictBadRay, "")
	}
	if r.Length > gun.Range {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictOutOfRange, "")
	}
	off, ok := gunOrigin(veh, &gun, m.Origin)
	if !ok {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictOffMount, "")
	}
	// The guns' own vehicle is the shooter's, even when its frame on foot came first.
	r.FromVehicle, r.Vehicle = true, rewind.VehicleID(m.Vehicle)
	o := &w.msgs.rvsh
	*o = wire.RemoteVehicleShot{Shooter: p.id, Vehicle: m.Vehicle, ShotSeq: m.ShotSeq, Weapon: m.Weapon, HitType: m.HitType,
		HitID: m.HitID, Origin: m.Origin, HitPos: m.HitPos}
	enc, err := o.Append(w.enc[:0])
	if err != nil {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictBadGeometry, err.Error())
	}
	w.enc = enc[:0]
	// A gun of the weapon table fires under a kept properties revision, at the standard
	// tier; a fixed-damage gun and the cannon name no revision's damage.
	var damage float32
	if gun.Kind == inventory.GunBullets {
		d, err := w.catalog.Damage(m.PropertiesRev, m.Weapon, inventory.TierStd)
		switch {
		case errors.Is(err, inventory.ErrPropertiesTooOld):
			return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictPropertiesTooOld, "")
		case errors.Is(err, inventory.ErrPropertiesFuture):
			return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictPropertiesFuture, "")
		case err != nil && !errors.Is(err, inventory.ErrNoDamage):
			return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictUnknownWeapon, "")
		}
		damage = d
	}
	// The gun's rate: a leaky bucket of its interval with its burst, per vehicle and gun.
	burst := gun.Burst
	if burst == 0 {
		burst = inventory.DefaultVehicleGunBurst
	}
	tat := max(veh.gunTAT[gi], now)
	if tat-now > burst {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictTooFast, "")
	}
	res, err := w.rw.Shot(now, p.id, r, w.recips[:0])
	if err != nil {
		return w.refuseShot(now, p, m.ShotSeq, m.Weapon, m.Vehicle, VerdictBadGeometry, err.Error())
	}
	veh.gunTAT[gi] = tat + gun.MinInterval
	p.shotFilter.mark(m.ShotSeq)
	if off > w.stats.VehicleGunOriginMax {
		w.stats.VehicleGunOriginMax = off
	}

	src := vitals.SourceVehicleGun
	expected, vexpected := vitals.PlayerDamageFactor*damage, damage
	switch gun.Kind {
	case inventory.GunFixed:
		// vitals floors it at its Predator figure, with the Predator multiplier.
		src, damage = vitals.SourcePredatorGun, 0
		expected, vexpected = vitals.PlayerDamageFactor*gun.Damage, gun.Damage
	case inventory.GunCannon:
		src, damage, expected = vitals.SourceExplosion, 0, 0
	}
	w.remember(now, p, m.ShotSeq, m.Weapon, 1, src, damage, inventory.TierStd, m.Vehicle)
	aud := w.audience(p)
	if !cannon {
		w.claimHit(now, p, m.Vehicle, m.HitType, m.HitID, r, res.Recipients, &aud, expected, vexpected)
	}
	w.relayShot(p, m.Vehicle, enc, res.Recipients, &aud)
	return VerdictAccepted
}

func (w *World) refuseProjectile(now time.Duration, p *player, seq uint16, weapon uint8, v Verdict, detail string) Verdict {
	w.raise(Event{Kind: EventProjectileRefused, At: now, Player: p.id, Other: NoPlayer, Vehicle: NoVehicle, Weapon: weapon, Seq: seq, Verdict: v, Detail: detail})
	return v
}

// onProjectile judges a ProjectileLaunch: the owner may act, the number is new; thrown on
// foot it starts where the owner was (ownOrigin) and the inventory accepts it (a
// projectile weapon with rounds; it spends one); launched from a vehicle, the owner sits
// in it, it is one of the vehicle's own rockets (a Hunter's or a Hydra's: anything else a
// player would throw from its store, and the game throws nothing from a seat) and it
// starts at the vehicle (vehicleOrigin). It is relayed with the owner's stamp per
// recipient and remembered for its detonation, a satchel with the vehicles it may ride.
func (w *World) onProjectile(now time.Duration, p *player, m *wire.ProjectileLaunch) Verdict {
	if v := w.mayAct(p, m.DeathEpoch); v != VerdictAccepted {
		return w.refuseProjectile(now, p, m.Projectile, m.Weapon, v, "")
	}
	if v := p.projFilter.check(m.Projectile); v != VerdictAccepted {
		return w.refuseProjectile(now, p, m.Projectile, m.Weapon, v, "")
	}
	if m.Target != NoVehicle && w.vehicle(m.Target) == nil {
		return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictUnknownVehicle, "")
	}
	if !w.takeProjectile(now, p) {
		return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictRateLimited, "")
	}
	if m.Vehicle == NoVehicle {
		d, tol, _ := w.ownOrigin(now, p, m.Origin)
		if !(d <= tol) {
			return w.refuseProjectileFar(now, p, m.Projectile, m.Weapon, VerdictFarOrigin, "launch", d, tol)
		}
		r := p.inv.Projectile(now, true, m.Weapon)
		if r.Verdict != inventory.Accepted {
			return w.refuseProjectile(now, p, m.Projectile, m.Weapon, inventoryVerdict(r.Verdict), r.Verdict.String())
		}
		p.reach.Launch = max(p.reach.Launch, float32(d))
	} else {
		veh := w.vehicle(m.Vehicle)
		switch {
		case veh == nil:
			return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictUnknownVehicle, "")
		case veh.wrecked:
			return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictWrecked, "")
		case !p.frame.have || p.frame.vehicle != m.Vehicle:
			return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictNotInVehicle, "")
		case !w.models.LaunchesRocket(veh.model, m.Weapon):
			return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictWrongKind, "not a rocket of this vehicle")
		}
		d, tol := w.vehicleOrigin(now, m.Vehicle, m.Origin)
		if !(d <= tol) {
			return w.refuseProjectileFar(now, p, m.Projectile, m.Weapon, VerdictFarOrigin, "launch from the vehicle", d, tol)
		}
		p.reach.VehicleLaunch = max(p.reach.VehicleLaunch, float32(d))
	}
	p.projFilter.mark(m.Projectile)
	rec := p.newProjectile(m.Projectile)
	*rec = projectileRecord{valid: true, seq: m.Projectile, weapon: m.Weapon, life: p.lifeSerial, at: now, origin: m.Origin}
	if w.catalog.Sticks(m.Weapon) && m.Vehicle == NoVehicle {
		w.noteRides(rec, m.Origin)
	}
	o := &w.msgs.rproj
	*o = wire.RemoteProjectile{Owner: p.id, Projectile: m.Projectile, Weapon: m.Weapon, Vehicle: m.Vehicle, Target: m.Target,
		Origin: m.Origin, Velocity: m.Velocity}
	w.sendToOthers(p, o, &o.Stamp)
	return VerdictAccepted
}

// onDetonation takes the owner's report that its projectile exploded: a projectile of the
// owner's current life, accepted within ProjectileLifetime, not detonated yet, of the same
// weapon, where that weapon carries a projectile from its launch in the time since
// (travelBound: a throw's reach, a rocket's speed; a satchel also on a vehicle it may
// ride). (A dead owner's grenade still explodes: the life check is the grant's, not
// MayAct.) A detonation whose launch never arrived (it was lost: both are unreliable
// datagrams) heals it, once: it must lie within its weapon's longest reach of the
// owner's accepted path (lostLaunchReach), and the launch is judged by the inventory now,
// with the round it costs (ours). It is relayed to everyone else, with the owner's stamp,
// and remembered for the victims' reports.
func (w *World) onDetonation(now time.Duration, p *player, m *wire.Detonation) Verdict {
	snap, err := w.life.Snapshot(p.id)
	if err != nil || uint16(snap.Gen) != m.DeathEpoch {
		return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictWrongEpoch, "")
	}
	rec := p.projectile(m.Projectile)
	if !rec.valid || rec.seq != m.Projectile || rec.life != p.lifeSerial {
		if v := p.projFilter.check(m.Projectile); v != VerdictAccepted {
			return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictUnknownProjectile, v.String())
		}
		if snap.Phase == lifecycle.PhaseUnspawned || snap.Phase == lifecycle.PhaseRespawning {
			return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictNotAlive, "")
		}
		// The launch is unknown: the detonation lies within what its weapon carries from
		// the owner's accepted path.
		tol := w.lostLaunchReach(now, p, m.Weapon)
		a, err := w.rw.PlayerApproach(now-LostLaunchLookback, p.id, rewind.Vec3(m.Position))
		if err != nil {
			a.Distance = math.Inf(1)
		}
		if !(a.Distance <= tol) {
			return w.refuseProjectileFar(now, p, m.Projectile, m.Weapon, VerdictFarOrigin, "launch lost: detonation", a.Distance, tol)
		}
		if !w.takeProjectile(now, p) {
			return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictRateLimited, "launch lost")
		}
		// A rocket of the Hunter or Hydra its frames put it in comes from no store.
		v := w.vehicle(p.frame.vehicle)
		fromSeat := v != nil && p.frame.have && !v.wrecked && w.models.LaunchesRocket(v.model, m.Weapon)
		if !fromSeat {
			if r := p.inv.Projectile(now, true, m.Weapon); r.Verdict != inventory.Accepted {
				return w.refuseProjectile(now, p, m.Projectile, m.Weapon, inventoryVerdict(r.Verdict), "launch lost: "+r.Verdict.String())
			}
		}
		p.projFilter.mark(m.Projectile)
		rec = p.newProjectile(m.Projectile)
		*rec = projectileRecord{valid: true, seq: m.Projectile, weapon: m.Weapon, life: p.lifeSerial, at: now, origin: m.Position, healed: true}
		p.reach.LostLaunch = max(p.reach.LostLaunch, float32(a.Distance))
	}
	switch {
	case now-rec.at > ProjectileLifetime:
		return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictUnknownProjectile, "expired")
	case rec.detonated:
		return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictAlreadyDetonated, "")
	case rec.weapon != m.Weapon:
		return w.refuseProjectile(now, p, m.Projectile, m.Weapon, VerdictWrongWeapon, "")
	}
	if d, bound := float64(dist(rec.origin, m.Position)), w.travelBound(rec.weapon, now-rec.at); !(d <= bound) {
		if !w.catalog.Sticks(rec.weapon) || !w.rode(now, rec, m.Position) {
			return w.refuseProjectileFar(now, p, m.Projectile, m.Weapon, VerdictFarDetonation, "detonation", d, bound)
		}
	} else if !rec.healed {
		if w.catalog.Flies(rec.weapon) {
			p.reach.Rocket = max(p.reach.Rocket, float32(d))
		} else {
			p.reach.Thrown = max(p.reach.Thrown, float32(d))
		}
	}
	rec.detonated, rec.detAt, rec.detSerial, rec.detPos = true, now, w.nextSerial(), m.Position
	o := &w.msgs.rdet
	*o = wire.RemoteDetonation{Owner: p.id, Projectile: m.Projectile, Weapon: m.Weapon, Position: m.Position}
	w.sendToOthers(p, o, &o.Stamp)
	w.sendNearBlast(p, o, &o.Stamp, m.Position)
	return VerdictAccepted
}

// sendNearBlast sends p's detonation m unreliably, with stamp set for each, to every
// connection within the stream reach of the blast at pos (the interest grid's Within)
// that does not see p (those that do got it from sendToOthers): a satchel detonated from
// afar is seen and felt by those standing by it ([stream-detonations]).
func (w *World) sendNearBlast(p *player, m wire.Message, stamp *wire.Stamp, pos wire.Vec3) {
	if w.stream == nil {
		return // everyone sees everyone: sendToOthers sent it to all
	}
	w.ids = w.stream.Within(w.ids[:0], pos.X, pos.Y, w.vs.reach(BlastRadius))
	for _, id := range w.ids {
		q := w.conn(id)
		if q == nil || q == p || q.sees(p.id) {
			continue
		}
		*stamp = wire.Stamp(w.teams.Stamp(p.id, id))
		w.relayTo(q, m)
	}
}

// sendToOthers sends m unreliably to every connection but p's, with stamp (m's own
// field) set to p's teammate relation to each recipient.
func (w *World) sendToOthers(p *player, m wire.Message, stamp *wire.Stamp) {
	if w.stream != nil {
		w.viewers = w.viewersOf(w.viewers[:0], p)
		for _, id := range w.viewers {
			*stamp = wire.Stamp(w.teams.Stamp(p.id, id))
			w.relayTo(w.players[id], m)
		}
		return
	}
	for _, id := range w.conns {
		if id == p.id {
			continue
		}
		*stamp = wire.Stamp(w.teams.Stamp(p.id, id))
		w.relayTo(w.players[id], m)
	}
}

func dist(a, b wire.Vec3) float32 {
	dx, dy, dz := float64(a.X-b.X), float64(a.Y-b.Y), float64(a.Z-b.Z)
	return float32(math.Sqrt(dx*dx + dy*dy + dz*dz))
}
