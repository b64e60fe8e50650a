package wire

// WeaponShot is one trigger pull of a hitscan weapon, on foot or from a vehicle, sent
// by the shooter's client (a shotgun's pellets included).
//
// The server validates it against the shooter's store, range and rate
// (inventory's [shot-sanity-check]), spends one round, and relays it to every recipient as a
// RemoteWeaponShot, rewinding those the ray passed near (rewind's [rewind-to-shooters-view]). The hit claim has
// no effect on damage: the victim decides.
type WeaponShot struct {
	// ShotSeq is the shooter's shot number, +1 per shot (wraps); a victim's
	// DamageReport answers the shot by it.
	ShotSeq uint16
	// DeathEpoch is death_epoch: the shooter's life; a shot of an earlier life is
	// refused (the grant resets combat correlation, lifecycle's [death-epoch]).
	DeathEpoch uint16
	// PropertiesRev is the WeaponProperties revision the shot was fired under; the
	// damage floor reads the weapon's damage from it (vitals' [damage-floor]).
	PropertiesRev uint16
	// Weapon is the weapon fired.
	Weapon uint8
	// HitType is what the shooter's client says the ray hit.
	HitType HitType
	// HitID is the id of what was hit; 0 when HitType is none.
	HitID uint16
	// Origin is the start of the ray.
	Origin Vec3
	// HitPos is the end of the ray: where it hit, or its full length.
	HitPos Vec3
}

func (m *WeaponShot) walk(c *codec) {
	c.u16(&m.ShotSeq, "ShotSeq")
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.u16(&m.PropertiesRev, "PropertiesRev")
	c.u8(&m.Weapon, "Weapon")
	c.enum8((*uint8)(&m.HitType), "HitType", uint8(hitTypeCount), "HitType", hitTypeName)
	c.u16(&m.HitID, "HitID")
	c.position(&m.Origin, "Origin")
	c.position(&m.HitPos, "HitPos")
	hitRule(c, m.HitType, m.HitID)
}

func hitTypeName(v uint8) string { return HitType(v).String() }

func hitRule(c *codec, t HitType, id uint16) {
	c.rule(t != HitNone || id == 0, "HitID", kindNonCanonical, "HitID is 0 when HitType is none.")
}

// VehicleShot is one ray of a vehicle's guns (Hunter, Hydra, Predator, Sea Sparrow, the
// Rhino's cannon ...), sent by the client firing them.
//
// Its rays rewind recipients like WeaponShot; the Rhino cannon's ray does not (it only
// places an explosion, which hits whoever is there now; rewind's [rewind-to-shooters-view]). Vehicle guns fire at
// the standard skill tier (inventory's [skill-tier-grace]).
type VehicleShot struct {
	// ShotSeq is the shooter's shot number, shared with WeaponShot, +1 per shot.
	ShotSeq uint16
	// DeathEpoch is death_epoch: the shooter's life.
	DeathEpoch uint16
	// PropertiesRev is the WeaponProperties revision the shot was fired under.
	PropertiesRev uint16
	// Vehicle is the vehicle whose guns fired.
	Vehicle uint16
	// Weapon is the weapon id of the guns.
	Weapon uint8
	// HitType is what the shooter's client says the ray hit.
	HitType HitType
	// HitID is the id of what was hit; 0 when HitType is none.
	HitID uint16
	// Origin is the start of the ray.
	Origin Vec3
	// HitPos is the end of the ray.
	HitPos Vec3
}

func (m *VehicleShot) walk(c *codec) {
	c.u16(&m.ShotSeq, "ShotSeq")
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.u16(&m.PropertiesRev, "PropertiesRev")
	c.id16(&m.Vehicle, "Vehicle", false)
	c.u8(&m.Weapon, "Weapon")
	c.enum8((*uint8)(&m.HitType), "HitType", uint8(hitTypeCount), "HitType", hitTypeName)
	c.u16(&m.HitID, "HitID")
	c.position(&m.Origin, "Origin")
	c.position(&m.HitPos, "HitPos")
	hitRule(c, m.HitType, m.HitID)
}

// RemoteWeaponShot is a WeaponShot as the server relays it to one recipient: with the
// shooter's teammate relation to that recipient, and, when the ray passed near the
// recipient, the recipient's rewound pose and its vehicle's pose (rewind's [rewind-to-shooters-view], teams' [teammate-stamp]).
//
// A shot near a recipient is a datagram of its own for that recipient. The recipient
// judges the shot by this stamp, moves itself (and its vehicle) to the rewound pose for
// the trace only, and computes the hit itself.
type RemoteWeaponShot struct {
	// Shooter is the player who fired.
	Shooter PlayerID
	// ShotSeq is the shooter's shot number, echoed by the victim's DamageReport.
	ShotSeq uint16
	// Weapon is the weapon fired.
	Weapon uint8
	// HitType is what the shooter's client says the ray hit.
	HitType HitType
	// HitID is the id of what was hit; 0 when HitType is none.
	HitID uint16
	// Stamp is the shooter's teammate relation to the recipient; the shot is judged
	// by it (teams' [teammate-refused-by-victim]).
	Stamp Stamp
	// Origin is the start of the ray.
	Origin Vec3
	// HitPos is the end of the ray.
	HitPos Vec3
	// Rewind is the recipient's pose when the shooter saw it.
	Rewind Rewind
}

func (m *RemoteWeaponShot) walk(c *codec) {
	c.player(&m.Shooter, "Shooter", false)
	c.u16(&m.ShotSeq, "ShotSeq")
	c.u8(&m.Weapon, "Weapon")
	c.enum8((*uint8)(&m.HitType), "HitType", uint8(hitTypeCount), "HitType", hitTypeName)
	c.u16(&m.HitID, "HitID")
	c.bitsBegin("Flags")
	c.bit(&m.Stamp.Teammate, "Stamp.Teammate")
	c.bit(&m.Rewind.Valid, "Rewind.Valid")
	c.bit(&m.Rewind.InVehicle, "Rewind.InVehicle")
	c.bitsEnd()
	c.u16(&m.Stamp.Rev, "Stamp.Rev")
	c.position(&m.Origin, "Origin")
	c.position(&m.HitPos, "HitPos")
	m.Rewind.walk(c)
	hitRule(c, m.HitType, m.HitID)
}

// RemoteVehicleShot is a VehicleShot as the server relays it to one recipient, with the
// shooter's relation and the recipient's rewound pose, exactly as RemoteWeaponShot
// (rewind's [rewind-to-shooters-view]: vehicle gun rays rewind like WeaponShot; the Rhino cannon's never carries
// a valid Rewind).
type RemoteVehicleShot struct {
	// Shooter is the player who fired.
	Shooter PlayerID
	// Vehicle is the vehicle whose guns fired.
	Vehicle uint16
	// ShotSeq is the shooter's shot number, echoed by the victim's DamageReport.
	ShotSeq uint16
	// Weapon is the weapon id of the guns.
	Weapon uint8
	// HitType is what the shooter's client says the ray hit.
	HitType HitType
	// HitID is the id of what was hit; 0 when HitType is none.
	HitID uint16
	// Stamp is the shooter's teammate relation to the recipient.
	Stamp Stamp
	// Origin is the start of the ray.
	Origin Vec3
	// HitPos is the end of the ray.
	HitPos Vec3
	// Rewind is the recipient's pose when the shooter saw it.
	Rewind Rewind
}

func (m *RemoteVehicleShot) walk(c *codec) {
	c.player(&m.Shooter, "Shooter", false)
	c.id16(&m.Vehicle, "Vehicle", false)
	c.u16(&m.ShotSeq, "ShotSeq")
	c.u8(&m.Weapon, "Weapon")
	c.enum8((*uint8)(&m.HitType), "HitType", uint8(hitTypeCount), "HitType", hitTypeName)
	c.u16(&m.HitID, "HitID")
	c.bitsBegin("Flags")
	c.bit(&m.Stamp.Teammate, "Stamp.Teammate")
	c.bit(&m.Rewind.Valid, "Rewind.Valid")
	c.bit(&m.Rewind.InVehicle, "Rewind.InVehicle")
	c.bitsEnd()
	c.u16(&m.Stamp.Rev, "Stamp.Rev")
	c.position(&m.Origin, "Origin")
	c.position(&m.HitPos, "HitPos")
	m.Rewind.walk(c)
	hitRule(c, m.HitType, m.HitID)
}

// walk writes the rewind's fields after its two bits (which live in the message's
// flags byte) and states the rules that keep absent parts zero.
func (r *Rewind) walk(c *codec) {
	c.position(&r.Position, "Rewind.Position")
	c.id16(&r.Vehicle, "Rewind.Vehicle", false)
	c.position(&r.VehiclePosition, "Rewind.VehiclePosition")
	c.quat(&r.VehicleRotation, "Rewind.VehicleRotation", true)
	c.rule(r.Valid || r.Position == Vec3{}, "Rewind.Position", kindNonCanonical,
		"Rewind.Position is zero when Rewind.Valid is false.")
	c.rule(r.Valid || !r.InVehicle, "Rewind.InVehicle", kindNonCanonical,
		"Rewind.InVehicle is false when Rewind.Valid is false.")
	c.rule(r.InVehicle || r.Vehicle == 0, "Rewind.Vehicle", kindNonCanonical,
		"Rewind.Vehicle is 0 when Rewind.InVehicle is false.")
	c.rule(r.InVehicle || r.VehiclePosition == Vec3{}, "Rewind.VehiclePosition", kindNonCanonical,
		"Rewind.VehiclePosition is zero when Rewind.InVehicle is false.")
	c.rule(r.InVehicle || r.VehicleRotation == Quat{}, "Rewind.VehicleRotation", kindNonCanonical,
		"Rewind.VehicleRotation is zero when Rewind.InVehicle is false.")
	c.rule(!r.InVehicle || r.VehicleRotation != Quat{}, "Rewind.VehicleRotation", kindOutOfRange,
		"Rewind.VehicleRotation is a unit quaternion when Rewind.InVehicle is true.")
}

// ProjectileLaunch is a projectile thrown or launched by the client's player: a
// grenade, tear gas, a molotov, a satchel, a rocket (on foot or from a vehicle).
//
// An accepted launch on foot takes one round of the weapon behind it
// (inventory's [shot-sanity-check]). The server relays it as RemoteProjectile.
type ProjectileLaunch struct {
	// Projectile is the owner's projectile number, +1 per launch (wraps); its
	// Detonation and the victims' reports name it.
	Projectile uint16
	// DeathEpoch is death_epoch: the owner's life.
	DeathEpoch uint16
	// Weapon is the weapon behind the projectile (16, 17, 18, 35, 36, 39 ...).
	Weapon uint8
	// Vehicle is the vehicle that launched it, NoVehicle when thrown on foot.
	Vehicle uint16
	// Target is the vehicle a homing rocket follows, NoVehicle if none.
	Target uint16
	// Origin is where the projectile starts.
	Origin Vec3
	// Velocity is its launch velocity in m/s (full float precision).
	Velocity Vec3
}

func (m *ProjectileLaunch) walk(c *codec) {
	c.u16(&m.Projectile, "Projectile")
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.u8(&m.Weapon, "Weapon")
	c.id16(&m.Vehicle, "Vehicle", true)
	c.id16(&m.Target, "Target", true)
	c.position(&m.Origin, "Origin")
	c.vec3(&m.Velocity, "Velocity", spanProjectile)
}

// RemoteProjectile is a ProjectileLaunch as the server relays it to one recipient, with
// the owner's teammate relation to that recipient (teams' [teammate-stamp]).
type RemoteProjectile struct {
	// Owner is the player who launched it.
	Owner PlayerID
	// Projectile is the owner's projectile number.
	Projectile uint16
	// Weapon is the weapon behind the projectile.
	Weapon uint8
	// Vehicle is the vehicle that launched it, NoVehicle on foot.
	Vehicle uint16
	// Target is the vehicle a homing rocket follows, NoVehicle if none.
	Target uint16
	// Origin is where the projectile starts.
	Origin Vec3
	// Velocity is its launch velocity in m/s.
	Velocity Vec3
	// Stamp is the owner's teammate relation to the recipient.
	Stamp Stamp
}

func (m *RemoteProjectile) walk(c *codec) {
	c.player(&m.Owner, "Owner", false)
	c.u16(&m.Projectile, "Projectile")
	c.u8(&m.Weapon, "Weapon")
	c.id16(&m.Vehicle, "Vehicle", true)
	c.id16(&m.Target, "Target", true)
	c.position(&m.Origin, "Origin")
	c.vec3(&m.Velocity, "Velocity", spanProjectile)
	c.stamp(&m.Stamp)
}

// Detonation is the owner's report that its projectile exploded (impact, fuse, or a
// satchel set off by the detonator), at a point its physics decided.
type Detonation struct {
	// Projectile is the owner's number of the projectile that exploded.
	Projectile uint16
	// DeathEpoch is death_epoch: the owner's life.
	DeathEpoch uint16
	// Weapon is the weapon behind the projectile.
	Weapon uint8
	// Position is where it exploded.
	Position Vec3
}

func (m *Detonation) walk(c *codec) {
	c.u16(&m.Projectile, "Projectile")
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.u8(&m.Weapon, "Weapon")
	c.position(&m.Position, "Position")
}

// RemoteDetonation is a Detonation as the server relays it to one recipient, with the
// owner's teammate relation; the recipient applies the explosion to itself and reports
// what it took, answering RefDetonation.
type RemoteDetonation struct {
	// Owner is the player whose projectile exploded.
	Owner PlayerID
	// Projectile is the owner's projectile number.
	Projectile uint16
	// Weapon is the weapon behind the projectile.
	Weapon uint8
	// Position is where it exploded.
	Position Vec3
	// Stamp is the owner's teammate relation to the recipient.
	Stamp Stamp
}

func (m *RemoteDetonation) walk(c *codec) {
	c.player(&m.Owner, "Owner", false)
	c.u16(&m.Projectile, "Projectile")
	c.u8(&m.Weapon, "Weapon")
	c.position(&m.Position, "Position")
	c.stamp(&m.Stamp)
}

// StealthKill is the attacker's claim of a stealth kill (the knife's paired animation).
//
// The server makes the whole decision (vitals' [sources-of-damage]): it refuses a
// teammate (teams' [teammate-never-credited]), counts the victim dead itself and waits 10 s longer for the
// victim's DeathReport, whose pose is the victim's to report.
type StealthKill struct {
	// Victim is the player the attacker claims to kill.
	Victim PlayerID
	// VictimEpoch is the victim's death_epoch as the attacker last saw it; a claim
	// against an earlier life is stale.
	VictimEpoch uint16
	// DeathEpoch is death_epoch: the attacker's own life.
	DeathEpoch uint16
	// Weapon is the weapon used (the knife, 4).
	Weapon uint8
}

func (m *StealthKill) walk(c *codec) {
	c.player(&m.Victim, "Victim", false)
	c.u16(&m.VictimEpoch, "VictimEpoch")
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.u8(&m.Weapon, "Weapon")
}

// RemoteStealthKill is an accepted stealth kill as the server relays it to the victim
// and the players both are shown to, with the attacker's relation to the recipient.
type RemoteStealthKill struct {
	// Attacker is the player who kills.
	Attacker PlayerID
	// Victim is the player killed.
	Victim PlayerID
	// VictimEpoch is death_epoch: the victim's life that ends.
	VictimEpoch uint16
	// Weapon is the weapon used.
	Weapon uint8
	// Stamp is the attacker's teammate relation to the recipient.
	Stamp Stamp
}

func (m *RemoteStealthKill) walk(c *codec) {
	c.player(&m.Attacker, "Attacker", false)
	c.player(&m.Victim, "Victim", false)
	c.u16(&m.VictimEpoch, "VictimEpoch")
	c.u8(&m.Weapon, "Weapon")
	c.stamp(&m.Stamp)
	c.rule(m.Attacker != m.Victim, "Victim", kindInconsistent, "Victim is not Attacker.")
}

// VehicleExplode is a client's report that a vehicle it controls exploded.
//
// An accepted explosion of a vehicle with occupants is a death counted by the server
// for each occupant (vitals' [death-by-ledger]), except the killer's teammates while friendly fire is
// off (teams' [explosion-spares-teammates]). The credited killer is the server's (the host's vehicle credit); Attacker is only the
// client's view.
type VehicleExplode struct {
	// Vehicle is the vehicle that exploded.
	Vehicle uint16
	// Attacker is the player the client's game holds responsible, NoPlayer if none.
	Attacker PlayerID
	// Weapon is the cause as the client's game has it.
	Weapon uint8
}

func (m *VehicleExplode) walk(c *codec) {
	c.id16(&m.Vehicle, "Vehicle", false)
	c.player(&m.Attacker, "Attacker", true)
	c.u8(&m.Weapon, "Weapon")
}

// RemoteVehicleExplode is an accepted vehicle explosion as the server relays it to one
// recipient: the explosion's author (the credited killer) and the author's relation to
// the recipient, so the author's teammates inside refuse its damage (teams' [teammate-refused-by-victim]). An
// explosion without a credited killer has no author and kills everyone inside.
type RemoteVehicleExplode struct {
	// Vehicle is the vehicle that exploded.
	Vehicle uint16
	// Author is the credited killer, NoPlayer if none.
	Author PlayerID
	// Weapon is the cause.
	Weapon uint8
	// Stamp is Author's teammate relation to the recipient (false without an author).
	Stamp Stamp
}

func (m *RemoteVehicleExplode) walk(c *codec) {
	c.id16(&m.Vehicle, "Vehicle", false)
	c.player(&m.Author, "Author", true)
	c.u8(&m.Weapon, "Weapon")
	c.stamp(&m.Stamp)
	c.rule(m.Author != NoPlayer || !m.Stamp.Teammate, "Stamp.Teammate", kindInconsistent, "Stamp.Teammate is false when Author is NoPlayer.")
}

// CreateExplosion is a gamemode explosion (create_explosion), with its creator and the
// creator's relation to the recipient (teams' [teammate-stamp]: a server effect with a creator is
// stamped). A victim's report answers it with RefEffect and the Effect id.
type CreateExplosion struct {
	// Effect is the server's id of this effect, +1 per effect (wraps).
	Effect uint16
	// Creator is the player the gamemode credits with the explosion, NoPlayer if none.
	Creator PlayerID
	// Type is the game's explosion type; a raw game value.
	Type uint8
	// Position is the centre of the explosion.
	Position Vec3
	// Radius is the explosion's radius in metres.
	Radius float32
	// Stamp is Creator's teammate relation to the recipient (false without a creator).
	Stamp Stamp
}

func (m *CreateExplosion) walk(c *codec) {
	c.u16(&m.Effect, "Effect")
	c.player(&m.Creator, "Creator", true)
	c.u8(&m.Type, "Type")
	c.position(&m.Position, "Position")
	c.f32(&m.Radius, "Radius", spanRadius)
	c.stamp(&m.Stamp)
	c.rule(m.Creator != NoPlayer || !m.Stamp.Teammate, "Stamp.Teammate", kindInconsistent, "Stamp.Teammate is false when Creator is NoPlayer.")
}

// CreateFire is a gamemode fire (create_fire), with its creator, how long it has burned
// already and the creator's relation to the recipient. A victim's report answers it with
// RefEffect.
//
// A server sends a fire to a recipient when it is lit, and may send it later to one that
// comes near while it still burns; Age tells that recipient how much of the fire's
// lifetime is gone, so its game burns only what is left and puts the fire out at the same
// moment as everyone else's.
type CreateFire struct {
	// Effect is the server's id of this effect, shared with CreateExplosion.
	Effect uint16
	// Creator is the player the gamemode credits with the fire, NoPlayer if none.
	Creator PlayerID
	// Position is the centre of the fire.
	Position Vec3
	// Radius is the fire's radius in metres.
	Radius float32
	// Age is how long the fire had burned when the server sent this, in whole
	// milliseconds rounded down (0 for the send when it is lit), at most MaxFireAge.
	Age uint16
	// Stamp is Creator's teammate relation to the recipient (false without a creator).
	Stamp Stamp
}

func (m *CreateFire) walk(c *codec) {
	c.u16(&m.Effect, "Effect")
	c.player(&m.Creator, "Creator", true)
	c.position(&m.Position, "Position")
	c.f32(&m.Radius, "Radius", spanRadius)
	c.u16max(&m.Age, "Age", MaxFireAge)
	c.stamp(&m.Stamp)
	c.rule(m.Creator != NoPlayer || !m.Stamp.Teammate, "Stamp.Teammate", kindInconsistent, "Stamp.Teammate is false when Creator is NoPlayer.")
}
