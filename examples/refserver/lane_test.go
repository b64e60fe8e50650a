package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

func TestLethalReportAndDeathReportTravelTheLaneInOrder(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	// The victim's client queues its lethal report and its DeathReport on its lane.
	b.dmgSeq++
	_, err := b.ep.Queue(h.now, &wire.DamageReport{DamageSeq: b.dmgSeq, Attacker: 0, Weapon: deagle, BodyPart: wire.BodyHead,
		Ref: wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, HealthBefore: 100, HealthAfter: 0, Loss: 100})
	require.NoError(t, err)
	_, err = b.ep.Queue(h.now, &wire.DeathReport{DeathEpoch: b.gen, Killer: 0, Weapon: deagle, Pose: uint8(lifecycle.PoseShotFace)})
	require.NoError(t, err)
	h.flush()
	d := h.events(EventPlayerDeath)
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitByReport, d[0].Commit)
	require.Equal(t, PlayerID(0), d[0].Other)
	require.Equal(t, lifecycle.PoseShotFace, d[0].Pose)
	require.Len(t, h.events(EventPlayerDamage), 1)
}

func TestDuplicatedReportDatagramSpendsNoCredit(t *testing.T) {
	h, a, b := duel(t, shotgun)
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	r := &wire.DamageReport{DamageSeq: 1, Attacker: 0, Weapon: shotgun, BodyPart: wire.BodyTorso,
		Ref: wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, HealthBefore: 100, HealthAfter: 96, Loss: 4}
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, r))
	require.Equal(t, VerdictDuplicate, h.w.Handle(h.now, 1, r), "the same datagram again")
	require.Empty(t, h.events(EventReportNotCredited))
	rec := h.w.players[0].shots[int(a.shotSeq)%MaxShotCredits]
	require.Equal(t, uint8(1), rec.victims[0].used, "one credit for one report")
	_ = b
}

func TestShowsBeyondTheLaneBudgetAreSentAsTheLaneDrains(t *testing.T) {
	cfg := testConfig()
	cfg.MaxPlayers = ShowBacklogRoom + 40
	cfg.Stream.Everyone = true // everybody sees everybody: more shows than the lane's budget
	h := newHarness(t, cfg)
	for id := 1; id < cfg.MaxPlayers; id++ {
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, PlayerID(id), &wire.Hello{}))
	}
	c := h.join(0)
	shows := received[*wire.PlayerShow](c)
	require.Less(t, len(shows), cfg.MaxPlayers-1, "the newcomer's lane keeps room")
	require.Positive(t, h.w.players[0].nUnshown)
	// A subject not shown yet sends the newcomer no frames and no edges.
	last := uint16(cfg.MaxPlayers - 1)
	require.False(t, h.w.players[0].sees(PlayerID(last)))
	// Its commands still find room.
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.RespawnRequest{}))
	for range 10 {
		h.step(50 * time.Millisecond)
	}
	require.Zero(t, h.w.players[0].nUnshown)
	shows = received[*wire.PlayerShow](c)
	require.Len(t, shows, cfg.MaxPlayers-1, "everybody shown, once")
	require.True(t, h.w.players[0].sees(PlayerID(last)))
}

func TestCriticalEdgeToALaneBeyondItsHardCapDisconnects(t *testing.T) {
	cfg := testConfig()
	cfg.RespawnDelay = time.Nanosecond
	h := newHarness(t, cfg)
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	c := h.join(2)
	h.spawn(c)
	c.silent = true
	// Every death and respawn of the others is a critical edge on c's lane; c never
	// acknowledges, so its queue grows to the hard cap and c is disconnected. (Each of the
	// two sends a frame every 40 ms, within FrameRate.)
	for i := 0; i < 700 && h.w.Connected(2); i++ {
		x := []*tclient{a, b}[i%2]
		require.NoError(t, h.w.SetHealth(h.now, x.id, 0))
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, x.id, &wire.DeathReport{DeathEpoch: x.gen, Killer: NoPlayer, Weapon: 255}))
		h.now += 20 * time.Millisecond
		x.alive = false
		h.flush()
		h.spawn(x)
	}
	require.False(t, h.w.Connected(2))
	l := h.events(EventPlayerLeave)
	require.NotEmpty(t, l)
	require.Equal(t, wire.ReasonOverflow, l[len(l)-1].Reason)
}

// The event queue holds at most MaxPendingEvents; diagnostics stop at MaxPendingEvents -
// RecordEventReserve, so the records' events always find the reserve; the drops are
// counted.
func TestEventsAreCappedAndTheDropsCounted(t *testing.T) {
	h := newHarness(t, testConfig())
	for range MaxPendingEvents {
		h.w.raise(Event{Kind: EventPlayerJoin, Player: 1, Other: NoPlayer, Vehicle: NoVehicle})
	}
	require.Len(t, h.w.events, MaxPendingEvents-RecordEventReserve)
	require.Equal(t, uint64(RecordEventReserve), h.w.Stats().EventsDropped)
	for range RecordEventReserve + 10 {
		h.w.raise(Event{Kind: EventPlayerDeath, Player: 1, Other: NoPlayer, Vehicle: NoVehicle})
	}
	ev := h.w.Events(nil)
	require.Len(t, ev, MaxPendingEvents)
	require.Equal(t, EventPlayerDeath, ev[len(ev)-1].Kind, "the reserve took the records' events")
	require.Equal(t, uint64(RecordEventReserve+10), h.w.Stats().EventsDropped)
}

func TestRelayIsStampedAtTheRelationItWasAcceptedUnder(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateTeam(4, teams.Team{Name: "t"}))
	require.NoError(t, h.w.JoinTeam(0, 4))
	require.NoError(t, h.w.JoinTeam(1, 4))
	rev := h.w.teams.Rev()
	require.Equal(t, VerdictAccepted, h.frame(a))
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: -10}, wire.HitNone, 0))
	// A team change before the Flush: what was accepted keeps the stamp it was accepted with.
	require.NoError(t, h.w.LeaveTeam(1))
	h.flush()
	rs := received[*wire.RemotePlayerSync](b)
	require.Len(t, rs, 1)
	require.Equal(t, wire.Stamp{Teammate: true, Rev: rev}, rs[0].Stamp)
	sh := received[*wire.RemoteWeaponShot](b)
	require.Len(t, sh, 1)
	require.Equal(t, wire.Stamp{Teammate: true, Rev: rev}, sh[0].Stamp)
	// The next frame carries the new relation.
	b.reset()
	require.Equal(t, VerdictAccepted, h.frame(a))
	h.flush()
	rs = received[*wire.RemotePlayerSync](b)
	require.Len(t, rs, 1)
	require.Equal(t, wire.Stamp{Teammate: false, Rev: h.w.teams.Rev()}, rs[0].Stamp)
}

func TestRepeatedRespawnRequestBeforeTheFirstLivingFrameGetsTheSameGrant(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(b)
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.RespawnRequest{}))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.RespawnRequest{}))
	h.flush()
	r := received[*wire.RespawnPlayer](a)
	require.Len(t, r, 2)
	require.Equal(t, r[0], r[1], "the same generation and point")
	require.Len(t, received[*wire.PlayerSpawned](b), 1, "one edge")
	require.Len(t, h.events(EventRespawnGranted), 2, "one grant each")
}

// Rule (lifecycle's [show-current-state]): a recipient that does not see the subject gets no edges; its next show
// builds the copy from the current state. Two subjects the newcomer's lane has no room to
// show yet die; one of them is granted a respawn before either is shown.
func TestUnshownSubjectSendsNoEdgesAndItsShowCarriesTheCurrentLife(t *testing.T) {
	cfg := testConfig()
	cfg.MaxPlayers = ShowBacklogRoom + 40
	cfg.Stream.Everyone = true // everybody sees everybody: more shows than the lane's budget
	cfg.RespawnDelay = time.Millisecond
	h := newHarness(t, cfg)
	for id := 1; id < cfg.MaxPlayers; id++ {
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, PlayerID(id), &wire.Hello{}))
	}
	c := h.join(0)
	respawned, corpse := PlayerID(cfg.MaxPlayers-1), PlayerID(cfg.MaxPlayers-2)
	require.False(t, h.w.players[0].sees(PlayerID(respawned)))
	require.False(t, h.w.players[0].sees(PlayerID(corpse)))

	// Both subjects spawn and die by their own reports (their clients are raw connections:
	// the test speaks for them).
	for _, s := range []PlayerID{respawned, corpse} {
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, PlayerID(s), &wire.RespawnRequest{DeathEpoch: 0}), "connect spawn of %d", s)
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, PlayerID(s), &wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true,
			Health: 100, Vehicle: wire.NoVehicle}), "first living frame of %d", s)
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, PlayerID(s), &wire.DeathReport{DeathEpoch: 1, Killer: NoPlayer, Weapon: 255,
			Pose: uint8(lifecycle.PoseDrown)}), "death of %d", s)
	}
	h.now += cfg.RespawnDelay
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, PlayerID(respawned), &wire.RespawnRequest{DeathEpoch: 1}))
	h.flush()
	require.Len(t, h.events(EventPlayerDeath), 2)
	require.Len(t, h.events(EventRespawnGranted), 3, "two connect spawns and one respawn")
	require.False(t, h.w.players[0].sees(PlayerID(respawned)), "still not shown")
	require.False(t, h.w.players[0].sees(PlayerID(corpse)), "still not shown")

	// Let the lane drain until everybody is shown.
	for range 10 {
		h.step(50 * time.Millisecond)
	}
	require.Zero(t, h.w.players[0].nUnshown)
	for _, m := range received[*wire.PlayerWasted](c) {
		require.NotContains(t, []PlayerID{respawned, corpse}, m.Player, "PlayerWasted of a subject the newcomer did not see")
	}
	for _, m := range received[*wire.PlayerSpawned](c) {
		require.NotContains(t, []PlayerID{respawned, corpse}, m.Player, "PlayerSpawned of a subject the newcomer did not see")
	}
	shows := map[PlayerID]*wire.PlayerShow{}
	for _, m := range received[*wire.PlayerShow](c) {
		require.NotContains(t, shows, m.Player, "one show per subject")
		shows[m.Player] = m
	}
	require.Contains(t, shows, respawned)
	require.Contains(t, shows, corpse)

	// The shows carry each subject's life as it stands now.
	for _, s := range []PlayerID{respawned, corpse} {
		snap, err := h.w.life.Snapshot(s)
		require.NoError(t, err)
		require.Equal(t, snap.Alive, shows[s].Alive, "player %d", s)
		require.Equal(t, uint16(snap.Gen), shows[s].DeathEpoch, "player %d", s)
	}
	require.True(t, shows[respawned].Alive, "granted life 2: shown alive")
	require.Equal(t, uint16(2), shows[respawned].DeathEpoch)
	require.Positive(t, shows[respawned].Health)
	require.False(t, shows[corpse].Alive, "shown lying dead")
	require.Equal(t, uint16(1), shows[corpse].DeathEpoch)
	require.Zero(t, shows[corpse].Health)
	require.Equal(t, uint8(lifecycle.PoseDrown), shows[corpse].Pose, "in the pose its death was reported with")
	require.Zero(t, shows[respawned].Pose, "a living player has no death pose")
}
