package refserver

import (
	"errors"
	"flag"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// The rules of streaming ([streaming]): who sees whom is the interest manager's, and every
// relay and edge of a subject goes only to those that have it shown.

// evaluate lets every connection's phase slot come due once (the default 250 ms).
func (h *harness) evaluate() {
	h.t.Helper()
	for range 6 {
		h.step(50 * time.Millisecond)
	}
}

// goTo puts c at pos with a frame.
func (h *harness) goTo(c *tclient, pos wire.Vec3) {
	h.t.Helper()
	c.pos = pos
	require.Equal(h.t, VerdictAccepted, h.frame(c))
}

func shownIDs(c *tclient) []PlayerID {
	var ids []PlayerID
	for _, m := range received[*wire.PlayerShow](c) {
		ids = append(ids, m.Player)
	}
	return ids
}

func hiddenIDs(c *tclient) []PlayerID {
	var ids []PlayerID
	for _, m := range received[*wire.PlayerHide](c) {
		ids = append(ids, m.Player)
	}
	return ids
}

func framesOf(c *tclient, subject PlayerID) int {
	n := 0
	for _, m := range received[*wire.RemotePlayerSync](c) {
		if m.Player == subject {
			n++
		}
	}
	return n
}

// Rule [streaming]: shown within the stream distance, hidden only beyond distance plus
// margin, and only while shown does a recipient get the subject's frames.
func TestStreamShowsWithinDistanceAndHidesBeyondTheMargin(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	require.True(t, h.w.Sees(0, 1), "players standing together see each other from the start")
	require.True(t, h.w.Sees(1, 0))
	// Along the edge, between 200 and 220 m: kept.
	for _, x := range []float32{150, 205, 215, 201, 219} {
		h.goTo(b, wire.Vec3{X: x})
		h.evaluate()
		require.True(t, h.w.Sees(0, 1), "at %v m", x)
	}
	a.reset()
	h.goTo(b, wire.Vec3{X: 230})
	h.evaluate()
	require.False(t, h.w.Sees(0, 1))
	require.False(t, h.w.Sees(1, 0))
	require.Equal(t, []PlayerID{1}, hiddenIDs(a))
	a.reset()
	h.goTo(b, wire.Vec3{X: 231})
	h.flush()
	require.Zero(t, framesOf(a, 1), "no frames of a hidden subject")
	// Back within 210 m: not yet (it must come within the distance); at 190 m: shown
	// again, with its current state.
	h.goTo(b, wire.Vec3{X: 210})
	h.evaluate()
	require.False(t, h.w.Sees(0, 1))
	h.goTo(b, wire.Vec3{X: 190})
	h.evaluate()
	require.True(t, h.w.Sees(0, 1))
	shows := received[*wire.PlayerShow](a)
	require.Len(t, shows, 1)
	require.Equal(t, wire.Vec3{X: 190}, shows[0].Position)
	require.True(t, shows[0].Alive)
	a.reset()
	h.goTo(b, wire.Vec3{X: 189})
	h.flush()
	require.Equal(t, 1, framesOf(a, 1), "its frames again")
}

// Rule [stream-edges]: PlayerWasted and
// PlayerSpawned reach the recipients that have the subject shown, and nobody else.
func TestStreamEdgesGoToWhoeverHasTheSubjectShown(t *testing.T) {
	cfg := testConfig()
	cfg.RespawnDelay = time.Millisecond
	h := newHarness(t, cfg)
	a, b, c := h.join(0), h.join(1), h.join(2)
	h.spawn(a)
	h.spawn(b)
	h.spawn(c)
	h.goTo(c, wire.Vec3{X: 1000})
	h.evaluate()
	require.False(t, h.w.Sees(2, 1))
	require.True(t, h.w.Sees(0, 1))
	a.reset()
	c.reset()
	require.NoError(t, h.w.SetHealth(h.now, 1, 0))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Killer: NoPlayer, Weapon: 255}))
	b.alive = false
	h.flush()
	h.now += cfg.RespawnDelay
	h.spawn(b)
	h.flush()
	require.Len(t, received[*wire.PlayerWasted](a), 1)
	require.Len(t, received[*wire.PlayerSpawned](a), 1)
	require.Empty(t, received[*wire.PlayerWasted](c), "c does not have the subject shown")
	require.Empty(t, received[*wire.PlayerSpawned](c))
}

// Rule [stream-late-show] (lifecycle's [show-current-state]): a recipient that did not have the subject shown
// when it died gets no edge; the show, once it comes within the distance, carries the life
// and the death pose.
func TestStreamLateShowCarriesTheLifeAndTheDeathPose(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	h.goTo(b, wire.Vec3{X: 500})
	h.evaluate()
	require.False(t, h.w.Sees(0, 1))
	require.NoError(t, h.w.SetHealth(h.now, 1, 0))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Killer: NoPlayer, Weapon: 255,
		Pose: uint8(lifecycle.PoseDrown)}))
	h.flush()
	a.reset()
	// a walks up to the corpse.
	h.goTo(a, wire.Vec3{X: 400})
	h.evaluate()
	require.True(t, h.w.Sees(0, 1))
	require.Empty(t, received[*wire.PlayerWasted](a), "no edge of a subject it did not see")
	shows := received[*wire.PlayerShow](a)
	require.Len(t, shows, 1)
	require.False(t, shows[0].Alive, "shown lying dead")
	require.Zero(t, shows[0].Health)
	require.Equal(t, uint8(lifecycle.PoseDrown), shows[0].Pose, "in the pose its death was reported with")
}

// Rule [stream-shots] (the shot rewind's relay, friendly fire's stamp): a shot goes, with its stamp and a
// near recipient's rewound pose, to each recipient that has the shooter shown, and to no
// other, even one the ray passed near.
func TestStreamShotGoesToThoseThatHaveTheShooterShown(t *testing.T) {
	cfg := testConfig()
	cfg.Stream.Cap = 1
	h := newHarness(t, cfg)
	a, b, c, d := h.join(0), h.join(1), h.join(2), h.join(3)
	for _, x := range []*tclient{a, b, c, d} {
		h.spawn(x)
	}
	// The shooter a at the origin; b 40 m away with d 1 m beside it (b's one shown player
	// is d, nearer than a by more than the margin); c 30 m from a on the other side, its
	// nearest a.
	h.goTo(b, wire.Vec3{X: 40})
	h.goTo(d, wire.Vec3{X: 40, Y: 1})
	h.goTo(c, wire.Vec3{X: -30})
	h.evaluate()
	require.True(t, h.w.Sees(1, 3))
	require.False(t, h.w.Sees(1, 0), "b's cap holds d")
	require.True(t, h.w.Sees(2, 0))
	h.give(a, m4, 100)
	h.flush()
	b.reset()
	c.reset()
	// A ray through b, and one through c.
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 60}, wire.HitPlayer, 1))
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: -40}, wire.HitPlayer, 2))
	h.flush()
	require.Empty(t, received[*wire.RemoteWeaponShot](b), "the ray passed near b, but b does not have the shooter shown")
	got := received[*wire.RemoteWeaponShot](c)
	require.Len(t, got, 2, "c has the shooter shown: both shots")
	rewound := 0
	for _, s := range got {
		require.Equal(t, h.w.teams.Rev(), s.Stamp.Rev, "stamped for c")
		if s.Rewind.Valid {
			rewound++
		}
	}
	require.Equal(t, 1, rewound, "its own rewound pose for the ray that passed near it")
}

// Rule [stream-reports]: a victim that had the shooter shown when the
// shot was relayed gets its report credited even if the shooter is hidden from it before
// the report arrives, within the shot credit's window.
func TestStreamReportAgainstAShooterHiddenSinceIsCredited(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.True(t, h.w.Sees(1, 0))
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	h.flush()
	require.Len(t, received[*wire.RemoteWeaponShot](b), 1)
	// The shooter runs off (a vehicle, a teleport) and is hidden from the victim.
	h.goTo(a, wire.Vec3{X: 1000})
	h.step(260 * time.Millisecond)
	require.False(t, h.w.Sees(1, 0))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 46.2))
	d := h.events(EventPlayerDamage)
	require.Len(t, d, 1)
	require.Equal(t, PlayerID(0), d[0].Other, "credited to the shooter")
	require.Empty(t, h.events(EventReportNotCredited))
}

// massPlayers is how many players TestStreamMassRespawnQueuesAtMostCapEdgesPerLane kills
// and respawns at once; -refserver.mass 10000 runs the 10,000 of a full streaming world
// (about 20 s on this 2-core box).
var massPlayers = flag.Int("refserver.mass", 1000, "players of the mass respawn test (at most MaxPlayers)")

// Rule [stream-edges]: each connection is shown at most Cap others, the nearest first, so a
// mass respawn queues at most Cap critical edges on any lane.
func TestStreamMassRespawnQueuesAtMostCapEdgesPerLane(t *testing.T) {
	n := *massPlayers
	cfg := testConfig()
	cfg.MaxPlayers = n
	cfg.RespawnDelay = time.Millisecond
	h := newHarness(t, cfg)
	for id := range n {
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, PlayerID(id), &wire.Hello{}))
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, PlayerID(id), &wire.RespawnRequest{}))
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, PlayerID(id), &wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true,
			Health: 100, Vehicle: wire.NoVehicle, Position: wire.Vec3{X: float32(id % 100), Y: float32(id / 100)}}))
	}
	for range 20 {
		h.now += 50 * time.Millisecond
		require.NoError(t, h.w.Tick(h.now))
	}
	for id := range n {
		require.LessOrEqual(t, len(h.w.stream.Shown(nil, PlayerID(id))), DefaultStreamCap)
	}
	queued := func() int {
		most := 0
		for id := range n {
			most = max(most, h.w.players[id].ep.Lane().Stats().Queued)
		}
		return most
	}
	before := queued()
	for id := range n {
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, PlayerID(id), &wire.DeathReport{DeathEpoch: 1, Killer: NoPlayer, Weapon: 255}))
	}
	h.now += cfg.RespawnDelay
	for id := range n {
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, PlayerID(id), &wire.RespawnRequest{DeathEpoch: 1}))
	}
	grown := queued() - before
	t.Logf("%d players die and respawn at once: the fullest lane grew by %d messages (Cap %d, lane hard cap %d)", n, grown, DefaultStreamCap, lane.HardCap)
	require.LessOrEqual(t, grown, 2*DefaultStreamCap+2, "a death and a respawn of each shown player, and its own respawn")
	for id := range n {
		require.True(t, h.w.Connected(PlayerID(id)), "nobody overflows")
	}
}

// StreamConfig.Everyone is today's behaviour: everybody sees everybody, whatever the
// distance.
func TestStreamEveryoneSeesEverybodyAtAnyDistance(t *testing.T) {
	cfg := testConfig()
	cfg.Stream.Everyone = true
	h := newHarness(t, cfg)
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	h.goTo(b, wire.Vec3{X: 5000})
	h.evaluate()
	require.True(t, h.w.Sees(0, 1))
	a.reset()
	h.goTo(b, wire.Vec3{X: 5001})
	h.flush()
	require.Equal(t, 1, framesOf(a, 1))
}

func TestStreamConfigOutOfRangeIsRefused(t *testing.T) {
	for _, s := range []StreamConfig{{Distance: -1}, {Cap: -1}, {Every: -time.Second}} {
		cfg := testConfig()
		cfg.Stream = s
		_, err := New(cfg)
		require.True(t, errors.Is(err, ErrConfig), "%+v: %v", s, err)
	}
}

// Leaving hides the player from exactly those that had it shown.
func TestStreamLeaveHidesFromThoseThatHadItShown(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b, c := h.join(0), h.join(1), h.join(2)
	h.spawn(a)
	h.spawn(b)
	h.spawn(c)
	h.goTo(c, wire.Vec3{X: 1000})
	h.evaluate()
	a.reset()
	c.reset()
	require.NoError(t, h.w.Kick(h.now, 1))
	h.flush()
	require.Equal(t, []PlayerID{1}, hiddenIDs(a))
	require.Empty(t, hiddenIDs(c))
	require.Empty(t, shownIDs(c))
}
