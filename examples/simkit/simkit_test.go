package simkit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/match"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

const ms = time.Millisecond

// A duel: a hit is credited to its shooter and, once the report arrived, the server's
// ledger of the victim equals the victim's own health, whatever the round trip.
func TestDuelHitIsCreditedAndLedgersAgree(t *testing.T) {
	for _, tc := range []struct {
		name string
		link Link
	}{
		{"300ms", Link{RTT: 300 * ms}},
		{"300ms_jitter_loss", Link{RTT: 300 * ms, Jitter: 30 * ms, Loss: 0.05}},
		{"0ms", Link{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := New(Config{Seed: 3})
			a, err := k.Join("alice", tc.link)
			require.NoError(t, err)
			b, err := k.Join("bob", tc.link)
			require.NoError(t, err)
			require.NoError(t, k.Advance(0))
			_, err = a.Shoot(b, WeaponDeagle)
			require.NoError(t, err)
			require.NoError(t, k.Advance(2*time.Second))
			dmg := k.EventsOf(refserver.EventPlayerDamage)
			require.Len(t, dmg, 1, "one hit, one credit")
			require.Equal(t, b.ID(), dmg[0].Player)
			require.Equal(t, a.ID(), dmg[0].Other)
			own, led := b.Own(), ledger(t, b)
			require.Less(t, own.Health, float32(100), "bob's game took the hit")
			require.InDelta(t, own.Health, led.Health, 0.01, "bob's ledger vs his game")
			require.InDelta(t, own.Armor, led.Armor, 0.01)
			r, err := k.Report()
			require.NoError(t, err)
			require.Zero(t, r.HonestWronged, "%v", r.Incidents)
		})
	}
}

// Killing a player goes through both clients' own logic: the victim reports its death,
// the server commits it by the report with the shooter as killer, and the victim's client
// asks for its respawn, which the server grants in a new life after the RespawnDelay of
// the kit's server Config.
func TestKillCommitsByReportAndTheClientRespawns(t *testing.T) {
	k := New(Config{Seed: 5, Server: refserver.Config{RespawnDelay: 5 * time.Second}})
	a, _ := k.Join("alice", Link{RTT: 200 * ms})
	b, _ := k.Join("bob", Link{RTT: 400 * ms, Jitter: 30 * ms, Loss: 0.05})
	require.NoError(t, k.Start())
	before, err := b.Life()
	require.NoError(t, err)
	require.NoError(t, k.Server().SetHealth(k.Now(), b.ID(), 10))
	require.NoError(t, k.Advance(time.Second))
	_, err = a.Shoot(b, WeaponDeagle)
	require.NoError(t, err)
	require.NoError(t, k.Advance(2*time.Second))
	deaths := k.EventsOf(refserver.EventPlayerDeath)
	require.Len(t, deaths, 1)
	require.Equal(t, lifecycle.CommitByReport, deaths[0].Commit)
	require.Equal(t, a.ID(), deaths[0].Other, "alice is the killer")
	require.NoError(t, k.Advance(2*time.Second))
	life, err := b.Life()
	require.NoError(t, err)
	require.NotEqual(t, lifecycle.PhaseAlive, life.Phase, "the server's RespawnDelay (5 s) runs")
	require.NoError(t, k.Advance(4*time.Second))
	life, err = b.Life()
	require.NoError(t, err)
	require.Equal(t, lifecycle.PhaseAlive, life.Phase, "respawned")
	require.True(t, life.ClientAlive)
	require.Equal(t, life.Gen, life.ClientGen)
	require.Equal(t, before.Gen+1, life.Gen, "in its next life")
	require.NoError(t, b.Die())
	require.NoError(t, k.Advance(2*time.Second))
	require.Len(t, k.EventsOf(refserver.EventPlayerDeath), 2, "a fall to its death")
	r, err := k.Report()
	require.NoError(t, err)
	require.Zero(t, r.HonestWronged, "%v", r.Incidents)
}

func ledger(t *testing.T, p *Player) (v struct{ Health, Armor float32 }) {
	t.Helper()
	l, err := p.Ledger()
	require.NoError(t, err)
	v.Health, v.Armor = l.Health, l.Armor
	return v
}

// A cheater profile joins like any player: a health_frames cheater's frames show full
// health after a hit, the server cuts them and flags it, and the cheat gains nothing.
func TestCheaterProfileJoinsAndGainsNothing(t *testing.T) {
	k := New(Config{Seed: 9})
	a, _ := k.Join("honest", Link{RTT: 200 * ms, Jitter: 30 * ms, Loss: 0.05})
	c, err := k.JoinCheater("cheater", Link{RTT: 100 * ms}, match.CheatHealthFrames)
	require.NoError(t, err)
	require.Equal(t, match.CheatHealthFrames, c.Cheat())
	require.NoError(t, k.Start())
	for range 5 {
		_, err := a.Shoot(c, WeaponDeagle)
		require.NoError(t, err)
		require.NoError(t, k.Advance(time.Second))
	}
	l, err := c.Ledger()
	require.NoError(t, err)
	require.Less(t, l.Health, float32(100), "the hits stay on the cheater's ledger")
	r, err := k.Report()
	require.NoError(t, err)
	require.Zero(t, r.HonestWronged, "%v", r.Incidents)
	require.Len(t, r.Cheaters, 1)
	require.Equal(t, "health_frames", r.Cheaters[0].Cheat)
	require.Positive(t, r.Cheaters[0].Flagged, "its frames were cut")
	require.Zero(t, r.Cheaters[0].Gained)
}

// A player walks to a car of the arena, enters it through its client and leaves it: the
// server seats it and frees the seat again.
func TestEnterAndLeaveVehicle(t *testing.T) {
	k := New(Config{Seed: 2, Vehicles: 2})
	a, _ := k.Join("driver", Link{RTT: 300 * ms})
	_, _ = k.Join("other", Link{RTT: 300 * ms})
	require.NoError(t, k.Start())
	_, _, ok := k.Vehicle(1)
	require.True(t, ok)
	require.ErrorIs(t, a.EnterVehicle(9, 0), ErrNoVehicle)
	beside, ok := k.Beside(1)
	require.True(t, ok)
	require.NoError(t, a.MoveTo(beside))
	require.NoError(t, k.Advance(time.Second))
	require.NoError(t, a.EnterVehicle(1, 0))
	require.NoError(t, k.Advance(time.Second))
	veh, seat, ok := k.Server().PlayerSeat(a.ID())
	require.True(t, ok, "seated on the server")
	require.Equal(t, uint16(1), veh)
	require.Equal(t, uint8(0), seat)
	require.NoError(t, a.LeaveVehicle())
	require.NoError(t, k.Advance(time.Second))
	_, _, ok = k.Server().PlayerSeat(a.ID())
	require.False(t, ok, "the seat is free again")
	r, err := k.Report()
	require.NoError(t, err)
	require.Zero(t, r.HonestWronged, "%v", r.Incidents)
	require.ErrorIs(t, k.Advance(time.Second), ErrFinished)
	_, err = k.Join("late", Link{})
	require.ErrorIs(t, err, ErrStarted)
}

// A grenade thrown at a player explodes after its fuse; the victim's client takes the
// blast and reports it, and the server credits the thrower.
func TestThrownGrenadeIsCreditedToTheThrower(t *testing.T) {
	k := New(Config{Seed: 6})
	a, _ := k.Join("thrower", Link{RTT: 250 * ms, Jitter: 30 * ms})
	b, _ := k.Join("target", Link{RTT: 150 * ms})
	require.NoError(t, k.Start())
	require.NoError(t, b.MoveTo(wire.Vec3{X: 12, Z: Ground}))
	require.NoError(t, k.Advance(time.Second))
	_, err := a.Throw(b, WeaponGrenade, 2*time.Second)
	require.NoError(t, err)
	require.NoError(t, k.Advance(4*time.Second))
	dmg := k.EventsOf(refserver.EventPlayerDamage)
	require.NotEmpty(t, dmg, "the blast was credited")
	require.Equal(t, a.ID(), dmg[0].Other)
	require.Equal(t, inventory.CauseExplosion, dmg[0].Weapon, "an explosion")
	r, err := k.Report()
	require.NoError(t, err)
	require.Zero(t, r.HonestWronged, "%v", r.Incidents)
}

// The same test gives the same world: a kit is a pure function of its seed and of what
// the test does (no wall clock, no goroutine); another seed draws another network.
func TestSameSeedSameEventsAndReport(t *testing.T) {
	run := func(seed uint64) ([]refserver.Event, match.Report) {
		k := New(Config{Seed: seed, Gamemode: regenerate})
		a, _ := k.Join("a", Link{RTT: 300 * ms, Jitter: 30 * ms, Loss: 0.05})
		b, _ := k.Join("b", Link{RTT: 100 * ms, Jitter: 30 * ms, Loss: 0.05})
		for range 8 {
			_, _ = a.Shoot(b, WeaponM4)
			_, _ = b.Shoot(a, WeaponDeagle)
			require.NoError(t, k.Advance(700*ms))
		}
		r, err := k.Report()
		require.NoError(t, err)
		return k.Events(), r
	}
	e1, r1 := run(21)
	e2, r2 := run(21)
	require.Equal(t, e1, e2)
	require.Equal(t, r1, r2)
	_, r3 := run(22)
	require.NotEqual(t, r1.Network, r3.Network, "another seed, another network")
}

// Before the world starts the readbacks say so instead of panicking, and a world needs
// two players.
func TestReadbacksBeforeStart(t *testing.T) {
	k := New(Config{})
	a, _ := k.Join("alone", Link{})
	_, err := a.Ledger()
	require.ErrorIs(t, err, ErrNotStarted)
	_, err = a.Store()
	require.ErrorIs(t, err, ErrNotStarted)
	_, err = a.Life()
	require.ErrorIs(t, err, ErrNotStarted)
	require.Zero(t, a.Own())
	require.Nil(t, k.Server())
	require.ErrorIs(t, k.Advance(time.Second), ErrFewPlayers, "one player is no world")
	_, err = k.Join("too_far", Link{RTT: 3 * time.Second})
	require.NoError(t, err)
	require.ErrorIs(t, k.Start(), match.ErrConfig, "a round trip beyond match.MaxRTT")
	require.ErrorIs(t, k.Advance(time.Second), match.ErrConfig, "and the world stays failed")
	_, err = a.Shoot(a, WeaponM4)
	require.ErrorIs(t, err, match.ErrConfig)
}

// A knife's blow lands in the victim's game once the swing reaches it, and the server
// credits it to the attacker; the honest client does not swing out of reach.
func TestStrikeLandsWithinReach(t *testing.T) {
	k := New(Config{Seed: 8})
	a, _ := k.Join("attacker", Link{RTT: 200 * ms, Jitter: 30 * ms})
	b, _ := k.Join("victim", Link{RTT: 300 * ms})
	require.NoError(t, k.Start())
	require.ErrorIs(t, a.Strike(b, 0), ErrRefused, "the honest client does not swing at 20 m")
	require.NoError(t, a.MoveTo(wire.Vec3{X: Spacing - 1.2, Z: Ground}))
	require.NoError(t, k.Advance(time.Second))
	require.NoError(t, a.Strike(b, WeaponKnife))
	require.NoError(t, k.Advance(time.Second))
	dmg := k.EventsOf(refserver.EventPlayerDamage)
	require.Len(t, dmg, 1)
	require.Equal(t, a.ID(), dmg[0].Other)
	require.Equal(t, WeaponKnife, dmg[0].Weapon)
	r, err := k.Report()
	require.NoError(t, err)
	require.Zero(t, r.HonestWronged, "%v", r.Incidents)
}
