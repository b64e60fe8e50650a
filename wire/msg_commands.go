package wire

// SetHealth sets the player's health to an absolute value (player:set_health). Lowering
// is allowed; 0 kills through the client's normal death path (vitals' [death-by-ledger]).
//
// Health and armor commands share the connection's health revision and one ordered
// queue with the weapon commands; a client that is dead drops a set but still takes its
// revision. SetHealth to 0 is critical (see Critical).
type SetHealth struct {
	// Rev is the health revision (rev) of this command, the connection's next one;
	// frames and reports echo it as vital_rev.
	Rev uint16
	// Health is the new health, 0..MaxVital (MAX_VITAL_SET).
	Health float32
}

func (m *SetHealth) walk(c *codec) {
	c.u16(&m.Rev, "Rev")
	c.f32(&m.Health, "Health", spanVital)
}

// SetArmor sets the player's armor to an absolute value (player:set_armor).
type SetArmor struct {
	// Rev is the health revision (rev) of this command; armor shares it with health.
	Rev uint16
	// Armor is the new armor, 0..MaxVital.
	Armor float32
}

func (m *SetArmor) walk(c *codec) {
	c.u16(&m.Rev, "Rev")
	c.f32(&m.Armor, "Armor", spanVital)
}

// GiveHealth adds to the player's health up to a maximum and never lowers it
// (player:add_health, a reward; vitals' [ledger-only-falls]).
type GiveHealth struct {
	// Rev is the health revision (rev) of this command.
	Rev uint16
	// Amount is the health to add, above 0 and at most MaxVital.
	Amount float32
	// Max is the ceiling the add stops at, above 0 and at most MaxVital.
	Max float32
}

func (m *GiveHealth) walk(c *codec) {
	c.u16(&m.Rev, "Rev")
	c.f32(&m.Amount, "Amount", spanGive)
	c.f32(&m.Max, "Max", spanGive)
}

// GiveArmor adds to the player's armor up to a maximum and never lowers it
// (player:add_armor).
type GiveArmor struct {
	// Rev is the health revision (rev) of this command.
	Rev uint16
	// Amount is the armor to add, above 0 and at most MaxVital.
	Amount float32
	// Max is the ceiling the add stops at, above 0 and at most MaxVital.
	Max float32
}

func (m *GiveArmor) walk(c *codec) {
	c.u16(&m.Rev, "Rev")
	c.f32(&m.Amount, "Amount", spanGive)
	c.f32(&m.Max, "Max", spanGive)
}

// DamageMultipliers is the table of damage multipliers per class for the damage that
// WeaponProperties does not cover (dlmp.set_damage_multiplier; vitals' [damage-multipliers]). The victim's
// client applies the multiplier of the class the damage arrives with before the damage;
// 0 refuses the hit entirely.
//
// The whole table travels each time. Until the client acknowledged the last table (on
// the reliable lane), and for 2 s after, the server's floors take the lowest multiplier
// the client may still be applying.
type DamageMultipliers struct {
	// Rev is the table's revision, +1 per table sent on the connection (its own
	// counter, not vital_rev).
	Rev uint16
	// Melee is the multiplier of melee damage (also scales the melee floor).
	Melee float32
	// Fire is the multiplier of fire (weapon 37, the flamethrower and plain fire).
	Fire float32
	// Spray is the multiplier of the spraycan (41).
	Spray float32
	// Extinguisher is the multiplier of the fire extinguisher (42).
	Extinguisher float32
	// Explosion is the multiplier of explosions (51).
	Explosion float32
	// PredatorGun is the multiplier of the Predator's guns (also scales their floor).
	PredatorGun float32
}

func (m *DamageMultipliers) walk(c *codec) {
	c.u16(&m.Rev, "Rev")
	c.f32(&m.Melee, "Melee", spanMultiplier)
	c.f32(&m.Fire, "Fire", spanMultiplier)
	c.f32(&m.Spray, "Spray", spanMultiplier)
	c.f32(&m.Extinguisher, "Extinguisher", spanMultiplier)
	c.f32(&m.Explosion, "Explosion", spanMultiplier)
	c.f32(&m.PredatorGun, "PredatorGun", spanMultiplier)
}

// GiveWeapon gives a weapon with ammo, following the game's rules: the same weapon
// again adds its ammo, a different weapon in a slot that pools ammo carries the
// displaced total over, any other slot is replaced (inventory's [give-rules]).
type GiveWeapon struct {
	// Rev is the inventory revision (rev) of this command, the player's next one;
	// frames echo the last one applied as weapon_rev.
	Rev uint16
	// Weapon is the weapon given.
	Weapon uint8
	// Ammo is the ammo given with it.
	Ammo uint16
	// SetAsCurrent is set_as_current: whether the weapon becomes the held one (a give
	// may leave the held weapon alone).
	SetAsCurrent bool
}

func (m *GiveWeapon) walk(c *codec) {
	c.u16(&m.Rev, "Rev")
	c.u8(&m.Weapon, "Weapon")
	c.u16(&m.Ammo, "Ammo")
	c.boolean(&m.SetAsCurrent, "SetAsCurrent")
}

// TakeWeapon removes a weapon and its ammo.
type TakeWeapon struct {
	// Rev is the inventory revision (rev) of this command.
	Rev uint16
	// Weapon is the weapon taken.
	Weapon uint8
}

func (m *TakeWeapon) walk(c *codec) {
	c.u16(&m.Rev, "Rev")
	c.u8(&m.Weapon, "Weapon")
}

// SetWeaponAmmo sets a weapon's total ammo, and its clip unless Clip is NoClip.
type SetWeaponAmmo struct {
	// Rev is the inventory revision (rev) of this command.
	Rev uint16
	// Weapon is the weapon whose ammo is set.
	Weapon uint8
	// Total is the new total ammo, clip included.
	Total uint16
	// Clip is the new ammo in the clip, or NoClip (0xFFFF, "not set") to leave it.
	Clip uint16
}

func (m *SetWeaponAmmo) walk(c *codec) {
	c.u16(&m.Rev, "Rev")
	c.u8(&m.Weapon, "Weapon")
	c.u16(&m.Total, "Total")
	c.u16(&m.Clip, "Clip")
	c.rule(m.Clip == NoClip || m.Clip <= m.Total, "Clip", kindInconsistent, "Clip is NoClip or at most Total (the clip is part of the total).")
}

// ClearWeapons removes every weapon and all ammo.
type ClearWeapons struct {
	// Rev is the inventory revision (rev) of this command.
	Rev uint16
}

func (m *ClearWeapons) walk(c *codec) {
	c.u16(&m.Rev, "Rev")
}

// SetArmedWeapon makes a weapon the player owns the held one (0 = fists).
type SetArmedWeapon struct {
	// Rev is the inventory revision (rev) of this command.
	Rev uint16
	// Weapon is the weapon to hold.
	Weapon uint8
}

func (m *SetArmedWeapon) walk(c *codec) {
	c.u16(&m.Rev, "Rev")
	c.u8(&m.Weapon, "Weapon")
}

// WeaponProperties changes one weapon's properties for the client's game: its damage at
// each skill tier and its range. The server keeps recent revisions so a shot is floored
// with the damage it was fired under (vitals' [damage-floor]).
type WeaponProperties struct {
	// Rev is the weapon properties revision this change creates (global, +1 per
	// change); shots echo the revision they were fired under as PropertiesRev.
	Rev uint16
	// Weapon is the weapon changed.
	Weapon uint8
	// DamagePoor is the damage per hit (per pellet) at the poor skill tier.
	DamagePoor float32
	// DamageStd is the damage per hit (per pellet) at the standard skill tier.
	DamageStd float32
	// DamagePro is the damage per hit (per pellet) at the pro skill tier.
	DamagePro float32
	// Range is the weapon's range in metres.
	Range float32
}

func (m *WeaponProperties) walk(c *codec) {
	c.u16(&m.Rev, "Rev")
	c.u8(&m.Weapon, "Weapon")
	c.f32(&m.DamagePoor, "DamagePoor", spanDamage)
	c.f32(&m.DamageStd, "DamageStd", spanDamage)
	c.f32(&m.DamagePro, "DamagePro", spanDamage)
	c.f32(&m.Range, "Range", spanRange)
}

// SetWeaponSkill sets one of the player's weapon skill levels; the skill is the
// server's, and a shot is floored at the tier it gives (the lower of two tiers within
// 5 s of a change; inventory's [skill-tier-grace]).
type SetWeaponSkill struct {
	// Skill is the game's weapon skill type (0 pistol .. 10 sniper rifle in SA-MP
	// numbering); a raw game value.
	Skill uint8
	// Level is the skill level (0..999 in the game); a raw game value.
	Level uint16
}

func (m *SetWeaponSkill) walk(c *codec) {
	c.u8(&m.Skill, "Skill")
	c.u16(&m.Level, "Level")
}

// SetPlayerPosition moves the player (a gamemode teleport). The rewind history of the
// player starts anew from the new position (rewind's [history-restarts]).
type SetPlayerPosition struct {
	// Position is the new position.
	Position Vec3
	// Facing is the new heading in radians, quantized to 2π/65536.
	Facing float32
}

func (m *SetPlayerPosition) walk(c *codec) {
	c.position(&m.Position, "Position")
	c.angle(&m.Facing, "Facing")
}

// SetVehiclePose moves a vehicle (a gamemode move). The vehicle's pose history starts
// anew from where it now stands (rewind's [history-restarts]).
type SetVehiclePose struct {
	// Vehicle is the vehicle moved.
	Vehicle uint16
	// Position is its new position.
	Position Vec3
	// Rotation is its new rotation.
	Rotation Quat
}

func (m *SetVehiclePose) walk(c *codec) {
	c.id16(&m.Vehicle, "Vehicle", false)
	c.position(&m.Position, "Position")
	c.quat(&m.Rotation, "Rotation", false)
}

// SetVehicleFrozen freezes or unfreezes a vehicle. A frozen vehicle is not rewound, and
// a freeze change starts its pose history anew (rewind's [history-restarts]).
type SetVehicleFrozen struct {
	// Vehicle is the vehicle.
	Vehicle uint16
	// Frozen is the new state.
	Frozen bool
}

func (m *SetVehicleFrozen) walk(c *codec) {
	c.id16(&m.Vehicle, "Vehicle", false)
	c.boolean(&m.Frozen, "Frozen")
}

// Hello is a client's request to join, repeated until the server answers with Welcome.
// The header's version is what the server checks; Session tells one connection of a
// client from the next.
type Hello struct {
	// Session is the number the client drew for this connection (a new one each time it
	// connects; 0: none). The server's Welcome echoes it, so a client takes only the
	// answer to its own connection, and a host tells a client restarted on the same
	// address (a new Session) from a repeated or delayed Hello of the old connection
	// (the same Session).
	Session uint32
}

func (m *Hello) walk(c *codec) {
	c.u32(&m.Session, "Session")
}

// Welcome accepts a client: its player id and connection token.
type Welcome struct {
	// Player is the client's own player id.
	Player PlayerID
	// PlayerToken is player_token: the token of this connection, which every
	// lifecycle edge of the player carries (lifecycle's [player-token]).
	PlayerToken uint32
	// Session echoes the Session of the Hello that opened the connection.
	Session uint32
}

func (m *Welcome) walk(c *codec) {
	c.player(&m.Player, "Player", false)
	c.u32(&m.PlayerToken, "PlayerToken")
	c.u32(&m.Session, "Session")
}

// Ping asks the peer for a Pong; the server measures each connection's round-trip time
// with it (rewind's [rtt-by-ping]).
type Ping struct {
	// Seq is the sender's ping number; the Pong echoes it.
	Seq uint16
	// Time is the sender's clock when it sent the ping (milliseconds, wraps); the Pong
	// echoes it. The peer can write anything there: a server measures RTT from its own
	// record of when it sent ping Seq (as rewind does), never from the echoed Time.
	Time uint32
}

func (m *Ping) walk(c *codec) {
	c.u16(&m.Seq, "Seq")
	c.u32(&m.Time, "Time")
}

// Pong answers a Ping at once, echoing it. A peer that delays its pongs inflates its
// own round-trip time; the rewind caps what that buys at 400 ms (rewind's [rewind-cap]).
type Pong struct {
	// Seq is the echoed ping number.
	Seq uint16
	// Time is the echoed send time of the ping.
	Time uint32
}

func (m *Pong) walk(c *codec) {
	c.u16(&m.Seq, "Seq")
	c.u32(&m.Time, "Time")
}

// Disconnect ends the connection, with the reason.
type Disconnect struct {
	// Reason is why the connection ends.
	Reason Reason
}

func (m *Disconnect) walk(c *codec) {
	c.enum8((*uint8)(&m.Reason), "Reason", uint8(reasonCount), "Reason", reasonName)
}

func reasonName(v uint8) string { return Reason(v).String() }
