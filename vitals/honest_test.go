package vitals

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A model of the honest client and of the network between it and the server, on a virtual
// clock, to check the project's main promise: an honest player is never wronged (no god_mode
// flag on an honest frame, no death the client did not die, no refused command, no loss
// deducted twice) at round-trip times up to 400 ms, 0-30 ms jitter and 5 % loss.
//
// The client applies the server's commands in order, echoes the last revision it took and
// the number of the last report it created, creates a hit report together with its hit and
// a sum report of fire or a fall after the frame that showed it, sends a lethal report and
// its DeathReport on the reliable lane, and refuses a hit whose class multiplier is 0.

type simParams struct {
	seed     uint64
	rtt      time.Duration
	jitter   time.Duration
	loss     float64
	duration time.Duration
	// regen: the gamemode also sends add_health every second (regeneration), racing
	// every hit
	regen bool
}

func (p simParams) String() string {
	return fmt.Sprintf("seed=%d rtt=%v jitter=%v loss=%.2f", p.seed, p.rtt, p.jitter, p.loss)
}

type simEvent struct {
	at time.Duration
	n  int
	fn func()
}

type simQueue []simEvent

func (q simQueue) Len() int { return len(q) }
func (q simQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].n < q[j].n
}
func (q simQueue) Swap(i, j int)             { q[i], q[j] = q[j], q[i] }
func (q *simQueue) Push(x any)               { *q = append(*q, x.(simEvent)) }
func (q *simQueue) Pop() (x any)             { old := *q; x = old[len(old)-1]; *q = old[:len(old)-1]; return x }
func (s *sim) at(t time.Duration, fn func()) { s.n++; heap.Push(&s.q, simEvent{t, s.n, fn}) }

type simClient struct {
	v         Vitals
	alive     bool
	gen       int
	rev       uint16
	reportSeq uint16
	frameSeq  uint16
	mult      Multipliers
	burnUntil time.Duration
	fireAcc   float32
	fireFrom  Vitals
	fireNext  time.Duration
	falls     []simFall // falls shown in the next frame, reported after it
}

type simStats struct {
	frames, reports, hits, deaths, commands, tables, flagsRaised int
	// inFlight is the most health commands the ledger had in flight at once.
	inFlight int
}

type sim struct {
	prm       simParams
	r         *rand.Rand
	q         simQueue
	n         int
	now       time.Duration
	p         *Player
	c         simClient
	serverGen int
	c2sLast   time.Duration
	s2cLast   time.Duration
	calm      bool // damage, commands and tables stopped (the end of the run)
	regenNext time.Duration
	failures  []string
	stats     simStats
	trace     [80]string // the last events, printed with the first failure
	ntrace    int
}

func (s *sim) tracef(format string, a ...any) {
	s.trace[s.ntrace%len(s.trace)] = fmt.Sprintf("%v: ", s.now) + fmt.Sprintf(format, a...)
	s.ntrace++
}

func (s *sim) traceText() string {
	var b strings.Builder
	for i := max(0, s.ntrace-len(s.trace)); i < s.ntrace; i++ {
		b.WriteString("\t" + s.trace[i%len(s.trace)] + "\n")
	}
	return b.String()
}

func (s *sim) fail(format string, a ...any) {
	if len(s.failures) == 0 {
		s.failures = append(s.failures, "events before the first failure:\n"+s.traceText())
	}
	if len(s.failures) < 8 {
		s.failures = append(s.failures, fmt.Sprintf("%v: %s", s.now, fmt.Sprintf(format, a...)))
	}
}

func (s *sim) oneWay() time.Duration {
	j := time.Duration(0)
	if s.prm.jitter > 0 {
		j = time.Duration(s.r.Int64N(int64(s.prm.jitter) + 1))
	}
	return s.prm.rtt/2 + j
}

// unreliable sends a datagram from the client: lost or delivered after one way and jitter.
func (s *sim) unreliable(fn func()) {
	if s.r.Float64() < s.prm.loss {
		return
	}
	s.at(s.now+s.oneWay(), fn)
}

// retransmits is the delay a reliable message spends on lost copies (250 ms each).
func (s *sim) retransmits() time.Duration {
	d := time.Duration(0)
	for s.r.Float64() < s.prm.loss {
		d += 250 * time.Millisecond
	}
	return d
}

// reliableUp sends on the client's reliable lane: ordered, never lost.
func (s *sim) reliableUp(fn func()) {
	t := max(s.now+s.oneWay()+s.retransmits(), s.c2sLast)
	s.c2sLast = t
	s.at(t, fn)
}

// reliableDown sends on the server's reliable lane; ack runs on the server when the
// client's acknowledgement arrives.
func (s *sim) reliableDown(deliver func(), ack func()) {
	t := max(s.now+s.oneWay()+s.retransmits(), s.s2cLast)
	s.s2cLast = t
	s.at(t, func() {
		deliver()
		if ack != nil {
			s.at(s.now+s.oneWay()+s.retransmits(), ack)
		}
	})
}

// ---- the server side (the host) ----

func (s *sim) observe(what string, eff Effects) {
	if eff.GodMode {
		s.stats.flagsRaised++
		s.fail("%s: god_mode flag on an honest frame (excess %v, ledger %v, client %v)", what, eff.GodModeExcess, s.p.Ledger(), s.c.v)
	}
	if eff.Died && s.c.alive && s.c.gen == s.serverGen {
		s.fail("%s: early death %v while the client is alive at %v (ledger %v)", what, eff.Death, s.c.v, s.p.Ledger())
	}
	s.checkLedger(what)
}

// checkLedger: once the client took every command sent, the ledger is never below what the
// client has (a loss deducted twice, or a floor above the damage, would show here).
func (s *sim) checkLedger(what string) {
	if !s.c.alive || s.c.gen != s.serverGen || s.p.Life() != LifeCounted || s.c.rev != s.p.Revision() {
		return
	}
	l := s.p.Ledger()
	if l.Health < s.c.v.Health-0.01 || l.Armor < s.c.v.Armor-0.01 {
		s.fail("%s: ledger %v below the client's %v", what, l, s.c.v)
	}
}

func (s *sim) serverFrame(gen int, in FrameInput) {
	if gen != s.serverGen { // lifecycle drops frames of another life
		return
	}
	s.stats.frames++
	res, err := s.p.Frame(s.now, in)
	s.tracef("server frame %+v -> %v %v reports=%v", in, res.Verdict, res.Ledger, res.Reports)
	if err != nil {
		s.fail("frame refused: %v", err)
		return
	}
	s.observe("frame "+res.Verdict.String(), res.Effects)
}

func (s *sim) serverReport(in ReportInput) {
	s.stats.reports++
	res, err := s.p.Report(s.now, in)
	s.tracef("server report seq=%d rev=%d %v loss=%v %v->%v floor=%v -> %v %v reports=%v", in.Seq, in.VitalRev, in.Source, in.Loss, in.Before, in.After, in.Floor, res.Verdict, res.Ledger, res.Reports)
	if err != nil {
		s.fail("report refused: %v", err)
		return
	}
	s.observe("report "+res.Verdict.String(), res.Effects)
}

func (s *sim) serverDeathReport(gen int) {
	if gen != s.serverGen || (s.p.Life() != LifeCounted && s.p.Life() != LifeCountedDead) {
		return
	}
	if _, err := s.p.Died(s.now); err != nil {
		s.fail("died: %v", err)
		return
	}
	s.stats.deaths++
	s.at(s.now+2*time.Second, s.serverRespawn)
}

func (s *sim) serverRespawn() {
	s.serverGen++
	s.observe("new life", s.p.NewLife(s.now))
	gen := s.serverGen
	s.reliableDown(func() { s.clientRespawn(gen) }, nil)
}

func (s *sim) serverTick() {
	if su := s.p.Suspect(s.now); su.Raised {
		s.fail("god-mode suspicion on an honest victim: %+v", su)
	}
	idle := s.p.cmds.n|s.p.nwait|s.p.nheld == 0
	var full Effects
	if idle { // Advance's quick path: the full one, on a copy, must return the same
		q := *s.p
		full = q.advance(s.now)
	}
	eff := s.p.Advance(s.now)
	if idle {
		if len(full.Reports) != 0 || len(eff.Reports) != 0 {
			s.fail("advance with nothing in flight: reports %v, quick %v", full.Reports, eff.Reports)
		}
		full.Reports, eff.Reports = nil, nil
		if !reflect.DeepEqual(full, eff) {
			s.fail("advance with nothing in flight: %+v, quick %+v", full, eff)
		}
	}
	s.stats.inFlight = max(s.stats.inFlight, int(s.p.cmds.n))
	if len(eff.Reports) > 0 || eff.FramesCounted > 0 {
		s.tracef("server advance -> %v frames=%d reports=%v", eff.Ledger, eff.FramesCounted, eff.Reports)
	}
	s.observe("advance", eff)
	if !s.calm && s.p.Counted() && s.r.Float64() < 0.03 {
		s.gamemodeCommand()
	}
	if s.prm.regen && !s.calm && s.p.Counted() && s.now >= s.regenNext {
		s.regenNext = s.now + time.Second
		s.regenerate()
	}
	if !s.calm && s.r.Float64() < 0.005 {
		s.gamemodeTable()
	}
	if s.now < s.prm.duration+4*time.Second {
		s.at(s.now+50*time.Millisecond, s.serverTick)
	}
}

func (s *sim) gamemodeCommand() {
	var res CommandResult
	var err error
	v := float32(1 + s.r.IntN(199))
	switch s.r.IntN(4) {
	case 0:
		res, err = s.p.SetHealth(s.now, v)
	case 1:
		res, err = s.p.SetArmor(s.now, float32(s.r.IntN(101)))
	case 2:
		res, err = s.p.AddHealth(s.now, float32(1+s.r.IntN(50)), float32(50+s.r.IntN(151)))
	case 3:
		res, err = s.p.AddArmor(s.now, float32(1+s.r.IntN(50)), float32(50+s.r.IntN(151)))
	}
	if err != nil {
		s.fail("command refused: %v", err)
		return
	}
	s.stats.commands++
	cmd := res.Command
	s.tracef("server sends %v -> %v", cmd, res.Ledger)
	s.reliableDown(func() { s.clientCommand(cmd) }, func() {
		if err := s.p.Acknowledged(s.now, cmd.Rev); err != nil {
			s.fail("ack: %v", err)
		}
	})
}

// regenerate is the gamemode's regeneration tick: add_health every second.
func (s *sim) regenerate() {
	res, err := s.p.AddHealth(s.now, float32(1+s.r.IntN(5)), 100)
	if err != nil {
		s.fail("regeneration refused: %v", err)
		return
	}
	s.stats.commands++
	cmd := res.Command
	s.tracef("server sends %v -> %v", cmd, res.Ledger)
	s.reliableDown(func() { s.clientCommand(cmd) }, func() {
		if err := s.p.Acknowledged(s.now, cmd.Rev); err != nil {
			s.fail("ack: %v", err)
		}
	})
}

func (s *sim) gamemodeTable() {
	pick := func() float32 { return [...]float32{0, 0.5, 1, 1, 2}[s.r.IntN(5)] }
	m := Multipliers{Melee: pick(), Fire: pick(), Spray: 1, Extinguisher: 1, Explosion: pick(), Predator: 1}
	mc, err := s.p.SetMultipliers(s.now, m)
	if err != nil {
		s.fail("table refused: %v", err)
		return
	}
	s.stats.tables++
	s.reliableDown(func() { s.c.mult = mc.Table }, func() {
		if err := s.p.MultipliersAcknowledged(s.now, mc.Rev); err != nil {
			s.fail("table ack: %v", err)
		}
	})
}

// ---- the client side ----

func (s *sim) clientCommand(c Command) {
	cl := &s.c
	s.tracef("client takes %v (alive %v, %v)", c, cl.alive, cl.v)
	cl.rev = c.Rev // a dead client drops the command but takes its revision
	if !cl.alive {
		return
	}
	switch c.Kind {
	case CommandSetHealth:
		cl.v.Health = c.Value
	case CommandSetArmor:
		cl.v.Armor = c.Value
	case CommandAddHealth:
		if cl.v.Health < c.Max {
			cl.v.Health = min(cl.v.Health+c.Value, c.Max)
		}
	case CommandAddArmor:
		if cl.v.Armor < c.Max {
			cl.v.Armor = min(cl.v.Armor+c.Value, c.Max)
		}
	}
}

func (s *sim) clientRespawn(gen int) {
	s.c.gen, s.c.alive = gen, true
	s.c.v = Vitals{Health: 100}
	s.c.burnUntil, s.c.fireAcc = 0, 0
}

func (s *sim) sendReport(in ReportInput, reliable bool) {
	if reliable {
		s.reliableUp(func() { s.serverReport(in) })
	} else {
		s.unreliable(func() { s.serverReport(in) })
	}
}

func (s *sim) die() {
	s.c.alive = false
	gen := s.c.gen
	s.reliableUp(func() { s.serverDeathReport(gen) })
}

// hit applies one hit and sends its report together with it.
func (s *sim) hit(src Source, weapon uint8, attacker PlayerID, loss, floor float32, armorFirst bool) {
	cl := &s.c
	before := cl.v
	if armorFirst {
		cl.v = deductLikeTheGame(cl.v, loss)
	} else {
		cl.v.Health = max(cl.v.Health-loss, 0)
	}
	cl.reportSeq++
	s.stats.hits++
	if src.Floored() {
		s.claim(loss)
	}
	lethal := cl.v.Health <= 0
	s.tracef("client hit %v seq=%d loss=%v %v->%v rev=%d", src, cl.reportSeq, loss, before, cl.v, cl.rev)
	s.sendReport(ReportInput{
		Seq: cl.reportSeq, VitalRev: cl.rev, Source: src, Weapon: weapon, BodyPart: uint8(3 + s.r.IntN(7)),
		Attacker: attacker, Correlated: true, Floor: floor, Loss: loss, Before: before, After: cl.v,
	}, lethal)
	if lethal {
		s.die()
	}
}

// claim: the shooter's shot with its hit claim reaches the server (one way and jitter from
// the shooter), which accepts it against the victim's rewound pose.
func (s *sim) claim(expected float32) {
	s.at(s.now+s.oneWay(), func() {
		if _, err := s.p.HitClaimed(s.now, expected); err != nil {
			s.fail("hit claimed: %v", err)
		}
	})
}

// deductLikeTheGame is the client's own arithmetic for a hit that armor takes first.
func deductLikeTheGame(v Vitals, loss float32) Vitals {
	if v.Armor >= loss {
		v.Armor -= loss
		return v
	}
	v.Health = max(v.Health-(loss-v.Armor), 0)
	v.Armor = 0
	return v
}

var simGuns = [...]struct {
	id     uint8
	damage float32
}{{22, 25}, {23, 40}, {24, 140}, {28, 20}, {29, 25}, {31, 30}, {33, 75}, {34, 125}, {38, 140}}

// clientTick sends a frame every 20-45 ms (the game's frame rate varies), then the sums
// that frame showed.
func (s *sim) clientTick() {
	cl := &s.c
	if cl.alive && cl.burnUntil > s.now && cl.mult.Fire > 0 && !s.calm {
		loss := 0.5 * cl.mult.Fire
		cl.v.Health = max(cl.v.Health-loss, 0)
		cl.fireAcc += loss
	}
	if cl.alive {
		cl.frameSeq++
		in := FrameInput{Seq: cl.frameSeq, DamageSeq: cl.reportSeq, VitalRev: cl.rev, Health: cl.v.Health, Armor: cl.v.Armor}
		s.tracef("client frame %+v", in)
		gen := cl.gen
		s.unreliable(func() { s.serverFrame(gen, in) })
		s.clientSums()
	}
	if s.now < s.prm.duration+4*time.Second {
		s.at(s.now+time.Duration(20+s.r.IntN(26))*time.Millisecond, s.clientTick)
	}
}

// clientDamage happens at any moment between frames: a hit sends its report at once.
func (s *sim) clientDamage() {
	cl := &s.c
	if s.now < s.prm.duration+4*time.Second {
		s.at(s.now+time.Duration(1+s.r.IntN(30))*time.Millisecond, s.clientDamage)
	}
	if s.calm || !cl.alive || cl.v.Health <= 0 {
		return
	}
	switch x := s.r.Float64(); {
	case x < 0.012:
		g := simGuns[s.r.IntN(len(simGuns))]
		s.hit(SourceBullet, g.id, 7, PlayerDamageFactor*g.damage, BulletFloor(g.damage), true)
	case x < 0.0145: // a shotgun blast: one report per pellet, all in one frame
		for range 1 + s.r.IntN(15) {
			if cl.alive {
				s.hit(SourceBullet, 25, 7, PlayerDamageFactor*10, BulletFloor(10), true)
			}
		}
	case x < 0.0195:
		if m := cl.mult.Melee; m > 0 { // a 0 multiplier: the client refuses the blow
			s.hit(SourceMelee, uint8(s.r.IntN(16)), 4, MeleeFloorBase*m*(1+2*s.r.Float32()), 0, true)
		}
	case x < 0.022:
		if m := cl.mult.Explosion; m > 0 {
			s.hit(SourceExplosion, WeaponExplosion, 6, (5+35*s.r.Float32())*m, 0, s.r.IntN(2) == 0)
		}
	case x < 0.0245:
		if cl.burnUntil <= s.now {
			cl.fireFrom, cl.fireAcc, cl.fireNext = cl.v, 0, s.now+250*time.Millisecond
		}
		cl.burnUntil = s.now + time.Duration(1000+s.r.IntN(1000))*time.Millisecond
	case x < 0.0255: // a hit claimed by the shooter that a wall stopped on the victim's screen
		s.claim(PlayerDamageFactor * simGuns[s.r.IntN(len(simGuns))].damage)
	case x < 0.0275: // a fall: the frame shows it, its report follows the frame
		before := cl.v
		loss := min(5+35*s.r.Float32(), cl.v.Health)
		cl.v.Health -= loss
		s.tracef("client falls %v->%v", before, cl.v)
		s.pendingFall(before, loss)
	}
}

type simFall struct {
	before Vitals
	loss   float32
}

func (s *sim) pendingFall(before Vitals, loss float32) {
	s.c.falls = append(s.c.falls, simFall{before, loss})
}

// clientSums run after the frame: the fall's report and the 250 ms fire sum.
func (s *sim) clientSums() {
	cl := &s.c
	for _, f := range cl.falls {
		cl.reportSeq++
		s.sendReport(ReportInput{
			Seq: cl.reportSeq, VitalRev: cl.rev, Source: SourceEnvironment, Weapon: WeaponFall,
			Attacker: NoPlayer, Loss: f.loss, Before: f.before, After: cl.v,
		}, cl.v.Health <= 0)
	}
	cl.falls = cl.falls[:0]
	if cl.fireAcc > 0 && (s.now >= cl.fireNext || cl.v.Health <= 0) {
		cl.reportSeq++
		s.sendReport(ReportInput{
			Seq: cl.reportSeq, VitalRev: cl.rev, Source: SourceFire, Weapon: WeaponFire,
			Attacker: 9, Correlated: true, Loss: cl.fireAcc, Before: cl.fireFrom, After: cl.v,
		}, cl.v.Health <= 0)
		cl.fireFrom, cl.fireAcc, cl.fireNext = cl.v, 0, s.now+250*time.Millisecond
	}
	if cl.v.Health <= 0 && cl.alive {
		s.die()
	}
}

func runHonestSim(prm simParams) (simStats, []string) {
	s := &sim{prm: prm, r: rand.New(rand.NewPCG(prm.seed, prm.seed^0x9e3779b97f4a7c15))}
	p, err := NewPlayer(Config{})
	if err != nil {
		return simStats{}, []string{err.Error()}
	}
	s.p = p
	s.c.mult = DefaultMultipliers
	s.serverRespawn() // the connect spawn
	s.at(0, s.clientTick)
	s.at(0, s.clientDamage)
	s.at(0, s.serverTick)
	s.at(prm.duration, func() { s.calm = true })
	for s.q.Len() > 0 {
		e := heap.Pop(&s.q).(simEvent)
		s.now = e.at
		e.fn()
	}
	// After the calm: everything arrived, the ledger is what the client has.
	if s.c.alive && s.c.gen == s.serverGen && s.p.Life() == LifeCounted {
		l := s.p.Ledger()
		if d := l.Health - s.c.v.Health; d > 0.02 || d < -0.02 {
			s.fail("final ledger %v, client %v", l, s.c.v)
		}
		if d := l.Armor - s.c.v.Armor; d > 0.02 || d < -0.02 {
			s.fail("final ledger %v, client %v", l, s.c.v)
		}
	}
	if f, r := s.p.Waiting(); f != 0 || r != 0 {
		s.fail("still waiting: %d frames, %d reports", f, r)
	}
	return s.stats, s.failures
}

// TestHonestClientIsNeverWronged runs the honest client over the network the project
// promises to hold (RTT 0-400 ms, jitter 0-30 ms, 5 % loss) with hits of every kind,
// shotgun bursts, fire, falls, deaths and respawns, gamemode commands and multiplier tables
// racing with the damage: no god_mode flag, no early death, no refused command, no loss
// deducted twice, and the ledger ends equal to the client's health.
func TestHonestClientIsNeverWronged(t *testing.T) {
	var total simStats
	seeds := 24
	if testing.Short() || raceEnabled {
		seeds = 4
	}
	for _, rtt := range []time.Duration{0, 60 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond} {
		for _, jitter := range []time.Duration{0, 30 * time.Millisecond} {
			for seed := range uint64(seeds) {
				prm := simParams{seed: seed + 1, rtt: rtt, jitter: jitter, loss: 0.05, duration: 30 * time.Second}
				st, failures := runHonestSim(prm)
				if len(failures) > 0 {
					t.Fatalf("%v:\n%s", prm, strings.Join(failures, "\n"))
				}
				total.frames += st.frames
				total.reports += st.reports
				total.hits += st.hits
				total.deaths += st.deaths
				total.commands += st.commands
				total.tables += st.tables
			}
		}
	}
	// The run must have exercised what it claims to.
	runs := 8 * seeds
	if total.deaths < runs || total.commands < 8*runs || total.tables < runs || total.hits < 30*runs {
		t.Fatalf("the simulation exercised too little: %+v", total)
	}
	t.Logf("%+v", total)
}

// TestHonestClientIsNeverWrongedUnderRegeneration runs the honest client while the gamemode
// regenerates it (add_health every second) on top of its other commands: the newest command
// is nearly always in flight, every hit races one, and still no honest frame is flagged,
// no death comes early and the ledger ends equal to the client's health.
func TestHonestClientIsNeverWrongedUnderRegeneration(t *testing.T) {
	seeds := 8
	if testing.Short() || raceEnabled {
		seeds = 2
	}
	var total simStats
	for _, rtt := range []time.Duration{0, 200 * time.Millisecond, 400 * time.Millisecond} {
		for seed := range uint64(seeds) {
			prm := simParams{seed: 500 + seed, rtt: rtt, jitter: 30 * time.Millisecond, loss: 0.05, duration: 30 * time.Second, regen: true}
			st, failures := runHonestSim(prm)
			if len(failures) > 0 {
				t.Fatalf("%v regen:\n%s", prm, strings.Join(failures, "\n"))
			}
			total.commands += st.commands
			total.hits += st.hits
			total.deaths += st.deaths
			total.inFlight = max(total.inFlight, st.inFlight)
		}
	}
	if runs := 3 * seeds; total.commands < 25*runs || total.hits < 30*runs || total.deaths < runs {
		t.Fatalf("the simulation exercised too little: %+v", total)
	}
	// The honest worst case of commands in flight, against the cap that would settle the
	// oldest early (MaxPendingCommands).
	if total.inFlight*2 > MaxPendingCommands {
		t.Fatalf("an honest client kept %d commands in flight: too close to the cap %d", total.inFlight, MaxPendingCommands)
	}
	t.Logf("%+v (at most %d commands in flight, cap %d)", total, total.inFlight, MaxPendingCommands)
}
