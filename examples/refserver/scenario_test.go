package refserver_test

import (
	"testing"
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
)

// The reference server's behaviour tests, as scenario files under testdata/scenarios run
// by the simulation kit's driver (go test -rewrite regenerates their output). Each file
// is named after the rule it protects.
func TestScenarios(t *testing.T) {
	simkit.RunScenarios(t, "testdata/scenarios", simkit.Config{Seed: 1, Server: refserver.Config{RespawnDelay: time.Second}})
}
