package match

import (
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// The far-origin cheat (CheatFarOrigin): shots and grenades that start next to the victim
// while the cheater stands far away.
const (
	// FarOriginMin is how far its target must stand from a far-origin cheater for it to
	// move its shot's origin next to the target: far beyond where an honest shot of a
	// walking player starts (refserver.OriginReach and its lead).
	FarOriginMin = 12
	// FarOriginGap is how far from the target's position (as the cheater's client shows
	// it) the rewritten ray starts.
	FarOriginGap = 1
	// FarThrowMin and FarThrowMax bound how far a target stands from a far-origin cheater
	// for it to throw a grenade that "lands" at the target's feet: beyond any throw
	// (refserver's bound for a grenade whose launch never arrived: its reach, the owner's
	// reach and refserver.LostLaunchSlack) by more than the cheater walks during the fuse.
	FarThrowMin = 100
	FarThrowMax = 300
	// FarThrowEvery is the least time between two such grenades.
	FarThrowEvery = 5 * time.Second
	// farFuse is the fuse of its grenades.
	farFuse = 2 * time.Second
)

// farOrigin is the state of a far-origin cheater.
type farOrigin struct {
	// stood is where the cheater's body was when it fired each shot (by number) or threw
	// each projectile: the truth its relays are measured against.
	stood     map[uint16]wire.Vec3
	thrown    map[uint16]wire.Vec3
	target    map[uint16]wire.PlayerID // projectile -> the player it is thrown at
	nextThrow time.Duration
	// far holds the actions relayed with an origin or a detonation beyond where the
	// cheater could have put it: shots by number, projectiles by number.
	farShot, farProj map[uint16]bool
	// pending are honest victims' reports answering a far action: victim and report
	// number. A credit of one is the cheat's gain.
	pending map[[2]uint16]bool
}

func newFarOrigin() *farOrigin {
	return &farOrigin{stood: map[uint16]wire.Vec3{}, thrown: map[uint16]wire.Vec3{}, target: map[uint16]wire.PlayerID{},
		farShot: map[uint16]bool{}, farProj: map[uint16]bool{}, pending: map[[2]uint16]bool{}}
}

// farOriginGainReach is how far from where the cheater stood a relayed shot's origin or
// projectile's launch must lie to count as a gain: the server's tolerance for a player on
// foot (OriginReach, and its lead at a little more than WalkSpeed).
func farOriginGainReach() float32 {
	return refserver.OriginReach + (WalkSpeed+2)*float32(refserver.OriginLead.Seconds())
}

// farThrowGainReach is how far from where the cheater stood a relayed detonation must lie
// to count as a gain: beyond the grenade's reach (its Range and refserver.ThrowSlack).
func farThrowGainReach() float32 {
	return inventory.DefaultTable()[weaponGrenade].Range + refserver.ThrowSlack
}

// farShot rewrites a far-origin cheater's shot at a far target so that its ray starts
// FarOriginGap from the target, and records where the cheater stood.
func (m *Match) farShot(p *player, d []byte, msg *wire.WeaponShot, send func([]byte)) {
	ch, f := p.cheat, p.cheat.far
	stood := p.c.Position()
	f.stood[msg.ShotSeq] = stood
	r, ok := p.c.Remote(wire.PlayerID(msg.HitID))
	if msg.HitType != wire.HitPlayer || !ok || dist(stood, r.Position) < FarOriginMin {
		send(d)
		return
	}
	back := sub(stood, r.Position)
	msg.Origin = add(add(r.Position, scale(back, FarOriginGap/length(back))), wire.Vec3{Z: 0.6})
	msg.HitPos = add(r.Position, wire.Vec3{Z: 0.3})
	ch.report.ForgedShots++
	ch.rewrite(msg, send)
}

// farLaunch rewrites the launch of a grenade thrown at a far target so that it starts
// next to the target.
func (m *Match) farLaunch(p *player, d []byte, msg *wire.ProjectileLaunch, send func([]byte)) {
	ch, f := p.cheat, p.cheat.far
	t, ok := f.target[msg.Projectile]
	if !ok {
		send(d)
		return
	}
	if r, ok := p.c.Remote(t); ok {
		msg.Origin = add(r.Position, wire.Vec3{X: FarOriginGap, Z: 0.6})
	}
	ch.rewrite(msg, send)
}

// farDetonation rewrites the detonation of a grenade thrown at a far target so that it
// explodes at the target's feet, where the cheater's client shows it now.
func (m *Match) farDetonation(p *player, d []byte, msg *wire.Detonation, send func([]byte)) {
	ch, f := p.cheat, p.cheat.far
	t, ok := f.target[msg.Projectile]
	r, seen := p.c.Remote(t)
	if !ok || !seen {
		send(d)
		return
	}
	msg.Position = r.Position
	ch.rewrite(msg, send)
}

// forgeFarOrigin throws, now and then, a grenade at an enemy far beyond any throw.
func (m *Match) forgeFarOrigin(now time.Duration, p *player) {
	f, c := p.cheat.far, p.c
	if now < f.nextThrow || !c.Alive() {
		return
	}
	if v, _ := c.Vehicle(); v != wire.NoVehicle {
		return
	}
	pos := c.Position()
	for _, o := range m.players {
		if o == p {
			continue
		}
		r, ok := c.Remote(o.id)
		if !ok || !r.Copy.Alive || r.Vehicle != wire.NoVehicle {
			continue
		}
		if mate, _ := c.Teammate(o.id); mate {
			continue
		}
		if d := dist(pos, r.Position); d < FarThrowMin || d > FarThrowMax {
			continue
		}
		eye := add(pos, wire.Vec3{Z: 0.6})
		a, err := c.Throw(now, weaponGrenade, eye, scale(sub(r.Position, eye), 1/8.0), r.Position, farFuse)
		if err == nil && a.Verdict == client.Acted {
			f.target[a.Seq], f.thrown[a.Seq] = o.id, pos
			p.cheat.report.ForgedShots++
		}
		f.nextThrow = now + FarThrowEvery
		return
	}
}

// watchFarOrigin looks at what the server relays of a far-origin cheater: a shot, a
// launch or a detonation farther from where it stood than it could have put it.
func (m *Match) watchFarOrigin(msg wire.Message) {
	switch msg := msg.(type) {
	case *wire.RemoteWeaponShot:
		if f := m.farOf(msg.Shooter); f != nil {
			if at, ok := f.stood[msg.ShotSeq]; ok && dist(at, msg.Origin) > farOriginGainReach() {
				f.farShot[msg.ShotSeq] = true
			}
		}
	case *wire.RemoteProjectile:
		if f := m.farOf(msg.Owner); f != nil {
			if at, ok := f.thrown[msg.Projectile]; ok && dist(at, msg.Origin) > farOriginGainReach() {
				f.farProj[msg.Projectile] = true
			}
		}
	case *wire.RemoteDetonation:
		if f := m.farOf(msg.Owner); f != nil {
			if at, ok := f.thrown[msg.Projectile]; ok && dist(at, msg.Position) > farThrowGainReach() {
				f.farProj[msg.Projectile] = true
			}
		}
	}
}

// farReport notes an honest victim's report that answers a far action of a far-origin
// cheater.
func (m *Match) farReport(victim *player, rep *wire.DamageReport) {
	f := m.farOf(rep.Attacker)
	if f == nil || victim.cheat != nil {
		return
	}
	switch {
	case rep.Ref.Kind == wire.RefWeaponShot && f.farShot[rep.Ref.Seq],
		rep.Ref.Kind == wire.RefDetonation && f.farProj[rep.Ref.Seq]:
		f.pending[[2]uint16{uint16(victim.id), rep.DamageSeq}] = true
	}
}

// farCredit counts a credited report of a far action as the cheat's gain.
func (m *Match) farCredit(e refserver.Event) {
	if e.Kind != refserver.EventPlayerDamage {
		return
	}
	o := m.player(e.Other)
	if o == nil || o.cheat == nil || o.cheat.far == nil {
		return
	}
	key := [2]uint16{uint16(e.Player), e.Seq}
	if o.cheat.far.pending[key] {
		delete(o.cheat.far.pending, key)
		o.cheat.report.Gained++
	}
}

// farOf is the far-origin state of player id, nil for anyone else.
func (m *Match) farOf(id wire.PlayerID) *farOrigin {
	if p := m.player(id); p != nil && p.cheat != nil {
		return p.cheat.far
	}
	return nil
}
