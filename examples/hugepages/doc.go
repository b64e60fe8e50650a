// Package hugepages asks Linux to back a Go process's heap with huge pages (2 MiB on
// x86-64 and arm64 instead of 4 KiB), a host's tuning for a large World.
//
// A World of 10,000 players keeps about 100 MB of state, and a frame, a relay or a tick
// each reads a few cache lines of one player's, scattered over all of it. With 4 KiB
// pages those reads miss the processor's address translation cache (the TLB) as well as
// its data caches: each miss walks the page tables first. With 2 MiB pages the whole
// World's state is about 50 translations, and the TLB holds them all. On a machine whose
// kernel gives huge pages only where a program asks (transparent huge pages in "madvise"
// mode, the common default), the Go runtime does not ask, so a host that wants them
// calls [Advise] once its World has its players' state, and again now and then, as the
// heap grows: [Keep] does so, often at first and then every [Interval] (examples/server
// and examples/sim run it).
//
// Advise marks every large anonymous read-write mapping of the process (the Go heap's
// arenas among them) with madvise(MADV_HUGEPAGE), so that the kernel backs new pages
// there with huge pages and its background collapser (khugepaged) may merge old ones,
// then merges now, with madvise(MADV_COLLAPSE) (Linux 6.1 and later), every 2 MiB block
// of them that holds memory. The process's resident memory grows up to the next 2 MiB of
// each such block. Elsewhere than Linux, Advise does nothing and returns
// [ErrUnsupported].
package hugepages
