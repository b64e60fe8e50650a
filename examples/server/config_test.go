package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/lifecycle"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "server.json")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	return path
}

// TestConfigFileSetsTheOperatorsFields reads every field of the config file into the
// World's Config.
func TestConfigFileSetsTheOperatorsFields(t *testing.T) {
	var cfg refserver.Config
	tick, err := loadConfig(writeConfig(t, `{"max_players": 32, "max_vehicles": 100, "respawn_delay": "1.5s",
		"spawn_point": {"x": 1, "y": 2, "z": 3, "facing": 90},
		"loadout": [{"weapon": 31, "ammo": 300, "current": true}, {"weapon": 24, "ammo": 14}],
		"tick": "20ms"}`), &cfg)
	require.NoError(t, err)
	require.Equal(t, 20*time.Millisecond, tick)
	require.Equal(t, refserver.Config{MaxPlayers: 32, MaxVehicles: 100, RespawnDelay: 1500 * time.Millisecond,
		SpawnPoint: lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: 1, Y: 2, Z: 3}, Facing: 90},
		Loadout:    []refserver.Loadout{{Weapon: 31, Ammo: 300, Current: true}, {Weapon: 24, Ammo: 14}}}, cfg)
}

// TestConfigFileRefusesWhatItDoesNotKnow refuses an unknown field (a typo), a bad
// duration and a tick of zero, each with an error naming it.
func TestConfigFileRefusesWhatItDoesNotKnow(t *testing.T) {
	for name, text := range map[string]string{
		"max_player":        `{"max_player": 3}`,
		"respawn_delay":     `{"respawn_delay": "soon"}`,
		"tick":              `{"tick": "0s"}`,
		"invalid character": `{"max_players": }`,
	} {
		var cfg refserver.Config
		_, err := loadConfig(writeConfig(t, text), &cfg)
		require.ErrorContains(t, err, name, "the error names what is wrong")
	}
}

// TestRunRefusesABadCommandLine returns 2 without serving for an unknown flag, a config
// the World refuses, and a tick of zero; -h returns 0.
func TestRunRefusesABadCommandLine(t *testing.T) {
	for _, args := range [][]string{
		{"-no-such-flag"},
		{"-listen", "127.0.0.1:0", "-max-players", "-1"},
		{"-listen", "127.0.0.1:0", "-tick", "0s"},
		{"-listen", "127.0.0.1:0", "-config", writeConfig(t, `{"loadout": [{},{},{},{},{},{},{},{},{},{},{},{},{},{}]}`)},
		{"extra"},
	} {
		var out, errs bytes.Buffer
		require.Equal(t, 2, run(context.Background(), args, &out, &errs), "%q", args)
		require.NotEmpty(t, errs.String(), "%q says why", args)
		require.NotContains(t, out.String(), "serving", "%q", args)
	}
	var out, errs bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"-h"}, &out, &errs))
	require.Contains(t, errs.String(), "-listen")
}
