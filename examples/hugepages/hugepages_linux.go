package hugepages

import (
	"os"
	"syscall"
)

// The madvise advice values (linux/mman.h); the syscall package has MADV_HUGEPAGE but
// not MADV_COLLAPSE.
const (
	madvHugePage = 14
	madvCollapse = 25
)

// Advise marks the process's large anonymous mappings MADV_HUGEPAGE and collapses their
// blocks that hold memory into huge pages (see the package documentation). It is safe
// to call from any goroutine while others run: the kernel keeps the memory's contents.
// A collapse copies the block, so the first call on a large heap takes a while (about a
// second for a gigabyte); later calls find most blocks done.
func Advise() (Stats, error) {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return Stats{}, err
	}
	spans, err := anonymous(f, MinMapping)
	_ = f.Close()
	if err != nil {
		return Stats{}, err
	}
	var st Stats
	for _, s := range spans {
		if madvise(s.lo, s.hi-s.lo, madvHugePage) != nil {
			continue // EINVAL: no transparent huge pages in this kernel
		}
		st.Advised += int64(s.hi - s.lo)
		s.blocks(func(a uintptr) {
			// A block with no memory yet gets EINVAL: new pages there are huge anyway.
			if madvise(a, HugePage, madvCollapse) == nil {
				st.Collapsed += HugePage
			}
		})
	}
	if len(spans) > 0 && st.Advised == 0 {
		return st, ErrUnsupported
	}
	return st, nil
}

// madvise is the system call on an address range the process's maps listed (not Go
// memory the caller holds a pointer to: syscall.Madvise's []byte would need one).
func madvise(addr, n uintptr, advice int) error {
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, addr, n, uintptr(advice)); e != 0 {
		return e
	}
	return nil
}
