package inventory_test

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/inventory"
)

const (
	colt  uint8 = 22
	deagl uint8 = 24
	uzi   uint8 = 28
	mp5   uint8 = 29
	m4    uint8 = 31
)

func shot(weapon uint8, propsRev uint16) inventory.Shot {
	return inventory.Shot{Weapon: weapon, PropsRev: propsRev,
		Origin: inventory.Vec3{X: 0, Y: 0, Z: 3}, End: inventory.Vec3{X: 20, Y: 0, Z: 3}}
}

// The whole cycle: a command goes up, frames and shots only take from the store.
func Example() {
	cat, err := inventory.NewCatalog(inventory.Config{}) // GTA San Andreas defaults
	if err != nil {
		panic(err)
	}
	inv := cat.NewInventory() // when the player joins

	give, _ := inv.Give(0, m4, 50, true)
	fmt.Println("send:", give)

	// A frame that has not yet seen the give is not used.
	r := inv.Frame(50*time.Millisecond, inventory.Frame{WeaponRev: 0, Weapon: m4, Total: 0})
	fmt.Println("old frame:", r)

	// The client applied it, fired three rounds; the frame says 47.
	r = inv.Frame(300*time.Millisecond, inventory.Frame{WeaponRev: give.Rev, Weapon: m4, Total: 47, Clip: 47})
	fmt.Println("frame:", r)

	// Two of the three shots arrive after that frame (the third was lost): the frame
	// already counted their rounds, so they do not lower the store again.
	fmt.Println("late shot:", inv.Shot(310*time.Millisecond, true, shot(m4, cat.Revision())))
	fmt.Println("late shot:", inv.Shot(400*time.Millisecond, true, shot(m4, cat.Revision())))
	total, _ := inv.Ammo(m4)
	fmt.Println("M4 total:", total)
	// Output:
	// send: GiveWeapon rev=1 weapon=31 ammo=50 current=true
	// old frame: stale weapon revision
	// frame: merged
	// late shot: accepted, paid by a frame
	// late shot: accepted, paid by a frame
	// M4 total: 47
}

// Give follows the game's ammo rules.
func ExampleInventory_Give() {
	cat, _ := inventory.NewCatalog(inventory.Config{})
	inv := cat.NewInventory()
	inv.Give(0, mp5, 30, true)
	inv.Give(0, uzi, 50, false) // the submachine-gun slot pools: the MP5's 30 carry over
	inv.Give(0, colt, 17, false)
	inv.Give(0, deagl, 7, false) // pistols do not pool: the Colt and its rounds are gone
	inv.Give(0, m4, 65000, false)
	inv.Give(0, m4, 1000, false) // capped at 65535
	for _, s := range inv.Slots() {
		if s.Weapon != 0 {
			fmt.Println(s)
		}
	}
	fmt.Println("held:", inv.Held())
	// Output:
	// weapon 24 total 7 clip 7
	// weapon 28 total 80 clip 50
	// weapon 31 total 65535 clip 50
	// held: 28
}

// A frozen ammo counter gets exactly the rounds the server gave.
func ExampleInventory_Shot() {
	cat, _ := inventory.NewCatalog(inventory.Config{})
	inv := cat.NewInventory()
	give, _ := inv.Give(0, deagl, 3, true)
	now := time.Duration(0)
	for range 4 {
		now += 200 * time.Millisecond
		inv.Frame(now, inventory.Frame{WeaponRev: give.Rev, Weapon: deagl, Total: 3, Clip: 3}) // frozen
		fmt.Println(inv.Shot(now, true, shot(deagl, cat.Revision())))
	}
	// Output:
	// accepted, paid from the store
	// accepted, paid from the store
	// accepted, paid from the store
	// no ammo
}

// A shot needs the weapon in the store, not in the hand: it often overtakes the frame
// that shows the switch.
func ExampleInventory_Shot_notHeld() {
	cat, _ := inventory.NewCatalog(inventory.Config{})
	inv := cat.NewInventory()
	inv.Give(0, m4, 50, true)
	inv.Give(0, deagl, 7, false)
	fmt.Println("held:", inv.Held())
	fmt.Println(inv.Shot(time.Second, true, shot(deagl, cat.Revision())))
	fmt.Println("held:", inv.Held())
	// Output:
	// held: 31
	// accepted, paid from the store
	// held: 24
}

// The respawn grant clears the store without a revision; a give after it survives.
func ExampleInventory_RespawnGrant() {
	cat, _ := inventory.NewCatalog(inventory.Config{})
	inv := cat.NewInventory()
	inv.Give(0, m4, 50, true)
	fmt.Println("cleared:", inv.RespawnGrant(1), "rev:", inv.Rev())
	inv.Give(0, colt, 17, true) // the spawn loadout, before the client confirms the life
	fmt.Println("cleared again:", inv.RespawnGrant(1))
	fmt.Println("owns M4:", inv.Owns(m4), "owns Colt:", inv.Owns(colt))
	// Output:
	// cleared: true rev: 1
	// cleared again: false
	// owns M4: false owns Colt: true
}

// The damage a bullet's floor starts from, per properties revision and tier.
func ExampleCatalog_Damage() {
	cat, _ := inventory.NewCatalog(inventory.Config{})
	table := inventory.DefaultTable()
	table[deagl].Damage = [inventory.NumTiers]float32{50, 100, 100}
	msg, _ := cat.Update(time.Second, &table)
	fmt.Println("send:", msg)
	for _, rev := range []uint16{0, 1} {
		poor, _ := cat.Damage(rev, deagl, inventory.TierPoor)
		pro, _ := cat.Damage(rev, deagl, inventory.TierPro)
		fmt.Println("revision", rev, "poor", poor, "pro", pro)
	}
	_, err := cat.Damage(2, deagl, inventory.TierStd)
	fmt.Println(err)
	// Output:
	// send: WeaponProperties rev=1
	// revision 0 poor 70 pro 140
	// revision 1 poor 50 pro 100
	// inventory: weapon properties revision never published
}

// Within five seconds of a skill change the floor takes the lower tier.
func ExampleInventory_FloorDamage() {
	cat, _ := inventory.NewCatalog(inventory.Config{})
	inv := cat.NewInventory()
	inv.SetSkillTier(0, inventory.SkillDesertEagle, inventory.TierPro)
	for _, now := range []time.Duration{time.Second, 6 * time.Second} {
		d, tier, _ := inv.FloorDamage(now, cat.Revision(), deagl)
		fmt.Println(now, tier, d)
	}
	// Output:
	// 1s poor 70
	// 6s pro 140
}
