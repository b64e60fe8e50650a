package refserver

import (
	"errors"
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/rewind"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// scratchMessages holds one value of every message the World sends, so that sending one
// does not allocate (the Endpoint encodes it at once).
type scratchMessages struct {
	welcome    wire.Welcome
	ping       wire.Ping
	pong       wire.Pong
	disconnect wire.Disconnect
	rps        wire.RemotePlayerSync
	rvs        wire.RemoteVehicleSync
	rws        wire.RemoteWeaponShot
	rvsh       wire.RemoteVehicleShot
	rproj      wire.RemoteProjectile
	rdet       wire.RemoteDetonation
	stealth    wire.RemoteStealthKill
	vexplode   wire.RemoteVehicleExplode
	show       wire.PlayerShow
	hide       wire.PlayerHide
	wasted     wire.PlayerWasted
	spawned    wire.PlayerSpawned
	respawn    wire.RespawnPlayer
	zero       wire.SetHealth
	setHealth  wire.SetHealth
	setArmor   wire.SetArmor
	giveHealth wire.GiveHealth
	giveArmor  wire.GiveArmor
	mult       wire.DamageMultipliers
	props      wire.WeaponProperties
	give       wire.GiveWeapon
	take       wire.TakeWeapon
	ammo       wire.SetWeaponAmmo
	clear      wire.ClearWeapons
	armed      wire.SetArmedWeapon
	skill      wire.SetWeaponSkill
	position   wire.SetPlayerPosition
	vpose      wire.SetVehiclePose
	vfrozen    wire.SetVehicleFrozen
	vshow      wire.VehicleShow
	vhide      wire.VehicleHide
	explosion  wire.CreateExplosion
	fire       wire.CreateFire
}

// effect is a live gamemode explosion or fire.
type effect struct {
	valid   bool
	fire    bool
	id      uint16
	creator PlayerID
	join    uint64 // the creator's joinSerial, to tell a reused id
	pos     wire.Vec3
	radius  float32
	at      time.Duration
	serial  uint64
}

func (e *effect) live(now time.Duration) bool {
	if !e.valid {
		return false
	}
	if e.fire {
		return now-e.at <= FireLifetime+ExplosionWindow
	}
	return now-e.at <= ExplosionWindow
}

func (w *World) effectCreator(e *effect) PlayerID {
	if c := w.conn(e.creator); c != nil && c.joinSerial == e.join {
		return c.id
	}
	return NoPlayer
}

// refuse records a refused gamemode command and returns its error.
func (w *World) refuse(id PlayerID, verb string, err error) error {
	w.stats.CommandsRefused++
	w.raise(Event{Kind: EventCommandRefused, At: w.now, Player: id, Other: NoPlayer, Vehicle: NoVehicle, Detail: verb + ": " + err.Error()})
	return err
}

// target validates the clock and the player of a command.
func (w *World) target(now time.Duration, id PlayerID) (*player, error) {
	if !w.advance(now) {
		return nil, fmt.Errorf("%w: %v before %v", ErrClockBackwards, now, w.now)
	}
	p := w.conn(id)
	if p == nil {
		return nil, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	return p, nil
}

// vitalsError maps a refusal of the vitals package to the package's sentinel.
func vitalsError(err error) error {
	switch {
	case errors.Is(err, vitals.ErrNotFinite):
		return wrap(ErrNotFinite, err)
	case errors.Is(err, vitals.ErrNotAlive):
		return wrap(ErrNotAlive, err)
	}
	return wrap(ErrOutOfRange, err)
}

func laneFull(id PlayerID, err error) error {
	return fmt.Errorf("%w: player %d: %w", ErrLaneFull, id, err)
}

// ---- health and armor (vitals' [one-command-queue], [health-revision]) ----

// healthCommand is the common path of the four health and armor verbs: check the lane,
// commit in vitals, queue, and remember the revision for its acknowledgement.
func (w *World) healthCommand(now time.Duration, id PlayerID, verb string, m wire.Message, commit func(*player) (vitals.CommandResult, error), setRev func(uint16)) error {
	p, err := w.target(now, id)
	if err != nil {
		return w.refuse(id, verb, err)
	}
	if err := p.ep.CanQueue(m); err != nil {
		return w.refuse(id, verb, laneFull(id, err))
	}
	res, err := commit(p)
	if err != nil {
		return w.refuse(id, verb, vitalsError(err))
	}
	setRev(res.Command.Rev)
	if seq, ok := w.queue(now, p, m); ok {
		p.acks.push(ackInterest{seq: seq, kind: ackHealth, rev: res.Command.Rev})
	}
	w.stats.Commands++
	if res.Died {
		w.countDeath(now, p, res.Death)
	}
	w.reap(now)
	return nil
}

// SetHealth is player:set_health(value): an absolute value in 0..200 that may lower, taken
// by the ledger when queued. Only in a life the server counts (after its first frame,
// alive, not counted dead): ErrNotAlive otherwise. set_health(0) kills through the
// client's normal death path (the SetHealth(0) is critical) and counts the death, whose
// DeathReport the lifecycle then waits for.
func (w *World) SetHealth(now time.Duration, id PlayerID, value float32) error {
	m := &w.msgs.setHealth
	*m = wire.SetHealth{Health: value}
	if !finite32(value) || value < 0 || value > wire.MaxVital {
		m.Health = 0 // a placeholder the lane can size; vitals refuses the value
	}
	return w.healthCommand(now, id, "set_health", m,
		func(p *player) (vitals.CommandResult, error) { return p.vit.SetHealth(now, value) },
		func(rev uint16) { m.Rev, m.Health = rev, value })
}

// SetArmor is player:set_armor(value): an absolute value in 0..200.
func (w *World) SetArmor(now time.Duration, id PlayerID, value float32) error {
	m := &w.msgs.setArmor
	*m = wire.SetArmor{}
	return w.healthCommand(now, id, "set_armor", m,
		func(p *player) (vitals.CommandResult, error) { return p.vit.SetArmor(now, value) },
		func(rev uint16) { m.Rev, m.Armor = rev, value })
}

// AddHealth is player:add_health(amount, max): adds up to max and never lowers (a reward
// must not erase fresh damage). amount and max are finite, above 0 and at most 200.
func (w *World) AddHealth(now time.Duration, id PlayerID, amount, max float32) error {
	m := &w.msgs.giveHealth
	*m = wire.GiveHealth{Amount: 1, Max: 1}
	return w.healthCommand(now, id, "add_health", m,
		func(p *player) (vitals.CommandResult, error) { return p.vit.AddHealth(now, amount, max) },
		func(rev uint16) { m.Rev, m.Amount, m.Max = rev, amount, max })
}

// AddArmor is player:add_armor(amount, max).
func (w *World) AddArmor(now time.Duration, id PlayerID, amount, max float32) error {
	m := &w.msgs.giveArmor
	*m = wire.GiveArmor{Amount: 1, Max: 1}
	return w.healthCommand(now, id, "add_armor", m,
		func(p *player) (vitals.CommandResult, error) { return p.vit.AddArmor(now, amount, max) },
		func(rev uint16) { m.Rev, m.Amount, m.Max = rev, amount, max })
}

// SetDamageMultipliers sets the world's damage multiplier table (dlmp.set_damage_multiplier)
// and sends it to every connection with that connection's next table revision; a joining
// connection gets it too. Each multiplier is finite and within 0..100; 0 refuses the class
// entirely. Until a client acknowledged its table, and for 2 s after, the melee and
// Predator floors take the lowest multiplier it may still apply (vitals).
func (w *World) SetDamageMultipliers(now time.Duration, m vitals.Multipliers) error {
	if !w.advance(now) {
		return w.refuse(NoPlayer, "set_damage_multipliers", fmt.Errorf("%w: %v before %v", ErrClockBackwards, now, w.now))
	}
	if err := m.Validate(); err != nil {
		return w.refuse(NoPlayer, "set_damage_multipliers", vitalsError(err))
	}
	w.msgs.mult = wire.DamageMultipliers{}
	if err := w.canQueueAll(&w.msgs.mult); err != nil {
		return w.refuse(NoPlayer, "set_damage_multipliers", err)
	}
	w.mult, w.multSet = m, true
	for _, id := range w.conns {
		w.sendMultipliers(now, w.players[id])
	}
	w.stats.Commands++
	w.reap(now)
	return nil
}

// ---- weapons (inventory's [give-rules], [weapon-revision]) ----

// weaponCommand is the common path of the weapon verbs: check the lane, commit in the
// inventory (which takes the player's next revision), queue.
func (w *World) weaponCommand(now time.Duration, id PlayerID, verb string, m wire.Message, commit func(*player) error) error {
	p, err := w.target(now, id)
	if err != nil {
		return w.refuse(id, verb, err)
	}
	if err := p.ep.CanQueue(m); err != nil {
		return w.refuse(id, verb, laneFull(id, err))
	}
	if err := commit(p); err != nil {
		return w.refuse(id, verb, wrap(ErrWeapon, err))
	}
	if seq, ok := w.queue(now, p, m); ok {
		p.acks.push(ackInterest{seq: seq, kind: ackWeapon, rev: p.inv.Rev()})
	}
	w.stats.Commands++
	w.reap(now)
	return nil
}

// GiveWeapon gives weapon with ammo rounds by the game's rules (the same weapon adds its
// ammo; a pooled slot carries the displaced total over; otherwise the slot is replaced;
// totals cap at 65535), optionally making it the held weapon.
func (w *World) GiveWeapon(now time.Duration, id PlayerID, weapon uint8, ammo uint16, current bool) error {
	m := &w.msgs.give
	*m = wire.GiveWeapon{}
	return w.weaponCommand(now, id, "give_weapon", m, func(p *player) error {
		g, err := p.inv.Give(now, weapon, ammo, current)
		*m = wire.GiveWeapon{Rev: g.Rev, Weapon: g.Weapon, Ammo: g.Ammo, SetAsCurrent: g.SetAsCurrent}
		return err
	})
}

// TakeWeapon removes weapon and its ammo from the player.
func (w *World) TakeWeapon(now time.Duration, id PlayerID, weapon uint8) error {
	m := &w.msgs.take
	*m = wire.TakeWeapon{}
	return w.weaponCommand(now, id, "take_weapon", m, func(p *player) error {
		t, err := p.inv.Take(now, weapon)
		*m = wire.TakeWeapon{Rev: t.Rev, Weapon: t.Weapon}
		return err
	})
}

// SetWeaponAmmo sets the total of an owned weapon, and its clip unless clip is
// inventory.ClipNotSet.
func (w *World) SetWeaponAmmo(now time.Duration, id PlayerID, weapon uint8, total, clip uint16) error {
	m := &w.msgs.ammo
	*m = wire.SetWeaponAmmo{Clip: wire.NoClip}
	return w.weaponCommand(now, id, "set_weapon_ammo", m, func(p *player) error {
		s, err := p.inv.SetAmmo(now, weapon, total, clip)
		*m = wire.SetWeaponAmmo{Rev: s.Rev, Weapon: s.Weapon, Total: s.Total, Clip: s.Clip}
		return err
	})
}

// ClearWeapons removes every weapon and all ammo.
func (w *World) ClearWeapons(now time.Duration, id PlayerID) error {
	m := &w.msgs.clear
	*m = wire.ClearWeapons{}
	return w.weaponCommand(now, id, "clear_weapons", m, func(p *player) error {
		*m = wire.ClearWeapons{Rev: p.inv.Clear(now).Rev}
		return nil
	})
}

// SetArmedWeapon makes an owned weapon the held one (inventory.Fists for the bare hands).
func (w *World) SetArmedWeapon(now time.Duration, id PlayerID, weapon uint8) error {
	m := &w.msgs.armed
	*m = wire.SetArmedWeapon{}
	return w.weaponCommand(now, id, "set_armed_weapon", m, func(p *player) error {
		a, err := p.inv.SetArmed(now, weapon)
		*m = wire.SetArmedWeapon{Rev: a.Rev, Weapon: a.Weapon}
		return err
	})
}

// SetWeaponSkill sets the server-owned skill tier of a skill stat (69..79) and sends the
// skill to the client (the level of the tier: SkillLevelPoor, SkillLevelStd,
// SkillLevelPro). Within 5 s of a change the floor of a shot uses the lower tier.
func (w *World) SetWeaponSkill(now time.Duration, id PlayerID, stat inventory.SkillStat, tier inventory.Tier) error {
	m := &w.msgs.skill
	*m = wire.SetWeaponSkill{}
	return w.weaponCommand(now, id, "set_weapon_skill", m, func(p *player) error {
		if stat < inventory.SkillPistol || stat > inventory.SkillPistol+10 {
			return fmt.Errorf("%w: %d", inventory.ErrUnknownSkill, stat)
		}
		if err := p.inv.SetSkillTier(now, stat, tier); err != nil {
			return err
		}
		level := SkillLevelPoor
		switch tier {
		case inventory.TierStd:
			level = SkillLevelStd
		case inventory.TierPro:
			level = SkillLevelPro
		}
		*m = wire.SetWeaponSkill{Skill: uint8(stat - inventory.SkillPistol), Level: level}
		return nil
	})
}

// SetWeaponProperties publishes a new weapon properties revision in which a gun's damage
// per skill tier (per pellet) and range are changed, and sends it to every connection. A
// shot names the revision it was fired under; its floor is taken from that revision. Only
// guns (inventory.KindBullet) can be changed: their damage and range are what the
// WeaponProperties message carries. ErrPropertiesBusy when a revision superseded less than
// inventory.PropertiesHold ago would be dropped.
func (w *World) SetWeaponProperties(now time.Duration, weapon uint8, damage [inventory.NumTiers]float32, rng float32) error {
	const verb = "set_weapon_properties"
	if !w.advance(now) {
		return w.refuse(NoPlayer, verb, fmt.Errorf("%w: %v before %v", ErrClockBackwards, now, w.now))
	}
	if w.catalog.Kind(weapon) != inventory.KindBullet {
		return w.refuse(NoPlayer, verb, wrap(ErrWeapon, fmt.Errorf("%w: %d is not a gun", inventory.ErrUnknownWeapon, weapon)))
	}
	for _, d := range damage {
		if !finite32(d) {
			return w.refuse(NoPlayer, verb, fmt.Errorf("%w: damage %v", ErrNotFinite, damage))
		}
		if d < 0 || d > wire.MaxWeaponDamage {
			return w.refuse(NoPlayer, verb, fmt.Errorf("%w: damage %v not in 0..%d", ErrOutOfRange, damage, wire.MaxWeaponDamage))
		}
	}
	if !finite32(rng) {
		return w.refuse(NoPlayer, verb, fmt.Errorf("%w: range %v", ErrNotFinite, rng))
	}
	if rng <= 0 || rng > wire.MaxWeaponRange {
		return w.refuse(NoPlayer, verb, fmt.Errorf("%w: range %v not in (0, %d]", ErrOutOfRange, rng, wire.MaxWeaponRange))
	}
	w.msgs.props = wire.WeaponProperties{Range: 1}
	if err := w.canQueueAll(&w.msgs.props); err != nil {
		return w.refuse(NoPlayer, verb, err)
	}
	t := w.catalog.Properties().Weapons
	t[weapon].Damage, t[weapon].HasDamage, t[weapon].Range = damage, true, rng
	props, err := w.catalog.Update(now, &t)
	if err != nil {
		if errors.Is(err, inventory.ErrPropertiesBusy) {
			return w.refuse(NoPlayer, verb, wrap(ErrPropertiesBusy, err))
		}
		return w.refuse(NoPlayer, verb, wrap(ErrWeapon, err))
	}
	for _, id := range w.conns {
		w.queueProperties(now, w.players[id], props.Rev, weapon, &props.Weapons[weapon])
	}
	w.stats.Commands++
	w.reap(now)
	return nil
}

// ---- teams (teams' [damage-groups], [teammate-stamp]) ----
//
// Team commands send nothing: the next relayed frames carry the new relation within a
// heartbeat, stamped per recipient.

func (w *World) teamResult(verb string, err error) error {
	if err != nil {
		return w.refuse(NoPlayer, verb, wrap(ErrTeam, err))
	}
	w.stats.Commands++
	return nil
}

// CreateTeam creates team id (1..teams.MaxTeams) with its name, color and friendly-fire flag.
func (w *World) CreateTeam(id teams.TeamID, def teams.Team) error {
	return w.teamResult("create_team", w.teams.CreateTeam(id, def))
}

// ChangeTeam replaces a team's name, color and friendly-fire flag.
func (w *World) ChangeTeam(id teams.TeamID, def teams.Team) error {
	_, err := w.teams.ChangeTeam(id, def)
	return w.teamResult("change_team", err)
}

// RemoveTeam removes a team; its members stay connected, in no team.
func (w *World) RemoveTeam(id teams.TeamID) error {
	_, err := w.teams.RemoveTeam(id)
	return w.teamResult("remove_team", err)
}

// SetFriendlyFire turns friendly fire within a team on or off: off, its members share the
// team's damage group and refuse each other's damage.
func (w *World) SetFriendlyFire(id teams.TeamID, on bool) error {
	_, err := w.teams.SetFriendlyFire(id, on)
	return w.teamResult("set_friendly_fire", err)
}

// JoinTeam puts a connected player into a team (leaving its old one).
func (w *World) JoinTeam(player PlayerID, id teams.TeamID) error {
	if w.conn(player) == nil {
		return w.refuse(player, "join_team", fmt.Errorf("%w: %d", ErrUnknownPlayer, player))
	}
	_, err := w.teams.JoinTeam(player, id)
	return w.teamResult("join_team", err)
}

// LeaveTeam takes a connected player out of its team.
func (w *World) LeaveTeam(player PlayerID) error {
	if w.conn(player) == nil {
		return w.refuse(player, "leave_team", fmt.Errorf("%w: %d", ErrUnknownPlayer, player))
	}
	_, err := w.teams.LeaveTeam(player)
	return w.teamResult("leave_team", err)
}

// ---- respawn policy ([respawn-policy]) ----

// DecideRespawn sets the gamemode's respawn decision for the death of life gen of a
// player (or its connect spawn): lifecycle.AllowAt, lifecycle.Hold, AtPoint. A request
// already waiting is granted by the next Tick once the decision allows it.
func (w *World) DecideRespawn(player PlayerID, gen uint16, d lifecycle.Decision) error {
	p := w.conn(player)
	if p == nil {
		return w.refuse(player, "decide_respawn", fmt.Errorf("%w: %d", ErrUnknownPlayer, player))
	}
	if err := w.life.DecideRespawn(p.handle, lifecycle.Generation(gen), d); err != nil {
		return w.refuse(player, "decide_respawn", wrap(ErrRespawn, err))
	}
	w.stats.Commands++
	return nil
}

// SetSpawnPoint sets a player's standing spawn point (the point of every grant whose
// decision names none). Facing is in degrees, as in SA-MP's SetSpawnInfo.
func (w *World) SetSpawnPoint(player PlayerID, pt lifecycle.SpawnPoint) error {
	p := w.conn(player)
	if p == nil {
		return w.refuse(player, "set_spawn_point", fmt.Errorf("%w: %d", ErrUnknownPlayer, player))
	}
	if err := validPosition(wire.Vec3(pt.Pos)); err != nil {
		return w.refuse(player, "set_spawn_point", err)
	}
	if err := w.life.SetSpawnPoint(p.handle, pt); err != nil {
		return w.refuse(player, "set_spawn_point", wrap(ErrRespawn, err))
	}
	w.stats.Commands++
	return nil
}

// ---- gamemode effects ----

// CreateExplosion is create_explosion: an explosion of the game's type at pos with radius
// (0 < radius <= 1000 m), credited to creator (NoPlayer for none). It is sent reliably to
// every connection, stamped with the creator's relation to each (teams' [teammate-stamp]: a server effect
// with a creator is stamped), and remembered for ExplosionWindow so the victims' reports
// (RefEffect) are credited to the creator. It returns the effect id.
func (w *World) CreateExplosion(now time.Duration, creator PlayerID, typ uint8, pos wire.Vec3, radius float32) (uint16, error) {
	m := &w.msgs.explosion
	*m = wire.CreateExplosion{Creator: creator, Type: typ, Position: pos, Radius: radius}
	return w.createEffect(now, "create_explosion", false, creator, pos, radius, m, func(id uint16, s wire.Stamp) {
		m.Effect, m.Stamp = id, s
	})
}

// CreateFire is create_fire: a fire at pos with radius, credited to creator (NoPlayer for
// none), burning for FireLifetime. Sent (with Age 0) and remembered like CreateExplosion;
// a connection that comes within its reach later gets it with its age ([stream-effects]).
func (w *World) CreateFire(now time.Duration, creator PlayerID, pos wire.Vec3, radius float32) (uint16, error) {
	m := &w.msgs.fire
	*m = wire.CreateFire{Creator: creator, Position: pos, Radius: radius}
	return w.createEffect(now, "create_fire", true, creator, pos, radius, m, func(id uint16, s wire.Stamp) {
		m.Effect, m.Stamp = id, s
	})
}

func (w *World) createEffect(now time.Duration, verb string, fire bool, creator PlayerID, pos wire.Vec3, radius float32, m wire.Message, set func(uint16, wire.Stamp)) (uint16, error) {
	if !w.advance(now) {
		return 0, w.refuse(creator, verb, fmt.Errorf("%w: %v before %v", ErrClockBackwards, now, w.now))
	}
	var join uint64
	if creator != NoPlayer {
		c := w.conn(creator)
		if c == nil {
			return 0, w.refuse(creator, verb, fmt.Errorf("%w: creator %d", ErrUnknownPlayer, creator))
		}
		join = c.joinSerial
	}
	if err := validPosition(pos); err != nil {
		return 0, w.refuse(creator, verb, err)
	}
	if !finite32(radius) {
		return 0, w.refuse(creator, verb, fmt.Errorf("%w: radius %v", ErrNotFinite, radius))
	}
	if radius <= 0 || radius > wire.MaxEffectRadius {
		return 0, w.refuse(creator, verb, fmt.Errorf("%w: radius %v not in (0, %d]", ErrOutOfRange, radius, wire.MaxEffectRadius))
	}
	id := w.effectID
	e := &w.effects[int(id)%MaxEffects]
	if e.live(now) {
		return 0, w.refuse(creator, verb, fmt.Errorf("%w: %d", ErrTooManyEffects, MaxEffects))
	}
	w.ids = w.effectAudience(w.ids[:0], pos, radius)
	if err := w.canQueueReach(m, w.ids); err != nil {
		return 0, w.refuse(creator, verb, err)
	}
	*e = effect{valid: true, fire: fire, id: id, creator: creator, join: join, pos: pos, radius: radius, at: now, serial: w.nextSerial()}
	w.effectID++
	slot := int(id) % MaxEffects
	w.clearEffect(slot)
	for _, r := range w.ids {
		p := w.players[r]
		w.markEffect(p, slot)
		set(id, wire.Stamp(w.teams.Stamp(creator, r)))
		w.queue(now, p, m)
	}
	if fire {
		w.litFire(slot)
	}
	w.stats.Commands++
	w.reap(now)
	return id, nil
}

// ---- vehicles and positions ----

// CreateVehicle creates vehicle id of a model (GTA San Andreas model ids; ModelPredator
// and ModelRhino have special guns) standing at pos with rotation rot, and starts its
// rewind history there. Nothing is sent: the protocol has no message that creates a
// vehicle on the clients (the host's world knows its vehicles).
func (w *World) CreateVehicle(now time.Duration, id uint16, model uint16, pos wire.Vec3, rot wire.Quat) error {
	const verb = "create_vehicle"
	if !w.advance(now) {
		return w.refuse(NoPlayer, verb, fmt.Errorf("%w: %v before %v", ErrClockBackwards, now, w.now))
	}
	if int(id) >= len(w.vehicles) {
		return w.refuse(NoPlayer, verb, fmt.Errorf("%w: %d not in 0..%d", ErrUnknownVehicle, id, len(w.vehicles)-1))
	}
	if w.vehicles[id].exists {
		return w.refuse(NoPlayer, verb, fmt.Errorf("%w: %d", ErrVehicleExists, id))
	}
	if !w.models.Known(model) {
		return w.refuse(NoPlayer, verb, fmt.Errorf("%w: model %d is not in the vehicle catalogue", ErrOutOfRange, model))
	}
	if err := validPosition(pos); err != nil {
		return w.refuse(NoPlayer, verb, err)
	}
	if err := validRotation(rot); err != nil {
		return w.refuse(NoPlayer, verb, err)
	}
	if err := w.rw.AddVehicle(now, rewind.VehicleID(id), rewind.Pose{Position: rewind.Vec3(pos), Rotation: rewind.Quat(rot)}); err != nil {
		return w.refuse(NoPlayer, verb, wrap(ErrOutOfRange, err))
	}
	w.vehicles[id] = vehicle{exists: true, model: model, pos: pos, rot: rot, health: 1000, seats: freeSeats(), hitBy: NoPlayer}
	w.vsVehiclePlaced(id, pos)
	w.vsOffer(now, id)
	w.stats.Commands++
	return nil
}

// vehicleCommand checks the clock, the vehicle, the pose and every lane for a vehicle verb.
func (w *World) vehicleCommand(now time.Duration, verb string, id uint16, m wire.Message) (*vehicle, error) {
	if !w.advance(now) {
		return nil, w.refuse(NoPlayer, verb, fmt.Errorf("%w: %v before %v", ErrClockBackwards, now, w.now))
	}
	v := w.vehicle(id)
	if v == nil {
		return nil, w.refuse(NoPlayer, verb, fmt.Errorf("%w: %d", ErrUnknownVehicle, id))
	}
	w.viewers = w.vehicleViewers(w.viewers[:0], id)
	for _, c := range w.viewers {
		if err := w.players[c].ep.CanQueue(m); err != nil {
			return nil, w.refuse(NoPlayer, verb, laneFull(c, err))
		}
	}
	return v, nil
}

// MoveVehicle is a gamemode move of a vehicle: SetVehiclePose to every connection, and
// the rewind histories of the vehicle and of the players sitting in it start anew there
// (rewind's [history-restarts]).
func (w *World) MoveVehicle(now time.Duration, id uint16, pos wire.Vec3, rot wire.Quat) error {
	return w.poseVehicle(now, "move_vehicle", id, pos, rot, false)
}

// RespawnVehicle puts a (wrecked or not) vehicle back at a pose: no longer wrecked, a new
// rewind history, and SetVehiclePose to every connection (ours: the protocol has no
// vehicle respawn message).
func (w *World) RespawnVehicle(now time.Duration, id uint16, pos wire.Vec3, rot wire.Quat) error {
	return w.poseVehicle(now, "respawn_vehicle", id, pos, rot, true)
}

func (w *World) poseVehicle(now time.Duration, verb string, id uint16, pos wire.Vec3, rot wire.Quat, respawn bool) error {
	if err := validPosition(pos); err != nil {
		return w.refuse(NoPlayer, verb, err)
	}
	if err := validRotation(rot); err != nil {
		return w.refuse(NoPlayer, verb, err)
	}
	m := &w.msgs.vpose
	*m = wire.SetVehiclePose{Vehicle: id, Position: pos, Rotation: rot}
	v, err := w.vehicleCommand(now, verb, id, m)
	if err != nil {
		return err
	}
	pose := rewind.Pose{Position: rewind.Vec3(pos), Rotation: rewind.Quat(rot)}
	if respawn {
		err = w.rw.RespawnVehicle(now, rewind.VehicleID(id), pose)
	} else {
		err = w.rw.MoveVehicle(now, rewind.VehicleID(id), pose)
	}
	if err != nil {
		return w.refuse(NoPlayer, verb, wrap(ErrOutOfRange, err))
	}
	v.pos, v.rot, v.vel = pos, rot, wire.Vec3{}
	if respawn {
		v.wrecked, v.boom, v.health, v.hitBy = false, explosion{}, 1000, NoPlayer
	}
	// The occupants keep their seats and move with the vehicle (their clients do the same
	// with SetVehiclePose).
	for _, c := range v.seats {
		if p := w.conn(c); p != nil {
			w.packageRefused(CallMovePlayer, c, w.rw.MovePlayer(now, c, rewind.Vec3(pos)))
			p.frame.pos = pos
			p.frame.placed = w.placedAtFrame(p) // the frame moved, not its place in the interest manager
		}
	}
	w.vsVehiclePlaced(id, pos)
	w.queueViewers(now, id, m)
	if respawn {
		w.vsReshow(now, id) // a wreck repaired: the copies are rebuilt
	}
	w.vsOffer(now, id) // those it now stands near get a show of the new pose instead
	w.stats.Commands++
	w.reap(now)
	return nil
}

// FreezeVehicle freezes or unfreezes a vehicle: SetVehicleFrozen to every connection; its
// rewind history starts anew, and a frozen vehicle is not rewound.
func (w *World) FreezeVehicle(now time.Duration, id uint16, frozen bool) error {
	m := &w.msgs.vfrozen
	*m = wire.SetVehicleFrozen{Vehicle: id, Frozen: frozen}
	v, err := w.vehicleCommand(now, "freeze_vehicle", id, m)
	if err != nil {
		return err
	}
	if err := w.rw.FreezeVehicle(now, rewind.VehicleID(id), frozen); err != nil {
		return w.refuse(NoPlayer, "freeze_vehicle", wrap(ErrOutOfRange, err))
	}
	v.frozen = frozen
	w.queueViewers(now, id, m)
	w.stats.Commands++
	w.reap(now)
	return nil
}

// SetPlayerPosition is a gamemode teleport: SetPlayerPosition to the player (facing in
// radians), and its rewind history starts anew at pos.
func (w *World) SetPlayerPosition(now time.Duration, id PlayerID, pos wire.Vec3, facing float32) error {
	const verb = "set_player_position"
	p, err := w.target(now, id)
	if err != nil {
		return w.refuse(id, verb, err)
	}
	if err := validPosition(pos); err != nil {
		return w.refuse(id, verb, err)
	}
	if !finite32(facing) {
		return w.refuse(id, verb, fmt.Errorf("%w: facing %v", ErrNotFinite, facing))
	}
	m := &w.msgs.position
	*m = wire.SetPlayerPosition{Position: pos, Facing: facing}
	if err := p.ep.CanQueue(m); err != nil {
		return w.refuse(id, verb, laneFull(id, err))
	}
	if err := w.rw.MovePlayer(now, id, rewind.Vec3(pos)); err != nil {
		return w.refuse(id, verb, wrap(ErrOutOfRange, err))
	}
	p.frame.pos = pos
	w.queue(now, p, m)
	w.streamPlace(now, p, pos)
	w.stats.Commands++
	w.reap(now)
	return nil
}

// ---- readbacks ----

// Connected reports whether a connection holds player slot id.
func (w *World) Connected(id PlayerID) bool { return w.conn(id) != nil }

// Players appends the connected player ids to dst in ascending order.
func (w *World) Players(dst []PlayerID) []PlayerID { return append(dst, w.conns...) }

// Token returns the player token of the connection on id.
func (w *World) Token(id PlayerID) (uint32, error) {
	p := w.conn(id)
	if p == nil {
		return 0, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	return uint32(p.handle.Token), nil
}

// Vitals returns the ledger's health and armor of the player's current life: what the
// gamemode reads and what the relay shows.
func (w *World) Vitals(id PlayerID) (vitals.Vitals, error) {
	p := w.conn(id)
	if p == nil {
		return vitals.Vitals{}, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	return p.vit.Ledger(), nil
}

// Health returns the ledger's health.
func (w *World) Health(id PlayerID) (float32, error) {
	v, err := w.Vitals(id)
	return v.Health, err
}

// Armor returns the ledger's armor.
func (w *World) Armor(id PlayerID) (float32, error) {
	v, err := w.Vitals(id)
	return v.Armor, err
}

// Weapons returns the readback of the player's 13 weapon slots (exact up to one frame
// interval).
func (w *World) Weapons(id PlayerID) ([inventory.NumSlots]inventory.Slot, error) {
	p := w.conn(id)
	if p == nil {
		return [inventory.NumSlots]inventory.Slot{}, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	return p.inv.Slots(), nil
}

// HeldWeapon returns the player's held weapon (0: fists).
func (w *World) HeldWeapon(id PlayerID) (uint8, error) {
	p := w.conn(id)
	if p == nil {
		return 0, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	return p.inv.Held(), nil
}

// Ammo returns the stored total of a weapon, and whether the player holds it.
func (w *World) Ammo(id PlayerID, weapon uint8) (uint16, bool, error) {
	p := w.conn(id)
	if p == nil {
		return 0, false, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	n, ok := p.inv.Ammo(weapon)
	return n, ok, nil
}

// WeaponRev returns the revision of the last weapon command queued for the player: the
// weapon_rev its frames echo once its client applied every weapon command.
func (w *World) WeaponRev(id PlayerID) (uint16, error) {
	p := w.conn(id)
	if p == nil {
		return 0, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	return p.inv.Rev(), nil
}

// Alive reports whether the server holds the player alive (what the relay stamps): alive,
// dying (counted, the report awaited) or respawning.
func (w *World) Alive(id PlayerID) bool {
	p := w.conn(id)
	if p == nil {
		return false
	}
	ph, err := w.life.Phase(p.handle)
	return err == nil && ph.Alive()
}

// Phase returns where the player's life stands in the lifecycle.
func (w *World) Phase(id PlayerID) (lifecycle.Phase, error) {
	p := w.conn(id)
	if p == nil {
		return 0, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	return w.life.Phase(p.handle)
}

// Generation returns the player's current life (death_epoch).
func (w *World) Generation(id PlayerID) (uint16, error) {
	if w.conn(id) == nil {
		return 0, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	s, err := w.life.Snapshot(id)
	return uint16(s.Gen), err
}

// RTT returns the connection's round-trip time as the rewind measures it, and false while
// none is measured.
func (w *World) RTT(id PlayerID) (time.Duration, bool) {
	if w.conn(id) == nil {
		return 0, false
	}
	return w.rw.RTT(id)
}

// Team returns the player's team (teams.NoTeam for none) and its damage group.
func (w *World) Team(id PlayerID) (teams.TeamID, uint16) {
	return w.teams.TeamOf(id), w.teams.Group(id)
}

// Teams returns the World's team registry, to read (change it through the verbs).
func (w *World) Teams() *teams.Registry { return w.teams }

// LaneStats returns the connection's reliable lane statistics.
func (w *World) LaneStats(id PlayerID) (lane.Stats, error) {
	p := w.conn(id)
	if p == nil {
		return lane.Stats{}, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	return p.ep.Lane().Stats(), nil
}

// VehiclePose returns where the server has vehicle id now (its driver's newest accepted
// frame, or the gamemode's create, move or respawn since), and false for no such vehicle.
// It is what a VehicleShow of the vehicle would carry.
func (w *World) VehiclePose(id uint16) (pos wire.Vec3, rot wire.Quat, ok bool) {
	v := w.vehicle(id)
	if v == nil {
		return wire.Vec3{}, wire.Quat{}, false
	}
	return v.pos, v.rot, true
}

// VehicleWrecked reports whether a vehicle exists and whether it is wrecked.
func (w *World) VehicleWrecked(id uint16) (exists, wrecked bool) {
	v := w.vehicle(id)
	if v == nil {
		return false, false
	}
	return true, v.wrecked
}
