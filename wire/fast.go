package wire

import (
	"math"
	"slices"
)

// Fast paths. The walk (codec.go) is the one definition of every layout: it drives the
// documentation, the error tables and String, and it encodes and decodes every message.
// It pays a call and a mode switch per field, though, which the messages a server
// handles per frame per recipient should not pay. The hot messages (hot.go: the frames
// and their relays, the damage report, the shots and their relays) therefore have
// hand-unrolled Append and Decode methods built from the helpers below.
//
// They are held to the walk, not trusted: TestFastPathsMatchTheWalk and FuzzDecode run
// both on the same values and bytes and require the same bytes, the same values and the
// same error (sentinel, message and field) every time, and every table test of the
// package runs against them. The fast Append also validates everything before it
// writes a byte, so a refused message leaves even the spare capacity of dst untouched.

// fault is the first failure a fast path found, by field name. The name is turned into
// the preallocated error of the walk's layout only when something failed.
type fault struct {
	kind kind
	name string
}

func (f *fault) set(k kind, name string) {
	if f.kind == kindNone {
		f.kind, f.name = k, name
	}
}

func (f *fault) err(id ID) error {
	l := layouts[id]
	return l.err(l.fieldIndex(f.name), f.kind)
}

// Checks of Go values before encoding.

func (f *fault) span(v float32, s span, name string) {
	if lo, hi := s.bounds(); !(v >= lo && v <= hi) { // NaN fails too
		f.set(s.check(v), name)
	}
}

func (f *fault) vec3(v Vec3, s span, name string) {
	lo, hi := s.bounds()
	if !(v.X >= lo && v.X <= hi && v.Y >= lo && v.Y <= hi && v.Z >= lo && v.Z <= hi) {
		f.span(v.X, s, name)
		f.span(v.Y, s, name)
		f.span(v.Z, s, name)
	}
}

func (f *fault) quat(q Quat, optional bool, name string) {
	if !finite(q.W) || !finite(q.X) || !finite(q.Y) || !finite(q.Z) {
		f.set(kindNotFinite, name)
		return
	}
	if optional && q == (Quat{}) {
		return
	}
	n := float64(q.W)*float64(q.W) + float64(q.X)*float64(q.X) + float64(q.Y)*float64(q.Y) + float64(q.Z)*float64(q.Z)
	if !(n >= quatNorm2Min && n <= quatNorm2Max) {
		f.set(kindOutOfRange, name)
	}
}

func (f *fault) velocity(v Vec3, name string) {
	f.velAxis(v.X, name)
	f.velAxis(v.Y, name)
	f.velAxis(v.Z, name)
}

func (f *fault) velAxis(v float32, name string) {
	if _, ok := velocityStep(v); !ok {
		if finite(v) {
			f.set(kindOutOfRange, name)
		} else {
			f.set(kindNotFinite, name)
		}
	}
}

func (f *fault) angle(v float32, name string) {
	if !finite(v) {
		f.set(kindNotFinite, name)
	}
}

func (f *fault) subject(id uint16, name string) {
	if id == 0xFFFF {
		f.set(kindOutOfRange, name)
	}
}

func (f *fault) enum(v, count uint8, name string) {
	if v >= count {
		f.set(kindInvalidEnum, name)
	}
}

func (f *fault) atMost(v, max uint8, name string) {
	if v > max {
		f.set(kindOutOfRange, name)
	}
}

func (f *fault) rule(ok bool, k kind, name string) {
	if !ok {
		f.set(k, name)
	}
}

// Checks without names, for the fast paths' first pass (every check at once): each is
// exactly the check of the same field above (or, for bits, of its reader below).

func vital(v float32) bool { return v >= 0 && v <= MaxVital }

func coord3(v Vec3) bool {
	return v.X >= -MaxCoord && v.X <= MaxCoord && v.Y >= -MaxCoord && v.Y <= MaxCoord && v.Z >= -MaxCoord && v.Z <= MaxCoord
}

// vitalBits reports whether the float32 with these bits reads as a valid vital (f32 with
// spanVital): in 0..MaxVital and not -0.
func vitalBits(bits uint32) bool {
	v := math.Float32frombits(bits)
	return v >= 0 && v <= MaxVital && bits != negZero
}

// coordBits reports whether the float32 with these bits reads as a valid coordinate (f32
// with spanCoord): in -MaxCoord..MaxCoord and not -0.
func coordBits(bits uint32) bool {
	v := math.Float32frombits(bits)
	return v >= -MaxCoord && v <= MaxCoord && bits != negZero
}

// wireTurn is angleToWire for 0 <= a < 2π (the common case, an angle already in range):
// the same rounding (half away from zero) without calling math.Round, which is not
// inlined. For 0 <= x < 65536, x minus its truncation is exact, so the result is the same
// for every such a.
func wireTurn(a float64) uint16 {
	x := a * (65536 / turn)
	k := int64(x)
	if x-float64(k) >= 0.5 {
		k++
	}
	return uint16(k)
}

// Writing validated values. b is exactly the bytes of the field.

// extend returns dst grown by n bytes, and those n bytes.
func extend(dst []byte, n int) (out, b []byte) {
	l := len(dst)
	if cap(dst)-l < n {
		// Grow as append does (slices.Grow), so a caller appending many messages into one
		// buffer pays amortised linear time, not a copy per message.
		dst = slices.Grow(dst, n)
	}
	out = dst[:l+n]
	return out, out[l:]
}

func putF32(b []byte, v float32) {
	if v == 0 {
		v = 0 // +0 for -0
	}
	le.PutUint32(b, math.Float32bits(v))
}

func putVec3(b []byte, v Vec3) {
	_ = b[11]
	putF32(b[0:4], v.X)
	putF32(b[4:8], v.Y)
	putF32(b[8:12], v.Z)
}

func putQuat(b []byte, q Quat) {
	_ = b[15]
	putF32(b[0:4], q.W)
	putF32(b[4:8], q.X)
	putF32(b[8:12], q.Y)
	putF32(b[12:16], q.Z)
}

func putVelocity(b []byte, v Vec3) {
	_ = b[5]
	x, _ := velocityStep(v.X)
	y, _ := velocityStep(v.Y)
	z, _ := velocityStep(v.Z)
	le.PutUint16(b[0:2], uint16(x))
	le.PutUint16(b[2:4], uint16(y))
	le.PutUint16(b[4:6], uint16(z))
}

func putBool(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func bit(v bool, at uint) byte {
	if v {
		return 1 << at
	}
	return 0
}

// Reading and checking bytes. Each reader returns the value and records the first
// failure in f; b is exactly the bytes of the field.

func (f *fault) f32(b []byte, s span, name string) float32 {
	bits := le.Uint32(b)
	v := math.Float32frombits(bits)
	if lo, hi := s.bounds(); !(v >= lo && v <= hi) || bits == negZero {
		f.badF32(bits, s, name)
	}
	return v
}

// badF32 classifies a float that failed the quick check.
func (f *fault) badF32(bits uint32, s span, name string) {
	if bits == negZero {
		f.set(kindNonCanonical, name)
	} else {
		f.set(s.check(math.Float32frombits(bits)), name)
	}
}

func (f *fault) getVec3(b []byte, s span, name string) Vec3 {
	_ = b[11]
	bx, by, bz := le.Uint32(b[0:4]), le.Uint32(b[4:8]), le.Uint32(b[8:12])
	v := Vec3{math.Float32frombits(bx), math.Float32frombits(by), math.Float32frombits(bz)}
	lo, hi := s.bounds()
	if !(v.X >= lo && v.X <= hi && v.Y >= lo && v.Y <= hi && v.Z >= lo && v.Z <= hi) ||
		bx == negZero || by == negZero || bz == negZero {
		f.f32(b[0:4], s, name)
		f.f32(b[4:8], s, name)
		f.f32(b[8:12], s, name)
	}
	return v
}

func (f *fault) getQuat(b []byte, optional bool, name string) Quat {
	_ = b[15]
	q := Quat{f.f32(b[0:4], spanAny, name), f.f32(b[4:8], spanAny, name), f.f32(b[8:12], spanAny, name), f.f32(b[12:16], spanAny, name)}
	if f.kind == kindNone {
		f.quat(q, optional, name)
	}
	return q
}

func (f *fault) getVelocity(b []byte, name string) Vec3 {
	_ = b[5]
	x, y, z := int16(le.Uint16(b[0:2])), int16(le.Uint16(b[2:4])), int16(le.Uint16(b[4:6]))
	if x < -maxVelocityStep || y < -maxVelocityStep || z < -maxVelocityStep {
		f.set(kindOutOfRange, name)
	}
	return Vec3{float32(x) / VelocityScale, float32(y) / VelocityScale, float32(z) / VelocityScale}
}

func (f *fault) getBool(v byte, name string) bool {
	if v > 1 {
		f.set(kindInvalidEnum, name)
	}
	return v == 1
}

func (f *fault) getSubject(b []byte, name string) uint16 {
	v := le.Uint16(b)
	if v == 0xFFFF {
		f.set(kindOutOfRange, name)
	}
	return v
}

// reserved records a flags byte with bits set at or above used.
func (f *fault) reserved(flags byte, used uint, name string) {
	if flags>>used != 0 {
		f.set(kindNonCanonical, name)
	}
}

// checkHeader checks the header and length of b for message id, like startDecode.
func checkHeader(b []byte, id ID) error {
	l := layouts[id]
	if len(b) == l.size && b[0] == Version && ID(b[1]) == id {
		return nil
	}
	_, err := startDecode(b, id)
	return err
}
