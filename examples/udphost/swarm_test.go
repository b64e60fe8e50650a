package udphost

import (
	"context"
	"net"
	"net/netip"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pion/logging"
	"github.com/pion/transport/v3/vnet"
	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
)

// TestSwarmNeedsOneSocketPerClient refuses a Swarm whose clients and sockets do not pair
// up.
func TestSwarmNeedsOneSocketPerClient(t *testing.T) {
	c, err := client.New(client.Config{})
	require.NoError(t, err)
	_, err = NewSwarm(netip.MustParseAddrPort("127.0.0.1:1"), []*client.Client{c}, nil, 1)
	require.ErrorIs(t, err, ErrSwarmConfig)
	_, err = NewSwarm(netip.MustParseAddrPort("127.0.0.1:1"), []*client.Client{c}, []net.PacketConn{nil}, 1)
	require.ErrorIs(t, err, ErrSwarmConfig)
}

// TestSwarmOverVirtualUDP runs three honest clients in a Swarm of two goroutines over
// pion's virtual UDP network, whose sockets cannot be read without waiting (each gets a
// reading goroutine), inside a synctest bubble: every client joins, spawns, sees the
// others' relayed frames at about FrameInterval each, and the Swarm counts the
// datagrams both ways; every client runs until the Swarm's context ends.
func TestSwarmOverVirtualUDP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		router, err := vnet.NewRouter(&vnet.RouterConfig{CIDR: "10.0.0.0/24", MinDelay: 10 * time.Millisecond,
			LoggerFactory: logging.NewDefaultLoggerFactory()})
		require.NoError(t, err)
		serverNet := newNet(t, router, "10.0.0.1")
		clientNet := newNet(t, router, "10.0.0.2")
		require.NoError(t, router.Start())
		defer func() { _ = router.Stop() }()

		world, err := refserver.New(refserver.Config{MaxPlayers: 4})
		require.NoError(t, err)
		sconn, err := serverNet.ListenPacket("udp4", "10.0.0.1:7777")
		require.NoError(t, err)
		sctx, stopServer := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		srv := NewServer(sconn, world)
		wg.Go(func() { _ = srv.Run(sctx) })

		const players = 3
		var clients []*client.Client
		var conns []net.PacketConn
		for i := range players {
			c, err := client.New(client.Config{Seed: uint64(i)})
			require.NoError(t, err)
			clients = append(clients, c)
			conn, err := clientNet.ListenPacket("udp4", "0.0.0.0:0")
			require.NoError(t, err)
			conns = append(conns, conn)
		}
		swarm, err := NewSwarm(netip.MustParseAddrPort("10.0.0.1:7777"), clients, conns, 2)
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- swarm.Run(ctx) }()

		const played = 3 * time.Second
		time.Sleep(played) // fake time
		cancel()
		require.ErrorIs(t, <-done, context.Canceled)
		// The clients are the test's again.
		for i, c := range clients {
			_, ok := c.PlayerID()
			require.True(t, ok, "client %d joined", i)
			require.True(t, c.Alive(), "client %d spawned", i)
			require.Len(t, c.AppendRemotes(nil), players-1, "client %d has a copy of every other player", i)
			// Frames every FrameInterval after the spawn (well within the first second):
			// at least 2 s of them from each of the two others.
			least := 2 * int(2*time.Second/(SwarmTick*3))
			require.GreaterOrEqual(t, c.Counters().FramesApplied, least, "client %d took the others' relayed frames", i)
		}
		stopServer()
		wg.Wait()
		st := swarm.Stats()
		var sent, applied int
		for i, c := range clients {
			require.NoError(t, swarm.Err(i), "client %d ran until the context ended", i)
			sent += c.Counters().Frames
			applied += c.Counters().FramesApplied
		}
		require.GreaterOrEqual(t, st.Sent, uint64(sent), "every frame sent is a datagram counted")
		// A datagram of the server may carry several relays (at most one frame of each of
		// the others per server tick).
		require.GreaterOrEqual(t, st.Received, uint64(applied/(players-1)), "the relayed frames taken came in datagrams counted")
		require.Zero(t, st.Strangers)
	})
}
