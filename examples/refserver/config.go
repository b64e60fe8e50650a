package refserver

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/rewind"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// PlayerID is a player id: the connection of that player. It is the same type as the
// PlayerID of vitals, lifecycle, teams, rewind and wire, so an id passes between the
// World and those packages without a conversion.
type PlayerID = wire.PlayerID

// The "none" ids (SA-MP's INVALID_PLAYER_ID and INVALID_VEHICLE_ID).
const (
	// NoPlayer is the PlayerID of no player, 0xFFFF (SA-MP's INVALID_PLAYER_ID): no
	// attacker, no killer, no creator.
	NoPlayer = wire.NoPlayer
	// NoVehicle is the id of no vehicle: a player on foot.
	NoVehicle = wire.NoVehicle
)

// Limits of the World. Everything a client can make the World remember has one of these
// caps. A cap is the bound on what a connection can make the World hold, not what it costs
// up front: the per-connection tables and queues grow on demand up to their caps (see
// Cost in the package documentation).
const (
	// MaxPlayers is the largest Config.MaxPlayers: the player slots of the teams and rewind
	// packages (10,000: a streaming world).
	MaxPlayers = teams.MaxPlayers
	// DefaultMaxPlayers is Config.MaxPlayers when left zero (SA-MP's MAX_PLAYERS).
	DefaultMaxPlayers = 1000
	// MaxVehicles is the largest Config.MaxVehicles (rewind's vehicle slots).
	MaxVehicles = rewind.MaxVehicles
	// DefaultMaxVehicles is Config.MaxVehicles when left zero.
	DefaultMaxVehicles = MaxVehicles

	// MaxShotCredits is how many accepted shots of one shooter the World remembers for the
	// victims' reports (a table indexed by the shot number). At the fastest cadence of the
	// default catalogue (the minigun, 20 ms) that is 2.56 s of shots. It is the bound, not
	// what a shooter costs up front: the table grows by doubling up to it while the shots
	// that may still be credited need the room (a steady shooter holds the shots of its
	// ShotCreditWindow). A power of two.
	MaxShotCredits = 128
	// ShotCreditWindow is how long after a shot was accepted a victim's report may still be
	// credited to it: the relay to the victim, its report back, and a few retransmissions
	// of a lethal report on the lane at 400 ms of round trip.
	ShotCreditWindow = 3 * time.Second
	// MaxShotVictims is how many different victims one shot may credit (a shotgun's pellets
	// spread over several players); each victim at most one report per pellet.
	MaxShotVictims = 8
	// ShotWindow is the width of the duplicate filter of shot and projectile numbers: a
	// number older than the newest by this much is refused as too old.
	ShotWindow = 64

	// MaxProjectiles is how many projectiles of one owner the World remembers (a ring
	// indexed by the projectile number, allocated at the owner's first projectile).
	MaxProjectiles = 32
	// ProjectileLifetime is how long after its launch a projectile may still detonate (a
	// satchel waits for its detonator).
	ProjectileLifetime = 120 * time.Second
	// BlastRadius is the radius, in metres, within which a projectile's or a vehicle's
	// explosion may hurt a player (the game's largest explosions reach about 10 m).
	BlastRadius = 12
	// ExplosionWindow is how long after a detonation, an accepted vehicle explosion or a
	// gamemode explosion a victim's report may still be correlated with it.
	ExplosionWindow = 3 * time.Second

	// MaxEffects is how many gamemode effects (explosions and fires) may be live at once;
	// CreateExplosion and CreateFire refuse more (ErrTooManyEffects).
	MaxEffects = 256
	// FireLifetime is how long a gamemode fire burns: the client applies its damage while
	// it stands inside during this time (ours: CreateFire carries no duration).
	FireLifetime = 10 * time.Second

	// PositionSlack is added to every distance the World checks between two players or a
	// player and a point: positions are a frame old on each side, and a report arrives a
	// one-way trip after the damage.
	PositionSlack = 4
	// StealthKillRange is the farthest, in metres, an attacker may stand from its victim
	// for a stealth kill: the knife's reach of 2 m and a frame of movement on each side.
	StealthKillRange = 3
	// StealthSeatGrace is how long, beyond the attacker's measured round trip, a stealth
	// kill still finds its victim (or its attacker) on foot after the server gave it a seat
	// ([stealth-on-foot]): the attacker saw the victim on foot up to a round trip before
	// the server, and its claim on the lane may be retransmitted after its own entry's
	// frame. Half a second covers a lost and resent claim at 400 ms.
	StealthSeatGrace = 500 * time.Millisecond
	// RamDistance is the farthest, in metres, a driver may be from the victim of a ram, a
	// run-over or rotor blades (the length of the largest vehicles).
	RamDistance = 20
	// VehicleCreditWindow is how long after an accepted shot claiming a hit on a vehicle
	// its shooter is credited with the vehicle's explosion ([vehicle-credit]).
	VehicleCreditWindow = 10 * time.Second
	// ClaimReach is how close to a ray the rewound position a victim was sent must lie for
	// a claimed hit on it to feed the god-mode detector. The position is the body's root;
	// a body's hit volume reaches about a metre from it (the head above, the shoulders to
	// the sides), so a ray that passed farther hit nothing in the victim's trace, whatever
	// the shooter's screen showed: a link slower than the rewind's cap, or a shooter that
	// led badly. Such a claim only says the shooter missed, and must not count against the
	// victim. The rewind lists recipients out to its near distance (5 m) for their own
	// traces; the detector judges only the claims a trace could confirm.
	ClaimReach = 1
	// VehicleClaimReach is ClaimReach for a claimed hit on a vehicle, judged at the
	// vehicle's rewound pose (its centre): half the length of a long car or a helicopter.
	VehicleClaimReach = 6
	// ContinuousRange is added to a continuous weapon's range for the distance check of
	// its fire, spray or extinguisher damage.
	ContinuousRange = 5
	// ContinuousWindow is how recent the attacker's last frame holding its continuous
	// weapon's fire (or sitting in a driver's seat) must be for fire, spray, extinguisher
	// damage (or a ram) to be attributed to it: the victim sums such damage for
	// FireSumInterval before it reports, and the report takes a one-way trip.
	ContinuousWindow = 2 * time.Second
	// VehicleShotGrace is how long after its last frame in a driver's seat a player's
	// VehicleShot from that vehicle is still taken: a shot fired just before it got out
	// may be overtaken by the frame that shows it on foot. Above any jitter; the guns keep
	// their rate limit meanwhile.
	VehicleShotGrace = 500 * time.Millisecond
	// EntryReach is the farthest, in metres, a player's accepted position (its last
	// accepted frame, or where the server put it) may lie from a vehicle's accepted
	// position for a frame that claims one of the vehicle's seats to be granted: the
	// player walks up to a door (a bus's front door stands 5 m from its centre), and each
	// side of the comparison is one link's delay old (a passenger getting into a moving
	// car). Measured: the worst honest entry of the simulator was 4.20 m (seeds 1-4 of the
	// default match and of 32 players at 400 ms, 30 ms jitter, 5 % loss, 12 cars;
	// Stats.EntryReachMax), 5.43 m with 16 cheaters among 32 players; 10 m leaves almost
	// twice that.
	EntryReach = 10
	// EntryCorrectionInterval is the least time between two SetPlayerPositions the World
	// sends a player whose entry it refused (back to its last accepted position, out of
	// the seat its client believes it holds).
	EntryCorrectionInterval = time.Second
	// VehicleGunSlack is how far, in metres, beyond its gun's mount reach a vehicle shot's
	// origin may lie from the gun's mount on the vehicle's accepted pose, plus the
	// vehicle's speed times VehicleGunLag: the shot and the vehicle's frame that showed
	// the pose it was fired from travel as separate datagrams, and a vehicle that turned
	// in between carries its mount round with it (up to twice the mount's offset; the
	// simulator's cars take a new heading at once). Measured: the worst honest origin was
	// 2.81 m beyond the mount reach and the lag (seeds 1-4 of the default match and of 32
	// players at 400 ms, 30 ms jitter, 5 % loss, 12 cars; Stats.VehicleGunOriginMax);
	// 6 m leaves twice that. A ray from anywhere else (the far side of the map) is
	// refused.
	VehicleGunSlack = 6
	// VehicleGunLag is how far apart in time a vehicle shot and the accepted pose it is
	// judged against may have been taken: a frame interval, the jitter, and a lost frame.
	VehicleGunLag = 250 * time.Millisecond
	// VehicleGunMaxSpeed caps the speed (m/s) the origin check multiplies by
	// VehicleGunLag: faster than any vehicle of the game, so the driver's claimed
	// velocity cannot widen the check without bound.
	VehicleGunMaxSpeed = 100
	// ActionGrace is how long after its death's commit a player's blow or ram reported by
	// its victim is still attributed to it: both were dealt alive, before the commit
	// reached the victim.
	ActionGrace = time.Second
	// ProximityLookback is how far back the World compares two players' paths for a blow,
	// a ram, a spray or a stealth kill: what the victim (or the attacker) saw was its copy
	// of the other, up to a round trip old.
	ProximityLookback = time.Second
	// ProximitySkew is the largest difference between the moments of the two paths that
	// are compared: the two players' frames reach the server over different links.
	ProximitySkew = 500 * time.Millisecond
	// PropertiesGrace is how long after a client acknowledged a weapon properties
	// revision its reports may still have been computed with an older one (as
	// vitals.MultiplierGrace for multiplier tables).
	PropertiesGrace = 2 * time.Second

	// OriginWindow is how far back the World looks along a shooter's (or a projectile
	// owner's) accepted path for where its shot or launch may start: a shot and the frames
	// of its moment travel the same link, so it may overtake them or follow newer ones by
	// a frame interval, the jitter and a few lost frames; 500 ms holds all of that at any
	// round-trip time.
	OriginWindow = 500 * time.Millisecond
	// OriginReach is how far, in metres, a shot's ray or a thrown projectile may start from
	// the accepted path of an actor on foot: the muzzle or the hand at arm's length from
	// the body's root, and the step a frame covers. Measured in the simulator (the match
	// report's origins; seeds 1-4 at 400 ms, 30 ms jitter, 5 % loss, and the default
	// match): at most 1.25 m for shots and for grenades thrown on foot.
	OriginReach = 3
	// SeatedOriginReach is OriginReach for an actor whose frames put it in a vehicle's
	// seat within OriginWindow (a drive-by: its frames carry the vehicle's position): the
	// seat and the arm out of the window from the vehicle's centre, up to half the length
	// of a coach. Measured: at most 5.2 m for passengers firing out of cars driving at
	// 13 m/s (a passenger's game moves the car by the driver's relayed frames, which
	// arrive in bursts; the lead adds 2 m at that speed).
	SeatedOriginReach = 8
	// OriginLead is the time by which an actor may have moved beyond the newest frame the
	// World accepted when its shot or launch arrives (a frame interval, the jitter and two
	// lost frames); the allowance is the actor's speed along its accepted path over
	// OriginWindow, at most MaxOriginSpeed, times OriginLead.
	OriginLead = 150 * time.Millisecond
	// MaxOriginSpeed caps, in metres per second, the speed OriginLead is taken at for an
	// actor in a seat: above the fastest vehicle of the game, so a client shaking its own
	// path gains no more.
	MaxOriginSpeed = 100
	// MaxFootSpeed is MaxOriginSpeed for an actor on foot: above a sprint (about 8 m/s) and
	// a parachute's fall. Frames that jump (a client teleporting itself) make a path look
	// fast; without this cap their lead let a shot start 18 m from where the shooter's
	// frames put it (the unscripted adversary's finding).
	MaxFootSpeed = 20
	// VehicleLaunchReach is how far, in metres, a vehicle's rocket (a Hunter's or a
	// Hydra's) may start from the vehicle's accepted path: half the length of the Hunter,
	// its largest launcher. A catalogue of the vehicles' gun mounts would replace it with
	// the mount's offset and a small slack.
	VehicleLaunchReach = 12
	// ThrowSlack is added to a thrown weapon's Range (the catalogue's throw reach: 40 m for
	// grenades, tear gas, molotovs and satchels) for the distance between its launch and
	// its detonation: a throw from a height, the bounces and the roll. Measured: honest
	// grenades detonated at most 30.5 m from their launch (the simulator throws at 12-30 m
	// on flat ground).
	ThrowSlack = 20
	// RocketSpeed bounds, in metres per second, how fast a rocket (weapon 35 or 36) moves
	// away from its launch: above the game's rockets with the speed of the fastest jet that
	// launches them added. Its detonation lies within RocketSpeed × (the time since the
	// launch was accepted + RocketTimeSlack), at most MaxRocketTravel. (The simulator fires
	// no rockets: this and the vehicle launch bounds are sized from the game alone.)
	RocketSpeed = 150
	// RocketTimeSlack is added to the time between a rocket's launch and its detonation as
	// the server received them: the two datagrams' delays differ by up to the jitter.
	RocketTimeSlack = 250 * time.Millisecond
	// MaxRocketTravel caps, in metres, the distance between a rocket's launch and its
	// detonation (ours: beyond the distance over which the game streams players to each
	// other, no honest rocket is seen to explode).
	MaxRocketTravel = 500
	// SatchelRideReach is how far, in metres, a satchel's detonation may lie from the
	// accepted path of a vehicle it may ride: a satchel sticks to what it lands on, so
	// one thrown onto a vehicle explodes wherever that vehicle went. The vehicles it may
	// ride are the ones that stood within its throw's reach (plus this) when it was thrown.
	SatchelRideReach = 8
	// MaxSatchelRides is how many vehicles one satchel may ride (the nearest ones to its
	// launch).
	MaxSatchelRides = 4
	// LostLaunchLookback is how far back the owner's accepted path reaches for a
	// detonation whose launch never arrived (the throw happened before it, by the fuse);
	// the history holds at least rewind's 484 ms of it, about two seconds at 30 frames a
	// second.
	LostLaunchLookback = 3 * time.Second
	// LostLaunchSlack is added, in metres, to the reach of such a detonation from the
	// owner's path: how far the owner may have walked since the throw beyond what its
	// history still holds. Measured: such detonations lay at most 29.8 m from the owner's
	// path (the bound for a grenade is its Range 40 + 3 + 10 = 53 m; the unscripted
	// adversary found forged ones accepted at 61-72 m when the bound also took ThrowSlack).
	LostLaunchSlack = 10

	// MaxFanOut caps the relayed messages (frames, vehicle frames, shots) the World holds
	// for its connections between two Flush calls; more are dropped (Stats.FanOutDropped).
	// A host flushes every tick, far below it.
	MaxFanOut = 1 << 20

	// ShowBacklogRoom is how many messages a connection's lane may hold before the World
	// stops queueing the PlayerShows it still owes it (half the lane's soft cap): in a World
	// of more players than the soft cap, a newcomer is shown everybody over a few ticks,
	// and its commands and its respawn always find room. Until a subject is shown to a
	// connection, its frames and lifecycle edges are not sent there.
	ShowBacklogRoom = lane.SoftCap / 2

	// DefaultPayloadSize is Config.PayloadSize when left zero: the bytes of one datagram
	// Flush sends, below the common path MTU of the Internet after IP and UDP headers (the
	// reliable lane's own budget, lane.MTU).
	DefaultPayloadSize = 1200
	// MinPayloadSize is the smallest Config.PayloadSize: every datagram of its own (the
	// largest message, wire.MaxSize bytes, and a lane datagram, which the lane fills up to
	// lane.MTU and never splits) must fit one datagram alone (transport.MinPayloadSize).
	MinPayloadSize = transport.MinPayloadSize
	// MaxPayloadSize is the largest Config.PayloadSize: the largest UDP payload over IPv4.
	MaxPayloadSize = lane.MaxMTU

	// MaxPendingEvents caps the events waiting for Events; more are dropped and counted
	// (Stats.EventsDropped).
	MaxPendingEvents = 1 << 16
	// SuspectInterval is how often Tick evaluates each player's god-mode detector.
	SuspectInterval = time.Second
	// DefaultRTT is the round-trip time the death wait counts for a connection whose RTT
	// is not measured yet.
	DefaultRTT = time.Second
)

// Vehicle models with a special gun in the default vehicle catalogue (GTA San Andreas
// model ids; inventory.DefaultVehicleTable has them all).
const (
	// ModelPredator is the Predator, whose guns have the fixed damage of
	// vitals.PredatorDamage and their own multiplier class.
	ModelPredator = inventory.ModelPredator
	// ModelRhino is the Rhino, whose cannon's ray only sets the point of an explosion and
	// rewinds nobody (rewind's [rewind-to-shooters-view]).
	ModelRhino = inventory.ModelRhino
	// ModelHunter and ModelHydra are the aircraft that launch rockets of their own (the
	// only projectiles a vehicle launches; they come from no player's store).
	ModelHunter = inventory.ModelHunter
	ModelHydra  = inventory.ModelHydra
)

// Skill levels the World sends for each tier (SetWeaponSkill; ours: the game's 0..999).
const (
	// SkillLevelPoor is the level sent for inventory.TierPoor.
	SkillLevelPoor uint16 = 0
	// SkillLevelStd is the level sent for inventory.TierStd.
	SkillLevelStd uint16 = 500
	// SkillLevelPro is the level sent for inventory.TierPro.
	SkillLevelPro uint16 = 999
)

// Loadout is one weapon given to every player at every respawn grant (after the grant's
// clear), through the normal GiveWeapon command.
type Loadout struct {
	// Weapon is the weapon given (not the fists).
	Weapon uint8
	// Ammo is the rounds given with it.
	Ammo uint16
	// Current makes it the held weapon.
	Current bool
}

// Config configures a World. The zero Config is the records' defaults with every slot.
type Config struct {
	// MaxPlayers is the number of player slots: connection ids 0..MaxPlayers-1. Zero
	// means DefaultMaxPlayers (1000); at most MaxPlayers.
	MaxPlayers int
	// MaxVehicles is the number of vehicle slots, ids 0..MaxVehicles-1. Zero means
	// DefaultMaxVehicles (2000); at most MaxVehicles.
	MaxVehicles int
	// RespawnDelay is the lifecycle's default time from a death's commit to its respawn.
	// Zero means lifecycle.DefaultRespawnDelay (3 s).
	RespawnDelay time.Duration
	// SpawnPoint is the standing spawn point of a new connection. Zero: the origin.
	SpawnPoint lifecycle.SpawnPoint
	// HoldConnectSpawn makes the connect spawn wait for DecideRespawn.
	HoldConnectSpawn bool
	// Loadout is given at every respawn grant (the connect spawn included). Nil: nothing.
	// At most inventory.NumSlots entries.
	Loadout []Loadout
	// Weapons configures the weapon catalogue (zero: GTA San Andreas).
	Weapons inventory.Config
	// Vitals configures every player's ledger and god-mode detector (zero: vitals' defaults).
	Vitals vitals.Config
	// VehicleGodMode configures every player's vehicle_god_mode detector (zero: the
	// package's defaults, see vitals.VehicleDetector).
	VehicleGodMode vitals.VehicleConfig
	// Rewind configures the rewind (its Players and Vehicles are taken from MaxPlayers and
	// MaxVehicles; the zero rest is the package's defaults).
	Rewind rewind.Config
	// PayloadSize is the most bytes of one datagram Flush sends: everything a connection
	// gets in one Flush is coalesced into as few datagrams of at most this size as fit.
	// Zero means DefaultPayloadSize (1200); MinPayloadSize..MaxPayloadSize.
	PayloadSize int
	// Stream configures streaming, who sees whom (zero: shown within 200 m, at most 100
	// per connection; StreamConfig.Everyone turns it off).
	Stream StreamConfig
}

func (c Config) withDefaults() (Config, error) {
	if c.MaxPlayers == 0 {
		c.MaxPlayers = DefaultMaxPlayers
	}
	if c.MaxPlayers < 1 || c.MaxPlayers > MaxPlayers {
		return c, fmt.Errorf("%w: MaxPlayers %d not in 1..%d", ErrConfig, c.MaxPlayers, MaxPlayers)
	}
	if c.MaxVehicles == 0 {
		c.MaxVehicles = DefaultMaxVehicles
	}
	if c.MaxVehicles < 1 || c.MaxVehicles > MaxVehicles {
		return c, fmt.Errorf("%w: MaxVehicles %d not in 1..%d", ErrConfig, c.MaxVehicles, MaxVehicles)
	}
	if len(c.Loadout) > inventory.NumSlots {
		return c, fmt.Errorf("%w: %d loadout entries, at most %d", ErrConfig, len(c.Loadout), inventory.NumSlots)
	}
	if c.PayloadSize == 0 {
		c.PayloadSize = DefaultPayloadSize
	}
	if c.PayloadSize < MinPayloadSize || c.PayloadSize > MaxPayloadSize {
		return c, fmt.Errorf("%w: PayloadSize %d not in %d..%d", ErrConfig, c.PayloadSize, MinPayloadSize, MaxPayloadSize)
	}
	c.Loadout = append([]Loadout(nil), c.Loadout...)
	c.Rewind.Players = c.MaxPlayers
	c.Rewind.Vehicles = c.MaxVehicles
	return c, nil
}

// The errors of the package: a refused gamemode command or constructor returns one of
// them, wrapping the deciding package's own error where there is one (so errors.Is works
// with both). A refused command changes nothing and sends nothing.
var (
	// ErrConfig refuses a Config field outside its documented range.
	ErrConfig = errors.New("refserver: invalid config")
	// ErrClockBackwards refuses a call whose now lies before the World's clock.
	ErrClockBackwards = errors.New("refserver: time before the world's clock")
	// ErrUnknownPlayer refuses a command for a player id that is not connected.
	ErrUnknownPlayer = errors.New("refserver: unknown player")
	// ErrNotAlive refuses a command that needs a life the server counts (health and armor
	// commands after the first frame of the life, while alive and not counted dead).
	ErrNotAlive = errors.New("refserver: player not alive")
	// ErrNotFinite refuses a NaN or infinite number.
	ErrNotFinite = errors.New("refserver: value not finite")
	// ErrOutOfRange refuses a value outside the range of its command (a health above 200,
	// an add of 0, a multiplier above 100, a position beyond the map bound, ...).
	ErrOutOfRange = errors.New("refserver: value out of range")
	// ErrLaneFull refuses a command whose message the reliable lane of a recipient cannot
	// take now (its soft cap is reached): nothing was committed.
	ErrLaneFull = errors.New("refserver: reliable lane full")
	// ErrWeapon refuses a weapon command the inventory refuses (unknown weapon, not a
	// weapon, not owned, a clip above the total, a bad skill or tier).
	ErrWeapon = errors.New("refserver: weapon command refused")
	// ErrPropertiesBusy refuses a weapon properties change that would drop a revision shots
	// in flight may still name; publish it later.
	ErrPropertiesBusy = errors.New("refserver: weapon properties busy")
	// ErrTeam refuses a team command the teams registry refuses (unknown team, a taken id,
	// a bad name, ...).
	ErrTeam = errors.New("refserver: team command refused")
	// ErrRespawn refuses a respawn decision the lifecycle refuses (not dead, wrong
	// generation, a bad spawn point).
	ErrRespawn = errors.New("refserver: respawn decision refused")
	// ErrUnknownVehicle refuses a command for a vehicle that does not exist (or an id
	// outside the slots).
	ErrUnknownVehicle = errors.New("refserver: unknown vehicle")
	// ErrVehicleExists refuses CreateVehicle for a slot that holds a vehicle.
	ErrVehicleExists = errors.New("refserver: vehicle already exists")
	// ErrTooManyEffects refuses a gamemode effect while MaxEffects effects are live.
	ErrTooManyEffects = errors.New("refserver: too many live effects")
	// ErrRateLimited is Receive's error for a datagram over its connection's DatagramRate.
	ErrRateLimited = errors.New("refserver: connection over its rate")
)

// wrap returns sentinel wrapping the domain error err.
func wrap(sentinel, err error) error { return fmt.Errorf("%w: %w", sentinel, err) }

func finite32(v float32) bool {
	return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0)
}

func validPosition(p wire.Vec3) error {
	for _, v := range [...]float32{p.X, p.Y, p.Z} {
		if !finite32(v) {
			return fmt.Errorf("%w: position %v", ErrNotFinite, p)
		}
		if v > wire.MaxCoord || v < -wire.MaxCoord {
			return fmt.Errorf("%w: position %v beyond %d", ErrOutOfRange, p, wire.MaxCoord)
		}
	}
	return nil
}

func validRotation(q wire.Quat) error {
	for _, v := range [...]float32{q.W, q.X, q.Y, q.Z} {
		if !finite32(v) {
			return fmt.Errorf("%w: rotation %v", ErrNotFinite, q)
		}
	}
	n := q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z
	// The wire takes |q| in 0.9..1.1.
	if n < 0.81 || n > 1.21 {
		return fmt.Errorf("%w: rotation %v is not a unit quaternion", ErrOutOfRange, q)
	}
	return nil
}
