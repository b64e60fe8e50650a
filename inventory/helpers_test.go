package inventory

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

// Weapon ids of GTA San Andreas used by the tests.
const (
	wKnuckles  uint8 = 1
	wKnife     uint8 = 4
	wGrenade   uint8 = 16
	wUnused    uint8 = 20
	wColt      uint8 = 22
	wSilenced  uint8 = 23
	wDeagle    uint8 = 24
	wShotgun   uint8 = 25
	wSawnOff   uint8 = 26
	wSpas      uint8 = 27
	wUzi       uint8 = 28
	wMP5       uint8 = 29
	wAK        uint8 = 30
	wM4        uint8 = 31
	wTec9      uint8 = 32
	wRifle     uint8 = 33
	wSniper    uint8 = 34
	wRPG       uint8 = 35
	wFlame     uint8 = 37
	wMinigun   uint8 = 38
	wSatchel   uint8 = 39
	wSpraycan  uint8 = 41
	wCamera    uint8 = 43
	wParachute uint8 = 46
)

const ms = time.Millisecond

func newCatalog(t testing.TB) *Catalog {
	t.Helper()
	c, err := NewCatalog(Config{})
	if err != nil {
		t.Fatalf("NewCatalog: %v", err)
	}
	return c
}

func newInv(t testing.TB) *Inventory {
	t.Helper()
	return newCatalog(t).NewInventory()
}

func give(t testing.TB, inv *Inventory, now time.Duration, w uint8, ammo uint16, current bool) GiveWeapon {
	t.Helper()
	m, err := inv.Give(now, w, ammo, current)
	if err != nil {
		t.Fatalf("Give(%d, %d): %v", w, ammo, err)
	}
	return m
}

func ammoOf(t testing.TB, inv *Inventory, w uint8) uint16 {
	t.Helper()
	a, ok := inv.Ammo(w)
	if !ok {
		t.Fatalf("weapon %d not in the store: %v", w, inv.Slots())
	}
	return a
}

// shotOf returns a shot of weapon w under revision rev with a ray of the given length.
func shotOf(w uint8, rev uint16, length float32) Shot {
	return Shot{Weapon: w, PropsRev: rev, Origin: Vec3{1, 2, 3}, End: Vec3{1 + length, 2, 3}}
}

// echo returns a frame of the current revision holding w.
func echo(inv *Inventory, w uint8, total, clip uint16) Frame {
	return Frame{WeaponRev: inv.Rev(), Weapon: w, Total: total, Clip: clip}
}

// cloneInventory copies a store with its skill states and overwritten weapons (they live
// outside the struct), so a later change to the original shows against the copy.
func cloneInventory(inv *Inventory) Inventory {
	c := *inv
	c.skills = slices.Clone(inv.skills)
	if inv.old != nil {
		old := *inv.old
		c.old = &old
	}
	return c
}

// sameInventory reports whether two stores hold the same state, skill states and
// overwritten weapons included.
func sameInventory(a, b *Inventory) bool {
	return reflect.DeepEqual(*a, *b)
}
