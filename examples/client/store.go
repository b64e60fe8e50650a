package client

import (
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// store is the client's weapon store: the game's 13 slots and the held slot. Its give rules
// are the game's, the same the server's inventory package follows
// (inventory's [give-rules]), so the two stores agree command for command; a property test
// runs both on the same random commands.
type store struct {
	slots  [inventory.NumSlots]inventory.Slot
	active int8 // the held slot: the game holds a slot, not a weapon
}

// held is the held weapon (0: fists, or what slot 0 holds).
func (s *store) held() uint8 { return s.slots[s.active].Weapon }

// slotOf returns the slot holding weapon, or nil (also for the fists).
func (s *store) slotOf(t *inventory.Table, weapon uint8) *inventory.Slot {
	if weapon == inventory.Fists || int(weapon) >= inventory.NumWeapons {
		return nil
	}
	sl := t[weapon].Slot
	if sl < 0 || s.slots[sl].Weapon != weapon {
		return nil
	}
	return &s.slots[sl]
}

// owns reports whether weapon is in the store (the fists always are).
func (s *store) owns(t *inventory.Table, weapon uint8) bool {
	return weapon == inventory.Fists || s.slotOf(t, weapon) != nil
}

// ownable reports whether a command may name weapon as something to own: a weapon of the
// table that is neither the fists nor one of the ids that are no weapon.
func ownable(t *inventory.Table, weapon uint8) bool {
	if int(weapon) >= inventory.NumWeapons {
		return false
	}
	k := t[weapon].Kind
	return k != inventory.KindNone && k != inventory.KindFist
}

// satAdd adds two totals, capped at inventory.MaxWeaponAmmo.
func satAdd(a, b uint16) uint16 {
	if s := uint32(a) + uint32(b); s < inventory.MaxWeaponAmmo {
		return uint16(s)
	}
	return inventory.MaxWeaponAmmo
}

// give applies GiveWeapon by the game's rules: the same weapon again adds its ammo; a
// different weapon into a slot whose weapons pool their ammo (shotguns, submachine guns,
// assault rifles) carries the displaced total over; any other slot is replaced. Totals
// stop at 65535. A give with rounds refills the clip from the total, as a reload does.
// setCurrent makes the weapon the held one.
func (s *store) give(t *inventory.Table, clip func(uint8) uint16, weapon uint8, ammo uint16, setCurrent bool) bool {
	if !ownable(t, weapon) {
		return false
	}
	sl := t[weapon].Slot
	sp := &s.slots[sl]
	if sp.Weapon == weapon {
		sp.Total = satAdd(sp.Total, ammo)
	} else {
		var carried uint16
		if sp.Weapon != inventory.Fists && t[weapon].Pooled {
			carried = sp.Total
		}
		*sp = inventory.Slot{Weapon: weapon, Total: satAdd(ammo, carried)}
	}
	if sp.Total > 0 {
		sp.Clip = min(sp.Total, clip(weapon))
	}
	if setCurrent {
		s.active = sl
	}
	return true
}

// take applies TakeWeapon: the weapon leaves its slot; if it was held, the fists are.
func (s *store) take(t *inventory.Table, weapon uint8) bool {
	if !ownable(t, weapon) {
		return false
	}
	sp := s.slotOf(t, weapon)
	if sp == nil {
		return false
	}
	*sp = inventory.Slot{}
	if s.active == t[weapon].Slot {
		s.active = 0
	}
	return true
}

// setAmmo applies SetWeaponAmmo: the total of an owned weapon, and its clip unless clip is
// wire.NoClip (then the clip is cut to the new total).
func (s *store) setAmmo(t *inventory.Table, weapon uint8, total, clip uint16) bool {
	if !ownable(t, weapon) {
		return false
	}
	sp := s.slotOf(t, weapon)
	if sp == nil {
		return false
	}
	newClip := clip
	if clip == wire.NoClip {
		newClip = min(sp.Clip, total)
	} else {
		sizes := t[weapon].Clip
		if clip > total || clip > max(sizes[0], sizes[1], sizes[2]) {
			return false
		}
	}
	*sp = inventory.Slot{Weapon: weapon, Total: total, Clip: newClip}
	return true
}

// clear applies ClearWeapons, and the revival's own clear.
func (s *store) clear() { *s = store{} }

// setArmed applies SetArmedWeapon: an owned weapon (or the fists: slot 0) becomes held.
func (s *store) setArmed(t *inventory.Table, weapon uint8) bool {
	if int(weapon) >= inventory.NumWeapons || t[weapon].Kind == inventory.KindNone {
		return false
	}
	if weapon != inventory.Fists && s.slotOf(t, weapon) == nil {
		return false
	}
	s.active = t[weapon].Slot
	return true
}
