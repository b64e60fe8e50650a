package vitals

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
)

// This file keeps the client's order: frames and reports are applied to the ledger in the
// order the client created them. A report is numbered; a frame carries the number of the
// last report created before it (damage_seq), so it sits after that report and before the
// next. Whatever arrives ahead of its place waits (up to ReportWait from its arrival) for
// what comes before it.

// Frame takes one of the owner's frames. It is judged in the client's order: a frame newer
// than the reports taken waits for them; a frame in order lowers the ledger to what it shows,
// and a value above the ledger (beyond RaiseTolerance) is cut and flagged, unless the frame
// was taken before a report credited less than CreditGrace ago. The host passes only frames
// of the current life (lifecycle's generation check).
//
// A frame echoing a health revision never sent (FrameFutureRevision) is ignored before
// anything is written: it neither waits nor moves the frame sequence, so an honest frame
// with the same number still counts. The first frame of a life is the exception: it starts
// counting the life whatever it echoes (the echo itself is not taken and the ledger is not
// touched), since ignoring it would let a client keep its life uncounted, its reports held
// and its commands refused.
//
// Rules: [ledger-only-falls], [client-order], [health-revision].
func (p *Player) Frame(now time.Duration, in FrameInput) (FrameResult, error) {
	if !finite(in.Health) || !finite(in.Armor) {
		return FrameResult{Effects: p.quiet()}, fmt.Errorf("%w: frame health %v armor %v", ErrNotFinite, in.Health, in.Armor)
	}
	if !within(in.Health, -MaxVitalSet, MaxClaimedVital) || !within(in.Armor, -MaxVitalSet, MaxClaimedVital) {
		return FrameResult{Effects: p.quiet()}, fmt.Errorf("%w: frame health %v armor %v not in %v..%v",
			ErrOutOfRange, in.Health, in.Armor, -MaxVitalSet, MaxClaimedVital)
	}
	switch p.life {
	case LifeNone:
		return FrameResult{Verdict: FrameNotAlive, Effects: p.quiet()}, nil
	case LifeDead:
		// Not taken, but its damage_seq is remembered: the boundary of the next life.
		if !p.deadValid || revision.Newer(in.DamageSeq, p.deadDS) {
			p.deadDS, p.deadValid = in.DamageSeq, true
		}
		return FrameResult{Verdict: FrameNotAlive, Effects: p.quiet()}, nil
	case LifeSpawned:
		p.begin()
		p.firstFrame(now, in)
		return FrameResult{Verdict: FrameFirst, Effects: p.finish()}, nil
	}
	if revision.Newer(in.VitalRev, p.rev) {
		return FrameResult{Verdict: FrameFutureRevision, Effects: p.quiet()}, nil
	}
	if !revision.Newer(in.Seq, p.frameSeq) {
		return FrameResult{Verdict: FrameStale, Effects: p.quiet()}, nil
	}
	p.begin()
	p.settle(now)
	p.expire(now, false)
	// A damage_seq never moves back: the client's counter only grows.
	if !revision.Newer(in.DamageSeq, p.frameDS) {
		in.DamageSeq = p.frameDS
	}
	p.frameSeq, p.frameDS = in.Seq, in.DamageSeq
	var v FrameVerdict
	if p.nwait == 0 && !revision.Newer(in.DamageSeq, p.cursor) {
		v = p.countFrame(now, &in, false, 0)
	} else {
		for p.nwait == MaxWaitingFrames {
			if !p.forceNext(now) {
				break
			}
			p.drain(now)
		}
		p.pushFrame(now, in)
		p.drain(now)
		v = FrameWaiting
		if p.nwait == 0 {
			v = p.lastFrameVerd
		}
	}
	return FrameResult{Verdict: v, Effects: p.finish()}, nil
}

// Report takes one damage report with the facts the host established about it. A report
// that fits the client's order is credited now (or held for an earlier report, with its
// final outcome in a later call's Effects.Reports); a report whose place was passed is late
// and pays only its floor; the rest is discarded with its reason. Invalid fields return an
// error and change nothing.
//
// Rules: [trust-in-fields], [damage-floor], [client-order], [sums-after-frames], [mutual-kill].
func (p *Player) Report(now time.Duration, in ReportInput) (ReportResult, error) {
	if err := validateReport(&in); err != nil {
		return ReportResult{Effects: p.quiet()}, err
	}
	floor, kind, v := p.screen(now, &in)
	if v != 0 {
		return ReportResult{Verdict: v, Effects: p.quiet()}, nil
	}
	p.begin()
	p.settle(now)
	if kind == numHold && p.life != LifeSpawned && in.Seq == p.cursor+1 && p.nwait == 0 && p.nheld == 0 {
		// the common case: next in the client's order, nothing waits
		p.apply(now, &in, floor, false, 0)
		return ReportResult{Verdict: p.sc.out[0].Verdict, Effects: p.finish()}, nil
	}
	p.tracking, p.trackSeq, p.trackVerdict = true, in.Seq, ReportHeld
	if kind == numLate {
		p.late(now, &in, floor)
		p.expire(now, false)
	} else {
		p.hold(now, &in, floor)
		if p.life != LifeSpawned {
			p.drain(now)
			p.expire(now, false)
		}
	}
	p.tracking = false
	return ReportResult{Verdict: p.trackVerdict, Effects: p.finish()}, nil
}

func validateReport(r *ReportInput) error {
	// One comparison per field refuses NaN, ±Inf and out of range alike; the precise error
	// is worked out only for a refused report.
	if r.Source.valid() && within(r.Loss, 0, MaxClaimedLoss) && within(r.Floor, 0, MaxVitalSet) &&
		within(r.Before.Health, -MaxVitalSet, MaxClaimedVital) && within(r.Before.Armor, -MaxVitalSet, MaxClaimedVital) &&
		within(r.After.Health, -MaxVitalSet, MaxClaimedVital) && within(r.After.Armor, -MaxVitalSet, MaxClaimedVital) &&
		(!r.Source.Hit() || ValidBodyPart(r.BodyPart)) && !(r.Correlated && r.Attacker == NoPlayer) {
		return nil
	}
	return reportError(r)
}

func reportError(r *ReportInput) error {
	if !r.Source.valid() {
		return fmt.Errorf("%w: %d", ErrSource, r.Source)
	}
	if !finite(r.Loss) || !finite(r.Floor) || !finite(r.Before.Health) || !finite(r.Before.Armor) ||
		!finite(r.After.Health) || !finite(r.After.Armor) {
		return fmt.Errorf("%w: report %d", ErrNotFinite, r.Seq)
	}
	if !within(r.Loss, 0, MaxClaimedLoss) {
		return fmt.Errorf("%w: report %d loss %v not in 0..%v", ErrOutOfRange, r.Seq, r.Loss, MaxClaimedLoss)
	}
	if !within(r.Floor, 0, MaxVitalSet) {
		return fmt.Errorf("%w: report %d floor %v not in 0..%v", ErrOutOfRange, r.Seq, r.Floor, MaxVitalSet)
	}
	for _, v := range [...]float32{r.Before.Health, r.Before.Armor, r.After.Health, r.After.Armor} {
		if !within(v, -MaxVitalSet, MaxClaimedVital) {
			return fmt.Errorf("%w: report %d claims %v not in %v..%v", ErrOutOfRange, r.Seq, v, -MaxVitalSet, MaxClaimedVital)
		}
	}
	if r.Source.Hit() && !ValidBodyPart(r.BodyPart) {
		return fmt.Errorf("%w: report %d body part %d", ErrBodyPart, r.Seq, r.BodyPart)
	}
	return fmt.Errorf("%w: report %d correlated without an attacker", ErrAttacker, r.Seq)
}

const (
	numHold = iota + 1
	numLate
)

// screen decides, without changing anything, whether a valid report is discarded, and
// otherwise its floor and whether it is held (in order or ahead) or late.
func (p *Player) screen(now time.Duration, r *ReportInput) (floor float32, kind int, v ReportVerdict) {
	if p.life == LifeNone || p.life == LifeDead {
		return 0, 0, ReportNotAlive
	}
	if revision.Newer(r.VitalRev, p.rev) {
		return 0, 0, ReportFutureRevision
	}
	if r.Source.NeedsAttacker() && !r.Correlated {
		return 0, 0, ReportUncorrelated
	}
	if r.Correlated && r.Teammate {
		return 0, 0, ReportTeammate
	}
	floor, zero := p.floorFor(now, r)
	if zero {
		return 0, 0, ReportZeroMultiplier
	}
	kind, v = p.classify(r.Seq)
	return floor, kind, v
}

// floorFor is the floor of a report at its arrival, and whether the multiplier the client
// may be applying to its class is 0 (the hit is refused).
func (p *Player) floorFor(now time.Duration, r *ReportInput) (float32, bool) {
	cls := ClassOf(r.Source, r.Weapon)
	m := float32(1)
	if cls != ClassNone {
		m = p.mult.effective(now).Of(cls)
		if m == 0 {
			return 0, true
		}
	}
	switch r.Source {
	case SourceBullet, SourceVehicleGun:
		return r.Floor, false
	case SourcePredatorGun:
		return PredatorFloor(m), false
	case SourceMelee:
		return MeleeFloor(m), false
	}
	return 0, false
}

// classify places a report number against the client's order.
func (p *Player) classify(n uint16) (int, ReportVerdict) {
	d := revision.Diff(n, p.cursor)
	if p.life == LifeSpawned {
		// The boundary of the new life is not known before its first frame, but it is not
		// before the cursor: anything at or before it is the previous life's.
		switch {
		case d <= 0:
			return 0, ReportPreviousLife
		case d > ReportWindow:
			return 0, ReportTooFarAhead
		case p.heldAt(n) != nil:
			return 0, ReportDuplicate
		}
		return numHold, 0
	}
	if d <= 0 {
		back := -d
		switch {
		case back >= int(p.sinceBoundary) && p.sinceBoundary < ReportWindow:
			return 0, ReportPreviousLife
		case back >= ReportWindow:
			return 0, ReportStale
		case p.seen&(1<<uint(back)) != 0:
			return 0, ReportDuplicate
		}
		return numLate, 0
	}
	if d > ReportWindow {
		return 0, ReportTooFarAhead
	}
	if p.heldAt(n) != nil {
		return 0, ReportDuplicate
	}
	return numHold, 0
}

func (p *Player) heldAt(n uint16) *heldReport {
	if len(p.held) == 0 {
		return nil
	}
	h := &p.held[int(n)&(len(p.held)-1)]
	if h.used && h.in.Seq == n {
		return h
	}
	return nil
}

// minHeld is the first size of the table of held reports.
const minHeld = 4

// growHeld doubles the table of held reports (at least minHeld, at most ReportWindow) until
// every held report has a slot of its own (the held reports lie within ReportWindow of the
// cursor, so at ReportWindow they never share one).
func (p *Player) growHeld() {
	for n := min(max(2*len(p.held), minHeld), ReportWindow); ; n *= 2 {
		grown := make([]heldReport, n)
		ok := true
		for i := range p.held {
			if h := &p.held[i]; h.used {
				g := &grown[int(h.in.Seq)&(n-1)]
				if g.used && n < ReportWindow {
					ok = false
					break
				}
				*g = *h
			}
		}
		if ok {
			p.held = grown
			return
		}
	}
}

func (p *Player) hold(now time.Duration, r *ReportInput, floor float32) {
	for len(p.held) < ReportWindow {
		if len(p.held) > 0 {
			if h := &p.held[int(r.Seq)&(len(p.held)-1)]; !h.used || h.in.Seq == r.Seq {
				break
			}
		}
		p.growHeld()
	}
	h := &p.held[int(r.Seq)&(len(p.held)-1)]
	*h = heldReport{in: *r, floor: floor, arrived: now, used: true}
	p.nheld++
	p.noteBusy()
}

// dropHeld discards the held reports numbered up to last, in order, with verdict v.
func (p *Player) dropHeld(v ReportVerdict, last uint16) {
	for i := 1; i <= ReportWindow && p.nheld > 0; i++ {
		n := p.cursor + uint16(i)
		if revision.Newer(n, last) {
			return
		}
		if h := p.heldAt(n); h != nil {
			o := outcomeOf(&h.in, h.floor)
			o.Verdict = v
			h.used = false
			p.nheld--
			p.noteBusy()
			p.emit(o)
		}
	}
}

func (p *Player) pushFrame(now time.Duration, f FrameInput) {
	if int(p.nwait) == len(p.waiting) {
		p.growWaiting()
	}
	i := (p.whead + int(p.nwait)) % len(p.waiting)
	p.waiting[i] = waitingFrame{in: f, arrived: now}
	p.nwait++
	p.noteBusy()
}

func (p *Player) popFrame() FrameInput {
	f := p.waiting[p.whead].in
	p.whead = (p.whead + 1) % len(p.waiting)
	p.nwait--
	p.noteBusy()
	return f
}

// growWaiting doubles the ring of waiting frames (at least minWaiting, at most
// MaxWaitingFrames: the caller never pushes past the cap), oldest first.
func (p *Player) growWaiting() {
	grown := make([]waitingFrame, min(max(2*len(p.waiting), minWaiting), MaxWaitingFrames))
	for i := range int(p.nwait) {
		grown[i] = p.waiting[(p.whead+i)%len(p.waiting)]
	}
	p.waiting, p.whead = grown, 0
}

// minWaiting is the first size of the ring of waiting frames.
const minWaiting = 8

// moveCursor moves the place in the client's order forward to n; the numbers passed are
// not taken (a late report may still come for them).
func (p *Player) moveCursor(n uint16) {
	k := revision.Diff(n, p.cursor)
	if k <= 0 {
		return
	}
	if k >= 64 {
		p.seen = 0
	} else {
		p.seen <<= uint(k)
	}
	p.cursor = n
	p.sinceBoundary = int32(min(int(p.sinceBoundary)+k, ReportWindow))
}

// firstFrame starts counting a life. Reports numbered up to the boundary (at most
// ReportWindow past the last accepted report) belong to the previous life. The boundary is
// the damage_seq the client's frames showed while it was dead, when one arrived: a dead
// client makes no reports, so that is exactly its last report of the previous life, and a
// hit the new life took before this frame (a report numbered after it, though not after
// this frame's damage_seq) is the new life's. Without one it is this frame's damage_seq, as
// [client-order] says: a report the new life made before its first frame reached the server
// is then taken for the previous life's (the frames that follow still show its loss).
func (p *Player) firstFrame(now time.Duration, in FrameInput) {
	b := in.DamageSeq
	if p.deadValid && !revision.Newer(p.deadDS, b) {
		b = p.deadDS
	}
	p.deadValid = false
	switch d := revision.Diff(b, p.lastAccepted); {
	case d < 0:
		b = p.lastAccepted
	case d > ReportWindow:
		b = p.lastAccepted + ReportWindow
	}
	if revision.Newer(p.cursor, b) {
		b = p.cursor
	}
	p.dropHeld(ReportPreviousLife, b)
	p.moveCursor(b)
	p.seen = ^uint64(0)
	p.sinceBoundary = 0
	p.frameSeq, p.frameDS = in.Seq, in.DamageSeq
	if !revision.Newer(in.VitalRev, p.rev) {
		p.echo(in.VitalRev, in.DamageSeq)
	}
	p.setLife(LifeCounted)
	p.drain(now)
	p.expire(now, false)
}

// drain takes everything that is next in the client's order.
func (p *Player) drain(now time.Duration) {
	for {
		if p.nwait > 0 && !revision.Newer(p.waiting[p.whead].in.DamageSeq, p.cursor) {
			f := p.popFrame()
			p.countFrame(now, &f, false, 0)
			continue
		}
		if p.nheld > 0 {
			if h := p.heldAt(p.cursor + 1); h != nil {
				p.applyHeld(now, h, false, 0)
				continue
			}
		}
		return
	}
}

func (p *Player) oldestArrival() time.Duration {
	var t time.Duration
	found := false
	if p.nwait > 0 {
		t, found = p.waiting[p.whead].arrived, true
	}
	if p.nheld > 0 {
		for i := range p.held {
			if h := &p.held[i]; h.used && (!found || h.arrived < t) {
				t, found = h.arrived, true
			}
		}
	}
	return t
}

// expire forces, in the client's order, what waited ReportWait or longer (everything when
// all is set).
func (p *Player) expire(now time.Duration, all bool) {
	if p.life != LifeCounted && p.life != LifeCountedDead {
		return
	}
	for p.nwait > 0 || p.nheld > 0 {
		if !all && now-p.oldestArrival() < ReportWait {
			return
		}
		if !p.forceNext(now) {
			return
		}
		p.drain(now)
	}
}

func (p *Player) nextHeld() (uint16, bool) {
	if p.nheld == 0 {
		return 0, false
	}
	for i := 1; i <= ReportWindow; i++ {
		n := p.cursor + uint16(i)
		if p.heldAt(n) != nil {
			return n, true
		}
	}
	return 0, false
}

// forceNext takes the next item of the client's order without what it waits for: a frame
// counts on its own, passing the missing reports; a report is applied over the gap.
func (p *Player) forceNext(now time.Duration) bool {
	n, ok := p.nextHeld()
	if p.nwait > 0 {
		ds := p.waiting[p.whead].in.DamageSeq
		if !ok || revision.Newer(n, ds) {
			f := p.popFrame()
			first := p.cursor + 1
			p.moveCursor(f.DamageSeq)
			p.countFrame(now, &f, true, first)
			return true
		}
	}
	if !ok {
		return false
	}
	first := p.cursor + 1
	gap := n != first
	if gap {
		p.moveCursor(n - 1)
	}
	p.applyHeld(now, p.heldAt(n), gap, first)
	return true
}

// ---- frames ----

func (p *Player) countFrame(now time.Duration, f *FrameInput, forced bool, passFirst uint16) FrameVerdict {
	p.sc.eff.FramesCounted++
	v := p.judgeFrame(now, f, forced, passFirst)
	p.lastFrameVerd = v
	return v
}

func (p *Player) judgeFrame(now time.Duration, f *FrameInput, forced bool, passFirst uint16) FrameVerdict {
	// Frame ignores a future echo on arrival; a waiting frame gets here with one only if
	// the revision wrapped half way round while it waited.
	if revision.Newer(f.VitalRev, p.rev) {
		return FrameFutureRevision
	}
	if p.heldOff(now, f.VitalRev, f.DamageSeq, true) {
		return FrameGated
	}
	p.echo(f.VitalRev, f.DamageSeq)
	// Judged as of the revision it echoes: against the base, with the commands the client
	// had not taken yet replayed after it.
	before := p.base
	shown := Vitals{Health: nonNegative(f.Health), Armor: nonNegative(f.Armor)}
	v := FrameCounted
	if p.life == LifeCountedDead {
		p.base = minVitals(p.base, shown)
		v = FrameAfterDeath
	} else {
		var excess float32
		if shown.Health > p.base.Health+RaiseTolerance {
			excess = shown.Health - p.base.Health
		} else if shown.Health < p.base.Health {
			p.base.Health = shown.Health
		}
		if shown.Armor > p.base.Armor+RaiseTolerance {
			excess = max32(excess, shown.Armor-p.base.Armor)
		} else if shown.Armor < p.base.Armor {
			p.base.Armor = shown.Armor
		}
		if excess > 0 {
			if p.excused(now, f.DamageSeq) {
				v = FrameRaiseExcused
			} else {
				v = FrameRaiseFlagged
				eff := &p.sc.eff
				eff.GodMode = true
				eff.GodModeExcess = max32(eff.GodModeExcess, excess)
			}
		}
	}
	if t := drop(before, p.base).Total(); t > 0 {
		p.relevel()
		p.susp.feel(now, t)
		if forced {
			p.addPass(passFirst, t)
		}
	}
	p.checkLedgerDeath(now, DeathByFrame, 0, true)
	return v
}

// excused: the frame was taken before a report the server credited less than CreditGrace
// ago, so it may still show the health from before that hit.
func (p *Player) excused(now time.Duration, ds uint16) bool {
	return p.haveCredit && revision.Newer(p.creditNum, ds) && now-p.creditAt < CreditGrace
}

// ---- reports ----

func attackerOf(r *ReportInput) PlayerID {
	if r.Correlated && r.Source != SourceEnvironment {
		return r.Attacker
	}
	return NoPlayer
}

func outcomeOf(r *ReportInput, floor float32) Outcome {
	return Outcome{
		Seq: r.Seq, Source: r.Source, Attacker: attackerOf(r), Weapon: r.Weapon,
		BodyPart: r.BodyPart, Claimed: r.Loss, Floor: floor,
	}
}

// hitResult is the ledger after a hit taken in order. The ledger falls to at most what the
// report claims was left (and never above what it claims it had), and in total by at least
// the claimed loss and at least the floor below the hit's "before" (the lower of the claim
// and the ledger); whatever the claims did not already take is taken armor first. The
// claimed remainder counts towards the loss, so a client whose game split a hit between
// health and armor otherwise than armor first is never charged twice.
func hitResult(l Vitals, r *ReportInput, floor float32) Vitals {
	claimedBefore := Vitals{Health: nonNegative(r.Before.Health), Armor: nonNegative(r.Before.Armor)}
	claimedAfter := Vitals{Health: nonNegative(r.After.Health), Armor: nonNegative(r.After.Armor)}
	before := minVitals(l, claimedBefore)
	out := minVitals(before, claimedAfter)
	limit := min32(l.Total()-max32(r.Loss, floor), before.Total()-floor)
	if excess := out.Total() - nonNegative(limit); excess > 0 {
		out = deduct(out, excess)
	}
	return out
}

// applyHeld takes a held report out of its slot and applies it.
func (p *Player) applyHeld(now time.Duration, h *heldReport, gap bool, gapFirst uint16) {
	r, floor := h.in, h.floor
	h.used = false
	p.nheld--
	p.noteBusy()
	p.apply(now, &r, floor, gap, gapFirst)
}

// apply takes a report in the client's order. gap is set when it is forced over missing
// reports from gapFirst on.
func (p *Player) apply(now time.Duration, r *ReportInput, floor float32, gap bool, gapFirst uint16) {
	p.moveCursor(r.Seq)
	p.seen |= 1
	p.lastAccepted = r.Seq
	o := outcomeOf(r, floor)
	if p.heldOff(now, r.VitalRev, r.Seq, false) {
		o.Verdict = ReportAttributionOnly
	} else {
		// Judged as of the revision it echoes (see judgeFrame).
		p.echo(r.VitalRev, r.Seq)
		o.Verdict = ReportApplied
		before := p.base
		var own float32
		if r.Source.Hit() {
			p.base = hitResult(p.base, r, floor)
			own = min32(before.Total(), max32(r.Loss, floor))
		} else {
			p.base = minVitals(p.base, Vitals{Health: nonNegative(r.After.Health), Armor: nonNegative(r.After.Armor)})
			own = r.Loss
		}
		p.relevel()
		o.Deducted = drop(before, p.base)
		t := o.Deducted.Total()
		p.susp.feel(now, t)
		if gap && t > own {
			p.addPass(gapFirst, t-own)
		}
	}
	p.attribute(now, r, true, o.Verdict != ReportAttributionOnly)
	p.emit(o)
	p.checkLedgerDeath(now, DeathByReport, r.Weapon, false)
}

// late takes a report whose place in the order was already passed: the loss was shown by
// what passed it, so it only pays its floor, first from what that deducted (if it is the
// first report after that one's start and no command came since), the rest from the
// ledger, armor first.
func (p *Player) late(now time.Duration, r *ReportInput, floor float32) {
	p.seen |= 1 << uint(revision.Diff(p.cursor, r.Seq))
	// Accepted late is accepted: the next life's previous-life window counts from it.
	if revision.Newer(r.Seq, p.lastAccepted) {
		p.lastAccepted = r.Seq
	}
	o := outcomeOf(r, floor)
	if p.heldOff(now, r.VitalRev, r.Seq, false) {
		o.Verdict = ReportAttributionOnly
	} else {
		p.echo(r.VitalRev, r.Seq)
		o.Verdict = ReportLate
		if rest := floor - p.takePass(r.Seq); floor > 0 && rest > 0 {
			before := p.base
			p.base = deduct(p.base, rest)
			p.relevel()
			o.Deducted = drop(before, p.base)
			p.susp.feel(now, o.Deducted.Total())
		}
	}
	p.attribute(now, r, false, o.Verdict != ReportAttributionOnly)
	p.emit(o)
	p.checkLedgerDeath(now, DeathByReport, r.Weapon, false)
}

// attribute makes a credited report the last damage (unless a newer one already is) and,
// when it touched the ledger (confirmed), counts a correlated hit as confirmed for the
// suspicion detector. A report that gives attribution only confirms nothing: its hit
// stays a claim the victim did not show.
func (p *Player) attribute(now time.Duration, r *ReportInput, inOrder, confirmed bool) {
	if inOrder || !p.last.Valid || revision.Newer(r.Seq, p.last.Seq) {
		p.last = LastDamage{Attacker: attackerOf(r), Weapon: r.Weapon, At: now, Seq: r.Seq, Valid: true}
	}
	if inOrder {
		p.creditNum, p.creditAt, p.haveCredit = r.Seq, now, true
	}
	if confirmed && r.Correlated && r.Source.Floored() {
		p.susp.confirm(now)
	}
}

func (p *Player) addPass(first uint16, amount float32) {
	if p.pass == nil {
		p.pass = new([MaxPassCredits]passCredit)
	}
	p.pass[p.passNext] = passCredit{first: first, amount: amount, rev: p.rev, valid: true}
	p.passNext = (p.passNext + 1) % MaxPassCredits
}

// takePass spends the pass credit that report n may draw on.
func (p *Player) takePass(n uint16) float32 {
	if p.pass == nil {
		return 0
	}
	for i := range p.pass {
		c := &p.pass[i]
		if c.valid && c.first == n {
			c.valid = false
			if c.rev != p.rev {
				return 0 // a loss from before the last health command pays for nothing
			}
			return c.amount
		}
	}
	return 0
}
