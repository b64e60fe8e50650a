package match

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// The arena and its physics, such as the match needs them. The arena is a flat square;
// walls are not modelled as geometry but as a chance that a ray aimed at a player is
// stopped (WallChance), decided by the victim's game as the records say it must be.
const (
	// ArenaHalf is half the side of the square arena, in metres.
	ArenaHalf = 90
	// Ground is the height of the arena's floor.
	Ground = 10
	// WalkSpeed and DriveSpeed are how fast bots move, in metres per second.
	WalkSpeed  = 5.5
	DriveSpeed = 13
	// BodyRadius is how far from a player's position a ray may pass and still hit it.
	BodyRadius = 1.2
	// WallChance is the chance that a ray aimed at a player is stopped before it.
	WallChance = 0.45
	// PelletChance is the chance that each further pellet of a shotgun hit lands too.
	PelletChance = 0.4
	// VehicleHealth is a car's health when it is created.
	VehicleHealth = 1000
	// RamDistance is how close a moving car must pass a pedestrian to hit it.
	RamDistance = 3
	// RamCooldown is the least time between two rams of one pedestrian by one driver.
	RamCooldown = 2 * time.Second
	// FireRadius and ExplosionRadius are the gamemode's effects' radii.
	FireRadius      = 4
	ExplosionRadius = 7
	// FireTick is the damage a fire does per 100 ms to a player standing in it.
	FireTick = 1.5
	// SprayRange and SprayTick are the reach of a bot's spraycan and its damage per 100 ms.
	SprayRange = 5.5
	SprayTick  = 0.6
)

// car is a vehicle of the arena.
type car struct {
	id        uint16
	model     uint16
	pose      client.VehiclePose
	driver    int // player index, or -1
	passenger int // player index, or -1
	wrecked   bool
	respawnAt time.Duration
	home      wire.Vec3
	waypoint  wire.Vec3
	// lastHealth is the car's health when nobody drives it (its driver's client keeps it
	// while it is driven).
	lastHealth float32
}

// health is the car's health as the next driver's game finds it.
func (c *car) health() float32 { return c.lastHealth }

// fire is a gamemode fire burning in the arena.
type fire struct {
	effect uint16
	pos    wire.Vec3
	until  time.Duration
}

// world is the arena's ground truth beyond what each client holds of its own player. It
// answers the clients' traces (client.World).
type world struct {
	rng *rand.Rand
	// wallChance and pelletChance are WallChance and PelletChance, or 0 and 1 in a
	// manual match, where every aimed ray hits with every pellet.
	wallChance, pelletChance float64
	cars                     []*car
	fires                    []fire
	rams                     map[[2]int]time.Duration
	// skip marks the players whose game skips every hit (CheatSkipHits).
	skip []bool
}

func newWorld(rng *rand.Rand, vehicles int, half float64) *world {
	w := &world{rng: rng, rams: map[[2]int]time.Duration{}, wallChance: WallChance, pelletChance: PelletChance}
	// On a map larger than the arena the cars stand on a grid over the whole map.
	cols := int(math.Ceil(math.Sqrt(float64(max(vehicles, 1)))))
	for i := range vehicles {
		home := wire.Vec3{X: float32(-60 + 40*(i%4)), Y: float32(-60 + 40*(i/4%4)), Z: Ground}
		if half > ArenaHalf {
			step := 2 * half / float64(cols)
			home.X = float32(-half + step*(float64(i%cols)+0.5))
			home.Y = float32(-half + step*(float64(i/cols)+0.5))
		}
		model := uint16(carModel)
		switch i {
		case 0:
			model = refserver.ModelPredator // fixed-damage guns
		case 1:
			model = refserver.ModelHunter // bullet guns
		case 2:
			model = inventory.ModelSeasparrow // bullet guns and a passenger's seat
		}
		w.cars = append(w.cars, &car{id: uint16(i), model: model, driver: -1, passenger: -1, home: home, lastHealth: VehicleHealth,
			pose: client.VehiclePose{Position: home, Rotation: wire.Quat{W: 1}}})
	}
	return w
}

// Trace decides whether a relayed shot hits the player self, standing at pose: the ray must
// be aimed at it (the shooter's claim names it) and pass within BodyRadius of the pose, and
// no wall may stop it (WallChance). A shotgun's further pellets land with PelletChance each.
func (w *world) Trace(self wire.PlayerID, shot client.Shot, pose client.Pose) (int, uint8) {
	if shot.HitType != wire.HitPlayer || wire.PlayerID(shot.HitID) != self {
		return 0, 0
	}
	if int(self) < len(w.skip) && w.skip[self] {
		return 0, 0 // a cheating game: no wall, no hit
	}
	if segmentDistance(shot.Origin, shot.HitPos, pose.Position) > BodyRadius {
		return 0, 0
	}
	if w.rng.Float64() < w.wallChance {
		return 0, 0
	}
	pellets := 1
	for range max(shot.Pellets-1, 0) {
		if w.rng.Float64() < w.pelletChance {
			pellets++
		}
	}
	return pellets, uint8(3 + w.rng.IntN(7))
}

// VehicleModel tells the model of a car: the first is a Predator (fixed-damage guns), the
// second a Hunter and the third a Sea Sparrow (bullet guns), the rest Sultans (unarmed).
// What a model's guns are is the vehicle catalogue's, the server's and the clients' alike.
func (w *world) VehicleModel(id uint16) (uint16, bool) {
	if c := w.car(id); c != nil {
		return c.model, true
	}
	return 0, false
}

// vehicles is the vehicle catalogue the server judges vehicles by (the clients have the
// same): each model's seats and guns.
func (m *Match) vehicles() *inventory.VehicleCatalog { return m.server.Catalog().Vehicles() }

func (w *world) car(id uint16) *car {
	if int(id) < len(w.cars) {
		return w.cars[id]
	}
	return nil
}

// randomPoint returns a point of the square map of half side half.
func randomPoint(rng *rand.Rand, half float64) wire.Vec3 {
	return wire.Vec3{
		X: float32((rng.Float64()*2 - 1) * half),
		Y: float32((rng.Float64()*2 - 1) * half),
		Z: Ground,
	}
}

// Roam is how far from where it stands a bot picks its next waypoint on a map larger
// than the arena (Config.World), in metres: beyond the server's stream distance, so a bot
// walks (and drives) into and out of the others' streams.
const Roam = 250

// roamPoint is a bot's next waypoint: a point of the map within Roam of from (on the
// arena, any point of it).
func roamPoint(rng *rand.Rand, from wire.Vec3, half float64) wire.Vec3 {
	if half <= ArenaHalf {
		return randomPoint(rng, half)
	}
	clamp := func(v float64) float32 { return float32(min(max(v, -half), half)) }
	return wire.Vec3{
		X: clamp(float64(from.X) + (rng.Float64()*2-1)*Roam),
		Y: clamp(float64(from.Y) + (rng.Float64()*2-1)*Roam),
		Z: Ground,
	}
}

// half is half the side of the match's map.
func (c Config) half() float64 { return c.World / 2 }

func sub(a, b wire.Vec3) wire.Vec3 { return wire.Vec3{X: a.X - b.X, Y: a.Y - b.Y, Z: a.Z - b.Z} }

func add(a, b wire.Vec3) wire.Vec3 { return wire.Vec3{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z} }

func scale(a wire.Vec3, k float32) wire.Vec3 { return wire.Vec3{X: a.X * k, Y: a.Y * k, Z: a.Z * k} }

func length(a wire.Vec3) float32 {
	return float32(math.Sqrt(float64(a.X*a.X + a.Y*a.Y + a.Z*a.Z)))
}

func dist(a, b wire.Vec3) float32 { return length(sub(a, b)) }

// segmentDistance is the distance from p to the segment a-b.
func segmentDistance(a, b, p wire.Vec3) float32 {
	ab, ap := sub(b, a), sub(p, a)
	l2 := ab.X*ab.X + ab.Y*ab.Y + ab.Z*ab.Z
	if l2 == 0 {
		return length(ap)
	}
	t := (ap.X*ab.X + ap.Y*ab.Y + ap.Z*ab.Z) / l2
	t = min(max(t, 0), 1)
	return dist(p, add(a, scale(ab, t)))
}

// stepTowards moves from p towards target by at most d metres; it reports the new point
// and whether the target was reached.
func stepTowards(p, target wire.Vec3, d float32) (wire.Vec3, bool) {
	v := sub(target, p)
	l := length(v)
	if l <= d || l == 0 {
		return target, true
	}
	return add(p, scale(v, d/l)), false
}

// facing is the heading (radians) of a direction on the ground.
func facing(v wire.Vec3) float32 { return float32(math.Atan2(float64(v.Y), float64(v.X))) }

// yaw is the rotation about the vertical axis by angle a.
func yaw(a float32) wire.Quat {
	s, c := math.Sincos(float64(a) / 2)
	return wire.Quat{W: float32(c), Z: float32(s)}
}
