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
// unrolled Append and Decode methods built from the helpers below. hot.go is generated
// from the walks by internal/wiregen (`go generate ./wire`): the layout is still
// written once, and TestGeneratedFastPathsAreCurrent fails when hot.go is stale.
//
// They are held to the walk, not trusted: TestFastPathsMatchTheWalk and FuzzDecode run
// both on the same values and bytes and require the same bytes, the same values and the
// same error (sentinel, message and field) every time, and every table test of the
// package runs against them. The fast Append also validates everything before it
// writes a byte, so a refused message leaves even the spare capacity of dst untouched.
// A fast Decode that finds a failure lets the walk decode the message and name it.

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
// exactly the check of the same field above (or of its reader below).

// quatOK reports whether q is a valid quat field (finite, unit, or all 0 when optional).
func quatOK(q Quat, optional bool) bool {
	if !finite(q.W) || !finite(q.X) || !finite(q.Y) || !finite(q.Z) {
		return false
	}
	if optional && q == (Quat{}) {
		return true
	}
	n := float64(q.W)*float64(q.W) + float64(q.X)*float64(q.X) + float64(q.Y)*float64(q.Y) + float64(q.Z)*float64(q.Z)
	return n >= quatNorm2Min && n <= quatNorm2Max
}

// spanBits reports whether the float32 with these bits reads as valid in lo..hi (f32 of a
// span with these bounds): within them, and not -0.
func spanBits(bits uint32, lo, hi float32) bool {
	v := math.Float32frombits(bits)
	return v >= lo && v <= hi && bits != negZero
}

// getQuatOK reads a quat field and reports whether it is valid (no -0, finite, unit or
// all 0 when optional).
func getQuatOK(b []byte, optional bool) (Quat, bool) {
	_ = b[15]
	w, x, y, z := le.Uint32(b[0:4]), le.Uint32(b[4:8]), le.Uint32(b[8:12]), le.Uint32(b[12:16])
	q := Quat{math.Float32frombits(w), math.Float32frombits(x), math.Float32frombits(y), math.Float32frombits(z)}
	return q, w != negZero && x != negZero && y != negZero && z != negZero && quatOK(q, optional)
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

// checkHeader checks the header and length of b for message id, like startDecode.
func checkHeader(b []byte, id ID) error {
	l := layouts[id]
	if len(b) == l.size && b[0] == Version && ID(b[1]) == id {
		return nil
	}
	_, err := startDecode(b, id)
	return err
}
