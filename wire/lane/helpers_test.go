package lane

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// This file holds the lane's test machinery: an invariant checker that looks inside a
// Lane, a fingerprint of its whole state (to prove a rejected input left no trace), a
// decoder of the framing written independently of the lane's own, and a deterministic
// lossy network that connects two lanes.

// laneCheck verifies every internal invariant of a lane.
func laneCheck(l *Lane) error {
	// Sender ranges.
	if laneDiff(l.sndMax, l.una) < 0 || laneDiff(l.next, l.sndMax) < 0 {
		return fmt.Errorf("sender order: una %d sndMax %d next %d", l.una, l.sndMax, l.next)
	}
	if d := laneDiff(l.sndMax, l.una); d > Window {
		return fmt.Errorf("transmitted %d past the peer's ack, window %d", d, Window)
	}
	if int(l.next-l.una) > len(l.slots) {
		return fmt.Errorf("ring %d shorter than range %d", len(l.slots), l.next-l.una)
	}
	if maxRing := 1 << bits.Len(uint(l.lim.hardCap+Window-1)); len(l.slots) > maxRing {
		return fmt.Errorf("ring %d above %d", len(l.slots), maxRing)
	}
	unacked, unackedBytes, inflight := 0, 0, 0
	spans := make([]laneSpan, 0, max(l.unacked, Window))
	exactRtx := laneNever
	for seq := l.una; seq != l.next; seq++ {
		sl := l.sndSlot(seq)
		sent := laneDiff(seq, l.sndMax) < 0
		if sent != (sl.flags&laneSent != 0) {
			return fmt.Errorf("message %d sent flag %v, range says %v", seq, !sent, sent)
		}
		if !sent && sl.flags&laneHeld != 0 {
			return fmt.Errorf("message %d held by the peer before it was sent", seq)
		}
		if sl.flags&laneHeld != 0 {
			continue
		}
		unacked++
		unackedBytes += int(sl.span.n)
		spans = append(spans, sl.span)
		if sent {
			inflight += int(sl.span.n)
			exactRtx = min(exactRtx, sl.lastSent+l.lim.retransmit)
			if sl.lastSent < sl.firstSent || sl.firstSent < sl.queuedAt {
				return fmt.Errorf("message %d times queued %v first %v last %v", seq, sl.queuedAt, sl.firstSent, sl.lastSent)
			}
		}
	}
	if unacked != l.unacked || unackedBytes != l.unackedBytes || inflight != l.inFlightBytes {
		return fmt.Errorf("sender counts %d/%d/%d, recount %d/%d/%d",
			l.unacked, l.unackedBytes, l.inFlightBytes, unacked, unackedBytes, inflight)
	}
	if l.unacked > l.lim.hardCap || l.unackedBytes > l.lim.hardBytes {
		return fmt.Errorf("sender above its hard caps: %d messages, %d bytes", l.unacked, l.unackedBytes)
	}
	if l.una != l.sndMax {
		if l.rtxStale && l.rtxAt > exactRtx || !l.rtxStale && l.rtxAt != exactRtx {
			return fmt.Errorf("retransmit deadline %v (stale %v), exact %v", l.rtxAt, l.rtxStale, exactRtx)
		}
	} else if l.rtxAt != laneNever && !l.rtxStale {
		return fmt.Errorf("retransmit deadline %v with nothing in flight", l.rtxAt)
	}
	// The sender's payloads lie in the arena in sequence order.
	end := uint32(0)
	for _, sp := range spans {
		if sp.n > 0 && sp.off < end {
			return fmt.Errorf("sender arena out of sequence order at offset %d", sp.off)
		}
		end = max(end, sp.off+sp.n)
	}
	if err := laneCheckArena(&l.sndArena, spans, "sender"); err != nil {
		return err
	}

	// Receiver ranges.
	if laneDiff(l.recvNext, l.deliverNext) < 0 || laneDiff(l.recvMax, l.recvNext) < 0 ||
		laneDiff(l.recvMax, l.deliverNext) > Window {
		return fmt.Errorf("receiver order: deliver %d recv %d max %d", l.deliverNext, l.recvNext, l.recvMax)
	}
	if n := len(l.rslots); n > Window || n&(n-1) != 0 || int(l.recvMax-l.deliverNext) > n {
		return fmt.Errorf("receive ring %d for range %d (window %d)", n, l.recvMax-l.deliverNext, Window)
	}
	held := 0
	spans = spans[:0]
	for i := range len(l.rslots) {
		seq := l.deliverNext + Seq(i)
		rs := l.rcvSlot(seq)
		switch {
		case laneDiff(seq, l.recvNext) < 0:
			if !rs.held {
				return fmt.Errorf("ready message %d not held", seq)
			}
		case seq == l.recvNext:
			if rs.held {
				return fmt.Errorf("gap %d is held", seq)
			}
		case laneDiff(seq, l.recvMax) < 0:
			if rs.held {
				held++
			}
		default:
			if rs.held {
				return fmt.Errorf("message %d held beyond recvMax %d", seq, l.recvMax)
			}
		}
		if rs.held {
			spans = append(spans, rs.span)
		}
	}
	if held != l.held {
		return fmt.Errorf("held %d, recount %d", l.held, held)
	}
	if l.recvMax != l.recvNext && !l.rcvSlot(l.recvMax-1).held {
		return fmt.Errorf("recvMax-1 = %d not held", l.recvMax-1)
	}
	if err := laneCheckArena(&l.rcvArena, spans, "receiver"); err != nil {
		return err
	}

	// Acknowledgement log.
	if l.ackLen > len(l.acks) || len(l.acks) > AckLog {
		return fmt.Errorf("ack log %d of %d, cap %d", l.ackLen, len(l.acks), AckLog)
	}
	if l.state == Open && l.err != nil || l.state != Open && !errors.Is(l.err, ErrMustDisconnect) {
		return fmt.Errorf("state %v with error %v", l.state, l.err)
	}
	return nil
}

// laneCheckArena checks that spans (sorted in place) account for the arena's live bytes,
// lie within its used part and do not overlap.
func laneCheckArena(a *laneArena, spans []laneSpan, side string) error {
	live := 0
	for _, s := range spans {
		live += int(s.n)
	}
	if live != a.live {
		return fmt.Errorf("%s arena live %d, spans sum %d", side, a.live, live)
	}
	if a.used > len(a.buf) || len(a.buf) > a.limit || a.live > a.limit {
		return fmt.Errorf("%s arena used %d len %d live %d limit %d", side, a.used, len(a.buf), a.live, a.limit)
	}
	slices.SortFunc(spans, func(a, b laneSpan) int { return int(a.off) - int(b.off) })
	end := uint32(0)
	for _, s := range spans {
		if s.n == 0 { // an empty payload occupies nothing; its offset only has to be in range
			if int(s.off) > len(a.buf) {
				return fmt.Errorf("%s arena empty span at %d past the buffer %d", side, s.off, len(a.buf))
			}
			continue
		}
		if s.off < end || int(s.off+s.n) > a.used {
			return fmt.Errorf("%s arena span %+v overlaps or passes used %d", side, s, a.used)
		}
		end = max(end, s.off+s.n)
	}
	return nil
}

// laneFingerprint hashes everything observable about a lane's state: counters, ranges,
// slots, stored payloads and the acknowledgement log.
func laneFingerprint(l *Lane) uint64 {
	b := make([]byte, 0, 4096)
	u := func(vs ...uint64) {
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, v)
		}
	}
	flag := func(v bool) uint64 {
		if v {
			return 1
		}
		return 0
	}
	u(uint64(l.state), flag(l.err != nil), uint64(l.now), uint64(l.una), uint64(l.sndMax), uint64(l.next),
		uint64(l.unacked), uint64(l.unackedBytes), uint64(l.inFlightBytes),
		uint64(l.rtxAt), flag(l.rtxStale), uint64(l.deliverNext), uint64(l.recvNext), uint64(l.recvMax),
		uint64(l.held), flag(l.ackOwed), uint64(l.ackOwedAt), uint64(l.ackHead), uint64(l.ackLen),
		uint64(l.sndArena.used), uint64(l.sndArena.live), uint64(len(l.sndArena.buf)),
		uint64(l.rcvArena.used), uint64(l.rcvArena.live), uint64(len(l.rcvArena.buf)),
		l.st.sent, l.st.retransmits, l.st.acked, l.st.datagramsSent, l.st.datagramsReceived,
		l.st.received, l.st.duplicates, l.st.dropped, l.st.delivered, l.st.ackLogDropped)
	for seq := l.una; seq != l.next; seq++ {
		sl := l.sndSlot(seq)
		u(uint64(sl.span.off), uint64(sl.span.n), uint64(sl.queuedAt), uint64(sl.firstSent),
			uint64(sl.lastSent), uint64(sl.flags))
		if sl.flags&laneHeld == 0 {
			b = append(b, l.sndArena.bytes(sl.span)...)
		}
	}
	for i := range l.rslots {
		rs := &l.rslots[i]
		u(uint64(rs.span.off), uint64(rs.span.n), flag(rs.held))
		if rs.held {
			b = append(b, l.rcvArena.bytes(rs.span)...)
		}
	}
	for i := range l.ackLen {
		a := l.acks[(l.ackHead+i)&(len(l.acks)-1)]
		u(uint64(a.Seq), uint64(a.At), uint64(a.Sent), flag(a.Critical))
	}
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

// laneTestRecord is one message record of a decoded datagram.
type laneTestRecord struct {
	seq     Seq
	payload []byte
}

// laneTestDatagram is a datagram decoded by laneDecode.
type laneTestDatagram struct {
	ack     Seq
	sacked  []Seq
	records []laneTestRecord
}

// laneDecode reads a datagram by the framing table, independently of the lane's parser. It
// checks only the structure, not the ranges that depend on a lane's state.
func laneDecode(d []byte) (laneTestDatagram, error) {
	var g laneTestDatagram
	r := bytes.NewReader(d)
	var hdr struct {
		Version uint8
		ID      uint8
		Ack     uint32
		SackLen uint8
	}
	if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
		return g, fmt.Errorf("header: %w", err)
	}
	if hdr.Version != wire.Version || hdr.ID != 0xF0 || hdr.SackLen > MaxSack {
		return g, fmt.Errorf("version %d id %#x sack length %d", hdr.Version, hdr.ID, hdr.SackLen)
	}
	g.ack = Seq(hdr.Ack)
	sack := make([]byte, hdr.SackLen)
	if _, err := r.Read(sack); err != nil && hdr.SackLen > 0 {
		return g, err
	}
	if hdr.SackLen > 0 && sack[hdr.SackLen-1] == 0 {
		return g, fmt.Errorf("sack ends in a zero byte")
	}
	for i := range int(hdr.SackLen) * 8 {
		if sack[i/8]&(1<<(i%8)) != 0 {
			g.sacked = append(g.sacked, g.ack+1+Seq(i))
		}
	}
	count, err := r.ReadByte()
	if err != nil {
		return g, fmt.Errorf("count: %w", err)
	}
	if count > 0 {
		var base uint32
		if err := binary.Read(r, binary.LittleEndian, &base); err != nil {
			return g, fmt.Errorf("base: %w", err)
		}
		prev := -1
		for range count {
			var rec struct {
				Off uint8
				Len uint16
			}
			if err := binary.Read(r, binary.LittleEndian, &rec); err != nil {
				return g, fmt.Errorf("record: %w", err)
			}
			if int(rec.Off) <= prev || prev < 0 && rec.Off != 0 || rec.Len > MaxPayload {
				return g, fmt.Errorf("record offset %d after %d, length %d", rec.Off, prev, rec.Len)
			}
			prev = int(rec.Off)
			p := make([]byte, rec.Len)
			if n, _ := r.Read(p); n != int(rec.Len) && rec.Len > 0 {
				return g, fmt.Errorf("payload truncated")
			}
			g.records = append(g.records, laneTestRecord{Seq(base) + Seq(rec.Off), p})
		}
	}
	if r.Len() != 0 {
		return g, fmt.Errorf("%d trailing bytes", r.Len())
	}
	return g, nil
}

// laneEncode builds a datagram from parts (for hostile and hand-made inputs).
func laneEncode(ack Seq, sack []byte, base Seq, recs ...[]byte) []byte {
	d := []byte{wire.Version, byte(DatagramID)}
	d = binary.LittleEndian.AppendUint32(d, uint32(ack))
	d = append(d, byte(len(sack)))
	d = append(d, sack...)
	d = append(d, byte(len(recs)))
	if len(recs) > 0 {
		d = binary.LittleEndian.AppendUint32(d, uint32(base))
		for i, p := range recs {
			d = append(d, byte(i))
			d = binary.LittleEndian.AppendUint16(d, uint16(len(p)))
			d = append(d, p...)
		}
	}
	return d
}

// newTestLane returns a lane with cfg or fails the test.
func newTestLane(t testing.TB, cfg Config) *Lane {
	t.Helper()
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// laneStartAt moves a fresh lane's sequence numbers on both directions to seq, as if
// seq messages had passed each way (for the wrap-around tests).
func laneStartAt(l *Lane, seq Seq) {
	l.una, l.sndMax, l.next = seq, seq, seq
	l.deliverNext, l.recvNext, l.recvMax = seq, seq, seq
}

// laneMustPoll polls once and fails the test on an error or an invalid datagram.
func laneMustPoll(t testing.TB, l *Lane, now time.Duration) []byte {
	t.Helper()
	d, err := l.Poll(now, nil)
	if err != nil {
		t.Fatalf("poll at %v: %v", now, err)
	}
	if len(d) > 0 {
		if _, err := laneDecode(d); err != nil {
			t.Fatalf("poll at %v built a bad datagram: %v", now, err)
		}
	}
	return d
}

// laneDrain delivers every ready message and returns copies.
func laneDrain(l *Lane) [][]byte {
	var out [][]byte
	for p, ok := l.Deliver(); ok; p, ok = l.Deliver() {
		out = append(out, slices.Clone(p))
	}
	return out
}

// laneSeqsOf lists the sequence numbers of the records of a datagram.
func laneSeqsOf(t testing.TB, d []byte) []Seq {
	t.Helper()
	g, err := laneDecode(d)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []Seq
	for _, r := range g.records {
		seqs = append(seqs, r.seq)
	}
	return seqs
}

// --- The deterministic lossy network ---

// laneLink is one direction of the test network.
type laneLink struct {
	oneWay, jitter time.Duration
	loss, dup      float64
	// Gilbert-Elliott burst loss: in the bad state every datagram is lost.
	enterBad, leaveBad float64
	bad                bool
	// A blackout loses every datagram sent in [from, to).
	blackFrom, blackTo time.Duration
}

// laneInFlight is a datagram on its way.
type laneInFlight struct {
	at   time.Duration
	id   uint64
	to   int
	data []byte
}

// laneNet carries datagrams between lane 0 and lane 1.
type laneNet struct {
	rng   *rand.Rand
	links [2]laneLink // links[i] carries datagrams sent by lane i
	q     []laneInFlight
	ids   uint64
	lost  int
}

func (n *laneNet) send(now time.Duration, from int, d []byte) {
	lk := &n.links[from]
	if lk.enterBad > 0 {
		if lk.bad {
			lk.bad = n.rng.Float64() >= lk.leaveBad
		} else {
			lk.bad = n.rng.Float64() < lk.enterBad
		}
	}
	if lk.bad || now >= lk.blackFrom && now < lk.blackTo || n.rng.Float64() < lk.loss {
		n.lost++
		return
	}
	copies := 1
	if n.rng.Float64() < lk.dup {
		copies = 2
	}
	for range copies {
		at := now + lk.oneWay
		if lk.jitter > 0 {
			at += time.Duration(n.rng.Int64N(int64(lk.jitter) + 1))
		}
		n.ids++
		n.q = append(n.q, laneInFlight{at: at, id: n.ids, to: 1 - from, data: slices.Clone(d)})
	}
}

// nextAt is the arrival time of the earliest datagram.
func (n *laneNet) nextAt() (time.Duration, bool) {
	if len(n.q) == 0 {
		return 0, false
	}
	best := n.q[0]
	for _, f := range n.q[1:] {
		if f.at < best.at || f.at == best.at && f.id < best.id {
			best = f
		}
	}
	return best.at, true
}

// pop removes and returns the earliest datagram due at or before now.
func (n *laneNet) pop(now time.Duration) (laneInFlight, bool) {
	bi := -1
	for i, f := range n.q {
		if f.at <= now && (bi < 0 || f.at < n.q[bi].at || f.at == n.q[bi].at && f.id < n.q[bi].id) {
			bi = i
		}
	}
	if bi < 0 {
		return laneInFlight{}, false
	}
	f := n.q[bi]
	n.q = append(n.q[:bi], n.q[bi+1:]...)
	return f, true
}
