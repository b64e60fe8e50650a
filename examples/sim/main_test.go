package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"runtime/debug"
	"strconv"
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

	// honest_wronged is the sum of its seven parts, each present by its JSON name.
	parts, ok := r["wronged"].(map[string]any)
	require.True(t, ok, "wronged is an object: %v", r["wronged"])
	sum := 0.0
	for _, k := range []string{"early_deaths", "cut_frames", "refused_shots", "refused_commands", "disagreements", "refused_entries", "rate_limited"} {
		require.Contains(t, parts, k)
		v, ok := parts[k].(float64)
		require.True(t, ok, "wronged.%s is a number: %v", k, parts[k])
		sum += v
	}
	require.Len(t, parts, 7, "wronged has exactly the seven parts: %v", parts)
	require.Equal(t, r["honest_wronged"], sum, "honest_wronged is the sum of its parts")
}

// TestRaceScenarioReproducesTheRecordsMeasurements runs `go run ./examples/sim -scenario
// race` at its default length (80 set_health commands at 200 ms; a few seconds) and checks
// the race measurements of examples/match: how many of the 80 commands crossed a damage report, that the
// revision rule corrupted the ledger on none of them while a fixed window did on some, and
// the share of frames that arrived before their report.
func TestRaceScenarioReproducesTheRecordsMeasurements(t *testing.T) {
	args, commands := []string{"-scenario", "race"}, "80"
	if raceDetector() {
		// About 3 s of CPU, ten times that under the race detector: there the race plays
		// two simulated minutes (a quarter of the commands), and the same rules are
		// checked on them.
		args, commands = append(args, "-duration", "2m"), ""
	}
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	s := out.String()
	require.Contains(t, s, "honest players wronged: 0")
	sent := regexp.MustCompile(`gamemode commands (\d+)\n`).FindStringSubmatch(s)
	require.NotNil(t, sent, s)
	if commands != "" {
		require.Equal(t, commands, sent[1], "the race sends exactly 80 commands")
	}

	crossing := regexp.MustCompile(`set_health commands crossing a damage report created before they applied: (\d+) of (\d+)\n`).FindStringSubmatch(s)
	require.NotNil(t, crossing, s)
	require.Equal(t, sent[1], crossing[2], "the race measures every set_health command it sent")
	crossed := atoi(t, crossing[1])
	require.Greater(t, crossed, 0, "at 200 ms some commands cross a report (the record: 19 of 80)")
	require.LessOrEqual(t, crossed, atoi(t, sent[1]))

	require.Contains(t, s, "\n    the revision rule corrupted it on 0\n", "the revision rule never corrupts the ledger")
	windows := regexp.MustCompile(`a fixed +(\d+) ms window around each command would corrupt the ledger on (\d+) of them`).FindAllStringSubmatch(s, -1)
	require.NotEmpty(t, windows, s)
	worst := 0
	for _, w := range windows {
		worst = max(worst, atoi(t, w[2]))
	}
	require.Greater(t, worst, 0, "a fixed window corrupts the ledger on some commands")

	first := regexp.MustCompile(`frames that arrived before their report: (\d+) of (\d+) hit reports \((\d+\.\d) %\)`).FindStringSubmatch(s)
	require.NotNil(t, first, s)
	n, of := atoi(t, first[1]), atoi(t, first[2])
	require.Greater(t, of, 0, "hit reports were measured")
	require.Greater(t, n, 0, "with 30 ms of jitter some frames overtake their report (the record: 32 %)")
	require.Less(t, n, of)
	pct, err := strconv.ParseFloat(first[3], 64)
	require.NoError(t, err)
	require.InDelta(t, 100*float64(n)/float64(of), pct, 0.05, "the share printed is n of the hit reports")
}

// raceDetector reports whether the test binary was built with -race.
func raceDetector() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
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

// TestLuaGamemodeWrongsNoHonestPlayer: `-gamemode deathmatch.lua` plays the match with the
// Lua gamemode (its callbacks ran, none failed) and still reports honest_wronged 0.
func TestLuaGamemodeWrongsNoHonestPlayer(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"-gamemode", "../server/gamemodes/deathmatch.lua", "-duration", "90s", "-players", "8"}, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	require.Contains(t, out.String(), "honest players wronged: 0")
	m := regexp.MustCompile(`lua gamemode \S+: (\d+) callbacks, (\d+) script errors, (\d+) aborted`).FindStringSubmatch(out.String())
	require.NotNil(t, m, out.String())
	n, _ := strconv.Atoi(m[1])
	require.Greater(t, n, 8, "joins, spawns and deaths reached the script")
	require.Equal(t, "0", m[2])
	require.Equal(t, "0", m[3])
	require.NotContains(t, errOut.String(), "refused", "the deathmatch met no refusal it did not expect")

	// The same flags give the same report: the script's clock and randomness are the match's.
	var again bytes.Buffer
	require.Equal(t, 0, run([]string{"-gamemode", "../server/gamemodes/deathmatch.lua", "-duration", "90s", "-players", "8"}, &again, &errOut))
	strip := regexp.MustCompile(`\(simulated .*\)`)
	require.Equal(t, strip.ReplaceAllString(out.String(), ""), strip.ReplaceAllString(again.String(), ""))
	out.Reset()

	code = run([]string{"-gamemode", "no-such-file.lua", "-duration", "5s"}, &out, &errOut)
	require.Equal(t, 2, code)
	code = run([]string{"-gamemode", "../server/gamemodes/deathmatch.lua", "-cheaters", "2", "-duration", "5s"}, &out, &errOut)
	require.Equal(t, 2, code, "the cheat measurements need the match's own gamemode")
}
