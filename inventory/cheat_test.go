package inventory

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestACheatNeverFiresMoreRoundsThanItWasGiven: a client that says anything in its
// frames (frozen or made-up totals and clips, any echo, any held weapon, fire held or
// not) and fires as fast as the rate check lets it, gets at most the rounds the server
// gave it accepted, weapon by weapon. The credit a frame creates comes out of the store
// first, so no report buys a round.
func TestACheatNeverFiresMoreRoundsThanItWasGiven(t *testing.T) {
	weapons := []uint8{wDeagle, wShotgun, wM4, wUzi, wSniper, wGrenade, wRPG}
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 99))
		inv := newInv(t)
		given := map[uint8]int{}
		fired := map[uint8]int{}
		starved := 0
		now := time.Duration(0)
		for range 3000 {
			now += time.Duration(rng.IntN(40)) * ms
			w := weapons[rng.IntN(len(weapons))]
			switch r := rng.IntN(200); {
			case r < 2: // the server gives more of the same weapons (never a replacement)
				ammo := uint16(rng.IntN(30))
				give(t, inv, now, w, ammo, rng.IntN(2) == 0)
				given[w] += int(ammo)
			case r < 80:
				echo := inv.Rev() - uint16(rng.IntN(2))
				if rng.IntN(10) == 0 {
					echo = inv.Rev() + 1
				}
				inv.Frame(now, Frame{WeaponRev: echo, Weapon: weapons[rng.IntN(len(weapons))],
					Total: uint16(rng.IntN(100)), Clip: uint16(rng.IntN(50)), FireHeld: rng.IntN(2) == 0})
			case r < 180:
				switch inv.Shot(now, true, shotOf(w, 0, 1)).Verdict {
				case Accepted:
					fired[w]++
				case NoAmmo:
					starved++
				}
			default:
				switch inv.Projectile(now, true, w).Verdict {
				case Accepted:
					fired[w]++
				case NoAmmo:
					starved++
				}
			}
		}
		for _, w := range weapons {
			if fired[w] > given[w] {
				t.Fatalf("seed %d weapon %d: %d rounds accepted, %d given", seed, w, fired[w], given[w])
			}
		}
		if starved == 0 {
			t.Fatalf("seed %d: the cheat never ran a weapon dry; the test proves nothing", seed)
		}
	}
}

// TestACheatThatNeverEchoesStillPaysEveryShot: the client never echoes the give, so no
// frame is ever merged; every shot is still paid from the store.
func TestACheatThatNeverEchoesStillPaysEveryShot(t *testing.T) {
	inv := newInv(t)
	give(t, inv, 0, wM4, 20, true)
	now := time.Duration(0)
	accepted := 0
	for range 100 {
		now += 100 * ms
		inv.Frame(now, Frame{WeaponRev: 0, Weapon: wM4, Total: 20, Clip: 20})
		if inv.Shot(now, true, shotOf(wM4, 0, 10)).Verdict == Accepted {
			accepted++
		}
	}
	if accepted != 20 {
		t.Fatalf("%d shots accepted from 20 rounds", accepted)
	}
}
