package inventory

import (
	"testing"
	"unsafe"
)

// The fields a frame reads, the held slot's state and the continuous fire among them, sit
// in one line of the store, the skills' slice a shot reads at the start of the next, each
// other slot in one line, and the store stays in the allocator's 1152-byte size class:
// a frame holding the held weapon then reads one line of the store. The lines are
// measured from where the allocator puts a store (8 bytes past a 64-byte boundary, after
// its header). A field added among them, a slot that straddles two lines, or a store
// grown out of its class, fails here.
func TestHotFieldsShareALine(t *testing.T) {
	c, err := NewCatalog(Config{})
	if err != nil {
		t.Fatal(err)
	}
	inv := c.NewInventory()
	layoutSink = inv                          // on the heap, as a host's stores are
	base := uintptr(unsafe.Pointer(inv)) % 64 // where the store starts in its first line
	line := func(off uintptr) uintptr { return (base + off) / 64 }
	hot := []struct {
		name      string
		off, size uintptr
	}{
		{"cat", unsafe.Offsetof(inv.cat), unsafe.Sizeof(inv.cat)},
		{"rev", unsafe.Offsetof(inv.rev), unsafe.Sizeof(inv.rev)},
		{"active", unsafe.Offsetof(inv.active), unsafe.Sizeof(inv.active)},
		{"fireWeapon", unsafe.Offsetof(inv.fireWeapon), unsafe.Sizeof(inv.fireWeapon)},
		{"fireEmpty", unsafe.Offsetof(inv.fireEmpty), unsafe.Sizeof(inv.fireEmpty)},
		{"displaced", unsafe.Offsetof(inv.displaced), unsafe.Sizeof(inv.displaced)},
		{"held", unsafe.Offsetof(inv.held), unsafe.Sizeof(inv.held)},
		{"fireLast", unsafe.Offsetof(inv.fireLast), unsafe.Sizeof(inv.fireLast)},
		{"fireAcc", unsafe.Offsetof(inv.fireAcc), unsafe.Sizeof(inv.fireAcc)},
	}
	for _, f := range hot {
		if line(f.off) != line(0) || line(f.off+f.size-1) != line(0) {
			t.Errorf("a frame reads %s at bytes %d..%d: not in the store's first line (the store starts at byte %d of a line)", f.name, f.off, f.off+f.size, base)
		}
	}
	if o := unsafe.Offsetof(inv.skills); line(o) != line(o+unsafe.Sizeof(inv.skills)-1) {
		t.Errorf("the skills' slice at bytes %d..%d straddles two lines", o, o+unsafe.Sizeof(inv.skills))
	}
	slot := unsafe.Sizeof(slotState{})
	for k := range uintptr(NumSlots) {
		if o := unsafe.Offsetof(inv.slots) + k*slot; line(o) != line(o+slot-1) {
			t.Errorf("slot %d at bytes %d..%d straddles two lines", k, o, o+slot)
		}
	}
	// Past 1152 bytes (with the allocator's header) a store would cost every player more
	// memory.
	if n := unsafe.Sizeof(*inv); n+base > 1152 {
		t.Errorf("a store is %d bytes: past the 1152-byte size class", n)
	}
}

// layoutSink keeps the store TestHotFieldsShareALine measures on the heap.
var layoutSink *Inventory
