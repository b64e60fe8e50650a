package match

import (
	"testing"
	"time"

	"github.com/arbitergo/arbiter/wire"
	"github.com/stretchr/testify/require"
)

// withCheats builds a match whose cheaters (the last len(kinds) players) cheat with kinds.
func withCheats(t *testing.T, cfg Config, kinds ...Cheat) *Match {
	t.Helper()
	cfg.Cheaters = len(kinds)
	m, err := New(cfg)
	require.NoError(t, err)
	for i, p := range m.cheaters {
		p.cheat = newCheater(kinds[i], p.idx)
		m.world.skip[p.idx] = kinds[i] == CheatSkipHits
	}
	m.adv = newAdversary(m)
	return m
}

// A flood (bursts of FloodBurst frames, shots and junk datagrams) costs the honest players
// nothing: no relay of theirs lost, no event of the records dropped, nobody wronged; the
// server's per-connection caps met it (datagrams over the rate, refusals summarized). On a
// link without jitter every frame of a burst arrives in order and in one server tick.
func TestFloodCostsTheHonestPlayersNothing(t *testing.T) {
	bursts := 3 // one of each kind
	if raceEnabled {
		bursts = 1
	}
	m := withCheats(t, Config{Seed: 3, Players: 12, Jitter: NoJitter, Duration: time.Duration(bursts)*FloodEvery + 30*time.Second}, CheatFlood)
	require.NoError(t, m.Start())
	m.RunUntil(m.cfg.Duration)
	r, err := m.Finish()
	require.NoError(t, err)
	require.Zero(t, r.HonestWronged, "%v", r)
	require.Zero(t, r.CheatsGained, "%v", r)
	c := r.Cheaters[0]
	require.Equal(t, CheatFlood.String(), c.Cheat)
	require.GreaterOrEqual(t, c.Forged, bursts*FloodBurst)
	st := m.server.Stats()
	require.Positive(t, st.DatagramsOverRate, "the datagram gate met the bursts")
	require.Positive(t, st.RefusalsSuppressed, "the junk's refusals were summarized")
	require.Zero(t, st.RecordEventsDropped)
}

// The mutator is seeded and deterministic, forges every kind of datagram, and gains
// nothing by any of the records' measures, and nobody honest is wronged.
func TestMutatorGainsNothing(t *testing.T) {
	run := func() Report {
		d := 2 * time.Minute
		if raceEnabled {
			d = time.Minute
		}
		m := withCheats(t, Config{Seed: 7, Players: 8, Duration: d}, CheatMutator, CheatMutator)
		require.NoError(t, m.Start())
		m.RunUntil(m.cfg.Duration)
		r, err := m.Finish()
		require.NoError(t, err)
		return r
	}
	r := run()
	require.Zero(t, r.HonestWronged, "%v", r)
	require.Zero(t, r.CheatsGained, "%v", r)
	for _, c := range r.Cheaters {
		require.Equal(t, CheatMutator.String(), c.Cheat)
		require.Positive(t, c.Forged)
		require.Positive(t, c.ForgedShots)
		require.Positive(t, c.Refused, "the server refuses most of what it forges")
		require.NotNil(t, c.Gains)
		require.Equal(t, c.Gains.Sum(), c.Gained)
	}
	require.Equal(t, r.String(), run().String(), "the same seed, the same mutations")
}

// The judge's record of where the server accepted a mutator is made of the mutator's
// frames relayed to any connection, each frame once: with streaming the observer does not
// have every mutator shown at every moment (one that jumped far and back stays hidden from
// it until its next evaluation), and the places every screen near them was shown count.
func TestMutatorPathTakesFramesRelayedToAnyone(t *testing.T) {
	m := withCheats(t, Config{Seed: 3, Players: 4}, CheatMutator)
	a := m.adv
	mut := m.cheaters[0]
	s := a.muts[mut.idx]
	var other *player
	for _, p := range m.players {
		if p != mut && p != a.observer {
			other = p
			break
		}
	}
	require.NotNil(t, other)
	frame := func(seq uint16, x float32) []byte {
		f := &wire.RemotePlayerSync{Player: wire.PlayerID(mut.idx), SyncSeq: seq, DeathEpoch: 1, Alive: true,
			Health: 100, Position: wire.Vec3{X: x, Y: -20, Z: 10}, Vehicle: wire.NoVehicle}
		d, err := f.Append(nil)
		require.NoError(t, err)
		return d
	}
	a.watch(time.Second, other.idx, frame(7, 50))
	a.watch(time.Second, a.observer.idx, frame(7, 50)) // the same frame's other copy
	require.Len(t, s.path, 1, "a frame relayed only to others is a place; its copies count once")
	require.Equal(t, wire.Vec3{X: 50, Y: -20, Z: 10}, s.path[0].pos)
	a.watch(time.Second+33*time.Millisecond, other.idx, frame(8, 60))
	require.Len(t, s.path, 2)
	require.True(t, s.within(time.Second+40*time.Millisecond, wire.Vec3{X: 50, Y: -21, Z: 10}, 2, time.Second))
	require.False(t, s.within(time.Second+40*time.Millisecond, wire.Vec3{X: 90, Y: -20, Z: 10}, 2, time.Second))
}
