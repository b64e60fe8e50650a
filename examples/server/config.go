package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/lifecycle"
)

// MaxConfigBytes caps the config file a server reads.
const MaxConfigBytes = 1 << 20

// fileConfig is the config file (-config FILE): the refserver.Config fields a server
// operator sets, in JSON. Every field is optional; an absent one keeps the World's
// default. Unknown fields are refused, so a typo does not pass silently. Example:
//
//	{
//	  "max_players": 32,
//	  "max_vehicles": 100,
//	  "respawn_delay": "3s",
//	  "spawn_point": {"x": 0, "y": 0, "z": 3, "facing": 90},
//	  "loadout": [{"weapon": 31, "ammo": 300, "current": true}],
//	  "tick": "10ms"
//	}
type fileConfig struct {
	// MaxPlayers is refserver.Config.MaxPlayers (0: the World's default).
	MaxPlayers int `json:"max_players"`
	// MaxVehicles is refserver.Config.MaxVehicles (0: the World's default).
	MaxVehicles int `json:"max_vehicles"`
	// RespawnDelay is refserver.Config.RespawnDelay, a Go duration ("3s"; "": default).
	RespawnDelay string `json:"respawn_delay"`
	// SpawnPoint is refserver.Config.SpawnPoint (absent: the origin).
	SpawnPoint *spawnPoint `json:"spawn_point"`
	// Loadout is refserver.Config.Loadout, given at every respawn grant.
	Loadout []loadout `json:"loadout"`
	// Tick is how often the server ticks and flushes, a Go duration ("": the -tick flag).
	Tick string `json:"tick"`
}

type spawnPoint struct {
	X      float32 `json:"x"`
	Y      float32 `json:"y"`
	Z      float32 `json:"z"`
	Facing float32 `json:"facing"`
}

type loadout struct {
	Weapon  uint8  `json:"weapon"`
	Ammo    uint16 `json:"ammo"`
	Current bool   `json:"current"`
}

// loadConfig reads the config file at path into cfg and returns the tick it names (0 if
// none).
func loadConfig(path string, cfg *refserver.Config) (time.Duration, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if info.Size() > MaxConfigBytes {
		return 0, fmt.Errorf("config %s: %d bytes, at most %d", path, info.Size(), MaxConfigBytes)
	}
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	var fc fileConfig
	if err := dec.Decode(&fc); err != nil {
		return 0, fmt.Errorf("config %s: %w", path, err)
	}
	return fc.apply(cfg)
}

// apply sets the fields fc names on cfg and returns fc's tick (0 if none).
func (fc fileConfig) apply(cfg *refserver.Config) (time.Duration, error) {
	if fc.MaxPlayers != 0 {
		cfg.MaxPlayers = fc.MaxPlayers
	}
	if fc.MaxVehicles != 0 {
		cfg.MaxVehicles = fc.MaxVehicles
	}
	if fc.RespawnDelay != "" {
		d, err := time.ParseDuration(fc.RespawnDelay)
		if err != nil || d < 0 {
			return 0, fmt.Errorf("config: respawn_delay %q is not a duration >= 0", fc.RespawnDelay)
		}
		cfg.RespawnDelay = d
	}
	if p := fc.SpawnPoint; p != nil {
		cfg.SpawnPoint = lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: p.X, Y: p.Y, Z: p.Z}, Facing: p.Facing}
	}
	for _, l := range fc.Loadout {
		cfg.Loadout = append(cfg.Loadout, refserver.Loadout{Weapon: l.Weapon, Ammo: l.Ammo, Current: l.Current})
	}
	var tick time.Duration
	if fc.Tick != "" {
		d, err := time.ParseDuration(fc.Tick)
		if err != nil || d <= 0 {
			return 0, fmt.Errorf("config: tick %q is not a duration > 0", fc.Tick)
		}
		tick = d
	}
	return tick, nil
}
