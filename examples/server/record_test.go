package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/replay"
	"github.com/arbitergo/arbiter/examples/udphost"
	"github.com/arbitergo/arbiter/wire"
)

// TestRecordOfARealUDPRunReplaysIdentically: the server runs with -record on a loopback
// port, with the built-in deathmatch.lua (its commands go through the recorder) and two
// honest clients (examples/client over examples/udphost) that join, move, and one of
// which shoots the other, while the host's gamemode gives a weapon through the recorder;
// at the shutdown the record file replays offline with every result, event
// and datagram bit-identical, and the replay's events are exactly the ones the host saw
// live, in order.
func TestRecordOfARealUDPRunReplaysIdentically(t *testing.T) {
	const players = 2
	path := filepath.Join(t.TempDir(), "run.arb")
	var (
		mu    sync.Mutex
		live  []string
		given atomic.Bool
	)
	s := startServer(t, `{"max_players": 2, "loadout": [{"weapon": 31, "ammo": 200, "current": true}]}`, options{
		event: func(e refserver.Event) {
			mu.Lock()
			live = append(live, e.String())
			mu.Unlock()
		},
		gamemode: func(now time.Duration, w *replay.Recorder) {
			if given.Load() || len(w.Players(nil)) < players {
				return
			}
			for _, id := range w.Players(nil) {
				if w.GiveWeapon(now, id, 24, 50, false) == nil {
					given.Store(true)
				}
			}
		},
	}, "-record", path)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a bound for a loaded machine: the test ends as soon as its conditions are met
	defer cancel()
	var wg sync.WaitGroup
	var hits, shots atomic.Int32
	for i := range players {
		c, err := client.New(client.Config{World: client.OpenField{}, Seed: uint64(i)})
		require.NoError(t, err)
		conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
		require.NoError(t, err)
		h := udphost.NewClient(conn, net.UDPAddrFromAddrPort(s.game), c)
		stand := wire.Vec3{X: float32(10 * i), Z: 10}
		h.Play = func(now time.Duration, c *client.Client) {
			self, ok := c.PlayerID()
			if !ok || !c.Alive() {
				return
			}
			if c.Position() != stand {
				_ = c.Move(now, stand, wire.Vec3{}, 0)
			}
			if i == 1 && c.Health() < 100 && hits.Load() == 0 {
				hits.Add(1)
			}
			if i != 0 || shots.Load() >= 3 {
				return
			}
			for _, id := range c.AppendRemotes(nil) {
				if r, _ := c.Remote(id); id != self && r.Copy.Alive && r.Position.Z == 10 {
					if a, err := c.Fire(now, 31, wire.HitPlayer, uint16(id), c.Position(), r.Position); err == nil && a.Verdict == client.Acted {
						shots.Add(1)
					}
					return
				}
			}
		}
		wg.Go(func() { _ = h.Run(ctx) })
	}
	for ctx.Err() == nil && (hits.Load() == 0 || !given.Load()) {
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, ctx.Err(), "a shot hit and the gamemode gave its weapon in time")
	time.Sleep(200 * time.Millisecond)
	s.cancel()
	require.Equal(t, 0, <-s.code, "the command returns 0 after a graceful shutdown")
	wg.Wait()

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var replayed []string
	res, err := replay.Replay(f, replay.Options{OnEvent: func(e refserver.Event) { replayed = append(replayed, e.String()) }})
	require.NoError(t, err)
	require.Nil(t, res.Divergence, "the replay of the real run is identical")
	require.Positive(t, res.Flushes)
	require.Positive(t, res.Final.NDatagrams, "the run sent datagrams")
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, live, replayed, "the replay raises the events the host saw live, in order")
	require.Contains(t, joined(replayed), "player_damage", "the replay holds the shot's verdict")
	require.GreaterOrEqual(t, res.Verbs[replay.VerbJoinTeam], players, "deathmatch.lua's team commands were recorded and replayed")
	require.GreaterOrEqual(t, res.Verbs[replay.VerbGiveWeapon], players, "the host's gamemode's commands too")
}

func joined(s []string) string {
	var b []byte
	for _, x := range s {
		b = append(b, x...)
		b = append(b, '\n')
	}
	return string(b)
}
