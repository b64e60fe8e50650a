package client

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// A script is a byte string read as a sequence of events: the server's messages (commands,
// relays, edges), the world's damage and the bot's actions, and the passing of time. The
// property test runs random scripts and the fuzz target arbitrary ones; after every event
// the honest client's invariants must hold, and the server's inventory, fed the same
// commands, must accept every shot the client sends.

type scriptRun struct {
	h        *harness
	r        []byte
	inv      *inventory.Inventory
	gen      uint16
	vitalRev uint16
	multRev  uint16
	shotSeq  uint16
	effect   uint16
	checked  int // messages of h.got already checked
	lastSeq  uint16
	lastAt   time.Duration
	framed   bool
	reports  uint16
	lastDmg  uint16
	seen     map[uint16]bool
	frameDmg uint16
	frameRev uint16
	mustDie  bool // the last message checked was a lethal report: the next on the lane is the DeathReport
	shotLast [inventory.NumWeapons]time.Duration
	shotSeen [inventory.NumWeapons]bool
}

func (s *scriptRun) byte() byte {
	if len(s.r) == 0 {
		return 0
	}
	b := s.r[0]
	s.r = s.r[1:]
	return b
}

func (s *scriptRun) u16() uint16 { return uint16(s.byte()) | uint16(s.byte())<<8 }

func (s *scriptRun) f32(limit float32) float32 {
	b := s.byte()
	switch b {
	case 255:
		return float32(math.NaN())
	case 254:
		return float32(math.Inf(1))
	case 253:
		return -1
	}
	return float32(b) / 252 * limit
}

func (s *scriptRun) vec() wire.Vec3 {
	return wire.Vec3{X: spawnAt.X + float32(int8(s.byte()))/8, Y: spawnAt.Y + float32(int8(s.byte()))/8, Z: spawnAt.Z}
}

var scriptWeapons = []uint8{0, 1, 4, 16, 18, 22, 24, 25, 27, 28, 31, 33, 34, 35, 37, 38, 41, 42}

func (s *scriptRun) weapon() uint8 {
	b := s.byte()
	if b >= 250 {
		return b // no weapon of the catalogue
	}
	return scriptWeapons[int(b)%len(scriptWeapons)]
}

// send delivers a server message; weapon commands go through the server's inventory first.
// A reliable message the server's lane has no room for is not sent: the reference server
// checks CanQueue and refuses the verb instead (the fuzzer found a script of effects that
// outran the client's acknowledgements to the lane's soft cap).
func (s *scriptRun) send(m wire.Message) {
	if m.ID().Delivery() != wire.Unreliable && s.h.srv.CanQueue(m) != nil {
		return
	}
	s.h.send(m)
}

func runScript(t testing.TB, data []byte) {
	h := newHarness(t, Config{Seed: 1})
	cat, err := inventory.NewCatalog(inventory.Config{})
	require.NoError(t, err)
	s := &scriptRun{h: h, r: data, inv: cat.NewInventory(), seen: map[uint16]bool{}}
	h.step()
	h.send(&wire.Welcome{Player: selfID, PlayerToken: selfToken, Session: h.c.Session()})
	s.grant()
	for len(s.r) > 0 {
		s.event()
		s.check()
	}
	// Let every timer run out, then check once more.
	for end := h.now + 5*time.Second; h.now < end; {
		h.at(h.now + 30*ms)
		h.step()
		s.check()
	}
	require.Equal(t, c16(len(s.seen)), s.reports, "every report arrived, numbered 1..n")
	require.Equal(t, h.c.Revisions().DamageSeq, s.reports)
}

func (s *scriptRun) grant() {
	s.gen++
	s.inv.RespawnGrant(s.gen)
	s.send(&wire.RespawnPlayer{DeathEpoch: s.gen, Position: spawnAt})
}

func (s *scriptRun) event() {
	h, c := s.h, s.h.c
	op := s.byte() % 26
	switch op {
	case 0, 1, 2:
		h.at(h.now + time.Duration(s.byte()%34)*ms)
		h.step()
	case 3:
		s.vitalRev++
		s.send(&wire.SetHealth{Rev: s.vitalRev, Health: clampVital(float32(s.byte()))})
	case 4:
		s.vitalRev++
		s.send(&wire.GiveHealth{Rev: s.vitalRev, Amount: 1 + float32(s.byte()%199), Max: 1 + float32(s.byte()%199)})
	case 5:
		s.vitalRev++
		if s.byte()%2 == 0 {
			s.send(&wire.SetArmor{Rev: s.vitalRev, Armor: clampVital(float32(s.byte()))})
		} else {
			s.send(&wire.GiveArmor{Rev: s.vitalRev, Amount: 1 + float32(s.byte()%199), Max: 1 + float32(s.byte()%199)})
		}
	case 6:
		if g, err := s.inv.Give(h.now, s.weapon(), s.u16(), s.byte()%2 == 0); err == nil {
			s.send(&wire.GiveWeapon{Rev: g.Rev, Weapon: g.Weapon, Ammo: g.Ammo, SetAsCurrent: g.SetAsCurrent})
		}
	case 7:
		w := s.weapon()
		switch s.byte() % 4 {
		case 0:
			if m, err := s.inv.Take(h.now, w); err == nil {
				s.send(&wire.TakeWeapon{Rev: m.Rev, Weapon: m.Weapon})
			}
		case 1:
			if m, err := s.inv.SetAmmo(h.now, w, uint16(s.byte()), inventory.ClipNotSet); err == nil {
				s.send(&wire.SetWeaponAmmo{Rev: m.Rev, Weapon: m.Weapon, Total: m.Total, Clip: m.Clip})
			}
		case 2:
			if m, err := s.inv.SetArmed(h.now, w); err == nil {
				s.send(&wire.SetArmedWeapon{Rev: m.Rev, Weapon: m.Weapon})
			}
		case 3:
			m := s.inv.Clear(h.now)
			s.send(&wire.ClearWeapons{Rev: m.Rev})
		}
	case 8:
		s.multRev++
		mult := func() float32 { return float32(s.byte()%5) / 2 }
		s.send(&wire.DamageMultipliers{Rev: s.multRev, Melee: mult(), Fire: mult(), Spray: mult(),
			Extinguisher: mult(), Explosion: mult(), PredatorGun: mult()})
	case 9:
		h.world.pellets = int(s.byte() % 4)
		h.world.bodyPart = s.byte() % 12
		s.shotSeq++
		shooter := wire.PlayerID(s.byte() % 6)
		st := wire.Stamp{Teammate: s.byte()%3 == 0, Rev: uint16(s.byte())}
		m := shotAt(shooter, s.shotSeq, s.weapon(), st)
		if s.byte()%2 == 0 {
			m.Rewind = wire.Rewind{Valid: true, Position: s.vec()}
		}
		s.send(m)
	case 10:
		_, _ = c.MeleeHit(h.now, wire.PlayerID(s.byte()%6), s.weapon())
	case 11:
		switch s.byte() % 4 {
		case 0:
			_, _ = c.Fall(h.now, s.f32(60))
		case 1:
			_, _ = c.Drown(h.now, s.f32(10))
		case 2:
			_, _ = c.Burn(h.now, s.f32(10))
		case 3:
			_, _ = c.Rammed(h.now, wire.PlayerID(s.byte()%6), s.f32(80))
		}
	case 12:
		if s.byte()%2 == 0 {
			s.effect++
			s.send(&wire.CreateFire{Effect: s.effect, Creator: wire.PlayerID(s.byte() % 6), Position: s.vec(), Radius: 3})
		}
		_, _ = c.InFire(h.now, s.effect, s.f32(5))
	case 13:
		s.effect++
		s.send(&wire.CreateExplosion{Effect: s.effect, Creator: wire.PlayerID(s.byte() % 6), Position: s.vec(),
			Radius: 1 + float32(s.byte()%20)})
	case 14:
		s.send(&wire.RemoteDetonation{Owner: wire.PlayerID(s.byte() % 8), Projectile: s.u16(), Weapon: s.weapon(), Position: s.vec()})
	case 15:
		s.send(&wire.RemotePlayerSync{Player: wire.PlayerID(s.byte() % 6), SyncSeq: s.u16(), DeathEpoch: uint16(s.byte() % 3),
			Alive: true, Health: 50, Position: s.vec(), Vehicle: wire.NoVehicle,
			Stamp: wire.Stamp{Teammate: s.byte()%2 == 0, Rev: uint16(s.byte())}})
	case 16:
		_, _ = c.Fire(h.now, s.weapon(), wire.HitNone, 0, c.Position(), s.vec())
	case 17:
		_, _ = c.Throw(h.now, s.weapon(), c.Position(), wire.Vec3{X: 3}, s.vec(), time.Duration(s.byte())*20*ms)
	case 18:
		_, _ = c.HoldFire(h.now, s.byte()%2 == 0)
	case 19:
		_, _ = c.Arm(h.now, s.weapon())
	case 20:
		switch s.byte() % 3 {
		case 0:
			_ = c.EnterVehicle(h.now, uint16(s.byte()%4), s.byte()%3, VehiclePose{Position: s.vec(), Rotation: unit}, s.f32(2000))
		case 1:
			_ = c.LeaveVehicle(h.now)
		case 2:
			_, _ = c.VehicleHit(h.now, wire.PlayerID(s.byte()%6), s.weapon(), s.f32(800))
		}
	case 21:
		author := wire.PlayerID(s.byte() % 7)
		if author == 6 {
			author = wire.NoPlayer
		}
		st := wire.Stamp{Teammate: author != wire.NoPlayer && s.byte()%2 == 0, Rev: uint16(s.byte())}
		s.send(&wire.RemoteVehicleExplode{Vehicle: uint16(s.byte() % 4), Author: author, Weapon: 51, Stamp: st})
	case 22:
		s.send(&wire.RemoteStealthKill{Attacker: 3, Victim: selfID, VictimEpoch: c.DeathEpoch(), Weapon: 4})
	case 23:
		if s.byte()%3 == 0 {
			s.grant()
		} else {
			s.send(&wire.RespawnPlayer{DeathEpoch: s.gen, Position: wire.Vec3{X: 1}}) // a repeated grant
		}
	case 24:
		s.send(&wire.Ping{Seq: s.u16(), Time: binary.LittleEndian.Uint32([]byte{s.byte(), s.byte(), 0, 0})})
	case 25:
		_ = c.Move(h.now, s.vec(), wire.Vec3{X: s.f32(400) - 200}, s.f32(7))
	}
}

// check asserts the invariants of the honest client on its state and on every message the
// server received since the last check.
func (s *scriptRun) check() {
	h, c := s.h, s.h.c
	t := h.t
	hp, ar := c.Health(), c.Armor()
	require.True(t, hp >= 0 && hp <= wire.MaxVital, "health %v", hp)
	require.True(t, ar >= 0 && ar <= wire.MaxVital, "armor %v", ar)
	if c.Alive() {
		require.True(t, c.Spawned())
		require.Greater(t, hp, float32(0), "alive at zero")
	} else if c.Spawned() {
		require.Equal(t, float32(0), hp, "dead with health")
	}
	if c.FireHeld() {
		require.Equal(t, inventory.KindContinuous, c.table[c.Weapons().Held].Kind)
	}
	// The counts that let Tick skip the scans of its fuses and sums match the slots.
	armed, open := 0, 0
	for _, f := range c.fuses {
		if f.armed {
			armed++
		}
	}
	for _, o := range c.sums {
		if o.open {
			open++
		}
	}
	require.Equal(t, armed, c.armedFuses, "armed fuses")
	require.Equal(t, open, c.openSums, "open sums")
	for i := s.checked; i < len(h.got); i++ {
		onLane := h.lane[i]
		m := h.got[i]
		if _, boom := m.(*wire.VehicleExplode); s.mustDie && onLane && !boom { // a car's own report may come between
			require.IsType(t, &wire.DeathReport{}, m, "the lethal report is followed on the lane by the DeathReport")
			s.mustDie = false
		}
		switch m := m.(type) {
		case *wire.PlayerSync:
			if s.framed {
				require.Equal(t, revision.Next(s.lastSeq), m.Seq)
				require.LessOrEqual(t, h.now-s.lastAt, transport.MaxFrameGap+34*ms)
			}
			s.framed, s.lastSeq, s.lastAt = true, m.Seq, h.now
			// The frame echoes the last health command taken when it was built (the first
			// frame of a life is built at the revival, amid the lane's messages).
			require.LessOrEqual(t, m.VitalRev, s.vitalRev, "every frame echoes the last health command taken")
			require.GreaterOrEqual(t, m.VitalRev, s.frameRev)
			s.frameRev = m.VitalRev
			// The frame echoes the last report created before it: every report received
			// before it, and possibly a lethal one that rides the lane behind it.
			require.GreaterOrEqual(t, m.DamageSeq, s.lastDmg, "every frame echoes the last report created")
			require.GreaterOrEqual(t, m.DamageSeq, s.frameDmg)
			require.LessOrEqual(t, m.DamageSeq, c.Revisions().DamageSeq)
			s.frameDmg = m.DamageSeq
			require.True(t, m.Health >= 0 && m.Health <= wire.MaxVital)
		case *wire.DamageReport:
			// Numbered from 1 without gaps or repeats (a lethal report on the lane may
			// arrive behind an unreliable one created after the revival).
			require.False(t, s.seen[m.DamageSeq], "report %d twice", m.DamageSeq)
			s.seen[m.DamageSeq] = true
			for s.seen[s.reports+1] {
				s.reports++
			}
			s.lastDmg = max(s.lastDmg, m.DamageSeq)
			require.LessOrEqual(t, m.HealthAfter, m.HealthBefore)
			require.LessOrEqual(t, m.ArmorAfter, m.ArmorBefore)
			require.InDelta(t, m.Loss, (m.HealthBefore-m.HealthAfter)+(m.ArmorBefore-m.ArmorAfter), 1e-3)
			require.NotZero(t, m.Loss, "an honest report claims a loss: %v", m)
			require.True(t, wireBodyPart(m.BodyPart), "body part %d", m.BodyPart)
			if m.HealthAfter == 0 {
				require.True(t, onLane, "the lethal report travels on the lane")
				s.mustDie = true
			} else {
				require.False(t, onLane)
			}
		case *wire.WeaponShot:
			require.Equal(t, c.DeathEpoch(), m.DeathEpoch)
			r := s.inv.Shot(h.now, true, inventory.Shot{Weapon: m.Weapon, PropsRev: m.PropertiesRev,
				Origin: inventory.Vec3(m.Origin), End: inventory.Vec3(m.HitPos)})
			require.Equal(t, inventory.Accepted, r.Verdict, "the server's inventory refused an honest shot %v", m)
			if s.shotSeen[m.Weapon] {
				require.GreaterOrEqual(t, h.now-s.shotLast[m.Weapon], c.table[m.Weapon].MinInterval)
			}
			s.shotSeen[m.Weapon], s.shotLast[m.Weapon] = true, h.now
		case *wire.ProjectileLaunch:
			r := s.inv.Projectile(h.now, true, m.Weapon)
			require.Equal(t, inventory.Accepted, r.Verdict, "%v", m)
		}
	}
	s.checked = len(h.got)
}

func TestHonestClientInvariantsOverRandomScripts(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		data := make([]byte, 3000)
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		ok := t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) { runScript(t, data) })
		if !ok {
			t.Fatalf("seed %d failed", seed)
		}
	}
}

func FuzzClientScript(f *testing.F) {
	f.Add([]byte{0, 10, 6, 10, 100, 0, 1, 16, 10, 0, 20, 9, 1, 3, 1, 2, 3, 10})
	f.Add([]byte{3, 0, 0, 30, 23, 0, 6, 6, 50, 0, 1, 16, 6, 5})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			data = data[:4096]
		}
		runScript(t, data)
	})
}

func c16(n int) uint16 { return uint16(n) }
