package inventory

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
)

// byteReader hands out the fuzzer's bytes; past the end it gives zeros.
type byteReader struct {
	b []byte
}

func (r *byteReader) u8() uint8 {
	if len(r.b) == 0 {
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *byteReader) u16() uint16 { return uint16(r.u8()) | uint16(r.u8())<<8 }

// weapon returns a weapon id: mostly real ones, sometimes anything.
func (r *byteReader) weapon() uint8 {
	v := r.u8()
	if v < 200 {
		return v % NumWeapons
	}
	return v
}

// checkStore asserts the invariants every store keeps whatever its inputs.
func checkStore(t *testing.T, inv *Inventory) {
	t.Helper()
	if inv.active < 0 || inv.active >= NumSlots {
		t.Fatalf("held slot %d", inv.active)
	}
	if inv.fireWeapon == 0 && (inv.fireAcc != 0 || inv.fireEmpty) {
		t.Fatalf("no press on, but fire time %v, empty %v kept", inv.fireAcc, inv.fireEmpty)
	}
	if inv.slots[inv.active] != (slotState{}) {
		t.Fatalf("slot %d is held, but its place in slots is not empty: %+v", inv.active, inv.slots[inv.active])
	}
	for i := range int8(NumSlots) {
		s := *inv.slot(i)
		if s.weapon == Fists {
			if s.total != 0 || s.clip != 0 || s.credit != 0 {
				t.Fatalf("empty slot %d holds %+v", i, s)
			}
			continue
		}
		if int(s.weapon) >= NumWeapons || inv.cat.slot[s.weapon] != int8(i) {
			t.Fatalf("slot %d holds weapon %d of slot %d", i, s.weapon, inv.cat.slot[s.weapon])
		}
		if s.clip > s.total {
			t.Fatalf("slot %d: clip %d above total %d", i, s.clip, s.total)
		}
	}
}

// FuzzInventory drives one store with any sequence of commands, frames, shots,
// projectiles, blows, grants, skill changes and properties revisions. Nothing panics;
// the store's invariants hold after every input; a refused command or action leaves no
// trace; a successful command takes exactly the next revision; an observation (frame,
// shot, projectile, blow) never adds a weapon or a round.
func FuzzInventory(f *testing.F) {
	f.Add([]byte{0, 10, 31, 100, 0, 1, 5, 20, 0, 31, 50, 0, 50, 0, 1, 6, 30, 1, 31, 0, 10})
	f.Add([]byte{0, 0, 37, 200, 1, 1, 5, 50, 0, 37, 100, 0, 100, 0, 1, 5, 50, 0, 37, 100, 0, 100, 0, 1})
	f.Add([]byte{0, 0, 29, 30, 0, 0, 0, 0, 28, 50, 0, 0, 2, 5, 28, 10, 0, 255, 255, 6, 5, 1, 29, 0, 10})
	f.Add([]byte{9, 0, 3, 0, 0, 0, 22, 17, 0, 1, 1, 0, 22, 3, 0, 3, 0, 6, 0, 1, 22, 0, 5})
	f.Add([]byte{11, 0, 31, 7, 40, 1, 6, 0, 1, 31, 1, 10, 10, 3, 0, 71, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		cat, err := NewCatalog(Config{})
		if err != nil {
			t.Fatal(err)
		}
		inv := cat.NewInventory()
		r := &byteReader{b: data}
		now := time.Duration(0)
		for ops := 0; len(r.b) > 0 && ops < 500; ops++ {
			now += time.Duration(r.u8()) * 10 * time.Millisecond
			before := cloneInventory(inv)
			var err error
			observation, refused := false, false
			switch r.u8() % 12 {
			case 0:
				_, err = inv.Give(now, r.weapon(), r.u16(), r.u8()%2 == 0)
			case 1:
				_, err = inv.Take(now, r.weapon())
			case 2:
				w, total, clip := r.weapon(), r.u16(), r.u16()
				if clip > 0xF000 {
					clip = ClipNotSet
				}
				_, err = inv.SetAmmo(now, w, total, clip)
			case 3:
				inv.Clear(now)
			case 4:
				_, err = inv.SetArmed(now, r.weapon())
			case 5:
				observation = true
				inv.Frame(now, Frame{WeaponRev: inv.rev - uint16(int8(r.u8())), Weapon: r.weapon(),
					Total: r.u16(), Clip: r.u16(), FireHeld: r.u8()%2 == 0})
			case 6:
				observation = true
				alive, w, back := r.u8()%8 != 0, r.weapon(), r.u8()%4
				length := float32(r.u8()) * 2
				if length > 500 {
					length = float32(math.NaN())
				}
				shot := shotOf(w, cat.Revision()-uint16(back), length)
				refused = inv.Shot(now, alive, shot).Verdict != Accepted
			case 7:
				observation = true
				refused = inv.Projectile(now, r.u8()%8 != 0, r.weapon()).Verdict != Accepted
			case 8:
				observation = true
				refused = inv.Melee(now, r.u8()%8 != 0, r.weapon(), float32(r.u8())/20).Verdict != Accepted
			case 9:
				inv.RespawnGrant(uint16(r.u8() % 4))
				if inv.rev != before.rev {
					t.Fatal("a respawn grant moved the revision")
				}
			case 10:
				err = inv.SetSkillTier(now, SkillStat(60+r.u8()%25), Tier(r.u8()%4))
			case 11:
				table := DefaultTable()
				w := r.weapon() % NumWeapons
				var buf [4]byte
				buf[0], buf[1], buf[2], buf[3] = r.u8(), r.u8(), r.u8(), r.u8()
				v := math.Float32frombits(binary.LittleEndian.Uint32(buf[:]))
				table[w].Range = v
				table[w].MinInterval = time.Duration(int8(r.u8())) * time.Millisecond
				if table[w].HasDamage {
					table[w].Damage[r.u8()%NumTiers] = v
				}
				catBefore := *cat
				if _, err := cat.Update(now, &table); err != nil && *cat != catBefore {
					t.Fatal("a refused Update changed the catalogue")
				}
			}
			checkStore(t, inv)
			switch {
			case err != nil || refused:
				if !sameInventory(inv, &before) {
					t.Fatalf("a refused input (%v) changed the store", err)
				}
			case observation:
				if inv.rev != before.rev {
					t.Fatal("an observation moved the revision")
				}
				for i := range int8(NumSlots) {
					a, b := *inv.slot(i), *before.slot(i)
					if a.weapon != b.weapon || a.total > b.total {
						t.Fatalf("an observation raised slot %d: %+v -> %+v", i, b, a)
					}
				}
			default:
				if inv.rev != before.rev && inv.rev != revision.Next(before.rev) {
					t.Fatalf("a command moved the revision from %d to %d", before.rev, inv.rev)
				}
			}
		}
	})
}
