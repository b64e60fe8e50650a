package vitals

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The scenario driver: each file in testdata/ holds scenarios, one per "== name" section.
// A scenario is a list of timed events, one per line:
//
//	<time> [<player>.]<verb> [key=value ...] [=> <expectations>]
//
// Verbs: connect, spawn, frame, report, set_health, set_armor, add_health, add_armor, ack,
// mult, multack, advance, died, deathzero, stealth, explode, claim. The player defaults to A.
// Expectations: the first token is the verdict of the call ("ok" for calls without one,
// "err=<substring>" for an error); then any of ledger=H/A, died=<reason>, killer=<id>,
// godmode, suspect, reports=<v1,v2,...>, life=<state>, rev=<n>, ded=H/A, last=<id|none>,
// stealth, waiting=<frames>/<reports>. A line asserts no death, no god_mode flag and no
// suspicion unless it names them.

type scenarioPlayer struct {
	p        *Player
	frameSeq uint16
}

type scenario struct {
	t       *testing.T
	name    string
	players map[string]*scenarioPlayer
}

func (s *scenario) player(name string) *scenarioPlayer {
	sp := s.players[name]
	if sp == nil {
		p, err := NewPlayer(Config{})
		if err != nil {
			s.t.Fatal(err)
		}
		sp = &scenarioPlayer{p: p}
		s.players[name] = sp
	}
	return sp
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

type args map[string]string

func (a args) f32(key string, def float32) float32 {
	v, ok := a[key]
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(v, 32)
	if err != nil {
		panic(fmt.Sprintf("%s=%q: %v", key, v, err))
	}
	return float32(f)
}

func (a args) player(key string, def PlayerID) PlayerID {
	return PlayerID(a.u16(key, uint16(def)))
}

func (a args) u16(key string, def uint16) uint16 {
	v, ok := a[key]
	if !ok {
		return def
	}
	if v == "none" {
		return uint16(NoPlayer)
	}
	n, err := strconv.ParseUint(v, 10, 16)
	if err != nil {
		panic(fmt.Sprintf("%s=%q: %v", key, v, err))
	}
	return uint16(n)
}

func (a args) vitals(key string, def Vitals) Vitals {
	v, ok := a[key]
	if !ok {
		return def
	}
	out, err := parseVitals(v)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", key, err))
	}
	return out
}

func (a args) boolean(key string, def bool) bool {
	v, ok := a[key]
	if !ok {
		return def
	}
	return v == "true" || v == "1" || v == "yes"
}

// result is what one event produced, in a form the expectations check.
type result struct {
	verdict string
	err     error
	eff     Effects
	hasEff  bool
	rev     uint16
	susp    Suspicion
}

func near(a, b float32) bool { return math.Abs(float64(a-b)) < 1e-3 }

func (s *scenario) run(line string, lineNo int) {
	t := s.t
	t.Helper()
	fail := func(format string, a ...any) {
		t.Helper()
		t.Fatalf("%s:%d: %s\n\t%s", s.name, lineNo, fmt.Sprintf(format, a...), line)
	}
	event, expect, _ := strings.Cut(line, "=>")
	fields := strings.Fields(event)
	if len(fields) < 2 {
		fail("want <time> <verb>")
	}
	at, err := time.ParseDuration(fields[0])
	if err != nil {
		fail("time: %v", err)
	}
	who, verb := "A", fields[1]
	if w, v, ok := strings.Cut(verb, "."); ok {
		who, verb = w, v
	}
	a := args{}
	for _, kv := range fields[2:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			fail("argument %q: want key=value", kv)
		}
		a[k] = v
	}
	if verb == "connect" {
		delete(s.players, who)
	}
	sp := s.player(who)
	p := sp.p
	var r result
	switch verb {
	case "connect":
		r.verdict = "ok"
	case "spawn":
		r.eff, r.hasEff, r.verdict = p.NewLife(at), true, "ok"
	case "frame":
		seq := sp.frameSeq + 1
		if _, ok := a["seq"]; ok {
			seq = a.u16("seq", 0)
		}
		sp.frameSeq = seq
		fr, err := p.Frame(at, FrameInput{
			Seq: seq, DamageSeq: a.u16("ds", 0), VitalRev: a.u16("rev", 0),
			Health: a.f32("hp", 100), Armor: a.f32("ar", 0),
		})
		r.err, r.eff, r.hasEff, r.verdict = err, fr.Effects, true, fr.Verdict.String()
	case "report":
		src, err := parseSource(a["src"])
		if _, ok := a["src"]; !ok {
			src, err = SourceBullet, nil
		}
		if err != nil {
			fail("%v", err)
		}
		by := a.player("by", 7)
		in := ReportInput{
			Seq: a.u16("seq", 0), VitalRev: a.u16("rev", 0), Source: src,
			Weapon: uint8(a.u16("w", 24)), BodyPart: uint8(a.u16("bp", 3)),
			Attacker: by, Correlated: a.boolean("corr", by != NoPlayer), Teammate: a.boolean("mate", false),
			Floor: a.f32("floor", 0), Loss: a.f32("loss", 0),
			Before: a.vitals("before", Vitals{100, 0}), After: a.vitals("after", Vitals{100, 0}),
		}
		rr, err := p.Report(at, in)
		r.err, r.eff, r.hasEff, r.verdict = err, rr.Effects, true, rr.Verdict.String()
	case "set_health", "set_armor", "add_health", "add_armor":
		var cr CommandResult
		var err error
		switch verb {
		case "set_health":
			cr, err = p.SetHealth(at, a.f32("v", 0))
		case "set_armor":
			cr, err = p.SetArmor(at, a.f32("v", 0))
		case "add_health":
			cr, err = p.AddHealth(at, a.f32("v", 0), a.f32("max", 100))
		case "add_armor":
			cr, err = p.AddArmor(at, a.f32("v", 0), a.f32("max", 100))
		}
		r.err, r.verdict, r.rev = err, "ok", cr.Command.Rev
		r.eff = Effects{Ledger: p.Ledger(), Died: cr.Died, Death: cr.Death}
		r.hasEff = err == nil
	case "ack":
		r.err, r.verdict = p.Acknowledged(at, a.u16("rev", 0)), "ok"
	case "mult":
		m := Multipliers{
			Melee: a.f32("melee", 1), Fire: a.f32("fire", 1), Spray: a.f32("spray", 1),
			Extinguisher: a.f32("ext", 1), Explosion: a.f32("explosion", 1), Predator: a.f32("predator", 1),
		}
		mc, err := p.SetMultipliers(at, m)
		r.err, r.verdict, r.rev = err, "ok", mc.Rev
	case "multack":
		r.err, r.verdict = p.MultipliersAcknowledged(at, a.u16("rev", 0)), "ok"
	case "advance":
		r.eff, r.hasEff, r.verdict = p.Advance(at), true, "ok"
		r.susp = p.Suspect(at)
	case "died":
		eff, err := p.Died(at)
		r.err, r.eff, r.hasEff, r.verdict = err, eff, err == nil, "ok"
	case "deathzero":
		c, err := p.DeathZero(at)
		r.err, r.verdict, r.rev = err, "ok", c.Rev
		if err == nil && (!c.Critical || c.Kind != CommandSetHealth || c.Value != 0) {
			fail("death zero is %v", c)
		}
	case "stealth":
		eff, err := p.StealthKilled(at, StealthKill{Killer: a.player("by", 7), Weapon: uint8(a.u16("w", 4)), Teammate: a.boolean("mate", false)})
		r.err, r.eff, r.hasEff, r.verdict = err, eff, err == nil, "ok"
	case "explode":
		eff, err := p.VehicleExploded(at, VehicleExplosion{Killer: a.player("by", NoPlayer), Teammate: a.boolean("mate", false)})
		r.err, r.eff, r.hasEff, r.verdict = err, eff, err == nil, "ok"
	case "claim":
		su, err := p.HitClaimed(at, a.f32("exp", 0))
		r.err, r.verdict, r.susp = err, "ok", su
	default:
		fail("unknown verb %q", verb)
	}
	s.check(fail, p, r, strings.Fields(expect))
}

func (s *scenario) check(fail func(string, ...any), p *Player, r result, want []string) {
	if len(want) == 0 {
		if r.err != nil {
			fail("unexpected error %v", r.err)
		}
		return
	}
	first := want[0]
	if msg, ok := strings.CutPrefix(first, "err="); ok {
		if r.err == nil || !strings.Contains(r.err.Error(), msg) {
			fail("want error containing %q, got %v", msg, r.err)
		}
		// A refused call changes nothing and returns no effects to carry out.
		return
	}
	if r.err != nil {
		fail("unexpected error %v", r.err)
	}
	if first != r.verdict {
		fail("verdict %q, want %q", r.verdict, first)
	}
	sawDied, sawGod, sawSusp := false, false, false
	for _, w := range want[1:] {
		k, v, _ := strings.Cut(w, "=")
		switch k {
		case "ledger":
			want, err := parseVitals(v)
			if err != nil {
				fail("%v", err)
			}
			got := p.Ledger()
			if !near(got.Health, want.Health) || !near(got.Armor, want.Armor) {
				fail("ledger %v, want %v", got, want)
			}
			if r.hasEff && (r.eff.Ledger != got) {
				fail("effects ledger %v, player ledger %v", r.eff.Ledger, got)
			}
		case "died":
			sawDied = true
			if !r.eff.Died || r.eff.Death.Reason.String() != v {
				fail("death %v (died=%v), want reason %s", r.eff.Death, r.eff.Died, v)
			}
		case "killer":
			if !r.eff.Died || strconv.Itoa(int(r.eff.Death.Killer)) != v && !(v == "none" && r.eff.Death.Killer == NoPlayer) {
				fail("killer %d, want %s", r.eff.Death.Killer, v)
			}
		case "stealth":
			if !r.eff.Death.Stealth {
				fail("death not stealth: %v", r.eff.Death)
			}
		case "godmode":
			sawGod = true
			if !r.eff.GodMode {
				fail("no god_mode flag")
			}
		case "suspect":
			sawSusp = true
			if !r.susp.Raised {
				fail("no suspicion raised: %+v", r.susp)
			}
		case "reports":
			var got []string
			for _, o := range r.eff.Reports {
				got = append(got, o.Verdict.String())
			}
			if strings.Join(got, ",") != v {
				fail("reports %v, want %s", got, v)
			}
		case "ded":
			want, err := parseVitals(v)
			if err != nil {
				fail("%v", err)
			}
			var got Vitals
			for _, o := range r.eff.Reports {
				got.Health += o.Deducted.Health
				got.Armor += o.Deducted.Armor
			}
			if !near(got.Health, want.Health) || !near(got.Armor, want.Armor) {
				fail("deducted %v, want %v", got, want)
			}
		case "life":
			if p.Life().String() != v {
				fail("life %v, want %s", p.Life(), v)
			}
		case "rev":
			n, _ := strconv.Atoi(v)
			if int(r.rev) != n {
				fail("rev %d, want %d", r.rev, n)
			}
		case "last":
			ld := p.LastDamage()
			if v == "none" {
				if ld.Valid && ld.Attacker != NoPlayer {
					fail("last damage %+v, want none", ld)
				}
			} else if !ld.Valid || strconv.Itoa(int(ld.Attacker)) != v {
				fail("last damage %+v, want %s", ld, v)
			}
		case "waiting":
			f, rp := p.Waiting()
			if fmt.Sprintf("%d/%d", f, rp) != v {
				fail("waiting %d/%d, want %s", f, rp, v)
			}
		default:
			fail("unknown expectation %q", w)
		}
	}
	if !sawDied && r.eff.Died {
		fail("unexpected death %v", r.eff.Death)
	}
	if !sawGod && r.eff.GodMode {
		fail("unexpected god_mode flag (excess %v)", r.eff.GodModeExcess)
	}
	if !sawSusp && r.susp.Raised {
		fail("unexpected suspicion %+v", r.susp)
	}
}

// runScenarioFile runs every "== name" section of a testdata file as a subtest.
func runScenarioFile(t *testing.T, file string) {
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type section struct {
		name  string
		lines []string
		nums  []int
	}
	var secs []*section
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if name, ok := strings.CutPrefix(line, "=="); ok {
			secs = append(secs, &section{name: strings.TrimSpace(name)})
			continue
		}
		if len(secs) == 0 {
			t.Fatalf("%s:%d: line before the first section", file, n)
		}
		s := secs[len(secs)-1]
		s.lines = append(s.lines, line)
		s.nums = append(s.nums, n)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(secs) == 0 {
		t.Fatalf("%s: no scenarios", file)
	}
	for _, sec := range secs {
		t.Run(sec.name, func(t *testing.T) {
			s := &scenario{t: t, name: file, players: map[string]*scenarioPlayer{}}
			for i, line := range sec.lines {
				s.run(line, sec.nums[i])
			}
		})
	}
}

// TestScenarioLossOrderReconnection runs one scenario per row of the record's "Loss,
// order, reconnection" table.
func TestScenarioLossOrderReconnection(t *testing.T) {
	runScenarioFile(t, "loss_order_reconnection.txt")
}

// TestScenarioSourcesOfDamage runs one scenario per row of the record's "Sources of damage"
// table.
func TestScenarioSourcesOfDamage(t *testing.T) {
	runScenarioFile(t, "sources_of_damage.txt")
}

// TestScenarioHealthCommands runs the command races of the record (set and add share one
// queue; revisions settle).
func TestScenarioHealthCommands(t *testing.T) {
	runScenarioFile(t, "health_commands.txt")
}
