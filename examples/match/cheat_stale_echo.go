package match

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// The stale-echo cheat (CheatStaleEcho) and the gamemode's health commands it feeds on.
const (
	// StaleAckHold is how long the stale-echo cheater holds its lane acknowledgement back
	// after its game took a health or armor command. The server's lane gives the link up
	// when its oldest message stays unacknowledged for 15 s (lane.LinkTimeout) after
	// its first transmission; 12 s leaves room for a 400 ms round trip and retransmissions,
	// so the cheater keeps its connection and withholds as long as it can.
	StaleAckHold = 12 * time.Second
	// StaleCommandEvery is how often the gamemode sends every stale-echo cheater a health
	// or armor command, in turn add_armor(30, 100), set_health(100), add_health(25, 100),
	// set_armor(50): the slowest rate that keeps a command in flight all the time for a
	// client that never lets one settle before its 15 s.
	StaleCommandEvery = 15 * time.Second
	// RegenEvery, RegenLength and RegenAmount are the gamemode's regeneration phase, for
	// every player it counts: add_health(RegenAmount, 100) every RegenEvery for
	// RegenLength, from a sixth of the match on (common in deathmatch modes; the newest
	// command is then never older than a second).
	RegenEvery          = time.Second
	RegenLength         = time.Minute
	RegenAmount float32 = 2
	// StaleTolerance is the excess of the ledger over the stale-echo cheater's shadow (see
	// CheatStaleEcho) below which nothing is counted: the float arithmetic of the two.
	StaleTolerance float32 = 0.05
)

// staleEcho is the state of a stale-echo cheater: its cheat and its measurement.
type staleEcho struct {
	// The cheat: the revision its frames and reports echo, and the held acknowledgement.
	echo     uint16
	echoing  bool
	lastRev  uint16 // the client's vital_rev when the cheat last looked
	holding  bool
	holdFrom time.Duration
	heldAck  uint32 // the cumulative ack it sends while holding
	lastAck  uint32 // the last cumulative ack it let through
	haveAck  bool
	buf      []byte

	// The measurement, for the current life.
	cmds      []shadowCommand
	hits      []shadowHit
	maxExcess float32
	silent    int // confirmed hits that took nothing from a living ledger
	gen       uint16
	spawned   bool
}

type shadowCommand struct {
	at         time.Duration
	kind       vitals.CommandKind
	value, max float32
}

type shadowHit struct {
	at    time.Duration
	floor float32
}

// staleOutgoing is the cheat on the stale-echo cheater's datagrams. Once its game took a
// health or armor command (its vital_rev changed), it keeps echoing the revision from
// before that command in every frame and report (PlayerSync, DamageReport, also those
// inside lane datagrams), and for StaleAckHold it rewrites the cumulative acknowledgement
// of every lane datagram it sends back to the last one it let through before the command,
// without the selective-ack bitmap: the server's lane never learns that the command (or
// anything after it) arrived, and the client's own lane messages still go out. Lane acks
// are cumulative, so the first datagram after the hold acknowledges everything. Its frames
// show at least 100 health (its game keeps full health).
func (m *Match) staleOutgoing(now time.Duration, p *player, d []byte, send func([]byte)) {
	ch, st := p.cheat, p.cheat.stale
	if rev := p.c.Revisions().Vital; rev != st.lastRev {
		if !st.holding && st.haveAck {
			st.holding, st.holdFrom, st.heldAck = true, now, st.lastAck
			if !st.echoing {
				st.echo, st.echoing = st.lastRev, true
			}
		}
		st.lastRev = rev
	}
	if st.holding && now-st.holdFrom >= StaleAckHold {
		// Let the acknowledgement through; the next hold starts from the one that passes
		// now, never again from the one held (that would outlast the link timeout).
		st.holding, st.haveAck = false, false
	}
	if len(d) >= 7 && d[0] == wire.Version && d[1] == byte(lane.DatagramID) {
		out, changed := st.laneDatagram(d)
		if changed {
			ch.report.Forged++
		}
		send(out)
		return
	}
	id, err := wire.Peek(d)
	if err != nil || id.Transport() || (id != wire.IDPlayerSync && id != wire.IDDamageReport) {
		send(d)
		return
	}
	msg, err := m.cheatDecoder.Decode(d)
	if err != nil {
		send(d)
		return
	}
	switch msg := msg.(type) {
	case *wire.PlayerSync:
		if st.echoing {
			msg.VitalRev = st.echo
		}
		if msg.Alive {
			msg.Health = max(msg.Health, 100)
		}
	case *wire.DamageReport:
		if !st.echoing {
			send(d)
			return
		}
		msg.VitalRev = st.echo
	}
	ch.rewrite(msg, send)
}

// laneDatagram rewrites one lane datagram of the cheater: the held acknowledgement and the
// echo of the damage reports it carries. It returns the datagram to send and whether it
// changed it.
func (st *staleEcho) laneDatagram(d []byte) ([]byte, bool) {
	if len(d) < 8 || len(d) < 8+int(d[6]) {
		return d, false // not a well-formed lane datagram: the server refuses it anyway
	}
	ack := binary.LittleEndian.Uint32(d[2:6])
	sack := int(d[6])
	if !st.holding {
		st.lastAck, st.haveAck = ack, true
	}
	out, changed := d, false
	if st.holding && (ack != st.heldAck || sack > 0) {
		st.buf = append(st.buf[:0], d[:6]...)
		binary.LittleEndian.PutUint32(st.buf[2:6], st.heldAck)
		st.buf = append(st.buf, 0)
		st.buf = append(st.buf, d[7+sack:]...)
		out, changed = st.buf, true
	}
	if !st.echoing {
		return out, changed
	}
	// The records: count, base, then per record its offset, its length and its message.
	i := 7 + int(out[6])
	count := int(out[i])
	i += 5
	for r := 0; r < count && i+3 <= len(out); r++ {
		n := int(binary.LittleEndian.Uint16(out[i+1:]))
		msg := out[i+3 : min(i+3+n, len(out))]
		if len(msg) >= 6 && msg[1] == byte(wire.IDDamageReport) {
			if !changed {
				st.buf = append(st.buf[:0], out...)
				out, changed = st.buf, true
				msg = out[i+3 : i+3+n]
			}
			binary.LittleEndian.PutUint16(msg[4:6], st.echo)
		}
		i += 3 + n
	}
	return out, changed
}

// staleCommand notes a health or armor command the gamemode sent the cheater (the shadow
// applies it when it was sent).
func (st *staleEcho) staleCommand(now time.Duration, k vitals.CommandKind, value, max float32) {
	st.cmds = append(st.cmds, shadowCommand{at: now, kind: k, value: value, max: max})
}

// staleEvent takes the server's events about the cheater for the measurement.
func (m *Match) staleEvent(p *player, e refserver.Event) {
	st := p.cheat.stale
	switch {
	case e.Kind == refserver.EventRespawnGranted:
		if !st.spawned || e.Gen != st.gen {
			st.closeLife(p)
			st.spawned, st.gen = true, e.Gen
		}
	case e.Kind == refserver.EventPlayerDamage && e.Floor > 0:
		st.hits = append(st.hits, shadowHit{at: e.At, floor: e.Floor})
		if e.Detail == vitals.ReportApplied.String() && e.Deducted == 0 && m.serverPhase(p) == lifecycle.PhaseAlive {
			if v, err := m.server.Vitals(p.id); err == nil && v.Health > 0 {
				st.silent++
			}
		}
	}
}

func (m *Match) serverPhase(p *player) lifecycle.Phase {
	ph, err := m.server.Phase(p.id)
	if err != nil {
		return lifecycle.PhaseUnspawned
	}
	return ph
}

// staleTick compares the cheater's ledger with its shadow while the server holds it alive.
func (m *Match) staleTick(p *player) {
	st := p.cheat.stale
	if !st.spawned || m.serverPhase(p) != lifecycle.PhaseAlive {
		return
	}
	l, err := m.server.Vitals(p.id)
	if err != nil {
		return
	}
	if ex := l.Total() - st.shadow(); ex > st.maxExcess {
		st.maxExcess = ex
	}
}

// closeLife counts the gains of the life that ends.
func (st *staleEcho) closeLife(p *player) {
	if st.maxExcess > StaleTolerance {
		p.cheat.report.Gained += int(math.Ceil(float64(st.maxExcess)))
	}
	p.cheat.report.Gained += st.silent
	st.cmds, st.hits, st.maxExcess, st.silent = st.cmds[:0], st.hits[:0], 0, 0
}

// shadow is the highest ledger total (health plus armor) the records allow the life,
// given the commands the server sent it and the hits it confirmed (credited, with a
// floor). A life starts at 100 health and 0 armor. A command applies as the client
// applies it. A confirmed hit takes at least its floor, armor first (the records'
// arithmetic, and the cheater's game: its claims are its game's), and comes, in the order
// the hits were credited, after every command sent vitals.SendTimeout or more before it
// was credited (settled by the records' longest clock) and before every command sent
// after it was credited; in between it may fall before or after each command (a hit
// created before the client took a set is erased by it). A life whose health reached 0
// stays dead. The shadow is the best of all those orders, so the server's ledger, which
// takes one of them and at least each floor, never honestly exceeds it.
func (st *staleEcho) shadow() float32 {
	n := len(st.cmds)
	cur := make([][]shadowVitals, n+1)
	cur[0] = []shadowVitals{{h: vitals.StartHealth, a: vitals.StartArmor}}
	for _, h := range st.hits {
		lo, hi := 0, 0
		for _, c := range st.cmds {
			if c.at <= h.at-vitals.SendTimeout {
				lo++
			}
			if c.at <= h.at {
				hi++
			}
		}
		next := make([][]shadowVitals, n+1)
		var g []shadowVitals // every state with the first k commands applied
		for k := 0; k <= hi; k++ {
			if k > 0 {
				g = applyShadow(st.cmds[k-1], g)
			}
			g = frontier(append(g, cur[k]...))
			if k >= lo {
				next[k] = hitShadow(g, h.floor)
			}
		}
		cur = next
	}
	best := float32(0)
	for k := range cur {
		g := cur[k]
		for _, c := range st.cmds[k:] {
			g = applyShadow(c, g)
		}
		for _, v := range g {
			best = max(best, v.h+v.a)
		}
	}
	return best
}

// shadowVitals is one state of the shadow: health and armor.
type shadowVitals struct{ h, a float32 }

// maxShadowStates caps the states kept per step; above it two are merged into their
// componentwise maximum, which keeps the shadow an upper bound.
const maxShadowStates = 8

// frontier keeps the states no other state dominates (at least as much health and armor).
func frontier(s []shadowVitals) []shadowVitals {
	out := s[:0:0]
	for i, v := range s {
		dominated := false
		for j, w := range s {
			if j != i && w.h >= v.h && w.a >= v.a && (w.h > v.h || w.a > v.a || j < i) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, v)
		}
	}
	for len(out) > maxShadowStates {
		last := len(out) - 1
		out[last-1] = shadowVitals{h: max(out[last-1].h, out[last].h), a: max(out[last-1].a, out[last].a)}
		out = out[:last]
	}
	return out
}

func applyShadow(c shadowCommand, s []shadowVitals) []shadowVitals {
	out := make([]shadowVitals, 0, len(s))
	for _, v := range s {
		switch c.kind {
		case vitals.CommandSetHealth:
			v.h = c.value
		case vitals.CommandSetArmor:
			v.a = c.value
		case vitals.CommandAddHealth:
			if v.h < c.max {
				v.h = min(v.h+c.value, c.max)
			}
		case vitals.CommandAddArmor:
			if v.a < c.max {
				v.a = min(v.a+c.value, c.max)
			}
		}
		if v.h > 0 { // a set_health(0) kills
			out = append(out, v)
		}
	}
	return frontier(out)
}

func hitShadow(s []shadowVitals, floor float32) []shadowVitals {
	out := make([]shadowVitals, 0, len(s))
	for _, v := range s {
		take := min(v.a, floor)
		v.a -= take
		v.h -= floor - take
		if v.h > 0 {
			out = append(out, v)
		}
	}
	return out
}

// staleGM is the gamemode's schedule of the commands the stale-echo cheat feeds on.
type staleGM struct {
	next, regen time.Duration
	turn        int
}

// vital sends a health or armor command to p and notes it for a stale-echo cheater's
// shadow; a command to a cheater may raise its ledger (the health-frames measurement).
func (g *gamemode) vital(now time.Duration, p *player, k vitals.CommandKind, value, max float32) error {
	s := g.m.server
	var err error
	switch k {
	case vitals.CommandSetHealth:
		err = s.SetHealth(now, p.id, value)
	case vitals.CommandSetArmor:
		err = s.SetArmor(now, p.id, value)
	case vitals.CommandAddHealth:
		err = s.AddHealth(now, p.id, value, max)
	case vitals.CommandAddArmor:
		err = s.AddArmor(now, p.id, value, max)
	}
	if err == nil && p.cheat != nil {
		p.cheat.excused = now
		if p.cheat.stale != nil {
			p.cheat.stale.staleCommand(now, k, value, max)
		}
	}
	return err
}

// staleTick runs the gamemode's regeneration phase (every player it counts) and its
// health command every StaleCommandEvery to each stale-echo cheater.
func (g *gamemode) staleTick(now time.Duration) {
	st := &g.stale
	if from := g.m.cfg.Duration / 6; now >= from && now < from+RegenLength && now >= st.regen {
		st.regen = now + RegenEvery
		for _, p := range g.m.players {
			if g.counted(p) {
				g.issue(g.vital(now, p, vitals.CommandAddHealth, RegenAmount, 100), p.cheat == nil)
			}
		}
	}
	if now < st.next {
		return
	}
	st.next = now + StaleCommandEvery
	kinds := [...]struct {
		k          vitals.CommandKind
		value, max float32
	}{
		{vitals.CommandAddArmor, 30, 100}, {vitals.CommandSetHealth, 100, 0},
		{vitals.CommandAddHealth, 25, 100}, {vitals.CommandSetArmor, 50, 0},
	}
	c := kinds[st.turn%len(kinds)]
	st.turn++
	for _, p := range g.m.cheaters {
		if p.cheat.kind == CheatStaleEcho && g.counted(p) {
			g.issue(g.vital(now, p, c.k, c.value, c.max), false)
		}
	}
}
