// Package transport joins the two streams of an arbiter connection into one datagram
// endpoint: unreliable messages travel one per datagram, reliable ones on a lane.Lane, and
// both share the same socket (a lane datagram is told apart by its transport id, see
// wire.Peek). A peer may coalesce what it sends in one flush into bundles (wire.IDBundle,
// built by a Packer); an Endpoint receives them transparently, each element as if it had
// come alone. The reference server keeps one Endpoint per connection and the honest client
// keeps one for its server.
//
// An Endpoint is a pure state machine like the packages it joins: time is an argument, it
// never touches a socket, and Flush hands the datagrams to send to a function of the host.
// It is not safe for concurrent use.
package transport

import (
	"errors"
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// Side says which end of a connection an endpoint is; it decides which messages it
// accepts (a server drops server-to-client messages and a client the reverse).
type Side uint8

// The two sides.
const (
	// Server is the server's end of a connection.
	Server Side = iota + 1
	// Client is the client's end.
	Client
)

// MaxPendingDatagrams caps the unreliable datagrams an endpoint holds between two
// Flush calls; beyond it Send refuses with ErrOutboxFull (the host flushes every tick).
const MaxPendingDatagrams = 4096

var (
	// ErrWrongDirection means a peer sent a message only the other side may send.
	ErrWrongDirection = errors.New("transport: message sent in the wrong direction")
	// ErrOutboxFull means MaxPendingDatagrams unreliable datagrams wait for Flush.
	ErrOutboxFull = errors.New("transport: unreliable outbox full")
	// ErrNotReliable means a message that must travel unreliably was queued on the lane,
	// or the reverse.
	ErrNotReliable = errors.New("transport: message sent on the wrong stream")
	// ErrPayloadSize refuses a payload size below MinPayloadSize or above lane.MaxMTU.
	ErrPayloadSize = errors.New("transport: payload size out of range")
)

// Stats counts what an endpoint did.
type Stats struct {
	// Sent counts unreliable messages flushed, whether each left in a datagram of its own
	// or in a bundle (SetPayloadSize).
	Sent int
	// Queued counts messages queued on the lane.
	Queued int
	// Received counts messages delivered to the host (both streams).
	Received int
	// Malformed counts datagrams or lane payloads that failed to decode.
	Malformed int
	// WrongDirection counts messages refused for their direction.
	WrongDirection int
}

// Endpoint is one end of a connection.
type Endpoint struct {
	// Line 0 (the first 64 bytes; a host that keeps the endpoint inside a struct of its own
	// puts it at a multiple of 64, see Init): what Open and Next read and write for every
	// datagram, so that a host of many connections, which reads each datagram's endpoint
	// from memory, reads one line of it (a lane datagram reads the lane too). Then Flush's
	// fields, then the rest. A test keeps these fields within the line.
	side Side
	// The datagram Open took, until Next has returned all of it: the bytes of a message
	// datagram (the caller's, not copied), or, for a lane datagram, the lane's delivered
	// messages; for a bundle (inBundle), the elements not yet opened (bundle, and openedAt
	// its time). Open clears the flags, not the bundle: a datagram that is no bundle then
	// writes nothing beyond this line.
	fromLane bool
	inBundle bool
	opened   []byte
	dec      *wire.Decoder // made at the first decode, or shared (ShareDecoder)
	lane     *lane.Lane
	received int // Stats.Received: counted at every message Next returns
	openedAt time.Duration

	bundle wire.Bundle
	// The other counters of Stats (Received is received, above).
	sent, queued, malformed, wrongDirection int

	buf  *[]byte // the encode and poll scratch: own (made at first use) or shared
	out  []byte  // pending unreliable datagrams, back to back
	ends []int   // end offset of each pending datagram in out
	// payload is the payload size Flush coalesces to (SetPayloadSize); 0: one datagram
	// per message and per lane datagram.
	payload int
	pack    *Packer // made by SetPayloadSize
	own     []byte
}

// New returns an endpoint for side with a lane of package lane's defaults.
func New(side Side) (*Endpoint, error) {
	e := new(Endpoint)
	if err := e.Init(side); err != nil {
		return nil, err
	}
	return e, nil
}

// Init makes e, in place, what New returns: a new endpoint for side with a new lane,
// nothing of what e held before kept (its scratch and decoder are its own again). A host
// that keeps its endpoints inside its own per-connection structures calls it instead of
// New: the endpoint is then no separate object to reach through a pointer (a server of
// many connections reads one fewer cache line per datagram). An Endpoint must not be
// copied once initialized (its own scratch points into it). For an unknown side it
// returns an error and leaves e unchanged.
func (e *Endpoint) Init(side Side) error {
	if side != Server && side != Client {
		return fmt.Errorf("transport: unknown side %d", side)
	}
	l, err := lane.New(lane.Config{})
	if err != nil {
		return err
	}
	*e = Endpoint{side: side, lane: l}
	e.buf = &e.own
	return nil
}

// ShareScratch makes the endpoint encode what it queues and build its lane datagrams in
// *buf, a scratch buffer that the endpoints of one goroutine may share when no call of one
// runs inside a call of another (an emit callback of Flush does not queue on, flush or
// receive into another endpoint sharing it, and is done with its datagram when it
// returns): a server of many connections then holds one buffer of lane.MTU instead of one
// per connection. Without it, the endpoint makes its own at its first use. buf must not be
// nil.
func (e *Endpoint) ShareScratch(buf *[]byte) { e.buf = buf }

// scratch returns the scratch buffer, empty, with room for one lane datagram.
func (e *Endpoint) scratch() []byte {
	if cap(*e.buf) < lane.MTU {
		*e.buf = make([]byte, 0, lane.MTU)
	}
	return (*e.buf)[:0]
}

// ShareDecoder makes the endpoint decode into d, a decoder that the endpoints of one
// goroutine may share when each message Next returns is done with before the next call
// of Next on any of them (a message points into the decoder): a server of many
// connections then holds one decoder instead of one per connection (about 1 KB each).
// Without it, the endpoint makes its own at its first decode. d must not be nil.
func (e *Endpoint) ShareDecoder(d *wire.Decoder) { e.dec = d }

// Lane returns the endpoint's reliable lane (for its stats and state).
func (e *Endpoint) Lane() *lane.Lane { return e.lane }

// Stats returns the endpoint's counters.
func (e *Endpoint) Stats() Stats {
	return Stats{Sent: e.sent, Queued: e.queued, Received: e.received, Malformed: e.malformed, WrongDirection: e.wrongDirection}
}

// Send queues m as an unreliable datagram of its own, sent at the next Flush.
func (e *Endpoint) Send(m wire.Message) error {
	if m.ID().Delivery() == wire.Reliable {
		return fmt.Errorf("%w: %v is reliable", ErrNotReliable, m.ID())
	}
	if len(e.ends) >= MaxPendingDatagrams {
		return ErrOutboxFull
	}
	out, err := m.Append(e.out)
	if err != nil {
		return err
	}
	e.out = out
	e.ends = append(e.ends, len(out))
	return nil
}

// CanQueue reports what Queue would answer for m, without queuing it: a command that is
// committed when its packet is queued checks first, then commits, then queues.
func (e *Endpoint) CanQueue(m wire.Message) error {
	return e.lane.CanQueue(m.ID().Size(), wire.Critical(m))
}

// Queue puts m on the reliable lane (critical when wire.Critical says so) and returns its
// lane sequence number, which PopAcked later reports.
func (e *Endpoint) Queue(now time.Duration, m wire.Message) (lane.Seq, error) {
	if m.ID().Delivery() == wire.Unreliable {
		return 0, fmt.Errorf("%w: %v is unreliable", ErrNotReliable, m.ID())
	}
	b, err := m.Append(e.scratch())
	if err != nil {
		return 0, err
	}
	*e.buf = b[:0]
	seq, err := e.lane.Queue(now, b, wire.Critical(m))
	if err == nil {
		e.queued++
	}
	return seq, err
}

// Receive takes one datagram of the peer and hands handle each message it holds, in
// order (Open, then Next until it is done): the message of an unreliable datagram, or every
// message a lane datagram completes. It returns the first error: the datagram's (it fails
// Peek, or the lane refused it) or a message's (it failed to decode, or travels the wrong
// way). The message handle gets is only valid during the call.
func (e *Endpoint) Receive(now time.Duration, datagram []byte, handle func(wire.Message)) error {
	first := e.Open(now, datagram)
	for {
		m, ok, err := e.Next()
		if !ok {
			return first
		}
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		handle(m)
	}
}

// Open takes one datagram of the peer, whose messages Next then returns in order: a
// message datagram is kept (not copied: datagram must stay unchanged until Next is done
// with it), a lane datagram goes to the lane, which then holds the messages it completes,
// and a bundle (wire.IDBundle) is checked whole and kept, its elements then handled one by
// one by Next exactly as if each had come alone (a lane datagram inside goes to the lane
// when Next reaches it). It returns the datagram's own error (it fails wire.Peek, the
// lane refused it, or wire.OpenBundle refused the bundle: nested, over
// wire.MaxBundleElements, truncated; counted as Malformed), after which Next returns
// nothing of it and nothing of it was taken. Opening a datagram drops what is left of the
// one before.
func (e *Endpoint) Open(now time.Duration, datagram []byte) error {
	e.opened, e.fromLane, e.inBundle = nil, false, false
	id, err := wire.Peek(datagram)
	if err != nil {
		e.malformed++
		return err
	}
	if id == wire.IDBundle {
		b, err := wire.OpenBundle(datagram)
		if err != nil {
			e.malformed++
			return err
		}
		e.bundle, e.openedAt, e.inBundle = b, now, true
		return nil
	}
	return e.openOne(now, id, datagram)
}

// openOne takes one datagram that is not a bundle (alone, or an element of one).
func (e *Endpoint) openOne(now time.Duration, id wire.ID, datagram []byte) error {
	if !id.Transport() {
		e.opened = datagram
		return nil
	}
	if err := e.lane.Receive(now, datagram); err != nil {
		e.malformed++
		return err
	}
	e.fromLane = true
	return nil
}

// Next returns the next message of the datagram Open took (ok false when none is left),
// or the error of that message: it failed to decode (counted as Malformed) or travels the
// wrong way for this side (ErrWrongDirection, counted as WrongDirection). In a bundle, an
// element that fails alone (a bad header, a lane datagram the lane refuses) is such an
// error too, and the elements after it are still handled. The message points into the
// endpoint's decoder: it is valid until the next call of Next (on any endpoint that shares
// the decoder: ShareDecoder).
func (e *Endpoint) Next() (m wire.Message, ok bool, err error) {
	var b []byte
	for b == nil {
		switch {
		case e.opened != nil:
			b, e.opened = e.opened, nil
		case e.fromLane:
			if p, more := e.lane.Deliver(); more {
				b = p
			} else {
				e.fromLane = false
			}
		case e.inBundle && e.bundle.Len() > 0:
			elem, _ := e.bundle.Next()
			id, err := wire.Peek(elem)
			if err == nil {
				err = e.openOne(e.openedAt, id, elem)
			} else {
				e.malformed++
			}
			if err != nil {
				return nil, true, err
			}
		default:
			return nil, false, nil
		}
	}
	if e.dec == nil {
		e.dec = new(wire.Decoder)
	}
	m, wrong, err := decode(e.dec, e.side, b)
	switch {
	case wrong:
		e.wrongDirection++
	case err != nil:
		e.malformed++
	default:
		e.received++
	}
	return m, true, err
}

// DecodeMessage decodes datagram, a message datagram (wire.Peek names neither a bundle nor
// a transport id), with dec, as an endpoint of side's Next would: the message, or Next's
// error for it (the decoder's, or ErrWrongDirection). It reads and writes no endpoint, and
// no endpoint counts it in its Stats: a host that shares one decoder among its endpoints
// (ShareDecoder), and reads each datagram's id before it opens it, takes a message
// datagram with it without reading the connection's endpoint at all (a host of many
// connections then reads one line fewer per datagram). The message points into dec, as
// Next's does.
func DecodeMessage(dec *wire.Decoder, side Side, datagram []byte) (wire.Message, error) {
	m, _, err := decode(dec, side, datagram)
	return m, err
}

// decode is Next's decoding of one message b for side: wrong reports the error is
// ErrWrongDirection.
func decode(dec *wire.Decoder, side Side, b []byte) (m wire.Message, wrong bool, err error) {
	m, err = dec.Decode(b)
	if err != nil {
		return nil, false, err
	}
	dir := m.ID().Direction()
	if (side == Server && dir == wire.ServerToClient) || (side == Client && dir == wire.ClientToServer) {
		return nil, true, fmt.Errorf("%w: %v", ErrWrongDirection, m.ID())
	}
	return m, false, nil
}

// Touch reads the line of the endpoint that Open and Next read (its first: see Endpoint)
// and returns a word of it; it changes nothing. A host of many connections calls it for
// a connection whose datagram it will open soon, and keeps the result (so that the read
// is not left out): the read then overlaps the handling of the datagrams before it (see
// refserver.World.ReceiveBatch).
func (e *Endpoint) Touch() uint64 { return uint64(e.side) ^ uint64(e.received) }

// PopAcked returns the next message the peer acknowledged, in sequence order.
func (e *Endpoint) PopAcked() (lane.Ack, bool) { return e.lane.PopAcked() }

// NextDeadline tells when the lane wants the next Flush.
func (e *Endpoint) NextDeadline() (time.Duration, bool) { return e.lane.NextDeadline() }

// SetPayloadSize makes Flush coalesce: everything one Flush sends (the unreliable
// messages, then the lane's datagrams) leaves packed in bundles of at most n bytes, a
// lone element bare (see Packer). n must be at least MinPayloadSize and at most
// lane.MaxMTU; 0 turns coalescing off (one datagram per message and per lane datagram,
// the default).
func (e *Endpoint) SetPayloadSize(n int) error {
	if n != 0 && (n < MinPayloadSize || n > lane.MaxMTU) {
		return fmt.Errorf("%w: payload size %d not in %d..%d", ErrPayloadSize, n, MinPayloadSize, lane.MaxMTU)
	}
	e.payload = n
	if n != 0 && e.pack == nil {
		e.pack = new(Packer)
	}
	return nil
}

// Flush hands every pending unreliable datagram, then every datagram the lane has ready
// (new messages, retransmissions, acknowledgements), to emit, packed in bundles when
// SetPayloadSize set a payload size. The slice passed to emit is only valid during the
// call. An error means the lane must disconnect.
func (e *Endpoint) Flush(now time.Duration, emit func([]byte)) error {
	if e.payload == 0 {
		return e.flush(now, emit)
	}
	e.pack.Start(e.payload)
	err := e.flush(now, func(d []byte) { e.pack.Send(d, emit) })
	e.pack.Finish(emit)
	return err
}

func (e *Endpoint) flush(now time.Duration, emit func([]byte)) error {
	start := 0
	for _, end := range e.ends {
		emit(e.out[start:end])
		start = end
		e.sent++
	}
	e.out, e.ends = e.out[:0], e.ends[:0]
	for {
		d, err := e.lane.Poll(now, e.scratch())
		if err != nil {
			return err
		}
		if len(d) == 0 {
			return nil
		}
		*e.buf = d[:0]
		emit(d)
	}
}
