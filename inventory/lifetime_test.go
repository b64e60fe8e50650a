package inventory

import (
	"testing"
	"time"
)

// A death keeps the store (TestDeathKeepsTheStore), the respawn grant clears it without a
// revision bump (TestRespawnGrantClearsWithoutARevisionBump), once per generation
// (TestRepeatedGrantOfTheSameGenerationClearsNothing): scenarios in
// testdata/scenarios/lifetime.txt.

// modelClient is the honest client's side of the rules for the lifetime scenario:
// it applies commands in the lane's order and clears its store on the revival a grant
// triggers.
type modelClient struct {
	slots   [NumSlots]Slot
	applied uint16
	alive   bool
}

func (c *modelClient) give(m GiveWeapon, cat *Catalog) {
	sl := cat.SlotOf(m.Weapon)
	s := &c.slots[sl]
	if s.Weapon == m.Weapon {
		s.Total = satAdd(s.Total, m.Ammo)
	} else {
		carried := uint16(0)
		if s.Weapon != 0 && (sl == 3 || sl == 4 || sl == 5) {
			carried = s.Total
		}
		*s = Slot{Weapon: m.Weapon, Total: satAdd(m.Ammo, carried)}
	}
	c.applied = m.Rev
}

// TestGiveBetweenGrantAndConfirmationSurvivesOnBothSides: the server grants a respawn
// and the gamemode gives the spawn weapons before the client has confirmed the new
// life. The lane delivers the grant first; the client clears on the revival, then
// applies the give; the server cleared at the grant, before committing the give. Both
// hold the weapon, and the client's shots are accepted.
func TestGiveBetweenGrantAndConfirmationSurvivesOnBothSides(t *testing.T) {
	cat := newCatalog(t)
	inv := cat.NewInventory()
	client := &modelClient{}

	// The first life: an M4 on both sides.
	g := give(t, inv, 0, wM4, 50, true)
	client.give(g, cat)

	// Death (nothing happens to the stores), then the grant at 5 s and a give at 5.1 s,
	// both in flight on the ordered lane.
	type laneMsg struct {
		grant bool
		give  GiveWeapon
	}
	var lane []laneMsg
	inv.RespawnGrant(1)
	lane = append(lane, laneMsg{grant: true})
	g2 := give(t, inv, 5100*ms, wDeagle, 21, true)
	lane = append(lane, laneMsg{give: g2})

	// While both are in flight, the dead client's frames of the old life are dropped by
	// lifecycle; a late old-life frame passed by mistake still cannot add the M4.
	inv.Frame(5200*ms, Frame{WeaponRev: g.Rev, Weapon: wM4, Total: 50, Clip: 50})
	if inv.Owns(wM4) {
		t.Fatal("the cleared M4 came back")
	}

	// The client receives the lane in order: the revival clears, then the give.
	for _, m := range lane {
		if m.grant {
			client.slots = [NumSlots]Slot{}
			client.alive = true
			continue
		}
		client.give(m.give, cat)
	}
	if client.slots[2] != (Slot{Weapon: wDeagle, Total: 21}) || client.slots[5] != (Slot{}) {
		t.Fatalf("client store %v", client.slots)
	}
	if a, ok := inv.Ammo(wDeagle); !ok || a != 21 || inv.Owns(wM4) {
		t.Fatalf("server store %v", inv.Slots())
	}
	// The first living frame echoes the give; every round the client has is accepted.
	now := 5500 * ms
	inv.Frame(now, Frame{WeaponRev: client.applied, Weapon: wDeagle, Total: 21, Clip: 7})
	for i := range 21 {
		now += 200 * ms
		if r := inv.Shot(now, true, shotOf(wDeagle, 0, 10)); r.Verdict != Accepted {
			t.Fatalf("Deagle shot %d of the new life: %v", i+1, r)
		}
	}

	// The wrong order, for contrast: clearing at the client's confirmation instead of at
	// the grant would erase the give on the server only.
	wrong := cat.NewInventory()
	give(t, wrong, 0, wDeagle, 21, true) // the give between grant and confirmation
	wrong.RespawnGrant(1)                // cleared at the confirmation
	if r := wrong.Shot(time.Second, true, shotOf(wDeagle, 0, 10)); r.Verdict != NotOwned {
		t.Fatalf("wrong order: %v", r)
	}
}
