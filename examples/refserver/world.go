package refserver

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/internal/interest"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/rewind"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// Stats counts what a World did, for a host's monitoring and the simulator's report.
type Stats struct {
	// Datagrams counts datagrams handed to Receive; Messages the messages they yielded
	// (plus those given to Handle).
	Datagrams, Messages uint64
	// Malformed counts datagrams or lane payloads that failed to decode.
	Malformed uint64
	// Refused counts client messages refused with a verdict.
	Refused uint64
	// Frames counts player frames taken; Relayed the RemotePlayerSync messages sent.
	Frames, Relayed uint64
	// Flushes counts Flush calls; DatagramsSent the datagrams they emitted to
	// connections, bundles or bare (not the farewells' Disconnects); ElementsSent the
	// datagrams of their own those carried: each unreliable message, and each lane
	// datagram. DatagramsSent/Flushes is the datagrams per tick, ElementsSent/DatagramsSent
	// how many datagrams coalescing packed into one.
	Flushes, DatagramsSent, ElementsSent uint64
	// FireSpent counts the rounds of continuous weapons the inventory spent itself for
	// frames that showed their fire held (inventory.FrameResult.FireSpent).
	FireSpent uint64
	// Shots counts accepted shots, ShotsRefused refused ones.
	Shots, ShotsRefused uint64
	// Reports counts damage reports handed to vitals; Credited the credited outcomes.
	Reports, Credited uint64
	// Deaths counts committed deaths, Respawns granted respawns (not regrants).
	Deaths, Respawns uint64
	// Commands counts gamemode commands queued, CommandsRefused refused ones.
	Commands, CommandsRefused uint64
	// Joins and Leaves count connections.
	Joins, Leaves uint64
	// EventsDropped counts events dropped because MaxPendingEvents were waiting (or, for
	// a diagnostic, MaxPendingEvents - RecordEventReserve); RecordEventsDropped those of
	// them that were gamemode events of the records.
	EventsDropped, RecordEventsDropped uint64
	// FanOutDropped counts relayed messages dropped because MaxFanOut were waiting for
	// Flush, or their sender's MaxFanOutPerSender share was used up.
	FanOutDropped uint64
	// PackageRefusals counts, by call, the refusals of the calls the World makes into a
	// domain package on its own account (see PackageCall); each also raised a
	// package_refused event.
	PackageRefusals [NumPackageCalls]uint64
	// FarOrigins counts shots, launches and lost launches' detonations refused because
	// they started farther from their actor's accepted path than it could (VerdictFarOrigin);
	// FarDetonations the detonations refused beyond their weapon's reach from the launch
	// (VerdictFarDetonation).
	FarOrigins, FarDetonations uint64
	// Entries counts seats granted; EntriesRefused the frames refused for their claim on a
	// seat.
	Entries, EntriesRefused uint64
	// EntryReachMax is the largest distance (metres) between a player's accepted position
	// and the vehicle's at a granted entry; VehicleGunOriginMax the largest distance beyond
	// its mount reach and lag at which an accepted vehicle shot's ray started. In a match
	// of honest players they are the worst honest cases EntryReach and VehicleGunSlack
	// must cover.
	EntryReachMax, VehicleGunOriginMax float32
	// DatagramsOverRate, FramesOverRate and ProjectilesOverRate count what the
	// per-connection gates refused (DatagramRate, FrameRate, ProjectileRate; per
	// connection in ConnStats).
	DatagramsOverRate, FramesOverRate, ProjectilesOverRate uint64
	// RefusalsSuppressed counts refusal diagnostics over a connection's RefusalEvents,
	// summarized by refusals_suppressed events.
	RefusalsSuppressed uint64
	// HidesOwed counts PlayerHides and VehicleHides a lane refused at its soft cap, owed
	// and queued again at a later Tick ([stream-hide-owed]).
	HidesOwed uint64
	// OutboxDropped counts other players' datagrams (projectiles, detonations, rewound
	// shots) a connection's outbox had no room for (OutboxReserve is kept for its own).
	OutboxDropped uint64
}

// World is the reference authoritative server: every domain package wired into one game
// world of many connections and vehicles (see the package documentation).
//
// A World is not safe for concurrent use: one goroutine drives it (Receive, Handle, Tick,
// Flush, the gamemode verbs and the readbacks), with a monotonic now that never goes back.
type World struct {
	cfg     Config
	now     time.Duration
	catalog *inventory.Catalog
	base    inventory.Table // the catalogue's first table
	life    *lifecycle.World
	teams   *teams.Registry
	rw      *rewind.World
	// touched keeps what the packages' Touch returned (onPlayerSync): a value nobody reads.
	touched uint64
	// models is the catalogue's vehicles: seats, guns, rockets per model.
	models *inventory.VehicleCatalog

	players  []*player
	conns    []PlayerID // connected ids, ascending
	vehicles []vehicle
	effects  [MaxEffects]effect
	effectID uint16
	mult     vitals.Multipliers
	multSet  bool
	vnear    float32 // the rewind's vehicle near distance: the vehicle_god_mode detector's reach
	rules    Rules   // the cross-package rules (rules.go)
	serial   uint64

	events []Event
	stats  Stats
	// refusals is the refusal diagnostics' budget of each slot, and one more for ids
	// outside the slots; suppressing lists those with refusals to summarize.
	refusals    []refusalBudget
	suppressing []uint16

	// Scratch, reused so that the hot paths do not allocate.
	dec       wire.Decoder
	laneBuf   []byte // the connections' shared encode and lane datagram scratch
	enc       []byte // one encoding of a relayed message, copied to every recipient
	fan       fanLog
	recips    []rewind.Recipient
	dues      []lifecycle.Due
	fates     []teams.Fate
	seats     []teams.Seat
	buf       []byte
	farewells []farewell
	dropping  []PlayerID
	msgs      scratchMessages
	pack      transport.Packer // coalesces each connection's Flush (one buffer for all)

	// stream is the interest manager (stream.go), nil when everybody sees everybody;
	// changes, ids and viewers are its scratch.
	stream  *interest.Manager
	changes []interest.Change
	// debtors are the connections owed hides ([stream-hide-owed]), at most one entry per
	// join.
	debtors []debtor
	ids     []PlayerID
	viewers []PlayerID
	vs      vstream // the streaming of vehicles and effects (vstream.go)

	// timerAt is when Tick's second walk must next visit each slot: while streaming, it
	// visits a connection only when one of its timers may have come due. It is the
	// earliest of the connection's timers as of the last visit: the link timeout
	// (lastHeard+LinkTimeout), the next ping (player.pingDue) and the god-mode detector's
	// (player.nextSuspect). Each only moves later between two visits (a datagram moves
	// lastHeard on; the ping and the detector move only at a visit), so skipping a
	// connection before it skips nothing the visit would have done. Join resets it to 0:
	// everything due. 8 bytes a slot, so that the walk reads a line per 8 connections.
	timerAt []time.Duration
	// flushDue is each slot's flushDue: while now is before it, the connection has nothing
	// of its own for Flush (an empty outbox, a lane not due), which then sends it only its
	// relays without reading its player ([flush-own-due]).
	flushDue []time.Duration
	// vits is each slot's vitals ledger (player.vit), for Tick's first walk: reading it
	// here, not through the player, spares that walk a dependent read per player.
	vits []*vitals.Player
	// vscratch is the scratch every connection's ledger builds its results in
	// (vitals.Player.ShareScratch): a frame writes these few lines, in the cache, rather
	// than lines of its own ledger. The World reads each call's results before its next
	// call into vitals.
	vscratch vitals.Scratch
	// busy has bit id set while connection id's ledger is Busy (vitals.Player.TrackBusy):
	// Tick advances those alone, and an idle ledger is not read at every tick.
	busy []uint64
	// live has bit id set while slot id holds a connection: it mirrors player.connected
	// ([live-mirror]; join and leave set it), for a shot's many recipients to be looked up
	// without a read of each one's player (relayShot).
	live []uint64
}

// farewell is a Disconnect still to be sent to a connection that was removed.
type farewell struct {
	conn   PlayerID
	reason wire.Reason
}

// New validates cfg and returns an empty World.
func New(cfg Config) (*World, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	catalog, err := inventory.NewCatalog(c.Weapons)
	if err != nil {
		return nil, wrap(ErrConfig, err)
	}
	for i, l := range c.Loadout {
		if k := catalog.Kind(l.Weapon); k == inventory.KindNone || k == inventory.KindFist {
			return nil, fmt.Errorf("%w: loadout %d: weapon %d is not a weapon to give", ErrConfig, i, l.Weapon)
		}
	}
	if _, err := vitals.NewPlayer(c.Vitals); err != nil {
		return nil, wrap(ErrConfig, err)
	}
	if _, err := vitals.NewVehicleDetector(c.VehicleGodMode); err != nil {
		return nil, wrap(ErrConfig, err)
	}
	lw, err := lifecycle.New(lifecycle.Config{
		MaxPlayers:       c.MaxPlayers,
		RespawnDelay:     c.RespawnDelay,
		SpawnPoint:       c.SpawnPoint,
		HoldConnectSpawn: c.HoldConnectSpawn,
	})
	if err != nil {
		return nil, wrap(ErrConfig, err)
	}
	rw, err := rewind.New(c.Rewind)
	if err != nil {
		return nil, wrap(ErrConfig, err)
	}
	for i, m := range catalog.Vehicles().Table() {
		for _, g := range m.Guns {
			if g.Kind == inventory.GunFixed && g.Damage < vitals.PredatorDamage {
				// The ledger floors a fixed-damage gun's hit at vitals' Predator figure: a
				// lower damage would floor above the game's own.
				return nil, fmt.Errorf("%w: vehicle model %d: fixed gun damage %v below vitals.PredatorDamage",
					ErrConfig, inventory.FirstVehicleModel+i, g.Damage)
			}
		}
	}
	w := &World{
		cfg:      c,
		catalog:  catalog,
		models:   catalog.Vehicles(),
		life:     lw,
		teams:    teams.NewSlots(c.MaxPlayers),
		rw:       rw,
		vnear:    c.Rewind.VehicleNearDistance,
		players:  make([]*player, c.MaxPlayers),
		conns:    make([]PlayerID, 0, c.MaxPlayers),
		timerAt:  make([]time.Duration, c.MaxPlayers),
		flushDue: make([]time.Duration, c.MaxPlayers),
		vits:     make([]*vitals.Player, c.MaxPlayers),
		busy:     make([]uint64, (c.MaxPlayers+63)/64),
		live:     make([]uint64, (c.MaxPlayers+63)/64),
		vehicles: make([]vehicle, c.MaxVehicles),
		mult:     vitals.DefaultMultipliers,
		events:   make([]Event, 0, 256),
		recips:   make([]rewind.Recipient, 0, c.MaxPlayers),
		dues:     make([]lifecycle.Due, 0, 64),
		fates:    make([]teams.Fate, 0, teams.MaxOccupants),
		seats:    make([]teams.Seat, 0, teams.MaxOccupants),
		buf:      make([]byte, 0, wire.MaxSize),
		enc:      make([]byte, 0, wire.MaxSize),
		dropping: make([]PlayerID, 0, 16),
		refusals: make([]refusalBudget, c.MaxPlayers+1),
	}
	if w.stream, err = c.Stream.newStream(c.MaxPlayers); err != nil {
		return nil, err
	}
	w.fan.init(c.MaxPlayers, w.stream != nil)
	if w.vs, err = newVStream(c.Stream, w.stream, c.MaxPlayers, c.MaxVehicles); err != nil {
		return nil, err
	}
	if c.Weapons.Table != nil {
		w.base = *c.Weapons.Table
	} else {
		w.base = inventory.DefaultTable()
	}
	if w.vnear == 0 {
		w.vnear = rewind.DefaultVehicleNearDistance
	}
	w.rules = DefaultRules()
	// A claim on a vehicle is judged no farther than the rewind lists its recipients.
	w.rules.ClaimReach.Vehicle = min(w.vnear, VehicleClaimReach)
	return w, nil
}

// Config returns the World's configuration with its defaults filled in.
func (w *World) Config() Config { return w.cfg }

// Now returns the World's clock: the latest now it was given.
func (w *World) Now() time.Duration { return w.now }

// Stats returns the World's counters.
func (w *World) Stats() Stats { return w.stats }

// Catalog returns the World's weapon catalogue (read it; change properties through
// SetWeaponProperties).
func (w *World) Catalog() *inventory.Catalog { return w.catalog }

// Events appends every pending event to dst, oldest first, and forgets them.
func (w *World) Events(dst []Event) []Event {
	dst = append(dst, w.events...)
	w.events = w.events[:0]
	return dst
}

// advance moves the World's clock to now, or reports that now lies in the past.
func (w *World) advance(now time.Duration) bool {
	if now < w.now || now < 0 {
		return false
	}
	w.now = now
	return true
}

func (w *World) nextSerial() uint64 {
	w.serial++
	return w.serial
}

// raise queues e. A refusal diagnostic is charged to the budget of the connection whose
// input it refuses (RefusalEvents per RefusalInterval, the rest summarized); diagnostics
// leave RecordEventReserve of the queue to the records' events.
func (w *World) raise(e Event) {
	if i, ok := w.refusalSource(&e); ok && !w.allowRefusal(i) {
		return
	}
	limit := MaxPendingEvents
	if e.Kind.Diagnostic() {
		limit -= RecordEventReserve
	}
	if len(w.events) >= limit {
		w.stats.EventsDropped++
		if !e.Kind.Diagnostic() {
			w.stats.RecordEventsDropped++
		}
		return
	}
	w.events = append(w.events, e)
}

// connected reports whether slot id holds a connection (w.conn(id) != nil), reading no
// player.
func (w *World) connected(id PlayerID) bool {
	return int(id) < len(w.players) && w.live[id/64]&(1<<(id%64)) != 0
}

// messageDatagram reports whether a datagram whose wire.Peek gave id and err is a message
// datagram: one unreliable message, neither a bundle nor a lane datagram, which Receive
// decodes without its endpoint (transport.DecodeMessage).
func messageDatagram(id wire.ID, err error) bool {
	return err == nil && id != wire.IDBundle && !id.Transport()
}

// conn returns the connected player on id, or nil.
func (w *World) conn(id PlayerID) *player {
	if int(id) >= len(w.players) {
		return nil
	}
	if p := w.players[id]; p != nil && p.connected {
		return p
	}
	return nil
}

// ---- input ----

// Receive takes one datagram from connection conn at now: a Hello from a connection not
// yet joined, or anything from a joined one (an unreliable message, or a lane datagram
// whose messages are handled in order). The lane's acknowledgements that the datagram
// brought are routed at once (health commands, multiplier tables, the death zero). It
// returns an error for a datagram that did not decode (the World counts it and goes on),
// or when now lies in the past. Receive never panics, whatever the bytes.
func (w *World) Receive(now time.Duration, conn PlayerID, datagram []byte) error {
	if !w.advance(now) {
		return fmt.Errorf("%w: %v before %v", ErrClockBackwards, now, w.now)
	}
	w.stats.Datagrams++
	if int(conn) >= len(w.players) {
		w.refuseInput(conn, VerdictConnectionRange, "")
		return fmt.Errorf("%w: connection %d", ErrUnknownPlayer, conn)
	}
	// At 10,000 players a datagram's state is in memory, not the caches: ask for the lines
	// its id alone finds now, and once the player's first line is here for the rest a
	// frame or a shot reads, so that the misses overlap rather than wait each in its turn
	// (touchDatagram).
	w.touchID(conn)
	p := w.conn(conn)
	if p != nil {
		w.touchDatagram(p, datagram)
	}
	if p == nil {
		id, err := wire.Peek(datagram)
		if err != nil || id != wire.IDHello {
			if err != nil {
				w.stats.Malformed++
			}
			w.refuseInput(conn, VerdictUnknownConnection, "")
			if err != nil {
				return err
			}
			return fmt.Errorf("%w: connection %d sent %v before Hello", ErrUnknownPlayer, conn, id)
		}
		m, err := w.dec.Decode(datagram)
		if err != nil {
			w.stats.Malformed++
			w.refuseInput(conn, VerdictMalformed, "")
			return err
		}
		w.stats.Messages++
		w.join(now, conn, m.(*wire.Hello).Session)
		w.reap(now)
		return nil
	}
	p.lastHeard = now
	// A bundle is charged one unit of the datagram gate per element; one that does not
	// open is charged one and refused by the endpoint below.
	elems := 1
	// Only a lane datagram (alone or in a bundle) brings acknowledgements to route or
	// gives the lane something to send (an acknowledgement owed).
	laneData := false
	// A message datagram (neither a bundle nor a lane datagram) is decoded here as p's
	// endpoint would (transport.DecodeMessage), without reading the endpoint.
	message := false
	if id, err := wire.Peek(datagram); err == nil && id == wire.IDBundle {
		laneData = true
		if b, err := wire.OpenBundle(datagram); err == nil {
			elems = b.Len()
		}
	} else if err == nil && id.Transport() {
		laneData = true
	} else {
		message = messageDatagram(id, err)
	}
	if !w.takeDatagram(now, p, elems) {
		return fmt.Errorf("%w: connection %d", ErrRateLimited, conn)
	}
	if laneData {
		w.laneWork(p)
	}
	// The datagram's messages are pulled one by one, each with its own verdict or error.
	var err error
	malformed, wrongWay := 0, 0
	take := func(m wire.Message, merr error) {
		switch {
		case errors.Is(merr, transport.ErrWrongDirection):
			wrongWay++
		case merr != nil:
			malformed++
		}
		if merr != nil {
			if err == nil {
				err = merr
			}
			return
		}
		w.stats.Messages++
		if !p.connected || p.dropping {
			return // the connection ends with this datagram (a Disconnect before these messages)
		}
		if w.handle(now, conn, m).Refused() {
			w.stats.Refused++
		}
	}
	if message {
		take(transport.DecodeMessage(&w.dec, transport.Server, datagram))
	} else {
		if err = p.ep.Open(now, datagram); err != nil {
			malformed++
		}
		for {
			m, ok, merr := p.ep.Next()
			if !ok {
				break
			}
			take(m, merr)
		}
	}
	if malformed > 0 {
		w.stats.Malformed += uint64(malformed)
		w.refuseInput(conn, VerdictMalformed, "")
	}
	if wrongWay > 0 {
		w.stats.Refused += uint64(wrongWay)
		w.refuseInput(conn, VerdictWrongDirection, "")
	}
	if p.connected && laneData {
		w.routeAcks(p)
	}
	w.reap(now)
	return err
}

// Handle takes one decoded message of connection conn at now, as if it had arrived in a
// datagram: the entry point for tests and for hosts that decode themselves. It returns the
// World's verdict. Messages a server sends are refused (VerdictWrongDirection).
func (w *World) Handle(now time.Duration, conn PlayerID, m wire.Message) Verdict {
	if m == nil {
		return VerdictMalformed
	}
	if !w.advance(now) {
		return VerdictClockBackwards
	}
	w.stats.Messages++
	if int(conn) >= len(w.players) {
		w.stats.Refused++
		return VerdictConnectionRange
	}
	if m.ID().Direction() == wire.ServerToClient {
		w.stats.Refused++
		w.refuseInput(conn, VerdictWrongDirection, m.ID().String())
		return VerdictWrongDirection
	}
	// A decoded message is valid by the wire's rules; one built by the host is checked by
	// the same rules (Append validates exactly what Decode does).
	b, err := m.Append(w.buf[:0])
	if err != nil {
		w.stats.Refused++
		w.refuseInput(conn, VerdictMalformed, err.Error())
		return VerdictMalformed
	}
	w.buf = b[:0]
	p := w.conn(conn)
	if p == nil {
		hello, ok := m.(*wire.Hello)
		if !ok {
			w.stats.Refused++
			w.refuseInput(conn, VerdictUnknownConnection, m.ID().String())
			return VerdictUnknownConnection
		}
		w.join(now, conn, hello.Session)
		w.reap(now)
		return VerdictAccepted
	}
	p.lastHeard = now
	v := w.handle(now, conn, m)
	if v.Refused() {
		w.stats.Refused++
	}
	if p.connected {
		w.routeAcks(p)
	}
	w.reap(now)
	return v
}

// handle dispatches one message of a joined connection.
func (w *World) handle(now time.Duration, conn PlayerID, m wire.Message) Verdict {
	p := w.players[conn]
	switch m := m.(type) {
	case *wire.Hello:
		w.welcome(p)
		return VerdictIgnored
	case *wire.PlayerSync:
		return w.onPlayerSync(now, p, m)
	case *wire.VehicleSync:
		return w.onVehicleSync(now, p, m)
	case *wire.DamageReport:
		return w.onDamageReport(now, p, m)
	case *wire.DeathReport:
		return w.onDeathReport(now, p, m)
	case *wire.RespawnRequest:
		return w.onRespawnRequest(now, p, m)
	case *wire.WeaponShot:
		return w.onWeaponShot(now, p, m)
	case *wire.VehicleShot:
		return w.onVehicleShot(now, p, m)
	case *wire.ProjectileLaunch:
		return w.onProjectile(now, p, m)
	case *wire.Detonation:
		return w.onDetonation(now, p, m)
	case *wire.StealthKill:
		return w.onStealthKill(now, p, m)
	case *wire.VehicleExplode:
		return w.onVehicleExplode(now, p, m)
	case *wire.Ping:
		w.msgs.pong = wire.Pong{Seq: m.Seq, Time: m.Time}
		if !w.sendOwn(p, &w.msgs.pong) {
			return VerdictLaneFull
		}
		return VerdictAccepted
	case *wire.Pong:
		v, err := w.rw.Pong(now, p.id, m.Seq)
		if err != nil || v != rewind.PongAccepted {
			return VerdictIgnored
		}
		// The estimate moved: the inventory bounds old shots of overwritten weapons by it.
		p.inv.SetRTT(w.rw.RTT(p.id))
		return VerdictAccepted
	case *wire.Disconnect:
		w.markDrop(p, wire.ReasonQuit)
		return VerdictAccepted
	}
	w.refuseInput(conn, VerdictWrongDirection, m.ID().String())
	return VerdictWrongDirection
}

func (w *World) refuseInput(conn PlayerID, v Verdict, detail string) {
	w.raise(Event{Kind: EventInputRefused, At: w.now, Player: conn, Other: NoPlayer, Vehicle: NoVehicle, Verdict: v, Detail: detail})
}

// ---- timers ----

// Tick advances the World's timers to now: the vitals waits of every player (frames and
// reports whose ReportWait ran out), the lifecycle's deadlines and due respawns, pings
// (rewind.PingDue), the god-mode detector, and the link timeout of silent connections.
// Call it every tick of the host (at least every frame interval), after the tick's input.
func (w *World) Tick(now time.Duration) error {
	if !w.advance(now) {
		return fmt.Errorf("%w: %v before %v", ErrClockBackwards, now, w.now)
	}
	// The connections whose ledger is Busy, in ascending id as w.conns: an idle ledger's
	// Advance would change nothing and return no effect. The word is read again after each
	// (live, as a walk over w.conns would find a ledger an earlier one's effects made busy).
	for k := range w.busy {
		for word := w.busy[k]; word != 0; {
			b := bits.TrailingZeros64(word)
			id := PlayerID(k*64 + b)
			eff := w.vits[id].Advance(now)
			if hasEffects(&eff) {
				w.takeEffects(now, w.players[id], &eff)
			}
			word = w.busy[k] &^ (uint64(1)<<(b+1) - 1)
		}
	}
	w.summarizeRefusals(now)
	w.payDebts(now)
	w.dues = w.life.Advance(now, w.dues[:0])
	for i := range w.dues {
		d := &w.dues[i]
		switch d.Kind {
		case lifecycle.DueCommit:
			if p := w.conn(d.Commit.Subject.ID); p != nil {
				w.committed(now, p, d.Commit)
			}
		case lifecycle.DueGrant:
			if p := w.conn(d.Grant.Subject.ID); p != nil {
				w.granted(now, p, d.Grant)
			}
		}
	}
	for _, id := range w.conns {
		if now < w.timerAt[id] && w.stream != nil {
			continue // none of its timers is due: its lines are not read
		}
		p := w.players[id]
		if now-p.lastHeard >= transport.LinkTimeout {
			w.markDrop(p, wire.ReasonTimeout)
			continue
		}
		if w.rw.PingDue(now, id) {
			if seq, err := w.rw.Ping(now, id); err == nil {
				p.pingDue = now + rewind.PingInterval
				w.msgs.ping = wire.Ping{Seq: seq, Time: uint32(now / time.Millisecond)}
				w.sendOwn(p, &w.msgs.ping)
			}
		}
		if w.stream == nil && p.nUnshown > 0 { // while streaming nothing is unshown: its line is not read
			w.drainShows(now, p)
		}
		if now >= p.nextSuspect {
			p.nextSuspect = now + SuspectInterval
			if s := p.vit.Suspect(now); s.Raised {
				w.raiseSuspicion(now, p, s)
			}
			if p.vgod != nil {
				if s := p.vgod.Suspect(now); s.Raised {
					w.raiseVehicleSuspicion(now, p, s)
				}
			}
		}
		w.timerAt[id] = min(p.lastHeard+transport.LinkTimeout, p.pingDue, p.nextSuspect)
	}
	w.streamTick(now)
	w.reap(now)
	return nil
}

func (w *World) raiseSuspicion(now time.Duration, p *player, s vitals.Suspicion) {
	w.raise(Event{Kind: EventGodModeSuspect, At: now, Player: p.id, Other: NoPlayer, Vehicle: NoVehicle,
		Amount: s.Claimed, Deducted: s.Felt, Seq: uint16(min(max(s.Hits-s.Confirmed, 0), 0xFFFF))})
}

func (w *World) raiseVehicleSuspicion(now time.Duration, p *player, s vitals.Suspicion) {
	v, ok := NoVehicle, false
	if p.vgod != nil {
		v, ok = p.vgod.Vehicle()
	}
	if !ok {
		v = NoVehicle
	}
	w.raise(Event{Kind: EventVehicleGodModeSuspect, At: now, Player: p.id, Other: NoPlayer, Vehicle: v,
		Amount: s.Claimed, Deducted: s.Felt, Seq: uint16(min(max(s.Hits, 0), 0xFFFF))})
}

// ---- output ----

// Flush hands every datagram the World has for its connections to emit, connection by
// connection in ascending id: unreliable messages first (the connection's own, then the
// relays), then what each reliable lane has ready (new messages, retransmissions,
// acknowledgements), and the Disconnect of every connection removed since the last Flush.
// What one connection gets is coalesced: packed, in that order, into bundles of at most
// Config.PayloadSize bytes (wire.IDBundle), as few as fit, a lone datagram bare (see
// Stats.DatagramsSent). The slice passed to emit is only valid during the call. A lane
// that must disconnect (its hard cap, or the link timeout) is removed here with a
// Disconnect.
func (w *World) Flush(now time.Duration, emit func(conn PlayerID, datagram []byte)) error {
	if !w.advance(now) {
		return fmt.Errorf("%w: %v before %v", ErrClockBackwards, now, w.now)
	}
	sent, elems := w.pack.Datagrams, w.pack.Elements
	for _, id := range w.conns {
		one := func(d []byte) { emit(id, d) } // does not escape: no allocation
		w.pack.Start(w.cfg.PayloadSize)
		if now < w.flushDue[id] {
			// Nothing of its own (flushDue): only its relays, and its player is not read
			// while streaming ([flush-own-due]).
			w.emitTo(id, one)
			w.pack.Finish(one)
			continue
		}
		p := w.players[id]
		add := func(d []byte) { w.pack.Send(d, one) }
		p.out.emit(add)
		w.emitTo(id, one)
		var err error
		if now >= p.laneDue {
			err = p.ep.Flush(now, add)
			p.laneDue = laneIdle
			if d, ok := p.ep.NextDeadline(); ok {
				p.laneDue = d
			}
		}
		w.flushDue[id] = p.laneDue // the outbox is empty now
		w.pack.Finish(one)
		if err != nil {
			reason := wire.ReasonOverflow
			if errors.Is(err, lane.ErrLinkTimeout) {
				reason = wire.ReasonTimeout
			}
			w.markDrop(p, reason)
		}
	}
	w.stats.Flushes++
	w.stats.DatagramsSent += w.pack.Datagrams - sent
	w.stats.ElementsSent += w.pack.Elements - elems
	w.fan.reset()
	w.reap(now)
	for _, f := range w.farewells {
		w.msgs.disconnect = wire.Disconnect{Reason: f.reason}
		if b, err := w.msgs.disconnect.Append(w.buf[:0]); err == nil {
			w.buf = b[:0]
			emit(f.conn, b)
		}
	}
	w.farewells = w.farewells[:0]
	return nil
}

// NextDeadline is the earliest moment any connection's lane wants a Flush (a
// retransmission), and false when no lane has one.
func (w *World) NextDeadline() (time.Duration, bool) {
	var best time.Duration
	ok := false
	for _, id := range w.conns {
		if d, has := w.players[id].ep.NextDeadline(); has && (!ok || d < best) {
			best, ok = d, true
		}
	}
	return best, ok
}

// ---- lane helpers ----

// laneIdle is a player's laneDue while its lane has nothing to send.
const laneIdle = time.Duration(math.MaxInt64)

// queue puts m on p's lane. A lane that must disconnect marks p for removal.
func (w *World) queue(now time.Duration, p *player, m wire.Message) (lane.Seq, bool) {
	w.laneWork(p)
	seq, err := p.ep.Queue(now, m)
	if err != nil {
		if errors.Is(err, lane.ErrMustDisconnect) {
			w.markDrop(p, wire.ReasonOverflow)
		}
		return 0, false
	}
	return seq, true
}

// laneWork records that p's lane may have work (a message queued, a lane datagram or
// bundle received): it is due now, for the next Flush.
func (w *World) laneWork(p *player) {
	p.laneDue = 0
	w.flushDue[p.id] = 0
}

// sendOwn puts m, a datagram of p's own, in p's outbox (outbox.send) and makes p due at
// the next Flush ([flush-own-due]); false when the outbox did not take it.
func (w *World) sendOwn(p *player, m wire.Message) bool {
	if !p.out.send(m) {
		return false
	}
	w.flushDue[p.id] = 0
	return true
}

// canQueueAll reports whether every connection's lane takes m now.
func (w *World) canQueueAll(m wire.Message) error {
	for _, id := range w.conns {
		if err := w.players[id].ep.CanQueue(m); err != nil {
			return fmt.Errorf("%w: player %d: %w", ErrLaneFull, id, err)
		}
	}
	return nil
}

// ---- removal ----

func (w *World) markDrop(p *player, reason wire.Reason) {
	if !p.connected || p.dropping {
		return
	}
	p.dropping, p.dropReason = true, reason
	w.dropping = append(w.dropping, p.id)
}

// reap removes every connection marked for removal, in the order they were marked (a
// removal can mark more: a critical edge to a full lane).
func (w *World) reap(now time.Duration) {
	for i := 0; i < len(w.dropping); i++ {
		if p := w.conn(w.dropping[i]); p != nil {
			w.leave(now, p, p.dropReason)
		}
	}
	w.dropping = w.dropping[:0]
}

// Kick removes player id from the World with a Disconnect (ReasonKicked). A player inside
// the death wait leaves dead (its death is committed first).
func (w *World) Kick(now time.Duration, id PlayerID) error {
	if !w.advance(now) {
		return fmt.Errorf("%w: %v before %v", ErrClockBackwards, now, w.now)
	}
	p := w.conn(id)
	if p == nil {
		return fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	w.markDrop(p, wire.ReasonKicked)
	w.reap(now)
	return nil
}
