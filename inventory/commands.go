package inventory

import (
	"fmt"
	"strconv"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
)

// The five weapon commands. Each method validates its input first (an error changes
// nothing and takes no revision), then takes the player's next revision, commits the
// command to the store and returns the message for the host to send. Call a method at
// the moment its packet is queued on the player's reliable lane, and send every message
// it returns: the client echoes the revision it applied last, the revision gate is
// strict equality, and a revision that never travels would close the gate for good.

// GiveWeapon is the message of Inventory.Give.
type GiveWeapon struct {
	// Rev is the player's inventory revision this command takes.
	Rev uint16
	// Weapon is the weapon given.
	Weapon uint8
	// Ammo is the number of rounds given (added to the total by the game's rules).
	Ammo uint16
	// SetAsCurrent makes the weapon the held one.
	SetAsCurrent bool
}

// String returns "GiveWeapon rev=3 weapon=31 ammo=100 current=true".
func (m GiveWeapon) String() string {
	return "GiveWeapon rev=" + strconv.Itoa(int(m.Rev)) + " weapon=" + strconv.Itoa(int(m.Weapon)) +
		" ammo=" + strconv.Itoa(int(m.Ammo)) + " current=" + strconv.FormatBool(m.SetAsCurrent)
}

// TakeWeapon is the message of Inventory.Take.
type TakeWeapon struct {
	// Rev is the player's inventory revision this command takes.
	Rev uint16
	// Weapon is the weapon taken.
	Weapon uint8
}

// String returns "TakeWeapon rev=3 weapon=31".
func (m TakeWeapon) String() string {
	return "TakeWeapon rev=" + strconv.Itoa(int(m.Rev)) + " weapon=" + strconv.Itoa(int(m.Weapon))
}

// SetWeaponAmmo is the message of Inventory.SetAmmo. Clip is ClipNotSet when the
// command leaves the clip alone.
type SetWeaponAmmo struct {
	// Rev is the player's inventory revision this command takes.
	Rev uint16
	// Weapon is the weapon whose ammo is set.
	Weapon uint8
	// Total is the new total.
	Total uint16
	// Clip is the new clip, or ClipNotSet.
	Clip uint16
}

// String returns "SetWeaponAmmo rev=3 weapon=31 total=50 clip=unset".
func (m SetWeaponAmmo) String() string {
	clip := "unset"
	if m.Clip != ClipNotSet {
		clip = strconv.Itoa(int(m.Clip))
	}
	return "SetWeaponAmmo rev=" + strconv.Itoa(int(m.Rev)) + " weapon=" + strconv.Itoa(int(m.Weapon)) +
		" total=" + strconv.Itoa(int(m.Total)) + " clip=" + clip
}

// ClearWeapons is the message of Inventory.Clear.
type ClearWeapons struct {
	// Rev is the player's inventory revision this command takes.
	Rev uint16
}

// String returns "ClearWeapons rev=3".
func (m ClearWeapons) String() string { return "ClearWeapons rev=" + strconv.Itoa(int(m.Rev)) }

// SetArmedWeapon is the message of Inventory.SetArmed.
type SetArmedWeapon struct {
	// Rev is the player's inventory revision this command takes.
	Rev uint16
	// Weapon is the weapon to hold (Fists for the bare hands).
	Weapon uint8
}

// String returns "SetArmedWeapon rev=3 weapon=0".
func (m SetArmedWeapon) String() string {
	return "SetArmedWeapon rev=" + strconv.Itoa(int(m.Rev)) + " weapon=" + strconv.Itoa(int(m.Weapon))
}

// ownable checks that weapon is a catalogue weapon a player can own (not the fists).
func (inv *Inventory) ownable(weapon uint8) error {
	if err := inv.cat.checkWeapon(weapon); err != nil {
		return err
	}
	switch inv.cat.kind[weapon] {
	case KindNone:
		return fmt.Errorf("%w: %d", ErrNotAWeapon, weapon)
	case KindFist:
		return fmt.Errorf("%w: the fists", ErrNotAWeapon)
	}
	return nil
}

// nextRev takes the player's next revision.
func (inv *Inventory) nextRev() uint16 {
	inv.rev = revision.Next(inv.rev)
	return inv.rev
}

// satAdd adds two totals, capped at MaxWeaponAmmo.
func satAdd(a, b uint16) uint16 {
	if s := uint32(a) + uint32(b); s < MaxWeaponAmmo {
		return uint16(s)
	}
	return MaxWeaponAmmo
}

// Give gives weapon with ammo rounds, as the game does:
//
//   - the same weapon again adds ammo to its total;
//   - a different weapon into a slot whose weapons share ammo (Weapon.Pooled: shotguns,
//     submachine guns, assault rifles) replaces the weapon and carries the displaced
//     total over to the new one;
//   - any other slot is replaced, the old weapon and its ammo are gone;
//   - totals are capped at MaxWeaponAmmo (a give of the same weapon that reaches the
//     cap then overwrites the client's count, as SetAmmo does: shots the client fired
//     before applying it are not charged);
//   - the clip is refilled from the total, as the game's reload does: min(total, clip
//     size at the player's tier) when the total is above 0;
//   - setAsCurrent makes the weapon the held one; otherwise the held slot stays (if
//     the give replaced the held weapon, its successor in the slot is held, as in the
//     game, which holds a slot, not a weapon).
//
// Errors: ErrUnknownWeapon, ErrNotAWeapon (19-21, the fists).
//
// Rules: [give-rules], [weapon-revision].
func (inv *Inventory) Give(now time.Duration, weapon uint8, ammo uint16, setAsCurrent bool) (GiveWeapon, error) {
	if err := inv.ownable(weapon); err != nil {
		return GiveWeapon{}, err
	}
	rev := inv.nextRev()
	sl := inv.cat.slot[weapon]
	s := inv.slot(sl)
	capped := uint32(s.total)+uint32(ammo) > MaxWeaponAmmo
	switch {
	case s.weapon == weapon:
		if capped {
			// Capped: the client ends at the cap too, whatever it fired before it
			// applied the give, so the give overwrites its count like SetAmmo.
			inv.displace(now, s, rev, true)
			s.credit = 0
		}
		s.total = satAdd(s.total, ammo)
	case s.weapon != Fists && inv.pooled(weapon) && !capped:
		// The slot pools its ammo: the new weapon carries the old one's total over, and
		// the rounds a frame already counted for old shots still in flight with it. The
		// old weapon's shots fired before the client applied the give spend from that
		// total: the client's count after the give no longer holds them either.
		inv.displace(now, s, rev, false)
		*s = slotState{weapon: weapon, total: s.total + ammo, credit: s.credit, creditUntil: s.creditUntil}
	default:
		// Replaced (or carried over to the cap, which overwrites the count as above).
		var carried uint16
		if s.weapon != Fists {
			if inv.pooled(weapon) {
				carried = s.total
			}
			inv.displace(now, s, rev, true)
		}
		*s = slotState{weapon: weapon, total: satAdd(ammo, carried)}
	}
	if s.total > 0 {
		s.clip = min(s.total, inv.cat.current()[weapon].Clip[inv.SkillTier(weapon)])
	}
	if setAsCurrent {
		inv.setActive(sl)
	}
	return GiveWeapon{Rev: rev, Weapon: weapon, Ammo: ammo, SetAsCurrent: setAsCurrent}, nil
}

// Take removes weapon from its slot; if it was held, the fists are held.
// Errors: ErrUnknownWeapon, ErrNotAWeapon, ErrNotOwned.
//
// Rules: [weapon-revision].
func (inv *Inventory) Take(now time.Duration, weapon uint8) (TakeWeapon, error) {
	if err := inv.ownable(weapon); err != nil {
		return TakeWeapon{}, err
	}
	s := inv.slotOf(weapon)
	if s == nil {
		return TakeWeapon{}, fmt.Errorf("%w: %d", ErrNotOwned, weapon)
	}
	rev := inv.nextRev()
	inv.displace(now, s, rev, true)
	*s = slotState{}
	if inv.active == inv.cat.slot[weapon] {
		inv.setActive(0)
	}
	return TakeWeapon{Rev: rev, Weapon: weapon}, nil
}

// SetAmmo sets the total of an owned weapon (0 keeps the weapon, empty). clip is the
// new clip, or ClipNotSet to keep the clip (cut to the new total).
// Errors: ErrUnknownWeapon, ErrNotAWeapon, ErrNotOwned, ErrClipAboveTotal,
// ErrClipTooLarge (above the weapon's largest clip size in the newest properties).
//
// Rules: [give-rules], [weapon-revision].
func (inv *Inventory) SetAmmo(now time.Duration, weapon uint8, total, clip uint16) (SetWeaponAmmo, error) {
	if err := inv.ownable(weapon); err != nil {
		return SetWeaponAmmo{}, err
	}
	s := inv.slotOf(weapon)
	if s == nil {
		return SetWeaponAmmo{}, fmt.Errorf("%w: %d", ErrNotOwned, weapon)
	}
	if clip != ClipNotSet {
		if clip > total {
			return SetWeaponAmmo{}, fmt.Errorf("%w: clip %d total %d", ErrClipAboveTotal, clip, total)
		}
		sizes := inv.cat.current()[weapon].Clip
		if clip > max(sizes[0], sizes[1], sizes[2]) {
			return SetWeaponAmmo{}, fmt.Errorf("%w: clip %d", ErrClipTooLarge, clip)
		}
	}
	rev := inv.nextRev()
	inv.displace(now, s, rev, true)
	newClip := clip
	if clip == ClipNotSet {
		newClip = min(s.clip, total)
	}
	*s = slotState{weapon: weapon, total: total, clip: newClip}
	return SetWeaponAmmo{Rev: rev, Weapon: weapon, Total: total, Clip: clip}, nil
}

// Clear empties every slot; the fists are held.
//
// Rules: [weapon-revision].
func (inv *Inventory) Clear(now time.Duration) ClearWeapons {
	rev := inv.nextRev()
	for i := range int8(NumSlots) {
		s := inv.slot(i)
		if s.weapon != Fists {
			inv.displace(now, s, rev, true)
		}
		*s = slotState{}
	}
	inv.setActive(0)
	return ClearWeapons{Rev: rev}
}

// SetArmed makes weapon the held one (Fists: the bare hands, or what slot 0 holds).
// Errors: ErrUnknownWeapon, ErrNotAWeapon (19-21), ErrNotOwned.
//
// Rules: [weapon-revision].
func (inv *Inventory) SetArmed(now time.Duration, weapon uint8) (SetArmedWeapon, error) {
	if err := inv.cat.checkWeapon(weapon); err != nil {
		return SetArmedWeapon{}, err
	}
	if inv.cat.kind[weapon] == KindNone {
		return SetArmedWeapon{}, fmt.Errorf("%w: %d", ErrNotAWeapon, weapon)
	}
	if weapon != Fists && inv.slotOf(weapon) == nil {
		return SetArmedWeapon{}, fmt.Errorf("%w: %d", ErrNotOwned, weapon)
	}
	rev := inv.nextRev()
	inv.setActive(inv.cat.slot[weapon])
	return SetArmedWeapon{Rev: rev, Weapon: weapon}, nil
}
