package refserver

import (
	"testing"
	"unsafe"
)

// TestPlayerLines keeps the player's lines as its comment writes them: line 0 holds what
// every datagram reads, line 1 the frame's, the endpoint starts line 2 (its own test keeps
// what a datagram reads of it in its first 64 bytes), line 5 (after the endpoint) the
// timers Tick's visit reads, line 6 what a shot reads of its shooter, lines 7 and 8 what
// a report reads of its victim. A player of 513 to 1,024 bytes
// is allocated in a size class of a multiple of 64 bytes, so its offsets are its lines in
// memory (and more than 1,024 would cost every player a larger class).
func TestPlayerLines(t *testing.T) {
	var p player
	type field struct {
		name      string
		off, size uintptr
	}
	lines := []struct {
		line   uintptr
		fields []field
	}{
		{0, []field{
			{"id", unsafe.Offsetof(p.id), unsafe.Sizeof(p.id)},
			{"connected", unsafe.Offsetof(p.connected), unsafe.Sizeof(p.connected)},
			{"dropping", unsafe.Offsetof(p.dropping), unsafe.Sizeof(p.dropping)},
			{"dropReason", unsafe.Offsetof(p.dropReason), unsafe.Sizeof(p.dropReason)},
			{"haveSeq", unsafe.Offsetof(p.haveSeq), unsafe.Sizeof(p.haveSeq)},
			{"lastSeq", unsafe.Offsetof(p.lastSeq), unsafe.Sizeof(p.lastSeq)},
			{"handle", unsafe.Offsetof(p.handle), unsafe.Sizeof(p.handle)},
			{"vit", unsafe.Offsetof(p.vit), unsafe.Sizeof(p.vit)},
			{"inv", unsafe.Offsetof(p.inv), unsafe.Sizeof(p.inv)},
			{"lastHeard", unsafe.Offsetof(p.lastHeard), unsafe.Sizeof(p.lastHeard)},
			{"laneDue", unsafe.Offsetof(p.laneDue), unsafe.Sizeof(p.laneDue)},
			{"dgramGate", unsafe.Offsetof(p.dgramGate), unsafe.Sizeof(p.dgramGate)},
			{"frameGate", unsafe.Offsetof(p.frameGate), unsafe.Sizeof(p.frameGate)},
		}},
		{1, []field{
			{"frame", unsafe.Offsetof(p.frame), unsafe.Sizeof(p.frame)},
			{"framePeak", unsafe.Offsetof(p.framePeak), unsafe.Sizeof(p.framePeak)},
			{"datagramPeak", unsafe.Offsetof(p.datagramPeak), unsafe.Sizeof(p.datagramPeak)},
			{"seat", unsafe.Offsetof(p.seat), unsafe.Sizeof(p.seat)},
			{"riding", unsafe.Offsetof(p.riding), unsafe.Sizeof(p.riding)},
			{"joinSerial", unsafe.Offsetof(p.joinSerial), unsafe.Sizeof(p.joinSerial)},
		}},
		{2, []field{
			{"ep's first line", unsafe.Offsetof(p.ep), 64},
		}},
		{5, []field{
			{"nextSuspect", unsafe.Offsetof(p.nextSuspect), unsafe.Sizeof(p.nextSuspect)},
			{"pingDue", unsafe.Offsetof(p.pingDue), unsafe.Sizeof(p.pingDue)},
		}},
		{6, []field{
			{"shotFilter", unsafe.Offsetof(p.shotFilter), unsafe.Sizeof(p.shotFilter)},
			{"shots", unsafe.Offsetof(p.shots), unsafe.Sizeof(p.shots)},
			{"lifeSerial", unsafe.Offsetof(p.lifeSerial), unsafe.Sizeof(p.lifeSerial)},
			{"shotOnFoot", unsafe.Offsetof(p.shotOnFoot), unsafe.Sizeof(p.shotOnFoot)},
			{"shotSeated", unsafe.Offsetof(p.shotSeated), unsafe.Sizeof(p.shotSeated)},
			{"stream", unsafe.Offsetof(p.stream), unsafe.Sizeof(p.stream)},
		}},
		{7, []field{
			{"vis.at", unsafe.Offsetof(p.vis) + unsafe.Offsetof(p.vis.at), unsafe.Sizeof(p.vis.at)},
		}},
		{8, []field{
			{"vis.id", unsafe.Offsetof(p.vis) + unsafe.Offsetof(p.vis.id), unsafe.Sizeof(p.vis.id)},
			{"vis.n", unsafe.Offsetof(p.vis) + unsafe.Offsetof(p.vis.n), unsafe.Sizeof(p.vis.n)},
			{"joinedAt", unsafe.Offsetof(p.joinedAt), unsafe.Sizeof(p.joinedAt)},
			{"reportFilter", unsafe.Offsetof(p.reportFilter), unsafe.Sizeof(p.reportFilter)},
		}},
	}
	for _, l := range lines {
		for _, f := range l.fields {
			if f.off < l.line*64 || f.off+f.size > (l.line+1)*64 {
				t.Errorf("player.%s is at bytes %d to %d, not in line %d", f.name, f.off, f.off+f.size, l.line)
			}
		}
	}
	if off := unsafe.Offsetof(p.ep); off%64 != 0 {
		t.Errorf("player.ep starts at byte %d, not at a line's start", off)
	}
	if s := unsafe.Sizeof(p); s > 1024 || s <= 512 {
		t.Errorf("a player is %d bytes, not in 513..1024: its size class is not 1,024 or its lines are not 64-aligned", s)
	}
}
