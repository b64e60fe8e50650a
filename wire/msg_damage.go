package wire

// DamageReport is the victim's report of damage its client applied to its own player:
// the victim confirms the hit, and the server's ledger only ever goes down by it
// (vitals' [ledger-only-falls]).
//
// The client clamps the vitals it reports to 0..MaxVital (a lethal hit leaves 0 health,
// whatever the game's arithmetic says). A hit report is unreliable; the lethal one
// travels on the reliable lane ahead of the DeathReport. Attacker, Weapon and the order are trusted only after the server
// correlated the report with what it relayed (Ref); the body part is checked against a
// whitelist by the vitals package, not here; before, after and the loss are trusted
// only within the floor and the ledger.
type DamageReport struct {
	// DamageSeq is damage_seq: this report's number, +1 per report the client creates
	// (wraps); frames echo the last one.
	DamageSeq uint16
	// VitalRev is vital_rev: the revision of the last health or armor command the
	// client applied before the damage.
	VitalRev uint16
	// Attacker is the player the damage came from, NoPlayer for the environment.
	Attacker PlayerID
	// Weapon is the weapon or cause: 0..46 weapons, 49 vehicle, 50 rotor blades, 51
	// explosion, 53 drowning, 54 fall, 37 also plain fire, 255 unknown.
	Weapon uint8
	// BodyPart is the body part hit (3 torso .. 9 head); not whitelisted by the
	// decoder.
	BodyPart uint8
	// Ref is the packet the damage answers: "the shot it answers" (vitals' [trust-in-fields]).
	Ref Ref
	// HealthBefore is the health before the damage.
	HealthBefore float32
	// ArmorBefore is the armor before the damage.
	ArmorBefore float32
	// HealthAfter is the health left after the damage.
	HealthAfter float32
	// ArmorAfter is the armor left after the damage.
	ArmorAfter float32
	// Loss is the claimed loss, armor and health together; the server deducts it
	// armor first.
	Loss float32
}

func (m *DamageReport) walk(c *codec) {
	c.u16(&m.DamageSeq, "DamageSeq")
	c.u16(&m.VitalRev, "VitalRev")
	c.player(&m.Attacker, "Attacker", true)
	c.u8(&m.Weapon, "Weapon")
	c.u8(&m.BodyPart, "BodyPart")
	c.enum8((*uint8)(&m.Ref.Kind), "Ref.Kind", uint8(refKindCount), "RefKind", refKindName)
	c.u16(&m.Ref.Seq, "Ref.Seq")
	c.f32(&m.HealthBefore, "HealthBefore", spanVital)
	c.f32(&m.ArmorBefore, "ArmorBefore", spanVital)
	c.f32(&m.HealthAfter, "HealthAfter", spanVital)
	c.f32(&m.ArmorAfter, "ArmorAfter", spanVital)
	c.f32(&m.Loss, "Loss", spanLoss)
	c.rule(m.Ref.Kind != RefNone || m.Ref.Seq == 0, "Ref.Seq", kindNonCanonical, "Ref.Seq is 0 when Ref.Kind is none.")
	c.rule(!refNeedsAttacker(m.Ref.Kind) || m.Attacker != NoPlayer, "Attacker", kindInconsistent,
		"Attacker is a player when Ref answers a weapon shot, a vehicle shot or a detonation (their shooter or owner).")
}

func refKindName(v uint8) string { return RefKind(v).String() }

func refNeedsAttacker(k RefKind) bool {
	return k == RefWeaponShot || k == RefVehicleShot || k == RefDetonation
}

// DeathReport is the dying client's report of its own death, with the means and the
// death animation, on the reliable lane (lifecycle's [server-commits-death]).
//
// The server commits the death once per life; it replaces a pose the game cannot
// produce with the default one (the lifecycle package whitelists the pose; the decoder
// takes any byte). The killer the server names comes from the last credited damage,
// not from this report.
type DeathReport struct {
	// DeathEpoch is death_epoch: the life that ended, as the client counts it.
	DeathEpoch uint16
	// Killer is the player the client's game holds responsible, NoPlayer if none
	// (the client's view; the server names the killer itself).
	Killer PlayerID
	// Weapon is the means of death: weapon or cause id, as in DamageReport.
	Weapon uint8
	// Pose is the death animation the victim played; a raw game value.
	Pose uint8
}

func (m *DeathReport) walk(c *codec) {
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.player(&m.Killer, "Killer", true)
	c.u8(&m.Weapon, "Weapon")
	c.u8(&m.Pose, "Pose")
}

// RespawnRequest is a dead client's request to respawn, repeated on a timer until the
// server grants it (lifecycle's [respawn-idempotent]: the server decides the moment).
type RespawnRequest struct {
	// DeathEpoch is death_epoch: the life the client died in; a request for an older
	// life than the server's is stale.
	DeathEpoch uint16
}

func (m *RespawnRequest) walk(c *codec) {
	c.u16(&m.DeathEpoch, "DeathEpoch")
}

// RespawnPlayer is the server's respawn grant to the respawning player: a new life at a
// point (lifecycle's [respawn-idempotent]). A repeated request before the new life's first frame gets the same
// grant again, with the same DeathEpoch.
type RespawnPlayer struct {
	// DeathEpoch is death_epoch: the new life's generation.
	DeathEpoch uint16
	// Position is the spawn point.
	Position Vec3
	// Facing is the heading at the spawn point in radians, quantized to 2π/65536.
	Facing float32
}

func (m *RespawnPlayer) walk(c *codec) {
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.position(&m.Position, "Position")
	c.angle(&m.Facing, "Facing")
}

// PlayerWasted is the death edge the server sends to the players the victim is shown
// to (not to the victim), once per life, on a fresh commit (lifecycle's [lifecycle-edges]). It is critical:
// the reliable lane never refuses it.
type PlayerWasted struct {
	// Player is the victim.
	Player PlayerID
	// PlayerToken is player_token: the victim's connection token; a receiver applies
	// the edge only to the copy with that token.
	PlayerToken uint32
	// DeathEpoch is death_epoch: the life that ended.
	DeathEpoch uint16
	// Killer is the killer the server names (from the last credited damage; never a
	// teammate, teams' [teammate-never-credited]), NoPlayer if none.
	Killer PlayerID
	// Weapon is the means of death: weapon or cause id.
	Weapon uint8
	// Pose is the death animation to play: the victim's, or the default one.
	Pose uint8
}

func (m *PlayerWasted) walk(c *codec) {
	c.player(&m.Player, "Player", false)
	c.u32(&m.PlayerToken, "PlayerToken")
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.player(&m.Killer, "Killer", true)
	c.u8(&m.Weapon, "Weapon")
	c.u8(&m.Pose, "Pose")
	c.rule(m.Killer != m.Player, "Killer", kindInconsistent, "Killer is not Player (a suicide has no killer: NoPlayer).")
}

// PlayerSpawned is the respawn edge the server sends, on the grant, to the players the
// subject is shown to (lifecycle's [lifecycle-edges]). Receivers rebuild the subject's copy at the point. It
// is critical: the reliable lane never refuses it.
type PlayerSpawned struct {
	// Player is the player respawning.
	Player PlayerID
	// PlayerToken is player_token: its connection token.
	PlayerToken uint32
	// DeathEpoch is death_epoch: the new life's generation.
	DeathEpoch uint16
	// SyncSeq is sync_seq: the barrier of the new life; the receiver drops the
	// subject's RemotePlayerSync frames with an older SyncSeq (late frames of the
	// previous life).
	SyncSeq uint16
	// Position is the spawn point.
	Position Vec3
	// Facing is the heading at the spawn point in radians, quantized to 2π/65536.
	Facing float32
}

func (m *PlayerSpawned) walk(c *codec) {
	c.player(&m.Player, "Player", false)
	c.u32(&m.PlayerToken, "PlayerToken")
	c.u16(&m.DeathEpoch, "DeathEpoch")
	c.u16(&m.SyncSeq, "SyncSeq")
	c.position(&m.Position, "Position")
	c.angle(&m.Facing, "Facing")
}
