package match

import (
	"time"

	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// The taken-weapon cheat's figures (CheatTakenWeapon).
const (
	// TakenDelay is how long after each spawn the gamemode takes the cheater's Deagle.
	TakenDelay = 4 * time.Second
	// TakenShotGap is the cheater's cadence with the taken Deagle (its minimum interval is
	// 120 ms).
	TakenShotGap = 130 * time.Millisecond
	// TakenHonestResends is how many lost transmissions of the take the honest bound
	// allows for: an honest client applies the take later only if the network lost it
	// that many times in a row (at 5 % loss, one take in three million).
	TakenHonestResends = 4
)

// takenHonestBound is how long after the take a shot fired before an honest client
// applied it can reach the server: the take's way to the client and the shot's way back
// (the link's round trip and twice its jitter), TakenHonestResends retransmissions of the
// take by the lane, and a tick of the server and of the client before each sends.
func (m *Match) takenHonestBound(rtt time.Duration) time.Duration {
	return rtt + 2*m.cfg.Jitter + TakenHonestResends*lane.Retransmit + ServerTick + ClientTick
}

// forgeTakenWeapon fires the taken Deagle through the window once the client applied the
// take.
func (m *Match) forgeTakenWeapon(now time.Duration, p *player, send func([]byte)) {
	m.forgeHeldShot(now, p, send, [2]uint8{weaponDeagle}, [2]time.Duration{TakenShotGap})
}

// watchTakenWeapon counts the cheater's Deagle shots the server relays later than the
// honest bound after the take, in the life the take was in: each is a gain.
func (m *Match) watchTakenWeapon(now time.Duration, p *player, msg *wire.RemoteWeaponShot) {
	h := p.cheat.hold
	if msg.Weapon != weaponDeagle || h.takenAt < 0 || now <= h.takenAt+m.takenHonestBound(p.rtt) || h.relayed[msg.ShotSeq] {
		return
	}
	if gen, err := m.server.Generation(p.id); err != nil || gen != h.takenGen {
		return
	}
	h.relayed[msg.ShotSeq] = true
	p.cheat.report.Gained++
}
