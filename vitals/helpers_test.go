package vitals

import (
	"testing"
	"time"
)

// livePlayer is a player whose life is counted: spawned, first frame taken (seq 1, no
// report, revision 0), 100 health and 0 armor.
func livePlayer(t testing.TB) *Player {
	t.Helper()
	p, err := NewPlayer(Config{})
	if err != nil {
		t.Fatal(err)
	}
	p.NewLife(0)
	if r, err := p.Frame(0, FrameInput{Seq: 1, Health: 100}); err != nil || r.Verdict != FrameFirst {
		t.Fatalf("first frame: %v %v", r.Verdict, err)
	}
	return p
}

// deagle is an honest Desert Eagle hit (damage 140): loss 46.2, floor 46.19.
func deagle(seq uint16, before Vitals) ReportInput {
	loss := PlayerDamageFactor * 140
	return ReportInput{
		Seq: seq, Source: SourceBullet, Weapon: 24, BodyPart: BodyTorso, Attacker: 7, Correlated: true,
		Floor: BulletFloor(140), Loss: loss, Before: before, After: deductLikeTheGame(before, loss),
	}
}

// colt is an honest Colt 45 hit (damage 25): loss 8.25, floor 8.24.
func colt(seq uint16, before Vitals) ReportInput {
	loss := PlayerDamageFactor * 25
	return ReportInput{
		Seq: seq, Source: SourceBullet, Weapon: 22, BodyPart: BodyTorso, Attacker: 7, Correlated: true,
		Floor: BulletFloor(25), Loss: loss, Before: before, After: deductLikeTheGame(before, loss),
	}
}

func mustFrame(t testing.TB, p *Player, now time.Duration, in FrameInput) FrameResult {
	t.Helper()
	r, err := p.Frame(now, in)
	if err != nil {
		t.Fatalf("frame %+v: %v", in, err)
	}
	return r
}

func mustReport(t testing.TB, p *Player, now time.Duration, in ReportInput) ReportResult {
	t.Helper()
	r, err := p.Report(now, in)
	if err != nil {
		t.Fatalf("report %+v: %v", in, err)
	}
	return r
}

func approx(a, b float32) bool { return a-b < 1e-3 && b-a < 1e-3 }

func wantLedger(t testing.TB, p *Player, h, a float32) {
	t.Helper()
	if l := p.Ledger(); !approx(l.Health, h) || !approx(l.Armor, a) {
		t.Fatalf("ledger %v, want %v/%v", l, h, a)
	}
}

func nan() float64 { var z float64; return z / z }
func inf() float64 { var z float64; return 1 / z }
