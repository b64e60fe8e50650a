package wire

// PlayerSync is the player's frame, sent by its client at least every 100 ms.
//
// It is the client's observation: health and armor may only lower the server's ledger
// (vitals' [ledger-only-falls]), clip and total may only lower the server's store while WeaponRev matches
// (inventory's [weapon-revision]), and Alive and DeathEpoch are never relayed as they are: the
// server stamps its own life state into RemotePlayerSync (lifecycle's [server-commits-death]). A driver also sends
// VehicleSync for its vehicle.
type PlayerSync struct {
	// Seq is the client's frame number, +1 per frame (wraps); a frame not newer than
	// the last one taken is outdated.
	Seq uint16
	// VitalRev is vital_rev: the revision of the last health or armor command the
	// client applied (vitals' [health-revision]).
	VitalRev uint16
	// DamageSeq is damage_seq: the number of the last damage report the client
	// created (vitals' [client-order]).
	DamageSeq uint16
	// WeaponRev is weapon_rev: the revision of the last weapon command the client
	// applied successfully (inventory's [weapon-revision]).
	WeaponRev uint16
	// DeathEpoch is death_epoch: the life the client believes it is on (lifecycle's [death-epoch]).
	DeathEpoch uint16
	// Weapon is the held weapon (0 = fists).
	Weapon uint8
	// Alive is alive as the client sees it; it never commits a death (lifecycle's [server-commits-death]).
	Alive bool
	// FireHeld is true while the fire key is held; for continuous weapons (37, 41, 42)
	// it makes the server spend ammo itself (inventory's [server-spends-continuous]).
	FireHeld bool
	// Seat is the seat in Vehicle (0 = driver); 0 on foot.
	Seat uint8
	// Clip is the held weapon's ammo in the clip.
	Clip uint16
	// Total is the held weapon's total ammo, clip included (capped at 65535,
	// MAX_WEAPON_AMMO).
	Total uint16
	// Health is the health the client's game shows (its hp); the client clamps it to
	// 0..MaxVital.
	Health float32
	// Armor is the armor the client's game shows, clamped to 0..MaxVital.
	Armor float32
	// Position is the player's position.
	Position Vec3
	// Velocity is the player's velocity in m/s, quantized to 1/128 m/s (see
	// ClampVelocity).
	Velocity Vec3
	// Facing is the heading in radians, quantized to 2π/65536.
	Facing float32
	// Vehicle is the vehicle the player sits in, NoVehicle on foot.
	Vehicle uint16
}

func (m *PlayerSync) walk(c *codec) {
	c.u16(&m.Seq, "Seq")
	c.u16(&m.VitalRev, "VitalRev")
	c.u16(&m.DamageSeq, "DamageSeq")
	c.u16(&m.WeaponRev, "WeaponRev")
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.u8(&m.Weapon, "Weapon")
	c.bitsBegin("Flags")
	c.bit(&m.Alive, "Alive")
	c.bit(&m.FireHeld, "FireHeld")
	c.bitsUint(&m.Seat, "Seat", 4, MaxSeat)
	c.bitsEnd()
	c.u16(&m.Clip, "Clip")
	c.u16(&m.Total, "Total")
	c.f32(&m.Health, "Health", spanVital)
	c.f32(&m.Armor, "Armor", spanVital)
	c.position(&m.Position, "Position")
	c.velocity(&m.Velocity, "Velocity")
	c.angle(&m.Facing, "Facing")
	c.id16(&m.Vehicle, "Vehicle", true)
	c.rule(m.Vehicle != NoVehicle || m.Seat == 0, "Seat", kindNonCanonical, "Seat is 0 when Vehicle is NoVehicle (on foot).")
}

// RemotePlayerSync is another player's frame as the server relays it to one recipient.
//
// The server fills Alive and DeathEpoch from its own life state (never the client's),
// Health and Armor from its ledger, and Stamp with the subject's relation to this
// recipient (lifecycle's [server-commits-death], vitals' [ledger-only-falls], teams' [teammate-stamp]). SyncSeq numbers the subject's relayed
// frames; a receiver drops a frame older than the barrier of the subject's last
// PlayerSpawned or PlayerShow.
type RemotePlayerSync struct {
	// Player is the subject: the player whose frame this is.
	Player PlayerID
	// SyncSeq is sync_seq: the server's relay number of the subject's frames, +1 per
	// relayed frame (lifecycle's [show-current-state]).
	SyncSeq uint16
	// DeathEpoch is death_epoch: the subject's life as the server counts it.
	DeathEpoch uint16
	// Alive is alive as the server holds it; it triggers no death and no respawn on
	// the receiver (lifecycle's [server-commits-death]).
	Alive bool
	// FireHeld is true while the subject holds the fire key.
	FireHeld bool
	// Stamp is the subject's teammate relation to the recipient (teams' [teammate-stamp]).
	Stamp Stamp
	// Seat is the seat in Vehicle (0 = driver); 0 on foot.
	Seat uint8
	// DamageGroup is the subject's damage group: its team id while that team's
	// friendly fire is off, 0 otherwise (teams' [damage-groups]).
	DamageGroup uint16
	// Weapon is the subject's held weapon.
	Weapon uint8
	// Health is the relayed health: the server's ledger, never 0 or below while Alive
	// (lifecycle's [server-commits-death]).
	Health float32
	// Armor is the relayed armor (the server's ledger).
	Armor float32
	// Position is the subject's position.
	Position Vec3
	// Velocity is the subject's velocity in m/s, quantized to 1/128 m/s.
	Velocity Vec3
	// Facing is the subject's heading in radians, quantized to 2π/65536.
	Facing float32
	// Vehicle is the vehicle the subject sits in, NoVehicle on foot.
	Vehicle uint16
}

func (m *RemotePlayerSync) walk(c *codec) {
	c.player(&m.Player, "Player", false)
	c.u16(&m.SyncSeq, "SyncSeq")
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.bitsBegin("Flags")
	c.bit(&m.Alive, "Alive")
	c.bit(&m.FireHeld, "FireHeld")
	c.bit(&m.Stamp.Teammate, "Stamp.Teammate")
	c.bitsUint(&m.Seat, "Seat", 4, MaxSeat)
	c.bitsEnd()
	c.u16(&m.Stamp.Rev, "Stamp.Rev")
	c.u16(&m.DamageGroup, "DamageGroup")
	c.u8(&m.Weapon, "Weapon")
	c.f32(&m.Health, "Health", spanVital)
	c.f32(&m.Armor, "Armor", spanVital)
	c.position(&m.Position, "Position")
	c.velocity(&m.Velocity, "Velocity")
	c.angle(&m.Facing, "Facing")
	c.id16(&m.Vehicle, "Vehicle", true)
	c.rule(m.Vehicle != NoVehicle || m.Seat == 0, "Seat", kindNonCanonical, "Seat is 0 when Vehicle is NoVehicle (on foot).")
	c.rule(!m.Alive || m.Health > 0, "Health", kindInconsistent, "Health is above 0 while Alive: a living player is never relayed at lethal health (lifecycle's [server-commits-death]).")
}

// VehicleSync is a vehicle's frame, sent by the client that controls the vehicle (its
// driver, or the client that syncs it while empty).
//
// The server keeps the pose history of every vehicle from these frames for the shot
// rewind (rewind's [rewind-to-shooters-view]).
type VehicleSync struct {
	// Seq is the client's frame number for this vehicle, +1 per frame (wraps).
	Seq uint16
	// Vehicle is the vehicle this frame is about.
	Vehicle uint16
	// Position is the vehicle's position.
	Position Vec3
	// Rotation is the vehicle's rotation.
	Rotation Quat
	// Velocity is the vehicle's velocity in m/s, quantized to 1/128 m/s (see
	// ClampVelocity).
	Velocity Vec3
	// Health is the vehicle's health (the game's default is 1000; the client clamps a
	// negative value to 0).
	Health float32
}

func (m *VehicleSync) walk(c *codec) {
	c.u16(&m.Seq, "Seq")
	c.id16(&m.Vehicle, "Vehicle", false)
	c.position(&m.Position, "Position")
	c.quat(&m.Rotation, "Rotation", false)
	c.velocity(&m.Velocity, "Velocity")
	c.f32(&m.Health, "Health", spanVehicleHealth)
}

// RemoteVehicleSync is a vehicle's frame as the server relays it to one recipient, with
// the controlling player's teammate relation to the recipient (teams' [teammate-stamp]: a relayed
// vehicle frame can hurt, by ramming or running over).
type RemoteVehicleSync struct {
	// Vehicle is the vehicle this frame is about.
	Vehicle uint16
	// Driver is the player controlling the vehicle, NoPlayer if none.
	Driver PlayerID
	// SyncSeq is the server's relay number of this vehicle's frames, +1 per relayed
	// frame.
	SyncSeq uint16
	// Stamp is Driver's teammate relation to the recipient (false without a driver).
	Stamp Stamp
	// Position is the vehicle's position.
	Position Vec3
	// Rotation is the vehicle's rotation.
	Rotation Quat
	// Velocity is the vehicle's velocity in m/s, quantized to 1/128 m/s.
	Velocity Vec3
	// Health is the vehicle's health.
	Health float32
}

func (m *RemoteVehicleSync) walk(c *codec) {
	c.id16(&m.Vehicle, "Vehicle", false)
	c.player(&m.Driver, "Driver", true)
	c.u16(&m.SyncSeq, "SyncSeq")
	c.stamp(&m.Stamp)
	c.position(&m.Position, "Position")
	c.quat(&m.Rotation, "Rotation", false)
	c.velocity(&m.Velocity, "Velocity")
	c.f32(&m.Health, "Health", spanVehicleHealth)
	c.rule(m.Driver != NoPlayer || !m.Stamp.Teammate, "Stamp.Teammate", kindInconsistent, "Stamp.Teammate is false when Driver is NoPlayer.")
}

// PlayerShow makes a player visible to the recipient (a join, or the recipient's
// streaming range reaching it): the current state from which the recipient builds the
// player's copy.
//
// A recipient that did not see a player gets none of its lifecycle edges; its next show
// builds the copy from this state (lifecycle's [show-current-state]). The token is what later edges are checked
// against. Which recipient sees which player (streaming) is the host's decision.
type PlayerShow struct {
	// Player is the player shown.
	Player PlayerID
	// PlayerToken is player_token: the connection's token, which every later
	// lifecycle edge of the player carries (lifecycle's [player-token]).
	PlayerToken uint32
	// DeathEpoch is death_epoch: the player's current life.
	DeathEpoch uint16
	// SyncSeq is sync_seq: the first relay number of the player's frames that
	// belongs to this show; older frames are dropped.
	SyncSeq uint16
	// Alive is the server's alive: false shows a body lying dead.
	Alive bool
	// Seat is the seat in Vehicle (0 = driver); 0 on foot.
	Seat uint8
	// DamageGroup is the player's damage group (teams' [damage-groups]).
	DamageGroup uint16
	// Weapon is the held weapon.
	Weapon uint8
	// Health is the server's ledger health; above 0 while Alive.
	Health float32
	// Armor is the server's ledger armor.
	Armor float32
	// Position is the player's position.
	Position Vec3
	// Facing is the heading in radians, quantized to 2π/65536.
	Facing float32
	// Vehicle is the vehicle the player sits in, NoVehicle on foot.
	Vehicle uint16
	// Pose is the death pose the body lies in while not Alive: the one its PlayerWasted
	// carried, so a late show lays the corpse as everyone else saw it (lifecycle's [show-current-state]); a raw
	// game value, 0 while Alive.
	Pose uint8
}

func (m *PlayerShow) walk(c *codec) {
	c.player(&m.Player, "Player", false)
	c.u32(&m.PlayerToken, "PlayerToken")
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.u16(&m.SyncSeq, "SyncSeq")
	c.bitsBegin("Flags")
	c.bit(&m.Alive, "Alive")
	c.bitsUint(&m.Seat, "Seat", 4, MaxSeat)
	c.bitsEnd()
	c.u16(&m.DamageGroup, "DamageGroup")
	c.u8(&m.Weapon, "Weapon")
	c.f32(&m.Health, "Health", spanVital)
	c.f32(&m.Armor, "Armor", spanVital)
	c.position(&m.Position, "Position")
	c.angle(&m.Facing, "Facing")
	c.id16(&m.Vehicle, "Vehicle", true)
	c.u8(&m.Pose, "Pose")
	c.rule(m.Vehicle != NoVehicle || m.Seat == 0, "Seat", kindNonCanonical, "Seat is 0 when Vehicle is NoVehicle (on foot).")
	c.rule(!m.Alive || m.Health > 0, "Health", kindInconsistent, "Health is above 0 while Alive (lifecycle's [server-commits-death]).")
	c.rule(!m.Alive || m.Pose == 0, "Pose", kindNonCanonical, "Pose is 0 while Alive.")
}

// PlayerHide removes a player's copy from the recipient (the player left, or left the
// recipient's streaming range).
type PlayerHide struct {
	// Player is the player hidden.
	Player PlayerID
	// PlayerToken is player_token: the token of the connection being hidden, so a hide
	// never removes a new player that reused the id.
	PlayerToken uint32
}

func (m *PlayerHide) walk(c *codec) {
	c.player(&m.Player, "Player", false)
	c.u32(&m.PlayerToken, "PlayerToken")
}
