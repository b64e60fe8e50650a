package lifecycle_test

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/lifecycle"
)

// A life from the connect spawn to a reported death and a respawn.
func Example() {
	w, _ := lifecycle.New(lifecycle.Config{
		SpawnPoint: lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: 1958, Y: 1343, Z: 15}, Facing: 270},
	})
	p, _ := w.Join(0, 0)

	// The connect spawn: the client asks, the server grants, the first living frame
	// confirms the life and raises player_spawn.
	g, _ := w.RespawnRequest(0, p, 0)
	fmt.Println(g.Respawn)
	f, _ := w.Frame(50*time.Millisecond, p, lifecycle.Claim{Alive: true, Gen: g.Respawn.Gen}, 100)
	fmt.Println(f.Verdict, f.Spawn)

	// The victim reports its death with its pose; the observers get PlayerWasted.
	d, _ := w.ReportDeath(10*time.Second, p, lifecycle.DeathReport{Gen: 1, Means: 34, Pose: lifecycle.PoseShotFace}, lifecycle.Blame{Cause: lifecycle.CauseUnknown})
	fmt.Println(d.Commit.Wasted)
	fmt.Println(d.Commit.Death)
	fmt.Println("may act:", w.MayAct(p))

	// The dead client repeats its request; the default delay is 3 s.
	g, _ = w.RespawnRequest(11*time.Second, p, 1)
	fmt.Println(g)
	g, _ = w.RespawnRequest(13*time.Second, p, 1)
	fmt.Println(g.Spawned, "reset combat:", g.ResetCombat)
	// Output:
	// RespawnPlayer{life 1 at (1958 1343 15) facing 270}
	// first frame of the life player_spawn{player 0 life 1 connect}
	// PlayerWasted{player 0 token 1 life 1 pose PED/KO_shot_face}
	// player_death{victim 0 life 1 killer none cause 34 pose PED/KO_shot_face by report}
	// may act: false
	// not before 13s
	// PlayerSpawned{player 0 token 1 life 2 sync_seq 1 at (1958 1343 15) facing 270} reset combat: true
}

// A death the server counted (the ledger reached 0) and the victim never reported: the
// server commits at the deadline and sends a critical SetHealth(0); the respawn waits for
// its acknowledgement.
func ExampleWorld_CountDeath() {
	w, _ := lifecycle.New(lifecycle.Config{})
	victim := spawn(w, 0)
	killer := spawn(w, 1)

	c, _ := w.CountDeath(victim, lifecycle.Count{At: 5 * time.Second, Killer: killer, Cause: 31}, 250*time.Millisecond)
	fmt.Println(c.Verdict, c.Deadline)
	fmt.Println(len(w.Advance(6*time.Second, nil)), "due at 6s")
	for _, d := range w.Advance(6500*time.Millisecond, nil) {
		fmt.Println(d)
	}
	g, _ := w.RespawnRequest(10*time.Second, victim, 1)
	fmt.Println(g)
	_ = w.ZeroAcknowledged(victim, 1)
	for _, d := range w.Advance(10*time.Second, nil) {
		fmt.Println(d.Kind, d.Grant.Respawn)
	}
	// Output:
	// waiting for the report 6.5s
	// 0 due at 6s
	// commit by server: PlayerWasted{player 0 token 1 life 1 pose PED/KO_shot_front} player_death{victim 0 life 1 killer 1 cause 31 pose PED/KO_shot_front by server} + critical SetHealth(0) to the victim
	// awaiting the acknowledgement of the zero
	// grant RespawnPlayer{life 2 at (0 0 0) facing 0}
}

// The relay stamps the server's alive and generation, never the client's, and never
// relays a living player at zero health.
func ExampleWorld_Frame() {
	w, _ := lifecycle.New(lifecycle.Config{})
	p := spawn(w, 0)
	f, _ := w.Frame(time.Second, p, lifecycle.Claim{Alive: false, Gen: 1}, 0)
	fmt.Printf("%v: alive=%v life=%d hp=%v seq=%d\n", f.Verdict, f.Stamp.Alive, f.Stamp.Gen, f.Stamp.Health, f.Stamp.Seq)
	f, _ = w.Frame(time.Second, p, lifecycle.Claim{Alive: true, Gen: 7}, 100)
	fmt.Println(f.Verdict)
	// Output:
	// relayed: alive=true life=1 hp=1 seq=1
	// frame of a life never granted
}

// The gamemode holds a respawn, then releases it at a point of its choice.
func ExampleWorld_DecideRespawn() {
	w, _ := lifecycle.New(lifecycle.Config{})
	p := spawn(w, 0)
	_, _ = w.ReportDeath(time.Second, p, lifecycle.DeathReport{Gen: 1}, lifecycle.Blame{Cause: lifecycle.CauseUnknown})

	_ = w.DecideRespawn(p, 1, lifecycle.Hold())
	g, _ := w.RespawnRequest(time.Minute, p, 1)
	fmt.Println(g)

	jail := lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: 264, Y: 77, Z: 1001}, Facing: 0}
	_ = w.DecideRespawn(p, 1, lifecycle.AllowAt(time.Minute).AtPoint(jail))
	for _, d := range w.Advance(time.Minute, nil) {
		fmt.Println(d.Grant.Respawn)
	}
	// Output:
	// held by the gamemode
	// RespawnPlayer{life 2 at (264 77 1001) facing 0}
}

// A player who leaves while the server waits for its death report leaves dead: the death
// is committed (the default pose, the count's killer) before the slot is freed, so the host
// sends PlayerWasted before it removes the player, and nothing is left to come due.
func ExampleWorld_Leave() {
	w, _ := lifecycle.New(lifecycle.Config{})
	victim := spawn(w, 0)
	killer := spawn(w, 1)
	_, _ = w.CountDeath(victim, lifecycle.Count{At: 5 * time.Second, Killer: killer, Cause: 24}, 100*time.Millisecond)

	d, _ := w.Leave(5500*time.Millisecond, victim)
	fmt.Println("left dead:", d.Committed)
	fmt.Println(d.Commit.Wasted)
	fmt.Println(d.Commit.Death)
	_, err := w.Snapshot(0)
	fmt.Println(err)
	fmt.Println(len(w.Advance(time.Hour, nil)), "due later")

	// A player who leaves alive leaves nothing to commit.
	d, _ = w.Leave(6*time.Second, killer)
	fmt.Println("left dead:", d.Committed)
	// Output:
	// left dead: true
	// PlayerWasted{player 0 token 1 life 1 pose PED/KO_shot_front}
	// player_death{victim 0 life 1 killer 1 cause 24 pose PED/KO_shot_front on leave}
	// lifecycle: unknown player: 0
	// 0 due later
	// left dead: false
}

// A receiver applies an edge only to the connection and the life it names: the death edge
// of a departed player never kills the new player on its id.
func ExampleCopy_ApplyWasted() {
	w, _ := lifecycle.New(lifecycle.Config{})
	old := spawn(w, 3)
	d, _ := w.ReportDeath(time.Second, old, lifecycle.DeathReport{Gen: 1, Pose: lifecycle.PoseDrown}, lifecycle.Blame{Cause: lifecycle.CauseUnknown})
	_, _ = w.Leave(time.Second, old)

	spawn(w, 3) // a new player on id 3
	snap, _ := w.Snapshot(3)
	c := lifecycle.NewCopy(snap)
	fmt.Println(c.ApplyWasted(d.Commit.Wasted), "alive:", c.Alive)
	// Output:
	// other player alive: true
}

// A pose the game cannot produce is replaced by the default.
func ExamplePose_OrDefault() {
	fmt.Println(lifecycle.PoseCarDeadLeft.OrDefault())
	fmt.Println(lifecycle.Pose(77).OrDefault())
	// Output:
	// PED/CAR_dead_LHS
	// PED/KO_shot_front
}

// spawn joins id and confirms its first life.
func spawn(w *lifecycle.World, id lifecycle.PlayerID) lifecycle.Handle {
	h, err := w.Join(0, id)
	if err != nil {
		panic(err)
	}
	g, _ := w.RespawnRequest(0, h, 0)
	if _, err := w.Frame(0, h, lifecycle.Claim{Alive: true, Gen: g.Respawn.Gen}, 100); err != nil {
		panic(err)
	}
	return h
}
