package match

import (
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/wire"
)

// window counts the arrivals of the last second (a sliding window) and keeps its maximum.
// The arrivals of the window sit in a ring that grows by doubling to the most the window
// ever held (tens of entries), so a thousand players' windows stay small and warm.
type window struct {
	ring []time.Duration // len is a power of two, or 0
	head int             // index of the oldest arrival in the window
	n    int             // arrivals in the window
	most int
}

func (w *window) add(now time.Duration) {
	if w.n == len(w.ring) {
		grown := make([]time.Duration, max(2*len(w.ring), 16))
		for i := range w.n {
			grown[i] = w.ring[(w.head+i)&(len(w.ring)-1)]
		}
		w.ring, w.head = grown, 0
	}
	mask := len(w.ring) - 1
	w.ring[(w.head+w.n)&mask] = now
	w.n++
	for now-w.ring[w.head] >= time.Second {
		w.head = (w.head + 1) & mask
		w.n--
	}
	w.most = max(w.most, w.n)
}

// rates is what the match measures of one honest player's traffic into the server.
type rates struct {
	datagrams, frames window
}

// observeRate counts a datagram of an honest player on its way into the server.
func (m *Match) observeRate(now time.Duration, p *player, id wire.ID) {
	if p.cheat != nil {
		return
	}
	p.rates.datagrams.add(now)
	if id == wire.IDPlayerSync {
		p.rates.frames.add(now)
	}
}

// collectRates puts the worst honest traffic into the report, and counts what the
// server's per-connection caps refused of an honest player as a wrong.
func (m *Match) collectRates() {
	r := &m.report.Rates
	ahead := func(peak, interval time.Duration) float64 { return millis(max(peak-interval, 0)) }
	for _, p := range m.players {
		if p.cheat != nil {
			continue
		}
		r.DatagramsPerSecond = max(r.DatagramsPerSecond, p.rates.datagrams.most)
		r.FramesPerSecond = max(r.FramesPerSecond, p.rates.frames.most)
		cs, err := m.server.ConnStats(p.id)
		if err != nil {
			continue
		}
		r.DatagramBurstMs = max(r.DatagramBurstMs, ahead(cs.DatagramPeak, time.Second/refserver.DatagramRate))
		r.FrameBurstMs = max(r.FrameBurstMs, ahead(cs.FramePeak, time.Second/refserver.FrameRate))
		r.ProjectileBurstMs = max(r.ProjectileBurstMs, ahead(cs.ProjectilePeak, time.Second/refserver.ProjectileRate))
		if n := cs.DatagramsOverRate + cs.FramesOverRate + cs.ProjectilesOverRate + cs.FanOutCapped + cs.RefusalsSuppressed; n > 0 {
			m.report.Wronged.RateLimited += int(n)
			m.incidentf("rate limited: player %d: %+v", p.idx, cs)
		}
	}
}
