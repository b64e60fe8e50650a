package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/replay"
	"github.com/arbitergo/arbiter/examples/udphost"
	"github.com/arbitergo/arbiter/wire"
)

// The host's caps and intervals.
const (
	// MaxRefusalReplies is the most Disconnect datagrams the host answers refused Hellos
	// (server full, another protocol version) with in one tick: the rest are only counted,
	// so that forged source addresses cannot turn the server into a reflector.
	MaxRefusalReplies = 64
	// RefusalLogInterval is how often the refusals counted since the last summary are
	// logged (one line per reason), instead of one line per refused datagram.
	RefusalLogInterval = 10 * time.Second
	// StatsInterval is how often the lanes' retransmissions are summed into the metrics.
	StatsInterval = time.Second
	// ShutdownRepeats is how many Disconnect(shutdown) datagrams each connection gets at a
	// graceful shutdown (the Disconnect is unreliable).
	ShutdownRepeats = client.DisconnectRepeats
)

// The reasons the host refuses a datagram before the World sees it (the "host" label of
// the refusals metric).
const (
	refuseFull      = "server_full"     // a Hello from a new address with every slot taken
	refuseVersion   = "version"         // another protocol version (wire.ErrVersion)
	refuseMalformed = "malformed"       // bytes from a new address that are no message
	refuseStranger  = "unknown_address" // a message other than Hello from a new address
	refuseLiveHello = "hello_on_live"   // a Hello on a session whose lane already delivered
	refuseRestarted = "restarted"       // a Hello of a new Session on a live address: the old session ends
	refuseJoin      = "join_refused"    // a Hello the World did not join
)

// worldID is the World's player (connection) id type, as its facade declares it.
type worldID = refserver.PlayerID

// PlayerID is the host's slot index of a connection. toWorld and fromWorld are the only
// conversions between it and the World's ids.
type PlayerID uint16

func toWorld(id PlayerID) worldID   { return worldID(id) }
func fromWorld(id worldID) PlayerID { return PlayerID(id) }

// host runs a refserver.World on a UDP socket (udphost's batched Conn): one goroutine
// owns the World and the session table; another only reads the socket, and a third only
// writes it (what send queues is written off the World's goroutine, in order, and all of
// it before the socket closes at the shutdown).
type host struct {
	sock  *udphost.Conn
	world *replay.Recorder // the World, through its recorder (which only forwards without -record)
	log   *slog.Logger
	m     *metrics
	opts  options

	// The session table: the address of every slot with a session (live, or ended and
	// waiting for its Disconnect to go out), and the slots without one.
	ids     map[netip.AddrPort]PlayerID
	peers   []netip.AddrPort
	bound   []bool
	session []uint32   // the Session of the Hello that opened each slot's session
	hello   wire.Hello // a Hello on a live address, decoded to read its Session
	free    []PlayerID // a stack; the lowest id on top
	ended   []PlayerID // slots whose player left this tick: freed after the Flush
	replies int        // refusal replies sent this tick

	refused  map[string]uint64 // host refusals since the last summary, by reason
	worldRef map[string]uint64 // World refusals since the last summary, by reason

	events  []refserver.Event
	players []worldID
	retrans []uint64              // each slot's lane retransmissions already counted
	caps    []refserver.ConnStats // each slot's cap counters already counted
	waits   uint64                // the socket's writer waits already counted
	scratch []byte

	// write, if set, replaces the socket's write (the tests wire clients in memory).
	write func(d []byte, to netip.AddrPort)
}

func newHost(conn net.PacketConn, world *refserver.World, log *slog.Logger, m *metrics, opts options) *host {
	n := world.Config().MaxPlayers
	rec := opts.rec
	if rec == nil {
		rec, _ = replay.NewRecorder(world, nil) // records nothing: never fails
	}
	h := &host{sock: udphost.NewConn(conn), world: rec, log: log, m: m, opts: opts,
		ids: map[netip.AddrPort]PlayerID{}, peers: make([]netip.AddrPort, n), bound: make([]bool, n), session: make([]uint32, n),
		refused: map[string]uint64{}, worldRef: map[string]uint64{}, retrans: make([]uint64, n),
		caps: make([]refserver.ConnStats, n)}
	for id := n - 1; id >= 0; id-- {
		h.free = append(h.free, PlayerID(id))
	}
	return h
}

// send queues d for to; the socket writes it at the end of the tick (or when a batch
// is full).
func (h *host) send(d []byte, to netip.AddrPort) {
	h.m.out.Inc()
	if h.write != nil {
		h.write(d, to)
		return
	}
	h.sock.Send(d, to)
}

// refuse counts a datagram the host refused for reason, and answers it with a
// Disconnect(r) when reply is set and this tick's MaxRefusalReplies allow.
func (h *host) refuse(reason string, to netip.AddrPort, reply bool, r wire.Reason) {
	h.refused[reason]++
	h.m.refusals.WithLabelValues("host", reason).Inc()
	if !reply || h.replies >= MaxRefusalReplies {
		return
	}
	h.replies++
	d := wire.Disconnect{Reason: r}
	if b, err := d.Append(h.scratch[:0]); err == nil {
		h.scratch = b[:0]
		h.send(b, to)
	}
}

// receive is the handshake: it tells which session a datagram belongs to, and hands it
// to the World or refuses it.
//
//   - An address without a session may only open one with a Hello. Another version is
//     refused (and answered Disconnect(version)); other bytes are refused as malformed or
//     as a stranger's (the stale datagrams of a session that ended land here); a Hello
//     with every slot taken is refused and answered with a Disconnect (see refuseFull).
//   - An address with a live session: a Hello is a lost Welcome's retry (the World
//     answers the same Welcome) only while the session's lane has delivered nothing; once
//     it has, the Hello is stale or comes from a restarted client on the same address,
//     and is refused: the new session begins only after the old one ends (its Disconnect,
//     or the link timeout, after which the old address is free).
//   - Everything else goes to the World, which checks it against the session.
func (h *host) receive(now time.Duration, from netip.AddrPort, d []byte) {
	h.m.in.Inc()
	mid, err := wire.Peek(d)
	id, known := h.ids[from]
	if !known {
		switch {
		case errors.Is(err, wire.ErrVersion):
			h.refuse(refuseVersion, from, true, wire.ReasonVersion)
		case err != nil:
			h.refuse(refuseMalformed, from, false, 0)
		case mid != wire.IDHello:
			h.refuse(refuseStranger, from, false, 0)
		case len(h.free) == 0:
			// The wire has no "full" reason; kicked is the nearest (the host refused the
			// connection), and the log and the metric say why.
			h.refuse(refuseFull, from, true, wire.ReasonFull)
		default:
			id = h.free[len(h.free)-1]
			h.free = h.free[:len(h.free)-1]
			h.ids[from], h.peers[id], h.bound[id] = id, from, true
			h.session[id] = 0
			if h.hello.Decode(d) == nil {
				h.session[id] = h.hello.Session
			}
			_ = h.world.Receive(now, toWorld(id), d)
			if !h.world.Connected(toWorld(id)) {
				h.release(id)
				h.refuse(refuseJoin, from, false, 0)
			}
		}
		return
	}
	if err == nil && mid == wire.IDHello && h.world.Connected(toWorld(id)) {
		if h.hello.Decode(d) == nil && h.hello.Session != h.session[id] {
			// Another Session from the same address: the client restarted. Its old
			// session ends now (the World's Disconnect goes out at this tick's Flush and
			// the slot is freed then); the new Hello, repeated by the client, opens a new
			// session after that. Delayed datagrams of the old session are strangers then.
			_ = h.world.Kick(now, toWorld(id))
			h.refuse(refuseRestarted, from, false, 0)
			return
		}
		if st, serr := h.world.LaneStats(toWorld(id)); serr == nil && st.Delivered > 0 {
			h.refuse(refuseLiveHello, from, false, 0)
			return
		}
	}
	_ = h.world.Receive(now, toWorld(id), d)
}

// release frees id's slot and forgets its address.
func (h *host) release(id PlayerID) {
	if !h.bound[id] {
		return
	}
	delete(h.ids, h.peers[id])
	h.peers[id], h.bound[id] = netip.AddrPort{}, false
	h.free = append(h.free, id)
}

// emit is the World's Flush callback.
func (h *host) emit(id worldID, d []byte) {
	if pid := fromWorld(id); int(pid) < len(h.peers) && h.bound[pid] {
		h.send(d, h.peers[pid])
	}
}

// tick runs one tick: timers, events, the gamemode, the flush, and the slots whose
// session ended.
func (h *host) tick(now time.Duration) {
	began := time.Now()
	h.replies = 0
	_ = h.world.Tick(now)
	h.drain()
	if h.opts.mode != nil {
		h.opts.mode.Tick(now) // the script's timers, then its commands' events
		h.drain()
	}
	if h.opts.gamemode != nil {
		h.opts.gamemode(now, h.world)
		h.drain()
	}
	_ = h.world.Flush(now, h.emit)
	h.drain()
	h.freeEnded()
	h.players = h.world.Players(h.players[:0])
	h.m.players.Set(float64(len(h.players)))
	h.m.tick.Observe(time.Since(began).Seconds())
}

// freeEnded releases the slots whose player left, once their Disconnect went out (a
// slot whose address joined again meanwhile stays).
func (h *host) freeEnded() {
	for _, id := range h.ended {
		if !h.world.Connected(toWorld(id)) {
			h.release(id)
		}
	}
	h.ended = h.ended[:0]
}

// sampleLanes adds the lanes' new retransmissions, what the per-connection caps refused
// or dropped, and the socket writer's new waits since the last sample, to the metrics.
func (h *host) sampleLanes() {
	if w := h.sock.WriterWaits(); w > h.waits {
		h.m.writerWaits.Add(float64(w - h.waits))
		h.waits = w
	}
	for _, wid := range h.players {
		id := fromWorld(wid)
		if st, err := h.world.LaneStats(wid); err == nil && st.Retransmits > h.retrans[id] {
			h.m.retransmits.Add(float64(st.Retransmits - h.retrans[id]))
			h.retrans[id] = st.Retransmits
		}
		if cs, err := h.world.ConnStats(wid); err == nil {
			was := &h.caps[id]
			for _, c := range [...]struct {
				name     string
				now, was uint64
			}{
				{"datagrams_over_rate", cs.DatagramsOverRate, was.DatagramsOverRate},
				{"frames_over_rate", cs.FramesOverRate, was.FramesOverRate},
				{"projectiles_over_rate", cs.ProjectilesOverRate, was.ProjectilesOverRate},
				{"fan_out_capped", cs.FanOutCapped, was.FanOutCapped},
				{"outbox_dropped", cs.OutboxDropped, was.OutboxDropped},
				{"refusals_suppressed", cs.RefusalsSuppressed, was.RefusalsSuppressed},
			} {
				if c.now > c.was {
					h.m.connCaps.WithLabelValues(c.name).Add(float64(c.now - c.was))
				}
			}
			*was = cs
		}
	}
}

// drain logs and counts the World's events.
func (h *host) drain() {
	h.events = h.world.Events(h.events[:0])
	for i := range h.events {
		h.event(&h.events[i])
	}
	if h.opts.mode != nil && len(h.events) > 0 {
		// The script's callbacks, on the World's goroutine; what they command is drained
		// (and logged) at the next drain of this tick.
		h.opts.mode.Handle(h.world.Now(), h.events)
	}
}

func (h *host) event(e *refserver.Event) {
	if h.opts.event != nil {
		h.opts.event(*e)
	}
	switch e.Kind {
	case refserver.EventPlayerJoin:
		h.retrans[fromWorld(e.Player)] = 0
		h.caps[fromWorld(e.Player)] = refserver.ConnStats{}
		h.log.Info("player_join", "player", e.Player, "addr", h.peers[fromWorld(e.Player)].String(), "token", e.Token)
	case refserver.EventPlayerLeave:
		h.log.Info("player_leave", "player", e.Player, "reason", e.Reason.String(), "token", e.Token)
		h.ended = append(h.ended, fromWorld(e.Player))
	case refserver.EventPlayerDeath:
		h.m.deaths.Inc()
		h.m.deathCommits.WithLabelValues(strings.ReplaceAll(e.Commit.String(), " ", "_")).Inc()
		h.log.Info("player_death", "player", e.Player, "killer", e.Other, "weapon", e.Weapon, "gen", e.Gen)
	case refserver.EventPlayerSpawn:
		if !e.Connect {
			h.m.respawns.Inc()
		}
		h.log.Debug("player_spawn", "player", e.Player, "gen", e.Gen, "connect", e.Connect)
	case refserver.EventGodMode:
		h.m.godModeCuts.Inc()
	case refserver.EventGodModeSuspect, refserver.EventVehicleGodModeSuspect:
		h.log.Warn(e.Kind.String(), "player", e.Player, "vehicle", e.Vehicle, "claimed", e.Amount, "felt", e.Deducted)
	case refserver.EventRefusalsSuppressed:
		h.countWorld(e.Verdict.String(), e.Count)
	case refserver.EventShotRefused, refserver.EventProjectileRefused, refserver.EventReportNotCredited,
		refserver.EventCommandRefused, refserver.EventStealthKillRefused, refserver.EventVehicleExplodeRefused,
		refserver.EventDeathReportIgnored, refserver.EventInputRefused:
		h.countWorld(e.Verdict.String(), 1)
	case refserver.EventPackageRefused:
		h.countWorld(e.Kind.String(), 1)
	}
}

func (h *host) countWorld(reason string, n uint64) {
	h.worldRef[reason] += n
	h.m.refusals.WithLabelValues("world", reason).Add(float64(n))
}

// logRefusals logs the refusals counted since the last summary, one line per reason.
func (h *host) logRefusals() {
	for _, t := range []struct {
		by string
		m  map[string]uint64
	}{{"host", h.refused}, {"world", h.worldRef}} {
		for reason, n := range t.m {
			h.log.Info("refusals", "by", t.by, "reason", reason, "count", n, "interval", RefusalLogInterval.String())
		}
		clear(t.m)
	}
}

// shutdown ends every session: a Disconnect(shutdown) to each connection, then the World's
// own leave (Kick, so the ledger and the events record it) and a last Flush.
func (h *host) shutdown(now time.Duration) {
	h.players = h.world.Players(h.players[:0])
	h.sampleLanes()
	d := wire.Disconnect{Reason: wire.ReasonShutdown}
	b, err := d.Append(nil)
	for _, wid := range h.players {
		if err == nil {
			for range ShutdownRepeats {
				h.send(b, h.peers[fromWorld(wid)])
			}
		}
		_ = h.world.Kick(now, wid)
	}
	h.drain()
	_ = h.world.Flush(now, h.emit)
	h.drain()
	h.freeEnded()
	h.logRefusals()
	h.m.players.Set(0)
	h.log.Info("shutdown", "players", len(h.players))
}

// errShutdown ends the socket's loop after the graceful shutdown.
var errShutdown = errors.New("server: shut down")

// serve reads the socket and drives the World every tick until ctx is done, then shuts
// down gracefully (within a tick of the cancel) and closes the socket.
func (h *host) serve(ctx context.Context, tick time.Duration) error {
	var lastStats, lastLog time.Duration
	err := h.sock.Run(context.WithoutCancel(ctx), tick, h.receive, func(now time.Duration) error {
		if ctx.Err() != nil {
			if h.opts.final != nil {
				h.opts.final(now, h.world.World)
			}
			h.shutdown(now)
			h.sock.Flush()
			return errShutdown
		}
		h.tick(now)
		h.sock.Flush()
		if now-lastStats >= StatsInterval {
			lastStats = now
			h.sampleLanes()
		}
		if now-lastLog >= RefusalLogInterval {
			lastLog = now
			h.logRefusals()
		}
		return nil
	})
	if errors.Is(err, errShutdown) {
		return nil
	}
	return err
}
