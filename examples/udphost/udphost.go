// Package udphost runs arbiter on a real packet socket: it is the few dozen lines a host
// writes around the reference server (and around the honest client model) to put them on
// UDP. Everything arbiter decides stays in the pure state machines; this package only
// reads datagrams, keeps the clock, ticks and flushes.
//
// The shape is the one DESIGN.md asks of a host: one goroutine owns the world and calls
// it with the host's monotonic clock (time since the host started); a second goroutine
// only reads the socket and hands copies of the datagrams to the first over a channel.
// Connections are told apart by their address: the first datagram from a new address
// takes the next free connection id.
//
// Its test runs a server and two honest clients over pion's virtual UDP network inside
// testing/synctest, so seconds of play take no wall-clock time.
package udphost

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
)

// Tick is how often a host advances its state machine and flushes what it has to send.
const Tick = 10 * time.Millisecond

// MaxDatagram is the largest datagram a host reads; arbiter's are far smaller.
const MaxDatagram = 1500

// QueueLength is how many datagrams the reading goroutine may hand over before it blocks.
const QueueLength = 1024

type packet struct {
	from net.Addr
	data []byte
}

// read hands every datagram conn receives to out until conn is closed.
func read(conn net.PacketConn, out chan<- packet) {
	defer close(out)
	buf := make([]byte, MaxDatagram)
	for {
		n, addr, err := conn.ReadFrom(buf)
		if err != nil {
			return
		}
		out <- packet{from: addr, data: append([]byte(nil), buf[:n]...)}
	}
}

// Server hosts a refserver.World on conn.
type Server struct {
	conn  net.PacketConn
	world *refserver.World
	ids   map[string]refserver.PlayerID
	peers []net.Addr
	// Unknown counts datagrams from new addresses beyond the world's player slots.
	Unknown int
}

// NewServer returns a host for world on conn. Connection ids are given in the order
// addresses first speak, up to the world's MaxPlayers.
func NewServer(conn net.PacketConn, world *refserver.World) *Server {
	return &Server{conn: conn, world: world, ids: map[string]refserver.PlayerID{}}
}

// Run drives the world until ctx is done, then closes conn. It returns ctx's error.
func (s *Server) Run(ctx context.Context) error {
	return loop(ctx, s.conn, func(now time.Duration, p packet) {
		if id, ok := s.id(p.from); ok {
			_ = s.world.Receive(now, id, p.data)
		}
	}, func(now time.Duration) error {
		_ = s.world.Tick(now)
		_ = s.world.Flush(now, func(id refserver.PlayerID, d []byte) {
			if int(id) < len(s.peers) {
				_, _ = s.conn.WriteTo(d, s.peers[id])
			}
		})
		return nil
	})
}

// loop is a host's goroutine: it reads conn (through read), hands every datagram to
// onPacket and calls onTick every Tick, both with the time since the loop started, until
// ctx is done (ctx's error) or onTick returns an error; then it closes conn.
func loop(ctx context.Context, conn net.PacketConn, onPacket func(time.Duration, packet), onTick func(time.Duration) error) error {
	start := time.Now()
	in := make(chan packet, QueueLength)
	go read(conn, in)
	defer func() {
		_ = conn.Close()
		for range in { // let the reader see the closed socket and end
		}
	}()
	tick := time.NewTicker(Tick)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case p := <-in:
			onPacket(time.Since(start), p)
		case <-tick.C:
			if err := onTick(time.Since(start)); err != nil {
				return err
			}
		}
	}
}

func (s *Server) id(addr net.Addr) (refserver.PlayerID, bool) {
	k := addr.String()
	if id, ok := s.ids[k]; ok {
		return id, true
	}
	if len(s.peers) >= s.world.Config().MaxPlayers {
		s.Unknown++
		return 0, false
	}
	id := refserver.PlayerID(len(s.peers))
	s.ids[k] = id
	s.peers = append(s.peers, addr)
	return id, true
}

// Client hosts an honest client.Client on conn, talking to the server at server.
type Client struct {
	conn   net.PacketConn
	server net.Addr
	c      *client.Client
	// Play, if set, is called every Tick with the client's clock, on the goroutine that
	// owns the client: the place where a bot (or a game) acts through the client.
	Play func(now time.Duration, c *client.Client)
}

// NewClient returns a host for c on conn.
func NewClient(conn net.PacketConn, server net.Addr, c *client.Client) *Client {
	return &Client{conn: conn, server: server, c: c}
}

// ErrClosed is returned by Run when the client's connection ended.
var ErrClosed = errors.New("udphost: connection closed")

// Run drives the client until ctx is done or its connection ends, then closes conn.
func (h *Client) Run(ctx context.Context) error {
	return loop(ctx, h.conn, func(now time.Duration, p packet) {
		if p.from.String() == h.server.String() {
			_ = h.c.Receive(now, p.data)
		}
	}, func(now time.Duration) error {
		if h.Play != nil {
			h.Play(now, h.c)
		}
		_ = h.c.Tick(now)
		_ = h.c.Flush(now, func(d []byte) { _, _ = h.conn.WriteTo(d, h.server) })
		if closed, _ := h.c.Closed(); closed {
			return ErrClosed
		}
		return nil
	})
}
