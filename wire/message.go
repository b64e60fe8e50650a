package wire

// Message is implemented by a pointer to every message type of the package. The set
// is closed: only this package's types implement it.
type Message interface {
	// ID returns the message id.
	ID() ID
	// Append validates the message and appends its encoding (header included) to
	// dst, growing dst only when its spare capacity is below the message's size. On a
	// validation error it returns dst with its length and contents unchanged, and the
	// error, which matches one of the package's sentinels with errors.Is
	// (ErrNotFinite, ErrOutOfRange, ErrInvalidEnum, ErrNonCanonical, ErrInconsistent). Anything Append accepts,
	// Decode accepts, and decoding gives back the value, except for the fields the
	// layout quantizes (velocity, facing), which come back on their grid.
	Append(dst []byte) ([]byte, error)
	// Decode decodes exactly one encoded message of this type from b. On error the
	// receiver is left unchanged. Decode never panics, never allocates and never keeps
	// b. A value Decode accepts re-encodes to exactly b.
	Decode(b []byte) error
	// String returns a deterministic one-line rendering of every field, in wire
	// order, with the records' field names (vital_rev=3).
	String() string

	walk(c *codec)
}
