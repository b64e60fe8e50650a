package lifecycle

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A scenario is a timed sequence of inputs, each with the exact text of what the World
// returned and the subject's phase after it. The texts are the String forms of the
// results, so a failure reads like the record's sentence it breaks.
type scenario struct {
	t     *testing.T
	w     *World
	who   map[string]Handle
	watch map[string]*Copy // an observer's copies, fed by hand in the steps
}

type step struct {
	at   time.Duration
	do   func(s *scenario, now time.Duration) string
	want string
}

func runScenario(t *testing.T, cfg Config, steps []step) {
	t.Helper()
	s := &scenario{t: t, w: newWorld(t, cfg), who: map[string]Handle{}, watch: map[string]*Copy{}}
	for i, st := range steps {
		got := st.do(s, st.at)
		require.Equal(t, st.want, got, "step %d at %v", i, st.at)
	}
}

func (s *scenario) phaseOf(name string) string {
	p, err := s.w.Phase(s.who[name])
	if err != nil {
		return "gone"
	}
	return p.String()
}

func join(name string, id PlayerID) func(*scenario, time.Duration) string {
	return func(s *scenario, now time.Duration) string {
		h, err := s.w.Join(now, id)
		require.NoError(s.t, err)
		s.who[name] = h
		return name + " " + s.phaseOf(name)
	}
}

func frame(name string, alive bool, g Generation, hp float32) func(*scenario, time.Duration) string {
	return func(s *scenario, now time.Duration) string {
		f, err := s.w.Frame(now, s.who[name], Claim{Alive: alive, Gen: g}, hp)
		require.NoError(s.t, err)
		out := f.Verdict.String()
		if f.Verdict.Relay() {
			out += " alive=" + map[bool]string{true: "1", false: "0"}[f.Stamp.Alive] + " life " + itoa(int(f.Stamp.Gen)) + " hp " + ftoa(f.Stamp.Health)
		}
		if f.Verdict == FrameFirstOfLife {
			out += " " + f.Spawn.String()
		}
		return out + " | " + s.phaseOf(name)
	}
}

func report(name string, g Generation, pose Pose) func(*scenario, time.Duration) string {
	return func(s *scenario, now time.Duration) string {
		r, err := s.w.ReportDeath(now, s.who[name], DeathReport{Gen: g, Means: 24, Pose: pose}, noBlame)
		require.NoError(s.t, err)
		out := r.Verdict.String()
		if r.Verdict == ReportCommitted {
			out = r.Commit.String()
		}
		return out + " | " + s.phaseOf(name)
	}
}

func count(name, killer string, cause uint8, rtt time.Duration) func(*scenario, time.Duration) string {
	return func(s *scenario, now time.Duration) string {
		k := noKiller
		if killer != "" {
			k = s.who[killer]
		}
		c, err := s.w.CountDeath(s.who[name], Count{At: now, Killer: k, Cause: cause}, rtt)
		require.NoError(s.t, err)
		return c.Verdict.String() + " until " + c.Deadline.String() + " | " + s.phaseOf(name)
	}
}

func request(name string, g Generation) func(*scenario, time.Duration) string {
	return func(s *scenario, now time.Duration) string {
		r, err := s.w.RespawnRequest(now, s.who[name], g)
		require.NoError(s.t, err)
		return r.String() + " | " + s.phaseOf(name)
	}
}

func ack(name string, g Generation) func(*scenario, time.Duration) string {
	return func(s *scenario, now time.Duration) string {
		require.NoError(s.t, s.w.ZeroAcknowledged(s.who[name], g))
		return "acknowledged | " + s.phaseOf(name)
	}
}

func advance() func(*scenario, time.Duration) string {
	return func(s *scenario, now time.Duration) string {
		var out []string
		for _, d := range s.w.Advance(now, nil) {
			out = append(out, d.String())
		}
		if len(out) == 0 {
			return "nothing due"
		}
		return strings.Join(out, "; ")
	}
}

func leave(name string) func(*scenario, time.Duration) string {
	return func(s *scenario, now time.Duration) string {
		d, err := s.w.Leave(now, s.who[name])
		require.NoError(s.t, err)
		if d.Committed {
			return "left dead: " + d.Commit.String()
		}
		return "left"
	}
}

func mayAct(name string) func(*scenario, time.Duration) string {
	return func(s *scenario, now time.Duration) string {
		if s.w.MayAct(s.who[name]) {
			return "may act"
		}
		return "refused"
	}
}

// A RespawnPlayer is lost: the client's timer repeats the request, which gets the same
// grant; a further repeat that crossed the first living frame is of a previous life.
func TestScenarioLostRespawnPlayerHealsItself(t *testing.T) {
	runScenario(t, Config{SpawnPoint: pointA}, []step{
		{0, join("a", 0), "a unspawned"},
		{0, request("a", 0), "granted RespawnPlayer{life 1 at (1 2 3) facing 90} PlayerSpawned{player 0 token 1 life 1 sync_seq 0 at (1 2 3) facing 90} reset combat | respawning"},
		{100 * ms, frame("a", true, 1, 100), "first frame of the life alive=1 life 1 hp 100 player_spawn{player 0 life 1 connect} | alive"},
		{10 * time.Second, report("a", 1, PoseShotFace), "commit by report: PlayerWasted{player 0 token 1 life 1 pose PED/KO_shot_face} player_death{victim 0 life 1 killer none cause 24 pose PED/KO_shot_face by report} | dead"},
		{11 * time.Second, request("a", 1), "not before 13s | dead"},
		{12 * time.Second, request("a", 1), "not before 13s | dead"},
		{13 * time.Second, advance(), "granted RespawnPlayer{life 2 at (1 2 3) facing 90} PlayerSpawned{player 0 token 1 life 2 sync_seq 1 at (1 2 3) facing 90} reset combat"},
		// That RespawnPlayer is lost. The corpse keeps sending frames; they are dropped now.
		{13100 * ms, frame("a", false, 1, 0), "frame of a previous life | respawning"},
		{14 * time.Second, mayAct("a"), "refused"},
		{14 * time.Second, request("a", 1), "regranted RespawnPlayer{life 2 at (1 2 3) facing 90} | respawning"},
		{14300 * ms, frame("a", true, 2, 100), "first frame of the life alive=1 life 2 hp 100 player_spawn{player 0 life 2} | alive"},
		{14300 * ms, mayAct("a"), "may act"},
		{14400 * ms, request("a", 1), "request of a previous life | alive"},
	})
}

// The victim's DeathReport is delayed by loss past the deadline the server counted: the
// server commits with the default pose and a critical zero; the late report commits
// nothing; the respawn waits for the acknowledgement of the zero.
func TestScenarioDeathReportRacesTheServersCommit(t *testing.T) {
	runScenario(t, Config{}, []step{
		{0, join("v", 1), "v unspawned"},
		{0, join("k", 2), "k unspawned"},
		{0, request("v", 0), "granted RespawnPlayer{life 1 at (0 0 0) facing 0} PlayerSpawned{player 1 token 1 life 1 sync_seq 0 at (0 0 0) facing 0} reset combat | respawning"},
		{0, request("k", 0), "granted RespawnPlayer{life 1 at (0 0 0) facing 0} PlayerSpawned{player 2 token 2 life 1 sync_seq 0 at (0 0 0) facing 0} reset combat | respawning"},
		{100 * ms, frame("v", true, 1, 100), "first frame of the life alive=1 life 1 hp 100 player_spawn{player 1 life 1 connect} | alive"},
		{100 * ms, frame("k", true, 1, 100), "first frame of the life alive=1 life 1 hp 100 player_spawn{player 2 life 1 connect} | alive"},
		{5 * time.Second, count("v", "k", 30, 400*ms), "waiting for the report until 6.8s | dying"},
		{5100 * ms, frame("v", false, 1, 0), "relayed alive=1 life 1 hp 1 | dying"},
		{6799 * ms, advance(), "nothing due"},
		{6800 * ms, advance(), "commit by server: PlayerWasted{player 1 token 1 life 1 pose PED/KO_shot_front} player_death{victim 1 life 1 killer 2 cause 30 pose PED/KO_shot_front by server} + critical SetHealth(0) to the victim"},
		{6900 * ms, report("v", 1, PoseShotFace), "already committed | dead"},
		{6900 * ms, mayAct("v"), "refused"},
		{7 * time.Second, request("v", 1), "awaiting the acknowledgement of the zero | dead"},
		{9800 * ms, advance(), "nothing due"},
		{10 * time.Second, ack("v", 1), "acknowledged | dead"},
		{10 * time.Second, advance(), "granted RespawnPlayer{life 2 at (0 0 0) facing 0} PlayerSpawned{player 1 token 1 life 2 sync_seq 2 at (0 0 0) facing 0} reset combat"},
	})
}

// A mutual kill: both shots were relayed before either death, so both die; after the
// commits, the dead players' actions are refused.
func TestScenarioMutualKill(t *testing.T) {
	runScenario(t, Config{}, []step{
		{0, join("a", 0), "a unspawned"},
		{0, join("b", 1), "b unspawned"},
		{0, request("a", 0), "granted RespawnPlayer{life 1 at (0 0 0) facing 0} PlayerSpawned{player 0 token 1 life 1 sync_seq 0 at (0 0 0) facing 0} reset combat | respawning"},
		{0, request("b", 0), "granted RespawnPlayer{life 1 at (0 0 0) facing 0} PlayerSpawned{player 1 token 2 life 1 sync_seq 0 at (0 0 0) facing 0} reset combat | respawning"},
		{0, frame("a", true, 1, 100), "first frame of the life alive=1 life 1 hp 100 player_spawn{player 0 life 1 connect} | alive"},
		{0, frame("b", true, 1, 100), "first frame of the life alive=1 life 1 hp 100 player_spawn{player 1 life 1 connect} | alive"},
		{time.Second, count("a", "b", 24, 100*ms), "waiting for the report until 2.2s | dying"},
		{time.Second, mayAct("a"), "may act"},
		{time.Second, count("b", "a", 24, 100*ms), "waiting for the report until 2.2s | dying"},
		{1100 * ms, report("b", 1, PoseSkidBack), "commit by report: PlayerWasted{player 1 token 2 life 1 pose PED/KO_skid_back} player_death{victim 1 life 1 killer 0 cause 24 pose PED/KO_skid_back by report} | dead"},
		{1100 * ms, report("a", 1, PoseShotStomach), "commit by report: PlayerWasted{player 0 token 1 life 1 pose PED/KO_shot_stom} player_death{victim 0 life 1 killer 1 cause 24 pose PED/KO_shot_stom by report} | dead"},
		{1200 * ms, mayAct("a"), "refused"},
		{1200 * ms, mayAct("b"), "refused"},
		{3 * time.Second, advance(), "nothing due"},
	})
}

// The victim leaves inside the wait and its id is taken at once by someone else: the
// death is committed on leave, and the newcomer's life is untouched by anything of the
// departed player.
func TestScenarioLeaveInsideTheWaitAndReuseTheID(t *testing.T) {
	runScenario(t, Config{}, []step{
		{0, join("old", 4), "old unspawned"},
		{0, request("old", 0), "granted RespawnPlayer{life 1 at (0 0 0) facing 0} PlayerSpawned{player 4 token 1 life 1 sync_seq 0 at (0 0 0) facing 0} reset combat | respawning"},
		{0, frame("old", true, 1, 100), "first frame of the life alive=1 life 1 hp 100 player_spawn{player 4 life 1 connect} | alive"},
		{time.Second, count("old", "", CauseSplat, 0), "waiting for the report until 2s | dying"},
		{1500 * ms, leave("old"), "left dead: commit on leave: PlayerWasted{player 4 token 1 life 1 pose PED/KO_shot_front} player_death{victim 4 life 1 killer none cause 54 pose PED/KO_shot_front on leave}"},
		{1600 * ms, join("new", 4), "new unspawned"},
		// The newcomer's lives continue the id's generations: its first life is 2, so none
		// of its frames matches an observer's copy of the departed player (life 1).
		{1600 * ms, request("new", 0), "granted RespawnPlayer{life 2 at (0 0 0) facing 0} PlayerSpawned{player 4 token 2 life 2 sync_seq 1 at (0 0 0) facing 0} reset combat | respawning"},
		{1700 * ms, frame("new", true, 1, 100), "frame of a previous life | respawning"},
		{1700 * ms, frame("new", true, 2, 100), "first frame of the life alive=1 life 2 hp 100 player_spawn{player 4 life 2 connect} | alive"},
		{2 * time.Second, advance(), "nothing due"},
		{5 * time.Second, advance(), "nothing due"},
		{5 * time.Second, mayAct("new"), "may act"},
	})
}

// A stealth kill: the wait is 10 s longer, and the victim's report with the knife pose
// arrives late but in time.
func TestScenarioStealthKill(t *testing.T) {
	runScenario(t, Config{}, []step{
		{0, join("v", 0), "v unspawned"},
		{0, join("k", 1), "k unspawned"},
		{0, request("v", 0), "granted RespawnPlayer{life 1 at (0 0 0) facing 0} PlayerSpawned{player 0 token 1 life 1 sync_seq 0 at (0 0 0) facing 0} reset combat | respawning"},
		{0, frame("v", true, 1, 100), "first frame of the life alive=1 life 1 hp 100 player_spawn{player 0 life 1 connect} | alive"},
		{time.Second, func(s *scenario, now time.Duration) string {
			c, err := s.w.CountDeath(s.who["v"], Count{At: now, Killer: s.who["k"], Cause: 4, Stealth: true}, 300*ms)
			require.NoError(s.t, err)
			return c.Verdict.String() + " until " + c.Deadline.String()
		}, "waiting for the report until 12.6s"},
		{12 * time.Second, advance(), "nothing due"},
		{12500 * ms, report("v", 1, PoseKnifeStealth), "commit by report: PlayerWasted{player 0 token 1 life 1 pose KNIFE/KILL_Knife_Ped_Die} player_death{victim 0 life 1 killer 1 cause 4 pose KNIFE/KILL_Knife_Ped_Die by report} | dead"},
	})
}
