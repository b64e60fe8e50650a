package sim

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"time"
)

// The event queue is a timing wheel: a ring of slots, each holding the events of one short
// span of virtual time, in front of a binary heap for the events beyond the ring's reach.
// Scheduling appends to a slot; the slot is sorted by (time, scheduling order) once, when it
// becomes the earliest, and then read from the front. The order it yields is exactly the
// heap's: events by time, events at the same time in the order they were scheduled.
const (
	// slotShift sets a slot's span: 2^20 ns, about 1.05 ms. Wider slots mean fewer slots
	// being filled at once (their ends stay in the caches) and more events to sort in
	// each: 2^18 ran a 100-player match 20 % faster than 2^16 and as fast as 2^19 and 2^20;
	// 2^20 ran a 200-player match about 9 % faster than 2^18.
	slotShift = 20
	// wheelBits sets the ring's size: 2^10 slots, about 1.07 s ahead of the clock, more
	// than any one-way delay of the links the examples configure (a delivery beyond it, or
	// a timer seconds away, waits in the heap and enters the ring as the ring reaches it).
	wheelBits = 10
	wheelSize = 1 << wheelBits
	wheelMask = wheelSize - 1
	// slotFirstCap is the room a slot starts with when no emptied slot's array is spare.
	slotFirstCap = 16
)

// event is one scheduled happening: the delivery of a datagram over the link numbered ref,
// whose record lies at off in its slot's bytes, or (off is funcEvent) a call of the
// function the simulator keeps under the number ref. An event holds no pointer, so the
// slots' arrays are memory the garbage collector never scans and storing an event needs
// no write barrier; at 24 bytes, eight events fill three cache lines.
type event struct {
	at  time.Duration
	id  uint64
	ref uint32
	off uint32
}

// funcEvent is the off of an event that calls a function.
const funcEvent = ^uint32(0)

// A delivery's record, in the bytes of its slot: the link's send sequence number of the
// datagram (8 bytes), its length (4 bytes), the datagram.
const recordHeader = 12

func appendRecord(dst []byte, seq uint64, datagram []byte) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, seq)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(datagram)))
	return append(dst, datagram...)
}

func (e *event) before(o *event) bool {
	if e.at != o.at {
		return e.at < o.at
	}
	return e.id < o.id
}

func cmpEvents(a, b event) int {
	switch {
	case a.at < b.at:
		return -1
	case a.at > b.at:
		return 1
	case a.id < b.id:
		return -1
	case a.id > b.id:
		return 1
	}
	return 0
}

func slotOf(t time.Duration) int64 { return int64(t) >> slotShift }

// queue is the timing wheel. Invariants: cur (the slot of the last event taken) is at most
// the slot of the clock, so every event scheduled lies at or after it; the ring holds the
// events of slots cur to cur+wheelSize-1, each at its slot number modulo wheelSize; the heap
// far holds the later ones; the slot of cur has run its first pos events; a slot marked
// sorted is in (time, id) order and stays so (insertion keeps the order).
type queue struct {
	slots []slot
	occ   [wheelSize / 64]uint64 // bit i: slot i has events not yet run
	cur   int64
	pos   int
	n     int // events in the ring not yet run
	far   farHeap
	spare []slot   // emptied slots' arrays, reused by the next slots to fill
	spent slot     // the arrays of the slot just emptied, while its last event runs
	keys  []uint64 // sortSlot's scratch
	moved []event  // sortSlot's scratch
}

// slot is one span of the ring: its events, and the bytes of the datagrams they deliver
// (copied there by Send, so that a slot's datagrams lie together in memory).
type slot struct {
	ev     []event
	data   []byte
	sorted bool
}

func newQueue() queue { return queue{slots: make([]slot, wheelSize)} }

func (q *queue) len() int { return q.n + len(q.far) }

// push queues e, an event that calls a function.
func (q *queue) push(e event) {
	s := slotOf(e.at)
	if s >= q.cur+wheelSize {
		q.far.push(farEvent{event: e})
		return
	}
	q.insert(q.slot(s), s, e)
}

// pushDelivery queues e, the delivery of a copy of datagram, the seq-th of its link.
func (q *queue) pushDelivery(e event, seq uint64, datagram []byte) {
	s := slotOf(e.at)
	if s >= q.cur+wheelSize {
		q.far.push(farEvent{event: e, rec: appendRecord(nil, seq, datagram)}) // rare: beyond the ring
		return
	}
	sl := q.slot(s)
	e.off = uint32(len(sl.data))
	sl.data = appendRecord(sl.data, seq, datagram)
	q.insert(sl, s, e)
}

// slot returns the ring's slot s (cur <= s < cur+wheelSize), giving it spare arrays if it
// has none.
func (q *queue) slot(s int64) *slot {
	sl := &q.slots[s&wheelMask]
	if sl.ev == nil {
		if k := len(q.spare); k > 0 {
			sl.ev, sl.data = q.spare[k-1].ev, q.spare[k-1].data
			q.spare[k-1] = slot{}
			q.spare = q.spare[:k-1]
		} else {
			sl.ev = make([]event, 0, slotFirstCap)
		}
	}
	return sl
}

// insert adds e to sl, the ring's slot s, keeping a sorted slot sorted.
func (q *queue) insert(sl *slot, s int64, e event) {
	if ev := sl.ev; sl.sorted && len(ev) > 0 && e.before(&ev[len(ev)-1]) {
		lo := 0
		if s == q.cur {
			lo = q.pos
		}
		k, _ := slices.BinarySearchFunc(ev[lo:], e, cmpEvents)
		sl.ev = slices.Insert(ev, lo+k, e)
	} else {
		sl.ev = append(ev, e)
	}
	i := int(s & wheelMask)
	q.occ[i>>6] |= 1 << (i & 63)
	q.n++
}

// head finds the earliest event: its slot in the ring (sorted on the way), or -1 when it is
// the heap's first. ok is false when the queue is empty.
func (q *queue) head() (h int64, ok bool) {
	if q.n == 0 {
		if len(q.far) == 0 {
			return 0, false
		}
		return -1, true
	}
	i := q.nextOccupied(int(q.cur & wheelMask))
	s := q.cur + int64((i-int(q.cur&wheelMask))&wheelMask)
	if sl := &q.slots[i]; !sl.sorted {
		from := 0
		if s == q.cur {
			from = q.pos
		}
		q.sortSlot(sl.ev[from:], time.Duration(s<<slotShift))
		sl.sorted = true
	}
	return s, true
}

// sortSlot puts the events of a slot starting at base in (time, id) order. Events enter
// an unsorted slot in the order they were scheduled, ids rising (those that come from the
// heap first, in its order, which for equal times is the ids'), so ordering by time and
// then by place is ordering by (time, id): the events' times within the slot and their
// places are packed into integers sorted as such, and the events moved once.
func (q *queue) sortSlot(ev []event, base time.Duration) {
	if len(ev) < 2 {
		return
	}
	keys := q.keys[:0]
	for i := range ev {
		keys = append(keys, uint64(ev[i].at-base)<<placeBits|uint64(i))
	}
	if !slices.IsSorted(keys) {
		slices.Sort(keys)
		moved := append(q.moved[:0], ev...)
		for i, k := range keys {
			ev[i] = moved[k&placeMask]
		}
		clear(moved)
		q.moved = moved[:0]
	}
	q.keys = keys[:0]
}

// A slot's sort key: the event's time within its slot (slotShift bits), then its place.
const (
	placeBits = 64 - slotShift
	placeMask = 1<<placeBits - 1
)

// peek returns the earliest event, in the slot h head returned.
func (q *queue) peek(h int64) *event {
	if h < 0 {
		return &q.far[0].event
	}
	i := int(h & wheelMask)
	if h == q.cur {
		return &q.slots[i].ev[q.pos]
	}
	return &q.slots[i].ev[0]
}

// take removes and returns the earliest event, in the slot h head returned, and for a
// delivery the link's sequence number of the datagram and the datagram, which stays
// valid until the caller calls recycle.
func (q *queue) take(h int64) (e event, seq uint64, datagram []byte) {
	if h < 0 {
		// The ring is empty: bring the heap's first event (and those due with it) in.
		h = slotOf(q.far[0].at)
		q.advance(h)
	} else if h != q.cur {
		q.advance(h) // the slot of cur is empty: pos is 0
	}
	sl := &q.slots[h&wheelMask]
	e = sl.ev[q.pos]
	if e.off != funcEvent {
		rec := sl.data[e.off:]
		seq = binary.LittleEndian.Uint64(rec)
		n := binary.LittleEndian.Uint32(rec[8:])
		datagram = rec[recordHeader : recordHeader+n : recordHeader+n]
	}
	q.pos++
	q.n--
	if q.pos == len(sl.ev) {
		// The slot is spent; its arrays serve the next slot to fill once e has run (its
		// datagram is in them).
		clear(sl.ev)
		q.spent = slot{ev: sl.ev[:0], data: sl.data[:0]}
		*sl = slot{}
		i := int(h & wheelMask)
		q.occ[i>>6] &^= 1 << (i & 63)
		q.pos = 0
	}
	return e, seq, datagram
}

// recycle makes the arrays of the slot the last take emptied spare, once its event has run.
func (q *queue) recycle() {
	if q.spent.ev != nil {
		q.spare = append(q.spare, q.spent)
		q.spent = slot{}
	}
}

// advance moves cur forward to s and brings into the ring the heap's events it now reaches.
func (q *queue) advance(s int64) {
	q.cur, q.pos = s, 0
	for len(q.far) > 0 {
		fs := slotOf(q.far[0].at)
		if fs >= q.cur+wheelSize {
			return
		}
		fe := q.far.pop()
		sl := q.slot(fs)
		if fe.off != funcEvent {
			fe.off = uint32(len(sl.data))
			sl.data = append(sl.data, fe.rec...)
		}
		q.insert(sl, fs, fe.event)
	}
}

// nextOccupied returns the first slot index at or after i, circularly, with events; the
// ring must hold at least one.
func (q *queue) nextOccupied(i int) int {
	w := i >> 6
	if m := q.occ[w] &^ (1<<(i&63) - 1); m != 0 {
		return w<<6 | bits.TrailingZeros64(m)
	}
	for k := 1; k <= len(q.occ); k++ {
		j := (w + k) % len(q.occ)
		if m := q.occ[j]; m != 0 {
			return j<<6 | bits.TrailingZeros64(m)
		}
	}
	panic("sim: wheel count and occupancy disagree")
}

// farEvent is an event beyond the ring's reach, with its delivery's record.
type farEvent struct {
	event
	rec []byte
}

// farHeap is a binary min-heap of events by (time, id), without interface boxing.
type farHeap []farEvent

func (h *farHeap) push(e farEvent) {
	*h = append(*h, e)
	a := *h
	j := len(a) - 1
	for j > 0 {
		p := (j - 1) / 2
		if !a[j].before(&a[p].event) {
			break
		}
		a[j], a[p] = a[p], a[j]
		j = p
	}
}

func (h *farHeap) pop() farEvent {
	a := *h
	e := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a[last] = farEvent{}
	a = a[:last]
	*h = a
	j := 0
	for {
		l := 2*j + 1
		if l >= len(a) {
			break
		}
		m := l
		if r := l + 1; r < len(a) && a[r].before(&a[l].event) {
			m = r
		}
		if !a[m].before(&a[j].event) {
			break
		}
		a[j], a[m] = a[m], a[j]
		j = m
	}
	return e
}
