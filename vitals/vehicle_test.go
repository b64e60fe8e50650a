package vitals

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"
)

func newVehicleDetector(t testing.TB) *VehicleDetector {
	t.Helper()
	d, err := NewVehicleDetector(VehicleConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return &d
}

// volley claims n hits of loss each on the detector's vehicle, one every 200 ms from at,
// and lets the vehicle's frames show felt of each hit (health falling from 1000).
func volley(t testing.TB, d *VehicleDetector, at time.Duration, n int, loss, felt float32) time.Duration {
	t.Helper()
	health := float32(1000)
	if err := d.Health(at, 7, health); err != nil {
		t.Fatal(err)
	}
	for range n {
		at += 200 * time.Millisecond
		if s, err := d.HitClaimed(at, loss); err != nil || s.Raised {
			t.Fatalf("claim at %v: %+v, %v (raised before the grace)", at, s, err)
		}
		health -= felt
		if err := d.Health(at+50*time.Millisecond, 7, health); err != nil {
			t.Fatal(err)
		}
	}
	return at
}

func TestVehicleGodModeFlagsADriverWhoseVehicleFeelsNothing(t *testing.T) {
	d := newVehicleDetector(t)
	last := volley(t, d, time.Second, 24, 30, 0)
	s := d.Suspect(last + ClaimGrace + time.Second)
	if !s.Raised || s.Hits != 24 || !approx(s.Claimed, 720) || s.Felt != 0 || s.Confirmed != 0 {
		t.Fatalf("suspicion %+v, want raised on 24 hits, 720 claimed, nothing felt", s)
	}
}

func TestVehicleGodModeSparesAVehicleThatLosesHealth(t *testing.T) {
	for _, felt := range []float32{30, 10, 3.5} { // all, a third, just over a tenth
		d := newVehicleDetector(t)
		last := volley(t, d, time.Second, 24, 30, felt)
		for at := last; at < last+10*time.Second; at += 250 * time.Millisecond {
			if s := d.Suspect(at); s.Raised {
				t.Fatalf("felt %v a hit: flagged %+v", felt, s)
			}
		}
	}
}

func TestVehicleGodModeARepairIsNotFelt(t *testing.T) {
	d := newVehicleDetector(t)
	at := time.Second
	steps := []float32{1000, 400, 1000, 1000, 990}
	for _, h := range steps {
		if err := d.Health(at, 3, h); err != nil {
			t.Fatal(err)
		}
		at += 100 * time.Millisecond
	}
	if s := d.Suspect(at); !approx(s.Felt, 610) {
		t.Fatalf("felt %v, want 600 + 10: the repair to 1000 counts nothing", s.Felt)
	}
}

func TestVehicleGodModeAnotherVehicleOnlySetsTheBaseline(t *testing.T) {
	d := newVehicleDetector(t)
	must(t, d.Health(time.Second, 3, 1000))
	must(t, d.Health(time.Second+100*time.Millisecond, 4, 300)) // another car: not a fall
	must(t, d.Health(time.Second+200*time.Millisecond, 4, 250))
	if s := d.Suspect(2 * time.Second); !approx(s.Felt, 50) {
		t.Fatalf("felt %v, want 50 (only the fall within car 4)", s.Felt)
	}
	d.Left(2 * time.Second)
	if v, ok := d.Vehicle(); !ok || v != 4 {
		t.Fatalf("Vehicle() = %d, %v after Left, want the last one, 4", v, ok)
	}
	must(t, d.Health(3*time.Second, 4, 100)) // after Left: a new baseline
	if s := d.Suspect(3 * time.Second); !approx(s.Felt, 50) {
		t.Fatalf("felt %v after Left, want still 50", s.Felt)
	}
}

func TestVehicleGodModeJudgesAClaimOnlyAfterTheGrace(t *testing.T) {
	d := newVehicleDetector(t)
	at := 10 * time.Second
	for range 25 {
		_, err := d.HitClaimed(at, 30)
		must(t, err)
	}
	if s := d.Suspect(at + ClaimGrace - SuspicionBucket); s.Raised || s.Hits != 0 {
		t.Fatalf("claims younger than the grace judged: %+v", s)
	}
	if s := d.Suspect(at + ClaimGrace + SuspicionBucket); !s.Raised || s.Hits != 25 {
		t.Fatalf("claims older than the grace not judged: %+v", s)
	}
}

func TestVehicleGodModeLeftForgetsTheClaimsNotJudgedYet(t *testing.T) {
	d := newVehicleDetector(t)
	at := 10 * time.Second
	must(t, d.Health(at, 7, 1000))
	for range 25 {
		_, err := d.HitClaimed(at, 30)
		must(t, err)
	}
	d.Left(at + 500*time.Millisecond) // wrecked, or the driver got out
	if s := d.Suspect(at + ClaimGrace + 2*SuspicionBucket); s.Raised || s.Hits != 0 {
		t.Fatalf("claims on a vehicle left before they were judged still count: %+v", s)
	}
	// Judged claims stay.
	d2 := newVehicleDetector(t)
	for range 25 {
		_, err := d2.HitClaimed(at, 30)
		must(t, err)
	}
	d2.Left(at + ClaimGrace + 2*SuspicionBucket)
	if s := d2.Suspect(at + ClaimGrace + 2*SuspicionBucket); s.Hits != 25 {
		t.Fatalf("judged claims forgotten by Left: %+v", s)
	}
}

func TestVehicleGodModeNeedsEnoughHitsAndEnoughClaimedLoss(t *testing.T) {
	at := 10 * time.Second
	judge := func(n int, loss float32) Suspicion {
		d := newVehicleDetector(t)
		for range n {
			_, err := d.HitClaimed(at, loss)
			must(t, err)
		}
		return d.Suspect(at + ClaimGrace + SuspicionBucket)
	}
	if s := judge(DefaultSuspicionMinHits-1, 100); s.Raised {
		t.Errorf("flagged on %d hits: %+v", DefaultSuspicionMinHits-1, s)
	}
	if s := judge(DefaultSuspicionMinHits, 12); s.Raised { // 240 < 250
		t.Errorf("flagged below the least claimed loss: %+v", s)
	}
	if s := judge(DefaultSuspicionMinHits, 12.5); !s.Raised {
		t.Errorf("not flagged at the least hits and claimed loss: %+v", s)
	}
}

func TestVehicleGodModeRaisesOnceAndRearms(t *testing.T) {
	d := newVehicleDetector(t)
	at := 10 * time.Second
	for range 24 {
		_, err := d.HitClaimed(at, 30)
		must(t, err)
	}
	judged := at + ClaimGrace + SuspicionBucket
	if !d.Suspect(judged).Raised {
		t.Fatal("not raised")
	}
	if d.Suspect(judged + 100*time.Millisecond).Raised {
		t.Fatal("raised twice for one condition")
	}
	// The window slides past the claims: the condition stops holding, and re-arms.
	later := judged + DefaultSuspicionWindow + SuspicionBucket
	if s := d.Suspect(later); s.Raised || s.Hits != 0 {
		t.Fatalf("window did not slide: %+v", s)
	}
	for range 24 {
		_, err := d.HitClaimed(later, 30)
		must(t, err)
	}
	if !d.Suspect(later + ClaimGrace + SuspicionBucket).Raised {
		t.Fatal("not raised again after re-arming")
	}
}

func TestVehicleGodModeRefusesBadInputAndChangesNothing(t *testing.T) {
	d := newVehicleDetector(t)
	must(t, d.Health(time.Second, 1, 800))
	before := *d
	before.s.b = slices.Clone(d.s.b) // the buckets live outside the struct
	bad := []struct {
		name string
		err  error
		want error
	}{
		{"claim NaN", second(d.HitClaimed(time.Second, float32(nan()))), ErrNotFinite},
		{"claim +Inf", second(d.HitClaimed(time.Second, float32(inf()))), ErrNotFinite},
		{"claim negative", second(d.HitClaimed(time.Second, -1)), ErrOutOfRange},
		{"claim too large", second(d.HitClaimed(time.Second, MaxVehicleClaimedLoss+1)), ErrOutOfRange},
		{"health NaN", d.Health(time.Second, 1, float32(nan())), ErrNotFinite},
		{"health -Inf", d.Health(time.Second, 1, float32(-inf())), ErrNotFinite},
		{"health negative", d.Health(time.Second, 1, -0.5), ErrOutOfRange},
		{"health too large", d.Health(time.Second, 1, MaxVehicleHealth*2), ErrOutOfRange},
	}
	for _, c := range bad {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
		}
	}
	if !reflect.DeepEqual(*d, before) {
		t.Error("refused input changed the detector")
	}
	var zero VehicleDetector
	if _, ok := zero.Vehicle(); ok {
		t.Error("a detector that took no frame names a vehicle")
	}
	if _, err := zero.HitClaimed(time.Second, 1); !errors.Is(err, ErrConfig) {
		t.Errorf("zero detector claim: %v, want ErrConfig", err)
	}
	if err := zero.Health(time.Second, 1, 1); !errors.Is(err, ErrConfig) {
		t.Errorf("zero detector health: %v, want ErrConfig", err)
	}
	if s := zero.Suspect(time.Hour); s != (Suspicion{}) {
		t.Errorf("zero detector suspects: %+v", s)
	}
}

func TestVehicleConfigIsValidated(t *testing.T) {
	bad := []VehicleConfig{
		{Window: time.Second},
		{Window: MaxSuspicionWindow + time.Second},
		{Ratio: -0.1},
		{Ratio: 1.5},
		{Ratio: float32(math.NaN())},
		{MinHits: -1},
		{MinHits: 100001},
		{MinClaimed: -5},
		{MinClaimed: float32(math.Inf(1))},
		{MinClaimed: 200000},
	}
	for _, c := range bad {
		if _, err := NewVehicleDetector(c); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v, want ErrConfig", c, err)
		}
	}
	d, err := NewVehicleDetector(VehicleConfig{MinHits: 2, MinClaimed: 10, Ratio: 0.5, Window: 7500 * time.Millisecond})
	must(t, err)
	for range 2 {
		_, err := d.HitClaimed(time.Second, 5)
		must(t, err)
	}
	if !d.Suspect(time.Second + ClaimGrace + SuspicionBucket).Raised {
		t.Error("a custom config's thresholds are not used")
	}
}

func second[T any](_ T, err error) error { return err }

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func ExampleVehicleDetector() {
	d, _ := NewVehicleDetector(VehicleConfig{})
	at := 10 * time.Second
	// The driver's frames keep showing a full car while shooters claim 24 M4 hits on it,
	// each accepted against the car's rewound pose.
	for range 24 {
		_ = d.Health(at, 5, 1000)
		_, _ = d.HitClaimed(at, 30)
		at += 250 * time.Millisecond
	}
	s := d.Suspect(at + ClaimGrace)
	fmt.Printf("vehicle_god_mode raised %v: %d hits claimed %.0f, felt %.0f\n", s.Raised, s.Hits, s.Claimed, s.Felt)
	// Output: vehicle_god_mode raised true: 24 hits claimed 720, felt 0
}

func BenchmarkVehicleDetector(b *testing.B) {
	d, _ := NewVehicleDetector(VehicleConfig{})
	at := time.Second
	h := float32(1000)
	b.ReportAllocs()
	for b.Loop() {
		at += 10 * time.Millisecond
		_, _ = d.HitClaimed(at, 30)
		h -= 1
		if h < 0 {
			h = 1000
		}
		_ = d.Health(at, 1, h)
	}
}
