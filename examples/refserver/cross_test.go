package refserver

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// The cross-player world: three honest connections and one hostile one.
const (
	crossHonest  = 3
	crossHostile = PlayerID(crossHonest)
	crossStep    = 33 * time.Millisecond
	crossSteps   = 120 // 4 s of play
	crossQuiet   = 45  // the last steps: the hostile is silent, the world settles
	// crossOriginSlack is how far from every position the server accepted of the hostile
	// over the last crossLookback a shot that hurt an honest player may start.
	crossOriginSlack = 10
	crossLookback    = 1500 * time.Millisecond
	crossThrowReach  = 60
)

// xclient is one scripted client of the cross-player world: an Endpoint, the numbers it
// echoes, its body, and what it received.
type xclient struct {
	id                                        PlayerID
	ep                                        *transport.Endpoint
	spawned, alive                            bool
	gen                                       uint16
	frameSeq, shotSeq, dmgSeq, vehSeq, projSq uint16
	vitalRev, weaponRev, propsRev             uint16
	health, armor                             float32
	pos                                       wire.Vec3
	vehicle                                   uint16
	seat                                      uint8
	weapon                                    uint8
	clip, total                               uint16
	// relays counts the frames (and shots) received from each sender.
	frames, shots [crossHonest + 1]int
	// replays keeps relays for the hostile's replays.
	replays [][]byte
	kept    int
	last    []byte
}

// crossRun is one run of the cross-player world.
type crossRun struct {
	w       *World
	now     time.Duration
	cl      [crossHonest + 1]*xclient
	events  []Event
	scratch []byte
	// What the honest players saw of the hostile: its accepted positions (relayed frames),
	// and the origins of its relayed shots and detonations they took damage from.
	path     []crossPos
	launches map[uint16]wire.Vec3
	bad      []string // hole findings of the switch's areas, with the step
	step     int
}

type crossPos struct {
	at  time.Duration
	pos wire.Vec3
}

func crossConfig() Config {
	return Config{MaxPlayers: crossHonest + 1, MaxVehicles: 3, RespawnDelay: 500 * time.Millisecond,
		Loadout: []Loadout{{Weapon: 4, Ammo: 1}, {Weapon: 16, Ammo: 3}, {Weapon: m4, Ammo: 200, Current: true}}}
}

func newCrossRun() *crossRun {
	w, err := New(crossConfig())
	if err != nil {
		panic(err)
	}
	r := &crossRun{w: w, now: time.Second, launches: map[uint16]wire.Vec3{}}
	_ = w.CreateVehicle(r.now, 0, 411, wire.Vec3{X: 10}, wire.Quat{W: 1})
	_ = w.CreateVehicle(r.now, 1, ModelHunter, wire.Vec3{X: -20}, wire.Quat{W: 1})
	_ = w.CreateVehicle(r.now, 2, 411, wire.Vec3{Y: -20}, wire.Quat{W: 1})
	for id := range PlayerID(crossHonest + 1) {
		ep, _ := transport.New(transport.Client)
		c := &xclient{id: id, ep: ep, vehicle: NoVehicle}
		r.cl[id] = c
		r.datagram(c, &wire.Hello{})
	}
	r.exchange()
	r.send()
	return r
}

// datagram sends m from c as one datagram of its own.
func (r *crossRun) datagram(c *xclient, m wire.Message) {
	b, err := m.Append(r.scratch[:0])
	if err != nil {
		return
	}
	r.scratch = b
	c.last = append(c.last[:0], b...)
	_ = r.w.Receive(r.now, c.id, b)
}

// exchange flushes the clients to the World, then the World to the clients (what the
// clients answer goes with their next exchange).
func (r *crossRun) exchange() {
	r.send()
	_ = r.w.Flush(r.now, func(conn PlayerID, d []byte) {
		if int(conn) < len(r.cl) {
			r.deliver(r.cl[conn], d)
		}
	})
	r.events = r.w.Events(r.events)
}

// send flushes every client's endpoint to the World.
func (r *crossRun) send() {
	for _, c := range r.cl {
		_ = c.ep.Flush(r.now, func(d []byte) { _ = r.w.Receive(r.now, c.id, d) })
	}
}

func (r *crossRun) deliver(c *xclient, d []byte) {
	for e := range wire.Elements(d) { // the relays inside the server's bundles
		if id, err := wire.Peek(e); err == nil && c.id == crossHostile {
			switch id {
			case wire.IDRemotePlayerSync, wire.IDRemoteVehicleSync, wire.IDRemoteWeaponShot, wire.IDRemoteVehicleShot:
				if len(c.replays) < 32 {
					c.replays = append(c.replays, append([]byte(nil), e...))
				} else {
					i := c.kept % 32
					c.replays[i] = append(c.replays[i][:0], e...)
				}
				c.kept++
			}
		}
	}
	_ = c.ep.Receive(r.now, d, func(m wire.Message) { r.take(c, m) })
}

// take is what a scripted client does with a message of the server: the honest client's
// side of the records, as far as the world needs it.
func (r *crossRun) take(c *xclient, m wire.Message) {
	switch m := m.(type) {
	case *wire.Ping:
		_ = c.ep.Send(&wire.Pong{Seq: m.Seq, Time: m.Time})
	case *wire.RespawnPlayer:
		if !c.spawned || m.DeathEpoch != c.gen {
			c.spawned, c.alive, c.gen = true, true, m.DeathEpoch
			c.health, c.armor, c.pos = 100, 0, m.Position
			c.weapon, c.clip, c.total = 0, 0, 0
			c.vehicle, c.seat = NoVehicle, 0
			r.frame(c) // the first living frame
		}
	case *wire.SetHealth:
		c.vitalRev = m.Rev
		if c.alive {
			c.health = m.Health
			if m.Health == 0 {
				r.die(c, wire.NoPlayer, 255)
			}
		}
	case *wire.SetArmor:
		c.vitalRev = m.Rev
	case *wire.GiveHealth:
		c.vitalRev = m.Rev
	case *wire.GiveArmor:
		c.vitalRev = m.Rev
	case *wire.GiveWeapon:
		c.weaponRev = m.Rev
		if m.SetAsCurrent {
			c.weapon, c.clip, c.total = m.Weapon, min(m.Ammo, 30), m.Ammo
		}
	case *wire.TakeWeapon:
		c.weaponRev = m.Rev
	case *wire.SetWeaponAmmo:
		c.weaponRev = m.Rev
	case *wire.ClearWeapons:
		c.weaponRev = m.Rev
	case *wire.SetArmedWeapon:
		c.weaponRev = m.Rev
	case *wire.WeaponProperties:
		c.propsRev = m.Rev
	case *wire.RemotePlayerSync:
		c.frames[min(int(m.Player), crossHonest)]++
		if m.Player == crossHostile && c.id == 0 {
			r.path = append(r.path, crossPos{at: r.now, pos: m.Position})
		}
		if m.Player == crossHostile && c.id != crossHostile && c.alive && c.vehicle != NoVehicle && m.Vehicle == c.vehicle && m.Seat == c.seat && m.Alive {
			r.hole("4: the server gave the hostile the seat %d of vehicle %d that player %d sits in", m.Seat, m.Vehicle, c.id)
		}
	case *wire.RemoteWeaponShot:
		c.shots[min(int(m.Shooter), crossHonest)]++
		r.shotAt(c, m.Shooter, m.Weapon, m.HitType, m.HitID, m.Origin, m.HitPos, m.Rewind, wire.RefWeaponShot, m.ShotSeq)
	case *wire.RemoteVehicleShot:
		c.shots[min(int(m.Shooter), crossHonest)]++
		r.shotAt(c, m.Shooter, m.Weapon, m.HitType, m.HitID, m.Origin, m.HitPos, m.Rewind, wire.RefVehicleShot, m.ShotSeq)
	case *wire.RemoteProjectile:
		if m.Owner == crossHostile && c.id == 0 {
			r.launches[m.Projectile] = m.Origin
		}
	case *wire.RemoteDetonation:
		if c.id == crossHostile || !c.alive || c.vehicle != NoVehicle || dist(c.pos, m.Position) > 5 {
			return
		}
		if m.Owner == crossHostile {
			o, ok := r.launches[m.Projectile]
			if !ok && !r.hostileWasAt(m.Position, crossThrowReach) || ok && dist(o, m.Position) > crossThrowReach {
				r.hole("3: the hostile's detonation %v hurt player %d %.0f m from its launch or its positions", m.Position, c.id, dist(o, m.Position))
			}
		}
		r.hurt(c, m.Owner, 51, wire.Ref{Kind: wire.RefDetonation, Seq: m.Projectile}, 10)
	case *wire.RemoteStealthKill:
		if m.Victim == c.id && c.alive && m.VictimEpoch == c.gen && c.id != crossHostile {
			r.die(c, m.Attacker, 4)
		}
	case *wire.RemoteVehicleExplode:
		if c.vehicle == m.Vehicle && c.alive && c.id != crossHostile {
			r.die(c, m.Author, 51)
		}
	case *wire.RemoteVehicleSync:
		if m.Driver == crossHostile && c.id != crossHostile && c.vehicle == m.Vehicle {
			r.hole("4: the hostile moved vehicle %d that player %d sits in", m.Vehicle, c.id)
		}
	}
}

// shotAt is an honest victim's trace: a shot aimed at it whose ray passes within a metre
// and a half of where it stands (or was rewound to) hits it, for the weapon's damage.
func (r *crossRun) shotAt(c *xclient, shooter PlayerID, weapon uint8, ht wire.HitType, hid uint16, origin, end wire.Vec3, rw wire.Rewind, kind wire.RefKind, seq uint16) {
	if c.id == crossHostile || !c.alive || ht != wire.HitPlayer || PlayerID(hid) != c.id || int(weapon) >= inventory.NumWeapons {
		return
	}
	at := c.pos
	if rw.Valid {
		at = rw.Position
	}
	if segDist(origin, end, at) > 1.5 {
		return
	}
	wp := inventory.DefaultTable()[weapon]
	if !wp.HasDamage {
		return
	}
	if shooter == crossHostile && !r.hostileWasAt(origin, crossOriginSlack) {
		r.hole("3: the hostile's shot from %v hurt player %d where the server never accepted it", origin, c.id)
	}
	r.hurt(c, shooter, weapon, wire.Ref{Kind: kind, Seq: seq}, vitals.PlayerDamageFactor*wp.Damage[inventory.TierStd])
}

// hostileWasAt reports whether q lies within slack of a position the server accepted of
// the hostile over the last crossLookback.
func (r *crossRun) hostileWasAt(q wire.Vec3, slack float32) bool {
	for i := len(r.path) - 1; i >= 0; i-- {
		if r.now-r.path[i].at > crossLookback {
			break
		}
		if dist(r.path[i].pos, q) <= slack {
			return true
		}
	}
	return false
}

func (r *crossRun) hole(format string, a ...any) {
	r.bad = append(r.bad, fmt.Sprintf("step %d: ", r.step)+fmt.Sprintf(format, a...))
}

// hurt applies damage to an honest client and reports it (the lethal one on the lane,
// then the death).
func (r *crossRun) hurt(c *xclient, attacker PlayerID, weapon uint8, ref wire.Ref, loss float32) {
	c.dmgSeq++
	hb, ab := c.health, c.armor
	fromArmor := min(loss, c.armor)
	c.armor -= fromArmor
	c.health = max(c.health-(loss-fromArmor), 0)
	m := &wire.DamageReport{DamageSeq: c.dmgSeq, VitalRev: c.vitalRev, Attacker: attacker, Weapon: weapon, BodyPart: wire.BodyTorso,
		Ref: ref, HealthBefore: hb, ArmorBefore: ab, HealthAfter: c.health, ArmorAfter: c.armor, Loss: loss}
	if c.health > 0 {
		_ = c.ep.Send(m)
		return
	}
	_, _ = c.ep.Queue(r.now, m)
	r.die(c, attacker, weapon)
}

func (r *crossRun) die(c *xclient, killer PlayerID, weapon uint8) {
	if !c.alive {
		return
	}
	c.alive, c.health, c.armor = false, 0, 0
	c.vehicle, c.seat = NoVehicle, 0
	_, _ = c.ep.Queue(r.now, &wire.DeathReport{DeathEpoch: c.gen, Killer: killer, Weapon: weapon})
}

// frame sends c's next frame (and its vehicle's, from the driver's seat).
func (r *crossRun) frame(c *xclient) {
	c.frameSeq++
	_ = c.ep.Send(&wire.PlayerSync{Seq: c.frameSeq, VitalRev: c.vitalRev, DamageSeq: c.dmgSeq, WeaponRev: c.weaponRev,
		DeathEpoch: c.gen, Weapon: c.weapon, Alive: c.alive, Clip: c.clip, Total: c.total, Health: c.health, Armor: c.armor,
		Position: c.pos, Vehicle: c.vehicle, Seat: c.seat})
	if c.alive && c.vehicle != NoVehicle && c.seat == 0 {
		c.vehSeq++
		_ = c.ep.Send(&wire.VehicleSync{Seq: c.vehSeq, Vehicle: c.vehicle, Position: c.pos, Rotation: wire.Quat{W: 1}, Health: 900})
	}
}

// honest is the script of the honest players for step s: 0 drives vehicle 0 in a circle,
// 1 stands and fires its M4 at 2 every ninth step, 2 walks to and fro; a dead one asks for
// its respawn every tenth step.
func (r *crossRun) honest(s int) {
	for id := range PlayerID(crossHonest) {
		c := r.cl[id]
		if !c.spawned || !c.alive {
			if s%10 == int(id) {
				_, _ = c.ep.Queue(r.now, &wire.RespawnRequest{DeathEpoch: c.gen})
			}
			continue
		}
		t := float64(s) * crossStep.Seconds()
		switch id {
		case 0:
			c.vehicle, c.seat = 0, 0
			c.pos = wire.Vec3{X: float32(10 * math.Cos(t)), Y: float32(10 * math.Sin(t))}
		case 1:
			c.pos = wire.Vec3{X: 20}
		case 2:
			c.pos = wire.Vec3{X: 30, Y: float32(5 * math.Sin(t))}
		}
		r.frame(c)
		if id == 1 && s%9 == 0 && c.weapon == m4 {
			// At where 2 walks, alive or not: the script of one honest player never
			// depends on another's state, which the hostile may change by a rule.
			q := wire.Vec3{X: 30, Y: float32(5 * math.Sin(t))}
			c.shotSeq++
			_ = c.ep.Send(&wire.WeaponShot{ShotSeq: c.shotSeq, DeathEpoch: c.gen, PropertiesRev: c.propsRev, Weapon: m4,
				HitType: wire.HitPlayer, HitID: 2, Origin: c.pos, HitPos: wire.Vec3{X: 2*q.X - c.pos.X, Y: 2*q.Y - c.pos.Y}})
		}
	}
}

// play runs the world: the honest script every step, the hostile's datagrams from in
// (nil: none), the World's tick and the exchange.
func (r *crossRun) play(in []byte) {
	h := r.cl[crossHostile]
	// The hostile joins and spawns like everyone (in both runs).
	_, _ = h.ep.Queue(r.now, &wire.RespawnRequest{})
	for s := range crossSteps {
		r.step = s
		r.now += crossStep
		// The hostile's datagrams of the step come first: the honest ones of the same
		// tick after them, where a flood would push them out.
		if in != nil && s < crossSteps-crossQuiet {
			in = r.hostile(in)
		}
		r.honest(s)
		if h.spawned && s == 5 {
			r.frame(h)
		}
		_ = r.w.Tick(r.now)
		r.exchange()
	}
}

// hostile sends the datagrams the fuzzer's bytes say for one step, and returns the rest.
func (r *crossRun) hostile(in []byte) []byte {
	x := &crossBytes{b: in}
	h := r.cl[crossHostile]
	for range int(x.next() % 4) {
		var m wire.Message
		switch x.next() % 16 {
		case 0: // raw bytes
			n := int(x.next() % 48)
			_ = r.w.Receive(r.now, h.id, x.take(n))
			continue
		case 1:
			h.frameSeq += uint16(x.next() % 3)
			m = &wire.PlayerSync{Seq: h.frameSeq, VitalRev: x.rev(h.vitalRev), DamageSeq: x.rev(h.dmgSeq), WeaponRev: x.rev(h.weaponRev),
				DeathEpoch: x.rev(h.gen), Weapon: x.weapon(), Alive: x.next()%5 != 0, FireHeld: x.next()%4 == 0, Seat: x.next() % 3,
				Health: x.vital(), Armor: x.vital(), Position: r.place(x), Vehicle: x.vehicle(), Clip: 5, Total: x.u16()}
			if m.(*wire.PlayerSync).Alive {
				h.pos = m.(*wire.PlayerSync).Position
			}
		case 2:
			h.vehSeq += uint16(x.next() % 3)
			m = &wire.VehicleSync{Seq: h.vehSeq, Vehicle: x.vehicle(), Position: r.place(x), Rotation: wire.Quat{W: 1}, Health: float32(x.next()) * 4}
		case 3:
			h.shotSeq++
			target := r.place(x)
			origin := h.pos
			if x.next()%3 == 0 {
				origin = r.place(x)
			}
			m = &wire.WeaponShot{ShotSeq: h.shotSeq + uint16(x.next()%2)*x.u16(), DeathEpoch: x.rev(h.gen), PropertiesRev: x.rev(h.propsRev),
				Weapon: x.weapon(), HitType: wire.HitType(x.next() % 4), HitID: uint16(x.player()), Origin: origin,
				HitPos: wire.Vec3{X: 2*target.X - origin.X, Y: 2*target.Y - origin.Y, Z: 2*target.Z - origin.Z}}
		case 4:
			h.shotSeq++
			m = &wire.VehicleShot{ShotSeq: h.shotSeq, DeathEpoch: x.rev(h.gen), PropertiesRev: x.rev(h.propsRev), Vehicle: x.vehicle(),
				Weapon: x.weapon(), HitType: wire.HitPlayer, HitID: uint16(x.player()), Origin: r.place(x), HitPos: r.place(x)}
		case 5:
			m = &wire.DamageReport{DamageSeq: x.rev(h.dmgSeq + 1), VitalRev: x.rev(h.vitalRev), Attacker: x.player(), Weapon: x.weapon(),
				BodyPart: x.next() % 12, Ref: wire.Ref{Kind: wire.RefKind(x.next() % 6), Seq: x.u16()}, HealthBefore: x.vital(),
				HealthAfter: x.vital(), Loss: x.vital()}
		case 6:
			m = &wire.DeathReport{DeathEpoch: x.rev(h.gen), Killer: x.player(), Weapon: x.weapon(), Pose: x.next() % 16}
		case 7:
			m = &wire.RespawnRequest{DeathEpoch: x.rev(h.gen)}
		case 8:
			h.projSq++
			m = &wire.ProjectileLaunch{Projectile: h.projSq, DeathEpoch: x.rev(h.gen), Weapon: x.weapon(), Vehicle: x.vehicle(),
				Target: x.vehicle(), Origin: r.place(x), Velocity: wire.Vec3{X: 1}}
		case 9:
			m = &wire.Detonation{Projectile: h.projSq + uint16(x.next()%3), DeathEpoch: x.rev(h.gen), Weapon: x.weapon(), Position: r.place(x)}
		case 10:
			v := x.player()
			ve := uint16(0)
			if int(v) < len(r.cl) {
				ve = r.cl[v].gen
			}
			m = &wire.StealthKill{Victim: v, VictimEpoch: x.rev(ve), DeathEpoch: x.rev(h.gen), Weapon: x.weapon()}
		case 11:
			m = &wire.VehicleExplode{Vehicle: x.vehicle(), Attacker: x.player(), Weapon: x.weapon()}
		case 12: // a relay it received, re-encoded as its own
			if len(h.replays) == 0 {
				continue
			}
			m = r.replay(h, h.replays[int(x.next())%len(h.replays)])
		case 13: // a burst of copies of its last datagram, or (n%4 == 1) one bundle of them
			n := int(x.next())
			if n%4 == 1 && len(h.last) > 0 {
				copies := make([][]byte, n/4+1)
				for i := range copies {
					copies[i] = h.last
				}
				b := rawBundle(copies...)
				if n%8 == 5 { // a bundle inside a bundle: refused whole
					b = rawBundle(h.last, b)
				}
				_ = r.w.Receive(r.now, h.id, b)
				continue
			}
			for range n * 4 {
				_ = r.w.Receive(r.now, h.id, h.last)
			}
			continue
		case 14: // a flood of frames, each one newer than the last
			n := int(x.next()%80) << 10
			f := wire.PlayerSync{DeathEpoch: h.gen, Alive: true, Health: 100, Position: h.pos, Vehicle: NoVehicle}
			for range n {
				h.frameSeq++
				f.Seq = h.frameSeq
				r.datagram(h, &f)
			}
			continue
		default: // a flood of junk
			n := int(x.next()%80) << 10
			for i := range n {
				_ = r.w.Receive(r.now, h.id, []byte{byte(i), byte(i >> 8)})
			}
			continue
		}
		if m != nil {
			r.datagram(h, m)
		}
	}
	return x.b
}

// replay turns a relay the hostile received into its own message.
func (r *crossRun) replay(h *xclient, b []byte) wire.Message {
	var dec wire.Decoder
	m, err := dec.Decode(b)
	if err != nil {
		return nil
	}
	switch x := m.(type) {
	case *wire.RemotePlayerSync:
		h.frameSeq++
		return &wire.PlayerSync{Seq: h.frameSeq, VitalRev: h.vitalRev, DamageSeq: h.dmgSeq, WeaponRev: h.weaponRev, DeathEpoch: h.gen,
			Alive: x.Alive, Seat: x.Seat, Weapon: x.Weapon, Health: x.Health, Armor: x.Armor, Position: x.Position, Vehicle: x.Vehicle}
	case *wire.RemoteVehicleSync:
		h.vehSeq++
		return &wire.VehicleSync{Seq: h.vehSeq, Vehicle: x.Vehicle, Position: x.Position, Rotation: x.Rotation, Health: x.Health}
	case *wire.RemoteWeaponShot:
		h.shotSeq++
		return &wire.WeaponShot{ShotSeq: h.shotSeq, DeathEpoch: h.gen, PropertiesRev: h.propsRev, Weapon: x.Weapon, HitType: x.HitType,
			HitID: x.HitID, Origin: x.Origin, HitPos: x.HitPos}
	case *wire.RemoteVehicleShot:
		h.shotSeq++
		return &wire.VehicleShot{ShotSeq: h.shotSeq, DeathEpoch: h.gen, PropertiesRev: h.propsRev, Vehicle: x.Vehicle, Weapon: x.Weapon,
			HitType: x.HitType, HitID: x.HitID, Origin: x.Origin, HitPos: x.HitPos}
	}
	return nil
}

// place picks a position that matters: next to a player, on a vehicle, its own, or far.
func (r *crossRun) place(x *crossBytes) wire.Vec3 {
	k := x.next()
	switch k % 6 {
	case 0, 1:
		c := r.cl[int(k/6)%crossHonest]
		return wire.Vec3{X: c.pos.X + float32(x.next()%5) - 2, Y: c.pos.Y + float32(x.next()%5) - 2, Z: c.pos.Z}
	case 2:
		if v := r.w.vehicle(uint16(k/6) % 3); v != nil {
			return v.pos
		}
	case 3:
		return r.cl[crossHostile].pos
	case 4:
		return wire.Vec3{X: float32(int8(x.next())) * 8, Y: float32(int8(x.next())) * 8}
	}
	return wire.Vec3{X: float32(x.u16()), Y: -float32(x.u16())}
}

// crossBytes reads the fuzzer's bytes; an exhausted input reads zeros.
type crossBytes struct{ b []byte }

func (x *crossBytes) next() uint8 {
	if len(x.b) == 0 {
		return 0
	}
	v := x.b[0]
	x.b = x.b[1:]
	return v
}

func (x *crossBytes) take(n int) []byte {
	n = min(n, len(x.b))
	v := x.b[:n]
	x.b = x.b[n:]
	return v
}

func (x *crossBytes) u16() uint16 { return uint16(x.next()) | uint16(x.next())<<8 }

// rev is a revision or number near v: mostly v itself, or one off, or anything.
func (x *crossBytes) rev(v uint16) uint16 {
	switch k := x.next(); k % 8 {
	case 0:
		return v + 1
	case 1:
		return v - 1
	case 2:
		return x.u16()
	}
	return v
}

func (x *crossBytes) player() PlayerID {
	k := x.next()
	if k%8 == 7 {
		return NoPlayer
	}
	return PlayerID(k % (crossHonest + 2))
}

func (x *crossBytes) vehicle() uint16 {
	k := x.next()
	if k%5 == 4 {
		return NoVehicle
	}
	return uint16(k % 4)
}

func (x *crossBytes) weapon() uint8 {
	ws := [...]uint8{m4, deagle, 4, 16, 25, 31, 35, 38, 51, 54, 0}
	k := x.next()
	if k >= 240 {
		return k
	}
	return ws[int(k)%len(ws)]
}

func (x *crossBytes) vital() float32 {
	return float32(x.next()) * 200 / 255
}

func segDist(a, b, p wire.Vec3) float32 {
	ab, ap := wire.Vec3{X: b.X - a.X, Y: b.Y - a.Y, Z: b.Z - a.Z}, wire.Vec3{X: p.X - a.X, Y: p.Y - a.Y, Z: p.Z - a.Z}
	l2 := ab.X*ab.X + ab.Y*ab.Y + ab.Z*ab.Z
	if l2 == 0 {
		return dist(a, p)
	}
	t := min(max((ap.X*ab.X+ap.Y*ab.Y+ap.Z*ab.Z)/l2, 0), 1)
	return dist(p, wire.Vec3{X: a.X + t*ab.X, Y: a.Y + t*ab.Y, Z: a.Z + t*ab.Z})
}

// crossChecks compares the run with the hostile's datagrams (with) against the run
// without them (base) and returns every way a hostile datagram changed an honest player
// other than through a rule: its ledger (beyond the damage the server credited to the
// hostile on it), its store, its life (without a credited hit, stealth kill or vehicle
// explosion of the hostile), its seat, the relays of its frames and shots to the others,
// its gamemode events; a hostile shot or detonation that hurt an honest player starting
// where the server never accepted the hostile to be; an honest driver's vehicle taken over.
func crossChecks(with, base *crossRun) []string {
	var bad []string
	fail := func(format string, a ...any) { bad = append(bad, fmt.Sprintf(format, a...)) }
	if st := with.w.Stats(); st.RecordEventsDropped > 0 {
		fail("%d events of the records dropped", st.RecordEventsDropped)
	}
	// A player the hostile hurt or killed by a rule plays differently from then on (a dead
	// shooter does not shoot), so what it does to the others may differ too: whoever it
	// hurt in either run is explained by the same rule, and so on down the chain.
	hostileHit := map[PlayerID]float32{}
	hostileKilled := map[PlayerID]bool{}
	for _, e := range with.events {
		switch {
		case e.Kind == EventPlayerDamage && e.Other == crossHostile:
			hostileHit[e.Player] += e.Deducted
		case e.Kind == EventStealthKill && e.Other == crossHostile,
			e.Kind == EventPlayerDeath && e.Other == crossHostile:
			hostileKilled[e.Player] = true
		case e.Kind == EventVehicleExploded && (e.Player == crossHostile || e.Other == crossHostile) && e.Vehicle == 0:
			hostileKilled[0] = true
		}
	}
	knockOn := map[PlayerID]bool{}
	for changed := true; changed; {
		changed = false
		for _, run := range []*crossRun{with, base} {
			for _, e := range run.events {
				if e.Kind != EventPlayerDamage || knockOn[e.Player] || e.Player == e.Other {
					continue
				}
				if by := e.Other; by < crossHostile && (hostileHit[by] > 0 || hostileKilled[by] || knockOn[by]) {
					knockOn[e.Player], changed = true, true
				}
			}
		}
	}
	for id := range PlayerID(crossHonest) {
		hit, killed := hostileHit[id], hostileKilled[id] || knockOn[id]
		g1, _ := with.w.Generation(id)
		g2, _ := base.w.Generation(id)
		a1, a2 := with.w.Alive(id), base.w.Alive(id)
		if g1 != g2 || a1 != a2 || !slices.Equal(lifeEvents(with.events, id), lifeEvents(base.events, id)) {
			if hit == 0 && !killed {
				fail("player %d: its life changed without a rule (gen %d alive %v, without the hostile gen %d alive %v)", id, g1, a1, g2, a2)
			}
			continue // its own play diverged, by a rule
		}
		if hit == 0 && killed {
			continue // a counted death whose commit is still waiting, or hurt by one the hostile hurt
		}
		v1, _ := with.w.Vitals(id)
		v2, _ := base.w.Vitals(id)
		if d := (v2.Health + v2.Armor) - (v1.Health + v1.Armor) - hit; d > 0.05 || d < -0.05 {
			fail("player %d: ledger %.2f, %.2f without the hostile, %.2f credited to the hostile", id, v1.Health+v1.Armor, v2.Health+v2.Armor, hit)
		}
		w1, _ := with.w.Weapons(id)
		w2, _ := base.w.Weapons(id)
		h1, _ := with.w.HeldWeapon(id)
		h2, _ := base.w.HeldWeapon(id)
		if w1 != w2 || h1 != h2 {
			fail("player %d: store %v held %d, without the hostile %v held %d", id, w1, h1, w2, h2)
		}
		p1, p2 := with.w.players[id], base.w.players[id]
		if p1.frame.vehicle != p2.frame.vehicle || p1.frame.seat != p2.frame.seat {
			fail("player %d: seat %d/%d, without the hostile %d/%d", id, p1.frame.vehicle, p1.frame.seat, p2.frame.vehicle, p2.frame.seat)
		}
		c1, c2 := with.w.players[id].caps, base.w.players[id].caps
		if c1.FanOutCapped+c1.OutboxDropped+c1.DatagramsOverRate+c1.FramesOverRate != c2.FanOutCapped+c2.OutboxDropped+c2.DatagramsOverRate+c2.FramesOverRate {
			fail("player %d: caps %+v, without the hostile %+v", id, c1, c2)
		}
		for q := range PlayerID(crossHonest) {
			if q == id {
				continue
			}
			if f1, f2 := with.cl[q].frames[id], base.cl[q].frames[id]; f1 != f2 {
				fail("player %d: %d of its frames relayed to %d, %d without the hostile", id, f1, q, f2)
			}
			if s1, s2 := with.cl[q].shots[id], base.cl[q].shots[id]; s1 != s2 {
				fail("player %d: %d of its shots relayed to %d, %d without the hostile", id, s1, q, s2)
			}
		}
		if e1, e2 := recordEvents(with.events, id), recordEvents(base.events, id); !slices.Equal(e1, e2) {
			fail("player %d: record events\n%v\nwithout the hostile\n%v", id, e1, e2)
		}
	}
	bad = append(bad, with.bad...)
	for v := range uint16(3) {
		v1, v2 := with.w.vehicle(v), base.w.vehicle(v)
		if v == 0 && (v1.wrecked != v2.wrecked || v1.pos != v2.pos) {
			fail("vehicle 0 (an honest driver's): wrecked %v at %v, without the hostile wrecked %v at %v", v1.wrecked, v1.pos, v2.wrecked, v2.pos)
		}
	}
	return bad
}

// recordEvents lists the events of the records about player id that name nobody but
// honest players (the hostile's own are allowed to differ): when, what, by whom, with
// what, the loss claimed (the report numbers and what a hit deducted depend on the
// hostile's credited hits in between).
func recordEvents(ev []Event, id PlayerID) []string {
	var out []string
	for _, e := range ev {
		if e.Player != id || e.Kind.Diagnostic() || e.Other == crossHostile {
			continue
		}
		switch e.Kind {
		case EventPlayerDamage, EventPlayerDeath, EventPlayerSpawn:
			out = append(out, fmt.Sprintf("%v %v other=%d weapon=%d claimed=%.2f", e.At, e.Kind, e.Other, e.Weapon, e.Amount))
		}
	}
	return out
}

// lifeEvents lists the deaths and spawns of player id.
func lifeEvents(ev []Event, id PlayerID) []string {
	var out []string
	for _, e := range ev {
		if e.Player == id && (e.Kind == EventPlayerDeath || e.Kind == EventPlayerSpawn) {
			out = append(out, fmt.Sprintf("%v %v gen=%d", e.At, e.Kind, e.Gen))
		}
	}
	return out
}

// crossPlay runs the world with and without the hostile's datagrams from in and returns
// the cross-player violations.
func crossPlay(in []byte) []string {
	base := newCrossRun()
	base.play(nil)
	with := newCrossRun()
	with.play(in)
	return crossChecks(with, base)
}

// crossSeeds are the fuzz target's seed corpus: a quiet hostile, and the datagrams that
// matter, each aimed where it hurts (see crossOps): frames in the honest driver's seat
// with vehicle frames of its vehicle, shots from next to an honest player, detonations
// beside one, stealth kills, vehicle explosions, replays, junk, bursts.
func crossSeeds() [][]byte {
	seat := crossOps{}.idle(6)
	for range 20 {
		seat = seat.step(2).frame(1, 0, crossAtVehicle(0), 0).vsync(1, 0, crossNear(2))
	}
	shots := crossOps{}.idle(6)
	for range 10 {
		shots = shots.step(1).shot(crossNear(2), []byte{12, 0, 2}, 2).idle(3)
	}
	dets := crossOps{}.idle(6)
	for range 10 {
		dets = dets.step(2).launch(crossOwn()).detonation(0, crossNear(1)).idle(3)
	}
	kills := crossOps{}.idle(6).step(2).stealth(0).explode(0, 3).idle(3).step(1).stealth(2)
	replays := crossOps{}.idle(12)
	for range 20 {
		replays = replays.step(2).replay(0).replay(1)
	}
	junk := crossOps{}.idle(6).step(3).raw(10).raw(0).raw(47).step(1).burst(60).step(2).frame(1, 1, crossOwn(), 4).burst(255)
	// MaxFanOut frames and MaxPendingEvents junk datagrams in one step, while the honest
	// players' frames, shots and hits go on.
	flood := crossOps{}.idle(8).step(1).floodFrames(65).idle(8).step(1).floodJunk(65)
	// Bundles of its frames in the honest driver's seat and of its shots beside an honest
	// player (burst n with n%4 == 1), some nested inside another bundle (n%8 == 5).
	bundles := crossOps{}.idle(6)
	for range 10 {
		bundles = bundles.step(2).frame(1, 0, crossAtVehicle(0), 0).burst(41).step(2).shot(crossNear(2), []byte{12, 0, 2}, 2).burst(45)
	}
	return [][]byte{{}, seat, shots, dets, kills, replays, junk, flood, bundles}
}

// crossOps writes the bytes crossRun.hostile reads: one method per datagram kind, its
// fields in the order they are read.
type crossOps []byte

// idle writes n steps without datagrams.
func (o crossOps) idle(n int) crossOps { return append(o, make([]byte, n)...) }

// step starts a step of n (at most 3) datagrams.
func (o crossOps) step(n byte) crossOps { return append(o, n) }

// frame: a PlayerSync one number on, every revision the hostile's, alive, at place, in
// vehicle (4: none) and seat.
func (o crossOps) frame(seqAdd, seat byte, place []byte, vehicle byte) crossOps {
	o = append(o, 1, seqAdd, 3, 3, 3, 3, 0, 1, 1, seat, 255, 0)
	o = append(o, place...)
	return append(o, vehicle, 0, 0)
}

// vsync: a VehicleSync one number on of vehicle, at place.
func (o crossOps) vsync(seqAdd, vehicle byte, place []byte) crossOps {
	o = append(o, 2, seqAdd, vehicle)
	o = append(o, place...)
	return append(o, 200)
}

// shot: an M4 shot from origin through target at player hid.
func (o crossOps) shot(target, origin []byte, hid byte) crossOps {
	o = append(o, 3)
	o = append(o, target...)
	o = append(o, 0)
	o = append(o, origin...)
	return append(o, 0, 0, 0, 3, 3, 0, byte(wire.HitPlayer), hid)
}

// launch: a grenade launched on foot from place.
func (o crossOps) launch(place []byte) crossOps {
	o = append(o, 8, 3, 3, 4, 4)
	o = append(o, place...)
	return o
}

// detonation: the detonation of the last launch (plus add) at place.
func (o crossOps) detonation(add byte, place []byte) crossOps {
	o = append(o, 9, add, 3, 3)
	o = append(o, place...)
	return o
}

// stealth: a knife stealth kill of player v.
func (o crossOps) stealth(v byte) crossOps { return append(o, 10, v, 3, 3, 2) }

// explode: vehicle's explosion naming attacker.
func (o crossOps) explode(vehicle, attacker byte) crossOps {
	return append(o, 11, vehicle, attacker, 8)
}

func (o crossOps) replay(k byte) crossOps { return append(o, 12, k) }

func (o crossOps) raw(n byte) crossOps {
	o = append(o, 0, n)
	for i := range n {
		o = append(o, i*37+1)
	}
	return o
}

func (o crossOps) burst(n byte) crossOps { return append(o, 13, n) }

// With n%4 == 1, burst sends n/4+1 copies in one bundle instead (nested in another when
// n%8 == 5).

// floodFrames and floodJunk send n<<10 frames (each newer) or junk datagrams.
func (o crossOps) floodFrames(n byte) crossOps { return append(o, 14, n) }
func (o crossOps) floodJunk(n byte) crossOps   { return append(o, 15, n) }

// crossNear is the place next to honest player k; crossAtVehicle on vehicle v;
// crossOwn the hostile's own position.
func crossNear(k byte) []byte      { return []byte{6 * k, 2, 2} }
func crossAtVehicle(v byte) []byte { return []byte{6*v + 2} }
func crossOwn() []byte             { return []byte{3} }

// FuzzCrossPlayer drives whole-world sequences (its seed corpus runs with every go test;
// before issue 17's fixes, seeds #1 and #5 failed on a hostile frame taking an honest
// driver's seat and moving its vehicle, seed #2 on shots from where the hostile never was,
// and seed #7 on a flood without per-connection caps): three honest scripted connections (a
// driver, a shooter, its target) and a hostile one whose datagrams come from the fuzzer's
// bytes (raw datagrams, messages built from them with every field chosen by the bytes,
// replays of relays it received, bursts). The world runs twice, with and without the
// hostile's datagrams, and the honest players' ledgers, stores, lives, seats, relays and
// record events must agree unless a rule of the records explains the difference (a
// credited hit of the hostile's on them, an accepted stealth kill or vehicle explosion).
func FuzzCrossPlayer(f *testing.F) {
	for _, in := range crossSeeds() {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if bad := crossPlay(in); len(bad) > 0 {
			t.Fatalf("a hostile connection changed an honest player's state outside the rules:\n%v", bad)
		}
	})
}
