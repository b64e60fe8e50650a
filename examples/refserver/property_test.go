package refserver

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// chaos drives a World with random, partly hostile input from a seeded generator and
// checks the World's invariants after every step.
type chaos struct {
	t       *testing.T
	seed    uint64
	rng     *rand.Rand
	w       *World
	now     time.Duration
	eps     [8]*transport.Endpoint
	seq     [8]uint16
	shot    [8]uint16
	dmg     [8]uint16
	gen     [8]uint16
	health  [8]float32 // the ledger seen after the last step
	raised  [8]bool    // a server command or a grant may have raised it in this step
	deaths  map[string]int
	out     hash64
	events  []Event
	scratch []byte
	// visitAll clears the World's flushDue before each Flush, and sets every connection's
	// busy bit before each Tick: Flush then reads every connection, as before
	// [flush-own-due], and Tick advances every ledger, idle or not, as before the busy bits.
	visitAll bool
}

type hash64 struct{ h uint64 }

func (h *hash64) add(conn PlayerID, b []byte) {
	f := fnv.New64a()
	_, _ = f.Write([]byte{byte(conn), byte(conn >> 8)})
	_, _ = f.Write(b)
	h.h = h.h*31 + f.Sum64()
}

func newChaos(t *testing.T, seed uint64) *chaos {
	w, err := New(Config{MaxPlayers: 8, MaxVehicles: 4, RespawnDelay: 500 * time.Millisecond})
	require.NoError(t, err)
	c := &chaos{t: t, seed: seed, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), w: w, now: time.Second, deaths: map[string]int{}}
	_ = w.CreateTeam(1, teams.Team{Name: "one"})
	_ = w.CreateTeam(2, teams.Team{Name: "two", FriendlyFire: true})
	for v := uint16(0); v < 2; v++ {
		_ = w.CreateVehicle(c.now, v, 411+v, wire.Vec3{X: float32(v) * 10}, wire.Quat{W: 1})
	}
	return c
}

func (c *chaos) player() PlayerID { return PlayerID(c.rng.IntN(8)) }

func (c *chaos) pos() wire.Vec3 {
	return wire.Vec3{X: float32(c.rng.IntN(40)) - 20, Y: float32(c.rng.IntN(40)) - 20, Z: float32(c.rng.IntN(3))}
}

func (c *chaos) vital() float32 {
	switch c.rng.IntN(6) {
	case 0:
		return 0
	case 1:
		return 200
	}
	return float32(c.rng.IntN(2000)) / 10
}

// send delivers m from connection id as bytes, on the stream its delivery says.
func (c *chaos) send(id PlayerID, m wire.Message) {
	ep := c.eps[id]
	if ep == nil || c.rng.IntN(10) == 0 {
		b, err := m.Append(c.scratch[:0])
		if err != nil {
			return
		}
		c.scratch = b
		_ = c.w.Receive(c.now, id, b)
		return
	}
	if m.ID().Delivery() == wire.Reliable {
		if _, err := ep.Queue(c.now, m); err != nil {
			return
		}
	} else if ep.Send(m) != nil {
		return
	}
	_ = ep.Flush(c.now, func(d []byte) { _ = c.w.Receive(c.now, id, d) })
}

func (c *chaos) step() {
	c.raised = [8]bool{}
	id := c.player()
	other := c.player()
	switch r := c.rng.IntN(100); {
	case r < 4: // join
		if c.eps[id] == nil {
			ep, err := transport.New(transport.Client)
			require.NoError(c.t, err)
			c.eps[id] = ep
		}
		c.send(id, &wire.Hello{})
		c.raised[id] = true
	case r < 6: // leave
		c.send(id, &wire.Disconnect{Reason: wire.ReasonQuit})
		c.eps[id] = nil
	case r < 30: // a frame
		c.seq[id]++
		if c.rng.IntN(20) == 0 {
			c.seq[id] -= uint16(c.rng.IntN(5))
		}
		veh := wire.NoVehicle
		if c.rng.IntN(5) == 0 {
			veh = uint16(c.rng.IntN(3))
		}
		seat := uint8(0)
		if veh != wire.NoVehicle {
			seat = uint8(c.rng.IntN(2))
		}
		c.send(id, &wire.PlayerSync{Seq: c.seq[id], VitalRev: uint16(c.rng.IntN(4)), DamageSeq: c.dmg[id], WeaponRev: uint16(c.rng.IntN(4)),
			DeathEpoch: c.gen[id], Weapon: uint8(c.rng.IntN(40)), Alive: c.rng.IntN(4) != 0, FireHeld: c.rng.IntN(5) == 0,
			Seat: seat, Health: c.vital(), Armor: c.vital(), Position: c.pos(), Vehicle: veh, Clip: 5, Total: uint16(c.rng.IntN(100))})
	case r < 42: // a shot
		c.shot[id]++
		ht, hid := wire.HitNone, uint16(0)
		if c.rng.IntN(2) == 0 {
			ht, hid = wire.HitPlayer, uint16(other)
		}
		c.send(id, &wire.WeaponShot{ShotSeq: c.shot[id], DeathEpoch: c.gen[id], PropertiesRev: uint16(c.rng.IntN(2)),
			Weapon: uint8(22 + c.rng.IntN(13)), HitType: ht, HitID: hid, Origin: c.pos(), HitPos: c.pos()})
	case r < 58: // a damage report
		c.dmg[id]++
		if c.rng.IntN(20) == 0 {
			c.dmg[id] += uint16(c.rng.IntN(100))
		}
		ref := wire.Ref{}
		att := other
		switch c.rng.IntN(4) {
		case 0:
			ref = wire.Ref{Kind: wire.RefWeaponShot, Seq: c.shot[other] - uint16(c.rng.IntN(3))}
		case 1:
			ref = wire.Ref{Kind: wire.RefKind(1 + c.rng.IntN(5)), Seq: uint16(c.rng.IntN(4))}
		case 2:
			att = wire.NoPlayer
		}
		if att == wire.NoPlayer && (ref.Kind == wire.RefWeaponShot || ref.Kind == wire.RefVehicleShot || ref.Kind == wire.RefDetonation) {
			att = other
		}
		hb, ab := c.vital(), c.vital()
		c.send(id, &wire.DamageReport{DamageSeq: c.dmg[id], VitalRev: uint16(c.rng.IntN(4)), Attacker: att,
			Weapon: uint8(c.rng.IntN(56)), BodyPart: uint8(c.rng.IntN(11)), Ref: ref, HealthBefore: hb, ArmorBefore: ab,
			HealthAfter: hb / 2, ArmorAfter: ab / 2, Loss: (hb + ab) / 2})
	case r < 63:
		c.send(id, &wire.DeathReport{DeathEpoch: c.gen[id], Killer: other, Weapon: uint8(c.rng.IntN(60)), Pose: uint8(c.rng.IntN(30))})
	case r < 70:
		c.send(id, &wire.RespawnRequest{DeathEpoch: c.gen[id]})
		if g, err := c.w.Generation(id); err == nil {
			c.gen[id] = g
		}
		c.raised[id] = true
	case r < 72:
		c.send(id, &wire.StealthKill{Victim: other, VictimEpoch: c.gen[other], DeathEpoch: c.gen[id], Weapon: 4})
	case r < 74:
		c.send(id, &wire.VehicleExplode{Vehicle: uint16(c.rng.IntN(3)), Attacker: other, Weapon: 51})
	case r < 76:
		c.send(id, &wire.ProjectileLaunch{Projectile: c.shot[id], DeathEpoch: c.gen[id], Weapon: 16, Vehicle: wire.NoVehicle,
			Target: wire.NoVehicle, Origin: c.pos()})
		c.send(id, &wire.Detonation{Projectile: c.shot[id], DeathEpoch: c.gen[id], Weapon: 16, Position: c.pos()})
	case r < 84: // a gamemode command
		c.raised[id] = true
		switch c.rng.IntN(10) {
		case 0:
			_ = c.w.SetHealth(c.now, id, c.vital())
		case 1:
			_ = c.w.AddHealth(c.now, id, c.vital(), c.vital())
		case 2:
			_ = c.w.SetArmor(c.now, id, c.vital())
		case 3:
			_ = c.w.GiveWeapon(c.now, id, uint8(c.rng.IntN(47)), uint16(c.rng.IntN(500)), c.rng.IntN(2) == 0)
		case 4:
			_ = c.w.JoinTeam(id, teams.TeamID(1+c.rng.IntN(2)))
		case 5:
			_ = c.w.SetFriendlyFire(1, c.rng.IntN(2) == 0)
		case 6:
			_ = c.w.SetDamageMultipliers(c.now, vitals.Multipliers{Melee: float32(c.rng.IntN(3)), Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, Predator: 1})
		case 7:
			_, _ = c.w.CreateExplosion(c.now, other, 0, c.pos(), 5)
		case 8:
			_ = c.w.TakeWeapon(c.now, id, uint8(22+c.rng.IntN(10)))
		case 9:
			_ = c.w.SetWeaponProperties(c.now, uint8(22+c.rng.IntN(13)), [3]float32{10, 20, 30}, 50)
		}
	case r < 90: // hostile bytes
		n := c.rng.IntN(80)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(c.rng.Uint32())
		}
		if n > 1 && c.rng.IntN(2) == 0 {
			b[0] = wire.Version
		}
		_ = c.w.Receive(c.now, PlayerID(c.rng.IntN(10)), b)
	default: // time passes
		c.now += time.Duration(c.rng.IntN(300)) * time.Millisecond
		if c.visitAll {
			for _, id := range c.w.conns { // Tick advances every ledger, busy or idle
				c.w.busy[id/64] |= 1 << (id % 64)
			}
		}
		require.NoError(c.t, c.w.Tick(c.now))
		c.raised = [8]bool{true, true, true, true, true, true, true, true} // a due grant
	}
	if c.rng.IntN(4) == 0 {
		if c.visitAll {
			clear(c.w.flushDue)
		}
		require.NoError(c.t, c.w.Flush(c.now, func(conn PlayerID, d []byte) {
			c.out.add(conn, d)
			if ep := c.eps[conn]; ep != nil {
				_ = ep.Receive(c.now, d, func(m wire.Message) {
					if p, ok := m.(*wire.Ping); ok && c.rng.IntN(2) == 0 {
						_ = ep.Send(&wire.Pong{Seq: p.Seq, Time: p.Time})
					}
				})
			}
		}))
	}
	c.check()
}

// check asserts the World's invariants.
func (c *chaos) check() {
	c.events = c.w.Events(c.events[:0])
	for _, e := range c.events {
		switch e.Kind {
		case EventPlayerDeath:
			key := fmt.Sprintf("%d/%d/%d", e.Player, c.tokenAt(e), e.Gen)
			c.deaths[key]++
			require.Equal(c.t, 1, c.deaths[key], "seed %d: a death committed twice: %v", c.seed, e)
			require.NotEqual(c.t, e.Player, e.Other, "seed %d: a suicide names no killer", c.seed)
			if e.Other != NoPlayer {
				require.False(c.t, c.w.teams.Teammates(e.Player, e.Other),
					"seed %d: a teammate named killer: %v", c.seed, e)
			}
		case EventRespawnGranted, EventPlayerJoin:
			c.raised[e.Player] = true
		}
	}
	for id := uint16(0); id < 8; id++ {
		v, err := c.w.Vitals(PlayerID(id))
		if err != nil {
			c.health[id] = 0
			continue
		}
		require.True(c.t, v.Health >= 0 && v.Health <= 200 && v.Armor >= 0 && v.Armor <= 200, "seed %d: ledger %v", c.seed, v)
		if !c.raised[id] {
			require.LessOrEqual(c.t, v.Health, c.health[id], "seed %d: player %d's ledger rose without a server command", c.seed, id)
		}
		c.health[id] = v.Health
	}
	require.LessOrEqual(c.t, len(c.w.events), MaxPendingEvents)
	checkLive(c.t, c.w, "seed %d", c.seed)
	if !c.visitAll {
		checkFlushDue(c.t, c.w, "seed %d", c.seed)
		checkBusy(c.t, c.w, "seed %d", c.seed)
	}
}

func (c *chaos) tokenAt(e Event) uint32 {
	tok, _ := c.w.Token(e.Player)
	return tok
}

func TestWorldInvariantsHoldUnderRandomHostileInput(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		c := newChaos(t, seed)
		for range 3000 {
			c.step()
		}
	}
}

func TestWorldIsDeterministic(t *testing.T) {
	run := func() (uint64, string) {
		c := newChaos(t, 42)
		var all []string
		for range 3000 {
			c.step()
			for _, e := range c.events {
				all = append(all, e.String())
			}
		}
		return c.out.h, strings.Join(all, "\n")
	}
	h1, e1 := run()
	h2, e2 := run()
	require.Equal(t, h1, h2, "the same input gives the same datagrams")
	require.Equal(t, e1, e2, "and the same events")
	require.NotEmpty(t, e1)
}

// FuzzReceive feeds arbitrary datagrams to a World with joined players: nothing panics,
// the ledger stays within 0..200, the event queue within its cap.
func FuzzReceive(f *testing.F) {
	for _, m := range []wire.Message{
		&wire.Hello{},
		&wire.PlayerSync{Seq: 1, Health: 100, Alive: true, Vehicle: wire.NoVehicle},
		&wire.WeaponShot{ShotSeq: 1, Weapon: 24, HitPos: wire.Vec3{X: 5}},
		&wire.DamageReport{DamageSeq: 1, Attacker: 1, Weapon: 24, BodyPart: 3, Ref: wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, HealthBefore: 100, HealthAfter: 50, Loss: 50},
		&wire.RespawnRequest{},
		&wire.DeathReport{Killer: wire.NoPlayer},
	} {
		b, err := m.Append(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(0), b)
	}
	f.Fuzz(func(t *testing.T, conn uint8, data []byte) {
		w, err := New(Config{MaxPlayers: 4, MaxVehicles: 2})
		if err != nil {
			t.Fatal(err)
		}
		now := time.Second
		for id := uint16(0); id < 3; id++ {
			w.Handle(now, PlayerID(id), &wire.Hello{})
			w.Handle(now, PlayerID(id), &wire.RespawnRequest{})
			g, _ := w.Generation(PlayerID(id))
			w.Handle(now, PlayerID(id), &wire.PlayerSync{Seq: 1, DeathEpoch: g, Alive: true, Health: 100, Vehicle: wire.NoVehicle})
		}
		_ = w.GiveWeapon(now, 1, 24, 50, true)
		// Split the input into datagrams at every 0xFF byte.
		for len(data) > 0 {
			n := 0
			for n < len(data) && data[n] != 0xFF {
				n++
			}
			_ = w.Receive(now, PlayerID(conn%5), data[:n])
			if n < len(data) {
				n++
			}
			data = data[n:]
			now += 10 * time.Millisecond
			_ = w.Tick(now)
		}
		_ = w.Flush(now, func(PlayerID, []byte) {})
		for id := uint16(0); id < 4; id++ {
			if v, err := w.Vitals(PlayerID(id)); err == nil && (v.Health < 0 || v.Health > 200) {
				t.Fatalf("ledger %v", v)
			}
		}
		if len(w.events) > MaxPendingEvents {
			t.Fatal("events above the cap")
		}
	})
}
