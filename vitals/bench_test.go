package vitals

import (
	"testing"
	"time"
)

// BenchmarkFrame: one of the owner's frames taken in order (the common case).
func BenchmarkFrame(b *testing.B) {
	p := livePlayer(b)
	in := FrameInput{Seq: 1, Health: 100}
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		in.Seq++
		now += 33 * time.Millisecond
		if _, err := p.Frame(now, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReport: a bullet report taken in order, paying a floor, followed by nothing.
func BenchmarkReport(b *testing.B) {
	p := livePlayer(b)
	in := ReportInput{Source: SourceBullet, Weapon: 22, BodyPart: BodyTorso, Attacker: 7, Correlated: true,
		Floor: 0.001, Loss: 0.001}
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		in.Seq++
		now += 10 * time.Millisecond
		l := p.Ledger()
		if l.Health < 10 { // keep the player alive: a heal now and then, echoed at once
			r, _ := p.SetHealth(now, 100)
			in.VitalRev = r.Command.Rev
			l = p.Ledger()
		}
		in.Before, in.After = l, Vitals{Health: l.Health - 0.001}
		if _, err := p.Report(now, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReportHeldThenReleased: two reports arriving in reverse order (the second is
// held, the first releases it) and the frame behind them: the reordering path.
func BenchmarkReportHeldThenReleased(b *testing.B) {
	p := livePlayer(b)
	mk := func(seq uint16, l Vitals) ReportInput {
		return ReportInput{Seq: seq, Source: SourceEnvironment, Weapon: WeaponFall, Attacker: NoPlayer,
			Before: l, After: l}
	}
	now := time.Duration(0)
	seq, fseq := uint16(0), uint16(1)
	b.ReportAllocs()
	for b.Loop() {
		now += 10 * time.Millisecond
		l := p.Ledger()
		fseq++
		_, _ = p.Frame(now, FrameInput{Seq: fseq, DamageSeq: seq + 2, Health: l.Health})
		_, _ = p.Report(now, mk(seq+2, l))
		_, _ = p.Report(now, mk(seq+1, l))
		seq += 2
	}
}

// BenchmarkAdvanceIdle: the per-tick call with nothing waiting.
func BenchmarkAdvanceIdle(b *testing.B) {
	p := livePlayer(b)
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		now += 50 * time.Millisecond
		p.Advance(now)
	}
}

// BenchmarkFrameUnderRegeneration: a frame taken in order while the gamemode regenerates
// the player (add_health every second) and the client echoes a revision 15 commands old:
// the frame is judged at its revision and the commands in flight are replayed after it.
func BenchmarkFrameUnderRegeneration(b *testing.B) {
	p := livePlayer(b)
	in := FrameInput{Seq: 1, Health: 10}
	now := time.Duration(0)
	next := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		in.Seq++
		now += 33 * time.Millisecond
		if now >= next {
			next = now + time.Second
			if _, err := p.AddHealth(now, 1, 100); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := p.Frame(now, in); err != nil {
			b.Fatal(err)
		}
	}
}
