package client

import "errors"

// The errors of the package. A game-side verb or a network input refused as bad input
// returns one of them (possibly wrapped with detail through fmt.Errorf("%w: ...")), so
// errors.Is works, and leaves the Client exactly as it was. Refusals an honest player
// meets in normal play (firing with an empty clip, a teammate's bullet) are not errors:
// they are verdicts (ActVerdict, DamageVerdict).
var (
	// ErrConfig refuses a Config with a field outside its documented range.
	ErrConfig = errors.New("client: invalid config")
	// ErrClock refuses a call whose now is negative or earlier than a time the client has
	// already seen: the client's clock only moves forward.
	ErrClock = errors.New("client: time went backwards")
	// ErrNotFinite refuses a number that is NaN or infinite where the game has a value.
	ErrNotFinite = errors.New("client: value not finite")
	// ErrOutOfRange refuses a value outside its range: a coordinate beyond wire.MaxCoord,
	// a negative amount of damage, a seat above wire.MaxSeat, a rotation that is not a unit
	// quaternion, a vehicle health beyond wire.MaxVehicleHealth, an id that names nobody.
	ErrOutOfRange = errors.New("client: value out of range")
	// ErrNotAlive refuses a body verb that needs a living player (entering a vehicle).
	ErrNotAlive = errors.New("client: player not alive")
	// ErrNotInVehicle refuses a vehicle verb of a player on foot.
	ErrNotInVehicle = errors.New("client: not in a vehicle")
	// ErrInVehicle refuses EnterVehicle of a player already seated.
	ErrInVehicle = errors.New("client: already in a vehicle")
	// ErrNotDriver refuses VehicleHit of a passenger: only the driver's client keeps the
	// vehicle's health and reports its explosion.
	ErrNotDriver = errors.New("client: not the driver")
	// ErrExploding refuses LeaveVehicle of a driver whose vehicle exploded in its game: it
	// stays in the wreck until the server's RemoteVehicleExplode says whether it dies or
	// steps out (vitals' [death-by-ledger]: leaving the vehicle does not cancel the death).
	ErrExploding = errors.New("client: vehicle exploded, waiting for the server")
	// ErrFrozen refuses MoveVehicle of a vehicle the server froze.
	ErrFrozen = errors.New("client: vehicle frozen")
	// ErrUnknownEffect refuses InFire for a gamemode fire the client never received
	// (its CreateFire is still in flight, or it burnt out): in the client's game that fire
	// does not exist.
	ErrUnknownEffect = errors.New("client: unknown effect")
	// ErrMalformed wraps what the transport refused in a received datagram (a decode error,
	// a lane error, a message sent in the wrong direction). The messages the datagram did
	// carry intact were handled.
	ErrMalformed = errors.New("client: malformed datagram")
	// ErrClosed refuses every input after the connection ended (Disconnect from either
	// side, or a lane that broke).
	ErrClosed = errors.New("client: connection closed")
)
