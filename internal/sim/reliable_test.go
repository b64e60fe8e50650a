package sim

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// TestReliableChannelDeliversEverythingOnceInOrderOverABadLink sends a stream of messages
// both ways over links with 400 ms of round trip, 30 ms of jitter, 5 % loss, duplication
// and reordering, and checks each end delivers every message once, in order, and that the
// sender learns of every acknowledgement.
func TestReliableChannelDeliversEverythingOnceInOrderOverABadLink(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			s := New(seed)
			n, err := NewNetwork(s, LinkConfig{
				Delay: 200 * time.Millisecond, Jitter: 30 * time.Millisecond,
				Loss: 0.05, Duplicate: 0.02, Reorder: 0.05,
			})
			require.NoError(t, err)
			r, err := NewReliable(n, 1, 2)
			require.NoError(t, err)
			const count = 500
			got := map[NodeID][]uint32{}
			acked := map[NodeID]int{}
			for _, id := range []NodeID{1, 2} {
				require.NoError(t, r.OnDeliver(id, func(p []byte) { got[id] = append(got[id], binary.LittleEndian.Uint32(p)) }))
				require.NoError(t, r.OnAcked(id, func(wire.LaneAck) { acked[id]++ }))
			}
			for i := range count {
				s.At(time.Duration(i)*10*time.Millisecond, func() {
					var b [4]byte
					binary.LittleEndian.PutUint32(b[:], uint32(i))
					_, err := r.Send(1, b[:], i%10 == 0)
					require.NoError(t, err)
					_, err = r.Send(2, b[:], false)
					require.NoError(t, err)
				})
			}
			s.RunUntil(30 * time.Second)
			for _, id := range []NodeID{1, 2} {
				require.Len(t, got[id], count, "seed %d node %d", seed, id)
				for i, v := range got[id] {
					require.Equal(t, uint32(i), v, "seed %d node %d: out of order", seed, id)
				}
				require.Equal(t, count, acked[id], "seed %d node %d: acknowledgements", seed, id)
			}
			require.Positive(t, n.TotalStats().Lost, "the link must have lost something")
		})
	}
}

func TestReliableRefusesForeignNodes(t *testing.T) {
	s := New(1)
	n, _ := NewNetwork(s, LinkConfig{})
	r, err := NewReliable(n, 1, 2)
	require.NoError(t, err)
	_, err = r.Send(3, []byte{1}, false)
	require.Error(t, err)
	require.Error(t, r.OnDeliver(3, func([]byte) {}))
	_, err = r.Lane(3)
	require.Error(t, err)
}
