package wire

import "github.com/arbitergo/arbiter/internal/ids"

// Protocol constants.
const (
	// Version is the protocol version written into byte 0 of every message. A message
	// with another version is refused with ErrVersion: the layout of everything after
	// the version byte belongs to the version.
	Version = 1

	// HeaderSize is the size of the header every message starts with: the protocol
	// version (1 byte) and the message id (1 byte).
	HeaderSize = 2

	// MaxSize is the size of the largest message (RemoteVehicleShot). A buffer of this
	// capacity holds any one encoded message, so Append into it never allocates.
	MaxSize = 81
)

// PlayerID is a player id on the wire (u16, little-endian). It is the same type as every
// other package's PlayerID (vitals, lifecycle, teams, rewind), so a decoded id passes to
// them without a conversion. A HitID is not a PlayerID: it names a player or a vehicle
// by the HitType beside it, and stays a uint16.
type PlayerID = ids.PlayerID

// Sentinel values shared by several messages.
const (
	// NoPlayer is the PlayerID of no player, 0xFFFF (SA-MP's INVALID_PLAYER_ID): an
	// attacker of environmental damage, a killer of a suicide, a creator-less effect.
	NoPlayer = ids.NoPlayer

	// NoVehicle is the vehicle id meaning "no vehicle": a player on foot, a projectile
	// thrown on foot, no homing target.
	NoVehicle uint16 = 0xFFFF

	// NoClip is the SetWeaponAmmo clip sentinel meaning "leave the clip as it is"
	// (inventory's [give-rules]: a clip of 0xFFFF is "not set").
	NoClip uint16 = 0xFFFF
)

// Valid ranges the codec enforces on encode and on decode. Each is documented beside
// the fields it governs in the layout tables of the package documentation.
const (
	// MaxVital is the highest health or armor on the wire: MAX_VITAL_SET
	// (vitals' [one-command-queue]). A set or an add goes up to it, so no honest client ever shows more.
	MaxVital = 200

	// MaxLoss is the highest loss a damage report may claim: all of MaxVital health
	// and all of MaxVital armor.
	MaxLoss = 2 * MaxVital

	// MaxSeat is the highest seat number (0 is the driver; the game has up to eight
	// passengers).
	MaxSeat = 8

	// MaxCoord bounds every coordinate of a position on the wire (metres, each axis).
	// It is far outside any game map; it only keeps absurd values out of the
	// server's spatial structures.
	MaxCoord = 100000

	// VelocityScale is the fixed-point scale of a frame's velocity: each axis travels as
	// an int16 counting 1/128 m/s, so a velocity covers ±255.99 m/s in steps of 7.8 mm/s.
	VelocityScale = 128

	// MaxSpeed is the largest velocity axis a frame carries (m/s): 32767 steps of
	// 1/VelocityScale. Append refuses more; a client clamps with ClampVelocity.
	MaxSpeed = 32767.0 / VelocityScale

	// MaxProjectileSpeed bounds each axis of a projectile's launch velocity (m/s).
	MaxProjectileSpeed = 1000

	// MaxVehicleHealth is the highest vehicle health on the wire (the game's default
	// is 1000; a gamemode may set more).
	MaxVehicleHealth = 100000

	// MaxMultiplier is the highest damage multiplier of a class (vitals' [damage-multipliers];
	// 0 refuses the hit, 1 leaves the game's damage as it is).
	MaxMultiplier = 100

	// MaxWeaponDamage bounds the damage per hit (per pellet) of WeaponProperties.
	MaxWeaponDamage = 1000

	// MaxWeaponRange bounds the range of WeaponProperties (metres).
	MaxWeaponRange = 10000

	// MaxEffectRadius bounds the radius of a gamemode explosion or fire (metres).
	MaxEffectRadius = 1000

	// MaxFireAge is the highest Age of a CreateFire, in milliseconds: a minute, more than
	// any gamemode fire burns (the reference server's burn for 10 s). A fire that old is
	// out in every client's game, so a larger age says nothing a client could use; a
	// client that gets an Age beyond its fire's lifetime has the fire out already and
	// drops it.
	MaxFireAge = 60000
)

// ClampVelocity limits each axis of v to ±MaxSpeed, so that a frame carrying it
// encodes. The codec never clamps by itself (a value out of range is an error); a
// client calls this on the velocity its game reports, which a physics glitch can push
// beyond what the frame carries. NaN stays NaN: that is an error to report, not a value
// to guess.
func ClampVelocity(v Vec3) Vec3 {
	clamp := func(x float32) float32 { return min(max(x, -MaxSpeed), MaxSpeed) }
	return Vec3{clamp(v.X), clamp(v.Y), clamp(v.Z)}
}

// Body parts of a damage report (SA-MP numbering). The decoder does not whitelist the
// body part: that is a rule of the report's trust (vitals'
// [trust-in-fields]), which the vitals package enforces with a verdict.
const (
	BodyTorso    uint8 = 3
	BodyGroin    uint8 = 4
	BodyLeftArm  uint8 = 5
	BodyRightArm uint8 = 6
	BodyLeftLeg  uint8 = 7
	BodyRightLeg uint8 = 8
	BodyHead     uint8 = 9
)

// Vec3 is a position or a velocity in metres (per second), in the game's axes.
type Vec3 struct{ X, Y, Z float32 }

// Quat is a rotation as a unit quaternion.
type Quat struct{ W, X, Y, Z float32 }

// Stamp is the teammate relation the server stamps, per recipient, into every packet
// that can hurt (teams' [teammate-stamp]): whether the sender of the packet is the recipient's
// teammate, and the global relation revision that answer was taken at. The recipient
// judges a shot by the shot's own stamp and everything else by the newest stamp of the
// same sender.
type Stamp struct {
	// Teammate is true when the sender is the recipient's teammate: same non-zero
	// damage group. A packet without a sender (no creator, no author) carries false.
	Teammate bool
	// Rev is the relation revision the answer was taken at; compare revisions with
	// internal/revision (they wrap at 65535).
	Rev uint16
}

//go:generate go tool stringer -type=RefKind,HitType,Reason -linecomment

// RefKind says what kind of packet a damage report answers.
type RefKind uint8

// The kinds of packet a damage report can answer.
const (
	// RefNone: the damage answers no packet (a melee blow, a ram, a fall, drowning,
	// unowned fire). Ref.Seq is 0.
	RefNone RefKind = iota // none
	// RefWeaponShot: a RemoteWeaponShot; Ref.Seq is its ShotSeq.
	RefWeaponShot // weapon_shot
	// RefVehicleShot: a RemoteVehicleShot; Ref.Seq is its ShotSeq.
	RefVehicleShot // vehicle_shot
	// RefDetonation: a RemoteDetonation; Ref.Seq is its Projectile number.
	RefDetonation // detonation
	// RefEffect: a CreateExplosion or CreateFire; Ref.Seq is its Effect id.
	RefEffect // effect
	// RefVehicleExplode: a RemoteVehicleExplode; Ref.Seq is the vehicle id.
	RefVehicleExplode // vehicle_explode

	// refKindCount: number of kinds; not a kind.
	refKindCount
)

// Ref names the packet a damage report answers (vitals' [trust-in-fields]: the report carries "the shot
// it answers"), so the server can correlate the hit with what it relayed: together with
// the report's Attacker it identifies one shot, projectile, effect or vehicle explosion.
type Ref struct {
	// Kind is the kind of packet answered; RefNone for damage that answers nothing.
	Kind RefKind
	// Seq identifies the packet within its kind: a shot's ShotSeq, a projectile's
	// number, an effect id or a vehicle id; 0 when Kind is RefNone.
	Seq uint16
}

// HitType is what the shooter's client says its ray hit (SA-MP's bullet hit types).
// It is the shooter's claim: it has no effect on damage (rewind's [victim-decides-hit]), the victim decides.
type HitType uint8

// The hit types of a shot.
const (
	// HitNone: nothing (or the world); HitID is 0.
	HitNone HitType = iota // none
	// HitPlayer: a player; HitID is its id.
	HitPlayer // player
	// HitVehicle: a vehicle; HitID is its id.
	HitVehicle // vehicle
	// HitObject: a global object; HitID is its id.
	HitObject // object
	// HitPlayerObject: a per-player object; HitID is its id.
	HitPlayerObject // player_object

	// hitTypeCount: number of hit types; not a hit type.
	hitTypeCount
)

// Reason is why a connection ends (Disconnect).
type Reason uint8

// The reasons of a Disconnect.
const (
	// ReasonQuit: the player left.
	ReasonQuit Reason = iota // quit
	// ReasonTimeout: nothing was heard from the peer for too long.
	ReasonTimeout // timeout
	// ReasonKicked: the gamemode removed the player.
	ReasonKicked // kicked
	// ReasonOverflow: the peer's reliable queue passed its hard cap (lifecycle's [lifecycle-edges]: a
	// recipient that overflows is disconnected instead of losing a critical event).
	ReasonOverflow // overflow
	// ReasonMalformed: the peer sent bytes this package could not decode.
	ReasonMalformed // malformed
	// ReasonVersion: the peer speaks another protocol version.
	ReasonVersion // version
	// ReasonShutdown: the server is shutting down.
	ReasonShutdown // shutdown
	// ReasonFull: the server has no free player slot; the Hello is refused.
	ReasonFull // full

	// reasonCount: number of reasons; not a reason.
	reasonCount
)

// Rewind is the recipient's own pose at the moment the shooter saw it (rewind's [rewind-to-shooters-view]), sent
// in the recipient's copy of a shot when the ray passed near it. The recipient moves its
// body (and, when it sits in a vehicle, its copy of that vehicle with itself inside) to
// this pose for the shot's trace only; the hit stays its own computation.
type Rewind struct {
	// Valid is true when the ray passed near the recipient and it must be rewound;
	// when false every other field is zero.
	Valid bool
	// Position is where the recipient stood, the shooter's round-trip time ago (at
	// most 400 ms back).
	Position Vec3
	// InVehicle is true when the recipient sits in a vehicle that is rewound with it
	// (not the shooter's own vehicle, not a frozen or wrecked one); when false the
	// vehicle fields are zero.
	InVehicle bool
	// Vehicle is the id of the recipient's vehicle.
	Vehicle uint16
	// VehiclePosition is where that vehicle stood at the same moment.
	VehiclePosition Vec3
	// VehicleRotation is the vehicle's rotation at the same moment.
	VehicleRotation Quat
}
