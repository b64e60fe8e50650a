package match

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
)

// A Lineup describes the players one by one: their number, each one's round trip and
// cheat; a seat out of range, or a lineup next to Cheaters, is a config error.
func TestLineupGivesEachPlayerItsLinkAndCheat(t *testing.T) {
	m, err := New(Config{Seed: 3, Manual: true, Lineup: []Seat{
		{RTT: 50 * time.Millisecond}, {RTT: 350 * time.Millisecond}, {RTT: 100 * time.Millisecond, Cheat: CheatHealthFrames},
	}})
	require.NoError(t, err)
	require.Equal(t, 3, m.Config().Players)
	require.Equal(t, 50*time.Millisecond, m.Config().RTTMin, "the lineup's range")
	require.Equal(t, 350*time.Millisecond, m.Config().RTTMax)
	require.Zero(t, m.Config().Jitter)
	require.Equal(t, Honest, m.Cheat(0))
	require.Equal(t, CheatHealthFrames, m.Cheat(2))
	require.Equal(t, Honest, m.Cheat(7), "no such player")
	require.NoError(t, m.Start())
	m.RunUntil(5 * time.Second)
	r0, ok := m.Server().RTT(0)
	require.True(t, ok)
	r1, ok := m.Server().RTT(1)
	require.True(t, ok)
	require.InDelta(t, 50, r0.Milliseconds(), 30)
	require.InDelta(t, 350, r1.Milliseconds(), 30)

	for _, bad := range []Config{
		{Lineup: []Seat{{}, {RTT: 3 * time.Second}}},
		{Lineup: []Seat{{}, {Loss: 0.9}}},
		{Lineup: []Seat{{}, {Cheat: cheatCount}}},
		{Lineup: []Seat{{}, {}, {}}, Cheaters: 1},
	} {
		_, err := New(bad)
		require.ErrorIs(t, err, ErrConfig, "%+v", bad.Lineup)
	}
}

// Config.Server is the reference server's configuration, with the match's loadout and
// sizes where it leaves them zero; Every calls back on the match's clock.
func TestServerConfigAndEvery(t *testing.T) {
	m, err := New(Config{Seed: 3, Manual: true, Players: 2, Server: &refserver.Config{RespawnDelay: 5 * time.Second}})
	require.NoError(t, err)
	sc := m.Server().Config()
	require.Equal(t, 5*time.Second, sc.RespawnDelay)
	require.Equal(t, 2, sc.MaxPlayers)
	require.Len(t, sc.Loadout, len(Loadout()))
	var at []time.Duration
	m.Every(time.Second, time.Second, func(now time.Duration) bool { at = append(at, now); return len(at) < 3 })
	require.NoError(t, m.Start())
	m.RunUntil(10 * time.Second)
	require.Equal(t, []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}, at)
	_, _, ok := m.Vehicle(0)
	require.True(t, ok)
	_, _, ok = m.Vehicle(99)
	require.False(t, ok)
}
