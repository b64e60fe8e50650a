package wire

import (
	"fmt"
	"strings"
)

// layout is what a describe walk learns about one message: its size, its fields in
// wire order and the rules between them. The package builds one per message at
// initialisation and never changes them afterwards; they serve ID.Size, ID.String,
// the error texts and (in tests) the documentation tables.
type layout struct {
	id       ID
	name     string
	dir      Direction
	delivery Delivery
	new      func() Message
	size     int
	fields   []field
	rules    []rule
	errs     []codecError // per field and kind: errs[field*kindCount+kind]
	msgErrs  [kindCount]codecError
}

// field is one row of a message's layout.
type field struct {
	name     string // Go field path (Stamp.Rev); the name of a bit group's byte for a group
	off      int    // byte offset in the message, header included
	width    int    // bytes; 0 for a bit field
	bit      int    // first bit of a bit field
	bits     int    // width in bits of a bit field
	typ      string // wire type, for the documentation
	rng      string // valid range, for the documentation
	prim     prim
	span     span   // f32 and vec3: the valid range
	max      uint16 // enum, bitsUint and u16max: the highest valid value
	none     bool   // id16: 0xFFFF (none) is valid
	optional bool   // quat: all zero is valid
	group    bool   // the byte of a bit group
	reserved int    // group: the first reserved bit (bits reserved..7 must be 0)
}

// prim is the codec primitive behind a field.
type prim uint8

const (
	primU8 prim = iota + 1
	primU16
	primU32
	primID
	primEnum
	primBool
	primBits
	primBit
	primBitsUint
	primF32
	primVec3
	primQuat
	primVelocity
	primAngle
	primU16Max
)

// rule is a rule between fields, named after the field that breaks it.
type rule struct {
	field string
	kind  kind
	text  string
}

// layouts holds the layout of every message by id; nil for an unknown id. Written
// only by init.
var layouts [256]*layout

func init() {
	for _, e := range catalog() {
		m := e.new()
		if m.ID() != e.id || layouts[e.id] != nil {
			panic(fmt.Sprintf("wire: catalog entry 0x%02x is wrong or repeated", uint8(e.id)))
		}
		l := &layout{
			id:       e.id,
			name:     strings.TrimPrefix(fmt.Sprintf("%T", m), "*wire."),
			dir:      e.dir,
			delivery: e.delivery,
			new:      e.new,
		}
		c := codec{mode: modeDescribe, id: e.id, off: HeaderSize, lay: l}
		m.walk(&c)
		l.size = c.off
		if l.size > MaxSize {
			panic("wire: " + l.name + " is larger than MaxSize")
		}
		l.errs = make([]codecError, len(l.fields)*int(kindCount))
		for f := range l.fields {
			for k := range kindCount {
				l.errs[f*int(kindCount)+int(k)] = codecError{id: e.id, kind: k, field: uint8(f)}
			}
		}
		for k := range kindCount {
			l.msgErrs[k] = codecError{id: e.id, kind: k, field: noField}
		}
		layouts[e.id] = l
	}
	initStamps()
	initRewinds()
}

func layoutOf(id ID) *layout { return layouts[id] }

// err returns the preallocated error for a failure of kind k at field f (noField for
// the message as a whole).
func (l *layout) err(f uint8, k kind) error {
	if f == noField {
		return &l.msgErrs[k]
	}
	return &l.errs[int(f)*int(kindCount)+int(k)]
}

func (l *layout) fieldIndex(name string) uint8 {
	for i := range l.fields {
		if l.fields[i].name == name {
			return uint8(i)
		}
	}
	return noField
}

func (c *codec) describe(f field) {
	f.off = c.off
	c.off += f.width
	c.lay.fields = append(c.lay.fields, f)
}

func (c *codec) describeBits(f field) {
	f.off = c.lay.fields[c.groupAt].off
	c.lay.fields = append(c.lay.fields, f)
}
