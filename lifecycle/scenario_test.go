package lifecycle

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/arbitergo/arbiter/internal/scenario"
)

// The scenario driver. Each file in testdata/ holds scenarios read with datadriven: a
// "# name" comment, then one "run" block (a new World) whose input is a list of timed
// inputs, one per line (see internal/scenario):
//
//	<time> <command> [<player>] [key=value ...]
//
// The run line may set the Config: spawn=X/Y/Z/facing, delay=<respawn delay>,
// hold-connect=true, max=<players>. Players are named in the file; join gives a name an id.
// Commands:
//
//	join <p> id=N                          World.Join
//	frame <p> alive=1 life=G hp=H          World.Frame (a claim of alive and generation)
//	report-death <p> life=G pose=P         World.ReportDeath (means 24, no blame); P is the
//	                                       pose's String, e.g. PED/KO_shot_face
//	count-death <p> [by=<killer>] cause=N rtt=D [stealth=true]
//	                                       World.CountDeath at the line's time
//	request-respawn <p> life=G             World.RespawnRequest
//	ack-zero <p> life=G                    World.ZeroAcknowledged
//	decide <p> life=G [at=D] [point=X/Y/Z/F] [hold=true]
//	                                       World.DecideRespawn
//	advance                                World.Advance
//	leave <p>                              World.Leave
//	may-act <p>                            World.MayAct
//	snapshot <p>                           World.Snapshot of p's id
//
// The block's output, written by the driver (go test ./lifecycle -run Scenario -rewrite
// regenerates it), has one line per input: the String form of what the World returned
// (so a failure reads like the sentence of the rule it breaks) and, after "|", the
// player's phase after it ("gone" once it left); an error is written as "error: ...".

type lifecycleScenario struct {
	w   *World
	who map[string]Handle
}

func (s *lifecycleScenario) phaseOf(name string) string {
	p, err := s.w.Phase(s.who[name])
	if err != nil {
		return "gone"
	}
	return p.String()
}

func parsePoint(l scenario.Line, v string) SpawnPoint {
	f := strings.Split(v, "/")
	if len(f) != 4 {
		l.Fatalf("point %q: want X/Y/Z/facing", v)
	}
	var n [4]float32
	for i, s := range f {
		x, err := strconv.ParseFloat(s, 32)
		if err != nil {
			l.Fatalf("point %q: %v", v, err)
		}
		n[i] = float32(x)
	}
	return SpawnPoint{Pos: Vec3{X: n[0], Y: n[1], Z: n[2]}, Facing: n[3]}
}

func parsePose(l scenario.Line, v string) Pose {
	for p := Pose(0); p.Valid(); p++ {
		if p.String() == v {
			return p
		}
	}
	l.Fatalf("unknown pose %q", v)
	return PoseDefault
}

// config reads the run line's arguments.
func scenarioConfig(t *testing.T, d *datadriven.TestData) Config {
	var cfg Config
	// The run line's arguments are read as one scenario line's.
	args := "0 run"
	for _, a := range d.CmdArgs {
		args += " " + a.String()
	}
	l := scenario.Lines(t, args)[0]
	for k := range l.Args {
		switch k {
		case "spawn":
			cfg.SpawnPoint = parsePoint(l, l.Args[k])
		case "delay":
			cfg.RespawnDelay = l.Dur(k, 0)
		case "hold-connect":
			cfg.HoldConnectSpawn = l.Bool(k, false)
		case "max":
			cfg.MaxPlayers = int(l.Uint(k, 16, 0))
		default:
			l.Fatalf("unknown config %q", k)
		}
	}
	return cfg
}

func runLifecycleScenario(t *testing.T, cfg Config, input string) string {
	s := &lifecycleScenario{w: newWorld(t, cfg), who: map[string]Handle{}}
	var out strings.Builder
	for _, l := range scenario.Lines(t, input) {
		head := l.Verb
		if len(l.Words) > 0 {
			head += " " + strings.Join(l.Words, " ")
		}
		got, err := s.run(l)
		if err != nil {
			got = "error: " + err.Error()
		}
		fmt.Fprintf(&out, "%-7s %s: %s\n", l.Time, head, got)
	}
	return out.String()
}

func (s *lifecycleScenario) run(l scenario.Line) (string, error) {
	now := l.At
	name := ""
	if len(l.Words) > 0 {
		name = l.Words[0]
	}
	h := s.who[name]
	gen := Generation(l.Uint("life", 16, 0))
	switch l.Verb {
	case "join":
		h, err := s.w.Join(now, PlayerID(l.Uint("id", 16, 0)))
		if err != nil {
			return "", err
		}
		s.who[l.Word(0)] = h
		return s.phaseOf(name), nil
	case "frame":
		f, err := s.w.Frame(now, h, Claim{Alive: l.Bool("alive", true), Gen: gen}, l.F32("hp", 100))
		if err != nil {
			return "", err
		}
		out := f.Verdict.String()
		if f.Verdict.Relay() {
			out += " alive=" + map[bool]string{true: "1", false: "0"}[f.Stamp.Alive] + " life " + strconv.Itoa(int(f.Stamp.Gen)) + " hp " + scenario.F(f.Stamp.Health)
		}
		if f.Verdict == FrameFirstOfLife {
			out += " " + f.Spawn.String()
		}
		return out + " | " + s.phaseOf(name), nil
	case "report-death":
		pose := PoseDefault
		if l.Has("pose") {
			pose = parsePose(l, l.Str("pose", ""))
		}
		r, err := s.w.ReportDeath(now, h, DeathReport{Gen: gen, Means: uint8(l.Uint("means", 8, 24)), Pose: pose}, noBlame)
		if err != nil {
			return "", err
		}
		out := r.Verdict.String()
		if r.Verdict == ReportCommitted {
			out = r.Commit.String()
		}
		return out + " | " + s.phaseOf(name), nil
	case "count-death":
		k := noKiller
		if l.Has("by") {
			k = s.who[l.Str("by", "")]
		}
		c, err := s.w.CountDeath(h, Count{At: now, Killer: k, Cause: uint8(l.Uint("cause", 8, 0)), Stealth: l.Bool("stealth", false)}, l.Dur("rtt", 0))
		if err != nil {
			return "", err
		}
		return c.Verdict.String() + " until " + c.Deadline.String() + " | " + s.phaseOf(name), nil
	case "request-respawn":
		r, err := s.w.RespawnRequest(now, h, gen)
		if err != nil {
			return "", err
		}
		return r.String() + " | " + s.phaseOf(name), nil
	case "ack-zero":
		if err := s.w.ZeroAcknowledged(h, gen); err != nil {
			return "", err
		}
		return "acknowledged | " + s.phaseOf(name), nil
	case "decide":
		var d Decision
		if l.Has("at") {
			d = AllowAt(l.Dur("at", 0))
		}
		if l.Bool("hold", false) {
			d = Hold()
		}
		if l.Has("point") {
			d = d.AtPoint(parsePoint(l, l.Str("point", "")))
		}
		if err := s.w.DecideRespawn(h, gen, d); err != nil {
			return "", err
		}
		return "decided " + d.String() + " | " + s.phaseOf(name), nil
	case "advance":
		var out []string
		for _, d := range s.w.Advance(now, nil) {
			out = append(out, d.String())
		}
		if len(out) == 0 {
			return "nothing due", nil
		}
		return strings.Join(out, "; "), nil
	case "leave":
		d, err := s.w.Leave(now, h)
		if err != nil {
			return "", err
		}
		if d.Committed {
			return "left dead: " + d.Commit.String(), nil
		}
		return "left", nil
	case "may-act":
		if s.w.MayAct(h) {
			return "may act", nil
		}
		return "refused", nil
	case "snapshot":
		sn, err := s.w.Snapshot(h.ID)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("player %d token %d %v spawned=%v alive=%v life %d pose %v at %v sync_seq %d",
			sn.Subject, sn.Token, sn.Phase, sn.Spawned, sn.Alive, sn.Gen, sn.Pose, sn.Point, sn.SyncSeq), nil
	}
	l.Fatalf("unknown command %q", l.Verb)
	return "", nil
}

// TestScenario runs every scenario file in testdata/.
func TestScenario(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "run" {
				d.Fatalf(t, "unknown command %q: want run", d.Cmd)
			}
			return runLifecycleScenario(t, scenarioConfig(t, d), d.Input)
		})
	})
}
