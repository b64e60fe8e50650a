package luamode

import (
	"testing"
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
)

// benchMode is a Mode running script on a World of 8 players, closed when tb ends.
func benchMode(tb testing.TB, script string) *Mode {
	tb.Helper()
	w, err := refserver.New(refserver.Config{MaxPlayers: 8})
	if err != nil {
		tb.Fatal(err)
	}
	m, err := New(w, []byte(script), Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(m.Close)
	return m
}

// BenchmarkHandleDamage is the cost of one player_damage event dispatched to a callback
// that counts it (the event's table, the call under its budget).
func BenchmarkHandleDamage(b *testing.B) {
	m := benchMode(b, `n = 0; on("player_damage", function(ev) n = n + ev.amount end)`)
	ev := []refserver.Event{{Kind: refserver.EventPlayerDamage, Player: 1, Other: 2, Weapon: 31, Amount: 10}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		m.Handle(time.Duration(i)*time.Millisecond, ev)
	}
}

// BenchmarkHandleUnwatched is the cost of an event no callback watches: nothing.
func BenchmarkHandleUnwatched(b *testing.B) {
	m := benchMode(b, `on("player_death", function(ev) end)`)
	ev := []refserver.Event{{Kind: refserver.EventPlayerDamage, Player: 1, Other: 2, Weapon: 31, Amount: 10}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		m.Handle(time.Duration(i)*time.Millisecond, ev)
	}
}

// TestUnwatchedEventsDoNotAllocate: events no callback watches (most of a busy World's:
// damage, diagnostics) cost the host no allocation.
func TestUnwatchedEventsDoNotAllocate(t *testing.T) {
	m := benchMode(t, `on("player_death", function(ev) end)`)
	ev := []refserver.Event{{Kind: refserver.EventPlayerDamage}, {Kind: refserver.EventShotRefused}}
	if n := testing.AllocsPerRun(100, func() { m.Handle(time.Second, ev); m.Tick(time.Second) }); n != 0 {
		t.Fatalf("%v allocations per Handle and Tick", n)
	}
}
