package udphost

import (
	"context"
	"math/rand/v2"
	"net"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pion/logging"
	"github.com/pion/transport/v3/vnet"
	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/wire"
)

// newNet attaches a host with a static address to the router.
func newNet(t *testing.T, r *vnet.Router, ip string) *vnet.Net {
	t.Helper()
	n, err := vnet.NewNet(&vnet.NetConfig{StaticIPs: []string{ip}})
	require.NoError(t, err)
	require.NoError(t, r.AddNet(n))
	return n
}

// TestHonestPlayersOverUDP puts the reference server and two honest clients on pion's
// virtual UDP network (25 ms each way, 5 % of the datagrams lost by a seeded filter) and
// plays six seconds inside a synctest bubble: both players join and spawn over real
// sockets, one shoots the other, the hits are credited, and the server's ledger agrees
// with the victim's own health.
func TestHonestPlayersOverUDP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		router, err := vnet.NewRouter(&vnet.RouterConfig{CIDR: "10.0.0.0/24", MinDelay: 25 * time.Millisecond, MaxJitter: 0,
			LoggerFactory: logging.NewDefaultLoggerFactory()})
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(1, 2))
		var mu sync.Mutex
		router.AddChunkFilter(func(vnet.Chunk) bool {
			mu.Lock()
			defer mu.Unlock()
			return rng.Float64() >= 0.05
		})
		serverNet := newNet(t, router, "10.0.0.1")
		clientNets := []*vnet.Net{newNet(t, router, "10.0.0.2"), newNet(t, router, "10.0.0.3")}
		require.NoError(t, router.Start())
		defer func() { _ = router.Stop() }()

		world, err := refserver.New(refserver.Config{MaxPlayers: 4,
			Loadout: []refserver.Loadout{{Weapon: 31, Ammo: 200, Current: true}}})
		require.NoError(t, err)
		sconn, err := serverNet.ListenPacket("udp4", "10.0.0.1:7777")
		require.NoError(t, err)
		serverAddr := &net.UDPAddr{IP: net.ParseIP("10.0.0.1"), Port: 7777}

		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		srv := NewServer(sconn, world)
		wg.Go(func() { _ = srv.Run(ctx) })

		var clients []*client.Client
		for i, n := range clientNets {
			c, err := client.New(client.Config{World: client.OpenField{}, Seed: uint64(i)})
			require.NoError(t, err)
			clients = append(clients, c)
			conn, err := n.ListenPacket("udp4", "0.0.0.0:0")
			require.NoError(t, err)
			h := NewClient(conn, serverAddr, c)
			stand := wire.Vec3{X: float32(15 * i), Z: 10}
			h.Play = func(now time.Duration, c *client.Client) {
				if c.Alive() && c.Position() != stand {
					_ = c.Move(now, stand, wire.Vec3{}, 0)
				}
			}
			if i == 0 {
				var shots int
				h.Play = func(now time.Duration, c *client.Client) {
					self, ok := c.PlayerID()
					if c.Alive() && c.Position() != stand {
						_ = c.Move(now, stand, wire.Vec3{}, 0)
					}
					if !ok || !c.Alive() || now < 3*time.Second || shots >= 5 {
						return
					}
					for _, id := range c.AppendRemotes(nil) {
						r, _ := c.Remote(id)
						if id == self || !r.Copy.Alive {
							continue
						}
						a, err := c.Fire(now, 31, wire.HitPlayer, uint16(id), c.Position(), r.Position)
						if err == nil && a.Verdict == client.Acted {
							shots++
						}
					}
				}
			}
			wg.Go(func() { _ = h.Run(ctx) })
		}

		time.Sleep(6 * time.Second) // fake time: the bubble runs until everyone waits
		cancel()
		wg.Wait()

		require.Zero(t, srv.Unknown)
		for i, c := range clients {
			id, ok := c.PlayerID()
			require.True(t, ok, "client %d joined", i)
			require.True(t, c.Alive(), "client %d spawned", i)
			require.True(t, world.Alive(id))
		}
		var credited int
		for _, e := range world.Events(nil) {
			switch e.Kind {
			case refserver.EventPlayerDamage:
				credited++
			case refserver.EventGodMode, refserver.EventShotRefused, refserver.EventReportNotCredited:
				t.Fatalf("an honest player was wronged over UDP: %v", e)
			}
		}
		require.Positive(t, credited, "the shots were credited")
		victim, _ := clients[1].PlayerID()
		v, err := world.Vitals(victim)
		require.NoError(t, err)
		require.Less(t, clients[1].Health(), float32(100), "the victim was hit")
		require.InDelta(t, clients[1].Health(), v.Health, 0.01, "the server's ledger agrees with the victim")
	})
}
