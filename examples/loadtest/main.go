// Command loadtest measures the reference server (examples/server) on real sockets: it
// builds and starts the server in a process of its own, plays honest clients
// (examples/client) against it over loopback UDP, each client on a socket of its own,
// and reports the server's CPU per player and its datagrams per tick, then checks that
// no honest player was wronged.
//
//	go run ./examples/loadtest -players 100 -duration 20s
//	go test -run '^$' -bench Load -benchtime 1x ./examples/loadtest/
//
// Flags:
//
//	-players N      honest clients (default 100, at most 1000)
//	-duration D     the measured window (default 10s)
//	-side M         the side in metres of the square the players are spread over
//	                (0: sized so that each player has about 100 others within the
//	                stream distance of 200 m; see AutoSide)
//	-tick D         the server's tick, how often it ticks and flushes (default 10ms)
//	-fire D         how often each bot fires at the nearest player within 35 m
//	                (default 1s; negative: never)
//	-workers N      goroutines stepping the clients (0: GOMAXPROCS)
//	-server FILE    a server binary built already (default: go build examples/server)
//	-cpuprofile F   write the load generator's CPU profile to F
//
// # What runs
//
// The server is examples/server's command as an operator runs it (its udphost.Conn
// batched socket, its handshake, the refserver World, its metrics), with a gamemode of
// the load test's own (loadtest.lua): each player's spawn point is spread over the
// square by its id, and every spawn gives an M4. The clients run in one udphost.Swarm: a
// few goroutines step all of them every udphost.SwarmTick (a third of the frame
// interval, so every client sends its 30 frames a second), each reading its own socket
// without waiting. Each bot walks a beat of Beat metres around its spawn point at
// WalkSpeed and fires at the nearest living player within FireRange; the clients' game
// world lets every ray aimed at a player hit it, so players die and respawn.
//
// Each client has a socket of its own: 1,000 players need more descriptors than the
// common soft limit of 1,024, and Go raises the soft RLIMIT_NOFILE to the hard limit when
// a program starts; a hard limit below Players plus a few dozen fails the test at its
// sockets, with the error.
//
// The test: everyone joins and spawns, a warm-up (Warmup), then the measured window:
// the server process's CPU time (utime + stime of /proc/<pid>/stat) and its metrics
// (arbiter_datagrams_received_total and _sent_total) are read at both ends. Then the
// bots hold their fire until the deaths and respawns in flight land (SettleTimeout at
// most), and the server is stopped with SIGINT.
//
// # The agreement check
//
// No honest player may be wronged (Report.HonestWronged, the sum of Wronged): the
// server's metrics must show no refusal of the clients' input by the World but the
// ones the records prescribe for a world that changed under a shot (its target died
// first), none by the handshake but a repeated Hello, no frame cut as god mode, nothing
// taken by the per-connection caps; every client joined and spawned, its transport
// refused nothing; the deaths and respawns the clients lived are the ones the server
// committed and granted (an early death, committed while the client lived on, shows as
// a difference); and no client's connection ended but by the server's
// Disconnect(shutdown) (a client that lost all three of them is only counted).
//
// # Cost
//
// Until the server coalesces what a connection gets in one tick and streams (each
// client sees the players near it), every client gets a datagram per relayed frame of
// every other player: at N players N·(N−1)·30 a second, which no generator on one core
// can take at 1,000. The Side spread is there so that, once the server streams, each
// client has about StreamRemotes remotes whatever N.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command: it parses args, runs the load test and prints its report. It
// returns 1 when an honest player was wronged, 2 on bad flags or a test that could not
// run.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg Config
	fs.IntVar(&cfg.Players, "players", DefaultPlayers, "honest clients")
	fs.DurationVar(&cfg.Duration, "duration", DefaultDuration, "the measured window")
	fs.Float64Var(&cfg.Side, "side", 0, "the side in `metres` of the square the players are spread over (0: AutoSide)")
	fs.DurationVar(&cfg.Tick, "tick", 0, "the server's tick (0: ServerTick, 10ms)")
	fs.DurationVar(&cfg.FireEvery, "fire", DefaultFireEvery, "how often each bot fires (negative: never)")
	fs.IntVar(&cfg.Workers, "workers", 0, "goroutines stepping the clients (0: GOMAXPROCS)")
	fs.StringVar(&cfg.Server, "server", "", "a server binary `file` built already (default: go build examples/server)")
	cpuprofile := fs.String("cpuprofile", "", "write the generator's CPU profile to `file`")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "loadtest: unexpected arguments %q\n", fs.Args())
		return 2
	}
	cfg.Log = stderr
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintf(stderr, "loadtest: %v\n", err)
			return 2
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "loadtest: %v\n", err)
			return 2
		}
		defer pprof.StopCPUProfile()
	}
	r, err := Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "loadtest: %v\n", err)
		return 2
	}
	fmt.Fprint(stdout, r)
	if r.HonestWronged > 0 {
		return 1
	}
	return 0
}
