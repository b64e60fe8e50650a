package wire

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// frameWith returns the sample PlayerSync with another velocity and facing.
func frameWith(t *testing.T, vel Vec3, facing float32) *PlayerSync {
	m := *sampleOf(t, IDPlayerSync).(*PlayerSync)
	m.Velocity, m.Facing = vel, facing
	return &m
}

func TestEveryVelocityStepReencodesToItself(t *testing.T) {
	m := frameWith(t, Vec3{}, 0)
	b := mustAppend(t, m)
	off := fieldAt(t, IDPlayerSync, "Velocity").off
	var got PlayerSync
	for k := -maxVelocityStep; k <= maxVelocityStep; k++ {
		le.PutUint16(b[off:], uint16(int16(k)))
		if err := got.Decode(b); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		if want := float32(k) / VelocityScale; got.Velocity.X != want {
			t.Fatalf("step %d decodes to %v, want %v", k, got.Velocity.X, want)
		}
		again, err := got.Append(b[:0:0])
		if err != nil || string(again) != string(b) {
			t.Fatalf("step %d does not re-encode to itself: %v", k, err)
		}
	}
}

// TestVelocityStepIsMathRound: the truncating rounding of velocityStep equals
// math.Round (half away from zero) on every float32 the range allows, ties included.
func TestVelocityStepIsMathRound(t *testing.T) {
	check := func(v float32) {
		want := math.Round(float64(v) * VelocityScale)
		k, ok := velocityStep(v)
		inRange := want >= -maxVelocityStep && want <= maxVelocityStep
		if ok != inRange || ok && float64(k) != want {
			t.Fatalf("velocityStep(%v) = %d, %v; math.Round gives %v", v, k, ok, want)
		}
	}
	for k := -2*maxVelocityStep - 3; k <= 2*maxVelocityStep+3; k++ {
		check(float32(k) / (2 * VelocityScale)) // every step and every tie between steps
	}
	seed := uint64(5)
	rng := rand.New(rand.NewPCG(seed, 6))
	for range 200000 {
		check(math.Float32frombits(rng.Uint32() & 0x7FFFFFFF))
		check(float32((rng.Float64()*2 - 1) * 260))
	}
	for _, v := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		if _, ok := velocityStep(v); ok {
			t.Errorf("velocityStep(%v) accepted", v)
		}
	}
}

func TestVelocityRoundsToTheNearestStep(t *testing.T) {
	seed := uint64(3)
	rng := rand.New(rand.NewPCG(seed, 3))
	for range 10000 {
		v := float32((rng.Float64()*2 - 1) * 255.99)
		var got PlayerSync
		if err := got.Decode(mustAppend(t, frameWith(t, Vec3{Z: v}, 0))); err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(float64(got.Velocity.Z) - float64(v)); d > 0.5/VelocityScale+1e-6 {
			t.Fatalf("seed %d: %v came back as %v, %v away (more than half a step)", seed, v, got.Velocity.Z, d)
		}
	}
}

// TestVelocityOutOfRangeIsRefusedNotClamped: a velocity that rounds beyond ±32767
// steps is an error, never silently clamped.
func TestVelocityOutOfRangeIsRefusedNotClamped(t *testing.T) {
	for _, c := range []struct {
		v    float32
		want error
	}{
		{255.99, nil},
		{-255.99, nil},
		{32767.0 / 128, nil},
		{32767.4 / 128, nil},
		{32767.6 / 128, ErrOutOfRange}, // rounds to 32768
		{-32767.6 / 128, ErrOutOfRange},
		{256, ErrOutOfRange},
		{1e9, ErrOutOfRange},
		{float32(math.Inf(-1)), ErrNotFinite},
	} {
		_, err := frameWith(t, Vec3{Y: c.v}, 0).Append(nil)
		if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("velocity %v: Append = %v, want %v", c.v, err, c.want)
		}
	}
}

func TestEveryFacingStepReencodesToItself(t *testing.T) {
	b := mustAppend(t, frameWith(t, Vec3{}, 0))
	off := fieldAt(t, IDPlayerSync, "Facing").off
	var got PlayerSync
	for k := range 65536 {
		le.PutUint16(b[off:], uint16(k))
		if err := got.Decode(b); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		if got.Facing < 0 || got.Facing >= 2*math.Pi {
			t.Fatalf("step %d decodes to %v, outside [0, 2π)", k, got.Facing)
		}
		again, err := got.Append(b[:0:0])
		if err != nil || string(again) != string(b) {
			t.Fatalf("step %d does not re-encode to itself: %v", k, err)
		}
	}
}

// TestFacingWrapsAnyFiniteAngle: a heading is periodic, so every finite angle is valid
// and lands within half a step of the same direction.
func TestFacingWrapsAnyFiniteAngle(t *testing.T) {
	step := 2 * math.Pi / 65536
	for _, c := range []struct{ in, want float64 }{
		{0, 0},
		{math.Pi, math.Pi},
		{-math.Pi / 2, 3 * math.Pi / 2},
		{2 * math.Pi, 0},
		{4*math.Pi + 0.25, 0.25},
		{-10 * math.Pi, 0},
		{2*math.Pi - step/4, 0}, // rounds up to a full turn, which is 0
		{1e30, math.Mod(1e30, 2*math.Pi)},
	} {
		var got PlayerSync
		if err := got.Decode(mustAppend(t, frameWith(t, Vec3{}, float32(c.in)))); err != nil {
			t.Fatalf("facing %v: %v", c.in, err)
		}
		// float32(c.in) itself may differ from c.in; compare directions modulo a turn.
		want := math.Mod(float64(float32(c.in)), 2*math.Pi)
		if want < 0 {
			want += 2 * math.Pi
		}
		d := math.Abs(float64(got.Facing) - want)
		d = math.Min(d, 2*math.Pi-d)
		if d > step/2+1e-6 {
			t.Errorf("facing %v came back as %v (want about %v)", c.in, got.Facing, c.want)
		}
	}
}

// TestNegativeZeroIsWrittenAsPositiveZero: -0.0 is a valid value with one encoding,
// the bits of +0.0, so a decoded message re-encodes to the same bytes.
func TestNegativeZeroIsWrittenAsPositiveZero(t *testing.T) {
	negz := float32(math.Copysign(0, -1))
	m := &DamageReport{Attacker: NoPlayer, HealthAfter: negz, Loss: negz}
	b := mustAppend(t, m)
	for _, name := range []string{"HealthAfter", "Loss"} {
		off := fieldAt(t, IDDamageReport, name).off
		if bits := le.Uint32(b[off:]); bits != 0 {
			t.Errorf("%s: -0 encoded as %08x, want +0", name, bits)
		}
	}
	q := &SetVehiclePose{Vehicle: 1, Rotation: Quat{W: negz, X: 1}}
	b = mustAppend(t, q)
	if bits := le.Uint32(b[fieldAt(t, IDSetVehiclePose, "Rotation").off:]); bits != 0 {
		t.Errorf("quaternion W -0 encoded as %08x", bits)
	}
	v := &ProjectileLaunch{Vehicle: NoVehicle, Target: NoVehicle, Velocity: Vec3{Y: negz}}
	b = mustAppend(t, v)
	if bits := le.Uint32(b[fieldAt(t, IDProjectileLaunch, "Velocity").off+4:]); bits != 0 {
		t.Errorf("vector Y -0 encoded as %08x", bits)
	}
}

// TestSubnormalsAreValidAndKeepTheirBits: the smallest floats are finite values like
// any other; only -0 has a second spelling.
func TestSubnormalsAreValidAndKeepTheirBits(t *testing.T) {
	m := &SetHealth{Rev: 1, Health: math.SmallestNonzeroFloat32}
	b := mustAppend(t, m)
	var got SetHealth
	if err := got.Decode(b); err != nil || got.Health != math.SmallestNonzeroFloat32 {
		t.Fatalf("subnormal health: %v, %v", got.Health, err)
	}
}

func TestQuaternionNormTolerance(t *testing.T) {
	for _, c := range []struct {
		q    Quat
		want error
	}{
		{Quat{W: 1}, nil},
		{Quat{W: 0.901}, nil},
		{Quat{W: 1.099}, nil},
		{Quat{W: 0.89}, ErrOutOfRange},
		{Quat{W: 1.11}, ErrOutOfRange},
		{Quat{}, ErrOutOfRange},
		{Quat{W: 0.7071068, Z: 0.7071068}, nil},
	} {
		_, err := (&SetVehiclePose{Vehicle: 1, Rotation: c.q}).Append(nil)
		if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("%+v: Append = %v, want %v", c.q, err, c.want)
		}
	}
}

func TestStringUsesTheRecordsSpelling(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"VitalRev", "vital_rev"},
		{"DamageSeq", "damage_seq"},
		{"PlayerToken", "player_token"},
		{"SetAsCurrent", "set_as_current"},
		{"HitID", "hit_id"},
		{"Stamp.Rev", "stamp.rev"},
		{"Rewind.VehiclePosition", "rewind.vehicle_position"},
		{"X", "x"},
	} {
		if got := string(appendSnake(nil, c.in)); got != c.want {
			t.Errorf("%s -> %s, want %s", c.in, got, c.want)
		}
	}
}

// TestClampVelocityMakesAnyFiniteVelocityEncodable: the helper a client uses on its
// game's velocity keeps every finite value within what the frame carries, and leaves an
// in-range velocity alone.
func TestClampVelocityMakesAnyFiniteVelocityEncodable(t *testing.T) {
	for _, v := range []Vec3{
		{X: 1e30, Y: -1e30, Z: 0},
		{X: float32(math.Inf(1)), Y: 256, Z: -256},
		{X: MaxSpeed, Y: -MaxSpeed, Z: 255.999},
	} {
		if _, err := frameWith(t, ClampVelocity(v), 0).Append(nil); err != nil {
			t.Errorf("ClampVelocity(%v) = %v does not encode: %v", v, ClampVelocity(v), err)
		}
	}
	if v := (Vec3{X: 3.5, Y: -0.25, Z: 100}); ClampVelocity(v) != v {
		t.Errorf("ClampVelocity changed an in-range velocity: %v", ClampVelocity(v))
	}
	if v := ClampVelocity(Vec3{X: float32(math.NaN())}); v.X == v.X {
		t.Errorf("ClampVelocity hid a NaN: %v", v)
	}
}

// TestAppendingManyMessagesIntoOneBufferGrowsGeometrically appends a thousand frames into
// one buffer and checks that the buffer was reallocated only a logarithmic number of
// times: a host batching its datagrams must not pay a copy of the whole buffer per message.
func TestAppendingManyMessagesIntoOneBufferGrowsGeometrically(t *testing.T) {
	var buf []byte
	m := PlayerSync{Health: 100, Alive: true, Vehicle: NoVehicle}
	grows := 0
	for range 1000 {
		before := cap(buf)
		var err error
		buf, err = m.Append(buf)
		if err != nil {
			t.Fatal(err)
		}
		if cap(buf) != before {
			grows++
		}
	}
	if grows > 30 {
		t.Fatalf("%d reallocations for 1000 appends: the buffer grows by one message at a time", grows)
	}
	r := RemoteWeaponShot{Shooter: 1, Weapon: 31}
	buf, grows = buf[:0:0], 0
	for range 1000 {
		before := cap(buf)
		buf, _ = r.Append(buf)
		if cap(buf) != before {
			grows++
		}
	}
	if grows > 30 {
		t.Fatalf("%d reallocations for 1000 shot appends", grows)
	}
}

// TestWireTurnIsAngleToWire checks the fast paths' rounding of an angle already in
// 0..2π against angleToWire's, on every 61st float32 of the range, its ends, and the
// angles that fall exactly halfway between two wire steps.
func TestWireTurnIsAngleToWire(t *testing.T) {
	check := func(v float32) {
		if a := float64(v); a >= 0 && a < turn {
			if got, want := wireTurn(a), angleToWire(v); got != want {
				t.Fatalf("angle %v (bits %#x): wireTurn %d, angleToWire %d", v, math.Float32bits(v), got, want)
			}
		}
	}
	top := math.Float32bits(float32(turn))
	for bits := uint32(0); bits <= top; bits += 61 {
		check(math.Float32frombits(bits))
	}
	for _, v := range []float32{0, math.SmallestNonzeroFloat32, math.Nextafter32(float32(turn), 0), float32(turn)} {
		check(v)
	}
	for k := range 65536 {
		half := (float64(k) + 0.5) * (turn / 65536)
		for _, v := range []float32{float32(half), math.Nextafter32(float32(half), 0), math.Nextafter32(float32(half), 7)} {
			check(v)
		}
	}
}
