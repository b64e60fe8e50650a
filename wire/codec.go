package wire

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"
)

// The codec walks a message's fields in wire order. Each message type has one walk
// method (the layout, written once); the same walk encodes, decodes, describes the
// layout for the documentation and the error texts, and formats String. A field's
// valid range is a parameter of its walk call, so the range the codec enforces and the
// range the documentation states cannot drift apart. The hot messages also have
// unrolled Append and Decode methods, generated from their walks and held to them by the
// tests (fast.go).

type mode uint8

const (
	modeEncode   mode = iota // append the value's fields to buf, validating each
	modeDecode               // read the fields from buf, validating each
	modeDescribe             // record the layout (init and tests only)
	modeFormat               // print the fields (String)
)

var le = binary.LittleEndian

// codec is the cursor of one walk. It lives on the caller's stack and no primitive
// keeps a pointer to a message field, so encoding and decoding through a walk do not
// allocate (TestAppendNeverAllocatesIntoABigEnoughBuffer, TestDecodeNeverAllocates).
type codec struct {
	mode      mode
	id        ID
	buf       []byte // encode: the output; decode: the input
	off       int    // decode: the read position; describe: the next field's offset
	field     uint8  // index of the next field in the layout
	fail      kind   // first failure; kindNone while everything is valid
	failField uint8  // the failing field's index, or noField
	group     byte   // open bit group: its byte
	groupUsed uint8  // bits of the open group assigned so far
	groupAt   uint8  // field index of the open group's byte
	lay       *layout
	out       []byte // format: the text so far
}

func (c *codec) failAt(k kind) {
	if c.fail == kindNone {
		c.fail, c.failField = k, c.field
	}
}

// take returns the next n input bytes, or nil (and a failure) past the end. Decode
// checks the length before the walk, so this guard only keeps a layout bug from
// becoming a panic.
func (c *codec) take(n int) []byte {
	if c.off+n > len(c.buf) {
		if c.fail == kindNone {
			c.fail, c.failField = kindTruncated, noField
		}
		c.off = len(c.buf)
		return nil
	}
	b := c.buf[c.off : c.off+n]
	c.off += n
	return b
}

// u8 is a raw byte: any value is valid (weapon and cause ids, poses, body parts).
func (c *codec) u8(p *uint8, name string) {
	switch c.mode {
	case modeEncode:
		c.buf = append(c.buf, *p)
	case modeDecode:
		if b := c.take(1); b != nil {
			*p = b[0]
		}
	case modeDescribe:
		c.describe(field{name: name, width: 1, typ: "u8", rng: "0..255", prim: primU8})
	case modeFormat:
		c.print(name, strconv.Itoa(int(*p)))
	}
	c.field++
}

// u16 is a raw little-endian uint16: any value is valid (revisions, sequence numbers,
// counts).
func (c *codec) u16(p *uint16, name string) {
	switch c.mode {
	case modeEncode:
		c.buf = le.AppendUint16(c.buf, *p)
	case modeDecode:
		if b := c.take(2); b != nil {
			*p = le.Uint16(b)
		}
	case modeDescribe:
		c.describe(field{name: name, width: 2, typ: "u16", rng: "0..65535", prim: primU16})
	case modeFormat:
		c.print(name, strconv.Itoa(int(*p)))
	}
	c.field++
}

// u16max is a little-endian uint16 valid in 0..max; a larger value is ErrOutOfRange
// (a CreateFire's Age).
func (c *codec) u16max(p *uint16, name string, max uint16) {
	switch c.mode {
	case modeEncode:
		if *p > max {
			c.failAt(kindOutOfRange)
		}
		c.buf = le.AppendUint16(c.buf, *p)
	case modeDecode:
		if b := c.take(2); b != nil {
			*p = le.Uint16(b)
			if *p > max {
				c.failAt(kindOutOfRange)
			}
		}
	case modeDescribe:
		c.describe(field{name: name, width: 2, typ: "u16", rng: "0.." + strconv.Itoa(int(max)), prim: primU16Max, max: max})
	case modeFormat:
		c.print(name, strconv.Itoa(int(*p)))
	}
	c.field++
}

// u32 is a raw little-endian uint32.
func (c *codec) u32(p *uint32, name string) {
	switch c.mode {
	case modeEncode:
		c.buf = le.AppendUint32(c.buf, *p)
	case modeDecode:
		if b := c.take(4); b != nil {
			*p = le.Uint32(b)
		}
	case modeDescribe:
		c.describe(field{name: name, width: 4, typ: "u32", rng: "0..4294967295", prim: primU32})
	case modeFormat:
		c.print(name, strconv.FormatUint(uint64(*p), 10))
	}
	c.field++
}

// player is a player id: id16 on its underlying uint16.
func (c *codec) player(p *PlayerID, name string, none bool) {
	c.id16((*uint16)(p), name, none)
}

// id16 is a player or vehicle id. With none, 0xFFFF (NoPlayer, NoVehicle) is valid and
// means "none"; without, the field names a subject that must exist and 0xFFFF is
// ErrOutOfRange.
func (c *codec) id16(p *uint16, name string, none bool) {
	switch c.mode {
	case modeEncode:
		if *p == 0xFFFF && !none {
			c.failAt(kindOutOfRange)
		}
		c.buf = le.AppendUint16(c.buf, *p)
	case modeDecode:
		if b := c.take(2); b != nil {
			*p = le.Uint16(b)
			if *p == 0xFFFF && !none {
				c.failAt(kindOutOfRange)
			}
		}
	case modeDescribe:
		rng := "0..65534"
		if none {
			rng = "0..65534, 0xFFFF none"
		}
		c.describe(field{name: name, width: 2, typ: "u16 id", rng: rng, prim: primID, none: none})
	case modeFormat:
		if *p == 0xFFFF {
			c.print(name, "none")
		} else {
			c.print(name, strconv.Itoa(int(*p)))
		}
	}
	c.field++
}

// enum8 is a one-byte enum the wire defines: values 0..count-1, anything else is
// ErrInvalidEnum.
func (c *codec) enum8(p *uint8, name string, count uint8, typ string, nameOf func(uint8) string) {
	switch c.mode {
	case modeEncode:
		if *p >= count {
			c.failAt(kindInvalidEnum)
		}
		c.buf = append(c.buf, *p)
	case modeDecode:
		if b := c.take(1); b != nil {
			*p = b[0]
			if *p >= count {
				c.failAt(kindInvalidEnum)
			}
		}
	case modeDescribe:
		rng := "0.." + strconv.Itoa(int(count)-1) + ", " + typ
		c.describe(field{name: name, width: 1, typ: "u8 enum", rng: rng, prim: primEnum, max: uint16(count - 1)})
	case modeFormat:
		c.print(name, nameOf(*p))
	}
	c.field++
}

// boolean is a bool byte: 0 or 1, anything else is ErrInvalidEnum.
func (c *codec) boolean(p *bool, name string) {
	switch c.mode {
	case modeEncode:
		var b byte
		if *p {
			b = 1
		}
		c.buf = append(c.buf, b)
	case modeDecode:
		if b := c.take(1); b != nil {
			if b[0] > 1 {
				c.failAt(kindInvalidEnum)
			}
			*p = b[0] == 1
		}
	case modeDescribe:
		c.describe(field{name: name, width: 1, typ: "u8 bool", rng: "0 or 1", prim: primBool})
	case modeFormat:
		c.print(name, strconv.FormatBool(*p))
	}
	c.field++
}

// bitsBegin opens a group of bit fields packed into one byte, low bit first. The
// fields of the group (bit, bitsUint) follow at once, and bitsEnd closes it; bits the
// group does not assign are reserved and must be 0 (ErrNonCanonical).
func (c *codec) bitsBegin(name string) {
	c.groupAt, c.groupUsed, c.group = c.field, 0, 0
	switch c.mode {
	case modeDecode:
		if b := c.take(1); b != nil {
			c.group = b[0]
		}
	case modeDescribe:
		c.describe(field{name: name, width: 1, typ: "u8 bits", prim: primBits, group: true})
	}
	c.field++
}

// bit is a one-bit bool of the open group.
func (c *codec) bit(p *bool, name string) {
	at := c.groupUsed
	c.groupUsed++
	switch c.mode {
	case modeEncode:
		if *p {
			c.group |= 1 << at
		}
	case modeDecode:
		*p = c.group>>at&1 == 1
	case modeDescribe:
		c.describeBits(field{name: name, bit: int(at), bits: 1, typ: "bit", rng: "0 or 1", prim: primBit})
	case modeFormat:
		c.print(name, strconv.FormatBool(*p))
	}
	c.field++
}

// bitsUint is a small unsigned number of width bits of the open group, valid in 0..max.
func (c *codec) bitsUint(p *uint8, name string, width, max uint8) {
	at := c.groupUsed
	c.groupUsed += width
	mask := byte(1)<<width - 1
	switch c.mode {
	case modeEncode:
		if *p > max {
			c.failAt(kindOutOfRange)
		}
		c.group |= *p & mask << at
	case modeDecode:
		*p = c.group >> at & mask
		if *p > max {
			c.failAt(kindOutOfRange)
		}
	case modeDescribe:
		c.describeBits(field{name: name, bit: int(at), bits: int(width), typ: "bits",
			rng: "0.." + strconv.Itoa(int(max)), prim: primBitsUint, max: uint16(max)})
	case modeFormat:
		c.print(name, strconv.Itoa(int(*p)))
	}
	c.field++
}

// bitsEnd closes the open group: encode writes its byte, decode checks that the
// reserved bits are 0.
func (c *codec) bitsEnd() {
	switch c.mode {
	case modeEncode:
		c.buf = append(c.buf, c.group)
	case modeDecode:
		if c.group>>c.groupUsed != 0 && c.fail == kindNone {
			c.fail, c.failField = kindNonCanonical, c.groupAt
		}
	case modeDescribe:
		g := &c.lay.fields[c.groupAt]
		g.reserved = int(c.groupUsed)
		g.rng = "bits " + strconv.Itoa(int(c.groupUsed)) + "..7 are 0"
	}
}

// f32 is a float32 that must be finite and within s. Encoding writes -0 as +0;
// decoding refuses the bits of -0 (ErrNonCanonical), so every valid value has one
// encoding.
func (c *codec) f32(p *float32, name string, s span) {
	switch c.mode {
	case modeEncode:
		c.putF32(*p, s)
	case modeDecode:
		if b := c.take(4); b != nil {
			*p = c.getF32(b, s)
		}
	case modeDescribe:
		c.describe(field{name: name, width: 4, typ: "f32", rng: "finite, " + s.String(), prim: primF32, span: s})
	case modeFormat:
		c.print(name, formatFloat(*p))
	}
	c.field++
}

// vec3 is three float32 (X, Y, Z), each finite and within s.
func (c *codec) vec3(p *Vec3, name string, s span) {
	switch c.mode {
	case modeEncode:
		c.putF32(p.X, s)
		c.putF32(p.Y, s)
		c.putF32(p.Z, s)
	case modeDecode:
		if b := c.take(12); b != nil {
			p.X = c.getF32(b[0:4], s)
			p.Y = c.getF32(b[4:8], s)
			p.Z = c.getF32(b[8:12], s)
		}
	case modeDescribe:
		c.describe(field{name: name, width: 12, typ: "3×f32", rng: "finite, |axis| " + s.bound(), prim: primVec3, span: s})
	case modeFormat:
		c.print(name, formatVec3(*p))
	}
	c.field++
}

// position is a vec3 within ±MaxCoord.
func (c *codec) position(p *Vec3, name string) { c.vec3(p, name, spanCoord) }

// Unit quaternions on the wire may be off by float rounding; this band of |q|² (|q| in
// 0.9..1.1) accepts any honest rotation and refuses a zero or garbage one.
const (
	quatNorm2Min = 0.81
	quatNorm2Max = 1.21
)

// quat is four float32 (W, X, Y, Z), finite, forming a unit quaternion (|q| within
// 0.9..1.1). With optional, all four zero is also valid (an absent rotation).
func (c *codec) quat(p *Quat, name string, optional bool) {
	switch c.mode {
	case modeEncode:
		c.putF32(p.W, spanAny)
		c.putF32(p.X, spanAny)
		c.putF32(p.Y, spanAny)
		c.putF32(p.Z, spanAny)
		c.checkQuat(*p, optional)
	case modeDecode:
		if b := c.take(16); b != nil {
			p.W = c.getF32(b[0:4], spanAny)
			p.X = c.getF32(b[4:8], spanAny)
			p.Y = c.getF32(b[8:12], spanAny)
			p.Z = c.getF32(b[12:16], spanAny)
			c.checkQuat(*p, optional)
		}
	case modeDescribe:
		rng := "finite, unit (|q| 0.9..1.1)"
		if optional {
			rng += " or all 0"
		}
		c.describe(field{name: name, width: 16, typ: "4×f32", rng: rng, prim: primQuat, optional: optional})
	case modeFormat:
		c.print(name, "("+formatFloat(p.W)+","+formatFloat(p.X)+","+formatFloat(p.Y)+","+formatFloat(p.Z)+")")
	}
	c.field++
}

func (c *codec) checkQuat(q Quat, optional bool) {
	if c.fail != kindNone {
		return
	}
	if optional && q == (Quat{}) {
		return
	}
	n := float64(q.W)*float64(q.W) + float64(q.X)*float64(q.X) + float64(q.Y)*float64(q.Y) + float64(q.Z)*float64(q.Z)
	if !(n >= quatNorm2Min && n <= quatNorm2Max) {
		c.failAt(kindOutOfRange)
	}
}

// maxVelocityStep is the largest |int16| a velocity axis may hold; -32768 is refused so
// the range is symmetric and every valid value re-encodes to itself.
const maxVelocityStep = 32767

// velocity is a Vec3 in fixed point: each axis an int16 counting 1/VelocityScale m/s.
// Encoding rounds to the nearest step (half away from zero) and refuses NaN, ±Inf
// (ErrNotFinite) and values that round beyond ±32767 steps (ErrOutOfRange); it never
// clamps. Decoding refuses -32768.
func (c *codec) velocity(p *Vec3, name string) {
	switch c.mode {
	case modeEncode:
		c.putVel(p.X)
		c.putVel(p.Y)
		c.putVel(p.Z)
	case modeDecode:
		if b := c.take(6); b != nil {
			p.X = c.getVel(b[0:2])
			p.Y = c.getVel(b[2:4])
			p.Z = c.getVel(b[4:6])
		}
	case modeDescribe:
		c.describe(field{name: name, width: 6, typ: "3×i16", rng: "each axis ±255.99 m/s, step 1/128; not -32768", prim: primVelocity})
	case modeFormat:
		c.print(name, formatVec3(*p))
	}
	c.field++
}

func (c *codec) putVel(v float32) {
	k, ok := velocityStep(v)
	if !ok {
		if finite(v) {
			c.failAt(kindOutOfRange)
		} else {
			c.failAt(kindNotFinite)
		}
	}
	c.buf = le.AppendUint16(c.buf, uint16(k))
}

// velocityStep rounds a velocity axis to its step, half away from zero, and reports
// whether the step lies within ±maxVelocityStep (false for NaN and ±Inf too). v × 128 is
// exact in float64 and so is adding 0.5 at these magnitudes, so truncating gives the
// same result as math.Round, at the cost of one conversion.
func velocityStep(v float32) (int16, bool) {
	x := float64(v) * VelocityScale
	if !(x > -maxVelocityStep-0.5 && x < maxVelocityStep+0.5) {
		return 0, false
	}
	if x < 0 {
		return int16(x - 0.5), true
	}
	return int16(x + 0.5), true
}

func (c *codec) getVel(b []byte) float32 {
	k := int16(le.Uint16(b))
	if k < -maxVelocityStep {
		c.failAt(kindOutOfRange)
	}
	return float32(k) / VelocityScale
}

// angle is a heading in radians, as a uint16 turn fraction (step 2π/65536, about
// 0.0055°). Encoding takes any finite value and wraps it into 0..2π; decoding gives a
// value in [0, 2π).
func (c *codec) angle(p *float32, name string) {
	switch c.mode {
	case modeEncode:
		var k uint16
		if finite(*p) {
			k = angleToWire(*p)
		} else {
			c.failAt(kindNotFinite)
		}
		c.buf = le.AppendUint16(c.buf, k)
	case modeDecode:
		if b := c.take(2); b != nil {
			*p = angleFromWire(le.Uint16(b))
		}
	case modeDescribe:
		c.describe(field{name: name, width: 2, typ: "u16 angle", rng: "any finite radians (wraps), step 2π/65536", prim: primAngle})
	case modeFormat:
		c.print(name, formatFloat(*p))
	}
	c.field++
}

const turn = 2 * math.Pi

func angleToWire(v float32) uint16 {
	a := float64(v)
	if a < 0 || a >= turn {
		a = math.Mod(a, turn)
		if a < 0 {
			a += turn
		}
	}
	return uint16(int64(math.Round(a*(65536/turn))) & 0xFFFF)
}

func angleFromWire(k uint16) float32 { return float32(float64(k) * (turn / 65536)) }

// stamp is a teammate stamp: a bool byte and the relation revision. Messages with a
// flags byte pack Teammate into it instead.
func (c *codec) stamp(p *Stamp) {
	c.boolean(&p.Teammate, "Stamp.Teammate")
	c.u16(&p.Rev, "Stamp.Rev")
}

// rule states a rule between fields, checked after every field was read (or before
// the value is written): when ok is false the message fails with k, named after the
// field. The text goes into the documentation.
func (c *codec) rule(ok bool, name string, k kind, text string) {
	switch c.mode {
	case modeEncode, modeDecode:
		if !ok && c.fail == kindNone {
			c.fail, c.failField = k, c.lay.fieldIndex(name)
		}
	case modeDescribe:
		if c.lay.fieldIndex(name) == noField {
			panic("wire: rule names unknown field " + c.lay.name + "." + name)
		}
		c.lay.rules = append(c.lay.rules, rule{field: name, kind: k, text: text})
	}
}

func (c *codec) putF32(v float32, s span) {
	if k := s.check(v); k != kindNone {
		c.failAt(k)
	}
	if v == 0 {
		v = 0 // +0 for -0: one encoding per value
	}
	c.buf = le.AppendUint32(c.buf, math.Float32bits(v))
}

const negZero = 0x80000000

func (c *codec) getF32(b []byte, s span) float32 {
	bits := le.Uint32(b)
	if bits == negZero {
		c.failAt(kindNonCanonical)
	}
	v := math.Float32frombits(bits)
	if k := s.check(v); k != kindNone {
		c.failAt(k)
	}
	return v
}

func finite(v float32) bool { return v == v && v <= math.MaxFloat32 && v >= -math.MaxFloat32 }

// span is the valid range of a float field: finite and within lo..hi. A range that
// excludes 0 ("above 0") starts at abovZero, the smallest positive float32: no float lies
// between 0 and it, so the closed range says exactly "0 < v".
type span uint8

const (
	spanAny           span = iota // any finite value
	spanVital                     // 0..MaxVital
	spanGive                      // 0 < v <= MaxVital
	spanLoss                      // 0..MaxLoss
	spanCoord                     // -MaxCoord..MaxCoord
	spanProjectile                // -MaxProjectileSpeed..MaxProjectileSpeed
	spanVehicleHealth             // 0..MaxVehicleHealth
	spanMultiplier                // 0..MaxMultiplier
	spanDamage                    // 0..MaxWeaponDamage
	spanRange                     // 0 < v <= MaxWeaponRange
	spanRadius                    // 0 < v <= MaxEffectRadius
)

const aboveZero = math.SmallestNonzeroFloat32

// bounds returns the span's limits, both included.
func (s span) bounds() (lo, hi float32) {
	switch s {
	case spanVital:
		return 0, MaxVital
	case spanGive:
		return aboveZero, MaxVital
	case spanLoss:
		return 0, MaxLoss
	case spanCoord:
		return -MaxCoord, MaxCoord
	case spanProjectile:
		return -MaxProjectileSpeed, MaxProjectileSpeed
	case spanVehicleHealth:
		return 0, MaxVehicleHealth
	case spanMultiplier:
		return 0, MaxMultiplier
	case spanDamage:
		return 0, MaxWeaponDamage
	case spanRange:
		return aboveZero, MaxWeaponRange
	case spanRadius:
		return aboveZero, MaxEffectRadius
	}
	return -math.MaxFloat32, math.MaxFloat32
}

// check classifies v: kindNone inside the span, kindNotFinite for NaN and ±Inf,
// kindOutOfRange otherwise.
func (s span) check(v float32) kind {
	lo, hi := s.bounds()
	if v >= lo && v <= hi { // false for NaN
		return kindNone
	}
	if !finite(v) {
		return kindNotFinite
	}
	return kindOutOfRange
}

// bound describes a symmetric span by its limit, as in "<= 100000".
func (s span) bound() string {
	_, hi := s.bounds()
	return "<= " + formatFloat(hi)
}

func (s span) String() string {
	if s == spanAny {
		return "any"
	}
	lo, hi := s.bounds()
	if lo == aboveZero {
		return "0 < v <= " + formatFloat(hi)
	}
	return formatFloat(lo) + ".." + formatFloat(hi)
}

// Appending and decoding whole messages.

func startEncode(dst []byte, id ID) codec {
	l := layouts[id]
	buf := dst
	if cap(buf)-len(buf) < l.size {
		buf = slices.Grow(buf, l.size)
	}
	return codec{mode: modeEncode, id: id, buf: append(buf, Version, byte(id)), lay: l}
}

// endEncode returns the appended message, or dst unchanged and the first failure.
func (c *codec) endEncode(dst []byte) ([]byte, error) {
	if c.fail != kindNone {
		return dst, c.lay.err(c.failField, c.fail)
	}
	return c.buf, nil
}

// startDecode checks the header and the length of b for message want.
func startDecode(b []byte, want ID) (codec, error) {
	l := layouts[want]
	if len(b) < HeaderSize {
		return codec{}, l.err(noField, kindTruncated)
	}
	if b[0] != Version {
		return codec{}, l.err(noField, kindVersion)
	}
	if got := ID(b[1]); got != want {
		if got.Known() {
			return codec{}, l.err(noField, kindWrongMessage)
		}
		return codec{}, l.err(noField, kindUnknownID)
	}
	switch {
	case len(b) < l.size:
		return codec{}, l.err(noField, kindTruncated)
	case len(b) > l.size:
		return codec{}, l.err(noField, kindTrailing)
	}
	return codec{mode: modeDecode, id: want, buf: b, off: HeaderSize, lay: l}, nil
}

func (c *codec) endDecode() error {
	if c.fail != kindNone {
		return c.lay.err(c.failField, c.fail)
	}
	return nil
}

// Formatting (String).

func format(m Message) string {
	id := m.ID()
	c := codec{mode: modeFormat, id: id, lay: layouts[id]}
	c.out = append(c.out, id.String()...)
	c.out = append(c.out, '{')
	m.walk(&c)
	c.out = append(c.out, '}')
	return string(c.out)
}

func (c *codec) print(name, value string) {
	if c.out[len(c.out)-1] != '{' {
		c.out = append(c.out, ' ')
	}
	c.out = appendSnake(c.out, name)
	c.out = append(c.out, '=')
	c.out = append(c.out, value...)
}

func formatFloat(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }

func formatVec3(v Vec3) string {
	return "(" + formatFloat(v.X) + "," + formatFloat(v.Y) + "," + formatFloat(v.Z) + ")"
}

// appendSnake appends a Go field path in the records' spelling: VitalRev -> vital_rev,
// Stamp.Rev -> stamp.rev, HitID -> hit_id.
func appendSnake(dst []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		ch := name[i]
		if ch >= 'A' && ch <= 'Z' {
			if i > 0 && name[i-1] != '.' {
				prevLower := name[i-1] >= 'a' && name[i-1] <= 'z'
				nextLower := i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z'
				if prevLower || nextLower {
					dst = append(dst, '_')
				}
			}
			ch += 'a' - 'A'
		}
		dst = append(dst, ch)
	}
	return dst
}
