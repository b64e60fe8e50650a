package refserver

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/wire"
)

// The per-connection caps: one client can never drown the others. Each connection has its
// own rates and its own share of every buffer the World shares between connections (the
// relay log, the recipients' outboxes, the event queue); what is over a cap is refused and
// counted (Stats and ConnStats), never taken from another connection's data.
//
// The rates are sized from what an honest client sends (examples/client: a PlayerSync
// every transport.FrameInterval, a VehicleSync with each while it drives, shots at the
// fastest weapon's cadence with the inventory's burst, its lane, pongs, its damage
// reports), and from the worst burst the simulator shows at 400 ms of round trip, 30 ms
// of jitter and 5 % loss, where the jitter bunches datagrams that were sent apart
// (examples/match reports it: Report.Rates). Each cap is several times above it.
const (
	// FrameRate is the sustained number of frames per second a connection may have
	// relayed: PlayerSync and VehicleSync each have a gate of their own. An honest client
	// sends 30 a second (transport.FrameInterval, 33 ms), one more at each spawn. Twice
	// that: a frame over it is refused (VerdictRateLimited) before anything takes it.
	FrameRate = 60
	// FrameBurst is how far ahead of FrameRate a connection's frames may arrive (the
	// tolerance of its leaky bucket): the frames of a link that held them and delivered
	// them together. The jitter bunches an honest client's frames by at most its width
	// (30 ms): the worst honest frame burst measured at 400 ms, 30 ms jitter and 5 % loss
	// runs 22 ms ahead of FrameRate (examples/sim, Report.Rates.FrameBurstMs, seeds 1-4;
	// 17 ms in TestHonestWorstCaseTrafficStaysUnderTheCaps). 500 ms is twenty times that:
	// up to 31 frames at once.
	FrameBurst = 500 * time.Millisecond

	// DatagramRate is the sustained number of datagrams per second Receive takes from one
	// connection; a datagram over it is dropped before it is decoded (VerdictRateLimited).
	// A bundle counts as many datagrams as it carries elements, and is dropped whole
	// unless all of them conform ([elements-count-as-datagrams]).
	// An honest client sends at most its frames (30 + 30 in a vehicle), its shots (the
	// minigun's or a vehicle gun's 50 a second), a lane datagram per client tick with
	// something to send or acknowledge (100 at a 10 ms tick), its damage reports and
	// pongs: 248 a second in TestHonestWorstCaseTrafficStaysUnderTheCaps, which sends all
	// of them at once; 73 in the simulator's busiest honest second at 400 ms, 30 ms jitter
	// and 5 % loss (Report.Rates.DatagramsPerSecond). Twice the worst case.
	DatagramRate = 500
	// DatagramBurst is the tolerance of the datagram gate: a full second of DatagramRate
	// may arrive at once. The worst honest burst measured runs 17 ms ahead of the rate
	// (the worst-case test; 7 ms in the simulator, Report.Rates.DatagramBurstMs).
	DatagramBurst = time.Second

	// ProjectileRate is the sustained number of projectiles per second a connection may
	// launch (on foot, from a vehicle, or a launch healed by its detonation): each one is
	// a datagram in every other connection's outbox, and a vehicle's rockets come from no
	// store. A throw or a launch takes the game about a second; a Hunter's or a Hydra's
	// rockets come a few a second.
	ProjectileRate = 10
	// ProjectileBurst is the tolerance of the projectile gate: 2 s ahead of
	// ProjectileRate, 21 launches at once (satchels thrown one by one and a lost-launch
	// detonation of each together).
	ProjectileBurst = 2 * time.Second

	// RefusalEvents is how many refusal diagnostics (input_refused, shot_refused,
	// projectile_refused, report_not_credited, report_unattributed,
	// stealth_kill_refused, vehicle_explode_refused, death_report_ignored) one connection's
	// input may raise per RefusalInterval; the rest are counted (ConnStats.
	// RefusalsSuppressed) and summarized by one refusals_suppressed event when the interval
	// ends. An honest client raises none but the teammate refusals the records allow (a
	// shotgun's pellets: 8 at once). Connections that never said Hello share one budget
	// per slot; ids outside the slots share one.
	RefusalEvents = 32
	// RefusalInterval is the interval of RefusalEvents.
	RefusalInterval = time.Second
	// RecordEventReserve is the room of the event queue kept for the gamemode events of
	// the records (player_damage, player_death, player_spawn, god_mode and the suspicion
	// flags): diagnostics stop at MaxPendingEvents - RecordEventReserve waiting.
	RecordEventReserve = MaxPendingEvents / 4

	// MaxFanOutPerSender is each sender's share of the relay log between two Flush calls
	// (its frames, vehicle frames and shots): MaxPlayers senders at their share never fill
	// MaxFanOut, so no sender pushes another's frame out. An honest client logs a few per
	// tick (a frame, a vehicle frame, a shot or two).
	MaxFanOutPerSender = MaxFanOut / MaxPlayers
	// OutboxReserve is the room of each connection's outbox (transport.MaxPendingDatagrams)
	// kept for its own datagrams (its Welcome, pings and pongs): other players' projectiles,
	// detonations and rewound shots stop at MaxPendingDatagrams - OutboxReserve waiting.
	OutboxReserve = 64
)

// Intervals of the gates.
const (
	frameInterval      = time.Second / FrameRate
	datagramInterval   = time.Second / DatagramRate
	projectileInterval = time.Second / ProjectileRate
)

// ConnStats counts what one connection had refused or dropped by the per-connection caps,
// and how close to its gates it came.
type ConnStats struct {
	// DatagramsOverRate counts datagrams dropped by DatagramRate (a bundle once).
	DatagramsOverRate uint64
	// FramesOverRate counts PlayerSync and VehicleSync frames refused by FrameRate.
	FramesOverRate uint64
	// ProjectilesOverRate counts launches refused by ProjectileRate.
	ProjectilesOverRate uint64
	// FanOutCapped counts relays of this connection not logged: its MaxFanOutPerSender
	// share of the relay log was used up (or the log was full).
	FanOutCapped uint64
	// OutboxDropped counts other players' datagrams this connection's outbox had no room
	// for (OutboxReserve is kept for its own).
	OutboxDropped uint64
	// RefusalsSuppressed counts refusal diagnostics of this connection's input over
	// RefusalEvents, summarized by refusals_suppressed.
	RefusalsSuppressed uint64
	// FramePeak, DatagramPeak and ProjectilePeak are the deepest each gate ran ahead of
	// its sustained rate after an accepted frame, datagram or launch (one interval plus
	// the burst used): compare with FrameBurst, DatagramBurst and ProjectileBurst.
	FramePeak, DatagramPeak, ProjectilePeak time.Duration
}

// ConnStats returns connection id's counters of the per-connection caps.
func (w *World) ConnStats(id PlayerID) (ConnStats, error) {
	p := w.conn(id)
	if p == nil {
		return ConnStats{}, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	c := p.caps
	c.FramePeak, c.DatagramPeak = p.framePeak, p.datagramPeak
	return c, nil
}

// rateGate is a leaky bucket in virtual scheduling (GCRA): one unit per interval
// sustained, up to a tolerance ahead.
type rateGate struct {
	tat time.Duration // the theoretical arrival time of the next unit
}

// take reports whether one unit at now conforms and, if so, counts it and raises peak to
// how far ahead the gate now runs.
func (g *rateGate) take(now, interval, tolerance time.Duration, peak *time.Duration) bool {
	return g.takeN(now, 1, interval, tolerance, peak)
}

// takeN reports whether n units at once conform (the last of them is within the
// tolerance) and, if so, counts them all; otherwise it counts none.
func (g *rateGate) takeN(now time.Duration, n int, interval, tolerance time.Duration, peak *time.Duration) bool {
	tat := max(g.tat, now)
	if tat+time.Duration(n-1)*interval-now > tolerance {
		return false
	}
	g.tat = tat + time.Duration(n)*interval
	*peak = max(*peak, g.tat-now)
	return true
}

// refusalBudget is one source's budget of refusal diagnostics.
type refusalBudget struct {
	start      time.Duration // the start of the current interval
	started    bool
	n          int    // refusals raised in it
	suppressed uint64 // refusals suppressed since the last summary
	queued     bool   // in World.suppressing
}

// refusalSource returns the index of the budget the refusal diagnostic e is charged to:
// the connection whose input it refuses (the attacker of a stealth kill claim), and
// false for an event that is not a refusal.
func (w *World) refusalSource(e *Event) (int, bool) {
	src := e.Player
	switch e.Kind {
	case EventStealthKillRefused:
		src = e.Other
	case EventInputRefused, EventShotRefused, EventProjectileRefused, EventReportNotCredited, EventReportUnattributed,
		EventVehicleExplodeRefused, EventDeathReportIgnored:
	default:
		return 0, false
	}
	if int(src) >= len(w.players) {
		return len(w.players), true // ids outside the slots share the last budget
	}
	return int(src), true
}

// allowRefusal charges a refusal diagnostic to budget i: true while the budget of the
// current interval lasts; otherwise it is counted as suppressed.
func (w *World) allowRefusal(i int) bool {
	b := &w.refusals[i]
	if !b.started || w.now-b.start >= RefusalInterval {
		w.summarize(i)
		b.start, b.started, b.n = w.now, true, 0
	}
	if b.n < RefusalEvents {
		b.n++
		return true
	}
	b.suppressed++
	w.stats.RefusalsSuppressed++
	if i < len(w.players) {
		if p := w.players[i]; p != nil && p.connected {
			p.caps.RefusalsSuppressed++
		}
	}
	if !b.queued {
		b.queued = true
		w.suppressing = append(w.suppressing, uint16(i))
	}
	return false
}

// summarize raises the refusals_suppressed summary of budget i, if it suppressed any.
func (w *World) summarize(i int) {
	b := &w.refusals[i]
	if b.suppressed == 0 {
		return
	}
	id := PlayerID(i)
	if i >= len(w.players) {
		id = NoPlayer
	}
	n := b.suppressed
	b.suppressed = 0
	w.raise(Event{Kind: EventRefusalsSuppressed, At: w.now, Player: id, Other: NoPlayer, Vehicle: NoVehicle,
		Verdict: VerdictRateLimited, Count: n})
}

// summarizeRefusals raises the summaries of the budgets whose interval ended (Tick).
func (w *World) summarizeRefusals(now time.Duration) {
	kept := w.suppressing[:0]
	for _, i := range w.suppressing {
		b := &w.refusals[i]
		if now-b.start >= RefusalInterval {
			w.summarize(int(i))
			b.queued = false
			continue
		}
		kept = append(kept, i)
	}
	w.suppressing = kept
}

// takeDatagram applies the datagram gate of p at now to a datagram of n datagrams of
// their own (a bundle's elements, or 1): the gate counts each element, so packing
// messages into bundles passes no more of them ([elements-count-as-datagrams]).
func (w *World) takeDatagram(now time.Duration, p *player, n int) bool {
	if p.dgramGate.takeN(now, n, datagramInterval, DatagramBurst, &p.datagramPeak) {
		return true
	}
	p.caps.DatagramsOverRate++
	w.stats.DatagramsOverRate++
	w.refuseInput(p.id, VerdictRateLimited, "datagram")
	return false
}

// takeFrame applies a frame gate of p at now (its PlayerSync or its VehicleSync gate).
func (w *World) takeFrame(now time.Duration, p *player, g *rateGate, what string) bool {
	if g.take(now, frameInterval, FrameBurst, &p.framePeak) {
		return true
	}
	p.caps.FramesOverRate++
	w.stats.FramesOverRate++
	w.refuseInput(p.id, VerdictRateLimited, what)
	return false
}

// takeProjectile applies the projectile gate of p at now.
func (w *World) takeProjectile(now time.Duration, p *player) bool {
	if p.projGate.take(now, projectileInterval, ProjectileBurst, &p.caps.ProjectilePeak) {
		return true
	}
	p.caps.ProjectilesOverRate++
	w.stats.ProjectilesOverRate++
	return false
}

// logRelay logs an encoded relay of sender in the fan log within the sender's share
// (MaxFanOutPerSender) and the log's cap; false (counted) when it was not logged.
func (w *World) logRelay(enc []byte, sender *player, subject PlayerID, rev uint16) bool {
	if w.fan.count(sender.id) >= MaxFanOutPerSender {
		sender.caps.FanOutCapped++
		w.stats.FanOutDropped++
		return false
	}
	if !w.fan.add(enc, sender.id, subject, rev, w.teams.Group(sender.id)) {
		sender.caps.FanOutCapped++
		w.stats.FanOutDropped++
		return false
	}
	return true
}

// relayTo puts another player's datagram m in recipient r's outbox, within the room other
// players may take (OutboxReserve is kept for r's own); false (counted) when it had none.
func (w *World) relayTo(r *player, m wire.Message) bool {
	if len(r.out.ends) >= transport.MaxPendingDatagrams-OutboxReserve {
		r.caps.OutboxDropped++
		w.stats.OutboxDropped++
		return false
	}
	return w.sendOwn(r, m)
}
