package client

import (
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// World is what the client's game would compute from its own collision world and models.
// The server has no collision world (rewind's [victim-decides-hit]): only the victim's game knows whether a wall
// stood between the shooter and itself, so the client asks the world. In the simulator the
// world is the match's small game world; a real client has its game engine here.
//
// The client calls World only from inside its own methods (Receive, VehicleFire), never
// from another goroutine.
type World interface {
	// Trace tells how many pellets of a relayed shot hit the player self whose body (and
	// vehicle) stands at pose, and the body part the hit struck (one of 3..9; anything
	// else is reported as the torso). 0 pellets is a miss: the ray passed by or a wall
	// stopped it. While Trace runs, the client's Position (and its vehicle's pose) is the
	// pose given: for a shot the server rewound, the rewound one (rewind's [rewind-to-shooters-view]); otherwise the
	// present one.
	Trace(self wire.PlayerID, shot Shot, pose Pose) (pellets int, bodyPart uint8)
	// VehicleModel tells the model of vehicle, and false for a vehicle the game does not
	// know. The client's vehicle catalogue (Config.Vehicles) says what the model's guns
	// are: for its own VehicleFire (what it fires, how far and how fast) and for a relayed
	// vehicle shot (a bullet's damage, the Predator's fixed damage, the Rhino's cannon).
	VehicleModel(vehicle uint16) (model uint16, ok bool)
}

// Shot is a relayed shot as the client traces it: a RemoteWeaponShot or a
// RemoteVehicleShot.
type Shot struct {
	// Shooter fired it, with its shot number ShotSeq.
	Shooter wire.PlayerID
	ShotSeq uint16
	// Weapon is the weapon fired (the guns' weapon id for a vehicle shot).
	Weapon uint8
	// Vehicle is the vehicle whose guns fired, wire.NoVehicle for a hand-held weapon.
	Vehicle uint16
	// HitType and HitID are the shooter's claim, which decides nothing (rewind's [victim-decides-hit]).
	HitType wire.HitType
	HitID   uint16
	// Origin and HitPos are the ray.
	Origin, HitPos wire.Vec3
	// Pellets is how many pellets one pull fires (1 but for a shotgun): Trace returns at
	// most that many.
	Pellets int
}

// Pose is where the client's body stands for a trace.
type Pose struct {
	// Position is the body's position.
	Position wire.Vec3
	// Rewound is true when the server sent the pose (the ray passed near the player) and
	// false when it is the present one.
	Rewound bool
	// Vehicle is the vehicle the body sits in (wire.NoVehicle on foot); VehiclePosition and
	// VehicleRotation its pose, rewound with the body when the server sent one.
	Vehicle         uint16
	VehiclePosition wire.Vec3
	VehicleRotation wire.Quat
}

// VehiclePose is a vehicle's position, rotation and velocity.
type VehiclePose struct {
	// Position is where the vehicle stands.
	Position wire.Vec3
	// Rotation is its orientation, a unit quaternion.
	Rotation wire.Quat
	// Velocity is how fast it moves, in metres per second.
	Velocity wire.Vec3
}

// emptyWorld is the World of a zero Config: nothing hits, nothing is armed.
type emptyWorld struct{}

func (emptyWorld) Trace(wire.PlayerID, Shot, Pose) (int, uint8) { return 0, 0 }
func (emptyWorld) VehicleModel(uint16) (uint16, bool)           { return 0, false }

// seatState is the vehicle the player sits in.
type seatState struct {
	in      bool
	vehicle uint16
	seat    uint8
	since   time.Duration // when the player sat down
	pose    VehiclePose
	// the driver's view of the vehicle's health and who damaged it last
	health       float32
	wrecked      bool
	lastAttacker wire.PlayerID
	lastWeapon   uint8
	// the newest relayed frame of the vehicle taken (a passenger follows the driver's)
	syncSeq  uint16
	synced   bool
	exploded bool
}

// OpenField is the simplest World: an open field with nothing between the players and no
// vehicle the game knows, where a shot aimed at the player (HitPlayer naming it) always
// hits its torso with one pellet. The loopback tests and the load test play in it.
type OpenField struct{}

// Trace hits the torso of self with one pellet when the shot names self, and misses
// otherwise.
func (OpenField) Trace(self wire.PlayerID, s Shot, _ Pose) (pellets int, bodyPart uint8) {
	if s.HitType == wire.HitPlayer && wire.PlayerID(s.HitID) == self {
		return 1, wire.BodyTorso
	}
	return 0, 0
}

// VehicleModel knows no vehicle.
func (OpenField) VehicleModel(uint16) (uint16, bool) { return 0, false }
