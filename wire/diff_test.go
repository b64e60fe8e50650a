package wire

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// walkAppend and walkDecode are the reference codec: the walk, which also defines the
// documented layout. Every message's methods must agree with them exactly.
func walkAppend(m Message, dst []byte) ([]byte, error) {
	c := startEncode(dst, m.ID())
	m.walk(&c)
	return c.endEncode(dst)
}

func walkDecode(id ID, b []byte) (Message, error) {
	c, err := startDecode(b, id)
	if err != nil {
		return nil, err
	}
	t := New(id)
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return nil, err
	}
	return t, nil
}

// sameDecode requires the message's Decode and the walk to agree on b: the same
// (preallocated) error, or the same value.
func sameDecode(t *testing.T, id ID, b []byte, ctx string) {
	t.Helper()
	got := New(id)
	err := got.Decode(b)
	want, werr := walkDecode(id, b)
	if err != werr {
		t.Fatalf("%s: %v.Decode gives %v, the walk %v\n% x", ctx, id, err, werr, b)
	}
	if err == nil && !cmp.Equal(got, want) {
		t.Fatalf("%s: %v.Decode and the walk disagree:\n%s\n% x", ctx, id, cmp.Diff(want, got), b)
	}
	// Into a value that holds another message (a Decoder's, reused): every field is
	// overwritten on success, none on error.
	prior := sampleOf(t, id)
	reused := New(id)
	if perr := reused.Decode(mustAppend(t, prior)); perr != nil {
		t.Fatalf("%s: the sample of %v does not decode: %v", ctx, id, perr)
	}
	if rerr := reused.Decode(b); rerr != err {
		t.Fatalf("%s: %v.Decode into a used value gives %v, into a new one %v", ctx, id, rerr, err)
	}
	if err == nil && !cmp.Equal(reused, want) {
		t.Fatalf("%s: %v.Decode into a used value left a field:\n%s\n% x", ctx, id, cmp.Diff(want, reused), b)
	}
	if err != nil && !cmp.Equal(reused, prior) {
		t.Fatalf("%s: a failed %v.Decode changed the value:\n%s\n% x", ctx, id, cmp.Diff(prior, reused), b)
	}
}

// sameAppend requires the message's Append and the walk to agree on m.
func sameAppend(t *testing.T, m Message, ctx string) {
	t.Helper()
	got, err := m.Append(nil)
	want, werr := walkAppend(m, nil)
	if err != werr || !bytes.Equal(got, want) {
		t.Fatalf("%s: %v.Append gives %v % x, the walk %v % x (%v)", ctx, m.ID(), err, got, werr, want, m)
	}
}

// wildValue sets a field to a random value of its Go type, valid or not: NaN, ±Inf,
// -0, out-of-range numbers, 0xFFFF ids, enums past their set.
func wildValue(rng *rand.Rand, f field, v reflect.Value) {
	wildFloat := func() float64 {
		switch rng.IntN(8) {
		case 0:
			return math.NaN()
		case 1:
			return math.Inf(1 - 2*rng.IntN(2))
		case 2:
			return math.Copysign(0, -1)
		case 3:
			return (rng.Float64()*2 - 1) * 1e6
		case 4:
			return float64(math.Nextafter32(float32(rng.IntN(3)*100), float32(rng.NormFloat64())))
		default:
			return (rng.Float64()*2 - 1) * 300
		}
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		switch rng.IntN(3) {
		case 0:
			v.SetUint(uint64(f.max) + uint64(rng.IntN(3)))
		case 1:
			v.SetUint(0xFFFF)
		default:
			v.SetUint(rng.Uint64())
		}
	case reflect.Float32:
		v.SetFloat(wildFloat())
	case reflect.Struct: // Vec3, Quat
		for i := range v.NumField() {
			if rng.IntN(2) == 0 {
				v.Field(i).SetFloat(wildFloat())
			}
		}
	}
}

// TestFastPathsMatchTheWalk runs every message's Append and Decode against the walk on
// samples, random valid messages, random values with wild fields (Append), and random
// and corrupted bytes (Decode): the bytes, the values and the errors must be identical.
func TestFastPathsMatchTheWalk(t *testing.T) {
	seed := uint64(99)
	rng := rand.New(rand.NewPCG(seed, 5))
	for _, id := range IDs() {
		l := layoutOf(id)
		sameAppend(t, sampleOf(t, id), "sample")
		for i := range 300 {
			m, ok := randomValid(rng, id)
			if !ok {
				t.Fatalf("seed %d: no valid %v", seed, id)
			}
			sameAppend(t, m, "random valid")
			if len(l.fields) > 0 {
				for range 1 + rng.IntN(2) {
					f := l.fields[rng.IntN(len(l.fields))]
					if f.group {
						continue
					}
					fv, _ := goField(reflect.ValueOf(m).Elem(), f.name)
					wildValue(rng, f, fv)
				}
				sameAppend(t, m, "wild field")
			}
			b := randomEncoding(rng, id)
			sameDecode(t, id, b, "random fields")
			if i%2 == 0 {
				b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
			} else {
				k := HeaderSize + rng.IntN(len(b)-HeaderSize+1)
				b = b[:min(k, len(b))]
			}
			sameDecode(t, id, b, "corrupted")
		}
	}
}
