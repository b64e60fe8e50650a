package client

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// flushCount flushes the client and returns how many datagrams it emitted.
func flushCount(h *harness) int {
	h.t.Helper()
	n := 0
	require.NoError(h.t, h.c.Flush(h.now, func([]byte) { n++ }))
	return n
}

// Flush skips the endpoint only while nothing is due: an idle client emits nothing, a
// reliable message from the server makes the next Flush acknowledge it, and what the
// client sends or queues leaves at the next Flush.
func TestFlushSkipsOnlyWhenNothingIsDue(t *testing.T) {
	h := newHarness(t, Config{Seed: 1})
	h.join()
	h.flush()
	require.Zero(t, flushCount(h), "nothing queued, nothing owed")
	require.NotEqual(t, time.Duration(0), h.c.flushDue, "the skip is armed")

	h.send(&wire.SetHealth{Health: 50, Rev: 1}) // reliable: the client owes an acknowledgement
	require.Equal(t, 1, flushCount(h), "the acknowledgement leaves at the next Flush")
	require.Zero(t, flushCount(h))

	h.at(h.now + 5*time.Millisecond)
	require.NoError(t, h.c.Leave(h.now)) // unreliable Disconnects
	require.Equal(t, DisconnectRepeats, flushCount(h))
}

// A reliable message the server did not receive is retransmitted by a later Flush even
// though the client queued nothing since: the skip waits for the lane's deadline only.
func TestFlushSkipKeepsRetransmissions(t *testing.T) {
	h := newHarness(t, Config{Seed: 1})
	h.step() // Hello
	h.send(&wire.Welcome{Player: selfID, PlayerToken: selfToken, Session: h.c.Session()})
	h.drop = func([]byte) bool { return true }
	h.step() // RespawnRequest{0}, lost
	h.drop = nil
	require.Empty(t, of[*wire.RespawnRequest](h.got))
	before := h.c.ep.Lane().Stats().Retransmits
	for i := 0; i < 100 && len(of[*wire.RespawnRequest](h.got)) == 0; i++ {
		h.at(h.now + 10*time.Millisecond)
		h.flush() // no Tick: nothing new is queued
	}
	require.NotEmpty(t, of[*wire.RespawnRequest](h.got), "retransmitted")
	require.Greater(t, h.c.ep.Lane().Stats().Retransmits, before)
}

// A host that keeps the endpoint (Endpoint) and queues on it later has it sent at the
// next Flush.
func TestFlushSendsWhatTheHostQueued(t *testing.T) {
	h := newHarness(t, Config{Seed: 1})
	h.join()
	ep := h.c.Endpoint() // kept by the host
	h.flush()
	require.Zero(t, flushCount(h))
	h.at(h.now + time.Millisecond)
	_, err := ep.Queue(h.now, &wire.RespawnRequest{DeathEpoch: 1})
	require.NoError(t, err)
	require.Equal(t, 1, flushCount(h))
}

// A relayed frame skips the tracker only while its copy's remembered stamp is what the
// tracker holds: after another packet of the sender changed the tracker's entry (here to
// a revision half the space away, which any other stamp replaces), the frame's stamp is
// observed again.
func TestFrameStampSkipFollowsTheTracker(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.PlayerShow{Player: rival, PlayerToken: 30, DeathEpoch: 1, Alive: true, Health: 100, SyncSeq: 1})
	held := func() wire.Stamp {
		s, ok := h.c.tracker.Newest(rival)
		require.True(t, ok)
		return wire.Stamp{Teammate: s.Teammate, Rev: s.Rev}
	}
	h.send(rivalFrame(2, teammateAt(5)))
	require.Equal(t, teammateAt(5), held())
	h.send(&wire.RemoteVehicleSync{Driver: rival, Vehicle: 22, SyncSeq: 1, Rotation: unit, Health: 900, Stamp: apartAt(5 + 1<<15)})
	require.Equal(t, apartAt(5+1<<15), held())
	h.send(rivalFrame(3, teammateAt(5)))
	require.Equal(t, teammateAt(5), held(), "half the space away: the frame's stamp replaces it")
}
