package simkit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/match"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/lifecycle"
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
// asks for its respawn, which the server grants in a new life.
func TestKillCommitsByReportAndTheClientRespawns(t *testing.T) {
	k := New(Config{Seed: 5})
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
	require.NoError(t, k.Advance(6*time.Second))
	life, err := b.Life()
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

var _ = match.Honest
