package refserver_test

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/match"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// The cross-player world: three honest players of the kit (honest clients on the
// simulated network) and one hostile raw connection whose datagrams come from the
// fuzzer's bytes.
const (
	crossHonest  = 3
	crossHostile = refserver.PlayerID(crossHonest) // the raw connection joins after the players
	crossStep    = 33 * time.Millisecond
	crossSteps   = 120 // 4 s of play
	crossQuiet   = 45  // the last steps: the hostile is silent, the world settles
	// crossOriginSlack is how far from every position the server accepted of the hostile
	// over the last crossLookback a shot that hurt an honest player may start.
	crossOriginSlack = 10
	crossLookback    = 1500 * time.Millisecond
	crossThrowReach  = 60
	// crossRadius is the circle the honest driver drives vehicle 0 on (from where the car
	// stands, at crossStep.Seconds() radians a step: 10 m/s).
	crossRadius = 10
	crossM4     = simkit.WeaponM4
	crossSeed   = 1
)

// crossLink is the honest players' link: a round trip of a multiple of the server's tick,
// so that what a flush sends arrives on a tick.
var crossLink = simkit.Link{RTT: 100 * time.Millisecond}

// crossRun is one run of the cross-player world.
type crossRun struct {
	k  *simkit.Kit
	w  *refserver.World
	pl []*simkit.Player
	h  *simkit.Raw
	hs crossHostileNums
	// The honest driver's script: its angle on the circle (advanced only while it drives)
	// and the circle's centre, set when it first sits down.
	angle  float64
	centre wire.Vec3
	// frames counts the relayed frames each honest client applied of each other honest
	// player (frames[q][id]), sampled after every server flush.
	frames [crossHonest][crossHonest]int
	floor  [crossHonest][crossHonest]uint16
	// What the server accepted of the hostile, read back after each of its datagrams: its
	// positions, its shots' origins (by ref kind and number) and its projectiles.
	path     []crossPos
	shots    map[wire.Ref]crossPos
	launches map[uint16]wire.Vec3
	dets     map[uint16]crossPos
	bad      []string // hole findings, with the step
	step     int
	scratch  []byte
	dec      wire.Decoder
}

type crossPos struct {
	at  time.Duration
	pos wire.Vec3
}

// crossHostileNums are the hostile's own numbers: what it sent (its frames', shots' and
// projectiles' numbers, its last datagram, its position) and the numbers of the server's
// it echoes (its life, its revisions), so that its datagrams can be right where the
// fuzzer's bytes say so; and the relays it received, which it may replay as its own.
type crossHostileNums struct {
	spawned                       bool
	gen                           uint16
	frameSeq, shotSeq, vehSeq     uint16
	projSq, dmgSeq                uint16
	vitalRev, weaponRev, propsRev uint16
	pos                           wire.Vec3
	last                          []byte
	replays                       []wire.Message
	kept                          int
}

// crossKitConfig is the kit of the cross-player world: the arena's three vehicles (0 a
// Predator, 1 a Hunter, 2 a Sea Sparrow), a respawn after half a second, a knife, three
// grenades and an M4 at each spawn.
func crossKitConfig() simkit.Config {
	return simkit.Config{Seed: crossSeed, Vehicles: 3, Server: refserver.Config{MaxPlayers: crossHonest + 1, MaxVehicles: 3,
		RespawnDelay: 500 * time.Millisecond,
		Loadout:      []refserver.Loadout{{Weapon: 4, Ammo: 1}, {Weapon: 16, Ammo: 3}, {Weapon: crossM4, Ammo: 200, Current: true}}}}
}

func newCrossRun() (*crossRun, error) {
	k := simkit.New(crossKitConfig())
	r := &crossRun{k: k, shots: map[wire.Ref]crossPos{}, launches: map[uint16]wire.Vec3{}, dets: map[uint16]crossPos{}}
	for i := range crossHonest {
		p, err := k.Join(fmt.Sprintf("honest%d", i), crossLink)
		if err != nil {
			return nil, err
		}
		r.pl = append(r.pl, p)
	}
	h, err := k.JoinRaw("hostile")
	if err != nil {
		return nil, err
	}
	r.h = h
	if err := k.Start(); err != nil {
		return nil, err
	}
	r.w = k.Server()
	if h.ID() != crossHostile {
		return nil, fmt.Errorf("the hostile joined as %d", h.ID())
	}
	// The driver walks beside vehicle 0 and sits down in its driver's seat.
	beside, _ := k.Beside(0)
	if err := r.pl[0].MoveTo(beside); err != nil {
		return nil, err
	}
	if err := k.Advance(200 * time.Millisecond); err != nil {
		return nil, err
	}
	if err := r.pl[0].EnterVehicle(0, 0); err != nil {
		return nil, err
	}
	// The seat is the driver's before the hostile spawns: a claim of the hostile's that
	// reached the server first would win it by the rules.
	if err := k.Advance(200 * time.Millisecond); err != nil {
		return nil, err
	}
	if v, seat, ok := r.w.PlayerSeat(0); !ok || v != 0 || seat != 0 {
		return nil, fmt.Errorf("the driver was not granted vehicle 0's seat 0 (%d/%d %v)", v, seat, ok)
	}
	// What each honest client applied of the others' frames, a millisecond before every
	// server flush: the flushes are on the 10 ms, and so are their deliveries (crossLink),
	// and a flush carries at most one frame of each player to each (coalescing).
	m := k.Match()
	start := (m.Now()/match.ServerTick+1)*match.ServerTick + match.ServerTick - time.Millisecond
	m.Every(start, match.ServerTick, func(time.Duration) bool { r.sample(); return true })
	return r, nil
}

// sample counts the relayed frames each honest client applied of each other honest
// player since the last sample: its copy's frame floor moved.
func (r *crossRun) sample() {
	for q, p := range r.pl {
		c := p.Client()
		for id := range crossHonest {
			if id == q {
				continue
			}
			rem, ok := c.Remote(refserver.PlayerID(id))
			if ok && rem.Copy.Floor != r.floor[q][id] {
				r.floor[q][id] = rem.Copy.Floor
				r.frames[q][id]++
			}
		}
	}
}

// takeReceived reads what the hostile received: its life, its revisions and the relays
// it may replay.
func (r *crossRun) takeReceived() {
	h := &r.hs
	for _, m := range r.h.Received() {
		switch m := m.(type) {
		case *wire.RespawnPlayer:
			if !h.spawned || m.DeathEpoch != h.gen {
				h.spawned, h.gen, h.pos = true, m.DeathEpoch, m.Position
				r.datagram(r.hostileFrame()) // its first living frame
			}
		case *wire.SetHealth:
			h.vitalRev = m.Rev
		case *wire.SetArmor:
			h.vitalRev = m.Rev
		case *wire.GiveHealth:
			h.vitalRev = m.Rev
		case *wire.GiveArmor:
			h.vitalRev = m.Rev
		case *wire.GiveWeapon:
			h.weaponRev = m.Rev
		case *wire.TakeWeapon:
			h.weaponRev = m.Rev
		case *wire.SetWeaponAmmo:
			h.weaponRev = m.Rev
		case *wire.ClearWeapons:
			h.weaponRev = m.Rev
		case *wire.SetArmedWeapon:
			h.weaponRev = m.Rev
		case *wire.WeaponProperties:
			h.propsRev = m.Rev
		case *wire.RemotePlayerSync, *wire.RemoteVehicleSync, *wire.RemoteWeaponShot, *wire.RemoteVehicleShot:
			if len(h.replays) < 32 {
				h.replays = append(h.replays, m)
			} else {
				h.replays[h.kept%32] = m
			}
			h.kept++
		}
	}
	r.h.Clear()
}

// hostileFrame is the hostile's next frame: alive at its position, every number its own.
func (r *crossRun) hostileFrame() *wire.PlayerSync {
	h := &r.hs
	h.frameSeq++
	return &wire.PlayerSync{Seq: h.frameSeq, VitalRev: h.vitalRev, DamageSeq: h.dmgSeq, WeaponRev: h.weaponRev, DeathEpoch: h.gen,
		Weapon: crossM4, Alive: true, Clip: 30, Total: 200, Health: 100, Position: h.pos, Vehicle: wire.NoVehicle}
}

// datagram sends m from the hostile as one datagram of its own.
func (r *crossRun) datagram(m wire.Message) {
	b, err := m.Append(r.scratch[:0])
	if err != nil {
		return
	}
	r.scratch = b
	r.hs.last = append(r.hs.last[:0], b...)
	r.send(b)
}

// send hands the server one datagram of the hostile's and reads back what the server
// accepted of it: its position and seat, its shots, launches and detonations; and looks
// for the holes between the hostile and the honest players' seats and vehicles.
func (r *crossRun) send(b []byte) {
	now := r.k.Now()
	var vpos [3]wire.Vec3
	for v := range uint16(3) {
		vpos[v], _, _ = refserver.VehicleOf(r.w, v)
	}
	before := r.w.Stats()
	_ = r.h.SendBytes(b)
	st := r.w.Stats()
	if pos, veh, seat, ok := refserver.FrameOf(r.w, crossHostile); ok {
		if n := len(r.path); n == 0 || r.path[n-1].pos != pos {
			r.path = append(r.path, crossPos{at: now, pos: pos})
		}
		if veh != wire.NoVehicle && r.w.Alive(crossHostile) {
			for id := range refserver.PlayerID(crossHonest) {
				if v, s, held := r.w.PlayerSeat(id); held && v == veh && s == seat && r.w.Alive(id) {
					r.hole("4: the server took the hostile's frame in seat %d of vehicle %d that player %d sits in", seat, veh, id)
				}
			}
		}
	}
	for id := range refserver.PlayerID(crossHonest) {
		if v, _, held := r.w.PlayerSeat(id); held && v < 3 {
			if pos, _, _ := refserver.VehicleOf(r.w, v); pos != vpos[v] {
				r.hole("4: the hostile moved vehicle %d that player %d sits in", v, id)
			}
		}
	}
	if st.Messages == before.Messages {
		return // nothing decoded
	}
	shotsAccepted := st.Shots != before.Shots
	for e := range wire.Elements(b) {
		m, err := r.dec.Decode(e)
		if err != nil {
			continue
		}
		switch m := m.(type) {
		case *wire.WeaponShot:
			if shotsAccepted {
				r.shots[wire.Ref{Kind: wire.RefWeaponShot, Seq: m.ShotSeq}] = crossPos{at: now, pos: m.Origin}
			}
		case *wire.VehicleShot:
			if shotsAccepted {
				r.shots[wire.Ref{Kind: wire.RefVehicleShot, Seq: m.ShotSeq}] = crossPos{at: now, pos: m.Origin}
			}
		case *wire.ProjectileLaunch, *wire.Detonation:
			seq := projectileSeq(m)
			if origin, det, detonated, healed, ok := refserver.ProjectileOf(r.w, crossHostile, seq); ok {
				if !healed {
					r.launches[seq] = origin
				}
				if detonated {
					if _, seen := r.dets[seq]; !seen {
						r.dets[seq] = crossPos{at: now, pos: det}
					}
				}
			}
		}
	}
}

func projectileSeq(m wire.Message) uint16 {
	if l, ok := m.(*wire.ProjectileLaunch); ok {
		return l.Projectile
	}
	return m.(*wire.Detonation).Projectile
}

// hostileWasAt reports whether q lies within slack of a position the server accepted of
// the hostile over the crossLookback before at.
func (r *crossRun) hostileWasAt(at time.Duration, q wire.Vec3, slack float32) bool {
	for i := len(r.path) - 1; i >= 0; i-- {
		if r.path[i].at > at {
			continue
		}
		if at-r.path[i].at > crossLookback {
			// the position it stood at when the lookback began still counts
			return dist(r.path[i].pos, q) <= slack
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

// honest is the script of the honest players for step s, each through its own client and
// the kit's verbs: 0 drives vehicle 0 in a circle (walking back to it and sitting down
// after a respawn), 1 stands and fires its M4 every ninth step at where its client shows
// 2, 2 walks to and fro. A dead one waits: its client asks for its respawn. What the
// hostile changes of one by a rule may change what it does to the others (2 killed is not
// shot at): the checks follow such knock-on effects.
func (r *crossRun) honest(s int) {
	now := r.k.Now()
	t := float64(s) * crossStep.Seconds()
	for id, p := range r.pl {
		c := p.Client()
		if !c.Alive() {
			continue
		}
		switch id {
		case 0:
			if v, _ := c.Vehicle(); v != 0 {
				r.board(p)
				continue
			}
			if r.angle == 0 {
				pose, _, _ := c.VehicleState()
				r.centre = wire.Vec3{X: pose.Position.X - crossRadius, Y: pose.Position.Y, Z: pose.Position.Z}
			}
			r.angle += crossStep.Seconds()
			pos := wire.Vec3{X: r.centre.X + float32(crossRadius*math.Cos(r.angle)), Y: r.centre.Y + float32(crossRadius*math.Sin(r.angle)),
				Z: r.centre.Z}
			_ = c.MoveVehicle(now, client.VehiclePose{Position: pos, Rotation: wire.Quat{W: 1}})
		case 1:
			if s%9 == 0 {
				_, _ = p.Shoot(r.pl[2], crossM4) // refused by its client while 2 is not shown
			}
		case 2:
			_ = p.MoveTo(crossWalk(t))
		}
	}
}

// crossWalk is where honest player 2 walks at time t of the script: at its place on the
// kit's line, to and fro along Y.
func crossWalk(t float64) wire.Vec3 {
	return wire.Vec3{X: 2 * simkit.Spacing, Y: float32(5 * math.Sin(t)), Z: simkit.Ground}
}

// board walks the driver back beside vehicle 0, where the car stopped (its game sees the
// car where its last frames left it: the server's position of it), and on the next step
// sits it down in the driver's seat.
func (r *crossRun) board(p *simkit.Player) {
	pos, wrecked, ok := refserver.VehicleOf(r.w, 0)
	if !ok || wrecked {
		return
	}
	beside := wire.Vec3{X: pos.X + 1.5, Y: pos.Y, Z: pos.Z}
	if dist(p.Position(), beside) > 0.5 {
		_ = p.MoveTo(beside)
		return
	}
	_, health, _ := r.k.Vehicle(0)
	_ = p.Client().EnterVehicle(r.k.Now(), 0, 0, client.VehiclePose{Position: pos, Rotation: wire.Quat{W: 1}}, health)
}

// play runs the world: the honest script every step, the hostile's datagrams from in
// (nil: none), then crossStep of the kit's time.
func (r *crossRun) play(in []byte) error {
	// The hostile joins and spawns like everyone (in both runs).
	if _, err := r.h.Endpoint().Queue(r.k.Now(), &wire.RespawnRequest{}); err != nil {
		return err
	}
	for s := range crossSteps {
		r.step = s
		r.takeReceived()
		// The hostile's datagrams of the step come first: the honest ones of the same
		// tick after them, where a flood would push them out.
		if in != nil && s < crossSteps-crossQuiet {
			in = r.hostile(in)
		}
		r.honest(s)
		if r.hs.spawned && s == 5 {
			r.datagram(r.hostileFrame())
		}
		if err := r.k.Advance(crossStep); err != nil {
			return err
		}
	}
	return nil
}

// hostile sends the datagrams the fuzzer's bytes say for one step, and returns the rest.
func (r *crossRun) hostile(in []byte) []byte {
	x := &crossBytes{b: in}
	h := &r.hs
	for range int(x.next() % 4) {
		var m wire.Message
		switch x.next() % 16 {
		case 0: // raw bytes
			n := int(x.next() % 48)
			r.send(x.take(n))
			continue
		case 1:
			h.frameSeq += uint16(x.next() % 3)
			f := &wire.PlayerSync{Seq: h.frameSeq, VitalRev: x.rev(h.vitalRev), DamageSeq: x.rev(h.dmgSeq), WeaponRev: x.rev(h.weaponRev),
				DeathEpoch: x.rev(h.gen), Weapon: x.weapon(), Alive: x.next()%5 != 0, FireHeld: x.next()%4 == 0, Seat: x.next() % 3,
				Health: x.vital(), Armor: x.vital(), Position: r.place(x), Vehicle: x.vehicle(), Clip: 5, Total: x.u16()}
			if f.Alive {
				h.pos = f.Position
			}
			m = f
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
			switch {
			case v < crossHostile:
				ve = r.pl[v].Client().DeathEpoch()
			case v == crossHostile:
				ve = h.gen
			}
			m = &wire.StealthKill{Victim: v, VictimEpoch: x.rev(ve), DeathEpoch: x.rev(h.gen), Weapon: x.weapon()}
		case 11:
			m = &wire.VehicleExplode{Vehicle: x.vehicle(), Attacker: x.player(), Weapon: x.weapon()}
		case 12: // a relay it received, re-encoded as its own
			if len(h.replays) == 0 {
				continue
			}
			m = r.replay(h.replays[int(x.next())%len(h.replays)])
		case 13: // a burst of copies of its last datagram, or (n%4 == 1) one bundle of them
			n := int(x.next())
			if n%4 == 1 && len(h.last) > 0 {
				copies := make([][]byte, n/4+1)
				for i := range copies {
					copies[i] = h.last
				}
				b := crossBundle(copies...)
				if n%8 == 5 { // a bundle inside a bundle: refused whole
					b = crossBundle(h.last, b)
				}
				r.send(b)
				continue
			}
			for range n * 4 {
				r.send(h.last)
			}
			continue
		case 14: // a flood of frames, each one newer than the last
			n := int(x.next()%80) << 10
			f := wire.PlayerSync{DeathEpoch: h.gen, Alive: true, Health: 100, Position: h.pos, Vehicle: wire.NoVehicle}
			for range n {
				h.frameSeq++
				f.Seq = h.frameSeq
				r.datagram(&f)
			}
			continue
		default: // a flood of junk
			n := int(x.next()%80) << 10
			for i := range n {
				r.send([]byte{byte(i), byte(i >> 8)})
			}
			continue
		}
		if m != nil {
			r.datagram(m)
		}
	}
	return x.b
}

// replay turns a relay the hostile received into its own message.
func (r *crossRun) replay(m wire.Message) wire.Message {
	h := &r.hs
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

// place picks a position that matters: next to an honest player, on a vehicle, the
// hostile's own, or far.
func (r *crossRun) place(x *crossBytes) wire.Vec3 {
	k := x.next()
	switch k % 6 {
	case 0, 1:
		pos := r.pl[int(k/6)%crossHonest].Position()
		return wire.Vec3{X: pos.X + float32(x.next()%5) - 2, Y: pos.Y + float32(x.next()%5) - 2, Z: pos.Z}
	case 2:
		if pos, _, ok := refserver.VehicleOf(r.w, uint16(k/6)%3); ok {
			return pos
		}
	case 3:
		return r.hs.pos
	case 4:
		return wire.Vec3{X: float32(int8(x.next())) * 8, Y: float32(int8(x.next())) * 8}
	}
	return wire.Vec3{X: float32(x.u16()), Y: -float32(x.u16())}
}

// crossBundle lays datagrams out as a bundle by hand (the wire's writer refuses to build
// a hostile one): the header, then each with its little-endian u16 length.
func crossBundle(ds ...[]byte) []byte {
	b := []byte{wire.Version, byte(wire.IDBundle)}
	for _, d := range ds {
		b = append(b, byte(len(d)), byte(len(d)>>8))
		b = append(b, d...)
	}
	return b
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

func (x *crossBytes) player() refserver.PlayerID {
	k := x.next()
	if k%8 == 7 {
		return refserver.NoPlayer
	}
	return refserver.PlayerID(k % (crossHonest + 2))
}

func (x *crossBytes) vehicle() uint16 {
	k := x.next()
	if k%5 == 4 {
		return wire.NoVehicle
	}
	return uint16(k % 4)
}

func (x *crossBytes) weapon() uint8 {
	ws := [...]uint8{crossM4, deagle, 4, 16, 25, 31, 35, 38, 51, 54, 0}
	k := x.next()
	if k >= 240 {
		return k
	}
	return ws[int(k)%len(ws)]
}

func (x *crossBytes) vital() float32 {
	return float32(x.next()) * 200 / 255
}

func dist(a, b wire.Vec3) float32 {
	dx, dy, dz := a.X-b.X, a.Y-b.Y, a.Z-b.Z
	return float32(math.Sqrt(float64(dx*dx + dy*dy + dz*dz)))
}

// crossResult is what the checks read of a finished run: the server's readbacks of the
// honest players and vehicle 0, its events, and what the honest clients received of each
// other (relayed frames applied, reports of the others' shots).
type crossResult struct {
	events     []refserver.Event
	stats      refserver.Stats
	players    [crossHonest]crossPlayer
	frames     [crossHonest][crossHonest]int
	shots      [crossHonest][crossHonest]int
	vehiclePos wire.Vec3
	wrecked    bool
	bad        []string
}

// crossPlayer is the server's state of one honest player at the end of a run.
type crossPlayer struct {
	gen           uint16
	alive         bool
	health, armor float32
	store         [inventory.NumSlots]inventory.Slot
	held          uint8
	vehicle       uint16
	seat          uint8
	caps          uint64
}

// result reads the run's outcome, and checks every hostile shot and detonation an honest
// client reported damage from against what the server accepted of the hostile.
func (r *crossRun) result() crossResult {
	out := crossResult{events: append([]refserver.Event(nil), r.k.Events()...), stats: r.w.Stats(), frames: r.frames, bad: r.bad}
	for id := range refserver.PlayerID(crossHonest) {
		p := &out.players[id]
		p.gen, _ = r.w.Generation(id)
		p.alive = r.w.Alive(id)
		v, _ := r.w.Vitals(id)
		p.health, p.armor = v.Health, v.Armor
		p.store, _ = r.w.Weapons(id)
		p.held, _ = r.w.HeldWeapon(id)
		_, p.vehicle, p.seat, _ = refserver.FrameOf(r.w, id)
		c, _ := r.w.ConnStats(id)
		p.caps = c.FanOutCapped + c.OutboxDropped + c.DatagramsOverRate + c.FramesOverRate
		for _, e := range r.pl[id].Client().AppendReportLog(nil) {
			switch {
			case e.Attacker < crossHostile && (e.Ref.Kind == wire.RefWeaponShot || e.Ref.Kind == wire.RefVehicleShot):
				out.shots[id][e.Attacker]++
			case e.Attacker == crossHostile && (e.Ref.Kind == wire.RefWeaponShot || e.Ref.Kind == wire.RefVehicleShot):
				s, ok := r.shots[e.Ref]
				if !ok {
					out.bad = append(out.bad, fmt.Sprintf("3: player %d reported damage from the hostile's shot %v the server never accepted", id, e.Ref))
				} else if !r.hostileWasAt(s.at, s.pos, crossOriginSlack) {
					out.bad = append(out.bad, fmt.Sprintf("3: the hostile's shot %v from %v hurt player %d where the server never accepted it", e.Ref, s.pos, id))
				}
			case e.Attacker == crossHostile && e.Ref.Kind == wire.RefDetonation:
				d, ok := r.dets[e.Ref.Seq]
				o, launched := r.launches[e.Ref.Seq]
				switch {
				case !ok:
					out.bad = append(out.bad, fmt.Sprintf("3: player %d reported damage from the hostile's detonation %d the server never accepted", id, e.Ref.Seq))
				case launched && dist(o, d.pos) > crossThrowReach, !launched && !r.hostileWasAt(d.at, d.pos, crossThrowReach):
					out.bad = append(out.bad, fmt.Sprintf("3: the hostile's detonation %v hurt player %d %.0f m from its launch or its positions", d.pos, id, dist(o, d.pos)))
				}
			}
		}
	}
	out.vehiclePos, out.wrecked, _ = refserver.VehicleOf(r.w, 0)
	return out
}

// crossChecks compares the run with the hostile's datagrams (with) against the run
// without them (base) and returns every way a hostile datagram changed an honest player
// other than through a rule: its ledger (beyond the damage the server credited to the
// hostile on it), its store, its life (without a credited hit, stealth kill or vehicle
// explosion of the hostile), its seat, the relays of its frames and shots to the others,
// its gamemode events; a hostile shot or detonation that hurt an honest player starting
// where the server never accepted the hostile to be; an honest driver's seat or vehicle
// taken over. The relays are what the honest clients took: the frames each applied of
// each other player, and the shots it was hit by, unless the hostile changed the
// target's life or hurt it by a rule (an honest client keeps no count of the shots that
// missed it by sender: a relay of a shot lost to a bystander shows in the caps, its
// outbox's or the shooter's share of the relay log).
func crossChecks(with, base crossResult) []string {
	var bad []string
	fail := func(format string, a ...any) { bad = append(bad, fmt.Sprintf(format, a...)) }
	if with.stats.RecordEventsDropped > 0 {
		fail("%d events of the records dropped", with.stats.RecordEventsDropped)
	}
	// A player the hostile hurt or killed by a rule plays differently from then on (a dead
	// shooter does not shoot), so what it does to the others may differ too: whoever it
	// hurt in either run is explained by the same rule, and so on down the chain.
	hostileHit := map[refserver.PlayerID]float32{}
	hostileKilled := map[refserver.PlayerID]bool{}
	for _, e := range with.events {
		switch {
		case e.Kind == refserver.EventPlayerDamage && e.Other == crossHostile:
			hostileHit[e.Player] += e.Deducted
		case e.Kind == refserver.EventStealthKill && e.Other == crossHostile,
			e.Kind == refserver.EventPlayerDeath && e.Other == crossHostile:
			hostileKilled[e.Player] = true
		case e.Kind == refserver.EventVehicleExploded && (e.Player == crossHostile || e.Other == crossHostile) && e.Vehicle == 0:
			hostileKilled[0] = true
		}
	}
	knockOn := map[refserver.PlayerID]bool{}
	for changed := true; changed; {
		changed = false
		for _, run := range []crossResult{with, base} {
			for _, e := range run.events {
				if e.Kind != refserver.EventPlayerDamage || knockOn[e.Player] || e.Player == e.Other {
					continue
				}
				if by := e.Other; by < crossHostile && (hostileHit[by] > 0 || hostileKilled[by] || knockOn[by]) {
					knockOn[e.Player], changed = true, true
				}
			}
		}
	}
	// Whom the hostile hurt or killed by a rule, or whose life it changed: such a target
	// takes (and reports) other shots than it would have.
	var diverged [crossHonest]bool
	for id := range refserver.PlayerID(crossHonest) {
		diverged[id] = hostileHit[id] > 0 || hostileKilled[id] || knockOn[id] || lifeChanged(with, base, id)
	}
	for id := range refserver.PlayerID(crossHonest) {
		hit, killed := hostileHit[id], hostileKilled[id] || knockOn[id]
		p1, p2 := with.players[id], base.players[id]
		if lifeChanged(with, base, id) {
			if hit == 0 && !killed {
				fail("player %d: its life changed without a rule (gen %d alive %v, without the hostile gen %d alive %v)", id, p1.gen, p1.alive, p2.gen, p2.alive)
			}
			continue // its own play diverged, by a rule
		}
		if hit == 0 && killed {
			continue // a counted death whose commit is still waiting, or hurt by one the hostile hurt
		}
		if d := (p2.health + p2.armor) - (p1.health + p1.armor) - hit; d > 0.05 || d < -0.05 {
			fail("player %d: ledger %.2f, %.2f without the hostile, %.2f credited to the hostile", id, p1.health+p1.armor, p2.health+p2.armor, hit)
		}
		if p1.store != p2.store || p1.held != p2.held {
			fail("player %d: store %v held %d, without the hostile %v held %d", id, p1.store, p1.held, p2.store, p2.held)
		}
		if p1.vehicle != p2.vehicle || p1.seat != p2.seat {
			fail("player %d: seat %d/%d, without the hostile %d/%d", id, p1.vehicle, p1.seat, p2.vehicle, p2.seat)
		}
		if p1.caps != p2.caps {
			fail("player %d: %d of its datagrams capped, without the hostile %d", id, p1.caps, p2.caps)
		}
		for q := range refserver.PlayerID(crossHonest) {
			if q == id {
				continue
			}
			if f1, f2 := with.frames[q][id], base.frames[q][id]; f1 != f2 {
				fail("player %d: %d of its frames relayed to %d, %d without the hostile", id, f1, q, f2)
			}
			if s1, s2 := with.shots[q][id], base.shots[q][id]; s1 != s2 && !diverged[q] {
				fail("player %d: %d of its shots relayed to %d, %d without the hostile", id, s1, q, s2)
			}
		}
		if e1, e2 := recordEvents(with.events, id), recordEvents(base.events, id); !slices.Equal(e1, e2) {
			fail("player %d: record events\n%v\nwithout the hostile\n%v", id, e1, e2)
		}
	}
	bad = append(bad, with.bad...)
	// Vehicle 0 goes where its honest driver drives it, unless the hostile hurt or killed
	// the driver (or blew the car up) by a rule.
	driverHit := hostileHit[0] > 0 || hostileKilled[0] || knockOn[0]
	if !driverHit && (with.wrecked != base.wrecked || with.vehiclePos != base.vehiclePos) {
		fail("vehicle 0 (an honest driver's): wrecked %v at %v, without the hostile wrecked %v at %v", with.wrecked, with.vehiclePos, base.wrecked, base.vehiclePos)
	}
	return bad
}

// lifeChanged reports whether player id's life differs between the runs: its life, its
// being alive at the end, its deaths and spawns.
func lifeChanged(with, base crossResult, id refserver.PlayerID) bool {
	p1, p2 := with.players[id], base.players[id]
	return p1.gen != p2.gen || p1.alive != p2.alive || !slices.Equal(lifeEvents(with.events, id), lifeEvents(base.events, id))
}

// recordEvents lists the events of the records about player id that name nobody but
// honest players (the hostile's own are allowed to differ): when, what, by whom, with
// what, the loss claimed (the report numbers and what a hit deducted depend on the
// hostile's credited hits in between).
func recordEvents(ev []refserver.Event, id refserver.PlayerID) []string {
	var out []string
	for _, e := range ev {
		if e.Player != id || e.Kind.Diagnostic() || e.Other == crossHostile {
			continue
		}
		switch e.Kind {
		case refserver.EventPlayerDamage, refserver.EventPlayerDeath, refserver.EventPlayerSpawn:
			out = append(out, fmt.Sprintf("%v %v other=%d weapon=%d claimed=%.2f", e.At, e.Kind, e.Other, e.Weapon, e.Amount))
		}
	}
	return out
}

// lifeEvents lists the deaths and spawns of player id.
func lifeEvents(ev []refserver.Event, id refserver.PlayerID) []string {
	var out []string
	for _, e := range ev {
		if e.Player == id && (e.Kind == refserver.EventPlayerDeath || e.Kind == refserver.EventPlayerSpawn) {
			out = append(out, fmt.Sprintf("%v %v gen=%d", e.At, e.Kind, e.Gen))
		}
	}
	return out
}

// crossRunWith plays one world with the hostile's datagrams from in (nil: a hostile that
// only spawns) and returns its outcome.
func crossRunWith(in []byte) (crossResult, error) {
	r, err := newCrossRun()
	if err != nil {
		return crossResult{}, err
	}
	if err := r.play(in); err != nil {
		return crossResult{}, err
	}
	return r.result(), nil
}

// crossBase is the world without the hostile's datagrams: the same for every input (the
// kit is deterministic by seed), so it runs once per process.
var crossBase = sync.OnceValues(func() (crossResult, error) { return crossRunWith(nil) })

// crossPlay runs the world with the hostile's datagrams from in and returns the
// cross-player violations against the world without them.
func crossPlay(in []byte) ([]string, error) {
	base, err := crossBase()
	if err != nil {
		return nil, err
	}
	with, err := crossRunWith(in)
	if err != nil {
		return nil, err
	}
	return crossChecks(with, base), nil
}

// crossSeeds are the fuzz target's seed corpus: a quiet hostile, and the datagrams that
// matter, each aimed where it hurts (see crossOps), the hostile walking next to its
// target first where a reach would refuse it otherwise (the arena's car stands 90 m from
// its spawn): frames in the honest driver's seat with vehicle frames of its vehicle,
// shots from next to an honest player, detonations beside one, stealth kills, a vehicle
// explosion, replays, junk, bursts, floods, bundles.
func crossSeeds() [][]byte {
	seat := crossOps{}.idle(6)
	for range 20 {
		seat = seat.step(3).frame(1, 0, crossAtVehicle(0), 4).frame(1, 0, crossAtVehicle(0), 0).vsync(1, 0, crossNear(2))
	}
	shots := crossOps{}.idle(6)
	for range 10 {
		shots = shots.step(1).shot(crossNear(2), []byte{12, 0, 2}, 2).idle(3)
	}
	// The first beside the honest driver, 90 m away (beyond any throw: refused), the rest
	// beside the shooter, 20 m away (a throw: credited).
	dets := crossOps{}.idle(6).step(2).launch(crossOwn()).detonation(0, crossAtVehicle(0)).idle(3)
	for range 9 {
		dets = dets.step(2).launch(crossOwn()).detonation(0, crossNear(1)).idle(3)
	}
	// Each next to its victim first: the driver in its car, the walker; then vehicle 0's
	// explosion, from beside it.
	kills := crossOps{}.idle(6).step(2).frame(1, 0, crossAtVehicle(0), 4).stealth(0).idle(3).step(2).frame(1, 0, crossNear(2), 4).stealth(2).
		idle(3).step(2).frame(1, 0, crossAtVehicle(0), 4).explode(0, 3)
	replays := crossOps{}.idle(12)
	for range 20 {
		replays = replays.step(2).frame(1, 0, crossAtVehicle(0), 4).replay(0).step(2).frame(1, 0, crossAtVehicle(0), 4).replay(1)
	}
	junk := crossOps{}.idle(6).step(3).raw(10).raw(0).raw(47).step(1).burst(60).step(2).frame(1, 1, crossOwn(), 4).burst(255)
	// MaxFanOut frames and MaxPendingEvents junk datagrams in one step, while the honest
	// players' frames, shots and hits go on.
	flood := crossOps{}.idle(8).step(1).floodFrames(65).idle(8).step(1).floodJunk(65)
	// Bundles of its frames in the honest driver's seat and of its shots beside an honest
	// player (burst n with n%4 == 1), some nested inside another bundle (n%8 == 5).
	bundles := crossOps{}.idle(6)
	for range 10 {
		bundles = bundles.step(3).frame(1, 0, crossAtVehicle(0), 4).frame(1, 0, crossAtVehicle(0), 0).burst(41).step(2).shot(crossNear(2), []byte{12, 0, 2}, 2).burst(45)
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

// FuzzCrossPlayer drives whole-world sequences on the simulation kit (its seed corpus
// runs with every go test): three honest players, each through its own honest client on
// the simulated network (a driver, a shooter, its target), and a hostile raw connection
// whose datagrams come from the fuzzer's bytes (raw datagrams, messages built from them
// with every field chosen by the bytes, replays of relays it received, bursts, bundles,
// floods). The world runs twice from the same seed, with and without the hostile's
// datagrams, and the honest players' ledgers, stores, lives, seats, relays and record
// events must agree unless a rule explains the difference (a credited hit of the
// hostile's on them, an accepted stealth kill or vehicle explosion, and what those change
// down the chain). Each fix the seeds guard makes one fail when it is taken out: the seat
// hold seeds #1, #5 and #8 (the hostile's frames in the honest driver's seat, its vehicle
// frames of the driver's car), the origin check of shots #2 and #8 (shots from beside the
// target), the far-detonation refusal #3; #3 and repro1 pass only with the knock-on rule
// (a shooter the hostile hurt or knifed shoots less); a relay of the honest players'
// frames lost in #7's flood fails it.
func FuzzCrossPlayer(f *testing.F) {
	for _, in := range crossSeeds() {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		bad, err := crossPlay(in)
		if err != nil {
			t.Fatalf("the cross-player world: %v", err)
		}
		if len(bad) > 0 {
			t.Fatalf("a hostile connection changed an honest player's state outside the rules:\n%v", bad)
		}
	})
}
