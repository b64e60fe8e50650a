package vitals

import (
	"testing"
	"unsafe"
)

// The fields a frame reads sit in the Player's first 64 bytes, the suspicion detector in
// the next 64, and the Player stays in the allocator's 384-byte size class, whose objects
// are 64-byte aligned: a frame then reads one line of the Player, a claimed hit one more
// (besides the buckets). A field added among them, or a Player grown past 384 bytes
// (the 416 class puts every other Player across a line), fails here.
func TestFrameFieldsShareALine(t *testing.T) {
	var p Player
	hot := []struct {
		name string
		off  uintptr
		size uintptr
	}{
		{"life", unsafe.Offsetof(p.life), unsafe.Sizeof(p.life)},
		{"ledgerDeath", unsafe.Offsetof(p.ledgerDeath), unsafe.Sizeof(p.ledgerDeath)},
		{"haveCredit", unsafe.Offsetof(p.haveCredit), unsafe.Sizeof(p.haveCredit)},
		{"lastFrameVerd", unsafe.Offsetof(p.lastFrameVerd), unsafe.Sizeof(p.lastFrameVerd)},
		{"tracking", unsafe.Offsetof(p.tracking), unsafe.Sizeof(p.tracking)},
		{"ledger", unsafe.Offsetof(p.ledger), unsafe.Sizeof(p.ledger)},
		{"base", unsafe.Offsetof(p.base), unsafe.Sizeof(p.base)},
		{"rev", unsafe.Offsetof(p.rev), unsafe.Sizeof(p.rev)},
		{"cursor", unsafe.Offsetof(p.cursor), unsafe.Sizeof(p.cursor)},
		{"frameSeq", unsafe.Offsetof(p.frameSeq), unsafe.Sizeof(p.frameSeq)},
		{"frameDS", unsafe.Offsetof(p.frameDS), unsafe.Sizeof(p.frameDS)},
		{"sc", unsafe.Offsetof(p.sc), unsafe.Sizeof(p.sc)},
		{"nwait", unsafe.Offsetof(p.nwait), unsafe.Sizeof(p.nwait)},
		{"nheld", unsafe.Offsetof(p.nheld), unsafe.Sizeof(p.nheld)},
		{"cmds", unsafe.Offsetof(p.cmds), unsafe.Sizeof(p.cmds)},
	}
	for _, f := range hot {
		if f.off+f.size > 64 {
			t.Errorf("a frame reads %s at bytes %d..%d: not in the Player's first line", f.name, f.off, f.off+f.size)
		}
	}
	// A report in the client's order reads, besides those two lines, the third and the
	// start of the fourth: the last damage, the credit, the order's bits, the held
	// reports' table (its pointer and length) and the multipliers while none is pending.
	report := []struct {
		name      string
		off, size uintptr
		line      uintptr
	}{
		{"sinceBoundary", unsafe.Offsetof(p.sinceBoundary), unsafe.Sizeof(p.sinceBoundary), 0},
		{"last", unsafe.Offsetof(p.last), unsafe.Sizeof(p.last), 2},
		{"creditNum", unsafe.Offsetof(p.creditNum), unsafe.Sizeof(p.creditNum), 2},
		{"lastAccepted", unsafe.Offsetof(p.lastAccepted), unsafe.Sizeof(p.lastAccepted), 2},
		{"creditAt", unsafe.Offsetof(p.creditAt), unsafe.Sizeof(p.creditAt), 2},
		{"seen", unsafe.Offsetof(p.seen), unsafe.Sizeof(p.seen), 2},
		{"held", unsafe.Offsetof(p.held), 16, 2},
		{"mult", unsafe.Offsetof(p.mult), unsafe.Offsetof(p.mult.low), 3},
	}
	for _, f := range report {
		if f.off/64 != f.line || (f.off+f.size-1)/64 != f.line {
			t.Errorf("a report reads %s at bytes %d..%d: not in the Player's line %d", f.name, f.off, f.off+f.size, f.line)
		}
	}
	if o, n := unsafe.Offsetof(p.susp), unsafe.Sizeof(p.susp); o != 64 || n > 64 {
		t.Errorf("the suspicion detector is at bytes %d..%d, not the Player's second line", o, o+n)
	}
	if n := unsafe.Sizeof(p); n > 384 || n <= 352 {
		t.Errorf("a Player is %d bytes: not in the 384-byte size class (353..384)", n)
	}
	// And the allocator does start a Player at a line (no header before it).
	for range 8 {
		q, err := NewPlayer(Config{})
		if err != nil {
			t.Fatal(err)
		}
		layoutSink = append(layoutSink, q) // on the heap, as a host's players are
		if a := uintptr(unsafe.Pointer(q)) % 64; a != 0 {
			t.Fatalf("a Player starts at byte %d of a line", a)
		}
	}
}

// layoutSink keeps the players TestFrameFieldsShareALine measures on the heap.
var layoutSink []*Player
