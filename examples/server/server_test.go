package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/replay"
	"github.com/arbitergo/arbiter/examples/udphost"
	"github.com/arbitergo/arbiter/wire"
)

// lockedBuffer is a bytes.Buffer safe for the server's logger and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// served is a server started by startServer.
type served struct {
	game    netip.AddrPort
	metrics net.Addr
	cancel  context.CancelFunc
	code    chan int
	logs    *lockedBuffer
}

// startServer runs the command on a loopback port with the config file cfg and opts.
func startServer(t *testing.T, cfg string, opts options, args ...string) *served {
	t.Helper()
	path := filepath.Join(t.TempDir(), "server.json")
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o600))
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	t.Cleanup(cancel)
	s := &served{cancel: cancel, code: make(chan int, 1), logs: &lockedBuffer{}}
	ready := make(chan struct{})
	opts.ready = func(game netip.AddrPort, m net.Addr) {
		s.game, s.metrics = game, m
		close(ready)
	}
	go func() {
		s.code <- runWith(ctx, append([]string{"-listen", "127.0.0.1:0", "-metrics", "127.0.0.1:0", "-config", path, "-log-json"}, args...),
			s.logs, s.logs, opts)
	}()
	select {
	case <-ready:
	case code := <-s.code:
		t.Fatalf("the server exited with %d before serving: %s", code, s.logs.String())
	}
	return s
}

// scrape reads the metrics page.
func scrape(t *testing.T, addr net.Addr) string {
	t.Helper()
	resp, err := http.Get("http://" + addr.String() + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}

// dialRaw opens a UDP socket that speaks raw bytes to the server.
func dialRaw(t *testing.T, to netip.AddrPort) *net.UDPConn {
	t.Helper()
	c, err := net.DialUDP("udp4", nil, net.UDPAddrFromAddrPort(to))
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// answer sends d and returns the Disconnect the server answers it with.
func answer(t *testing.T, c *net.UDPConn, d []byte) wire.Reason {
	t.Helper()
	require.NoError(t, c.SetReadDeadline(time.Now().Add(3*time.Second)))
	var buf [udphost.MaxDatagram]byte
	for {
		_, err := c.Write(d)
		require.NoError(t, err)
		_ = c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		n, err := c.Read(buf[:])
		if err != nil {
			continue // the datagram or the answer was lost on loopback: ask again
		}
		var dec wire.Decoder
		m, err := dec.Decode(buf[:n])
		require.NoError(t, err)
		disc, ok := m.(*wire.Disconnect)
		require.True(t, ok, "the server answers with a Disconnect, not %T", m)
		return disc.Reason
	}
}

// TestServerRunsAMatchOverLoopback starts the command on a loopback UDP port with three
// honest clients (examples/client in an examples/udphost Swarm) and plays in real time, five
// seconds at most: every client joins and spawns, one shoots another (the hits are
// credited), the gamemode kills a third through set_health(0) and the World respawns it;
// a fourth connection is refused as the server is full and a datagram of another protocol
// version is refused, both with a Disconnect; the metrics answer over HTTP; no honest
// player is wronged and every client's health agrees with the server's ledger; at the
// cancel every client gets a Disconnect(shutdown) and the command returns 0.
func TestServerRunsAMatchOverLoopback(t *testing.T) {
	const players = 3
	var (
		mu      sync.Mutex
		events  []refserver.Event
		ledger  = map[worldID]float32{}
		alive   = map[worldID]bool{}
		victim  atomic.Int32 // the player the gamemode kills, +1 (0: not chosen yet)
		killed  atomic.Bool
		respawn atomic.Bool // the victim was granted a respawn and spawned again
	)
	victim.Store(0)
	s := startServer(t, `{"max_players": 3, "respawn_delay": "300ms",
		"loadout": [{"weapon": 31, "ammo": 200, "current": true}]}`, options{
		event: func(e refserver.Event) {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
			if e.Kind == refserver.EventPlayerSpawn && !e.Connect && killed.Load() && int32(e.Player)+1 == victim.Load() {
				respawn.Store(true)
			}
		},
		gamemode: func(now time.Duration, w *replay.Recorder) {
			v := victim.Load()
			if v == 0 || killed.Load() {
				return
			}
			if w.SetHealth(now, worldID(v-1), 0) == nil {
				killed.Store(true)
			}
		},
		final: func(now time.Duration, w *refserver.World) {
			mu.Lock()
			defer mu.Unlock()
			for _, id := range w.Players(nil) {
				v, err := w.Vitals(id)
				if err == nil {
					ledger[id] = v.Health
				}
				alive[id] = w.Alive(id)
			}
		},
	}, "-gamemode", "none") // its own gamemode hook: the built-in deathmatch would put two of the three in one team

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a bound for a loaded machine: the test ends as soon as its conditions are met
	defer cancel()
	var clients []*client.Client
	var conns []net.PacketConn
	var seeing, hit atomic.Int32
	var stop atomic.Bool
	for i := range players {
		c, err := client.New(client.Config{World: client.OpenField{}, Seed: uint64(i)})
		require.NoError(t, err)
		clients = append(clients, c)
		conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		require.NoError(t, err)
		conns = append(conns, conn)
	}
	// The clients run in one Swarm of two goroutines: each client's state below is
	// touched only in its own Play.
	swarm, err := udphost.NewSwarm(s.game, clients, conns, 2)
	require.NoError(t, err)
	var sees, wasHit [players]bool
	var shots [players]int
	swarm.Play = func(i int, now time.Duration, c *client.Client) {
		self, ok := c.PlayerID()
		if !ok || !c.Alive() || stop.Load() {
			return
		}
		stand := wire.Vec3{X: float32(15 * i), Z: 10}
		if c.Position() != stand {
			_ = c.Move(now, stand, wire.Vec3{}, 0)
		}
		var target wire.PlayerID
		seen := 0
		for _, id := range c.AppendRemotes(nil) {
			if r, _ := c.Remote(id); id != self && r.Copy.Alive && r.Position.Z == 10 {
				if seen++; seen == 1 {
					target = id
				}
			}
		}
		if !sees[i] && seen == players-1 {
			sees[i] = true
			seeing.Add(1)
			if i == 2 {
				victim.Store(int32(self) + 1) // the gamemode kills client 2 once everyone stands
			}
		}
		if !wasHit[i] && c.Health() < 100 && i != 2 {
			wasHit[i] = true
			hit.Add(1)
		}
		if i != 0 || !sees[i] || shots[i] >= 5 || target == fromClientsVictim(&victim) {
			return
		}
		r, _ := c.Remote(target)
		if a, err := c.Fire(now, 31, wire.HitPlayer, uint16(target), c.Position(), r.Position); err == nil && a.Verdict == client.Acted {
			shots[i]++
		}
	}
	swarmDone := make(chan error, 1)
	go func() { swarmDone <- swarm.Run(ctx) }()
	for ctx.Err() == nil && (seeing.Load() < players || hit.Load() == 0 || !respawn.Load()) {
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, ctx.Err(), "the match reached a hit, a death and a respawn in time")

	// The server is full: a fourth connection's Hello is refused with a Disconnect, and so
	// is a datagram of another protocol version.
	hello, err := (&wire.Hello{}).Append(nil)
	require.NoError(t, err)
	require.Equal(t, wire.ReasonFull, answer(t, dialRaw(t, s.game), hello), "a full server refuses a new connection")
	other := append([]byte(nil), hello...)
	other[0] = wire.Version + 1
	require.Equal(t, wire.ReasonVersion, answer(t, dialRaw(t, s.game), other), "another protocol version is refused")

	// Let the last damage reports and the respawn settle before the ledgers are compared.
	stop.Store(true)
	time.Sleep(300 * time.Millisecond)

	page := scrape(t, s.metrics)
	for _, name := range []string{metricPlayers + " 3", metricDatagramsIn, metricDatagramsOut, metricRetransmissions,
		metricDeaths, metricRespawns, metricTickSeconds + `{quantile="0.5"}`, metricTickSeconds + `{quantile="0.99"}`,
		metricRefusals + `{by="host",reason="server_full"}`, metricRefusals + `{by="host",reason="version"}`,
		metricGodModeCuts + " 0", metricDeathCommits + `{source="`} {
		require.Contains(t, page, name, "the metrics page")
	}

	s.cancel()
	require.Equal(t, 0, <-s.code, "the command returns 0 after a graceful shutdown")
	require.NoError(t, <-swarmDone, "the swarm ended with its clients' connections")

	for i, c := range clients {
		closed, reason := c.Closed()
		require.True(t, closed, "client %d was disconnected", i)
		require.Equal(t, wire.ReasonShutdown, reason, "client %d was told the server shuts down", i)
		require.ErrorIs(t, swarm.Err(i), udphost.ErrClosed, "client %d's run ended with its connection", i)
	}
	mu.Lock()
	defer mu.Unlock()
	var deaths, respawns, credited, leaves int
	for _, e := range events {
		switch e.Kind {
		case refserver.EventPlayerDeath:
			deaths++
		case refserver.EventPlayerSpawn:
			if !e.Connect {
				respawns++
			}
		case refserver.EventPlayerDamage:
			credited++
		case refserver.EventPlayerLeave:
			leaves++
		case refserver.EventGodMode, refserver.EventShotRefused, refserver.EventReportNotCredited, refserver.EventCommandRefused:
			t.Fatalf("an honest player was wronged: %v", e)
		}
	}
	require.Equal(t, 1, deaths, "the gamemode's set_health(0) killed one player")
	require.Equal(t, 1, respawns, "and the World respawned it")
	require.Positive(t, credited, "the shots were credited")
	require.Equal(t, players, leaves, "every player left at the shutdown")
	for i, c := range clients {
		cid, ok := c.PlayerID()
		require.True(t, ok, "client %d joined", i)
		id := worldID(cid)
		require.Contains(t, ledger, id)
		require.True(t, alive[id], "client %d is alive on the server at the end", i)
		require.True(t, c.Alive(), "client %d is alive at the end", i)
		require.InDelta(t, ledger[id], c.Health(), 0.01, "the server's ledger agrees with client %d", i)
	}
	logs := s.logs.String()
	for _, msg := range []string{"serving", "player_join", "player_death", "player_leave", "refusals", "shutdown"} {
		require.Contains(t, logs, `"msg":"`+msg+`"`, "the logs")
	}
	require.Contains(t, logs, `"reason":"server_full","count":1`, "the refusals are logged as counts per reason")
	var first map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.SplitN(logs, "\n", 2)[0]), &first), "-log-json writes JSON lines")
}

// fromClientsVictim is the victim's id, or an id no player has.
func fromClientsVictim(v *atomic.Int32) wire.PlayerID {
	if n := v.Load(); n > 0 {
		return wire.PlayerID(n - 1)
	}
	return refserver.NoPlayer
}

// TestServerAdvisesHugePagesUnlessTold: by default the server asks for huge pages for
// its heap and logs what it got (or that the platform has none) before it exits;
// -hugepages=false leaves the heap alone.
func TestServerAdvisesHugePagesUnlessTold(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{{nil, true}, {[]string{"-hugepages=false"}, false}} {
		s := startServer(t, `{"max_players": 4}`, options{}, c.args...)
		s.cancel()
		require.Equal(t, 0, <-s.code, "%v", c.args)
		require.Equal(t, c.want, strings.Contains(s.logs.String(), `"msg":"huge_pages"`), "%v: %s", c.args, s.logs.String())
	}
}
