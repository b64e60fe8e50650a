package match

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// crossPlayerHolesFixed turns on the full promise for the mutator: it gains nothing.
// Issue 17's other helpers fix the holes it finds on this branch (knownHole); the lead
// sets it true once their branches are merged. Until then every gain of the mutator must
// be a finding of one of those holes.
const crossPlayerHolesFixed = false

// knownHole names the helper of issue 17 whose fix closes a finding of the mutator
// ("measure:what:mutation", see CheaterReport.Findings), or "" for a new hole.
func knownHole(finding string) string {
	parts := strings.SplitN(finding, ":", 3)
	if len(parts) < 2 {
		return ""
	}
	switch parts[0] + ":" + parts[1] {
	case "ammo:shot", "ammo:launch":
		return "1: inventory carry-over and taken-weapon grace"
	case "health:ledger", "health:rise", "others:suspicion":
		return "2: vitals settling, attribution-only reports, teammate claims to the god-mode detector"
	case "damage:shot", "kills:shot", "damage:detonation", "kills:detonation":
		return "3: hand-held shot and projectile origins"
	case "damage:vshot", "kills:vshot", "others:seat", "others:vehicle", "others:explode", "kills:explode", "others:vehicle_suspicion":
		return "4: vehicle guns, seats, VehicleSync, VehicleExplode"
	}
	return ""
}

// requireNoGainsButKnownHoles holds a match's cheats to their promise: nothing gained,
// but, until crossPlayerHolesFixed, the mutator's findings of the known holes.
func requireNoGainsButKnownHoles(t *testing.T, r Report) {
	t.Helper()
	if crossPlayerHolesFixed {
		require.Zero(t, r.CheatsGained, "%v", r)
		return
	}
	for _, c := range r.Cheaters {
		if c.Cheat != CheatMutator.String() {
			require.Zero(t, c.Gained, "%s gained: %v", c.Cheat, r)
			continue
		}
		for f, n := range c.Findings {
			require.NotEmpty(t, knownHole(f), "the mutator found a new hole: %s (%d times) in\n%v", f, n, r)
		}
	}
}

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

// The mutator is seeded and deterministic, forges every kind of datagram, and everything
// it gains is a finding of a known hole (until crossPlayerHolesFixed: nothing).
func TestMutatorGainsOnlyWhatTheKnownHolesGive(t *testing.T) {
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
	requireNoGainsButKnownHoles(t, r)
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
