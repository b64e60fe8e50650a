package inventory

import (
	"reflect"
	"testing"
)

// Touch only reads.
func TestTouchChangesNothing(t *testing.T) {
	c, err := NewCatalog(Config{})
	if err != nil {
		t.Fatal(err)
	}
	inv := c.NewInventory()
	before := *inv
	_ = inv.Touch()
	if !reflect.DeepEqual(before, *inv) {
		t.Fatal("Touch changed the store")
	}
}
