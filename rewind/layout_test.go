package rewind

import (
	"testing"
	"unsafe"
)

// TestPlayerIsOneCacheLine: what a frame and a shot read of a player (its track's
// bookkeeping and the copies a shot reads) fills exactly one 64-byte line, a grid entry
// and a sample divide a line, a round-trip meter's counters and samples fill one, and
// their slices start on a line, so none straddles two lines and each pair of samples
// shares one.
func TestPlayerIsOneCacheLine(t *testing.T) {
	if n := unsafe.Sizeof(player{}); n != 64 {
		t.Errorf("player is %d bytes, want 64 (one cache line)", n)
	}
	if n := unsafe.Sizeof(gridEntry{}); 64%n != 0 {
		t.Errorf("gridEntry is %d bytes: entries straddle lines", n)
	}
	if n := unsafe.Sizeof(sample{}); 64%n != 0 {
		t.Errorf("sample is %d bytes: samples straddle lines", n)
	}
	if n := unsafe.Sizeof(rttMeter{}); n != 192 || unsafe.Offsetof(rttMeter{}.pings) != 64 {
		t.Errorf("rttMeter is %d bytes with its pings at %d: want its counters and samples in the first of three lines", n, unsafe.Offsetof(rttMeter{}.pings))
	}
	w := mustWorld(t, Config{Players: 1000, Vehicles: 1})
	if a := uintptr(unsafe.Pointer(&w.players[0])); a%64 != 0 {
		t.Errorf("players start at %#x, not on a cache line", a)
	}
	if a := uintptr(unsafe.Pointer(&w.grid[0])); a%64 != 0 {
		t.Errorf("grid entries start at %#x, not on a cache line", a)
	}
	if a := uintptr(unsafe.Pointer(&w.meters[0])); a%64 != 0 {
		t.Errorf("round-trip meters start at %#x, not on a cache line", a)
	}
	if a := uintptr(unsafe.Pointer(&w.prings[0])); a%64 != 0 {
		t.Errorf("sample rings start at %#x, not on a cache line", a)
	}
}
