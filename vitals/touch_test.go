package vitals

import (
	"reflect"
	"testing"
	"time"
)

// Touch only reads.
func TestTouchChangesNothing(t *testing.T) {
	p, err := NewPlayer(Config{})
	if err != nil {
		t.Fatal(err)
	}
	p.NewLife(time.Second)
	before := *p
	_, _ = p.Touch(), p.TouchClaim()
	if !reflect.DeepEqual(before, *p) {
		t.Fatal("Touch changed the ledger")
	}
}
