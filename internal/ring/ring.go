// Package ring is a bounded first-in first-out queue over a fixed buffer: when it is full,
// a push drops the oldest entry and counts it. The server keeps its pending acknowledgement
// interests in one, the client model its logs; both need a queue whose memory is fixed when
// it is made, so that nothing a peer sends can grow it.
//
// A Ring is not safe for concurrent use.
package ring

// Ring is a bounded FIFO of T. The zero Ring has no room: every Push drops what it pushes
// (and counts it); make one with New.
type Ring[T any] struct {
	buf     []T
	head, n int
	dropped uint64
}

// New returns an empty Ring with room for capacity entries (at least 0).
func New[T any](capacity int) Ring[T] { return Ring[T]{buf: make([]T, max(capacity, 0))} }

// Cap returns how many entries the Ring holds at most.
func (r *Ring[T]) Cap() int { return len(r.buf) }

// Len returns how many entries the Ring holds.
func (r *Ring[T]) Len() int { return r.n }

// Dropped returns how many entries were dropped because the Ring was full.
func (r *Ring[T]) Dropped() uint64 { return r.dropped }

// Push appends v. When the Ring is full it first drops its oldest entry (or, with no room
// at all, v itself) and counts the drop.
func (r *Ring[T]) Push(v T) {
	if len(r.buf) == 0 {
		r.dropped++
		return
	}
	if r.n == len(r.buf) {
		var zero T
		r.buf[r.head] = zero
		r.head = (r.head + 1) % len(r.buf)
		r.n--
		r.dropped++
	}
	r.buf[(r.head+r.n)%len(r.buf)] = v
	r.n++
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

// Reset empties the Ring; its room and its drop count stay.
func (r *Ring[T]) Reset() {
	clear(r.buf)
	r.head, r.n = 0, 0
}
