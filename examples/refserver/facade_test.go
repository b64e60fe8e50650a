package refserver

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

func TestFacadeVerbsRefuseBadInputWithNamedErrors(t *testing.T) {
	h, _, _ := duel(t, deagle)
	nan := float32(math.NaN())
	require.NoError(t, h.w.CreateVehicle(h.now, 0, 411, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, h.w.CreateTeam(2, teams.Team{Name: "red"}))
	now := func() time.Duration { return h.now }
	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"set_health of nobody", func() error { return h.w.SetHealth(now(), 9, 50) }, ErrUnknownPlayer},
		{"set_health NaN", func() error { return h.w.SetHealth(now(), 1, nan) }, ErrNotFinite},
		{"set_health above 200", func() error { return h.w.SetHealth(now(), 1, 201) }, ErrOutOfRange},
		{"set_health below 0", func() error { return h.w.SetHealth(now(), 1, -1) }, ErrOutOfRange},
		{"set_armor above 200", func() error { return h.w.SetArmor(now(), 1, 250) }, ErrOutOfRange},
		{"set_armor NaN", func() error { return h.w.SetArmor(now(), 1, nan) }, ErrNotFinite},
		{"add_health of 0", func() error { return h.w.AddHealth(now(), 1, 0, 100) }, ErrOutOfRange},
		{"add_health max above 200", func() error { return h.w.AddHealth(now(), 1, 10, 300) }, ErrOutOfRange},
		{"add_armor Inf", func() error { return h.w.AddArmor(now(), 1, float32(math.Inf(1)), 100) }, ErrNotFinite},
		{"give an unknown weapon", func() error { return h.w.GiveWeapon(now(), 1, 99, 10, true) }, ErrWeapon},
		{"give the fists", func() error { return h.w.GiveWeapon(now(), 1, 0, 10, true) }, ErrWeapon},
		{"take a weapon not owned", func() error { return h.w.TakeWeapon(now(), 1, m4) }, ErrWeapon},
		{"ammo of a weapon not owned", func() error { return h.w.SetWeaponAmmo(now(), 1, m4, 10, 5) }, ErrWeapon},
		{"clip above the total", func() error { return h.w.SetWeaponAmmo(now(), 0, deagle, 5, 7) }, ErrWeapon},
		{"arm a weapon not owned", func() error { return h.w.SetArmedWeapon(now(), 1, m4) }, ErrWeapon},
		{"clear weapons of nobody", func() error { return h.w.ClearWeapons(now(), 9) }, ErrUnknownPlayer},
		{"an unknown skill", func() error { return h.w.SetWeaponSkill(now(), 1, 12, inventory.TierPro) }, ErrWeapon},
		{"a bad tier", func() error { return h.w.SetWeaponSkill(now(), 1, inventory.SkillPistol, 7) }, ErrWeapon},
		{"multiplier above 100", func() error {
			return h.w.SetDamageMultipliers(now(), vitals.Multipliers{Melee: 101, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, Predator: 1})
		}, ErrOutOfRange},
		{"multiplier NaN", func() error {
			return h.w.SetDamageMultipliers(now(), vitals.Multipliers{Melee: nan, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, Predator: 1})
		}, ErrNotFinite},
		{"properties of a knife", func() error { return h.w.SetWeaponProperties(now(), 4, [3]float32{1, 1, 1}, 1) }, ErrWeapon},
		{"properties damage above 1000", func() error { return h.w.SetWeaponProperties(now(), m4, [3]float32{1, 2000, 1}, 90) }, ErrOutOfRange},
		{"properties range 0", func() error { return h.w.SetWeaponProperties(now(), m4, [3]float32{1, 1, 1}, 0) }, ErrOutOfRange},
		{"create a team 0", func() error { return h.w.CreateTeam(0, teams.Team{Name: "x"}) }, ErrTeam},
		{"a team without a name", func() error { return h.w.CreateTeam(1, teams.Team{}) }, ErrTeam},
		{"join a team that does not exist", func() error { return h.w.JoinTeam(1, 44) }, ErrTeam},
		{"join a team as nobody", func() error { return h.w.JoinTeam(9, 44) }, ErrUnknownPlayer},
		{"remove a team that does not exist", func() error { return h.w.RemoveTeam(44) }, ErrTeam},
		{"friendly fire of no team", func() error { return h.w.SetFriendlyFire(44, true) }, ErrTeam},
		{"change a team that does not exist", func() error { return h.w.ChangeTeam(44, teams.Team{Name: "x"}) }, ErrTeam},
		{"change a team to no name", func() error { return h.w.ChangeTeam(2, teams.Team{}) }, ErrTeam},
		{"leave a team as nobody", func() error { return h.w.LeaveTeam(9) }, ErrUnknownPlayer},
		{"decide the respawn of nobody", func() error { return h.w.DecideRespawn(9, 0, lifecycle.Hold()) }, ErrUnknownPlayer},
		{"decide the respawn of a living player", func() error { return h.w.DecideRespawn(1, 1, lifecycle.Hold()) }, ErrRespawn},
		{"a spawn point beyond the map", func() error {
			return h.w.SetSpawnPoint(1, lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: 1e9}})
		}, ErrOutOfRange},
		{"an explosion by nobody", func() error {
			_, err := h.w.CreateExplosion(now(), 9, 0, wire.Vec3{}, 5)
			return err
		}, ErrUnknownPlayer},
		{"an explosion of radius 0", func() error {
			_, err := h.w.CreateExplosion(now(), NoPlayer, 0, wire.Vec3{}, 0)
			return err
		}, ErrOutOfRange},
		{"a fire at NaN", func() error {
			_, err := h.w.CreateFire(now(), NoPlayer, wire.Vec3{X: nan}, 1)
			return err
		}, ErrNotFinite},
		{"a vehicle slot out of range", func() error { return h.w.CreateVehicle(now(), 99, 411, wire.Vec3{}, wire.Quat{W: 1}) }, ErrUnknownVehicle},
		{"a vehicle twice", func() error { return h.w.CreateVehicle(now(), 0, 411, wire.Vec3{}, wire.Quat{W: 1}) }, ErrVehicleExists},
		{"a zero rotation", func() error { return h.w.CreateVehicle(now(), 1, 411, wire.Vec3{}, wire.Quat{}) }, ErrOutOfRange},
		{"move a vehicle that does not exist", func() error { return h.w.MoveVehicle(now(), 5, wire.Vec3{}, wire.Quat{W: 1}) }, ErrUnknownVehicle},
		{"move a vehicle to NaN", func() error { return h.w.MoveVehicle(now(), 0, wire.Vec3{Z: nan}, wire.Quat{W: 1}) }, ErrNotFinite},
		{"respawn a vehicle that does not exist", func() error { return h.w.RespawnVehicle(now(), 5, wire.Vec3{}, wire.Quat{W: 1}) }, ErrUnknownVehicle},
		{"freeze a vehicle that does not exist", func() error { return h.w.FreezeVehicle(now(), 5, true) }, ErrUnknownVehicle},
		{"teleport to Inf", func() error {
			return h.w.SetPlayerPosition(now(), 1, wire.Vec3{Y: float32(math.Inf(-1))}, 0)
		}, ErrNotFinite},
		{"a command from the past", func() error { return h.w.SetHealth(now()-time.Second, 1, 50) }, ErrClockBackwards},
		{"kick nobody", func() error { return h.w.Kick(now(), 9) }, ErrUnknownPlayer},
	}
	for _, tc := range cases {
		before := h.w.Stats().Commands
		ledger, _ := h.w.Vitals(1)
		slots, _ := h.w.Weapons(1)
		err := tc.call()
		require.Error(t, err, tc.name)
		require.True(t, errors.Is(err, tc.want), "%s: %v", tc.name, err)
		require.Equal(t, before, h.w.Stats().Commands, "%s: nothing committed", tc.name)
		after, _ := h.w.Vitals(1)
		require.Equal(t, ledger, after, tc.name)
		slots2, _ := h.w.Weapons(1)
		require.Equal(t, slots, slots2, tc.name)
	}
	require.Len(t, h.events(EventCommandRefused), len(cases)-1, "every refusal but the kick is an event")
	def, ok := h.w.Teams().Team(2)
	require.True(t, ok)
	require.Equal(t, teams.Team{Name: "red"}, def, "a refused change_team leaves the team as it was")
	require.Equal(t, 1, h.w.Teams().TeamCount(), "no refused verb created or removed a team")
}

func TestFacadeErrorsWrapTheDecidingPackagesError(t *testing.T) {
	h, _, _ := duel(t, deagle)
	err := h.w.TakeWeapon(h.now, 1, m4)
	require.ErrorIs(t, err, ErrWeapon)
	require.ErrorIs(t, err, inventory.ErrNotOwned)
	err = h.w.SetHealth(h.now, 1, 300)
	require.ErrorIs(t, err, vitals.ErrOutOfRange)
	err = h.w.JoinTeam(1, 44)
	require.ErrorIs(t, err, teams.ErrUnknownTeam)
}

func TestHealthCommandsNeedALifeTheServerCounts(t *testing.T) {
	h := newHarness(t, testConfig())
	a := h.join(0)
	require.ErrorIs(t, h.w.SetHealth(h.now, 0, 50), ErrNotAlive, "not spawned")
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.RespawnRequest{}))
	h.flush()
	require.ErrorIs(t, h.w.AddHealth(h.now, 0, 5, 100), ErrNotAlive, "granted, no living frame yet")
	require.Equal(t, VerdictAccepted, h.frame(a))
	require.NoError(t, h.w.AddHealth(h.now, 0, 5, 100))
	// Weapon commands are taken in any state: the spawn loadout comes before the first frame.
	require.NoError(t, h.w.GiveWeapon(h.now, 0, m4, 10, false))
}

func TestCommandIsCommittedOnlyWhenQueued(t *testing.T) {
	h, a, b := duel(t, deagle)
	b.silent = true
	// Fill b's lane to its soft cap with ordinary commands it never acknowledges.
	var err error
	n := 0
	for err == nil {
		err = h.w.SetArmedWeapon(h.now, 1, inventory.Fists)
		n++
	}
	require.ErrorIs(t, err, ErrLaneFull)
	require.ErrorIs(t, err, lane.ErrSoftCap)
	ledger, _ := h.w.Vitals(1)
	require.ErrorIs(t, h.w.SetHealth(h.now, 1, 20), ErrLaneFull)
	after, _ := h.w.Vitals(1)
	require.Equal(t, ledger, after, "the refused set_health left no trace")
	require.ErrorIs(t, h.w.GiveWeapon(h.now, 1, m4, 10, true), ErrLaneFull)
	_, ok, _ := h.w.Ammo(1, m4)
	require.False(t, ok)
	// A world-wide command is refused whole when one lane cannot take it.
	_, err = h.w.CreateExplosion(h.now, NoPlayer, 0, wire.Vec3{}, 5)
	require.ErrorIs(t, err, ErrLaneFull)
	h.flush()
	require.Empty(t, received[*wire.CreateExplosion](a), "nobody got it")
	// The critical zero still goes: set_health(0) is never refused by the soft cap.
	require.NoError(t, h.w.SetHealth(h.now, 1, 0))
}

func TestHealthCommandAcknowledgementIsRoutedToVitals(t *testing.T) {
	h, _, b := duel(t, deagle)
	b.silent = true
	require.NoError(t, h.w.SetHealth(h.now, 1, 50))
	// A frame created before the client took the command (old vital_rev, 100 health) does
	// not touch the ledger and raises no flag while the command is unsettled.
	f := b.frameMsg()
	f.Health = 100
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, f))
	require.Empty(t, h.events(EventGodMode))
	// The client acknowledges (its lane delivers) but keeps echoing the old revision: 2 s
	// after the acknowledgement the command is settled and the stale raise is cut.
	b.silent = false
	h.flush()
	h.flush()
	b.vitalRev-- // a client that never echoes
	h.now += vitals.AckGrace + time.Millisecond
	f = b.frameMsg()
	f.Health = 100
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, f))
	require.Len(t, h.events(EventGodMode), 1)
	hp, _ := h.w.Health(1)
	require.Equal(t, float32(50), hp)
}

func TestSetThenAddKeepsTheirOrderOnTheLane(t *testing.T) {
	h, _, b := duel(t, deagle)
	require.NoError(t, h.w.SetHealth(h.now, 1, 50))
	require.NoError(t, h.w.AddHealth(h.now, 1, 25, 100))
	hp, _ := h.w.Health(1)
	require.Equal(t, float32(75), hp)
	h.flush()
	require.Equal(t, float32(75), b.health, "the client applied them in order")
	require.Equal(t, VerdictAccepted, h.frame(b))
	require.Empty(t, h.events(EventGodMode))
}

func TestMultipliersGoToEveryConnectionAndToJoiners(t *testing.T) {
	h, a, b := duel(t, deagle)
	m := vitals.Multipliers{Melee: 2, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 0.5, Predator: 1}
	require.NoError(t, h.w.SetDamageMultipliers(h.now, m))
	h.flush()
	for _, c := range []*tclient{a, b} {
		dm := received[*wire.DamageMultipliers](c)
		require.Len(t, dm, 1)
		require.Equal(t, float32(2), dm[0].Melee)
		require.Equal(t, float32(0.5), dm[0].Explosion)
	}
	c := h.join(2)
	dm := received[*wire.DamageMultipliers](c)
	require.Len(t, dm, 1)
	require.Equal(t, float32(2), dm[0].Melee)
}

func TestWeaponPropertiesReachEveryConnectionAndJoinersWithTheCurrentRevision(t *testing.T) {
	h, a, _ := duel(t, deagle)
	require.NoError(t, h.w.SetWeaponProperties(h.now, m4, [3]float32{20, 40, 60}, 100))
	h.flush()
	wp := received[*wire.WeaponProperties](a)
	require.Len(t, wp, 1)
	rev := h.w.catalog.Revision()
	require.Equal(t, rev, wp[0].Rev)
	require.Equal(t, float32(40), wp[0].DamageStd)
	c := h.join(2)
	wp = received[*wire.WeaponProperties](c)
	require.Len(t, wp, 1, "only the weapon that differs from the default table")
	require.Equal(t, m4, wp[0].Weapon)
	require.Equal(t, rev, wp[0].Rev)
	// Changed back: nothing differs, but a joiner still learns the revision its shots name.
	require.NoError(t, h.w.SetWeaponProperties(h.now, m4, [3]float32{30, 30, 30}, 90))
	d := h.join(3)
	wp = received[*wire.WeaponProperties](d)
	require.Len(t, wp, 1)
	require.Equal(t, h.w.catalog.Revision(), wp[0].Rev)
}

func TestGamemodeEffectsAreCappedAndStampedPerRecipient(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateTeam(2, teams.Team{Name: "t"}))
	require.NoError(t, h.w.JoinTeam(0, 2))
	require.NoError(t, h.w.JoinTeam(1, 2))
	_, err := h.w.CreateFire(h.now, 0, wire.Vec3{}, 2)
	require.NoError(t, err)
	h.flush()
	fa, fb := received[*wire.CreateFire](a), received[*wire.CreateFire](b)
	require.Len(t, fa, 1)
	require.Len(t, fb, 1)
	require.False(t, fa[0].Stamp.Teammate, "a creator is never its own teammate")
	require.True(t, fb[0].Stamp.Teammate)
	n := 1
	for ; n < MaxEffects; n++ {
		_, err := h.w.CreateExplosion(h.now, NoPlayer, 0, wire.Vec3{}, 1)
		require.NoError(t, err)
		if n%100 == 0 {
			h.flush()
		}
	}
	h.flush()
	_, err = h.w.CreateExplosion(h.now, NoPlayer, 0, wire.Vec3{}, 1)
	require.ErrorIs(t, err, ErrTooManyEffects)
	h.now += FireLifetime + ExplosionWindow + time.Millisecond
	_, err = h.w.CreateExplosion(h.now, NoPlayer, 0, wire.Vec3{}, 1)
	require.NoError(t, err)
}

func TestVehicleMovesAndFreezesGoToEveryConnection(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 2, 411, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, h.w.MoveVehicle(h.now, 2, wire.Vec3{X: 50}, wire.Quat{W: 1}))
	require.NoError(t, h.w.FreezeVehicle(h.now, 2, true))
	require.NoError(t, h.w.SetPlayerPosition(h.now, 0, wire.Vec3{Y: 30}, 1))
	h.flush()
	for _, c := range []*tclient{a, b} {
		require.Len(t, received[*wire.SetVehiclePose](c), 1)
		require.Len(t, received[*wire.SetVehicleFrozen](c), 1)
	}
	require.Len(t, received[*wire.SetPlayerPosition](a), 1)
	require.Empty(t, received[*wire.SetPlayerPosition](b))
	pos, err := h.w.rw.PlayerAt(h.now, 0)
	require.NoError(t, err)
	require.Equal(t, float32(30), pos.Y, "the history starts anew at the teleport")
}

func TestReadbacksFollowTheStore(t *testing.T) {
	h, _, b := duel(t, deagle)
	require.NoError(t, h.w.GiveWeapon(h.now, 1, m4, 90, true))
	require.NoError(t, h.w.SetWeaponAmmo(h.now, 1, m4, 40, inventory.ClipNotSet))
	held, err := h.w.HeldWeapon(1)
	require.NoError(t, err)
	require.Equal(t, m4, held)
	n, ok, err := h.w.Ammo(1, m4)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, uint16(40), n)
	require.NoError(t, h.w.TakeWeapon(h.now, 1, m4))
	require.NoError(t, h.w.ClearWeapons(h.now, 1))
	slots, err := h.w.Weapons(1)
	require.NoError(t, err)
	for _, s := range slots {
		require.Zero(t, s.Total)
	}
	h.flush()
	require.Equal(t, h.w.players[1].inv.Rev(), b.weaponRev, "the client echoes the last revision")
	tm, g := h.w.Team(1)
	require.Equal(t, teams.NoTeam, tm)
	require.Zero(t, g)
}
