package rewind

//go:generate go tool stringer -type=RecordVerdict,PongVerdict,RayKind,ShotVerdict,RecipientVerdict -linecomment

// RecordVerdict says what became of an accepted sample.
type RecordVerdict uint8

// The fates of a sample.
const (
	// Started: the entity had no history; the sample starts its first epoch.
	Started RecordVerdict = iota + 1 // started
	// Appended: the sample took a slot of its own in the history.
	Appended // appended
	// Merged: the sample came sooner than MinSampleSpacing after the last kept sample
	// and replaced the newest one, which was such a sample too.
	Merged // merged
	// Teleported: the sample lies farther than the teleport distance from the newest one;
	// the history starts anew from it, and no rewind interpolates across the jump.
	Teleported // teleported
)

// PongVerdict says what the server made of a pong.
type PongVerdict uint8

// The fates of a pong.
const (
	// PongAccepted: the pong answers a pending ping in time; its round trip is a sample.
	PongAccepted PongVerdict = iota + 1 // accepted
	// PongDuplicate: the ping was answered already; this copy gives no second sample.
	PongDuplicate // duplicate
	// PongExpired: the ping is older than RTTCap (or so old its slot was reused); the
	// pong gives no sample.
	PongExpired // expired
	// PongUnknown: no ping with this id was sent on this connection yet.
	PongUnknown // unknown
)

// RayKind is the kind of shot a ray comes from.
type RayKind uint8

// The kinds of rays.
const (
	// WeaponRay is the ray of a hand-held weapon (WeaponShot): it rewinds.
	WeaponRay RayKind = iota + 1 // weapon
	// VehicleGunRay is the ray of a vehicle's gun (VehicleShot): it rewinds the same way.
	VehicleGunRay // vehicle-gun
	// CannonRay is the Rhino cannon's ray: it only sets the point of an explosion, which
	// hits whoever stands there now, so it rewinds nobody.
	CannonRay // cannon
)

// ShotVerdict says how a shot's recipients were placed.
type ShotVerdict uint8

// The outcomes of a shot.
const (
	// ShotRewound: the recipients near the ray were rewound by the shooter's round-trip
	// time, at most RewindCap.
	ShotRewound ShotVerdict = iota + 1 // rewound
	// ShotNoRTT: the shooter's round-trip time is not measured yet (fewer than
	// MinRTTSamples pongs); the recipients near the ray get their present poses. Their
	// RecipientVerdicts still say how they would be rewound (the shot's moment is now, so
	// the rewound pose is the present one).
	ShotNoRTT // no-rtt
	// ShotCannon: a Rhino cannon's ray; nobody is rewound and no recipient is listed.
	ShotCannon // cannon-not-rewound
)

// RecipientVerdict says how one recipient's pose was chosen.
type RecipientVerdict uint8

// The ways a recipient is placed.
const (
	// RewoundOnFoot: the recipient is on foot; its position is its accepted path at the
	// shot's moment (ShotResult.At: now itself for ShotNoRTT).
	RewoundOnFoot RecipientVerdict = iota + 1 // rewound-on-foot
	// RewoundInVehicle: the recipient sits in a vehicle; it and the vehicle are rewound to
	// the same moment, and the recipient puts its copy of the vehicle (and itself) there.
	RewoundInVehicle // rewound-in-vehicle
	// InShooterVehicle: the recipient sits in the vehicle the shooter sits in; neither is
	// rewound (they moved together), both poses are the present ones.
	InShooterVehicle // present-shooter-vehicle
	// InFrozenVehicle: the recipient sits in a frozen vehicle; neither is rewound.
	InFrozenVehicle // present-frozen-vehicle
	// InWreckedVehicle: the recipient sits in a wrecked vehicle; neither is rewound.
	InWreckedVehicle // present-wrecked-vehicle
)

// Rewound reports whether the recipient's pose is a rewound one (as opposed to its
// present pose because its vehicle is not rewound).
func (v RecipientVerdict) Rewound() bool { return v == RewoundOnFoot || v == RewoundInVehicle }
