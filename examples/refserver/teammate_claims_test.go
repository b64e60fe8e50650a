package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

// teammateVolley makes raw connection a fire 40 M4 shots at b (10 m away) through b's
// rewound pose, 200 ms apart, each claiming a hit, and lets the claims mature; b reports
// none. With teammates set, a and b are in one team with friendly fire off before the
// volley, so every shot reaches b stamped "teammate" and b's client rightly refuses it.
func teammateVolley(t *testing.T, teammates bool) (*refserver.World, []refserver.Event) {
	t.Helper()
	k, raws := rawKit(t, refserver.Config{}, 100*time.Millisecond, 2)
	a, b := raws[0], raws[1]
	srv := k.Server()
	if teammates {
		require.NoError(t, srv.CreateTeam(3, teams.Team{Name: "green"}))
		require.NoError(t, srv.JoinTeam(a.ID(), 3))
		require.NoError(t, srv.JoinTeam(b.ID(), 3))
		require.True(t, srv.Teams().Teammates(teams.PlayerID(a.ID()), teams.PlayerID(b.ID())))
	}
	require.NoError(t, srv.GiveWeapon(k.Now(), a.ID(), m4, 2000, true))
	require.NoError(t, k.Advance(3*time.Second)) // the round trips are measured
	give, ok := lastOf[*wire.GiveWeapon](a)
	require.True(t, ok)
	aFrame := func(seq uint16) *wire.PlayerSync {
		return &wire.PlayerSync{Seq: seq, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: wire.NoVehicle,
			WeaponRev: give.Rev, Weapon: m4, Clip: 50, Total: 2000}
	}
	bFrame := func(seq uint16) *wire.PlayerSync {
		return &wire.PlayerSync{Seq: seq, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 10}}
	}
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(aFrame(2))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(bFrame(2))))
	b.Clear()
	for i := range uint16(40) {
		require.NoError(t, k.Advance(200*time.Millisecond))
		require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(bFrame(3+i))))
		require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.WeaponShot{ShotSeq: 1 + i, DeathEpoch: 1, Weapon: m4,
			HitType: wire.HitPlayer, HitID: uint16(b.ID()), HitPos: wire.Vec3{X: 30}})))
	}
	require.NoError(t, k.Advance(20*time.Millisecond))
	if teammates {
		n := 0
		for _, m := range b.Received() {
			if s, ok := m.(*wire.RemoteWeaponShot); ok && s.Shooter == a.ID() {
				require.True(t, s.Stamp.Teammate, "b was told not to apply the shot")
				n++
			}
		}
		require.Positive(t, n)
	}
	for i := range uint16(10) {
		require.NoError(t, k.Advance(500*time.Millisecond))
		require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(bFrame(50+i))))
		require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(aFrame(3+i))))
	}
	return srv, eventsOf(k, refserver.EventGodModeSuspect, b.ID())
}

// Rule: a claim never feeds a detector when the victim was told not to apply it. Hits a
// teammate claims (friendly fire off) reach the victim stamped "teammate": its client
// refuses them, feels nothing, and must not become a god-mode suspect.
func TestTeammatesClaimedHitsDoNotMakeTheVictimASuspect(t *testing.T) {
	_, s := teammateVolley(t, true)
	require.Empty(t, s)
	// the same volley between players of no team does raise it: the claims are judged
	_, s = teammateVolley(t, false)
	require.NotEmpty(t, s)
}

// Rule: damage to a vehicle is not damage to a player, so a teammate may wreck it: hits a
// teammate claims on the car a player drives still feed the driver's vehicle_god_mode
// detector (its client applies them, whatever the stamp), and never the driver's god-mode
// detector.
func TestTeammatesClaimedHitsOnACarStillFeedItsDriversVehicleDetector(t *testing.T) {
	c := newCarTarget(t, refserver.Config{})
	srv := c.k.Server()
	require.NoError(t, srv.CreateTeam(3, teams.Team{Name: "green"}))
	require.NoError(t, srv.JoinTeam(c.a.ID(), 3))
	require.NoError(t, srv.JoinTeam(c.b.ID(), 3))
	for range 25 {
		require.NoError(t, c.k.Advance(200*time.Millisecond))
		c.drive(1000) // a car that never shows the hits
		c.shoot(c.pos)
	}
	c.settle()
	require.Len(t, c.suspicions(), 1)
	require.Empty(t, eventsOf(c.k, refserver.EventGodModeSuspect, c.b.ID()))
}
