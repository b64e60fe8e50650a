// Command server is the reference server people run: the reference World
// (examples/refserver) on a real UDP socket read and written in batches (examples/udphost's
// Conn), with a handshake, structured logs, metrics and a graceful shutdown.
//
//	go run ./examples/server -listen :7777 -metrics :9100
//
// Flags:
//
//	-listen ADDR     the UDP address to serve the game on (default :7777)
//	-metrics ADDR    the HTTP address of the Prometheus metrics at /metrics ("" = off)
//	-config FILE     a JSON file of the World's settings (see below)
//	-tick D          how often the World ticks and flushes (default 10ms)
//	-max-players N   the player slots (overrides the file)
//	-log-json        log JSON lines instead of text
//	-log-debug       log spawns too
//	-gamemode G      the Lua gamemode (examples/luamode): deathmatch (the built-in
//	                 gamemodes/deathmatch.lua, the default), a script file, or none
//	-record FILE     record every datagram the World receives, its ticks and flushes,
//	                 the gamemode's commands, and a hash of all it sends, to FILE
//	                 (examples/replay); replay it with go run ./examples/sim -replay FILE
//	-hugepages=false do not ask Linux for huge pages for the heap (examples/hugepages;
//	                 on by default: a large World's scattered reads miss the TLB less)
//
// The config file sets the refserver.Config fields an operator chooses; every field is
// optional and unknown fields are refused:
//
//	{
//	  "max_players": 32,
//	  "max_vehicles": 100,
//	  "respawn_delay": "3s",
//	  "spawn_point": {"x": 0, "y": 0, "z": 3, "facing": 90},
//	  "loadout": [{"weapon": 31, "ammo": 300, "current": true}],
//	  "tick": "10ms"
//	}
//
// # The handshake
//
// Sessions are told apart by the client's address. A new address may only open a
// session with a Hello of this protocol version; another version is answered with a
// Disconnect(version) and counted, stray bytes and messages other than Hello are counted
// and dropped (the stale datagrams of a session that ended land here), and a Hello with
// every slot taken is answered with a Disconnect(full) and counted as server_full. A
// Hello carries the Session the client drew for this connection (the World's Welcome
// echoes it): a Hello of another Session from a live address is a client restarted there,
// so its old session is ended at once (counted as restarted) and the new one opens as soon
// as the slot is free; the client takes only a Welcome of its own Session and, before it,
// no Disconnect but a refusal of its Hello. A repeated Hello of the same Session on a
// live session is a lost Welcome's retry while its lane has delivered nothing (the World
// answers the same Welcome); after that it is stale and refused. An address's session
// otherwise ends by its Disconnect or the link timeout. The answers to refused Hellos are
// capped per tick (MaxRefusalReplies), so forged source addresses cannot use the server as
// a reflector.
//
// What the Session does not cover: the lane's datagrams carry no Session, so a delayed
// lane datagram of an old session that arrives after a new session opened on the same
// address reaches the new session's lane (which refuses what lies outside its window).
// Carrying the Session in every datagram would drop them by it.
//
// # Logs, metrics, shutdown
//
// Logs are log/slog records: player_join, player_leave, player_death, god_mode_suspect,
// vehicle_god_mode_suspect, and every RefusalLogInterval one "refusals" line per reason
// refused since the last (never a line per refused datagram). Metrics (their own
// registry, Prometheus text format): arbiter_players, arbiter_datagrams_received_total,
// arbiter_datagrams_sent_total, arbiter_lane_retransmissions_total,
// arbiter_refusals_total{by,reason}, arbiter_deaths_total,
// arbiter_death_commits_total{source} (by_report, by_server, on_leave),
// arbiter_respawns_total, arbiter_god_mode_cuts_total, arbiter_conn_caps_total{cap} (what
// the per-connection caps refused or dropped: refserver.ConnStats, sampled every second),
// arbiter_writer_waits_total (times the World's goroutine waited for the socket's writing
// goroutine: udphost.Conn.WriterWaits, sampled every second) and the arbiter_tick_seconds
// summary (p50, p99). On SIGINT or SIGTERM every connection gets a
// Disconnect(shutdown), the World removes them, a last Flush goes out, and the socket
// closes once the writing goroutine wrote all of it.
package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/arbitergo/arbiter/examples/hugepages"
	"github.com/arbitergo/arbiter/examples/luamode"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/replay"
	"github.com/arbitergo/arbiter/examples/udphost"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { // a second signal ends the process at once
		<-ctx.Done()
		stop()
	}()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// options are the hooks a test gives runWith.
type options struct {
	// ready is called once the sockets are bound, with the game's UDP address and the
	// metrics' HTTP address (nil when off).
	ready func(game netip.AddrPort, metrics net.Addr)
	// gamemode is called every tick on the goroutine that owns the World, after its
	// events were drained and before the Flush.
	gamemode func(now time.Duration, w *replay.Recorder)
	// event is called with every World event, on that goroutine, as it is drained.
	event func(e refserver.Event)
	// final is called on that goroutine when ctx is done, before the shutdown.
	final func(now time.Duration, w *refserver.World)
	// mode is the Lua gamemode (-gamemode), nil for none.
	mode *luamode.Mode
	// rec is the World's recorder (-record), nil when not recording.
	rec *replay.Recorder
}

// SocketBuffer is the receive and send buffer the server asks of its UDP socket. The
// kernel's default (about 200 KiB on Linux) holds a few hundred small datagrams: at
// 1,000 players (30,000 frames a second) a tick in which the World goroutine is busy
// fills it, and the kernel drops what arrives beyond it (the load test,
// examples/loadtest, counts those drops).
const SocketBuffer = 4 << 20

// deathmatch is the gamemode the server runs unless -gamemode says otherwise: the
// simulated match's own rules in Lua.
//
//go:embed gamemodes/deathmatch.lua
var deathmatch []byte

// run is the command: it parses args, serves until ctx is done and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runWith(ctx, args, stdout, stderr, options{})
}

func runWith(ctx context.Context, args []string, stdout, stderr io.Writer, opts options) int {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", ":7777", "the UDP `address` to serve the game on")
	metricsAddr := fs.String("metrics", "", "the HTTP `address` of the Prometheus metrics at /metrics (empty: off)")
	configPath := fs.String("config", "", "a JSON `file` of the World's settings (see the package documentation)")
	tick := fs.Duration("tick", udphost.Tick, "how often the World ticks and flushes")
	maxPlayers := fs.Int("max-players", 0, "the player slots (0: the config file's, else the World's default)")
	logJSON := fs.Bool("log-json", false, "log JSON lines instead of text")
	logDebug := fs.Bool("log-debug", false, "log spawns too")
	gamemode := fs.String("gamemode", "deathmatch", "the Lua gamemode: deathmatch (built in), a script `file`, or none")
	record := fs.String("record", "", "record the World's inputs and a hash of its outputs to this `file` (examples/replay)")
	huge := fs.Bool("hugepages", true, "back the heap with huge pages where Linux allows (examples/hugepages): fewer address translation misses in a large World")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "server: unexpected arguments %q\n", fs.Args())
		return 2
	}
	level := slog.LevelInfo
	if *logDebug {
		level = slog.LevelDebug
	}
	hopts := &slog.HandlerOptions{Level: level}
	var handler slog.Handler = slog.NewTextHandler(stdout, hopts)
	if *logJSON {
		handler = slog.NewJSONHandler(stdout, hopts)
	}
	log := slog.New(handler)

	var cfg refserver.Config
	if *configPath != "" {
		t, err := loadConfig(*configPath, &cfg)
		if err != nil {
			fmt.Fprintf(stderr, "server: %v\n", err)
			return 2
		}
		if t > 0 && !flagSet(fs, "tick") {
			*tick = t
		}
	}
	if *maxPlayers != 0 {
		cfg.MaxPlayers = *maxPlayers
	}
	if *tick <= 0 {
		fmt.Fprintf(stderr, "server: -tick %v is not > 0\n", *tick)
		return 2
	}
	world, err := refserver.New(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "server: %v\n", err)
		return 2
	}
	var scripted luamode.World = world // what the Lua gamemode commands: the recorder when recording
	if *record != "" {
		f, err := os.Create(*record)
		if err != nil {
			fmt.Fprintf(stderr, "server: -record: %v\n", err)
			return 2
		}
		defer f.Close()
		if opts.rec, err = replay.NewRecorder(world, f); err != nil {
			fmt.Fprintf(stderr, "server: -record: %v\n", err)
			return 2
		}
		defer func() {
			if err := opts.rec.Close(); err != nil {
				log.Error("record", "err", err.Error())
			}
		}()
		scripted = opts.rec
	}
	switch *gamemode {
	case "none":
	case "deathmatch":
		opts.mode, err = luamode.New(scripted, deathmatch, luamode.Options{Name: "deathmatch.lua", Logger: log})
	default:
		opts.mode, err = luamode.Load(scripted, *gamemode, luamode.Options{Logger: log})
	}
	if err != nil {
		fmt.Fprintf(stderr, "server: -gamemode: %v\n", err)
		return 2
	}
	if opts.mode != nil {
		defer opts.mode.Close()
	}
	uaddr, err := net.ResolveUDPAddr("udp", *listen)
	if err != nil {
		fmt.Fprintf(stderr, "server: -listen: %v\n", err)
		return 2
	}
	conn, err := net.ListenUDP("udp", uaddr)
	if err != nil {
		fmt.Fprintf(stderr, "server: %v\n", err)
		return 1
	}
	// The kernel caps both at its maximum (net.core.rmem_max, wmem_max): what it allows
	// is taken, and a smaller buffer is no error.
	_ = conn.SetReadBuffer(SocketBuffer)
	_ = conn.SetWriteBuffer(SocketBuffer)
	m := newMetrics()
	var maddr net.Addr
	if *metricsAddr != "" {
		a, stop, err := m.serve(ctx, *metricsAddr)
		if err != nil {
			_ = conn.Close()
			fmt.Fprintf(stderr, "server: -metrics: %v\n", err)
			return 1
		}
		defer stop()
		maddr = a
	}
	game := unmap(conn.LocalAddr().(*net.UDPAddr).AddrPort())
	attrs := []any{"listen", game.String(), "max_players", world.Config().MaxPlayers, "tick", tick.String()}
	if maddr != nil {
		attrs = append(attrs, "metrics", maddr.String())
	}
	log.Info("serving", attrs...)
	if *huge {
		defer adviseHugePages(ctx, log)()
	}
	if opts.ready != nil {
		opts.ready(game, maddr)
	}
	if err := newHost(conn, world, log, m, opts).serve(ctx, *tick); err != nil {
		log.Error("serve", "err", err.Error())
		return 1
	}
	return 0
}

// adviseHugePages keeps the heap advised into huge pages (hugepages.Keep) until ctx is
// done or the returned stop is called. The first result is logged at Info (or that the
// platform has none), the later ones at Debug.
func adviseHugePages(ctx context.Context, log *slog.Logger) (stop func()) {
	level := slog.LevelInfo
	return hugepages.Keep(ctx, func(st hugepages.Stats, err error) {
		switch {
		case errors.Is(err, hugepages.ErrUnsupported):
			log.Info("huge_pages", "supported", false)
		case err != nil:
			log.Warn("huge_pages", "err", err.Error())
		default:
			log.Log(ctx, level, "huge_pages", "advised_mib", st.Advised>>20, "collapsed_mib", st.Collapsed>>20)
		}
		level = slog.LevelDebug
	})
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// unmap turns an IPv4-mapped IPv6 address into the IPv4 one.
func unmap(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}
