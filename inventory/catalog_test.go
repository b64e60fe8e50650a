package inventory

import (
	"bufio"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDefaultTableMatchesTheGameData reads the copy of the game data file in testdata/
// and compares every field of every row with DefaultTable.
func TestDefaultTableMatchesTheGameData(t *testing.T) {
	f, err := os.Open("testdata/gta-sa-weapons.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	header := strings.Split(sc.Text(), "\t")
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	table := DefaultTable()
	rows := 0
	for sc.Scan() {
		rec := strings.Split(sc.Text(), "\t")
		if len(rec) != len(header) {
			t.Fatalf("row %q has %d fields, want %d", sc.Text(), len(rec), len(header))
		}
		get := func(name string) string { return rec[col[name]] }
		id, err := strconv.Atoi(get("id"))
		if err != nil || id < 0 || id >= NumWeapons {
			t.Fatalf("bad id %q", get("id"))
		}
		rows++
		w := table[id]
		check := func(field string, got, want any) {
			t.Helper()
			if got != want {
				t.Errorf("weapon %d %s: table has %v, data has %v", id, field, got, want)
			}
		}
		num := func(s string) float64 {
			if s == "-" {
				return 0
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("weapon %d: bad number %q", id, s)
			}
			return v
		}
		check("name", w.Name, get("name"))
		if get("slot") == "-" {
			check("kind", w.Kind, KindNone)
			check("slot", w.Slot, NoSlot)
			continue
		}
		check("slot", int(w.Slot), int(num(get("slot"))))
		check("kind", w.Kind.String(), get("kind"))
		check("pooled", w.Pooled, get("pooled_ammo_slot") == "yes")
		stat := NoSkill
		if s := get("skill_stat"); s != "-" {
			_, n, _ := strings.Cut(s, ":")
			stat = SkillStat(num(n))
			check("skill name", w.Skill.String(), strings.SplitN(s, ":", 2)[0])
		}
		check("skill", w.Skill, stat)
		for tier, name := range []string{"poor", "std", "pro"} {
			check("clip_"+name, w.Clip[tier], uint16(num(get("clip_"+name))))
			d := get("damage_" + name)
			check("has damage", w.HasDamage, d != "-")
			check("damage_"+name, w.Damage[tier], float32(num(d)))
		}
		check("pellets", w.Pellets, uint8(num(get("pellets"))))
		check("range_weaponstat_m", w.StatRange, float32(num(get("range_weaponstat_m"))))
		check("range_generous_m", w.Range, float32(num(get("range_generous_m"))))
		check("min_interval_ms", w.MinInterval, time.Duration(num(get("min_interval_ms")))*time.Millisecond)
		// The behaviour columns the data has no column for, checked against what it has:
		// a shot credits at least its pellets (the Combat Shotgun 8, the data's doubt), the
		// knife alone kills by stealth, and a continuous weapon sprays its own cause id.
		wantCredits := max(int(num(get("pellets"))), 1)
		if id == 27 {
			wantCredits = 8
		}
		check("credits", credits(&w), wantCredits)
		check("stealth kill", w.StealthKill, get("name") == "Knife")
		check("flies", w.Flies, id == 35 || id == 36) // the README's "rockets 35, 36"
		check("sticks", w.Sticks, get("name") == "Satchel")
		switch get("kind") {
		case "continuous":
			check("cause", w.Cause, uint8(id))
		case "projectile":
			want := CauseExplosion
			if get("name") == "Molotov" {
				want = CauseFire
			}
			check("cause", w.Cause, want)
		default:
			check("cause", w.Cause, uint8(0))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows != NumWeapons {
		t.Fatalf("data has %d rows, want %d", rows, NumWeapons)
	}
}

func TestUnusedIdsAreNotWeapons(t *testing.T) {
	c := newCatalog(t)
	inv := c.NewInventory()
	for _, w := range []uint8{19, 20, 21} {
		if c.Kind(w) != KindNone || c.SlotOf(w) != NoSlot {
			t.Errorf("weapon %d: kind %v slot %d, want none", w, c.Kind(w), c.SlotOf(w))
		}
		if _, err := inv.Give(0, w, 10, true); !errors.Is(err, ErrNotAWeapon) {
			t.Errorf("Give(%d) = %v, want ErrNotAWeapon", w, err)
		}
		if r := inv.Shot(0, true, shotOf(w, c.Revision(), 1)); r.Verdict != UnknownWeapon {
			t.Errorf("Shot(%d) = %v, want unknown weapon", w, r)
		}
	}
	if c.Kind(47) != KindNone || c.SlotOf(200) != NoSlot || c.SkillOf(99) != NoSkill {
		t.Error("ids outside the catalogue must read as no weapon")
	}
}

func TestTableValidationNamesTheBrokenRule(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *Table)
	}{
		{"unknown kind", func(t *Table) { t[22].Kind = numKinds }},
		{"fist not weapon 0", func(t *Table) { t[0].Kind = KindMelee }},
		{"a second fist", func(t *Table) { t[1].Kind = KindFist }},
		{"fist outside slot 0", func(t *Table) { t[0].Slot = 1 }},
		{"non-weapon with a slot", func(t *Table) { t[20].Slot = 3 }},
		{"non-weapon with a range", func(t *Table) { t[20].Range = float32(math.NaN()) }},
		{"slot above 12", func(t *Table) { t[22].Slot = 13 }},
		{"negative slot of a weapon", func(t *Table) { t[22].Slot = NoSlot }},
		{"pooling disagrees within a slot", func(t *Table) { t[29].Pooled = false }},
		{"clip at the sentinel", func(t *Table) { t[31].Clip[1] = ClipNotSet }},
		{"damage NaN", func(t *Table) { t[31].Damage[0] = float32(math.NaN()) }},
		{"damage infinite", func(t *Table) { t[31].Damage[2] = float32(math.Inf(1)) }},
		{"damage negative", func(t *Table) { t[31].Damage[1] = -1 }},
		{"damage without HasDamage", func(t *Table) { t[4].Damage[1] = 5 }},
		{"range NaN", func(t *Table) { t[31].Range = float32(math.NaN()) }},
		{"stat range negative", func(t *Table) { t[31].StatRange = -3 }},
		{"gun without range", func(t *Table) { t[31].Range = 0 }},
		{"negative interval", func(t *Table) { t[31].MinInterval = -time.Millisecond }},
		{"credits on a melee weapon", func(t *Table) { t[4].Credits = 2 }},
		{"credits below the pellets", func(t *Table) { t[25].Credits = 8 }},
		{"stealth kill on a gun", func(t *Table) { t[31].StealthKill = true }},
		{"cause on a gun", func(t *Table) { t[31].Cause = CauseExplosion }},
		{"projectile without a cause", func(t *Table) { t[16].Cause = 0 }},
		{"projectile spraying paint", func(t *Table) { t[16].Cause = CauseSpraycan }},
		{"continuous weapon exploding", func(t *Table) { t[41].Cause = CauseExplosion }},
		{"a flying gun", func(t *Table) { t[31].Flies = true }},
		{"a sticking knife", func(t *Table) { t[4].Sticks = true }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			table := DefaultTable()
			tc.change(&table)
			if _, err := NewCatalog(Config{Table: &table}); !errors.Is(err, ErrBadTable) {
				t.Fatalf("NewCatalog = %v, want ErrBadTable", err)
			}
			c := newCatalog(t)
			if _, err := c.Update(time.Hour, &table); !errors.Is(err, ErrBadTable) {
				t.Fatalf("Update = %v, want ErrBadTable", err)
			}
			if c.Revision() != 0 {
				t.Fatal("a refused Update published a revision")
			}
		})
	}
	if err := validateTable(new(DefaultTable())); err != nil {
		t.Fatalf("the default table is invalid: %v", err)
	}
}

func TestConfigIsValidatedAtConstruction(t *testing.T) {
	for _, cfg := range []Config{{ShotRateTolerance: -1}, {MeleeRateTolerance: -time.Second}} {
		if _, err := NewCatalog(cfg); !errors.Is(err, ErrBadConfig) {
			t.Errorf("NewCatalog(%+v) = %v, want ErrBadConfig", cfg, err)
		}
	}
	c, err := NewCatalog(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if c.shotTolerance != DefaultShotRateTolerance || c.meleeTolerance != DefaultMeleeRateTolerance {
		t.Fatal("zero tolerances must mean the defaults")
	}
}

func TestHostSuppliesItsOwnTable(t *testing.T) {
	table := DefaultTable()
	table[wColt].Range = 50
	table[wColt].Damage = [NumTiers]float32{30, 30, 30}
	c, err := NewCatalog(Config{Table: &table, FirstRevision: 7})
	if err != nil {
		t.Fatal(err)
	}
	if c.Revision() != 7 {
		t.Fatalf("first revision %d, want 7", c.Revision())
	}
	if d, _ := c.Damage(7, wColt, TierStd); d != 30 {
		t.Fatalf("damage %v, want the host's 30", d)
	}
	inv := c.NewInventory()
	give(t, inv, 0, wColt, 17, true)
	if r := inv.Shot(0, true, shotOf(wColt, 7, 45)); r.Verdict != Accepted {
		t.Fatalf("a 45 m shot with the host's 50 m range: %v", r)
	}
}

func TestNewRevisionMustKeepTheStoreStructure(t *testing.T) {
	for name, change := range map[string]func(*Table){
		"kind":    func(t *Table) { t[wColt].Kind = KindProjectile; t[wColt].Cause = CauseExplosion },
		"stealth": func(t *Table) { t[1].StealthKill = true },
		"cause":   func(t *Table) { t[18].Cause = CauseExplosion },
		"flies":   func(t *Table) { t[16].Flies = true },
		"sticks":  func(t *Table) { t[16].Sticks = true },
		"slot":    func(t *Table) { t[wColt].Slot = 3; t[wColt].Pooled = true },
		"pooled":  func(t *Table) { t[wMP5].Pooled = false; t[wUzi].Pooled = false; t[wTec9].Pooled = false },
		"skill":   func(t *Table) { t[wColt].Skill = SkillM4 },
	} {
		c := newCatalog(t)
		table := DefaultTable()
		change(&table)
		if _, err := c.Update(time.Hour, &table); !errors.Is(err, ErrTableStructure) {
			t.Errorf("%s: Update = %v, want ErrTableStructure", name, err)
		}
	}
	c := newCatalog(t)
	if _, err := c.Update(0, nil); !errors.Is(err, ErrBadTable) {
		t.Errorf("Update(nil) = %v", err)
	}
}

// publish publishes n revisions one second apart (damage of the M4 = revision number)
// starting at start, and returns the time after the last.
func publish(t *testing.T, c *Catalog, start time.Duration, n int) time.Duration {
	return publishEvery(t, c, start, n, time.Second)
}

func publishEvery(t *testing.T, c *Catalog, start time.Duration, n int, step time.Duration) time.Duration {
	t.Helper()
	now := start
	for range n {
		table := DefaultTable()
		table[wM4].Damage[TierStd] = float32(revisionAfter(c))
		m, err := c.Update(now, &table)
		if err != nil {
			t.Fatalf("Update at %v: %v", now, err)
		}
		if m.Rev != c.Revision() || m.Weapons[wM4].Damage[TierStd] != float32(m.Rev) {
			t.Fatalf("message %v does not carry the new revision", m)
		}
		now += step
	}
	return now
}

func revisionAfter(c *Catalog) uint16 { return c.Revision() + 1 }

func TestPropertiesRevisionsAreKeptBounded(t *testing.T) {
	c, err := NewCatalog(Config{FirstRevision: 65530}) // the ring crosses the wrap
	if err != nil {
		t.Fatal(err)
	}
	publish(t, c, time.Hour, 40)
	newest := c.Revision()
	if newest != 65530+40-65536 {
		t.Fatalf("newest revision %d", newest)
	}
	for back := range MaxPropertiesRevisions {
		rev := newest - uint16(back)
		d, err := c.Damage(rev, wM4, TierStd)
		if err != nil || d != float32(rev) {
			t.Fatalf("revision %d (%d back): %v %v, want its own damage", rev, back, d, err)
		}
	}
	if _, err := c.Damage(newest-MaxPropertiesRevisions, wM4, TierStd); !errors.Is(err, ErrPropertiesTooOld) {
		t.Fatalf("revision %d back: %v, want ErrPropertiesTooOld", MaxPropertiesRevisions, err)
	}
	if _, err := c.Damage(newest+1, wM4, TierStd); !errors.Is(err, ErrPropertiesFuture) {
		t.Fatalf("next revision: %v, want ErrPropertiesFuture", err)
	}
	if _, err := c.Damage(newest+32768, wM4, TierStd); !errors.Is(err, ErrPropertiesTooOld) {
		t.Fatalf("unordered revision: %v, want ErrPropertiesTooOld", err)
	}
	if p := c.Properties(); p.Rev != newest || p.Weapons[wM4].Damage[TierStd] != float32(newest) {
		t.Fatalf("Properties() = rev %d", p.Rev)
	}
}

func TestUpdateRefusesToDropARevisionShotsMayStillName(t *testing.T) {
	c := newCatalog(t)
	// MaxPropertiesRevisions-1 updates 100 ms apart fill the ring.
	now := publishEvery(t, c, 0, MaxPropertiesRevisions-1, 100*time.Millisecond)
	before := *c
	table := DefaultTable()
	if _, err := c.Update(now, &table); !errors.Is(err, ErrPropertiesBusy) {
		t.Fatalf("Update with a full ring of fresh revisions = %v, want ErrPropertiesBusy", err)
	}
	if *c != before {
		t.Fatal("a refused Update changed the catalogue")
	}
	// Revision 0 was superseded by revision 1 at time 0: servable until PropertiesHold.
	if _, err := c.Update(PropertiesHold-time.Nanosecond, &table); !errors.Is(err, ErrPropertiesBusy) {
		t.Fatalf("just before the hold: %v", err)
	}
	if _, err := c.Update(PropertiesHold, &table); err != nil {
		t.Fatalf("after the hold: %v", err)
	}
	if _, err := c.Damage(0, wM4, TierStd); !errors.Is(err, ErrPropertiesTooOld) {
		t.Fatalf("revision 0 after it was dropped: %v", err)
	}
}

func TestDamageAndPelletsLookup(t *testing.T) {
	c := newCatalog(t)
	tests := []struct {
		weapon uint8
		tier   Tier
		want   float32
		err    error
	}{
		{wDeagle, TierPoor, 70, nil},
		{wDeagle, TierStd, 140, nil},
		{wDeagle, TierPro, 140, nil},
		{wShotgun, TierStd, 10, nil},
		{wMinigun, TierPro, 140, nil},
		{wKnife, TierStd, 0, ErrNoDamage},
		{47, TierStd, 0, ErrUnknownWeapon},
		{wM4, 3, 0, ErrBadTier},
	}
	for _, tc := range tests {
		got, err := c.Damage(0, tc.weapon, tc.tier)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("Damage(0, %d, %v) = %v, %v; want %v, %v", tc.weapon, tc.tier, got, err, tc.want, tc.err)
		}
	}
	for w, want := range map[uint8]int{wShotgun: 15, wSawnOff: 15, wSpas: 4, wM4: 1, wKnife: 1} {
		if got, err := c.Pellets(0, w); got != want || err != nil {
			t.Errorf("Pellets(%d) = %d, %v; want %d", w, got, err, want)
		}
	}
	if _, err := c.Pellets(1, wM4); !errors.Is(err, ErrPropertiesFuture) {
		t.Errorf("Pellets of a future revision: %v", err)
	}
	if _, err := c.Pellets(99, wM4); !errors.Is(err, ErrPropertiesFuture) {
		t.Errorf("Pellets of a future revision: %v", err)
	}
	if _, err := c.Pellets(0, 50); !errors.Is(err, ErrUnknownWeapon) {
		t.Errorf("Pellets of weapon 50: %v", err)
	}
	if w, err := c.Weapon(0, wSniper); err != nil || w.Range != 320 || w.StatRange != 300 {
		t.Errorf("Weapon(0, sniper) = %+v, %v", w, err)
	}
	if _, err := c.Weapon(0, 47); !errors.Is(err, ErrUnknownWeapon) {
		t.Errorf("Weapon(0, 47): %v", err)
	}
	if _, err := c.Weapon(5, wM4); !errors.Is(err, ErrPropertiesFuture) {
		t.Errorf("Weapon(5, M4): %v", err)
	}
}

func TestShotIsJudgedWithTheRevisionItNames(t *testing.T) {
	c := newCatalog(t)
	inv := c.NewInventory()
	give(t, inv, 0, wM4, 500, true)
	// Revision 1 shortens the M4 to 50 m and doubles its damage.
	table := DefaultTable()
	table[wM4].Range = 50
	table[wM4].Damage = [NumTiers]float32{60, 60, 60}
	if _, err := c.Update(0, &table); err != nil {
		t.Fatal(err)
	}
	// A shot fired under revision 0 (not yet applied revision 1) keeps the 90 m range
	// and the old damage for its floor.
	r := inv.Shot(time.Second, true, shotOf(wM4, 0, 80))
	if r.Verdict != Accepted || r.Damage != 30 {
		t.Fatalf("80 m under revision 0: %v damage %v, want accepted with 30", r, r.Damage)
	}
	r = inv.Shot(2*time.Second, true, shotOf(wM4, 1, 80))
	if r.Verdict != OutOfRange {
		t.Fatalf("80 m under revision 1: %v, want out of range", r)
	}
	r = inv.Shot(3*time.Second, true, shotOf(wM4, 1, 40))
	if r.Verdict != Accepted || r.Damage != 60 {
		t.Fatalf("40 m under revision 1: %v damage %v", r, r.Damage)
	}
	if d, tier, err := inv.FloorDamage(3*time.Second, 0, wM4); d != 30 || tier != TierPoor || err != nil {
		t.Fatalf("FloorDamage(rev 0) = %v %v %v", d, tier, err)
	}
}

func TestShotNamingAnUnservableRevisionGetsANamedVerdict(t *testing.T) {
	c := newCatalog(t)
	inv := c.NewInventory()
	give(t, inv, 0, wM4, 500, true)
	publish(t, c, 0, MaxPropertiesRevisions)
	newest := c.Revision() // revisions newest-31..newest are kept
	tests := []struct {
		rev  uint16
		want Verdict
	}{
		{newest - MaxPropertiesRevisions, PropertiesTooOld},
		{newest - 1000, PropertiesTooOld},
		{newest + 32768, PropertiesTooOld},
		{newest + 1, PropertiesFuture},
		{newest + 1000, PropertiesFuture},
		{newest - (MaxPropertiesRevisions - 1), Accepted},
		{newest, Accepted},
	}
	for i, tc := range tests {
		before := cloneInventory(inv)
		r := inv.Shot(time.Hour+time.Duration(i)*time.Second, true, shotOf(wM4, tc.rev, 10))
		if r.Verdict != tc.want {
			t.Errorf("revision %d (newest %d): %v, want %v", tc.rev, newest, r, tc.want)
		}
		if tc.want != Accepted && !sameInventory(inv, &before) {
			t.Errorf("a refused shot changed the store")
		}
	}
}

func TestKindAndSkillNames(t *testing.T) {
	for k, want := range map[Kind]string{KindNone: "none", KindFist: "fist", KindOther: "other", 99: "Kind(99)"} {
		if k.String() != want {
			t.Errorf("%d: %q", k, k.String())
		}
	}
	for s, want := range map[SkillStat]string{NoSkill: "no skill", SkillSMG: "SMG_SKILL", 3: "SkillStat(3)"} {
		if s.String() != want {
			t.Errorf("%d: %q", s, s.String())
		}
	}
	for tier, want := range map[Tier]string{TierPoor: "poor", TierStd: "std", TierPro: "pro", 7: "Tier(7)"} {
		if tier.String() != want {
			t.Errorf("%d: %q", tier, tier.String())
		}
	}
}

func TestCreditsPerShotFollowTheColumnOrThePellets(t *testing.T) {
	c := newCatalog(t)
	for _, tc := range []struct {
		weapon uint8
		want   int
	}{{wShotgun, 15}, {wSawnOff, 15}, {wSpas, 8}, {wM4, 1}, {wKnife, 1}} {
		if got, err := c.Credits(0, tc.weapon); got != tc.want || err != nil {
			t.Errorf("Credits(0, %d) = %d, %v; want %d", tc.weapon, got, err, tc.want)
		}
	}
	if _, err := c.Credits(0, 47); !errors.Is(err, ErrUnknownWeapon) {
		t.Errorf("Credits of id 47 = %v, want ErrUnknownWeapon", err)
	}
	// A new revision that gives the Combat Shotgun fewer credits is read at that revision,
	// and a shot fired under it carries the figure.
	table := DefaultTable()
	table[wSpas].Credits = 5
	p, err := c.Update(time.Second, &table)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Credits(p.Rev, wSpas); got != 5 {
		t.Errorf("Credits at the new revision = %d, want 5", got)
	}
	if got, _ := c.Credits(0, wSpas); got != 8 {
		t.Errorf("Credits at the first revision = %d, want 8", got)
	}
	inv := c.NewInventory()
	give(t, inv, 0, wSpas, 14, true)
	if r := inv.Shot(time.Second, true, shotOf(wSpas, p.Rev, 10)); r.Verdict != Accepted || r.Credits != 5 || r.Pellets != 4 {
		t.Errorf("Shot = %+v, want accepted with 5 credits and 4 pellets", r)
	}
}

func TestWeaponCausesAreCatalogueColumns(t *testing.T) {
	c := newCatalog(t)
	for w := range uint8(NumWeapons + 3) {
		if got, want := c.StealthKill(w), w == wKnife; got != want {
			t.Errorf("StealthKill(%d) = %v, want %v", w, got, want)
		}
	}
	for _, tc := range []struct {
		weapon, cause uint8
		detonation    bool // DetonationCause(weapon, cause)
	}{
		{wGrenade, CauseExplosion, true},
		{wGrenade, CauseFire, false},
		{18, CauseExplosion, true}, // the molotov: an explosion or its fire
		{18, CauseFire, true},
		{18, CauseSpraycan, false},
		{wRPG, CauseFire, false},
		{wSatchel, CauseExplosion, true},
		{wFlame, CauseFire, false}, // a flamethrower detonates nothing
		{wM4, 0, false},
		{200, 0, false},
	} {
		if got := c.DetonationCause(tc.weapon, tc.cause); got != tc.detonation {
			t.Errorf("DetonationCause(%d, %d) = %v, want %v", tc.weapon, tc.cause, got, tc.detonation)
		}
	}
	for w := range uint8(NumWeapons + 3) {
		if got, want := c.Flies(w), w == wRPG || w == 36; got != want {
			t.Errorf("Flies(%d) = %v, want %v", w, got, want)
		}
		if got, want := c.Sticks(w), w == wSatchel; got != want {
			t.Errorf("Sticks(%d) = %v, want %v", w, got, want)
		}
	}
	for w, want := range map[uint8]uint8{wFlame: CauseFire, wSpraycan: CauseSpraycan, 42: CauseExtinguisher,
		18: CauseFire, wGrenade: CauseExplosion, wM4: 0, wKnife: 0, 200: 0} {
		if got := c.Cause(w); got != want {
			t.Errorf("Cause(%d) = %d, want %d", w, got, want)
		}
	}
}
