package match

import (
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// The carry-over cheat's figures (CheatCarryOver).
const (
	// CarryOverUzi is the Uzi ammo the gamemode gives a carry-over cheater at each spawn:
	// few enough that the Uzi's cadence fires them all within the overwrite window.
	CarryOverUzi = 20
	// CarryOverMP5 is the MP5 ammo it gives CarryOverDelay later into the same slot, which
	// pools its ammo: the MP5 then holds CarryOverUzi + CarryOverMP5 rounds, few enough
	// that a cheater under fire lives to fire them all.
	CarryOverMP5 = 5
	// CarryOverDelay is how long after the spawn the MP5 comes.
	CarryOverDelay = 2 * time.Second
	// CarryOverProbe is how many MP5 shots the cheater fires beyond the rounds it has.
	CarryOverProbe = 10
	// carryOverUziGap and carryOverMP5Gap are the cheater's cadence, just above each gun's
	// minimum interval (50 ms, 90 ms).
	carryOverUziGap = 60 * time.Millisecond
	carryOverMP5Gap = 100 * time.Millisecond
)

// The weapons of the carry-over cheat: slot 4, which pools its ammo.
const (
	weaponUzi uint8 = 28
	weaponMP5 uint8 = 29
)

// forgeCarryOver fires the carry-over cheater's plan once its client applied the MP5: the
// replaced Uzi's rounds through the overwrite window, and at the same time the MP5's and
// beyond (the two guns' cadences are checked apart).
func (m *Match) forgeCarryOver(now time.Duration, p *player, send func([]byte)) {
	m.forgeHeldShot(now, p, send, [2]uint8{weaponUzi, weaponMP5}, [2]time.Duration{carryOverUziGap, carryOverMP5Gap})
}

// watchCarryOver counts the distinct Uzi and MP5 shots of the cheater the server relays;
// at the end of each life, those beyond the rounds the life was given are its gain.
func (m *Match) watchCarryOver(p *player, msg *wire.RemoteWeaponShot) {
	h := p.cheat.hold
	if (msg.Weapon == weaponUzi || msg.Weapon == weaponMP5) && !h.relayed[msg.ShotSeq] {
		h.relayed[msg.ShotSeq] = true
		h.lifeRelayed++
	}
}
