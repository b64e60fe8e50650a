package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// The metric names the server exposes (Prometheus text format, on -metrics).
const (
	metricPlayers         = "arbiter_players"
	metricDatagramsIn     = "arbiter_datagrams_received_total"
	metricDatagramsOut    = "arbiter_datagrams_sent_total"
	metricRetransmissions = "arbiter_lane_retransmissions_total"
	metricRefusals        = "arbiter_refusals_total"
	metricDeaths          = "arbiter_deaths_total"
	metricRespawns        = "arbiter_respawns_total"
	metricTickSeconds     = "arbiter_tick_seconds"
	metricDeathCommits    = "arbiter_death_commits_total"
	metricGodModeCuts     = "arbiter_god_mode_cuts_total"
	metricConnCaps        = "arbiter_conn_caps_total"
	metricWriterWaits     = "arbiter_writer_waits_total"
)

// metrics is the server's instruments, on a registry of their own (not the global one),
// so that two servers in one process (the tests) do not collide.
type metrics struct {
	reg                  *prometheus.Registry
	players              prometheus.Gauge
	in, out, retransmits prometheus.Counter
	deaths, respawns     prometheus.Counter
	godModeCuts          prometheus.Counter
	writerWaits          prometheus.Counter
	refusals             *prometheus.CounterVec
	deathCommits         *prometheus.CounterVec
	connCaps             *prometheus.CounterVec
	tick                 prometheus.Summary
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		players: prometheus.NewGauge(prometheus.GaugeOpts{Name: metricPlayers,
			Help: "Connected players."}),
		in: prometheus.NewCounter(prometheus.CounterOpts{Name: metricDatagramsIn,
			Help: "Datagrams read from the socket."}),
		out: prometheus.NewCounter(prometheus.CounterOpts{Name: metricDatagramsOut,
			Help: "Datagrams written to the socket."}),
		retransmits: prometheus.NewCounter(prometheus.CounterOpts{Name: metricRetransmissions,
			Help: "Reliable-lane retransmissions, summed over the connections (sampled every second)."}),
		deaths: prometheus.NewCounter(prometheus.CounterOpts{Name: metricDeaths,
			Help: "Deaths the server committed."}),
		respawns: prometheus.NewCounter(prometheus.CounterOpts{Name: metricRespawns,
			Help: "Respawns the server granted."}),
		godModeCuts: prometheus.NewCounter(prometheus.CounterOpts{Name: metricGodModeCuts,
			Help: "Frames whose health or armor the server cut to its ledger (god_mode)."}),
		deathCommits: prometheus.NewCounterVec(prometheus.CounterOpts{Name: metricDeathCommits,
			Help: "Deaths the server committed, by what committed them (by_report: the victim's own report)."},
			[]string{"source"}),
		connCaps: prometheus.NewCounterVec(prometheus.CounterOpts{Name: metricConnCaps,
			Help: "What the per-connection caps refused or dropped, summed over the connections (sampled every second)."},
			[]string{"cap"}),
		writerWaits: prometheus.NewCounter(prometheus.CounterOpts{Name: metricWriterWaits,
			Help: "Times the World's goroutine waited for the socket's writing goroutine (all its batches in flight; sampled every second)."}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: metricRefusals,
			Help: "Refusals by who refused (host: the handshake; world: the World's verdicts) and reason."},
			[]string{"by", "reason"}),
		tick: prometheus.NewSummary(prometheus.SummaryOpts{Name: metricTickSeconds,
			Help:       "Time one tick takes: timers, events, gamemode and flush.",
			Objectives: map[float64]float64{0.5: 0.05, 0.99: 0.001}, MaxAge: time.Minute}),
	}
	m.reg.MustRegister(m.players, m.in, m.out, m.retransmits, m.deaths, m.respawns, m.refusals, m.tick,
		m.godModeCuts, m.deathCommits, m.connCaps, m.writerWaits)
	return m
}

// MetricsReadTimeout bounds how long a scrape's request may take to arrive.
const MetricsReadTimeout = 5 * time.Second

// serveMetrics listens on addr and serves the registry at /metrics until ctx is done.
// It returns the bound address.
func (m *metrics) serve(ctx context.Context, addr string) (net.Addr, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: MetricsReadTimeout}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the listener failed; the game goes on without metrics
		}
	}()
	stop := func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-done
	}
	return ln.Addr(), stop, nil
}
