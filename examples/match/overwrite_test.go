package match

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// TestOldShotsOfTakenGunsArriveWithinTheWindow measures the worst honest case the window
// of old shots (the round trip plus inventory.OverwriteShotMargin) must cover, at the
// project's worst link: 400 ms round trip, 30 ms jitter, 5 % loss. Every player fires its
// M4 as fast as its cadence allows while the gamemode, over and over, takes the M4, gives
// it back, swaps it for an AK-47 in the same pooled slot and back, and sets its ammo.
// Every shot the client fired before it applied such a command must be accepted, and
// the server's count of every weapon must never fall below the client's. With
// -match.soak it plays 24 players for 20 minutes instead of 8 for 2.
func TestOldShotsOfTakenGunsArriveWithinTheWindow(t *testing.T) {
	players, d := 8, 2*time.Minute
	if *soak {
		players, d = 24, 20*time.Minute
	}
	s := newScenario(t, Config{Players: players, RTTMin: 400 * ms, RTTMax: 400 * ms, Jitter: 30 * ms, Loss: 0.05, Seed: 11})
	m := s.m
	srv := m.server
	next := make([]time.Duration, players)
	step := make([]int, players)
	for end := s.now() + d; s.now() < end; s.run(100 * ms) {
		now := s.now()
		for i, p := range m.players {
			c := s.client(i)
			eye := add(c.Position(), wire.Vec3{Z: 0.6})
			_, err := c.Fire(now, weaponM4, wire.HitNone, 0, eye, add(eye, wire.Vec3{X: 10}))
			require.NoError(t, err)
			if now < next[i] {
				continue
			}
			next[i] = now + time.Duration(500+p.rng.IntN(500))*ms
			switch step[i] % 5 {
			case 0:
				require.NoError(t, srv.TakeWeapon(now, p.id, weaponM4))
				m.noteOverwrite(now, p, weaponM4)
			case 1:
				require.NoError(t, srv.GiveWeapon(now, p.id, weaponM4, 400, true))
			case 2:
				require.NoError(t, srv.GiveWeapon(now, p.id, weaponAK, SwapAmmo, false))
				m.noteOverwrite(now, p, weaponM4)
			case 3:
				require.NoError(t, srv.GiveWeapon(now, p.id, weaponM4, 0, true))
			case 4:
				require.NoError(t, srv.SetWeaponAmmo(now, p.id, weaponM4, 400, wire.NoClip))
				m.noteOverwrite(now, p, weaponM4)
			}
			step[i]++
		}
		m.checkCounts(now)
	}
	s.run(3 * time.Second)
	w := m.report.Weapons
	t.Logf("%d commands took the M4, %d old shots; the latest arrived %.0f ms after the command and the measured round trip (margin %v)",
		w.Overwrites, w.OldShots, w.OldShotLatestMs, inventory.OverwriteShotMargin)
	require.Greater(t, w.OldShots, w.Overwrites, "the measurement saw old shots")
	require.Less(t, w.OldShotLatestMs, millis(inventory.OverwriteShotMargin), "an honest old shot came after the window")
	require.Zero(t, w.CountBelow, "%v", m.report.Incidents)
	s.noWrongs()
}
