package refserver

import (
	"errors"
	"flag"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// These streaming tests drive the World alone (no client: nobody acknowledges, nothing is
// flushed); the others are in stream_kit_test.go.

// massPlayers is how many players TestStreamMassRespawnQueuesAtMostCapEdgesPerLane kills
// and respawns at once; -refserver.mass 10000 runs the 10,000 of a full streaming world
// (about 5 s on this 2-core box).
var massPlayers = flag.Int("refserver.mass", 1000, "players of the mass respawn test (at most MaxPlayers)")

// Rule [stream-edges]: each connection is shown at most Cap others, the nearest first, so a
// mass respawn queues at most Cap critical edges on any lane.
func TestStreamMassRespawnQueuesAtMostCapEdgesPerLane(t *testing.T) {
	n := *massPlayers
	cfg := Config{MaxPlayers: n, MaxVehicles: 8, RespawnDelay: time.Millisecond}
	w, err := New(cfg)
	require.NoError(t, err)
	now := time.Second
	for id := range n {
		require.Equal(t, VerdictAccepted, w.Handle(now, PlayerID(id), &wire.Hello{}))
		require.Equal(t, VerdictAccepted, w.Handle(now, PlayerID(id), &wire.RespawnRequest{}))
		require.Equal(t, VerdictAccepted, w.Handle(now, PlayerID(id), &wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true,
			Health: 100, Vehicle: wire.NoVehicle, Position: wire.Vec3{X: float32(id % 100), Y: float32(id / 100)}}))
	}
	for range 20 {
		now += 50 * time.Millisecond
		require.NoError(t, w.Tick(now))
	}
	for id := range n {
		require.LessOrEqual(t, len(w.stream.Shown(nil, PlayerID(id))), DefaultStreamCap)
	}
	queued := func() int {
		most := 0
		for id := range n {
			most = max(most, w.players[id].ep.Lane().Stats().Queued)
		}
		return most
	}
	before := queued()
	for id := range n {
		require.Equal(t, VerdictAccepted, w.Handle(now, PlayerID(id), &wire.DeathReport{DeathEpoch: 1, Killer: NoPlayer, Weapon: 255}))
	}
	now += cfg.RespawnDelay
	for id := range n {
		require.Equal(t, VerdictAccepted, w.Handle(now, PlayerID(id), &wire.RespawnRequest{DeathEpoch: 1}))
	}
	grown := queued() - before
	t.Logf("%d players die and respawn at once: the fullest lane grew by %d messages (Cap %d, lane hard cap %d)", n, grown, DefaultStreamCap, lane.HardCap)
	require.LessOrEqual(t, grown, 2*DefaultStreamCap+2, "a death and a respawn of each shown player, and its own respawn")
	for id := range n {
		require.True(t, w.Connected(PlayerID(id)), "nobody overflows")
	}
}

func TestStreamConfigOutOfRangeIsRefused(t *testing.T) {
	for _, s := range []StreamConfig{{Distance: -1}, {Cap: -1}, {Every: -time.Second}} {
		cfg := Config{MaxPlayers: 16, MaxVehicles: 8, RespawnDelay: time.Second}
		cfg.Stream = s
		_, err := New(cfg)
		require.True(t, errors.Is(err, ErrConfig), "%+v: %v", s, err)
	}
}

// A mass join grows the World's scratch of streaming changes far beyond a tick's few
// (here 1,000 players join at the spawn point, shown to each other up to the Cap, then
// walk off to their clusters over 6 km: a hundred thousand hides at once); the World lets
// that room go once the burst is applied (keptChanges), so no player of the world keeps
// paying for the peak.
func TestStreamChangesScratchIsReleasedAfterABurst(t *testing.T) {
	bw := newBenchWorldAt(t, Config{MaxPlayers: 1000, MaxVehicles: 1}, spread(1000, streamSide))
	bw.tick(false)
	require.LessOrEqual(t, cap(bw.w.changes), keptChanges)
}
