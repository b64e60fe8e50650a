// Package ring is a bounded first-in first-out queue: when it is full, a push drops the
// oldest entry and counts it. The server keeps its pending acknowledgement interests in one,
// the client model its logs.
//
// The bound is the Ring's cap, fixed when it is made: nothing a peer sends can make it hold
// more entries than that. Its memory is not fixed up front: the buffer starts empty and
// doubles on demand (a push into a full buffer below the cap) until it reaches the cap, so
// a connection that never queues much never pays for the worst case. Growth happens while
// a queue first fills; once the buffer has reached the size a steady load needs, a push
// never allocates again.
//
// A Ring is not safe for concurrent use.
package ring

// minGrow is the first buffer a Ring allocates (or the cap, when smaller).
const minGrow = 8

// Ring is a bounded FIFO of T. The zero Ring has no room: every Push drops what it pushes
// (and counts it); make one with New.
type Ring[T any] struct {
	buf     []T
	limit   int
	head, n int
	dropped uint64
}

// New returns an empty Ring that holds at most capacity entries (at least 0). It allocates
// nothing: its buffer grows by doubling as entries are pushed, up to capacity.
func New[T any](capacity int) Ring[T] { return Ring[T]{limit: max(capacity, 0)} }

// Cap returns how many entries the Ring holds at most.
func (r *Ring[T]) Cap() int { return r.limit }

// Room returns how many entries the Ring's buffer holds now (at most Cap): what it
// allocated so far.
func (r *Ring[T]) Room() int { return len(r.buf) }

// Len returns how many entries the Ring holds.
func (r *Ring[T]) Len() int { return r.n }

// Dropped returns how many entries were dropped because the Ring was full.
func (r *Ring[T]) Dropped() uint64 { return r.dropped }

// Push appends v. When the buffer is full below the cap it doubles (up to the cap); when
// the Ring is full at its cap, Push first drops its oldest entry (or, with no room at all,
// v itself) and counts the drop.
func (r *Ring[T]) Push(v T) {
	if r.limit == 0 {
		r.dropped++
		return
	}
	if r.n == len(r.buf) {
		if len(r.buf) < r.limit {
			r.grow()
		} else {
			var zero T
			r.buf[r.head] = zero
			r.head = (r.head + 1) % len(r.buf)
			r.n--
			r.dropped++
		}
	}
	r.buf[(r.head+r.n)%len(r.buf)] = v
	r.n++
}

// grow doubles the buffer (at least minGrow, at most the cap), oldest entry first.
func (r *Ring[T]) grow() {
	size := min(max(2*len(r.buf), minGrow), r.limit)
	grown := make([]T, size)
	for i := range r.n {
		grown[i] = r.buf[(r.head+i)%len(r.buf)]
	}
	r.buf, r.head = grown, 0
}

// Front returns the oldest entry without removing it; false when the Ring is empty.
func (r *Ring[T]) Front() (T, bool) {
	if r.n == 0 {
		var zero T
		return zero, false
	}
	return r.buf[r.head], true
}

// Pop removes and returns the oldest entry; false when the Ring is empty.
func (r *Ring[T]) Pop() (T, bool) {
	v, ok := r.Front()
	if ok {
		var zero T
		r.buf[r.head] = zero
		r.head = (r.head + 1) % len(r.buf)
		r.n--
	}
	return v, ok
}

// Last returns a pointer to the newest entry, to change it in place, or nil when the Ring is
// empty. The pointer is valid until the next Push.
func (r *Ring[T]) Last() *T {
	if r.n == 0 {
		return nil
	}
	return &r.buf[(r.head+r.n-1)%len(r.buf)]
}

// AppendTo appends the entries to dst, oldest first, and returns the extended slice.
func (r *Ring[T]) AppendTo(dst []T) []T {
	for i := range r.n {
		dst = append(dst, r.buf[(r.head+i)%len(r.buf)])
	}
	return dst
}

// Reset empties the Ring; its buffer (so far), its cap and its drop count stay.
func (r *Ring[T]) Reset() {
	clear(r.buf)
	r.head, r.n = 0, 0
}
