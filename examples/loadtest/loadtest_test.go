package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var loadDuration = flag.Duration("load.duration", 10*time.Second, "the measured window of BenchmarkLoad")

// The server binary, built once per test process.
var (
	buildOnce sync.Once
	serverBin string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// server returns the examples/server binary, built on first use.
func server(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "arbiter-loadtest-bin-"); buildErr == nil {
			serverBin, buildErr = buildServer(context.Background(), buildDir)
		}
	})
	require.NoError(tb, buildErr)
	return serverBin
}

// TestHonestClientsAgreeWithTheServerOverLoopback runs a short load test (8 players close
// together, each firing about four times a second, a 2 s window): the server in its own
// process, the clients over loopback UDP. Nobody honest is wronged (no refusal, no cut
// frame, no cap, the deaths and respawns the clients lived are the server's, every
// client ended with the shutdown); players died, so the death check compared something;
// and the figures were measured.
func TestHonestClientsAgreeWithTheServerOverLoopback(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a bound for a loaded machine
	defer cancel()
	r, err := Run(ctx, Config{Players: 8, Duration: 2 * time.Second, Side: 30, FireEvery: 250 * time.Millisecond,
		Workers: 2, Server: server(t), Log: &log})
	require.NoError(t, err, log.String())
	t.Log(r)
	require.Zero(t, r.HonestWronged, "%v", r.Incidents)
	require.Positive(t, r.Deaths, "players died: the death check compared something")
	require.Positive(t, r.FrameRate, "the clients sent frames in the window")
	require.Positive(t, r.Out, "the server sent datagrams in the window")
	require.Positive(t, r.In, "the server received datagrams in the window")
	require.Positive(t, r.Swarm.Received, "the clients received the server's datagrams")
	require.Greater(t, r.Spread, r.Side/2, "the gamemode spread the spawn points over the square")
	require.LessOrEqual(t, r.Spread, r.Side)
	require.Zero(t, r.MissedShutdown, "every client took the shutdown's Disconnect (8 players lose nothing on loopback)")
	if runtime.GOOS == "linux" {
		require.Positive(t, r.ServerCPU, "the server's CPU was measured")
		require.False(t, math.IsNaN(r.ServerDrops) || math.IsNaN(r.ClientDrops), "the sockets' drops were measured")
	}
}

// TestTheAgreementCheckSeesALiar is the negative control of the agreement check: one of
// four clients claims every shot from liarLift metres above where it stands. The
// server refuses those shots (far from the shooter's accepted path), and the check
// counts them as refused: the check reads what the server refused.
func TestTheAgreementCheckSeesALiar(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var log bytes.Buffer
	r, err := Run(ctx, Config{Players: 4, Duration: time.Second, Side: 20, FireEvery: 200 * time.Millisecond,
		Workers: 1, Server: server(t), Log: &log, liars: 1})
	require.NoError(t, err, log.String())
	t.Log(r)
	require.Positive(t, r.Wronged.Refused, "the liar's shots were refused and counted")
	require.Contains(t, strings.Join(r.Incidents, "\n"), "far_origin")
}

// TestAgreementCountsEveryRefusal checks the agreement check on a metrics page: every
// refusal of the World but the sanctioned ones, the handshake's but a repeated Hello,
// the god-mode cuts, the caps but the shed relays (a refusal by a cap, rate_limited, is
// counted once), and the difference of deaths and respawns are wrongs.
func TestAgreementCountsEveryRefusal(t *testing.T) {
	page := `# HELP arbiter_players Connected players.
arbiter_players 0
arbiter_refusals_total{by="world",reason="far_origin"} 3
arbiter_refusals_total{by="world",reason="target_not_alive"} 5
arbiter_refusals_total{by="world",reason="teammate"} 1
arbiter_refusals_total{by="world",reason="rate_limited"} 4
arbiter_refusals_total{by="host",reason="hello_on_live"} 2
arbiter_refusals_total{by="host",reason="malformed"} 1
arbiter_god_mode_cuts_total 2
arbiter_conn_caps_total{cap="frames_over_rate"} 4
arbiter_conn_caps_total{cap="outbox_dropped"} 9
arbiter_deaths_total 2
arbiter_death_commits_total{source="by_server"} 2
arbiter_respawns_total 1
`
	m, err := parseMetrics(strings.NewReader(page))
	require.NoError(t, err)
	var r Report
	r.agree(nil, m)
	require.Equal(t, Wronged{Refused: 3, HostRefused: 1, CutFrames: 2, RateLimited: 4, Deaths: 3}, r.Wronged)
	require.Equal(t, 13, r.HonestWronged)
	require.Equal(t, 9.0, r.OutboxDropped, "shed relays are reported, not counted as a wrong")

	_, err = parseMetrics(strings.NewReader("arbiter_players\n"))
	require.Error(t, err, "a sample without a value")
	_, err = parseMetrics(strings.NewReader("arbiter_players x\n"))
	require.Error(t, err, "a sample whose value is no number")
}

// TestConfigBounds refuses a load test out of its bounds and sizes the default spread.
func TestConfigBounds(t *testing.T) {
	for _, c := range []Config{{Players: -1}, {Players: MaxLoadPlayers + 1}, {Duration: -time.Second},
		{Duration: MaxDuration + 1}, {Side: -1}, {Side: 3 * maxCoord}, {Tick: -time.Millisecond}, {Tick: MaxTick + 1}} {
		_, err := Run(context.Background(), c)
		require.ErrorIs(t, err, ErrConfig, "%+v", c)
	}
	// About StreamRemotes others within StreamDistance: N π d² / side² ≈ StreamRemotes.
	for _, n := range []int{101, 1000} {
		side := AutoSide(n)
		within := float64(n) * 3.14159 * StreamDistance * StreamDistance / (side * side)
		require.InDelta(t, StreamRemotes, within, 1, "players %d side %v", n, side)
	}
	require.Equal(t, AutoSide(StreamRemotes+1), AutoSide(8), "a few players share the square of StreamRemotes+1")
}

// BenchmarkLoad runs the load test at 100 and 1,000 players (a load-test.duration window
// each, 10 s by default) and reports the server's CPU (cores, µs per player per
// second), its datagrams per tick both ways, the generator's CPU, and the agreement
// check (honest-wronged, which must be 0).
//
//	go test -run '^$' -bench Load -benchtime 1x ./examples/loadtest/
func BenchmarkLoad(b *testing.B) {
	bin := server(b)
	for _, players := range []int{100, 1000} {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			for b.Loop() {
				var log bytes.Buffer
				ctx, cancel := context.WithTimeout(context.Background(), *loadDuration+5*time.Minute)
				r, err := Run(ctx, Config{Players: players, Duration: *loadDuration, Server: bin, Log: &log})
				cancel()
				if err != nil {
					b.Fatalf("%v\n%s", err, log.String())
				}
				b.Log("\n" + r.String())
				b.ReportMetric(r.ServerCores, "server-cores")
				b.ReportMetric(r.CPUPerPlayer, "server-µs/player/s")
				b.ReportMetric(r.OutPerTick, "sent-datagrams/tick")
				b.ReportMetric(r.InPerTick, "received-datagrams/tick")
				b.ReportMetric(r.GeneratorCores, "generator-cores")
				b.ReportMetric(r.FrameRate, "frames/player/s")
				b.ReportMetric(float64(r.HonestWronged), "honest-wronged")
				if r.HonestWronged > 0 {
					b.Errorf("honest players wronged: %d: %v", r.HonestWronged, r.Incidents)
				}
			}
		})
	}
}
