package inventory

import (
	"errors"
	"testing"
)

func TestNewConnectionStartsEmpty(t *testing.T) {
	inv := newInv(t)
	if inv.Rev() != 0 || inv.Held() != Fists {
		t.Fatalf("rev %d held %d", inv.Rev(), inv.Held())
	}
	if inv.Slots() != ([NumSlots]Slot{}) {
		t.Fatalf("slots %v", inv.Slots())
	}
	if !inv.Owns(Fists) || inv.Owns(wM4) {
		t.Fatal("a new store owns the fists only")
	}
	give(t, inv, 0, wM4, 50, true)
	inv.Reset()
	if inv.Rev() != 0 || inv.Owns(wM4) || inv.Held() != Fists {
		t.Fatal("Reset must give the store of a new connection")
	}
}

func TestGiveOfTheSameWeaponAddsAmmo(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wColt, 17, false)
	give(t, inv, 0, wColt, 30, false)
	if got := ammoOf(t, inv, wColt); got != 47 {
		t.Fatalf("total %d, want 47", got)
	}
}

func TestGiveIntoAPooledSlotCarriesTheDisplacedTotal(t *testing.T) {
	tests := []struct {
		name          string
		first, second uint8
		a1, a2, want  uint16
	}{
		{"MP5 then Uzi (submachine guns)", wMP5, wUzi, 30, 50, 80},
		{"Uzi then Tec-9", wUzi, wTec9, 100, 10, 110},
		{"shotgun then combat shotgun", wShotgun, wSpas, 20, 7, 27},
		{"AK-47 then M4 (assault rifles)", wAK, wM4, 90, 50, 140},
		{"empty MP5 then Uzi", wMP5, wUzi, 0, 50, 50},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv := newInv(t)
			give(t, inv, 0, tc.first, tc.a1, true)
			give(t, inv, 0, tc.second, tc.a2, false)
			if inv.Owns(tc.first) {
				t.Fatalf("weapon %d still in the store", tc.first)
			}
			if got := ammoOf(t, inv, tc.second); got != tc.want {
				t.Fatalf("total %d, want %d", got, tc.want)
			}
		})
	}
}

func TestGiveIntoAnyOtherSlotReplaces(t *testing.T) {
	tests := []struct {
		name          string
		first, second uint8
	}{
		{"Colt then Deagle (pistols do not pool)", wColt, wDeagle},
		{"rifle then sniper (slot 6 does not pool)", wRifle, wSniper},
		{"grenade then satchel", wGrenade, wSatchel},
		{"flamethrower then minigun", wFlame, wMinigun},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv := newInv(t)
			give(t, inv, 0, tc.first, 40, true)
			give(t, inv, 0, tc.second, 7, false)
			if inv.Owns(tc.first) {
				t.Fatalf("weapon %d still in the store", tc.first)
			}
			if got := ammoOf(t, inv, tc.second); got != 7 {
				t.Fatalf("total %d, want 7", got)
			}
		})
	}
}

func TestTotalsAreCappedAt65535(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 65000, false)
	give(t, inv, 0, wM4, 1000, false)
	if got := ammoOf(t, inv, wM4); got != MaxWeaponAmmo {
		t.Fatalf("same weapon: total %d, want 65535", got)
	}
	give(t, inv, 0, wAK, 65535, false) // pooled carry of 65535 + 65535
	if got := ammoOf(t, inv, wAK); got != MaxWeaponAmmo {
		t.Fatalf("pooled carry: total %d, want 65535", got)
	}
}

func TestGiveRefillsTheClipFromTheTotal(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wColt, 10, false)
	if s := inv.Slots()[2]; s.Clip != 10 {
		t.Fatalf("clip %d, want 10 (the whole total)", s.Clip)
	}
	give(t, inv, 0, wColt, 90, false)
	if s := inv.Slots()[2]; s.Clip != 17 {
		t.Fatalf("clip %d, want 17 (a poor-tier Colt clip)", s.Clip)
	}
	if err := inv.SetSkillTier(0, SkillPistol, TierPro); err != nil {
		t.Fatal(err)
	}
	give(t, inv, 0, wColt, 1, false)
	if s := inv.Slots()[2]; s.Clip != 34 {
		t.Fatalf("clip %d, want 34 (a pro Colt clip)", s.Clip)
	}
	give(t, inv, 0, wKnife, 1, false)
	if s := inv.Slots()[1]; s.Clip != 0 || s.Total != 1 {
		t.Fatalf("knife %v: melee has no clip", s)
	}
	give(t, inv, 0, wRifle, 0, false)
	if s := inv.Slots()[6]; s.Clip != 0 || s.Total != 0 {
		t.Fatalf("rifle given with 0 rounds: %v", s)
	}
}

func TestGiveSetAsCurrentMayLeaveTheHeldWeaponAlone(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wColt, 17, true)
	if inv.Held() != wColt {
		t.Fatalf("held %d, want Colt", inv.Held())
	}
	give(t, inv, 0, wM4, 50, false)
	if inv.Held() != wColt {
		t.Fatalf("held %d after a give that is not set as current", inv.Held())
	}
	// Replacing the held weapon keeps its slot held, as the game holds a slot.
	give(t, inv, 0, wDeagle, 7, false)
	if inv.Held() != wDeagle {
		t.Fatalf("held %d, want the Deagle that replaced the held Colt", inv.Held())
	}
	give(t, inv, 0, wM4, 1, true)
	if inv.Held() != wM4 {
		t.Fatalf("held %d, want M4", inv.Held())
	}
}

func TestEachCommandTakesTheNextRevision(t *testing.T) {
	inv := newInv(t)
	g := give(t, inv, 0, wM4, 50, false)
	tk, err := inv.Take(0, wM4)
	if err != nil {
		t.Fatal(err)
	}
	give(t, inv, 0, wColt, 17, false)
	sa, err := inv.SetAmmo(0, wColt, 5, ClipNotSet)
	if err != nil {
		t.Fatal(err)
	}
	arm, err := inv.SetArmed(0, wColt)
	if err != nil {
		t.Fatal(err)
	}
	cl := inv.Clear(0)
	got := []uint16{g.Rev, tk.Rev, sa.Rev, arm.Rev, cl.Rev, inv.Rev()}
	want := []uint16{1, 2, 4, 5, 6, 6}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("revisions %v, want %v", got, want)
		}
	}
	msgs := []string{g.String(), tk.String(), sa.String(), arm.String(), cl.String()}
	wantMsgs := []string{
		"GiveWeapon rev=1 weapon=31 ammo=50 current=false",
		"TakeWeapon rev=2 weapon=31",
		"SetWeaponAmmo rev=4 weapon=22 total=5 clip=unset",
		"SetArmedWeapon rev=5 weapon=22",
		"ClearWeapons rev=6",
	}
	for i := range wantMsgs {
		if msgs[i] != wantMsgs[i] {
			t.Errorf("message %q, want %q", msgs[i], wantMsgs[i])
		}
	}
}

func TestRejectedCommandsChangeNothing(t *testing.T) {
	tests := []struct {
		name string
		do   func(inv *Inventory) error
		want error
	}{
		{"give weapon 47", func(inv *Inventory) error { _, err := inv.Give(0, 47, 1, true); return err }, ErrUnknownWeapon},
		{"give unused 20", func(inv *Inventory) error { _, err := inv.Give(0, wUnused, 1, true); return err }, ErrNotAWeapon},
		{"give the fists", func(inv *Inventory) error { _, err := inv.Give(0, Fists, 1, true); return err }, ErrNotAWeapon},
		{"take a weapon not owned", func(inv *Inventory) error { _, err := inv.Take(0, wDeagle); return err }, ErrNotOwned},
		{"take weapon 255", func(inv *Inventory) error { _, err := inv.Take(0, 255); return err }, ErrUnknownWeapon},
		{"take the fists", func(inv *Inventory) error { _, err := inv.Take(0, Fists); return err }, ErrNotAWeapon},
		{"set ammo of a weapon not owned", func(inv *Inventory) error { _, err := inv.SetAmmo(0, wM4, 5, ClipNotSet); return err }, ErrNotOwned},
		{"set ammo of unused 19", func(inv *Inventory) error { _, err := inv.SetAmmo(0, 19, 5, ClipNotSet); return err }, ErrNotAWeapon},
		{"clip above the total", func(inv *Inventory) error { _, err := inv.SetAmmo(0, wColt, 5, 6); return err }, ErrClipAboveTotal},
		{"clip above the clip size", func(inv *Inventory) error { _, err := inv.SetAmmo(0, wColt, 100, 35); return err }, ErrClipTooLarge},
		{"arm a weapon not owned", func(inv *Inventory) error { _, err := inv.SetArmed(0, wM4); return err }, ErrNotOwned},
		{"arm unused 21", func(inv *Inventory) error { _, err := inv.SetArmed(0, 21); return err }, ErrNotAWeapon},
		{"arm weapon 60", func(inv *Inventory) error { _, err := inv.SetArmed(0, 60); return err }, ErrUnknownWeapon},
		{"skill of a weapon without tiers", func(inv *Inventory) error { return inv.SetWeaponSkillTier(0, wM4+2, TierPro) }, ErrNoSkill},
		{"skill of weapon 99", func(inv *Inventory) error { return inv.SetWeaponSkillTier(0, 99, TierPro) }, ErrUnknownWeapon},
		{"unknown skill stat", func(inv *Inventory) error { return inv.SetSkillTier(0, 79, TierPro) }, ErrUnknownSkill},
		{"bad tier", func(inv *Inventory) error { return inv.SetSkillTier(0, SkillPistol, 3) }, ErrBadTier},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv := newInv(t)
			give(t, inv, 0, wColt, 17, true)
			before := cloneInventory(inv)
			if err := tc.do(inv); !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if !sameInventory(inv, &before) {
				t.Fatal("a rejected command changed the store")
			}
		})
	}
}

func TestTakeRemovesTheWeaponAndHoldsFistsIfItWasHeld(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wKnuckles, 1, false)
	give(t, inv, 0, wM4, 50, true)
	give(t, inv, 0, wColt, 17, false)
	if _, err := inv.Take(0, wColt); err != nil {
		t.Fatal(err)
	}
	if inv.Owns(wColt) || inv.Held() != wM4 {
		t.Fatalf("after taking a weapon not held: owns Colt %v, held %d", inv.Owns(wColt), inv.Held())
	}
	if _, err := inv.Take(0, wM4); err != nil {
		t.Fatal(err)
	}
	if inv.Held() != wKnuckles {
		t.Fatalf("held %d after taking the held M4, want slot 0 (knuckles)", inv.Held())
	}
}

func TestSetAmmoSetsTheTotalAndTheClip(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 100, true) // clip 50
	if _, err := inv.SetAmmo(0, wM4, 30, ClipNotSet); err != nil {
		t.Fatal(err)
	}
	if s := inv.Slots()[5]; s.Total != 30 || s.Clip != 30 {
		t.Fatalf("%v: an unset clip is cut to the new total", s)
	}
	if _, err := inv.SetAmmo(0, wM4, 200, 10); err != nil {
		t.Fatal(err)
	}
	if s := inv.Slots()[5]; s.Total != 200 || s.Clip != 10 {
		t.Fatalf("%v, want total 200 clip 10", s)
	}
	if _, err := inv.SetAmmo(0, wM4, 0, ClipNotSet); err != nil {
		t.Fatal(err)
	}
	if a, ok := inv.Ammo(wM4); !ok || a != 0 {
		t.Fatalf("set to 0: owned %v total %d; the weapon stays, empty", ok, a)
	}
}

func TestClearEmptiesEverySlot(t *testing.T) {
	inv := newInv(t)
	for _, w := range []uint8{wKnuckles, wKnife, wColt, wShotgun, wMP5, wM4, wSniper, wFlame, wGrenade, wSpraycan, wParachute} {
		give(t, inv, 0, w, 10, true)
	}
	inv.Clear(0)
	if inv.Slots() != ([NumSlots]Slot{}) || inv.Held() != Fists {
		t.Fatalf("after Clear: %v held %d", inv.Slots(), inv.Held())
	}
}

func TestSetArmedMovesTheHeldWeaponWithinTheStore(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 50, false)
	if _, err := inv.SetArmed(0, wM4); err != nil || inv.Held() != wM4 {
		t.Fatalf("SetArmed(M4): %v held %d", err, inv.Held())
	}
	if _, err := inv.SetArmed(0, Fists); err != nil || inv.Held() != Fists {
		t.Fatalf("SetArmed(fists): %v held %d", err, inv.Held())
	}
}

// TestGiveReachingTheCapDoesNotChargeShotsFiredBeforeIt: the client at 11700 fires
// once while a give of 55582 is in flight. The server is at the cap (65535) at once;
// the client, after the give, is at the cap too (11699 + 55582 > 65535). Charging the
// shot would leave the server one below.
func TestGiveReachingTheCapDoesNotChargeShotsFiredBeforeIt(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wDeagle, 11700, true)
	give(t, inv, 100*ms, wDeagle, 55582, true)
	r := inv.Shot(110*ms, true, shotOf(wDeagle, 0, 10))
	if r.Verdict != Accepted || r.Paid != NotCharged {
		t.Fatalf("shot fired before the capped give: %v", r)
	}
	if got := ammoOf(t, inv, wDeagle); got != MaxWeaponAmmo {
		t.Fatalf("store %d, want the cap", got)
	}
	// A give below the cap stays additive: shots are charged.
	inv2 := newInv(t)
	give(t, inv2, 0, wDeagle, 100, true)
	give(t, inv2, 100*ms, wDeagle, 100, true)
	if r := inv2.Shot(110*ms, true, shotOf(wDeagle, 0, 10)); r.Paid != PaidFromStore {
		t.Fatalf("shot before an additive give: %v", r)
	}
}
