// Command sim runs the reference match of arbiter: honest players on a simulated lossy
// network, playing against the reference server, and prints what the match measured,
// first of all how many times an honest player was wronged.
//
//	go run ./examples/sim                 # the default match, a readable report
//	go run ./examples/sim -json           # the same as one JSON object
//	go run ./examples/sim -scenario race  # the records' race measurements
//
// Flags: -seed, -players, -duration, -rtt (the largest round trip; players spread from
// -rtt-min to it), -rtt-min, -jitter, -loss, -teams, -vehicles, -scenario (match or race),
// -json. The run is deterministic: the same flags print the same report.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/arbitergo/arbiter/examples/match"
)

func main() {
	def := match.Default()
	seed := flag.Uint64("seed", 1, "seed of every random draw of the match")
	players := flag.Int("players", def.Players, "number of honest players")
	duration := flag.Duration("duration", def.Duration, "simulated time of play")
	rtt := flag.Duration("rtt", def.RTTMax, "largest round-trip time; players spread from -rtt-min to it")
	rttMin := flag.Duration("rtt-min", def.RTTMin, "smallest round-trip time")
	jitter := flag.Duration("jitter", def.Jitter, "uniform extra one-way delay of each datagram (0 for none)")
	loss := flag.Float64("loss", def.Loss, "probability that a datagram is lost, each way (0 for none)")
	teamsN := flag.Int("teams", def.Teams, "number of teams, friendly fire off")
	vehicles := flag.Int("vehicles", def.Vehicles, "number of cars")
	scenario := flag.String("scenario", "match", "match, or race: set_health commands racing damage at 200 ms")
	asJSON := flag.Bool("json", false, "print the report as one JSON object")
	flag.Parse()

	cfg := match.Config{
		Seed: *seed, Players: *players, Duration: *duration, RTTMin: *rttMin, RTTMax: *rtt,
		Jitter: *jitter, Loss: *loss, Teams: *teamsN, Vehicles: *vehicles,
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
		cfg = match.RaceConfig(cfg, flagSet("rtt"), flagSet("rtt-min"), flagSet("duration"))
	default:
		fmt.Fprintf(os.Stderr, "sim: unknown scenario %q (match or race)\n", *scenario)
		os.Exit(2)
	}
	start := time.Now()
	r, err := match.Run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sim:", err)
		os.Exit(2)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, "sim:", err)
			os.Exit(2)
		}
		return
	}
	fmt.Print(r)
	fmt.Printf("\n  (simulated %v in %v)\n", cfg.Duration, time.Since(start).Round(time.Millisecond))
}

// flagSet reports whether the named flag was given on the command line.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
