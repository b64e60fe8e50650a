package client

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// TestStoreFollowsTheServersGiveRules runs random weapon commands through the server's
// inventory package and delivers every message it returns to the client: after each one
// the client's store, held weapon and echo must be the server's (inventory's [give-rules]: a
// give follows the game's own ammo rules, so the store matches what the client will
// have). Skill changes ride along, so clip refills use the same tier on both sides.
func TestStoreFollowsTheServersGiveRules(t *testing.T) {
	for seed := uint64(1); seed <= 25; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		cat, err := inventory.NewCatalog(inventory.Config{})
		require.NoError(t, err)
		inv := cat.NewInventory()
		h := newHarness(t, Config{})
		h.join()
		inv.RespawnGrant(1)
		weapon := func() uint8 {
			if rng.IntN(4) == 0 {
				return uint8(rng.IntN(50)) // anything, the fists and the unused ids included
			}
			return []uint8{1, 4, 16, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 37, 41}[rng.IntN(17)]
		}
		ammo := func() uint16 {
			switch rng.IntN(5) {
			case 0:
				return 0
			case 1:
				return uint16(65000 + rng.IntN(536))
			}
			return uint16(rng.IntN(300))
		}
		for i := range 400 {
			var msg wire.Message
			switch rng.IntN(12) {
			case 0, 1, 2, 3, 4:
				g, err := inv.Give(h.now, weapon(), ammo(), rng.IntN(2) == 0)
				if err != nil {
					continue
				}
				msg = &wire.GiveWeapon{Rev: g.Rev, Weapon: g.Weapon, Ammo: g.Ammo, SetAsCurrent: g.SetAsCurrent}
			case 5:
				tk, err := inv.Take(h.now, weapon())
				if err != nil {
					continue
				}
				msg = &wire.TakeWeapon{Rev: tk.Rev, Weapon: tk.Weapon}
			case 6, 7:
				clip := uint16(rng.IntN(60))
				if rng.IntN(2) == 0 {
					clip = inventory.ClipNotSet
				}
				sa, err := inv.SetAmmo(h.now, weapon(), ammo(), clip)
				if err != nil {
					continue
				}
				msg = &wire.SetWeaponAmmo{Rev: sa.Rev, Weapon: sa.Weapon, Total: sa.Total, Clip: sa.Clip}
			case 8:
				if rng.IntN(5) != 0 {
					continue
				}
				cl := inv.Clear(h.now)
				msg = &wire.ClearWeapons{Rev: cl.Rev}
			case 9, 10:
				sa, err := inv.SetArmed(h.now, weapon())
				if err != nil {
					continue
				}
				msg = &wire.SetArmedWeapon{Rev: sa.Rev, Weapon: sa.Weapon}
			case 11:
				skill := uint8(rng.IntN(numSkills))
				level := uint16(rng.IntN(1000))
				if err := inv.SetSkillTier(h.now, inventory.SkillStat(int(inventory.SkillPistol)+int(skill)), SkillTier(level)); err != nil {
					continue
				}
				msg = &wire.SetWeaponSkill{Skill: skill, Level: level}
			}
			h.send(msg)
			h.flush() // the client's acknowledgements keep the server's lane window open
			got := h.c.Weapons()
			require.Equal(t, inv.Slots(), got.Slots, "seed %d step %d after %v", seed, i, msg)
			require.Equal(t, inv.Held(), got.Held, "seed %d step %d after %v", seed, i, msg)
			require.Equal(t, inv.Rev(), h.c.Revisions().Weapon, "seed %d step %d", seed, i)
		}
	}
}

// TestShotsSpendLikeTheServer fires the client's guns and judges every WeaponShot with the
// server's inventory: each is accepted (never too fast, never without ammo, never out of
// range) and the two totals stay equal.
func TestShotsSpendLikeTheServer(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	cat, err := inventory.NewCatalog(inventory.Config{})
	require.NoError(t, err)
	inv := cat.NewInventory()
	h := newHarness(t, Config{})
	h.join()
	inv.RespawnGrant(1)
	rev := uint16(0)
	for _, w := range []uint8{22, 25, 28, 31, 34} {
		g, err := inv.Give(h.now, w, 60, false)
		require.NoError(t, err)
		rev = g.Rev
		h.send(&wire.GiveWeapon{Rev: g.Rev, Weapon: w, Ammo: 60})
	}
	require.Equal(t, rev, h.c.Revisions().Weapon)
	accepted := 0
	for range 3000 {
		h.at(h.now + 10*ms)
		w := []uint8{22, 25, 28, 31, 34}[rng.IntN(5)]
		dist := float32(rng.IntN(120))
		a, err := h.c.Fire(h.now, w, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{Y: dist})
		require.NoError(t, err)
		for _, s := range of[*wire.WeaponShot](h.step()) {
			r := inv.Shot(h.now, true, inventory.Shot{Weapon: s.Weapon, PropsRev: s.PropertiesRev,
				Origin: inventory.Vec3(s.Origin), End: inventory.Vec3(s.HitPos)})
			require.Equal(t, inventory.Accepted, r.Verdict, "%v", s)
			accepted++
		}
		if a.Verdict == Acted {
			got, _ := inv.Ammo(w)
			require.Equal(t, got, h.c.Weapons().Slots[cat.SlotOf(w)].Total)
		}
	}
	require.Greater(t, accepted, 100)
	for _, s := range h.c.Weapons().Slots {
		if s.Weapon != 0 {
			got, _ := inv.Ammo(s.Weapon)
			require.Equal(t, got, s.Total)
		}
	}
}
