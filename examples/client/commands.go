package client

import (
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// The server's commands arrive on the reliable lane, in the order the server queued them,
// and the client applies each at once, in that order: health, armor and weapon commands
// form one ordered queue (vitals' [one-command-queue]: set_health(50) then add_health(25, 100) gives 75).

// clampVital keeps a health or armor value in 0..wire.MaxVital (MAX_VITAL_SET, vitals' [one-command-queue]).
func clampVital(v float32) float32 {
	switch {
	case v < 0:
		return 0
	case v > wire.MaxVital:
		return wire.MaxVital
	}
	return v
}

// vitalCommand applies SetHealth, SetArmor, GiveHealth or GiveArmor. The revision is
// taken whatever happens: applied while alive, dropped while dead (or before the first
// spawn), so the echo moves on either way (vitals' [one-command-queue]: a client drops a set or an add that
// arrives while its player is dead, and still takes its revision).
func (c *Client) vitalCommand(id wire.ID, rev uint16, value, ceiling float32) {
	c.counters.VitalCommands++
	if c.alive {
		// Sums still open report now, before the command: their damage came before it,
		// they claim what was left before it, and they echo the revision before it.
		c.flushSums(nil)
	}
	c.vitalRev = rev
	e := CommandEntry{At: c.now, Rev: rev, Kind: id, Value: value, Max: ceiling}
	if !c.alive {
		c.counters.CommandsDropped++
		e.Dropped = true
		e.Health, e.Armor = c.health, c.armor
		c.commandLog.Push(e)
		return
	}
	c.counters.CommandsApplied++
	switch id {
	case wire.IDSetHealth:
		c.health = clampVital(value)
	case wire.IDSetArmor:
		c.armor = clampVital(value)
	case wire.IDGiveHealth:
		// An add goes up to its ceiling and never lowers (a reward must not erase fresh
		// damage).
		if top := clampVital(ceiling); c.health < top {
			c.health = min(c.health+value, top)
		}
	case wire.IDGiveArmor:
		if top := clampVital(ceiling); c.armor < top {
			c.armor = min(c.armor+value, top)
		}
	}
	e.Health, e.Armor = c.health, c.armor
	c.commandLog.Push(e)
	if id == wire.IDSetHealth && c.health <= 0 {
		// set_health(0) on a living player kills it through the normal death path: the
		// DeathReport follows (no damage report: nothing hit it).
		c.die(wire.NoPlayer, lifecycle.CauseUnknown, lifecycle.PoseDefault, 0)
	}
}

// weaponCommand applies one of the five weapon commands by the game's rules. The echo
// (weapon_rev) moves only when the command applied: a failed apply leaves it, so the
// server keeps ignoring a client whose store diverged (inventory's [weapon-revision]).
func (c *Client) weaponCommand(rev uint16, ok bool) {
	c.counters.WeaponCommands++
	if !ok {
		c.counters.CommandsFailed++
		return
	}
	c.counters.CommandsApplied++
	c.weaponRev = rev
}

func (c *Client) onGiveWeapon(m *wire.GiveWeapon) {
	c.weaponCommand(m.Rev, c.store.give(&c.table, c.clipSize, m.Weapon, m.Ammo, m.SetAsCurrent))
}

func (c *Client) onTakeWeapon(m *wire.TakeWeapon) {
	c.weaponCommand(m.Rev, c.store.take(&c.table, m.Weapon))
	c.stopSprayIfGone()
}

func (c *Client) onSetWeaponAmmo(m *wire.SetWeaponAmmo) {
	c.weaponCommand(m.Rev, c.store.setAmmo(&c.table, m.Weapon, m.Total, m.Clip))
	c.stopSprayIfGone()
}

func (c *Client) onClearWeapons(m *wire.ClearWeapons) {
	c.store.clear()
	c.weaponCommand(m.Rev, true)
	c.stopSprayIfGone()
}

func (c *Client) onSetArmedWeapon(m *wire.SetArmedWeapon) {
	c.weaponCommand(m.Rev, c.store.setArmed(&c.table, m.Weapon))
	c.stopSprayIfGone()
}

// onWeaponProperties replaces the weapon's damage and range in the client's table and
// remembers the revision: every later shot names it, so the server floors the hit with
// the numbers the shooter had (vitals' [damage-floor]).
func (c *Client) onWeaponProperties(m *wire.WeaponProperties) {
	if int(m.Weapon) >= inventory.NumWeapons {
		return
	}
	w := &c.table[m.Weapon]
	w.Damage = [inventory.NumTiers]float32{m.DamagePoor, m.DamageStd, m.DamagePro}
	if m.DamagePoor != 0 || m.DamageStd != 0 || m.DamagePro != 0 {
		w.HasDamage = true
	}
	w.Range = m.Range
	c.propsRev = m.Rev
}

// onSetWeaponSkill sets the tier of one weapon skill (SA-MP numbering 0..10, the game's
// stats 69..79): it decides the clip size of the weapons of that skill.
func (c *Client) onSetWeaponSkill(m *wire.SetWeaponSkill) {
	if int(m.Skill) < numSkills {
		c.tiers[m.Skill] = SkillTier(m.Level)
	}
}

// tier returns the skill tier weapon fires at: its skill's, or the standard tier for a
// weapon without tiers.
func (c *Client) tier(weapon uint8) inventory.Tier {
	if int(weapon) >= inventory.NumWeapons {
		return inventory.TierStd
	}
	st := c.table[weapon].Skill
	if st == inventory.NoSkill {
		return inventory.TierStd
	}
	if i := int(st) - int(inventory.SkillPistol); i >= 0 && i < numSkills {
		return c.tiers[i]
	}
	return inventory.TierStd
}

// clipSize is weapon's clip at the player's tier.
func (c *Client) clipSize(weapon uint8) uint16 {
	if int(weapon) >= inventory.NumWeapons {
		return 0
	}
	return c.table[weapon].Clip[c.tier(weapon)]
}

// onSetPlayerPosition moves the player (a gamemode teleport); it leaves any vehicle.
func (c *Client) onSetPlayerPosition(m *wire.SetPlayerPosition) {
	c.leaveSeat()
	c.pos, c.facing, c.vel = m.Position, m.Facing, wire.Vec3{}
	c.event(Event{Kind: EventTeleported, Position: m.Position, Facing: m.Facing, Vehicle: wire.NoVehicle})
}

// onSetVehiclePose moves the vehicle, and the player with it when it sits inside.
func (c *Client) onSetVehiclePose(m *wire.SetVehiclePose) {
	c.vehiclePosed(m)
	if !c.veh.in || c.veh.vehicle != m.Vehicle {
		return
	}
	c.veh.pose = VehiclePose{Position: m.Position, Rotation: m.Rotation}
	c.pos, c.vel = m.Position, wire.Vec3{}
	c.event(Event{Kind: EventVehicleMoved, Position: m.Position, Vehicle: m.Vehicle})
}

// onSetVehicleFrozen remembers which vehicles the server froze.
func (c *Client) onSetVehicleFrozen(m *wire.SetVehicleFrozen) {
	c.setFrozen(m.Vehicle, m.Frozen)
	c.vehicleFrozen(m.Vehicle, m.Frozen)
}

func (c *Client) setFrozen(vehicle uint16, frozen bool) {
	word, bit := vehicle/64, uint64(1)<<(vehicle%64)
	if frozen {
		c.frozen[word] |= bit
	} else {
		c.frozen[word] &^= bit
	}
}

// Frozen reports whether the server froze vehicle.
func (c *Client) Frozen(vehicle uint16) bool {
	return c.frozen[vehicle/64]&(uint64(1)<<(vehicle%64)) != 0
}
