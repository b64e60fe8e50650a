package vitals

import (
	"errors"
	"math"
	"testing"
	"time"
)

// TestRefusedInputsChangeNothing: every input the ledger refuses (NaN, ±Inf, out of range,
// not alive, stale, future, ...) gets its named error or verdict and leaves every byte of
// the player, its ledger included, as it was.
func TestRefusedInputsChangeNothing(t *testing.T) {
	nan, pinf, ninf := float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))
	hit := func(mod func(*ReportInput)) ReportInput {
		in := colt(1, Vitals{100, 0})
		mod(&in)
		return in
	}
	type player func(t *testing.T) *Player
	alive := func(t *testing.T) *Player {
		p := livePlayer(t)
		// some state worth keeping: a waiting frame, a held report, a command in flight
		mustFrame(t, p, 0, FrameInput{Seq: 2, DamageSeq: 2, Health: 90})
		mustReport(t, p, 0, colt(3, Vitals{91.75, 0}))
		if _, err := p.SetArmor(0, 50); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// afterHit: a Desert Eagle hit taken in order and a command in flight, nothing waiting
	afterHit := func(t *testing.T) *Player {
		p := livePlayer(t)
		mustReport(t, p, 0, deagle(1, Vitals{100, 0}))
		if _, err := p.SetArmor(0, 50); err != nil {
			t.Fatal(err)
		}
		return p
	}
	none := func(t *testing.T) *Player { p, _ := NewPlayer(Config{}); return p }
	spawned := func(t *testing.T) *Player { p := none(t); p.NewLife(0); return p }
	countedDead := func(t *testing.T) *Player {
		p := livePlayer(t)
		if _, err := p.StealthKilled(0, StealthKill{Killer: 2, Weapon: 4}); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dead := func(t *testing.T) *Player {
		p := livePlayer(t)
		if _, err := p.Died(0); err != nil {
			t.Fatal(err)
		}
		return p
	}
	report := func(in ReportInput) func(p *Player) (string, error) {
		return func(p *Player) (string, error) {
			r, err := p.Report(time.Second/2, in)
			return r.Verdict.String(), err
		}
	}
	frame := func(in FrameInput) func(p *Player) (string, error) {
		return func(p *Player) (string, error) {
			r, err := p.Frame(time.Second/2, in)
			return r.Verdict.String(), err
		}
	}
	cmd := func(f func(p *Player) (CommandResult, error)) func(p *Player) (string, error) {
		return func(p *Player) (string, error) { _, err := f(p); return "", err }
	}
	mult := func(m Multipliers) func(p *Player) (string, error) {
		return func(p *Player) (string, error) { _, err := p.SetMultipliers(0, m); return "", err }
	}
	ones := DefaultMultipliers
	withMult := func(f func(*Multipliers)) Multipliers { m := ones; f(&m); return m }
	cases := []struct {
		name    string
		player  player
		call    func(p *Player) (string, error)
		err     error
		verdict string
	}{
		// frames
		{"frame health NaN", alive, frame(FrameInput{Seq: 9, Health: nan}), ErrNotFinite, ""},
		{"frame health +Inf", alive, frame(FrameInput{Seq: 9, Health: pinf}), ErrNotFinite, ""},
		{"frame armor -Inf", alive, frame(FrameInput{Seq: 9, Health: 90, Armor: ninf}), ErrNotFinite, ""},
		{"frame not newer", alive, frame(FrameInput{Seq: 2, Health: 10}), nil, "stale"},
		{"frame never spawned", none, frame(FrameInput{Seq: 9, Health: 10}), nil, "not_alive"},
		{"frame before any life", none, frame(FrameInput{Seq: 9, Health: 10}), nil, "not_alive"},
		// an echo newer than anything sent: a frame ignores it (it neither waits behind the
		// waiting frame nor takes the frame sequence)
		{"frame future revision", alive, frame(FrameInput{Seq: 9, DamageSeq: 3, VitalRev: 2, Health: 100}), nil, "future_revision"},
		{"frame future revision, nothing waiting", afterHit, frame(FrameInput{Seq: 2, DamageSeq: 1, VitalRev: 2, Health: 100}), nil, "future_revision"},
		{"frame health 1e30", alive, frame(FrameInput{Seq: 9, DamageSeq: 3, Health: 1e30}), ErrOutOfRange, ""},
		{"frame health -1e30", alive, frame(FrameInput{Seq: 9, DamageSeq: 3, Health: -1e30}), ErrOutOfRange, ""},
		{"frame health above 201", alive, frame(FrameInput{Seq: 9, DamageSeq: 3, Health: 201.5}), ErrOutOfRange, ""},
		{"frame armor below -200", alive, frame(FrameInput{Seq: 9, DamageSeq: 3, Health: 90, Armor: -200.5}), ErrOutOfRange, ""},
		{"frame health 1e30 dead", dead, frame(FrameInput{Seq: 9, Health: 1e30}), ErrOutOfRange, ""},
		// reports: values
		{"report loss NaN", alive, report(hit(func(r *ReportInput) { r.Loss = nan })), ErrNotFinite, ""},
		{"report loss +Inf", alive, report(hit(func(r *ReportInput) { r.Loss = pinf })), ErrNotFinite, ""},
		{"report floor NaN", alive, report(hit(func(r *ReportInput) { r.Floor = nan })), ErrNotFinite, ""},
		{"report before health -Inf", alive, report(hit(func(r *ReportInput) { r.Before.Health = ninf })), ErrNotFinite, ""},
		{"report before armor NaN", alive, report(hit(func(r *ReportInput) { r.Before.Armor = nan })), ErrNotFinite, ""},
		{"report after health +Inf", alive, report(hit(func(r *ReportInput) { r.After.Health = pinf })), ErrNotFinite, ""},
		{"report after armor NaN", alive, report(hit(func(r *ReportInput) { r.After.Armor = nan })), ErrNotFinite, ""},
		{"report loss negative", alive, report(hit(func(r *ReportInput) { r.Loss = -1 })), ErrOutOfRange, ""},
		{"report loss above 400", alive, report(hit(func(r *ReportInput) { r.Loss = 400.5 })), ErrOutOfRange, ""},
		{"report floor negative", alive, report(hit(func(r *ReportInput) { r.Floor = -1 })), ErrOutOfRange, ""},
		{"report floor above 200", alive, report(hit(func(r *ReportInput) { r.Floor = 201 })), ErrOutOfRange, ""},
		{"report claims health above 201", alive, report(hit(func(r *ReportInput) { r.Before.Health = 250 })), ErrOutOfRange, ""},
		{"report claims armor below -200", alive, report(hit(func(r *ReportInput) { r.After.Armor = -300 })), ErrOutOfRange, ""},
		{"report body part 0", alive, report(hit(func(r *ReportInput) { r.BodyPart = 0 })), ErrBodyPart, ""},
		{"report body part 10", alive, report(hit(func(r *ReportInput) { r.BodyPart = 10 })), ErrBodyPart, ""},
		{"report unknown source", alive, report(hit(func(r *ReportInput) { r.Source = 0 })), ErrSource, ""},
		{"report source out of range", alive, report(hit(func(r *ReportInput) { r.Source = 200 })), ErrSource, ""},
		{"report correlated without attacker", alive, report(hit(func(r *ReportInput) { r.Attacker = NoPlayer })), ErrAttacker, ""},
		// reports: verdicts
		{"report duplicate", alive, report(colt(3, Vitals{91.75, 0})), nil, "duplicate"},
		{"report future revision", alive, report(hit(func(r *ReportInput) { r.VitalRev = 2 })), nil, "future_revision"},
		{"report uncorrelated", alive, report(hit(func(r *ReportInput) { r.Correlated = false })), nil, "uncorrelated"},
		{"report teammate", alive, report(hit(func(r *ReportInput) { r.Teammate = true })), nil, "teammate"},
		{"report too far ahead", alive, report(hit(func(r *ReportInput) { r.Seq = 66 })), nil, "too_far_ahead"},
		{"report previous life", alive, report(hit(func(r *ReportInput) { r.Seq = 0 })), nil, "previous_life"},
		{"report never spawned", none, report(hit(func(*ReportInput) {})), nil, "not_alive"},
		{"report dead", dead, report(hit(func(*ReportInput) {})), nil, "not_alive"},
		// commands
		{"set_health NaN", alive, cmd(func(p *Player) (CommandResult, error) { return p.SetHealth(0, nan) }), ErrNotFinite, ""},
		{"set_health +Inf", alive, cmd(func(p *Player) (CommandResult, error) { return p.SetHealth(0, pinf) }), ErrNotFinite, ""},
		{"set_health -Inf", alive, cmd(func(p *Player) (CommandResult, error) { return p.SetHealth(0, ninf) }), ErrNotFinite, ""},
		{"set_health negative", alive, cmd(func(p *Player) (CommandResult, error) { return p.SetHealth(0, -0.5) }), ErrOutOfRange, ""},
		{"set_health above 200", alive, cmd(func(p *Player) (CommandResult, error) { return p.SetHealth(0, 200.5) }), ErrOutOfRange, ""},
		{"set_armor NaN", alive, cmd(func(p *Player) (CommandResult, error) { return p.SetArmor(0, nan) }), ErrNotFinite, ""},
		{"set_armor above 200", alive, cmd(func(p *Player) (CommandResult, error) { return p.SetArmor(0, 201) }), ErrOutOfRange, ""},
		{"add_health amount NaN", alive, cmd(func(p *Player) (CommandResult, error) { return p.AddHealth(0, nan, 100) }), ErrNotFinite, ""},
		{"add_health max +Inf", alive, cmd(func(p *Player) (CommandResult, error) { return p.AddHealth(0, 10, pinf) }), ErrNotFinite, ""},
		{"add_health amount 0", alive, cmd(func(p *Player) (CommandResult, error) { return p.AddHealth(0, 0, 100) }), ErrOutOfRange, ""},
		{"add_health amount negative", alive, cmd(func(p *Player) (CommandResult, error) { return p.AddHealth(0, -5, 100) }), ErrOutOfRange, ""},
		{"add_health amount above 200", alive, cmd(func(p *Player) (CommandResult, error) { return p.AddHealth(0, 201, 100) }), ErrOutOfRange, ""},
		{"add_health max 0", alive, cmd(func(p *Player) (CommandResult, error) { return p.AddHealth(0, 10, 0) }), ErrOutOfRange, ""},
		{"add_health max above 200", alive, cmd(func(p *Player) (CommandResult, error) { return p.AddHealth(0, 10, 250) }), ErrOutOfRange, ""},
		{"add_armor amount -Inf", alive, cmd(func(p *Player) (CommandResult, error) { return p.AddArmor(0, ninf, 100) }), ErrNotFinite, ""},
		{"add_armor max negative", alive, cmd(func(p *Player) (CommandResult, error) { return p.AddArmor(0, 10, -1) }), ErrOutOfRange, ""},
		{"set_health never spawned", none, cmd(func(p *Player) (CommandResult, error) { return p.SetHealth(0, 50) }), ErrNotAlive, ""},
		{"set_health before the first frame", spawned, cmd(func(p *Player) (CommandResult, error) { return p.SetHealth(0, 50) }), ErrNotAlive, ""},
		{"add_health counted dead", countedDead, cmd(func(p *Player) (CommandResult, error) { return p.AddHealth(0, 50, 100) }), ErrNotAlive, ""},
		{"set_armor dead", dead, cmd(func(p *Player) (CommandResult, error) { return p.SetArmor(0, 50) }), ErrNotAlive, ""},
		// multipliers and acknowledgements
		{"multiplier NaN", alive, mult(withMult(func(m *Multipliers) { m.Melee = nan })), ErrNotFinite, ""},
		{"multiplier +Inf", alive, mult(withMult(func(m *Multipliers) { m.Fire = pinf })), ErrNotFinite, ""},
		{"multiplier negative", alive, mult(withMult(func(m *Multipliers) { m.Explosion = -1 })), ErrOutOfRange, ""},
		{"multiplier above the max", alive, mult(withMult(func(m *Multipliers) { m.Predator = MaxMultiplier + 1 })), ErrOutOfRange, ""},
		{"ack of a future revision", alive, func(p *Player) (string, error) { return "", p.Acknowledged(0, 2) }, ErrFutureRevision, ""},
		{"ack of a future table", alive, func(p *Player) (string, error) { return "", p.MultipliersAcknowledged(0, 1) }, ErrFutureRevision, ""},
		// deaths
		{"stealth kill without killer", alive, func(p *Player) (string, error) {
			_, err := p.StealthKilled(0, StealthKill{Killer: NoPlayer})
			return "", err
		}, ErrAttacker, ""},
		{"stealth kill by a teammate", alive, func(p *Player) (string, error) {
			_, err := p.StealthKilled(0, StealthKill{Killer: 3, Teammate: true})
			return "", err
		}, ErrTeammate, ""},
		{"stealth kill before the first frame", spawned, func(p *Player) (string, error) {
			_, err := p.StealthKilled(0, StealthKill{Killer: 3})
			return "", err
		}, ErrNotAlive, ""},
		{"vehicle explosion by a teammate", alive, func(p *Player) (string, error) {
			_, err := p.VehicleExploded(0, VehicleExplosion{Killer: 3, Teammate: true})
			return "", err
		}, ErrTeammate, ""},
		{"vehicle explosion dead", dead, func(p *Player) (string, error) {
			_, err := p.VehicleExploded(0, VehicleExplosion{Killer: 3})
			return "", err
		}, ErrNotAlive, ""},
		{"died never spawned", none, func(p *Player) (string, error) { _, err := p.Died(0); return "", err }, ErrNotAlive, ""},
		{"died twice", dead, func(p *Player) (string, error) { _, err := p.Died(0); return "", err }, ErrNotAlive, ""},
		{"death zero while alive", alive, func(p *Player) (string, error) { _, err := p.DeathZero(0); return "", err }, ErrStillAlive, ""},
		{"death zero before the first frame", spawned, func(p *Player) (string, error) { _, err := p.DeathZero(0); return "", err }, ErrStillAlive, ""},
		// the suspicion detector
		{"hit claimed NaN", alive, func(p *Player) (string, error) { _, err := p.HitClaimed(0, nan); return "", err }, ErrNotFinite, ""},
		{"hit claimed -Inf", alive, func(p *Player) (string, error) { _, err := p.HitClaimed(0, ninf); return "", err }, ErrNotFinite, ""},
		{"hit claimed negative", alive, func(p *Player) (string, error) { _, err := p.HitClaimed(0, -1); return "", err }, ErrOutOfRange, ""},
		{"hit claimed above 400", alive, func(p *Player) (string, error) { _, err := p.HitClaimed(0, 401); return "", err }, ErrOutOfRange, ""},
		{"hit claimed dead", dead, func(p *Player) (string, error) { _, err := p.HitClaimed(0, 10); return "", err }, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.player(t)
			before := append([]byte(nil), playerBytes(p)...)
			ledger := p.Ledger()
			verdict, err := tc.call(p)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("error %v, want %v", err, tc.err)
				}
			} else if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if tc.err == nil && verdict != tc.verdict {
				t.Fatalf("verdict %q, want %q", verdict, tc.verdict)
			}
			if p.Ledger() != ledger {
				t.Fatalf("ledger %v -> %v", ledger, p.Ledger())
			}
			if string(before) != string(playerBytes(p)) {
				t.Fatal("the refused input changed the player")
			}
		})
	}
}

// TestBadConfigIsRefused: NewPlayer refuses a Config field out of its range.
func TestBadConfigIsRefused(t *testing.T) {
	p, err := NewPlayer(Config{SuspicionRatio: 2})
	if p != nil || !errors.Is(err, ErrConfig) {
		t.Fatalf("%v %v", p, err)
	}
}
