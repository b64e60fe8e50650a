package inventory

import (
	"testing"
	"time"
)

// TestHotPathsDoNotAllocate guards the promise the benchmarks measure: a frame (merged,
// stale, with continuous fire held), a shot (accepted and refused), a projectile, a blow
// and a new round-trip estimate allocate nothing.
func TestHotPathsDoNotAllocate(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, MaxWeaponAmmo, true)
	give(t, inv, 0, wFlame, MaxWeaponAmmo, false)
	give(t, inv, 0, wGrenade, MaxWeaponAmmo, false)
	give(t, inv, 0, wKnife, 1, false)
	now := time.Second
	total := uint16(MaxWeaponAmmo)
	cases := []struct {
		name string
		run  func()
	}{
		{"frame merged", func() {
			total--
			inv.Frame(now, Frame{WeaponRev: inv.Rev(), Weapon: wM4, Total: total, Clip: 30})
		}},
		{"frame stale", func() { inv.Frame(now, Frame{WeaponRev: inv.Rev() - 1, Weapon: wM4, Total: 3, Clip: 3}) }},
		{"frame continuous fire", func() {
			inv.Frame(now, Frame{WeaponRev: inv.Rev(), Weapon: wFlame, Total: MaxWeaponAmmo, Clip: 500, FireHeld: true})
		}},
		{"shot accepted", func() { inv.Shot(now, true, shotOf(wM4, 0, 50)) }},
		{"shot refused", func() { inv.Shot(now, true, shotOf(wM4, 0, 5000)) }},
		{"projectile", func() { inv.Projectile(now, true, wGrenade) }},
		{"melee", func() { inv.Melee(now, true, wKnife, 1) }},
		{"set rtt", func() { inv.SetRTT(now%time.Second, true) }},
	}
	for _, c := range cases {
		if n := testing.AllocsPerRun(100, func() { now += 200 * time.Millisecond; c.run() }); n != 0 {
			t.Errorf("%s: %v allocations per call", c.name, n)
		}
	}
}
