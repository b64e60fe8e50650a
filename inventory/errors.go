package inventory

import "errors"

// The errors of the package. Every method that refuses its input returns one of these
// (possibly wrapped with detail through fmt.Errorf("%w: ...")), so errors.Is works, and
// leaves the state exactly as it was.
var (
	// ErrUnknownWeapon: the weapon id is outside the catalogue (47 and above for GTA San
	// Andreas).
	ErrUnknownWeapon = errors.New("inventory: unknown weapon")
	// ErrNotAWeapon: the id is in the catalogue but names no weapon a player can own
	// (the unused ids 19-21), or a command names the fists, which cannot be given,
	// taken or have ammo.
	ErrNotAWeapon = errors.New("inventory: not a weapon")
	// ErrNotOwned: the command names a weapon that is not in the player's store.
	ErrNotOwned = errors.New("inventory: weapon not in the store")
	// ErrClipAboveTotal: a SetWeaponAmmo clip larger than the total it is part of.
	ErrClipAboveTotal = errors.New("inventory: clip above the total")
	// ErrClipTooLarge: a SetWeaponAmmo clip larger than the weapon's largest clip.
	ErrClipTooLarge = errors.New("inventory: clip above the weapon's clip size")
	// ErrUnknownSkill: the skill stat selects the tier of no weapon of the catalogue.
	ErrUnknownSkill = errors.New("inventory: unknown skill stat")
	// ErrNoSkill: the weapon has no skill tiers (it always fires at the standard tier).
	ErrNoSkill = errors.New("inventory: weapon has no skill tiers")
	// ErrBadTier: a tier outside poor, standard and pro.
	ErrBadTier = errors.New("inventory: bad skill tier")
	// ErrPropertiesTooOld: the weapon properties revision is older than every revision
	// the catalogue still keeps (MaxPropertiesRevisions), or not comparable at all.
	ErrPropertiesTooOld = errors.New("inventory: weapon properties revision too old")
	// ErrPropertiesFuture: the weapon properties revision is newer than any revision
	// the catalogue has published.
	ErrPropertiesFuture = errors.New("inventory: weapon properties revision never published")
	// ErrPropertiesBusy: publishing now would drop a revision that shots in flight may
	// still name (it was superseded less than PropertiesHold ago). Nothing changed:
	// keep the table and publish it later.
	ErrPropertiesBusy = errors.New("inventory: too many weapon properties revisions in flight")
	// ErrNoDamage: the weapon has no damage figure in the table (melee, thrown and
	// special weapons in the GTA San Andreas data).
	ErrNoDamage = errors.New("inventory: weapon has no damage figure")
	// ErrBadTable: a weapon table that breaks a rule of Table (the wrapped message names
	// the weapon and the field).
	ErrBadTable = errors.New("inventory: bad weapon table")
	// ErrTableStructure: a new properties revision changes what the stores depend on
	// (a weapon's kind, slot, pooling or skill stat), which only a new Catalog may do.
	ErrTableStructure = errors.New("inventory: weapon table changes the store's structure")
	// ErrBadConfig: a Config field outside its range.
	ErrBadConfig = errors.New("inventory: bad config")
	// ErrFutureRevision: an acknowledged revision newer than any command the store made.
	ErrFutureRevision = errors.New("inventory: revision newer than any command")
)
