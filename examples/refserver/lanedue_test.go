package refserver

import (
	"testing"

	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
	"github.com/stretchr/testify/require"
)

// Flush visits a connection's lane only when it is due: after a message was queued or a
// lane datagram arrived, or at the lane's own deadline (a retransmission). An idle lane is
// not visited; a due one still sends, resends and acknowledges on time.
func TestFlushVisitsALaneOnlyWhenItIsDue(t *testing.T) {
	bw := newBenchWorldOf(t, Config{MaxPlayers: 2, MaxVehicles: 1})
	for range 10 {
		bw.tick(false)
	}
	w, p := bw.w, bw.w.players[0]
	require.Equal(t, laneIdle, p.laneDue, "everything acknowledged: the lane is idle and Flush leaves it alone")
	laneDatagrams := func() (got [][]byte) {
		require.NoError(t, w.Flush(bw.now, func(conn PlayerID, d []byte) {
			for e := range wire.Elements(d) {
				if id, err := wire.Peek(e); err == nil && id.Transport() && conn == 0 {
					got = append(got, append([]byte(nil), e...))
				}
			}
		}))
		return got
	}
	require.NoError(t, w.SetHealth(bw.now, 0, 50))
	require.Zero(t, p.laneDue, "a queued command makes the lane due")
	require.NotEmpty(t, laneDatagrams(), "and the next Flush sends it")
	require.Greater(t, p.laneDue, bw.now, "then the lane waits for its retransmission deadline")
	require.Empty(t, laneDatagrams(), "nothing is due before it")

	bw.now += lane.Retransmit
	got := laneDatagrams()
	require.NotEmpty(t, got, "at the deadline the unacknowledged command is resent")
	for _, d := range got {
		require.NoError(t, bw.lanes[0].Receive(bw.now, d, func(wire.Message) {}))
	}
	require.NoError(t, bw.lanes[0].Flush(bw.now, func(d []byte) { require.NoError(t, w.Receive(bw.now, 0, d)) }))
	require.Zero(t, p.laneDue, "a lane datagram received makes the lane due (its acknowledgements)")
	_ = laneDatagrams()
	require.Equal(t, laneIdle, p.laneDue, "acknowledged: idle again")
	require.Zero(t, p.ep.Lane().Stats().Queued)
}
