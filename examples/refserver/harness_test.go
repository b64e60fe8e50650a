package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// tclient is a tiny fake client for the tests: an Endpoint, everything it received, and
// the numbers an honest client echoes. It applies only what the tests need: revisions,
// the respawn, pongs.
type tclient struct {
	t         *testing.T
	id        PlayerID
	ep        *transport.Endpoint
	got       []wire.Message
	frameSeq  uint16
	shotSeq   uint16
	dmgSeq    uint16
	vitalRev  uint16
	weaponRev uint16
	gen       uint16
	spawned   bool
	alive     bool
	health    float32
	armor     float32
	pos       wire.Vec3
	vehicle   uint16
	seat      uint8
	weapon    uint8
	clip      uint16
	total     uint16
	// silent makes the client stop acknowledging and answering (its lane is not flushed).
	silent bool
}

type harness struct {
	t   *testing.T
	w   *World
	now time.Duration
	cl  map[PlayerID]*tclient
	ev  []Event
}

func testConfig() Config {
	return Config{MaxPlayers: 16, MaxVehicles: 8, RespawnDelay: time.Second}
}

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	w, err := New(cfg)
	require.NoError(t, err)
	return &harness{t: t, w: w, now: time.Second, cl: map[PlayerID]*tclient{}}
}

// clone copies a decoded message (the Decoder's values are overwritten by the next decode).
func clone(t *testing.T, m wire.Message) wire.Message {
	b, err := m.Append(nil)
	require.NoError(t, err)
	c := wire.New(m.ID())
	require.NoError(t, c.Decode(b))
	return c
}

// join connects a client with Hello through real bytes.
func (h *harness) join(id PlayerID) *tclient {
	h.t.Helper()
	ep, err := transport.New(transport.Client)
	require.NoError(h.t, err)
	c := &tclient{t: h.t, id: id, ep: ep, vehicle: wire.NoVehicle}
	h.cl[id] = c
	b, err := (&wire.Hello{}).Append(nil)
	require.NoError(h.t, err)
	require.NoError(h.t, h.w.Receive(h.now, id, b))
	h.flush()
	return c
}

// flush carries the server's datagrams to the clients and the clients' back, at h.now.
func (h *harness) flush() {
	h.t.Helper()
	require.NoError(h.t, h.w.Flush(h.now, func(conn PlayerID, d []byte) {
		c := h.cl[conn]
		if c == nil || c.silent {
			return
		}
		_ = c.ep.Receive(h.now, d, func(m wire.Message) { c.take(clone(h.t, m)) })
	}))
	for id := uint16(0); id < uint16(h.w.cfg.MaxPlayers); id++ {
		c := h.cl[PlayerID(id)]
		if c == nil || c.silent {
			continue
		}
		require.NoError(h.t, c.ep.Flush(h.now, func(d []byte) { _ = h.w.Receive(h.now, c.id, d) }))
	}
	h.ev = h.w.Events(h.ev)
}

// step advances the clock, ticks and flushes.
func (h *harness) step(d time.Duration) {
	h.t.Helper()
	h.now += d
	require.NoError(h.t, h.w.Tick(h.now))
	h.flush()
}

// take is what the fake client does with a message from the server.
func (c *tclient) take(m wire.Message) {
	c.got = append(c.got, m)
	switch m := m.(type) {
	case *wire.Ping:
		_ = c.ep.Send(&wire.Pong{Seq: m.Seq, Time: m.Time})
	case *wire.RespawnPlayer:
		if !c.spawned || m.DeathEpoch != c.gen {
			c.spawned, c.alive, c.gen = true, true, m.DeathEpoch
			c.health, c.armor, c.pos = 100, 0, m.Position
			c.weapon, c.clip, c.total = 0, 0, 0
		}
	case *wire.SetHealth:
		c.vitalRev = m.Rev
		if c.alive {
			c.health = m.Health
			if m.Health == 0 {
				c.alive = false
			}
		}
	case *wire.SetArmor:
		c.vitalRev = m.Rev
		if c.alive {
			c.armor = m.Armor
		}
	case *wire.GiveHealth:
		c.vitalRev = m.Rev
		if c.alive && c.health < m.Max {
			c.health = min(c.health+m.Amount, m.Max)
		}
	case *wire.GiveArmor:
		c.vitalRev = m.Rev
		if c.alive && c.armor < m.Max {
			c.armor = min(c.armor+m.Amount, m.Max)
		}
	case *wire.GiveWeapon:
		c.weaponRev = m.Rev
		if m.SetAsCurrent {
			c.weapon, c.clip, c.total = m.Weapon, min(m.Ammo, 50), m.Ammo
		}
	case *wire.TakeWeapon:
		c.weaponRev = m.Rev
	case *wire.SetWeaponAmmo:
		c.weaponRev = m.Rev
	case *wire.ClearWeapons:
		c.weaponRev = m.Rev
	case *wire.SetArmedWeapon:
		c.weaponRev = m.Rev
	}
}

// received returns the messages of type T the client got, and forgets everything.
func received[T wire.Message](c *tclient) []T {
	var out []T
	for _, m := range c.got {
		if v, ok := m.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

func (c *tclient) reset() { c.got = c.got[:0] }

// frameMsg is the client's next frame.
func (c *tclient) frameMsg() *wire.PlayerSync {
	c.frameSeq++
	return &wire.PlayerSync{Seq: c.frameSeq, VitalRev: c.vitalRev, DamageSeq: c.dmgSeq, WeaponRev: c.weaponRev,
		DeathEpoch: c.gen, Weapon: c.weapon, Alive: c.alive, Clip: c.clip, Total: c.total,
		Health: c.health, Armor: c.armor, Position: c.pos, Vehicle: c.vehicle, Seat: c.seat}
}

// frame sends the client's next frame through Handle.
func (h *harness) frame(c *tclient) Verdict {
	h.t.Helper()
	return h.w.Handle(h.now, c.id, c.frameMsg())
}

// spawn asks for the connect spawn (or a respawn) and sends the first living frame.
func (h *harness) spawn(c *tclient) {
	h.t.Helper()
	require.Equal(h.t, VerdictAccepted, h.w.Handle(h.now, c.id, &wire.RespawnRequest{DeathEpoch: c.gen}), "respawn request")
	h.flush()
	require.True(h.t, c.alive, "the client revived")
	require.Equal(h.t, VerdictAccepted, h.frame(c))
}

// rtt measures an RTT of d for every client: five pings answered d after they were sent.
func (h *harness) rtt(d time.Duration) {
	h.t.Helper()
	for range 6 {
		require.NoError(h.t, h.w.Tick(h.now))
		require.NoError(h.t, h.w.Flush(h.now, func(conn PlayerID, b []byte) {
			if c := h.cl[conn]; c != nil && !c.silent {
				_ = c.ep.Receive(h.now, b, func(m wire.Message) { c.take(clone(h.t, m)) })
			}
		}))
		h.now += d
		for id := uint16(0); id < uint16(h.w.cfg.MaxPlayers); id++ {
			if c := h.cl[PlayerID(id)]; c != nil && !c.silent {
				require.NoError(h.t, c.ep.Flush(h.now, func(b []byte) { _ = h.w.Receive(h.now, c.id, b) }))
				h.frame(c)
			}
		}
		h.now += rewindPing - d
	}
	h.ev = h.w.Events(h.ev)
}

const rewindPing = 500 * time.Millisecond

// events returns the events of kind k seen so far.
func (h *harness) events(k EventKind) []Event {
	h.ev = h.w.Events(h.ev)
	var out []Event
	for _, e := range h.ev {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func (h *harness) clearEvents() {
	h.ev = h.w.Events(h.ev)
	h.ev = h.ev[:0]
}

// give gives a weapon and lets the client apply it (the client echoes the revision).
func (h *harness) give(c *tclient, weapon uint8, ammo uint16) {
	h.t.Helper()
	require.NoError(h.t, h.w.GiveWeapon(h.now, c.id, weapon, ammo, true))
	h.flush()
	require.Equal(h.t, VerdictAccepted, h.frame(c))
}

// shoot sends a WeaponShot of the client's held weapon from its position to end.
func (h *harness) shoot(c *tclient, end wire.Vec3, ht wire.HitType, hid uint16) Verdict {
	h.t.Helper()
	c.shotSeq++
	return h.w.Handle(h.now, c.id, &wire.WeaponShot{ShotSeq: c.shotSeq, DeathEpoch: c.gen, PropertiesRev: h.w.catalog.Revision(),
		Weapon: c.weapon, HitType: ht, HitID: hid, Origin: c.pos, HitPos: end})
}

// hit makes the victim's client report damage from a source.
func (h *harness) hit(victim *tclient, attacker PlayerID, weapon uint8, ref wire.Ref, loss float32) Verdict {
	h.t.Helper()
	victim.dmgSeq++
	before := wire.Vec3{X: victim.health, Y: victim.armor}
	fromArmor := min(loss, victim.armor)
	victim.armor -= fromArmor
	victim.health = max(victim.health-(loss-fromArmor), 0)
	if victim.health == 0 {
		victim.alive = false
	}
	return h.w.Handle(h.now, victim.id, &wire.DamageReport{DamageSeq: victim.dmgSeq, VitalRev: victim.vitalRev, Attacker: attacker,
		Weapon: weapon, BodyPart: wire.BodyTorso, Ref: ref, HealthBefore: before.X, ArmorBefore: before.Y,
		HealthAfter: victim.health, ArmorAfter: victim.armor, Loss: loss})
}

// lethal makes a's shot hit b and b report it as lethal: the ledger counts the death.
func lethal(t *testing.T, h *harness, a, b *tclient) {
	t.Helper()
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, a.weapon, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 100))
	ph, err := h.w.Phase(b.id)
	require.NoError(t, err)
	require.Equal(t, lifecycle.PhaseDying, ph, "the ledger counted the death")
}

// duel is two spawned players 10 m apart on the X axis, the shooter armed with a weapon.
func duel(t *testing.T, weapon uint8) (*harness, *tclient, *tclient) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	b.pos = wire.Vec3{X: 10}
	require.Equal(t, VerdictAccepted, h.frame(b))
	h.give(a, weapon, 100)
	h.flush()
	a.reset()
	b.reset()
	h.clearEvents()
	return h, a, b
}
