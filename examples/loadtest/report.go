package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/udphost"
)

// The server's metrics the load test reads (examples/server's names).
const (
	metricPlayers      = "arbiter_players"
	metricDatagramsIn  = "arbiter_datagrams_received_total"
	metricDatagramsOut = "arbiter_datagrams_sent_total"
	metricRetransmits  = "arbiter_lane_retransmissions_total"
	metricRefusals     = "arbiter_refusals_total"
	metricDeaths       = "arbiter_deaths_total"
	metricDeathCommits = "arbiter_death_commits_total"
	metricRespawns     = "arbiter_respawns_total"
	metricGodModeCuts  = "arbiter_god_mode_cuts_total"
	metricConnCaps     = "arbiter_conn_caps_total"
	metricTickSeconds  = "arbiter_tick_seconds"
)

// MaxMetricsBytes bounds the metrics page the load test reads.
const MaxMetricsBytes = 4 << 20

// MetricsTimeout bounds one scrape of the server's metrics.
const MetricsTimeout = 10 * time.Second

// metricSet is a metrics page: each sample's name with its labels ("name{a="b"}") and
// its value.
type metricSet map[string]float64

// get returns the sample named key (0 if absent).
func (m metricSet) get(key string) float64 { return m[key] }

// sum returns the sum of the samples of metric name whose labels contain every one of
// labels (`by="world"`), and each such sample's labels (what lies between the braces)
// with its value.
func (m metricSet) sum(name string, labels ...string) (float64, map[string]float64) {
	total, each := 0.0, map[string]float64{}
	for k, v := range m {
		rest, ok := strings.CutPrefix(k, name+"{")
		if !ok {
			continue
		}
		match := true
		for _, l := range labels {
			match = match && strings.Contains(rest, l)
		}
		if match {
			total += v
			each[strings.TrimSuffix(rest, "}")] = v
		}
	}
	return total, each
}

// scrape reads the server's metrics page at addr (Prometheus text format).
func scrape(addr string) (metricSet, error) {
	hc := http.Client{Timeout: MetricsTimeout}
	resp, err := hc.Get("http://" + addr + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("metrics: %s", resp.Status)
	}
	return parseMetrics(io.LimitReader(resp.Body, MaxMetricsBytes))
}

// parseMetrics reads samples of the Prometheus text format: "name{labels} value" lines;
// comments and blank lines are skipped.
func parseMetrics(r io.Reader) (metricSet, error) {
	m := metricSet{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			return nil, fmt.Errorf("metrics: no value in %q", line)
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			return nil, fmt.Errorf("metrics: %q: %w", line, err)
		}
		m[line[:i]] = v
	}
	return m, sc.Err()
}

// Report is what one load test measured.
type Report struct {
	// Players, Side (metres), Tick (the server's) and FireEvery are the test's settings;
	// Window the measured window as it ran.
	Players   int
	Side      float64
	Tick      time.Duration
	FireEvery time.Duration
	Window    time.Duration
	// Spread is the larger side of the box around the players' first spawn points (at
	// most Side: the gamemode spreads them over the square).
	Spread float64
	// JoinTime is how long everyone took to join and spawn; SettleTime the settle.
	JoinTime, SettleTime time.Duration

	// ServerCPU is the server process's CPU time (user + system) over the window;
	// ServerCores that per second of the window; CPUPerPlayer the µs of server CPU per
	// player per second. GeneratorCores is the load generator's own (this process).
	ServerCPU      time.Duration
	ServerCores    float64
	CPUPerPlayer   float64
	GeneratorCores float64

	// FrameRate is the frames (PlayerSync) each client sent per second in the window: 30
	// when the generator keeps up (transport.FrameInterval).
	FrameRate float64
	// Ticks is the server ticks in the window (the window over Tick); In and Out
	// the datagrams the server read and wrote in it; InPerTick and OutPerTick per tick.
	Ticks                 float64
	In, Out               float64
	InPerTick, OutPerTick float64
	// Retransmits are the lanes' retransmissions in the window.
	Retransmits float64
	// ServerDrops and ClientDrops are the datagrams the kernel dropped in the window for
	// want of room in the receive buffer of the server's socket and of the clients'
	// (Linux's /proc/net/udp; NaN where not measured). Loopback loses nothing else.
	ServerDrops, ClientDrops float64
	// TickP50 and TickP99 are the server's tick durations (its summary, last minute).
	TickP50, TickP99 time.Duration
	// Deaths and Respawns are the server's counts over the whole test.
	Deaths, Respawns float64
	// OutboxDropped is other players' datagrams the server's per-connection outboxes had
	// no room for (load shed, not a refusal of anything a client sent).
	OutboxDropped float64

	// Swarm is what the clients sent and received, over the whole test.
	Swarm udphost.SwarmStats
	// MissedShutdown counts clients that took none of the server's Disconnect(shutdown)
	// datagrams (unreliable; all of them dropped by a full socket buffer): they would
	// time out. Not a wrong.
	MissedShutdown int

	// HonestWronged is the sum of Wronged: every way the agreement check found an
	// honest player wronged. The promise is 0.
	HonestWronged int
	Wronged       Wronged
	// Incidents say what went wrong (the first MaxIncidents), and what could not be
	// measured.
	Incidents []string
	// ServerNotes are the server's log lines above info level and its script's refusals.
	ServerNotes []string
}

// MaxIncidents bounds Report.Incidents.
const MaxIncidents = 20

// Wronged counts the ways the agreement check found an honest player wronged: what the
// server refused of honest clients, and where the two sides disagree.
type Wronged struct {
	// Refused: the World's refusals of the clients' input (shots, reports, frames,
	// commands), but the ones the records prescribe when the world changed under an
	// action (the target died or became a teammate while the shot flew).
	Refused int
	// HostRefused: datagrams the server's handshake refused (a lost Welcome's retried
	// Hello that arrived after the lane delivered is only counted in Report, not here).
	HostRefused int
	// CutFrames: frames whose health or armor the server cut as god mode.
	CutFrames int
	// RateLimited: what the per-connection caps refused (datagrams, frames, launches
	// over their rates, relays over the fan-out share, refusal diagnostics suppressed).
	RateLimited int
	// Deaths: the deaths the clients lived and the deaths the server committed differ
	// (an early death is a death the server committed while the client lived on), and
	// the same for respawns; counted as the difference.
	Deaths int
	// Clients: clients that did not join, broke their lane, sent what the transport
	// refused, or took a datagram the transport refused.
	Clients int
	// Disconnected: clients whose connection ended otherwise than by the server's
	// shutdown (their lane broke, they were kicked or timed out).
	Disconnected int
}

// Sum returns the total of the parts.
func (w Wronged) Sum() int {
	return w.Refused + w.HostRefused + w.CutFrames + w.RateLimited + w.Deaths + w.Clients + w.Disconnected
}

// sanctioned are the World's refusals of an honest action the records prescribe: its
// target died, or became a teammate, while it flew (refserver's verdict names).
var sanctioned = map[string]bool{"target_not_alive": true, "teammate": true}

// harmlessHost are the handshake's refusals an honest client can meet without losing
// anything: a Hello repeated while its Welcome was on its way, arriving after the lane
// delivered.
var harmlessHost = map[string]bool{"hello_on_live": true}

func (r *Report) addWrong(part *int, format string, args ...any) {
	*part++
	r.HonestWronged = r.Wronged.Sum()
	if len(r.Incidents) < MaxIncidents {
		r.Incidents = append(r.Incidents, fmt.Sprintf(format, args...))
	}
}

// addWrongN adds n to part with one incident line.
func (r *Report) addWrongN(part *int, n int, format string, args ...any) {
	if n <= 0 {
		return
	}
	*part += n - 1
	r.addWrong(part, format, args...)
}

// measure fills the window's figures from the metrics before and after it.
func (r *Report) measure(before, after metricSet, wall time.Duration) {
	r.Window = wall
	r.Ticks = wall.Seconds() / r.Tick.Seconds()
	r.In = after.get(metricDatagramsIn) - before.get(metricDatagramsIn)
	r.Out = after.get(metricDatagramsOut) - before.get(metricDatagramsOut)
	r.InPerTick, r.OutPerTick = r.In/r.Ticks, r.Out/r.Ticks
	r.Retransmits = after.get(metricRetransmits) - before.get(metricRetransmits)
	r.TickP50 = seconds(after.get(metricTickSeconds + `{quantile="0.5"}`))
	r.TickP99 = seconds(after.get(metricTickSeconds + `{quantile="0.99"}`))
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// agree is the agreement check, on the server's metrics m after the settle and the
// clients after they stopped.
func (r *Report) agree(clients []*client.Client, m metricSet) {
	r.Deaths, r.Respawns = m.get(metricDeaths), m.get(metricRespawns)
	r.OutboxDropped = m.get(metricConnCaps + `{cap="outbox_dropped"}`)
	if p := m.get(metricPlayers); int(p) != len(clients) {
		r.addWrong(&r.Wronged.Clients, "the server holds %v players of %d", p, len(clients))
	}
	_, world := m.sum(metricRefusals, `by="world"`)
	for labels, v := range world {
		// rate_limited is what the per-connection caps refused: counted once, in
		// RateLimited, from the caps' own counters.
		if reason := labelValue(labels, "reason"); !sanctioned[reason] && reason != "rate_limited" {
			r.addWrongN(&r.Wronged.Refused, int(v), "the server refused %v of the honest clients' input: %s", v, labels)
		}
	}
	_, host := m.sum(metricRefusals, `by="host"`)
	for labels, v := range host {
		if !harmlessHost[labelValue(labels, "reason")] {
			r.addWrongN(&r.Wronged.HostRefused, int(v), "the handshake refused %v datagrams: %s", v, labels)
		}
	}
	r.addWrongN(&r.Wronged.CutFrames, int(m.get(metricGodModeCuts)), "%v frames cut as god mode", m.get(metricGodModeCuts))
	_, caps := m.sum(metricConnCaps)
	for labels, v := range caps {
		if labelValue(labels, "cap") != "outbox_dropped" {
			r.addWrongN(&r.Wronged.RateLimited, int(v), "the per-connection caps took %v: %s", v, labels)
		}
	}
	var deaths, respawns int
	for i, c := range clients {
		n := c.Counters()
		deaths += n.Deaths
		respawns += n.Respawns
		if _, ok := c.PlayerID(); !ok || !c.Spawned() {
			r.addWrong(&r.Wronged.Clients, "client %d never joined and spawned", i)
		}
		if n.Malformed > 0 || n.SendErrors > 0 {
			r.addWrong(&r.Wronged.Clients, "client %d: %d datagrams malformed, %d messages not sent", i, n.Malformed, n.SendErrors)
		}
	}
	if d := abs(deaths - int(r.Deaths)); d > 0 {
		_, commits := m.sum(metricDeathCommits)
		r.addWrongN(&r.Wronged.Deaths, d, "the clients died %d times, the server committed %v deaths (%v)", deaths, r.Deaths, commits)
	}
	if d := abs(respawns - int(r.Respawns)); d > 0 {
		r.addWrongN(&r.Wronged.Deaths, d, "the clients respawned %d times, the server granted %v respawns", respawns, r.Respawns)
	}
	r.HonestWronged = r.Wronged.Sum()
}

// labelValue returns the value of label name in a label text (a="b",c="d").
func labelValue(labels, name string) string {
	for l := range strings.SplitSeq(labels, ",") {
		if v, ok := strings.CutPrefix(l, name+"="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// String is the report as the command prints it.
func (r Report) String() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("load test: %d players over %.0f m × %.0f m, a shot each %v, window %v (server tick %v)\n",
		r.Players, r.Side, r.Side, r.FireEvery, r.Window.Round(time.Millisecond), r.Tick)
	p("  joined and spawned in %v (spawn points spread over %.0f m), settled in %v\n",
		r.JoinTime.Round(time.Millisecond), r.Spread, r.SettleTime.Round(time.Millisecond))
	p("  server CPU: %.3f cores, %.1f µs per player per second (%v in the window)\n", r.ServerCores, r.CPUPerPlayer, r.ServerCPU)
	p("  server tick: p50 %v, p99 %v\n", r.TickP50, r.TickP99)
	p("  server datagrams per tick: %.1f received, %.1f sent (%.0f / %.0f per second)\n",
		r.InPerTick, r.OutPerTick, r.In/r.Window.Seconds(), r.Out/r.Window.Seconds())
	p("  in the window: %.0f lane retransmissions; datagrams dropped by full socket buffers: %.0f at the server, %.0f at the clients; relays shed (outbox full): %.0f\n",
		r.Retransmits, r.ServerDrops, r.ClientDrops, r.OutboxDropped)
	p("  generator: %.3f cores; %.1f frames per player per second; clients sent %d, received %d datagrams; %d late ticks\n",
		r.GeneratorCores, r.FrameRate, r.Swarm.Sent, r.Swarm.Received, r.Swarm.Late)
	p("  deaths %.0f, respawns %.0f; clients that missed the shutdown's Disconnect: %d\n", r.Deaths, r.Respawns, r.MissedShutdown)
	w := r.Wronged
	p("  honest players wronged: %d (refused %d, host refused %d, cut frames %d, rate limited %d, deaths %d, clients %d, disconnected %d)\n",
		r.HonestWronged, w.Refused, w.HostRefused, w.CutFrames, w.RateLimited, w.Deaths, w.Clients, w.Disconnected)
	for _, s := range r.Incidents {
		p("    %s\n", s)
	}
	for _, s := range r.ServerNotes {
		p("  server: %s\n", s)
	}
	return b.String()
}
