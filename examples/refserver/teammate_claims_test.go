package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

// teammateVolley makes a fire 40 M4 shots at b through b's rewound pose, 200 ms apart, each
// claiming a hit, and lets the claims mature; b's client reports none. With teammates set,
// a and b are in one team with friendly fire off before the volley, so every shot reaches
// b stamped "teammate" and b's client rightly refuses it.
func teammateVolley(t *testing.T, teammates bool) *harness {
	t.Helper()
	h, a, b := duel(t, m4)
	if teammates {
		require.NoError(t, h.w.CreateTeam(3, teams.Team{Name: "green"}))
		require.NoError(t, h.w.JoinTeam(0, 3))
		require.NoError(t, h.w.JoinTeam(1, 3))
		require.True(t, h.w.Teams().Teammates(0, 1))
	}
	require.NoError(t, h.w.GiveWeapon(h.now, 0, m4, 2000, true))
	h.flush()
	h.rtt(100 * time.Millisecond)
	for range 40 {
		h.now += 200 * time.Millisecond
		require.Equal(t, VerdictAccepted, h.frame(b))
		require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 30}, wire.HitPlayer, 1))
		require.NoError(t, h.w.Tick(h.now))
	}
	h.flush()
	if teammates {
		shots := received[*wire.RemoteWeaponShot](b)
		require.NotEmpty(t, shots)
		for _, s := range shots {
			require.True(t, s.Stamp.Teammate, "b was told not to apply the shot")
		}
	}
	for range 10 {
		h.now += 500 * time.Millisecond
		require.Equal(t, VerdictAccepted, h.frame(b))
		require.Equal(t, VerdictAccepted, h.frame(a))
		require.NoError(t, h.w.Tick(h.now))
	}
	return h
}

// Rule: a claim never feeds a detector when the victim was told not to apply it. Hits a
// teammate claims (friendly fire off) reach the victim stamped "teammate": its client
// refuses them, feels nothing, and must not become a god-mode suspect.
func TestTeammatesClaimedHitsDoNotMakeTheVictimASuspect(t *testing.T) {
	h := teammateVolley(t, true)
	require.Empty(t, h.events(EventGodModeSuspect))
	// the same volley between players of no team does raise it: the claims are judged
	h = teammateVolley(t, false)
	require.NotEmpty(t, h.events(EventGodModeSuspect))
}

// Rule: damage to a vehicle is not damage to a player, so a teammate may wreck it: hits a
// teammate claims on the car a player drives still feed the driver's vehicle_god_mode
// detector (its client applies them, whatever the stamp), and never the driver's god-mode
// detector.
func TestTeammatesClaimedHitsOnACarStillFeedItsDriversVehicleDetector(t *testing.T) {
	h, a, b, drive := carTarget(t, testConfig())
	require.NoError(t, h.w.CreateTeam(3, teams.Team{Name: "green"}))
	require.NoError(t, h.w.JoinTeam(0, 3))
	require.NoError(t, h.w.JoinTeam(1, 3))
	for range 25 {
		h.now += 200 * time.Millisecond
		drive(1000) // a car that never shows the hits
		require.Equal(t, VerdictAccepted, h.shoot(a, b.pos, wire.HitVehicle, 3))
		require.NoError(t, h.w.Tick(h.now))
	}
	settle(h, a, b)
	require.Len(t, h.events(EventVehicleGodModeSuspect), 1)
	require.Empty(t, h.events(EventGodModeSuspect))
}
