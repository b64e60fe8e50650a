package wire

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// Patching a stamp into an encoded relay gives exactly the encoding of the message with
// that stamp, for every message that carries one.
func TestPatchStampEqualsTheEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 0
	for _, id := range IDs() {
		if !id.HasStamp() {
			continue
		}
		n++
		m := sampleOf(t, id)
		set := stampOf(t, m)
		checked := 0
		for range 50 {
			s := Stamp{Teammate: rng.IntN(2) == 0, Rev: uint16(rng.Uint32())}
			*set = Stamp{Teammate: !s.Teammate, Rev: s.Rev + 1}
			shared, err := m.Append(nil)
			if err != nil {
				// A teammate stamp needs a sender: the sample may have none.
				*set = Stamp{Rev: s.Rev + 1}
				if shared, err = m.Append(nil); err != nil {
					t.Fatalf("%v: %v", id, err)
				}
			}
			*set = s
			want, err := m.Append(nil)
			if err != nil {
				continue // this sample cannot carry that stamp
			}
			if err := PatchStamp(shared, s); err != nil {
				t.Fatalf("%v: %v", id, err)
			}
			if !bytes.Equal(shared, want) {
				t.Fatalf("%v: patched %x, encoded %x", id, shared, want)
			}
			checked++
		}
		if checked == 0 {
			t.Fatalf("%v: no stamp was patched", id)
		}
	}
	if n < 4 {
		t.Fatalf("only %d messages carry a stamp", n)
	}
}

func TestPatchStampRefusesWhatItCannotPatch(t *testing.T) {
	ps, err := (&PlayerSync{}).Append(nil)
	if err != nil {
		t.Fatal(err)
	}
	rps, err := (&RemotePlayerSync{Player: 1, Alive: true, Health: 50}).Append(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		b    []byte
		want error
	}{
		{nil, ErrTruncated},
		{ps, ErrWrongMessage},
		{rps[:len(rps)-1], ErrTruncated},
		{append([]byte{Version + 1}, rps[1:]...), ErrVersion},
		{[]byte{Version, 0x3F}, ErrUnknownID},
	} {
		before := append([]byte(nil), c.b...)
		if err := PatchStamp(c.b, Stamp{Teammate: true, Rev: 7}); !errors.Is(err, c.want) {
			t.Errorf("%x: %v, want %v", c.b, err, c.want)
		}
		if !bytes.Equal(before, c.b) {
			t.Errorf("%x: changed by a refused patch", c.b)
		}
	}
}

func TestPatchStampDoesNotAllocate(t *testing.T) {
	b, err := (&RemotePlayerSync{Player: 1, Alive: true, Health: 50}).Append(nil)
	if err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(100, func() { _ = PatchStamp(b, Stamp{Teammate: true, Rev: 3}) }); a != 0 {
		t.Fatalf("%v allocations", a)
	}
}

// stampOf returns a pointer to m's Stamp field.
func stampOf(t *testing.T, m Message) *Stamp {
	t.Helper()
	switch m := m.(type) {
	case *RemotePlayerSync:
		return &m.Stamp
	case *RemoteVehicleSync:
		return &m.Stamp
	case *RemoteWeaponShot:
		return &m.Stamp
	case *RemoteVehicleShot:
		return &m.Stamp
	case *RemoteProjectile:
		return &m.Stamp
	case *RemoteDetonation:
		return &m.Stamp
	case *RemoteStealthKill:
		return &m.Stamp
	case *RemoteVehicleExplode:
		return &m.Stamp
	case *CreateExplosion:
		return &m.Stamp
	case *CreateFire:
		return &m.Stamp
	}
	t.Fatalf("%v has no stamp the test knows", m.ID())
	return nil
}
