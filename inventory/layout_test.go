package inventory

import (
	"testing"
	"unsafe"
)

// The fields a frame reads, the held slot's state among them, sit in the store's first
// 64 bytes, each other slot in one line, and the store stays in the allocator's
// 1152-byte size class, whose objects are 64-byte aligned: a frame holding the held
// weapon then reads one line of the store, a shot that line and its weapon's rate
// state's. A field added among them, a slot that straddles two lines, or a store grown
// out of its class, fails here.
func TestHotFieldsShareALine(t *testing.T) {
	var inv Inventory
	hot := []struct {
		name      string
		off, size uintptr
	}{
		{"cat", unsafe.Offsetof(inv.cat), unsafe.Sizeof(inv.cat)},
		{"rev", unsafe.Offsetof(inv.rev), unsafe.Sizeof(inv.rev)},
		{"active", unsafe.Offsetof(inv.active), unsafe.Sizeof(inv.active)},
		{"lifeSet", unsafe.Offsetof(inv.lifeSet), unsafe.Sizeof(inv.lifeSet)},
		{"life", unsafe.Offsetof(inv.life), unsafe.Sizeof(inv.life)},
		{"fireWeapon", unsafe.Offsetof(inv.fireWeapon), unsafe.Sizeof(inv.fireWeapon)},
		{"fireEmpty", unsafe.Offsetof(inv.fireEmpty), unsafe.Sizeof(inv.fireEmpty)},
		{"displaced", unsafe.Offsetof(inv.displaced), unsafe.Sizeof(inv.displaced)},
		{"skills", unsafe.Offsetof(inv.skills), unsafe.Sizeof(inv.skills)},
		{"held", unsafe.Offsetof(inv.held), unsafe.Sizeof(inv.held)},
	}
	for _, f := range hot {
		if f.off+f.size > 64 {
			t.Errorf("a frame reads %s at bytes %d..%d: not in the store's first line", f.name, f.off, f.off+f.size)
		}
	}
	slot := unsafe.Sizeof(slotState{})
	for k := range uintptr(NumSlots) {
		if o := unsafe.Offsetof(inv.slots) + k*slot; o/64 != (o+slot-1)/64 {
			t.Errorf("slot %d at bytes %d..%d straddles two lines", k, o, o+slot)
		}
	}
	// Every size class from 1024 bytes up is a multiple of 64 (so its objects are
	// aligned); past 1152 a store would cost every player more memory.
	if n := unsafe.Sizeof(inv); n > 1152 || n <= 1024 {
		t.Errorf("a store is %d bytes: not in the 1152-byte size class (1025..1152)", n)
	}
}
