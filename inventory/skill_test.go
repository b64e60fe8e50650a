package inventory

import (
	"testing"
	"time"
)

func TestNewConnectionFiresAtThePoorTierUntilTheHostSetsIt(t *testing.T) {
	inv := newInv(t)
	if inv.SkillTier(wDeagle) != TierPoor || inv.FloorTier(0, wDeagle) != TierPoor {
		t.Fatalf("Deagle tier %v floor %v", inv.SkillTier(wDeagle), inv.FloorTier(0, wDeagle))
	}
	if d, _, err := inv.FloorDamage(0, 0, wDeagle); d != 70 || err != nil {
		t.Fatalf("floor damage %v %v, want the poor 70", d, err)
	}
}

func TestWeaponsWithoutTiersUseStd(t *testing.T) {
	inv := newInv(t)
	for _, w := range []uint8{wRifle, wSniper, wMinigun, wRPG, wFlame, wKnife, 47} {
		if inv.SkillTier(w) != TierStd || inv.FloorTier(time.Hour, w) != TierStd {
			t.Errorf("weapon %d: tier %v floor %v, want std", w, inv.SkillTier(w), inv.FloorTier(time.Hour, w))
		}
	}
}

func TestUziAndTec9ShareOneSkillStat(t *testing.T) {
	inv := newInv(t)
	if err := inv.SetWeaponSkillTier(0, wTec9, TierPro); err != nil {
		t.Fatal(err)
	}
	if inv.SkillTier(wUzi) != TierPro || inv.SkillTier(wMP5) != TierPoor {
		t.Fatalf("Uzi %v MP5 %v", inv.SkillTier(wUzi), inv.SkillTier(wMP5))
	}
	if inv.Catalog().SkillOf(wUzi) != SkillMachinePistol {
		t.Fatalf("Uzi stat %v", inv.Catalog().SkillOf(wUzi))
	}
}

func TestFloorTakesTheLowerTierWithinFiveSecondsOfAChange(t *testing.T) {
	inv := newInv(t)
	if err := inv.SetSkillTier(0, SkillDesertEagle, TierStd); err != nil {
		t.Fatal(err)
	}
	at := 10 * time.Second
	if inv.FloorTier(at, wDeagle) != TierStd {
		t.Fatalf("floor tier %v long after the change", inv.FloorTier(at, wDeagle))
	}
	// Std -> poor and back to std: poor stays the floor for 5 s after the last change.
	if err := inv.SetSkillTier(at, SkillDesertEagle, TierPoor); err != nil {
		t.Fatal(err)
	}
	if err := inv.SetSkillTier(at+time.Second, SkillDesertEagle, TierPro); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		now  time.Duration
		want Tier
		dmg  float32
	}{
		{at + time.Second, TierPoor, 70},
		{at + time.Second + SkillChangeGrace - time.Nanosecond, TierPoor, 70},
		{at + time.Second + SkillChangeGrace, TierPro, 140},
	}
	for _, tc := range tests {
		if got := inv.FloorTier(tc.now, wDeagle); got != tc.want {
			t.Errorf("at %v: floor tier %v, want %v", tc.now, got, tc.want)
		}
		if d, _, _ := inv.FloorDamage(tc.now, 0, wDeagle); d != tc.dmg {
			t.Errorf("at %v: floor damage %v, want %v", tc.now, d, tc.dmg)
		}
	}
	if inv.SkillTier(wDeagle) != TierPro {
		t.Fatalf("current tier %v", inv.SkillTier(wDeagle))
	}
	// A shot's result carries the floor tier and damage.
	give(t, inv, at, wDeagle, 7, true)
	r := inv.Shot(at+2*time.Second, true, shotOf(wDeagle, 0, 10))
	if r.Tier != TierPoor || r.Damage != 70 {
		t.Fatalf("shot within the grace: tier %v damage %v", r.Tier, r.Damage)
	}
	// Setting the same tier again is no change.
	if err := inv.SetSkillTier(time.Minute, SkillDesertEagle, TierPro); err != nil || inv.FloorTier(time.Minute, wDeagle) != TierPro {
		t.Fatalf("repeating the tier: %v %v", err, inv.FloorTier(time.Minute, wDeagle))
	}
}

func TestFloorDamageIsTheSmallestAmongTheTiersHeld(t *testing.T) {
	// A host table whose pro damage is below std: the floor takes the smaller damage,
	// not the lower tier.
	table := DefaultTable()
	table[wColt].Damage = [NumTiers]float32{25, 30, 20}
	c, err := NewCatalog(Config{Table: &table})
	if err != nil {
		t.Fatal(err)
	}
	inv := c.NewInventory()
	inv.SetSkillTier(0, SkillPistol, TierStd)
	inv.SetSkillTier(10*time.Second, SkillPistol, TierPro)
	d, tier, err := inv.FloorDamage(11*time.Second, 0, wColt)
	if d != 20 || tier != TierPro || err != nil {
		t.Fatalf("floor %v at %v (%v), want 20 at pro", d, tier, err)
	}
	if _, _, err := inv.FloorDamage(0, 0, wKnife); err == nil {
		t.Fatal("a knife has no damage figure")
	}
	if _, _, err := inv.FloorDamage(0, 0, 50); err == nil {
		t.Fatal("weapon 50")
	}
	if _, _, err := inv.FloorDamage(0, 9, wColt); err == nil {
		t.Fatal("revision 9 was never published")
	}
}
