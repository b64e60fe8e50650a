package match

import (
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// This file is the part of the gamemode and of the measurements that concerns weapons a
// command takes from a player in the middle of a life: the gamemode takes the M4 (and
// gives it back), swaps it for an AK-47 in the same pooled slot (and back), and sets the
// Deagle's ammo; the match measures how late a shot the honest client fired before it
// applied such a command reaches the server, checks that the server's count of every
// weapon never falls below the honest client's, and compares what honest clients spray
// with what the server charges for it.

// The gamemode's weapon returns.
const (
	// ReturnAfter is how long after the gamemode takes a player's M4, or swaps it for an
	// AK-47, it gives the M4 back (plus up to ReturnSpread).
	ReturnAfter  = 2 * time.Second
	ReturnSpread = 2 * time.Second
	// SwapAmmo is the AK-47 ammo of a swap; the slot pools its ammo, so the AK-47 carries
	// the M4's total over, and back.
	SwapAmmo = 10
	// ReturnAmmo is the M4 ammo given back after a take.
	ReturnAmmo = 60
	// weaponAK is the AK-47 (slot 5, with the M4).
	weaponAK uint8 = 30
	// overwriteKeep is how long the match remembers a command for the old shots it
	// measures: longer than any of them takes to arrive.
	overwriteKeep = 20 * time.Second
)

// WeaponsReport is what the match measured of the weapon store's rules.
type WeaponsReport struct {
	// Overwrites counts the commands that took a gun from an honest player (take, a swap
	// in a pooled slot, set ammo) while it could be firing it.
	Overwrites int `json:"overwrites"`
	// OldShots counts the honest shots of such a gun the client may have fired before it
	// applied the command (its weapon revision was older when the shot went out).
	OldShots int `json:"old_shots"`
	// OldShotLatestMs is the latest of them: its arrival at the server after the command
	// and the round trip the server measured for the player when it sent it. The window
	// of old shots is that round trip plus OldShotMarginMs.
	OldShotLatestMs float64 `json:"old_shot_latest_ms"`
	// OldShotMarginMs is inventory.OverwriteShotMargin.
	OldShotMarginMs float64 `json:"old_shot_margin_ms"`
	// Sprayed is the rounds the honest clients' continuous weapons spent; FireCharged the
	// rounds the server spent itself for frames showing their fire held (every player's).
	Sprayed     int `json:"sprayed"`
	FireCharged int `json:"fire_charged"`
	// CountBelow counts the times the server's count of a weapon fell below the honest
	// client's while both had applied the same commands: each is also a disagreement.
	CountBelow int `json:"count_below"`
}

// overwrite is a command that took a gun from a player: which gun, when, the command's
// revision and the round trip the server had measured.
type overwrite struct {
	weapon uint8
	at     time.Duration
	rev    uint16
	rtt    time.Duration
}

// weaponTrack is what the match follows of a player's weapons.
type weaponTrack struct {
	pending []overwrite           // recent commands that took one of its guns
	old     map[uint16]*overwrite // shot number -> the command it may have been fired before
	prevRev uint16                // the client's weapon revision at its previous flush
	// the continuous weapon's count at the last client tick, and the life it was in
	sprayHave  bool
	sprayEpoch uint16
	spray      uint16
	below      uint16 // slots whose server count is below the client's (bit per slot)
}

// pendingReturn is an M4 the gamemode gives back.
type pendingReturn struct {
	p    *player
	gen  uint16
	at   time.Duration
	swap bool // the M4 was swapped for an AK-47 (else taken)
}

// takeGun takes the M4 from a player that has it, and plans its return.
func (g *gamemode) takeGun(now time.Duration, p *player) {
	s := g.m.server
	if _, owned, err := s.Ammo(p.id, weaponM4); err != nil || !owned {
		return
	}
	err := s.TakeWeapon(now, p.id, weaponM4)
	g.issue(err, true)
	if err == nil {
		g.m.noteOverwrite(now, p, weaponM4)
		g.planReturn(now, p, false)
	}
}

// swapRifle gives an AK-47 into the M4's slot (it carries the M4's rounds over), and plans
// the swap back.
func (g *gamemode) swapRifle(now time.Duration, p *player) {
	s := g.m.server
	slots, err := s.Weapons(p.id)
	if err != nil || slots[g.m.catalogSlot(weaponM4)].Weapon != weaponM4 {
		return
	}
	err = s.GiveWeapon(now, p.id, weaponAK, SwapAmmo, false)
	g.issue(err, true)
	if err == nil {
		g.given[p.idx] += SwapAmmo // M4 rounds once it comes back
		g.m.noteOverwrite(now, p, weaponM4)
		g.planReturn(now, p, true)
	}
}

func (g *gamemode) planReturn(now time.Duration, p *player, swap bool) {
	gen, err := g.m.server.Generation(p.id)
	if err != nil {
		return
	}
	at := now + ReturnAfter + time.Duration(g.rng.Int64N(int64(ReturnSpread)))
	g.returns = append(g.returns, pendingReturn{p: p, gen: gen, at: at, swap: swap})
}

// returnGuns gives back the M4s that are due, to players still in the life they lost it
// in (a respawn's loadout gives it back anyway).
func (g *gamemode) returnGuns(now time.Duration) {
	keep := g.returns[:0]
	for _, r := range g.returns {
		if now < r.at {
			keep = append(keep, r)
			continue
		}
		s := g.m.server
		if gen, err := s.Generation(r.p.id); err != nil || gen != r.gen || !g.counted(r.p) {
			continue
		}
		if r.swap {
			slots, err := s.Weapons(r.p.id)
			if err != nil || slots[g.m.catalogSlot(weaponAK)].Weapon != weaponAK {
				continue
			}
			err = s.GiveWeapon(now, r.p.id, weaponM4, 0, false)
			g.issue(err, true)
			if err == nil {
				g.m.noteOverwrite(now, r.p, weaponAK)
			}
			continue
		}
		err := s.GiveWeapon(now, r.p.id, weaponM4, ReturnAmmo, false)
		g.issue(err, true)
		if err == nil {
			g.given[r.p.idx] += ReturnAmmo
		}
	}
	g.returns = keep
}

// owns reports whether the server's store of the player holds weapon.
func (g *gamemode) owns(p *player, weapon uint8) bool {
	_, owned, err := g.m.server.Ammo(p.id, weapon)
	return err == nil && owned
}

// noteOverwrite remembers a command that took weapon from an honest player, for the old
// shots of that weapon.
func (m *Match) noteOverwrite(now time.Duration, p *player, weapon uint8) {
	if p.cheat != nil {
		return
	}
	rev, err := m.server.WeaponRev(p.id)
	if err != nil {
		return
	}
	rtt, ok := m.server.RTT(p.id)
	if !ok {
		rtt = inventory.UnmeasuredRTT
	}
	m.report.Weapons.Overwrites++
	t := &p.weapons
	keep := t.pending[:0]
	for _, o := range t.pending {
		if now-o.at < overwriteKeep {
			keep = append(keep, o)
		}
	}
	t.pending = append(keep, overwrite{weapon: weapon, at: now, rev: rev, rtt: min(rtt, inventory.RTTLimit)})
}

// clientSent sees a datagram an honest client sends: a shot of a gun a command took while
// the client's weapon revision was still older than the command's when it last flushed
// may have been fired before the client applied it.
func (m *Match) clientSent(p *player, d []byte) {
	t := &p.weapons
	if p.cheat != nil || len(t.pending) == 0 {
		return
	}
	if id, err := wire.Peek(d); err != nil || id != wire.IDWeaponShot {
		return
	}
	msg, err := m.shotDec.Decode(d)
	if err != nil {
		return
	}
	s := msg.(*wire.WeaponShot)
	for i := len(t.pending) - 1; i >= 0; i-- {
		o := &t.pending[i]
		if o.weapon == s.Weapon && revision.Older(t.prevRev, o.rev) {
			if t.old == nil {
				t.old = map[uint16]*overwrite{}
			}
			t.old[s.ShotSeq] = &overwrite{weapon: o.weapon, at: o.at, rev: o.rev, rtt: o.rtt}
			return
		}
	}
}

// oldShotArrived measures an old shot of an overwritten gun reaching the server.
func (m *Match) oldShotArrived(now time.Duration, p *player, s *wire.WeaponShot) {
	o, ok := p.weapons.old[s.ShotSeq]
	if !ok || o.weapon != s.Weapon {
		return
	}
	delete(p.weapons.old, s.ShotSeq)
	w := &m.report.Weapons
	late := millis(now - o.at - o.rtt)
	if w.OldShots == 0 || late > w.OldShotLatestMs {
		w.OldShotLatestMs = late
	}
	w.OldShots++
}

// trackClient runs after every flush of an honest client: it remembers the client's
// weapon revision, and counts what its continuous weapon sprayed.
func (m *Match) trackClient(p *player) {
	if p.cheat != nil {
		return
	}
	c := p.c
	t := &p.weapons
	t.prevRev = c.WeaponRev()
	sl := m.catalogSlot(weaponSpraycan)
	s := c.Weapons().Slots[sl]
	if !c.Alive() || m.server.Catalog().Kind(s.Weapon) != inventory.KindContinuous {
		t.sprayHave = false
		return
	}
	if t.sprayHave && t.sprayEpoch == c.DeathEpoch() && s.Total < t.spray {
		m.report.Weapons.Sprayed += int(t.spray - s.Total)
	}
	t.sprayHave, t.sprayEpoch, t.spray = true, c.DeathEpoch(), s.Total
}

// checkCounts compares, every ThinkInterval, the server's count of each weapon of every
// honest player with its client's, once both applied the same commands in the same life:
// the server's is never below (inventory's [never-below-client]).
func (m *Match) checkCounts(now time.Duration) {
	for _, p := range m.players {
		if p.cheat != nil || !p.c.Alive() {
			continue
		}
		gen, err := m.server.Generation(p.id)
		rev, rerr := m.server.WeaponRev(p.id)
		if err != nil || rerr != nil || gen != p.c.DeathEpoch() || rev != p.c.WeaponRev() || !m.serverAlive(p) {
			continue
		}
		slots, err := m.server.Weapons(p.id)
		if err != nil {
			continue
		}
		cw := p.c.Weapons()
		t := &p.weapons
		for i := range slots {
			s, c := slots[i], cw.Slots[i]
			bit := uint16(1) << i
			if s.Weapon != c.Weapon || s.Total >= c.Total {
				t.below &^= bit
				continue
			}
			if t.below&bit == 0 {
				t.below |= bit
				m.report.Weapons.CountBelow++
				m.report.Wronged.Disagreements++
				m.incidentf("player %d: the server counts %d rounds of weapon %d at %v, its client has %d", p.idx, s.Total, s.Weapon, now, c.Total)
			}
		}
	}
}
