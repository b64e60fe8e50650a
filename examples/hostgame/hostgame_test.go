package hostgame

import (
	"testing"

	"github.com/arbitergo/arbiter/examples/simkit"
)

// The host's scenario files: regeneration never lets an honest player be wronged, nor a
// cheater out-heal its damage, at any round trip up to 400 ms with jitter and loss; with
// the rule off, the damage stays.
func TestRegenerationScenarios(t *testing.T) {
	g := &Game{}
	simkit.RunScenariosWith(t, "testdata", g.Config(7), map[string]simkit.Command{"regen": g.Regen})
}
