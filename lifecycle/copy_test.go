package lifecycle

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Rule: each edge carries the subject's token; a receiver applies it only to that
// connection, so an edge of a departed player never hits a new player with the reused id.
func TestEdgeWithAStaleTokenIsNotApplied(t *testing.T) {
	w := newWorld(t, Config{})
	old := spawned(t, w, 0, 3)
	c := reportDeath(t, w, time.Second, old, PoseShotFace) // PlayerWasted of the old player, still in flight
	_, err := w.Leave(1100*ms, old)
	require.NoError(t, err)
	cur := spawned(t, w, 1200*ms, 3)
	snap, err := w.Snapshot(3)
	require.NoError(t, err)
	watcher := NewCopy(snap)
	require.True(t, watcher.Alive)

	require.Equal(t, EdgeOtherPlayer, watcher.ApplyWasted(c.Wasted))
	require.True(t, watcher.Alive, "the new player does not die of the old one's edge")
	require.Equal(t, cur.Token, watcher.Token)

	stale := PlayerSpawned{Subject: 3, Token: old.Token, Gen: 9, SyncSeq: 0, Point: pointB}
	before := watcher
	require.Equal(t, EdgeOtherPlayer, watcher.ApplySpawned(stale))
	require.Equal(t, before, watcher)
}

// Rule: the receiver-side edge rule as a pure function.
func TestAcceptEdgeRule(t *testing.T) {
	for _, tc := range []struct {
		name      string
		copyAlive bool
		wasted    bool
		token     Token
		gen       Generation
		want      EdgeVerdict
	}{
		{"death of the shown life", true, true, 7, 4, EdgeApplied},
		{"death of the shown life again", false, true, 7, 4, EdgeDuplicate},
		{"death of an older life", true, true, 7, 3, EdgeOldLife},
		{"death of a life not shown yet", true, true, 7, 5, EdgeFutureLife},
		{"death of another connection", true, true, 8, 4, EdgeOtherPlayer},
		{"spawn of the next life", false, false, 7, 5, EdgeApplied},
		{"spawn of a much later life", false, false, 7, 40, EdgeApplied},
		{"spawn of the shown life", true, false, 7, 4, EdgeDuplicate},
		{"spawn of an older life", false, false, 7, 3, EdgeOldLife},
		{"spawn of another connection", false, false, 6, 5, EdgeOtherPlayer},
		{"spawn across the wrap", false, false, 7, 4 + 0x7FFF, EdgeApplied},
		{"spawn half the space away", false, false, 7, 4 + 0x8000, EdgeOldLife},
	} {
		require.Equal(t, tc.want, AcceptEdge(7, 4, tc.copyAlive, tc.wasted, tc.token, tc.gen), tc.name)
	}
}

// Rule: PlayerSpawned carries sync_seq, the barrier that drops late frames of the previous
// life; receivers rebuild the copy at the point.
func TestSyncSeqDropsLateFramesOfThePreviousLife(t *testing.T) {
	w := newWorld(t, Config{SpawnPoint: pointA})
	h := spawned(t, w, 0, 1)
	snap, err := w.Snapshot(1)
	require.NoError(t, err)
	watcher := NewCopy(snap)

	var corpse []Stamp
	for i := range 3 {
		f, err := w.Frame(time.Duration(i)*33*ms, h, Claim{Alive: true, Gen: 1}, 50)
		require.NoError(t, err)
		require.True(t, watcher.AcceptFrame(f.Stamp))
	}
	c := reportDeath(t, w, time.Second, h, PoseShotFace)
	require.Equal(t, EdgeApplied, watcher.ApplyWasted(c.Wasted))
	require.False(t, watcher.Alive)
	require.Equal(t, PoseShotFace, watcher.Pose)
	for range 3 { // the corpse is relayed; some of these frames will arrive late
		f, err := w.Frame(2*time.Second, h, Claim{Alive: false, Gen: 1}, 0)
		require.NoError(t, err)
		corpse = append(corpse, f.Stamp)
	}
	require.True(t, watcher.AcceptFrame(corpse[0]))

	g, err := w.RespawnRequest(4*time.Second, h, 1)
	require.NoError(t, err)
	// A frame of the new life overtakes the edge: the copy is still the corpse, dropped.
	f, err := w.Frame(4100*ms, h, Claim{Alive: true, Gen: 2}, 100)
	require.NoError(t, err)
	require.False(t, watcher.AcceptFrame(f.Stamp))
	require.Equal(t, EdgeApplied, watcher.ApplySpawned(g.Spawned))
	require.Equal(t, Copy{Subject: 1, Token: h.Token, Gen: 2, Alive: true, Pose: PoseDefault, Point: pointA, Floor: g.Spawned.SyncSeq}, watcher)
	for _, late := range corpse[1:] {
		require.False(t, watcher.AcceptFrame(late), "late corpse frame %d", late.Seq)
	}
	f2, err := w.Frame(4133*ms, h, Claim{Alive: true, Gen: 2}, 100)
	require.NoError(t, err)
	require.True(t, watcher.AcceptFrame(f2.Stamp))
	require.False(t, watcher.AcceptFrame(f.Stamp), "older than the newest frame accepted")
	require.Equal(t, EdgeDuplicate, watcher.ApplySpawned(g.Spawned))
	require.Equal(t, EdgeOldLife, watcher.ApplyWasted(c.Wasted))
	require.True(t, watcher.Alive)
}

// Rule: a recipient that does not see the subject gets no edges; its next show builds the
// copy from the current state.
func TestLateShowBuildsTheCopyFromCurrentState(t *testing.T) {
	w := newWorld(t, Config{SpawnPoint: pointA})
	h := spawned(t, w, 0, 2)
	c := reportDeath(t, w, time.Second, h, PoseKnifeStealth)

	snap, err := w.Snapshot(2)
	require.NoError(t, err)
	require.Equal(t, Snapshot{Subject: 2, Token: h.Token, Phase: PhaseDead, Spawned: true, Alive: false, Gen: 1, Pose: PoseKnifeStealth, Point: pointA, SyncSeq: snap.SyncSeq}, snap)
	late := NewCopy(snap)
	require.False(t, late.Alive)
	require.Equal(t, PoseKnifeStealth, late.Pose, "the corpse lies as everyone saw it")
	require.Equal(t, EdgeDuplicate, late.ApplyWasted(c.Wasted), "a replayed edge would change nothing")

	g, err := w.RespawnRequest(4*time.Second, h, 1)
	require.NoError(t, err)
	snap, err = w.Snapshot(2)
	require.NoError(t, err)
	require.True(t, snap.Alive, "granted: observers rebuilt the copy at the point")
	require.Equal(t, PhaseRespawning, snap.Phase)
	require.Equal(t, Generation(2), snap.Gen)
	require.Equal(t, g.Spawned.SyncSeq, snap.SyncSeq)
	shown := NewCopy(snap)
	require.Equal(t, EdgeDuplicate, shown.ApplySpawned(g.Spawned))

	unspawned, err := w.Join(5*time.Second, 3)
	require.NoError(t, err)
	snap, err = w.Snapshot(3)
	require.NoError(t, err)
	require.False(t, snap.Spawned)
	require.False(t, snap.Alive)
	copy3 := NewCopy(snap)
	g, err = w.RespawnRequest(5*time.Second, unspawned, 0)
	require.NoError(t, err)
	require.Equal(t, EdgeApplied, copy3.ApplySpawned(g.Spawned))
	require.True(t, copy3.Alive)
}

// Rule: the respawning client applies a RespawnPlayer only for a newer generation, so the
// repeated grant (after a lost RespawnPlayer) never revives it twice.
func TestShouldRespawnOnlyForANewerGeneration(t *testing.T) {
	require.True(t, ShouldRespawn(true, 1, RespawnPlayer{Gen: 2}))
	require.True(t, ShouldRespawn(true, 0xFFFF, RespawnPlayer{Gen: 0}))
	require.False(t, ShouldRespawn(true, 2, RespawnPlayer{Gen: 2}), "the repeated grant")
	require.False(t, ShouldRespawn(true, 3, RespawnPlayer{Gen: 2}))
	// The connect spawn on a reused id starts wherever the id's generations are.
	require.True(t, ShouldRespawn(false, 0, RespawnPlayer{Gen: 40000}))
	require.True(t, ShouldRespawn(false, 0, RespawnPlayer{Gen: 1}))
}

// Rule: every verdict and message has a deterministic, distinct String.
func TestStringsAreStableAndDistinct(t *testing.T) {
	check := func(name string, n int, str func(i int) string) {
		t.Helper()
		seen := map[string]bool{}
		for i := range n {
			s := str(i)
			require.NotEmpty(t, s)
			require.False(t, seen[s], "%s: %q twice", name, s)
			seen[s] = true
		}
	}
	check("phase", 6, func(i int) string { return Phase(i).String() })
	check("frame", 7, func(i int) string { return FrameVerdict(i).String() })
	check("report", 6, func(i int) string { return ReportVerdict(i).String() })
	check("count", 7, func(i int) string { return CountVerdict(i).String() })
	check("request", 9, func(i int) string { return RequestVerdict(i).String() })
	check("edge", 6, func(i int) string { return EdgeVerdict(i).String() })
	check("source", 4, func(i int) string { return CommitSource(i).String() })
	check("due", 3, func(i int) string { return DueKind(i).String() })
	check("pose", 256, func(i int) string { return Pose(i).String() })
	require.Equal(t, "PED/KO_shot_front", PoseDefault.String())
	require.Equal(t, "Pose(200)", Pose(200).String())
	require.Equal(t, "player 3 token 7", Handle{ID: 3, Token: 7}.String())
	require.Equal(t, "allow at 1s at (1 2 3) facing 90", AllowAt(time.Second).AtPoint(pointA).String())
	require.Equal(t, "hold", Hold().String())
	require.Equal(t, "default", Decision{}.String())
}

func TestValidCauseList(t *testing.T) {
	var valid []int
	for c := range 256 {
		if ValidCause(uint8(c)) {
			valid = append(valid, c)
		}
	}
	want := []int{}
	for c := 0; c <= 46; c++ {
		if c < 19 || c > 21 {
			want = append(want, c)
		}
	}
	want = append(want, 49, 50, 51, 53, 54, 255)
	require.Equal(t, want, valid)
}

// Rule: a relayed frame's alive never kills or revives the receiver's copy: only the edges
// do. The frame is accepted (it is of the copy's life and not older than the barrier), and
// the copy's alive stays what the edges made it.
func TestRelayedFrameNeverKillsOrRevivesTheCopy(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 1)
	// A frame the server relayed while it held the player alive, still in flight.
	living, err := w.Frame(900*ms, h, Claim{Alive: true, Gen: 1}, 100)
	require.NoError(t, err)
	require.True(t, living.Stamp.Alive)
	c := reportDeath(t, w, time.Second, h, PoseShotFace)
	// A frame of the corpse, relayed after the commit.
	dead, err := w.Frame(1100*ms, h, Claim{Alive: false, Gen: 1}, 0)
	require.NoError(t, err)
	require.False(t, dead.Stamp.Alive)
	snap, err := w.Snapshot(1)
	require.NoError(t, err)

	// The dead frame overtakes PlayerWasted: the living copy takes it and stays alive.
	watcher := NewCopy(Snapshot{Subject: 1, Token: h.Token, Gen: 1, Alive: true, SyncSeq: living.Stamp.Seq})
	require.True(t, watcher.AcceptFrame(dead.Stamp), "a frame of the copy's life")
	require.True(t, watcher.Alive, "alive=0 in a relayed frame does not kill the copy")
	require.Equal(t, EdgeApplied, watcher.ApplyWasted(c.Wasted), "the edge does")
	require.False(t, watcher.Alive)

	// A living frame of the same life arrives after PlayerWasted: the corpse stays dead.
	corpse := NewCopy(Snapshot{Subject: 1, Token: h.Token, Gen: 1, Alive: true, SyncSeq: living.Stamp.Seq})
	require.Equal(t, EdgeApplied, corpse.ApplyWasted(c.Wasted))
	require.True(t, corpse.AcceptFrame(living.Stamp), "a frame of the copy's life")
	require.False(t, corpse.Alive, "alive=1 in a relayed frame does not revive the copy")
	require.Equal(t, PoseShotFace, corpse.Pose)

	// The same from a late show of the corpse, with a stamp of the corpse's own life that
	// says alive.
	late := NewCopy(snap)
	require.False(t, late.Alive)
	require.True(t, late.AcceptFrame(Stamp{Alive: true, Gen: 1, Seq: snap.SyncSeq, Health: 100}))
	require.False(t, late.Alive)
}

// Rule: the receiver lays a corpse in a pose the game can produce: a PlayerWasted whose pose
// is off the list is applied with the default pose.
func TestReceiverLaysAnUnknownPoseAsTheDefault(t *testing.T) {
	for _, tc := range []struct {
		pose, want Pose
	}{
		{PoseDrown, PoseDrown},
		{poseCount, PoseDefault},
		{Pose(200), PoseDefault},
		{Pose(255), PoseDefault},
	} {
		c := NewCopy(Snapshot{Subject: 2, Token: 7, Gen: 3, Alive: true})
		require.Equal(t, EdgeApplied, c.ApplyWasted(PlayerWasted{Subject: 2, Token: 7, Gen: 3, Pose: tc.pose}))
		require.False(t, c.Alive)
		require.Equal(t, tc.want, c.Pose, "pose %d", tc.pose)
		require.True(t, c.Pose.Valid())
	}
}
