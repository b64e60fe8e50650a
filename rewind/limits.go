package rewind

import (
	"time"

	"github.com/arbitergo/arbiter/internal/ids"
)

// Durations and limits of the package's rules ([rewind-cap], [rtt-by-ping]) and the
// ones this package chose where no rule fixes them.
const (
	// RewindCap is the furthest back a shot rewinds a recipient: the shooter's round-trip
	// time counts up to this and no further ([rewind-cap]).
	RewindCap = 400 * time.Millisecond

	// MaxFrameRate is the highest rate of accepted frames a history keeps one sample per
	// frame for. Frames that arrive faster are merged (see MinSampleSpacing).
	MaxFrameRate = 128

	// MinSampleSpacing is the shortest time between two kept samples of a history: a frame
	// accepted sooner than this after the last kept sample replaces the newest sample
	// instead of taking a slot of its own, so a client flooding frames cannot shorten the
	// span its history covers.
	MinSampleSpacing = time.Second / MaxFrameRate

	// HistoryDepth is the number of samples each player and each vehicle keeps. Kept
	// samples are at least MinSampleSpacing apart (only the newest may be closer), so a
	// full ring spans at least (HistoryDepth-2) × MinSampleSpacing = 484 ms, more than
	// RewindCap at any frame rate.
	HistoryDepth = 64

	// MaxPlayers is the number of player slots a World can hold: ids 0..MaxPlayers-1, ten
	// times the player limit of SA-MP and open.mp (a streaming world of 10,000 players).
	MaxPlayers = 10000

	// MaxVehicles is the number of vehicle slots a World can hold: ids 0..MaxVehicles-1,
	// the vehicle limit of SA-MP and open.mp.
	MaxVehicles = 2000

	// MaxCoordinate bounds every coordinate of an accepted position, in metres. The San
	// Andreas map spans ±3000 m; anything beyond this bound is a broken or hostile value.
	MaxCoordinate = 100_000

	// MaxRayLength bounds the length of a shot's ray, in metres. The longest weapon
	// range of the game is the sniper's 320 m; whether a ray is too long for its weapon is
	// the weapon inventory's rule, this bound only keeps a query's cost finite.
	MaxRayLength = 1000

	// DefaultNearDistance is Config.NearDistance when left zero: a recipient on foot whose
	// rewound position lies within 5 m of the ray gets the rewound pose.
	DefaultNearDistance = 5

	// DefaultVehicleNearDistance is Config.VehicleNearDistance when left zero: a recipient
	// sitting in a vehicle gets the rewound pose when its position lies within 12 m of the
	// ray, so a shot at the far end of a bus or a plane still rewinds its occupants.
	DefaultVehicleNearDistance = 12

	// MaxNearDistance bounds both near distances of a Config.
	MaxNearDistance = 100

	// DefaultTeleportDistance is Config.TeleportDistance when left zero: two consecutive
	// accepted samples further apart than 30 m are a teleport, and the history starts
	// anew instead of interpolating across the jump. The fastest vehicle of the game
	// covers about 2.5 m between two frames at 30 Hz, so only a jump the game itself
	// would not smooth over (a teleport, or a second of lost frames at top speed)
	// reaches it.
	DefaultTeleportDistance = 30

	// PingInterval is how often the server measures a connection's round-trip time.
	PingInterval = 500 * time.Millisecond

	// RTTCap is the longest round-trip time a ping can measure: a pong that arrives later
	// than this after its ping is expired and gives no sample, so the estimate never
	// exceeds RTTCap.
	RTTCap = 2 * time.Second

	// RTTWindow is the number of recent round-trip samples the estimate is the median of.
	// The median of five ignores any two spikes.
	RTTWindow = 5

	// MinRTTSamples is the number of samples before there is an estimate at all: the
	// median of three is the first that a single spike, high or low, cannot move past
	// an honest sample. With one ping per PingInterval it comes about a second after the
	// connection's first ping.
	MinRTTSamples = 3

	// MaxPendingPings is the number of pings per connection the server remembers while
	// waiting for their pongs. At one ping per PingInterval this holds every ping younger
	// than RTTCap; an older one is expired anyway.
	MaxPendingPings = 8
)

// NoPlayer is the PlayerID of no player, 0xFFFF (SA-MP's INVALID_PLAYER_ID).
const NoPlayer = ids.NoPlayer

// NoVehicle is the vehicle id that names no vehicle (SA-MP's INVALID_VEHICLE_ID): the
// seat of a player on foot.
const NoVehicle VehicleID = 0xFFFF

// PlayerID names a player slot, 0..MaxPlayers-1 (the connection of that player). It is
// the same type as every other package's PlayerID (vitals, lifecycle, teams, wire), so an
// id passes between them without a conversion.
type PlayerID = ids.PlayerID

// VehicleID names a vehicle slot, 0..MaxVehicles-1.
type VehicleID uint16

// The history must cover the cap at any frame rate; this fails to compile otherwise.
const _ = uint64((HistoryDepth-2)*MinSampleSpacing - RewindCap)

// The pending pings must cover RTTCap at the ping rate; this fails to compile otherwise.
const _ = uint64(MaxPendingPings*PingInterval - RTTCap)

// HistoryDepth must be a power of two: the rings index with a mask.
const _ = uint64(0) - uint64(HistoryDepth&(HistoryDepth-1))
