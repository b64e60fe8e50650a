package inventory

import (
	"errors"
	"math"
	"testing"
	"time"
)

func defaultVehicles(t *testing.T) *VehicleCatalog {
	t.Helper()
	c, err := NewVehicleCatalog(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestVehicleGunsAreTheModelsOwnFiredFromTheDriversSeat: an armed model's gun names its
// own weapon id, range and cadence; an unarmed car has no gun; no model fires a weapon
// that is not its gun; no passenger seat fires a gun.
func TestVehicleGunsAreTheModelsOwnFiredFromTheDriversSeat(t *testing.T) {
	c := defaultVehicles(t)
	const ms = time.Millisecond
	rows := []struct {
		model    uint16
		kind     GunKind
		weapon   uint8
		rng      float32
		interval time.Duration
	}{
		{ModelHunter, GunBullets, 38, 75, 60 * ms},
		{ModelSeasparrow, GunBullets, 31, 90, 40 * ms},
		{ModelRCBaron, GunBullets, 31, 90, 40 * ms},
		{ModelRustler, GunBullets, 31, 90, 40 * ms},
		{ModelPredator, GunFixed, 31, 65, 75 * ms},
		{ModelRhino, GunCannon, 51, 65, 800 * ms},
	}
	for _, r := range rows {
		g, i, ok := c.Gun(r.model, r.weapon)
		if !ok || i != 0 {
			t.Fatalf("model %d has no gun firing %d", r.model, r.weapon)
		}
		if g.Kind != r.kind || g.Range != r.rng || g.MinInterval != r.interval {
			t.Errorf("model %d gun %+v, want kind %v range %v interval %v", r.model, g, r.kind, r.rng, r.interval)
		}
		if !g.Seats.Has(0) || g.Seats != SeatSet(0) {
			t.Errorf("model %d: the gun is fired from seats %b, want the driver's only", r.model, g.Seats)
		}
		for seat := uint8(1); seat < MaxVehicleSeats; seat++ {
			if _, _, ok := c.SeatGun(r.model, seat); ok {
				t.Errorf("model %d: seat %d fires a gun", r.model, seat)
			}
		}
		if _, _, ok := c.Gun(r.model, 34); ok {
			t.Errorf("model %d fires the Sniper", r.model)
		}
	}
	if g, _, ok := c.Gun(ModelPredator, 31); !ok || g.Damage != 15 {
		t.Errorf("the Predator's guns have the fixed damage 15, got %+v", g)
	}
	for _, model := range []uint16{560, 411, ModelHydra, 407, 601, 399, 612, 0, 65535} {
		if _, _, ok := c.SeatGun(model, 0); ok {
			t.Errorf("model %d has a gun", model)
		}
		if _, _, ok := c.Gun(model, 38); ok {
			t.Errorf("model %d fires the minigun", model)
		}
	}
}

// TestVehicleSeatCountsAreTheGamesDriverIncluded spot-checks the seat table (the source
// lists passengers; the catalogue counts the driver too) and the models outside it.
func TestVehicleSeatCountsAreTheGamesDriverIncluded(t *testing.T) {
	c := defaultVehicles(t)
	for model, want := range map[uint16]int{
		400: 4, 411: 2, 425: 1, 430: 1, 431: 9, 432: 1, 437: 9, 447: 2, 476: 1, 487: 4, 520: 1, 560: 4, 601: 2, 611: 1,
		399: 0, 612: 0, 0: 0,
	} {
		if got := c.Seats(model); got != want {
			t.Errorf("model %d has %d seats, want %d", model, got, want)
		}
		if c.Known(model) != (want > 0) {
			t.Errorf("model %d known %v", model, c.Known(model))
		}
	}
	tab := DefaultVehicleTable()
	for i := range tab {
		if tab[i].Seats < 1 || tab[i].Seats > MaxVehicleSeats {
			t.Errorf("model %d has %d seats", FirstVehicleModel+i, tab[i].Seats)
		}
	}
}

// TestOnlyTheHunterAndTheHydraLaunchRocketsOfTheirOwn: the rockets a vehicle launches
// without a store are the Hunter's and the Hydra's, and only rockets.
func TestOnlyTheHunterAndTheHydraLaunchRocketsOfTheirOwn(t *testing.T) {
	c := defaultVehicles(t)
	for _, model := range []uint16{ModelHunter, ModelHydra} {
		for _, w := range []uint8{35, 36} {
			if !c.LaunchesRocket(model, w) {
				t.Errorf("model %d does not launch %d", model, w)
			}
		}
		for _, w := range []uint8{0, 16, 18, 39, 38} {
			if c.LaunchesRocket(model, w) {
				t.Errorf("model %d launches %d", model, w)
			}
		}
	}
	for _, model := range []uint16{560, ModelRhino, ModelSeasparrow, 612} {
		if c.LaunchesRocket(model, 35) {
			t.Errorf("model %d launches rockets", model)
		}
	}
}

// TestAGunsMuzzleTurnsWithItsVehicle: the mount is in the vehicle's own axes.
func TestAGunsMuzzleTurnsWithItsVehicle(t *testing.T) {
	g := VehicleGun{Mount: Vec3{Y: 3, Z: -1}}
	at := Vec3{X: 10, Y: 20, Z: 5}
	near := func(a, b Vec3) bool {
		return math.Abs(float64(a.X-b.X)) < 1e-4 && math.Abs(float64(a.Y-b.Y)) < 1e-4 && math.Abs(float64(a.Z-b.Z)) < 1e-4
	}
	if m := g.Muzzle(at, Quat{W: 1}); !near(m, Vec3{X: 10, Y: 23, Z: 4}) {
		t.Errorf("unrotated muzzle %v", m)
	}
	s := float32(math.Sqrt(0.5))
	// A quarter turn to the left about the vertical axis: forward (+Y) becomes -X.
	if m := g.Muzzle(at, Quat{W: s, Z: s}); !near(m, Vec3{X: 7, Y: 20, Z: 4}) {
		t.Errorf("turned muzzle %v", m)
	}
	// A quaternion 10 % long (the wire's tolerance) turns without scaling the offset.
	if m := g.Muzzle(at, Quat{W: 1.1 * s, Z: 1.1 * s}); !near(m, Vec3{X: 7, Y: 20, Z: 4}) {
		t.Errorf("long quaternion muzzle %v", m)
	}
	if m := g.Muzzle(at, Quat{}); !near(m, Vec3{X: 10, Y: 23, Z: 4}) {
		t.Errorf("zero quaternion muzzle %v", m)
	}
}

// TestAVehicleTableThatBreaksARuleIsRefused: every rule of a VehicleTable has a named
// error, and a host's valid table replaces the default one.
func TestAVehicleTableThatBreaksARuleIsRefused(t *testing.T) {
	hunter := int(ModelHunter) - FirstVehicleModel
	rows := []struct {
		name    string
		breakIt func(*VehicleTable)
	}{
		{"too many seats", func(v *VehicleTable) { v[0].Seats = MaxVehicleSeats + 1 }},
		{"a gun of a seat the model lacks", func(v *VehicleTable) { v[hunter].Guns[0].Seats = SeatSet(1) }},
		{"a gun fired from no seat", func(v *VehicleTable) { v[hunter].Guns[0].Seats = 0 }},
		{"a bullet gun firing a melee weapon", func(v *VehicleTable) { v[hunter].Guns[0].Weapon = 4 }},
		{"a bullet gun firing an id beyond the table", func(v *VehicleTable) { v[hunter].Guns[0].Weapon = 60 }},
		{"a bullet gun with its own damage", func(v *VehicleTable) { v[hunter].Guns[0].Damage = 5 }},
		{"a fixed gun without damage", func(v *VehicleTable) { v[hunter].Guns[0].Kind = GunFixed }},
		{"no range", func(v *VehicleTable) { v[hunter].Guns[0].Range = 0 }},
		{"a NaN range", func(v *VehicleTable) { v[hunter].Guns[0].Range = float32(math.NaN()) }},
		{"a negative interval", func(v *VehicleTable) { v[hunter].Guns[0].MinInterval = -1 }},
		{"a negative burst", func(v *VehicleTable) { v[hunter].Guns[0].Burst = -1 }},
		{"an infinite mount", func(v *VehicleTable) { v[hunter].Guns[0].Mount.X = float32(math.Inf(1)) }},
		{"a negative reach", func(v *VehicleTable) { v[hunter].Guns[0].MountReach = -1 }},
		{"an unknown kind", func(v *VehicleTable) { v[hunter].Guns[0].Kind = numGunKinds }},
		{"a gun after an empty entry", func(v *VehicleTable) { v[hunter].Guns[1], v[hunter].Guns[0] = v[hunter].Guns[0], VehicleGun{} }},
		{"an empty entry with fields", func(v *VehicleTable) { v[hunter].Guns[1] = VehicleGun{Range: 3} }},
		{"a rocket that is no projectile", func(v *VehicleTable) { v[hunter].Rockets[0] = 31 }},
	}
	for _, r := range rows {
		tab := DefaultVehicleTable()
		r.breakIt(&tab)
		if _, err := NewVehicleCatalog(&tab, nil); !errors.Is(err, ErrBadTable) {
			t.Errorf("%s: err %v, want ErrBadTable", r.name, err)
		}
		if _, err := NewCatalog(Config{Vehicles: &tab}); !errors.Is(err, ErrBadTable) {
			t.Errorf("%s: NewCatalog err %v, want ErrBadTable", r.name, err)
		}
	}
	tab := DefaultVehicleTable()
	tab[0].Guns[0] = VehicleGun{Kind: GunBullets, Weapon: 31, Seats: SeatSet(0, 1), Range: 50, MinInterval: time.Second}
	cat, err := NewCatalog(Config{Vehicles: &tab})
	if err != nil {
		t.Fatal(err)
	}
	if g, _, ok := cat.Vehicles().SeatGun(400, 1); !ok || g.Range != 50 {
		t.Errorf("the host's table: %+v %v", g, ok)
	}
	if def, err := NewCatalog(Config{}); err != nil || !def.Vehicles().Known(ModelHunter) {
		t.Errorf("the default catalogue: %v", err)
	}
}

func TestGunKindsHaveNames(t *testing.T) {
	for k, want := range map[GunKind]string{GunNone: "none", GunBullets: "bullets", GunFixed: "fixed", GunCannon: "cannon", 9: "GunKind(9)"} {
		if k.String() != want {
			t.Errorf("%d: %q", k, k.String())
		}
	}
}
