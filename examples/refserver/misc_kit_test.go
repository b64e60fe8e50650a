package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

const explosionCause uint8 = 51

func TestVehicleExplosionReportsAreCreditedToTheAuthor(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, m4, 0, 3)
	a, b, c := r[0], r[1], r[2]
	srv := k.Server()
	require.NoError(t, srv.CreateVehicle(k.Now(), 1, 411, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.PlayerSync{Seq: 3, DeathEpoch: 1, Alive: true, Health: 100,
		Vehicle: 1, Position: wire.Vec3{X: 10}})), "b drives car 1")
	require.Equal(t, refserver.VerdictAccepted, must(t)(c.Send(&wire.PlayerSync{Seq: 2, DeathEpoch: 1, Alive: true, Health: 100,
		Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 12}})))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, m4, wire.Vec3{X: 10}, wire.HitVehicle, 1))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.VehicleExplode{Vehicle: 1, Attacker: a.ID(), Weapon: explosionCause})))
	ref := wire.Ref{Kind: wire.RefVehicleExplode, Seq: 1}
	// The occupant's lethal report, and a bystander's blast.
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(report(1, 0, a.ID(), explosionCause, ref, 100, 0, 100))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(c.Send(report(1, 0, a.ID(), explosionCause, ref, 100, 0, 20))))
	require.NoError(t, k.Advance(10*time.Millisecond)) // the events are drained at the server's tick
	var d []refserver.Event
	for _, id := range []refserver.PlayerID{b.ID(), c.ID()} {
		d = append(d, eventsOf(k, refserver.EventPlayerDamage, id)...)
	}
	require.Len(t, d, 2)
	for _, e := range d {
		require.Equal(t, a.ID(), e.Other)
	}
	// A report naming someone else is only an observation.
	require.Equal(t, refserver.VerdictAccepted, must(t)(c.Send(report(2, 0, b.ID(), explosionCause, ref, 80, 0, 5))))
	require.NoError(t, k.Advance(10*time.Millisecond))
	un := eventsOf(k, refserver.EventReportUnattributed, c.ID())
	require.Len(t, un, 1)
	require.Equal(t, refserver.VerdictAttackerMismatch, un[0].Verdict)
	// After the window, the explosion is forgotten.
	require.NoError(t, k.Advance(refserver.ExplosionWindow+10*time.Millisecond))
	require.Equal(t, refserver.VerdictAccepted, must(t)(c.Send(report(3, 0, a.ID(), explosionCause, ref, 75, 0, 5))))
	require.NoError(t, k.Advance(10*time.Millisecond))
	un = eventsOf(k, refserver.EventReportUnattributed, c.ID())
	require.Len(t, un, 2)
	require.Equal(t, refserver.VerdictNoSuchAction, un[1].Verdict)
	// A respawned vehicle is whole again.
	_, wrecked := srv.VehicleWrecked(1)
	require.True(t, wrecked)
	require.NoError(t, srv.RespawnVehicle(k.Now(), 1, wire.Vec3{X: 30}, wire.Quat{W: 1}))
	_, wrecked = srv.VehicleWrecked(1)
	require.False(t, wrecked)
}

func TestWeaponSkillSetsTheTierTheFloorUses(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	srv := k.Server()
	require.NoError(t, srv.SetWeaponSkill(k.Now(), a.ID(), inventory.SkillDesertEagle, inventory.TierStd))
	require.NoError(t, k.Advance(20*time.Millisecond))
	var sk []*wire.SetWeaponSkill
	for _, m := range a.Received() {
		if s, ok := m.(*wire.SetWeaponSkill); ok {
			sk = append(sk, s)
		}
	}
	require.Len(t, sk, 1)
	require.Equal(t, uint8(inventory.SkillDesertEagle-inventory.SkillPistol), sk[0].Skill)
	require.Equal(t, refserver.SkillLevelStd, sk[0].Level)
	// Within SkillChangeGrace the floor keeps the lower tier (poor: 70).
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, deagle, wire.Vec3{X: 10}, wire.HitPlayer, b.ID()))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(report(1, 0, a.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, 100, 0, 1))))
	hp, _ := srv.Health(b.ID())
	require.InDelta(t, 100-vitals.BulletFloor(70), hp, 0.001)
	// After it, the standard tier's 140.
	require.NoError(t, k.Advance(inventory.SkillChangeGrace+time.Second))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.PlayerSync{Seq: 3, DeathEpoch: 1, Alive: true, Health: hp,
		DamageSeq: 1, Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 10}})))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(2, deagle, wire.Vec3{X: 10}, wire.HitPlayer, b.ID()))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(report(2, 0, a.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: 2}, 99, 0, 1))))
	hp2, _ := srv.Health(b.ID())
	require.InDelta(t, hp-vitals.BulletFloor(140), hp2, 0.01)
}

func TestFriendlyFireOnMakesTeammatesHurtEachOther(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	srv := k.Server()
	const red teams.TeamID = 5 // the bystanders are on teams 1 and 2
	require.NoError(t, srv.CreateTeam(red, teams.Team{Name: "red"}))
	require.NoError(t, srv.JoinTeam(a.ID(), red))
	require.NoError(t, srv.JoinTeam(b.ID(), red))
	require.NoError(t, srv.ChangeTeam(red, teams.Team{Name: "red", FriendlyFire: true}))
	_, g := srv.Team(b.ID())
	require.Zero(t, g, "friendly fire on: damage group 0")
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, deagle, wire.Vec3{X: 10}, wire.HitPlayer, b.ID()))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(report(1, 0, a.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, 100, 0, 30))))
	require.NoError(t, k.Advance(10*time.Millisecond))
	require.Len(t, eventsOf(k, refserver.EventPlayerDamage, b.ID()), 1)
	require.NoError(t, srv.RemoveTeam(red))
	tm, _ := srv.Team(a.ID())
	require.Equal(t, teams.NoTeam, tm)
}

func TestKickInsideTheDeathWaitLeavesDead(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	srv := k.Server()
	lethal(t, k, a, b, deagle)
	tok0, err := srv.Token(b.ID())
	require.NoError(t, err)
	require.NoError(t, srv.Kick(k.Now(), b.ID()))
	require.NoError(t, k.Advance(20*time.Millisecond))
	d := eventsOf(k, refserver.EventPlayerDeath, b.ID())
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitOnLeave, d[0].Commit)
	l := eventsOf(k, refserver.EventPlayerLeave, b.ID())
	require.Len(t, l, 1)
	require.Equal(t, wire.ReasonKicked, l[0].Reason)
	// The slot is free: a new connection gets a new token and an unspawned life.
	require.NoError(t, b.Rejoin())
	tok1, err := srv.Token(b.ID())
	require.NoError(t, err)
	require.NotEqual(t, tok0, tok1)
	ph, _ := srv.Phase(b.ID())
	require.Equal(t, lifecycle.PhaseUnspawned, ph)
}

func TestNextDeadlineFollowsTheLanes(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	b := r[1]
	srv := k.Server()
	require.NoError(t, k.Advance(time.Second))
	_, has := srv.NextDeadline()
	require.False(t, has, "everything acknowledged")
	b.SetSilent(true)
	require.NoError(t, srv.SetArmor(k.Now(), b.ID(), 10))
	require.NoError(t, k.Advance(10*time.Millisecond))
	d, has := srv.NextDeadline()
	require.True(t, has)
	require.Greater(t, d, k.Now(), "a retransmission is due later")
	st, err := srv.LaneStats(b.ID())
	require.NoError(t, err)
	require.Equal(t, 1, st.InFlight)
}
