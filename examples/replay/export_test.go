package replay

import (
	"encoding/binary"
	"time"
)

// Span is one record's place in a record file, for the tests.
type Span struct {
	Kind     Kind
	At       time.Duration
	Start    int // the record's first byte (its kind)
	Payload  int // the first byte of its length-prefixed bytes (a datagram), or -1
	End      int
	Datagram []byte
	VerbAt   int // a verb record's verb byte
}

// Walk lists the records of a record file (the tests corrupt one).
func Walk(b []byte) []Span {
	n := int(binary.LittleEndian.Uint32(b[len(Magic)+2:]))
	off := len(Magic) + 6 + n
	var out []Span
	for off < len(b) {
		s := Span{Kind: Kind(b[off]), Start: off, Payload: -1}
		off++
		at, k := binary.Varint(b[off:])
		s.At, off = time.Duration(at), off+k
		uv := func() int {
			v, k := binary.Uvarint(b[off:])
			off += k
			return int(v)
		}
		switch s.Kind {
		case KindReceive, KindHandle:
			uv()
			l := uv()
			s.Payload, s.Datagram = off, b[off:off+l]
			off += l
		case KindKick:
			uv()
		case KindFlush:
			off += 24
			uv()
			uv()
		case KindVerb:
			s.VerbAt = off
			off++
			l := uv()
			s.Payload = off
			off += l
		}
		s.End = off
		out = append(out, s)
	}
	return out
}
