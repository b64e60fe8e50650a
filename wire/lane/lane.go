package lane

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// The errors of the lane. Every one that breaks the lane wraps ErrMustDisconnect.
var (
	// ErrConfig means a Config field is out of range.
	ErrConfig = errors.New("lane: config invalid")
	// ErrPayloadTooLarge means a message is longer than the payload cap, on Queue or
	// in a received datagram.
	ErrPayloadTooLarge = errors.New("lane: payload too large")
	// ErrSoftCap means an ordinary message was refused because the queue is at its
	// soft cap; nothing was queued.
	ErrSoftCap = errors.New("lane: soft cap reached, ordinary message refused")
	// ErrHardCap means a critical message found the queue at its hard cap: the lane
	// must disconnect.
	ErrHardCap = errors.New("lane: hard cap exceeded")
	// ErrLinkTimeout means a message stayed unacknowledged for the link timeout: the
	// lane must disconnect.
	ErrLinkTimeout = errors.New("lane: message unacknowledged past the link timeout")
	// ErrMustDisconnect wraps every error after which the connection must be closed
	// with Disconnect; the lane refuses every later Queue, Poll and Receive with it.
	ErrMustDisconnect = errors.New("lane: must disconnect")
	// ErrClock means now is negative or earlier than a time the lane has already seen.
	ErrClock = errors.New("lane: time went backwards")
	// ErrTruncated means a datagram ends inside a field or a payload.
	ErrTruncated = errors.New("lane: datagram truncated")
	// ErrTrailing means a datagram has bytes after its last record.
	ErrTrailing = errors.New("lane: datagram has trailing bytes")
	// ErrVersion means a datagram's first byte is not the protocol wire.Version.
	ErrVersion = errors.New("lane: datagram version unknown")
	// ErrMalformed means a datagram is not a lane datagram in canonical form: an id
	// other than DatagramID, a selective-ack bitmap longer than the window, ending in a
	// zero byte or naming a message past the window, or records out of order.
	ErrMalformed = errors.New("lane: datagram malformed")
	// ErrAckRange means a datagram acknowledges a message that was never transmitted.
	ErrAckRange = errors.New("lane: ack names a message never sent")
	// ErrSeqRange means a datagram carries a message beyond the receive window, which
	// no honest sender transmits.
	ErrSeqRange = errors.New("lane: message beyond the receive window")
)

// Seq is the sequence number of a message on a reliable lane: 32 bits, wrapping, compared
// with serial arithmetic. Queue returns it; Acked and PopAcked report it.
type Seq uint32

// The lane's limits and timers. Durations and caps named by the records keep their values.
const (
	// DatagramID is the id in byte 1 of every lane datagram, after the protocol
	// wire.Version: the first id of the range the message ids leave to the transport, so Peek
	// lets a read loop route lane datagrams to Lane.Receive. Another framing of the lane
	// would take another id of that range.
	DatagramID = wire.FirstTransportID

	// SoftCap is the default number of queued (unacknowledged) messages at which an
	// ordinary message is refused ([lane-soft-cap]).
	SoftCap = 512
	// HardCap is the default number of queued messages at which a critical message
	// breaks the connection instead of being queued ([lane-hard-cap]).
	HardCap = 1024
	// SoftCapBytes is the default payload volume of queued messages at which an
	// ordinary message is refused.
	SoftCapBytes = 128 << 10
	// HardCapBytes is the default payload volume of queued messages at which a critical
	// message breaks the connection. It is also the most the sender's arena grows to.
	HardCapBytes = 256 << 10
	// MaxHardCap is the largest hard cap a Config may ask for (messages).
	MaxHardCap = 16384
	// MaxHardCapBytes is the largest byte cap a Config may ask for.
	MaxHardCapBytes = 16 << 20

	// MaxPayload is the largest message the lane carries, in bytes. The lane does not
	// fragment, so every message must fit one datagram.
	MaxPayload = 1024
	// MTU is the default budget of one lane datagram in bytes, below the common path
	// MTU of the Internet after IP and UDP headers.
	MTU = 1200
	// MaxMTU is the largest datagram budget a Config may ask for (the largest UDP
	// payload over IPv4).
	MaxMTU = 65507
	// RecordOverhead is the framing cost of one message record (offset and length).
	RecordOverhead = 3
	// MaxSack is the largest selective-ack bitmap in bytes (Window bits).
	MaxSack = Window / 8
	// MaxOverhead is the largest framing cost of a datagram that carries one message:
	// header with a full bitmap, count, base and one record header.
	MaxOverhead = wire.HeaderSize + 4 + 1 + MaxSack + 1 + 4 + RecordOverhead
	// MaxRecords is the most message records one datagram carries (the count is a byte).
	MaxRecords = 255

	// Window is the protocol's window in messages: a sender transmits only messages
	// within Window of the peer's cumulative ack, and a receiver holds at most
	// Window messages from the oldest one not yet delivered. Both ends must agree on
	// it, so it is not configurable.
	Window = 256
	// InFlightBytes is the default cap on payload bytes sent and not yet acknowledged;
	// new messages wait while it is reached (one message is always allowed).
	InFlightBytes = 32 << 10
	// ReceiveBytes is the default cap on the payload bytes a lane holds for the peer
	// (received, not yet delivered to the host).
	ReceiveBytes = 64 << 10
	// AckLog is the number of acknowledgement reports kept for PopAcked; when the host
	// does not drain them the oldest is dropped and counted (Stats.AckLogDropped). One
	// Receive reports at most Window acknowledgements, so a host that drains after
	// every Receive never loses one.
	AckLog = 1024

	// Retransmit is the time after which a sent, unacknowledged message is sent again
	// ([lane-retransmit]).
	Retransmit = 250 * time.Millisecond
	// LinkTimeout is how long the oldest message may stay unacknowledged after its first
	// transmission before the lane gives the link up ([lane-link-timeout]).
	LinkTimeout = 15 * time.Second
)

// Errors of the reliable lane. Decode errors are returned unwrapped (so a flood of hostile
// datagrams costs no allocation); the others may be wrapped with detail. Use errors.Is.

// Config tunes a lane. The zero value is the records' configuration; a zero field means
// the default named in its comment. New validates it.
type Config struct {
	// SoftCap is the number of queued messages at which ordinary messages are refused.
	// Zero means SoftCap (512). At most HardCap.
	SoftCap int
	// HardCap is the number of queued messages at which a critical message breaks the
	// connection. Zero means HardCap (1024). At most MaxHardCap.
	HardCap int
	// SoftCapBytes is the payload volume of queued messages at which ordinary messages are
	// refused. Zero means SoftCapBytes (128 KiB). At least MaxPayload, at most
	// HardCapBytes.
	SoftCapBytes int
	// HardCapBytes is the payload volume at which a critical message breaks the
	// connection. Zero means HardCapBytes (256 KiB). At most MaxHardCapBytes.
	HardCapBytes int
	// MaxPayload is the largest message Queue accepts. Zero means MaxPayload (1024),
	// which is also its maximum. A receiver always accepts up to MaxPayload.
	MaxPayload int
	// MTU is the largest datagram Poll builds. Zero means MTU (1200). At least
	// MaxPayload+MaxOverhead, at most MaxMTU.
	MTU int
	// InFlightBytes caps the payload bytes sent and not yet acknowledged. Zero means
	// InFlightBytes (32 KiB). At least MaxPayload.
	InFlightBytes int
	// ReceiveBytes caps the payload bytes held for the peer. Zero means ReceiveBytes
	// (64 KiB). At least 4*MaxPayload, at most MaxHardCapBytes.
	ReceiveBytes int
	// Retransmit is the time after which an unacknowledged message is sent again. Zero
	// means Retransmit (250 ms).
	Retransmit time.Duration
	// LinkTimeout is how long a message may stay unacknowledged after its first
	// transmission. Zero means LinkTimeout (15 s). Longer than Retransmit.
	LinkTimeout time.Duration
}

// laneLimits is a validated Config with the defaults filled in.
type laneLimits struct {
	softCap, hardCap     int
	softBytes, hardBytes int
	maxPayload, mtu      int
	inFlightBytes        int
	recvBytes            int
	retransmit, linkTime time.Duration
}

func laneDefault[T int | time.Duration](v, def T) T {
	if v == 0 {
		return def
	}
	return v
}

func (c Config) resolve() (laneLimits, error) {
	if c.SoftCap < 0 || c.HardCap < 0 || c.SoftCapBytes < 0 || c.HardCapBytes < 0 ||
		c.MaxPayload < 0 || c.MTU < 0 || c.InFlightBytes < 0 || c.ReceiveBytes < 0 ||
		c.Retransmit < 0 || c.LinkTimeout < 0 {
		return laneLimits{}, fmt.Errorf("%w: negative field", ErrConfig)
	}
	l := laneLimits{
		softCap:       laneDefault(c.SoftCap, SoftCap),
		hardCap:       laneDefault(c.HardCap, HardCap),
		softBytes:     laneDefault(c.SoftCapBytes, SoftCapBytes),
		hardBytes:     laneDefault(c.HardCapBytes, HardCapBytes),
		maxPayload:    laneDefault(c.MaxPayload, MaxPayload),
		mtu:           laneDefault(c.MTU, MTU),
		inFlightBytes: laneDefault(c.InFlightBytes, InFlightBytes),
		recvBytes:     laneDefault(c.ReceiveBytes, ReceiveBytes),
		retransmit:    laneDefault(c.Retransmit, Retransmit),
		linkTime:      laneDefault(c.LinkTimeout, LinkTimeout),
	}
	switch {
	case l.hardCap > MaxHardCap:
		return l, fmt.Errorf("%w: hard cap %d above %d", ErrConfig, l.hardCap, MaxHardCap)
	case l.softCap > l.hardCap:
		return l, fmt.Errorf("%w: soft cap %d above hard cap %d", ErrConfig, l.softCap, l.hardCap)
	case l.maxPayload > MaxPayload:
		return l, fmt.Errorf("%w: max payload %d above %d", ErrConfig, l.maxPayload, MaxPayload)
	case l.hardBytes > MaxHardCapBytes:
		return l, fmt.Errorf("%w: hard cap bytes %d above %d", ErrConfig, l.hardBytes, MaxHardCapBytes)
	case l.softBytes > l.hardBytes:
		return l, fmt.Errorf("%w: soft cap bytes %d above hard cap bytes %d", ErrConfig, l.softBytes, l.hardBytes)
	case l.softBytes < l.maxPayload:
		return l, fmt.Errorf("%w: soft cap bytes %d below max payload %d", ErrConfig, l.softBytes, l.maxPayload)
	case l.mtu < l.maxPayload+MaxOverhead:
		return l, fmt.Errorf("%w: MTU %d below max payload %d + overhead %d", ErrConfig, l.mtu, l.maxPayload, MaxOverhead)
	case l.mtu > MaxMTU:
		return l, fmt.Errorf("%w: MTU %d above %d", ErrConfig, l.mtu, MaxMTU)
	case l.inFlightBytes < l.maxPayload:
		return l, fmt.Errorf("%w: in-flight bytes %d below max payload %d", ErrConfig, l.inFlightBytes, l.maxPayload)
	case l.recvBytes < 4*MaxPayload:
		return l, fmt.Errorf("%w: receive bytes %d below %d", ErrConfig, l.recvBytes, 4*MaxPayload)
	case l.recvBytes > MaxHardCapBytes:
		return l, fmt.Errorf("%w: receive bytes %d above %d", ErrConfig, l.recvBytes, MaxHardCapBytes)
	case l.linkTime <= l.retransmit:
		return l, fmt.Errorf("%w: link timeout %v not above retransmit %v", ErrConfig, l.linkTime, l.retransmit)
	}
	return l, nil
}

//go:generate go tool stringer -type=State -linecomment

// State is whether a lane still works.
type State uint8

// The states of a lane.
const (
	// Open is a working lane.
	Open State = iota // open
	// MustDisconnect is a lane that broke (hard cap or link timeout): the host sends
	// Disconnect and closes the connection. Deliver, PopAcked, Acked and Stats still work;
	// Queue, Poll and Receive return the error that broke it.
	MustDisconnect // must-disconnect
)

// Ack reports that the peer acknowledged a message.
type Ack struct {
	// Seq is the message's sequence number, as Queue returned it.
	Seq Seq
	// At is the time of the Receive that brought the acknowledgement.
	At time.Duration
	// Sent is the time of the message's first transmission.
	Sent time.Duration
	// Critical is whether the message was queued as critical.
	Critical bool
}

// Stats is a snapshot of a lane's queues and counters, for the host's monitoring.
type Stats struct {
	// Queued is the number of messages queued that the peer does not have yet (sent or
	// not): neither acknowledged nor held beyond a gap. The caps count these.
	Queued int
	// QueuedBytes is their payload volume.
	QueuedBytes int
	// InFlight is the number of messages sent at least once and not yet acknowledged.
	InFlight int
	// InFlightBytes is their payload volume.
	InFlightBytes int
	// Unsent is the number of queued messages never transmitted yet (waiting for the
	// window, the in-flight cap or the next Poll).
	Unsent int
	// Ready is the number of received messages waiting for Deliver.
	Ready int
	// Held is the number of received messages held beyond a gap.
	Held int
	// ReceiveBytes is the payload volume of Ready and Held messages.
	ReceiveBytes int
	// BufferBytes is the payload storage the lane has allocated for both directions.
	BufferBytes int

	// Sent counts first transmissions of messages.
	Sent uint64
	// Retransmits counts later transmissions.
	Retransmits uint64
	// Acked counts messages the peer acknowledged (cumulatively: see Lane.Acked).
	Acked uint64
	// DatagramsSent counts datagrams built by Poll.
	DatagramsSent uint64
	// DatagramsReceived counts datagrams Receive accepted.
	DatagramsReceived uint64
	// Received counts new messages accepted from the peer.
	Received uint64
	// Duplicates counts received messages that were already delivered or held.
	Duplicates uint64
	// Dropped counts received messages dropped for lack of window or buffer; the peer
	// resends them.
	Dropped uint64
	// Delivered counts messages handed to the host by Deliver.
	Delivered uint64
	// AckLogDropped counts acknowledgement reports dropped because the host did not drain
	// PopAcked; Acked still answers for them.
	AckLogDropped uint64
}

const laneNever = time.Duration(math.MaxInt64)

// Flags of a queued message.
const (
	laneCritical = 1 << iota
	laneSent     // transmitted at least once
	laneHeld     // the peer has it: selectively or cumulatively acknowledged; payload freed
)

// laneSlot is one queued message of the sender.
type laneSlot struct {
	span      laneSpan
	queuedAt  time.Duration
	firstSent time.Duration
	lastSent  time.Duration
	flags     uint8
}

// laneRecvSlot is one received message waiting for delivery or for a gap to fill.
type laneRecvSlot struct {
	span laneSpan
	held bool
}

// laneCounters are the monotonic counters of Stats.
type laneCounters struct {
	sent, retransmits, acked                 uint64
	datagramsSent, datagramsReceived         uint64
	received, duplicates, dropped, delivered uint64
	ackLogDropped                            uint64
}

// Lane is one end of a connection's ordered reliable stream: the sender of this side's
// messages and the receiver of the peer's. See the package documentation for the
// rules (the reliable lane). Create it with New. A Lane is not safe for concurrent use.
type Lane struct {
	lim   laneLimits
	state State
	err   error
	now   time.Duration // the latest time seen

	// Sender. Messages [una, next) are in the ring; [una, sndMax) were transmitted,
	// [sndMax, next) were not. una is the peer's newest cumulative ack: every message
	// before it is acknowledged. Messages after it may be held by the peer (laneHeld:
	// selectively acknowledged). unacked counts the messages neither acknowledged nor held.
	slots         []laneSlot
	una, sndMax   Seq
	next          Seq
	unacked       int
	unackedBytes  int
	inFlightBytes int
	rtxAt         time.Duration // lower bound of the earliest retransmission, laneNever if none
	rtxStale      bool          // rtxAt may be early: acknowledgements removed messages
	sndArena      laneArena

	// Receiver. [deliverNext, recvNext) are received and wait for Deliver; messages in
	// (recvNext, recvMax) may be held beyond the gap at recvNext.
	rslots      []laneRecvSlot // a power of two, grown on demand up to Window
	deliverNext Seq
	recvNext    Seq
	recvMax     Seq
	held        int
	ackOwed     bool
	ackOwedAt   time.Duration
	rcvArena    laneArena

	// Acknowledgement reports for PopAcked: a ring of len(acks) (a power of two).
	acks    []Ack
	ackHead int
	ackLen  int

	spans []*laneSpan // scratch for arena compaction
	st    laneCounters
}

// New returns an empty lane for a new connection. Both ends of a connection start at
// sequence number 0. Storage is allocated on first use and grows to the caps as needed;
// what grew past its first size for a burst is released when the lane falls idle (see the
// package documentation, Memory).
func New(cfg Config) (*Lane, error) {
	lim, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	l := &Lane{lim: lim, rtxAt: laneNever}
	l.sndArena.limit = lim.hardBytes
	l.rcvArena.limit = lim.recvBytes
	return l, nil
}

func laneDiff(a, b Seq) int32 { return int32(a - b) }

func (l *Lane) sndSlot(seq Seq) *laneSlot { return &l.slots[int(seq)&(len(l.slots)-1)] }

func (l *Lane) rcvSlot(seq Seq) *laneRecvSlot { return &l.rslots[int(seq)&(len(l.rslots)-1)] }

func (l *Lane) clock(now time.Duration) error {
	if now < l.now {
		return ErrClock
	}
	return nil
}

func (l *Lane) fail(err error) {
	l.state = MustDisconnect
	l.err = err
}

// State reports whether the lane works or must be disconnected.
func (l *Lane) State() State { return l.state }

// Err returns the error that broke the lane (wrapping ErrMustDisconnect), or nil while
// it is open.
func (l *Lane) Err() error { return l.err }

// CanQueue reports what Queue would answer for a payload of n bytes, without queuing: nil,
// ErrPayloadTooLarge, ErrSoftCap for an ordinary message, or an error wrapping
// ErrMustDisconnect (the hard cap for a critical message, or a broken lane). A host
// that must commit a command together with its packet asks first, then commits, then
// queues.
func (l *Lane) CanQueue(n int, critical bool) error {
	if l.state != Open {
		return l.err
	}
	if n < 0 || n > l.lim.maxPayload {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrPayloadTooLarge, n, l.lim.maxPayload)
	}
	if !critical {
		if l.unacked >= l.lim.softCap || l.unackedBytes+n > l.lim.softBytes {
			return ErrSoftCap
		}
		return nil
	}
	if l.unacked >= l.lim.hardCap || l.unackedBytes+n > l.lim.hardBytes {
		return fmt.Errorf("%w: %w: %d messages and %d bytes queued, caps %d and %d",
			ErrMustDisconnect, ErrHardCap, l.unacked, l.unackedBytes, l.lim.hardCap, l.lim.hardBytes)
	}
	return nil
}

// Queue copies payload into the lane and gives it the next sequence number. It goes out
// at the next Poll that has room for it (window, in-flight cap, datagram budget) and is
// resent every Retransmit until the peer acknowledges it.
//
// An ordinary message past the soft cap is refused with ErrSoftCap; a critical message
// is never refused by the soft cap, and past the hard cap it breaks the lane (state
// MustDisconnect, an error wrapping ErrMustDisconnect and ErrHardCap). A
// payload above the payload cap is refused with ErrPayloadTooLarge. A refused message
// leaves no trace. The lane keeps no reference to payload.
func (l *Lane) Queue(now time.Duration, payload []byte, critical bool) (Seq, error) {
	if err := l.clock(now); err != nil {
		return 0, err
	}
	if err := l.CanQueue(len(payload), critical); err != nil {
		if critical && errors.Is(err, ErrHardCap) && l.state == Open {
			l.now = now
			l.fail(err)
		}
		return 0, err
	}
	l.now = now
	if int(l.next-l.una) == len(l.slots) {
		l.growSlots()
	}
	span := l.storeSnd(payload)
	seq := l.next
	sl := l.sndSlot(seq)
	*sl = laneSlot{span: span, queuedAt: now}
	if critical {
		sl.flags = laneCritical
	}
	l.next++
	l.unacked++
	l.unackedBytes += len(payload)
	return seq, nil
}

// Acked reports whether the peer has acknowledged message seq: it has seq and every message
// before it. seq must be a number Queue returned on this lane; numbers not yet given out
// are not acknowledged.
func (l *Lane) Acked(seq Seq) bool {
	return laneDiff(seq, l.next) < 0 && laneDiff(seq, l.una) < 0
}

// PopAcked returns the oldest acknowledgement report not yet popped: which message the peer
// acknowledged and when (see Acked). Reports come in sequence order, each message once.
func (l *Lane) PopAcked() (Ack, bool) {
	if l.ackLen == 0 {
		return Ack{}, false
	}
	a := l.acks[l.ackHead]
	l.ackHead = (l.ackHead + 1) & (len(l.acks) - 1)
	l.ackLen--
	if l.ackLen == 0 {
		l.trim()
	}
	return a, true
}

// Deliver returns the next message of the peer in sequence order, each exactly once. The
// slice belongs to the lane and stays valid until the next call to Deliver or Receive.
// Call it until it reports false after every Receive: undelivered messages occupy the
// receive window, and a full window makes the lane drop what the peer sends next.
func (l *Lane) Deliver() ([]byte, bool) {
	if l.deliverNext == l.recvNext {
		return nil, false
	}
	rs := l.rcvSlot(l.deliverNext)
	p := l.rcvArena.bytes(rs.span)
	l.rcvArena.free(rs.span)
	*rs = laneRecvSlot{}
	l.deliverNext++
	l.st.delivered++
	if l.deliverNext == l.recvMax {
		l.trim()
	}
	return p, true
}

// NextDeadline returns the time at which Poll has something to do next: an
// acknowledgement owed, a message waiting to go out, a retransmission or the link timeout.
// A time at or before now means "poll now". It reports false when nothing is pending (and
// when the lane must disconnect). Queue and Receive can bring the deadline forward; ask
// again after them.
func (l *Lane) NextDeadline() (time.Duration, bool) {
	if l.state != Open {
		return 0, false
	}
	at := laneNever
	if l.ackOwed {
		at = l.ackOwedAt
	}
	if l.canSendNew() {
		at = min(at, l.sndSlot(l.sndMax).queuedAt)
	}
	if l.una != l.sndMax {
		if l.rtxStale {
			l.rescanRetransmit()
		}
		at = min(at, l.rtxAt, l.sndSlot(l.una).firstSent+l.lim.linkTime)
	}
	return at, at != laneNever
}

// Stats returns the lane's queues and counters.
func (l *Lane) Stats() Stats {
	unsent := int(l.next - l.sndMax)
	return Stats{
		Queued:            l.unacked,
		QueuedBytes:       l.unackedBytes,
		InFlight:          l.unacked - unsent,
		InFlightBytes:     l.inFlightBytes,
		Unsent:            unsent,
		Ready:             int(l.recvNext - l.deliverNext),
		Held:              l.held,
		ReceiveBytes:      l.rcvArena.live,
		BufferBytes:       len(l.sndArena.buf) + len(l.rcvArena.buf),
		Sent:              l.st.sent,
		Retransmits:       l.st.retransmits,
		Acked:             l.st.acked,
		DatagramsSent:     l.st.datagramsSent,
		DatagramsReceived: l.st.datagramsReceived,
		Received:          l.st.received,
		Duplicates:        l.st.duplicates,
		Dropped:           l.st.dropped,
		Delivered:         l.st.delivered,
		AckLogDropped:     l.st.ackLogDropped,
	}
}

// canSendNew reports whether the oldest untransmitted message may go out now: it exists, it
// lies within the window of the peer's cumulative ack, and the in-flight cap has room (one
// message may always be in flight).
func (l *Lane) canSendNew() bool {
	if l.sndMax == l.next || laneDiff(l.sndMax, l.una) >= Window {
		return false
	}
	n := int(l.sndSlot(l.sndMax).span.n)
	return l.inFlightBytes == 0 || l.inFlightBytes+n <= l.lim.inFlightBytes
}

// rescanRetransmit computes the exact earliest retransmission time of the messages in
// flight.
func (l *Lane) rescanRetransmit() {
	at := laneNever
	for seq := l.una; seq != l.sndMax; seq++ {
		sl := l.sndSlot(seq)
		if sl.flags&laneHeld == 0 {
			at = min(at, sl.lastSent+l.lim.retransmit)
		}
	}
	l.rtxAt = at
	l.rtxStale = false
}

// Poll appends to dst one datagram of lane data that is due at now and returns the
// extended slice: retransmissions of messages unacknowledged for Retransmit (oldest first),
// then new messages within the window and the in-flight cap, together with this side's
// acknowledgement state. It returns dst unchanged when nothing is due. At most MTU bytes
// are appended; give dst that much spare capacity and Poll does not allocate. Call it
// until it returns nothing: one call builds one datagram.
//
// When the oldest unacknowledged message has waited for LinkTimeout, Poll breaks the lane
// and returns an error wrapping ErrMustDisconnect and ErrLinkTimeout.
func (l *Lane) Poll(now time.Duration, dst []byte) ([]byte, error) {
	if err := l.clock(now); err != nil {
		return dst, err
	}
	if l.state != Open {
		return dst, l.err
	}
	l.now = now
	if l.una != l.sndMax {
		if first := l.sndSlot(l.una).firstSent; now-first >= l.lim.linkTime {
			l.fail(fmt.Errorf("%w: %w: message %d first sent at %v, now %v",
				ErrMustDisconnect, ErrLinkTimeout, l.una, first, now))
			return dst, l.err
		}
	}
	rtxDue := l.una != l.sndMax && l.rtxAt <= now
	if !rtxDue && !l.canSendNew() && !l.ackOwed {
		return dst, nil
	}

	start := len(dst)
	dst = l.appendAckHeader(dst)
	countAt := len(dst)
	dst = append(dst, 0, 0, 0, 0, 0) // count and base, filled in below
	room := l.lim.mtu - (len(dst) - start)
	count := 0
	var base Seq
	full := false
	put := func(seq Seq, sl *laneSlot) bool {
		n := int(sl.span.n)
		if count == MaxRecords || RecordOverhead+n > room {
			return false
		}
		if count == 0 {
			base = seq
		}
		dst = append(dst, byte(seq-base))
		dst = binary.LittleEndian.AppendUint16(dst, uint16(n))
		dst = append(dst, l.sndArena.bytes(sl.span)...)
		room -= RecordOverhead + n
		count++
		return true
	}

	if rtxDue {
		at := laneNever
		for seq := l.una; seq != l.sndMax; seq++ {
			sl := l.sndSlot(seq)
			if sl.flags&laneHeld != 0 {
				continue
			}
			due := sl.lastSent + l.lim.retransmit
			if due <= now && !full {
				if put(seq, sl) {
					sl.lastSent = now
					due = now + l.lim.retransmit
					l.st.retransmits++
				} else {
					full = true
				}
			}
			at = min(at, due)
		}
		l.rtxAt, l.rtxStale = at, false
	}
	for !full && l.canSendNew() {
		sl := l.sndSlot(l.sndMax)
		if !put(l.sndMax, sl) {
			break
		}
		sl.flags |= laneSent
		sl.firstSent, sl.lastSent = now, now
		l.inFlightBytes += int(sl.span.n)
		l.rtxAt = min(l.rtxAt, now+l.lim.retransmit)
		l.sndMax++
		l.st.sent++
	}

	if count == 0 {
		if !l.ackOwed {
			return dst[:start], nil
		}
		dst = dst[:countAt+1] // count 0, no base
	} else {
		dst[countAt] = byte(count)
		binary.LittleEndian.PutUint32(dst[countAt+1:], uint32(base))
	}
	l.ackOwed = false
	l.st.datagramsSent++
	return dst, nil
}

// appendAckHeader appends the header, the cumulative ack and the selective-ack bitmap.
func (l *Lane) appendAckHeader(dst []byte) []byte {
	dst = append(dst, wire.Version, byte(DatagramID))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(l.recvNext))
	if l.recvMax == l.recvNext {
		return append(dst, 0)
	}
	// recvNext is missing and recvMax-1 is held, so the bitmap ends in a set bit.
	nbits := int(l.recvMax - l.recvNext - 1)
	nbytes := (nbits + 7) / 8
	dst = append(dst, byte(nbytes))
	at := len(dst)
	dst = append(dst, make([]byte, nbytes)...) // no allocation: the compiler appends zeros
	for i := range nbits {
		if l.rcvSlot(l.recvNext + 1 + Seq(i)).held {
			dst[at+i/8] |= 1 << (i % 8)
		}
	}
	return dst
}

// Receive takes one datagram the peer's lane built: its acknowledgements (reported by
// PopAcked and Acked, freeing the acknowledged messages) and its messages (for Deliver).
// A datagram that is not a well-formed lane datagram for this connection is rejected as a
// whole with a decode error and changes nothing. Receive keeps no reference to datagram.
func (l *Lane) Receive(now time.Duration, datagram []byte) error {
	if err := l.clock(now); err != nil {
		return err
	}
	if l.state != Open {
		return l.err
	}
	p, err := l.parse(datagram)
	if err != nil {
		return err
	}
	l.now = now
	l.st.datagramsReceived++
	l.applyAck(now, p.ack, p.sack)
	if p.count == 0 {
		l.trim()
		return nil
	}
	if !l.ackOwed {
		l.ackOwed, l.ackOwedAt = true, now
	}
	recs := p.recs
	for range p.count {
		seq := p.base + Seq(recs[0])
		n := int(binary.LittleEndian.Uint16(recs[1:]))
		l.accept(seq, recs[RecordOverhead:RecordOverhead+n])
		recs = recs[RecordOverhead+n:]
	}
	l.trim()
	return nil
}

// laneParsed is a validated datagram; its slices point into the datagram.
type laneParsed struct {
	ack   Seq
	sack  []byte
	count int
	base  Seq
	recs  []byte
}

// parse validates a datagram against the framing and this lane's state without changing
// anything.
func (l *Lane) parse(d []byte) (laneParsed, error) {
	var p laneParsed
	if len(d) < 1 {
		return p, ErrTruncated
	}
	if d[0] != wire.Version {
		return p, ErrVersion
	}
	if len(d) < 7 {
		return p, ErrTruncated
	}
	if d[1] != byte(DatagramID) {
		return p, ErrMalformed
	}
	p.ack = Seq(binary.LittleEndian.Uint32(d[2:]))
	s := int(d[6])
	if s > MaxSack {
		return p, ErrMalformed
	}
	if len(d) < 7+s+1 {
		return p, ErrTruncated
	}
	p.sack = d[7 : 7+s]
	if d := laneDiff(p.ack, l.sndMax); d > 0 || d == math.MinInt32 || uint64(-int64(d)) > l.st.sent {
		// After the last transmitted message, exactly half the number space away (not
		// comparable), or before the first message this lane ever sent: no honest peer
		// sends any of these.
		return p, ErrAckRange
	}
	if s > 0 {
		last := p.sack[s-1]
		if last == 0 || (s == MaxSack && last&0x80 != 0) {
			return p, ErrMalformed
		}
		hi := (s-1)*8 + bits.Len8(last) - 1
		if laneDiff(p.ack+1+Seq(hi), l.sndMax) >= 0 {
			return p, ErrAckRange
		}
	}
	i := 7 + s
	p.count = int(d[i])
	i++
	if p.count == 0 {
		if i != len(d) {
			return p, ErrTrailing
		}
		return p, nil
	}
	if len(d) < i+4 {
		return p, ErrTruncated
	}
	p.base = Seq(binary.LittleEndian.Uint32(d[i:]))
	i += 4
	p.recs = d[i:]
	prev := -1
	for range p.count {
		if len(d) < i+RecordOverhead {
			return p, ErrTruncated
		}
		off := int(d[i])
		n := int(binary.LittleEndian.Uint16(d[i+1:]))
		if (prev < 0 && off != 0) || (prev >= 0 && off <= prev) {
			return p, ErrMalformed
		}
		prev = off
		if n > MaxPayload {
			return p, ErrPayloadTooLarge
		}
		i += RecordOverhead
		if len(d) < i+n {
			return p, ErrTruncated
		}
		i += n
		if laneDiff(p.base+Seq(off), l.recvNext) >= Window {
			return p, ErrSeqRange
		}
	}
	if i != len(d) {
		return p, ErrTrailing
	}
	return p, nil
}

// applyAck takes a validated acknowledgement: every message before ack is acknowledged
// (reported and released), and the messages the bitmap names are held by the peer
// (released: no longer resent or stored).
func (l *Lane) applyAck(now time.Duration, ack Seq, sack []byte) {
	for ; laneDiff(l.una, ack) < 0; l.una++ {
		sl := l.sndSlot(l.una)
		l.release(sl)
		l.st.acked++
		l.logAck(Ack{Seq: l.una, At: now, Sent: sl.firstSent, Critical: sl.flags&laneCritical != 0})
	}
	for i, b := range sack {
		for b != 0 {
			j := bits.TrailingZeros8(b)
			b &= b - 1
			if seq := ack + 1 + Seq(i*8+j); laneDiff(seq, l.una) >= 0 {
				l.release(l.sndSlot(seq))
			}
		}
	}
	if l.una == l.sndMax {
		l.rtxAt, l.rtxStale = laneNever, false
	}
}

// release marks a transmitted message as held by the peer: it is no longer resent, no
// longer counts as queued or in flight, and its payload is freed.
func (l *Lane) release(sl *laneSlot) {
	if sl.flags&laneHeld != 0 {
		return
	}
	sl.flags |= laneHeld
	n := int(sl.span.n)
	l.unacked--
	l.unackedBytes -= n
	l.inFlightBytes -= n
	l.sndArena.free(sl.span)
	l.rtxStale = true
}

// logAck appends a report for PopAcked, dropping the oldest when AckLog are waiting.
func (l *Lane) logAck(a Ack) {
	if l.ackLen == len(l.acks) {
		if len(l.acks) < AckLog {
			grown := make([]Ack, max(2*len(l.acks), minAckLog))
			for i := range l.ackLen {
				grown[i] = l.acks[(l.ackHead+i)&(len(l.acks)-1)]
			}
			l.acks, l.ackHead = grown, 0
		} else {
			l.ackHead = (l.ackHead + 1) & (len(l.acks) - 1)
			l.ackLen--
			l.st.ackLogDropped++
		}
	}
	l.acks[(l.ackHead+l.ackLen)&(len(l.acks)-1)] = a
	l.ackLen++
}

// accept takes one validated message record of the peer.
func (l *Lane) accept(seq Seq, payload []byte) {
	if laneDiff(seq, l.recvNext) < 0 {
		l.st.duplicates++
		return
	}
	if laneDiff(seq, l.deliverNext) >= Window {
		l.st.dropped++ // the host has not drained Deliver: no room in the window
		return
	}
	if d := int(laneDiff(seq, l.deliverNext)); d >= len(l.rslots) {
		l.growRecv(d + 1)
	}
	rs := l.rcvSlot(seq)
	if rs.held {
		l.st.duplicates++
		return
	}
	limit := l.lim.recvBytes
	if seq != l.recvNext {
		limit -= MaxPayload // kept for the message that fills the gap
	}
	if l.rcvArena.live+len(payload) > limit {
		l.st.dropped++
		return
	}
	span := l.storeRcv(payload)
	rs.span, rs.held = span, true
	l.st.received++
	if seq != l.recvNext {
		l.held++
		if laneDiff(seq+1, l.recvMax) > 0 {
			l.recvMax = seq + 1
		}
		return
	}
	l.recvNext++
	for laneDiff(l.recvNext, l.recvMax) < 0 && l.rcvSlot(l.recvNext).held {
		l.recvNext++
		l.held--
	}
	if laneDiff(l.recvMax, l.recvNext) < 0 {
		l.recvMax = l.recvNext
	}
}

// growSlots doubles the sender's ring. The ring never needs more than the hard cap plus the
// window: messages in [una, next) are either queued (at most the hard cap) or held by the
// peer, which only happens within the window.
func (l *Lane) growSlots() {
	n := max(2*len(l.slots), minSlots)
	grown := make([]laneSlot, n)
	for seq := l.una; seq != l.next; seq++ {
		grown[int(seq)&(n-1)] = *l.sndSlot(seq)
	}
	l.slots = grown
}

// growRecv grows the receiver's ring to the smallest power of two that holds n messages
// from deliverNext (at least minRecvSlots; n is at most Window), moving the messages held
// in [deliverNext, recvMax).
func (l *Lane) growRecv(n int) {
	size := max(len(l.rslots), minRecvSlots)
	for size < n {
		size *= 2
	}
	grown := make([]laneRecvSlot, size)
	for seq := l.deliverNext; seq != l.recvMax; seq++ {
		grown[int(seq)&(size-1)] = *l.rcvSlot(seq)
	}
	l.rslots = grown
}

// The first sizes of the lane's storage (it grows by doubling from them), and the sizes
// it keeps while idle: a lane whose traffic fits the kept sizes never allocates again,
// and trim releases only what a burst grew past them.
const (
	minSlots      = 8
	minRecvSlots  = 8
	minAckLog     = 8
	keepSlots     = 64
	keepRecvSlots = 64
	keepAckLog    = 64
	keepArena     = 2048
)

// trim releases what a burst grew past the kept sizes once that side falls idle: the
// sender's ring and arena when every message was acknowledged, the receiver's ring and
// arena when every received message was delivered, the acknowledgement log when it was
// drained, the compaction scratch when both sides are idle. A burst (a mass respawn, the
// shows of a crowd) grows them to its high-water mark, and the idle lane then costs what
// a quiet one does; the caps bound the growth, not the idle size.
func (l *Lane) trim() {
	sndIdle := l.una == l.next
	rcvIdle := l.deliverNext == l.recvMax
	if sndIdle {
		if len(l.slots) > keepSlots {
			l.slots = nil
		}
		if len(l.sndArena.buf) > keepArena {
			l.sndArena.buf, l.sndArena.used = nil, 0
		}
	}
	if rcvIdle {
		if len(l.rslots) > keepRecvSlots {
			l.rslots = nil
		}
		if len(l.rcvArena.buf) > keepArena {
			l.rcvArena.buf, l.rcvArena.used = nil, 0
		}
	}
	if l.ackLen == 0 && len(l.acks) > keepAckLog {
		l.acks, l.ackHead = nil, 0
	}
	if sndIdle && rcvIdle && cap(l.spans) > max(len(l.slots), len(l.rslots)) {
		l.spans = nil
	}
}

// spanScratch returns the empty scratch list for arena compaction, large enough for every
// live message of either direction.
func (l *Lane) spanScratch() []*laneSpan {
	need := max(len(l.slots), len(l.rslots))
	if cap(l.spans) < need {
		l.spans = make([]*laneSpan, 0, need)
	}
	return l.spans[:0]
}

// storeSnd copies an outgoing payload into the sender's arena. CanQueue has checked that it
// fits under the byte cap.
func (l *Lane) storeSnd(p []byte) laneSpan {
	if l.sndArena.needsRoom(len(p)) {
		live := l.spanScratch()
		for seq := l.una; seq != l.next; seq++ {
			if sl := l.sndSlot(seq); sl.flags&laneHeld == 0 {
				live = append(live, &sl.span)
			}
		}
		l.sndArena.makeRoom(len(p), live)
		clear(live)
	}
	return l.sndArena.put(p)
}

// storeRcv copies an incoming payload into the receiver's arena. accept has checked that it
// fits under the byte cap.
func (l *Lane) storeRcv(p []byte) laneSpan {
	if l.rcvArena.needsRoom(len(p)) {
		live := l.spanScratch()
		for seq := l.deliverNext; seq != l.recvMax; seq++ {
			if rs := l.rcvSlot(seq); rs.held {
				live = append(live, &rs.span)
			}
		}
		l.rcvArena.makeRoom(len(p), live)
		clear(live)
	}
	return l.rcvArena.put(p)
}

// laneSpan is a payload's place in an arena.
type laneSpan struct{ off, n uint32 }

// laneArena stores payloads back to back. Space is reclaimed by compaction (live payloads
// slide to the front, in place) or growth (doubling into a new buffer, up to limit); both
// are rare and amortized, and an arena that becomes empty starts again at offset 0.
type laneArena struct {
	buf   []byte
	used  int // bytes up to the end of the last stored payload
	live  int // bytes of payloads not yet freed
	limit int // the arena never grows past limit, and live never exceeds it
}

// laneArenaMin is an arena's first size.
const laneArenaMin = 256

func (a *laneArena) bytes(s laneSpan) []byte { return a.buf[s.off : s.off+s.n : s.off+s.n] }

func (a *laneArena) needsRoom(n int) bool { return a.used+n > len(a.buf) }

func (a *laneArena) put(p []byte) laneSpan {
	off := a.used
	copy(a.buf[off:], p)
	a.used += len(p)
	a.live += len(p)
	return laneSpan{uint32(off), uint32(len(p))}
}

func (a *laneArena) free(s laneSpan) {
	a.live -= int(s.n)
	if a.live == 0 {
		a.used = 0
	}
}

// makeRoom makes n contiguous bytes available at the end; live lists every live payload.
// The caller guarantees live+n <= limit.
func (a *laneArena) makeRoom(n int, live []*laneSpan) {
	need := a.live + n
	size := len(a.buf)
	if size < a.limit && 2*need > size {
		grown := max(size, laneArenaMin)
		for grown < 2*need {
			grown *= 2
		}
		buf := make([]byte, min(grown, a.limit))
		a.relocate(buf, live)
		a.buf = buf
		return
	}
	a.relocate(a.buf, live)
}

// relocate copies the live payloads to the front of dst in offset order; dst may be the
// arena's own buffer, since a payload only ever moves toward the front.
func (a *laneArena) relocate(dst []byte, live []*laneSpan) {
	slices.SortFunc(live, laneSpanCmp)
	pos := 0
	for _, s := range live {
		copy(dst[pos:], a.buf[s.off:s.off+s.n])
		s.off = uint32(pos)
		pos += int(s.n)
	}
	a.used = pos
}

func laneSpanCmp(a, b *laneSpan) int { return int(a.off) - int(b.off) }
