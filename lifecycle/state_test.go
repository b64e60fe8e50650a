package lifecycle

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Rule: every connection gets a player token unique across the connections of the world;
// a new player on a reused id gets a new token.
func TestEveryConnectionGetsAUniqueToken(t *testing.T) {
	w := newWorld(t, Config{MaxPlayers: 4})
	seen := map[Token]bool{}
	for round := range 50 {
		for id := range PlayerID(4) {
			h, err := w.Join(time.Duration(round)*time.Second, id)
			require.NoError(t, err)
			require.NotEqual(t, NoToken, h.Token)
			require.False(t, seen[h.Token], "token %d issued twice", h.Token)
			seen[h.Token] = true
		}
		for id := range PlayerID(4) {
			s, err := w.Snapshot(id)
			require.NoError(t, err)
			_, err = w.Leave(0, Handle{ID: id, Token: s.Token})
			require.NoError(t, err)
		}
	}
}

// Rule: tokens stay unique after the 32-bit counter wraps: a token still in use is skipped,
// and 0 (NoToken) is never issued.
func TestTokensStayUniqueAfterTheCounterWraps(t *testing.T) {
	w := newWorld(t, Config{MaxPlayers: 4})
	w.nextToken = 2
	h0, err := w.Join(0, 0) // token 2, stays connected
	require.NoError(t, err)
	require.Equal(t, Token(2), h0.Token)
	w.nextToken = math.MaxUint32
	h1, err := w.Join(0, 1)
	require.NoError(t, err)
	require.Equal(t, Token(math.MaxUint32), h1.Token)
	h2, err := w.Join(0, 2)
	require.NoError(t, err)
	require.Equal(t, Token(1), h2.Token, "0 is skipped")
	h3, err := w.Join(0, 3)
	require.NoError(t, err)
	require.Equal(t, Token(3), h3.Token, "2 is still held by player 0 and is skipped")
}

// Rule: an input with the handle of a departed player never touches the new player on the
// same id: ErrStaleToken, nothing changes.
func TestStaleHandleIsRefusedAndChangesNothing(t *testing.T) {
	w := newWorld(t, Config{})
	old := spawned(t, w, 0, 5)
	_, err := w.Leave(time.Second, old)
	require.NoError(t, err)
	cur := spawned(t, w, 2*time.Second, 5)
	require.NotEqual(t, old.Token, cur.Token)

	before := capture(w)
	calls := map[string]func() error{
		"frame": func() error {
			_, err := w.Frame(3*time.Second, old, Claim{Alive: true, Gen: 1}, 100)
			return err
		},
		"report": func() error {
			_, err := w.ReportDeath(3*time.Second, old, DeathReport{Gen: 1}, noBlame)
			return err
		},
		"count": func() error {
			_, err := w.CountDeath(old, Count{At: 3 * time.Second, Killer: noKiller, Cause: 24}, 0)
			return err
		},
		"request": func() error {
			_, err := w.RespawnRequest(3*time.Second, old, 1)
			return err
		},
		"decide":  func() error { return w.DecideRespawn(old, 1, Hold()) },
		"zero":    func() error { return w.ZeroAcknowledged(old, 1) },
		"spawnpt": func() error { return w.SetSpawnPoint(old, pointA) },
		"phase": func() error {
			_, err := w.Phase(old)
			return err
		},
		"leave": func() error {
			_, err := w.Leave(3*time.Second, old)
			return err
		},
	}
	for name, call := range calls {
		require.ErrorIs(t, call(), ErrStaleToken, name)
		requireUnchanged(t, before, w)
	}
	require.False(t, w.MayAct(old))
	require.True(t, w.MayAct(cur))
	require.Equal(t, PhaseAlive, phase(t, w, cur))
}

// Rule: unknown ids are named errors, never panics.
func TestUnknownPlayerIsRefused(t *testing.T) {
	w := newWorld(t, Config{MaxPlayers: 8})
	before := capture(w)
	for _, h := range []Handle{{ID: 3, Token: 1}, {ID: 8, Token: 1}, {ID: NoPlayer, Token: 1}, {ID: 0, Token: NoToken}} {
		_, err := w.Frame(0, h, Claim{}, 100)
		require.ErrorIs(t, err, ErrUnknownPlayer)
		_, err = w.RespawnRequest(0, h, 0)
		require.ErrorIs(t, err, ErrUnknownPlayer)
		_, err = w.Leave(0, h)
		require.ErrorIs(t, err, ErrUnknownPlayer)
		require.False(t, w.MayAct(h))
	}
	_, err := w.Snapshot(3)
	require.ErrorIs(t, err, ErrUnknownPlayer)
	_, err = w.Snapshot(NoPlayer)
	require.ErrorIs(t, err, ErrUnknownPlayer)
	requireUnchanged(t, before, w)
}

func TestJoinRefusesBadIDsAndTakenSlots(t *testing.T) {
	w := newWorld(t, Config{MaxPlayers: 8})
	_, err := w.Join(0, 8)
	require.ErrorIs(t, err, ErrBadPlayerID)
	_, err = w.Join(0, NoPlayer)
	require.ErrorIs(t, err, ErrBadPlayerID)
	_, err = w.Join(0, 7)
	require.NoError(t, err)
	before := capture(w)
	_, err = w.Join(0, 7)
	require.ErrorIs(t, err, ErrSlotTaken)
	requireUnchanged(t, before, w)
}

func TestNewValidatesTheConfig(t *testing.T) {
	for name, cfg := range map[string]Config{
		"negative players":  {MaxPlayers: -1},
		"too many players":  {MaxPlayers: MaxPlayerSlots + 1},
		"negative delay":    {RespawnDelay: -time.Second},
		"delay over cap":    {RespawnDelay: MaxRespawnDelay + 1},
		"NaN spawn point":   {SpawnPoint: SpawnPoint{Pos: Vec3{X: float32(math.NaN())}}},
		"infinite facing":   {SpawnPoint: SpawnPoint{Facing: float32(math.Inf(1))}},
		"infinite position": {SpawnPoint: SpawnPoint{Pos: Vec3{Z: float32(math.Inf(-1))}}},
	} {
		_, err := New(cfg)
		require.ErrorIs(t, err, ErrBadConfig, name)
	}
	w := newWorld(t, Config{})
	require.Equal(t, DefaultMaxPlayers, w.Config().MaxPlayers)
	require.Equal(t, DefaultRespawnDelay, w.Config().RespawnDelay)
	w = newWorld(t, Config{MaxPlayers: MaxPlayerSlots, RespawnDelay: time.Nanosecond})
	require.Equal(t, time.Nanosecond, w.Config().RespawnDelay)
}

// Rule: the relay stamps the server's alive and generation into every frame, never the
// client's.
func TestRelayStampsTheServersAliveAndGenerationNeverTheClients(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 1)
	for _, claim := range []Claim{{Alive: true, Gen: 1}, {Alive: false, Gen: 1}} {
		f, err := w.Frame(time.Second, h, claim, 80)
		require.NoError(t, err)
		require.Equal(t, FrameRelayed, f.Verdict)
		require.True(t, f.Stamp.Alive, "server holds the player alive: %+v", claim)
		require.Equal(t, Generation(1), f.Stamp.Gen)
	}
	reportDeath(t, w, 2*time.Second, h, PoseShotFace)
	// The dead client claims to be alive: the relay still says dead.
	f, err := w.Frame(3*time.Second, h, Claim{Alive: true, Gen: 1}, 100)
	require.NoError(t, err)
	require.Equal(t, FrameRelayed, f.Verdict)
	require.False(t, f.Stamp.Alive)
	require.Equal(t, Generation(1), f.Stamp.Gen)
}

// Rule: while the server holds a player alive, a frame with hp <= 0 is relayed with hp = 1.
func TestLivingPlayersLethalHealthIsRelayedAsOne(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 1)
	for _, tc := range []struct {
		in, want float32
	}{
		{100, 100}, {0.5, 0.5}, {1, 1}, {0, 1}, {float32(math.Copysign(0, -1)), 1}, {-30, 1}, {-math.MaxFloat32, 1},
	} {
		f, err := w.Frame(time.Second, h, Claim{Alive: tc.in > 0, Gen: 1}, tc.in)
		require.NoError(t, err)
		require.Equal(t, tc.want, f.Stamp.Health, "health %v", tc.in)
	}
	// Also while dying (counted, report awaited): no edge yet, so never lethal.
	_, err := w.CountDeath(h, Count{At: time.Second, Killer: noKiller, Cause: 24}, 0)
	require.NoError(t, err)
	f, err := w.Frame(time.Second, h, Claim{Alive: false, Gen: 1}, 0)
	require.NoError(t, err)
	require.True(t, f.Stamp.Alive)
	require.Equal(t, float32(1), f.Stamp.Health)
}

// Rule: a dead player is relayed dead, at health 0 (its body lies in the relay).
func TestDeadPlayerIsRelayedDeadAtZero(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 1)
	reportDeath(t, w, time.Second, h, PoseDefault)
	f, err := w.Frame(2*time.Second, h, Claim{Alive: false, Gen: 1}, 37)
	require.NoError(t, err)
	require.True(t, f.Verdict.Relay())
	require.Equal(t, Stamp{Alive: false, Gen: 1, Seq: f.Stamp.Seq, Health: 0}, f.Stamp)
}

// Rule: a frame with alive = 0 never commits a death.
func TestFrameWithAliveZeroNeverCommitsADeath(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 1)
	for i := range 100 {
		f, err := w.Frame(time.Duration(i)*33*ms, h, Claim{Alive: false, Gen: 1}, 0)
		require.NoError(t, err)
		require.Equal(t, FrameRelayed, f.Verdict)
		require.True(t, f.Stamp.Alive)
	}
	require.Equal(t, PhaseAlive, phase(t, w, h))
	require.True(t, w.MayAct(h))
	require.Empty(t, w.Advance(time.Hour, nil), "nothing is due: no death was counted or reported")
	// The report that follows still commits, once.
	c := reportDeath(t, w, 4*time.Second, h, PoseShotStomach)
	require.Equal(t, PoseShotStomach, c.Wasted.Pose)
}

// Rule: a frame of another generation than the server's is never relayed: a late frame of
// the previous life, or a generation the server never granted (a client reviving itself).
func TestFrameOfAnotherGenerationIsDropped(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 1)
	reportDeath(t, w, time.Second, h, PoseDefault)
	respawn(t, w, 5*time.Second, h) // life 2, confirmed
	seq := w.slots[1].relaySeq
	for _, tc := range []struct {
		claim Claim
		want  FrameVerdict
	}{
		{Claim{Alive: false, Gen: 1}, FrameOfPreviousLife},
		{Claim{Alive: true, Gen: 1}, FrameOfPreviousLife},
		{Claim{Alive: true, Gen: 3}, FrameOfFutureLife},
		{Claim{Alive: true, Gen: 2 + 0x8000}, FrameOfFutureLife},
	} {
		before := capture(w)
		f, err := w.Frame(6*time.Second, h, tc.claim, 100)
		require.NoError(t, err)
		require.Equal(t, tc.want, f.Verdict, "%+v", tc.claim)
		require.False(t, f.Verdict.Relay())
		requireUnchanged(t, before, w)
	}
	require.Equal(t, seq, w.slots[1].relaySeq, "a dropped frame takes no sequence number")
}

func TestFrameWithNonFiniteHealthIsRefused(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 1)
	before := capture(w)
	for _, hp := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		_, err := w.Frame(time.Second, h, Claim{Alive: true, Gen: 1}, hp)
		require.ErrorIs(t, err, ErrBadHealth)
		requireUnchanged(t, before, w)
	}
}

func TestFrameOfAnUnspawnedPlayerIsNotRelayed(t *testing.T) {
	w := newWorld(t, Config{})
	h, err := w.Join(0, 1)
	require.NoError(t, err)
	for _, claim := range []Claim{{Alive: true, Gen: 0}, {Alive: true, Gen: 1}} {
		before := capture(w)
		f, err := w.Frame(0, h, claim, 100)
		require.NoError(t, err)
		require.Equal(t, FrameNotSpawned, f.Verdict)
		requireUnchanged(t, before, w)
	}
}

// Rule: the relay sequence grows by one per relayed frame of an id, across lives and
// across the connections that hold the id, so a late frame of a departed player is older
// than the new player's barrier.
func TestRelaySequenceSurvivesLivesAndReusedIDs(t *testing.T) {
	w := newWorld(t, Config{})
	old := spawned(t, w, 0, 2)
	var last uint16
	for i := range 5 {
		f, err := w.Frame(0, old, Claim{Alive: true, Gen: 1}, 100)
		require.NoError(t, err)
		if i > 0 {
			require.Equal(t, last+1, f.Stamp.Seq)
		}
		last = f.Stamp.Seq
	}
	oldSnap, err := w.Snapshot(2)
	require.NoError(t, err)
	oldCopy := NewCopy(oldSnap) // an observer whose "player left" is still in flight
	_, err = w.Leave(time.Second, old)
	require.NoError(t, err)
	cur, err := w.Join(2*time.Second, 2)
	require.NoError(t, err)
	snap, err := w.Snapshot(2)
	require.NoError(t, err)
	require.Equal(t, last+1, snap.SyncSeq)
	g, err := w.RespawnRequest(2*time.Second, cur, 0)
	require.NoError(t, err)
	require.Equal(t, last+1, g.Spawned.SyncSeq)
	require.Equal(t, Generation(2), g.Respawn.Gen, "the id's generations continue")

	watcher := NewCopy(snap)
	require.Equal(t, EdgeApplied, watcher.ApplySpawned(g.Spawned))
	lateOld := Stamp{Alive: true, Gen: 1, Seq: last, Health: 100}
	require.False(t, watcher.AcceptFrame(lateOld), "a late frame of the departed player")
	f, err := w.Frame(2*time.Second, cur, Claim{Alive: true, Gen: 2}, 100)
	require.NoError(t, err)
	require.Equal(t, last+1, f.Stamp.Seq)
	require.True(t, watcher.AcceptFrame(f.Stamp))
	require.False(t, oldCopy.AcceptFrame(f.Stamp), "the newcomer's frame overtook the leave: the departed player's copy does not move")
}

// Rule: the life state of the record: alive, generation, a granted respawn not yet
// confirmed, per connection.
func TestLifeStateFollowsThePhases(t *testing.T) {
	w := newWorld(t, Config{})
	h, err := w.Join(0, 3)
	require.NoError(t, err)
	type want struct {
		phase   Phase
		alive   bool
		spawned bool
		gen     Generation
	}
	check := func(step string, x want) {
		t.Helper()
		s, err := w.Snapshot(3)
		require.NoError(t, err)
		require.Equal(t, x.phase, s.Phase, step)
		require.Equal(t, x.alive, s.Alive, step)
		require.Equal(t, x.spawned, s.Spawned, step)
		require.Equal(t, x.gen, s.Gen, step)
		require.Equal(t, x.phase == PhaseAlive || x.phase == PhaseDying, w.MayAct(h), step)
	}
	check("joined", want{PhaseUnspawned, false, false, 0})
	_, err = w.RespawnRequest(0, h, 0)
	require.NoError(t, err)
	check("connect spawn granted", want{PhaseRespawning, true, true, 1})
	_, err = w.Frame(0, h, Claim{Alive: true, Gen: 1}, 100)
	require.NoError(t, err)
	check("first living frame", want{PhaseAlive, true, true, 1})
	_, err = w.CountDeath(h, Count{At: time.Second, Killer: noKiller, Cause: CauseSplat}, 0)
	require.NoError(t, err)
	check("counted", want{PhaseDying, true, true, 1})
	_, err = w.ReportDeath(time.Second, h, DeathReport{Gen: 1, Means: CauseSplat, Pose: PoseFallCollapse}, noBlame)
	require.NoError(t, err)
	check("committed", want{PhaseDead, false, true, 1})
	_, err = w.RespawnRequest(5*time.Second, h, 1)
	require.NoError(t, err)
	check("granted", want{PhaseRespawning, true, true, 2})
	_, err = w.Frame(5*time.Second, h, Claim{Alive: true, Gen: 2}, 100)
	require.NoError(t, err)
	check("confirmed", want{PhaseAlive, true, true, 2})
}

func TestSetSpawnPointValidates(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 1)
	before := capture(w)
	err := w.SetSpawnPoint(h, SpawnPoint{Pos: Vec3{Y: float32(math.NaN())}})
	require.ErrorIs(t, err, ErrBadPoint)
	requireUnchanged(t, before, w)
	require.NoError(t, w.SetSpawnPoint(h, pointB))
	reportDeath(t, w, time.Second, h, PoseDefault)
	g := respawn(t, w, 5*time.Second, h)
	require.Equal(t, pointB, g.Respawn.Point)
}

func TestErrorsAreDistinctAndPrefixed(t *testing.T) {
	all := []error{ErrBadConfig, ErrBadPlayerID, ErrSlotTaken, ErrUnknownPlayer, ErrStaleToken, ErrBadHealth,
		ErrBadRTT, ErrBadTime, ErrBadCause, ErrBadPoint, ErrNotDead, ErrWrongGeneration, ErrNoZeroPending}
	for i, a := range all {
		require.Regexp(t, `^lifecycle: `, a.Error())
		for j, b := range all {
			require.Equal(t, i == j, errors.Is(a, b))
		}
	}
}

// Rule: bad input never changes state. The host's clock counts up from its epoch; a
// negative now is refused by every input that takes one (ErrBadTime), as CountDeath refuses
// a negative counted moment, and nothing changes.
func TestNegativeNowIsRefusedAndChangesNothing(t *testing.T) {
	w := newWorld(t, Config{RespawnDelay: time.Nanosecond})
	alive := spawned(t, w, 0, 0)
	dead := spawned(t, w, 0, 1)
	reportDeath(t, w, 0, dead, PoseDefault)
	respawning := spawned(t, w, 0, 2)
	reportDeath(t, w, 0, respawning, PoseDefault)
	_, err := w.RespawnRequest(time.Second, respawning, 1)
	require.NoError(t, err)
	dying := spawned(t, w, 0, 3)
	_, err = w.CountDeath(dying, Count{At: 0, Killer: noKiller, Cause: 24}, 0)
	require.NoError(t, err)

	// Each call, with a now of 0, would change something.
	for _, tc := range []struct {
		name string
		call func(now time.Duration) error
	}{
		{"Join", func(now time.Duration) error { _, err := w.Join(now, 5); return err }},
		{"Frame", func(now time.Duration) error {
			_, err := w.Frame(now, respawning, Claim{Alive: true, Gen: 2}, 100)
			return err
		}},
		{"ReportDeath", func(now time.Duration) error {
			_, err := w.ReportDeath(now, alive, DeathReport{Gen: 1}, noBlame)
			return err
		}},
		{"RespawnRequest", func(now time.Duration) error { _, err := w.RespawnRequest(now, dead, 1); return err }},
		{"Leave", func(now time.Duration) error { _, err := w.Leave(now, dying); return err }},
	} {
		for _, now := range []time.Duration{-1, -time.Hour, math.MinInt64} {
			before := capture(w)
			require.ErrorIs(t, tc.call(now), ErrBadTime, "%s at %v", tc.name, now)
			requireUnchanged(t, before, w)
		}
	}
	require.Empty(t, w.Advance(-1, nil))
	require.Len(t, w.Advance(time.Hour, nil), 1, "the dying player's wait is still on")
}
