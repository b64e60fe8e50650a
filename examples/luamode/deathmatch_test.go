package luamode

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
)

const deathmatchPath = "../server/gamemodes/deathmatch.lua"

func newDeathmatch(t *testing.T, players int) *harness {
	t.Helper()
	src, err := os.ReadFile(deathmatchPath)
	require.NoError(t, err)
	return newHarness(t, players, string(src), Options{Name: "deathmatch.lua", Seed: 1})
}

// TestDeathmatchTeamsAndLoadout: the deathmatch balances its two teams at join and gives
// the loadout (the M4 held, with its rounds) at the connect spawn, with no script error
// and no refusal it did not expect.
func TestDeathmatchTeamsAndLoadout(t *testing.T) {
	h := newDeathmatch(t, 3)
	h.run(time.Second)
	for i, want := range []uint16{1, 2, 1} {
		team, _ := h.w.Team(refserver.PlayerID(i))
		require.EqualValues(t, want, team, "player %d", i)
		w := h.cl[i].Weapons()
		require.EqualValues(t, 31, w.Held, "player %d holds the M4", i)
		ammo, owned, err := h.w.Ammo(refserver.PlayerID(i), 31)
		require.NoError(t, err)
		require.True(t, owned)
		require.EqualValues(t, 400, ammo)
	}
	require.Zero(t, h.m.Stats().Errors)
	require.NotContains(t, h.logs.String(), "refused")
	require.NotZero(t, h.m.Stats().MaxInstructions)
	require.Less(t, h.m.Stats().MaxInstructions, uint64(DefaultBudget/100), "deathmatch's callbacks are far within the budget")
}

// TestDeathmatchRespawnDelay: a death respawns RESPAWN_DELAY (3 s) after it, not at the
// World's own delay (1 s here), and the new life gets the loadout again.
func TestDeathmatchRespawnDelay(t *testing.T) {
	h := newDeathmatch(t, 2)
	h.run(time.Second)
	_, err := h.cl[0].Fall(h.now, 150)
	require.NoError(t, err)
	var deathAt time.Duration
	for deathAt == 0 {
		h.run(step)
		for _, e := range h.ev {
			if e.Kind == refserver.EventPlayerDeath && e.Player == 0 {
				deathAt = e.At
			}
		}
	}
	var spawnAt time.Duration
	for spawnAt == 0 && h.now < deathAt+5*time.Second {
		h.run(step)
		for _, e := range h.ev {
			if e.Kind == refserver.EventPlayerSpawn && e.Player == 0 {
				spawnAt = e.At
			}
		}
	}
	require.GreaterOrEqual(t, spawnAt-deathAt, 3*time.Second)
	require.Less(t, spawnAt-deathAt, 3500*time.Millisecond)
	h.run(200 * time.Millisecond)
	require.EqualValues(t, 31, h.cl[0].Weapons().Held)
	require.Zero(t, h.m.Stats().Errors)
}

// TestDeathmatchKillReward: the killer of a player gets KILL_REWARD health (up to 100).
func TestDeathmatchKillReward(t *testing.T) {
	h := newDeathmatch(t, 2)
	h.run(time.Second)
	require.Equal(t, "true", h.eval(`out = tostring(player(0):set_health(50))`))
	// A death of player 1 credited to player 0 (as the World raises it).
	h.m.Handle(h.now, []refserver.Event{{Kind: refserver.EventPlayerDeath, At: h.now, Player: 1, Other: 0, Weapon: 31, Gen: 1}})
	hp, err := h.w.Health(0)
	require.NoError(t, err)
	require.EqualValues(t, 75, hp)
	require.Equal(t, "1", h.eval(`out = tostring(kills[0])`))
	require.Zero(t, h.m.Stats().Errors)
}

// TestDeathmatchBalancesAfterALeave: a player who leaves frees its place in its team, so
// the next to join fills that team.
func TestDeathmatchBalancesAfterALeave(t *testing.T) {
	h := newDeathmatch(t, 3)
	h.run(time.Second)
	require.NoError(t, h.cl[0].Leave(h.now)) // team 1: players 0 and 2; team 2: player 1
	h.run(time.Second)
	c, err := client.New(client.Config{Seed: 9})
	require.NoError(t, err)
	h.cl = append(h.cl, c) // joins as player 3
	h.run(time.Second)
	team, _ := h.w.Team(3)
	require.EqualValues(t, 1, team, "teams 1 and 2 had one player each; the first wins the tie")
	require.Zero(t, h.m.Stats().Errors)
}
