package replay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/wire"
)

// The file format. A file is the header, then records until the end of the file.
//
// The header: Magic, the format Version (uint16, little endian), the length of the
// World's Config as JSON (uint32, little endian) and that JSON (the Config with its
// defaults filled in, as refserver.World.Config returns it).
//
// A record: its kind (one byte), now (a zig-zag varint of nanoseconds), then the kind's
// payload:
//
//   - KindReceive: the connection (uvarint), the datagram's length (uvarint) and its bytes.
//     A datagram costs its length plus at most 16 bytes; the World's own cap on what it
//     is handed is the host's read buffer (wire.MaxSize on the reference hosts), and the
//     recorder caps nothing more: it writes what the host handed the World.
//   - KindHandle: the connection (uvarint) and the message's encoding (length-prefixed).
//   - KindTick, KindDrain: nothing.
//   - KindKick: the connection (uvarint).
//   - KindFlush: the three running hashes after the flush (results, events, datagrams;
//     8 bytes each, little endian) and the totals so far of events and datagrams
//     (uvarints).
//   - KindVerb: the verb (one byte, a Verb) and its arguments (length-prefixed; see
//     args).
const (
	// Magic opens every record file.
	Magic = "ARBREC\x00"
	// Version is the format's version; Replay refuses another.
	Version uint16 = 1
	// MaxConfigJSON caps the header's Config JSON that Replay reads.
	MaxConfigJSON = 1 << 24
	// MaxRecordPayload caps one record's length-prefixed bytes that Replay reads (a
	// datagram, a message, a verb's arguments): a corrupt length cannot make it allocate
	// more.
	MaxRecordPayload = 1 << 16
)

// Kind is a record's kind.
type Kind uint8

// The record kinds: one per input of the World the recorder sees.
const (
	KindReceive Kind = 1 + iota // World.Receive
	KindTick                    // World.Tick
	KindFlush                   // World.Flush, with the hashes after it
	KindDrain                   // World.Events: the host drained the events
	KindKick                    // World.Kick
	KindHandle                  // World.Handle
	KindVerb                    // a gamemode verb of the facade
)

func (k Kind) String() string {
	switch k {
	case KindReceive:
		return "receive"
	case KindTick:
		return "tick"
	case KindFlush:
		return "flush"
	case KindDrain:
		return "drain"
	case KindKick:
		return "kick"
	case KindHandle:
		return "handle"
	case KindVerb:
		return "verb"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// ErrFormat is Replay's error for a file that is not a record file of this Version, or
// whose records do not decode.
var ErrFormat = errors.New("replay: bad record file")

// args is a verb's arguments: little-endian scalars appended in the verb's order.
type args struct {
	b   []byte
	err error
}

func (a *args) u8(v uint8)   { a.b = append(a.b, v) }
func (a *args) u16(v uint16) { a.b = binary.LittleEndian.AppendUint16(a.b, v) }
func (a *args) u32(v uint32) { a.b = binary.LittleEndian.AppendUint32(a.b, v) }
func (a *args) i64(v int64)  { a.b = binary.LittleEndian.AppendUint64(a.b, uint64(v)) }
func (a *args) f32(v float32) {
	a.b = binary.LittleEndian.AppendUint32(a.b, math.Float32bits(v))
}
func (a *args) flag(v bool) {
	if v {
		a.u8(1)
	} else {
		a.u8(0)
	}
}
func (a *args) str(s string) {
	a.b = binary.AppendUvarint(a.b, uint64(len(s)))
	a.b = append(a.b, s...)
}
func (a *args) vec(v wire.Vec3) { a.f32(v.X); a.f32(v.Y); a.f32(v.Z) }
func (a *args) quat(q wire.Quat) {
	a.f32(q.W)
	a.f32(q.X)
	a.f32(q.Y)
	a.f32(q.Z)
}
func (a *args) id(id refserver.PlayerID) { a.u16(uint16(id)) }

// reader reads args back; a short read sets err and returns zeros.
type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil || len(r.b) < n {
		r.err = fmt.Errorf("%w: verb arguments cut short", ErrFormat)
		return make([]byte, n)
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}
func (r *reader) u8() uint8   { return r.take(1)[0] }
func (r *reader) u16() uint16 { return binary.LittleEndian.Uint16(r.take(2)) }
func (r *reader) u32() uint32 { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *reader) i64() int64  { return int64(binary.LittleEndian.Uint64(r.take(8))) }
func (r *reader) f32() float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(r.take(4)))
}
func (r *reader) flag() bool { return r.u8() != 0 }
func (r *reader) str() string {
	n, k := binary.Uvarint(r.b)
	if k <= 0 || n > uint64(len(r.b)-k) {
		r.err = fmt.Errorf("%w: verb string cut short", ErrFormat)
		return ""
	}
	s := string(r.b[k : k+int(n)])
	r.b = r.b[k+int(n):]
	return s
}
func (r *reader) vec() wire.Vec3 { return wire.Vec3{X: r.f32(), Y: r.f32(), Z: r.f32()} }
func (r *reader) quat() wire.Quat {
	return wire.Quat{W: r.f32(), X: r.f32(), Y: r.f32(), Z: r.f32()}
}
func (r *reader) id() refserver.PlayerID { return refserver.PlayerID(r.u16()) }
func (r *reader) dur() time.Duration     { return time.Duration(r.i64()) }
