package wire

import (
	"encoding/binary"
	"iter"
)

// The bundle: several datagrams of today in one ([bundle-carries-whole-datagrams]).
const (
	// IDBundle is the id of a bundle, the datagram that carries several whole datagrams
	// (unreliable messages and lane datagrams) as its elements: the second id of the
	// range reserved for the transport (the reliable lane's datagram is the first).
	IDBundle = FirstTransportID + 1
	// BundlePrefixSize is the size of each element's length prefix: a little-endian u16
	// counting the element's bytes.
	BundlePrefixSize = 2
	// BundleOverhead is what a bundle of one element costs beyond the element: the header
	// and one length prefix. A writer sends a lone element bare, without it.
	BundleOverhead = HeaderSize + BundlePrefixSize
	// MaxBundleElements is the most elements one bundle may carry; a received bundle with
	// more is refused whole (ErrBundleTooMany). It bounds the work one datagram can ask of
	// a receiver: at the default payload size (1,200 bytes) a bundle of the smallest
	// unreliable messages a server sends (Ping and Pong, 8 bytes) holds 120.
	MaxBundleElements = 256
	// MaxBundleElement is the largest element a length prefix can name.
	MaxBundleElement = 0xFFFF
)

// Bundle is a received bundle whose elements Next returns in order. OpenBundle checks the
// whole datagram before it returns one, so a refused bundle yields nothing.
type Bundle struct {
	rest []byte // the elements not yet returned, each with its prefix
	left int    // how many
}

// OpenBundle checks datagram as a bundle and returns its elements: the whole datagram is
// checked first, so a bundle it refuses yields nothing ([bundle-checked-whole]). It
// refuses with ErrTruncated or ErrVersion (the header), ErrWrongMessage (another id),
// ErrBundleTruncated (a prefix or an element runs past the end), ErrBundleEmpty (no
// element at all, or an element shorter than a message header), ErrBundleNested (an
// element that is itself a bundle) or ErrBundleTooMany (more than MaxBundleElements
// elements). It does not look inside the elements beyond byte 1 and does not allocate.
func OpenBundle(datagram []byte) (Bundle, error) {
	id, err := Peek(datagram)
	if err != nil {
		return Bundle{}, err
	}
	if id != IDBundle {
		return Bundle{}, ErrWrongMessage
	}
	rest := datagram[HeaderSize:]
	n := 0
	for b := rest; len(b) > 0; n++ {
		if n == MaxBundleElements {
			return Bundle{}, ErrBundleTooMany
		}
		if len(b) < BundlePrefixSize {
			return Bundle{}, ErrBundleTruncated
		}
		l := int(binary.LittleEndian.Uint16(b))
		b = b[BundlePrefixSize:]
		if l > len(b) {
			return Bundle{}, ErrBundleTruncated
		}
		if l < HeaderSize {
			return Bundle{}, ErrBundleEmpty
		}
		if ID(b[1]) == IDBundle {
			return Bundle{}, ErrBundleNested
		}
		b = b[l:]
	}
	if n == 0 {
		return Bundle{}, ErrBundleEmpty
	}
	return Bundle{rest: rest, left: n}, nil
}

// Len returns how many elements Next has still to return.
func (b *Bundle) Len() int { return b.left }

// Next returns the next element (the bytes of one whole datagram, pointing into the
// bundle), or false when none is left.
func (b *Bundle) Next() ([]byte, bool) {
	if b.left == 0 {
		return nil, false
	}
	l := int(binary.LittleEndian.Uint16(b.rest))
	e := b.rest[BundlePrefixSize : BundlePrefixSize+l : BundlePrefixSize+l]
	b.rest = b.rest[BundlePrefixSize+l:]
	b.left--
	return e, true
}

// Elements yields what a datagram carries as datagrams of their own: each element of a
// bundle, in order, or the datagram itself when it is not a bundle (whatever its bytes). A
// bundle OpenBundle refuses yields nothing. It is the one way a reader that does not go
// through a transport endpoint (a test, a tap on the wire) splits what a peer sent.
func Elements(datagram []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		if len(datagram) < HeaderSize || ID(datagram[1]) != IDBundle {
			yield(datagram)
			return
		}
		b, err := OpenBundle(datagram)
		if err != nil {
			return
		}
		for e, ok := b.Next(); ok; e, ok = b.Next() {
			if !yield(e) {
				return
			}
		}
	}
}

// BundleWriter builds the datagrams of one peer's flush: it packs whole datagrams as the
// elements of a bundle up to a payload size. The zero value is ready after Reset; its
// buffer is reused, so a writer reset for every flush stops allocating once it has grown
// to the payload size.
type BundleWriter struct {
	buf     []byte // the header, then each element with its prefix
	payload int
	n       int
}

// Reset empties the writer and sets the payload size of the datagram it builds: at most
// payload bytes. A payload below HeaderSize takes nothing.
func (w *BundleWriter) Reset(payload int) {
	if need := payload + BundleOverhead; cap(w.buf) < need {
		w.buf = make([]byte, 0, need)
	}
	w.buf = append(w.buf[:0], Version, byte(IDBundle))
	w.payload, w.n = payload, 0
}

// Len returns the number of elements added since Reset.
func (w *BundleWriter) Len() int { return w.n }

// Size returns the size of the datagram Bytes returns now.
func (w *BundleWriter) Size() int {
	switch w.n {
	case 0:
		return 0
	case 1:
		return len(w.buf) - BundleOverhead
	}
	return len(w.buf)
}

// Add copies elem, the bytes of one whole datagram, into the bundle as its next element
// and returns the copy (inside the writer's buffer, valid until the next Reset: a caller
// may patch it in place, as a server patches each recipient's teammate stamp with
// PatchStamp). It refuses what OpenBundle would refuse, and what does not fit, adding
// nothing: ErrBundleEmpty for an element shorter than a message header, ErrBundleNested
// for a bundle, ErrBundleTooLarge for an element that could not go even alone (longer
// than the payload size), ErrBundleFull when it does not fit beside the elements already
// added or MaxBundleElements were added (send Bytes, Reset, and add it again). An element
// added to an empty writer always fits when it is at most the payload size: it goes bare.
// It does not allocate once Reset has sized the buffer.
func (w *BundleWriter) Add(elem []byte) ([]byte, error) {
	l := len(elem)
	start := len(w.buf) + BundlePrefixSize
	end := start + l
	if w.n == 0 || end > w.payload || w.n >= MaxBundleElements || l < HeaderSize || elem[1] == byte(IDBundle) {
		return w.add(elem)
	}
	// The common case, inlined: an element that fits beside others (end <= payload keeps
	// it within the buffer Reset sized and below MaxBundleElement).
	w.buf = w.buf[:end]
	w.buf[start-2], w.buf[start-1] = byte(l), byte(l>>8)
	copy(w.buf[start:], elem)
	w.n++
	return w.buf[start:end:end], nil
}

// Append is Add's common case alone, small enough to be inlined where a relay loop copies
// many elements: elem goes in beside the elements already there when it fits (it is not
// the first, the payload and MaxBundleElements have room), and its copy is returned; else
// nothing is written and ok is false (call Add). The caller vouches that elem is a valid
// element: at least HeaderSize bytes and not a bundle.
func (w *BundleWriter) Append(elem []byte) (c []byte, ok bool) {
	start := len(w.buf) + BundlePrefixSize
	end := start + len(elem)
	if w.n == 0 || end > w.payload || w.n >= MaxBundleElements {
		return nil, false
	}
	b := w.buf[:end]
	w.buf = b
	binary.LittleEndian.PutUint16(b[start-BundlePrefixSize:], uint16(len(elem)))
	copy(b[start:], elem)
	w.n++
	return b[start:end:end], true
}

// Reserve is Append for a caller that writes the element itself: it adds an element of
// n bytes (HeaderSize to MaxBundleElement) beside the elements already there when it
// fits (it is not the first, the payload and MaxBundleElements have room) and returns
// its bytes, which the caller fills before Bytes is read (until then they hold whatever
// the buffer held); else nothing is added and ok is false (call Add). The caller vouches
// that what it writes there is a valid element: not a bundle. It lets a hot loop copy
// elements of sizes it knows with moves the compiler inlines (a fixed-size array copy),
// where Append's copy is a call to memmove. Like Append, it is small enough to be
// inlined and does not allocate.
func (w *BundleWriter) Reserve(n int) (elem []byte, ok bool) {
	start := len(w.buf) + BundlePrefixSize
	end := start + n
	if w.n == 0 || end > w.payload || w.n >= MaxBundleElements || uint(n-HeaderSize) > MaxBundleElement-HeaderSize {
		return nil, false
	}
	b := w.buf[:end]
	w.buf = b
	binary.LittleEndian.PutUint16(b[start-BundlePrefixSize:], uint16(n))
	w.n++
	return b[start:end:end], true
}

// add is Add's full path: every refusal, and the first element.
func (w *BundleWriter) add(elem []byte) ([]byte, error) {
	l := len(elem)
	switch {
	case l < HeaderSize:
		return nil, ErrBundleEmpty
	case ID(elem[1]) == IDBundle:
		return nil, ErrBundleNested
	case l > w.payload || l > MaxBundleElement:
		return nil, ErrBundleTooLarge
	case w.n == MaxBundleElements || w.n > 0 && len(w.buf)+BundlePrefixSize+l > w.payload:
		return nil, ErrBundleFull
	}
	start := len(w.buf) + BundlePrefixSize
	end := start + l
	if end > cap(w.buf) { // never after Reset: one element fits payload + BundleOverhead
		w.buf = append(w.buf, make([]byte, end-len(w.buf))...)
	}
	w.buf = w.buf[:end]
	binary.LittleEndian.PutUint16(w.buf[start-BundlePrefixSize:], uint16(l))
	copy(w.buf[start:], elem)
	w.n++
	return w.buf[start:end:end], nil
}

// Bytes returns the datagram to send: nothing before the first Add, the element itself
// (bare, with no bundle header: a lone message costs nothing) after one, and the bundle
// after more. It is valid until the next Reset or Add.
func (w *BundleWriter) Bytes() []byte {
	switch w.n {
	case 0:
		return nil
	case 1:
		return w.buf[BundleOverhead:]
	}
	return w.buf
}
