package client

import (
	"fmt"
	"math"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// MaxFuse is the longest fuse Throw accepts.
const MaxFuse = 30 * time.Second

// The actions of the player. An honest client does only what its game lets it do: a gun
// it owns, with a round in the clip, no faster than the weapon's minimum interval, within
// its range (inventory's [shot-sanity-check]: the server's shot validation is a sanity check the
// honest client never trips). Each action returns an Action whose verdict says why it did
// not happen; only Acted changes anything.

// canAct is the precondition of every action.
func (c *Client) canAct(now time.Duration) ActVerdict {
	switch {
	case !c.spawned:
		return NotSpawned
	case !c.alive:
		return Dead
	case c.stealthing:
		return Animating
	case now < c.settleUntil:
		return Settling
	}
	return Acted
}

// refuse counts an action the honest client did not do.
func (c *Client) refuse(v ActVerdict) (Action, error) {
	c.counters.Refusals++
	return Action{Verdict: v}, nil
}

func checkVec(name string, v wire.Vec3, limit float32) error {
	for _, f := range [3]float32{v.X, v.Y, v.Z} {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return fmt.Errorf("%w: %s %v", ErrNotFinite, name, v)
		}
		if f > limit || f < -limit {
			return fmt.Errorf("%w: %s %v beyond %v", ErrOutOfRange, name, v, limit)
		}
	}
	return nil
}

func checkRay(hitType wire.HitType, hitID uint16, origin, hitPos wire.Vec3) error {
	if err := checkVec("origin", origin, wire.MaxCoord); err != nil {
		return err
	}
	if err := checkVec("hit position", hitPos, wire.MaxCoord); err != nil {
		return err
	}
	if hitType > wire.HitPlayerObject {
		return fmt.Errorf("%w: hit type %d", ErrOutOfRange, hitType)
	}
	if hitType == wire.HitNone && hitID != 0 {
		return fmt.Errorf("%w: hit id %d of a ray that hit nothing", ErrOutOfRange, hitID)
	}
	return nil
}

// cadence reports whether weapon's minimum interval has passed since its last use.
func (c *Client) cadence(now time.Duration, weapon uint8) bool {
	gap := c.table[weapon].MinInterval
	return !c.used[weapon] || gap <= 0 || now-c.lastUse[weapon] >= gap
}

// ready says whether weapon, which must be of kind, can fire now: it is of that kind, the
// store holds it with a round in the total and in the clip (an empty clip reloads), and
// its cadence allows a shot. It returns the weapon's slot when it can (Acted).
func (c *Client) ready(now time.Duration, weapon uint8, kind inventory.Kind) (*inventory.Slot, ActVerdict) {
	if int(weapon) >= inventory.NumWeapons || c.table[weapon].Kind != kind {
		return nil, WrongKind
	}
	s := c.store.slotOf(&c.table, weapon)
	switch {
	case s == nil:
		return nil, NotOwned
	case s.Total == 0:
		return nil, NoAmmo
	case s.Clip == 0:
		return nil, Reloading
	case !c.cadence(now, weapon):
		return nil, TooFast
	}
	return s, Acted
}

func (c *Client) use(now time.Duration, weapon uint8) {
	c.used[weapon], c.lastUse[weapon] = true, now
}

// Fire pulls the trigger of weapon, a gun of the catalogue (a shotgun's pellets are one
// pull), at a ray from origin to hitPos; hitType and hitID are what the game says the ray
// hit (the server relays the claim; the victim decides). The honest client fires only a
// gun it owns, with a round in the clip (an empty clip reloads for Config.ReloadTime), no
// faster than the weapon's MinInterval in its table, and within the weapon's Range. The
// weapon becomes the held one, one round leaves the clip and the total, and a WeaponShot
// naming the last WeaponProperties revision goes out at the next Flush. Bad geometry is an
// error; an honest refusal is a verdict.
func (c *Client) Fire(now time.Duration, weapon uint8, hitType wire.HitType, hitID uint16, origin, hitPos wire.Vec3) (Action, error) {
	if err := c.input(now); err != nil {
		return Action{}, err
	}
	if err := checkRay(hitType, hitID, origin, hitPos); err != nil {
		return Action{}, err
	}
	if v := c.canAct(now); v != Acted {
		return c.refuse(v)
	}
	s, v := c.ready(now, weapon, inventory.KindBullet)
	if v == Acted && distance(origin, hitPos) > c.table[weapon].Range {
		v = OutOfRange
	}
	if v != Acted {
		return c.refuse(v)
	}
	if c.store.active != c.table[weapon].Slot {
		c.store.active = c.table[weapon].Slot
		c.reloading = false
	}
	s.Clip--
	s.Total--
	c.use(now, weapon)
	c.shotSeq = revision.Next(c.shotSeq)
	m := &c.shotMsg
	*m = wire.WeaponShot{ShotSeq: c.shotSeq, DeathEpoch: c.epoch, PropertiesRev: c.propsRev, Weapon: weapon,
		HitType: hitType, HitID: hitID, Origin: origin, HitPos: hitPos}
	c.sendError(c.epSend(m))
	c.shot()
	return Action{Verdict: Acted, Seq: c.shotSeq}, nil
}

func (c *Client) shot() {
	c.counters.Shots++
	if l := c.life(); l != nil {
		l.Shots++
	}
}

// VehicleFire fires the gun of the vehicle the client sits in that its seat fires (the
// vehicle catalogue's first gun of the model World.VehicleModel names for the seat): its
// weapon id, no faster than its MinInterval, within its Range, from its mount (origin
// within MountReach of the muzzle on the vehicle's pose), and not before
// Config.SpawnSettle after sitting down (the server takes the guns only from a seat its
// frames showed it entering). A VehicleShot shares the shot numbers of WeaponShot. Guns
// need no ammo.
func (c *Client) VehicleFire(now time.Duration, hitType wire.HitType, hitID uint16, origin, hitPos wire.Vec3) (Action, error) {
	if err := c.input(now); err != nil {
		return Action{}, err
	}
	if err := checkRay(hitType, hitID, origin, hitPos); err != nil {
		return Action{}, err
	}
	if v := c.canAct(now); v != Acted {
		return c.refuse(v)
	}
	if !c.veh.in {
		return c.refuse(NoGun)
	}
	model, known := c.world.VehicleModel(c.veh.vehicle)
	gun, _, armed := c.vehicles.SeatGun(model, c.veh.seat)
	if !known || !armed {
		return c.refuse(NoGun)
	}
	if c.veh.wrecked {
		return c.refuse(Wrecked)
	}
	if now < c.veh.since+c.cfg.SpawnSettle {
		// The server takes a vehicle's guns only from a driver its frames show in the
		// seat; the first frames from the seat are still on their way.
		return c.refuse(Settling)
	}
	muzzle := wire.Vec3(gun.Muzzle(inventory.Vec3(c.veh.pose.Position), inventory.Quat(c.veh.pose.Rotation)))
	switch {
	case c.gunUsed && now-c.lastGun < gun.MinInterval:
		return c.refuse(TooFast)
	case distance(origin, hitPos) > gun.Range, distance(origin, muzzle) > gun.MountReach:
		return c.refuse(OutOfRange)
	}
	c.gunUsed, c.lastGun = true, now
	c.shotSeq = revision.Next(c.shotSeq)
	m := &c.vshotMsg
	*m = wire.VehicleShot{ShotSeq: c.shotSeq, DeathEpoch: c.epoch, PropertiesRev: c.propsRev, Vehicle: c.veh.vehicle,
		Weapon: gun.Weapon, HitType: hitType, HitID: hitID, Origin: origin, HitPos: hitPos}
	c.sendError(c.epSend(m))
	c.shot()
	return Action{Verdict: Acted, Seq: c.shotSeq}, nil
}

// fuse is an own projectile on its way to its detonation.
type fuse struct {
	armed      bool
	projectile uint16
	weapon     uint8
	epoch      uint16 // the life that threw it
	at         wire.Vec3
	due        time.Duration
}

// Throw throws (or launches, on foot) a projectile of weapon (a grenade, tear gas, a
// molotov, a satchel, a rocket): one round of it is spent, ProjectileLaunch goes out now,
// and after fuse the client reports the Detonation at at (the point the world's physics
// decided) and takes the blast on itself if it stands inside it (its own game computes
// its own explosion; the relay of its own detonation is ignored). A thrower that dies
// before the fuse still reports the detonation (a dead owner's grenade explodes); a
// revival drops whatever the previous life left in the air.
func (c *Client) Throw(now time.Duration, weapon uint8, origin, velocity, at wire.Vec3, fuseTime time.Duration) (Action, error) {
	if err := c.input(now); err != nil {
		return Action{}, err
	}
	if err := checkVec("origin", origin, wire.MaxCoord); err != nil {
		return Action{}, err
	}
	if err := checkVec("velocity", velocity, wire.MaxProjectileSpeed); err != nil {
		return Action{}, err
	}
	if err := checkVec("detonation point", at, wire.MaxCoord); err != nil {
		return Action{}, err
	}
	if fuseTime < 0 || fuseTime > MaxFuse {
		return Action{}, fmt.Errorf("%w: fuse %v not in 0..%v", ErrOutOfRange, fuseTime, MaxFuse)
	}
	if v := c.canAct(now); v != Acted {
		return c.refuse(v)
	}
	if c.veh.in {
		return c.refuse(OnFoot)
	}
	s, v := c.ready(now, weapon, inventory.KindProjectile)
	if v != Acted {
		return c.refuse(v)
	}
	slot := -1
	for i := range c.fuses {
		if !c.fuses[i].armed {
			slot = i
			break
		}
	}
	if slot < 0 {
		return c.refuse(TooFast)
	}
	s.Clip--
	s.Total--
	c.use(now, weapon)
	c.projSeq = revision.Next(c.projSeq)
	c.armedFuses++
	c.fuses[slot] = fuse{armed: true, projectile: c.projSeq, weapon: weapon, epoch: c.epoch, at: at, due: now + fuseTime}
	_ = c.sendOrCount(&wire.ProjectileLaunch{Projectile: c.projSeq, DeathEpoch: c.epoch, Weapon: weapon,
		Vehicle: wire.NoVehicle, Target: wire.NoVehicle, Origin: origin, Velocity: velocity})
	c.counters.Projectiles++
	return Action{Verdict: Acted, Seq: c.projSeq}, nil
}

func (c *Client) sendOrCount(m wire.Message) error {
	err := c.epSend(m)
	c.sendError(err)
	return err
}

// tickFuses reports the detonations that came due, in the order of their fuses.
func (c *Client) tickFuses(now time.Duration) {
	for c.armedFuses > 0 {
		var f *fuse
		for i := range c.fuses {
			if g := &c.fuses[i]; g.armed && g.due <= now && (f == nil || g.due < f.due) {
				f = g
			}
		}
		if f == nil {
			return
		}
		d := *f
		f.armed = false
		c.armedFuses--
		if d.epoch != c.epoch {
			continue // thrown in a life that is over and replaced
		}
		_ = c.sendOrCount(&wire.Detonation{Projectile: d.projectile, DeathEpoch: d.epoch, Weapon: d.weapon, Position: d.at})
		c.counters.Detonations++
		if c.alive {
			b := DetonationBlast(d.weapon)
			c.blast(c.id, wire.Stamp{}, false, d.at, b.Peak, b.Radius, wire.Ref{Kind: wire.RefDetonation, Seq: d.projectile})
		}
	}
}

// Strike swings the held weapon (the fists, a melee weapon, or a gun as a club) at victim.
// Nothing goes on the wire: the victim's client reports the blow it takes (the simulator
// calls the victim's MeleeHit). The honest client keeps the weapon's MinInterval (a gun
// butt the fists') and strikes only a victim its copy shows alive within
// inventory.MeleeRange.
func (c *Client) Strike(now time.Duration, victim wire.PlayerID) (Action, error) {
	if err := c.input(now); err != nil {
		return Action{}, err
	}
	if v := c.canAct(now); v != Acted {
		return c.refuse(v)
	}
	r := c.remotes.get(victim)
	if r == nil || !r.Copy.Alive || victim == c.id {
		return c.refuse(NoVictim)
	}
	if distance(c.pos, r.Position) > inventory.MeleeRange {
		return c.refuse(OutOfRange)
	}
	w := c.store.held()
	gap := c.table[w].MinInterval
	if k := c.table[w].Kind; k != inventory.KindMelee && k != inventory.KindFist {
		gap = c.table[inventory.Fists].MinInterval
	}
	if c.blowUsed && now-c.lastBlow < gap {
		return c.refuse(TooFast)
	}
	c.blowUsed, c.lastBlow = true, now
	c.counters.Blows++
	return Action{Verdict: Acted}, nil
}

// StealthKill claims a stealth kill of victim with the held knife: on foot, the victim's
// copy alive within StealthReach, not a teammate by the newest stamp (the server would
// refuse it, teams' [teammate-never-credited]). The StealthKill goes on the lane naming the victim's life as the
// client's copy shows it; the server decides the rest, and the victim's client plays the
// animation and reports its own death.
func (c *Client) StealthKill(now time.Duration, victim wire.PlayerID) (Action, error) {
	if err := c.input(now); err != nil {
		return Action{}, err
	}
	if v := c.canAct(now); v != Acted {
		return c.refuse(v)
	}
	if c.veh.in {
		return c.refuse(OnFoot)
	}
	knife := c.store.held()
	if int(knife) >= inventory.NumWeapons || !c.table[knife].StealthKill {
		return c.refuse(WrongKind)
	}
	r := c.remotes.get(victim)
	if r == nil || !r.Copy.Alive || victim == c.id {
		return c.refuse(NoVictim)
	}
	if mate, _ := c.Teammate(victim); mate {
		return c.refuse(Teammate)
	}
	if distance(c.pos, r.Position) > StealthReach {
		return c.refuse(OutOfRange)
	}
	_, err := c.epQueue(now, &wire.StealthKill{Victim: victim, VictimEpoch: uint16(r.Copy.Gen), DeathEpoch: c.epoch, Weapon: knife})
	c.sendError(err)
	c.counters.StealthKills++
	return Action{Verdict: Acted}, nil
}

// HoldFire presses (hold) or releases the fire key of the held continuous weapon
// (flamethrower, spraycan, extinguisher). While it is held, frames show FireHeld and the
// weapon spends Config.SprayRate rounds a second from its clip and total (reloading when
// the clip runs dry); it stops by itself when the total is spent. The damage it does is
// the world's to deal (the victims' Sprayed).
func (c *Client) HoldFire(now time.Duration, hold bool) (Action, error) {
	if err := c.input(now); err != nil {
		return Action{}, err
	}
	if !hold {
		c.fireHeld = false
		return Action{Verdict: Acted}, nil
	}
	if v := c.canAct(now); v != Acted {
		return c.refuse(v)
	}
	w := c.store.held()
	if c.table[w].Kind != inventory.KindContinuous {
		return c.refuse(WrongKind)
	}
	if s := c.store.slotOf(&c.table, w); s == nil || s.Total == 0 {
		return c.refuse(NoAmmo)
	}
	if !c.fireHeld {
		c.fireHeld, c.sprayWeapon, c.sprayFrom = true, w, now
	}
	return Action{Verdict: Acted}, nil
}

// FireHeld reports whether the fire key of a continuous weapon is held.
func (c *Client) FireHeld() bool { return c.fireHeld }

// tickSpray spends the rounds of a held continuous weapon up to now.
func (c *Client) tickSpray(now time.Duration) {
	if !c.fireHeld {
		return
	}
	s := c.store.slotOf(&c.table, c.sprayWeapon)
	if !c.alive || s == nil || c.store.held() != c.sprayWeapon || s.Total == 0 {
		c.fireHeld = false
		return
	}
	if s.Clip == 0 {
		c.sprayFrom = now // reloading: nothing sprays
		return
	}
	period := time.Second / time.Duration(c.cfg.SprayRate)
	n := (now - c.sprayFrom) / period
	if n <= 0 {
		return
	}
	k := uint16(min(n, time.Duration(s.Clip)))
	s.Clip -= k
	s.Total -= k
	c.sprayFrom += time.Duration(k) * period
	if s.Total == 0 {
		c.fireHeld = false
	}
}

// stopSprayIfGone releases the fire key when a command took the sprayed weapon away.
func (c *Client) stopSprayIfGone() {
	if !c.fireHeld {
		return
	}
	if s := c.store.slotOf(&c.table, c.sprayWeapon); s == nil || s.Total == 0 || c.store.held() != c.sprayWeapon {
		c.fireHeld = false
	}
}

// Arm switches the held weapon to weapon (the fists: slot 0), which the store must hold.
// The frames show the switch; the server follows it within its store.
func (c *Client) Arm(now time.Duration, weapon uint8) (Action, error) {
	if err := c.input(now); err != nil {
		return Action{}, err
	}
	if v := c.canAct(now); v != Acted && v != Settling {
		return c.refuse(v)
	}
	if int(weapon) >= inventory.NumWeapons || c.table[weapon].Kind == inventory.KindNone {
		return c.refuse(WrongKind)
	}
	if !c.store.owns(&c.table, weapon) {
		return c.refuse(NotOwned)
	}
	if sl := c.table[weapon].Slot; sl != c.store.active {
		c.store.active = sl
		c.reloading = false
		c.stopSprayIfGone()
	}
	return Action{Verdict: Acted}, nil
}

// tickReload starts and finishes the reload of the held weapon: an empty clip with rounds
// left refills after Config.ReloadTime from the total, at the clip size of the player's
// skill tier. Switching away cancels it.
func (c *Client) tickReload(now time.Duration) {
	s := &c.store.slots[c.store.active]
	// The clip size is looked up only when it decides something: the catalogue lies far
	// from the fields a tick touches.
	if c.reloading {
		switch {
		case c.reloadSlot != c.store.active || s.Clip > 0 || s.Total == 0:
			c.reloading = false
		case now >= c.reloadUntil:
			s.Clip = min(s.Total, c.clipSize(s.Weapon))
			c.reloading = false
		}
		return
	}
	if c.alive && s.Weapon != inventory.Fists && s.Clip == 0 && s.Total > 0 && c.clipSize(s.Weapon) > 0 {
		c.reloading, c.reloadSlot, c.reloadUntil = true, c.store.active, now+c.cfg.ReloadTime
	}
}
