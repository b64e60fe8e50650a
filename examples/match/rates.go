package match

import (
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/wire"
)

// window counts the arrivals of the last second (a sliding window) and keeps its maximum.
type window struct {
	at   []time.Duration
	head int
	most int
}

func (w *window) add(now time.Duration) {
	w.at = append(w.at, now)
	for now-w.at[w.head] >= time.Second {
		w.head++
	}
	if n := len(w.at) - w.head; n > w.most {
		w.most = n
	}
	if w.head > 4096 {
		w.at = append(w.at[:0], w.at[w.head:]...)
		w.head = 0
	}
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
