package refserver

import (
	"testing"
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// Rule [stream-effects]: a fire's Age is the whole milliseconds it has burned, rounded
// down (no recipient puts out a fire still burning here), within what the wire carries;
// the reference server's fires burn out well below that cap.
func TestStreamFireAgeIsWholeMillisecondsBurned(t *testing.T) {
	for _, c := range []struct {
		burned time.Duration
		want   uint16
	}{
		{-time.Second, 0},
		{0, 0},
		{999 * time.Microsecond, 0},
		{time.Millisecond, 1},
		{4*time.Second + 7*time.Millisecond + 999*time.Microsecond, 4007},
		{FireLifetime, uint16(FireLifetime / time.Millisecond)},
		{wire.MaxFireAge * time.Millisecond, wire.MaxFireAge},
		{time.Hour, wire.MaxFireAge},
	} {
		if got := fireAge(c.burned); got != c.want {
			t.Errorf("fireAge(%v) = %d, want %d", c.burned, got, c.want)
		}
	}
	if FireLifetime > wire.MaxFireAge*time.Millisecond {
		t.Errorf("FireLifetime %v is beyond what CreateFire.Age carries (%d ms)", FireLifetime, wire.MaxFireAge)
	}
}
