package match

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/internal/sim"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// scenario is a manual match: the test moves the players, pulls their triggers and
// decides the fate of chosen datagrams, over the same simulated network, clients and
// reference server as the full match. Every aimed ray hits.
type scenario struct {
	t      *testing.T
	m      *Match
	events []refserver.Event
	// filter decides the fate of each datagram (id is the message id, or the lane's
	// transport id for a lane datagram).
	filter func(from, to sim.NodeID, id wire.ID, d []byte) sim.Fate
}

const ms = time.Millisecond

func newScenario(t *testing.T, cfg Config) *scenario {
	t.Helper()
	cfg.Manual = true
	if cfg.Players == 0 {
		cfg.Players = 2
	}
	if cfg.RTTMin == 0 && cfg.RTTMax == 0 {
		cfg.RTTMin, cfg.RTTMax = 100*ms, 100*ms
	}
	if cfg.Jitter == 0 {
		cfg.Jitter = NoJitter
	}
	if cfg.Loss == 0 {
		cfg.Loss = NoLoss
	}
	if cfg.Vehicles == 0 {
		cfg.Vehicles = 1
	}
	if cfg.Seed == 0 {
		cfg.Seed = 7
	}
	m, err := New(cfg)
	require.NoError(t, err)
	s := &scenario{t: t, m: m}
	m.OnEvent = func(e refserver.Event) { s.events = append(s.events, e) }
	m.net.SetFilter(func(from, to sim.NodeID, d []byte) sim.Fate {
		if s.filter == nil {
			return sim.Fate{}
		}
		// A bundle's fate is the first fate its elements ask for: holding one message of
		// it holds the datagram that carries it.
		for e := range wire.Elements(d) {
			id, _ := wire.Peek(e)
			if f := s.filter(from, to, id, e); f != (sim.Fate{}) {
				return f
			}
		}
		return sim.Fate{}
	})
	require.NoError(t, m.Start())
	m.RunUntil(3 * time.Second)
	for i := range cfg.Players {
		require.True(t, m.Client(i).Alive(), "player %d spawned", i)
		ph, err := m.server.Phase(refserver.PlayerID(i))
		require.NoError(t, err)
		require.Equal(t, lifecycle.PhaseAlive, ph, "player %d counted", i)
	}
	for i := range cfg.Players {
		s.place(i, wire.Vec3{X: float32(20 * i), Y: 0, Z: Ground})
	}
	return s
}

func (s *scenario) now() time.Duration { return s.m.Now() }

func (s *scenario) run(d time.Duration) { s.m.RunUntil(s.m.Now() + d) }

func (s *scenario) client(i int) *client.Client { return s.m.Client(i) }

// place puts player i at pos and lets its frames reach everyone.
func (s *scenario) place(i int, pos wire.Vec3) {
	s.t.Helper()
	require.NoError(s.t, s.client(i).Move(s.now(), pos, wire.Vec3{}, 0))
	s.run(600 * ms)
}

// shoot makes player i fire weapon at where its client shows player j, and returns the
// shot's number.
func (s *scenario) shoot(i, j int, weapon uint8) uint16 {
	s.t.Helper()
	c := s.client(i)
	r, ok := c.Remote(wire.PlayerID(j))
	require.True(s.t, ok, "player %d sees player %d", i, j)
	a, err := c.Fire(s.now(), weapon, wire.HitPlayer, uint16(j), add(c.Position(), wire.Vec3{Z: 0.6}), add(r.Position, wire.Vec3{Z: 0.3}))
	require.NoError(s.t, err)
	require.Equal(s.t, client.Acted, a.Verdict, "player %d fires", i)
	return a.Seq
}

func (s *scenario) ledger(i int) vitals.Vitals {
	s.t.Helper()
	v, err := s.m.server.Vitals(refserver.PlayerID(i))
	require.NoError(s.t, err)
	return v
}

// agree checks that the server's ledger of player i equals its client's own health and
// armor.
func (s *scenario) agree(i int) {
	s.t.Helper()
	v := s.ledger(i)
	c := s.client(i)
	require.InDelta(s.t, c.Health(), v.Health, 0.01, "player %d: server ledger health vs client", i)
	require.InDelta(s.t, c.Armor(), v.Armor, 0.01, "player %d: server ledger armor vs client", i)
}

func (s *scenario) eventsOf(kind refserver.EventKind) []refserver.Event {
	var out []refserver.Event
	for _, e := range s.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// noWrongs checks that nothing the match counts as wronging an honest player happened.
func (s *scenario) noWrongs() {
	s.t.Helper()
	for _, e := range s.events {
		switch e.Kind {
		case refserver.EventGodMode, refserver.EventShotRefused, refserver.EventProjectileRefused:
			s.t.Fatalf("an honest player was wronged: %v", e)
		case refserver.EventReportNotCredited:
			if !sanctionedDiscard(e.Verdict) {
				s.t.Fatalf("an honest report was not credited: %v", e)
			}
		case refserver.EventPlayerDeath:
			if e.Commit != lifecycle.CommitByReport {
				s.t.Fatalf("a death the victim did not report: %v", e)
			}
		}
	}
}

// from is the filter's test for "a datagram of player i to the server".
func from(i int, f sim.NodeID, to sim.NodeID) bool { return f == sim.NodeID(i+1) && to == serverNode }

// toPlayer is the filter's test for "a datagram of the server to player i".
func toPlayer(i int, f sim.NodeID, to sim.NodeID) bool {
	return f == serverNode && to == sim.NodeID(i+1)
}

// ---- vitals' [client-order], [lethal-report-first] and [health-revision] (loss, order,
// reconnection), row by row, over the simulated network ----

// A hit report (unreliable) is lost: the frame lowers the ledger itself after 1 s; the
// hit has no attribution and no floor.
func TestLostHitReportLetsTheFrameLowerTheLedgerAfterOneSecond(t *testing.T) {
	s := newScenario(t, Config{})
	dropped := 0
	s.filter = func(f, to sim.NodeID, id wire.ID, _ []byte) sim.Fate {
		if from(1, f, to) && id == wire.IDDamageReport && dropped == 0 {
			dropped++
			return sim.Fate{Drop: true}
		}
		return sim.Fate{}
	}
	s.shoot(0, 1, weaponM4)
	s.run(500 * ms)
	require.Equal(t, 1, dropped)
	require.Less(t, s.client(1).Health(), float32(100), "the victim took the hit")
	require.Equal(t, float32(100), s.ledger(1).Health, "the frames wait for the report")
	s.run(1500 * ms)
	s.agree(1)
	require.Empty(t, s.eventsOf(refserver.EventPlayerDamage), "no attribution without the report")
	s.noWrongs()
}

// A lethal report travels on the reliable lane ahead of the DeathReport: the death is
// committed by the victim's report with the shooter as killer, even when every unreliable
// datagram of the victim is lost.
func TestLethalReportTravelsTheLaneAheadOfTheDeathReport(t *testing.T) {
	s := newScenario(t, Config{})
	require.NoError(t, s.m.server.SetHealth(s.now(), 1, 5))
	s.run(500 * ms)
	s.filter = func(f, to sim.NodeID, id wire.ID, _ []byte) sim.Fate {
		if from(1, f, to) && !id.Transport() {
			return sim.Fate{Drop: true} // frames and unreliable reports of the victim
		}
		return sim.Fate{}
	}
	s.shoot(0, 1, weaponM4)
	s.run(time.Second)
	require.False(t, s.client(1).Alive())
	deaths := s.eventsOf(refserver.EventPlayerDeath)
	require.Len(t, deaths, 1)
	require.Equal(t, wire.PlayerID(1), deaths[0].Player)
	require.Equal(t, wire.PlayerID(0), deaths[0].Other, "the killer is the shooter of the credited lethal report")
	require.Equal(t, lifecycle.CommitByReport, deaths[0].Commit)
	require.Len(t, s.eventsOf(refserver.EventPlayerDamage), 1, "the lethal report was credited")
	s.noWrongs()
}

// A frame arrives before its report: it waits for the report, is not cut, and the loss is
// deducted once, with attribution and floor.
func TestFrameArrivingBeforeItsReportWaitsForIt(t *testing.T) {
	s := newScenario(t, Config{})
	s.filter = func(f, to sim.NodeID, id wire.ID, _ []byte) sim.Fate {
		if from(1, f, to) && id == wire.IDDamageReport {
			return sim.Fate{Delay: 300 * ms} // the frames showing the hit overtake it
		}
		return sim.Fate{}
	}
	s.shoot(0, 1, weaponM4)
	s.run(250 * ms)
	require.Less(t, s.client(1).Health(), float32(100))
	require.Equal(t, float32(100), s.ledger(1).Health, "the overtaking frames wait")
	s.run(time.Second)
	s.agree(1)
	dmg := s.eventsOf(refserver.EventPlayerDamage)
	require.Len(t, dmg, 1)
	require.InDelta(t, vitals.BulletFloor(30), dmg[0].Floor, 1e-4, "the floor of an M4 hit")
	s.noWrongs()
}

// A report created before a health command that arrives after it: it is credited and
// judged as of the revision it echoes, before the command, and the set erases its loss,
// as it did on the client: the ledger agrees with the client.
func TestReportCreatedBeforeAHealthCommandIsJudgedBeforeIt(t *testing.T) {
	s := newScenario(t, Config{})
	s.filter = func(f, to sim.NodeID, id wire.ID, _ []byte) sim.Fate {
		if from(1, f, to) && id == wire.IDDamageReport {
			return sim.Fate{Delay: 400 * ms}
		}
		return sim.Fate{}
	}
	s.shoot(0, 1, weaponM4)
	s.run(150 * ms) // the victim took the hit and created its report
	require.Less(t, s.client(1).Health(), float32(100))
	require.NoError(t, s.m.server.SetHealth(s.now(), 1, 80))
	s.run(2 * time.Second)
	require.Equal(t, float32(80), s.client(1).Health(), "the client took the command after the hit")
	s.agree(1)
	dmg := s.eventsOf(refserver.EventPlayerDamage)
	require.Len(t, dmg, 1, "the report gives attribution")
	require.Equal(t, "applied", dmg[0].Detail)
	require.Positive(t, dmg[0].Deducted, "its loss is taken as of its revision...")
	h, err := s.m.server.Health(1)
	require.NoError(t, err)
	require.Equal(t, float32(80), h, "...and the set, which came after it, erases it")
	s.noWrongs()
}

// A duplicate is rejected by the report number: the loss is deducted once.
func TestDuplicatedReportIsDeductedOnce(t *testing.T) {
	s := newScenario(t, Config{})
	s.filter = func(f, to sim.NodeID, id wire.ID, _ []byte) sim.Fate {
		if from(1, f, to) && id == wire.IDDamageReport {
			return sim.Fate{Duplicate: true}
		}
		return sim.Fate{}
	}
	s.shoot(0, 1, weaponM4)
	s.run(2 * time.Second)
	s.agree(1)
	require.Len(t, s.eventsOf(refserver.EventPlayerDamage), 1)
	s.noWrongs()
}

// Mutual kill: both shots were relayed before either death, so both die, each the other's
// killer.
func TestMutualKillKillsBoth(t *testing.T) {
	s := newScenario(t, Config{})
	require.NoError(t, s.m.server.SetHealth(s.now(), 0, 5))
	require.NoError(t, s.m.server.SetHealth(s.now(), 1, 5))
	s.run(500 * ms)
	s.shoot(0, 1, weaponM4)
	s.shoot(1, 0, weaponM4)
	s.run(2 * time.Second)
	deaths := s.eventsOf(refserver.EventPlayerDeath)
	require.Len(t, deaths, 2)
	killers := map[refserver.PlayerID]refserver.PlayerID{}
	for _, d := range deaths {
		killers[d.Player] = d.Other
	}
	require.Equal(t, map[refserver.PlayerID]refserver.PlayerID{0: 1, 1: 0}, killers)
	s.noWrongs()
}

// Reconnection: a new connection on the same id starts a new life from the start, with a
// new token, and nothing of the old connection carries over.
func TestReconnectionStartsANewLifeFromTheStart(t *testing.T) {
	s := newScenario(t, Config{})
	s.shoot(0, 1, weaponM4)
	s.run(time.Second)
	old := s.client(1).Token()
	require.Less(t, s.ledger(1).Health, float32(100))
	require.NoError(t, s.client(1).Leave(s.now()))
	s.run(time.Second)
	require.False(t, s.m.server.Connected(1))

	c, err := client.New(client.Config{World: s.m.world, Seed: 99})
	require.NoError(t, err)
	p := s.m.players[1]
	p.c = c
	s.m.net.Attach(p.node, func(_ sim.NodeID, d []byte) { _ = c.Receive(s.m.Now(), d) })
	s.run(3 * time.Second)
	require.True(t, c.Alive())
	require.NotEqual(t, old, c.Token(), "a new connection gets a new token")
	require.Equal(t, float32(100), s.ledger(1).Health, "a new life from the start")
	s.agree(1)
	w := c.Weapons()
	slots, err := s.m.server.Weapons(1)
	require.NoError(t, err)
	require.True(t, sameStore(slots, w.Held, w), "the new connection's store is its loadout")
}

// Rewind: unchanged; the floor uses the weapon properties revision the shot was fired
// under (and never a damage above a table the victim may apply).
func TestFloorUsesThePropertiesRevisionOfTheShot(t *testing.T) {
	s := newScenario(t, Config{})
	require.NoError(t, s.m.server.SetWeaponProperties(s.now(), weaponM4, [3]float32{45, 45, 45}, 90))
	s.run(3 * time.Second) // every client applied and acknowledged the new table long ago
	require.Equal(t, s.m.server.Catalog().Revision(), s.client(0).Revisions().Properties)
	s.shoot(0, 1, weaponM4)
	s.run(2 * time.Second)
	dmg := s.eventsOf(refserver.EventPlayerDamage)
	require.Len(t, dmg, 1)
	require.InDelta(t, vitals.BulletFloor(45), dmg[0].Floor, 1e-4, "the floor of the shot's table")
	require.InDelta(t, 100-0.33*45, s.client(1).Health(), 1e-3, "the victim applied the same table")
	s.agree(1)
	s.noWrongs()
}

// ---- end to end: death, respawn, team change, rewind ----

// A death is reported by the victim and committed once; the other players' copies see the
// corpse (PlayerWasted), then the respawn (PlayerSpawned) in a new life, and the server's
// life state agrees with the client's.
func TestDeathAndRespawnEndToEnd(t *testing.T) {
	s := newScenario(t, Config{})
	require.NoError(t, s.m.server.SetHealth(s.now(), 1, 5))
	s.run(500 * ms)
	s.shoot(0, 1, weaponM4)
	s.run(500 * ms)
	require.False(t, s.client(1).Alive())
	r, ok := s.client(0).Remote(1)
	require.True(t, ok)
	require.False(t, r.Copy.Alive, "the observer's copy is a corpse")
	gen, err := s.m.server.Generation(1)
	require.NoError(t, err)
	s.run(5 * time.Second) // the default respawn delay and the request timer
	require.True(t, s.client(1).Alive())
	g2, err := s.m.server.Generation(1)
	require.NoError(t, err)
	require.True(t, lifecycle.Generation(g2).Newer(lifecycle.Generation(gen)), "a new generation")
	require.Equal(t, g2, s.client(1).DeathEpoch())
	r, _ = s.client(0).Remote(1)
	require.True(t, r.Copy.Alive, "the observer rebuilt the copy alive")
	require.Equal(t, lifecycle.Generation(g2), r.Copy.Gen)
	s.agree(1)
	require.Len(t, s.eventsOf(refserver.EventPlayerDeath), 1)
	s.noWrongs()
}

// A team change reaches the clients with the next frames: a teammate's shot is then
// refused by the victim's client and never credited; a shot stamped before the change
// and landing after it is applied by the victim and discarded by the server.
func TestTeamChangeEndToEnd(t *testing.T) {
	s := newScenario(t, Config{})
	t1, _ := s.m.server.Team(0)
	t2, _ := s.m.server.Team(1)
	require.NotEqual(t, t1, t2, "two teams")

	// The race: the shot is relayed to the victim late, after the shooter joined its team.
	held := false
	s.filter = func(f, to sim.NodeID, id wire.ID, _ []byte) sim.Fate {
		if toPlayer(1, f, to) && id == wire.IDRemoteWeaponShot && !held {
			held = true
			return sim.Fate{Delay: 500 * ms}
		}
		return sim.Fate{}
	}
	s.shoot(0, 1, weaponM4)
	s.run(60 * ms) // the server accepted and stamped the shot
	require.NoError(t, s.m.server.JoinTeam(0, t2))
	s.run(2500 * ms) // the frames showing the discarded hit wait a second, then count alone
	require.True(t, held)
	require.Less(t, s.client(1).Health(), float32(100), "the victim judged the shot by its own stamp")
	require.Empty(t, s.eventsOf(refserver.EventPlayerDamage), "the server discards the report")
	discarded := s.eventsOf(refserver.EventReportNotCredited)
	require.Len(t, discarded, 1)
	require.True(t, sanctionedDiscard(discarded[0].Verdict), "%v", discarded[0])
	require.Equal(t, teams.ReportDiscardedTeamChange.String(), discarded[0].Detail)
	s.agree(1) // the frames still lower the ledger

	// Now teammates by every stamp: the shot is refused by the victim's client.
	before := s.client(1).Health()
	s.filter = nil
	s.shoot(0, 1, weaponM4)
	s.run(time.Second)
	require.Equal(t, before, s.client(1).Health(), "a teammate's shot does nothing")
	require.Equal(t, 1, s.client(1).Counters().HitsRefusedTeammate)
	require.Empty(t, s.eventsOf(refserver.EventPlayerDamage))
	s.agree(1)
	s.noWrongs()
}

// The rewind end to end: a shooter at 400 ms round trip aims at where its screen shows a
// running target; the server sends the target its pose of that moment, the target's
// client traces the ray there, and the hit lands though the target is metres away now.
func TestRewindEndToEnd(t *testing.T) {
	s := newScenario(t, Config{RTTMin: 400 * ms, RTTMax: 400 * ms})
	// The target runs sideways at 8 m/s.
	c := s.client(1)
	pos := c.Position()
	vel := wire.Vec3{Y: 8}
	step := func() {
		pos = add(pos, scale(vel, 0.05))
		require.NoError(t, c.Move(s.now(), pos, vel, 0))
		s.run(50 * ms)
	}
	for range 40 {
		step()
	}
	shot := s.shoot(0, 1, weaponM4)
	seen, _ := s.client(0).Remote(1)
	for range 10 {
		step()
	}
	require.Greater(t, dist(c.Position(), seen.Position), float32(3), "the target has moved far from where the shooter saw it")
	require.Equal(t, 1, c.Counters().HitsApplied, "the target traced the ray at its rewound pose and was hit")
	s.run(time.Second)
	dmg := s.eventsOf(refserver.EventPlayerDamage)
	require.Len(t, dmg, 1, "the rewound hit is credited: shot %d", shot)
	require.Equal(t, wire.PlayerID(0), dmg[0].Other)
	s.agree(1)
	s.noWrongs()
}

// The friendly-fire toggle end to end: with friendly fire on, teammates have group 0 and
// hurt each other; the server credits it.
func TestFriendlyFireOnLetsTeammatesHurtEachOther(t *testing.T) {
	s := newScenario(t, Config{})
	t2, _ := s.m.server.Team(1)
	require.NoError(t, s.m.server.JoinTeam(0, t2))
	require.NoError(t, s.m.server.SetFriendlyFire(t2, true))
	s.run(time.Second)
	_, group := s.m.server.Team(0)
	require.Zero(t, group, "friendly fire on: damage group 0")
	s.shoot(0, 1, weaponM4)
	s.run(time.Second)
	require.Less(t, s.client(1).Health(), float32(100))
	require.Len(t, s.eventsOf(refserver.EventPlayerDamage), 1)
	s.agree(1)
	s.noWrongs()
}

// TestScenarioStringsAreReadable keeps the events' text form usable in failure messages.
func TestScenarioStringsAreReadable(t *testing.T) {
	s := newScenario(t, Config{})
	s.shoot(0, 1, weaponM4)
	s.run(time.Second)
	var b strings.Builder
	for _, e := range s.eventsOf(refserver.EventPlayerDamage) {
		fmt.Fprintln(&b, e)
	}
	require.Contains(t, b.String(), "player_damage player=1 attacker=0 weapon=31")
}
