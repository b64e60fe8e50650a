// Command sim runs the reference match of arbiter: honest players on a simulated lossy
// network, playing against the reference server, and prints what the match measured,
// first of all how many times an honest player was wronged.
//
//	go run ./examples/sim                 # the default match, a readable report
//	go run ./examples/sim -json           # the same as one JSON object
//	go run ./examples/sim -scenario race  # the records' race measurements
//
// Flags: -seed, -players, -duration, -rtt (the largest round trip; players spread from
// -rtt-min to it), -rtt-min, -jitter, -loss, -teams, -vehicles, -cheaters (how many
// cheating players join the -players honest ones, each with one of the cheats in turn; the
// report says what each gained), -scenario (match or race), -json, -cpuprofile (write a CPU
// profile for go tool pprof), -gamemode FILE.lua (play the match with a Lua gamemode,
// examples/luamode, instead of the match's own; its log goes to stderr), -record FILE
// (write the server's record, examples/replay), -replay FILE (replay a record offline
// instead of playing: it verifies that every result, event and datagram is the same and
// names the first divergence; exit code 1 if one is found), -replay-events (with -replay,
// print every event, the server's verdicts), -hugepages=false (do not ask Linux to back
// the heap with huge pages, examples/hugepages: on by default, it only makes the run
// faster). The run is deterministic: the same flags print the same report.
//
//	go run ./examples/sim -gamemode examples/server/gamemodes/deathmatch.lua
//	go run ./examples/sim -duration 1m -record match.arb
//	go run ./examples/sim -replay match.arb -replay-events
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/pprof"
	"time"

	"github.com/arbitergo/arbiter/examples/hugepages"
	"github.com/arbitergo/arbiter/examples/luamode"
	"github.com/arbitergo/arbiter/examples/match"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/replay"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command: it parses args, plays the match and prints its report to stdout; it
// returns the exit code (2 for bad flags or a match that could not run).
func run(args []string, stdout, stderr io.Writer) int {
	def := match.Default()
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "seed of every random draw of the match")
	players := fs.Int("players", def.Players, "number of honest players")
	duration := fs.Duration("duration", def.Duration, "simulated time of play")
	rtt := fs.Duration("rtt", def.RTTMax, "largest round-trip time; players spread from -rtt-min to it")
	rttMin := fs.Duration("rtt-min", def.RTTMin, "smallest round-trip time")
	jitter := fs.Duration("jitter", def.Jitter, "uniform extra one-way delay of each datagram (0 for none)")
	loss := fs.Float64("loss", def.Loss, "probability that a datagram is lost, each way (0 for none)")
	teamsN := fs.Int("teams", def.Teams, "number of teams, friendly fire off")
	vehicles := fs.Int("vehicles", def.Vehicles, "number of cars")
	worldSide := fs.Float64("world", def.World, "side of the square map in metres (the default is the arena); spawn points, cars and bots spread over it")
	cheaters := fs.Int("cheaters", 0, "how many cheating players join the honest ones (each with one of the cheats in turn)")
	clientPayload := fs.Int("client-payload", 0, "coalesce what each honest client sends per flush into bundles of at most this many bytes (0: one datagram per message)")
	scenario := fs.String("scenario", "match", "match, or race: set_health commands racing damage at 200 ms")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the match to this file (go tool pprof reads it)")
	gamemode := fs.String("gamemode", "", "play the match with this Lua gamemode (FILE.lua) instead of the match's own")
	record := fs.String("record", "", "write the server's record (inputs, commands, output hashes) to this `file`")
	replayFile := fs.String("replay", "", "replay this record `file` offline and verify it (no match is played)")
	replayEvents := fs.Bool("replay-events", false, "with -replay: print every event the replay raises")
	huge := fs.Bool("hugepages", true, "back the heap with huge pages where Linux allows (examples/hugepages): the same report, sooner")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *replayFile != "" {
		return replayRecord(*replayFile, *replayEvents, stdout, stderr)
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "sim:", err)
			return 2
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, "sim:", err)
			return 2
		}
		defer pprof.StopCPUProfile()
	}
	set := func(name string) bool {
		found := false
		fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
		return found
	}
	cfg := match.Config{
		Seed: *seed, Players: *players + max(*cheaters, 0), Duration: *duration, RTTMin: *rttMin, RTTMax: *rtt,
		Jitter: *jitter, Loss: *loss, Teams: *teamsN, Vehicles: *vehicles, Cheaters: *cheaters, World: *worldSide,
		ClientPayload: *clientPayload,
	}
	if cfg.RTTMax == 0 {
		cfg.RTTMax = match.NoDelay
	}
	if cfg.Jitter == 0 {
		cfg.Jitter = match.NoJitter
	}
	if cfg.Loss == 0 {
		cfg.Loss = match.NoLoss
	}
	switch *scenario {
	case "match":
	case "race":
		cfg = match.RaceConfig(cfg, set("rtt"), set("rtt-min"), set("duration"))
	default:
		fmt.Fprintf(stderr, "sim: unknown scenario %q (match or race)\n", *scenario)
		return 2
	}
	var mode *luamode.Mode
	if *gamemode != "" {
		path, seed := *gamemode, *seed
		cfg.Gamemode = func(w *replay.Recorder) (match.Gamemode, error) {
			m, err := luamode.Load(w, path, luamode.Options{Seed: seed, Logger: slog.New(slog.NewTextHandler(stderr, nil))})
			mode = m
			return m, err
		}
	}
	if *record != "" {
		f, err := os.Create(*record)
		if err != nil {
			fmt.Fprintln(stderr, "sim:", err)
			return 2
		}
		defer f.Close()
		cfg.Record = f
	}
	if *huge {
		// The kernel's backing of memory changes no result: the report is the same.
		defer hugepages.Keep(context.Background(), nil)()
	}
	start := time.Now()
	r, err := match.Run(cfg)
	if mode != nil {
		defer mode.Close()
	}
	if err != nil {
		fmt.Fprintln(stderr, "sim:", err)
		return 2
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(stderr, "sim:", err)
			return 2
		}
		return 0
	}
	fmt.Fprint(stdout, r)
	if mode != nil {
		st := mode.Stats()
		fmt.Fprintf(stdout, "\n  lua gamemode %s: %d callbacks, %d script errors, %d aborted by the budget (its largest callback: %d instructions of %d)\n",
			*gamemode, st.Callbacks, st.Errors, st.Aborted, st.MaxInstructions, luamode.DefaultBudget)
	}
	fmt.Fprintf(stdout, "\n  (simulated %v in %v)\n", cfg.Duration, time.Since(start).Round(time.Millisecond))
	return 0
}

// replayRecord replays the record file path and prints what it found; the exit code is 1
// when the replay diverged, 2 when the file could not be replayed.
func replayRecord(path string, events bool, stdout, stderr io.Writer) int {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(stderr, "sim:", err)
		return 2
	}
	defer f.Close()
	var opts replay.Options
	if events {
		opts.OnEvent = func(e refserver.Event) { fmt.Fprintln(stdout, e) }
	}
	res, err := replay.Replay(f, opts)
	if err != nil {
		fmt.Fprintln(stderr, "sim: -replay:", err)
		return 2
	}
	fmt.Fprintf(stdout, "replay %s: %d records, %d flushes, %d events, %d datagrams, hashes %016x %016x %016x\n",
		path, res.Records, res.Flushes, res.Final.NEvents, res.Final.NDatagrams,
		res.Final.Results, res.Final.Events, res.Final.Datagrams)
	if res.Divergence != nil {
		fmt.Fprintln(stdout, "DIVERGED at", res.Divergence)
		return 1
	}
	fmt.Fprintln(stdout, "identical: every result, event and datagram is bit-identical")
	return 0
}
