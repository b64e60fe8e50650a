package vitals

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/arbitergo/arbiter/internal/revision"
)

// The invariants of the package's rules, checked over random and fuzzed sequences of everything a
// client (and a host) can throw at a Player.

// byteSource feeds the chaos driver: a seeded PCG for property tests, the fuzzer's bytes
// for fuzz targets.
type byteSource interface {
	u8() uint8
	done() bool
}

type randSource struct{ r *rand.Rand }

func (s randSource) u8() uint8  { return uint8(s.r.Uint32()) }
func (s randSource) done() bool { return false }

type fuzzSource struct {
	b []byte
	i int
}

func (s *fuzzSource) u8() uint8 {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return s.b[s.i-1]
}
func (s *fuzzSource) done() bool { return s.i >= len(s.b) }

type chaos struct {
	src     byteSource
	p       *Player
	now     time.Duration
	frame   uint16
	report  uint16
	held    map[uint16]bool // reports held, waiting for their final outcome
	ops     int
	lastOp  string
	failure string
	// busy is the word the player keeps its Busy bit in (TrackBusy, bit chaosBusyBit).
	busy uint64
}

// chaosBusyBit is the bit of chaos.busy the player keeps (TrackBusy: bit 37).
const chaosBusyBit = 1 << 37

func (c *chaos) u16() uint16 { return uint16(c.src.u8())<<8 | uint16(c.src.u8()) }

// near16 is a number close to base (most of the time) or anything.
func (c *chaos) near16(base uint16) uint16 {
	switch c.src.u8() % 8 {
	case 0:
		return c.u16()
	case 1:
		return base - uint16(c.src.u8()%80)
	default:
		return base + uint16(c.src.u8()%6)
	}
}

// value is a health-like number, now and then out of range or not finite.
func (c *chaos) value() float32 {
	switch c.src.u8() % 64 {
	case 0:
		return float32(math.NaN())
	case 1:
		return float32(math.Inf(1 - 2*int(c.src.u8()%2)))
	case 2:
		return -float32(c.src.u8())
	case 3:
		return 200 + float32(c.src.u8())
	case 4:
		return math.Float32frombits(uint32(c.u16())<<16 | uint32(c.u16()))
	}
	return float32(c.src.u8()%201) + float32(c.src.u8()%100)/100
}

// small is a loss-like number, now and then anything value can be.
func (c *chaos) small() float32 {
	if c.src.u8()%16 == 0 {
		return c.value()
	}
	return float32(c.src.u8()%50) + float32(c.src.u8()%100)/100
}

func (c *chaos) fail(format string, a ...any) {
	if c.failure == "" {
		c.failure = fmt.Sprintf("op %d (%s): %s", c.ops, c.lastOp, fmt.Sprintf(format, a...))
	}
}

// rejectedFrame and rejectedReport are verdicts that refuse an input: nothing may change.
func rejectedFrame(v FrameVerdict) bool {
	return v == FrameStale || v == FrameNotAlive || v == FrameFutureRevision
}
func rejectedReport(v ReportVerdict) bool {
	return !v.Credited() && v != ReportHeld
}

func (c *chaos) step() {
	p := c.p
	c.ops++
	c.now += time.Duration(c.src.u8()) * 4 * time.Millisecond
	if c.src.u8() == 0 { // a host clock that jumps: back, or far ahead
		c.now += time.Duration(int8(c.src.u8())) * time.Minute
	}
	before := clonePlayer(p)
	ledger := p.Ledger()
	raisable := false // a server command or a grant may raise the ledger
	rejected := false
	var eff *Effects
	op := c.src.u8() % 64
	switch {
	case op < 26:
		c.frame = c.near16(c.frame)
		in := FrameInput{Seq: c.frame, DamageSeq: c.near16(c.report), VitalRev: c.near16(p.Revision()), Health: c.value(), Armor: c.value()}
		if c.src.u8()%4 != 0 { // mostly what the ledger shows, a little lower
			l := p.Ledger()
			in.Health, in.Armor = max(l.Health-c.small()/8, 0), max(l.Armor-c.small()/16, 0)
		}
		c.lastOp = fmt.Sprintf("frame %+v", in)
		wasDead := p.life == LifeDead
		r, err := p.Frame(c.now, in)
		rejected = err != nil || rejectedFrame(r.Verdict)
		if err == nil && wasDead {
			// A dead client's frame is not taken, but its damage_seq marks the next
			// life's boundary: that is all it may change.
			if !p.deadValid || revision.Newer(in.DamageSeq, p.deadDS) {
				c.fail("a dead frame's damage_seq %d was not kept (kept %d, %v)", in.DamageSeq, p.deadDS, p.deadValid)
			}
			before.deadDS, before.deadValid = p.deadDS, p.deadValid
		}
		eff = &r.Effects
	case op < 48:
		c.report = c.near16(c.report + 1)
		src := Source(1 + c.src.u8()%10)
		if c.src.u8()%32 == 0 {
			src = Source(c.src.u8() % 16)
		}
		bp := 3 + c.src.u8()%7
		if c.src.u8()%32 == 0 {
			bp = c.src.u8()
		}
		l := p.Ledger()
		loss := c.small() / 4
		in := ReportInput{
			Seq: c.report, VitalRev: c.near16(p.Revision()), Source: src,
			Weapon: c.src.u8() % 56, BodyPart: bp, Attacker: PlayerID(c.src.u8() % 4),
			Correlated: c.src.u8()%8 != 0, Teammate: c.src.u8()%16 == 0, Floor: c.small() / 4,
			Loss: loss, Before: l, After: Vitals{max(l.Health-loss, 0), l.Armor},
		}
		if c.src.u8()%8 == 0 {
			in.Before, in.After = Vitals{c.value(), c.value()}, Vitals{c.value(), c.value()}
		}
		if c.src.u8()%16 == 0 {
			in.Attacker = NoPlayer
		}
		c.lastOp = fmt.Sprintf("report %+v", in)
		r, err := p.Report(c.now, in)
		rejected = err != nil || rejectedReport(r.Verdict)
		if err == nil && r.Verdict == ReportHeld {
			if c.held[in.Seq] {
				c.fail("report %d held twice", in.Seq)
			}
			c.held[in.Seq] = true
		}
		eff = &r.Effects
		if err == nil && !rejected && r.Verdict != ReportHeld {
			// its own outcome is among the call's reports
			found := false
			for _, o := range r.Reports {
				found = found || o.Seq == in.Seq && o.Verdict == r.Verdict
			}
			if !found {
				c.fail("verdict %v of report %d not among the outcomes %v", r.Verdict, in.Seq, r.Reports)
			}
			c.held[in.Seq] = true // settled below with the other outcomes
		}
	case op < 53:
		var err error
		c.lastOp = "command"
		switch c.src.u8() % 4 {
		case 0:
			_, err = p.SetHealth(c.now, c.value())
		case 1:
			_, err = p.SetArmor(c.now, c.value())
		case 2:
			_, err = p.AddHealth(c.now, c.small(), c.value())
		case 3:
			_, err = p.AddArmor(c.now, c.small(), c.value())
		}
		raisable = err == nil
		rejected = err != nil
	case op == 53:
		c.lastOp = "ack"
		rejected = p.Acknowledged(c.now, c.near16(p.Revision())) != nil
	case op == 54:
		c.lastOp = "multipliers"
		if c.src.u8()%2 == 0 {
			_, err := p.SetMultipliers(c.now, Multipliers{c.value() / 50, c.value() / 50, 1, 1, c.value() / 50, c.value() / 50})
			rejected = err != nil
		} else {
			rejected = p.MultipliersAcknowledged(c.now, c.near16(p.MultiplierRevision())) != nil
		}
	case op < 58:
		c.lastOp = "advance"
		e := p.Advance(c.now)
		eff = &e
	case op == 58:
		c.lastOp = "died / death zero"
		if c.src.u8()%2 == 0 {
			e, err := p.Died(c.now)
			rejected = err != nil
			eff = &e
		} else {
			_, err := p.DeathZero(c.now)
			rejected = err != nil
		}
	case op == 59:
		if p.Life() != LifeDead && p.Life() != LifeCountedDead && c.src.u8()%8 != 0 {
			return
		}
		c.lastOp = "new life"
		e := p.NewLife(c.now)
		eff = &e
		raisable = true
	case op == 60:
		if c.src.u8()%4 != 0 {
			return
		}
		c.lastOp = "stealth / explosion"
		var e Effects
		var err error
		if c.src.u8()%2 == 0 {
			e, err = p.StealthKilled(c.now, StealthKill{Killer: PlayerID(c.src.u8() % 4), Weapon: 4, Teammate: c.src.u8()%4 == 0})
		} else {
			e, err = p.VehicleExploded(c.now, VehicleExplosion{Killer: PlayerID(c.src.u8() % 4), Teammate: c.src.u8()%4 == 0})
		}
		rejected = err != nil
		eff = &e
	default:
		c.lastOp = "hit claimed"
		_, err := p.HitClaimed(c.now, c.value())
		rejected = err != nil
	}
	c.check(&before, ledger, raisable, rejected, eff)
}

func (c *chaos) check(before *Player, ledger Vitals, raisable, rejected bool, eff *Effects) {
	if (c.busy == chaosBusyBit) != c.p.Busy() || c.busy&^chaosBusyBit != 0 {
		c.fail("TrackBusy's bit %#x, Busy %v", c.busy, c.p.Busy())
	}
	p := c.p
	l := p.Ledger()
	if !finite(l.Health) || !finite(l.Armor) || l.Health < 0 || l.Armor < 0 || l.Health > MaxVitalSet || l.Armor > MaxVitalSet {
		c.fail("ledger %v out of bounds", l)
	}
	if !raisable && (l.Health > ledger.Health || l.Armor > ledger.Armor) {
		c.fail("the ledger rose without a server command: %v -> %v", ledger, l)
	}
	if rejected && !bytes.Equal(playerBytes(before), playerBytes(p)) {
		c.fail("a rejected input changed the player")
	}
	if p.susp.lifeCounted != (p.life == LifeCounted) {
		c.fail("the detector's copy of the life says counted %v, the life is %v", p.susp.lifeCounted, p.life)
	}
	if p.nwait < 0 || p.nwait > MaxWaitingFrames || p.nheld < 0 || p.nheld > ReportWindow {
		c.fail("queues out of their caps: %d frames, %d reports", p.nwait, p.nheld)
	}
	held := 0
	{
		for i := range p.held {
			if p.held[i].used {
				held++
			}
		}
	}
	if held != int(p.nheld) {
		c.fail("held count %d, slots %d", p.nheld, held)
	}
	if eff != nil {
		for _, o := range eff.Reports {
			if !c.held[o.Seq] {
				c.fail("outcome %v for a report not waiting for one", o)
			}
			if o.Verdict == ReportHeld {
				c.fail("a held verdict among final outcomes: %v", o)
			}
			delete(c.held, o.Seq)
		}
		if eff.Ledger != l {
			c.fail("effects ledger %v, player ledger %v", eff.Ledger, l)
		}
	}
	for seq := range c.held {
		if p.heldAt(seq) == nil {
			c.fail("report %d lost without an outcome", seq)
		}
	}
}

// playerBytes is a copy of the player's memory, its windows' contents included (they are
// allocated on demand, outside the struct): a rejected input must leave every byte as it
// was. The windows' places in memory are left out, so a clone compares equal.
func playerBytes(p *Player) []byte {
	q := *p
	q.held, q.waiting, q.cmdBuf, q.sc, q.susp.b, q.pass = nil, nil, nil, nil, nil, nil
	b := append([]byte(nil), unsafe.Slice((*byte)(unsafe.Pointer(&q)), unsafe.Sizeof(q))...)
	if p.pass != nil {
		b = append(b, unsafe.Slice((*byte)(unsafe.Pointer(p.pass)), unsafe.Sizeof(*p.pass))...)
	}
	b = append(b, windowBytes(p.held)...)
	b = append(b, windowBytes(p.waiting)...)
	b = append(b, windowBytes(p.cmdBuf)...)
	b = append(b, windowBytes(p.susp.b)...)
	b = append(b, unsafe.Slice((*byte)(unsafe.Pointer(&p.sc.eff)), unsafe.Sizeof(p.sc.eff))...)
	return append(b, windowBytes(p.sc.out)...)
}

// windowBytes is a window's length, capacity and contents.
func windowBytes[T any](s []T) []byte {
	var t T
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(s)))
	b = binary.LittleEndian.AppendUint64(b, uint64(cap(s)))
	if cap(s) == 0 {
		return b
	}
	return append(b, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), uintptr(cap(s))*unsafe.Sizeof(t))...)
}

// clonePlayer copies the player with its windows.
func clonePlayer(p *Player) Player {
	q := *p
	q.held = cloneWindow(p.held)
	if p.pass != nil {
		pass := *p.pass
		q.pass = &pass
	}
	q.waiting = append(make([]waitingFrame, 0, cap(p.waiting)), p.waiting[:cap(p.waiting)]...)[:len(p.waiting)]
	q.cmdBuf = append(make([]pendingCommand, 0, cap(p.cmdBuf)), p.cmdBuf[:cap(p.cmdBuf)]...)[:len(p.cmdBuf)]
	sc := *p.sc
	sc.out = append(make([]Outcome, 0, cap(p.sc.out)), p.sc.out[:cap(p.sc.out)]...)[:len(p.sc.out)]
	q.sc = &sc
	q.susp.b = cloneWindow(p.susp.b)
	return q
}

// cloneWindow copies a window with its exact length and capacity.
func cloneWindow[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, cap(s)), s[:cap(s)]...)[:len(s)]
}

// playerFootprint is what the player holds: the struct and the windows it grew.
func playerFootprint(p *Player) uintptr {
	n := unsafe.Sizeof(*p) + uintptr(cap(p.waiting))*unsafe.Sizeof(waitingFrame{}) +
		uintptr(cap(p.cmdBuf))*unsafe.Sizeof(pendingCommand{}) + unsafe.Sizeof(*p.sc) + uintptr(cap(p.sc.out))*unsafe.Sizeof(Outcome{}) +
		uintptr(cap(p.susp.b))*unsafe.Sizeof(bucket{})
	n += uintptr(cap(p.held)) * unsafe.Sizeof(heldReport{})
	if p.pass != nil {
		n += unsafe.Sizeof(*p.pass)
	}
	return n
}

func newChaos(src byteSource) *chaos {
	p, err := NewPlayer(Config{})
	if err != nil {
		panic(err)
	}
	c := &chaos{src: src, p: p, frame: 1, held: map[uint16]bool{}}
	p.TrackBusy(&c.busy, 37)
	p.NewLife(0)
	if _, err := p.Frame(0, FrameInput{Seq: 1, Health: 100}); err != nil {
		panic(err)
	}
	return c
}

// TestPropertyInvariantsHoldWhateverAClientSends: over random sequences of frames,
// reports, commands, acknowledgements, tables, deaths and grants, the ledger never rises
// without a server command, stays within 0..200, a rejected input changes nothing, every
// held report gets exactly one final outcome, and the queues stay within their caps.
func TestPropertyInvariantsHoldWhateverAClientSends(t *testing.T) {
	seeds, steps := 40, 5000
	if testing.Short() || raceEnabled {
		seeds = 8
	}
	for seed := range uint64(seeds) {
		c := newChaos(randSource{rand.New(rand.NewPCG(seed, 7))})
		for range steps {
			c.step()
			if c.failure != "" {
				t.Fatalf("seed %d: %s", seed, c.failure)
			}
		}
		// Whatever waits reaches its outcome once its wait is over.
		c.now += ReportWait
		e := c.p.Advance(c.now)
		c.check(c.p, c.p.Ledger(), false, false, &e)
		if c.failure != "" {
			t.Fatalf("seed %d: %s", seed, c.failure)
		}
		if len(c.held) != 0 && c.p.Life() != LifeSpawned {
			t.Fatalf("seed %d: %d reports never reached an outcome", seed, len(c.held))
		}
	}
}

// TestPropertyMemoryIsBoundedWhateverAClientSends: a flood of frames that never get their
// report and of reports far ahead grows the windows only up to their named caps: the
// queues stop there, the player's footprint is bounded, and once the windows have grown
// (the first flood) no call allocates.
func TestPropertyMemoryIsBoundedWhateverAClientSends(t *testing.T) {
	p := livePlayer(t)
	small := playerFootprint(p)
	var now time.Duration
	maxFrames, maxReports := 0, 0
	flood := func() {
		for i := range 20000 {
			now += time.Millisecond / 4 // 4000 frames a second: far more than a second of wait
			// every frame claims a new report that never comes
			if _, err := p.Frame(now, FrameInput{Seq: uint16(i + 2), DamageSeq: uint16(i + 10), Health: 100}); err != nil {
				t.Fatal(err)
			}
			// and reports ahead of the order, each waiting for an earlier one
			_, _ = p.Report(now, ReportInput{Seq: p.cursor + 2 + uint16(i%63), Source: SourceEnvironment, Weapon: WeaponFall,
				Attacker: NoPlayer, Before: Vitals{100, 0}, After: Vitals{100, 0}})
			f, r := p.Waiting()
			if f > MaxWaitingFrames || r > ReportWindow {
				t.Fatalf("waiting %d frames and %d reports, caps %d and %d", f, r, MaxWaitingFrames, ReportWindow)
			}
			maxFrames, maxReports = max(maxFrames, f), max(maxReports, r)
		}
	}
	flood()
	grown := playerFootprint(p)
	allocs := testing.AllocsPerRun(1, flood)
	if allocs != 0 {
		t.Fatalf("the second flood allocated %v times", allocs)
	}
	if playerFootprint(p) != grown || cap(p.waiting) != MaxWaitingFrames || len(p.held) != ReportWindow {
		t.Fatalf("the windows grew past their caps: %d frames, %d held", cap(p.waiting), len(p.held))
	}
	if maxFrames != MaxWaitingFrames || maxReports < ReportWindow/2 {
		t.Fatalf("the flood did not reach the caps: %d frames, %d reports", maxFrames, maxReports)
	}
	if grown > 32<<10 {
		t.Fatalf("a flooded player takes %d bytes", grown)
	}
	if small > 4<<10 {
		t.Fatalf("a new player takes %d bytes", small)
	}
	t.Logf("a new player takes %d bytes, a flooded one %d", small, grown)
}

// TestPropertyOneLossIsNeverDeductedTwiceUnderHeavyReordering runs the honest client far
// beyond the promised network (jitter up to 300 ms, 15 % loss): still no loss is deducted
// twice, no frame is flagged, no death comes early.
func TestPropertyOneLossIsNeverDeductedTwiceUnderHeavyReordering(t *testing.T) {
	seeds := 12
	if testing.Short() || raceEnabled {
		seeds = 3
	}
	for _, jitter := range []time.Duration{100 * time.Millisecond, 300 * time.Millisecond} {
		for seed := range uint64(seeds) {
			prm := simParams{seed: 1000 + seed, rtt: 300 * time.Millisecond, jitter: jitter, loss: 0.15, duration: 30 * time.Second}
			if _, failures := runHonestSim(prm); len(failures) > 0 {
				t.Fatalf("%v:\n%s", prm, strings.Join(failures, "\n"))
			}
		}
	}
}

// FuzzPlayer drives a player with the fuzzer's bytes and checks the same invariants.
func FuzzPlayer(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x00\x05\x00\x01\x00\x00\x00\x64\x00\x10\x02\x00\x01"))
	seed := make([]byte, 256)
	for i := range seed {
		seed[i] = byte(i * 37)
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newChaos(&fuzzSource{b: data})
		for !c.src.done() && c.ops < 2000 {
			c.step()
			if c.failure != "" {
				t.Fatal(c.failure)
			}
		}
	})
}

// FuzzHonestClient runs the honest client model on a network the fuzzer picks within the
// promise (RTT 0-400 ms, jitter 0-30 ms, loss 0-5 %).
func FuzzHonestClient(f *testing.F) {
	f.Add(uint64(1), uint16(200), uint8(30), uint8(5))
	f.Add(uint64(7), uint16(400), uint8(0), uint8(5))
	f.Fuzz(func(t *testing.T, seed uint64, rtt uint16, jitter, loss uint8) {
		prm := simParams{
			seed: seed, rtt: time.Duration(rtt%401) * time.Millisecond,
			jitter: time.Duration(jitter%31) * time.Millisecond, loss: float64(loss%6) / 100,
			duration: 10 * time.Second,
		}
		if _, failures := runHonestSim(prm); len(failures) > 0 {
			t.Fatalf("%v:\n%s", prm, strings.Join(failures, "\n"))
		}
	})
}

// FuzzFloors: the floor functions never return a negative, non-finite value, nor one that
// reaches the game's damage they stand for.
func FuzzFloors(f *testing.F) {
	f.Add(uint32(math.Float32bits(140)), uint32(math.Float32bits(1)))
	f.Add(uint32(math.Float32bits(10)), uint32(math.Float32bits(0)))
	f.Fuzz(func(t *testing.T, db, mb uint32) {
		d, m := math.Float32frombits(db), math.Float32frombits(mb)
		check := func(name string, floor, game float32) {
			if !finite(floor) || floor < 0 {
				t.Fatalf("%s(%v) = %v", name, d, floor)
			}
			if floor > 0 && !(floor < game) {
				t.Fatalf("%s(%v, %v) = %v, not below the game's %v", name, d, m, floor, game)
			}
		}
		check("BulletFloor", BulletFloor(d), PlayerDamageFactor*d)
		if finite(m) && m >= 0 && m <= MaxMultiplier {
			check("MeleeFloor", MeleeFloor(m), MeleeFloorBase*m)
			check("PredatorFloor", PredatorFloor(m), PlayerDamageFactor*PredatorDamage*m)
		}
	})
}

// Players that share a Scratch (ShareScratch) return what they return with their own: two
// chaos drivers interleaved on players sharing one scratch keep every invariant (every held
// report gets exactly one final outcome, read from the Effects each call returns), and
// their ledgers, revisions and held reports follow, step for step, those of the same
// drivers on players with scratches of their own.
func TestSharedScratchChangesNoResult(t *testing.T) {
	seeds, steps := 8, 3000
	if testing.Short() || raceEnabled {
		seeds = 2
	}
	for seed := range uint64(seeds) {
		var s Scratch
		shared := [2]*chaos{newChaos(randSource{rand.New(rand.NewPCG(seed, 11))}), newChaos(randSource{rand.New(rand.NewPCG(seed, 12))})}
		own := [2]*chaos{newChaos(randSource{rand.New(rand.NewPCG(seed, 11))}), newChaos(randSource{rand.New(rand.NewPCG(seed, 12))})}
		for _, c := range shared {
			c.p.ShareScratch(&s)
		}
		for step := range steps {
			for i := range shared {
				shared[i].step()
				own[i].step()
				for _, c := range []*chaos{shared[i], own[i]} {
					if c.failure != "" {
						t.Fatalf("seed %d step %d: %s", seed, step, c.failure)
					}
				}
				if shared[i].p.Ledger() != own[i].p.Ledger() || shared[i].p.Revision() != own[i].p.Revision() ||
					len(shared[i].held) != len(own[i].held) || shared[i].lastOp != own[i].lastOp {
					t.Fatalf("seed %d step %d player %d (%s): shared %v rev %d held %d, own %v rev %d held %d", seed, step, i,
						own[i].lastOp, shared[i].p.Ledger(), shared[i].p.Revision(), len(shared[i].held),
						own[i].p.Ledger(), own[i].p.Revision(), len(own[i].held))
				}
			}
		}
	}
}
