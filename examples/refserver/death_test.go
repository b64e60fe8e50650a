package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

// lethal makes a shoot b dead with one credited report (the ledger reaches 0).
func lethal(t *testing.T, h *harness, a, b *tclient) {
	t.Helper()
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, a.weapon, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 100))
	ph, err := h.w.Phase(b.id)
	require.NoError(t, err)
	require.Equal(t, lifecycle.PhaseDying, ph, "the ledger counted the death")
}

func TestDeathReportCommitsOnceWithThePoseAndTheServersKiller(t *testing.T) {
	h, a, b := duel(t, deagle)
	lethal(t, h, a, b)
	// The victim's report names a wrong killer and a pose: the killer is the server's.
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Killer: NoPlayer, Weapon: 54,
		Pose: uint8(lifecycle.PoseShotFace)}))
	require.Equal(t, VerdictIgnored, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Killer: NoPlayer, Weapon: 54}))
	h.flush()
	w := received[*wire.PlayerWasted](a)
	require.Len(t, w, 1)
	require.Equal(t, PlayerID(1), w[0].Player)
	require.Equal(t, PlayerID(0), w[0].Killer)
	require.Equal(t, deagle, w[0].Weapon)
	require.Equal(t, uint8(lifecycle.PoseShotFace), w[0].Pose)
	require.Empty(t, received[*wire.PlayerWasted](b), "not to the victim, which played its death")
	require.Empty(t, received[*wire.SetHealth](b), "no zero after the victim's own report")
	d := h.events(EventPlayerDeath)
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitByReport, d[0].Commit)
	require.Equal(t, PlayerID(0), d[0].Other)
	require.Len(t, h.events(EventDeathReportIgnored), 1)
}

func TestCountedDeathWithoutReportIsCommittedWithCriticalZero(t *testing.T) {
	h, a, b := duel(t, deagle)
	lethal(t, h, a, b)
	// The victim's client never reports its death and does not acknowledge anything yet.
	b.silent = true
	rtt, ok := h.w.RTT(1)
	if !ok {
		rtt = DefaultRTT
	}
	deadline := lifecycle.ReportDeadline(h.now, rtt, false)
	for h.now+100*time.Millisecond < deadline {
		h.step(100 * time.Millisecond)
		require.Empty(t, h.events(EventPlayerDeath))
	}
	h.step(100 * time.Millisecond)
	d := h.events(EventPlayerDeath)
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitByServer, d[0].Commit)
	require.Equal(t, PlayerID(0), d[0].Other, "the killer from the last damage")
	w := received[*wire.PlayerWasted](a)
	require.Len(t, w, 1)
	require.Equal(t, uint8(lifecycle.PoseDefault), w[0].Pose)

	// The respawn waits for the victim's acknowledgement of its critical SetHealth(0).
	h.now += 5 * time.Second
	require.Equal(t, VerdictIgnored, h.w.Handle(h.now, 1, &wire.RespawnRequest{DeathEpoch: b.gen}))
	b.silent = false
	h.flush()
	zeros := received[*wire.SetHealth](b)
	require.Len(t, zeros, 1)
	require.Equal(t, float32(0), zeros[0].Health)
	require.True(t, wire.Critical(zeros[0]))
	h.flush() // the client's acknowledgement reaches the server
	b.alive = false
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.RespawnRequest{DeathEpoch: b.gen}))
	require.Len(t, h.events(EventRespawnGranted), 1)
}

func TestRespawnGrantClearsInventoryAndStartsNewLife(t *testing.T) {
	cfg := testConfig()
	cfg.Loadout = []Loadout{{Weapon: m4, Ammo: 60, Current: true}}
	h := newHarness(t, cfg)
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	require.NoError(t, h.w.GiveWeapon(h.now, 1, deagle, 50, true))
	require.NoError(t, h.w.SetArmor(h.now, 1, 50))
	h.flush()
	require.Equal(t, VerdictAccepted, h.frame(b))
	require.Equal(t, VerdictAccepted, h.hit(b, NoPlayer, 54, wire.Ref{}, 200))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Killer: NoPlayer, Weapon: 54}))
	n, ok, _ := h.w.Ammo(1, deagle)
	require.True(t, ok, "the corpse keeps its weapons")
	require.Equal(t, uint16(50), n)
	oldGen := b.gen
	h.now += 2 * time.Second
	a.reset()
	b.reset()
	h.spawn(b)

	require.NotEqual(t, oldGen, b.gen, "a new generation")
	_, ok, _ = h.w.Ammo(1, deagle)
	require.False(t, ok, "the grant cleared the store")
	n, ok, _ = h.w.Ammo(1, m4)
	require.True(t, ok, "the loadout was given after the clear")
	require.Equal(t, uint16(60), n)
	v, _ := h.w.Vitals(1)
	require.Equal(t, float32(100), v.Health)
	require.Equal(t, float32(0), v.Armor)
	// RespawnPlayer before the loadout on the victim's lane; PlayerSpawned to the others.
	var order []wire.ID
	for _, m := range b.got {
		order = append(order, m.ID())
	}
	require.Less(t, indexOf(order, wire.IDRespawnPlayer), indexOf(order, wire.IDGiveWeapon))
	sp := received[*wire.PlayerSpawned](a)
	require.Len(t, sp, 1)
	require.Equal(t, b.gen, sp[0].DeathEpoch)
	require.True(t, wire.Critical(sp[0]))
	// The first frame of the new life is relayed at or past the barrier.
	h.flush()
	rs := received[*wire.RemotePlayerSync](a)
	require.NotEmpty(t, rs)
	require.False(t, int16(rs[len(rs)-1].SyncSeq-sp[0].SyncSeq) < 0)
	spawns := h.events(EventPlayerSpawn)
	require.False(t, spawns[len(spawns)-1].Connect)
}

func indexOf(ids []wire.ID, id wire.ID) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}

func TestRespawnGrantResetsCombatCorrelation(t *testing.T) {
	h, a, b := duel(t, deagle)
	// A shot of a's old life, relayed to b, then a dies and respawns: b's report of it no
	// longer credits a.
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	seq := a.shotSeq
	require.Equal(t, VerdictAccepted, h.hit(a, NoPlayer, 54, wire.Ref{}, 100))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.DeathReport{DeathEpoch: a.gen, Weapon: 54, Killer: NoPlayer}))
	h.now += 2 * time.Second
	h.spawn(a)
	require.Equal(t, VerdictNoSuchAction, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: seq}, 20))
}

func TestMutualKillBothShotsRelayedBeforeEitherDeathBothDie(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.GiveWeapon(h.now, 1, deagle, 10, true))
	h.flush()
	require.Equal(t, VerdictAccepted, h.frame(b))
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	require.Equal(t, VerdictAccepted, h.shoot(b, wire.Vec3{}, wire.HitPlayer, 0))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 100))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Killer: 0, Weapon: deagle}))
	// b is dead now, but its shot was accepted before: a's report of it is credited.
	require.Equal(t, VerdictAccepted, h.hit(a, 1, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: b.shotSeq}, 100))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.DeathReport{DeathEpoch: a.gen, Killer: 1, Weapon: deagle}))
	d := h.events(EventPlayerDeath)
	require.Len(t, d, 2)
	require.Equal(t, PlayerID(0), d[0].Other)
	require.Equal(t, PlayerID(1), d[1].Other)
	// After the commit the dead player's new shots are refused.
	require.Equal(t, VerdictNotAlive, h.shoot(b, wire.Vec3{}, wire.HitPlayer, 0))
}

func TestLeavingInsideTheDeathWaitLeavesDead(t *testing.T) {
	h, a, b := duel(t, deagle)
	lethal(t, h, a, b)
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.Disconnect{Reason: wire.ReasonQuit}))
	require.False(t, h.w.Connected(1))
	h.flush()
	// The death goes out before the hide.
	var order []wire.ID
	for _, m := range a.got {
		order = append(order, m.ID())
	}
	require.GreaterOrEqual(t, indexOf(order, wire.IDPlayerWasted), 0)
	require.Less(t, indexOf(order, wire.IDPlayerWasted), indexOf(order, wire.IDPlayerHide))
	d := h.events(EventPlayerDeath)
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitOnLeave, d[0].Commit)
	require.Equal(t, PlayerID(0), d[0].Other)
	l := h.events(EventPlayerLeave)
	require.Len(t, l, 1)
	require.Equal(t, wire.ReasonQuit, l[0].Reason)
}

// A teammate is never named killer, even for damage it dealt before the two joined the
// same team (teams' [teammate-never-credited]): a's credited shot is still b's last damage when the two join one
// team, and b's client reports its death right after.
func TestKillerIsNeverATeammateEvenForDamageBeforeJoiningTheTeam(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 40))
	require.NoError(t, h.w.CreateTeam(3, teams.Team{Name: "green"}))
	require.NoError(t, h.w.JoinTeam(0, 3))
	require.NoError(t, h.w.JoinTeam(1, 3))
	last := h.w.players[1].vit.LastDamage()
	require.True(t, last.Valid)
	require.Equal(t, PlayerID(0), last.Attacker, "a's damage is still b's last")
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Killer: 0, Weapon: deagle}))
	d := h.events(EventPlayerDeath)
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitByReport, d[0].Commit)
	require.Equal(t, NoPlayer, d[0].Other)
	h.flush()
	w := received[*wire.PlayerWasted](a)
	require.Len(t, w, 1)
	require.Equal(t, NoPlayer, w[0].Killer)
}

func TestStealthKillCountsTheDeathAndIsRelayedStamped(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.GiveWeapon(h.now, 0, 4, 1, true))
	h.flush()
	claim := &wire.StealthKill{Victim: 1, VictimEpoch: b.gen, DeathEpoch: a.gen, Weapon: 4}
	for range 12 {
		h.now += 100 * time.Millisecond
		require.Equal(t, VerdictAccepted, h.frame(a))
		require.Equal(t, VerdictAccepted, h.frame(b))
	}
	require.Equal(t, VerdictOutOfRange, h.w.Handle(h.now, 0, claim), "10 m away")
	for range 12 {
		h.now += 100 * time.Millisecond
		a.pos = wire.Vec3{X: 9}
		require.Equal(t, VerdictAccepted, h.frame(a))
		require.Equal(t, VerdictAccepted, h.frame(b))
	}
	bad := *claim
	bad.VictimEpoch++
	require.Equal(t, VerdictWrongEpoch, h.w.Handle(h.now, 0, &bad))
	require.NoError(t, h.w.CreateTeam(3, teams.Team{Name: "green"}))
	require.NoError(t, h.w.JoinTeam(0, 3))
	require.NoError(t, h.w.JoinTeam(1, 3))
	require.Equal(t, VerdictTeammate, h.w.Handle(h.now, 0, claim))
	require.NoError(t, h.w.LeaveTeam(1))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, claim))
	h.flush()
	sk := received[*wire.RemoteStealthKill](b)
	require.Len(t, sk, 1)
	require.Equal(t, PlayerID(0), sk[0].Attacker)
	require.Len(t, h.events(EventStealthKill), 1)
	require.Len(t, h.events(EventStealthKillRefused), 3)
	// The wait for the victim's report is 10 s longer: nothing is committed at the plain
	// deadline.
	rtt, ok := h.w.RTT(1)
	if !ok {
		rtt = DefaultRTT
	}
	plain := lifecycle.ReportDeadline(h.now, rtt, false)
	for h.now < plain+time.Second {
		h.step(250 * time.Millisecond)
	}
	require.Empty(t, h.events(EventPlayerDeath))
	ph, _ := h.w.Phase(1)
	require.Equal(t, lifecycle.PhaseDying, ph)
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Killer: 0, Weapon: 4,
		Pose: uint8(lifecycle.PoseKnifeStealth)}))
	d := h.events(EventPlayerDeath)
	require.Len(t, d, 1)
	require.Equal(t, PlayerID(0), d[0].Other)
}

func TestVehicleExplosionSparesTheAuthorsTeammatesAndCountsTheOthers(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b, c, d := h.join(0), h.join(1), h.join(2), h.join(3)
	for _, x := range []*tclient{a, b, c, d} {
		h.spawn(x)
	}
	require.NoError(t, h.w.CreateVehicle(h.now, 1, 560, wire.Vec3{X: 10}, wire.Quat{W: 1})) // four seats
	require.NoError(t, h.w.CreateTeam(5, teams.Team{Name: "team"}))
	require.NoError(t, h.w.JoinTeam(0, 5))
	require.NoError(t, h.w.JoinTeam(2, 5))
	// b drives, c (a's teammate) and d sit in the back.
	for seat, x := range []*tclient{b, c, d} {
		require.Equal(t, VerdictAccepted, h.board(x, 1, uint8(seat), wire.Vec3{X: 10}))
	}
	h.give(a, m4, 100)
	// a's shot claims a hit on the vehicle: a becomes its explosion's author.
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitVehicle, 1))
	h.flush()
	b.reset()
	ex := &wire.VehicleExplode{Vehicle: 1, Attacker: 0, Weapon: 51}
	require.Equal(t, VerdictNotInVehicle, h.w.Handle(h.now, 2, ex), "only the driver reports it")
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, ex))
	require.Equal(t, VerdictWrecked, h.w.Handle(h.now, 1, ex))
	for id, want := range map[PlayerID]lifecycle.Phase{1: lifecycle.PhaseDying, 2: lifecycle.PhaseAlive, 3: lifecycle.PhaseDying} {
		ph, err := h.w.Phase(PlayerID(id))
		require.NoError(t, err)
		require.Equal(t, want, ph, "player %d", id)
	}
	h.flush()
	rx := received[*wire.RemoteVehicleExplode](c)
	require.Len(t, rx, 1)
	require.Equal(t, PlayerID(0), rx[0].Author)
	require.True(t, rx[0].Stamp.Teammate, "c refuses its teammate's explosion")
	ok, wrecked := h.w.VehicleWrecked(1)
	require.True(t, ok)
	require.True(t, wrecked)
	// Leaving the vehicle does not cancel the death: the deadline commits it.
	d.vehicle, d.seat = wire.NoVehicle, 0
	require.Equal(t, VerdictAccepted, h.frame(d))
	for range 40 {
		h.step(100 * time.Millisecond)
	}
	deaths := h.events(EventPlayerDeath)
	require.Len(t, deaths, 2)
	for _, e := range deaths {
		require.Equal(t, PlayerID(0), e.Other)
	}
}

func TestSetHealthZeroKillsThroughTheDeathPath(t *testing.T) {
	h, _, b := duel(t, deagle)
	require.NoError(t, h.w.SetHealth(h.now, 1, 0))
	ph, _ := h.w.Phase(1)
	require.Equal(t, lifecycle.PhaseDying, ph)
	h.flush()
	z := received[*wire.SetHealth](b)
	require.Len(t, z, 1)
	require.True(t, wire.Critical(z[0]))
	require.False(t, b.alive)
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Killer: NoPlayer, Weapon: 255}))
	require.Len(t, h.events(EventPlayerDeath), 1)
	require.ErrorIs(t, h.w.SetHealth(h.now, 1, 50), ErrNotAlive)
}

func TestRespawnPolicyDecidesTheMomentAndThePoint(t *testing.T) {
	h, _, b := duel(t, deagle)
	require.Equal(t, VerdictAccepted, h.hit(b, NoPlayer, 54, wire.Ref{}, 100))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Weapon: 54, Killer: NoPlayer}))
	require.NoError(t, h.w.DecideRespawn(1, b.gen, lifecycle.Hold()))
	h.now += 10 * time.Second
	require.Equal(t, VerdictIgnored, h.w.Handle(h.now, 1, &wire.RespawnRequest{DeathEpoch: b.gen}))
	pt := lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: 100, Y: 5}, Facing: 90}
	require.NoError(t, h.w.DecideRespawn(1, b.gen, lifecycle.AllowAt(h.now).AtPoint(pt)))
	h.step(time.Millisecond) // the remembered request is granted by the tick
	r := received[*wire.RespawnPlayer](b)
	require.NotEmpty(t, r)
	require.Equal(t, wire.Vec3{X: 100, Y: 5}, r[len(r)-1].Position)
	require.InDelta(t, 1.5708, r[len(r)-1].Facing, 0.001, "degrees become radians")
	require.ErrorIs(t, h.w.DecideRespawn(1, b.gen, lifecycle.Hold()), ErrRespawn)
	_ = inventory.Fists
}
