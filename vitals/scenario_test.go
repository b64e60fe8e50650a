package vitals

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/arbitergo/arbiter/internal/scenario"
)

// The scenario driver. Each file in testdata/ holds scenarios read with datadriven: a
// "# name" comment, then one "run" block whose input is a list of timed events, one per
// line (see internal/scenario):
//
//	<time> [<player>.]<verb> [key=value ...]
//
// Verbs: connect, spawn, frame, report, set_health, set_armor, add_health, add_armor, ack,
// mult, multack, advance, died, deathzero, stealth, explode, claim. The player defaults to A;
// each block starts with no players.
//
// The block's output has one line per event, written by the driver (go test ./vitals -run
// Scenario -rewrite regenerates it):
//
//	<time> [<player>.]<verb>: <verdict> [rev=N] ledger=H/A life=L waiting=F/R last=ID [...]
//
// The verdict is the call's verdict ("ok" for calls without one, "error: <message>" for an
// error); rev is the revision of a command; ledger, life, waiting (frames/reports held) and
// last (the last damage's attacker, "none" without one) are the player's state after the
// call. Then, only when they happen: died=<reason> killer=<id|none> [stealth], godmode,
// suspect, reports=<verdicts of the reports the call settled> ded=<their deduction H/A>.
// A line without died, godmode or suspect says the call did not kill, flag or suspect.

type scenarioPlayer struct {
	p        *Player
	frameSeq uint16
}

func parseVitals(s string) (Vitals, error) {
	h, a, ok := strings.Cut(s, "/")
	if !ok {
		return Vitals{}, fmt.Errorf("vitals %q: want H/A", s)
	}
	hv, err := strconv.ParseFloat(h, 32)
	if err != nil {
		return Vitals{}, err
	}
	av, err := strconv.ParseFloat(a, 32)
	if err != nil {
		return Vitals{}, err
	}
	return Vitals{Health: float32(hv), Armor: float32(av)}, nil
}

func parseSource(s string) (Source, error) {
	for src := SourceBullet; src < sourceEnd; src++ {
		if src.String() == s {
			return src, nil
		}
	}
	return 0, fmt.Errorf("unknown source %q", s)
}

// playerArg reads a player id argument ("none" is NoPlayer).
func playerArg(l scenario.Line, key string, def PlayerID) PlayerID {
	if l.Str(key, "") == "none" {
		return NoPlayer
	}
	return PlayerID(l.Uint(key, 16, uint64(def)))
}

func vitalsArg(l scenario.Line, key string, def Vitals) Vitals {
	v, ok := l.Args[key]
	if !ok {
		return def
	}
	out, err := parseVitals(v)
	if err != nil {
		l.Fatalf("%s: %v", key, err)
	}
	return out
}

// result is what one event produced.
type result struct {
	verdict string
	err     error
	eff     Effects
	hasEff  bool
	hasRev  bool
	rev     uint16
	susp    Suspicion
}

// runVitalsScenario runs one scenario and returns what the world did, one line per event.
func runVitalsScenario(t *testing.T, input string) string {
	players := map[string]*scenarioPlayer{}
	player := func(name string) *scenarioPlayer {
		sp := players[name]
		if sp == nil {
			p, err := NewPlayer(Config{})
			if err != nil {
				t.Fatal(err)
			}
			sp = &scenarioPlayer{p: p}
			players[name] = sp
		}
		return sp
	}
	var out strings.Builder
	for _, l := range scenario.Lines(t, input) {
		who, verb := "A", l.Verb
		if w, v, ok := strings.Cut(verb, "."); ok {
			who, verb = w, v
		}
		if verb == "connect" {
			delete(players, who)
		}
		sp := player(who)
		r := runVitalsEvent(l, sp, verb)
		fmt.Fprintf(&out, "%-7s %s: %s\n", l.Time, l.Verb, describe(l, sp.p, r))
	}
	return out.String()
}

func runVitalsEvent(l scenario.Line, sp *scenarioPlayer, verb string) result {
	p, at := sp.p, l.At
	var r result
	switch verb {
	case "connect":
		r.verdict = "ok"
	case "spawn":
		r.eff, r.hasEff, r.verdict = p.NewLife(at), true, "ok"
	case "frame":
		seq := sp.frameSeq + 1
		if l.Has("seq") {
			seq = uint16(l.Uint("seq", 16, 0))
		}
		sp.frameSeq = seq
		fr, err := p.Frame(at, FrameInput{
			Seq: seq, DamageSeq: uint16(l.Uint("ds", 16, 0)), VitalRev: uint16(l.Uint("rev", 16, 0)),
			Health: l.F32("hp", 100), Armor: l.F32("ar", 0),
		})
		r.err, r.eff, r.hasEff, r.verdict = err, fr.Effects, true, fr.Verdict.String()
	case "report":
		src := SourceBullet
		if l.Has("src") {
			var err error
			if src, err = parseSource(l.Str("src", "")); err != nil {
				l.Fatalf("%v", err)
			}
		}
		by := playerArg(l, "by", 7)
		in := ReportInput{
			Seq: uint16(l.Uint("seq", 16, 0)), VitalRev: uint16(l.Uint("rev", 16, 0)), Source: src,
			Weapon: uint8(l.Uint("w", 8, 24)), BodyPart: uint8(l.Uint("bp", 8, 3)),
			Attacker: by, Correlated: l.Bool("corr", by != NoPlayer), Teammate: l.Bool("mate", false),
			Floor: l.F32("floor", 0), Loss: l.F32("loss", 0),
			Before: vitalsArg(l, "before", Vitals{100, 0}), After: vitalsArg(l, "after", Vitals{100, 0}),
		}
		rr, err := p.Report(at, in)
		r.err, r.eff, r.hasEff, r.verdict = err, rr.Effects, true, rr.Verdict.String()
	case "set_health", "set_armor", "add_health", "add_armor":
		var cr CommandResult
		var err error
		switch verb {
		case "set_health":
			cr, err = p.SetHealth(at, l.F32("v", 0))
		case "set_armor":
			cr, err = p.SetArmor(at, l.F32("v", 0))
		case "add_health":
			cr, err = p.AddHealth(at, l.F32("v", 0), l.F32("max", 100))
		case "add_armor":
			cr, err = p.AddArmor(at, l.F32("v", 0), l.F32("max", 100))
		}
		r.err, r.verdict, r.hasRev, r.rev = err, "ok", true, cr.Command.Rev
		r.eff = Effects{Ledger: p.Ledger(), Died: cr.Died, Death: cr.Death}
		r.hasEff = err == nil
	case "ack":
		r.err, r.verdict = p.Acknowledged(at, uint16(l.Uint("rev", 16, 0))), "ok"
	case "mult":
		m := Multipliers{
			Melee: l.F32("melee", 1), Fire: l.F32("fire", 1), Spray: l.F32("spray", 1),
			Extinguisher: l.F32("ext", 1), Explosion: l.F32("explosion", 1), Predator: l.F32("predator", 1),
		}
		mc, err := p.SetMultipliers(at, m)
		r.err, r.verdict, r.hasRev, r.rev = err, "ok", true, mc.Rev
	case "multack":
		r.err, r.verdict = p.MultipliersAcknowledged(at, uint16(l.Uint("rev", 16, 0))), "ok"
	case "advance":
		r.eff, r.hasEff, r.verdict = p.Advance(at), true, "ok"
		r.susp = p.Suspect(at)
	case "died":
		eff, err := p.Died(at)
		r.err, r.eff, r.hasEff, r.verdict = err, eff, err == nil, "ok"
	case "deathzero":
		c, err := p.DeathZero(at)
		r.err, r.verdict, r.hasRev, r.rev = err, "ok", true, c.Rev
		if err == nil && (!c.Critical || c.Kind != CommandSetHealth || c.Value != 0) {
			l.Fatalf("death zero is %v", c)
		}
	case "stealth":
		eff, err := p.StealthKilled(at, StealthKill{Killer: playerArg(l, "by", 7), Weapon: uint8(l.Uint("w", 8, 4)), Teammate: l.Bool("mate", false)})
		r.err, r.eff, r.hasEff, r.verdict = err, eff, err == nil, "ok"
	case "explode":
		eff, err := p.VehicleExploded(at, VehicleExplosion{Killer: playerArg(l, "by", NoPlayer), Teammate: l.Bool("mate", false)})
		r.err, r.eff, r.hasEff, r.verdict = err, eff, err == nil, "ok"
	case "claim":
		su, err := p.HitClaimed(at, l.F32("exp", 0))
		r.err, r.verdict, r.susp = err, "ok", su
	default:
		l.Fatalf("unknown verb %q", verb)
	}
	return r
}

func playerName(id PlayerID) string {
	if id == NoPlayer {
		return "none"
	}
	return strconv.Itoa(int(id))
}

// describe writes one event's verdict and the player's state after it.
func describe(l scenario.Line, p *Player, r result) string {
	var b strings.Builder
	if r.err != nil {
		// A refused call returns no effects to carry out.
		fmt.Fprintf(&b, "error: %v", r.err)
	} else {
		b.WriteString(r.verdict)
		if r.hasRev {
			fmt.Fprintf(&b, " rev=%d", r.rev)
		}
	}
	led := p.Ledger()
	if r.err == nil && r.hasEff && r.eff.Ledger != led {
		l.Fatalf("effects ledger %v, player ledger %v", r.eff.Ledger, led)
	}
	f, rp := p.Waiting()
	last := "none"
	if ld := p.LastDamage(); ld.Valid {
		last = playerName(ld.Attacker)
	}
	fmt.Fprintf(&b, " ledger=%s life=%s waiting=%d/%d last=%s", scenario.Pair(led.Health, led.Armor), p.Life(), f, rp, last)
	if r.err != nil {
		return b.String()
	}
	if r.eff.Died {
		fmt.Fprintf(&b, " died=%s killer=%s", r.eff.Death.Reason, playerName(r.eff.Death.Killer))
		if r.eff.Death.Stealth {
			b.WriteString(" stealth")
		}
	}
	if r.eff.GodMode {
		b.WriteString(" godmode")
	}
	if r.susp.Raised {
		b.WriteString(" suspect")
	}
	if len(r.eff.Reports) > 0 {
		var vs []string
		var ded Vitals
		for _, o := range r.eff.Reports {
			vs = append(vs, o.Verdict.String())
			ded.Health += o.Deducted.Health
			ded.Armor += o.Deducted.Armor
		}
		fmt.Fprintf(&b, " reports=%s ded=%s", strings.Join(vs, ","), scenario.Pair(ded.Health, ded.Armor))
	}
	return b.String()
}

// TestScenario runs every scenario file in testdata/: one per table of the rules ([client-order]
// and [lethal-report-first] under loss and reordering, [sources-of-damage]) and the command races (set and add share one
// queue; revisions settle).
func TestScenario(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "run" {
				d.Fatalf(t, "unknown command %q: want run", d.Cmd)
			}
			return runVitalsScenario(t, d.Input)
		})
	})
}
