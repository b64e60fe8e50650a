package rewind

import (
	"reflect"
	"testing"
	"time"
)

// TouchPlayer and TouchPlayerSlot only read, with a history and without, and an id out of
// range reads nothing.
func TestTouchPlayerChangesNothing(t *testing.T) {
	w, err := New(Config{Players: 2, Vehicles: 1})
	if err != nil {
		t.Fatal(err)
	}
	for id := range PlayerID(2) {
		if err := w.AddPlayer(0, id); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 40 {
		if _, err := w.RecordPlayer(time.Duration(i)*33*time.Millisecond, 0, Vec3{X: float32(i)}, NoVehicle); err != nil {
			t.Fatal(err)
		}
	}
	players, tracks, grid := append([]player(nil), w.players...), append([]ring(nil), w.prings...), append([]gridEntry(nil), w.grid...)
	_, _ = w.TouchPlayer(0), w.TouchPlayer(1)
	_, _ = w.TouchPlayerSlot(0), w.TouchPlayerSlot(1)
	if w.TouchPlayer(2) != 0 || w.TouchPlayer(NoPlayer) != 0 || w.TouchPlayerSlot(2) != 0 || w.TouchPlayerSlot(NoPlayer) != 0 {
		t.Fatal("a Touch out of range read something")
	}
	if !reflect.DeepEqual(players, w.players) || !reflect.DeepEqual(tracks, w.prings) || !reflect.DeepEqual(grid, w.grid) {
		t.Fatal("a Touch changed the World")
	}
}
