package rewind

import "errors"

// The errors of the package. Each is returned wrapped with detail; test with errors.Is.
// A call that returns one of them changed nothing.
var (
	// ErrBadConfig is returned by New for a Config field outside its range.
	ErrBadConfig = errors.New("rewind: bad config")

	// ErrClockBackwards is returned for a call whose now lies before the World's clock
	// (see World.Now). The host's clock is monotonic; a call from the past is a host bug
	// and would break the order of the histories.
	ErrClockBackwards = errors.New("rewind: time before the world's clock")

	// ErrPlayerRange is returned for a player id outside the slots of the World.
	ErrPlayerRange = errors.New("rewind: player id out of range")

	// ErrUnknownPlayer is returned for a player id that was not added (or was removed).
	ErrUnknownPlayer = errors.New("rewind: unknown player")

	// ErrPlayerExists is returned by AddPlayer for a slot that holds a player already.
	ErrPlayerExists = errors.New("rewind: player already added")

	// ErrNoPosition is returned for a player that has no accepted position yet (added,
	// but neither spawned, moved nor recorded).
	ErrNoPosition = errors.New("rewind: player has no position yet")

	// ErrVehicleRange is returned for a vehicle id outside the slots of the World.
	ErrVehicleRange = errors.New("rewind: vehicle id out of range")

	// ErrUnknownVehicle is returned for a vehicle id that was not added (or was removed),
	// including the seat of a player frame.
	ErrUnknownVehicle = errors.New("rewind: unknown vehicle")

	// ErrVehicleExists is returned by AddVehicle for a slot that holds a vehicle already.
	ErrVehicleExists = errors.New("rewind: vehicle already added")

	// ErrBadPosition is returned for a position with a NaN or infinite coordinate, or one
	// beyond MaxCoordinate.
	ErrBadPosition = errors.New("rewind: bad position")

	// ErrBadRotation is returned for a rotation with a NaN or infinite component, or one
	// too close to zero length to name a rotation.
	ErrBadRotation = errors.New("rewind: bad rotation")

	// ErrBadDirection is returned for a ray whose direction is zero or not finite.
	ErrBadDirection = errors.New("rewind: bad ray direction")

	// ErrBadLength is returned for a ray whose length is not finite, not positive, or
	// above MaxRayLength.
	ErrBadLength = errors.New("rewind: bad ray length")

	// ErrBadRayKind is returned for a ray whose Kind is not one of the RayKind constants.
	ErrBadRayKind = errors.New("rewind: bad ray kind")
)
