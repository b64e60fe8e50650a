package inventory

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/arbitergo/arbiter/internal/causes"
	"github.com/arbitergo/arbiter/internal/revision"
)

// Sizes of the catalogue and the store.
const (
	// NumWeapons is the number of weapon ids of the catalogue: 0..46 in GTA San Andreas.
	NumWeapons = 47
	// NumSlots is the number of weapon slots of a player (0..12).
	NumSlots = 13
	// NumTiers is the number of skill tiers (poor, standard, pro).
	NumTiers = 3
	// Fists is weapon 0: always at hand, never given, taken or counted.
	Fists uint8 = 0
	// NoSlot is the slot of a catalogue id that is no weapon (19-21 in GTA San Andreas).
	NoSlot int8 = -1
	// MaxWeaponAmmo caps every total (MAX_WEAPON_AMMO): every legal total fits the u16
	// total of a frame, so the merge never mistakes a clamped value for spent ammo.
	MaxWeaponAmmo = math.MaxUint16
	// ClipNotSet is the SetWeaponAmmo clip meaning "leave the clip alone" (0xFFFF).
	ClipNotSet uint16 = 0xFFFF
)

// Weapon properties revisions.
const (
	// MaxPropertiesRevisions is how many weapon properties revisions a Catalog keeps
	// (the newest and the ones before it), so a shot fired under an older revision is
	// still judged, and floored, with the numbers it was fired under.
	MaxPropertiesRevisions = 32
	// PropertiesHold is how long a superseded revision must stay servable: a client
	// fires under the last revision it applied until the newer one reaches it over the
	// reliable lane, which gives up on a connection after 15 s; the rest covers the
	// flight of the shot. Catalog.Update refuses (ErrPropertiesBusy) rather than drop a
	// revision superseded less than PropertiesHold ago.
	PropertiesHold = 20 * time.Second
)

// The ring index of a revision is rev % MaxPropertiesRevisions; it stays contiguous
// across the 16-bit wrap only if the ring size divides 65536.
var _ [0]struct{} = [(1 << 16) % MaxPropertiesRevisions]struct{}{}

//go:generate go tool stringer -type=Kind,Tier,SkillStat -linecomment

// Kind is what a weapon does, which decides the inputs it may appear in.
type Kind uint8

// The kinds of weapon.
const (
	// KindNone marks a catalogue id that is no weapon (19-21: the game uses them for
	// projectile types). Nothing can give, hold or fire it.
	KindNone Kind = iota // none
	// KindFist is weapon 0, the bare fists.
	KindFist // fist
	// KindMelee is a hand weapon (1-15): no ammo is spent.
	KindMelee // melee
	// KindBullet is an instant-hit gun whose trigger pulls arrive as WeaponShot.
	KindBullet // bullet
	// KindProjectile is thrown or launched (grenades, molotovs, satchels, rockets).
	KindProjectile // projectile
	// KindContinuous sprays while the fire key is held (flamethrower, spraycan,
	// extinguisher) and sends no shots.
	KindContinuous // continuous
	// KindOther is the rest (detonator, camera, goggles, parachute).
	KindOther // other
	numKinds
)

// needsAmmo reports whether a weapon of this kind can be used only with rounds left.
// Fists and melee weapons never run dry.
func (k Kind) needsAmmo() bool { return k != KindFist && k != KindMelee }

// Tier is a weapon skill tier. The order is the game's: poor, standard, pro.
type Tier uint8

// The skill tiers.
const (
	// TierPoor is the lowest tier (the game's "poor"), the tier of a new connection.
	TierPoor Tier = iota // poor
	// TierStd is the standard tier, the tier of every weapon without skill tiers.
	TierStd // std
	// TierPro is the highest tier (the game's "hitman").
	TierPro // pro
)

// SkillStat is the game stat that selects a weapon's skill tier, by the game's stat id.
type SkillStat uint8

// The skill stats of GTA San Andreas (stat ids 69-79). Uzi and Tec-9 share one.
const (
	// NoSkill: the weapon has no tiers and always fires at TierStd.
	NoSkill SkillStat = 0 // no skill
	// SkillPistol is PISTOL_SKILL (Colt 45).
	SkillPistol SkillStat = 69 // PISTOL_SKILL
	// SkillSilenced is SILENCED_PISTOL_SKILL.
	SkillSilenced SkillStat = 70 // SILENCED_PISTOL_SKILL
	// SkillDesertEagle is DESERT_EAGLE_SKILL.
	SkillDesertEagle SkillStat = 71 // DESERT_EAGLE_SKILL
	// SkillShotgun is SHOTGUN_SKILL.
	SkillShotgun SkillStat = 72 // SHOTGUN_SKILL
	// SkillSawnOff is SAWN_OFF_SHOTGUN_SKILL.
	SkillSawnOff SkillStat = 73 // SAWN_OFF_SHOTGUN_SKILL
	// SkillCombatShotgun is COMBAT_SHOTGUN_SKILL.
	SkillCombatShotgun SkillStat = 74 // COMBAT_SHOTGUN_SKILL
	// SkillMachinePistol is MACHINE_PISTOL_SKILL, shared by the Uzi and the Tec-9.
	SkillMachinePistol SkillStat = 75 // MACHINE_PISTOL_SKILL
	// SkillSMG is SMG_SKILL (MP5).
	SkillSMG SkillStat = 76 // SMG_SKILL
	// SkillAK47 is AK_47_SKILL.
	SkillAK47 SkillStat = 77 // AK_47_SKILL
	// SkillM4 is M4_SKILL.
	SkillM4 SkillStat = 78 // M4_SKILL
)

// Weapon is one row of the catalogue.
//
// Kind, Slot, Pooled, Skill, StealthKill, Cause, Flies and Sticks are the structure every store depends on: they are fixed
// for the life of a Catalog. The rest are properties the gamemode may change through a
// new revision (Catalog.Update).
type Weapon struct {
	// Name is for people (logs, tests); nothing depends on it.
	Name string
	// Kind decides which inputs the weapon may appear in.
	Kind Kind
	// Slot is the weapon slot 0..12, or NoSlot for KindNone (whose other fields but
	// the name must be zero).
	Slot int8
	// Pooled: a different weapon given into this slot carries the displaced weapon's
	// total over (the game does it for shotguns, submachine guns and assault rifles).
	// Every weapon of one slot must agree.
	Pooled bool
	// Skill is the stat that selects the tier, or NoSkill.
	Skill SkillStat
	// Clip is the clip size per tier (indexed by Tier). At most ClipNotSet-1.
	Clip [NumTiers]uint16
	// HasDamage tells whether Damage holds figures; without them Damage must be zero.
	HasDamage bool
	// Damage is the raw per-hit damage per tier (per pellet for shotguns), before the
	// game's 0.33 factor for a player victim (the vitals package applies it).
	Damage [NumTiers]float32
	// Pellets per trigger pull for shotguns; 0 means a single bullet.
	Pellets uint8
	// StatRange is the game's own range figure (metres), 0 when there is none. Kept for
	// reference; validation uses Range.
	StatRange float32
	// Range is the generous server-side maximum length of a shot's ray (metres).
	// A KindBullet weapon needs Range > 0.
	Range float32
	// MinInterval is the fastest allowed gap between two shots (or blows) of the weapon;
	// 0 means the weapon is not rate-checked.
	MinInterval time.Duration
	// Credits is how many hit reports one shot may credit per victim
	// ([credits-per-shot]); 0 means one per pellet. Only a KindBullet weapon may set it,
	// and never below its pellets.
	Credits uint8
	// StealthKill: the weapon can kill from behind in one move (the knife). Only a
	// KindMelee weapon may set it. Fixed for the life of a Catalog.
	StealthKill bool
	// Cause is the damage cause the weapon's damage arrives with ([weapon-causes]): a
	// KindProjectile's detonation (CauseExplosion, or CauseFire for the molotov, whose
	// detonation may also be reported as an explosion) and a KindContinuous weapon's
	// spray (CauseFire, CauseSpraycan, CauseExtinguisher); 0 for every other kind. Fixed
	// for the life of a Catalog.
	Cause uint8
	// Flies: the weapon's projectiles fly on under their own power until they hit (the
	// rockets); a thrown projectile lands within its Range. Only a KindProjectile weapon
	// may set it. Fixed for the life of a Catalog.
	Flies bool
	// Sticks: the weapon's projectiles stick to what they land on and may ride a vehicle
	// away (the satchel charge). Only a KindProjectile weapon may set it. Fixed for the
	// life of a Catalog.
	Sticks bool
}

// The damage causes besides the weapon ids 0..46 (SA-MP's numbering): the one set of
// cause names of arbiter, the same ids vitals and lifecycle name.
const (
	CauseFire         = causes.Fire         // fire, with or without a flamethrower
	CauseSpraycan     = causes.Spraycan     // the spraycan
	CauseExtinguisher = causes.Extinguisher // the fire extinguisher
	CauseVehicle      = causes.Vehicle      // ramming, running over
	CauseRotor        = causes.Rotor        // helicopter blades
	CauseExplosion    = causes.Explosion    // any explosion
	CauseDrowning     = causes.Drowning     // drowning
	CauseFall         = causes.Fall         // a fall or a collision ("splat")
)

// Table is a whole catalogue: one Weapon per id 0..NumWeapons-1.
type Table [NumWeapons]Weapon

// validateTable checks every rule of Table and Weapon.
func validateTable(t *Table) error {
	var slotPooled [NumSlots]int8 // 0 unseen, 1 not pooled, 2 pooled
	for id := range t {
		w := &t[id]
		bad := func(field, why string) error {
			return fmt.Errorf("%w: weapon %d (%s) %s %s", ErrBadTable, id, w.Name, field, why)
		}
		if w.Kind >= numKinds {
			return bad("kind", "unknown")
		}
		if (id == int(Fists)) != (w.Kind == KindFist) {
			return bad("kind", "fist must be weapon 0 and weapon 0 the fist")
		}
		if w.Kind == KindNone {
			if *w != (Weapon{Name: w.Name, Kind: KindNone, Slot: NoSlot}) {
				return bad("fields", "must be empty (slot NoSlot) for a non-weapon")
			}
			continue
		}
		if w.Slot < 0 || w.Slot >= NumSlots {
			return bad("slot", "outside 0..12")
		}
		if w.Kind == KindFist && w.Slot != 0 {
			return bad("slot", "the fist lives in slot 0")
		}
		p := int8(1)
		if w.Pooled {
			p = 2
		}
		if slotPooled[w.Slot] != 0 && slotPooled[w.Slot] != p {
			return bad("pooled", "disagrees with another weapon of its slot")
		}
		slotPooled[w.Slot] = p
		for tier := range NumTiers {
			if w.Clip[tier] >= ClipNotSet {
				return bad("clip", "too large")
			}
			d := w.Damage[tier]
			if !w.HasDamage && d != 0 {
				return bad("damage", "set without HasDamage")
			}
			if math.IsNaN(float64(d)) || math.IsInf(float64(d), 0) || d < 0 {
				return bad("damage", "not a finite value >= 0")
			}
		}
		for _, r := range [...]float32{w.StatRange, w.Range} {
			if math.IsNaN(float64(r)) || math.IsInf(float64(r), 0) || r < 0 {
				return bad("range", "not a finite value >= 0")
			}
		}
		if w.Kind == KindBullet && w.Range <= 0 {
			return bad("range", "a gun needs a range")
		}
		if w.MinInterval < 0 {
			return bad("min interval", "negative")
		}
		if w.Credits != 0 && (w.Kind != KindBullet || int(w.Credits) < pellets(w)) {
			return bad("credits", "set on a weapon that is no gun, or below its pellets")
		}
		if w.StealthKill && w.Kind != KindMelee {
			return bad("stealth kill", "set on a weapon that is no melee weapon")
		}
		if !causeFits(w.Kind, w.Cause) {
			return bad("cause", "does not fit the kind")
		}
		if (w.Flies || w.Sticks) && w.Kind != KindProjectile {
			return bad("flies/sticks", "set on a weapon that launches no projectile")
		}
	}
	return nil
}

// causeFits reports whether a weapon of kind k may arrive with damage cause c
// ([weapon-causes]).
func causeFits(k Kind, c uint8) bool {
	switch k {
	case KindProjectile:
		return c == CauseExplosion || c == CauseFire
	case KindContinuous:
		return c == CauseFire || c == CauseSpraycan || c == CauseExtinguisher
	}
	return c == 0
}

// sameStructure reports whether two tables agree on what the stores depend on.
func sameStructure(a, b *Table) bool {
	for id := range a {
		x, y := &a[id], &b[id]
		if x.Kind != y.Kind || x.Slot != y.Slot || x.Pooled != y.Pooled || x.Skill != y.Skill ||
			x.StealthKill != y.StealthKill || x.Cause != y.Cause || x.Flies != y.Flies || x.Sticks != y.Sticks {
			return false
		}
	}
	return true
}

// Rate tolerances (the burst allowances of the rate check).
const (
	// DefaultShotRateTolerance is how far ahead of the weapon's sustained cadence a
	// shooter's shots may arrive: the network's delay variation (jitter, reordering, a
	// shrinking round trip) bunches honest shots together on arrival.
	DefaultShotRateTolerance = 300 * time.Millisecond
	// DefaultMeleeRateTolerance is the same for melee blows. A blow is reported by its
	// victim, so blows on two victims arrive over two different links; the allowance is
	// larger.
	DefaultMeleeRateTolerance = time.Second
)

// Config configures a Catalog. The zero Config is GTA San Andreas with the defaults.
type Config struct {
	// Table is the weapon table of the first properties revision. nil means
	// DefaultTable (GTA San Andreas).
	Table *Table
	// FirstRevision is the revision number of the first table (zero: revision 0).
	FirstRevision uint16
	// ShotRateTolerance is the burst allowance of the shot and projectile rate check.
	// Zero means DefaultShotRateTolerance; negative is ErrBadConfig.
	ShotRateTolerance time.Duration
	// MeleeRateTolerance is the burst allowance of the melee rate check. Zero means
	// DefaultMeleeRateTolerance; negative is ErrBadConfig.
	MeleeRateTolerance time.Duration
	// Vehicles is the vehicle catalogue (seats, guns, rockets per model), checked against
	// Table. nil means DefaultVehicleTable (GTA San Andreas).
	Vehicles *VehicleTable
}

// Catalog is a world's weapon catalogue: the structure of every weapon (kind, slot,
// pooling, skill stat) and the revisioned properties (clip, damage, pellets, range,
// interval). One Catalog serves every Inventory of a world.
//
// A Catalog is not safe for concurrent use; it belongs to the world's goroutine, with
// its inventories.
type Catalog struct {
	shotTolerance  time.Duration
	meleeTolerance time.Duration
	vehicles       *VehicleCatalog

	kind     [NumWeapons]Kind
	stealth  [NumWeapons]bool
	cause    [NumWeapons]uint8
	flies    [NumWeapons]bool
	sticks   [NumWeapons]bool
	slot     [NumWeapons]int8
	skillIdx [NumWeapons]int8 // index into skills, -1 for none
	skills   [NumWeapons]SkillStat
	nSkills  int

	ring        [MaxPropertiesRevisions]Table
	publishedAt [MaxPropertiesRevisions]time.Duration
	newest      uint16
	count       int
}

// NewCatalog validates cfg and returns a Catalog whose first properties revision is
// cfg.FirstRevision, with its vehicle catalogue. Errors: ErrBadConfig, ErrBadTable.
func NewCatalog(cfg Config) (*Catalog, error) {
	if cfg.ShotRateTolerance < 0 {
		return nil, fmt.Errorf("%w: negative ShotRateTolerance", ErrBadConfig)
	}
	if cfg.MeleeRateTolerance < 0 {
		return nil, fmt.Errorf("%w: negative MeleeRateTolerance", ErrBadConfig)
	}
	t := DefaultTable()
	if cfg.Table != nil {
		t = *cfg.Table
	}
	if err := validateTable(&t); err != nil {
		return nil, err
	}
	vc, err := NewVehicleCatalog(cfg.Vehicles, &t)
	if err != nil {
		return nil, err
	}
	c := &Catalog{
		shotTolerance:  cfg.ShotRateTolerance,
		meleeTolerance: cfg.MeleeRateTolerance,
		vehicles:       vc,
		newest:         cfg.FirstRevision,
		count:          1,
	}
	if c.shotTolerance == 0 {
		c.shotTolerance = DefaultShotRateTolerance
	}
	if c.meleeTolerance == 0 {
		c.meleeTolerance = DefaultMeleeRateTolerance
	}
	for id := range t {
		w := &t[id]
		c.kind[id] = w.Kind
		c.stealth[id] = w.StealthKill
		c.cause[id] = w.Cause
		c.flies[id] = w.Flies
		c.sticks[id] = w.Sticks
		c.slot[id] = w.Slot
		c.skillIdx[id] = -1
		if w.Skill == NoSkill || w.Kind == KindNone {
			continue
		}
		for i := range c.nSkills {
			if c.skills[i] == w.Skill {
				c.skillIdx[id] = int8(i)
			}
		}
		if c.skillIdx[id] < 0 {
			c.skills[c.nSkills] = w.Skill
			c.skillIdx[id] = int8(c.nSkills)
			c.nSkills++
		}
	}
	idx := c.newest % MaxPropertiesRevisions
	c.ring[idx] = t
	c.publishedAt[idx] = 0
	return c, nil
}

// WeaponProperties is the message that carries a properties revision to the clients.
// Send it to every client on the reliable lane; a client fires under the last revision
// it applied and names it in each WeaponShot.
type WeaponProperties struct {
	// Rev is the properties revision; shots name it.
	Rev uint16
	// Weapons is the whole table of the revision.
	Weapons Table
}

// String returns "WeaponProperties rev=N".
func (m WeaponProperties) String() string {
	return "WeaponProperties rev=" + strconv.Itoa(int(m.Rev))
}

// Vehicles returns the world's vehicle catalogue (Config.Vehicles).
func (c *Catalog) Vehicles() *VehicleCatalog { return c.vehicles }

// Revision returns the newest properties revision.
func (c *Catalog) Revision() uint16 { return c.newest }

// Properties returns the newest revision as the message a joining client needs.
func (c *Catalog) Properties() WeaponProperties {
	return WeaponProperties{Rev: c.newest, Weapons: c.ring[c.newest%MaxPropertiesRevisions]}
}

// Update publishes t as the next properties revision and returns the message to send
// to every client. t must keep the structure of the first table (kind, slot, pooling,
// skill stat of every weapon).
//
// A revision stays servable until MaxPropertiesRevisions-1 newer ones are published;
// Update refuses with ErrPropertiesBusy instead of dropping a revision that was
// superseded less than PropertiesHold ago (a shot in flight may still name it). A host
// that changes properties often collects the changes of a tick into one table and,
// when busy, publishes the pending table later. Errors: ErrBadTable, ErrTableStructure,
// ErrPropertiesBusy; nothing changes on an error.
func (c *Catalog) Update(now time.Duration, t *Table) (WeaponProperties, error) {
	if t == nil {
		return WeaponProperties{}, fmt.Errorf("%w: nil table", ErrBadTable)
	}
	if err := validateTable(t); err != nil {
		return WeaponProperties{}, err
	}
	if !sameStructure(t, &c.ring[c.newest%MaxPropertiesRevisions]) {
		return WeaponProperties{}, ErrTableStructure
	}
	if c.count == MaxPropertiesRevisions {
		oldest := c.newest - (MaxPropertiesRevisions - 1)
		supersededAt := c.publishedAt[(oldest+1)%MaxPropertiesRevisions]
		if now-supersededAt < PropertiesHold {
			return WeaponProperties{}, fmt.Errorf("%w: revision %d superseded %v ago", ErrPropertiesBusy, oldest, now-supersededAt)
		}
	}
	c.newest = revision.Next(c.newest)
	idx := c.newest % MaxPropertiesRevisions
	c.ring[idx] = *t
	c.publishedAt[idx] = now
	if c.count < MaxPropertiesRevisions {
		c.count++
	}
	return WeaponProperties{Rev: c.newest, Weapons: *t}, nil
}

// lookup returns the table of a revision, or ErrPropertiesFuture / ErrPropertiesTooOld.
func (c *Catalog) lookup(rev uint16) (*Table, error) {
	switch revision.Compare(rev, c.newest) {
	case revision.Equal:
	case revision.After:
		return nil, ErrPropertiesFuture
	case revision.Unordered:
		return nil, ErrPropertiesTooOld
	case revision.Before:
		if revision.Diff(c.newest, rev) >= c.count {
			return nil, ErrPropertiesTooOld
		}
	}
	return &c.ring[rev%MaxPropertiesRevisions], nil
}

// current returns the newest table.
func (c *Catalog) current() *Table { return &c.ring[c.newest%MaxPropertiesRevisions] }

// checkWeapon returns ErrUnknownWeapon for an id outside the catalogue.
func (c *Catalog) checkWeapon(weapon uint8) error {
	if int(weapon) >= NumWeapons {
		return fmt.Errorf("%w: %d", ErrUnknownWeapon, weapon)
	}
	return nil
}

// Weapon returns one weapon of a properties revision.
// Errors: ErrUnknownWeapon, ErrPropertiesTooOld, ErrPropertiesFuture.
func (c *Catalog) Weapon(rev uint16, weapon uint8) (Weapon, error) {
	if err := c.checkWeapon(weapon); err != nil {
		return Weapon{}, err
	}
	t, err := c.lookup(rev)
	if err != nil {
		return Weapon{}, err
	}
	return t[weapon], nil
}

// Damage returns the raw per-hit damage (per pellet for shotguns) of weapon at tier in
// properties revision rev: what the damage floor of a bullet is computed from (the
// vitals package multiplies it by the game's 0.33 and subtracts its rounding margin).
// A weapon without skill tiers has the same figure at every tier.
// Errors: ErrUnknownWeapon, ErrBadTier, ErrPropertiesTooOld, ErrPropertiesFuture,
// ErrNoDamage.
func (c *Catalog) Damage(rev uint16, weapon uint8, tier Tier) (float32, error) {
	if err := c.checkWeapon(weapon); err != nil {
		return 0, err
	}
	if tier >= NumTiers {
		return 0, ErrBadTier
	}
	t, err := c.lookup(rev)
	if err != nil {
		return 0, err
	}
	w := &t[weapon]
	if !w.HasDamage {
		return 0, fmt.Errorf("%w: weapon %d", ErrNoDamage, weapon)
	}
	return w.Damage[tier], nil
}

// Pellets returns how many pellets one trigger pull of weapon fires in revision rev:
// the table's figure for shotguns, 1 for every other weapon. The floor of a shotgun
// shot is one pellet; the figure serves a cap on what one shot may claim.
// Errors: ErrUnknownWeapon, ErrPropertiesTooOld, ErrPropertiesFuture.
func (c *Catalog) Pellets(rev uint16, weapon uint8) (int, error) {
	if err := c.checkWeapon(weapon); err != nil {
		return 0, err
	}
	t, err := c.lookup(rev)
	if err != nil {
		return 0, err
	}
	return pellets(&t[weapon]), nil
}

func pellets(w *Weapon) int {
	if w.Pellets == 0 {
		return 1
	}
	return int(w.Pellets)
}

// Credits returns how many hit reports one shot of weapon in revision rev may credit per
// victim ([credits-per-shot]): the table's Credits, or one per pellet when it has none.
// Errors: ErrUnknownWeapon, ErrPropertiesTooOld, ErrPropertiesFuture.
func (c *Catalog) Credits(rev uint16, weapon uint8) (int, error) {
	if err := c.checkWeapon(weapon); err != nil {
		return 0, err
	}
	t, err := c.lookup(rev)
	if err != nil {
		return 0, err
	}
	return credits(&t[weapon]), nil
}

func credits(w *Weapon) int { return max(pellets(w), int(w.Credits)) }

// StealthKill reports whether weapon can kill from behind in one move (the knife): its
// catalogue's StealthKill column. False for ids outside the catalogue.
func (c *Catalog) StealthKill(weapon uint8) bool {
	return int(weapon) < NumWeapons && c.stealth[weapon]
}

// Cause returns the damage cause weapon's damage arrives with ([weapon-causes]): its
// catalogue's Cause column, 0 for a weapon whose damage names the weapon itself and for
// ids outside the catalogue.
func (c *Catalog) Cause(weapon uint8) uint8 {
	if int(weapon) >= NumWeapons {
		return 0
	}
	return c.cause[weapon]
}

// Flies reports whether weapon's projectiles fly on until they hit (the rockets): its
// catalogue's Flies column ([weapon-causes]). False for ids outside the catalogue.
func (c *Catalog) Flies(weapon uint8) bool {
	return int(weapon) < NumWeapons && c.flies[weapon]
}

// Sticks reports whether weapon's projectiles stick to what they land on and may ride a
// vehicle (the satchel charge): its catalogue's Sticks column ([weapon-causes]). False
// for ids outside the catalogue.
func (c *Catalog) Sticks(weapon uint8) bool {
	return int(weapon) < NumWeapons && c.sticks[weapon]
}

// DetonationCause reports whether a detonation of a projectile of weapon may arrive with
// damage cause cause ([weapon-causes]): an explosion always, and the weapon's own Cause
// (the molotov's fire).
func (c *Catalog) DetonationCause(weapon, cause uint8) bool {
	return cause == CauseExplosion || c.Kind(weapon) == KindProjectile && cause == c.Cause(weapon)
}

// Kind returns the kind of weapon (KindNone for ids outside the catalogue).
func (c *Catalog) Kind(weapon uint8) Kind {
	if int(weapon) >= NumWeapons {
		return KindNone
	}
	return c.kind[weapon]
}

// SlotOf returns the slot of weapon, or NoSlot for an id that is no weapon.
func (c *Catalog) SlotOf(weapon uint8) int8 {
	if int(weapon) >= NumWeapons {
		return NoSlot
	}
	return c.slot[weapon]
}

// SkillOf returns the skill stat that selects weapon's tier, or NoSkill.
func (c *Catalog) SkillOf(weapon uint8) SkillStat {
	if int(weapon) >= NumWeapons || c.skillIdx[weapon] < 0 {
		return NoSkill
	}
	return c.skills[c.skillIdx[weapon]]
}

// skillIndex returns the index of stat among the catalogue's stats, or -1.
func (c *Catalog) skillIndex(stat SkillStat) int {
	if stat == NoSkill {
		return -1
	}
	for i := range c.nSkills {
		if c.skills[i] == stat {
			return i
		}
	}
	return -1
}

// NewInventory returns the empty store of a new connection (revision 0, fists held,
// every skill at TierPoor until the host sets it). Allocate it when the player joins
// and keep it for the connection.
func (c *Catalog) NewInventory() *Inventory {
	inv := &Inventory{cat: c}
	inv.Reset()
	return inv
}
