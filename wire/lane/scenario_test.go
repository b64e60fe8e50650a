package lane

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/arbitergo/arbiter/internal/docrules"
	"github.com/arbitergo/arbiter/internal/scenario"
)

// The scenario driver. Each file in testdata/scenarios holds scenarios read with
// datadriven: a "# name" comment citing the rules it shows by their bracketed names, then
// one "run" block whose input is a list of timed events, one per line (see
// internal/scenario):
//
//	<time> <verb> [word ...] [key=value ...]
//
// A run block starts two fresh lanes, a and b, the two ends of one connection, joined by a
// scripted link: what a lane sends waits on the link (a->b or b->a) until a deliver line
// hands it to the peer, drops it, duplicates it or reorders it. The run line may set the
// Config of both lanes: soft=, hard=, soft-bytes=, hard-bytes=, max-payload=, mtu=,
// in-flight=, receive-bytes=, retransmit=, link-timeout= (zero fields are the defaults).
// A message's payload is its label (padded with zero bytes to size=), so the output names
// each message by its label wherever it travels. Verbs:
//
//	queue <l> <label> [critical] [count=N] [size=B]
//	                             Lane.Queue at the line's time; count=N queues N messages
//	                             labelled <label>.0 .. <label>.N-1 and stops at the first
//	                             refusal
//	can-queue <l> [critical] [size=B]
//	                             Lane.CanQueue
//	flush <l>                    Lane.Poll at the line's time until it gives nothing; the
//	                             datagrams go on the link to the peer
//	tick [<l> ...] [lose=true] [quiet=true]
//	                             polls the lanes (both by default) at each of their
//	                             deadlines (Lane.NextDeadline) up to the line's time, in
//	                             time order: what they send goes on the link, or is lost
//	                             with lose=true; quiet=true prints a count per lane
//	                             instead of every datagram
//	deliver <l>-><p> [drop=N,M|all] [hold=N,M] [dup=true] [reorder=true]
//	                             the datagrams on the link reach the peer (Lane.Receive),
//	                             oldest first (reversed with reorder=true, and the whole
//	                             list twice with dup=true), except those dropped (lost)
//	                             and those held (left on the link for a later deliver);
//	                             N is the number the datagram was printed with; then
//	                             the peer drains Deliver and PopAcked
//	ack <l>-><p>                 flush <l>, then deliver every datagram on the link
//	receive <l> <hex>            Lane.Receive of raw bytes, as if from the peer ("_" may
//	                             separate the fields); a rejection says whether the lane
//	                             changed (laneFingerprint)
//	print <l>                    State, Stats and NextDeadline
//
// A lane is polled only when a line says so (flush, tick, ack), as a host polls only when
// its timer fires: a story that lets time pass must tick the lanes through it.
//
// The block's output has one line per event, "<time> <the line as written>: <result>", and
// indented lines under it for what it produced: each datagram as
//
//	#N a->b <size>B ack=<cumulative ack> [sack=<held seqs>]: <seq>:<label> ...
//
// (a retransmission marked "rtx", a datagram without messages "(ack only)"), what the
// receiving host got from Deliver ("b got ...") and the acknowledgements the sender
// learned from PopAcked ("a acked <seq>:<label> at <time>"). Consecutive messages
// labelled <label>.i print as one range. After every event the driver checks the lanes'
// invariants (laneCheck). go test ./wire/lane -run Scenario -rewrite regenerates the
// expected output.

// laneOnLink is a datagram a lane sent that the link still carries.
type laneOnLink struct {
	n    int    // its number on the link, as printed
	text string // its description
	data []byte
}

type laneScenario struct {
	lanes  map[string]*Lane
	labels map[string]map[Seq]string // the label of each message a lane queued
	sent   map[string]map[Seq]bool   // the messages a lane transmitted at least once
	links  map[string][]laneOnLink   // "a->b": datagrams sent by a, not yet delivered
	count  map[string]int            // datagrams numbered on each link so far
	last   map[string]time.Duration  // the latest time each lane was called at
}

var lanePeer = map[string]string{"a": "b", "b": "a"}

func laneScenarioConfig(t *testing.T, d *datadriven.TestData) Config {
	args := "0 run"
	for _, a := range d.CmdArgs {
		args += " " + a.String()
	}
	l := scenario.Lines(t, args)[0]
	var cfg Config
	ints := map[string]*int{
		"soft": &cfg.SoftCap, "hard": &cfg.HardCap, "soft-bytes": &cfg.SoftCapBytes,
		"hard-bytes": &cfg.HardCapBytes, "max-payload": &cfg.MaxPayload, "mtu": &cfg.MTU,
		"in-flight": &cfg.InFlightBytes, "receive-bytes": &cfg.ReceiveBytes,
	}
	durs := map[string]*time.Duration{"retransmit": &cfg.Retransmit, "link-timeout": &cfg.LinkTimeout}
	for k := range l.Args {
		switch {
		case ints[k] != nil:
			*ints[k] = int(l.Uint(k, 31, 0))
		case durs[k] != nil:
			*durs[k] = l.Dur(k, 0)
		default:
			l.Fatalf("unknown config %q", k)
		}
	}
	return cfg
}

func runLaneScenario(t *testing.T, cfg Config, input string) string {
	s := &laneScenario{
		lanes: map[string]*Lane{}, labels: map[string]map[Seq]string{},
		sent: map[string]map[Seq]bool{}, links: map[string][]laneOnLink{},
		count: map[string]int{}, last: map[string]time.Duration{},
	}
	for _, name := range []string{"a", "b"} {
		l, err := New(cfg)
		if err != nil {
			t.Fatalf("config: %v", err)
		}
		s.lanes[name], s.labels[name], s.sent[name] = l, map[Seq]string{}, map[Seq]bool{}
	}
	var out strings.Builder
	for _, l := range scenario.Lines(t, input) {
		head := strings.TrimSpace(strings.TrimPrefix(l.Text, l.Time))
		first, more := s.run(l)
		fmt.Fprintf(&out, "%-7s %s: %s\n", l.Time, head, first)
		for _, m := range more {
			fmt.Fprintf(&out, "        %s\n", m)
		}
		for _, name := range []string{"a", "b"} {
			if err := laneCheck(s.lanes[name]); err != nil {
				l.Fatalf("lane %s broke an invariant: %v", name, err)
			}
		}
	}
	return out.String()
}

// lane returns the lane the i-th word names.
func (s *laneScenario) lane(l scenario.Line, i int) (string, *Lane) {
	name := l.Word(i)
	ln, ok := s.lanes[name]
	if !ok {
		l.Fatalf("unknown lane %q: want a or b", name)
	}
	return name, ln
}

// link returns the sender of the i-th word, which names a link as a->b.
func (s *laneScenario) link(l scenario.Line, i int) string {
	from, to, ok := strings.Cut(l.Word(i), "->")
	if !ok || s.lanes[from] == nil || lanePeer[from] != to {
		l.Fatalf("link %q: want a->b or b->a", l.Word(i))
	}
	return from
}

// at records that lane name is called at now and checks that the story's time runs
// forward.
func (s *laneScenario) at(l scenario.Line, name string, now time.Duration) {
	if now < s.last[name] {
		l.Fatalf("time %v is before %v, when lane %s was last called", now, s.last[name], name)
	}
	s.last[name] = now
}

func (s *laneScenario) run(l scenario.Line) (string, []string) {
	now := l.At
	switch l.Verb {
	case "queue":
		return s.queue(l, now)
	case "can-queue":
		_, ln := s.lane(l, 0)
		if err := ln.CanQueue(int(l.Uint("size", 16, 1)), slices.Contains(l.Words[1:], "critical")); err != nil {
			return "no: " + err.Error(), nil
		}
		return "yes", nil
	case "flush":
		name, ln := s.lane(l, 0)
		s.at(l, name, now)
		sent, err := s.poll(l, name, ln, now, false)
		return fmt.Sprintf("%d datagram(s)%s", len(sent), laneErr(err)), sent
	case "tick":
		return s.tick(l, now)
	case "deliver":
		return s.deliver(l, now, s.link(l, 0))
	case "ack":
		from := s.link(l, 0)
		s.at(l, from, now)
		sent, err := s.poll(l, from, s.lanes[from], now, false)
		first, more := s.deliver(l, now, from)
		return fmt.Sprintf("%d datagram(s)%s; %s", len(sent), laneErr(err), first), append(sent, more...)
	case "receive":
		name, ln := s.lane(l, 0)
		b, err := hex.DecodeString(strings.ReplaceAll(l.Word(1), "_", ""))
		if err != nil {
			l.Fatalf("hex: %v", err)
		}
		s.at(l, name, now)
		before := laneFingerprint(ln)
		if err := ln.Receive(now, b); err != nil {
			unchanged := "lane unchanged"
			if laneFingerprint(ln) != before {
				unchanged = "LANE CHANGED"
			}
			return fmt.Sprintf("rejected: %v (%s)", err, unchanged), nil
		}
		return "accepted", s.drain(l, name, now)
	case "print":
		return s.print(l)
	}
	l.Fatalf("unknown verb %q (want queue, can-queue, flush, tick, deliver, ack, receive or print)", l.Verb)
	return "", nil
}

func (s *laneScenario) queue(l scenario.Line, now time.Duration) (string, []string) {
	name, ln := s.lane(l, 0)
	label := l.Word(1)
	critical := slices.Contains(l.Words[2:], "critical")
	size := int(l.Uint("size", 16, 0))
	s.at(l, name, now)
	var queued []laneItem
	var err error
	for i := range int(l.Uint("count", 16, 1)) {
		lab := label
		if l.Has("count") {
			lab = label + "." + strconv.Itoa(i)
		}
		var seq Seq
		if seq, err = ln.Queue(now, lanePayload(l, lab, size), critical); err != nil {
			if l.Has("count") {
				err = fmt.Errorf("%s: %w", lab, err)
			}
			break
		}
		s.labels[name][seq] = lab
		queued = append(queued, laneItem{seq: seq, label: lab})
	}
	var parts []string
	if len(queued) > 0 {
		parts = append(parts, "queued "+laneRuns(queued))
	}
	if err != nil {
		parts = append(parts, "refused "+err.Error())
	}
	st := ln.Stats()
	return fmt.Sprintf("%s | queued %d (%d B), %v", strings.Join(parts, "; "), st.Queued, st.QueuedBytes, ln.State()), nil
}

func (s *laneScenario) print(l scenario.Line) (string, []string) {
	name, ln := s.lane(l, 0)
	st := ln.Stats()
	next := "nothing pending"
	if at, ok := ln.NextDeadline(); ok {
		next = "next deadline " + laneTime(at)
	}
	first := fmt.Sprintf("%v%s, %s", ln.State(), laneErr(ln.Err()), next)
	more := []string{
		fmt.Sprintf("queued %d (%d B): in flight %d (%d B), unsent %d | ready %d, held %d (%d B)",
			st.Queued, st.QueuedBytes, st.InFlight, st.InFlightBytes, st.Unsent, st.Ready, st.Held, st.ReceiveBytes),
		fmt.Sprintf("sent %d, retransmits %d, acked %d, datagrams %d out %d in | received %d, duplicates %d, dropped %d, delivered %d",
			st.Sent, st.Retransmits, st.Acked, st.DatagramsSent, st.DatagramsReceived, st.Received, st.Duplicates, st.Dropped, st.Delivered),
	}
	if q := s.links[name+"->"+lanePeer[name]]; len(q) > 0 {
		var ns []string
		for _, d := range q {
			ns = append(ns, "#"+strconv.Itoa(d.n))
		}
		more = append(more, fmt.Sprintf("on the link %s->%s: %s", name, lanePeer[name], strings.Join(ns, " ")))
	}
	return first, more
}

// lanePayload is a message's payload: its label, padded with zero bytes to size.
func lanePayload(l scenario.Line, label string, size int) []byte {
	p := []byte(label)
	if size > 0 {
		if size < len(p) {
			l.Fatalf("size=%d is shorter than the label %q", size, label)
		}
		p = append(p, make([]byte, size-len(p))...)
	}
	return p
}

// laneLabel reads a payload's label back.
func laneLabel(p []byte) string {
	if i := bytes.IndexByte(p, 0); i >= 0 {
		p = p[:i]
	}
	return string(p)
}

// laneTime prints a time as the scenario lines write it: 0, 250ms, 1.5s.
func laneTime(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	return d.String()
}

func laneErr(err error) string {
	if err == nil {
		return ""
	}
	return ": " + err.Error()
}

// poll polls lane name at now until it gives nothing; the datagrams go on the link
// unless lose. It returns their descriptions and the error that stopped it.
func (s *laneScenario) poll(l scenario.Line, name string, ln *Lane, now time.Duration, lose bool) ([]string, error) {
	var texts []string
	key := name + "->" + lanePeer[name]
	for {
		d, err := ln.Poll(now, nil)
		if err != nil || len(d) == 0 {
			return texts, err
		}
		if len(texts) > 10000 {
			l.Fatalf("lane %s keeps polling at %v", name, now)
		}
		s.count[key]++
		text := s.describe(l, name, s.count[key], d, lose)
		texts = append(texts, text)
		if !lose {
			s.links[key] = append(s.links[key], laneOnLink{n: s.count[key], text: text, data: d})
		}
	}
}

// describe formats datagram number num of lane name (read with the test's own decoder of
// the framing), and marks its messages as transmitted.
func (s *laneScenario) describe(l scenario.Line, name string, num int, d []byte, lost bool) string {
	g, err := laneDecode(d)
	if err != nil {
		l.Fatalf("lane %s built a datagram its framing does not allow: %v", name, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s->%s %dB ack=%d", num, name, lanePeer[name], len(d), g.ack)
	if len(g.sacked) > 0 {
		var items []laneItem
		for _, q := range g.sacked {
			items = append(items, laneItem{seq: q})
		}
		b.WriteString(" sack=" + laneRuns(items))
	}
	if len(g.records) == 0 {
		b.WriteString(" (ack only)")
	} else {
		var items []laneItem
		for _, r := range g.records {
			it := laneItem{seq: r.seq, label: laneLabel(r.payload)}
			if s.sent[name][r.seq] {
				it.note = "rtx"
			}
			s.sent[name][r.seq] = true
			items = append(items, it)
		}
		b.WriteString(": " + laneRuns(items))
	}
	if lost {
		b.WriteString(" (lost)")
	}
	return b.String()
}

// tick polls the lanes at each of their deadlines up to now, in time order.
func (s *laneScenario) tick(l scenario.Line, now time.Duration) (string, []string) {
	names := l.Words
	if len(names) == 0 {
		names = []string{"a", "b"}
	}
	for _, name := range names {
		if s.lanes[name] == nil {
			l.Fatalf("unknown lane %q: want a or b", name)
		}
	}
	lose, quiet := l.Bool("lose", false), l.Bool("quiet", false)
	counts := map[string]int{}
	var more []string
	for range 100000 {
		who, at := "", time.Duration(0)
		for _, name := range names {
			if d, ok := s.lanes[name].NextDeadline(); ok && d <= now && (who == "" || d < at) {
				who, at = name, d
			}
		}
		if who == "" {
			var parts []string
			for _, name := range names {
				parts = append(parts, fmt.Sprintf("%s sent %d", name, counts[name]))
			}
			return strings.Join(parts, ", "), more
		}
		at = max(at, s.last[who])
		s.last[who] = at
		texts, err := s.poll(l, who, s.lanes[who], at, lose)
		counts[who] += len(texts)
		if !quiet {
			for _, t := range texts {
				more = append(more, fmt.Sprintf("%-7s %s", laneTime(at), t))
			}
		}
		if err != nil {
			more = append(more, fmt.Sprintf("%-7s %s: %v", laneTime(at), who, err))
		}
	}
	l.Fatalf("the lanes' deadlines never pass %v", now)
	return "", nil
}

// deliver hands the datagrams on the link from lane from to its peer.
func (s *laneScenario) deliver(l scenario.Line, now time.Duration, from string) (string, []string) {
	to := lanePeer[from]
	key := from + "->" + to
	q := s.links[key]
	drop, hold := laneNumbers(l, "drop", q), laneNumbers(l, "hold", q)
	var arrive, kept []laneOnLink
	var lost []string
	for _, d := range q {
		switch {
		case hold[d.n]:
			kept = append(kept, d)
		case drop[d.n]:
			lost = append(lost, "#"+strconv.Itoa(d.n))
		default:
			arrive = append(arrive, d)
		}
	}
	s.links[key] = kept
	if l.Bool("reorder", false) {
		slices.Reverse(arrive)
	}
	if l.Bool("dup", false) {
		arrive = append(arrive, arrive...)
	}
	s.at(l, to, now)
	var reached []string
	var more []string
	for _, d := range arrive {
		reached = append(reached, "#"+strconv.Itoa(d.n))
		if err := s.lanes[to].Receive(now, d.data); err != nil {
			more = append(more, fmt.Sprintf("#%d rejected by %s: %v", d.n, to, err))
		}
	}
	var parts []string
	if len(reached) > 0 {
		parts = append(parts, strings.Join(reached, " ")+" reached "+to)
	} else {
		parts = append(parts, "nothing reached "+to)
	}
	if len(lost) > 0 {
		parts = append(parts, strings.Join(lost, " ")+" lost")
	}
	for _, d := range kept {
		parts = append(parts, "#"+strconv.Itoa(d.n)+" still on the link")
	}
	return strings.Join(parts, "; "), append(more, s.drain(l, to, now)...)
}

// laneNumbers reads a list of datagram numbers (drop=1,3 or drop=all) that must name
// datagrams on the link.
func laneNumbers(l scenario.Line, key string, q []laneOnLink) map[int]bool {
	out := map[int]bool{}
	v := l.Str(key, "")
	if v == "" {
		return out
	}
	for _, f := range strings.Split(v, ",") {
		if f == "all" {
			for _, d := range q {
				out[d.n] = true
			}
			continue
		}
		n, err := strconv.Atoi(strings.TrimPrefix(f, "#"))
		if err != nil || !slices.ContainsFunc(q, func(d laneOnLink) bool { return d.n == n }) {
			l.Fatalf("%s=%s: %q is not a datagram on the link", key, v, f)
		}
		out[n] = true
	}
	return out
}

// drain takes what lane name's host gets after a Receive: the messages Deliver hands it
// and the acknowledgements PopAcked reports.
func (s *laneScenario) drain(l scenario.Line, name string, now time.Duration) []string {
	ln := s.lanes[name]
	var more []string
	var got []laneItem
	for p, ok := ln.Deliver(); ok; p, ok = ln.Deliver() {
		got = append(got, laneItem{seq: Seq(ln.Stats().Delivered - 1), label: laneLabel(p)})
	}
	if len(got) > 0 {
		more = append(more, name+" got "+laneRuns(got))
	}
	var acked []laneItem
	for a, ok := ln.PopAcked(); ok; a, ok = ln.PopAcked() {
		if a.At != now {
			l.Fatalf("lane %s reported the acknowledgement of %d at %v, received at %v", name, a.Seq, a.At, now)
		}
		note := "sent " + laneTime(a.Sent)
		if a.Critical {
			note = "critical, " + note
		}
		acked = append(acked, laneItem{seq: a.Seq, label: s.labels[name][a.Seq], note: note})
	}
	if len(acked) > 0 {
		more = append(more, fmt.Sprintf("%s acked %s at %s", name, laneRuns(acked), laneTime(now)))
	}
	return more
}

// laneItem is a message in the output: its sequence number, its label and a note.
type laneItem struct {
	seq   Seq
	label string
	note  string
}

// laneRuns prints items as "seq:label(note)", joining a run of consecutive sequence
// numbers whose labels count up (x.3 x.4 x.5) and whose notes agree into one
// "3..5:x.3..x.5(note)".
func laneRuns(items []laneItem) string {
	var parts []string
	for i := 0; i < len(items); {
		j := i + 1
		for j < len(items) && items[j].seq == items[j-1].seq+1 && items[j].note == items[i].note &&
			laneNextLabel(items[j-1].label) == items[j].label {
			j++
		}
		first, last := items[i], items[j-1]
		p := strconv.FormatUint(uint64(first.seq), 10)
		if j-i > 1 {
			p += ".." + strconv.FormatUint(uint64(last.seq), 10)
		}
		if first.label != "" {
			p += ":" + first.label
			if j-i > 1 {
				p += ".." + last.label
			}
		}
		if first.note != "" {
			p += "(" + first.note + ")"
		}
		parts = append(parts, p)
		i = j
	}
	return strings.Join(parts, " ")
}

// laneNextLabel is the label after x.i in a run, x.i+1; "" for "" (sequence numbers
// alone run together).
func laneNextLabel(label string) string {
	if label == "" {
		return ""
	}
	base, num, ok := strings.Cut(label, ".")
	n, err := strconv.Atoi(num)
	if !ok || err != nil {
		return "\x00" // never a label
	}
	return base + "." + strconv.Itoa(n+1)
}

// TestScenario runs every scenario file in testdata/scenarios.
func TestScenario(t *testing.T) {
	datadriven.Walk(t, filepath.Join("testdata", "scenarios"), func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "run" {
				d.Fatalf(t, "unknown command %q: want run", d.Cmd)
			}
			return runLaneScenario(t, laneScenarioConfig(t, d), d.Input)
		})
	})
}

// laneCitation is a rule's bracketed name, as docrules reads it (lowercase words joined
// by hyphens; written with character classes docrules does not take for a citation).
var laneCitation = regexp.MustCompile(`\[(\p{Ll}[\p{Ll}\d]*(?:-\p{Ll}[\p{Ll}\d]*)+)\]`)

// TestScenarioFilesCoverEveryRule: every rule the scenario files cite is defined in the
// lane's doc.go or wire's, and every rule of the lane's # Rules is cited by at least one
// scenario file, so each rule has a story that shows it.
func TestScenarioFilesCoverEveryRule(t *testing.T) {
	docrules.CheckScenarios(t, ".", "..")
}
