package main

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/udphost"
	"github.com/arbitergo/arbiter/wire"
)

// The load test's defaults, bounds and waits.
const (
	// DefaultPlayers is Config.Players when left zero.
	DefaultPlayers = 100
	// MaxLoadPlayers bounds Config.Players: the server's player slots
	// (refserver.DefaultMaxPlayers: its config file leaves max_players at the default).
	MaxLoadPlayers = refserver.DefaultMaxPlayers
	// DefaultDuration is Config.Duration (the measured window) when left zero.
	DefaultDuration = 10 * time.Second
	// MaxDuration bounds Config.Duration.
	MaxDuration = 10 * time.Minute
	// StreamDistance and StreamRemotes size the default spread (Config.Side): the square
	// in which each player has about StreamRemotes others within StreamDistance, the
	// reference server's stream distance, so that once the server streams each client
	// gets about that many remotes. Below StreamRemotes+1 players the square is the one
	// of StreamRemotes+1 players (everyone within reach of everyone).
	StreamDistance = refserver.DefaultStreamDistance
	// StreamRemotes is the remotes per client the default spread aims at: the reference
	// server's stream cap.
	StreamRemotes = refserver.DefaultStreamCap
	// DefaultFireEvery is Config.FireEvery when left zero: each player fires about once
	// a second at the nearest living player within FireRange.
	DefaultFireEvery = time.Second
	// FireRange is how far (metres) a bot looks for a target: well inside the M4's 90 m.
	FireRange = 35
	// WalkSpeed is how fast (m/s) a bot walks between the points of its beat.
	WalkSpeed = 4
	// Beat is the half side (metres) of the square around its spawn point a bot walks in.
	Beat = 15
	// JoinTimeout bounds the wait for every client to join and spawn.
	JoinTimeout = 60 * time.Second
	// Warmup is played after everyone spawned and before the measured window opens.
	Warmup = time.Second
	// RespawnDelay is the server's respawn delay in the load test (its config file), so
	// that the settle is short.
	RespawnDelay = time.Second
	// SettleTimeout bounds the wait, after the bots stop firing, for the deaths and
	// respawns in flight to land on both sides (a respawn delay, the server's wait for
	// a death report, and the round trips).
	SettleTimeout = 15 * time.Second
	// ServerStartTimeout bounds the wait for the server process to say it serves, and
	// ServerStopTimeout the wait for it to exit after SIGINT.
	ServerStartTimeout = 30 * time.Second
	// ServerStopTimeout bounds the wait for the server's graceful exit.
	ServerStopTimeout = 15 * time.Second
	// ClientsEndTimeout bounds the wait, after the server exited, for every client to
	// take its Disconnect(shutdown).
	ClientsEndTimeout = 5 * time.Second
	// ServerTick is the server's tick (its -tick flag) when Config.Tick is left zero:
	// udphost.Tick.
	ServerTick = udphost.Tick
	// MaxTick bounds Config.Tick.
	MaxTick = time.Second
	// ClientReadBuffer is the socket receive buffer each client asks for (the kernel
	// caps it at net.core.rmem_max): relays arrive in bursts of a server tick.
	ClientReadBuffer = 1 << 20
)

// ErrConfig refuses a Config out of its bounds.
var ErrConfig = errors.New("loadtest: bad config")

// Config is one load test.
type Config struct {
	// Players is how many honest clients play (0: DefaultPlayers; at most MaxLoadPlayers).
	Players int
	// Duration is the measured window (0: DefaultDuration; at most MaxDuration).
	Duration time.Duration
	// Side is the side (metres) of the square the players are spread over; 0 sizes it
	// for StreamRemotes within StreamDistance (see AutoSide).
	Side float64
	// Tick is the server's tick, how often it ticks and flushes (its -tick flag; 0:
	// ServerTick; at most MaxTick). A longer tick packs more of what a connection gets
	// into each datagram: fewer datagrams, later relays.
	Tick time.Duration
	// FireEvery is how often a bot fires at a target in range (0: DefaultFireEvery;
	// negative: never).
	FireEvery time.Duration
	// Workers is how many goroutines step the clients (0: GOMAXPROCS).
	Workers int
	// Server is the server binary; "" builds examples/server into a temporary directory
	// (with the go command, from inside the module).
	Server string
	// Log, if set, gets a line per phase.
	Log io.Writer

	// liars is how many bots (the first ones) lie in every shot: they claim to fire
	// from liarLift metres above where they stand. Only the tests set it: the negative
	// control of the agreement check.
	liars int
}

// AutoSide is the side of the square over which players are spread so that each has
// about StreamRemotes others within StreamDistance: players × π d² / StreamRemotes = side².
func AutoSide(players int) float64 {
	n := float64(max(players, StreamRemotes+1))
	return math.Round(math.Sqrt(n * math.Pi * StreamDistance * StreamDistance / StreamRemotes))
}

func (c *Config) fill() error {
	if c.Players == 0 {
		c.Players = DefaultPlayers
	}
	if c.Duration == 0 {
		c.Duration = DefaultDuration
	}
	if c.Side == 0 {
		c.Side = AutoSide(c.Players)
	}
	if c.FireEvery == 0 {
		c.FireEvery = DefaultFireEvery
	}
	if c.Tick == 0 {
		c.Tick = ServerTick
	}
	switch {
	case c.Players < 1 || c.Players > MaxLoadPlayers:
		return fmt.Errorf("%w: players %d not in 1..%d", ErrConfig, c.Players, MaxLoadPlayers)
	case c.Duration < 0 || c.Duration > MaxDuration:
		return fmt.Errorf("%w: duration %v not in 0..%v", ErrConfig, c.Duration, MaxDuration)
	case c.Tick < 0 || c.Tick > MaxTick:
		return fmt.Errorf("%w: tick %v not in 0..%v", ErrConfig, c.Tick, MaxTick)
	case !(c.Side > 0 && c.Side <= 2*float64(maxCoord)):
		return fmt.Errorf("%w: side %v not in (0, %v]", ErrConfig, c.Side, 2*maxCoord)
	}
	return nil
}

//go:embed loadtest.lua
var gamemode string

// buildServer builds examples/server into dir and returns the binary's path.
func buildServer(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "arbiter-server")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/arbitergo/arbiter/examples/server")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build examples/server: %w: %s", err, out)
	}
	return bin, nil
}

// serverProc is the server under test, in its own process.
type serverProc struct {
	cmd     *exec.Cmd
	game    netip.AddrPort
	metrics string
	exited  chan struct{}
	err     error // Wait's result, once exited is closed

	mu     sync.Mutex
	notes  []string // the log lines above info level and the script's refusals (the first maxNotes)
	stderr strings.Builder
}

// maxNotes bounds the server log lines a report keeps.
const maxNotes = 20

// startServer runs bin with the load test's gamemode (side written into it) in dir, and
// waits for its "serving" line.
func startServer(ctx context.Context, bin, dir string, players int, side float64, tick time.Duration) (*serverProc, error) {
	mode := filepath.Join(dir, "loadtest.lua")
	if err := os.WriteFile(mode, fmt.Appendf(nil, "SIDE = %g\n%s", side, gamemode), 0o600); err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, "server.json")
	if err := os.WriteFile(conf, fmt.Appendf(nil, `{"respawn_delay": %q}`, RespawnDelay.String()), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-listen", "127.0.0.1:0", "-metrics", "127.0.0.1:0", "-log-json", "-config", conf,
		"-max-players", fmt.Sprint(players), "-gamemode", mode, "-tick", tick.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s := &serverProc{cmd: cmd, exited: make(chan struct{})}
	cmd.Stderr = &lockedWriter{mu: &s.mu, w: &s.stderr}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	ready := make(chan error, 1)
	go s.readLogs(out, ready)
	go func() {
		s.err = cmd.Wait()
		close(s.exited)
	}()
	timer := time.NewTimer(ServerStartTimeout)
	defer timer.Stop()
	select {
	case err = <-ready:
	case <-s.exited:
		err = fmt.Errorf("the server exited before serving: %v: %s", s.err, s.stderrText())
	case <-timer.C:
		err = errors.New("the server did not say it serves in time")
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// readLogs reads the server's JSON log lines: the first "serving" line gives its
// addresses; warnings, errors and the script's refusals are kept as notes.
func (s *serverProc) readLogs(r io.Reader, ready chan<- error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	served := false
	for sc.Scan() {
		var line struct {
			Level   string `json:"level"`
			Msg     string `json:"msg"`
			Listen  string `json:"listen"`
			Metrics string `json:"metrics"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		if !served && line.Msg == "serving" {
			served = true
			game, err := netip.ParseAddrPort(line.Listen)
			s.game, s.metrics = game, line.Metrics
			ready <- err
			continue
		}
		if line.Level != "INFO" && line.Level != "DEBUG" || strings.HasPrefix(line.Msg, "refused") {
			s.mu.Lock()
			if len(s.notes) < maxNotes {
				s.notes = append(s.notes, sc.Text())
			}
			s.mu.Unlock()
		}
	}
	_, _ = io.Copy(io.Discard, r)
	if !served {
		ready <- errors.New("the server's log ended before it served")
	}
}

func (s *serverProc) stderrText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// stop asks the server to shut down gracefully (SIGINT) and waits for it, killing it
// after ServerStopTimeout. It returns the process's exit error.
func (s *serverProc) stop() error {
	_ = s.cmd.Process.Signal(os.Interrupt)
	timer := time.NewTimer(ServerStopTimeout)
	defer timer.Stop()
	select {
	case <-s.exited:
		return s.err
	case <-timer.C:
		_ = s.cmd.Process.Kill()
		<-s.exited
		return fmt.Errorf("the server did not exit within %v of SIGINT: killed", ServerStopTimeout)
	}
}

// lockedWriter writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Run runs one load test: the server in its own process, cfg.Players honest clients in
// a udphost.Swarm on loopback sockets of their own, a warm-up, the measured window, a
// settle with the bots' fire held, and the agreement check. The error is for a test that
// could not run (no server, no sockets); what it measured, agreement included, is in the
// Report.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if err := cfg.fill(); err != nil {
		return Report{}, err
	}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	dir, err := os.MkdirTemp("", "arbiter-loadtest-")
	if err != nil {
		return Report{}, err
	}
	defer os.RemoveAll(dir)
	bin := cfg.Server
	if bin == "" {
		logf("building examples/server")
		if bin, err = buildServer(ctx, dir); err != nil {
			return Report{}, err
		}
	}
	srv, err := startServer(ctx, bin, dir, cfg.Players, cfg.Side, cfg.Tick)
	if err != nil {
		return Report{}, err
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = srv.stop()
		}
	}()
	logf("server pid %d serving on %v, metrics on %s", srv.cmd.Process.Pid, srv.game, srv.metrics)

	clients := make([]*client.Client, cfg.Players)
	conns := make([]net.PacketConn, cfg.Players)
	defer func() {
		for _, c := range conns {
			if c != nil {
				_ = c.Close() // the Swarm closed them already if it ran
			}
		}
	}()
	for i := range clients {
		if clients[i], err = client.New(client.Config{World: client.OpenField{}, Seed: uint64(i) + 1}); err != nil {
			return Report{}, err
		}
		uc, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		if err != nil {
			return Report{}, fmt.Errorf("client socket %d: %w", i, err)
		}
		_ = uc.SetReadBuffer(ClientReadBuffer)
		conns[i] = uc
	}
	swarm, err := udphost.NewSwarm(srv.game, clients, conns, cfg.Workers)
	if err != nil {
		return Report{}, err
	}
	var hold atomic.Bool // the bots hold their fire (the settle)
	bots := newBots(cfg)
	swarm.Play = func(i int, now time.Duration, c *client.Client) { bots[i].play(now, c, !hold.Load()) }
	sctx, stopSwarm := context.WithCancel(ctx)
	swarmDone := make(chan error, 1)
	go func() { swarmDone <- swarm.Run(sctx) }()
	swarmEnded := false
	defer func() { // an early return: the clients stop before their sockets are closed
		if !swarmEnded {
			stopSwarm()
			<-swarmDone
		}
	}()

	r := Report{Players: cfg.Players, Side: cfg.Side, Tick: cfg.Tick, Window: cfg.Duration, FireEvery: max(cfg.FireEvery, 0)}
	// Everyone joins and spawns.
	began := time.Now()
	for !allSpawned(bots) {
		if time.Since(began) > JoinTimeout || ctx.Err() != nil {
			r.Incidents = append(r.Incidents, fmt.Sprintf("only %d of %d clients spawned within %v", countSpawned(bots), cfg.Players, JoinTimeout))
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.JoinTime = time.Since(began)
	logf("%d players spawned in %v; warming up %v", countSpawned(bots), r.JoinTime.Round(time.Millisecond), Warmup)
	sleep(ctx, Warmup)

	// The measured window.
	before, err := scrape(srv.metrics)
	if err != nil {
		return r, err
	}
	cpu0, cpuErr := procCPU(srv.cmd.Process.Pid)
	self0, _ := selfCPU()
	ports := make(map[uint16]bool, len(conns))
	for _, c := range conns {
		ports[c.LocalAddr().(*net.UDPAddr).AddrPort().Port()] = true
	}
	sd0, cd0, dropErr := socketDrops(srv.game.Port(), ports)
	frames0 := bots.frames()
	t0 := time.Now()
	sleep(ctx, cfg.Duration)
	cpu1, cpuErr1 := procCPU(srv.cmd.Process.Pid)
	self1, _ := selfCPU()
	sd1, cd1, dropErr1 := socketDrops(srv.game.Port(), ports)
	if dropErr == nil && dropErr1 == nil {
		r.ServerDrops, r.ClientDrops = float64(sd1-sd0), float64(cd1-cd0)
	} else {
		r.ServerDrops, r.ClientDrops = math.NaN(), math.NaN()
	}
	wall := time.Since(t0)
	r.FrameRate = float64(bots.frames()-frames0) / wall.Seconds() / float64(cfg.Players)
	after, err := scrape(srv.metrics)
	if err != nil {
		return r, err
	}
	r.measure(before, after, wall)
	if cpuErr == nil && cpuErr1 == nil {
		r.ServerCPU = cpu1 - cpu0
		r.ServerCores = r.ServerCPU.Seconds() / wall.Seconds()
		r.CPUPerPlayer = float64(r.ServerCPU.Microseconds()) / wall.Seconds() / float64(cfg.Players)
	} else {
		r.Incidents = append(r.Incidents, fmt.Sprintf("server CPU not measured: %v", errors.Join(cpuErr, cpuErr1)))
	}
	r.GeneratorCores = (self1 - self0).Seconds() / wall.Seconds()
	logf("window of %v measured; settling", wall.Round(time.Millisecond))

	// The settle: the bots hold their fire until the deaths and respawns in flight agree.
	hold.Store(true)
	settled := time.Now()
	var last metricSet
	for {
		sleep(ctx, 500*time.Millisecond)
		if last, err = scrape(srv.metrics); err != nil {
			return r, err
		}
		if bots.settled(last) || time.Since(settled) > SettleTimeout || ctx.Err() != nil {
			break
		}
	}
	r.SettleTime = time.Since(settled)

	// The end: the server shuts down gracefully and tells every client so.
	stopped = true
	if err := srv.stop(); err != nil {
		r.Incidents = append(r.Incidents, fmt.Sprintf("server exit: %v", err))
	}
	end := time.NewTimer(ClientsEndTimeout)
	select {
	case <-swarmDone:
	case <-end.C:
		stopSwarm()
		<-swarmDone
	}
	end.Stop()
	swarmEnded = true
	stopSwarm()
	r.Swarm = swarm.Stats()
	r.Spread = bots.spread()
	r.agree(clients, last) // the clients are the caller's again: the Swarm returned
	for i, c := range clients {
		switch closed, reason := c.Closed(); {
		case !closed:
			// The three Disconnects of the shutdown are unreliable: all of them lost (a
			// full socket buffer) is no wrong, and the client would time out.
			r.MissedShutdown++
		case reason != wire.ReasonShutdown || !errors.Is(swarm.Err(i), udphost.ErrClosed):
			r.addWrong(&r.Wronged.Disconnected, "client %d's connection ended otherwise than by the server's shutdown: %v, %v", i, reason, swarm.Err(i))
		}
	}
	srv.mu.Lock()
	r.ServerNotes = append(r.ServerNotes, srv.notes...)
	srv.mu.Unlock()
	return r, nil
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
