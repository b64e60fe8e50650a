// Package sim is a deterministic discrete-event simulator: a virtual clock, an event queue,
// and a datagram network whose links delay, jitter, lose, duplicate and reorder packets
// with seeded randomness, so a whole match can be replayed bit for bit from a seed. The
// reliable lane (package wire) rides on its datagrams like any other payload: the hosts on
// the nodes run it, exactly as over a real socket.
//
// The simulator knows nothing of the game: it moves opaque byte slices between numbered
// nodes at virtual times. The examples put a world, honest clients and the reference
// server on it.
//
// Determinism: events run in the order of their time, and events at the same time in the
// order they were scheduled. Every random draw comes from a PCG generator seeded from the
// simulation seed and the identity of the link that draws it, so adding a link does not
// change the draws of another.
//
// Scale: the queue is a timing wheel (slots of about a millisecond, each sorted once when
// it comes due, in front of a heap for what lies more than a second ahead), and a datagram
// costs no allocation: an event is a record written at the end of its slot's bytes (the
// datagram copied into it, beside the other datagrams due in the same slot, in memory
// reused once the slot is spent), and the datagram is handed to the handler for the call
// only. Events hold no pointer (a timer names its function by number), so the garbage
// collector never scans the queue. A slot's events are ordered when it comes due by keys
// of (time, place), radix-sorted on the time. What a datagram still costs is mostly the
// memory it touches: with hundreds of thousands in flight, writing one into its slot and
// reading it back miss the caches.
//
// A Sim is not safe for concurrent use; it never starts a goroutine and never reads the
// wall clock.
package sim

import (
	"math/rand/v2"
	"time"
)

// Sim is the virtual clock and its event queue.
type Sim struct {
	seed   uint64
	now    time.Duration
	queue  queue
	nextID uint64
	rng    *rand.Rand
	// recv holds what a delivery touches of every network link, by the link's number
	// (deliveries name theirs).
	recv []linkRecv
	// timers holds the functions of the queued events that call one, by number (the
	// event names its number); free lists the numbers of the spent ones, for reuse.
	timers []timer
	free   []uint32
}

// timer is the function a queued event calls: fn once (At), or every (Every), which the
// simulator queues again period later while it returns true. An Every costs no closure
// of its own: with a thousand players ticking, each extra object a tick reads is a cache
// miss.
type timer struct {
	fn     func()
	every  func() bool
	period time.Duration
}

// New returns a simulator at time zero whose randomness derives from seed.
func New(seed uint64) *Sim {
	return &Sim{seed: seed, rng: rand.New(rand.NewPCG(seed, 0x5eed)), queue: newQueue()}
}

// Seed returns the seed the simulator was created with.
func (s *Sim) Seed() uint64 { return s.seed }

// Now returns the virtual time.
func (s *Sim) Now() time.Duration { return s.now }

// Rand returns the simulator's own seeded generator, for callers (bots, worlds) that need
// randomness tied to the simulation seed. Links use generators of their own.
func (s *Sim) Rand() *rand.Rand { return s.rng }

// Stream returns a new generator derived from the simulation seed and a caller-chosen
// stream number, so independent parts of a model draw independent, repeatable numbers.
func (s *Sim) Stream(stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(s.streamSeed(stream)))
}

// streamSeed returns the PCG seed of a Stream.
func (s *Sim) streamSeed(stream uint64) (uint64, uint64) {
	return s.seed, stream*0x9e3779b97f4a7c15 + 1
}

// At schedules fn to run at virtual time t. A time in the past runs at the current time,
// after the events already due.
func (s *Sim) At(t time.Duration, fn func()) { s.schedule(t, timer{fn: fn}) }

// schedule queues the call of tm at t.
func (s *Sim) schedule(t time.Duration, tm timer) {
	var ref uint32
	if k := len(s.free); k > 0 {
		ref = s.free[k-1]
		s.free = s.free[:k-1]
		s.timers[ref] = tm
	} else {
		ref = uint32(len(s.timers))
		s.timers = append(s.timers, tm)
	}
	if t < s.now {
		t = s.now
	}
	s.nextID++
	s.queue.push(t, s.nextID, ref)
}

// scheduleDelivery queues, d from now, the delivery of the seq-th datagram of link l: a
// copy of datagram.
func (s *Sim) scheduleDelivery(d time.Duration, l *link, seq uint64, datagram []byte) {
	s.nextID++
	s.queue.pushDelivery(s.now+d, s.nextID, l.num, seq, datagram)
}

// addLink numbers l among the links of the simulator's networks; r is its delivery side.
func (s *Sim) addLink(l *link, r linkRecv) {
	l.num = uint32(len(s.recv))
	s.recv = append(s.recv, r)
}

// After schedules fn to run d after the current virtual time.
func (s *Sim) After(d time.Duration, fn func()) { s.At(s.now+d, fn) }

// Every schedules fn at start and then every period until fn returns false.
func (s *Sim) Every(start, period time.Duration, fn func() bool) {
	s.schedule(start, timer{every: fn, period: period})
}

// Pending reports how many events are queued.
func (s *Sim) Pending() int { return s.queue.len() }

// Step runs the earliest event and reports whether there was one.
func (s *Sim) Step() bool {
	h, ok := s.queue.head()
	if !ok {
		return false
	}
	s.run(h)
	return true
}

// RunUntil runs every event due at or before t, then sets the clock to t.
func (s *Sim) RunUntil(t time.Duration) {
	for {
		h, ok := s.queue.head()
		if !ok || s.queue.peek(h) > t {
			break
		}
		s.run(h)
	}
	if t > s.now {
		s.now = t
	}
}

// run takes the earliest event (h from queue.head) and runs it.
func (s *Sim) run(h int64) {
	e, seq, datagram := s.queue.take(h)
	s.now = e.at
	if e.fn {
		tm := s.timers[e.ref]
		s.timers[e.ref] = timer{}
		s.free = append(s.free, e.ref)
		if tm.every == nil {
			tm.fn()
		} else if tm.every() {
			s.schedule(s.now+tm.period, tm) // as After(period) would, once fn returned
		}
	} else {
		s.recv[e.ref].deliver(seq, datagram)
	}
	s.queue.recycle()
}

// RunFor runs the simulation for d of virtual time.
func (s *Sim) RunFor(d time.Duration) { s.RunUntil(s.now + d) }
