package inventory

import (
	"fmt"
	"math"
	"time"
)

// Sizes of the vehicle catalogue.
const (
	// FirstVehicleModel is the first vehicle model id of GTA San Andreas (400).
	FirstVehicleModel = 400
	// NumVehicleModels is the number of vehicle models: ids 400..611.
	NumVehicleModels = 212
	// MaxVehicleSeats is the most seats a vehicle has, the driver's included (the game
	// seats a driver and up to eight passengers: seat numbers 0..8).
	MaxVehicleSeats = 9
	// MaxVehicleGuns is the most guns (VehicleShot rays) one model has.
	MaxVehicleGuns = 2
	// MaxVehicleRockets is the most kinds of rocket one model launches.
	MaxVehicleRockets = 2
	// DefaultVehicleGunBurst is the burst allowance of a vehicle gun whose Burst is zero:
	// the same allowance as a hand-held weapon's (DefaultShotRateTolerance), for the same
	// reason (jitter and reordering bunch honest shots on arrival).
	DefaultVehicleGunBurst = DefaultShotRateTolerance
)

//go:generate go tool stringer -type=GunKind -linecomment

// GunKind is what a vehicle's gun does.
type GunKind uint8

// The kinds of vehicle gun.
const (
	// GunNone is an empty gun entry: no gun.
	GunNone GunKind = iota // none
	// GunBullets fires instant-hit rounds of its Weapon: a hit does that weapon's
	// standard-tier damage (vehicle guns have no skill).
	GunBullets // bullets
	// GunFixed fires instant-hit rounds of a fixed raw damage (VehicleGun.Damage; the
	// Predator's 15), not the weapon table's.
	GunFixed // fixed
	// GunCannon is the Rhino's cannon: its ray only sets the point of an explosion, which
	// hits whoever stands there when it goes off.
	GunCannon // cannon
	numGunKinds
)

// SeatMask is a set of seat numbers: bit s is seat s (0 is the driver's).
type SeatMask uint16

// SeatSet returns the mask of the given seats (numbers of MaxVehicleSeats and above are
// ignored).
func SeatSet(seats ...uint8) SeatMask {
	var m SeatMask
	for _, s := range seats {
		if s < MaxVehicleSeats {
			m |= 1 << s
		}
	}
	return m
}

// Has reports whether seat is in the mask.
func (m SeatMask) Has(seat uint8) bool { return seat < MaxVehicleSeats && m&(1<<seat) != 0 }

// Quat is a rotation as a unit quaternion (w, x, y, z), in the game's axes.
type Quat struct{ W, X, Y, Z float32 }

// VehicleGun is one gun of a vehicle model: what its VehicleShot names, who fires it, how
// far and how fast, and where its rays start.
type VehicleGun struct {
	// Kind is what the gun does; GunNone marks an empty entry.
	Kind GunKind
	// Weapon is the weapon id the client's VehicleShot names for this gun. For GunBullets
	// it is a bullet weapon of the weapon table, whose standard-tier damage is a hit's.
	Weapon uint8
	// Seats are the seats whose occupant fires the gun (the game: the driver's).
	Seats SeatMask
	// Range is the longest ray, from its origin to its end (metres).
	Range float32
	// MinInterval is the sustained interval between two rays of the gun (a twin gun
	// firing two rays per pull counts each ray).
	MinInterval time.Duration
	// Burst is how far ahead of that cadence rays may arrive (the rate check's
	// allowance). Zero means DefaultVehicleGunBurst.
	Burst time.Duration
	// Damage is the fixed raw damage of one hit of a GunFixed gun (before the game's 0.33
	// for a player victim); zero for every other kind.
	Damage float32
	// Mount is where the gun's rays start, in the vehicle's own axes (X right, Y forward, Z
	// up, metres from the vehicle's position): the centre of its muzzles.
	Mount Vec3
	// MountReach is how far from Mount a ray may start: the spread of several muzzles, a
	// turret's barrel swinging round, and the doubt in the figure.
	MountReach float32
}

// Muzzle returns the world position of the gun's mount on a vehicle standing at pos with
// rotation rot.
func (g *VehicleGun) Muzzle(pos Vec3, rot Quat) Vec3 {
	r := rotate(rot, g.Mount)
	return Vec3{X: pos.X + r.X, Y: pos.Y + r.Y, Z: pos.Z + r.Z}
}

// rotate turns v by the unit quaternion q (normalised first, so a slightly long one from
// the wire does not scale the offset).
func rotate(q Quat, v Vec3) Vec3 {
	w, x, y, z := float64(q.W), float64(q.X), float64(q.Y), float64(q.Z)
	n := math.Sqrt(w*w + x*x + y*y + z*z)
	if !(n > 0) || math.IsInf(n, 0) {
		return v
	}
	w, x, y, z = w/n, x/n, y/n, z/n
	vx, vy, vz := float64(v.X), float64(v.Y), float64(v.Z)
	// t = 2 (q.xyz × v); v' = v + w t + q.xyz × t
	tx, ty, tz := 2*(y*vz-z*vy), 2*(z*vx-x*vz), 2*(x*vy-y*vx)
	return Vec3{
		X: float32(vx + w*tx + (y*tz - z*ty)),
		Y: float32(vy + w*ty + (z*tx - x*tz)),
		Z: float32(vz + w*tz + (x*ty - y*tx)),
	}
}

// VehicleModel is one row of the vehicle catalogue.
type VehicleModel struct {
	// Name is for people (logs, tests); nothing depends on it.
	Name string
	// Seats is the number of seats, the driver's included (0..MaxVehicleSeats). A seat
	// number at or above it does not exist on the model.
	Seats uint8
	// Guns are the model's guns, GunNone entries at the end.
	Guns [MaxVehicleGuns]VehicleGun
	// Rockets are the weapon ids of the projectiles the model launches itself
	// (ProjectileLaunch from a seat, from no player's store); 0 is none.
	Rockets [MaxVehicleRockets]uint8
}

// VehicleTable is a whole vehicle catalogue: one VehicleModel per model id
// FirstVehicleModel..FirstVehicleModel+NumVehicleModels-1.
type VehicleTable [NumVehicleModels]VehicleModel

// VehicleCatalog is a validated vehicle catalogue: for every model its seats, its guns
// and the rockets it launches. It never changes after NewVehicleCatalog; it is safe to
// read from one goroutine at a time, like everything in the package.
type VehicleCatalog struct {
	t VehicleTable
}

// NewVehicleCatalog validates t (nil means DefaultVehicleTable) against the weapon table
// weapons (nil means DefaultTable): a GunBullets gun must fire a bullet weapon with a
// damage figure, a GunFixed gun must have a damage above 0, every gun a range above 0,
// no negative interval or burst, finite mounts, seats that exist on the model, and
// rockets that are projectile weapons. Errors: ErrBadTable.
func NewVehicleCatalog(t *VehicleTable, weapons *Table) (*VehicleCatalog, error) {
	c := &VehicleCatalog{}
	if t == nil {
		c.t = DefaultVehicleTable()
	} else {
		c.t = *t
	}
	wt := weapons
	if wt == nil {
		d := DefaultTable()
		wt = &d
	}
	if err := validateVehicles(&c.t, wt); err != nil {
		return nil, err
	}
	return c, nil
}

func finiteVec(v Vec3) bool {
	for _, f := range [...]float32{v.X, v.Y, v.Z} {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return false
		}
	}
	return true
}

func validateVehicles(t *VehicleTable, wt *Table) error {
	for i := range t {
		m := &t[i]
		model := FirstVehicleModel + i
		bad := func(field, why string) error {
			return fmt.Errorf("%w: vehicle model %d (%s) %s %s", ErrBadTable, model, m.Name, field, why)
		}
		if m.Seats > MaxVehicleSeats {
			return bad("seats", "above MaxVehicleSeats")
		}
		ended := false
		for g := range m.Guns {
			gun := &m.Guns[g]
			if gun.Kind == GunNone {
				if *gun != (VehicleGun{}) {
					return bad("gun", "an empty entry with fields set")
				}
				ended = true
				continue
			}
			if ended {
				return bad("gun", "after an empty entry")
			}
			if gun.Kind >= numGunKinds {
				return bad("gun", "of an unknown kind")
			}
			if gun.Seats == 0 || gun.Seats>>m.Seats != 0 {
				return bad("gun seats", "empty or beyond the model's seats")
			}
			for _, f := range [...]float32{gun.Range, gun.Damage, gun.MountReach} {
				if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) || f < 0 {
					return bad("gun", "range, damage or mount reach not a finite value >= 0")
				}
			}
			if gun.Range <= 0 {
				return bad("gun range", "not above 0")
			}
			if !finiteVec(gun.Mount) {
				return bad("gun mount", "not finite")
			}
			if gun.MinInterval < 0 || gun.Burst < 0 {
				return bad("gun", "negative interval or burst")
			}
			switch gun.Kind {
			case GunBullets:
				if int(gun.Weapon) >= NumWeapons || wt[gun.Weapon].Kind != KindBullet || !wt[gun.Weapon].HasDamage {
					return bad("gun weapon", "not a bullet weapon with a damage figure")
				}
				if gun.Damage != 0 {
					return bad("gun damage", "set on a gun of the weapon table's damage")
				}
			case GunFixed:
				if !(gun.Damage > 0) {
					return bad("gun damage", "a fixed-damage gun needs a damage above 0")
				}
			case GunCannon:
				if gun.Damage != 0 {
					return bad("gun damage", "set on a cannon")
				}
			}
		}
		for _, r := range m.Rockets {
			if r == 0 {
				continue
			}
			if int(r) >= NumWeapons || wt[r].Kind != KindProjectile {
				return bad("rocket", "not a projectile weapon")
			}
		}
	}
	return nil
}

// Table returns a copy of the catalogue's table.
func (c *VehicleCatalog) Table() VehicleTable { return c.t }

// row returns the model's row, or nil for a model outside the catalogue.
func (c *VehicleCatalog) row(model uint16) *VehicleModel {
	i := int(model) - FirstVehicleModel
	if i < 0 || i >= NumVehicleModels {
		return nil
	}
	return &c.t[i]
}

// Known reports whether model is a model of the catalogue.
func (c *VehicleCatalog) Known(model uint16) bool { return c.row(model) != nil }

// Model returns the model's row, and false for a model outside the catalogue.
func (c *VehicleCatalog) Model(model uint16) (VehicleModel, bool) {
	if m := c.row(model); m != nil {
		return *m, true
	}
	return VehicleModel{}, false
}

// Seats returns the number of seats of model, the driver's included: 0 for a model
// outside the catalogue.
func (c *VehicleCatalog) Seats(model uint16) int {
	if m := c.row(model); m != nil {
		return int(m.Seats)
	}
	return 0
}

// Gun returns the gun of model whose VehicleShot names weapon, and its index among the
// model's guns; false when the model has no such gun (an unarmed model, or a weapon id
// that is none of its guns').
func (c *VehicleCatalog) Gun(model uint16, weapon uint8) (VehicleGun, int, bool) {
	m := c.row(model)
	if m == nil {
		return VehicleGun{}, -1, false
	}
	for i := range m.Guns {
		if g := &m.Guns[i]; g.Kind != GunNone && g.Weapon == weapon {
			return *g, i, true
		}
	}
	return VehicleGun{}, -1, false
}

// SeatGun returns the first gun of model that the occupant of seat fires, and its index;
// false when that seat fires none.
func (c *VehicleCatalog) SeatGun(model uint16, seat uint8) (VehicleGun, int, bool) {
	m := c.row(model)
	if m == nil {
		return VehicleGun{}, -1, false
	}
	for i := range m.Guns {
		if g := &m.Guns[i]; g.Kind != GunNone && g.Seats.Has(seat) {
			return *g, i, true
		}
	}
	return VehicleGun{}, -1, false
}

// LaunchesRocket reports whether model launches projectiles of weapon itself (from a
// seat, from no player's store).
func (c *VehicleCatalog) LaunchesRocket(model uint16, weapon uint8) bool {
	m := c.row(model)
	if m == nil || weapon == 0 {
		return false
	}
	for _, r := range m.Rockets {
		if r == weapon {
			return true
		}
	}
	return false
}

// GTA San Andreas model ids of the armed vehicles in the default catalogue.
const (
	// ModelHunter is the Hunter (attack helicopter): a minigun and rockets.
	ModelHunter uint16 = 425
	// ModelPredator is the Predator (police boat): twin guns of a fixed damage.
	ModelPredator uint16 = 430
	// ModelRhino is the Rhino (tank): the cannon.
	ModelRhino uint16 = 432
	// ModelSeasparrow is the Sea Sparrow (helicopter): a machine gun.
	ModelSeasparrow uint16 = 447
	// ModelRCBaron is the RC Baron (remote-controlled plane): a machine gun.
	ModelRCBaron uint16 = 464
	// ModelRustler is the Rustler (plane): machine guns in the wings.
	ModelRustler uint16 = 476
	// ModelHydra is the Hydra (jet): rockets.
	ModelHydra uint16 = 520
)

// Weapon ids the default vehicle catalogue names (the weapon table's ids, and 51, the
// game's cause "explosion", which is no weapon of the table).
const (
	weaponM4           uint8 = 31
	weaponRocket       uint8 = 35
	weaponHomingRocket uint8 = 36
	weaponMinigun      uint8 = 38
	weaponExplosion    uint8 = 51
)

// DefaultVehicleTable returns the vehicle catalogue of GTA San Andreas, models 400..611:
// the defaults of a VehicleCatalog (and of a Catalog's Config.Vehicles). Each call returns
// a fresh copy; change it and pass it in Config.Vehicles to tune a server.
//
// Seats: the number of seats of every model, the driver's included, from open.mp's table
// of passenger seats (open.mp-sdk, include/Server/Components/Vehicles/vehicle_seats.hpp,
// commit 473b732b), plus the driver. Doubt: trailers and a few special models are listed
// with a driver's seat although nobody drives them; a seat too many there costs nothing.
//
// Guns (every one fired from the driver's seat: in the game a passenger shoots only its
// own hand-held weapon, a drive-by, which is a WeaponShot):
//
//	model           kind     weapon  interval  range  mount (x, y, z) / reach   source
//	425 Hunter      bullets  38      60 ms     75 m   (0, 3, -1) / 4 m           a, b, c
//	447 Sea Sparrow bullets  31      40 ms     90 m   (-0.5, 2.4, -0.785) / 2 m  a, b, c
//	464 RC Baron    bullets  31      40 ms     90 m   (0, 0.45, 0) / 1 m         a, b
//	476 Rustler     bullets  31      40 ms     90 m   (0, 1.5, -0.58) / 3.5 m    a, b, c
//	430 Predator    fixed 15 31      75 ms     65 m   (0, 4, 1) / 6 m            d
//	432 Rhino       cannon   51      800 ms    65 m   (0, -1.394, 1.97) / 5.5 m  e
//
// Rockets: the Hunter and the Hydra launch weapons 35 and 36 themselves (a).
//
//   - a: gta-reversed (a re-implementation of the PC game, commit 2af133fa), CVehicle's
//     plane guns: the Hunter fires the minigun (38), the Sea Sparrow, the RC Baron and
//     the Rustler the M4 (31); their rates of fire 60 (the default), 40, 40 and 80 ms
//     (the Rustler fires two rays per pull, so 40 ms a ray); the gun positions of the Sea
//     Sparrow, RC Baron and Rustler (six guns 0.2 m apart along the wing: the mount is
//     their centre line, the reach covers both wings); the Hunter and the Hydra launch
//     rocket-launcher projectiles (CVehicle::FireUnguidedMissile), the Hydra also the
//     heat-seeking one. The Hunter's gun position is a table entry gta-reversed does not
//     show (VehicleGunOffset[0]): the mount is a point under the nose with a reach of 4 m.
//   - b: samp-weapon-config (weapon-config.inc, a0d5f53e): the guns' damage arrives as the
//     minigun's for the Hunter and as the M4's for the Sea Sparrow, the RC Baron and the
//     Rustler; the ranges are the weapons' (75 m and 90 m, the weapon table's).
//   - c: the Hydra and the Cargobob, Maverick and Police Maverick have plane-gun entries in
//     the game's code, but the player's Hydra fires rockets and the others fire nothing
//     (a): they are left out; a host that arms them adds them.
//   - d: the Predator's CVehicle::FireFixedMachineGuns is not reversed in gta-reversed.
//     The same routine in reVC (the re-implementation of Vice City, the game it comes
//     from) fires two rays from the bow every 150 ms (75 ms a ray), 20 pulls a burst, 60
//     m ahead, of a fixed damage 15 (vitals' PredatorDamage, which its damage floor uses). The
//     weapon id its rounds carry in San Andreas is in no source read (Vice City inflicts
//     them as the Uzi's): 31 is this project's choice, and no damage depends on it. The
//     mount is a point on the bow with a 6 m reach (Vice City's muzzles stand 9.3 m
//     ahead on its own model); the range allows 5 m beyond the 60 m for the aiming.
//   - e: gta-reversed CAutomobile::TankControl: one shell every 800 ms; the turret stands
//     at (0, -1.394, 2.296) and the barrel's end 4.34 m from it, turning with the turret;
//     the explosion is at most 60 m along the barrel (a ray end), 65 m with the aiming's
//     margin. The shell's weapon id is 51, the explosion's cause its victims report.
//
// The Fire Truck's (407) and the SWAT van's (601) water cannons fire no rays and hurt no
// player: they are not guns of this catalogue.
func DefaultVehicleTable() VehicleTable {
	const ms = time.Millisecond
	var t VehicleTable
	for i, s := range defaultSeats {
		t[i].Seats = s
	}
	set := func(model uint16, name string, guns []VehicleGun, rockets ...uint8) {
		m := &t[int(model)-FirstVehicleModel]
		m.Name = name
		copy(m.Guns[:], guns)
		copy(m.Rockets[:], rockets)
	}
	driver := SeatSet(0)
	set(ModelHunter, "Hunter", []VehicleGun{{Kind: GunBullets, Weapon: weaponMinigun, Seats: driver, Range: 75,
		MinInterval: 60 * ms, Mount: Vec3{Y: 3, Z: -1}, MountReach: 4}}, weaponRocket, weaponHomingRocket)
	set(ModelSeasparrow, "Sea Sparrow", []VehicleGun{{Kind: GunBullets, Weapon: weaponM4, Seats: driver, Range: 90,
		MinInterval: 40 * ms, Mount: Vec3{X: -0.5, Y: 2.4, Z: -0.785}, MountReach: 2}})
	set(ModelRCBaron, "RC Baron", []VehicleGun{{Kind: GunBullets, Weapon: weaponM4, Seats: driver, Range: 90,
		MinInterval: 40 * ms, Mount: Vec3{Y: 0.45}, MountReach: 1}})
	set(ModelRustler, "Rustler", []VehicleGun{{Kind: GunBullets, Weapon: weaponM4, Seats: driver, Range: 90,
		MinInterval: 40 * ms, Mount: Vec3{Y: 1.5, Z: -0.58}, MountReach: 3.5}})
	set(ModelPredator, "Predator", []VehicleGun{{Kind: GunFixed, Weapon: weaponM4, Seats: driver, Range: 65,
		MinInterval: 75 * ms, Damage: 15, Mount: Vec3{Y: 4, Z: 1}, MountReach: 6}})
	set(ModelRhino, "Rhino", []VehicleGun{{Kind: GunCannon, Weapon: weaponExplosion, Seats: driver, Range: 65,
		MinInterval: 800 * ms, Mount: Vec3{Y: -1.394, Z: 1.97}, MountReach: 5.5}})
	set(ModelHydra, "Hydra", nil, weaponRocket, weaponHomingRocket)
	return t
}

// defaultSeats is the number of seats of models 400..611, the driver's included (see
// DefaultVehicleTable for the source).
var defaultSeats = [NumVehicleModels]uint8{
	/* 400 */ 4, 2, 2, 2, 4, 4, 1, 2, 2, 4,
	/* 410 */ 2, 2, 2, 4, 2, 2, 4, 2, 4, 2,
	/* 420 */ 4, 4, 2, 2, 2, 1, 4, 4, 4, 2,
	/* 430 */ 1, 9, 1, 2, 2, 1, 2, 9, 4, 2,
	/* 440 */ 4, 1, 2, 2, 2, 4, 1, 2, 1, 6,
	/* 450 */ 1, 2, 1, 1, 1, 2, 2, 2, 4, 4,
	/* 460 */ 2, 2, 2, 2, 2, 2, 4, 4, 2, 2,
	/* 470 */ 4, 2, 1, 1, 2, 2, 1, 2, 2, 4,
	/* 480 */ 2, 1, 4, 3, 1, 1, 1, 4, 2, 2,
	/* 490 */ 4, 2, 4, 1, 2, 2, 2, 4, 4, 2,
	/* 500 */ 2, 2, 2, 2, 2, 2, 2, 4, 2, 1,
	/* 510 */ 1, 2, 1, 1, 2, 2, 4, 2, 2, 1,
	/* 520 */ 1, 2, 2, 2, 2, 2, 2, 2, 2, 4,
	/* 530 */ 1, 1, 1, 2, 2, 2, 2, 6, 6, 1,
	/* 540 */ 4, 2, 2, 2, 2, 2, 4, 4, 2, 2,
	/* 550 */ 4, 4, 2, 1, 2, 2, 2, 2, 2, 2,
	/* 560 */ 4, 4, 2, 2, 1, 2, 4, 4, 1, 6,
	/* 570 */ 6, 1, 1, 2, 1, 2, 2, 2, 2, 4,
	/* 580 */ 4, 2, 4, 1, 1, 4, 2, 2, 2, 2,
	/* 590 */ 6, 1, 2, 2, 2, 1, 4, 4, 4, 2,
	/* 600 */ 2, 2, 2, 2, 4, 2, 1, 1, 1, 4,
	/* 610 */ 1, 1,
}
