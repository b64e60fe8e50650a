package sim

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"time"
)

// The event queue is a timing wheel: a ring of slots, each holding the events of one short
// span of virtual time, in front of a binary heap for the events beyond the ring's reach.
// Scheduling appends a record to a slot; the slot is sorted by (time, scheduling order)
// once, when it becomes the earliest, and then read from the front. The order it yields is
// exactly the heap's: events by time, events at the same time in the order they were
// scheduled.
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
	// slotFirstCap is the room, in bytes, a slot starts with when no emptied slot's array
	// is spare.
	slotFirstCap = 1024
)

// event is one scheduled happening: the delivery of a datagram over the link numbered ref,
// or (fn) a call of the function the simulator keeps under the number ref. It holds no
// pointer. In the ring an event is a record in its slot's bytes; the heap beyond the ring
// keeps events whole, with the record of a delivery.
type event struct {
	at  time.Duration
	id  uint64
	ref uint32
	fn  bool
}

// An event's record, in the bytes of its slot, where the events of a slot lie one after
// the other in the order they were scheduled: its time within the slot (4 bytes), ref (4
// bytes), the datagram's length or funcEvent (4 bytes), the link's send sequence number of
// the datagram (8 bytes), the datagram. A slot's events are a single stream of bytes
// written front to back (no second array to fill), and running an event reads one place.
const (
	recordHeader = 20
	// funcEvent is the length field of a record that calls a function.
	funcEvent = ^uint32(0)
)

// appendRecord appends the record of an event at t within its slot to dst.
func appendRecord(dst []byte, t time.Duration, ref, n uint32, seq uint64, datagram []byte) []byte {
	k := len(dst)
	dst = slices.Grow(dst, recordHeader+len(datagram))[:k+recordHeader+len(datagram)]
	r := dst[k:]
	binary.LittleEndian.PutUint32(r[0:], uint32(t))
	binary.LittleEndian.PutUint32(r[4:], ref)
	binary.LittleEndian.PutUint32(r[8:], n)
	binary.LittleEndian.PutUint64(r[12:], seq)
	copy(r[recordHeader:], datagram)
	return dst
}

// recordSize returns the length of the record at the front of r.
func recordSize(r []byte) int {
	n := binary.LittleEndian.Uint32(r[8:])
	if n == funcEvent {
		return recordHeader
	}
	return recordHeader + int(n)
}

func (e *event) before(o *event) bool {
	if e.at != o.at {
		return e.at < o.at
	}
	return e.id < o.id
}

func slotOf(t time.Duration) int64 { return int64(t) >> slotShift }

// A slot's sort key: the event's time within its slot (slotShift bits), then the place of
// its record in the slot's bytes.
const (
	placeBits = 64 - slotShift
	placeMask = 1<<placeBits - 1
)

// queue is the timing wheel. Invariants: cur (the slot of the last event taken) is at most
// the slot of the clock, so every event scheduled lies at or after it; the ring holds the
// events of slots cur to cur+wheelSize-1, each at its slot number modulo wheelSize; the heap
// far holds the later ones; the slot of cur, if it has events, is sorted and has run its
// first pos; a slot marked sorted has one key per record, in (time, place) order, and stays
// so (insertion keeps the order).
type queue struct {
	slots []slot
	occ   [wheelSize / 64]uint64 // bit i: slot i has events not yet run
	cur   int64
	pos   int
	n     int // events in the ring not yet run
	far   farHeap
	spare []slot // emptied slots' arrays, reused by the next slots to fill
	spent slot   // the arrays of the slot just emptied, while its last event runs
	// scratch is radixSort's.
	scratch []uint64
}

// slot is one span of the ring: the records of its events, in the order scheduled (the
// datagrams copied there by Send, so that a slot's datagrams lie together in memory), and,
// once sorted, its keys in the order the events run.
type slot struct {
	data   []byte
	keys   []uint64
	sorted bool
}

func newQueue() queue { return queue{slots: make([]slot, wheelSize)} }

func (q *queue) len() int { return q.n + len(q.far) }

// push queues a call at t of the function numbered ref (id is its scheduling order).
func (q *queue) push(t time.Duration, id uint64, ref uint32) {
	s := slotOf(t)
	if s >= q.cur+wheelSize {
		q.far.push(farEvent{event: event{at: t, id: id, ref: ref, fn: true}})
		return
	}
	q.insert(s, t, ref, funcEvent, 0, nil)
}

// pushDelivery queues at t the delivery of a copy of datagram, the seq-th of the link
// numbered ref (id is its scheduling order).
func (q *queue) pushDelivery(t time.Duration, id uint64, ref uint32, seq uint64, datagram []byte) {
	s := slotOf(t)
	if s >= q.cur+wheelSize {
		// rare: beyond the ring
		q.far.push(farEvent{event: event{at: t, id: id, ref: ref}, seq: seq, datagram: append([]byte(nil), datagram...)})
		return
	}
	q.insert(s, t, ref, uint32(len(datagram)), seq, datagram)
}

// insert appends the record of an event at t to the ring's slot s (cur <= s <
// cur+wheelSize), giving the slot spare arrays if it has none, and keeps a sorted slot
// sorted. The event is the latest scheduled, so among the slot's events at t it runs last.
func (q *queue) insert(s int64, t time.Duration, ref, n uint32, seq uint64, datagram []byte) {
	sl := &q.slots[s&wheelMask]
	if sl.data == nil {
		if k := len(q.spare); k > 0 {
			sl.data, sl.keys = q.spare[k-1].data, q.spare[k-1].keys
			q.spare[k-1] = slot{}
			q.spare = q.spare[:k-1]
		} else {
			sl.data = make([]byte, 0, slotFirstCap)
		}
	}
	off, within := len(sl.data), t-time.Duration(s<<slotShift)
	sl.data = appendRecord(sl.data, within, ref, n, seq, datagram)
	if sl.sorted {
		key := uint64(within)<<placeBits | uint64(off)
		if keys := sl.keys; len(keys) > 0 && key < keys[len(keys)-1] {
			lo := 0
			if s == q.cur {
				lo = q.pos
			}
			k, _ := slices.BinarySearch(keys[lo:], key)
			sl.keys = slices.Insert(keys, lo+k, key)
		} else {
			sl.keys = append(keys, key)
		}
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
		q.sortSlot(sl)
	}
	return s, true
}

// sortSlot puts the keys of sl's events in (time, place) order. Records lie in the slot's
// bytes in the order their events were scheduled, ids rising (those that come from the
// heap first, in its order, which for equal times is the ids'), so ordering by time and
// then by place is ordering by (time, id). A slot is sorted before any of its events runs.
func (q *queue) sortSlot(sl *slot) {
	keys := sl.keys[:0]
	for off := 0; off < len(sl.data); {
		r := sl.data[off:]
		keys = append(keys, uint64(binary.LittleEndian.Uint32(r))<<placeBits|uint64(off))
		off += recordSize(r)
	}
	switch {
	case slices.IsSorted(keys):
	case len(keys) < radixMin:
		slices.Sort(keys)
	default:
		q.scratch = radixSort(keys, q.scratch)
	}
	sl.keys, sl.sorted = keys, true
}

// radixSort sorts keys by their time (their top slotShift bits) in radixPasses stable
// passes of radixBits, so keys of equal time keep their order, the order of their places:
// a slot's keys are in place order when built, and sorting them by time alone sorts them
// by (time, place). It returns the scratch array it used, for the next call.
func radixSort(keys, scratch []uint64) []uint64 {
	scratch = slices.Grow(scratch[:0], len(keys))[:len(keys)]
	src, dst := keys, scratch
	for pass := range radixPasses {
		shift := placeBits + pass*radixBits
		var count [1 << radixBits]int
		for _, k := range src {
			count[k>>shift&(1<<radixBits-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, k := range src {
			d := k >> shift & (1<<radixBits - 1)
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	return scratch[:0]
}

// The slot sort: slots of at least radixMin events are sorted by radixSort, in
// radixPasses passes of radixBits bits of the time (an even number of passes leaves the
// keys where they began); smaller ones by comparison.
const (
	radixBits   = slotShift / 2
	radixPasses = 2
	radixMin    = 256
)

// The passes cover the time bits exactly (the index is 0 only then).
var _ = [1]struct{}{}[radixBits*radixPasses-slotShift]

// peek returns the time of the earliest event, in the slot h head returned.
func (q *queue) peek(h int64) time.Duration {
	if h < 0 {
		return q.far[0].at
	}
	sl := &q.slots[h&wheelMask]
	k := 0
	if h == q.cur {
		k = q.pos
	}
	return time.Duration(h<<slotShift) + time.Duration(sl.keys[k]>>placeBits)
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
	if !sl.sorted {
		q.sortSlot(sl) // the heap's events just came in (pos is 0)
	}
	key := sl.keys[q.pos]
	r := sl.data[key&placeMask:]
	e.at = time.Duration(h<<slotShift) + time.Duration(key>>placeBits)
	e.ref = binary.LittleEndian.Uint32(r[4:])
	if n := binary.LittleEndian.Uint32(r[8:]); n == funcEvent {
		e.fn = true
	} else {
		seq = binary.LittleEndian.Uint64(r[12:])
		datagram = r[recordHeader : recordHeader+int(n) : recordHeader+int(n)]
	}
	q.pos++
	q.n--
	if q.pos == len(sl.keys) {
		// The slot is spent; its arrays serve the next slot to fill once e has run (its
		// datagram is in them).
		q.spent = slot{data: sl.data[:0], keys: sl.keys[:0]}
		*sl = slot{}
		i := int(h & wheelMask)
		q.occ[i>>6] &^= 1 << (i & 63)
		q.pos = 0
	}
	return e, seq, datagram
}

// recycle makes the arrays of the slot the last take emptied spare, once its event has run.
func (q *queue) recycle() {
	if q.spent.data != nil {
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
		if fe.fn {
			q.insert(fs, fe.at, fe.ref, funcEvent, 0, nil)
		} else {
			q.insert(fs, fe.at, fe.ref, uint32(len(fe.datagram)), fe.seq, fe.datagram)
		}
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

// farEvent is an event beyond the ring's reach, with its delivery's sequence number and
// datagram.
type farEvent struct {
	event
	seq      uint64
	datagram []byte
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
