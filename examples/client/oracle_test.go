package client

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// The oracle test puts the honest client in front of the server's own packages (vitals for
// the ledger, inventory for the weapon store) over a small lossy, jittery network, with a
// test server that does the correlation a reference server does, and checks the records'
// promise for an honest player: it is never wronged. No frame is cut as a god-mode raise,
// no death is counted while the client lives, no shot of it is refused, no report is
// refused for a reason an honest client could cause, the server's ammo count never falls
// below the client's, and when the fighting stops the ledger equals the client's health.

// link is one direction of the test network: datagrams arrive after a base delay plus
// jitter (so they reorder), and some are lost.
type link struct {
	q    []pkt
	n    int
	rng  *rand.Rand
	base time.Duration
	jit  time.Duration
	loss float64
}

type pkt struct {
	at time.Duration
	n  int
	b  []byte
}

func (l *link) put(now time.Duration, b []byte) {
	if l.rng.Float64() < l.loss {
		return
	}
	d := l.base
	if l.jit > 0 {
		d += time.Duration(l.rng.Int64N(int64(l.jit)))
	}
	l.n++
	l.q = append(l.q, pkt{at: now + d, n: l.n, b: append([]byte(nil), b...)})
}

func (l *link) due(now time.Duration) [][]byte {
	slices.SortFunc(l.q, func(a, b pkt) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return a.n - b.n
	})
	var out [][]byte
	i := 0
	for ; i < len(l.q) && l.q[i].at <= now; i++ {
		out = append(out, l.q[i].b)
	}
	l.q = l.q[i:]
	return out
}

// randWorld hits the client with a share of the relayed shots.
type randWorld struct{ rng *rand.Rand }

func (w randWorld) Trace(_ wire.PlayerID, s Shot, _ Pose) (int, uint8) {
	if w.rng.Float64() < 0.6 {
		return 1 + w.rng.IntN(s.Pellets), wire.BodyTorso + uint8(w.rng.IntN(7))
	}
	return 0, 0
}
func (randWorld) VehicleModel(uint16) (uint16, bool) { return 0, false }

type oracle struct {
	t    *testing.T
	rng  *rand.Rand
	now  time.Duration
	c    *Client
	srv  *transport.Endpoint
	up   link // client to server
	down link // server to client
	vit  *vitals.Player
	cat  *inventory.Catalog
	inv  *inventory.Inventory

	gen       uint16
	dead      bool
	diedAt    time.Duration
	requested bool
	framed    bool
	lastFrame uint16

	vitalAcks map[lane.Seq]uint16
	multAcks  map[lane.Seq]uint16
	shotSeq   uint16
	relayed   map[uint16]bool
	fireOn    bool
	fireUntil time.Duration

	frames    map[vitals.FrameVerdict]int
	reports   map[vitals.ReportVerdict]int
	shots     int
	lateShots int
	wronged   []string
	deaths    int
	respawns  int
}

const (
	oracleShooter wire.PlayerID = 3
	oracleCreator wire.PlayerID = 4
	oracleEffect  uint16        = 77
)

func newOracle(t *testing.T, seed uint64, rtt time.Duration, loss float64) *oracle {
	rng := rand.New(rand.NewPCG(seed, 99))
	c, err := New(Config{World: randWorld{rand.New(rand.NewPCG(seed, 7))}, Seed: seed})
	require.NoError(t, err)
	srv, err := transport.New(transport.Server)
	require.NoError(t, err)
	vit, err := vitals.NewPlayer(vitals.Config{})
	require.NoError(t, err)
	cat, err := inventory.NewCatalog(inventory.Config{})
	require.NoError(t, err)
	o := &oracle{
		t: t, rng: rng, c: c, srv: srv, vit: vit, cat: cat, inv: cat.NewInventory(),
		up:        link{rng: rand.New(rand.NewPCG(seed, 1)), base: rtt / 2, jit: 30 * ms, loss: loss},
		down:      link{rng: rand.New(rand.NewPCG(seed, 2)), base: rtt / 2, jit: 30 * ms, loss: loss},
		vitalAcks: map[lane.Seq]uint16{}, multAcks: map[lane.Seq]uint16{}, relayed: map[uint16]bool{},
		frames: map[vitals.FrameVerdict]int{}, reports: map[vitals.ReportVerdict]int{},
		dead: true, // unspawned: the connect spawn is the first grant
	}
	return o
}

func (o *oracle) wrong(format string, args ...any) {
	o.wronged = append(o.wronged, fmt.Sprintf("%v: ", o.now)+fmt.Sprintf(format, args...))
}

func (o *oracle) queue(m wire.Message) lane.Seq {
	seq, err := o.srv.Queue(o.now, m)
	require.NoError(o.t, err)
	return seq
}

// grant starts a new life on the server, as a reference server does on a grant.
func (o *oracle) grant() {
	o.gen++
	o.vit.NewLife(o.now)
	o.inv.RespawnGrant(o.gen)
	o.dead, o.requested, o.framed = false, false, false
	o.queue(&wire.RespawnPlayer{DeathEpoch: o.gen, Position: spawnAt})
	g, err := o.inv.Give(o.now, 31, 200, true) // the spawn loadout, after the grant
	require.NoError(o.t, err)
	o.queue(&wire.GiveWeapon{Rev: g.Rev, Weapon: g.Weapon, Ammo: g.Ammo, SetAsCurrent: g.SetAsCurrent})
	o.respawns++
}

func (o *oracle) effects(e vitals.Effects, what string) {
	for _, r := range e.Reports {
		o.reports[r.Verdict]++
		o.checkReport(r.Verdict, r.Seq)
	}
	if e.GodMode {
		o.wrong("%s flagged god mode (excess %v)", what, e.GodModeExcess)
	}
	if e.Died {
		if o.c.Alive() && o.c.DeathEpoch() == o.gen {
			o.wrong("%s counted the death of a living client (%v, client health %v)", what, e.Death, o.c.Health())
		}
	}
}

func (o *oracle) checkReport(v vitals.ReportVerdict, seq uint16) {
	switch v {
	case vitals.ReportApplied, vitals.ReportAttributionOnly, vitals.ReportHeld, vitals.ReportZeroMultiplier,
		vitals.ReportNotAlive, vitals.ReportPreviousLife:
	case vitals.ReportLate:
		if o.up.loss == 0 {
			o.wrong("report %d late on a lossless link", seq)
		}
	default:
		o.wrong("report %d refused: %v", seq, v)
	}
}

// serve handles one message of the client, as a reference server would.
func (o *oracle) serve(m wire.Message) {
	switch m := m.(type) {
	case *wire.PlayerSync:
		if m.DeathEpoch != o.gen || (o.framed && !revision.Newer(m.Seq, o.lastFrame)) {
			return
		}
		o.framed, o.lastFrame = true, m.Seq
		r, err := o.vit.Frame(o.now, vitals.FrameInput{Seq: m.Seq, DamageSeq: m.DamageSeq, VitalRev: m.VitalRev,
			Health: m.Health, Armor: m.Armor})
		require.NoError(o.t, err)
		o.frames[r.Verdict]++
		if r.Verdict == vitals.FrameRaiseFlagged {
			o.wrong("frame %d cut: shows %v/%v, ledger %v", m.Seq, m.Health, m.Armor, o.vit.Ledger())
		}
		o.effects(r.Effects, "frame")
		o.inv.Frame(o.now, inventory.Frame{WeaponRev: m.WeaponRev, Weapon: m.Weapon, Clip: m.Clip, Total: m.Total,
			FireHeld: m.FireHeld})
	case *wire.DamageReport:
		in := vitals.ReportInput{Seq: m.DamageSeq, VitalRev: m.VitalRev, Weapon: m.Weapon, BodyPart: m.BodyPart,
			Attacker: m.Attacker, Loss: m.Loss, Correlated: true,
			Before: vitals.Vitals{Health: m.HealthBefore, Armor: m.ArmorBefore},
			After:  vitals.Vitals{Health: m.HealthAfter, Armor: m.ArmorAfter}}
		switch {
		case m.Ref.Kind == wire.RefWeaponShot:
			in.Source, in.Correlated = vitals.SourceBullet, o.relayed[m.Ref.Seq]
			d, err := o.cat.Damage(o.cat.Revision(), m.Weapon, inventory.TierPoor)
			require.NoError(o.t, err)
			in.Floor = vitals.BulletFloor(d)
		case m.Ref.Kind == wire.RefEffect && m.Weapon == inventory.CauseFire:
			in.Source = vitals.SourceFire
		case m.Attacker == wire.NoPlayer:
			in.Source, in.Correlated = vitals.SourceEnvironment, false
		case m.Weapon <= 15:
			in.Source = vitals.SourceMelee
		default:
			o.t.Fatalf("unexpected report %v", m)
		}
		r, err := o.vit.Report(o.now, in)
		require.NoError(o.t, err, "%v", m)
		o.reports[r.Verdict]++
		o.checkReport(r.Verdict, m.DamageSeq)
		o.effects(r.Effects, "report")
	case *wire.DeathReport:
		if m.DeathEpoch == o.gen && !o.dead {
			e, err := o.vit.Died(o.now)
			require.NoError(o.t, err)
			o.effects(e, "death")
			o.dead, o.diedAt = true, o.now
			o.deaths++
		}
	case *wire.RespawnRequest:
		o.requested = true
	case *wire.WeaponShot:
		alive := o.vit.Life() == vitals.LifeCounted || o.vit.Life() == vitals.LifeCountedDead
		if m.DeathEpoch != o.gen {
			o.wrong("shot of life %d in life %d", m.DeathEpoch, o.gen)
			return
		}
		r := o.inv.Shot(o.now, alive, inventory.Shot{Weapon: m.Weapon, PropsRev: m.PropertiesRev,
			Origin: inventory.Vec3(m.Origin), End: inventory.Vec3(m.HitPos)})
		o.shots++
		switch {
		case r.Verdict == inventory.Accepted:
		case r.Verdict == inventory.NotAlive && o.dead:
			// Fired in the life's last moments, arriving after the server committed the
			// death: refused by vitals' [mutual-kill] (after a
			// death the server committed, the dead player's shots are refused).
			o.lateShots++
		default:
			o.wrong("shot %d refused: %v (server life %v, dead %v)", m.ShotSeq, r.Verdict, o.vit.Life(), o.dead)
		}
	}
}

// gamemode plays the server's side: commands raced against damage, relayed shots, a fire.
func (o *oracle) gamemode(quiet bool) {
	if o.vit.Life() != vitals.LifeCounted || quiet {
		return
	}
	r := o.rng.Float64()
	var cmd vitals.CommandResult
	var err error
	switch {
	case r < 0.01:
		cmd, err = o.vit.SetHealth(o.now, float32(o.rng.IntN(200)+1))
	case r < 0.02:
		cmd, err = o.vit.AddHealth(o.now, 25, 150)
	case r < 0.025:
		cmd, err = o.vit.SetArmor(o.now, float32(o.rng.IntN(100)))
	case r < 0.03:
		cmd, err = o.vit.AddArmor(o.now, 20, 100)
	case r < 0.032:
		cmd, err = o.vit.SetHealth(o.now, 0)
	case r < 0.034:
		t := vitals.Multipliers{Melee: float32(o.rng.IntN(3)), Fire: 1, Spray: 1, Extinguisher: 1,
			Explosion: 1, Predator: 1}
		mc, err := o.vit.SetMultipliers(o.now, t)
		require.NoError(o.t, err)
		seq := o.queue(&wire.DamageMultipliers{Rev: mc.Rev, Melee: t.Melee, Fire: t.Fire, Spray: t.Spray,
			Extinguisher: t.Extinguisher, Explosion: t.Explosion, PredatorGun: t.Predator})
		o.multAcks[seq] = mc.Rev
		return
	case r < 0.04:
		g, err := o.inv.Give(o.now, 31, 30, false)
		require.NoError(o.t, err)
		o.queue(&wire.GiveWeapon{Rev: g.Rev, Weapon: g.Weapon, Ammo: g.Ammo, SetAsCurrent: g.SetAsCurrent})
		return
	case r < 0.12:
		o.shotSeq++
		o.relayed[o.shotSeq] = true
		require.NoError(o.t, o.srv.Send(&wire.RemoteWeaponShot{Shooter: oracleShooter, ShotSeq: o.shotSeq,
			Weapon: 31, Origin: wire.Vec3{}, HitPos: spawnAt}))
		return
	case r < 0.125 && !o.fireOn:
		o.queue(&wire.CreateFire{Effect: oracleEffect, Creator: oracleCreator, Position: spawnAt, Radius: 3})
		o.fireOn, o.fireUntil = true, o.now+time.Second
		return
	default:
		return
	}
	require.NoError(o.t, err)
	var msg wire.Message
	switch cmd.Command.Kind {
	case vitals.CommandSetHealth:
		msg = &wire.SetHealth{Rev: cmd.Command.Rev, Health: cmd.Command.Value}
	case vitals.CommandSetArmor:
		msg = &wire.SetArmor{Rev: cmd.Command.Rev, Armor: cmd.Command.Value}
	case vitals.CommandAddHealth:
		msg = &wire.GiveHealth{Rev: cmd.Command.Rev, Amount: cmd.Command.Value, Max: cmd.Command.Max}
	case vitals.CommandAddArmor:
		msg = &wire.GiveArmor{Rev: cmd.Command.Rev, Amount: cmd.Command.Value, Max: cmd.Command.Max}
	}
	o.vitalAcks[o.queue(msg)] = cmd.Command.Rev
	if cmd.Died {
		o.effects(vitals.Effects{}, "command")
	}
}

// world plays the bot and its surroundings on the client's side.
func (o *oracle) world(quiet bool) {
	c := o.c
	if quiet {
		return
	}
	r := o.rng.Float64()
	var err error
	switch {
	case r < 0.03:
		_, err = c.MeleeHit(o.now, oracleShooter, uint8(o.rng.IntN(10)))
	case r < 0.04:
		_, err = c.Fall(o.now, float32(o.rng.IntN(15)))
	case r < 0.2:
		_, err = c.Fire(o.now, 31, wire.HitNone, 0, c.Position(), wire.Vec3{X: c.Position().X + 20, Y: c.Position().Y})
	}
	require.NoError(o.t, err)
	if o.fireOn {
		if o.now > o.fireUntil {
			o.fireOn = false
		} else if _, err := c.InFire(o.now, oracleEffect, 0.5); err != nil {
			require.ErrorIs(o.t, err, ErrUnknownEffect) // the CreateFire is still on its way
		}
	}
}

func (o *oracle) step(dt time.Duration, quiet bool) {
	o.now += dt
	for _, d := range o.down.due(o.now) {
		_ = o.c.Receive(o.now, d)
	}
	for _, d := range o.up.due(o.now) {
		_ = o.srv.Receive(o.now, d, o.serve)
	}
	for a, ok := o.srv.PopAcked(); ok; a, ok = o.srv.PopAcked() {
		if rev, ok := o.vitalAcks[a.Seq]; ok {
			require.NoError(o.t, o.vit.Acknowledged(a.At, rev))
		}
		if rev, ok := o.multAcks[a.Seq]; ok {
			require.NoError(o.t, o.vit.MultipliersAcknowledged(a.At, rev))
		}
	}
	o.effects(o.vit.Advance(o.now), "advance")
	o.world(quiet)
	require.NoError(o.t, o.c.Tick(o.now))
	require.NoError(o.t, o.c.Flush(o.now, func(d []byte) { o.up.put(o.now, d) }))
	o.gamemode(quiet)
	if o.dead && o.requested && o.now-o.diedAt >= time.Second {
		o.grant()
	}
	require.NoError(o.t, o.srv.Flush(o.now, func(d []byte) { o.down.put(o.now, d) }))
	// The server's ammo count is never below the client's real one while no weapon command
	// is in flight (inventory's [never-below-client]).
	if o.inv.Rev() == o.c.Revisions().Weapon && o.c.DeathEpoch() == o.gen {
		for _, s := range o.c.Weapons().Slots {
			if s.Weapon == 0 {
				continue
			}
			if stored, ok := o.inv.Ammo(s.Weapon); !ok || stored < s.Total {
				o.wrong("server holds %d (%v) of weapon %d, client %d", stored, ok, s.Weapon, s.Total)
			}
		}
	}
}

func TestHonestClientIsNeverWrongedByTheServerPackages(t *testing.T) {
	for _, tc := range []struct {
		rtt  time.Duration
		loss float64
	}{{0, 0}, {50 * ms, 0}, {200 * ms, 0}, {400 * ms, 0}, {150 * ms, 0.05}, {400 * ms, 0.05}} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("rtt=%v/loss=%v/seed=%d", tc.rtt, tc.loss, seed), func(t *testing.T) {
				o := newOracle(t, seed, tc.rtt, tc.loss)
				// Join: Hello, Welcome, the connect spawn.
				for range 3 {
					o.step(10*ms, true)
				}
				require.NoError(t, o.srv.Send(&wire.Welcome{Player: selfID, PlayerToken: selfToken, Session: o.c.Session()}))
				for o.now < 40*time.Second {
					o.step(10*ms, false)
				}
				for o.now < 46*time.Second {
					o.step(10*ms, true)
				}
				require.Empty(t, o.wronged, "seed %d", seed)
				require.Greater(t, o.shots, 20)
				require.Greater(t, o.frames[vitals.FrameCounted], 200)
				require.Greater(t, o.reports[vitals.ReportApplied], 20)
				// When the fighting stops, both sides agree.
				if o.c.Alive() && o.vit.Life() == vitals.LifeCounted {
					l := o.vit.Ledger()
					require.InDelta(t, o.c.Health(), l.Health, 0.05, "health")
					require.InDelta(t, o.c.Armor(), l.Armor, 0.05, "armor")
				} else {
					require.False(t, o.c.Alive() && o.c.DeathEpoch() == o.gen, "the server holds a living client dead")
				}
				t.Logf("deaths %d respawns %d shots %d (late %d) frames %v reports %v", o.deaths, o.respawns, o.shots, o.lateShots, o.frames, o.reports)
			})
		}
	}
}
