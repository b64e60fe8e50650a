package sim

import (
	"container/heap"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// refSim is the reference event queue: the binary heap the simulator used before the
// timing wheel, with the same At, Step and RunUntil. The wheel must run every schedule
// in exactly its order.
type refSim struct {
	now    time.Duration
	queue  refQueue
	nextID uint64
}

type refEvent struct {
	at time.Duration
	id uint64
	fn func()
}

type refQueue []refEvent

func (q refQueue) Len() int { return len(q) }
func (q refQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].id < q[j].id
}
func (q refQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *refQueue) Push(x any)   { *q = append(*q, x.(refEvent)) }
func (q *refQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

func (s *refSim) Now() time.Duration { return s.now }
func (s *refSim) At(t time.Duration, fn func()) {
	s.nextID++
	heap.Push(&s.queue, refEvent{at: max(t, s.now), id: s.nextID, fn: fn})
}
func (s *refSim) Step() bool {
	if len(s.queue) == 0 {
		return false
	}
	e := heap.Pop(&s.queue).(refEvent)
	s.now = e.at
	e.fn()
	return true
}
func (s *refSim) RunUntil(t time.Duration) {
	for len(s.queue) > 0 && s.queue[0].at <= t {
		s.Step()
	}
	s.now = max(s.now, t)
}
func (s *refSim) Pending() int { return len(s.queue) }

// clock is what the schedule driver needs of a simulator.
type clock interface {
	Now() time.Duration
	At(time.Duration, func())
	Step() bool
	RunUntil(time.Duration)
	Pending() int
}

// randomSchedule drives c with a seeded mix of events: many at the very same instants,
// some inside the slot being run, some within the ring's reach, at its edge and far
// beyond it (seconds), events that schedule further events when they run, times in the
// past, dense and sparse schedules (odd seeds), and
// the clock advanced by RunUntil (in steps that stop between events) and by Step. It
// returns what ran, in order, with the time it ran at.
func randomSchedule(c clock, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 7))
	var trace []string
	label := 0
	const ring = time.Duration(wheelSize) << slotShift // how far ahead the ring reaches
	delay := func() time.Duration {
		switch rng.IntN(10) {
		case 8:
			return ring - time.Duration(rng.Int64N(int64(3<<slotShift))) // the ring's last slots
		case 9:
			return ring + time.Duration(rng.Int64N(int64(3<<slotShift))) // just beyond it
		case 0:
			return 0 // at the same instant
		case 1:
			return time.Duration(rng.IntN(1 << slotShift)) // likely inside the slot being run
		case 2:
			return time.Duration(rng.IntN(5)) * time.Millisecond // shared instants
		case 3:
			return time.Duration(rng.Int64N(int64(5 * time.Second))) // often beyond the ring
		case 4:
			return -time.Duration(rng.IntN(1000)) // in the past: runs now
		default:
			return time.Duration(rng.Int64N(int64(400 * time.Millisecond)))
		}
	}
	var event func(name int, depth int) func()
	event = func(name int, depth int) func() {
		return func() {
			trace = append(trace, fmt.Sprintf("%d@%d", name, c.Now()))
			if depth < 6 {
				for range rng.IntN(3) {
					label++
					c.At(c.Now()+delay(), event(label, depth+1))
				}
			}
		}
	}
	initial := 300
	if seed%2 == 1 {
		initial = 20 // sparse: the ring often holds only a few events, or none
	}
	for range initial {
		label++
		c.At(delay()+time.Duration(rng.IntN(3))*time.Second, event(label, 0))
	}
	for c.Pending() > 0 {
		if rng.IntN(4) == 0 {
			c.Step()
		} else {
			c.RunUntil(c.Now() + time.Duration(rng.Int64N(int64(300*time.Millisecond))))
		}
		trace = append(trace, fmt.Sprintf("clock %d, %d pending", c.Now(), c.Pending()))
	}
	return trace
}

// TestWheelRunsEventsInTheHeapsOrder runs the same random schedules on the timing wheel
// and on the reference heap: the same events must run at the same times in the same
// order, ties in the order of scheduling, with the same clock and pending counts.
func TestWheelRunsEventsInTheHeapsOrder(t *testing.T) {
	for seed := range uint64(40) {
		want := randomSchedule(&refSim{}, seed)
		got := randomSchedule(New(1), seed)
		require.Greater(t, len(want), 40, "seed %d: the schedule is not trivial", seed)
		if !slices.Equal(want, got) {
			i := 0
			for i < min(len(want), len(got)) && want[i] == got[i] {
				i++
			}
			t.Fatalf("seed %d: the wheel departs from the heap at step %d: heap %q, wheel %q", seed, i,
				want[i:min(i+3, len(want))], got[i:min(i+3, len(got))])
		}
	}
}

// TestEventsBeyondTheRingRunInOrder schedules an event beyond the ring's reach (it waits
// in the heap), then, once the clock has moved, one a nanosecond after it that lands in
// the ring directly: the first still runs first.
func TestEventsBeyondTheRingRunInOrder(t *testing.T) {
	const ring = time.Duration(wheelSize) << slotShift
	s := New(1)
	var got []string
	far := ring + 100
	s.At(far, func() { got = append(got, fmt.Sprint("far@", s.Now())) })
	s.At(1<<slotShift, func() {
		got = append(got, fmt.Sprint("near@", s.Now()))
		s.At(far+1, func() { got = append(got, fmt.Sprint("later@", s.Now())) })
	})
	s.RunUntil(far)
	require.Equal(t, []string{fmt.Sprint("near@", time.Duration(1<<slotShift)), fmt.Sprint("far@", far)}, got)
	s.RunUntil(2 * ring)
	require.Equal(t, fmt.Sprint("later@", far+1), got[len(got)-1])
}

// TestDatagramPathAllocatesNothing requires that, once the network has carried some
// traffic, sending datagrams over jittery links and delivering them costs no allocation.
func TestDatagramPathAllocatesNothing(t *testing.T) {
	s := New(3)
	n, err := NewNetwork(s, LinkConfig{Delay: 50 * time.Millisecond, Jitter: 30 * time.Millisecond, Loss: 0.05, Reorder: 0.1})
	require.NoError(t, err)
	delivered := 0
	for id := range NodeID(9) {
		n.Attach(id, func(NodeID, []byte) { delivered++ })
	}
	frame := make([]byte, 48)
	burst := func() {
		for from := range NodeID(9) {
			for to := range NodeID(9) {
				if from != to {
					n.Send(from, to, frame)
				}
			}
		}
		s.RunFor(10 * time.Millisecond)
	}
	for range 200 {
		burst()
	}
	require.Positive(t, delivered)
	require.Zero(t, testing.AllocsPerRun(200, burst), "allocations per burst of 72 datagrams")
}

// TestHandlerBytesAreItsOwnDuringTheCall checks the handler's side of the slice contract:
// a handler may change its bytes without touching another delivery of the same datagram,
// and the bytes stay as they came while the handler sends datagrams of its own (even due
// at once, into the memory the queue reuses).
func TestHandlerBytesAreItsOwnDuringTheCall(t *testing.T) {
	s := New(1)
	n, _ := NewNetwork(s, LinkConfig{})
	n.SetFilter(func(_, to NodeID, _ []byte) Fate { return Fate{Duplicate: to == 2} })
	var got [][]byte
	n.Attach(2, func(_ NodeID, b []byte) {
		for i := range 200 {
			n.Send(2, 3, []byte{byte(i), byte(i), byte(i), byte(i)})
		}
		got = append(got, append([]byte(nil), b...))
		b[0] = 99
	})
	n.Attach(3, func(NodeID, []byte) {})
	s.At(time.Millisecond, func() { n.Send(1, 2, []byte{1, 2, 3, 4}) })
	s.RunFor(time.Second)
	require.Equal(t, [][]byte{{1, 2, 3, 4}, {1, 2, 3, 4}}, got)
}

// TestRadixSortOrdersByTimeThenPlace sorts slots' keys (many events at the same times,
// built in place order) by radixSort: the result is the keys sorted as integers, which is
// the order by (time, place).
func TestRadixSortOrdersByTimeThenPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var scratch []uint64
	for _, n := range []int{radixMin, 1000, 5000} {
		for _, times := range []int{1, 7, 1 << slotShift} {
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = uint64(rng.IntN(times))<<placeBits | uint64(i*37)
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			scratch = radixSort(keys, scratch)
			require.Equal(t, want, keys, "%d keys over %d times", n, times)
		}
	}
}

// BenchmarkQueue schedules and runs events the way a 200-player match loads the queue
// (about 250,000 in flight, each due 100 to 330 ms ahead, each run scheduling the next),
// after a warm-up: the timing wheel against the reference heap, in one run.
func BenchmarkQueue(b *testing.B) {
	const inFlight = 250_000
	run := func(b *testing.B, c clock) {
		rng := rand.New(rand.NewPCG(1, 2))
		var fn func()
		fn = func() { c.At(c.Now()+100*time.Millisecond+time.Duration(rng.Int64N(int64(230*time.Millisecond))), fn) }
		for range inFlight {
			c.At(time.Duration(rng.Int64N(int64(330*time.Millisecond))), fn)
		}
		for range 4 * inFlight { // until the slots' arrays have grown to their steady size
			c.Step()
		}
		b.ReportAllocs()
		for b.Loop() {
			c.Step()
		}
	}
	b.Run("wheel", func(b *testing.B) { run(b, New(1)) })
	b.Run("heap", func(b *testing.B) { run(b, &refSim{}) })
}

// BenchmarkSend measures one datagram handed to a jittery link and delivered (with about
// 2,500 others in flight).
func BenchmarkSend(b *testing.B) {
	s := New(1)
	n, _ := NewNetwork(s, LinkConfig{Delay: 100 * time.Millisecond, Jitter: 30 * time.Millisecond})
	n.Attach(2, func(NodeID, []byte) {})
	frame := make([]byte, 48)
	b.ReportAllocs()
	for b.Loop() {
		n.Send(1, 2, frame)
		s.RunFor(50 * time.Microsecond)
	}
}

// BenchmarkSendAtScale is the datagram path at a 200-player match's load: datagrams of 48
// bytes from one node to 200 others over links of 0 to 200 ms one-way plus 30 ms of
// jitter, 1,200 sent per simulated millisecond (about 140,000 in flight), each delivered
// to a handler that reads it. One op is one datagram sent and, in its turn, delivered.
func BenchmarkSendAtScale(b *testing.B) {
	const (
		nodes   = 200
		perTick = 1200
	)
	s := New(1)
	n, err := NewNetwork(s, LinkConfig{})
	require.NoError(b, err)
	var sum int
	for to := range NodeID(nodes) {
		n.Attach(to+1, func(_ NodeID, d []byte) { sum += int(d[0]) })
		require.NoError(b, n.SetLink(0, to+1, LinkConfig{Delay: time.Duration(to) * time.Millisecond, Jitter: 30 * time.Millisecond}))
	}
	frame := make([]byte, 48)
	i := 0
	send := func() {
		n.Send(0, NodeID(1+i%nodes), frame)
		if i++; i%perTick == 0 {
			s.RunFor(time.Millisecond)
		}
	}
	for range 300 * perTick { // until the slots' arrays have grown to their steady size
		send()
	}
	b.ReportAllocs()
	for b.Loop() {
		send()
	}
}
