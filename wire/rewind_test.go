package wire

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// rewindOf returns the Rewind of a message that carries one.
func rewindOf(t *testing.T, m Message) *Rewind {
	t.Helper()
	switch m := m.(type) {
	case *RemoteWeaponShot:
		return &m.Rewind
	case *RemoteVehicleShot:
		return &m.Rewind
	}
	t.Fatalf("%v has no Rewind the test knows", m.ID())
	return nil
}

func randomRewind(rng *rand.Rand) Rewind {
	coord := func() float32 { return float32(rng.Float64()*2*MaxCoord - MaxCoord) }
	switch rng.IntN(3) {
	case 0:
		return Rewind{}
	case 1:
		return Rewind{Valid: true, Position: Vec3{coord(), coord(), coord()}}
	}
	q := Quat{W: float32(rng.NormFloat64()), X: float32(rng.NormFloat64()), Y: float32(rng.NormFloat64()), Z: float32(rng.NormFloat64())}
	n := float32(math.Sqrt(float64(q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z)))
	q = Quat{W: q.W / n, X: q.X / n, Y: q.Y / n, Z: q.Z / n}
	return Rewind{Valid: true, Position: Vec3{coord(), coord(), coord()}, InVehicle: true, Vehicle: uint16(rng.IntN(0xFFFF)),
		VehiclePosition: Vec3{coord(), coord(), coord()}, VehicleRotation: q}
}

// Patching a Rewind into the shared encoding of a shot (no Rewind, any stamp) gives
// exactly the encoding of the message with that Rewind, for every message that carries
// one, whatever Rewind the shared copy held before.
func TestPatchRewindEqualsTheEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 0
	for _, id := range IDs() {
		if !id.HasRewind() {
			continue
		}
		n++
		m := sampleOf(t, id)
		set := rewindOf(t, m)
		for range 200 {
			*set = randomRewind(rng)
			shared := mustAppend(t, m)
			r := randomRewind(rng)
			*set = r
			want := mustAppend(t, m)
			if err := PatchRewind(shared, r); err != nil {
				t.Fatalf("%v: %v", id, err)
			}
			if !r.Encodes() {
				t.Fatalf("%v: Encodes refused %+v, which encodes", id, r)
			}
			if !bytes.Equal(shared, want) {
				t.Fatalf("%v: patched %x, encoded %x", id, shared, want)
			}
		}
	}
	if n != 2 {
		t.Fatalf("%d messages carry a Rewind, want 2 (RemoteWeaponShot, RemoteVehicleShot)", n)
	}
}

// PatchRewind refuses what Append refuses, with Append's error (and Rewind.Encodes is
// false for it), and a message without a Rewind or cut short; it changes nothing then.
func TestPatchRewindRefusesWhatAppendRefuses(t *testing.T) {
	q := Quat{W: 1}
	bad := []Rewind{
		{Valid: true, Position: Vec3{X: MaxCoord * 2}},
		{Valid: true, Position: Vec3{Y: float32(math.NaN())}},
		{Position: Vec3{X: 1}},
		{InVehicle: true, VehicleRotation: q},
		{Valid: true, Vehicle: 3},
		{Valid: true, VehiclePosition: Vec3{Z: 1}},
		{Valid: true, VehicleRotation: q},
		{Valid: true, InVehicle: true},
		{Valid: true, InVehicle: true, Vehicle: 0xFFFF, VehicleRotation: q},
		{Valid: true, InVehicle: true, VehicleRotation: Quat{W: 2}},
		{Valid: true, InVehicle: true, VehicleRotation: Quat{W: float32(math.Inf(1))}},
		{Valid: true, InVehicle: true, VehiclePosition: Vec3{X: -MaxCoord * 2}, VehicleRotation: q},
	}
	for _, id := range []ID{IDRemoteWeaponShot, IDRemoteVehicleShot} {
		m := sampleOf(t, id)
		*rewindOf(t, m) = Rewind{}
		shared := mustAppend(t, m)
		for i, r := range bad {
			*rewindOf(t, m) = r
			_, want := m.Append(nil)
			if want == nil {
				t.Fatalf("%v: case %d: Append took %+v", id, i, r)
			}
			if r.Encodes() {
				t.Fatalf("%v: case %d: Encodes took %+v", id, i, r)
			}
			b := bytes.Clone(shared)
			err := PatchRewind(b, r)
			if err == nil || err.Error() != want.Error() {
				t.Fatalf("%v: case %d: PatchRewind %v, Append %v", id, i, err, want)
			}
			if !bytes.Equal(b, shared) {
				t.Fatalf("%v: case %d: a refused patch changed the message", id, i)
			}
		}
		if err := PatchRewind(shared[:len(shared)-1], Rewind{}); !errors.Is(err, ErrTruncated) {
			t.Fatalf("%v cut short: %v, want ErrTruncated", id, err)
		}
	}
	ps := mustAppend(t, &PlayerSync{})
	if err := PatchRewind(ps, Rewind{}); !errors.Is(err, ErrWrongMessage) {
		t.Fatalf("PlayerSync: %v, want ErrWrongMessage", err)
	}
	if err := PatchRewind(nil, Rewind{}); !errors.Is(err, ErrTruncated) {
		t.Fatalf("nil: %v, want ErrTruncated", err)
	}
	rs := mustAppend(t, &RemotePlayerSync{})
	if err := PatchRewind(rs, Rewind{}); !errors.Is(err, ErrWrongMessage) {
		t.Fatalf("RemotePlayerSync: %v, want ErrWrongMessage", err)
	}
}

func TestPatchRewindDoesNotAllocate(t *testing.T) {
	m := sampleOf(t, IDRemoteWeaponShot)
	b := mustAppend(t, m)
	r := Rewind{Valid: true, Position: Vec3{1, 2, 3}, InVehicle: true, Vehicle: 4, VehicleRotation: Quat{W: 1}}
	if n := testing.AllocsPerRun(100, func() { _ = PatchRewind(b, r) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
