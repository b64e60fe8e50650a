package inventory

import (
	"testing"
	"time"
)

// BenchmarkFrameMerge: a frame of the current revision that lowers the held total.
func BenchmarkFrameMerge(b *testing.B) {
	inv := newInv(b)
	give(b, inv, 0, wM4, MaxWeaponAmmo, true)
	f := echo(inv, wM4, MaxWeaponAmmo, 50)
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		now += 33 * time.Millisecond
		if f.Total == 0 {
			f.Total = MaxWeaponAmmo
			give(b, inv, now, wM4, MaxWeaponAmmo, true)
			f.WeaponRev = inv.Rev()
		}
		f.Total--
		if inv.Frame(now, f).Verdict != FrameMerged {
			b.Fatal("not merged")
		}
	}
}

// BenchmarkFrameContinuousFire: a frame with the flamethrower's fire held (the merge
// plus the server's own spend).
func BenchmarkFrameContinuousFire(b *testing.B) {
	inv := newInv(b)
	give(b, inv, 0, wFlame, MaxWeaponAmmo, true)
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		now += 50 * time.Millisecond
		a, _ := inv.Ammo(wFlame)
		if a < 10 {
			give(b, inv, now, wFlame, MaxWeaponAmmo, true)
		}
		inv.Frame(now, Frame{WeaponRev: inv.Rev(), Weapon: wFlame, Total: MaxWeaponAmmo, Clip: 500, FireHeld: true})
	}
}

// BenchmarkFrameStale: a frame echoing an older revision (the gate closed).
func BenchmarkFrameStale(b *testing.B) {
	inv := newInv(b)
	give(b, inv, 0, wM4, 500, true)
	f := Frame{WeaponRev: inv.Rev() - 1, Weapon: wM4, Total: 3, Clip: 3}
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		now += 33 * time.Millisecond
		inv.Frame(now, f)
	}
}

// BenchmarkShotAccepted: an accepted WeaponShot (validation, spend, floor facts).
func BenchmarkShotAccepted(b *testing.B) {
	inv := newInv(b)
	give(b, inv, 0, wM4, MaxWeaponAmmo, true)
	s := shotOf(wM4, 0, 50)
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		now += 100 * time.Millisecond
		if a, _ := inv.Ammo(wM4); a == 0 {
			give(b, inv, now, wM4, MaxWeaponAmmo, true)
		}
		if inv.Shot(now, true, s).Verdict != Accepted {
			b.Fatal("refused")
		}
	}
}

// BenchmarkShotRefused: a shot refused at the last check (too fast).
func BenchmarkShotRefused(b *testing.B) {
	inv := newInv(b)
	give(b, inv, 0, wSniper, 100, true)
	s := shotOf(wSniper, 0, 50)
	inv.Shot(0, true, s)
	b.ReportAllocs()
	for b.Loop() {
		if inv.Shot(0, true, s).Verdict != TooFast {
			b.Fatal("not refused")
		}
	}
}

// BenchmarkProjectile and BenchmarkMelee: the other two actions.
func BenchmarkProjectile(b *testing.B) {
	inv := newInv(b)
	give(b, inv, 0, wGrenade, MaxWeaponAmmo, true)
	b.ReportAllocs()
	for b.Loop() {
		if a, _ := inv.Ammo(wGrenade); a == 0 {
			give(b, inv, 0, wGrenade, MaxWeaponAmmo, true)
		}
		inv.Projectile(0, true, wGrenade)
	}
}

func BenchmarkMelee(b *testing.B) {
	inv := newInv(b)
	give(b, inv, 0, wKnife, 1, true)
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		now += 300 * time.Millisecond
		inv.Melee(now, true, wKnife, 1.5)
	}
}

// BenchmarkWorld1000PlayersOneTick: one 33 ms tick of a world of 1000 players, each
// sending a frame and every tenth firing a shot.
func BenchmarkWorld1000PlayersOneTick(b *testing.B) {
	cat := newCatalog(b)
	invs := make([]*Inventory, 1000)
	for i := range invs {
		invs[i] = cat.NewInventory()
		give(b, invs[i], 0, wM4, MaxWeaponAmmo, true)
	}
	s := shotOf(wM4, 0, 50)
	now := time.Duration(0)
	b.ReportAllocs()
	for b.Loop() {
		now += 33 * time.Millisecond
		for i, inv := range invs {
			a, _ := inv.Ammo(wM4)
			if a < 2 {
				give(b, inv, now, wM4, MaxWeaponAmmo, true)
				a, _ = inv.Ammo(wM4)
			}
			inv.Frame(now, Frame{WeaponRev: inv.Rev(), Weapon: wM4, Total: a - 1, Clip: 10})
			if i%10 == int(now/(33*time.Millisecond))%10 {
				inv.Shot(now, true, s)
			}
		}
	}
}
