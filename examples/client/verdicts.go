package client

import "strconv"

//go:generate go tool stringer -type=ActVerdict -linecomment

// ActVerdict is what an honest client decided about an action the bot asked for (Fire,
// VehicleFire, Throw, Strike, StealthKill, HoldFire, Arm). Only Acted sends anything;
// every other verdict is the reason the honest game would not do it, and changes nothing.
type ActVerdict uint8

// The verdicts of an action.
const (
	// Acted: the action happened (and its packet, if any, is queued for the next Flush).
	Acted ActVerdict = iota + 1 // acted
	// NotSpawned: the client has no body yet (before its first RespawnPlayer).
	NotSpawned // not spawned
	// Dead: the client's player is dead.
	Dead // dead
	// Settling: the life (or, for VehicleFire, the seat) is younger than
	// Config.SpawnSettle; the server has likely not taken the first frame that shows it
	// yet, and would refuse the act (lifecycle's [first-living-frame]).
	Settling // settling
	// Animating: the player is inside the paired animation of a stealth kill.
	Animating // animating
	// NotOwned: the weapon is not in the client's store.
	NotOwned // not owned
	// WrongKind: the weapon cannot do this (a knife in Fire, a gun in Throw, no knife for a
	// stealth kill, HoldFire without a continuous weapon).
	WrongKind // wrong kind
	// Reloading: the clip is empty and the reload has not finished.
	Reloading // reloading
	// NoAmmo: the weapon has no rounds left at all.
	NoAmmo // no ammo
	// TooFast: the weapon's minimum interval since its last use has not passed.
	TooFast // too fast
	// OutOfRange: the ray is longer than the weapon's range, or the victim is too far; for
	// VehicleFire also a ray that does not start at the gun's mount (its MountReach of the
	// muzzle on the vehicle's pose).
	OutOfRange // out of range
	// NoGun: the client's seat fires no gun of its vehicle's model (an unarmed vehicle, a
	// passenger's seat, a vehicle the world does not know), or it sits in no vehicle.
	NoGun // no gun
	// Wrecked: the vehicle is wrecked.
	Wrecked // wrecked
	// OnFoot: the action needs the player on foot (a throw, a stealth kill) or in a seat.
	OnFoot // on foot
	// Teammate: the victim of a stealth kill is a teammate by the newest stamp; the server
	// would refuse it (teams' [teammate-never-credited]).
	Teammate // teammate
	// NoVictim: the victim has no living copy on this client.
	NoVictim // no victim
)

// Action is the result of an action verb: the verdict and, for a packet it sent, the
// packet's number (ShotSeq of a WeaponShot or VehicleShot, the projectile number of a
// ProjectileLaunch); 0 otherwise.
type Action struct {
	// Verdict is Acted, or why the honest client refused the action itself.
	Verdict ActVerdict
	// Seq is the number of what was sent (a shot's ShotSeq, a projectile's number); 0 when
	// nothing numbered was sent.
	Seq uint16
}

// String returns "acted #7" or the refusal.
func (a Action) String() string {
	if a.Verdict == Acted && a.Seq != 0 {
		return "acted #" + strconv.Itoa(int(a.Seq))
	}
	return a.Verdict.String()
}

//go:generate go tool stringer -type=DamageVerdict -linecomment

// DamageVerdict is what the client's game did with damage the world dealt it (a blow, a
// ram, a fall, fire) or the server relayed to it (a shot, a blast, a vehicle explosion).
type DamageVerdict uint8

// The verdicts of damage.
const (
	// DamageApplied: the damage was applied; its report is created (a hit at once, a sum
	// after its FireSumInterval).
	DamageApplied DamageVerdict = iota + 1 // applied
	// DamageLethal: the damage was applied and killed the player: the lethal report and
	// the DeathReport are queued on the lane, in that order.
	DamageLethal // lethal
	// DamageRefusedTeammate: the damage came from a teammate by the stamp that judges it
	// (the shot's own, else the newest of its sender): not applied, no hit reaction, no
	// report (teams' [teammate-refused-by-victim]).
	DamageRefusedTeammate // refused teammate
	// DamageZeroMultiplier: the damage's class has multiplier 0: refused entirely, like a
	// teammate's (vitals' [damage-multipliers]).
	DamageZeroMultiplier // zero multiplier
	// DamageMissed: nothing reached the player (the trace found no pellet, the blast ended
	// before the player's position).
	DamageMissed // missed
	// DamageIgnored: the player cannot take damage now (not spawned, dead, or the damage
	// amounts to nothing).
	DamageIgnored // ignored
)

// DamageResult is the outcome of one damage input.
type DamageResult struct {
	// Verdict says what happened.
	Verdict DamageVerdict
	// Loss is the health and armor the damage took (0 unless applied).
	Loss float32
	// Report is the DamageSeq of the report created for it at once (hits, lethal damage);
	// 0 when none was created yet (a sum reports later, a refusal never).
	Report uint16
}

// String returns "applied 8.25 #3", "refused teammate", ...
func (r DamageResult) String() string {
	s := r.Verdict.String()
	if r.Verdict == DamageApplied || r.Verdict == DamageLethal {
		s += " " + strconv.FormatFloat(float64(r.Loss), 'g', 6, 32)
		if r.Report != 0 {
			s += " #" + strconv.Itoa(int(r.Report))
		}
	}
	return s
}

//go:generate go tool stringer -type=EventKind -linecomment

// EventKind says what happened to the player that the world around it must follow.
type EventKind uint8

// The events (see Client.PopEvent).
const (
	// EventSpawned: the player revived (connect spawn or respawn) at Position, facing
	// Facing, on foot, in life Epoch.
	EventSpawned EventKind = iota + 1 // spawned
	// EventDied: the player died in life Epoch (Weapon is the cause).
	EventDied // died
	// EventTeleported: the server moved the player (SetPlayerPosition) to Position; it is
	// on foot.
	EventTeleported // teleported
	// EventVehicleMoved: the server moved the vehicle the player sits in (SetVehiclePose).
	EventVehicleMoved // vehicle moved
	// EventLeftWreck: the player's vehicle exploded, its author is a teammate by the
	// newest stamp: the player took nothing and stepped out of the wreck (Vehicle).
	EventLeftWreck // left wreck
	// EventVehicleExploded: the vehicle the player drives reached 0 health; VehicleExplode
	// is queued (Vehicle).
	EventVehicleExploded // vehicle exploded
	// EventStealthVictim: an accepted stealth kill on the player started its paired
	// animation; it dies when the animation ends (Attacker).
	EventStealthVictim // stealth victim
)
