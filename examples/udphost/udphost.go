// Package udphost runs arbiter on a real packet socket: it is the few dozen lines a host
// writes around the reference server (and around the honest client model) to put them on
// UDP. Everything arbiter decides stays in the pure state machines; this package only
// reads datagrams, keeps the clock, ticks and flushes.
//
// The shape is the one DESIGN.md asks of a host: one goroutine owns the world and calls
// it with the host's monotonic clock (time since the host started); a second goroutine
// only reads the socket and hands the datagrams to the first over a channel, a batch at
// a time, which the server gives the world at once (refserver.World.ReceiveBatch); a
// third only writes: the world's goroutine copies each datagram it sends into a batch
// and hands every full batch, and the partial one at the end of the tick, to the writer
// over a channel, so that the kernel's send path (most of a busy server's time) runs off
// the world's goroutine. One writer keeps the datagrams in the order they were sent. At
// most WriteBatches batches wait for the writer; past that the world's goroutine waits
// for it, as it would for a synchronous write. When a host's Run returns, everything it
// sent was written before the socket closed, and both goroutines have ended.
// Connections are told apart by their address (a netip.AddrPort, compared without
// allocating): the first datagram from a new address takes the next free connection id.
//
// The socket is read and written in batches. On Linux a *net.UDPConn is read with
// recvmmsg (many datagrams per system call) and written with sendmmsg through
// golang.org/x/net's WriteBatch; the datagrams read land in buffers the world goroutine
// hands back once it has handled them, and the datagrams the world flushes are copied
// into the messages of batches the writer hands back (allocated as first needed, up to
// WriteBatches), so on a *net.UDPConn nothing is allocated per datagram once the host
// runs. Elsewhere, and on any other net.PacketConn (pion's virtual network in the tests,
// whose ReadFrom allocates the address it returns), the same batches are filled one
// datagram per call.
//
// Swarm drives many honest clients at once, each on a socket of its own, from a few
// goroutines (each client's socket read without waiting, batched on Linux, and written by
// the goroutine that steps the client, without a writer of its own): the load generator
// of examples/loadtest and the loopback tests' clients.
//
// Its tests run a server and two honest clients over pion's virtual UDP network inside
// testing/synctest, so seconds of play take no wall-clock time, and a server and honest
// clients on the machine's loopback interface, over the batched path.
package udphost

import (
	"context"
	"errors"
	"net"
	"net/netip"
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

// BatchSize is the most datagrams one system call reads or writes on the batched path.
const BatchSize = 64

// msgBatch is a batch of datagrams read together (the reading goroutine's) or to be
// written together (the writing goroutine's: write.go): the first n of ms.
type msgBatch struct {
	ms []message
	n  int
}

// read fills the batches free gives it and hands them to full until the socket fails
// (it was closed); then it closes full.
func read(p packetIO, free <-chan *msgBatch, full chan<- *msgBatch) {
	defer close(full)
	for b := range free {
		n, err := p.read(b.ms)
		if err != nil {
			return
		}
		b.n = n
		full <- b
	}
}

// loop is a host's goroutine: it reads the socket (through read), hands every batch of
// datagrams read together to onBatch and calls onTick every tick, both with the time since
// the loop started, until ctx is done (ctx's error) or onTick returns an error. Meanwhile
// h's datagrams are written by its writing goroutine (host.start). At the end, everything
// sent is written, the writer has ended, and then conn is closed. The messages passed to
// onBatch (their buffers) are valid only during the call.
func loop(ctx context.Context, conn net.PacketConn, h *host, every time.Duration, onBatch func(now time.Duration, ms []message),
	onTick func(time.Duration) error) error {
	start := time.Now()
	p := h.io
	per := p.batch()
	count := max(QueueLength/per, 2)
	free, full := make(chan *msgBatch, count), make(chan *msgBatch, count)
	for range count {
		free <- &msgBatch{ms: newMessages(per)}
	}
	go read(p, free, full)
	h.start()
	defer func() {
		h.stop() // everything sent is written before the socket closes
		_ = conn.Close()
		for b := range full { // let the reader see the closed socket and end
			free <- b
		}
	}()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case b := <-full:
			onBatch(time.Since(start), b.ms[:b.n])
			free <- b
		case <-tick.C:
			if err := onTick(time.Since(start)); err != nil {
				return err
			}
		}
	}
}

// each is loop's onBatch that hands the datagrams of a batch one by one to onPacket.
func each(onPacket func(now time.Duration, from netip.AddrPort, d []byte)) func(time.Duration, []message) {
	return func(now time.Duration, ms []message) {
		for i := range ms {
			onPacket(now, ms[i].addr, ms[i].buf)
		}
	}
}

// Server hosts a refserver.World on conn.
type Server struct {
	conn  net.PacketConn
	h     host
	world *refserver.World
	ids   map[netip.AddrPort]refserver.PlayerID
	peers []netip.AddrPort
	// batch is the datagrams of a read batch from known addresses, for
	// refserver.World.ReceiveBatch (BatchSize of room).
	batch []refserver.Datagram
	// Unknown counts datagrams from new addresses beyond the world's player slots.
	Unknown int
}

// NewServer returns a host for world on conn. Connection ids are given in the order
// addresses first speak, up to the world's MaxPlayers.
func NewServer(conn net.PacketConn, world *refserver.World) *Server {
	return &Server{conn: conn, h: newHost(conn), world: world, ids: map[netip.AddrPort]refserver.PlayerID{},
		batch: make([]refserver.Datagram, 0, BatchSize)}
}

// Run drives the world until ctx is done, then writes what it sent and closes conn. It
// returns ctx's error.
func (s *Server) Run(ctx context.Context) error {
	emit := func(id refserver.PlayerID, d []byte) {
		if int(id) < len(s.peers) {
			s.h.send(d, s.peers[id])
		}
	}
	return loop(ctx, s.conn, &s.h, Tick, s.receive, func(now time.Duration) error {
		_ = s.world.Tick(now)
		_ = s.world.Flush(now, emit)
		s.h.flush()
		return nil
	})
}

// receive hands a batch of datagrams read together to the world at once
// (refserver.World.ReceiveBatch: the world reads the state of the next few connections
// ahead of each datagram, so that their cache misses overlap), those from addresses
// beyond the world's player slots left out.
func (s *Server) receive(now time.Duration, ms []message) {
	for i := range ms {
		if id, ok := s.id(ms[i].addr); ok {
			s.batch = append(s.batch, refserver.Datagram{Conn: id, Data: ms[i].buf})
		}
	}
	s.world.ReceiveBatch(now, s.batch, nil)
	clear(s.batch) // the buffers go back to the reader
	s.batch = s.batch[:0]
}

func (s *Server) id(addr netip.AddrPort) (refserver.PlayerID, bool) {
	if id, ok := s.ids[addr]; ok {
		return id, true
	}
	if len(s.peers) >= s.world.Config().MaxPlayers {
		s.Unknown++
		return 0, false
	}
	id := refserver.PlayerID(len(s.peers))
	s.ids[addr] = id
	s.peers = append(s.peers, addr)
	return id, true
}

// Client hosts an honest client.Client on conn, talking to the server at server.
type Client struct {
	conn   net.PacketConn
	h      host
	server netip.AddrPort
	c      *client.Client
	// Play, if set, is called every Tick with the client's clock, on the goroutine that
	// owns the client: the place where a bot (or a game) acts through the client.
	Play func(now time.Duration, c *client.Client)
}

// NewClient returns a host for c on conn. server is the server's UDP address (a
// *net.UDPAddr, or any net.Addr whose String is an IP address and port).
func NewClient(conn net.PacketConn, server net.Addr, c *client.Client) *Client {
	return &Client{conn: conn, h: newHost(conn), server: addrPortOf(server), c: c}
}

// ErrClosed is returned by Run when the client's connection ended.
var ErrClosed = errors.New("udphost: connection closed")

// Run drives the client until ctx is done or its connection ends, then writes what it
// sent and closes conn.
func (h *Client) Run(ctx context.Context) error {
	emit := func(d []byte) { h.h.send(d, h.server) }
	return loop(ctx, h.conn, &h.h, Tick, each(func(now time.Duration, from netip.AddrPort, d []byte) {
		if from == h.server {
			_ = h.c.Receive(now, d)
		}
	}), func(now time.Duration) error {
		if h.Play != nil {
			h.Play(now, h.c)
		}
		_ = h.c.Tick(now)
		_ = h.c.Flush(now, emit)
		h.h.flush()
		if closed, _ := h.c.Closed(); closed {
			return ErrClosed
		}
		return nil
	})
}
