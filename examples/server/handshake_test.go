package main

import (
	"io"
	"log/slog"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/wire"
)

// memNet wires a host and clients in memory: the clients' datagrams go to the host's
// handshake from their address, the host's to whichever client holds the address now.
type memNet struct {
	t     *testing.T
	h     *host
	now   time.Duration
	at    map[netip.AddrPort]*client.Client // the client that holds each address
	out   []sent                            // the host's datagrams of the step
	order []netip.AddrPort
	// sentBy keeps every datagram each client sent, for replaying stale ones.
	sentBy map[*client.Client][][]byte
}

type sent struct {
	to netip.AddrPort
	d  []byte
}

func newMemNet(t *testing.T, maxPlayers int) *memNet {
	t.Helper()
	world, err := refserver.New(refserver.Config{MaxPlayers: maxPlayers})
	require.NoError(t, err)
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	n := &memNet{t: t, at: map[netip.AddrPort]*client.Client{}, sentBy: map[*client.Client][][]byte{}}
	n.h = newHost(conn, world, slog.New(slog.NewTextHandler(io.Discard, nil)), newMetrics(), options{})
	n.h.write = func(d []byte, to netip.AddrPort) { n.out = append(n.out, sent{to, append([]byte(nil), d...)}) }
	return n
}

// hold makes c the client on addr (a restarted client takes its predecessor's address).
func (n *memNet) hold(addr netip.AddrPort, c *client.Client) {
	if _, ok := n.at[addr]; !ok {
		n.order = append(n.order, addr)
	}
	n.at[addr] = c
}

// step runs one 10 ms tick of every client and of the host.
func (n *memNet) step() {
	n.now += 10 * time.Millisecond
	for _, addr := range n.order {
		c := n.at[addr]
		if c == nil {
			continue
		}
		_ = c.Tick(n.now)
		_ = c.Flush(n.now, func(d []byte) {
			b := append([]byte(nil), d...)
			n.sentBy[c] = append(n.sentBy[c], b)
			n.h.receive(n.now, addr, b)
		})
	}
	n.h.tick(n.now)
	out := n.out
	n.out = nil
	for _, s := range out {
		if c := n.at[s.to]; c != nil {
			_ = c.Receive(n.now, s.d)
		}
	}
}

func newClient(t *testing.T, seed uint64) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{World: client.OpenField{}, Seed: seed})
	require.NoError(t, err)
	return c
}

// TestANewSessionOnALiveAddressWaitsForTheOldOneToEnd holds the handshake's rule for a
// client restarted on the same address: its Hello is refused while the old session, whose
// lane has delivered messages, is live (the old player keeps its slot and its state); the
// old session ends by the link timeout, its address is freed after the Disconnect, the old
// session's delayed datagrams are then refused as a stranger's, and a Hello opens a new
// session with a new token.
func TestAStaleHelloOnALiveAddressWaitsForTheOldSessionToEnd(t *testing.T) {
	n := newMemNet(t, 4)
	addr := netip.MustParseAddrPort("127.0.0.1:40000")
	old := newClient(t, 1)
	n.hold(addr, old)
	for range 100 {
		n.step()
	}
	id, ok := old.PlayerID()
	require.True(t, ok, "the first client was welcomed")
	require.True(t, old.Spawned(), "and spawned")
	st, err := n.h.world.LaneStats(id)
	require.NoError(t, err)
	require.Positive(t, st.Delivered, "its lane delivered messages")
	oldToken := old.Token()

	// A delayed or replayed Hello of the same session (its Session) is refused while the
	// session lives: it opens nothing and ends nothing.
	hello := n.sentBy[old][0]
	var first wire.Hello
	require.NoError(t, first.Decode(hello), "the client's first datagram is its Hello")
	for range 3 {
		n.h.receive(n.now, addr, hello)
	}
	require.Equal(t, uint64(3), n.h.refused[refuseLiveHello], "a Hello on a live session that delivered messages is counted")
	require.True(t, n.h.world.Connected(id), "the old session lives on")
	var welcomed bool

	// Silence from the old session: the World ends it at the link timeout, and the host
	// frees the address once the Disconnect went out.
	n.hold(addr, nil)
	for n.h.world.Connected(id) && n.now < 2*transport.LinkTimeout {
		n.step()
	}
	require.False(t, n.h.world.Connected(id), "the old session ended")
	require.GreaterOrEqual(t, n.now, transport.LinkTimeout, "by the link timeout")
	n.step()
	_, bound := n.h.ids[addr]
	require.False(t, bound, "its address is free")

	// The old session's delayed datagrams are a stranger's now.
	before := n.h.refused[refuseStranger]
	for _, d := range n.sentBy[old][len(n.sentBy[old])-5:] {
		n.h.receive(n.now, addr, d)
	}
	require.Equal(t, before+5, n.h.refused[refuseStranger], "stale datagrams of an ended session are refused")
	require.False(t, n.h.world.Connected(id), "and open nothing")

	// A Hello opens a new session with a new token.
	fresh := newClient(t, 3)
	n.hold(addr, fresh)
	for range 50 {
		n.step()
	}
	_, welcomed = fresh.PlayerID()
	require.True(t, welcomed, "a Hello after the old session ended opens a new one")
	require.NotEqual(t, oldToken, fresh.Token(), "with a new token")
}

// TestARestartedClientEndsItsOldSessionAtOnce: a Hello of another Session from a live
// address is a client restarted there: the old session is ended at once (not at the link
// timeout) and the new one opens as soon as the slot is free, with a new token.
func TestARestartedClientEndsItsOldSessionAtOnce(t *testing.T) {
	n := newMemNet(t, 4)
	addr := netip.MustParseAddrPort("127.0.0.1:40000")
	old := newClient(t, 1)
	n.hold(addr, old)
	for range 100 {
		n.step()
	}
	id, ok := old.PlayerID()
	require.True(t, ok, "the first client was welcomed")
	oldToken := old.Token()

	restarted := newClient(t, 2)
	require.NotEqual(t, old.Session(), restarted.Session(), "a new connection, a new Session")
	n.hold(addr, restarted)
	start := n.now
	for range 200 {
		n.step()
		if _, ok := restarted.PlayerID(); ok {
			break
		}
	}
	_, welcomed := restarted.PlayerID()
	require.True(t, welcomed, "the restarted client is welcomed")
	require.Less(t, n.now-start, time.Second, "at once, not at the link timeout")
	require.Equal(t, uint64(1), n.h.refused[refuseRestarted], "the old session was ended once")
	require.NotEqual(t, oldToken, restarted.Token(), "with a new token")
	require.Positive(t, restarted.Counters().StaleDisconnects, "the old session's Disconnect reached it and was not taken for its own")
	require.True(t, n.h.world.Connected(id), "the slot serves the new session")
}

// TestAFullServerRefusesHelloWithADisconnect holds the refusal of a full server: a Hello
// from a new address with every slot taken gets a Disconnect and is counted, and the
// answers are capped per tick.
func TestAFullServerRefusesHelloWithADisconnect(t *testing.T) {
	n := newMemNet(t, 1)
	n.hold(netip.MustParseAddrPort("127.0.0.1:40000"), newClient(t, 1))
	for range 20 {
		n.step()
	}
	hello, err := (&wire.Hello{}).Append(nil)
	require.NoError(t, err)
	for i := range MaxRefusalReplies + 10 {
		n.h.receive(n.now, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.2"), uint16(1000+i)), hello)
	}
	require.Len(t, n.out, MaxRefusalReplies, "one Disconnect per refused Hello, at most MaxRefusalReplies a tick")
	var dec wire.Decoder
	m, err := dec.Decode(n.out[0].d)
	require.NoError(t, err)
	require.Equal(t, &wire.Disconnect{Reason: wire.ReasonFull}, m)
	require.Equal(t, uint64(MaxRefusalReplies+10), n.h.refused[refuseFull])
	require.Equal(t, 1, len(n.h.ids), "no refused address took a slot")
}

// TestRefusedDatagramsAllocateNothing holds the flood's path to no allocation: a Hello to
// a full server (answered, then past MaxRefusalReplies only counted), a stranger's
// message, another protocol version and stray bytes.
func TestRefusedDatagramsAllocateNothing(t *testing.T) {
	n := newMemNet(t, 1)
	n.hold(netip.MustParseAddrPort("127.0.0.1:40000"), newClient(t, 1))
	for range 20 {
		n.step()
	}
	n.h.write = func([]byte, netip.AddrPort) {}
	hello, err := (&wire.Hello{}).Append(nil)
	require.NoError(t, err)
	frame, err := (&wire.Disconnect{}).Append(nil)
	require.NoError(t, err)
	other := append([]byte{wire.Version + 1}, hello[1:]...)
	stray := []byte{0xff}
	from := netip.MustParseAddrPort("127.0.0.2:1000")
	allocs := testing.AllocsPerRun(200, func() {
		for _, d := range [][]byte{hello, frame, other, stray} {
			n.h.receive(n.now, from, d)
		}
	})
	require.Zero(t, allocs, "allocations per four refused datagrams")
	require.Positive(t, n.h.refused[refuseFull])
	require.Positive(t, n.h.refused[refuseStranger])
	require.Positive(t, n.h.refused[refuseVersion])
	require.Positive(t, n.h.refused[refuseMalformed])
}
