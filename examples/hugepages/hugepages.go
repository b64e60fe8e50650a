package hugepages

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"
)

// MinMapping is the smallest mapping Advise advises, in bytes: the Go heap's arenas are
// far larger (64 MiB reserved at a time on 64-bit Linux); the small mappings are the
// runtime's and the C library's own.
const MinMapping = 4 << 20

// HugePage is the size of the blocks Advise collapses, in bytes: a huge page on x86-64
// and on arm64 with 4 KiB base pages.
const HugePage = 2 << 20

// Interval is how often Keep calls Advise again once the heap has settled: the heap's
// new arenas, and blocks that were empty at the last call, get their huge pages then.
const Interval = time.Minute

// firstWait is Keep's first wait between two Advise calls; each wait doubles until it
// reaches Interval, so a heap that grows fast at the start (a World filling up, a
// simulated match setting up) is advised while it grows.
const firstWait = time.Second

// ErrUnsupported is Advise's error where the kernel has no transparent huge pages.
var ErrUnsupported = errors.New("hugepages: not supported on this platform")

// Stats is what one Advise did, in bytes.
type Stats struct {
	// Advised is the size of the mappings marked MADV_HUGEPAGE.
	Advised int64
	// Collapsed is the size of the blocks merged into huge pages now (or that already
	// were); blocks that hold no memory yet, and all of them on a kernel before 6.1, are
	// left to the kernel's own collapser and to new pages.
	Collapsed int64
}

// span is one mapping: [lo, hi).
type span struct{ lo, hi uintptr }

// anonymous returns the anonymous, private, read-write mappings of at least min bytes
// listed in r, in the format of /proc/self/maps: "lo-hi perms offset dev inode [path]".
// Mappings with a path (files, the stack, the vdso) are left out; so are lines it cannot
// read.
func anonymous(r io.Reader, min uintptr) ([]span, error) {
	var spans []span
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 5 || !strings.HasPrefix(f[1], "rw") || !strings.HasSuffix(f[1], "p") || f[4] != "0" {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			continue
		}
		l, err1 := strconv.ParseUint(lo, 16, 64)
		h, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || h <= l || uintptr(h-l) < min {
			continue
		}
		spans = append(spans, span{uintptr(l), uintptr(h)})
	}
	return spans, sc.Err()
}

// blocks calls f with the start of each whole HugePage-aligned block within s.
func (s span) blocks(f func(start uintptr)) {
	for a := (s.lo + HugePage - 1) &^ (HugePage - 1); a+HugePage <= s.hi && a+HugePage > a; a += HugePage {
		f(a)
	}
}

// Keep calls Advise now, then after waits of one second doubling up to Interval, then
// every Interval, on a goroutine of its own, and hands report each result (on that
// goroutine; nil: no report). It stops when ctx is done, or after the first result when
// Advise reports ErrUnsupported; the returned stop ends it too and waits for it.
func Keep(ctx context.Context, report func(Stats, error)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		keep(ctx, report)
	}()
	return func() {
		cancel()
		<-done
	}
}

// keep is Keep's loop.
func keep(ctx context.Context, report func(Stats, error)) {
	wait := firstWait
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		st, err := Advise()
		if report != nil {
			report(st, err)
		}
		if errors.Is(err, ErrUnsupported) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		wait = min(2*wait, Interval)
		t.Reset(wait)
	}
}
