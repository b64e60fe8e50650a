package wire

import (
	"errors"
	"strconv"
)

// Errors of the codec and of bundles. Every error Append, Decode and Peek return matches
// exactly one of the first ten with errors.Is. Errors from Append and Decode also name
// the message and, where there is one, the field (PlayerSync.Health); they are
// preallocated, so a rejected input costs no allocation.
var (
	// ErrTruncated: the input is shorter than the message its header names.
	ErrTruncated = errors.New("wire: truncated message")
	// ErrTrailing: the input is longer than the message its header names. Every
	// message has a fixed size, so a byte more is an error, not padding.
	ErrTrailing = errors.New("wire: trailing bytes after message")
	// ErrVersion: byte 0 is not this package's protocol Version.
	ErrVersion = errors.New("wire: unknown protocol version")
	// ErrUnknownID: byte 1 is no message id this package defines.
	ErrUnknownID = errors.New("wire: unknown message id")
	// ErrWrongMessage: a typed Decode got the bytes of another (known) message.
	ErrWrongMessage = errors.New("wire: bytes hold another message")
	// ErrNotFinite: a float field that must be finite holds NaN or ±Inf.
	ErrNotFinite = errors.New("wire: value not finite")
	// ErrOutOfRange: a number lies outside its documented valid range (a health
	// above MaxVital, a velocity beyond ±255.99 m/s, a rotation that is not a unit
	// quaternion, a subject id 0xFFFF where a player is required, ...).
	ErrOutOfRange = errors.New("wire: value out of range")
	// ErrInvalidEnum: an enum the wire defines holds a value outside its set (a
	// RefKind, a HitType, a disconnect Reason), or a bool byte is neither 0 nor 1.
	ErrInvalidEnum = errors.New("wire: invalid enum value")
	// ErrNonCanonical: the value is readable but not in its one canonical encoding, so
	// re-encoding it would give other bytes: a float -0.0, a reserved flag bit set, a
	// field that must be zero because another field says it is absent.
	ErrNonCanonical = errors.New("wire: non-canonical encoding")
	// ErrInconsistent: each field is valid alone but together they contradict a rule of
	// the message (a seat without a vehicle is ErrNonCanonical; a living player at zero
	// health, a clip above the total, a teammate stamp without a sender are this).
	ErrInconsistent = errors.New("wire: inconsistent fields")

	// The errors of bundles (OpenBundle refuses a received bundle whole with one of them;
	// BundleWriter.Add refuses an element with one of them and adds nothing).

	// ErrBundleTruncated: a bundle's length prefix or element runs past its end.
	ErrBundleTruncated = errors.New("wire: bundle truncated")
	// ErrBundleEmpty: a bundle carries no element, or an element shorter than a message
	// header (a zero length included).
	ErrBundleEmpty = errors.New("wire: bundle element empty")
	// ErrBundleNested: an element of a bundle is itself a bundle.
	ErrBundleNested = errors.New("wire: bundle inside a bundle")
	// ErrBundleTooMany: a bundle carries more than MaxBundleElements elements.
	ErrBundleTooMany = errors.New("wire: too many elements in a bundle")
	// ErrBundleFull: an element does not fit the bundle being built beside the elements
	// it already holds; send it and start another.
	ErrBundleFull = errors.New("wire: bundle full")
	// ErrBundleTooLarge: an element is longer than the payload size, so it cannot go
	// even alone.
	ErrBundleTooLarge = errors.New("wire: element larger than the payload size")
)

// kind is the class of a codec failure; each maps to one exported sentinel.
type kind uint8

const (
	kindNone kind = iota
	kindTruncated
	kindTrailing
	kindVersion
	kindUnknownID
	kindWrongMessage
	kindNotFinite
	kindOutOfRange
	kindInvalidEnum
	kindNonCanonical
	kindInconsistent
	kindCount
)

func (k kind) sentinel() error {
	switch k {
	case kindTruncated:
		return ErrTruncated
	case kindTrailing:
		return ErrTrailing
	case kindVersion:
		return ErrVersion
	case kindUnknownID:
		return ErrUnknownID
	case kindWrongMessage:
		return ErrWrongMessage
	case kindNotFinite:
		return ErrNotFinite
	case kindOutOfRange:
		return ErrOutOfRange
	case kindInvalidEnum:
		return ErrInvalidEnum
	case kindNonCanonical:
		return ErrNonCanonical
	case kindInconsistent:
		return ErrInconsistent
	}
	return nil
}

// noField marks an error about the message as a whole (its length, header, id).
const noField = 0xFF

// codecError is the detailed error of Append and Decode. The values live in per-message
// tables built once at package initialisation (see layout.go), so returning one never
// allocates; its text is built only when someone asks for it.
type codecError struct {
	id    ID
	kind  kind
	field uint8 // index of the field in the message's layout, or noField
}

func (e *codecError) Error() string {
	s := e.kind.sentinel().Error() + ": " + e.id.String()
	if e.field != noField {
		return s + "." + layoutOf(e.id).fields[e.field].name
	}
	if e.kind == kindTruncated || e.kind == kindTrailing {
		s += " is " + strconv.Itoa(e.id.Size()) + " bytes"
	}
	return s
}

func (e *codecError) Unwrap() error { return e.kind.sentinel() }
