package refserver

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

func TestConfigIsValidatedAtConstruction(t *testing.T) {
	bad := []Config{
		{MaxPlayers: MaxPlayers + 1},
		{MaxPlayers: -1},
		{MaxVehicles: MaxVehicles + 1},
		{RespawnDelay: -time.Second},
		{Loadout: []Loadout{{Weapon: 0, Ammo: 1}}},
		{Loadout: []Loadout{{Weapon: 99, Ammo: 1}}},
		{Loadout: make([]Loadout, inventory.NumSlots+1)},
		{Vitals: vitals.Config{SuspicionRatio: 2}},
		{Rewind: func() Config { var c Config; c.Rewind.NearDistance = -1; return c }().Rewind},
		{SpawnPoint: lifecycle.SpawnPoint{Facing: float32(math.Inf(1))}},
	}
	for i, c := range bad {
		_, err := New(c)
		require.ErrorIs(t, err, ErrConfig, "config %d", i)
	}
	w, err := New(Config{})
	require.NoError(t, err)
	require.Equal(t, DefaultMaxPlayers, w.Config().MaxPlayers)
	require.Equal(t, DefaultMaxVehicles, w.Config().MaxVehicles)
}

func TestEveryVerdictAndEventKindHasAName(t *testing.T) {
	for v := VerdictAccepted; v < verdictEnd; v++ {
		require.NotContains(t, v.String(), "Verdict(", "%d", v)
	}
	require.Equal(t, "Verdict(0)", Verdict(0).String())
	for k := EventPlayerDamage; k < eventKindEnd; k++ {
		require.NotContains(t, k.String(), "EventKind(", "%d", k)
		e := Event{Kind: k, At: time.Second, Player: 1, Other: NoPlayer, Vehicle: NoVehicle}
		require.True(t, strings.HasPrefix(e.String(), "t=1s "+k.String()+" player=1"), e.String())
		require.Equal(t, e.String(), e.String())
	}
	require.False(t, EventPlayerDeath.Diagnostic())
	require.True(t, EventShotRefused.Diagnostic())
}

func TestVehicleExplosionReportsAreCreditedToTheAuthor(t *testing.T) {
	h, a, b := duel(t, m4)
	c := h.join(2)
	h.spawn(c)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, 411, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	b.vehicle = 1
	require.Equal(t, VerdictAccepted, h.frame(b))
	c.pos = wire.Vec3{X: 12}
	require.Equal(t, VerdictAccepted, h.frame(c))
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitVehicle, 1))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.VehicleExplode{Vehicle: 1, Attacker: 0, Weapon: 51}))
	ref := wire.Ref{Kind: wire.RefVehicleExplode, Seq: 1}
	// The occupant's lethal report, and a bystander's blast.
	require.Equal(t, VerdictAccepted, h.hit(b, 0, 51, ref, 100))
	require.Equal(t, VerdictAccepted, h.hit(c, 0, 51, ref, 20))
	d := h.events(EventPlayerDamage)
	require.Len(t, d, 2)
	for _, e := range d {
		require.Equal(t, PlayerID(0), e.Other)
	}
	// A report naming someone else is only an observation.
	require.Equal(t, VerdictAccepted, h.hit(c, 1, 51, ref, 5))
	un := h.events(EventReportUnattributed)
	require.Len(t, un, 1)
	require.Equal(t, VerdictAttackerMismatch, un[0].Verdict)
	// After the window, the explosion is forgotten.
	h.now += ExplosionWindow + time.Millisecond
	require.Equal(t, VerdictAccepted, h.hit(c, 0, 51, ref, 5))
	un = h.events(EventReportUnattributed)
	require.Len(t, un, 2)
	require.Equal(t, VerdictNoSuchAction, un[1].Verdict)
	// A respawned vehicle is whole again.
	require.NoError(t, h.w.RespawnVehicle(h.now, 1, wire.Vec3{X: 30}, wire.Quat{W: 1}))
	_, wrecked := h.w.VehicleWrecked(1)
	require.False(t, wrecked)
}

func TestWeaponSkillSetsTheTierTheFloorUses(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.SetWeaponSkill(h.now, 0, inventory.SkillDesertEagle, inventory.TierStd))
	h.flush()
	sk := received[*wire.SetWeaponSkill](a)
	require.Len(t, sk, 1)
	require.Equal(t, uint8(inventory.SkillDesertEagle-inventory.SkillPistol), sk[0].Skill)
	require.Equal(t, SkillLevelStd, sk[0].Level)
	// Within SkillChangeGrace the floor keeps the lower tier (poor: 70).
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 1))
	hp, _ := h.w.Health(1)
	require.InDelta(t, 100-vitals.BulletFloor(70), hp, 0.001)
	// After it, the standard tier's 140.
	h.now += inventory.SkillChangeGrace + time.Second
	require.Equal(t, VerdictAccepted, h.frame(b))
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 1))
	hp2, _ := h.w.Health(1)
	require.InDelta(t, hp-vitals.BulletFloor(140), hp2, 0.01)
}

func TestFriendlyFireOnMakesTeammatesHurtEachOther(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateTeam(1, teams.Team{Name: "red"}))
	require.NoError(t, h.w.JoinTeam(0, 1))
	require.NoError(t, h.w.JoinTeam(1, 1))
	require.NoError(t, h.w.ChangeTeam(1, teams.Team{Name: "red", FriendlyFire: true}))
	_, g := h.w.Team(1)
	require.Zero(t, g, "friendly fire on: damage group 0")
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 30))
	require.Len(t, h.events(EventPlayerDamage), 1)
	require.NoError(t, h.w.RemoveTeam(1))
	tm, _ := h.w.Team(0)
	require.Equal(t, teams.NoTeam, tm)
}

func TestKickInsideTheDeathWaitLeavesDead(t *testing.T) {
	h, a, b := duel(t, deagle)
	lethal(t, h, a, b)
	require.NoError(t, h.w.Kick(h.now, 1))
	d := h.events(EventPlayerDeath)
	require.Len(t, d, 1)
	require.Equal(t, lifecycle.CommitOnLeave, d[0].Commit)
	l := h.events(EventPlayerLeave)
	require.Len(t, l, 1)
	require.Equal(t, wire.ReasonKicked, l[0].Reason)
	// The slot is free: a new connection gets a new token and an unspawned life.
	tok0, _ := h.w.Token(0)
	c := h.join(1)
	tok1, err := h.w.Token(1)
	require.NoError(t, err)
	require.NotEqual(t, tok0, tok1)
	ph, _ := h.w.Phase(1)
	require.Equal(t, lifecycle.PhaseUnspawned, ph)
	_ = c
}

func TestNextDeadlineFollowsTheLanes(t *testing.T) {
	h, _, b := duel(t, deagle)
	_, has := h.w.NextDeadline()
	require.False(t, has, "everything acknowledged")
	b.silent = true
	require.NoError(t, h.w.SetArmor(h.now, 1, 10))
	h.flush()
	d, has := h.w.NextDeadline()
	require.True(t, has)
	require.Greater(t, d, h.now, "a retransmission is due later")
	st, err := h.w.LaneStats(1)
	require.NoError(t, err)
	require.Equal(t, 1, st.InFlight)
}
