package lane

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// laneFuzzPayload is a message of the op fuzzer: its index on its direction and filler.
func laneFuzzPayload(id, n int) []byte {
	p := make([]byte, 4+n)
	binary.LittleEndian.PutUint32(p, uint32(id))
	for i := 4; i < len(p); i++ {
		p[i] = byte(id*7 + i)
	}
	return p
}

// FuzzLaneReceive feeds arbitrary bytes, cut into datagrams, to lanes that have traffic
// of their own. Every datagram gives an accepted state or a named error that changed
// nothing; no input panics, breaks an invariant or grows storage past the caps.
func FuzzLaneReceive(f *testing.F) {
	// Seeds: real datagrams of an exchange, and the hostile table.
	{
		a, b := newTestLane(f, Config{}), newTestLane(f, Config{})
		for i := range 6 {
			laneQueue(f, a, 0, fmt.Sprint("msg", i), i == 2)
			d := laneMustPoll(f, a, 0)
			f.Add(append([]byte{byte(len(d))}, d...))
			if i != 3 {
				_ = b.Receive(0, d)
			}
		}
		f.Add(append([]byte{0}, laneMustPoll(f, b, 0)...))
	}
	for _, tc := range laneHostileCases {
		f.Add(append([]byte{byte(len(tc.d))}, tc.d...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 2048 {
			data = data[:2048]
		}
		// Lane b has sent 5 messages of its own and received 3 of its peer's; lane c is
		// fresh with a small receive buffer.
		b := laneHostileLane(t)
		c := newTestLane(t, Config{ReceiveBytes: 4 * MaxPayload})
		now := time.Second
		for i := 0; len(data) > 0; i++ {
			// A length byte, then the datagram (the rest if the length runs past the end).
			n := int(data[0])
			data = data[1:]
			if n == 0 || n > len(data) {
				n = len(data)
			}
			d := data[:n]
			data = data[n:]
			for _, l := range []*Lane{b, c} {
				before := laneFingerprint(l)
				err := l.Receive(now, d)
				if err != nil {
					if laneFingerprint(l) != before {
						t.Fatalf("datagram %d rejected with %v but changed the lane", i, err)
					}
					for _, known := range []error{ErrTruncated, ErrTrailing, ErrVersion,
						ErrMalformed, ErrPayloadTooLarge, ErrAckRange, ErrSeqRange} {
						if errors.Is(err, known) {
							err = nil
						}
					}
					if err != nil {
						t.Fatalf("datagram %d: unnamed error %v", i, err)
					}
				}
				if i%2 == 0 {
					laneDrain(l)
				}
				if _, err := l.Poll(now, nil); err != nil {
					t.Fatal(err)
				}
				if err := laneCheck(l); err != nil {
					t.Fatalf("datagram %d: %v", i, err)
				}
				if s := l.Stats(); s.BufferBytes > HardCapBytes+ReceiveBytes || s.ReceiveBytes > l.lim.recvBytes {
					t.Fatalf("storage past the caps: %+v", s)
				}
			}
			now += 10 * time.Millisecond
		}
	})
}

// FuzzLaneOps runs random sequences of operations on two connected lanes, with the fuzzer
// as the network: it decides which datagram arrives, which is duplicated, which is lost,
// and when time passes. Throughout, every message is delivered at most once and in order,
// an acknowledgement is reported only for a message the peer holds, and the invariants
// hold. At the end a perfect network must deliver and acknowledge everything (unless a lane
// broke, which only the link timeout or the hard cap may cause).
func FuzzLaneOps(f *testing.F) {
	f.Add([]byte{0, 10, 1, 20, 3, 5, 0, 4, 5, 0, 9})
	f.Add([]byte{0, 200, 0, 100, 1, 50, 3, 3, 7, 0, 5, 1, 8, 60, 3, 5, 0, 9, 4, 5, 0})
	f.Add([]byte{2, 9, 2, 3, 4, 6, 0, 6, 0, 5, 0, 9, 3, 8, 255, 8, 255, 3, 5, 0})
	f.Add(bytes.Repeat([]byte{0, 30, 3, 5, 0, 8, 10}, 40))
	f.Add(bytes.Repeat([]byte{1, 250, 0, 250, 3, 7, 0, 8, 51}, 30))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 768 {
			data = data[:768]
		}
		cfg := Config{SoftCap: 40, HardCap: 80, SoftCapBytes: 8 << 10, HardCapBytes: 16 << 10,
			ReceiveBytes: 4 * MaxPayload, InFlightBytes: 4 << 10}
		lanes := [2]*Lane{newTestLane(t, cfg), newTestLane(t, cfg)}
		var sent [2][][]byte // accepted payloads per direction, index = seq
		var got [2]int       // messages delivered on each lane (from the other)
		var popped [2][]bool
		type flight struct {
			to int
			d  []byte
		}
		var net []flight
		now := time.Duration(0)
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			v := int(data[0])
			data = data[1:]
			return v
		}
		open := func() bool { return lanes[0].State() == Open && lanes[1].State() == Open }
		queue := func(side int, critical bool, n int) {
			p := laneFuzzPayload(len(sent[side]), n)
			seq, err := lanes[side].Queue(now, p, critical)
			switch {
			case err == nil:
				if int(seq) != len(sent[side]) {
					t.Fatalf("seq %d, want %d", seq, len(sent[side]))
				}
				sent[side] = append(sent[side], p)
				popped[side] = append(popped[side], false)
			case errors.Is(err, ErrSoftCap) && !critical,
				errors.Is(err, ErrHardCap) && critical,
				errors.Is(err, ErrMustDisconnect):
			default:
				t.Fatalf("queue (critical %v, %d bytes): %v", critical, len(p), err)
			}
		}
		poll := func(side int) {
			for {
				d, err := lanes[side].Poll(now, nil)
				if err != nil {
					if !errors.Is(err, ErrMustDisconnect) {
						t.Fatalf("poll: %v", err)
					}
					return
				}
				if len(d) == 0 {
					return
				}
				if len(d) > MTU {
					t.Fatalf("datagram of %d bytes", len(d))
				}
				net = append(net, flight{1 - side, d})
			}
		}
		drain := func(side int) {
			l, peer := lanes[side], lanes[1-side]
			for p, ok := l.Deliver(); ok; p, ok = l.Deliver() {
				want := sent[1-side]
				if got[side] >= len(want) || !bytes.Equal(p, want[got[side]]) {
					t.Fatalf("lane %d delivered %x as message %d", side, p, got[side])
				}
				got[side]++
			}
			for a, ok := l.PopAcked(); ok; a, ok = l.PopAcked() {
				i := int(a.Seq)
				if i >= len(popped[side]) || popped[side][i] || a.At > now || a.At < a.Sent {
					t.Fatalf("lane %d: bad ack report %+v at %v", side, a, now)
				}
				popped[side][i] = true
				if laneDiff(a.Seq, peer.recvNext) >= 0 {
					t.Fatalf("lane %d: message %d acknowledged but the peer lacks it or one before it", side, a.Seq)
				}
				if i > 0 && !popped[side][i-1] {
					t.Fatalf("lane %d: message %d reported before message %d", side, i, i-1)
				}
			}
		}
		deliver := func(i int, keep bool) {
			if len(net) == 0 {
				return
			}
			i %= len(net)
			fl := net[i]
			if !keep {
				net = slices.Delete(net, i, i+1)
			}
			if err := lanes[fl.to].Receive(now, fl.d); err != nil && !errors.Is(err, ErrMustDisconnect) {
				t.Fatalf("receive of a datagram the peer built: %v", err)
			}
		}
		for step := 0; len(data) > 0; step++ {
			switch op := next() % 10; op {
			case 0, 1:
				queue(0, op == 1, next()*4)
			case 2:
				v := next()
				queue(1, v&1 == 1, v)
			case 3, 4:
				poll(op - 3)
			case 5:
				deliver(next(), false)
			case 6:
				deliver(next(), true)
			case 7:
				if len(net) > 0 {
					i := next() % len(net)
					net = slices.Delete(net, i, i+1)
				}
			case 8:
				now += time.Duration(next()) * 5 * time.Millisecond
			case 9:
				drain(0)
				drain(1)
			}
			if step < 64 || step%16 == 0 || len(data) == 0 {
				for i, l := range lanes {
					if err := laneCheck(l); err != nil {
						t.Fatalf("step %d lane %d: %v", step, i, err)
					}
				}
			}
			if len(net) > 512 {
				net = net[len(net)-512:]
			}
		}
		// A perfect network from here on.
		net = nil
		done := func() bool {
			for side := range lanes {
				if _, ok := lanes[side].NextDeadline(); ok || got[1-side] != len(sent[side]) || lanes[side].ackLen > 0 {
					return false
				}
			}
			return true
		}
		for round := 0; open() && round < 400 && !done(); round++ {
			now += 50 * time.Millisecond
			drain(0)
			drain(1)
			poll(0)
			poll(1)
			for len(net) > 0 {
				deliver(0, false)
				drain(0)
				drain(1)
				poll(0)
				poll(1)
			}
		}
		if !open() {
			for _, l := range lanes {
				if err := l.Err(); err != nil && !errors.Is(err, ErrLinkTimeout) && !errors.Is(err, ErrHardCap) {
					t.Fatalf("lane broke with %v", err)
				}
			}
			return
		}
		for side := range lanes {
			if got[1-side] != len(sent[side]) {
				t.Fatalf("direction %d: %d of %d messages delivered", side, got[1-side], len(sent[side]))
			}
			for i, p := range popped[side] {
				if !p {
					t.Fatalf("direction %d: message %d never reported acknowledged", side, i)
				}
			}
			if _, ok := lanes[side].NextDeadline(); ok {
				t.Fatalf("lane %d not idle", side)
			}
		}
	})
}
