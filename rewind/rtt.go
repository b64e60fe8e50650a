package rewind

import (
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
)

// pingSlot remembers one ping sent and whether its pong came back.
type pingSlot struct {
	sent     time.Duration
	seq      uint16
	used     bool
	answered bool
}

// rttMeter measures one connection's round-trip time with the server's own pings. 192
// bytes, three cache lines (the slice is large enough to be page-aligned from 171
// players on): what every ping and pong and a shot's rewind read (the counters, the
// estimate, the samples) is the first line, and the pings fill the other two, four to a
// line, so a ping touches two lines of the meter and its pong the same two.
type rttMeter struct {
	next     uint16 // the id of the next ping
	sentAny  bool
	n        uint8 // samples held, up to RTTWindow
	w        uint8 // slot of the next sample
	lastSent time.Duration
	estimate time.Duration
	samples  [RTTWindow]time.Duration
	pings    [MaxPendingPings]pingSlot
}

// due reports whether a ping should go out at now.
func (m *rttMeter) due(now time.Duration) bool {
	return !m.sentAny || now-m.lastSent >= PingInterval
}

// ping records a ping sent at now and returns its id.
func (m *rttMeter) ping(now time.Duration) uint16 {
	seq := m.next
	m.pings[seq%MaxPendingPings] = pingSlot{sent: now, seq: seq, used: true}
	m.next++
	m.lastSent, m.sentAny = now, true
	return seq
}

// judge decides what a pong for ping seq at now is, without changing anything.
func (m *rttMeter) judge(now time.Duration, seq uint16) PongVerdict {
	if !m.sentAny || revision.Newer(seq, m.next-1) {
		return PongUnknown
	}
	s := &m.pings[seq%MaxPendingPings]
	if !s.used || s.seq != seq {
		return PongExpired // sent so long ago that a newer ping took its slot
	}
	if s.answered {
		return PongDuplicate
	}
	if now-s.sent > RTTCap {
		return PongExpired
	}
	return PongAccepted
}

// pong takes the sample of an accepted pong for ping seq at now.
func (m *rttMeter) pong(now time.Duration, seq uint16) time.Duration {
	s := &m.pings[seq%MaxPendingPings]
	s.answered = true
	rtt := now - s.sent
	m.samples[m.w] = rtt
	m.w = (m.w + 1) % RTTWindow
	if m.n < RTTWindow {
		m.n++
	}
	// The estimate is the median of the samples held (the lower middle one of an even
	// count). It is given out only from MinRTTSamples samples on: from then a single
	// spike, high or low, never moves it past an honest sample (of one or two samples,
	// a spike would be the estimate).
	var sorted [RTTWindow]time.Duration
	copy(sorted[:], m.samples[:m.n])
	for i := 1; i < int(m.n); i++ {
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	m.estimate = sorted[(m.n-1)/2]
	return rtt
}

// rtt returns the estimate and whether there is one (MinRTTSamples samples taken).
func (m *rttMeter) rtt() (time.Duration, bool) { return m.estimate, m.n >= MinRTTSamples }
