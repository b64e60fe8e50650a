package wire

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var sentinels = []error{ErrTruncated, ErrTrailing, ErrVersion, ErrUnknownID, ErrWrongMessage,
	ErrNotFinite, ErrOutOfRange, ErrInvalidEnum, ErrNonCanonical, ErrInconsistent}

// matchesOnly checks that err matches want and no other sentinel of the package.
func matchesOnly(t *testing.T, err, want error, context string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: got %v, want %v", context, err, want)
		return
	}
	for _, s := range sentinels {
		if s != want && errors.Is(err, s) {
			t.Errorf("%s: %v also matches %v", context, err, s)
		}
	}
}

// badCase is hostile input for one message: the bytes, the error class, and the
// field the error must name ("" for the message as a whole).
type badCase struct {
	name  string
	b     []byte
	want  error
	field string
}

func f32bits(v float32) uint32 { return math.Float32bits(v) }

// fieldCases derives, from a message's layout, every class of invalid value each field
// can hold, written into an otherwise valid encoding.
func fieldCases(id ID, valid []byte) []badCase {
	var cases []badCase
	add := func(f field, what string, want error, patch func(b []byte)) {
		b := bytes.Clone(valid)
		patch(b)
		cases = append(cases, badCase{name: f.name + "/" + what, b: b, want: want, field: f.name})
	}
	putAt := func(off int, v uint32) func([]byte) { return func(b []byte) { le.PutUint32(b[off:], v) } }
	floatCases := func(f field, off int, s span, axis string) {
		for _, c := range []struct {
			what string
			bits uint32
		}{
			{"NaN", 0x7FC00000}, {"NaN payload", 0x7F800001}, {"negative NaN", 0xFFC00001},
			{"+Inf", f32bits(float32(math.Inf(1)))}, {"-Inf", f32bits(float32(math.Inf(-1)))},
		} {
			add(f, axis+c.what, ErrNotFinite, putAt(off, c.bits))
		}
		add(f, axis+"-0", ErrNonCanonical, putAt(off, negZero))
		if s == spanAny {
			return
		}
		lo, hi := s.bounds()
		add(f, axis+"above max", ErrOutOfRange, putAt(off, f32bits(math.Nextafter32(hi, float32(math.Inf(1))))))
		add(f, axis+"max float", ErrOutOfRange, putAt(off, f32bits(math.MaxFloat32)))
		add(f, axis+"below min", ErrOutOfRange, putAt(off, f32bits(math.Nextafter32(lo, float32(math.Inf(-1))))))
		if lo == aboveZero {
			add(f, axis+"zero", ErrOutOfRange, putAt(off, 0))
		}
	}
	for _, f := range layoutOf(id).fields {
		switch f.prim {
		case primF32:
			floatCases(f, f.off, f.span, "")
		case primVec3:
			for i, axis := range []string{"X ", "Y ", "Z "} {
				floatCases(f, f.off+4*i, f.span, axis)
			}
		case primQuat:
			for i, axis := range []string{"W ", "X ", "Y ", "Z "} {
				floatCases(f, f.off+4*i, spanAny, axis)
			}
			add(f, "not unit (|q| 2)", ErrOutOfRange, func(b []byte) {
				for i := range 4 {
					le.PutUint32(b[f.off+4*i:], f32bits(1))
				}
			})
			add(f, "not unit (|q| 0.5)", ErrOutOfRange, func(b []byte) {
				clear(b[f.off : f.off+16])
				le.PutUint32(b[f.off:], f32bits(0.5))
			})
			if !f.optional {
				add(f, "zero", ErrOutOfRange, func(b []byte) { clear(b[f.off : f.off+16]) })
			}
		case primVelocity:
			for i, axis := range []string{"X ", "Y ", "Z "} {
				add(f, axis+"-32768", ErrOutOfRange, func(b []byte) { le.PutUint16(b[f.off+2*i:], 0x8000) })
			}
		case primEnum:
			add(f, "one past the last", ErrInvalidEnum, func(b []byte) { b[f.off] = byte(f.max) + 1 })
			add(f, "255", ErrInvalidEnum, func(b []byte) { b[f.off] = 255 })
		case primBool:
			add(f, "2", ErrInvalidEnum, func(b []byte) { b[f.off] = 2 })
			add(f, "255", ErrInvalidEnum, func(b []byte) { b[f.off] = 255 })
		case primBits:
			for bit := f.reserved; bit < 8; bit++ {
				add(f, fmt.Sprintf("reserved bit %d", bit), ErrNonCanonical, func(b []byte) { b[f.off] |= 1 << bit })
			}
		case primBitsUint:
			if int(f.max)+1 < 1<<f.bits {
				add(f, "above max", ErrOutOfRange, func(b []byte) {
					mask := byte(1)<<f.bits - 1
					b[f.off] = b[f.off]&^(mask<<f.bit) | (byte(f.max)+1)<<f.bit
				})
			}
		case primU16Max:
			add(f, "one above max", ErrOutOfRange, func(b []byte) { le.PutUint16(b[f.off:], f.max+1) })
			add(f, "0xFFFF", ErrOutOfRange, func(b []byte) { le.PutUint16(b[f.off:], 0xFFFF) })
		case primID:
			if !f.none {
				add(f, "0xFFFF", ErrOutOfRange, func(b []byte) { le.PutUint16(b[f.off:], 0xFFFF) })
			}
		}
	}
	return cases
}

// messageCases derives the errors about the message as a whole.
func messageCases(id ID, valid []byte) []badCase {
	var cases []badCase
	for n := range len(valid) {
		cases = append(cases, badCase{name: fmt.Sprintf("truncated to %d", n), b: valid[:n:n], want: ErrTruncated})
	}
	cases = append(cases,
		badCase{name: "one trailing byte", b: append(bytes.Clone(valid), 0), want: ErrTrailing},
		badCase{name: "a whole second message", b: append(bytes.Clone(valid), valid...), want: ErrTrailing},
	)
	for _, v := range []byte{0, Version + 1, 0xFF} {
		b := bytes.Clone(valid)
		b[0] = v
		cases = append(cases, badCase{name: fmt.Sprintf("version %d", v), b: b, want: ErrVersion})
	}
	for _, other := range []ID{0, 0x3F, 0x9F, FirstTransportID, 0xFF} {
		b := bytes.Clone(valid)
		b[1] = byte(other)
		cases = append(cases, badCase{name: fmt.Sprintf("unknown id 0x%02x", uint8(other)), b: b, want: ErrUnknownID})
	}
	other := IDPing
	if id == IDPing {
		other = IDPong
	}
	b := bytes.Clone(valid)
	b[1] = byte(other)
	cases = append(cases, badCase{name: "another message's id", b: b, want: ErrWrongMessage})
	return cases
}

// TestDecodeRefusesEveryErrorClassOfEveryMessage runs a table of hostile inputs per
// message, derived from its layout: every truncation, trailing bytes, unknown version,
// unknown and wrong ids, and for every field each class of bad value it can hold (NaN
// and ±Inf, -0, out of range on both sides, a non-unit rotation, -32768 velocity, enums
// past their set, bool bytes 2 and 255, reserved flag bits, a missing subject). Each must
// give exactly its sentinel, name the message and field, leave the receiver unchanged and
// allocate nothing.
func TestDecodeRefusesEveryErrorClassOfEveryMessage(t *testing.T) {
	total := 0
	for _, sample := range samples() {
		id := sample.ID()
		valid := mustAppend(t, sample)
		cases := append(messageCases(id, valid), fieldCases(id, valid)...)
		t.Run(id.String(), func(t *testing.T) {
			for _, c := range cases {
				total++
				m := New(id)
				reflect.ValueOf(m).Elem().Set(reflect.ValueOf(sample).Elem())
				err := m.Decode(c.b)
				ctx := id.String() + ": " + c.name
				matchesOnly(t, err, c.want, ctx)
				if err == nil {
					continue
				}
				if c.field != "" && !strings.HasSuffix(err.Error(), ": "+id.String()+"."+c.field) {
					t.Errorf("%s: error %q does not name %s.%s", ctx, err, id, c.field)
				}
				if c.field == "" && !strings.Contains(err.Error(), id.String()) {
					t.Errorf("%s: error %q does not name the message", ctx, err)
				}
				if d := cmp.Diff(sample, m); d != "" {
					t.Errorf("%s: a refused Decode changed the receiver:\n%s", ctx, d)
				}
				if a := testing.AllocsPerRun(5, func() { _ = m.Decode(c.b) }); a != 0 {
					t.Errorf("%s: refusing costs %v allocations", ctx, a)
				}
				if c.want == ErrWrongMessage {
					continue // the bytes may well be a valid message of the other type
				}
				var dec Decoder
				if got, derr := dec.Decode(c.b); got != nil || derr == nil {
					t.Errorf("%s: Decoder.Decode accepted it", ctx)
				} else {
					matchesOnly(t, derr, c.want, ctx+" (Decoder)")
				}
			}
		})
	}
	if total < 1500 {
		t.Errorf("only %d hostile inputs; the table generator lost cases", total)
	}
}

// ruleCase breaks one rule of a message.
type ruleCase struct {
	id    ID
	field string
	want  error
	brk   func(m Message)
}

func ruleCases() []ruleCase {
	noRewind := func(m Message) *Rewind {
		switch m := m.(type) {
		case *RemoteWeaponShot:
			return &m.Rewind
		case *RemoteVehicleShot:
			return &m.Rewind
		}
		panic("no rewind")
	}
	var cases []ruleCase
	for _, id := range []ID{IDRemoteWeaponShot, IDRemoteVehicleShot} {
		cases = append(cases,
			ruleCase{id, "Rewind.Position", ErrNonCanonical, func(m Message) { r := noRewind(m); *r = Rewind{Position: posA} }},
			ruleCase{id, "Rewind.InVehicle", ErrNonCanonical, func(m Message) {
				r := noRewind(m)
				*r = Rewind{InVehicle: true, Vehicle: 4, VehiclePosition: posB, VehicleRotation: unitQuat}
			}},
			ruleCase{id, "Rewind.Vehicle", ErrNonCanonical, func(m Message) { r := noRewind(m); *r = Rewind{Valid: true, Vehicle: 9} }},
			ruleCase{id, "Rewind.VehiclePosition", ErrNonCanonical, func(m Message) { r := noRewind(m); *r = Rewind{Valid: true, VehiclePosition: posB} }},
			ruleCase{id, "Rewind.VehicleRotation", ErrNonCanonical, func(m Message) { r := noRewind(m); *r = Rewind{Valid: true, VehicleRotation: unitQuat} }},
			ruleCase{id, "Rewind.VehicleRotation", ErrOutOfRange, func(m Message) {
				r := noRewind(m)
				*r = Rewind{Valid: true, InVehicle: true, Vehicle: 4, VehiclePosition: posB}
			}},
			ruleCase{id, "HitID", ErrNonCanonical, func(m Message) {
				v := reflect.ValueOf(m).Elem()
				v.FieldByName("HitType").SetUint(uint64(HitNone))
				v.FieldByName("HitID").SetUint(3)
			}},
		)
	}
	for _, id := range []ID{IDWeaponShot, IDVehicleShot} {
		cases = append(cases, ruleCase{id, "HitID", ErrNonCanonical, func(m Message) {
			v := reflect.ValueOf(m).Elem()
			v.FieldByName("HitType").SetUint(uint64(HitNone))
			v.FieldByName("HitID").SetUint(1)
		}})
	}
	for _, id := range []ID{IDPlayerSync, IDRemotePlayerSync, IDPlayerShow} {
		cases = append(cases, ruleCase{id, "Seat", ErrNonCanonical, func(m Message) {
			v := reflect.ValueOf(m).Elem()
			v.FieldByName("Vehicle").SetUint(uint64(NoVehicle))
			v.FieldByName("Seat").SetUint(1)
		}})
	}
	for _, id := range []ID{IDRemotePlayerSync, IDPlayerShow} {
		cases = append(cases, ruleCase{id, "Health", ErrInconsistent, func(m Message) {
			v := reflect.ValueOf(m).Elem()
			v.FieldByName("Alive").SetBool(true)
			v.FieldByName("Health").SetFloat(0)
		}})
	}
	cases = append(cases,
		ruleCase{IDPlayerShow, "Pose", ErrNonCanonical, func(m Message) { p := m.(*PlayerShow); p.Alive, p.Health, p.Pose = true, 50, 3 }},
		ruleCase{IDDamageReport, "Ref.Seq", ErrNonCanonical, func(m Message) { m.(*DamageReport).Ref = Ref{Kind: RefNone, Seq: 4} }},
		ruleCase{IDDamageReport, "Attacker", ErrInconsistent, func(m Message) { m.(*DamageReport).Attacker = NoPlayer }},
		ruleCase{IDPlayerWasted, "Killer", ErrInconsistent, func(m Message) { p := m.(*PlayerWasted); p.Killer = p.Player }},
		ruleCase{IDRemoteStealthKill, "Victim", ErrInconsistent, func(m Message) { p := m.(*RemoteStealthKill); p.Victim = p.Attacker }},
		ruleCase{IDRemoteVehicleSync, "Stamp.Teammate", ErrInconsistent, func(m Message) { m.(*RemoteVehicleSync).Driver = NoPlayer }},
		ruleCase{IDRemoteVehicleExplode, "Stamp.Teammate", ErrInconsistent, func(m Message) { m.(*RemoteVehicleExplode).Author = NoPlayer }},
		ruleCase{IDCreateExplosion, "Stamp.Teammate", ErrInconsistent, func(m Message) { m.(*CreateExplosion).Creator = NoPlayer }},
		ruleCase{IDCreateFire, "Stamp.Teammate", ErrInconsistent, func(m Message) { m.(*CreateFire).Creator = NoPlayer }},
		ruleCase{IDSetWeaponAmmo, "Clip", ErrInconsistent, func(m Message) { p := m.(*SetWeaponAmmo); p.Total, p.Clip = 30, 31 }},
	)
	return cases
}

// TestEveryRuleBetweenFieldsIsEnforcedBothWays breaks each documented rule: Append
// refuses the value, and Decode refuses its bytes, with the rule's sentinel, naming the
// rule's field. The test also checks that every rule in the layouts has a case.
func TestEveryRuleBetweenFieldsIsEnforcedBothWays(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range ruleCases() {
		ctx := c.id.String() + "." + c.field
		m := sampleOf(t, c.id)
		c.brk(m)
		if _, err := m.Append(nil); !errors.Is(err, c.want) || !strings.HasSuffix(err.Error(), ctx) {
			t.Errorf("%s: Append gave %v, want %v naming %s", ctx, err, c.want, ctx)
		}
		b := rawEncode(m)
		dst := New(c.id)
		err := dst.Decode(b)
		matchesOnly(t, err, c.want, ctx)
		if err != nil && !strings.HasSuffix(err.Error(), ctx) {
			t.Errorf("%s: Decode error %q does not name the field", ctx, err)
		}
		if a := testing.AllocsPerRun(5, func() { _ = dst.Decode(b) }); a != 0 {
			t.Errorf("%s: refusing costs %v allocations", ctx, a)
		}
		for _, r := range layoutOf(c.id).rules {
			if r.field == c.field && r.kind.sentinel() == c.want {
				covered[c.id.String()+"|"+r.text] = true
			}
		}
	}
	for _, id := range IDs() {
		for _, r := range layoutOf(id).rules {
			if !covered[id.String()+"|"+r.text] {
				t.Errorf("%v: no test breaks the rule %q", id, r.text)
			}
		}
	}
}

// TestAppendRefusesWhatDecodeRefuses sets each field to each class of invalid value a Go
// value can hold and checks that Append refuses it with the same sentinel, naming the
// field, returning dst untouched and allocating nothing.
func TestAppendRefusesWhatDecodeRefuses(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, sample := range samples() {
		id := sample.ID()
		for _, f := range layoutOf(id).fields {
			type bad struct {
				what string
				set  func(v reflect.Value)
				want error
			}
			var bads []bad
			switch f.prim {
			case primF32:
				lo, hi := f.span.bounds()
				bads = []bad{
					{"NaN", func(v reflect.Value) { v.SetFloat(nan) }, ErrNotFinite},
					{"+Inf", func(v reflect.Value) { v.SetFloat(inf) }, ErrNotFinite},
					{"-Inf", func(v reflect.Value) { v.SetFloat(-inf) }, ErrNotFinite},
					{"above", func(v reflect.Value) { v.SetFloat(float64(math.Nextafter32(hi, 1e38))) }, ErrOutOfRange},
					{"below", func(v reflect.Value) { v.SetFloat(float64(math.Nextafter32(lo, -1e38))) }, ErrOutOfRange},
				}
			case primVec3:
				bads = []bad{
					{"NaN", func(v reflect.Value) { v.Field(2).SetFloat(nan) }, ErrNotFinite},
					{"-Inf", func(v reflect.Value) { v.Field(0).SetFloat(-inf) }, ErrNotFinite},
					{"beyond", func(v reflect.Value) { v.Field(1).SetFloat(1e6) }, ErrOutOfRange},
				}
			case primQuat:
				bads = []bad{
					{"NaN", func(v reflect.Value) { v.Field(1).SetFloat(nan) }, ErrNotFinite},
					{"not unit", func(v reflect.Value) { v.Set(reflect.ValueOf(Quat{W: 2})) }, ErrOutOfRange},
				}
			case primVelocity:
				bads = []bad{
					{"NaN", func(v reflect.Value) { v.Field(0).SetFloat(nan) }, ErrNotFinite},
					{"256 m/s", func(v reflect.Value) { v.Field(0).SetFloat(256) }, ErrOutOfRange},
					{"-256 m/s", func(v reflect.Value) { v.Field(2).SetFloat(-256) }, ErrOutOfRange},
				}
			case primAngle:
				bads = []bad{{"NaN", func(v reflect.Value) { v.SetFloat(nan) }, ErrNotFinite},
					{"Inf", func(v reflect.Value) { v.SetFloat(-inf) }, ErrNotFinite}}
			case primEnum:
				bads = []bad{{"past the set", func(v reflect.Value) { v.SetUint(uint64(f.max) + 1) }, ErrInvalidEnum}}
			case primBitsUint, primU16Max:
				bads = []bad{{"above max", func(v reflect.Value) { v.SetUint(uint64(f.max) + 1) }, ErrOutOfRange}}
			case primID:
				if !f.none {
					bads = []bad{{"0xFFFF", func(v reflect.Value) { v.SetUint(0xFFFF) }, ErrOutOfRange}}
				}
			}
			for _, c := range bads {
				ctx := id.String() + "." + f.name + ": " + c.what
				m := New(id)
				reflect.ValueOf(m).Elem().Set(reflect.ValueOf(sample).Elem())
				fv, _ := goField(reflect.ValueOf(m).Elem(), f.name)
				c.set(fv)
				dst := append(make([]byte, 0, 128), "keep"...)
				got, err := m.Append(dst)
				matchesOnly(t, err, c.want, ctx)
				if err != nil && !strings.HasSuffix(err.Error(), id.String()+"."+f.name) {
					t.Errorf("%s: error %q does not name the field", ctx, err)
				}
				if string(got) != "keep" {
					t.Errorf("%s: refused Append returned %q, want dst unchanged", ctx, got)
				}
				if a := testing.AllocsPerRun(5, func() { _, _ = m.Append(dst) }); a != 0 {
					t.Errorf("%s: refusing costs %v allocations", ctx, a)
				}
			}
		}
	}
}

func TestPeekReadsTheHeaderOnly(t *testing.T) {
	frame := mustAppend(t, sampleOf(t, IDPlayerSync))
	for _, c := range []struct {
		name string
		b    []byte
		id   ID
		want error
	}{
		{"empty", nil, 0, ErrTruncated},
		{"one byte", []byte{Version}, 0, ErrTruncated},
		{"header of a frame", frame[:2], IDPlayerSync, nil},
		{"a whole frame", frame, IDPlayerSync, nil},
		{"frame with garbage after", append(bytes.Clone(frame), 1, 2, 3), IDPlayerSync, nil},
		{"unknown version", []byte{Version + 1, byte(IDPlayerSync)}, 0, ErrVersion},
		{"id 0", []byte{Version, 0}, 0, ErrUnknownID},
		{"unused id", []byte{Version, 0x3F}, 0x3F, ErrUnknownID},
		{"transport id", []byte{Version, byte(FirstTransportID)}, FirstTransportID, nil},
		{"last transport id", []byte{Version, 0xFF}, 0xFF, nil},
	} {
		id, err := Peek(c.b)
		if !errors.Is(err, c.want) || (c.want == nil && err != nil) || id != c.id {
			t.Errorf("%s: Peek = %v, %v; want %v, %v", c.name, id, err, c.id, c.want)
		}
		if a := testing.AllocsPerRun(5, func() { _, _ = Peek(c.b) }); a != 0 {
			t.Errorf("%s: Peek allocates", c.name)
		}
	}
}

func TestTransportIDsAreRoutedNotDecoded(t *testing.T) {
	for id := FirstTransportID; ; id++ {
		if id.Known() || !id.Transport() {
			t.Errorf("0x%02x: Known %v Transport %v", uint8(id), id.Known(), id.Transport())
		}
		var dec Decoder
		if _, err := dec.Decode([]byte{Version, byte(id), 0, 0}); !errors.Is(err, ErrUnknownID) {
			t.Errorf("0x%02x: Decoder.Decode = %v, want ErrUnknownID", uint8(id), err)
		}
		if id == 0xFF {
			break
		}
	}
	for _, id := range IDs() {
		if id.Transport() || id == 0 {
			t.Errorf("%v uses a reserved id", id)
		}
	}
}

func TestErrorTextNamesMessageAndField(t *testing.T) {
	m := sampleOf(t, IDPlayerSync).(*PlayerSync)
	m.Health = float32(math.NaN())
	_, err := m.Append(nil)
	if got, want := fmt.Sprint(err), "wire: value not finite: PlayerSync.Health"; got != want {
		t.Errorf("error text %q, want %q", got, want)
	}
	err = new(PlayerSync).Decode([]byte{Version, byte(IDPlayerSync), 0})
	if got, want := fmt.Sprint(err), "wire: truncated message: PlayerSync is 48 bytes"; got != want {
		t.Errorf("error text %q, want %q", got, want)
	}
}
