package inventory

import (
	"container/heap"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// This file simulates one player against the server's store over a network with delay,
// delay drift, jitter, reordering and loss, with random gamemode commands, weapon
// properties changes, skill changes, deaths and respawns. The client is an honest model
// of the rules' client side, written independently of the store: it applies the
// commands in the lane's order with the game's own give rules, echoes the revision it
// applied, fires only what it really has at the weapon's cadence, sprays continuous
// weapons (one round per 25 ms game tick), throws projectiles and hits with melee.
//
// Two promises are checked after every event:
//   - no shot, projectile or blow the client really made, in a life the server counts
//     as alive, is refused;
//   - the server's count of every weapon is never below the client's, where the
//     client's count is taken after the commands still in flight (what it will have).

// soak runs the honest-client property on more seeds, e.g.
// go test -run Honest ./inventory -inventory.soak 2000 (about 30 s).
var soak = flag.Uint64("inventory.soak", 0, "run the honest-client simulation on this many seeds")

// simEvent is one delivery or timer of the simulation.
type simEvent struct {
	at  time.Duration
	seq int
	do  func()
}

type eventQueue []simEvent

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int)   { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)     { *q = append(*q, x.(simEvent)) }
func (q *eventQueue) Pop() (x any)   { x, *q = (*q)[len(*q)-1], (*q)[:len(*q)-1]; return x }
func (q *eventQueue) add(e simEvent) { heap.Push(q, e) }

// simNet is one link: a base one-way delay that drifts slowly, jitter and loss.
type simNet struct {
	rng    *rand.Rand
	base   time.Duration
	amp    time.Duration
	period time.Duration
	jitter time.Duration
	loss   float64
}

func (n *simNet) oneWay(t time.Duration) time.Duration {
	d := n.base + time.Duration(float64(n.amp)*math.Sin(2*math.Pi*float64(t)/float64(n.period)))
	return max(d, 0)
}

func (n *simNet) jit() time.Duration {
	if n.jitter == 0 {
		return 0
	}
	return time.Duration(n.rng.Int64N(int64(n.jitter) + 1))
}

// datagram returns the arrival time of an unreliable datagram, or false if it is lost.
func (n *simNet) datagram(t time.Duration) (time.Duration, bool) {
	if n.rng.Float64() < n.loss {
		return 0, false
	}
	return t + n.oneWay(t) + n.jit(), true
}

// reliable returns the delivery time of a message on an ordered reliable lane whose
// previous message was delivered at prev (retransmission every 250 ms on loss).
func (n *simNet) reliable(t, prev time.Duration) time.Duration {
	for n.rng.Float64() < n.loss {
		t += 250 * time.Millisecond
	}
	return max(t+n.oneWay(t)+n.jit(), prev)
}

// laneMsg is a message of the server's reliable lane to the client.
type laneMsg struct {
	give    *GiveWeapon
	take    *TakeWeapon
	setAmmo *SetWeaponAmmo
	clear   *ClearWeapons
	armed   *SetArmedWeapon
	props   *WeaponProperties
	skill   *struct {
		stat SkillStat
		tier Tier
	}
	respawn *uint16
}

func (m laneMsg) String() string {
	switch {
	case m.give != nil:
		return m.give.String()
	case m.take != nil:
		return m.take.String()
	case m.setAmmo != nil:
		return m.setAmmo.String()
	case m.clear != nil:
		return m.clear.String()
	case m.armed != nil:
		return m.armed.String()
	case m.props != nil:
		return m.props.String()
	case m.skill != nil:
		return fmt.Sprintf("skill %v %v", m.skill.stat, m.skill.tier)
	case m.respawn != nil:
		return fmt.Sprintf("respawn %d", *m.respawn)
	}
	return "?"
}

// clientStore is the client's weapons: its game's own state.
type clientStore struct {
	slots   [NumSlots]Slot
	active  int8
	applied uint16
	tiers   map[SkillStat]Tier
}

// gameTable is what the client's game knows about its weapons (the game data).
var gameTable = DefaultTable()

func (c *clientStore) clipSize(w uint8) uint16 {
	t := TierPoor
	if s := gameTable[w].Skill; s != NoSkill {
		t = c.tiers[s]
	} else {
		t = TierStd
	}
	return gameTable[w].Clip[t]
}

// apply applies a lane message with the game's rules (not the store's code).
func (c *clientStore) apply(m laneMsg) {
	switch {
	case m.give != nil:
		g := m.give
		sl := gameTable[g.Weapon].Slot
		s := &c.slots[sl]
		if s.Weapon == g.Weapon {
			s.Total = uint16(min(int(s.Total)+int(g.Ammo), 65535))
		} else {
			carried := 0
			if s.Weapon != 0 && (sl == 3 || sl == 4 || sl == 5) { // CPed::GiveWeapon's pooled slots
				carried = int(s.Total)
			}
			*s = Slot{Weapon: g.Weapon, Total: uint16(min(int(g.Ammo)+carried, 65535))}
		}
		if s.Total > 0 {
			s.Clip = min(s.Total, c.clipSize(g.Weapon))
		}
		if g.SetAsCurrent {
			c.active = sl
		}
		c.applied = g.Rev
	case m.take != nil:
		sl := gameTable[m.take.Weapon].Slot
		if c.slots[sl].Weapon == m.take.Weapon {
			c.slots[sl] = Slot{}
			if c.active == sl {
				c.active = 0
			}
		}
		c.applied = m.take.Rev
	case m.setAmmo != nil:
		sa := m.setAmmo
		sl := gameTable[sa.Weapon].Slot
		if s := &c.slots[sl]; s.Weapon == sa.Weapon {
			s.Total = sa.Total
			if sa.Clip != ClipNotSet {
				s.Clip = sa.Clip
			}
			s.Clip = min(s.Clip, s.Total)
		}
		c.applied = sa.Rev
	case m.clear != nil:
		c.slots = [NumSlots]Slot{}
		c.active = 0
		c.applied = m.clear.Rev
	case m.armed != nil:
		w := m.armed.Weapon
		if sl := gameTable[w].Slot; w == 0 || c.slots[sl].Weapon == w {
			c.active = max(sl, 0)
		}
		c.applied = m.armed.Rev
	case m.skill != nil:
		c.tiers[m.skill.stat] = m.skill.tier
	case m.respawn != nil:
		c.slots = [NumSlots]Slot{}
		c.active = 0
	}
}

// simClient is the honest client.
type simClient struct {
	store    clientStore
	props    uint16
	life     uint16
	alive    bool
	lastShot [NumWeapons]time.Duration
	lastBlow [NumWeapons]time.Duration
	reload   [NumWeapons]time.Duration // end of the weapon's reload, 0 when none
	burst    uint8                     // bullet weapon fired at full cadence, 0 for none
	burstEnd time.Duration
	press    uint8 // continuous weapon whose fire is held, 0 for none
	pressEnd time.Duration
}

type simStats struct {
	shots, projectiles, blows, frames, commands, fireSpent int
	byPayment                                              [4]int
}

type sim struct {
	t      *testing.T
	seed   uint64
	rng    *rand.Rand
	q      eventQueue
	seq    int
	now    time.Duration
	up     *simNet // client -> server
	down   *simNet // server -> client
	victim *simNet // the extra path of a melee blow through its victim

	cat    *Catalog
	inv    *Inventory
	life   uint16 // the server's life generation
	alive  bool   // the server's view: the player is alive in life
	laneAt time.Duration
	lane   []laneMsg // queued, not yet delivered, in order

	c     simClient
	stats simStats
	log   []string
}

func (s *sim) at(t time.Duration, do func()) {
	s.seq++
	s.q.add(simEvent{at: t, seq: s.seq, do: do})
}

func (s *sim) logf(format string, args ...any) {
	s.log = append(s.log, fmt.Sprintf("%8v ", s.now)+fmt.Sprintf(format, args...))
	if len(s.log) > 40 {
		s.log = s.log[1:]
	}
}

func (s *sim) fail(format string, args ...any) {
	s.t.Helper()
	msg := fmt.Sprintf(format, args...)
	for _, l := range s.log {
		msg += "\n  " + l
	}
	s.t.Fatalf("seed %d at %v: %s", s.seed, s.now, msg)
}

// send queues m on the lane (called when the server queues a command).
func (s *sim) send(m laneMsg) {
	s.stats.commands++
	s.lane = append(s.lane, m)
	s.laneAt = s.down.reliable(s.now, s.laneAt)
	s.logf("server queues %v", m)
	s.at(s.laneAt, func() {
		got := s.lane[0]
		s.lane = s.lane[1:]
		s.logf("client applies %v", got)
		if got.respawn != nil {
			s.c.life, s.c.alive = *got.respawn, true
			s.c.burst, s.c.press = 0, 0
		}
		if got.props != nil {
			s.c.props = got.props.Rev
		}
		s.c.store.apply(got)
	})
}

// check asserts the invariant: the server's count never below the client's, after
// the commands in flight.
func (s *sim) check() {
	proj := s.c.store
	proj.tiers = nil // clip sizes are not compared
	for _, m := range s.lane {
		if m.skill != nil {
			continue
		}
		proj.apply(m)
	}
	srv := s.inv.Slots()
	for i := range proj.slots {
		cs := proj.slots[i]
		if cs.Weapon == 0 {
			continue
		}
		if srv[i].Weapon != cs.Weapon || srv[i].Total < cs.Total {
			s.fail("slot %d: server %v below the client's %v", i, srv[i], cs)
		}
	}
}

func (c *simClient) owned(kind Kind) []uint8 {
	var out []uint8
	for _, sl := range c.store.slots {
		if sl.Weapon != 0 && gameTable[sl.Weapon].Kind == kind && sl.Total > 0 {
			out = append(out, sl.Weapon)
		}
	}
	return out
}

func (s *sim) slotOf(w uint8) *Slot { return &s.c.store.slots[gameTable[w].Slot] }

// clientTick runs the client's game every 5 ms.
func (s *sim) clientTick() {
	c := &s.c
	now := s.now
	if c.alive && s.rng.Float64() < 0.02/200 { // about one death every 50 s
		c.alive, c.burst, c.press = false, 0, 0
		life := c.life
		s.logf("client dies in life %d", life)
		s.at(s.up.reliable(now, now), func() { s.deathReport(life) })
	}
	if !c.alive {
		return
	}
	// Continuous fire: one round per 25 ms game tick while held.
	if c.press != 0 {
		sl := s.slotOf(c.press)
		switch {
		case sl.Weapon != c.press || now >= c.pressEnd:
			c.press = 0
		case now%(25*time.Millisecond) == 0 && s.ready(c.press, time.Second):
			sl.Total--
			sl.Clip--
		}
	}
	// Bursts of a bullet weapon at its full cadence.
	if c.burst != 0 {
		w := c.burst
		sl := s.slotOf(w)
		interval := gameTable[w].MinInterval
		switch {
		case sl.Weapon != w || sl.Total == 0 || now >= c.burstEnd:
			c.burst = 0
		case now-c.lastShot[w] < interval || !s.ready(w, time.Duration(s.rng.IntN(1000))*time.Millisecond):
		default:
			sl.Total--
			sl.Clip--
			c.lastShot[w] = now
			c.store.active = gameTable[w].Slot // switch and fire at once
			s.fireShot(w)
		}
	}
	if c.burst == 0 && c.press == 0 && s.rng.Float64() < 0.03 {
		switch r := s.rng.IntN(10); {
		case r < 5:
			if ws := c.owned(KindBullet); len(ws) > 0 {
				c.burst = ws[s.rng.IntN(len(ws))]
				c.burstEnd = now + time.Duration(s.rng.IntN(4000))*time.Millisecond
			}
		case r < 6:
			if ws := c.owned(KindContinuous); len(ws) > 0 {
				c.press = ws[s.rng.IntN(len(ws))]
				c.pressEnd = now + time.Duration(20+s.rng.IntN(3000))*time.Millisecond
				c.store.active = gameTable[c.press].Slot
			}
		case r < 7:
			if ws := c.owned(KindProjectile); len(ws) > 0 {
				w := ws[s.rng.IntN(len(ws))]
				s.slotOf(w).Total--
				s.fireProjectile(w)
			}
		case r < 9:
			s.blow()
		default:
			var ws []uint8
			for _, sl := range c.store.slots {
				if sl.Weapon != 0 {
					ws = append(ws, sl.Weapon)
				}
			}
			if len(ws) > 0 {
				c.store.active = gameTable[ws[s.rng.IntN(len(ws))]].Slot
			} else {
				c.store.active = 0
			}
		}
	}
}

// ready reports whether weapon w has a round in its clip. An empty clip with rounds
// left starts a reload of the given length; the clip stays empty until it ends, as in
// the game.
func (s *sim) ready(w uint8, reload time.Duration) bool {
	c := &s.c
	sl := s.slotOf(w)
	switch {
	case sl.Total == 0:
		return false
	case c.reload[w] != 0 && s.now >= c.reload[w]:
		c.reload[w] = 0
		sl.Clip = min(sl.Total, c.store.clipSize(w))
	case c.reload[w] != 0:
		return false
	case sl.Clip == 0:
		c.reload[w] = s.now + reload
		return false
	}
	return sl.Clip > 0
}

func (s *sim) fireShot(w uint8) {
	life := s.c.life
	length := float32(s.rng.Float64()) * gameTable[w].Range
	shot := Shot{Weapon: w, PropsRev: s.c.props, Origin: Vec3{10, 20, 3}, End: Vec3{10, 20 + length, 3}}
	s.logf("client fires %d (left %d)", w, s.slotOf(w).Total)
	if at, ok := s.up.datagram(s.now); ok {
		s.at(at, func() {
			alive := s.alive && life == s.life
			r := s.inv.Shot(s.now, alive, shot)
			s.logf("server shot %d: %v", w, r)
			if alive && r.Verdict != Accepted {
				s.fail("honest shot of weapon %d refused: %v", w, r)
			}
			s.stats.shots++
			s.stats.byPayment[r.Paid]++
			s.check()
		})
	}
}

func (s *sim) fireProjectile(w uint8) {
	life := s.c.life
	s.logf("client throws %d (left %d)", w, s.slotOf(w).Total)
	if at, ok := s.up.datagram(s.now); ok {
		s.at(at, func() {
			alive := s.alive && life == s.life
			r := s.inv.Projectile(s.now, alive, w)
			s.logf("server projectile %d: %v", w, r)
			if alive && r.Verdict != Accepted {
				s.fail("honest projectile %d refused: %v", w, r)
			}
			s.stats.projectiles++
			s.check()
		})
	}
}

// blow hits a victim with the held weapon (a melee weapon, the fists, or a gun butt).
func (s *sim) blow() {
	c := &s.c
	w := c.store.slots[c.store.active].Weapon
	interval := gameTable[Fists].MinInterval
	if gameTable[w].Kind == KindMelee {
		interval = gameTable[w].MinInterval
	}
	if s.now-c.lastBlow[w] < interval {
		return
	}
	c.lastBlow[w] = s.now
	life := c.life
	dist := float32(s.rng.Float64()) * MeleeRange
	s.logf("client hits with %d", w)
	at, ok := s.victim.datagram(s.now)
	if !ok {
		return
	}
	// The victim sees the blow after the relay and reports it over its own link.
	at += s.up.oneWay(s.now) + time.Duration(s.rng.IntN(400))*time.Millisecond
	s.at(at, func() {
		alive := s.alive && life == s.life
		r := s.inv.Melee(s.now, alive, w, dist)
		s.logf("server blow %d: %v", w, r)
		if alive && r.Verdict != Accepted {
			s.fail("honest blow with %d refused: %v", w, r)
		}
		s.stats.blows++
	})
}

// sendFrame sends the client's frame and schedules the next.
func (s *sim) sendFrame() {
	c := &s.c
	held := c.store.slots[c.store.active]
	f := Frame{WeaponRev: c.store.applied, Weapon: held.Weapon, Total: held.Total, Clip: held.Clip,
		FireHeld: c.alive && c.press != 0 && held.Weapon == c.press}
	life := c.life
	if at, ok := s.up.datagram(s.now); ok {
		s.at(at, func() {
			if life != s.life { // lifecycle drops frames of a previous life
				return
			}
			r := s.inv.Frame(s.now, f)
			s.stats.frames++
			s.stats.fireSpent += int(r.FireSpent)
			if r.FireSpent > 0 || r.Verdict == FrameMerged && f.Weapon != 0 {
				s.logf("server frame %+v: %v", f, r)
			}
			s.check()
		})
	}
	s.at(s.now+time.Duration(20+s.rng.IntN(81))*time.Millisecond, s.sendFrame)
}

func (s *sim) deathReport(life uint16) {
	if life != s.life || !s.alive {
		return
	}
	s.alive = false
	s.logf("server counts the death of life %d", life)
	s.at(s.now+time.Duration(1000+s.rng.IntN(2000))*time.Millisecond, func() {
		s.life++
		s.alive = true
		gen := s.life
		s.inv.RespawnGrant(gen)
		s.send(laneMsg{respawn: &gen})
		s.check()
		// The spawn loadout, given before the client confirms the new life.
		s.loadout()
	})
}

// loadout gives the spawn weapons.
func (s *sim) loadout() {
	for _, w := range []uint8{wKnife, wDeagle, wMP5, wM4, wSniper, wGrenade, wFlame, wSpraycan} {
		m := give(s.t, s.inv, s.now, w, uint16(50+s.rng.IntN(500)), s.rng.IntN(4) == 0)
		s.send(laneMsg{give: &m})
	}
	s.check()
}

// command issues a random gamemode command and schedules the next.
func (s *sim) command() {
	now := s.now
	// The host's estimate of the round trip: the link's, without its jitter (a median of
	// samples with jitter is at least that).
	s.inv.SetRTT(s.down.oneWay(now)+s.up.oneWay(now), true)
	w := uint8(s.rng.IntN(NumWeapons))
	switch r := s.rng.IntN(100); {
	case r < 45:
		ammo := uint16(s.rng.IntN(300))
		if s.rng.IntN(20) == 0 {
			ammo = uint16(s.rng.IntN(65536))
		}
		if m, err := s.inv.Give(now, w, ammo, s.rng.IntN(2) == 0); err == nil {
			s.send(laneMsg{give: &m})
		}
	case r < 55:
		if m, err := s.inv.Take(now, w); err == nil {
			s.send(laneMsg{take: &m})
		}
	case r < 70:
		total := uint16(s.rng.IntN(200))
		clip := ClipNotSet
		if s.rng.IntN(2) == 0 {
			clip = uint16(s.rng.IntN(int(total) + 1))
		}
		if m, err := s.inv.SetAmmo(now, w, total, clip); err == nil {
			s.send(laneMsg{setAmmo: &m})
		}
	case r < 74:
		m := s.inv.Clear(now)
		s.send(laneMsg{clear: &m})
	case r < 85:
		if m, err := s.inv.SetArmed(now, w); err == nil {
			s.send(laneMsg{armed: &m})
		}
	case r < 92:
		table := DefaultTable()
		for i := range table {
			if table[i].HasDamage {
				table[i].Damage[TierStd] *= float32(0.5 + s.rng.Float64())
			}
		}
		if m, err := s.cat.Update(now, &table); err == nil {
			s.send(laneMsg{props: &m})
		}
	default:
		stat := SkillStat(69 + s.rng.IntN(10))
		tier := Tier(s.rng.IntN(NumTiers))
		if err := s.inv.SetSkillTier(now, stat, tier); err == nil {
			s.send(laneMsg{skill: &struct {
				stat SkillStat
				tier Tier
			}{stat, tier}})
		}
	}
	s.check()
	s.at(now+time.Duration(100+s.rng.IntN(2000))*time.Millisecond, s.command)
}

// runHonestSim runs one seeded match of the given length and returns its statistics.
func runHonestSim(t *testing.T, seed uint64, length time.Duration) simStats {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x1A7E))
	link := func() *simNet {
		return &simNet{
			rng:    rng,
			base:   time.Duration(rng.IntN(201)) * time.Millisecond, // RTT 0-400 ms
			amp:    time.Duration(rng.IntN(51)) * time.Millisecond,
			period: time.Duration(5+rng.IntN(20)) * time.Second,
			jitter: time.Duration(rng.IntN(31)) * time.Millisecond,
			loss:   0.05,
		}
	}
	cat, err := NewCatalog(Config{})
	if err != nil {
		t.Fatal(err)
	}
	s := &sim{t: t, seed: seed, rng: rng, up: link(), down: link(), victim: link(), cat: cat, alive: true}
	s.inv = cat.NewInventory()
	s.c = simClient{alive: true, store: clientStore{tiers: map[SkillStat]Tier{}}}
	s.loadout()
	var tick func()
	tick = func() {
		s.clientTick()
		s.at(s.now+5*time.Millisecond, tick)
	}
	s.at(0, tick)
	s.at(0, s.sendFrame)
	s.at(time.Second, s.command)
	for s.q.Len() > 0 {
		e := heap.Pop(&s.q).(simEvent)
		if e.at > length {
			break
		}
		s.now = e.at
		e.do()
	}
	return s.stats
}

// TestHonestClientIsNeverWrongedAndNeverAhead is the property of the record: an honest
// client with loss, jitter, reordering and random commands never has a real shot
// refused, and the server's count is never below the client's.
func TestHonestClientIsNeverWrongedAndNeverAhead(t *testing.T) {
	seeds, scale := uint64(64), 1
	if raceEnabled {
		seeds, scale = 8, 8
	}
	if *soak > 0 {
		seeds = *soak
	}
	var total simStats
	for seed := range seeds {
		st := runHonestSim(t, seed, 2*time.Minute)
		total.shots += st.shots
		total.projectiles += st.projectiles
		total.blows += st.blows
		total.frames += st.frames
		total.commands += st.commands
		total.fireSpent += st.fireSpent
		for i := range st.byPayment {
			total.byPayment[i] += st.byPayment[i]
		}
	}
	// The simulation must really exercise the rules it claims to check.
	if total.shots < 20000/scale || total.projectiles < 300/scale || total.blows < 1000/scale ||
		total.commands < 3000/scale || total.fireSpent < 1000/scale || total.byPayment[PaidByFrame] < 5000/scale ||
		total.byPayment[NotCharged] < 300/scale || total.byPayment[PaidFromStore] < 10000/scale {
		t.Fatalf("the simulation exercised too little: %+v", total)
	}
	t.Logf("%+v", total)
}
