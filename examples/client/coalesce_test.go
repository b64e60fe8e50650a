package client

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/wire"
)

// A client with a PayloadSize sends what one Flush has (a shot, its frame, a pong, the
// lane's datagram) in one bundle, and the server's endpoint reads the same messages as
// from a client that sends each alone.
func TestClientCoalescesOneFlush(t *testing.T) {
	run := func(payload int) (datagrams int, got []string) {
		h := newHarness(t, Config{PayloadSize: payload})
		h.join()
		giveGun(h, 1, 24, 9)
		h.enqueue(&wire.Ping{Seq: 5}, &wire.SetHealth{Rev: 1, Health: 90})
		for _, d := range h.serverDatagrams() {
			require.NoError(t, h.c.Receive(h.now, d))
		}
		h.at(h.now + transport.FrameInterval)
		a, err := h.c.Fire(h.now, 24, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 10})
		require.NoError(t, err)
		require.Equal(t, Acted, a.Verdict)
		require.NoError(t, h.c.Tick(h.now))
		require.NoError(t, h.c.Flush(h.now, func(d []byte) {
			datagrams++
			require.LessOrEqual(t, len(d), transport.MinPayloadSize)
			require.NoError(t, h.srv.Receive(h.now, d, func(m wire.Message) { got = append(got, m.ID().String()) }))
		}))
		return datagrams, got
	}
	alone, want := run(0)
	n, got := run(transport.MinPayloadSize)
	require.Equal(t, want, got, "the same messages in the same order")
	require.Greater(t, alone, 1, "without coalescing: %v in %d datagrams", want, alone)
	require.Equal(t, 1, n, "coalesced: %v in one datagram", got)
	_, err := New(Config{PayloadSize: transport.MinPayloadSize - 1})
	require.ErrorIs(t, err, ErrConfig)
}
