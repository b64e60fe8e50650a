// Package hostgame is a game server of a host built on arbiter, in a module of its own:
// the reference server with a gamemode rule of the host's, regeneration, tested in
// hostgame_test.go with the simulation kit's scenario files (testdata/) and a scenario
// command of its own (regen on|off). It stands for the module a host writes; arbiter's CI
// runs its tests.
package hostgame

import (
	"fmt"
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

// Game is the host's gamemode: regeneration, which the gamemode may switch off.
type Game struct {
	// Off switches regeneration off.
	Off bool
}

// Regenerate is the host's gamemode rule: every RegenEvery each living player regains
// RegenAmount health, up to RegenMax, through the server's add_health command (the kit's
// AddHealth, so that the cheat measures know the rise was the gamemode's).
func (g *Game) Regenerate(k *simkit.Kit, now time.Duration) {
	if g.Off {
		return
	}
	for _, p := range k.Players() {
		if k.Server().Alive(p.ID()) {
			_ = k.AddHealth(p, RegenAmount, RegenMax)
		}
	}
}

// Config is the kit's world of the host's game: the reference server with regeneration.
func (g *Game) Config(seed uint64) simkit.Config {
	return simkit.Config{Seed: seed, Gamemode: g.Regenerate, GamemodeEvery: RegenEvery}
}

// Regen is the scenario command "regen on" or "regen off".
func (g *Game) Regen(_ *simkit.Kit, a *simkit.Args) (string, error) {
	w := a.Words()
	if len(w) != 1 || (w[0] != "on" && w[0] != "off") {
		a.Fatalf("want regen on or regen off")
	}
	g.Off = w[0] == "off"
	return fmt.Sprintf("regeneration %s", w[0]), nil
}
