// Package lane is the ordered reliable stream of one connection: the reliable lane the
// domain packages' rules rely on for every message that must arrive, arrive once and arrive in
// order. The messages it carries are package wire's encodings, as opaque payloads.
//
// A Lane is one end of the ordered reliable stream of one connection. Deaths, respawns,
// the server's health, armor and weapon commands, damage multiplier and weapon property
// tables, the victim's lethal damage report and its DeathReport, chat: everything the
// rules say must arrive, arrive once and arrive in order travels on it
// ([one-ordered-stream]). Each side of a connection keeps one Lane; the
// lane carries opaque byte payloads (the encoded messages of package wire) and knows
// nothing of their meaning.
//
// The Lane is a pure state machine. It never reads a clock, starts a goroutine or touches
// a socket: every input is a method call that takes the host's monotonic time as
// now time.Duration, and every output is a returned value. The same calls in the same order
// give the same bytes, so a match replays bit for bit. A Lane is not safe for concurrent
// use; the host calls it from the goroutine that owns the connection's world.
//
// # Rules
//
// The lane's rules, each under a short stable name that code and tests cite:
//
//   - [one-ordered-stream] One ordered reliable stream per connection: every message on
//     it arrives, once, in the order queued.
//   - [lane-soft-cap] At SoftCap (512) queued messages an ordinary message is refused.
//   - [lane-hard-cap] A critical message (wire's [critical-messages]) is never refused by
//     the soft cap and never dropped; at HardCap the connection is broken instead of
//     losing it.
//   - [lane-retransmit] A sent message still unacknowledged Retransmit (250 ms) after its
//     last transmission is sent again.
//   - [lane-link-timeout] A critical event waits for delivery until the link breaks: when
//     the oldest unacknowledged message was first sent LinkTimeout (15 s) ago, the lane
//     gives the link up.
//   - [acks-are-reported] The sender learns when each message was acknowledged, in
//     order, so the rules that wait for the peer to have a message can count from it.
//
// # Wiring a lane into a host
//
//	l, err := lane.New(lane.Config{}) // zero fields: the defaults below
//
//	// A message must be sent reliably (wire.ID.Delivery says which); wire.Critical says whether
//	// the lane may ever refuse it:
//	buf, _ = msg.Append(buf[:0])
//	seq, err := l.Queue(now, buf, wire.Critical(msg))
//	// ErrSoftCap: the ordinary message was refused and nothing was queued (so a
//	// command that rides on it must not be committed either). An error wrapping
//	// ErrMustDisconnect: send Disconnect and drop the connection.
//
//	// Whenever NextDeadline has come (or after a Queue or a Receive), fill datagrams:
//	for {
//		d, err := l.Poll(now, buf[:0])
//		if err != nil { /* must disconnect */ }
//		if len(d) == 0 { break }
//		sendUDP(d)
//	}
//
//	// A datagram of the lane arrived from the peer:
//	if err := l.Receive(now, datagram); err != nil { /* hostile or corrupt: dropped */ }
//	for p, ok := l.Deliver(); ok; p, ok = l.Deliver() {
//		handle(p) // in the sender's order, each message exactly once
//	}
//	for a, ok := l.PopAcked(); ok; a, ok = l.PopAcked() {
//		// the peer acknowledged message a.Seq at a.At ("the victim acknowledged X")
//	}
//
// The host schedules its next call with NextDeadline. A lane datagram starts with the
// same two-byte header as every message of package wire: the protocol version
// (wire.Version) and an id, DatagramID (0xF0, the first id of the range reserved for the
// transport). So one socket carries both, and a read loop routes by wire.Peek:
// DatagramID goes to Lane.Receive, any other id to a wire.Decoder (a wire.IDBundle is
// opened first and each of its elements routed the same way). Receive takes exactly the
// bytes Poll produced.
//
// # Sequence numbers
//
// Every queued message gets the next Seq, a 32-bit counter that starts at 0 on both
// sides of a new connection and wraps from 2^32-1 to 0. Sequence numbers are compared with
// serial arithmetic (the signed 32-bit difference), so the wrap is harmless. They cannot
// alias: at most Window (256) messages past the peer's cumulative acknowledgement are
// ever transmitted, and at most the hard cap plus that window are held by the sender, while
// two numbers become ambiguous only 2^31 apart. A datagram would have to stay in the
// network while more than two billion later messages pass it before an old number could be
// mistaken for a new one. A 16-bit counter would give the same guarantee for the window
// but only 32768 messages of slack for a delayed datagram; the extra two bytes are paid
// once per datagram (the base and the acknowledgement), not per message, because each
// message carries only a one-byte offset from the datagram's base.
//
// # Queue caps and critical messages
//
// A message is "queued" from Queue until the peer has it (acknowledged, or held beyond a
// gap), whether it was sent yet or not.
//
//   - Soft cap (SoftCap = 512 messages, [lane-soft-cap], and SoftCapBytes):
//     an ordinary message that would go past it is refused with ErrSoftCap and leaves no
//     trace.
//   - Critical messages (those Critical reports: PlayerWasted and PlayerSpawned, the
//     server's SetHealth(0), the victim's DeathReport; [lane-hard-cap]) are never
//     refused by the soft cap and never dropped. Beyond the hard cap
//     (HardCap = 1024 messages, HardCapBytes) the connection is broken instead: the
//     lane enters MustDisconnect, Queue returns an error wrapping ErrMustDisconnect
//     and ErrHardCap, and the host sends Disconnect. Only a critical message can reach
//     the hard cap, because ordinary ones stop at the soft cap.
//   - Link timeout (LinkTimeout = 15 s, [lane-link-timeout]):
//     when the oldest unacknowledged message was first sent that long ago, Poll puts the
//     lane into MustDisconnect with ErrLinkTimeout. A peer that stops acknowledging
//     is dropped after 15 s, long before its queue could reach the hard cap.
//   - Payloads are at most MaxPayload (1024) bytes (Config.MaxPayload may lower
//     it); a larger message is refused with ErrPayloadTooLarge, critical or not. The
//     lane does not fragment: a message must fit one datagram.
//
// # Retransmission, acknowledgement and bandwidth
//
//   - Every datagram carries the lane's acknowledgement state: the cumulative ack (the next
//     sequence number it expects; everything before it was received) and a selective-ack
//     bitmap of the messages held beyond a gap. So one lost message never makes the sender
//     resend the messages after it, and a message the receiver holds is never resent.
//   - A sent message that is still unacknowledged Retransmit (250 ms) after its last
//     transmission is sent again at the next Poll, and again every 250 ms until it is
//     acknowledged. Each message has its own timer, so after a burst of losses every lost
//     message goes out again within 250 ms of its loss; recovery does not proceed one
//     message per round trip. There is no earlier "fast" retransmission: with 30 ms of
//     jitter, reordering is normal and would cause spurious resends.
//   - Retransmission is not backed off: the stream's latency matters more than its bytes,
//     and the bytes are bounded anyway. At a round-trip time above 250 ms each message goes
//     out about RTT/250 ms + 1 times before its acknowledgement can arrive (twice at 400 ms).
//   - Bandwidth bound: new messages are transmitted only within Window (256) messages
//     of the peer's cumulative ack and while the bytes in flight stay within
//     InFlightBytes (32 KiB). Retransmissions are limited to the messages in flight,
//     each at most once per 250 ms. However bad the link, a lane sends at most about
//     InFlightBytes of retransmissions per 250 ms (128 KiB/s), and new messages only
//     as fast as acknowledgements free the in-flight cap (32 KiB per round trip).
//   - Acknowledgements ride on every datagram the lane sends. A datagram that carried
//     messages (new or duplicate) obliges the receiver to acknowledge at its next Poll, so
//     a lost acknowledgement is repaired by the retransmission it causes. Datagrams that
//     only carry acknowledgements are never acknowledged, so two lanes never ping-pong.
//   - The sender reports every acknowledged message with the time the acknowledgement
//     arrived (PopAcked, and Acked for a single sequence number; [acks-are-reported]). This is
//     what the health ledger builds on: a respawn only after the victim acknowledged the critical SetHealth(0), a
//     health command settled 2 s after its acknowledgement, a multiplier table in force 2 s
//     after its acknowledgement. "Acknowledged" means the cumulative ack passed the
//     message: the peer has it and every message before it, so its host has it in order
//     and applies it at once. A message the peer only holds beyond a gap (selectively
//     acknowledged) is no longer resent and no longer counts as queued, but it is not
//     reported yet: the peer cannot apply it before the gap is filled, and a settling
//     timer started on it would run while the peer still applies the old state.
//
// # Receiving
//
// Messages are delivered in sequence order, each exactly once. A message that arrives
// ahead of a gap is held in a reorder buffer of at most Window messages counted from
// the oldest message not yet delivered to the host, and ReceiveBytes (64 KiB) of
// payload; a message past either limit is dropped unacknowledged and the sender resends it
// later. MaxPayload bytes of the buffer are kept for the message that fills the gap, so
// held messages can never starve it. Duplicates (already delivered, or already held) are
// dropped and acknowledged again.
//
// # Framing
//
// A lane datagram is built by Poll and read by Receive. Integers are little-endian.
//
//	offset   size  field     meaning                                         valid range
//	0        1     version   protocol version, as in every message           Version (1)
//	1        1     id        lane datagram                                   DatagramID (0xF0)
//	2        4     ack       cumulative ack: the next sequence number the    not after the last
//	                         writer expects; every message before it was     message the reader
//	                         received                                        has transmitted
//	6        1     sack_len  bytes of selective-ack bitmap that follow       0..32; if > 0 the
//	                                                                         last byte is not 0
//	7        S     sack      bit i (byte i/8, bit i%8, least significant     bit 255 clear; each
//	                         first) set: message ack+1+i is held             set bit names a
//	                                                                         transmitted message
//	7+S      1     count     number of message records that follow           0..255
//	8+S      4     base      sequence number of the first record             present only if
//	                                                                         count > 0
//	then count records, each:
//	+0       1     offset    record's sequence number minus base             0 for the first,
//	                                                                         then increasing
//	+1       2     length    payload length in bytes                         0..1024
//	+3       L     payload   the message, opaque to the lane
//
// The datagram ends exactly after the last record. A record's sequence number must lie
// before the reader's cumulative ack plus Window (older numbers are duplicates and
// are fine). Sizes: a datagram with only an acknowledgement is 8 bytes plus its bitmap
// (at most 32); each message costs its payload plus 3 bytes, plus 4 bytes of base per
// datagram; the worst-case overhead of a datagram with one record is MaxOverhead (47)
// bytes, so MTU (1200) leaves room for any payload. One message of 20 bytes travels
// in a datagram of 35 bytes; 30 such messages fit one datagram of 702 bytes.
//
// Receive checks the whole datagram before it changes anything. Truncated fields or
// payloads (ErrTruncated), bytes after the last record (ErrTrailing), another
// protocol version (ErrVersion), an id other than DatagramID, a non-canonical
// bitmap or record order (ErrMalformed), a
// payload above MaxPayload (ErrPayloadTooLarge), an acknowledgement of a message
// never transmitted (ErrAckRange) and a sequence number beyond the receive window
// (ErrSeqRange) reject the datagram as a whole: no acknowledgement, no message, no
// counter is taken from it. Decoding never allocates and never panics.
//
// # Memory
//
// All storage is owned by the lane and reused: payloads are copied into two byte arenas
// (one per direction) that grow by doubling up to their caps and are compacted in place,
// and the per-message records live in rings. Nothing is sized for the worst case up front:
// a new lane holds no storage, and each ring and arena starts small and doubles on demand.
// Growth happens only while the lane reaches a new high-water mark; in the steady state
// Queue, Poll, Receive, Deliver and PopAcked do not allocate. When a side falls idle
// (every message acknowledged, or every received message delivered, and the
// acknowledgement reports popped), the lane releases what a burst grew past the modest
// sizes it keeps (64 records, 2 KiB of payload a direction), so a connection that once took
// a burst (a mass respawn, the shows of a crowd) costs what a quiet one does afterwards.
// The caps, not the memory at creation, are the bound: whatever the peer sends, a lane
// holds at most ReceiveBytes of its payloads and Window records for it; what the local
// host queues is bounded by the hard caps.
//
// # What the lane leaves to the host
//
//   - Telling a new connection from an old one: both lanes start at sequence 0, so datagrams
//     of a previous connection from the same address must be filtered by the host's
//     connection handshake.
//   - Sending Disconnect when the lane must disconnect, and deciding what to do with a
//     peer whose datagrams keep failing Receive (the lane only reports the error).
//   - Round-trip time: the host's ping/pong measures it; the lane's timers do not adapt.
package lane
