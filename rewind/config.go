package rewind

import "fmt"

// Config sets up a World. The zero value is the default world; a zero field
// takes the default its comment names. New refuses a field outside its range.
type Config struct {
	// Players is the number of player slots, ids 0..Players-1. Zero means MaxPlayers;
	// at most MaxPlayers. Every slot's history is allocated by New.
	Players int

	// Vehicles is the number of vehicle slots, ids 0..Vehicles-1. Zero means MaxVehicles;
	// at most MaxVehicles.
	Vehicles int

	// NearDistance is how close to a shot's ray, in metres, a recipient on foot must have
	// stood (at the rewound moment) to get the rewound pose. Zero means
	// DefaultNearDistance; otherwise finite, positive, at most MaxNearDistance.
	NearDistance float32

	// VehicleNearDistance is the same distance for a recipient sitting in a vehicle, whose
	// body is only one point of a larger target. Zero means DefaultVehicleNearDistance;
	// otherwise finite, positive, at most MaxNearDistance.
	VehicleNearDistance float32

	// TeleportDistance is the jump between two consecutive accepted samples of one
	// history, in metres, above which the second starts a new history epoch instead of
	// being interpolated to. Zero means DefaultTeleportDistance; otherwise finite and
	// positive.
	TeleportDistance float32
}

// resolve returns the config with its defaults filled in, or ErrBadConfig.
func (c Config) resolve() (Config, error) {
	if c.Players == 0 {
		c.Players = MaxPlayers
	}
	if c.Players < 1 || c.Players > MaxPlayers {
		return c, fmt.Errorf("%w: Players %d not in 1..%d", ErrBadConfig, c.Players, MaxPlayers)
	}
	if c.Vehicles == 0 {
		c.Vehicles = MaxVehicles
	}
	if c.Vehicles < 1 || c.Vehicles > MaxVehicles {
		return c, fmt.Errorf("%w: Vehicles %d not in 1..%d", ErrBadConfig, c.Vehicles, MaxVehicles)
	}
	if c.NearDistance == 0 {
		c.NearDistance = DefaultNearDistance
	}
	if !(c.NearDistance > 0 && c.NearDistance <= MaxNearDistance) {
		return c, fmt.Errorf("%w: NearDistance %v not in (0, %d]", ErrBadConfig, c.NearDistance, MaxNearDistance)
	}
	if c.VehicleNearDistance == 0 {
		c.VehicleNearDistance = DefaultVehicleNearDistance
	}
	if !(c.VehicleNearDistance > 0 && c.VehicleNearDistance <= MaxNearDistance) {
		return c, fmt.Errorf("%w: VehicleNearDistance %v not in (0, %d]", ErrBadConfig, c.VehicleNearDistance, MaxNearDistance)
	}
	if c.TeleportDistance == 0 {
		c.TeleportDistance = DefaultTeleportDistance
	}
	if !(c.TeleportDistance > 0 && finite(c.TeleportDistance)) {
		return c, fmt.Errorf("%w: TeleportDistance %v not finite and positive", ErrBadConfig, c.TeleportDistance)
	}
	return c, nil
}
