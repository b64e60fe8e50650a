package vitals

import (
	"fmt"
	"time"
)

// The vehicle_god_mode suspicion detector ([vehicle-god-mode-detector]).
//
// A vehicle's health is not on the ledger: the driver's client computes and shows it, and
// no rule makes the server own it. A client that never lets its vehicle take damage
// looks, to the server, like a driver whose car every bullet missed. So it is left to
// statistics, as a skipped hit is: the detector weighs the hits shooters claimed on the
// vehicles a player drove, each accepted against the vehicle's rewound pose (the pose the
// shot's recipients were sent), against the health those vehicles lost in the player's
// own vehicle frames.

const (
	// DefaultVehicleMinClaimed is the least claimed vehicle loss in the window before a
	// vehicle_god_mode flag: a quarter of a car's 1000 health, or nine M4 hits.
	DefaultVehicleMinClaimed float32 = 250
	// MaxVehicleClaimedLoss is the largest loss one claimed vehicle hit may expect.
	MaxVehicleClaimedLoss float32 = 10000
	// MaxVehicleHealth is the largest vehicle health a frame may show (the wire's bound).
	MaxVehicleHealth float32 = 100000
)

// VehicleConfig configures a VehicleDetector. The zero VehicleConfig is the defaults; the
// fields mean what Config's suspicion fields mean, for vehicles.
type VehicleConfig struct {
	// Window is the detector's sliding window. Zero means DefaultSuspicionWindow (20 s).
	// Otherwise ClaimGrace+2s..MaxSuspicionWindow, rounded up to whole SuspicionBuckets.
	Window time.Duration
	// Ratio flags a driver whose vehicles lost less than this share of the claimed loss.
	// Zero means DefaultSuspicionRatio (0.10). Otherwise in (0, 1].
	Ratio float32
	// MinHits is the least number of claimed hits before a flag. Zero means
	// DefaultSuspicionMinHits (20). Otherwise 1..100000.
	MinHits int
	// MinClaimed is the least claimed loss before a flag. Zero means
	// DefaultVehicleMinClaimed (250). Otherwise finite and in (0, 100000].
	MinClaimed float32
}

// VehicleDetector is the vehicle_god_mode suspicion detector of one player: the driver
// whose frames report its vehicle's health. A host keeps one per connection next to its
// Player, and starts it anew (NewVehicleDetector) for a new player on a reused id.
//
// Its rules:
//   - HitClaimed counts a hit a shooter claimed on the vehicle the player drives, once
//     the server accepted it against that vehicle's rewound pose, with the loss the hit
//     would cause the vehicle.
//   - Health takes the vehicle health each of the player's own vehicle frames shows. Only
//     a fall from the previous frame of the same vehicle counts as felt; a rise (a
//     repair) moves the baseline up and counts nothing, and a frame of another vehicle,
//     or the first one after Left, only sets the baseline.
//   - Left forgets the claims not judged yet and the baseline: the player left the
//     vehicle, its vehicle was wrecked, or it died. Shots keep landing on a vehicle for a
//     round trip after the server learned of it, and those hits land on a vehicle whose
//     health this player no longer reports.
//   - Suspect flags (Suspicion.Raised, once, re-armed when the condition stops holding)
//     when over the window at least MinHits hits were claimed, their claimed loss is at
//     least MinClaimed, and the felt loss stays below Ratio of it. A claim is judged only
//     once it is ClaimGrace (3 s) old, so a claim racing the frame that shows its damage
//     never counts. A vehicle hit has no report to confirm it, so Suspicion.Confirmed is
//     always 0.
//
// It never changes anything but its own statistics. Its memory is fixed at construction
// (about 0.4 KB with the default window: the buckets of the configured window; a host
// that has many players and few drivers makes it at a player's first use), and no method
// allocates, but for 240 bytes once, in the first second that counts more than 65535
// claims (the high halves of the buckets' counts).
type VehicleDetector struct {
	s       suspicionState
	have    bool    // a baseline is set
	seen    bool    // a frame was taken: vehicle is set
	vehicle uint16  // the vehicle of the last frame taken (the baseline's while have)
	health  float32 // the baseline: the health the last frame showed
}

// NewVehicleDetector returns an empty detector, or ErrConfig for a bad cfg.
//
// Rules: [vehicle-god-mode-detector].
func NewVehicleDetector(cfg VehicleConfig) (VehicleDetector, error) {
	if cfg.MinClaimed == 0 {
		cfg.MinClaimed = DefaultVehicleMinClaimed
	}
	c, err := Config{
		SuspicionWindow:     cfg.Window,
		SuspicionRatio:      cfg.Ratio,
		SuspicionMinHits:    cfg.MinHits,
		SuspicionMinClaimed: cfg.MinClaimed,
	}.withDefaults()
	if err != nil {
		return VehicleDetector{}, err
	}
	return VehicleDetector{s: newSuspicionState(c)}, nil
}

// HitClaimed counts a claimed hit on the vehicle the player drives, accepted against the
// vehicle's rewound pose, with expected the loss it would cause the vehicle (finite,
// 0..MaxVehicleClaimedLoss; anything else is ErrNotFinite or ErrOutOfRange and counts
// nothing). It returns the detector's verdict at now, as Suspect does.
func (d *VehicleDetector) HitClaimed(now time.Duration, expected float32) (Suspicion, error) {
	if !finite(expected) {
		return Suspicion{}, fmt.Errorf("%w: expected vehicle loss %v", ErrNotFinite, expected)
	}
	if expected < 0 || expected > MaxVehicleClaimedLoss {
		return Suspicion{}, fmt.Errorf("%w: expected vehicle loss %v not in 0..%v", ErrOutOfRange, expected, MaxVehicleClaimedLoss)
	}
	if d.s.n == 0 {
		return Suspicion{}, fmt.Errorf("%w: VehicleDetector not made by NewVehicleDetector", ErrConfig)
	}
	d.s.claim(now, expected)
	return d.s.evaluate(now), nil
}

// Health takes the health of vehicle the player's own vehicle frame shows (finite,
// 0..MaxVehicleHealth; anything else is ErrNotFinite or ErrOutOfRange and changes
// nothing). A fall from the previous frame of the same vehicle is felt.
func (d *VehicleDetector) Health(now time.Duration, vehicle uint16, health float32) error {
	if !finite(health) {
		return fmt.Errorf("%w: vehicle health %v", ErrNotFinite, health)
	}
	if health < 0 || health > MaxVehicleHealth {
		return fmt.Errorf("%w: vehicle health %v not in 0..%v", ErrOutOfRange, health, MaxVehicleHealth)
	}
	if d.s.n == 0 {
		return fmt.Errorf("%w: VehicleDetector not made by NewVehicleDetector", ErrConfig)
	}
	if d.have && d.vehicle == vehicle && health < d.health {
		d.s.feel(now, d.health-health)
	}
	d.have, d.seen, d.vehicle, d.health = true, true, vehicle, health
	return nil
}

// Vehicle returns the vehicle of the last frame Health took, and false before any: the
// vehicle a flag is about. Left does not forget it.
func (d *VehicleDetector) Vehicle() (uint16, bool) { return d.vehicle, d.seen }

// Left tells the detector that the player no longer drives the vehicle of its frames (it
// left it, the vehicle was wrecked, or the player died): the claims not judged yet are
// forgotten and the next frame sets a new baseline.
func (d *VehicleDetector) Left(now time.Duration) {
	d.s.forgetYoung(now)
	d.have = false
}

// Suspect evaluates the detector at now. Suspicion.Raised is set once when the player
// starts to meet the condition; Claimed, Felt and Hits are the window's sums. Call it
// every tick or so.
func (d *VehicleDetector) Suspect(now time.Duration) Suspicion {
	if d.s.n == 0 {
		return Suspicion{}
	}
	return d.s.evaluate(now)
}
