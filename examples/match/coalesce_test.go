package match

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/transport"
)

// TestCoalescingClientsWrongNoHonestPlayer: honest clients that coalesce what they send
// (ClientPayload), at the worst link the promise covers (400 ms, 30 ms of jitter, 5 %
// loss, where a lost bundle loses a frame, its shots and its reports together), are
// never wronged, and they send fewer datagrams than clients that do not.
func TestCoalescingClientsWrongNoHonestPlayer(t *testing.T) {
	seeds, duration := []uint64{1, 2}, 40*time.Second
	switch {
	case *soak:
		seeds, duration = []uint64{1, 2, 3, 4, 5}, 2*time.Minute
	case raceEnabled:
		seeds, duration = []uint64{1}, 15*time.Second
	}
	for _, seed := range seeds {
		cfg := Config{Seed: seed, Players: 8, Duration: duration, RTTMin: 400 * time.Millisecond,
			RTTMax: 400 * time.Millisecond, Jitter: 30 * time.Millisecond, Loss: 0.05}
		alone, err := Run(cfg)
		require.NoError(t, err)
		cfg.ClientPayload = transport.MinPayloadSize
		r, err := Run(cfg)
		require.NoError(t, err)
		require.Zero(t, r.HonestWronged, "seed %d: %v", seed, r)
		require.Positive(t, r.Credited, "seed %d: nothing was credited", seed)
		require.Less(t, r.Network.Datagrams, alone.Network.Datagrams, "seed %d: the clients' bundles", seed)
		t.Logf("seed %d: %d datagrams coalesced, %d alone", seed, r.Network.Datagrams, alone.Network.Datagrams)
	}
}
