package match

import (
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// CheatWindow is how long the carry-over and taken-weapon cheaters withhold their lane
// acknowledgements and their echo of the command they exploit: well below the lane's
// 15 s link timeout (lane.LinkTimeout), so that the server keeps the connection, and
// long enough that a window the client's silence keeps open would show.
const CheatWindow = 8 * time.Second

// withhold is the state the carry-over and taken-weapon cheats share: a gamemode command
// they wait for, the window in which they hold back their acknowledgements and echo, and
// the shots they forge.
type withhold struct {
	// The client's weapon before the command: seen in this life (epoch), and its weapon
	// revision while it still had it.
	seen   bool
	epoch  uint16
	preRev uint16
	// The window: until its end, every lane datagram of the client is dropped (the lane's
	// acknowledgements are cumulative and ride on them: no single command's
	// acknowledgement can be held back alone) and its frames echo echoRev.
	until   time.Duration
	echoRev uint16
	// Forged shots: their numbers, and of each of its two weapons how many are left and
	// when the next is due.
	seq  uint16
	left [2]int
	next [2]time.Duration
	// The gamemode's command for this cheater (the MP5 give, the Deagle take): when it is
	// due (-1: none) and in which life.
	due    time.Duration
	dueGen uint16
	// Measurements: the distinct relayed shots (carry over: of the Uzi and the MP5; taken
	// weapon: the late Deagle shots); for the carry-over cheater the rounds given and the
	// shots relayed in the current life (each life starts from an empty slot); when the
	// server took the Deagle in this life (-1: not yet) and that life.
	relayed     map[uint16]bool
	granted     int
	lifeRelayed int
	takenAt     time.Duration
	takenGen    uint16
}

func newWithhold() *withhold {
	return &withhold{due: -1, takenAt: -1, relayed: map[uint16]bool{}}
}

// watched is the weapon whose loss opens the cheat's window (the Uzi the MP5 replaces,
// the Deagle the take removes), and the weapon that must replace it (0: none).
func (h *withhold) watched(kind Cheat) (gone, successor uint8) {
	if kind == CheatCarryOver {
		return weaponUzi, weaponMP5
	}
	return weaponDeagle, 0
}

// observeClient opens the window the moment the cheater's client applied the command:
// the watched weapon is gone from its slot (replaced by its successor) in the same life.
func (m *Match) observeClient(now time.Duration, p *player) {
	ch := p.cheat
	h := ch.hold
	c := p.c
	if c.DeathEpoch() != h.epoch {
		// A new life: the plan of the last one is over.
		h.seen, h.epoch, h.until, h.left = false, c.DeathEpoch(), 0, [2]int{}
	}
	if !c.Alive() {
		h.seen = false
		return
	}
	gone, successor := h.watched(ch.kind)
	sl := m.catalogSlot(gone)
	held := c.Weapons().Slots[sl].Weapon
	switch {
	case held == gone:
		h.seen, h.preRev = true, c.Revisions().Weapon
	case h.seen && held == successor:
		h.seen = false
		h.until, h.echoRev, h.next = now+CheatWindow, h.preRev, [2]time.Duration{now, now}
		if ch.kind == CheatCarryOver {
			h.left = [2]int{CarryOverUzi, CarryOverUzi + CarryOverMP5 + CarryOverProbe}
		} else {
			h.left = [2]int{int(CheatWindow / TakenShotGap), 0}
		}
	}
}

// withholding handles a datagram of the cheater's client during its window: a lane
// datagram is dropped, a frame goes out echoing the revision from before the command. It
// reports whether it took the datagram.
func (m *Match) withholding(now time.Duration, p *player, d []byte, send func([]byte)) bool {
	m.observeClient(now, p)
	h := p.cheat.hold
	if now >= h.until {
		return false
	}
	id, err := wire.Peek(d)
	switch {
	case err != nil:
		return false
	case id == lane.DatagramID:
		return true // its acknowledgements (and its own reliable messages) stay home
	case id != wire.IDPlayerSync:
		return false
	}
	msg, err := m.cheatDecoder.Decode(d)
	if err != nil {
		return false
	}
	ps := msg.(*wire.PlayerSync)
	ps.WeaponRev = h.echoRev
	p.cheat.rewrite(ps, send)
	return true
}

// forgeWeaponShot sends a forged WeaponShot of weapon from the cheater's position, at
// nothing, under a shot number after every one it used.
func (m *Match) forgeWeaponShot(p *player, weapon uint8, send func([]byte)) {
	ch := p.cheat
	h := ch.hold
	if revision.Newer(ch.shotSeq, h.seq) {
		h.seq = ch.shotSeq
	}
	h.seq = revision.Next(h.seq)
	c := p.c
	eye := add(c.Position(), wire.Vec3{Z: 0.6})
	s := wire.WeaponShot{ShotSeq: h.seq, DeathEpoch: c.DeathEpoch(), PropertiesRev: c.Revisions().Properties,
		Weapon: weapon, HitType: wire.HitNone, Origin: eye, HitPos: add(eye, wire.Vec3{X: 5})}
	ch.report.ForgedShots++
	ch.rewrite(&s, send)
}

// forgeHeldShot fires the forged shots of the window's plan as fast as each weapon's
// cadence allows (each weapon has its own): left[i] shots of weapons[i], every gaps[i].
func (m *Match) forgeHeldShot(now time.Duration, p *player, send func([]byte), weapons [2]uint8, gaps [2]time.Duration) {
	h := p.cheat.hold
	m.observeClient(now, p)
	if !p.c.Alive() {
		return
	}
	for i := range h.left {
		if h.left[i] > 0 && now >= h.next[i] {
			h.left[i]--
			m.forgeWeaponShot(p, weapons[i], send)
			h.next[i] = now + gaps[i]
		}
	}
}

// heldSpawn starts a life of a carry-over or taken-weapon cheater: the carry-over cheater
// gets its Uzi now and its MP5 CarryOverDelay later; the taken-weapon cheater loses its
// Deagle TakenDelay later.
func (m *Match) heldSpawn(now time.Duration, p *player) {
	h := p.cheat.hold
	h.takenAt = -1
	h.closeLife(p.cheat)
	gen, err := m.server.Generation(p.id)
	if err != nil {
		return
	}
	h.dueGen = gen
	switch p.cheat.kind {
	case CheatCarryOver:
		if err := m.server.GiveWeapon(now, p.id, weaponUzi, CarryOverUzi, false); err == nil {
			h.granted += CarryOverUzi
			h.due = now + CarryOverDelay
		}
	case CheatTakenWeapon:
		h.due = now + TakenDelay
	}
}

// heldTick sends the gamemode's command for the cheater when it is due, in the life it was
// planned for.
func (m *Match) heldTick(now time.Duration, p *player) {
	h := p.cheat.hold
	if h.due < 0 || now < h.due {
		return
	}
	h.due = -1
	gen, err := m.server.Generation(p.id)
	if err != nil || gen != h.dueGen || !m.serverAlive(p) {
		return
	}
	switch p.cheat.kind {
	case CheatCarryOver:
		if _, owned, _ := m.server.Ammo(p.id, weaponUzi); owned {
			if err := m.server.GiveWeapon(now, p.id, weaponMP5, CarryOverMP5, false); err == nil {
				h.granted += CarryOverMP5
			}
		}
	case CheatTakenWeapon:
		if _, owned, _ := m.server.Ammo(p.id, weaponDeagle); owned {
			if err := m.server.TakeWeapon(now, p.id, weaponDeagle); err == nil {
				h.takenAt, h.takenGen = now, gen
			}
		}
	}
}

// watchHeld sees a relayed shot of a carry-over or taken-weapon cheater.
func (m *Match) watchHeld(now time.Duration, p *player, msg *wire.RemoteWeaponShot) {
	switch p.cheat.kind {
	case CheatCarryOver:
		m.watchCarryOver(p, msg)
	case CheatTakenWeapon:
		m.watchTakenWeapon(now, p, msg)
	}
}

// closeLife counts the carry-over cheater's gain of the life that ended: the Uzi and MP5
// shots relayed beyond the rounds the life was given.
func (h *withhold) closeLife(ch *cheater) {
	ch.report.Gained += max(0, h.lifeRelayed-h.granted)
	h.lifeRelayed, h.granted = 0, 0
}

// catalogSlot is a weapon's slot in the server's catalogue.
func (m *Match) catalogSlot(w uint8) int8 {
	return m.server.Catalog().SlotOf(w)
}
