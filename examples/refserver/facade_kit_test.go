package refserver_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// nobody is a player slot no connection holds.
const nobody refserver.PlayerID = 9

func TestFacadeVerbsRefuseBadInputWithNamedErrors(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0].ID(), r[1].ID()
	w := k.Server()
	nan := float32(math.NaN())
	const red teams.TeamID = 3 // the bystanders are on teams 1 and 2
	teamsBefore := w.Teams().TeamCount()
	require.NoError(t, w.CreateVehicle(k.Now(), 4, 411, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, w.CreateTeam(red, teams.Team{Name: "red"}))
	tick(t, k)
	refusedBefore := len(k.EventsOf(refserver.EventCommandRefused))
	now := func() time.Duration { return k.Now() }
	cases := []struct {
		name string
		call func() error
		want error
	}{
		{"set_health of nobody", func() error { return w.SetHealth(now(), nobody, 50) }, refserver.ErrUnknownPlayer},
		{"set_health NaN", func() error { return w.SetHealth(now(), b, nan) }, refserver.ErrNotFinite},
		{"set_health above 200", func() error { return w.SetHealth(now(), b, 201) }, refserver.ErrOutOfRange},
		{"set_health below 0", func() error { return w.SetHealth(now(), b, -1) }, refserver.ErrOutOfRange},
		{"set_armor above 200", func() error { return w.SetArmor(now(), b, 250) }, refserver.ErrOutOfRange},
		{"set_armor NaN", func() error { return w.SetArmor(now(), b, nan) }, refserver.ErrNotFinite},
		{"add_health of 0", func() error { return w.AddHealth(now(), b, 0, 100) }, refserver.ErrOutOfRange},
		{"add_health max above 200", func() error { return w.AddHealth(now(), b, 10, 300) }, refserver.ErrOutOfRange},
		{"add_armor Inf", func() error { return w.AddArmor(now(), b, float32(math.Inf(1)), 100) }, refserver.ErrNotFinite},
		{"give an unknown weapon", func() error { return w.GiveWeapon(now(), b, 99, 10, true) }, refserver.ErrWeapon},
		{"give the fists", func() error { return w.GiveWeapon(now(), b, 0, 10, true) }, refserver.ErrWeapon},
		{"take a weapon not owned", func() error { return w.TakeWeapon(now(), b, m4) }, refserver.ErrWeapon},
		{"ammo of a weapon not owned", func() error { return w.SetWeaponAmmo(now(), b, m4, 10, 5) }, refserver.ErrWeapon},
		{"clip above the total", func() error { return w.SetWeaponAmmo(now(), a, deagle, 5, 7) }, refserver.ErrWeapon},
		{"arm a weapon not owned", func() error { return w.SetArmedWeapon(now(), b, m4) }, refserver.ErrWeapon},
		{"clear weapons of nobody", func() error { return w.ClearWeapons(now(), nobody) }, refserver.ErrUnknownPlayer},
		{"an unknown skill", func() error { return w.SetWeaponSkill(now(), b, 12, inventory.TierPro) }, refserver.ErrWeapon},
		{"a bad tier", func() error { return w.SetWeaponSkill(now(), b, inventory.SkillPistol, 7) }, refserver.ErrWeapon},
		{"multiplier above 100", func() error {
			return w.SetDamageMultipliers(now(), vitals.Multipliers{Melee: 101, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, Predator: 1})
		}, refserver.ErrOutOfRange},
		{"multiplier NaN", func() error {
			return w.SetDamageMultipliers(now(), vitals.Multipliers{Melee: nan, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, Predator: 1})
		}, refserver.ErrNotFinite},
		{"properties of a knife", func() error { return w.SetWeaponProperties(now(), 4, [3]float32{1, 1, 1}, 1) }, refserver.ErrWeapon},
		{"properties damage above 1000", func() error { return w.SetWeaponProperties(now(), m4, [3]float32{1, 2000, 1}, 90) }, refserver.ErrOutOfRange},
		{"properties range 0", func() error { return w.SetWeaponProperties(now(), m4, [3]float32{1, 1, 1}, 0) }, refserver.ErrOutOfRange},
		{"create a team 0", func() error { return w.CreateTeam(0, teams.Team{Name: "x"}) }, refserver.ErrTeam},
		{"a team without a name", func() error { return w.CreateTeam(4, teams.Team{}) }, refserver.ErrTeam},
		{"join a team that does not exist", func() error { return w.JoinTeam(b, 44) }, refserver.ErrTeam},
		{"join a team as nobody", func() error { return w.JoinTeam(nobody, 44) }, refserver.ErrUnknownPlayer},
		{"remove a team that does not exist", func() error { return w.RemoveTeam(44) }, refserver.ErrTeam},
		{"friendly fire of no team", func() error { return w.SetFriendlyFire(44, true) }, refserver.ErrTeam},
		{"change a team that does not exist", func() error { return w.ChangeTeam(44, teams.Team{Name: "x"}) }, refserver.ErrTeam},
		{"change a team to no name", func() error { return w.ChangeTeam(red, teams.Team{}) }, refserver.ErrTeam},
		{"leave a team as nobody", func() error { return w.LeaveTeam(nobody) }, refserver.ErrUnknownPlayer},
		{"decide the respawn of nobody", func() error { return w.DecideRespawn(nobody, 0, lifecycle.Hold()) }, refserver.ErrUnknownPlayer},
		{"decide the respawn of a living player", func() error { return w.DecideRespawn(b, 1, lifecycle.Hold()) }, refserver.ErrRespawn},
		{"a spawn point beyond the map", func() error {
			return w.SetSpawnPoint(b, lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: 1e9}})
		}, refserver.ErrOutOfRange},
		{"an explosion by nobody", func() error {
			_, err := w.CreateExplosion(now(), nobody, 0, wire.Vec3{}, 5)
			return err
		}, refserver.ErrUnknownPlayer},
		{"an explosion of radius 0", func() error {
			_, err := w.CreateExplosion(now(), refserver.NoPlayer, 0, wire.Vec3{}, 0)
			return err
		}, refserver.ErrOutOfRange},
		{"a fire at NaN", func() error {
			_, err := w.CreateFire(now(), refserver.NoPlayer, wire.Vec3{X: nan}, 1)
			return err
		}, refserver.ErrNotFinite},
		{"a vehicle slot out of range", func() error { return w.CreateVehicle(now(), 99, 411, wire.Vec3{}, wire.Quat{W: 1}) }, refserver.ErrUnknownVehicle},
		{"a vehicle twice", func() error { return w.CreateVehicle(now(), 4, 411, wire.Vec3{}, wire.Quat{W: 1}) }, refserver.ErrVehicleExists},
		{"a zero rotation", func() error { return w.CreateVehicle(now(), 5, 411, wire.Vec3{}, wire.Quat{}) }, refserver.ErrOutOfRange},
		{"move a vehicle that does not exist", func() error { return w.MoveVehicle(now(), 6, wire.Vec3{}, wire.Quat{W: 1}) }, refserver.ErrUnknownVehicle},
		{"move a vehicle to NaN", func() error { return w.MoveVehicle(now(), 4, wire.Vec3{Z: nan}, wire.Quat{W: 1}) }, refserver.ErrNotFinite},
		{"respawn a vehicle that does not exist", func() error { return w.RespawnVehicle(now(), 6, wire.Vec3{}, wire.Quat{W: 1}) }, refserver.ErrUnknownVehicle},
		{"freeze a vehicle that does not exist", func() error { return w.FreezeVehicle(now(), 6, true) }, refserver.ErrUnknownVehicle},
		{"teleport to Inf", func() error {
			return w.SetPlayerPosition(now(), b, wire.Vec3{Y: float32(math.Inf(-1))}, 0)
		}, refserver.ErrNotFinite},
		{"a command from the past", func() error { return w.SetHealth(now()-time.Second, b, 50) }, refserver.ErrClockBackwards},
		{"kick nobody", func() error { return w.Kick(now(), nobody) }, refserver.ErrUnknownPlayer},
	}
	for _, tc := range cases {
		before := w.Stats().Commands
		ledger, _ := w.Vitals(b)
		slots, _ := w.Weapons(b)
		err := tc.call()
		require.Error(t, err, tc.name)
		require.True(t, errors.Is(err, tc.want), "%s: %v", tc.name, err)
		require.Equal(t, before, w.Stats().Commands, "%s: nothing committed", tc.name)
		after, _ := w.Vitals(b)
		require.Equal(t, ledger, after, tc.name)
		slots2, _ := w.Weapons(b)
		require.Equal(t, slots, slots2, tc.name)
	}
	tick(t, k)
	require.Len(t, k.EventsOf(refserver.EventCommandRefused)[refusedBefore:], len(cases)-1, "every refusal but the kick is an event")
	def, ok := w.Teams().Team(red)
	require.True(t, ok)
	require.Equal(t, teams.Team{Name: "red"}, def, "a refused change_team leaves the team as it was")
	require.Equal(t, teamsBefore+1, w.Teams().TeamCount(), "no refused verb created or removed a team")
}

func TestFacadeErrorsWrapTheDecidingPackagesError(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	w, b := k.Server(), r[1].ID()
	err := w.TakeWeapon(k.Now(), b, m4)
	require.ErrorIs(t, err, refserver.ErrWeapon)
	require.ErrorIs(t, err, inventory.ErrNotOwned)
	err = w.SetHealth(k.Now(), b, 300)
	require.ErrorIs(t, err, vitals.ErrOutOfRange)
	err = w.JoinTeam(b, 44)
	require.ErrorIs(t, err, teams.ErrUnknownTeam)
}

func TestHealthCommandsNeedALifeTheServerCounts(t *testing.T) {
	k := simkit.New(simkit.Config{Seed: 1, Server: refserver.Config{MaxPlayers: 16, RespawnDelay: time.Second}})
	_, _ = k.Join("bystander1", simkit.Link{})
	_, _ = k.Join("bystander2", simkit.Link{})
	r, err := k.JoinRaw("a")
	require.NoError(t, err)
	require.NoError(t, k.Start())
	w, a := k.Server(), r.ID()
	require.ErrorIs(t, w.SetHealth(k.Now(), a, 50), refserver.ErrNotAlive, "not spawned")
	require.Equal(t, refserver.VerdictAccepted, must(t)(r.Send(&wire.RespawnRequest{})))
	tick(t, k)
	require.ErrorIs(t, w.AddHealth(k.Now(), a, 5, 100), refserver.ErrNotAlive, "granted, no living frame yet")
	require.Equal(t, refserver.VerdictAccepted, must(t)(r.Send(&wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: wire.NoVehicle})))
	require.NoError(t, w.AddHealth(k.Now(), a, 5, 100))
	// Weapon commands are taken in any state: the spawn loadout comes before the first frame.
	require.NoError(t, w.GiveWeapon(k.Now(), a, m4, 10, false))
}

func TestCommandIsCommittedOnlyWhenQueued(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	w := k.Server()
	b.SetSilent(true)
	// Fill b's lane to its soft cap with ordinary commands it never acknowledges.
	var err error
	for err == nil {
		err = w.SetArmedWeapon(k.Now(), b.ID(), inventory.Fists)
	}
	require.ErrorIs(t, err, refserver.ErrLaneFull)
	require.ErrorIs(t, err, lane.ErrSoftCap)
	ledger, _ := w.Vitals(b.ID())
	require.ErrorIs(t, w.SetHealth(k.Now(), b.ID(), 20), refserver.ErrLaneFull)
	after, _ := w.Vitals(b.ID())
	require.Equal(t, ledger, after, "the refused set_health left no trace")
	require.ErrorIs(t, w.GiveWeapon(k.Now(), b.ID(), m4, 10, true), refserver.ErrLaneFull)
	_, ok, _ := w.Ammo(b.ID(), m4)
	require.False(t, ok)
	// A world-wide command is refused whole when one lane cannot take it.
	_, err = w.CreateExplosion(k.Now(), refserver.NoPlayer, 0, wire.Vec3{}, 5)
	require.ErrorIs(t, err, refserver.ErrLaneFull)
	tick(t, k)
	require.Empty(t, receivedOf[*wire.CreateExplosion](a), "nobody got it")
	// The critical zero still goes: set_health(0) is never refused by the soft cap.
	require.NoError(t, w.SetHealth(k.Now(), b.ID(), 0))
}

func TestHealthCommandAcknowledgementIsRoutedToVitals(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	b := r[1]
	w := k.Server()
	b.SetSilent(true)
	require.NoError(t, w.SetHealth(k.Now(), b.ID(), 50))
	// A frame created before the client took the command (old vital_rev, 100 health) does
	// not touch the ledger and raises no flag while the command is unsettled.
	frame := func(seq uint16) *wire.PlayerSync {
		return &wire.PlayerSync{Seq: seq, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 10}}
	}
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(frame(3))))
	tick(t, k)
	require.Empty(t, eventsOf(k, refserver.EventGodMode, b.ID()))
	// The client acknowledges (its lane delivers) but keeps echoing the old revision: 2 s
	// after the acknowledgement the command is settled and the stale raise is cut.
	b.SetSilent(false)
	require.NoError(t, k.Advance(time.Second)) // the retransmission arrives, its acknowledgement goes back
	set, ok := lastOf[*wire.SetHealth](b)
	require.True(t, ok, "the command reached it")
	require.Equal(t, float32(50), set.Health)
	require.NoError(t, k.Advance(vitals.AckGrace+10*time.Millisecond))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(frame(4))), "a client that never echoes")
	tick(t, k)
	require.Len(t, eventsOf(k, refserver.EventGodMode, b.ID()), 1)
	hp, _ := w.Health(b.ID())
	require.Equal(t, float32(50), hp)
}

func TestSetThenAddKeepsTheirOrderOnTheLane(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	b := r[1]
	w := k.Server()
	require.NoError(t, w.SetHealth(k.Now(), b.ID(), 50))
	require.NoError(t, w.AddHealth(k.Now(), b.ID(), 25, 100))
	hp, _ := w.Health(b.ID())
	require.Equal(t, float32(75), hp)
	tick(t, k)
	// The connection gets them in order: set to 50, then add 25 (up to 100): 75.
	var order []wire.ID
	var last uint16
	for _, m := range b.Received() {
		switch m := m.(type) {
		case *wire.SetHealth:
			require.Equal(t, float32(50), m.Health)
			order, last = append(order, m.ID()), m.Rev
		case *wire.GiveHealth:
			require.Equal(t, float32(25), m.Amount)
			order, last = append(order, m.ID()), m.Rev
		}
	}
	require.Equal(t, []wire.ID{wire.IDSetHealth, wire.IDGiveHealth}, order, "set, then add")
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.PlayerSync{Seq: 3, DeathEpoch: 1, Alive: true, Health: 75,
		VitalRev: last, Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 10}})))
	tick(t, k)
	require.Empty(t, eventsOf(k, refserver.EventGodMode, b.ID()))
}

func TestMultipliersGoToEveryConnectionAndToJoiners(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	w := k.Server()
	m := vitals.Multipliers{Melee: 2, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 0.5, Predator: 1}
	require.NoError(t, w.SetDamageMultipliers(k.Now(), m))
	tick(t, k)
	for _, c := range []*simkit.Raw{a, b} {
		dm := receivedOf[*wire.DamageMultipliers](c)
		require.Len(t, dm, 1)
		require.Equal(t, float32(2), dm[0].Melee)
		require.Equal(t, float32(0.5), dm[0].Explosion)
	}
	// A joiner (b again, after it left) is sent the table with its welcome.
	rejoin(t, k, b)
	dm := receivedOf[*wire.DamageMultipliers](b)
	require.Len(t, dm, 1)
	require.Equal(t, float32(2), dm[0].Melee)
}

// rejoin makes the raw connection leave and join again (a fresh connection on its slot).
func rejoin(t *testing.T, k *simkit.Kit, r *simkit.Raw) {
	t.Helper()
	require.Equal(t, refserver.VerdictAccepted, must(t)(r.Send(&wire.Disconnect{Reason: wire.ReasonQuit})))
	tick(t, k)
	require.NoError(t, r.Rejoin())
	tick(t, k)
}

func TestWeaponPropertiesReachEveryConnectionAndJoinersWithTheCurrentRevision(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 3)
	a, c := r[0], r[2]
	w := k.Server()
	require.NoError(t, w.SetWeaponProperties(k.Now(), m4, [3]float32{20, 40, 60}, 100))
	tick(t, k)
	wp := receivedOf[*wire.WeaponProperties](a)
	require.Len(t, wp, 1)
	rev := w.Catalog().Revision()
	require.Equal(t, rev, wp[0].Rev)
	require.Equal(t, float32(40), wp[0].DamageStd)
	rejoin(t, k, c)
	wp = receivedOf[*wire.WeaponProperties](c)
	require.Len(t, wp, 1, "only the weapon that differs from the default table")
	require.Equal(t, m4, wp[0].Weapon)
	require.Equal(t, rev, wp[0].Rev)
	// Changed back: nothing differs, but a joiner still learns the revision its shots name.
	require.NoError(t, w.SetWeaponProperties(k.Now(), m4, [3]float32{30, 30, 30}, 90))
	rejoin(t, k, c)
	wp = receivedOf[*wire.WeaponProperties](c)
	require.Len(t, wp, 1)
	require.Equal(t, w.Catalog().Revision(), wp[0].Rev)
}

func TestGamemodeEffectsAreCappedAndStampedPerRecipient(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	w := k.Server()
	const team teams.TeamID = 3
	require.NoError(t, w.CreateTeam(team, teams.Team{Name: "t"}))
	require.NoError(t, w.JoinTeam(a.ID(), team))
	require.NoError(t, w.JoinTeam(b.ID(), team))
	_, err := w.CreateFire(k.Now(), a.ID(), wire.Vec3{}, 2)
	require.NoError(t, err)
	tick(t, k)
	fa, fb := receivedOf[*wire.CreateFire](a), receivedOf[*wire.CreateFire](b)
	require.Len(t, fa, 1)
	require.Len(t, fb, 1)
	require.False(t, fa[0].Stamp.Teammate, "a creator is never its own teammate")
	require.True(t, fb[0].Stamp.Teammate)
	n := 1
	for ; n < refserver.MaxEffects; n++ {
		_, err := w.CreateExplosion(k.Now(), refserver.NoPlayer, 0, wire.Vec3{}, 1)
		require.NoError(t, err)
		if n%100 == 0 {
			require.NoError(t, k.Advance(0)) // the lanes drain at the next tick, not the effects
			tick(t, k)
		}
	}
	_, err = w.CreateExplosion(k.Now(), refserver.NoPlayer, 0, wire.Vec3{}, 1)
	require.ErrorIs(t, err, refserver.ErrTooManyEffects)
	require.NoError(t, k.Advance(refserver.FireLifetime+refserver.ExplosionWindow+10*time.Millisecond))
	_, err = w.CreateExplosion(k.Now(), refserver.NoPlayer, 0, wire.Vec3{}, 1)
	require.NoError(t, err)
}

func TestVehicleMovesAndFreezesGoToEveryConnection(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	w := k.Server()
	require.NoError(t, w.CreateVehicle(k.Now(), 2, 411, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, w.MoveVehicle(k.Now(), 2, wire.Vec3{X: 50}, wire.Quat{W: 1}))
	require.NoError(t, w.FreezeVehicle(k.Now(), 2, true))
	require.NoError(t, w.SetPlayerPosition(k.Now(), a.ID(), wire.Vec3{Y: 30}, 1))
	tick(t, k)
	for _, c := range []*simkit.Raw{a, b} {
		require.Len(t, receivedOf[*wire.SetVehiclePose](c), 1)
		require.Len(t, receivedOf[*wire.SetVehicleFrozen](c), 1)
	}
	require.Len(t, receivedOf[*wire.SetPlayerPosition](a), 1)
	require.Empty(t, receivedOf[*wire.SetPlayerPosition](b))
	pos, err := refserver.PlayerAtOf(w, k.Now(), a.ID())
	require.NoError(t, err)
	require.Equal(t, float32(30), pos.Y, "the history starts anew at the teleport")
}

func TestReadbacksFollowTheStore(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	b := r[1]
	w := k.Server()
	require.NoError(t, w.GiveWeapon(k.Now(), b.ID(), m4, 90, true))
	require.NoError(t, w.SetWeaponAmmo(k.Now(), b.ID(), m4, 40, inventory.ClipNotSet))
	held, err := w.HeldWeapon(b.ID())
	require.NoError(t, err)
	require.Equal(t, m4, held)
	n, ok, err := w.Ammo(b.ID(), m4)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, uint16(40), n)
	require.NoError(t, w.TakeWeapon(k.Now(), b.ID(), m4))
	require.NoError(t, w.ClearWeapons(k.Now(), b.ID()))
	slots, err := w.Weapons(b.ID())
	require.NoError(t, err)
	for _, s := range slots {
		require.Zero(t, s.Total)
	}
	tick(t, k)
	rev, err := w.WeaponRev(b.ID())
	require.NoError(t, err)
	cl, ok := lastOf[*wire.ClearWeapons](b)
	require.True(t, ok)
	require.Equal(t, rev, cl.Rev, "the last command the connection got carries the store's revision")
	tm, g := w.Team(b.ID())
	require.Equal(t, teams.NoTeam, tm)
	require.Zero(t, g)
}
