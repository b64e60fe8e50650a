package lane

import (
	"testing"
	"time"
)

// laneBenchPair returns two lanes warmed up so that their storage has reached its working
// size, and a round trip that queues batch messages of size bytes on a, carries them to b,
// delivers them, and carries b's acknowledgement back.
func laneBenchPair(b *testing.B, batch, size int) func() {
	a, c := newTestLane(b, Config{}), newTestLane(b, Config{})
	payload := make([]byte, size)
	buf := make([]byte, 0, MTU)
	now := time.Duration(0)
	round := func() {
		now += time.Millisecond
		for range batch {
			if _, err := a.Queue(now, payload, false); err != nil {
				b.Fatal(err)
			}
		}
		for {
			d, _ := a.Poll(now, buf[:0])
			if len(d) == 0 {
				break
			}
			if err := c.Receive(now, d); err != nil {
				b.Fatal(err)
			}
		}
		for _, ok := c.Deliver(); ok; _, ok = c.Deliver() {
		}
		d, _ := c.Poll(now, buf[:0])
		if err := a.Receive(now, d); err != nil {
			b.Fatal(err)
		}
		for _, ok := a.PopAcked(); ok; _, ok = a.PopAcked() {
		}
		a.NextDeadline()
		c.NextDeadline()
	}
	for range 1000 {
		round()
	}
	return round
}

// BenchmarkLaneRoundTrip is one message through Queue, Poll, Receive and Deliver, and its
// acknowledgement back through Poll, Receive and PopAcked.
func BenchmarkLaneRoundTrip(b *testing.B) {
	round := laneBenchPair(b, 1, 32)
	b.ReportAllocs()
	for b.Loop() {
		round()
	}
}

// BenchmarkLaneRoundTripBatch32 is the same with 32 messages per datagram; divide by 32
// for the cost per message.
func BenchmarkLaneRoundTripBatch32(b *testing.B) {
	round := laneBenchPair(b, 32, 32)
	b.ReportAllocs()
	for b.Loop() {
		round()
	}
}

// BenchmarkLaneIdleTick is what an idle connection costs the host per tick: NextDeadline
// and a Poll with nothing due.
func BenchmarkLaneIdleTick(b *testing.B) {
	laneBenchPair(b, 1, 32)
	a := newTestLane(b, Config{})
	buf := make([]byte, 0, MTU)
	b.ReportAllocs()
	for b.Loop() {
		a.NextDeadline()
		_, _ = a.Poll(time.Second, buf[:0])
	}
}

// BenchmarkLaneTickWithFullWindowInFlight is a tick of a lane with a whole window of
// messages in flight and no retransmission due yet.
func BenchmarkLaneTickWithFullWindowInFlight(b *testing.B) {
	a := newTestLane(b, Config{})
	for range Window {
		if _, err := a.Queue(0, make([]byte, 32), false); err != nil {
			b.Fatal(err)
		}
	}
	buf := make([]byte, 0, MTU)
	for d, _ := a.Poll(0, buf[:0]); len(d) > 0; d, _ = a.Poll(0, buf[:0]) {
	}
	b.ReportAllocs()
	for b.Loop() {
		a.NextDeadline()
		_, _ = a.Poll(100*time.Millisecond, buf[:0])
	}
}

// BenchmarkLaneRetransmitWindow is the retransmission of a whole window of 32-byte
// messages (seven datagrams), every 250 ms of virtual time.
func BenchmarkLaneRetransmitWindow(b *testing.B) {
	a := newTestLane(b, Config{})
	for range Window {
		if _, err := a.Queue(0, make([]byte, 32), false); err != nil {
			b.Fatal(err)
		}
	}
	buf := make([]byte, 0, MTU)
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		for d, _ := a.Poll(now, buf[:0]); len(d) > 0; d, _ = a.Poll(now, buf[:0]) {
		}
		now += Retransmit
		if now >= LinkTimeout {
			b.StopTimer()
			a = newTestLane(b, Config{})
			for range Window {
				_, _ = a.Queue(0, make([]byte, 32), false)
			}
			now = 0
			b.StartTimer()
		}
	}
}

// BenchmarkLaneRejectHostileDatagram is the cost of refusing a malformed datagram.
func BenchmarkLaneRejectHostileDatagram(b *testing.B) {
	l := laneHostileLane(b)
	d := laneEncode(0, nil, 3+Window, []byte("x"))
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Receive(time.Second, d); err == nil {
			b.Fatal("accepted")
		}
	}
}
