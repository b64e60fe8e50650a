package match

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"golang.org/x/exp/stats"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/replay"
	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/internal/sim"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// The match's clocks.
const (
	// ServerTick is how often the server advances and flushes.
	ServerTick = 10 * time.Millisecond
	// ClientTick is how often each client advances and flushes.
	ClientTick = 10 * time.Millisecond
	// ThinkInterval is how often a bot decides what to do.
	ThinkInterval = 100 * time.Millisecond
	// serverNode is the simulated network's node of the server; player i is node i+1.
	serverNode sim.NodeID = 0
)

// Match is one simulated match: the reference server, one honest client and bot per
// player, the arena, and the gamemode, on a simulated network. Run plays a whole match;
// tests drive a Match step by step with Start, RunUntil and Finish.
type Match struct {
	cfg     Config
	sim     *sim.Sim
	net     *sim.Network
	server  *replay.Recorder // the World, recorded when Config.Record is set
	world   *world
	players []*player
	gm      *gamemode
	report  Report
	vcheck  vehicleCheck // the vehicle copies check (vcheck.go)
	// foreign receives the server's datagrams to connections beyond the lineup (a test
	// kit's raw connections, OnForeign).
	foreign func(now time.Duration, conn wire.PlayerID, d []byte)

	events  []refserver.Event
	decoder wire.Decoder
	// cheatDecoder decodes what the cheats rewrite and watch.
	cheatDecoder wire.Decoder
	// clientDecoder is the one decoder every client decodes into (Client.ShareDecoder:
	// the match drives them all from one goroutine, one message at a time).
	clientDecoder wire.Decoder
	cheaters      []*player
	// adv measures the mutator and flood cheats (nil without them).
	adv      *adversary
	incident int
	quiet    bool // play is over: no damage, no commands
	// OnEvent, when set, sees every server event as the match drains it (tests).
	OnEvent func(refserver.Event)
	// shotDec decodes the honest shots the weapon measurements look at.
	shotDec wire.Decoder
	// warmed sums what warm read, so that its loads are kept.
	warmed int
}

// player is one player of the match: its honest client, its bot and what the match
// measures of it.
type player struct {
	idx  int
	id   wire.PlayerID
	node sim.NodeID
	c    *client.Client
	rng  *rand.Rand
	rtt  time.Duration
	// cheat is nil for an honest player.
	cheat *cheater
	// measurements on the server's side of the link
	reportsIn    map[uint16]time.Duration // hit reports received: number -> arrival
	frameCovered uint16                   // highest damage_seq a received frame carried
	framesSeen   bool
	// race bookkeeping: health commands sent, in order
	sent []sentCommand
	// weapons: commands that took its guns, its old shots, its spray (overwrite.go)
	weapons weaponTrack
	// rates is its traffic into the server (honest players)
	rates rates
	// bot comes last: the client tick reads c, cheat and weapons, which then share the
	// struct's first cache lines (the bot is read every ThinkInterval only).
	bot bot
}

// sentCommand is a set_health the gamemode sent to a player.
type sentCommand struct {
	at    time.Duration
	value float32
}

// New builds a match from cfg (zero fields take their defaults) without starting it.
func New(cfg Config) (*Match, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := sim.New(cfg.Seed)
	net, err := sim.NewNetwork(s, sim.LinkConfig{})
	if err != nil {
		return nil, err
	}
	world, err := refserver.New(cfg.serverConfig())
	if err != nil {
		return nil, err
	}
	server, err := replay.NewRecorder(world, cfg.Record)
	if err != nil {
		return nil, err
	}
	m := &Match{cfg: cfg, sim: s, net: net, server: server, world: newWorld(s.Stream(1), cfg.Vehicles, cfg.half())}
	m.world.skip = make([]bool, cfg.Players)
	if cfg.Manual {
		m.world.wallChance, m.world.pelletChance = 0, 1
	}
	m.report = Report{
		Seed: cfg.Seed, Players: cfg.Players, DurationSeconds: cfg.Duration.Seconds(),
		RTTMinMs: millis(cfg.RTTMin), RTTMaxMs: millis(cfg.RTTMax), JitterMs: millis(cfg.Jitter), Loss: cfg.Loss,
		Sources: map[string]int{}, Deathways: map[string]int{}, Events: map[string]int{},
	}
	for i := range cfg.Players {
		p := &player{idx: i, id: wire.PlayerID(i), node: sim.NodeID(i + 1), rng: s.Stream(uint64(100 + i)),
			rtt: cfg.rtt(i), reportsIn: map[uint16]time.Duration{}}
		kind, link := Honest, sim.LinkConfig{Jitter: cfg.Jitter, Loss: cfg.Loss}
		if first := cfg.Players - cfg.Cheaters; i >= first {
			kind = Cheat(1 + (i-first)%int(cheatCount-1))
		}
		if i < len(cfg.Lineup) {
			s := cfg.Lineup[i]
			kind, p.rtt, link.Jitter, link.Loss = s.Cheat, s.RTT, s.Jitter, s.Loss
		}
		ccfg := client.Config{World: m.world, Seed: cfg.Seed*1000 + uint64(i)}
		if kind == Honest {
			ccfg.PayloadSize = cfg.ClientPayload
		}
		c, err := client.New(ccfg)
		if err != nil {
			return nil, err
		}
		c.ShareDecoder(&m.clientDecoder)
		p.c = c
		p.bot = newBot(p, cfg)
		if kind != Honest {
			p.bot.brawler = false // a cheater fights with its guns, on foot
			p.cheat = newCheater(kind, i)
			m.cheaters = append(m.cheaters, p)
			m.world.skip[i] = p.cheat.kind == CheatSkipHits
		}
		link.Delay = p.rtt / 2
		if err := net.SetPath(serverNode, p.node, link); err != nil {
			return nil, err
		}
		m.players = append(m.players, p)
	}
	m.gm = newGamemode(m, s.Stream(2))
	m.adv = newAdversary(m)
	return m, nil
}

// Run plays the match cfg describes and returns its report.
func Run(cfg Config) (Report, error) {
	m, err := New(cfg)
	if err != nil {
		return Report{}, err
	}
	if err := m.Start(); err != nil {
		return Report{}, err
	}
	m.RunUntil(m.cfg.Duration)
	return m.Finish()
}

// Config returns the match's configuration with its defaults filled in.
func (m *Match) Config() Config { return m.cfg }

// Server returns the match's reference server.
func (m *Match) Server() *refserver.World { return m.server.World }

// Client returns the honest client of player i.
func (m *Match) Client(i int) *client.Client { return m.players[i].c }

// Now returns the match's virtual time.
func (m *Match) Now() time.Duration { return m.sim.Now() }

// Start wires the server and the clients to the network and schedules their clocks.
func (m *Match) Start() error {
	m.net.Attach(serverNode, m.serverReceive)
	if err := m.gm.setup(0); err != nil {
		return err
	}
	m.sim.Every(0, ServerTick, func() bool { m.serverTick(); return true })
	// The clients tick in ClientTick/time.Millisecond groups by their index, a group's
	// clients in one event in index order: the order one event each gave them (each
	// requeued itself behind the one before), for a tenth of the events. A group's ticks
	// are scheduled where its first client's was, in the loop below.
	groups := make([][]*player, int(ClientTick/time.Millisecond))
	for _, p := range m.players {
		g := p.idx % len(groups)
		groups[g] = append(groups[g], p)
	}
	for _, p := range m.players {
		p := p
		c := p.c // the delivery goes straight to the client, not through its player
		m.net.Attach(p.node, func(_ sim.NodeID, d []byte) { _ = c.Receive(m.sim.Now(), d) })
		g := p.idx % len(groups)
		offset := time.Duration(g) * time.Millisecond
		if group := groups[g]; group[0] == p {
			m.sim.Every(offset, ClientTick, func() bool {
				m.warm(group)
				for _, p := range group {
					m.clientTick(p)
				}
				return true
			})
		}
		m.sim.Every(offset+time.Duration(p.idx)*3*time.Millisecond, ThinkInterval, func() bool {
			if !m.quiet && !m.cfg.Manual {
				p.bot.think(m.sim.Now(), m)
			}
			return true
		})
	}
	m.sim.Every(VehicleCheckEvery, VehicleCheckEvery, func() bool { m.checkVehicleCopies(); return true })
	m.sim.Every(5*time.Millisecond, ThinkInterval, func() bool {
		if !m.quiet && !m.cfg.Manual {
			if !m.cfg.Race { // the race measures shots against commands, nothing else
				m.physics(m.sim.Now())
			}
			m.cheatTick(m.sim.Now())
			m.checkCounts(m.sim.Now())
			m.gm.tick(m.sim.Now())
		}
		return true
	})
	return nil
}

// RunUntil runs the match up to virtual time t.
func (m *Match) RunUntil(t time.Duration) { m.sim.RunUntil(t) }

// Finish ends play (no more damage or commands, bots stand still), lets the match settle
// for Config.Settle, compares every player's server state with its client's, and returns
// the report.
func (m *Match) Finish() (Report, error) {
	m.quiet = true
	for _, p := range m.players {
		p.bot.stop(m.sim.Now(), m)
	}
	m.sim.RunFor(m.cfg.Settle)
	m.compareFinal()
	m.finishCheats()
	m.collect()
	if err := m.server.Close(); err != nil {
		return m.report, fmt.Errorf("match: record: %w", err)
	}
	return m.report, nil
}

func (m *Match) serverReceive(from sim.NodeID, d []byte) {
	now := m.sim.Now()
	conn := wire.PlayerID(from - 1)
	if int(conn) < len(m.players) && !m.players[conn].flooding() {
		m.observe(now, m.players[conn], d)
	}
	_ = m.server.Receive(now, conn, d)
}

func (m *Match) serverTick() {
	now := m.sim.Now()
	_ = m.server.Tick(now)
	_ = m.server.Flush(now, func(conn wire.PlayerID, d []byte) {
		if int(conn) >= len(m.players) && m.foreign != nil {
			m.foreign(now, conn, d)
			return
		}
		for e := range wire.Elements(d) { // each message the server's bundles carry
			m.watch(now, int(conn), e)
		}
		m.net.Send(serverNode, sim.NodeID(conn)+1, d)
	})
	if m.adv != nil {
		m.adv.settle(now)
	}
	m.events = m.server.Events(m.events[:0])
	for _, e := range m.events {
		m.onEvent(e)
	}
	if m.gm.hook != nil && !m.quiet {
		m.gm.hook.Handle(now, m.events)
	}
	if m.adv != nil {
		m.adv.floodCheck(now)
	}
}

// warm reads, for each player of a group about to tick, its player struct and what a tick
// reads first of its client (Client.Warm), in a loop of loads that depend on nothing
// before them: the processor has many of them in flight at once, where the ticks one
// after the other would each wait for their own (a crowd's clients do not fit the
// caches). It changes nothing.
func (m *Match) warm(group []*player) {
	n := 0
	for _, p := range group {
		n += p.c.Warm()
	}
	m.warmed += n
}

func (m *Match) clientTick(p *player) {
	now := m.sim.Now()
	_ = p.c.Tick(now)
	send := func(d []byte) { m.net.Send(p.node, serverNode, d) }
	_ = p.c.Flush(now, func(d []byte) {
		for e := range wire.Elements(d) { // an honest client's bundles (Config.ClientPayload)
			m.clientSent(p, e)
		}
		m.outgoing(now, p, d, send)
	})
	m.trackClient(p)
	m.forge(now, p, send)
	// The match reads the clients' state directly; their events are only drained.
	for _, ok := p.c.PopEvent(); ok; _, ok = p.c.PopEvent() {
	}
}

// observe looks at a datagram on its way into the server, for the measurements of the
// client's order (frames that arrive before their report) and of commands racing reports:
// each element of a bundle as if it had come alone (the rates count elements, as the
// server's datagram gate does).
func (m *Match) observe(now time.Duration, p *player, d []byte) {
	for e := range wire.Elements(d) {
		m.observeOne(now, p, e)
	}
}

func (m *Match) observeOne(now time.Duration, p *player, d []byte) {
	id, err := wire.Peek(d)
	if err == nil {
		m.observeRate(now, p, id)
	}
	if err != nil || id.Transport() {
		return
	}
	msg, err := m.decoder.Decode(d)
	if err != nil {
		return
	}
	switch msg := msg.(type) {
	case *wire.PlayerSync:
		if !p.framesSeen || revision.Newer(msg.DamageSeq, p.frameCovered) {
			p.frameCovered, p.framesSeen = msg.DamageSeq, true
		}
	case *wire.WeaponShot:
		m.oldShotArrived(now, p, msg)
	case *wire.DamageReport:
		if isSum(msg.Weapon) {
			return
		}
		m.farReport(p, msg)
		p.reportsIn[msg.DamageSeq] = now
		m.report.Race.ReportedHits++
		if p.framesSeen && revision.NewerOrEqual(p.frameCovered, msg.DamageSeq) {
			m.report.Race.FramesFirst++
		}
		m.gm.reportArrived(now, p, msg)
	}
}

// isSum reports whether a damage report of this cause is a sum (fire, spray,
// extinguisher, falls, drowning), which by design comes after the frames that showed it.
func isSum(weapon uint8) bool {
	switch weapon {
	case inventory.CauseFire, inventory.CauseSpraycan, inventory.CauseExtinguisher, inventory.CauseFall, inventory.CauseDrowning:
		return true
	}
	return false
}

func (m *Match) onEvent(e refserver.Event) {
	if m.OnEvent != nil {
		m.OnEvent(e)
	}
	if m.adv != nil {
		m.adv.event(e)
	}
	m.report.Events[e.Kind.String()]++
	m.farCredit(e)
	if e.Player != refserver.NoPlayer && int(e.Player) >= len(m.players) {
		return // a connection beyond the lineup (a test kit's raw connection) is no honest player
	}
	p := m.player(e.Player)
	if p != nil && p.cheat != nil {
		m.onCheaterEvent(p, e)
		return
	}
	if e.Kind == refserver.EventStealthKillRefused || e.Kind == refserver.EventReportNotCredited {
		// Refusals caused by a cheater (its claim, its attack) wrong nobody honest.
		if o := m.player(e.Other); o != nil && o.cheat != nil {
			return
		}
	}
	switch e.Kind {
	case refserver.EventPlayerJoin:
		if p != nil {
			m.gm.onJoin(p)
		}
	case refserver.EventPlayerDamage:
		m.report.Credited++
	case refserver.EventPlayerDeath:
		m.report.Deaths++
		if p != nil {
			m.gm.onDeath(p)
		}
		m.report.Deathways[e.Commit.String()]++
		if p != nil && e.Commit != lifecycle.CommitByReport && p.c.Alive() && p.c.Health() > 0 {
			m.report.Wronged.EarlyDeaths++
			m.incidentf("early death: player %d committed dead (%v) at %v while its client has %.1f health",
				e.Player, e.Commit, e.At, p.c.Health())
		}
	case refserver.EventGodMode:
		m.report.Wronged.CutFrames++
		m.incidentf("cut frame: player %d at %v, excess %.2f", e.Player, e.At, e.Amount)
	case refserver.EventGodModeSuspect, refserver.EventVehicleGodModeSuspect:
		m.report.Suspicions++
	case refserver.EventShotRefused, refserver.EventProjectileRefused:
		if !sanctionedRefusal(e.Verdict) {
			m.report.Wronged.RefusedShots++
			m.incidentf("refused %v: player %d #%d weapon %d at %v: %v (%s)", e.Kind, e.Player, e.Seq, e.Weapon, e.At, e.Verdict, e.Detail)
		}
	case refserver.EventStealthKillRefused:
		if !sanctionedRefusal(e.Verdict) {
			m.report.Wronged.RefusedShots++
			m.incidentf("refused stealth kill: player %d on %d at %v: %v (%s)", e.Other, e.Player, e.At, e.Verdict, e.Detail)
		}
	case refserver.EventReportNotCredited:
		if !sanctionedDiscard(e.Verdict) {
			m.report.Wronged.Disagreements++
			m.incidentf("report not credited: victim %d attacker %d weapon %d #%d at %v: %v (%s)", e.Player, e.Other, e.Weapon, e.Seq, e.At, e.Verdict, e.Detail)
		}
	case refserver.EventCommandRefused:
		// Counted where the gamemode issues the command (it knows whether it expected it
		// to succeed).
	case refserver.EventInputRefused:
		if e.Vehicle != refserver.NoVehicle { // a frame refused for the seat it claims
			m.report.Wronged.RefusedEntries++
			m.incidentf("refused entry: player %d into vehicle %d at %v: %v (%s), holder %d", e.Player, e.Vehicle, e.At, e.Verdict, e.Detail, e.Other)
		}
	}
}

// sanctionedRefusal reports whether a refusal of an honest player's action is one the
// records prescribe for a world that changed under the action (its target died or became
// a teammate, its own life ended before the action arrived): not a wrong.
func sanctionedRefusal(v refserver.Verdict) bool {
	switch v {
	case refserver.VerdictTeammate, refserver.VerdictTargetNotAlive:
		// The target became a teammate, or died (a stealth kill of a victim already counted
		// dead has nothing left to kill), while the action was in flight.
		return true
	}
	return false
}

// sanctionedDiscard reports whether a report the server did not credit was discarded by a
// rule of the records that an honest victim can meet: a hit from an action accepted
// before a team change, or damage between teammates the victim applied because its newest
// stamp was older than the change (teams' [teammate-refused-by-victim]); both come as VerdictTeammate. Every other
// discard (a vitals verdict: stale, too far ahead, another life, a future revision, ...)
// is a wrong: an honest victim's reports are never discarded for them.
func sanctionedDiscard(v refserver.Verdict) bool {
	return v == refserver.VerdictTeammate
}

// onCheaterEvent counts the server's events about a cheater: they are the cheat meeting
// the rules, not an honest player wronged.
func (m *Match) onCheaterEvent(p *player, e refserver.Event) {
	ch := p.cheat
	if ch.stale != nil {
		m.staleEvent(p, e)
	}
	if ch.veh != nil {
		m.onVehicleCheatEvent(p, e)
	}
	switch e.Kind {
	case refserver.EventGodMode, refserver.EventGodModeSuspect, refserver.EventVehicleGodModeSuspect:
		ch.report.Flagged++
		if e.Kind != refserver.EventGodMode {
			m.report.Events[e.Kind.String()+"_cheater"]++
		}
	case refserver.EventShotRefused, refserver.EventProjectileRefused, refserver.EventStealthKillRefused:
		ch.report.Refused++
	case refserver.EventRespawnGranted:
		if !ch.spawned || e.Gen != ch.gen { // a regrant of the same life changes nothing
			ch.spawned, ch.gen = true, e.Gen
			m.onCheaterSpawn(m.sim.Now(), p)
		}
		ch.diedAt = -1
	case refserver.EventPlayerDamage:
		m.report.Credited++
	case refserver.EventPlayerDeath:
		m.report.Deaths++
		m.report.Deathways[e.Commit.String()]++
		m.gm.onDeath(p)
		ch.diedAt = e.At
	case refserver.EventPlayerJoin:
		m.gm.onJoin(p)
	}
}

func (m *Match) player(id wire.PlayerID) *player {
	if int(id) < len(m.players) {
		return m.players[id]
	}
	return nil
}

func (m *Match) incidentf(format string, a ...any) {
	m.incident++
	if len(m.report.Incidents) < MaxIncidents {
		m.report.Incidents = append(m.report.Incidents, fmt.Sprintf(format, a...))
	}
}

// compareFinal compares, after the match settled, every player's state on the server with
// its client's: life, generation, health, armor and weapons.
func (m *Match) compareFinal() {
	for _, p := range m.players {
		if p.cheat != nil {
			continue
		}
		c := p.c
		alive := m.server.Alive(p.id)
		gen, err := m.server.Generation(p.id)
		if err != nil {
			m.disagree(p, "unknown to the server: %v", err)
			continue
		}
		if alive != c.Alive() || gen != c.DeathEpoch() {
			m.disagree(p, "life: server alive=%v gen=%d, client alive=%v gen=%d", alive, gen, c.Alive(), c.DeathEpoch())
			continue
		}
		if !alive {
			continue
		}
		v, err := m.server.Vitals(p.id)
		if err != nil {
			m.disagree(p, "vitals: %v", err)
			continue
		}
		if diff(v.Health, c.Health()) > 0.01 || diff(v.Armor, c.Armor()) > 0.01 {
			m.disagree(p, "vitals: server %.2f/%.2f, client %.2f/%.2f", v.Health, v.Armor, c.Health(), c.Armor())
		}
		slots, err := m.server.Weapons(p.id)
		if err != nil {
			m.disagree(p, "weapons: %v", err)
			continue
		}
		held, _ := m.server.HeldWeapon(p.id)
		w := c.Weapons()
		if !sameStore(slots, held, w) {
			m.disagree(p, "weapons: server %v held %d, client %v held %d", slots, held, w.Slots, w.Held)
		}
	}
}

// sameStore compares the server's weapon store with the client's: the same weapon in every
// slot, the same held weapon with the same total and clip. A weapon that is not held is
// seen only through the frames that held it, so its readback is exact "up to one frame
// interval" of holding it (inventory's [never-below-client]): the rounds spent in the last frame
// interval before a switch are never shown. For those the invariant is compared instead:
// the server's count is never below the client's.
func sameStore(slots [inventory.NumSlots]inventory.Slot, held uint8, w client.Weapons) bool {
	if held != w.Held {
		return false
	}
	for i := range slots {
		s, c := slots[i], w.Slots[i]
		if s.Weapon != c.Weapon || s.Total < c.Total {
			return false
		}
		if s.Weapon == held && s.Weapon != 0 && (s.Total != c.Total || s.Total > 0 && s.Clip != c.Clip) {
			return false
		}
	}
	return true
}

func (m *Match) disagree(p *player, format string, a ...any) {
	m.report.Wronged.Disagreements++
	m.incidentf("after the match, player %d: %s", p.idx, fmt.Sprintf(format, a...))
}

func diff(a, b float32) float32 {
	if a > b {
		return a - b
	}
	return b - a
}

// collect sums the clients' counters and the network's into the report.
func (m *Match) collect() {
	r := &m.report
	var rtts []float64
	for _, p := range m.players {
		k := p.c.Counters()
		r.Frames += k.Frames
		r.Reports += k.Reports
		r.Shots += k.Shots
		r.Respawns += k.Respawns
		if rtt, ok := m.server.RTT(p.id); ok {
			rtts = append(rtts, millis(rtt))
		}
		if st, err := m.server.LaneStats(p.id); err == nil {
			r.Network.Retransmissions += int(st.Retransmits)
		}
		r.Network.Retransmissions += int(p.c.Endpoint().Lane().Stats().Retransmits)
		for _, e := range p.c.AppendReportLog(nil) {
			r.Sources[sourceName(e)]++
		}
		m.measureOrigins(p)
	}
	n := m.net.TotalStats()
	r.Network.Datagrams, r.Network.Lost, r.Network.Duplicated = n.Sent, n.Lost, n.Duplicated
	r.Network.Overtaken, r.Network.Bytes = n.Overtaken, n.Bytes
	if len(rtts) > 0 {
		slices.Sort(rtts)
		r.Network.RTTMedianMs = stats.Median(rtts)
	}
	r.Commands = m.gm.commands
	st := m.server.Stats()
	r.Weapons.FireCharged = int(st.FireSpent)
	r.Weapons.OldShotMarginMs = millis(inventory.OverwriteShotMargin)
	r.Vehicles.Entries, r.Vehicles.EntriesRefused = int(st.Entries), int(st.EntriesRefused)
	r.Vehicles.WorstEntryM, r.Vehicles.WorstGunOriginM = float64(st.EntryReachMax), float64(st.VehicleGunOriginMax)
	for _, p := range m.players {
		if p.cheat == nil {
			r.Vehicles.Shows += p.c.Counters().VehicleShows
			r.Vehicles.Hides += p.c.Counters().VehicleHides
		}
	}
	m.collectRates()
	if r.Race.ReportedHits > 0 {
		r.Race.FramesFirstPercent = 100 * float64(r.Race.FramesFirst) / float64(r.Race.ReportedHits)
	}
	r.HonestWronged = r.Wronged.Sum()
}

// sourceName names the source of a report for the report's table.
func sourceName(e client.ReportEntry) string {
	switch {
	case e.Ref.Kind == wire.RefWeaponShot:
		return "bullet"
	case e.Ref.Kind == wire.RefVehicleShot:
		return "vehicle_gun"
	case e.Ref.Kind == wire.RefDetonation:
		return "projectile"
	case e.Ref.Kind == wire.RefVehicleExplode:
		return "vehicle_explosion"
	case e.Ref.Kind == wire.RefEffect && e.Weapon == inventory.CauseExplosion:
		return "gamemode_explosion"
	case e.Ref.Kind == wire.RefEffect:
		return "gamemode_fire"
	}
	switch e.Weapon {
	case inventory.CauseVehicle, inventory.CauseRotor:
		return "ram"
	case inventory.CauseFall:
		return "fall"
	case inventory.CauseDrowning:
		return "drowning"
	case inventory.CauseFire:
		return "fire"
	case inventory.CauseSpraycan, inventory.CauseExtinguisher:
		return "spray"
	}
	if e.Weapon < 47 {
		return "melee"
	}
	return "other"
}
