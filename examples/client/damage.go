package client

import (
	"fmt"
	"math"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// The explosions the client computes itself (the server has no physics: vitals' [sources-of-damage] leaves
// the amount of a blast to the victim). A blast of peak damage P and radius R does
// P x (1 - d/R) to a player whose body is d metres from its centre, nothing from R on:
// a linear falloff, before the explosion multiplier, taken armor first like any damage.
const (
	// ExplosionPeak is the peak of a gamemode explosion (CreateExplosion, whose radius the
	// message carries) and of a Rhino cannon's shell.
	ExplosionPeak float32 = 100
	// CannonRadius is the radius of a Rhino cannon's shell.
	CannonRadius float32 = 7
)

// Blast is the explosion of a detonated projectile as the client computes it.
type Blast struct {
	Radius float32 // metres
	Peak   float32 // raw damage at the centre
}

// DetonationBlast returns the blast of a detonated projectile of weapon: a grenade (16)
// and the rockets (35, 36) 7 m and 100; a satchel (39) 9 m and 120; a molotov (18) 4 m and
// 30; tear gas (17) 5 m and 10; anything else as a grenade.
func DetonationBlast(weapon uint8) Blast {
	switch weapon {
	case 17:
		return Blast{Radius: 5, Peak: 10}
	case 18:
		return Blast{Radius: 4, Peak: 30}
	case 39:
		return Blast{Radius: 9, Peak: 120}
	}
	return Blast{Radius: 7, Peak: 100}
}

// BlastDamage is the raw damage of a blast at distance d from its centre: peak x (1 - d /
// radius) inside the radius, 0 outside.
func BlastDamage(peak, radius, d float32) float32 {
	if !(radius > 0) || !(d < radius) || !(peak > 0) {
		return 0
	}
	if d < 0 {
		d = 0
	}
	return peak * (1 - d/radius)
}

// MeleeDamage is the damage of one blow of weapon to a player as the client's game computes
// it (0.33 already applied): 1.32 for the fists and a gun used as a club (the weakest move
// at zero stats, vitals' [damage-floor]), 1.65 for the brass knuckles, 2.64 for the other melee
// weapons, 9.9 for the chainsaw. Never below the server's melee floor (1.32 x the melee
// multiplier - 0.01), so an honest blow is never charged more than it did.
func MeleeDamage(weapon uint8) float32 {
	switch {
	case weapon == 1:
		return 1.65
	case weapon == 9:
		return 9.9
	case weapon >= 2 && weapon <= 15:
		return 2.64
	}
	return 1.32
}

// mulClass is a damage multiplier class: the weapon the damage arrives with (vitals' [damage-multipliers]).
type mulClass uint8

const (
	classNone mulClass = iota
	classMelee
	classFire
	classSpray
	classExtinguisher
	classExplosion
	classPredator
)

// multiplier returns the multiplier the client applies to damage of class cl.
func (c *Client) multiplier(cl mulClass) float32 {
	switch cl {
	case classMelee:
		return c.mult.Melee
	case classFire:
		return c.mult.Fire
	case classSpray:
		return c.mult.Spray
	case classExtinguisher:
		return c.mult.Extinguisher
	case classExplosion:
		return c.mult.Explosion
	case classPredator:
		return c.mult.PredatorGun
	}
	return 1
}

// damage is one damage as the client's game computed it, before the client judges it.
type damage struct {
	attacker wire.PlayerID // the author (wire.NoPlayer for none)
	weapon   uint8         // the weapon or cause the report carries
	bodyPart uint8
	ref      wire.Ref
	class    mulClass
	amount   float32 // before the multiplier
	shot     bool    // a bullet of a shot packet: judged by that packet's stamp
	stamp    wire.Stamp
	sum      bool // summed and reported FireSumInterval after its first tick
	kill     bool // a death, not an amount (a vehicle explosion around its occupants)
}

// take judges and applies one damage: the client's side of teams' [teammate-refused-by-victim] (refuse a teammate's
// damage before applying it) and of vitals' [damage-multipliers] and [lethal-report-first] (multiplier, armor first, a report per hit, a
// lethal report on the lane ahead of the DeathReport).
func (c *Client) take(d damage) DamageResult {
	if !c.alive {
		c.counters.HitsIgnored++
		return DamageResult{Verdict: DamageIgnored}
	}
	if d.attacker != wire.NoPlayer && d.attacker != c.id {
		h := teams.Hit{Attacker: d.attacker, Shot: d.shot,
			Stamp: teams.Stamp{Teammate: d.stamp.Teammate, Rev: d.stamp.Rev}}
		if c.tracker.JudgeHit(h) == teams.HitRefusedTeammate {
			c.counters.HitsRefusedTeammate++
			if l := c.life(); l != nil {
				l.Refused++
			}
			return DamageResult{Verdict: DamageRefusedTeammate}
		}
	}
	amount := d.amount
	if d.kill {
		amount = c.health + c.armor
	} else {
		m := c.multiplier(d.class)
		if m == 0 {
			c.counters.HitsZeroMultiplier++
			return DamageResult{Verdict: DamageZeroMultiplier}
		}
		amount *= m
	}
	if !(amount > 0) {
		c.counters.HitsIgnored++
		return DamageResult{Verdict: DamageIgnored}
	}

	hb, ab := c.health, c.armor
	fromArmor := min(ab, amount)
	c.armor = ab - fromArmor
	c.health = hb - (amount - fromArmor)
	if c.health < 0 || d.kill {
		c.health = 0
	}
	lossH, lossA := hb-c.health, ab-c.armor
	c.counters.HitsApplied++
	lethal := c.health <= 0
	res := DamageResult{Verdict: DamageApplied, Loss: lossH + lossA}
	if lethal {
		res.Verdict = DamageLethal
		// The sums still open go out first, each claiming what was left before this
		// damage; the lethal report is the last damage report of the life.
		ha, aa := c.health, c.armor
		c.health, c.armor = hb, ab
		if d.sum {
			c.flushSums(c.findSum(d))
		} else {
			c.flushSums(nil)
		}
		c.health, c.armor = ha, aa
	}
	if d.sum {
		s := c.addSum(d, lossH, lossA)
		if lethal {
			res.Report = c.emitSum(s, true)
			c.die(d.attacker, d.weapon, c.deathPose(d), res.Report)
		}
		return res
	}
	res.Report = c.report(d.attacker, d.weapon, d.bodyPart, d.ref, hb, ab, lethal, false)
	if lethal {
		c.die(d.attacker, d.weapon, c.deathPose(d), res.Report)
	}
	return res
}

// report creates one damage report from vitals before (hb, ab) to the vitals now: it takes
// the next number, echoes the health revision, and goes out unreliably, or on the lane
// when lethal (vitals' [lethal-report-first]).
func (c *Client) report(attacker wire.PlayerID, weapon, bodyPart uint8, ref wire.Ref, hb, ab float32, lethal, sum bool) uint16 {
	c.damageSeq = revision.Next(c.damageSeq)
	hb, ab = clampVital(hb), clampVital(ab)
	ha, aa := clampVital(c.health), clampVital(c.armor)
	loss := max(hb-ha, 0) + max(ab-aa, 0)
	if !wireBodyPart(bodyPart) {
		bodyPart = DefaultBodyPart
	}
	r := &c.reportMsg
	*r = wire.DamageReport{
		DamageSeq: c.damageSeq, VitalRev: c.vitalRev, Attacker: attacker, Weapon: weapon,
		BodyPart: bodyPart, Ref: ref, HealthBefore: hb, ArmorBefore: ab, HealthAfter: ha,
		ArmorAfter: aa, Loss: min(loss, wire.MaxLoss),
	}
	var err error
	if lethal {
		_, err = c.epQueue(c.now, r)
		c.counters.LethalReports++
	} else {
		err = c.epSend(r)
	}
	c.sendError(err)
	c.counters.Reports++
	if sum {
		c.counters.SumReports++
	}
	if l := c.life(); l != nil {
		l.Reports++
		l.Loss += r.Loss
	}
	c.reportLog.Push(ReportEntry{
		At: c.now, DamageSeq: c.damageSeq, VitalRev: c.vitalRev, Epoch: c.epoch, Attacker: attacker,
		Weapon: weapon, Ref: ref, Loss: r.Loss, HealthAfter: ha, Lethal: lethal, Sum: sum,
	})
	return c.damageSeq
}

func wireBodyPart(b uint8) bool { return b >= wire.BodyTorso && b <= wire.BodyHead }

// sum is fire, spray or environmental damage being summed: applied at once, reported
// FireSumInterval after its first tick, after the frames that already showed it
// (vitals' [sums-after-frames]).
type sum struct {
	open     bool
	attacker wire.PlayerID
	weapon   uint8
	ref      wire.Ref
	start    time.Duration
	health   float32 // loss of health so far
	armor    float32 // loss of armor so far
}

// addSum adds a loss to the open sum of the same author, cause and effect, or opens one.
func (c *Client) addSum(d damage, lossH, lossA float32) *sum {
	s := c.findSum(d)
	if s == nil {
		for i := range c.sums {
			if !c.sums[i].open {
				s = &c.sums[i]
				break
			}
		}
	}
	if s == nil {
		// Every slot is open: report the oldest now and reuse it.
		s = c.oldestSum(nil)
		c.emitSum(s, false)
	}
	if !s.open {
		c.openSums++
		*s = sum{open: true, attacker: d.attacker, weapon: d.weapon, ref: d.ref, start: c.now}
	}
	s.health += lossH
	s.armor += lossA
	return s
}

// findSum returns the open sum of d's author, cause and effect, or nil.
func (c *Client) findSum(d damage) *sum {
	for i := range c.sums {
		o := &c.sums[i]
		if o.open && o.attacker == d.attacker && o.weapon == d.weapon && o.ref == d.ref {
			return o
		}
	}
	return nil
}

// oldestSum returns the open sum opened first (not except), or nil.
func (c *Client) oldestSum(except *sum) *sum {
	var best *sum
	for i := range c.sums {
		s := &c.sums[i]
		if s.open && s != except && (best == nil || s.start < best.start) {
			best = s
		}
	}
	return best
}

// emitSum reports a sum: the vitals left now, and before them what the sum took.
func (c *Client) emitSum(s *sum, lethal bool) uint16 {
	hb := c.health + s.health
	ab := c.armor + s.armor
	seq := c.report(s.attacker, s.weapon, DefaultBodyPart, s.ref, hb, ab, lethal, true)
	if s.open {
		s.open = false
		c.openSums--
	}
	return seq
}

// flushSums reports every open sum but except now, oldest first.
func (c *Client) flushSums(except *sum) {
	for s := c.oldestSum(except); s != nil; s = c.oldestSum(except) {
		c.emitSum(s, false)
	}
}

// tickSums reports the sums whose FireSumInterval has passed, oldest first.
func (c *Client) tickSums(now time.Duration) {
	for c.openSums > 0 {
		s := c.oldestSum(nil)
		if s == nil || now-s.start < transport.FireSumInterval {
			return
		}
		c.emitSum(s, false)
	}
}

// deathPose picks the death animation the game plays for d (always on lifecycle's list).
func (c *Client) deathPose(d damage) lifecycle.Pose {
	if c.veh.in {
		if c.veh.seat%2 == 0 {
			return lifecycle.PoseCarDeadLeft
		}
		return lifecycle.PoseCarDeadRight
	}
	pick := func(a, b lifecycle.Pose) lifecycle.Pose {
		if c.rng.IntN(2) == 0 {
			return a
		}
		return b
	}
	switch {
	case d.weapon == inventory.CauseDrowning:
		return lifecycle.PoseDrown
	case d.weapon == inventory.CauseFall:
		return lifecycle.PoseFallCollapse
	case d.weapon == inventory.CauseExplosion:
		return pick(lifecycle.PoseSkidBack, lifecycle.PoseSkidFront)
	case d.weapon == inventory.CauseVehicle || d.weapon == inventory.CauseRotor || d.class == classMelee:
		return pick(lifecycle.PoseKnockedLeft, lifecycle.PoseKnockedRight)
	case d.bodyPart == wire.BodyHead:
		return lifecycle.PoseShotFace
	case d.bodyPart == wire.BodyLeftLeg || d.bodyPart == wire.BodyRightLeg:
		return pick(lifecycle.PoseSpinLeft, lifecycle.PoseSpinRight)
	case d.bodyPart == wire.BodyGroin:
		return lifecycle.PoseShotStomach
	}
	return lifecycle.PoseDefault
}

// die ends the life: the DeathReport goes on the lane (after the lethal report, if any),
// the player stops acting, and the first RespawnRequest follows it at once; Tick repeats
// it every transport.RespawnRetry (lifecycle's [respawn-idempotent]).
func (c *Client) die(killer wire.PlayerID, cause uint8, pose lifecycle.Pose, lethal uint16) {
	c.flushSums(nil)
	if killer == c.id {
		killer = wire.NoPlayer // a suicide has no killer
	}
	c.alive = false
	c.health = 0
	c.fireHeld = false
	c.reloading = false
	c.stealthing = false
	c.leaveSeat()
	// The DeathReport waits DeathReportDelay, as the game's death animation would: a shot
	// or a projectile the player sent just before it died travels unreliably and could
	// otherwise arrive after the report, when the server has committed the death and
	// refuses the dead player's actions (vitals' [mutual-kill]; [death-report-delay]).
	c.deathMsg = wire.DeathReport{DeathEpoch: c.epoch, Killer: killer, Weapon: cause, Pose: uint8(pose)}
	c.deathPending, c.deathDue = true, c.now+DeathReportDelay
	c.nextRespawn = c.deathDue
	c.counters.Deaths++
	if l := c.life(); l != nil {
		l.Died, l.DiedAt, l.Cause, l.Killer, l.Pose, l.Lethal = true, c.now, cause, killer, pose, lethal
	}
	c.event(Event{Kind: EventDied, Position: c.pos, Attacker: killer, Weapon: cause, Vehicle: wire.NoVehicle})
}

// reportDeath queues the DeathReport of the death whose delay ran out, then the first
// RespawnRequest.
func (c *Client) reportDeath() {
	c.deathPending = false
	_, err := c.epQueue(c.now, &c.deathMsg)
	c.sendError(err)
	c.counters.DeathReports++
	c.requestRespawn()
}

// requestRespawn queues a RespawnRequest for the life the client is dead in (0 before the
// connect spawn) and sets the timer for the next.
func (c *Client) requestRespawn() {
	_, err := c.epQueue(c.now, &wire.RespawnRequest{DeathEpoch: c.epoch})
	c.sendError(err)
	c.counters.RespawnRequests++
	c.nextRespawn = c.now + transport.RespawnRetry
}

// sendError counts a message the transport refused; a lane that must disconnect closes
// the client.
func (c *Client) sendError(err error) {
	if err == nil {
		return
	}
	c.counters.SendErrors++
	if c.ep.Lane().State() == lane.MustDisconnect {
		c.close(wire.ReasonOverflow)
	}
}

// ---- damage from the world (the game-side verbs) ----

// input validates a game-side input: a clock that does not go back and an open connection.
func (c *Client) input(now time.Duration) error {
	if c.closed {
		return ErrClosed
	}
	return c.clock(now)
}

func checkAmount(amount float32) error {
	if math.IsNaN(float64(amount)) || math.IsInf(float64(amount), 0) {
		return fmt.Errorf("%w: amount %v", ErrNotFinite, amount)
	}
	if amount < 0 {
		return fmt.Errorf("%w: negative amount %v", ErrOutOfRange, amount)
	}
	return nil
}

func checkPlayer(id wire.PlayerID) error {
	if id == wire.NoPlayer {
		return fmt.Errorf("%w: no player", ErrOutOfRange)
	}
	return nil
}

// MeleeHit applies a melee blow of attacker with weapon (0..15, or a gun used as a club)
// that the world says landed on the player: MeleeDamage(weapon) under the melee
// multiplier, judged by the newest stamp from the attacker, reported at once with no Ref
// (the server correlates a blow by the attacker's weapon and distance).
func (c *Client) MeleeHit(now time.Duration, attacker wire.PlayerID, weapon uint8) (DamageResult, error) {
	if err := c.input(now); err != nil {
		return DamageResult{}, err
	}
	if err := checkPlayer(attacker); err != nil {
		return DamageResult{}, err
	}
	return c.take(damage{attacker: attacker, weapon: weapon, bodyPart: DefaultBodyPart,
		class: classMelee, amount: MeleeDamage(weapon)}), nil
}

// Rammed applies amount of damage from a vehicle driven by driver that rammed or ran over
// the player (cause 49; RotorHit for rotor blades): judged by the newest stamp from the
// driver, no multiplier, reported at once. A driverless vehicle (wire.NoPlayer) hurts
// without an author.
func (c *Client) Rammed(now time.Duration, driver wire.PlayerID, amount float32) (DamageResult, error) {
	return c.vehicleDamage(now, driver, inventory.CauseVehicle, amount)
}

// RotorHit applies amount of damage from the rotor blades of a helicopter flown by driver
// (cause 50), like Rammed.
func (c *Client) RotorHit(now time.Duration, driver wire.PlayerID, amount float32) (DamageResult, error) {
	return c.vehicleDamage(now, driver, inventory.CauseRotor, amount)
}

func (c *Client) vehicleDamage(now time.Duration, driver wire.PlayerID, cause uint8, amount float32) (DamageResult, error) {
	if err := c.input(now); err != nil {
		return DamageResult{}, err
	}
	if err := checkAmount(amount); err != nil {
		return DamageResult{}, err
	}
	return c.take(damage{attacker: driver, weapon: cause, bodyPart: DefaultBodyPart, amount: amount}), nil
}

// Fall applies amount of damage from a fall or a collision (cause 54): no author, no
// multiplier, summed and reported FireSumInterval after its first tick.
func (c *Client) Fall(now time.Duration, amount float32) (DamageResult, error) {
	return c.environment(now, inventory.CauseFall, amount)
}

// Drown applies amount of drowning damage (cause 53), summed like Fall.
func (c *Client) Drown(now time.Duration, amount float32) (DamageResult, error) {
	return c.environment(now, inventory.CauseDrowning, amount)
}

// Burn applies amount of damage from a fire nobody owns (a burning wreck; cause 37): the
// fire multiplier, summed like Fall.
func (c *Client) Burn(now time.Duration, amount float32) (DamageResult, error) {
	return c.environment(now, inventory.CauseFire, amount)
}

func (c *Client) environment(now time.Duration, cause uint8, amount float32) (DamageResult, error) {
	if err := c.input(now); err != nil {
		return DamageResult{}, err
	}
	if err := checkAmount(amount); err != nil {
		return DamageResult{}, err
	}
	cl := classNone
	if cause == inventory.CauseFire {
		cl = classFire
	}
	return c.take(damage{attacker: wire.NoPlayer, weapon: cause, class: cl, amount: amount, sum: true}), nil
}

// InFire applies one tick (amount) of a gamemode fire the player stands in, named by the
// effect id of its CreateFire: the fire multiplier, judged by the newest stamp from the
// fire's creator, summed per FireSumInterval and reported with RefEffect. A fire the
// client never received (or that burnt out, FireLife after it was lit:
// [fire-burns-what-is-left]) is ErrUnknownEffect: it does not exist in the client's game.
func (c *Client) InFire(now time.Duration, effect uint16, amount float32) (DamageResult, error) {
	if err := c.input(now); err != nil {
		return DamageResult{}, err
	}
	if err := checkAmount(amount); err != nil {
		return DamageResult{}, err
	}
	e := c.findEffect(effect)
	if e == nil {
		return DamageResult{}, fmt.Errorf("%w: %d", ErrUnknownEffect, effect)
	}
	return c.take(damage{attacker: e.creator, weapon: inventory.CauseFire, class: classFire, amount: amount, sum: true,
		ref: wire.Ref{Kind: wire.RefEffect, Seq: effect}}), nil
}

// Sprayed applies amount of damage from attacker's continuous weapon (37 flamethrower, 41
// spraycan, 42 extinguisher) that the world says reached the player: that weapon's
// multiplier class, judged by the newest stamp from the attacker, summed per
// FireSumInterval.
func (c *Client) Sprayed(now time.Duration, attacker wire.PlayerID, weapon uint8, amount float32) (DamageResult, error) {
	if err := c.input(now); err != nil {
		return DamageResult{}, err
	}
	if err := checkAmount(amount); err != nil {
		return DamageResult{}, err
	}
	if err := checkPlayer(attacker); err != nil {
		return DamageResult{}, err
	}
	if int(weapon) >= inventory.NumWeapons || c.table[weapon].Kind != inventory.KindContinuous {
		return DamageResult{}, fmt.Errorf("%w: weapon %d is not continuous", ErrOutOfRange, weapon)
	}
	cl := classOfCause(c.table[weapon].Cause)
	return c.take(damage{attacker: attacker, weapon: weapon, class: cl, amount: amount, sum: true}), nil
}

// classOfCause is the multiplier class of damage that arrives with a cause of the
// catalogue's Cause column (inventory's [weapon-causes]): a continuous weapon's spray.
func classOfCause(cause uint8) mulClass {
	switch cause {
	case inventory.CauseSpraycan:
		return classSpray
	case inventory.CauseExtinguisher:
		return classExtinguisher
	}
	return classFire
}

// ---- damage the server relays ----

// traceShot traces a relayed shot (RemoteWeaponShot or RemoteVehicleShot) against the
// player: the body (and its vehicle) moves to the rewound pose the server sent, for the
// trace only, and back afterwards (rewind's [rewind-to-shooters-view]). The hit, the body part and the damage stay
// the client's own computation.
func (c *Client) traceShot(s Shot, rw *wire.Rewind) (int, uint8) {
	pose := Pose{Position: c.pos, Vehicle: wire.NoVehicle}
	if c.veh.in {
		pose.Vehicle, pose.VehiclePosition, pose.VehicleRotation = c.veh.vehicle, c.veh.pose.Position, c.veh.pose.Rotation
	}
	savedPos, savedVeh := c.pos, c.veh.pose
	if rw.Valid {
		pose.Rewound = true
		pose.Position = rw.Position
		c.pos = rw.Position
		if rw.InVehicle && c.veh.in && c.veh.vehicle == rw.Vehicle {
			pose.VehiclePosition, pose.VehicleRotation = rw.VehiclePosition, rw.VehicleRotation
			c.veh.pose.Position, c.veh.pose.Rotation = rw.VehiclePosition, rw.VehicleRotation
		}
	}
	pellets, part := c.world.Trace(c.id, s, pose)
	c.pos, c.veh.pose = savedPos, savedVeh
	pellets = min(max(pellets, 0), s.Pellets)
	return pellets, part
}

// onRemoteWeaponShot traces a relayed shot and applies each pellet that hit: 0.33 x the
// weapon's standard-tier damage in the client's table, judged by the shot's own stamp,
// one report per pellet answering the shot (RefWeaponShot).
func (c *Client) onRemoteWeaponShot(m *wire.RemoteWeaponShot) {
	c.observe(m.Shooter, m.Stamp)
	if m.Shooter == c.id || !c.alive {
		return
	}
	w := m.Weapon
	if int(w) >= inventory.NumWeapons {
		return
	}
	props := &c.table[w]
	pellets := 1
	if props.Pellets > 0 {
		pellets = int(props.Pellets)
	}
	s := Shot{Shooter: m.Shooter, ShotSeq: m.ShotSeq, Weapon: w, Vehicle: wire.NoVehicle, HitType: m.HitType,
		HitID: m.HitID, Origin: m.Origin, HitPos: m.HitPos, Pellets: pellets}
	n, part := c.traceShot(s, &m.Rewind)
	if n == 0 {
		c.counters.HitsMissed++
		return
	}
	per := PlayerDamageFactor * props.Damage[inventory.TierStd]
	d := damage{attacker: m.Shooter, weapon: w, bodyPart: part, amount: per, shot: true, stamp: m.Stamp,
		ref: wire.Ref{Kind: wire.RefWeaponShot, Seq: m.ShotSeq}}
	for range n {
		if r := c.take(d); r.Verdict != DamageApplied {
			return // refused (every pellet alike), or the player died
		}
	}
}

// onRemoteVehicleShot is onRemoteWeaponShot for a vehicle's guns: bullets do their
// weapon's standard-tier damage, the Predator's its fixed damage under the Predator
// multiplier, and a Rhino's shell explodes at the end of its ray and hits whoever stands
// there now (no trace, no rewind).
func (c *Client) onRemoteVehicleShot(m *wire.RemoteVehicleShot) {
	c.observe(m.Shooter, m.Stamp)
	if m.Shooter == c.id || !c.alive {
		return
	}
	model, known := c.world.VehicleModel(m.Vehicle)
	gun, _, armed := c.vehicles.Gun(model, m.Weapon)
	if !known || !armed {
		return // no gun of that vehicle fires it: the server relays no such shot
	}
	ref := wire.Ref{Kind: wire.RefVehicleShot, Seq: m.ShotSeq}
	if gun.Kind == inventory.GunCannon {
		c.blast(m.Shooter, m.Stamp, true, m.HitPos, ExplosionPeak, CannonRadius, ref)
		return
	}
	s := Shot{Shooter: m.Shooter, ShotSeq: m.ShotSeq, Weapon: m.Weapon, Vehicle: m.Vehicle, HitType: m.HitType,
		HitID: m.HitID, Origin: m.Origin, HitPos: m.HitPos, Pellets: 1}
	n, part := c.traceShot(s, &m.Rewind)
	if n == 0 {
		c.counters.HitsMissed++
		return
	}
	d := damage{attacker: m.Shooter, weapon: m.Weapon, bodyPart: part, shot: true, stamp: m.Stamp, ref: ref}
	if gun.Kind == inventory.GunFixed {
		d.amount, d.class = PlayerDamageFactor*gun.Damage, classPredator
	} else if int(m.Weapon) < inventory.NumWeapons {
		d.amount = PlayerDamageFactor * c.table[m.Weapon].Damage[inventory.TierStd]
	}
	c.take(d)
}

// blast applies an explosion at centre to the player where it stands now: BlastDamage
// under the explosion multiplier, judged by the shot's own stamp (shot) or the newest
// stamp from its author, reported at once answering ref.
func (c *Client) blast(author wire.PlayerID, stamp wire.Stamp, shot bool, centre wire.Vec3, peak, radius float32, ref wire.Ref) DamageResult {
	if !c.alive {
		c.counters.HitsIgnored++
		return DamageResult{Verdict: DamageIgnored}
	}
	amount := BlastDamage(peak, radius, distance(c.pos, centre))
	if amount <= 0 {
		c.counters.HitsMissed++
		return DamageResult{Verdict: DamageMissed}
	}
	return c.take(damage{attacker: author, weapon: inventory.CauseExplosion, bodyPart: DefaultBodyPart, ref: ref,
		class: classExplosion, amount: amount, shot: shot, stamp: stamp})
}

// onRemoteDetonation applies another player's projectile blast (RefDetonation). The
// client's own projectiles explode on its own game at their fuse (see Throw); a relay of
// one of them is ignored.
func (c *Client) onRemoteDetonation(m *wire.RemoteDetonation) {
	c.observe(m.Owner, m.Stamp)
	if m.Owner == c.id {
		return
	}
	b := DetonationBlast(m.Weapon)
	c.blast(m.Owner, m.Stamp, false, m.Position, b.Peak, b.Radius, wire.Ref{Kind: wire.RefDetonation, Seq: m.Projectile})
}

// onCreateExplosion applies a gamemode explosion (RefEffect), judged by the newest stamp
// from its creator (none without one).
func (c *Client) onCreateExplosion(m *wire.CreateExplosion) {
	c.observe(m.Creator, m.Stamp)
	c.blast(m.Creator, m.Stamp, false, m.Position, ExplosionPeak, m.Radius, wire.Ref{Kind: wire.RefEffect, Seq: m.Effect})
}

// effect is a gamemode fire the client received.
type effect struct {
	used    bool
	id      uint16
	creator wire.PlayerID
	at      time.Duration // when the server lit it, on the client's clock: arrival - Age
}

// onCreateFire remembers a gamemode fire, so the world's InFire ticks find its creator,
// lit Age before it arrived ([fire-burns-what-is-left]): a fire sent late burns only what
// is left of FireLife, and one already out when it arrives is dropped (with any fire of
// the same id the client still holds: this message is the newest word on that id).
func (c *Client) onCreateFire(m *wire.CreateFire) {
	c.observe(m.Creator, m.Stamp)
	age := time.Duration(m.Age) * time.Millisecond // at most wire.MaxFireAge: the decoder refuses more
	if age > FireLife {
		if e := c.findEffect(m.Effect); e != nil {
			e.used = false
		}
		return
	}
	slot := &c.effects[0]
	for i := range c.effects {
		e := &c.effects[i]
		if !e.used || e.id == m.Effect {
			slot = e
			break
		}
		if e.at < slot.at {
			slot = e
		}
	}
	*slot = effect{used: true, id: m.Effect, creator: m.Creator, at: c.now - age}
}

func (c *Client) findEffect(id uint16) *effect {
	for i := range c.effects {
		e := &c.effects[i]
		if e.used && e.id == id {
			if c.now-e.at > FireLife {
				e.used = false
				return nil
			}
			return e
		}
	}
	return nil
}

// onRemoteVehicleExplode kills the occupants of an exploded vehicle (vitals' [death-by-ledger]: death by
// the server for its occupants), except when the explosion's author is this client's
// teammate by the newest stamp: then the client takes nothing and leaves the wreck
// (teams' [explosion-spares-teammates]).
func (c *Client) onRemoteVehicleExplode(m *wire.RemoteVehicleExplode) {
	c.observe(m.Author, m.Stamp)
	c.vehicleWrecked(m.Vehicle)
	if !c.veh.in || c.veh.vehicle != m.Vehicle {
		return
	}
	c.veh.wrecked = true
	if !c.alive {
		return
	}
	r := c.take(damage{attacker: m.Author, weapon: inventory.CauseExplosion, bodyPart: DefaultBodyPart, kill: true,
		ref: wire.Ref{Kind: wire.RefVehicleExplode, Seq: m.Vehicle}, stamp: m.Stamp})
	if r.Verdict == DamageRefusedTeammate {
		v := c.veh.vehicle
		c.leaveSeat()
		c.event(Event{Kind: EventLeftWreck, Position: c.pos, Vehicle: v, Attacker: m.Author})
	}
}

// onRemoteStealthKill starts the victim's paired animation of an accepted stealth kill of
// this life; the player dies when it ends (Tick) and reports the death with the knife and
// the stealth pose. A teammate's (by the newest stamp) is refused like any damage.
func (c *Client) onRemoteStealthKill(m *wire.RemoteStealthKill) {
	c.observe(m.Attacker, m.Stamp)
	if m.Victim != c.id || !c.alive || m.VictimEpoch != c.epoch || c.stealthing {
		return
	}
	// Judged by its own stamp, as a shot is (teams' [teammate-refused-by-victim]): the
	// kill is the server's whole decision, taken at the relation this stamp carries, and
	// the server commits the death whatever the client does; a newer stamp of a team
	// change since must not leave the victim alive on its screen and dead on the server.
	h := teams.Hit{Attacker: m.Attacker}
	if teams.JudgeHit(h, teams.Stamp{Teammate: m.Stamp.Teammate, Rev: m.Stamp.Rev}) == teams.HitRefusedTeammate {
		c.counters.HitsRefusedTeammate++
		return
	}
	c.stealthing, c.stealthBy, c.stealthWeapon, c.stealthUntil = true, m.Attacker, m.Weapon, c.now+c.cfg.StealthAnim
	c.fireHeld = false
	c.event(Event{Kind: EventStealthVictim, Position: c.pos, Attacker: m.Attacker, Weapon: m.Weapon})
}

// tickStealth ends the stealth animation: the player dies (cause: the knife).
func (c *Client) tickStealth(now time.Duration) {
	if !c.stealthing || now < c.stealthUntil {
		return
	}
	c.stealthing = false
	if c.alive {
		c.die(c.stealthBy, c.stealthWeapon, lifecycle.PoseKnifeStealth, 0)
	}
}

// observe feeds the stamp of a packet from sender to the tracker (teams' [teammate-refused-by-victim]: everything
// but a shot is judged by the newest stamp of its sender).
func (c *Client) observe(sender wire.PlayerID, s wire.Stamp) {
	if sender == wire.NoPlayer {
		return
	}
	if c.tracker.Observe(sender, teams.Stamp{Teammate: s.Teammate, Rev: s.Rev}) {
		if k := c.remotes.key(sender); k != nil {
			k.slot &^= keyHeld | keyMate // what the entry remembers of the tracker is stale
		}
	}
}

// observeFrame is observe for a relayed frame of the player whose entry is k (nil: no
// copy), the commonest packet: when the entry remembers that the tracker holds exactly
// this stamp, Observe would change nothing and the tracker's table is not touched (a
// crowd's tables do not fit the caches).
func (c *Client) observeFrame(k *remoteKey, sender wire.PlayerID, s wire.Stamp) {
	if k != nil && k.slot&keyHeld != 0 && k.rev == s.Rev && (k.slot&keyMate != 0) == s.Teammate {
		return
	}
	c.observe(sender, s)
	if k != nil {
		k.slot &^= keyHeld | keyMate
		if held, ok := c.tracker.Newest(sender); ok {
			k.slot |= keyHeld
			if held.Teammate {
				k.slot |= keyMate
			}
			k.rev = held.Rev
		}
	}
}

func distance(a, b wire.Vec3) float32 {
	dx, dy, dz := float64(a.X-b.X), float64(a.Y-b.Y), float64(a.Z-b.Z)
	return float32(math.Sqrt(dx*dx + dy*dy + dz*dz))
}
