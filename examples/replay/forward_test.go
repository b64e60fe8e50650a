package replay_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/replay"
	"github.com/arbitergo/arbiter/wire"
)

// TestANonRecordingRecorderOnlyForwards ([recording-costs-the-world-nothing]): a Recorder
// made with a nil writer adds no allocation to the World's tick, flush and drain (a host
// holds one whether it records or not) and keeps no hashes.
func TestANonRecordingRecorderOnlyForwards(t *testing.T) {
	w, err := refserver.New(refserver.Config{MaxPlayers: 4, MaxVehicles: 4})
	require.NoError(t, err)
	r, err := replay.NewRecorder(w, nil)
	require.NoError(t, err)
	hello, err := (&wire.Hello{}).Append(nil)
	require.NoError(t, err)
	require.NoError(t, r.Receive(0, 0, hello))
	now := time.Duration(0)
	sent := 0
	emit := func(refserver.PlayerID, []byte) { sent++ }
	var evs []refserver.Event
	allocs := testing.AllocsPerRun(200, func() {
		now += 10 * time.Millisecond
		_ = r.Tick(now)
		_ = r.Flush(now, emit)
		evs = r.Events(evs[:0])
	})
	require.Zero(t, allocs, "a forwarding Recorder allocates nothing")
	require.Positive(t, sent, "the World's datagrams reached the host")
	require.Equal(t, replay.Checkpoint{}, r.Checkpoint(), "and it hashed nothing")
}
