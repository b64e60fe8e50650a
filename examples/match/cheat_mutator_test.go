package match

import (
	"testing"
	"time"

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
