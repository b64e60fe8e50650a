package match

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// The mutator's habits (CheatMutator).
const (
	// MutateShare is the chance that the mutator rewrites a datagram of its client.
	MutateShare = 0.35
	// MutateKeepShare is the chance that a datagram it rewrote also goes out unchanged.
	MutateKeepShare = 0.5
	// ReplayShare, ForgeShare and BurstShare are the chances, every client tick, that it
	// replays a datagram relayed to it as its own, forges a reliable message, or sends a
	// burst of copies of its last datagram (MutatorBurst of them at most).
	ReplayShare  = 0.02
	ForgeShare   = 0.01
	BurstShare   = 0.002
	MutatorBurst = 40
	// ShotShare is the chance, every client tick, that it fires a shot its game did not:
	// aimed at another player from where it stands, from next to that player, or a
	// grenade's detonation next to another player.
	ShotShare = 0.03
	// MaxReplays is how many relayed datagrams the mutator keeps for its replays.
	MaxReplays = 64
)

// The mutator's measures.
const (
	// ForgeSlack is how far from every position the server accepted of the mutator
	// (its relayed frames) over the last ForgeLookback an origin must lie to count as a
	// place it never was: an honest shot starts at its shooter's eye, a frame or two from
	// its last frame.
	ForgeSlack    = 10
	ForgeLookback = 1500 * time.Millisecond
	// ThrowReach is how far from its launch a detonation may lie before it counts as
	// moved: a grenade flies 40 m at most, and rolls or bounces on. ThrowLookback is how
	// long before its detonation a grenade whose launch the server never saw may have been
	// thrown: its fuse and its flight (the bots' grenades burn 2 s).
	ThrowReach    = 60
	ThrowLookback = 3 * time.Second
	// LedgerExcuse is how long the mutator's ledger may stay above its client's real
	// health while its frames are taken: a lost report, a frame waiting for its report
	// (1 s), a health command settling (2 s after its acknowledgement). An honest
	// player's ledger stayed above its client's health for 2.9 s at most (seed 3, every
	// round trip 400 ms, 30 ms jitter, 5 % loss); twice that.
	LedgerExcuse = 6 * time.Second
	// FramesTaken is the longest gap between two of the mutator's relayed frames during
	// which its frames still count as taken.
	FramesTaken = 500 * time.Millisecond
	// ClaimWindow is how long after a claimed hit a suspicion on its target is counted
	// against the claimer.
	ClaimWindow = 10 * time.Second
)

// adversary measures the mutator and flood cheats of a match.
type adversary struct {
	m        *Match
	dec      wire.Decoder
	muts     map[int]*mutState
	floods   []*player
	observer *player // the honest player whose relays tell what the server accepted
	log      []client.ReportEntry
	// pending are the actions relayed to the observer in this flush, judged once the
	// flush's frames are in (settle): the observer's own copy of a shot comes before them.
	pending []wire.Message
	flood   floodState
}

// mutState is one mutator.
type mutState struct {
	p     *player
	rng   *rand.Rand
	enc   []byte
	dec   wire.Decoder
	last  []byte // its last datagram (for bursts)
	label string // the mutation of the last forged frame
	// seats names the mutation that put its forged frames in each seat (vehicle<<8|seat).
	seats      map[uint32]string
	vitalLabel string // the last mutation of a vital revision, health or report

	shotSeq, projSeq, frameSeq, vehSeq uint16
	projMap                            map[uint16]uint16 // its client's projectile numbers -> its own
	orig                               []byte
	replays                            [][]byte

	// What the server accepted of it: its frames relayed to anyone (the last one's life
	// and number in lastFrame, to take each frame once), its actions seen in the
	// observer's relays.
	haveFrame bool
	lastFrame uint32
	path      []posAt
	lastRelay time.Duration
	launches  map[uint16]wire.Vec3
	forged    map[forgeKey]forgery
	relayed   map[uint8]int // accepted shots by weapon
	grenades  int           // accepted grenade launches (and launches healed by a detonation)
	given     map[int8]int  // rounds given, by slot (weapons of a pooled slot share them)
	claims    map[wire.PlayerID]forgery
	vclaims   map[uint16]forgery
	lastDmg   map[wire.PlayerID]string // victim -> the forgery of its last credited damage from it ("" if none)
	drove     map[uint16]time.Duration
	above     time.Duration // since when its ledger is above its client's health (-1: not)
	counted   bool
	ledger    float32
	ledgerGen uint16
	gains     Gains
	findings  map[string]int
}

type posAt struct {
	at  time.Duration
	pos wire.Vec3
}

// forgeKey names an action of the mutator: a shot, a vehicle shot, a detonation.
type forgeKey struct {
	kind wire.RefKind
	seq  uint16
}

type forgery struct {
	label string
	at    time.Duration
}

func newAdversary(m *Match) *adversary {
	a := &adversary{m: m, muts: map[int]*mutState{}}
	for _, p := range m.cheaters {
		switch p.cheat.kind {
		case CheatMutator:
			a.muts[p.idx] = &mutState{p: p, rng: rand.New(rand.NewPCG(m.cfg.Seed, uint64(0x6d75740000+p.idx))),
				launches: map[uint16]wire.Vec3{}, forged: map[forgeKey]forgery{}, relayed: map[uint8]int{},
				given: map[int8]int{}, claims: map[wire.PlayerID]forgery{}, vclaims: map[uint16]forgery{},
				lastDmg: map[wire.PlayerID]string{}, drove: map[uint16]time.Duration{}, above: -1, findings: map[string]int{}}
		case CheatFlood:
			a.floods = append(a.floods, p)
		}
	}
	if len(a.muts) == 0 && len(a.floods) == 0 {
		return nil
	}
	for _, p := range m.players {
		if p.cheat == nil {
			a.observer = p
			break
		}
	}
	return a
}

// gain counts one gain of a measure (its Gains field), what it changed and the mutation
// that found it: the finding "measure:what:mutation" (the mutations applied to one
// datagram are joined by "+").
func (s *mutState) gain(field *int, what, mutation string) {
	*field++
	if mutation == "" {
		mutation = "unmutated"
	}
	s.findings[what+":"+mutation]++
}

// ---- the mutations ----

// mutateOutgoing rewrites a datagram of the mutator's client at random.
func (m *Match) mutateOutgoing(now time.Duration, p *player, d []byte, send func([]byte)) {
	s := m.adv.muts[p.idx]
	s.last = append(s.last[:0], d...)
	id, err := wire.Peek(d)
	if err != nil || id.Transport() {
		send(d) // its lane stays honest: the reliable messages are forged apart (forgeReliable)
		return
	}
	msg, err := s.dec.Decode(d)
	if err != nil {
		send(d)
		return
	}
	if s.renumber(msg) {
		if b, err := msg.Append(s.orig[:0]); err == nil {
			s.orig, d = b, b
		}
	}
	if s.rng.Float64() >= MutateShare {
		send(d)
		return
	}
	if s.rng.Float64() < MutateKeepShare {
		send(d)
	}
	label := ""
	for range 1 + s.rng.IntN(3) {
		if l := s.mutate(now, m, msg); l != "" && !strings.Contains(label, l) {
			if label != "" {
				label += "+"
			}
			label += l
		}
	}
	if label == "" {
		return
	}
	s.out(p, msg, label, send)
}

// renumber keeps the frame numbers its forgeries continue from, and numbers its
// client's shots and projectiles from its own counters, so that its forged ones never
// take a number its client will use (it reports whether msg changed).
func (s *mutState) renumber(msg wire.Message) bool {
	switch msg := msg.(type) {
	case *wire.PlayerSync:
		s.frameSeq = msg.Seq
	case *wire.VehicleSync:
		s.vehSeq = msg.Seq
	case *wire.WeaponShot:
		s.shotSeq++
		msg.ShotSeq = s.shotSeq
		return true
	case *wire.VehicleShot:
		s.shotSeq++
		msg.ShotSeq = s.shotSeq
		return true
	case *wire.ProjectileLaunch:
		s.projSeq++
		if s.projMap == nil {
			s.projMap = map[uint16]uint16{}
		}
		s.projMap[msg.Projectile] = s.projSeq
		msg.Projectile = s.projSeq
		return true
	case *wire.Detonation:
		n, ok := s.projMap[msg.Projectile]
		if !ok {
			s.projSeq++
			n = s.projSeq
		}
		msg.Projectile = n
		return true
	}
	return false
}

// out encodes a forged message and sends it, remembering what it forged.
func (s *mutState) out(p *player, msg wire.Message, label string, send func([]byte)) {
	b, err := msg.Append(s.enc[:0])
	if err != nil {
		return // a mutation the wire itself refuses to encode
	}
	s.enc = b[:0]
	switch x := msg.(type) {
	case *wire.PlayerSync:
		s.label = label
		if x.Vehicle != wire.NoVehicle {
			if s.seats == nil {
				s.seats = map[uint32]string{}
			}
			s.seats[uint32(x.Vehicle)<<8|uint32(x.Seat)] = label
		}
	}
	if isVital(label) {
		s.vitalLabel = label
	}
	p.cheat.report.Forged++
	switch msg.(type) {
	case *wire.WeaponShot, *wire.VehicleShot:
		p.cheat.report.ForgedShots++
	}
	s.lastLabel(msg, label)
	send(b)
}

// lastLabel remembers the mutation behind a forged action, by its number.
func (s *mutState) lastLabel(msg wire.Message, label string) {
	switch msg := msg.(type) {
	case *wire.WeaponShot:
		s.forged[forgeKey{wire.RefWeaponShot, msg.ShotSeq}] = forgery{label: label, at: -1}
	case *wire.VehicleShot:
		s.forged[forgeKey{wire.RefVehicleShot, msg.ShotSeq}] = forgery{label: label, at: -1}
	case *wire.Detonation:
		s.forged[forgeKey{wire.RefDetonation, msg.Projectile}] = forgery{label: label, at: -1}
	case *wire.ProjectileLaunch:
		s.forged[forgeKey{wire.RefKind(0), msg.Projectile}] = forgery{label: label, at: -1}
	case *wire.VehicleExplode:
		s.forged[forgeKey{wire.RefVehicleExplode, msg.Vehicle}] = forgery{label: label, at: -1}
	}
}

func isVital(label string) bool {
	for _, l := range []string{"frame.vital_rev", "frame.health", "frame.damage_seq", "frame.epoch", "frame.alive", "report."} {
		if strings.Contains(label, l) {
			return true
		}
	}
	return false
}

// The values a mutation picks from.

func (s *mutState) u16(x uint16) uint16 {
	switch s.rng.IntN(7) {
	case 0:
		return x + 1
	case 1:
		return x - 1
	case 2:
		return x + uint16(2+s.rng.IntN(100))
	case 3:
		return x - uint16(2+s.rng.IntN(100))
	case 4:
		return 0
	case 5:
		return x + 0x8000
	}
	return uint16(s.rng.Uint32())
}

func (s *mutState) playerID(m *Match) wire.PlayerID {
	switch s.rng.IntN(6) {
	case 0:
		return wire.NoPlayer
	case 1:
		return s.p.id
	case 2:
		return wire.PlayerID(s.rng.Uint32())
	}
	return m.players[s.rng.IntN(len(m.players))].id
}

func (s *mutState) vehicleID(m *Match) uint16 {
	switch s.rng.IntN(6) {
	case 0:
		return wire.NoVehicle
	case 1:
		return uint16(s.rng.Uint32())
	case 2:
		if v, _ := s.p.c.Vehicle(); v != wire.NoVehicle {
			return v
		}
	}
	if len(m.world.cars) == 0 {
		return uint16(s.rng.IntN(4))
	}
	// Mostly a car somebody drives.
	for range 3 {
		cr := m.world.cars[s.rng.IntN(len(m.world.cars))]
		if cr.driver >= 0 && cr.driver != s.p.idx {
			return cr.id
		}
	}
	return m.world.cars[s.rng.IntN(len(m.world.cars))].id
}

// near returns a point next to another player as its client shows it.
func (s *mutState) near(m *Match) (wire.Vec3, bool) {
	o := m.players[s.rng.IntN(len(m.players))]
	if o == s.p {
		return wire.Vec3{}, false
	}
	r, ok := s.p.c.Remote(o.id)
	if !ok {
		return wire.Vec3{}, false
	}
	return add(r.Position, wire.Vec3{X: float32(s.rng.Float64()*4 - 2), Y: float32(s.rng.Float64()*4 - 2), Z: 0.5}), true
}

func (s *mutState) pos(m *Match, own wire.Vec3) wire.Vec3 {
	switch s.rng.IntN(6) {
	case 0, 1, 2:
		if q, ok := s.near(m); ok {
			return q
		}
	case 3:
		return randomPoint(s.rng, m.cfg.half())
	case 4:
		return add(own, wire.Vec3{X: float32(s.rng.Float64()*60 - 30), Y: float32(s.rng.Float64()*60 - 30)})
	}
	return wire.Vec3{X: float32(s.rng.Float64()*2-1) * wire.MaxCoord, Y: float32(s.rng.Float64()*2-1) * wire.MaxCoord}
}

func (s *mutState) vitalValue() float32 {
	switch s.rng.IntN(4) {
	case 0:
		return 0
	case 1:
		return wire.MaxVital
	}
	return float32(s.rng.IntN(2001)) / 10
}

func (s *mutState) weapon() uint8 {
	ws := [...]uint8{0, weaponKnife, weaponDeagle, weaponShotgun, weaponM4, weaponGrenade, weaponSpraycan, 27, 34, 35, 38, inventory.CauseExplosion, inventory.CauseFall}
	if s.rng.IntN(4) == 0 {
		return uint8(s.rng.IntN(256))
	}
	return ws[s.rng.IntN(len(ws))]
}

// mutate changes one field of msg at random and names the mutation ("" if none applied).
func (s *mutState) mutate(now time.Duration, m *Match, msg wire.Message) string {
	r := s.rng
	switch x := msg.(type) {
	case *wire.PlayerSync:
		switch r.IntN(13) {
		case 0:
			x.Seq = x.Seq + uint16(1+r.IntN(3)) // a small step: a big one would silence its own frames
			return "frame.seq"
		case 1:
			x.VitalRev = s.u16(x.VitalRev)
			return "frame.vital_rev"
		case 2:
			x.WeaponRev = s.u16(x.WeaponRev)
			return "frame.weapon_rev"
		case 3:
			x.DeathEpoch = s.u16(x.DeathEpoch)
			return "frame.epoch"
		case 4:
			x.Alive = !x.Alive
			return "frame.alive"
		case 5:
			x.Health, x.Armor = s.vitalValue(), s.vitalValue()
			return "frame.health"
		case 6:
			x.Position = s.pos(m, x.Position)
			return "frame.position"
		case 7:
			x.Vehicle = s.vehicleID(m)
			x.Seat = uint8(r.IntN(3))
			return "frame.vehicle"
		case 8:
			x.Seat = uint8(r.IntN(9))
			return "frame.seat"
		case 9:
			x.Weapon = s.weapon()
			return "frame.weapon"
		case 10:
			x.Total = uint16(r.Uint32())
			x.Clip = min(x.Total, uint16(r.IntN(100)))
			return "frame.ammo"
		case 11:
			x.DamageSeq = s.u16(x.DamageSeq)
			return "frame.damage_seq"
		default:
			x.FireHeld = !x.FireHeld
			return "frame.fire_held"
		}
	case *wire.VehicleSync:
		switch r.IntN(4) {
		case 0:
			x.Vehicle = s.vehicleID(m)
			return "vsync.vehicle"
		case 1:
			x.Seq = s.u16(x.Seq)
			return "vsync.seq"
		case 2:
			x.Position = s.pos(m, x.Position)
			return "vsync.position"
		default:
			x.Health = float32(r.IntN(int(wire.MaxVehicleHealth)))
			return "vsync.health"
		}
	case *wire.WeaponShot:
		switch r.IntN(7) {
		case 0:
			x.ShotSeq = s.u16(x.ShotSeq)
			return "shot.seq"
		case 1:
			x.DeathEpoch = s.u16(x.DeathEpoch)
			return "shot.epoch"
		case 2:
			x.PropertiesRev = s.u16(x.PropertiesRev)
			return "shot.props_rev"
		case 3:
			x.Weapon = s.weapon()
			return "shot.weapon"
		case 4:
			x.HitType, x.HitID = wire.HitType(r.IntN(4)), uint16(s.playerID(m))
			if x.HitType == wire.HitVehicle {
				x.HitID = s.vehicleID(m)
			}
			return "shot.hit"
		case 5:
			x.Origin = s.pos(m, x.Origin)
			s.aim(m, x)
			return "shot.origin"
		default:
			if q, ok := s.near(m); ok {
				x.HitPos = q
			}
			return "shot.end"
		}
	case *wire.VehicleShot:
		switch r.IntN(4) {
		case 0:
			x.Vehicle = s.vehicleID(m)
			return "vshot.vehicle"
		case 1:
			x.Weapon = s.weapon()
			return "vshot.weapon"
		case 2:
			x.Origin = s.pos(m, x.Origin)
			return "vshot.origin"
		default:
			x.ShotSeq = s.u16(x.ShotSeq)
			return "vshot.seq"
		}
	case *wire.DamageReport:
		switch r.IntN(7) {
		case 0:
			x.DamageSeq = s.u16(x.DamageSeq)
			return "report.seq"
		case 1:
			x.VitalRev = s.u16(x.VitalRev)
			return "report.vital_rev"
		case 2:
			x.Attacker = s.playerID(m)
			return "report.attacker"
		case 3:
			x.Weapon = s.weapon()
			return "report.weapon"
		case 4:
			x.BodyPart = uint8(r.IntN(12))
			return "report.body"
		case 5:
			x.Ref = wire.Ref{Kind: wire.RefKind(r.IntN(6)), Seq: s.u16(x.Ref.Seq)}
			return "report.ref"
		default:
			x.HealthBefore, x.HealthAfter = s.vitalValue(), s.vitalValue()
			x.Loss = float32(r.IntN(2000)) / 10
			return "report.vitals"
		}
	case *wire.ProjectileLaunch:
		switch r.IntN(4) {
		case 0:
			x.Projectile = s.u16(x.Projectile)
			return "launch.id"
		case 1:
			x.Weapon = s.weapon()
			return "launch.weapon"
		case 2:
			x.Vehicle = s.vehicleID(m)
			return "launch.vehicle"
		default:
			x.Origin = s.pos(m, x.Origin)
			return "launch.origin"
		}
	case *wire.Detonation:
		switch r.IntN(3) {
		case 0:
			x.Projectile = s.u16(x.Projectile)
			return "det.id"
		case 1:
			x.Weapon = s.weapon()
			return "det.weapon"
		default:
			x.Position = s.pos(m, x.Position)
			return "det.position"
		}
	case *wire.Ping:
		x.Seq = s.u16(x.Seq)
		return "ping.seq"
	}
	return ""
}

// aim points a moved shot's ray at the player next to its new origin, so the victim's
// game may take it.
func (s *mutState) aim(m *Match, x *wire.WeaponShot) {
	for _, o := range m.players {
		if o == s.p {
			continue
		}
		if r, ok := s.p.c.Remote(o.id); ok && dist(r.Position, x.Origin) < 6 {
			x.HitType, x.HitID = wire.HitPlayer, uint16(o.id)
			x.HitPos = add(r.Position, sub(r.Position, x.Origin))
			return
		}
	}
}

// mutatorTick runs every client tick of a mutator: replays, forged reliable messages,
// bursts.
func (m *Match) mutatorTick(now time.Duration, p *player, send func([]byte)) {
	if m.quiet {
		return // play is over: the final comparison waits for a world at rest
	}
	s := m.adv.muts[p.idx]
	if s.rng.Float64() < ReplayShare {
		s.replay(now, m, send)
	}
	if s.rng.Float64() < ForgeShare {
		s.forgeReliable(now, m, send)
	}
	if s.rng.Float64() < ShotShare && p.c.Alive() {
		s.forgeShot(now, m, send)
	}
	// A forged death report (or a lethal report) may have ended its life on the server
	// while its game lives on: it asks for a respawn, as its game never will.
	if ph, err := m.server.Phase(p.id); err == nil && ph == lifecycle.PhaseDead && p.c.Alive() && s.rng.Float64() < 0.1 {
		s.out(p, &wire.RespawnRequest{DeathEpoch: p.c.DeathEpoch()}, "revive", send)
	}
	if s.rng.Float64() < BurstShare && len(s.last) > 0 {
		n := 1 + s.rng.IntN(MutatorBurst)
		for range n {
			send(s.last)
		}
		p.cheat.report.Forged += n
	}
}

// replay re-encodes a datagram relayed to the mutator as its own.
func (s *mutState) replay(now time.Duration, m *Match, send func([]byte)) {
	if len(s.replays) == 0 {
		return
	}
	msg, err := s.dec.Decode(s.replays[s.rng.IntN(len(s.replays))])
	if err != nil {
		return
	}
	epoch := s.p.c.DeathEpoch()
	var out wire.Message
	label := ""
	switch x := msg.(type) {
	case *wire.RemotePlayerSync:
		s.frameSeq++
		out = &wire.PlayerSync{Seq: s.frameSeq, DeathEpoch: epoch, Alive: x.Alive, FireHeld: x.FireHeld, Seat: x.Seat,
			Weapon: x.Weapon, Health: x.Health, Armor: x.Armor, Position: x.Position, Velocity: x.Velocity, Facing: x.Facing,
			Vehicle: x.Vehicle, VitalRev: s.p.c.Revisions().Vital, WeaponRev: s.p.c.Revisions().Weapon}
		label = "replay.frame"
	case *wire.RemoteVehicleSync:
		s.vehSeq++
		out = &wire.VehicleSync{Seq: s.vehSeq, Vehicle: x.Vehicle, Position: x.Position, Rotation: x.Rotation,
			Velocity: x.Velocity, Health: x.Health}
		label = "replay.vsync"
	case *wire.RemoteWeaponShot:
		s.shotSeq++
		out = &wire.WeaponShot{ShotSeq: s.shotSeq, DeathEpoch: epoch, PropertiesRev: m.server.Catalog().Revision(),
			Weapon: x.Weapon, HitType: x.HitType, HitID: x.HitID, Origin: x.Origin, HitPos: x.HitPos}
		label = "replay.shot"
	case *wire.RemoteVehicleShot:
		s.shotSeq++
		out = &wire.VehicleShot{ShotSeq: s.shotSeq, DeathEpoch: epoch, PropertiesRev: m.server.Catalog().Revision(),
			Vehicle: x.Vehicle, Weapon: x.Weapon, HitType: x.HitType, HitID: x.HitID, Origin: x.Origin, HitPos: x.HitPos}
		label = "replay.vshot"
	case *wire.RemoteProjectile:
		s.projSeq++
		out = &wire.ProjectileLaunch{Projectile: s.projSeq, DeathEpoch: epoch, Weapon: x.Weapon, Vehicle: x.Vehicle,
			Target: x.Target, Origin: x.Origin, Velocity: x.Velocity}
		label = "replay.launch"
	case *wire.RemoteDetonation:
		out = &wire.Detonation{Projectile: s.projSeq, DeathEpoch: epoch, Weapon: x.Weapon, Position: x.Position}
		if s.rng.IntN(2) == 0 {
			s.projSeq++
			out.(*wire.Detonation).Projectile = s.projSeq
		}
		label = "replay.det"
	default:
		return
	}
	if s.rng.IntN(3) == 0 {
		s.mutate(now, m, out)
	}
	s.out(s.p, out, label, send)
}

// forgeShot fires a shot its game did not fire, at another player: from where it stands
// (an aimbot: within its rounds and cadence the records allow it), from next to its
// target, or a grenade's detonation next to its target.
func (s *mutState) forgeShot(now time.Duration, m *Match, send func([]byte)) {
	c := s.p.c
	o := m.players[s.rng.IntN(len(m.players))]
	r, ok := c.Remote(o.id)
	if o == s.p || !ok || !r.Copy.Alive {
		return
	}
	target, hid := add(r.Position, wire.Vec3{Z: 0.3}), o.id
	w := c.Weapons()
	weapon := w.Held
	if weapon == 0 || s.rng.IntN(3) == 0 {
		weapon = [...]uint8{weaponDeagle, weaponShotgun, weaponM4}[s.rng.IntN(3)]
	}
	eye := add(c.Position(), wire.Vec3{Z: 0.6})
	switch s.rng.IntN(3) {
	case 0:
		s.shotSeq++
		end := add(target, sub(target, eye))
		if dist(eye, end) > 80 {
			return
		}
		s.out(s.p, &wire.WeaponShot{ShotSeq: s.shotSeq, DeathEpoch: c.DeathEpoch(), PropertiesRev: c.Revisions().Properties,
			Weapon: weapon, HitType: wire.HitPlayer, HitID: uint16(hid), Origin: eye, HitPos: end}, "forge.shot", send)
	case 1:
		s.shotSeq++
		from := add(target, wire.Vec3{X: 3, Z: 0.6})
		s.out(s.p, &wire.WeaponShot{ShotSeq: s.shotSeq, DeathEpoch: c.DeathEpoch(), PropertiesRev: c.Revisions().Properties,
			Weapon: weapon, HitType: wire.HitPlayer, HitID: uint16(hid), Origin: from, HitPos: add(target, sub(target, from))}, "forge.shot_origin", send)
	default:
		s.projSeq++
		s.out(s.p, &wire.Detonation{Projectile: s.projSeq, DeathEpoch: c.DeathEpoch(), Weapon: weaponGrenade, Position: target},
			"forge.detonation", send)
	}
}

// forgeReliable sends a reliable message its client never sent (as a datagram of its
// own: the server's endpoint takes either).
func (s *mutState) forgeReliable(now time.Duration, m *Match, send func([]byte)) {
	c := s.p.c
	epoch := c.DeathEpoch()
	if s.rng.IntN(3) == 0 {
		epoch = s.u16(epoch)
	}
	o := m.players[s.rng.IntN(len(m.players))]
	var msg wire.Message
	label := ""
	switch s.rng.IntN(5) {
	case 0:
		msg = &wire.DeathReport{DeathEpoch: epoch, Killer: s.playerID(m), Weapon: s.weapon(), Pose: uint8(s.rng.IntN(12))}
		label = "forge.death"
	case 1:
		msg = &wire.RespawnRequest{DeathEpoch: epoch}
		label = "forge.respawn"
	case 2:
		ve := uint16(0)
		if r, ok := c.Remote(o.id); ok {
			ve = uint16(r.Copy.Gen)
		}
		msg = &wire.StealthKill{Victim: o.id, VictimEpoch: ve, DeathEpoch: epoch, Weapon: weaponKnife}
		label = "forge.stealth"
	case 3:
		msg = &wire.VehicleExplode{Vehicle: s.vehicleID(m), Attacker: s.playerID(m), Weapon: 51}
		label = "forge.explode"
	default:
		msg = &wire.DamageReport{DamageSeq: c.Revisions().DamageSeq + uint16(1+s.rng.IntN(3)), VitalRev: c.Revisions().Vital,
			Attacker: s.playerID(m), Weapon: s.weapon(), BodyPart: 3, Ref: wire.Ref{Kind: wire.RefKind(s.rng.IntN(6)), Seq: s.u16(0)},
			HealthBefore: c.Health(), HealthAfter: c.Health(), Loss: 0}
		label = "forge.report"
	}
	s.out(s.p, msg, label, send)
}

// ---- what the server did, seen in its datagrams ----

// watch sees every datagram the server sends: those relayed to a mutator feed its
// replays; those relayed to the observer tell what the server accepted of a mutator.
func (a *adversary) watch(now time.Duration, to int, d []byte) {
	id, err := wire.Peek(d)
	if err != nil || id.Transport() {
		return
	}
	if s := a.muts[to]; s != nil {
		switch id {
		case wire.IDRemotePlayerSync, wire.IDRemoteVehicleSync, wire.IDRemoteWeaponShot, wire.IDRemoteVehicleShot,
			wire.IDRemoteProjectile, wire.IDRemoteDetonation:
			if len(s.replays) < MaxReplays {
				s.replays = append(s.replays, append([]byte(nil), d...))
			} else {
				i := s.rng.IntN(MaxReplays)
				s.replays[i] = append(s.replays[i][:0], d...)
			}
		}
	}
	if a.observer == nil || len(a.muts) == 0 {
		return
	}
	if id == wire.IDRemotePlayerSync {
		// A mutator's frame relayed to anyone is a place the server accepted it at and
		// showed: with streaming the observer does not have every mutator shown at every
		// moment (a mutator that jumped far and back is hidden from it until its next
		// evaluation), and a path made of the observer's copies alone would miss places
		// every screen near them was shown.
		if msg, err := a.dec.Decode(d); err == nil {
			x := msg.(*wire.RemotePlayerSync)
			if s := a.mut(x.Player); s != nil {
				s.relayedFrame(now, a.m, x)
			}
		}
		return
	}
	if to != a.observer.idx {
		return
	}
	switch id {
	case wire.IDRemoteVehicleSync, wire.IDRemoteWeaponShot, wire.IDRemoteVehicleShot,
		wire.IDRemoteProjectile, wire.IDRemoteDetonation:
	default:
		return
	}
	msg, err := a.dec.Decode(d)
	if err != nil {
		return
	}
	// The decoder's message is overwritten by the next decode: keep a copy.
	c := wire.New(msg.ID())
	if b, err := msg.Append(nil); err != nil || c.Decode(b) != nil {
		return
	}
	a.pending = append(a.pending, c)
}

// settle judges the actions relayed to the observer in the last flush, once its frames
// are in.
func (a *adversary) settle(now time.Duration) {
	for _, msg := range a.pending {
		a.judge(now, msg)
	}
	clear(a.pending)
	a.pending = a.pending[:0]
}

func (a *adversary) judge(now time.Duration, msg wire.Message) {
	switch x := msg.(type) {
	case *wire.RemoteVehicleSync:
		if s := a.mut(x.Driver); s != nil {
			s.vehicleMoved(now, a.m, x.Vehicle)
		}
	case *wire.RemoteWeaponShot:
		if s := a.mut(x.Shooter); s != nil {
			s.relayed[x.Weapon]++
			s.shot(now, a.m, forgeKey{wire.RefWeaponShot, x.ShotSeq}, x.Origin, x.HitType, x.HitID, wire.NoVehicle)
		}
	case *wire.RemoteVehicleShot:
		if s := a.mut(x.Shooter); s != nil {
			s.shot(now, a.m, forgeKey{wire.RefVehicleShot, x.ShotSeq}, x.Origin, x.HitType, x.HitID, x.Vehicle)
		}
	case *wire.RemoteProjectile:
		if s := a.mut(x.Owner); s != nil {
			s.launch(now, x)
		}
	case *wire.RemoteDetonation:
		if s := a.mut(x.Owner); s != nil {
			s.detonation(now, x)
		}
	}
}

func (a *adversary) mut(id wire.PlayerID) *mutState {
	if int(id) < len(a.m.players) {
		return a.muts[int(id)]
	}
	return nil
}

// relayedFrame takes a copy of a frame the server relayed of the mutator to any connection:
// the first copy of each frame (its life and number) is accepted, the others (the same
// frame to the other recipients) are skipped.
func (s *mutState) relayedFrame(now time.Duration, m *Match, x *wire.RemotePlayerSync) {
	key := uint32(x.DeathEpoch)<<16 | uint32(x.SyncSeq)
	if s.haveFrame && key == s.lastFrame {
		return
	}
	s.haveFrame, s.lastFrame = true, key
	s.accepted(now, m, x)
}

// accepted takes a frame the server relayed of the mutator: a position it accepted, and
// a seat it took.
func (s *mutState) accepted(now time.Duration, m *Match, x *wire.RemotePlayerSync) {
	s.lastRelay = now
	s.path = append(s.path, posAt{at: now, pos: x.Position})
	if len(s.path) > 512 {
		s.path = append(s.path[:0], s.path[len(s.path)-256:]...) // 8 s of frames at least
	}
	if x.Vehicle == wire.NoVehicle || !x.Alive {
		return
	}
	cr := m.world.car(x.Vehicle)
	if cr == nil || cr.wrecked {
		return
	}
	// A seat another player holds (by the arena's truth) that the server gave it.
	holder := cr.passenger
	if x.Seat == 0 {
		holder = cr.driver
	}
	if x.Seat <= 1 && holder >= 0 && holder != s.p.idx && m.players[holder].c.Alive() {
		s.gain(&s.gains.Others, "others:seat", s.seats[uint32(x.Vehicle)<<8|uint32(x.Seat)])
	}
}

// vehicleMoved takes a vehicle frame the server relayed with the mutator as its driver.
func (s *mutState) vehicleMoved(now time.Duration, m *Match, v uint16) {
	cr := m.world.car(v)
	if cr == nil {
		return
	}
	if cr.driver >= 0 && cr.driver != s.p.idx {
		s.gain(&s.gains.Others, "others:vehicle", s.label)
	}
}

// wasAt reports whether q lies within ForgeSlack of a position the server accepted of
// the mutator over the last ForgeLookback.
func (s *mutState) wasAt(now time.Duration, q wire.Vec3) bool {
	return s.within(now, q, ForgeSlack, ForgeLookback)
}

// within reports whether q lies within reach of a position the server accepted of the
// mutator over the last lookback.
func (s *mutState) within(now time.Duration, q wire.Vec3, reach float32, lookback time.Duration) bool {
	for i := len(s.path) - 1; i >= 0; i-- {
		pa := s.path[i]
		if now-pa.at > lookback {
			break
		}
		if dist(pa.pos, q) <= reach {
			return true
		}
	}
	return false
}

// shot takes a shot the server relayed of the mutator: forged when it starts where the
// server never accepted the mutator to be, or comes from a vehicle it does not sit in.
func (s *mutState) shot(now time.Duration, m *Match, k forgeKey, origin wire.Vec3, ht wire.HitType, hid, vehicle uint16) {
	f := s.forged[k]
	label := f.label
	forged := !s.wasAt(now, origin)
	if vehicle != wire.NoVehicle {
		if v, _ := s.p.c.Vehicle(); v != vehicle {
			forged = true
		}
	}
	if forged {
		if label == "" {
			label = "unlabelled"
		}
		s.forged[k] = forgery{label: label, at: now}
	} else {
		delete(s.forged, k)
	}
	switch ht {
	case wire.HitPlayer:
		s.claims[wire.PlayerID(hid)] = forgery{label: label, at: now}
	case wire.HitVehicle:
		s.vclaims[hid] = forgery{label: label, at: now}
	}
}

func (s *mutState) launch(now time.Duration, x *wire.RemoteProjectile) {
	s.launches[x.Projectile] = x.Origin
	if x.Vehicle == wire.NoVehicle {
		s.grenades++
	}
	k := forgeKey{wire.RefKind(0), x.Projectile}
	if !s.wasAt(now, x.Origin) {
		f := s.forged[k]
		if f.label == "" {
			f.label = "unlabelled"
		}
		s.forged[k] = forgery{label: f.label, at: now}
	} else {
		delete(s.forged, k)
	}
}

func (s *mutState) detonation(now time.Duration, x *wire.RemoteDetonation) {
	k := forgeKey{wire.RefDetonation, x.Projectile}
	label := s.forged[k].label
	origin, ok := s.launches[x.Projectile]
	forged := false
	switch {
	case !ok: // a launch healed by its detonation: one more round
		// Its launch is unknown: an honest grenade was thrown from somewhere the mutator
		// stood while its fuse burned (ThrowLookback) and lands within ThrowReach of there.
		s.grenades++
		forged = !s.within(now, x.Position, ThrowReach, ThrowLookback)
	case s.forged[forgeKey{wire.RefKind(0), x.Projectile}].at > 0:
		forged, label = true, s.forged[forgeKey{wire.RefKind(0), x.Projectile}].label
	default:
		forged = dist(origin, x.Position) > ThrowReach
	}
	if forged {
		if label == "" {
			label = "unlabelled"
		}
		s.forged[k] = forgery{label: label, at: now}
	} else {
		delete(s.forged, k)
	}
}

// reported finds the victim's report numbered seq naming attacker in its client's log.
func (a *adversary) reported(victim *player, seq uint16, attacker wire.PlayerID) (wire.Ref, bool) {
	a.log = victim.c.AppendReportLog(a.log[:0])
	for i := len(a.log) - 1; i >= 0; i-- {
		if e := &a.log[i]; e.DamageSeq == seq && e.Attacker == attacker {
			return e.Ref, true
		}
	}
	return wire.Ref{}, false
}

// event takes the server's events: credited damage and deaths of other players from the
// mutator's actions, its vehicle explosions, suspicions raised on honest players.
func (a *adversary) event(e refserver.Event) {
	m := a.m
	switch e.Kind {
	case refserver.EventPlayerDamage:
		s := a.mut(e.Other)
		if s == nil || e.Player == e.Other {
			return
		}
		label := ""
		if v := m.player(e.Player); v != nil {
			if ref, ok := a.reported(v, e.Seq, e.Other); ok {
				if f, ok := s.forged[forgeKey{ref.Kind, ref.Seq}]; ok && f.at >= 0 {
					label = actionName(ref.Kind) + ":" + f.label
				}
			}
		}
		s.lastDmg[e.Player] = label
		if label != "" {
			s.gain(&s.gains.Damage, "damage", label)
		}
	case refserver.EventPlayerDeath:
		if s := a.mut(e.Other); s != nil && e.Player != e.Other {
			if label := s.lastDmg[e.Player]; label != "" {
				s.gain(&s.gains.Kills, "kills", label)
			}
		}
	case refserver.EventVehicleExploded:
		s := a.mut(e.Player)
		if s == nil {
			return
		}
		if at, ok := s.drove[e.Vehicle]; ok && m.sim.Now()-at <= refserver.ContinuousWindow {
			return // it drove that vehicle: its explosion is its own to report
		}
		label := s.forged[forgeKey{wire.RefVehicleExplode, e.Vehicle}].label
		s.gain(&s.gains.Others, "others:explode", label)
		if cr := m.world.car(e.Vehicle); cr != nil {
			for _, idx := range []int{cr.driver, cr.passenger} {
				if idx >= 0 && idx != s.p.idx && m.players[idx].c.Alive() {
					s.gain(&s.gains.Kills, "kills:explode", label)
				}
			}
		}
	case refserver.EventGodModeSuspect:
		if p := m.player(e.Player); p != nil && p.cheat == nil {
			for _, s := range a.sorted() {
				if c, ok := s.claims[e.Player]; ok && m.sim.Now()-c.at <= ClaimWindow {
					s.gain(&s.gains.Others, "others:suspicion", c.label)
				}
			}
		}
	case refserver.EventVehicleGodModeSuspect:
		if p := m.player(e.Player); p != nil && p.cheat == nil {
			for _, s := range a.sorted() {
				if c, ok := s.vclaims[e.Vehicle]; ok && m.sim.Now()-c.at <= ClaimWindow {
					s.gain(&s.gains.Others, "others:vehicle_suspicion", c.label)
				}
			}
		}
	}
}

// sorted returns the mutators in player order (map order is random; the report is not).
func (a *adversary) sorted() []*mutState {
	out := make([]*mutState, 0, len(a.muts))
	for _, s := range a.muts {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].p.idx < out[j].p.idx })
	return out
}

// tick runs every ThinkInterval: the health measure, and the vehicles each mutator really
// drives.
func (a *adversary) tick(now time.Duration) {
	m := a.m
	for _, s := range a.sorted() {
		p := s.p
		for _, cr := range m.world.cars {
			if cr.driver == p.idx {
				s.drove[cr.id] = now
			}
		}
		v, err := m.server.Vitals(p.id)
		gen, gerr := m.server.Generation(p.id)
		ph, perr := m.server.Phase(p.id)
		if err != nil || gerr != nil || perr != nil {
			continue
		}
		ledger := v.Health + v.Armor
		// The ledger rises only by a server command (or a new life).
		if gen == s.ledgerGen && ledger > s.ledger+0.01 && now-p.cheat.excused > RaiseExcuse {
			s.gain(&s.gains.Health, "health:rise", s.vitalLabel)
		}
		s.ledger, s.ledgerGen = ledger, gen
		c := p.c
		above := ph == lifecycle.PhaseAlive && c.Alive() && gen == c.DeathEpoch() && ledger > c.Health()+c.Armor()+1 &&
			now-s.lastRelay <= FramesTaken && now-p.cheat.excused > RaiseExcuse
		switch {
		case !above:
			s.above, s.counted = -1, false
		case s.above < 0:
			s.above = now
		case !s.counted && now-s.above > LedgerExcuse:
			s.counted = true
			s.gain(&s.gains.Health, "health:ledger", s.vitalLabel)
		}
	}
}

// spawned counts the rounds the loadout gave a mutator at its respawn grant (the grant
// clears the store, then gives the loadout).
func (a *adversary) spawned(now time.Duration, p *player) {
	s := a.muts[p.idx]
	if s == nil {
		return
	}
	if slots, err := a.m.server.Weapons(p.id); err == nil {
		for i, sl := range slots {
			if sl.Weapon != 0 {
				s.given[int8(i)] += int(sl.Total)
			}
		}
	}
}

// commanded returns what counts the rounds a gamemode command gave a mutator: call it
// before the command and the returned func after.
func (a *adversary) commanded(p *player) func() {
	s := a.muts[p.idx]
	if s == nil {
		return func() {}
	}
	// By slot: a give into a pooled slot carries the displaced weapon's rounds over, and
	// the shots of either weapon spend the slot's one total.
	before, _ := a.m.server.Weapons(p.id)
	return func() {
		after, err := a.m.server.Weapons(p.id)
		if err != nil {
			return
		}
		for i := range after {
			if after[i].Weapon != 0 && after[i].Total > before[i].Total {
				s.given[int8(i)] += int(after[i].Total - before[i].Total)
			}
		}
	}
}

// finish computes the ammo measure and puts each mutator's and flood's gains in its
// report.
func (a *adversary) finish() {
	cat := a.m.server.Catalog()
	for _, s := range a.sorted() {
		ws := make([]int, 0, len(s.relayed))
		for w := range s.relayed {
			ws = append(ws, int(w))
		}
		sort.Ints(ws)
		// The shots of each slot against the rounds given to it (the slot's weapons share
		// one total); the finding names the slot's weapons that were fired.
		spent := map[int8]int{}
		fired := map[int8]string{}
		for _, w := range ws {
			if w == int(weaponGrenade) {
				continue
			}
			sl := cat.SlotOf(uint8(w))
			spent[sl] += s.relayed[uint8(w)]
			fired[sl] += fmt.Sprintf(" %d", w)
		}
		for sl := int8(0); sl < inventory.NumSlots; sl++ {
			if over := spent[sl] - s.given[sl]; over > 0 {
				s.gains.Ammo += over
				s.findings["ammo:shot:weapon"+fired[sl]] += over
			}
		}
		if over := s.grenades - s.given[cat.SlotOf(weaponGrenade)]; over > 0 {
			s.gains.Ammo += over
			s.findings["ammo:launch:grenades"] += over
		}
		g := s.gains
		s.p.cheat.report.Gains = &g
		s.p.cheat.report.Findings = s.findings
		s.p.cheat.report.Gained += g.Sum()
	}
	a.finishFloods()
}

// actionName names the kind of action a report answers, for the findings.
func actionName(k wire.RefKind) string {
	switch k {
	case wire.RefWeaponShot:
		return "shot"
	case wire.RefVehicleShot:
		return "vshot"
	case wire.RefDetonation:
		return "detonation"
	}
	return k.String()
}
