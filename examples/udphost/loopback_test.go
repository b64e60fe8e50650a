package udphost

import (
	"bytes"
	"context"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/wire"
)

// listenLoopback opens a UDP socket on 127.0.0.1 at a free port.
func listenLoopback(t testing.TB) *net.UDPConn {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// loopbackIO opens a socket and its packetIO, the batched one on Linux.
func loopbackIO(t testing.TB) (*net.UDPConn, packetIO) {
	t.Helper()
	c := listenLoopback(t)
	p := newPacketIO(c)
	if runtime.GOOS == "linux" {
		require.IsType(t, &batchIO{}, p, "a *net.UDPConn on Linux is read and written in batches")
	}
	return c, p
}

func localAddrPort(c *net.UDPConn) netip.AddrPort { return addrPortOf(c.LocalAddr()) }

// datagrams returns n messages of size bytes each for to, the i-th filled with byte i.
func datagrams(n, size int, to netip.AddrPort) []message {
	ms := newMessages(n)
	for i := range ms {
		ms[i].buf = append(ms[i].buf[:0], bytes.Repeat([]byte{byte(i)}, size)...)
		ms[i].addr = to
	}
	return ms
}

// receive reads until n datagrams arrived into in, and returns how many of them matched
// want (same bytes, from from) in order.
func receive(t testing.TB, p packetIO, in []message, want []message, from netip.AddrPort) int {
	got, same := 0, 0
	for got < len(want) {
		n, err := p.read(in)
		if err != nil {
			t.Fatalf("read after %d of %d datagrams: %v", got, len(want), err)
		}
		for _, m := range in[:n] {
			if m.addr == from && bytes.Equal(m.buf, want[got].buf) {
				same++
			}
			got++
		}
	}
	return same
}

// TestBatchedIOAllocatesNothingPerDatagram sends batches of frame-sized datagrams between
// two loopback sockets through the host's packetIO (sendmmsg and recvmmsg on Linux) and
// requires that, once warm, a batch written and read costs no allocation, and that every
// datagram arrives whole, in order, from the sender's address.
func TestBatchedIOAllocatesNothingPerDatagram(t *testing.T) {
	ca, a := loopbackIO(t)
	cb, b := loopbackIO(t)
	require.NoError(t, cb.SetReadDeadline(time.Now().Add(30*time.Second)))
	out := datagrams(32, 48, localAddrPort(cb))
	in := newMessages(b.batch())
	from := localAddrPort(ca)

	require.NoError(t, a.write(out))
	require.Equal(t, len(out), receive(t, b, in, out, from), "every datagram arrives whole, in order")
	allocs := testing.AllocsPerRun(100, func() {
		if err := a.write(out); err != nil {
			t.Fatal(err)
		}
		receive(t, b, in, out, from)
	})
	if !raceEnabled {
		require.Zero(t, allocs, "allocations per batch of %d datagrams written and read", len(out))
	}
}

// TestBatchWriteSkipsARefusedDatagram writes three datagrams of which the socket refuses
// the second (no destination address): the other two still go out, and the error is
// returned.
func TestBatchWriteSkipsARefusedDatagram(t *testing.T) {
	ca, a := loopbackIO(t)
	cb, b := loopbackIO(t)
	require.NoError(t, cb.SetReadDeadline(time.Now().Add(30*time.Second)))
	out := datagrams(3, 20, localAddrPort(cb))
	out[1].addr = netip.AddrPort{}
	require.Error(t, a.write(out))
	in := newMessages(b.batch())
	want := []message{out[0], out[2]}
	require.Equal(t, 2, receive(t, b, in, want, localAddrPort(ca)))
}

// TestHonestPlayersOverLoopback puts the reference server and three honest clients (a
// Swarm) on real UDP sockets on 127.0.0.1 (the batched path on Linux) and plays in real time until
// every client sees the others' relayed frames and one of them has been shot, five
// seconds at most: all join and spawn, the frames are relayed, the hits are credited,
// nobody honest is wronged, and the server's ledger agrees with every client's health.
func TestHonestPlayersOverLoopback(t *testing.T) {
	world, err := refserver.New(refserver.Config{MaxPlayers: 4,
		Loadout: []refserver.Loadout{{Weapon: 31, Ammo: 200, Current: true}}})
	require.NoError(t, err)
	sconn := listenLoopback(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a bound for a loaded machine: the test ends as soon as its conditions are met
	defer cancel()
	var wg sync.WaitGroup
	srv := NewServer(sconn, world)
	wg.Go(func() { _ = srv.Run(ctx) })

	const players = 3
	var clients []*client.Client
	var conns []net.PacketConn
	var seeing, hit atomic.Int32 // clients that see every other player where it stands; players hit
	for i := range players {
		c, err := client.New(client.Config{World: client.OpenField{}, Seed: uint64(i)})
		require.NoError(t, err)
		clients = append(clients, c)
		conns = append(conns, listenLoopback(t))
	}
	// The clients run in one Swarm, two goroutines: each client's state below is touched
	// only in its own Play.
	swarm, err := NewSwarm(localAddrPort(sconn), clients, conns, 2)
	require.NoError(t, err)
	var sees, wasHit [players]bool
	var shots [players]int
	swarm.Play = func(i int, now time.Duration, c *client.Client) {
		self, ok := c.PlayerID()
		if !ok || !c.Alive() {
			return
		}
		stand := wire.Vec3{X: float32(15 * i), Z: 10} // the spawn point is at Z 0
		if c.Position() != stand {
			_ = c.Move(now, stand, wire.Vec3{}, 0)
		}
		var target wire.PlayerID
		seen := 0
		for _, id := range c.AppendRemotes(nil) {
			if r, _ := c.Remote(id); id != self && r.Copy.Alive && r.Position.Z == 10 {
				if seen++; seen == 1 {
					target = id
				}
			}
		}
		if !sees[i] && seen == players-1 {
			sees[i] = true
			seeing.Add(1)
		}
		if !wasHit[i] && c.Health() < 100 {
			wasHit[i] = true
			hit.Add(1)
		}
		if i != 0 || !sees[i] || shots[i] >= 5 {
			return
		}
		r, _ := c.Remote(target)
		if a, err := c.Fire(now, 31, wire.HitPlayer, uint16(target), c.Position(), r.Position); err == nil && a.Verdict == client.Acted {
			shots[i]++
		}
	}
	wg.Go(func() { _ = swarm.Run(ctx) })
	for ctx.Err() == nil && (seeing.Load() < players || hit.Load() == 0) {
		time.Sleep(20 * time.Millisecond)
	}
	// Let the victim's damage report reach the server before the ledgers are compared.
	time.Sleep(300 * time.Millisecond)
	cancel()
	wg.Wait()

	require.Equal(t, int32(players), seeing.Load(), "every client saw the others' relayed frames")
	require.Equal(t, int32(1), hit.Load(), "one player was hit")
	require.Zero(t, srv.Unknown)
	for i, c := range clients {
		id, ok := c.PlayerID()
		require.True(t, ok, "client %d joined", i)
		require.True(t, world.Alive(id), "client %d is alive on the server", i)
		v, err := world.Vitals(id)
		require.NoError(t, err)
		require.InDelta(t, c.Health(), v.Health, 0.01, "the server's ledger agrees with client %d", i)
	}
	var credited int
	for _, e := range world.Events(nil) {
		switch e.Kind {
		case refserver.EventPlayerDamage:
			credited++
		case refserver.EventGodMode, refserver.EventShotRefused, refserver.EventReportNotCredited:
			t.Fatalf("an honest player was wronged over loopback: %v", e)
		}
	}
	require.Positive(t, credited, "the shots were credited")
}
