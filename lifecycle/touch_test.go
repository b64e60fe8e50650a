package lifecycle

import (
	"reflect"
	"testing"
	"time"
)

// Touch only reads, and an id out of range reads nothing.
func TestTouchChangesNothing(t *testing.T) {
	w, err := New(Config{MaxPlayers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Join(time.Second, 1); err != nil {
		t.Fatal(err)
	}
	before := append([]slot(nil), w.slots...)
	if w.Touch(1) == 0 {
		t.Fatal("Touch of a joined player read no token")
	}
	if w.Touch(2) != 0 || w.Touch(NoPlayer) != 0 {
		t.Fatal("Touch out of range read something")
	}
	if !reflect.DeepEqual(before, w.slots) {
		t.Fatal("Touch changed a slot")
	}
}
