package rewind

// RecordVerdict says what became of an accepted sample.
type RecordVerdict uint8

// The fates of a sample.
const (
	// Started: the entity had no history; the sample starts its first epoch.
	Started RecordVerdict = iota + 1
	// Appended: the sample took a slot of its own in the history.
	Appended
	// Merged: the sample came sooner than MinSampleSpacing after the last kept sample
	// and replaced the newest one, which was such a sample too.
	Merged
	// Teleported: the sample lies farther than the teleport distance from the newest one;
	// the history starts anew from it, and no rewind interpolates across the jump.
	Teleported
)

// String returns the verdict's name.
func (v RecordVerdict) String() string {
	switch v {
	case Started:
		return "started"
	case Appended:
		return "appended"
	case Merged:
		return "merged"
	case Teleported:
		return "teleported"
	}
	return "record-verdict(?)"
}

// PongVerdict says what the server made of a pong.
type PongVerdict uint8

// The fates of a pong.
const (
	// PongAccepted: the pong answers a pending ping in time; its round trip is a sample.
	PongAccepted PongVerdict = iota + 1
	// PongDuplicate: the ping was answered already; this copy gives no second sample.
	PongDuplicate
	// PongExpired: the ping is older than RTTCap (or so old its slot was reused); the
	// pong gives no sample.
	PongExpired
	// PongUnknown: no ping with this id was sent on this connection yet.
	PongUnknown
)

// String returns the verdict's name.
func (v PongVerdict) String() string {
	switch v {
	case PongAccepted:
		return "accepted"
	case PongDuplicate:
		return "duplicate"
	case PongExpired:
		return "expired"
	case PongUnknown:
		return "unknown"
	}
	return "pong-verdict(?)"
}

// RayKind is the kind of shot a ray comes from.
type RayKind uint8

// The kinds of rays.
const (
	// WeaponRay is the ray of a hand-held weapon (WeaponShot): it rewinds.
	WeaponRay RayKind = iota + 1
	// VehicleGunRay is the ray of a vehicle's gun (VehicleShot): it rewinds the same way.
	VehicleGunRay
	// CannonRay is the Rhino cannon's ray: it only sets the point of an explosion, which
	// hits whoever stands there now, so it rewinds nobody.
	CannonRay
)

// String returns the kind's name.
func (k RayKind) String() string {
	switch k {
	case WeaponRay:
		return "weapon"
	case VehicleGunRay:
		return "vehicle-gun"
	case CannonRay:
		return "cannon"
	}
	return "ray-kind(?)"
}

// ShotVerdict says how a shot's recipients were placed.
type ShotVerdict uint8

// The outcomes of a shot.
const (
	// ShotRewound: the recipients near the ray were rewound by the shooter's round-trip
	// time, at most RewindCap.
	ShotRewound ShotVerdict = iota + 1
	// ShotNoRTT: the shooter's round-trip time is not measured yet (fewer than
	// MinRTTSamples pongs); the recipients near the ray get their present poses. Their
	// RecipientVerdicts still say how they would be rewound (the shot's moment is now, so
	// the rewound pose is the present one).
	ShotNoRTT
	// ShotCannon: a Rhino cannon's ray; nobody is rewound and no recipient is listed.
	ShotCannon
)

// String returns the verdict's name.
func (v ShotVerdict) String() string {
	switch v {
	case ShotRewound:
		return "rewound"
	case ShotNoRTT:
		return "no-rtt"
	case ShotCannon:
		return "cannon-not-rewound"
	}
	return "shot-verdict(?)"
}

// RecipientVerdict says how one recipient's pose was chosen.
type RecipientVerdict uint8

// The ways a recipient is placed.
const (
	// RewoundOnFoot: the recipient is on foot; its position is its accepted path at the
	// shot's moment (ShotResult.At: now itself for ShotNoRTT).
	RewoundOnFoot RecipientVerdict = iota + 1
	// RewoundInVehicle: the recipient sits in a vehicle; it and the vehicle are rewound to
	// the same moment, and the recipient puts its copy of the vehicle (and itself) there.
	RewoundInVehicle
	// InShooterVehicle: the recipient sits in the vehicle the shooter sits in; neither is
	// rewound (they moved together), both poses are the present ones.
	InShooterVehicle
	// InFrozenVehicle: the recipient sits in a frozen vehicle; neither is rewound.
	InFrozenVehicle
	// InWreckedVehicle: the recipient sits in a wrecked vehicle; neither is rewound.
	InWreckedVehicle
)

// Rewound reports whether the recipient's pose is a rewound one (as opposed to its
// present pose because its vehicle is not rewound).
func (v RecipientVerdict) Rewound() bool { return v == RewoundOnFoot || v == RewoundInVehicle }

// String returns the verdict's name.
func (v RecipientVerdict) String() string {
	switch v {
	case RewoundOnFoot:
		return "rewound-on-foot"
	case RewoundInVehicle:
		return "rewound-in-vehicle"
	case InShooterVehicle:
		return "present-shooter-vehicle"
	case InFrozenVehicle:
		return "present-frozen-vehicle"
	case InWreckedVehicle:
		return "present-wrecked-vehicle"
	}
	return "recipient-verdict(?)"
}
