// Package hostgame is a game server of a host built on arbiter, in a module of its own:
// the reference server with a gamemode rule of the host's, regeneration, tested in
// hostgame_test.go with the simulation kit's scenario files (testdata/). It stands for
// the module a host writes; arbiter's CI runs its tests.
package hostgame

import (
	"time"

	"github.com/arbitergo/arbiter/examples/simkit"
)

// The regeneration rule's numbers.
const (
	// RegenEvery is how often the rule runs.
	RegenEvery = time.Second
	// RegenAmount is the health each living player regains each time.
	RegenAmount = 5
	// RegenMax is the health regeneration does not go beyond.
	RegenMax = 100
)

// Regenerate is the host's gamemode rule: every RegenEvery each living player regains
// RegenAmount health, up to RegenMax, through the server's add_health command (the kit's
// AddHealth, so that the cheat measures know the rise was the gamemode's).
func Regenerate(k *simkit.Kit, now time.Duration) {
	for _, p := range k.Players() {
		if k.Server().Alive(p.ID()) {
			_ = k.AddHealth(p, RegenAmount, RegenMax)
		}
	}
}

// Config is the kit's world of the host's game: the reference server with regeneration.
func Config(seed uint64) simkit.Config {
	return simkit.Config{Seed: seed, Gamemode: Regenerate, GamemodeEvery: RegenEvery}
}
