package refserver

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/vitals"
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
