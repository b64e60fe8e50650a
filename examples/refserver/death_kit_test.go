package refserver_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

const (
	knife     uint8 = 4
	causeFall uint8 = 54
)

func TestDeathReportCommitsOnceWithThePoseAndTheServersKiller(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	lethal(t, k, a, b, deagle)
	// The victim's report names a wrong killer and a pose: the killer is the server's.
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.DeathReport{DeathEpoch: 1, Killer: refserver.NoPlayer, Weapon: 54,
		Pose: uint8(lifecycle.PoseShotFace)})))
	require.Equal(t, refserver.VerdictIgnored, must(t)(b.Send(&wire.DeathReport{DeathEpoch: 1, Killer: refserver.NoPlayer, Weapon: 54})))
	tick(t, k)
	w := receivedOf[*wire.PlayerWasted](a)
	require.Len(t, w, 1)
	require.Equal(t, b.ID(), w[0].Player)
	require.Equal(t, a.ID(), w[0].Killer)
	require.Equal(t, deagle, w[0].Weapon)
	require.Equal(t, uint8(lifecycle.PoseShotFace), w[0].Pose)
	require.Empty(t, receivedOf[*wire.PlayerWasted](b), "not to the victim, which played its death")
	require.Empty(t, receivedOf[*wire.SetHealth](b), "no zero after the victim's own report")
	d := eventsOf(k, refserver.EventPlayerDeath, b.ID())
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitByReport, d[0].Commit)
	require.Equal(t, a.ID(), d[0].Other)
	require.Len(t, eventsOf(k, refserver.EventDeathReportIgnored, b.ID()), 1)
}

func TestCountedDeathWithoutReportIsCommittedWithCriticalZero(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	srv := k.Server()
	lethal(t, k, a, b, deagle)
	// The victim's client never reports its death and does not acknowledge anything yet.
	b.SetSilent(true)
	rtt, ok := srv.RTT(b.ID())
	if !ok {
		rtt = refserver.DefaultRTT
	}
	deadline := lifecycle.ReportDeadline(k.Now(), rtt, false)
	for k.Now()+100*time.Millisecond < deadline {
		require.NoError(t, k.Advance(100*time.Millisecond))
		require.Empty(t, eventsOf(k, refserver.EventPlayerDeath, b.ID()))
	}
	require.NoError(t, k.Advance(100*time.Millisecond))
	d := eventsOf(k, refserver.EventPlayerDeath, b.ID())
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitByServer, d[0].Commit)
	require.Equal(t, a.ID(), d[0].Other, "the killer from the last damage")
	w := receivedOf[*wire.PlayerWasted](a)
	require.Len(t, w, 1)
	require.Equal(t, uint8(lifecycle.PoseDefault), w[0].Pose)

	// The respawn waits for the victim's acknowledgement of its critical SetHealth(0).
	require.NoError(t, k.Advance(5*time.Second))
	require.Equal(t, refserver.VerdictIgnored, must(t)(b.Send(&wire.RespawnRequest{DeathEpoch: 1})))
	b.SetSilent(false)
	require.NoError(t, k.Advance(time.Second)) // the retransmission arrives, its acknowledgement goes back
	zeros := receivedOf[*wire.SetHealth](b)
	require.Len(t, zeros, 1)
	require.Equal(t, float32(0), zeros[0].Health)
	require.True(t, wire.Critical(zeros[0]))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.RespawnRequest{DeathEpoch: 1})))
	tick(t, k)
	granted := 0
	for _, e := range eventsOf(k, refserver.EventRespawnGranted, b.ID()) {
		if !e.Connect {
			granted++
		}
	}
	require.Equal(t, 1, granted)
}

func TestRespawnGrantClearsInventoryAndStartsNewLife(t *testing.T) {
	k, r := rawKit(t, refserver.Config{Loadout: []refserver.Loadout{{Weapon: m4, Ammo: 60, Current: true}}}, 0, 2)
	a, b := r[0], r[1]
	srv := k.Server()
	require.NoError(t, srv.GiveWeapon(k.Now(), b.ID(), deagle, 50, true))
	require.NoError(t, srv.SetArmor(k.Now(), b.ID(), 50))
	tick(t, k)
	give, _ := lastOf[*wire.GiveWeapon](b)
	armor, _ := lastOf[*wire.SetArmor](b)
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.PlayerSync{Seq: 2, DeathEpoch: 1, Alive: true, Health: 100, Armor: 50,
		VitalRev: armor.Rev, WeaponRev: give.Rev, Weapon: deagle, Clip: 7, Total: 50, Vehicle: wire.NoVehicle})))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(report(1, armor.Rev, refserver.NoPlayer, causeFall, wire.Ref{}, 100, 50, 200))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.DeathReport{DeathEpoch: 1, Killer: refserver.NoPlayer, Weapon: causeFall})))
	n, ok, _ := srv.Ammo(b.ID(), deagle)
	require.True(t, ok, "the corpse keeps its weapons")
	require.Equal(t, uint16(50), n)
	require.NoError(t, k.Advance(2*time.Second))
	a.Clear()
	b.Clear()
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.RespawnRequest{DeathEpoch: 1})))
	tick(t, k)
	sp, ok := lastOf[*wire.RespawnPlayer](b)
	require.True(t, ok)
	require.Equal(t, uint16(2), sp.DeathEpoch, "a new generation")
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.PlayerSync{Seq: 3, DeathEpoch: 2, Alive: true, Health: 100,
		Vehicle: wire.NoVehicle, Position: sp.Position})))

	_, ok, _ = srv.Ammo(b.ID(), deagle)
	require.False(t, ok, "the grant cleared the store")
	n, ok, _ = srv.Ammo(b.ID(), m4)
	require.True(t, ok, "the loadout was given after the clear")
	require.Equal(t, uint16(60), n)
	v, _ := srv.Vitals(b.ID())
	require.Equal(t, float32(100), v.Health)
	require.Equal(t, float32(0), v.Armor)
	// RespawnPlayer before the loadout on the victim's lane; PlayerSpawned to the others.
	order := ids(b)
	require.Less(t, slices.Index(order, wire.IDRespawnPlayer), slices.Index(order, wire.IDGiveWeapon))
	var spawned []*wire.PlayerSpawned
	for _, m := range receivedOf[*wire.PlayerSpawned](a) {
		if m.Player == b.ID() {
			spawned = append(spawned, m)
		}
	}
	require.Len(t, spawned, 1)
	require.Equal(t, uint16(2), spawned[0].DeathEpoch)
	require.True(t, wire.Critical(spawned[0]))
	// The first frame of the new life is relayed at or past the barrier.
	tick(t, k)
	var rs []*wire.RemotePlayerSync
	for _, m := range receivedOf[*wire.RemotePlayerSync](a) {
		if m.Player == b.ID() {
			rs = append(rs, m)
		}
	}
	require.NotEmpty(t, rs)
	require.False(t, int16(rs[len(rs)-1].SyncSeq-spawned[0].SyncSeq) < 0)
	spawns := eventsOf(k, refserver.EventPlayerSpawn, b.ID())
	require.False(t, spawns[len(spawns)-1].Connect)
}

func TestRespawnGrantResetsCombatCorrelation(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	// A shot of a's old life, relayed to b, then a dies and respawns: b's report of it no
	// longer credits a.
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, deagle, wire.Vec3{X: 10}, wire.HitPlayer, b.ID()))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(report(1, 0, refserver.NoPlayer, causeFall, wire.Ref{}, 100, 0, 100))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.DeathReport{DeathEpoch: 1, Weapon: causeFall, Killer: refserver.NoPlayer})))
	require.NoError(t, k.Advance(2*time.Second))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.RespawnRequest{DeathEpoch: 1})))
	tick(t, k)
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.PlayerSync{Seq: 3, DeathEpoch: 2, Alive: true, Health: 100,
		Vehicle: wire.NoVehicle})))
	require.Equal(t, refserver.VerdictNoSuchAction, must(t)(b.Send(report(1, 0, a.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, 100, 0, 20))))
}

func TestMutualKillBothShotsRelayedBeforeEitherDeathBothDie(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	require.NoError(t, k.Server().GiveWeapon(k.Now(), b.ID(), deagle, 10, true))
	tick(t, k)
	give, _ := lastOf[*wire.GiveWeapon](b)
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.PlayerSync{Seq: 3, DeathEpoch: 1, Alive: true, Health: 100,
		WeaponRev: give.Rev, Weapon: deagle, Clip: 7, Total: 10, Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 10}})))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, deagle, wire.Vec3{X: 10}, wire.HitPlayer, b.ID()))))
	bShot := shot(1, deagle, wire.Vec3{}, wire.HitPlayer, a.ID())
	bShot.Origin = wire.Vec3{X: 10}
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(bShot)))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(report(1, 0, a.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, 100, 0, 100))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.DeathReport{DeathEpoch: 1, Killer: a.ID(), Weapon: deagle})))
	// b is dead now, but its shot was accepted before: a's report of it is credited.
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(report(1, 0, b.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, 100, 0, 100))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.DeathReport{DeathEpoch: 1, Killer: b.ID(), Weapon: deagle})))
	tick(t, k)
	d := append(eventsOf(k, refserver.EventPlayerDeath, b.ID()), eventsOf(k, refserver.EventPlayerDeath, a.ID())...)
	require.Len(t, d, 2)
	require.Equal(t, a.ID(), d[0].Other)
	require.Equal(t, b.ID(), d[1].Other)
	// After the commit the dead player's new shots are refused.
	bShot.ShotSeq = 2
	require.Equal(t, refserver.VerdictNotAlive, must(t)(b.Send(bShot)))
}

func TestLeavingInsideTheDeathWaitLeavesDead(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	lethal(t, k, a, b, deagle)
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.Disconnect{Reason: wire.ReasonQuit})))
	require.False(t, k.Server().Connected(b.ID()))
	tick(t, k)
	// The death goes out before the hide.
	order := ids(a)
	require.GreaterOrEqual(t, slices.Index(order, wire.IDPlayerWasted), 0)
	require.Less(t, slices.Index(order, wire.IDPlayerWasted), slices.Index(order, wire.IDPlayerHide))
	d := eventsOf(k, refserver.EventPlayerDeath, b.ID())
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitOnLeave, d[0].Commit)
	require.Equal(t, a.ID(), d[0].Other)
	l := eventsOf(k, refserver.EventPlayerLeave, b.ID())
	require.Len(t, l, 1)
	require.Equal(t, wire.ReasonQuit, l[0].Reason)
}

// A teammate is never named killer, even for damage it dealt before the two joined the
// same team (teams' [teammate-never-credited]): a's credited shot is still b's last damage when the two join one
// team, and b's client reports its death right after.
func TestKillerIsNeverATeammateEvenForDamageBeforeJoiningTheTeam(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	srv := k.Server()
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, deagle, wire.Vec3{X: 10}, wire.HitPlayer, b.ID()))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(report(1, 0, a.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, 100, 0, 40))))
	const green teams.TeamID = 5 // the bystanders are on teams 1 and 2
	require.NoError(t, srv.CreateTeam(green, teams.Team{Name: "green"}))
	require.NoError(t, srv.JoinTeam(a.ID(), green))
	require.NoError(t, srv.JoinTeam(b.ID(), green))
	last := refserver.LastDamageOf(srv, b.ID())
	require.True(t, last.Valid)
	require.Equal(t, a.ID(), last.Attacker, "a's damage is still b's last")
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.DeathReport{DeathEpoch: 1, Killer: a.ID(), Weapon: deagle})))
	tick(t, k)
	d := eventsOf(k, refserver.EventPlayerDeath, b.ID())
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitByReport, d[0].Commit)
	require.Equal(t, refserver.NoPlayer, d[0].Other)
	w := receivedOf[*wire.PlayerWasted](a)
	require.Len(t, w, 1)
	require.Equal(t, refserver.NoPlayer, w[0].Killer)
}

func TestStealthKillCountsTheDeathAndIsRelayedStamped(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	srv := k.Server()
	require.NoError(t, srv.GiveWeapon(k.Now(), a.ID(), knife, 1, true))
	tick(t, k)
	give, _ := lastOf[*wire.GiveWeapon](a)
	claim := &wire.StealthKill{Victim: b.ID(), VictimEpoch: 1, DeathEpoch: 1, Weapon: knife}
	seq := uint16(2)
	frames := func(ax float32) {
		t.Helper()
		for range 12 {
			require.NoError(t, k.Advance(100*time.Millisecond))
			seq++
			require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.PlayerSync{Seq: seq, DeathEpoch: 1, Alive: true, Health: 100,
				WeaponRev: give.Rev, Weapon: knife, Vehicle: wire.NoVehicle, Position: wire.Vec3{X: ax}})))
			require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.PlayerSync{Seq: seq, DeathEpoch: 1, Alive: true, Health: 100,
				Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 10}})))
		}
	}
	frames(0)
	require.Equal(t, refserver.VerdictOutOfRange, must(t)(a.Send(claim)), "10 m away")
	frames(9)
	bad := *claim
	bad.VictimEpoch++
	require.Equal(t, refserver.VerdictWrongEpoch, must(t)(a.Send(&bad)))
	const green teams.TeamID = 5
	require.NoError(t, srv.CreateTeam(green, teams.Team{Name: "green"}))
	require.NoError(t, srv.JoinTeam(a.ID(), green))
	require.NoError(t, srv.JoinTeam(b.ID(), green))
	require.Equal(t, refserver.VerdictTeammate, must(t)(a.Send(claim)))
	require.NoError(t, srv.LeaveTeam(b.ID()))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(claim)))
	tick(t, k)
	sk := receivedOf[*wire.RemoteStealthKill](b)
	require.Len(t, sk, 1)
	require.Equal(t, a.ID(), sk[0].Attacker)
	require.Len(t, eventsOf(k, refserver.EventStealthKill, b.ID()), 1)
	require.Len(t, eventsOf(k, refserver.EventStealthKillRefused, b.ID()), 3)
	// The wait for the victim's report is 10 s longer: nothing is committed at the plain
	// deadline.
	rtt, ok := srv.RTT(b.ID())
	if !ok {
		rtt = refserver.DefaultRTT
	}
	plain := lifecycle.ReportDeadline(k.Now(), rtt, false)
	for k.Now() < plain+time.Second {
		require.NoError(t, k.Advance(250*time.Millisecond))
	}
	require.Empty(t, eventsOf(k, refserver.EventPlayerDeath, b.ID()))
	ph, _ := srv.Phase(b.ID())
	require.Equal(t, lifecycle.PhaseDying, ph)
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.DeathReport{DeathEpoch: 1, Killer: a.ID(), Weapon: knife,
		Pose: uint8(lifecycle.PoseKnifeStealth)})))
	tick(t, k)
	d := eventsOf(k, refserver.EventPlayerDeath, b.ID())
	require.Len(t, d, 1)
	require.Equal(t, a.ID(), d[0].Other)
}

func TestVehicleExplosionSparesTheAuthorsTeammatesAndCountsTheOthers(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, m4, 0, 4)
	a, b, c, d := r[0], r[1], r[2], r[3]
	srv := k.Server()
	require.NoError(t, srv.CreateVehicle(k.Now(), 1, 560, wire.Vec3{X: 10}, wire.Quat{W: 1})) // four seats
	const team teams.TeamID = 5
	require.NoError(t, srv.CreateTeam(team, teams.Team{Name: "team"}))
	require.NoError(t, srv.JoinTeam(a.ID(), team))
	require.NoError(t, srv.JoinTeam(c.ID(), team))
	// b drives, c (a's teammate) and d sit in the back: each walks to the door, then sits.
	for seat, x := range r[1:] {
		require.Equal(t, refserver.VerdictAccepted, must(t)(x.Send(&wire.PlayerSync{Seq: 3, DeathEpoch: 1, Alive: true,
			Health: 100, Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 10}})))
		require.Equal(t, refserver.VerdictAccepted, must(t)(x.Send(&wire.PlayerSync{Seq: 4, DeathEpoch: 1, Alive: true,
			Health: 100, Vehicle: 1, Seat: uint8(seat), Position: wire.Vec3{X: 10}})))
	}
	// a's shot claims a hit on the vehicle: a becomes its explosion's author.
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, m4, wire.Vec3{X: 10}, wire.HitVehicle, 1))))
	tick(t, k)
	c.Clear()
	ex := &wire.VehicleExplode{Vehicle: 1, Attacker: a.ID(), Weapon: explosionCause}
	require.Equal(t, refserver.VerdictNotInVehicle, must(t)(c.Send(ex)), "only the driver reports it")
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(ex)))
	require.Equal(t, refserver.VerdictWrecked, must(t)(b.Send(ex)))
	for _, tc := range []struct {
		id   refserver.PlayerID
		want lifecycle.Phase
	}{{b.ID(), lifecycle.PhaseDying}, {c.ID(), lifecycle.PhaseAlive}, {d.ID(), lifecycle.PhaseDying}} {
		ph, err := srv.Phase(tc.id)
		require.NoError(t, err)
		require.Equal(t, tc.want, ph, "player %d", tc.id)
	}
	tick(t, k)
	rx := receivedOf[*wire.RemoteVehicleExplode](c)
	require.Len(t, rx, 1)
	require.Equal(t, a.ID(), rx[0].Author)
	require.True(t, rx[0].Stamp.Teammate, "c refuses its teammate's explosion")
	ok, wrecked := srv.VehicleWrecked(1)
	require.True(t, ok)
	require.True(t, wrecked)
	// Leaving the vehicle does not cancel the death: the deadline commits it.
	require.Equal(t, refserver.VerdictAccepted, must(t)(d.Send(&wire.PlayerSync{Seq: 5, DeathEpoch: 1, Alive: true, Health: 100,
		Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 10}})))
	require.NoError(t, k.Advance(4*time.Second))
	deaths := append(eventsOf(k, refserver.EventPlayerDeath, b.ID()), eventsOf(k, refserver.EventPlayerDeath, d.ID())...)
	require.Empty(t, eventsOf(k, refserver.EventPlayerDeath, c.ID()))
	require.Len(t, deaths, 2)
	for _, e := range deaths {
		require.Equal(t, a.ID(), e.Other)
	}
}

func TestSetHealthZeroKillsThroughTheDeathPath(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	b := r[1]
	srv := k.Server()
	require.NoError(t, srv.SetHealth(k.Now(), b.ID(), 0))
	ph, _ := srv.Phase(b.ID())
	require.Equal(t, lifecycle.PhaseDying, ph)
	tick(t, k)
	z := receivedOf[*wire.SetHealth](b)
	require.Len(t, z, 1)
	require.True(t, wire.Critical(z[0]))
	require.Zero(t, z[0].Health)
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.DeathReport{DeathEpoch: 1, Killer: refserver.NoPlayer, Weapon: 255})))
	tick(t, k)
	require.Len(t, eventsOf(k, refserver.EventPlayerDeath, b.ID()), 1)
	require.ErrorIs(t, srv.SetHealth(k.Now(), b.ID(), 50), refserver.ErrNotAlive)
}

func TestRespawnPolicyDecidesTheMomentAndThePoint(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	b := r[1]
	srv := k.Server()
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(report(1, 0, refserver.NoPlayer, causeFall, wire.Ref{}, 100, 0, 100))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.DeathReport{DeathEpoch: 1, Weapon: causeFall, Killer: refserver.NoPlayer})))
	require.NoError(t, srv.DecideRespawn(b.ID(), 1, lifecycle.Hold()))
	require.NoError(t, k.Advance(10*time.Second))
	require.Equal(t, refserver.VerdictIgnored, must(t)(b.Send(&wire.RespawnRequest{DeathEpoch: 1})))
	pt := lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: 100, Y: 5}, Facing: 90}
	require.NoError(t, srv.DecideRespawn(b.ID(), 1, lifecycle.AllowAt(k.Now()).AtPoint(pt)))
	tick(t, k) // the remembered request is granted by the tick
	sp := receivedOf[*wire.RespawnPlayer](b)
	require.NotEmpty(t, sp)
	require.Equal(t, wire.Vec3{X: 100, Y: 5}, sp[len(sp)-1].Position)
	require.InDelta(t, 1.5708, sp[len(sp)-1].Facing, 0.001, "degrees become radians")
	require.ErrorIs(t, srv.DecideRespawn(b.ID(), 1, lifecycle.Hold()), refserver.ErrRespawn)
}
