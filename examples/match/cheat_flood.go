package match

import (
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// The flood's habits (CheatFlood).
const (
	// FloodEvery is the time between two bursts of a flood cheater (the first comes
	// FloodEvery after its spawn, more or less).
	FloodEvery = time.Minute
	// FloodBurst is the number of datagrams of one burst, all sent in one client tick:
	// three times the server's relay log (refserver.MaxFanOut) and its event queue
	// (MaxPendingEvents), so that a server tick of the burst holds about one of each; a
	// multiple of 65536, so its frames' numbers come back to where its client's are. (The
	// jitter reorders the burst's frames, and a frame older than the last one taken is
	// dropped unread: only a link without jitter delivers them all, see -jitter 0.)
	FloodBurst = 3 << 16
)

// floodState is what the match keeps of the flood cheats: the honest losses seen so far,
// and the last burst of each flooder (the losses after it are its gain).
type floodState struct {
	lost      uint64 // honest relays lost and records' events dropped, at the last check
	lastBurst map[int]time.Duration
	frames    map[int][]byte // each flooder's last frame
	shots     map[int][]byte // each flooder's last shot
	next      map[int]time.Duration
	gains     map[int]*Gains
	findings  map[int]map[string]int
	kinds     map[int]int
}

// floodTick runs every client tick of a flooder: a burst every FloodEvery, rotating
// through frames (copies of its last frame under new numbers), shots (copies of its last
// shot under new numbers) and junk (random bytes).
func (m *Match) floodTick(now time.Duration, p *player, send func([]byte)) {
	if m.quiet {
		return // play is over
	}
	f := &m.adv.flood
	f.init()
	next, ok := f.next[p.idx]
	if !ok {
		next = now + FloodEvery/2 + time.Duration(p.rng.Int64N(int64(FloodEvery)))
		f.next[p.idx] = next
	}
	if now < next || !p.c.Alive() {
		return
	}
	f.next[p.idx] = now + FloodEvery
	kind := f.kinds[p.idx] % 3
	f.kinds[p.idx]++
	f.lastBurst[p.idx] = now
	var b []byte
	switch kind {
	case 0:
		frame := f.frames[p.idx]
		if len(frame) == 0 {
			return
		}
		msg, err := m.cheatDecoder.Decode(frame)
		ps, ok := msg.(*wire.PlayerSync)
		if err != nil || !ok {
			return
		}
		x := *ps
		for range FloodBurst {
			x.Seq++
			if b, err = x.Append(b[:0]); err == nil {
				send(b)
			}
		}
	case 1:
		shot := f.shots[p.idx]
		if len(shot) == 0 {
			return
		}
		msg, err := m.cheatDecoder.Decode(shot)
		ws, ok := msg.(*wire.WeaponShot)
		if err != nil || !ok {
			return
		}
		x := *ws
		x.DeathEpoch = p.c.DeathEpoch()
		for range FloodBurst {
			x.ShotSeq++
			if b, err = x.Append(b[:0]); err == nil {
				send(b)
			}
		}
		p.cheat.report.ForgedShots += FloodBurst
	default:
		for i := range FloodBurst {
			b = b[:0]
			n := 1 + p.rng.IntN(40)
			for range n {
				b = append(b, byte(p.rng.Uint32()))
			}
			if i%2 == 0 {
				b[0] = wire.Version
			}
			send(b)
		}
	}
	p.cheat.report.Forged += FloodBurst
}

// flooding reports whether p is a flood cheater (the match does not measure its
// datagrams on their way into the server: they are mostly copies).
func (p *player) flooding() bool { return p.cheat != nil && p.cheat.kind == CheatFlood }

func (f *floodState) init() {
	if f.next == nil {
		f.lastBurst, f.frames, f.shots, f.next = map[int]time.Duration{}, map[int][]byte{}, map[int][]byte{}, map[int]time.Duration{}
		f.gains, f.findings, f.kinds = map[int]*Gains{}, map[int]map[string]int{}, map[int]int{}
	}
}

// floodOutgoing keeps a flooder's last frame and shot for its bursts; its client's own
// datagrams go out unchanged.
func (m *Match) floodOutgoing(p *player, d []byte) {
	f := &m.adv.flood
	f.init()
	id, err := wire.Peek(d)
	if err != nil {
		return
	}
	switch id {
	case wire.IDPlayerSync:
		f.frames[p.idx] = append(f.frames[p.idx][:0], d...)
	case wire.IDWeaponShot:
		f.shots[p.idx] = append(f.shots[p.idx][:0], d...)
	}
}

// honestLosses is what the server lost of the honest players so far: relays of theirs it
// could not log, other players' datagrams their outboxes had no room for, and the
// records' events it dropped.
func (a *adversary) honestLosses() uint64 {
	var n uint64
	for _, p := range a.m.players {
		if p.cheat != nil {
			continue
		}
		if cs, err := a.m.server.ConnStats(p.id); err == nil {
			n += cs.FanOutCapped + cs.OutboxDropped
		}
	}
	return n + a.m.server.Stats().RecordEventsDropped
}

// floodCheck looks at the honest losses every server tick: those since the last look are
// the gain of the flooder that burst last.
func (a *adversary) floodCheck(now time.Duration) {
	if len(a.floods) == 0 {
		return
	}
	f := &a.flood
	f.init()
	lost := a.honestLosses()
	if lost == f.lost {
		return
	}
	d := int(lost - f.lost)
	f.lost = lost
	blame, at := a.floods[0].idx, time.Duration(-1)
	for _, p := range a.floods {
		if t, ok := f.lastBurst[p.idx]; ok && t > at {
			blame, at = p.idx, t
		}
	}
	g := f.gains[blame]
	if g == nil {
		g = &Gains{}
		f.gains[blame] = g
		f.findings[blame] = map[string]int{}
	}
	g.Others += d
	kind := "none yet"
	if at >= 0 {
		kind = [...]string{"frames", "shots", "junk"}[(f.kinds[blame]-1)%3]
	}
	f.findings[blame]["others:flood:"+kind] += d
}

// finishFloods puts each flooder's gains in its report.
func (a *adversary) finishFloods() {
	f := &a.flood
	f.init()
	for _, p := range a.floods {
		g := f.gains[p.idx]
		if g == nil {
			g = &Gains{}
		}
		gc := *g
		p.cheat.report.Gains = &gc
		p.cheat.report.Findings = f.findings[p.idx]
		p.cheat.report.Gained += gc.Sum()
	}
}
