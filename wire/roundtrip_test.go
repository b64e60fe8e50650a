package wire

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSamplesCoverEveryMessageOnce(t *testing.T) {
	seen := map[ID]bool{}
	for _, m := range samples() {
		if seen[m.ID()] {
			t.Errorf("two samples of %v", m.ID())
		}
		seen[m.ID()] = true
	}
	for _, id := range IDs() {
		if !seen[id] {
			t.Errorf("no sample of %v", id)
		}
	}
}

func TestRoundTripEveryMessage(t *testing.T) {
	for _, want := range samples() {
		t.Run(want.ID().String(), func(t *testing.T) {
			b := mustAppend(t, want)
			if len(b) != want.ID().Size() {
				t.Fatalf("encoded %d bytes, the layout says %d", len(b), want.ID().Size())
			}
			got := New(want.ID())
			if err := got.Decode(b); err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("typed Decode(Append(m)) differs (-want +got):\n%s", d)
			}
			var dec Decoder
			viaDecoder, err := dec.Decode(b)
			if err != nil {
				t.Fatalf("Decoder.Decode: %v", err)
			}
			if d := cmp.Diff(want, viaDecoder); d != "" {
				t.Errorf("Decoder.Decode(Append(m)) differs (-want +got):\n%s", d)
			}
			again := mustAppend(t, got)
			if !bytes.Equal(again, b) {
				t.Errorf("re-encoding the decoded value gives other bytes:\n% x\n% x", b, again)
			}
		})
	}
}

func TestAppendAppendsAfterWhatIsInDst(t *testing.T) {
	m := sampleOf(t, IDDamageReport)
	alone := mustAppend(t, m)
	prefix := []byte("datagram:")
	b, err := m.Append(append([]byte(nil), prefix...))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b[:len(prefix)], prefix) || !bytes.Equal(b[len(prefix):], alone) {
		t.Errorf("Append did not append: % x", b)
	}
}

func TestEveryMessageHasItsMethods(t *testing.T) {
	dec := reflect.TypeOf(Decoder{})
	for _, e := range catalog() {
		m := e.new()
		typ := reflect.TypeOf(m).Elem()
		if m.ID() != e.id {
			t.Errorf("%v: ID() = %v", typ.Name(), m.ID())
		}
		if e.id.String() != typ.Name() {
			t.Errorf("id 0x%02x is named %q, its type %q", uint8(e.id), e.id.String(), typ.Name())
		}
		if f, ok := dec.FieldByName(typ.Name()); !ok || f.Type != typ {
			t.Errorf("Decoder has no field %s of type %s", typ.Name(), typ.Name())
		}
		if _, err := New(e.id).Append(nil); err != nil && typ.NumField() == 0 {
			t.Errorf("%v: empty message does not encode: %v", typ.Name(), err)
		}
		if !strings.HasPrefix(m.String(), typ.Name()+"{") {
			t.Errorf("%v: String() = %q", typ.Name(), m.String())
		}
	}
}

func TestDecoderReturnsItsOwnValue(t *testing.T) {
	var dec Decoder
	for _, want := range samples() {
		got, err := dec.Decode(mustAppend(t, want))
		if err != nil {
			t.Fatal(err)
		}
		field := reflect.ValueOf(&dec).Elem().FieldByName(want.ID().String()).Addr().Interface()
		if got != field {
			t.Errorf("%v: Decoder.Decode returned a pointer outside the Decoder", want.ID())
		}
	}
}

// goField resolves a layout field path (Stamp.Rev) in a message value.
func goField(v reflect.Value, path string) (reflect.Value, bool) {
	for _, p := range strings.Split(path, ".") {
		v = v.FieldByName(p)
		if !v.IsValid() {
			return v, false
		}
	}
	return v, true
}

// TestLayoutNamesEveryGoField checks that each layout row names a real field of the Go
// type and that every exported field of the type travels in exactly one row.
func TestLayoutNamesEveryGoField(t *testing.T) {
	for _, e := range catalog() {
		l := layoutOf(e.id)
		v := reflect.ValueOf(e.new()).Elem()
		named := map[string]int{}
		for _, f := range l.fields {
			if f.group {
				continue
			}
			if _, ok := goField(v, f.name); !ok {
				t.Errorf("%s: layout names %s, which the type does not have", l.name, f.name)
			}
			named[f.name]++
		}
		var leaves func(prefix string, v reflect.Value)
		leaves = func(prefix string, v reflect.Value) {
			for i := range v.NumField() {
				sf := v.Type().Field(i)
				name := prefix + sf.Name
				switch sf.Type {
				case reflect.TypeFor[Stamp](), reflect.TypeFor[Ref](), reflect.TypeFor[Rewind]():
					leaves(name+".", v.Field(i))
					continue
				}
				if named[name] != 1 {
					t.Errorf("%s.%s travels in %d layout rows, want 1", l.name, name, named[name])
				}
			}
		}
		leaves("", v)
	}
}

// perturb sets the field to another value its row accepts on its own (a rule between
// fields may still refuse it).
func perturb(f field, v reflect.Value) {
	switch f.prim {
	case primU8, primU16, primU32:
		v.SetUint(v.Uint() + 1)
		if v.Uint() == 0 {
			v.SetUint(1)
		}
	case primID:
		v.SetUint((v.Uint() + 1) % 0xFFFF)
	case primEnum, primBitsUint, primU16Max:
		v.SetUint((v.Uint() + 1) % (uint64(f.max) + 1))
	case primBool, primBit:
		v.SetBool(!v.Bool())
	case primF32:
		lo, hi := f.span.bounds()
		x := float32((float64(lo) + float64(hi)) / 2)
		if float32(v.Float()) == x {
			x = hi
		}
		v.SetFloat(float64(x))
	case primVec3:
		x := float32(v.Field(0).Float()) + 1
		if x > 100 {
			x = -5
		}
		v.Field(0).SetFloat(float64(x))
	case primQuat:
		if v.Field(0).Float() == 1 {
			v.Set(reflect.ValueOf(Quat{X: 1}))
		} else {
			v.Set(reflect.ValueOf(Quat{W: 1}))
		}
	case primVelocity:
		if y := v.Field(1).Float(); y > 0 {
			v.Field(1).SetFloat(y - 1.5)
		} else {
			v.Field(1).SetFloat(y + 1.5)
		}
	case primAngle:
		v.SetFloat(float64(angleFromWire(angleToWire(float32(v.Float())) + 1)))
	}
}

// TestLayoutOffsetsAreWhereTheBytesAre changes one Go field at a time and checks that
// only the bytes (or bits) its layout row documents change. It runs over the samples
// and over random valid messages, so fields that a rule keeps at zero in one base
// (the vehicle pose of a recipient on foot) are moved in another.
func TestLayoutOffsetsAreWhereTheBytesAre(t *testing.T) {
	seed := uint64(20261129)
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, e := range catalog() {
		l := layoutOf(e.id)
		bases := []Message{sampleOf(t, e.id)}
		if zero := New(e.id); encodeCodec(zero).fail == kindNone {
			bases = append(bases, zero)
		}
		for range 20 {
			if m, ok := randomValid(rng, e.id); ok {
				bases = append(bases, m)
			}
		}
		moved := map[string]bool{}
		for _, base := range bases {
			before := rawEncode(base)
			for _, f := range l.fields {
				if f.group {
					continue
				}
				m := New(e.id)
				reflect.ValueOf(m).Elem().Set(reflect.ValueOf(base).Elem())
				fv, _ := goField(reflect.ValueOf(m).Elem(), f.name)
				perturb(f, fv)
				if c := encodeCodec(m); c.fail != kindNone && !isRuleError(layoutOf(e.id).err(c.failField, c.fail)) {
					t.Fatalf("%s.%s: the perturbed value is invalid on its own: %v", l.name, f.name, layoutOf(e.id).err(c.failField, c.fail))
				}
				after := rawEncode(m)
				moved[f.name] = true
				for i := range before {
					diff := before[i] ^ after[i]
					inside := i >= f.off && i < f.off+f.width
					if f.width == 0 && i == f.off {
						mask := byte(1)<<f.bits - 1
						diff &^= mask << f.bit
						inside = false
					}
					if diff != 0 && !inside {
						t.Errorf("%s.%s: changing it changed byte %d, outside its row (off %d, size %d, bit %d+%d)",
							l.name, f.name, i, f.off, f.width, f.bit, f.bits)
					}
				}
				if bytes.Equal(before, after) {
					t.Errorf("%s.%s: changing it changed no byte", l.name, f.name)
				}
			}
		}
		for _, f := range l.fields {
			if !f.group && !moved[f.name] {
				t.Errorf("%s.%s: no base let the test move it (seed %d)", l.name, f.name, seed)
			}
		}
	}
}

// encodeCodec runs an encode walk and returns the codec, failed or not.
func encodeCodec(m Message) codec {
	c := startEncode(nil, m.ID())
	m.walk(&c)
	return c
}

// rawEncode encodes m even when it breaks a rule between fields (never a field's own
// range): every field is written whatever the outcome of the rules.
func rawEncode(m Message) []byte { return encodeCodec(m).buf }

// randomField writes a random valid encoding of one layout row into b.
func randomField(rng *rand.Rand, f field, b []byte) {
	f32 := func(s span) float32 {
		lo, hi := s.bounds()
		var v float32
		switch rng.IntN(8) {
		case 0:
			v = hi
		case 1:
			v = lo
		case 2:
			v = max(0, lo)
		default:
			v = float32(float64(lo) + rng.Float64()*(float64(hi)-float64(lo)))
		}
		return min(max(v, lo), hi) + 0 // no -0
	}
	put := func(off int, v float32) { le.PutUint32(b[off:], math.Float32bits(v)) }
	switch f.prim {
	case primU8:
		b[f.off] = byte(rng.Uint32())
	case primU16:
		le.PutUint16(b[f.off:], uint16(rng.Uint32()))
	case primU32:
		le.PutUint32(b[f.off:], rng.Uint32())
	case primU16Max:
		v := uint16(rng.IntN(int(f.max) + 1))
		if rng.IntN(4) == 0 {
			v = f.max * uint16(rng.IntN(2))
		}
		le.PutUint16(b[f.off:], v)
	case primID:
		v := uint16(rng.IntN(0xFFFF))
		if f.none && rng.IntN(4) == 0 {
			v = 0xFFFF
		}
		le.PutUint16(b[f.off:], v)
	case primEnum:
		b[f.off] = byte(rng.IntN(int(f.max) + 1))
	case primBool:
		b[f.off] = byte(rng.IntN(2))
	case primBits:
		b[f.off] = byte(rng.IntN(1 << f.reserved))
	case primBit:
		// set by its group's random byte
	case primBitsUint:
		mask := byte(1)<<f.bits - 1
		b[f.off] = b[f.off]&^(mask<<f.bit) | byte(rng.IntN(int(f.max)+1))<<f.bit
	case primF32:
		put(f.off, f32(f.span))
	case primVec3:
		for i := range 3 {
			put(f.off+4*i, f32(f.span))
		}
	case primQuat:
		q := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		for i := range 4 {
			v := float32(q[i] / n)
			if f.optional && rng.IntN(3) == 0 {
				v = 0
			}
			put(f.off+4*i, v+0)
		}
	case primVelocity:
		for i := range 3 {
			le.PutUint16(b[f.off+2*i:], uint16(int16(rng.IntN(2*maxVelocityStep+1)-maxVelocityStep)))
		}
	case primAngle:
		le.PutUint16(b[f.off:], uint16(rng.Uint32()))
	}
}

// randomEncoding assembles a message from random valid encodings of each of its
// fields. The result can still break a rule between fields.
func randomEncoding(rng *rand.Rand, id ID) []byte {
	l := layoutOf(id)
	b := make([]byte, l.size)
	b[0], b[1] = Version, byte(id)
	for _, f := range l.fields {
		randomField(rng, f, b)
	}
	return b
}

// randomValid returns a random valid message of the id, or false if 200 tries all broke
// a rule. A field that breaks a rule is zeroed and the message tried again, so rules
// that keep absent parts zero do not reject most tries.
func randomValid(rng *rand.Rand, id ID) (Message, bool) {
	for range 200 {
		b := randomEncoding(rng, id)
		for range 8 {
			m := New(id)
			err := m.Decode(b)
			if err == nil {
				return m, true
			}
			if !isRuleError(err) {
				panic(err)
			}
			zeroField(b, layoutOf(id).fields[err.(*codecError).field])
		}
	}
	return nil, false
}

// zeroField writes the zero encoding of a field (or clears its bits).
func zeroField(b []byte, f field) {
	if f.width == 0 {
		b[f.off] &^= (byte(1)<<f.bits - 1) << f.bit
		return
	}
	clear(b[f.off : f.off+f.width])
}

// TestRandomFieldEncodingsRoundTrip is a property test: any message assembled from
// valid field encodings either breaks a documented rule or decodes, re-encodes to the
// same bytes, and decodes again to the same value.
func TestRandomFieldEncodingsRoundTrip(t *testing.T) {
	seed := uint64(7)
	rng := rand.New(rand.NewPCG(seed, 2))
	for _, id := range IDs() {
		ok := 0
		for range 300 {
			b := randomEncoding(rng, id)
			m := New(id)
			err := m.Decode(b)
			if err != nil {
				if !isRuleError(err) {
					t.Fatalf("seed %d: %v: valid field encodings refused: %v\n% x", seed, id, err, b)
				}
				continue
			}
			ok++
			checkReencode(t, seed, m, b)
		}
		for range 100 {
			m, valid := randomValid(rng, id)
			if !valid {
				t.Fatalf("seed %d: %v: no valid message in 200 tries", seed, id)
			}
			checkReencode(t, seed, m, rawEncode(m))
		}
		if ok < 20 {
			t.Errorf("seed %d: %v: only %d of 300 random messages were valid", seed, id, ok)
		}
	}
}

func checkReencode(t *testing.T, seed uint64, m Message, b []byte) {
	t.Helper()
	id := m.ID()
	again, err := m.Append(nil)
	if err != nil || !bytes.Equal(again, b) {
		t.Fatalf("seed %d: %v: re-encoding gives %v\n% x\n% x", seed, id, err, b, again)
	}
	m2 := New(id)
	if err := m2.Decode(again); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(m, m2); d != "" {
		t.Fatalf("seed %d: %v: second decode differs:\n%s", seed, id, d)
	}
}

// isRuleError reports whether err comes from a rule between fields rather than from a
// field alone.
func isRuleError(err error) bool {
	ce, ok := err.(*codecError)
	if !ok || ce.field == noField {
		return false
	}
	name := layoutOf(ce.id).fields[ce.field].name
	for _, r := range layoutOf(ce.id).rules {
		if r.field == name && r.kind == ce.kind {
			return true
		}
	}
	return false
}
