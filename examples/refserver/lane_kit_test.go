package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

const shotgun uint8 = 25

func TestLethalReportAndDeathReportTravelTheLaneInOrder(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, deagle, wire.Vec3{X: 10}, wire.HitPlayer, b.ID()))))
	// The victim's client queues its lethal report and its DeathReport on its lane.
	_, err := b.Endpoint().Queue(k.Now(), &wire.DamageReport{DamageSeq: 1, Attacker: a.ID(), Weapon: deagle, BodyPart: wire.BodyHead,
		Ref: wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, HealthBefore: 100, HealthAfter: 0, Loss: 100})
	require.NoError(t, err)
	_, err = b.Endpoint().Queue(k.Now(), &wire.DeathReport{DeathEpoch: 1, Killer: a.ID(), Weapon: deagle, Pose: uint8(lifecycle.PoseShotFace)})
	require.NoError(t, err)
	tick(t, k)
	tick(t, k)
	d := eventsOf(k, refserver.EventPlayerDeath, b.ID())
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitByReport, d[0].Commit)
	require.Equal(t, a.ID(), d[0].Other)
	require.Equal(t, lifecycle.PoseShotFace, d[0].Pose)
	require.Len(t, eventsOf(k, refserver.EventPlayerDamage, b.ID()), 1)
}

func TestDuplicatedReportDatagramSpendsNoCredit(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, shotgun, 0, 2)
	a, b := r[0], r[1]
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, shotgun, wire.Vec3{X: 10}, wire.HitPlayer, b.ID()))))
	rep := &wire.DamageReport{DamageSeq: 1, Attacker: a.ID(), Weapon: shotgun, BodyPart: wire.BodyTorso,
		Ref: wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, HealthBefore: 100, HealthAfter: 96, Loss: 4}
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(rep)))
	require.Equal(t, refserver.VerdictDuplicate, must(t)(b.Send(rep)), "the same datagram again")
	tick(t, k)
	require.Empty(t, eventsOf(k, refserver.EventReportNotCredited, b.ID()))
	require.Equal(t, uint8(1), refserver.ShotCreditUsedOf(k.Server(), a.ID(), 1), "one credit for one report")
}

// crowd starts a kit of max slots: the two bystanders and max-3 raw connections that
// joined (and did nothing else), then c joins last, on the last slot, into the crowd.
func crowd(t *testing.T, max int, respawnDelay time.Duration) (k *simkit.Kit, others []*simkit.Raw, c *simkit.Raw) {
	t.Helper()
	// Everybody sees everybody (StreamConfig.Everyone): more shows than the lane's budget.
	k = simkit.New(simkit.Config{Seed: 1, Server: refserver.Config{MaxPlayers: max, RespawnDelay: respawnDelay, Loadout: []refserver.Loadout{},
		Stream: refserver.StreamConfig{Everyone: true}}})
	_, _ = k.Join("bystander1", simkit.Link{})
	_, _ = k.Join("bystander2", simkit.Link{})
	for i := 2; i < max-1; i++ {
		r, err := k.JoinRaw("other")
		require.NoError(t, err)
		others = append(others, r)
	}
	require.NoError(t, k.Start())
	c, err := k.JoinRaw("c")
	require.NoError(t, err)
	require.Equal(t, refserver.PlayerID(max-1), c.ID())
	return k, others, c
}

func TestShowsBeyondTheLaneBudgetAreSentAsTheLaneDrains(t *testing.T) {
	max := refserver.ShowBacklogRoom + 40
	k, _, c := crowd(t, max, time.Second)
	w := k.Server()
	require.NoError(t, k.Advance(0))
	unshown, _ := refserver.UnshownOf(w, c.ID(), 0)
	require.Positive(t, unshown)
	// A subject not shown yet sends the newcomer no frames and no edges: the last one
	// to have joined before it.
	last := refserver.PlayerID(max - 2)
	_, sees := refserver.UnshownOf(w, c.ID(), last)
	require.False(t, sees)
	// Its commands still find room.
	require.Equal(t, refserver.VerdictAccepted, must(t)(c.Send(&wire.RespawnRequest{})))
	tick(t, k)
	require.Less(t, len(receivedOf[*wire.PlayerShow](c)), max-1, "the newcomer's lane keeps room")
	require.NoError(t, k.Advance(500*time.Millisecond))
	unshown, sees = refserver.UnshownOf(w, c.ID(), last)
	require.Zero(t, unshown)
	require.Len(t, receivedOf[*wire.PlayerShow](c), max-1, "everybody shown, once")
	require.True(t, sees)
}

func TestCriticalEdgeToALaneBeyondItsHardCapDisconnects(t *testing.T) {
	k, r := rawKit(t, refserver.Config{RespawnDelay: time.Nanosecond}, 0, 3)
	w := k.Server()
	c := r[2]
	c.SetSilent(true)
	// Every death and respawn of the others is a critical edge on c's lane; c never
	// acknowledges, so its queue grows to the hard cap and c is disconnected. (Each of the
	// two sends a frame every 40 ms, within FrameRate.)
	gens := []uint16{1, 1}
	seqs := []uint16{1, 1}
	for i := 0; i < 700 && w.Connected(c.ID()); i++ {
		j := i % 2
		x := r[j]
		require.NoError(t, w.SetHealth(k.Now(), x.ID(), 0))
		require.Equal(t, refserver.VerdictAccepted, must(t)(x.Send(&wire.DeathReport{DeathEpoch: gens[j], Killer: refserver.NoPlayer, Weapon: 255})))
		tick(t, k)
		require.Equal(t, refserver.VerdictAccepted, must(t)(x.Send(&wire.RespawnRequest{DeathEpoch: gens[j]})), "respawn of %d", i)
		tick(t, k) // 20 ms an edge pair, as each of the two players frames every 40 ms
		sp, ok := lastOf[*wire.RespawnPlayer](x)
		require.True(t, ok)
		require.Equal(t, gens[j]+1, sp.DeathEpoch)
		gens[j] = sp.DeathEpoch
		x.Clear()
		seqs[j]++
		require.Equal(t, refserver.VerdictAccepted, must(t)(x.Send(&wire.PlayerSync{Seq: seqs[j], DeathEpoch: gens[j], Alive: true,
			Health: 100, Vehicle: wire.NoVehicle, Position: sp.Position})))
	}
	require.False(t, w.Connected(c.ID()))
	tick(t, k)
	l := eventsOf(k, refserver.EventPlayerLeave, c.ID())
	require.NotEmpty(t, l)
	require.Equal(t, wire.ReasonOverflow, l[len(l)-1].Reason, "%v", l)
}

func TestRelayIsStampedAtTheRelationItWasAcceptedUnder(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	w := k.Server()
	const team teams.TeamID = 4
	require.NoError(t, w.CreateTeam(team, teams.Team{Name: "t"}))
	require.NoError(t, w.JoinTeam(a.ID(), team))
	require.NoError(t, w.JoinTeam(b.ID(), team))
	tick(t, k)
	b.Clear()
	rev := w.Teams().Rev()
	frame := func(seq uint16) *wire.PlayerSync {
		return &wire.PlayerSync{Seq: seq, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: wire.NoVehicle, Weapon: deagle, Clip: 50, Total: 100}
	}
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(frame(3))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, deagle, wire.Vec3{X: -10}, wire.HitNone, 0))))
	// A team change before the Flush: what was accepted keeps the stamp it was accepted with.
	require.NoError(t, w.LeaveTeam(b.ID()))
	tick(t, k)
	rs := about[*wire.RemotePlayerSync](b, a.ID())
	require.Len(t, rs, 1)
	require.Equal(t, wire.Stamp{Teammate: true, Rev: rev}, rs[0].Stamp)
	sh := receivedOf[*wire.RemoteWeaponShot](b)
	require.Len(t, sh, 1)
	require.Equal(t, wire.Stamp{Teammate: true, Rev: rev}, sh[0].Stamp)
	// The next frame carries the new relation.
	b.Clear()
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(frame(4))))
	tick(t, k)
	rs = about[*wire.RemotePlayerSync](b, a.ID())
	require.Len(t, rs, 1)
	require.Equal(t, wire.Stamp{Teammate: false, Rev: w.Teams().Rev()}, rs[0].Stamp)
}

func TestRepeatedRespawnRequestBeforeTheFirstLivingFrameGetsTheSameGrant(t *testing.T) {
	k, r := joinedKit(t, 2, 0)
	a, b := r[0], r[1]
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.RespawnRequest{})))
	tick(t, k)
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true, Health: 100,
		Vehicle: wire.NoVehicle})))
	tick(t, k)
	b.Clear()
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.RespawnRequest{})))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.RespawnRequest{})))
	tick(t, k)
	rs := receivedOf[*wire.RespawnPlayer](a)
	require.Len(t, rs, 2)
	require.Equal(t, rs[0], rs[1], "the same generation and point")
	require.Len(t, about[*wire.PlayerSpawned](b, a.ID()), 1, "one edge")
	require.Len(t, eventsOf(k, refserver.EventRespawnGranted, a.ID()), 1, "one grant each")
	require.Len(t, eventsOf(k, refserver.EventRespawnGranted, b.ID()), 1, "one grant each")
}

// Rule (lifecycle's [show-current-state]): a recipient that does not see the subject gets no edges; its next show
// builds the copy from the current state. Two subjects the newcomer's lane has no room to
// show yet die; one of them is granted a respawn before either is shown.
func TestUnshownSubjectSendsNoEdgesAndItsShowCarriesTheCurrentLife(t *testing.T) {
	max := refserver.ShowBacklogRoom + 40
	k, others, c := crowd(t, max, time.Millisecond)
	w := k.Server()
	respawned, corpse := others[len(others)-1], others[len(others)-2]
	for _, s := range []*simkit.Raw{respawned, corpse} {
		_, sees := refserver.UnshownOf(w, c.ID(), s.ID())
		require.False(t, sees)
	}

	// Both subjects spawn and die by their own reports.
	for _, s := range []*simkit.Raw{respawned, corpse} {
		require.Equal(t, refserver.VerdictAccepted, must(t)(s.Send(&wire.RespawnRequest{DeathEpoch: 0})), "connect spawn of %d", s.ID())
		require.Equal(t, refserver.VerdictAccepted, must(t)(s.Send(&wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true,
			Health: 100, Vehicle: wire.NoVehicle})), "first living frame of %d", s.ID())
		require.Equal(t, refserver.VerdictAccepted, must(t)(s.Send(&wire.DeathReport{DeathEpoch: 1, Killer: refserver.NoPlayer, Weapon: 255,
			Pose: uint8(lifecycle.PoseDrown)})), "death of %d", s.ID())
	}
	require.NoError(t, k.Advance(time.Millisecond))
	require.Equal(t, refserver.VerdictAccepted, must(t)(respawned.Send(&wire.RespawnRequest{DeathEpoch: 1})))
	tick(t, k)
	require.Len(t, eventsOf(k, refserver.EventPlayerDeath, respawned.ID()), 1)
	require.Len(t, eventsOf(k, refserver.EventPlayerDeath, corpse.ID()), 1)
	require.Len(t, eventsOf(k, refserver.EventRespawnGranted, respawned.ID()), 2, "its connect spawn and its respawn")
	require.Len(t, eventsOf(k, refserver.EventRespawnGranted, corpse.ID()), 1)
	for _, s := range []*simkit.Raw{respawned, corpse} {
		_, sees := refserver.UnshownOf(w, c.ID(), s.ID())
		require.False(t, sees, "still not shown")
	}

	// Let the lane drain until everybody is shown.
	require.NoError(t, k.Advance(500*time.Millisecond))
	unshown, _ := refserver.UnshownOf(w, c.ID(), 0)
	require.Zero(t, unshown)
	subjects := []refserver.PlayerID{respawned.ID(), corpse.ID()}
	for _, m := range receivedOf[*wire.PlayerWasted](c) {
		require.NotContains(t, subjects, m.Player, "PlayerWasted of a subject the newcomer did not see")
	}
	for _, m := range receivedOf[*wire.PlayerSpawned](c) {
		require.NotContains(t, subjects, m.Player, "PlayerSpawned of a subject the newcomer did not see")
	}
	shows := map[refserver.PlayerID]*wire.PlayerShow{}
	for _, m := range receivedOf[*wire.PlayerShow](c) {
		require.NotContains(t, shows, m.Player, "one show per subject")
		shows[m.Player] = m
	}
	require.Contains(t, shows, respawned.ID())
	require.Contains(t, shows, corpse.ID())

	// The shows carry each subject's life as it stands now.
	for _, s := range subjects {
		alive, gen, err := refserver.SnapshotOf(w, s)
		require.NoError(t, err)
		require.Equal(t, alive, shows[s].Alive, "player %d", s)
		require.Equal(t, gen, shows[s].DeathEpoch, "player %d", s)
	}
	rs, cs := shows[respawned.ID()], shows[corpse.ID()]
	require.True(t, rs.Alive, "granted life 2: shown alive")
	require.Equal(t, uint16(2), rs.DeathEpoch)
	require.Positive(t, rs.Health)
	require.False(t, cs.Alive, "shown lying dead")
	require.Equal(t, uint16(1), cs.DeathEpoch)
	require.Zero(t, cs.Health)
	require.Equal(t, uint8(lifecycle.PoseDrown), cs.Pose, "in the pose its death was reported with")
	require.Zero(t, rs.Pose, "a living player has no death pose")
}
