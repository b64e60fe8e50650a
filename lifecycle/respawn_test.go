package lifecycle

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Rule: the server grants the respawn when its policy allows: by default no earlier than
// RespawnDelay after the commit.
func TestRespawnIsGrantedAfterTheDefaultDelay(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	reportDeath(t, w, 10*time.Second, h, PoseDefault)
	for _, now := range []time.Duration{10 * time.Second, 11 * time.Second, 13*time.Second - 1} {
		g, err := w.RespawnRequest(now, h, 1)
		require.NoError(t, err)
		require.Equal(t, RequestTooEarly, g.Verdict)
		require.Equal(t, 13*time.Second, g.At)
		require.Equal(t, PhaseDead, phase(t, w, h))
	}
	g, err := w.RespawnRequest(13*time.Second, h, 1)
	require.NoError(t, err)
	require.Equal(t, RequestGranted, g.Verdict)
}

// Rule: a remembered request is granted by Advance as soon as the policy allows, without
// waiting for the client's next repeat.
func TestAdvanceGrantsARememberedRequest(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	reportDeath(t, w, 0, h, PoseDefault)
	require.Empty(t, w.Advance(5*time.Second, nil), "no request, no grant")
	h2 := spawned(t, w, 0, 1)
	reportDeath(t, w, 0, h2, PoseDefault)
	g, err := w.RespawnRequest(2*time.Second, h2, 1)
	require.NoError(t, err)
	require.Equal(t, RequestTooEarly, g.Verdict)
	require.Empty(t, w.Advance(3*time.Second-1, nil))
	due := w.Advance(3*time.Second, nil)
	require.Len(t, due, 1)
	require.Equal(t, DueGrant, due[0].Kind)
	require.Equal(t, h2, due[0].Grant.Subject)
	require.Equal(t, PhaseDead, phase(t, w, h))
}

// Rule: a grant starts a new generation, resets combat correlation (said in the result),
// sends RespawnPlayer with the point to the player and PlayerSpawned with the token,
// generation, sync_seq and point to the observers.
func TestGrantStartsANewGenerationAndResetsCombat(t *testing.T) {
	w := newWorld(t, Config{SpawnPoint: pointA})
	h := spawned(t, w, 0, 6)
	for range 3 {
		_, err := w.Frame(0, h, Claim{Alive: true, Gen: 1}, 100)
		require.NoError(t, err)
	}
	reportDeath(t, w, time.Second, h, PoseDefault)
	f, err := w.Frame(2*time.Second, h, Claim{Alive: false, Gen: 1}, 0)
	require.NoError(t, err)
	g, err := w.RespawnRequest(4*time.Second, h, 1)
	require.NoError(t, err)
	require.Equal(t, Grant{
		Verdict:     RequestGranted,
		Subject:     h,
		Respawn:     RespawnPlayer{Gen: 2, Point: pointA},
		Spawned:     PlayerSpawned{Subject: 6, Token: h.Token, Gen: 2, SyncSeq: f.Stamp.Seq + 1, Point: pointA},
		ResetCombat: true,
	}, g)
}

// Rule: a repeated request before the first living frame gets the same grant again, same
// generation (a lost RespawnPlayer heals itself), without a second PlayerSpawned or reset.
func TestRepeatedRespawnRequestGetsTheSameGrant(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	reportDeath(t, w, 0, h, PoseDefault)
	first, err := w.RespawnRequest(3*time.Second, h, 1)
	require.NoError(t, err)
	require.Equal(t, RequestGranted, first.Verdict)
	for i := range 5 {
		again, err := w.RespawnRequest(3*time.Second+time.Duration(i)*time.Second, h, 1)
		require.NoError(t, err)
		require.Equal(t, RequestRegranted, again.Verdict)
		require.Equal(t, first.Respawn, again.Respawn, "same generation, same point")
		require.Zero(t, again.Spawned, "observers already have the edge")
		require.False(t, again.ResetCombat)
		require.Equal(t, Generation(2), gen(t, w, h))
	}
	// Once the life is confirmed, an old request is of a previous life.
	_, err = w.Frame(9*time.Second, h, Claim{Alive: true, Gen: 2}, 100)
	require.NoError(t, err)
	late, err := w.RespawnRequest(9*time.Second, h, 1)
	require.NoError(t, err)
	require.Equal(t, RequestOfPreviousLife, late.Verdict)
	require.Equal(t, Generation(2), gen(t, w, h))
}

// Rule: requests that cannot be granted change nothing: alive, dying, another life.
func TestRespawnRequestOfTheWrongLifeOrWhileAliveIsRefused(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	check := func(g Generation, want RequestVerdict) {
		t.Helper()
		before := capture(w)
		r, err := w.RespawnRequest(time.Hour, h, g)
		require.NoError(t, err)
		require.Equal(t, want, r.Verdict, "life %d", g)
		requireUnchanged(t, before, w)
	}
	check(1, RequestNotDead)
	check(0, RequestOfPreviousLife)
	check(2, RequestOfFutureLife)
	_, err := w.CountDeath(h, Count{At: 0, Killer: noKiller, Cause: 24}, 0)
	require.NoError(t, err)
	check(1, RequestNotDead) // dying: not committed
	_, err = w.ReportDeath(0, h, DeathReport{Gen: 1}, noBlame)
	require.NoError(t, err)
	check(0, RequestOfPreviousLife)
	check(2, RequestOfFutureLife)
	check(1+0x8000, RequestOfFutureLife)
	_, err = w.RespawnRequest(3*time.Second, h, 1)
	require.NoError(t, err)
	check(2, RequestNotDead) // granted life 2: the client already lives in it
	check(0, RequestOfPreviousLife)
	check(3, RequestOfFutureLife)
}

// The gamemode's decisions (TestGamemodeDecidesEachRespawn, TestDecisionLastsOneDeath) are
// scenarios in testdata/respawn_decisions.txt.

func TestDecideRespawnRefusesBadInput(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	before := capture(w)
	require.ErrorIs(t, w.DecideRespawn(h, 1, Hold()), ErrNotDead)
	reportDeath(t, w, 0, h, PoseDefault)
	before = capture(w)
	require.ErrorIs(t, w.DecideRespawn(h, 0, Hold()), ErrWrongGeneration)
	require.ErrorIs(t, w.DecideRespawn(h, 2, Hold()), ErrWrongGeneration)
	require.ErrorIs(t, w.DecideRespawn(h, 1, AllowAt(0).AtPoint(SpawnPoint{Facing: float32(math.NaN())})), ErrBadPoint)
	requireUnchanged(t, before, w)
}

// Rule: player_spawn is raised on the first living frame of the new life, not on the
// grant; frames of the old life in between are dropped, and so is a frame of the new life
// that is not living.
func TestPlayerSpawnIsRaisedOnTheFirstLivingFrame(t *testing.T) {
	w := newWorld(t, Config{SpawnPoint: pointA})
	h := spawned(t, w, 0, 0)
	reportDeath(t, w, 0, h, PoseDefault)
	g, err := w.RespawnRequest(3*time.Second, h, 1)
	require.NoError(t, err)
	for _, tc := range []struct {
		claim Claim
		want  FrameVerdict
	}{
		{Claim{Alive: false, Gen: 1}, FrameOfPreviousLife}, // the corpse, late
		{Claim{Alive: true, Gen: 1}, FrameOfPreviousLife},
		{Claim{Alive: false, Gen: 2}, FrameAwaitingLife},
		{Claim{Alive: true, Gen: 3}, FrameOfFutureLife},
	} {
		before := capture(w)
		f, err := w.Frame(3100*ms, h, tc.claim, 100)
		require.NoError(t, err)
		require.Equal(t, tc.want, f.Verdict, "%+v", tc.claim)
		requireUnchanged(t, before, w)
	}
	f, err := w.Frame(3200*ms, h, Claim{Alive: true, Gen: 2}, 100)
	require.NoError(t, err)
	require.Equal(t, FrameFirstOfLife, f.Verdict)
	require.Equal(t, SpawnEvent{Player: 0, Token: h.Token, Gen: 2, Point: pointA, At: 3200 * ms}, f.Spawn)
	require.Equal(t, g.Spawned.SyncSeq, f.Stamp.Seq, "the first relayed frame of the life carries sync_seq")
	f, err = w.Frame(3233*ms, h, Claim{Alive: true, Gen: 2}, 100)
	require.NoError(t, err)
	require.Equal(t, FrameRelayed, f.Verdict, "raised once")
}

// Rule: the connect spawn takes the same path: a request for generation 0, granted at once
// by default, player_spawn (Connect) on the first living frame.
func TestConnectSpawnTakesTheGrantPath(t *testing.T) {
	w := newWorld(t, Config{SpawnPoint: pointA})
	h, err := w.Join(5*time.Second, 9)
	require.NoError(t, err)
	g, err := w.RespawnRequest(5*time.Second, h, 0)
	require.NoError(t, err)
	require.Equal(t, RequestGranted, g.Verdict)
	require.True(t, g.Connect)
	require.True(t, g.ResetCombat)
	require.Equal(t, RespawnPlayer{Gen: 1, Point: pointA}, g.Respawn)
	again, err := w.RespawnRequest(6*time.Second, h, 0)
	require.NoError(t, err)
	require.Equal(t, RequestRegranted, again.Verdict)
	f, err := w.Frame(6*time.Second, h, Claim{Alive: true, Gen: 1}, 100)
	require.NoError(t, err)
	require.Equal(t, FrameFirstOfLife, f.Verdict)
	require.True(t, f.Spawn.Connect)
	require.Equal(t, "player_spawn{player 9 life 1 connect}", f.Spawn.String())

	// The second life is not a connect spawn.
	reportDeath(t, w, 7*time.Second, h, PoseDefault)
	g = respawn(t, w, 10*time.Second, h)
	require.False(t, g.Connect)
}

func TestConnectSpawnCanBeHeld(t *testing.T) {
	for _, cfg := range []Config{{HoldConnectSpawn: true}, {}} {
		w := newWorld(t, cfg)
		h, err := w.Join(0, 0)
		require.NoError(t, err)
		if !cfg.HoldConnectSpawn {
			require.NoError(t, w.DecideRespawn(h, 0, Hold()))
		}
		g, err := w.RespawnRequest(time.Second, h, 0)
		require.NoError(t, err)
		require.Equal(t, RequestHeld, g.Verdict)
		require.Empty(t, w.Advance(time.Minute, nil))
		require.NoError(t, w.DecideRespawn(h, 0, AllowAt(0).AtPoint(pointB)))
		due := w.Advance(time.Minute, nil)
		require.Len(t, due, 1)
		require.True(t, due[0].Grant.Connect)
		require.Equal(t, pointB, due[0].Grant.Respawn.Point)
	}
}

// Rule: generations strictly increase per connection, across the 16-bit wrap.
func TestGenerationsStrictlyIncreaseAcrossTheWrap(t *testing.T) {
	w := newWorld(t, Config{RespawnDelay: time.Nanosecond})
	h := spawned(t, w, 0, 0)
	w.slots[0].gen = 0xFFFE
	prev := Generation(0xFFFE)
	for i := range 4 {
		now := time.Duration(i+1) * time.Second
		r, err := w.ReportDeath(now, h, DeathReport{Gen: prev}, noBlame)
		require.NoError(t, err)
		require.Equal(t, ReportCommitted, r.Verdict)
		g := respawn(t, w, now+time.Millisecond, h)
		require.True(t, g.Respawn.Gen.Newer(prev), "%d after %d", g.Respawn.Gen, prev)
		require.Equal(t, prev.Next(), g.Respawn.Gen)
		prev = g.Respawn.Gen
	}
	require.Equal(t, Generation(2), prev)
}

// Rule: Advance settles what came due in the order of the due moments, then of the ids.
func TestAdvanceSettlesInOrder(t *testing.T) {
	w := newWorld(t, Config{})
	a := spawned(t, w, 0, 5)
	b := spawned(t, w, 0, 2)
	c := spawned(t, w, 0, 7)
	_, err := w.CountDeath(a, Count{At: 2 * time.Second, Killer: noKiller, Cause: 24}, 0) // due 3 s
	require.NoError(t, err)
	_, err = w.CountDeath(b, Count{At: time.Second, Killer: noKiller, Cause: 24}, 0) // due 2 s
	require.NoError(t, err)
	_, err = w.CountDeath(c, Count{At: time.Second, Killer: noKiller, Cause: 24}, 0) // due 2 s
	require.NoError(t, err)
	due := w.Advance(10*time.Second, make([]Due, 0, 8))
	require.Len(t, due, 3)
	require.Equal(t, []PlayerID{2, 7, 5}, []PlayerID{due[0].Commit.Subject.ID, due[1].Commit.Subject.ID, due[2].Commit.Subject.ID})
}

// Rule: a repeated request before the first living frame gets the same grant, for the
// connect spawn on a reused id too. The new client does not know the id's generations: it
// asks for life 0 until its first RespawnPlayer arrives, while the grant is life 2.
func TestRepeatedConnectSpawnRequestOnAReusedIDGetsTheSameGrant(t *testing.T) {
	w := newWorld(t, Config{SpawnPoint: pointA})
	old := spawned(t, w, 0, 9)
	_, err := w.Leave(time.Second, old)
	require.NoError(t, err)
	h, err := w.Join(2*time.Second, 9)
	require.NoError(t, err)

	first, err := w.RespawnRequest(2*time.Second, h, 0)
	require.NoError(t, err)
	require.Equal(t, RequestGranted, first.Verdict)
	require.True(t, first.Connect)
	n := first.Respawn.Gen
	require.Equal(t, Generation(2), n, "the id's generations continue")

	// That RespawnPlayer is lost; the client's timer asks again, still for life 0.
	again, err := w.RespawnRequest(3*time.Second, h, 0)
	require.NoError(t, err)
	require.Equal(t, RequestRegranted, again.Verdict, again.String())
	require.Equal(t, RespawnPlayer{Gen: n, Point: pointA}, again.Respawn, "the same life, the same point")
	require.True(t, again.Connect)
	require.Zero(t, again.Spawned, "observers already have the edge")
	require.False(t, again.ResetCombat)
	require.Equal(t, n, gen(t, w, h), "no new generation")

	f, err := w.Frame(3100*ms, h, Claim{Alive: true, Gen: n}, 100)
	require.NoError(t, err)
	require.Equal(t, FrameFirstOfLife, f.Verdict)
	require.True(t, f.Spawn.Connect)
}

// Rule: the respawn after the server's own commit comes only once the victim acknowledged
// its zero, even when the gamemode allows it earlier: a late zero would kill the new life.
func TestRespawnComesOnlyAfterTheZeroIsAcknowledgedEvenWhenTheGamemodeAllowsItEarlier(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	_, err := w.CountDeath(h, Count{At: 0, Killer: noKiller, Cause: 24}, 0)
	require.NoError(t, err)
	due := w.Advance(time.Second, nil)
	require.Len(t, due, 1)
	require.True(t, due[0].Commit.SendZero)

	require.NoError(t, w.DecideRespawn(h, 1, AllowAt(0)), "the gamemode allows it at once")
	g, err := w.RespawnRequest(time.Second, h, 1)
	require.NoError(t, err)
	require.Equal(t, RequestAwaitingZero, g.Verdict)
	require.Zero(t, g.Respawn)
	for _, now := range []time.Duration{time.Second, 5 * time.Second, time.Hour} {
		require.Empty(t, w.Advance(now, nil), "no grant at %v before the acknowledgement", now)
		g, err := w.RespawnRequest(now, h, 1)
		require.NoError(t, err)
		require.Equal(t, RequestAwaitingZero, g.Verdict)
	}
	require.Equal(t, PhaseDead, phase(t, w, h))

	require.NoError(t, w.ZeroAcknowledged(h, 1))
	due = w.Advance(time.Hour, nil)
	require.Len(t, due, 1, "acknowledged: the remembered request is granted")
	require.Equal(t, DueGrant, due[0].Kind)
	require.Equal(t, Generation(2), due[0].Grant.Respawn.Gen)
}

// Rule: until its first living frame, a repeated request gets the same grant again, also
// when the id's generations have wrapped so that the connect grant is life 0: the new
// client asks for life 0 before it knows its generation, and that request is still a
// repeat, not a request of a living player.
func TestRepeatedConnectSpawnRequestGetsTheSameGrantWhenTheGrantIsLifeZero(t *testing.T) {
	w := newWorld(t, Config{SpawnPoint: pointA})
	old := spawned(t, w, 0, 9)
	_, err := w.Leave(time.Second, old)
	require.NoError(t, err)
	w.slots[9].gen = 0xFFFF // the id's last life before the wrap
	h, err := w.Join(2*time.Second, 9)
	require.NoError(t, err)

	first, err := w.RespawnRequest(2*time.Second, h, 0)
	require.NoError(t, err)
	require.Equal(t, RequestGranted, first.Verdict)
	require.Equal(t, Generation(0), first.Respawn.Gen, "the generation wrapped to life 0")

	// That RespawnPlayer is lost; the client's timer asks again, for life 0.
	for i, now := range []time.Duration{3 * time.Second, 4 * time.Second} {
		again, err := w.RespawnRequest(now, h, 0)
		require.NoError(t, err)
		require.Equal(t, RequestRegranted, again.Verdict, "repeat %d: %v", i, again)
		require.Equal(t, RespawnPlayer{Gen: 0, Point: pointA}, again.Respawn)
		require.True(t, again.Connect)
		require.False(t, again.ResetCombat)
		require.Equal(t, Generation(0), gen(t, w, h), "no new generation")
	}
	f, err := w.Frame(4100*ms, h, Claim{Alive: true, Gen: 0}, 100)
	require.NoError(t, err)
	require.Equal(t, FrameFirstOfLife, f.Verdict)
	require.True(t, f.Spawn.Connect)

	// Alive now: a request is a living player's.
	g, err := w.RespawnRequest(5*time.Second, h, 0)
	require.NoError(t, err)
	require.Equal(t, RequestNotDead, g.Verdict)
}
