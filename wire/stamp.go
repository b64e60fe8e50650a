package wire

import "encoding/binary"

// stampAt is where an encoded message keeps its teammate stamp: the byte and bit of
// Stamp.Teammate (a bit of a flags byte, or bit 0 of a bool byte) and the offset of
// Stamp.Rev. It is read off the message's layout (its walk), so no package outside wire
// knows these offsets.
type stampAt struct {
	ok                   bool
	flags, bit, rv, size int
}

var stamps [256]stampAt

// initStamps reads every layout's stamp; the layouts' init calls it once they are built.
func initStamps() {
	for id, l := range layouts {
		if l == nil {
			continue
		}
		tm, rv := l.fieldIndex("Stamp.Teammate"), l.fieldIndex("Stamp.Rev")
		if tm == noField || rv == noField {
			continue
		}
		t, r := l.fields[tm], l.fields[rv]
		s := stampAt{ok: true, flags: t.off, rv: r.off, size: l.size}
		if t.prim == primBit {
			s.bit = t.bit
		}
		stamps[id] = s
	}
}

// HasStamp reports whether messages of id carry a teammate stamp (the relays of a sender's
// frames, shots, projectiles and detonations, and the server's effects with a creator).
func (id ID) HasStamp() bool { return stamps[id].ok }

// PatchStamp writes s into b, the encoding of one message that carries a teammate stamp
// (ID.HasStamp), in place: a server encodes a relay once and patches each recipient's
// stamp into its copy. It checks the header and the size and returns ErrTruncated,
// ErrVersion, ErrUnknownID, or ErrWrongMessage for a message without a stamp, changing
// nothing then. It does not re-check the rules between fields: a stamp saying teammate on
// a message without a sender is the caller's mistake (Decode refuses it). It does not
// allocate.
func PatchStamp(b []byte, s Stamp) error {
	if len(b) < HeaderSize || b[0] != Version || !stamps[b[1]].ok {
		return patchRefused(b)
	}
	at := &stamps[b[1]]
	if len(b) < at.size {
		return ErrTruncated
	}
	f := b[at.flags] &^ (1 << at.bit)
	if s.Teammate {
		f |= 1 << at.bit
	}
	b[at.flags] = f
	binary.LittleEndian.PutUint16(b[at.rv:], s.Rev)
	return nil
}

// patchRefused is why a patch (PatchStamp, PatchRewind) refuses b, whose header does not
// open a message carrying the patched field: Peek's error, else ErrWrongMessage.
func patchRefused(b []byte) error {
	if _, err := Peek(b); err != nil {
		return err
	}
	return ErrWrongMessage
}
