// Package revision implements 16-bit serial-number arithmetic (RFC 1982 style) for the
// revisions and sequence numbers that travel on the wire as uint16: the health revision,
// the inventory revision, damage report numbers and frame sequence numbers.
//
// A 16-bit counter wraps from 65535 to 0, so "newer" cannot be a plain integer
// comparison. Two values a and b are compared through the signed distance a-b taken
// modulo 2^16: a is newer than b when that distance lies in 1..32767, older when it lies
// in -32767..-1. Values exactly 32768 apart are unordered: neither is newer, and callers
// treat such a pair as "not the same and not comparable", which in practice means
// "reject". Revisions in this SDK never run that far apart while a packet is in flight.
//
// The functions are pure and allocation-free.
package revision

// Half is the distance at which two 16-bit serial numbers stop being comparable.
const Half = 1 << 15

// Diff returns the signed distance a-b in serial arithmetic, in -32768..32767.
// Diff(1, 65535) is 2: 1 is two steps after 65535.
func Diff(a, b uint16) int {
	return int(int16(a - b))
}

// Newer reports whether a is strictly newer than b (a came after b), across the wrap.
func Newer(a, b uint16) bool {
	d := a - b
	return d != 0 && d < Half
}

// Older reports whether a is strictly older than b (a came before b), across the wrap.
func Older(a, b uint16) bool {
	return Newer(b, a)
}

// NewerOrEqual reports whether a is b or newer than b.
func NewerOrEqual(a, b uint16) bool {
	return a == b || Newer(a, b)
}

//go:generate go tool stringer -type=Order -linecomment

// Order is the result of Compare.
type Order int8

// The possible orders of two serial numbers.
const (
	// Equal means the two numbers are the same.
	Equal Order = iota // equal
	// After means the first number is newer than the second.
	After // after
	// Before means the first number is older than the second.
	Before // before
	// Unordered means the numbers are exactly half the space apart and cannot be ordered.
	Unordered // unordered
)

// Compare orders a relative to b.
func Compare(a, b uint16) Order {
	switch d := a - b; {
	case d == 0:
		return Equal
	case d < Half:
		return After
	case d > Half:
		return Before
	}
	return Unordered
}

// Next returns the revision that follows r, wrapping from 65535 to 0.
func Next(r uint16) uint16 { return r + 1 }

// Max returns the newer of a and b; if they are unordered it returns a.
func Max(a, b uint16) uint16 {
	if Newer(b, a) {
		return b
	}
	return a
}
