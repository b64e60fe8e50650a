package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJSONReportsNoHonestPlayerWronged runs the command as `go run ./examples/sim -json`
// would (shortened) and checks its JSON: the fields the issue names, and honest_wronged 0.
func TestJSONReportsNoHonestPlayerWronged(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"-json", "-duration", "30s", "-players", "8"}, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	var r map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &r))
	for _, k := range []string{"seed", "players", "frames", "reports", "shots", "deaths", "respawns", "commands", "honest_wronged", "wronged"} {
		require.Contains(t, r, k)
	}
	require.Equal(t, float64(0), r["honest_wronged"])
	require.Equal(t, float64(8), r["players"])
	require.Contains(t, out.String(), `"honest_wronged": 0`)
}

func TestReadableReportAndRaceScenario(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"-scenario", "race", "-duration", "40s"}, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	s := out.String()
	require.Contains(t, s, "honest players wronged: 0")
	require.Contains(t, s, "set_health commands crossing a damage report")
	require.Contains(t, s, "frames that arrived before their report")
}

func TestBadFlagsExitWithTwo(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 2, run([]string{"-scenario", "nope"}, &out, &errOut))
	require.True(t, strings.Contains(errOut.String(), "unknown scenario"))
	require.Equal(t, 2, run([]string{"-players", "1"}, &out, &errOut))
	require.Equal(t, 2, run([]string{"-bogus"}, &out, &errOut))
}
