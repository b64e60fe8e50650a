package udphost

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"time"
)

// Conn is the socket half of a host, for a host that keeps its own session table around
// a World (examples/server, with its handshake and graceful shutdown): the same batched
// reads and writes, on goroutines of their own, as Server and Client, without their
// connection handling.
type Conn struct {
	conn net.PacketConn
	h    host
}

// NewConn returns the batched socket of conn (recvmmsg and sendmmsg for a *net.UDPConn
// on Linux, one datagram per call elsewhere).
func NewConn(conn net.PacketConn) *Conn {
	return &Conn{conn: conn, h: newHost(conn)}
}

// Send queues a copy of d for to. While Run runs, a batch of BatchSize datagrams, and
// the partial one at Flush, go to the socket's writing goroutine, which writes them in
// the order they were sent; when WriteBatches batches wait to be written, Send waits for
// the writer. Only the goroutine that runs Run (its callbacks) may call it (before Run,
// Send and Flush write on the caller's goroutine).
func (c *Conn) Send(d []byte, to netip.AddrPort) { c.h.send(d, to) }

// Flush hands what Send queued to the writing goroutine without waiting for the write
// (everything sent is written before Run closes the socket). A datagram the socket
// refuses is lost, as on any network.
func (c *Conn) Flush() { c.h.flush() }

// WriterWaits is how many times Send waited for the writing goroutine because
// WriteBatches batches were already waiting to be written: the world's goroutine held up
// by the socket (0 while the writer keeps up). Like Send, only the goroutine that runs
// Run may call it.
func (c *Conn) WriterWaits() uint64 { return c.h.waits }

// ErrTickInterval refuses a Run with a tick interval that is not positive.
var ErrTickInterval = errors.New("udphost: tick interval must be > 0")

// Run reads the socket and hands every datagram to onPacket, and calls onTick every tick,
// both with the time since Run started and on the calling goroutine, until ctx is done
// (ctx's error) or onTick returns an error (that error); then it waits until everything
// sent was written, and closes the socket. A reading and a writing goroutine run while
// Run does, and have ended when it returns. The datagram passed to onPacket is valid only
// during the call. onTick should Flush what it sent.
func (c *Conn) Run(ctx context.Context, tick time.Duration, onPacket func(now time.Duration, from netip.AddrPort, d []byte),
	onTick func(now time.Duration) error) error {
	if tick <= 0 {
		_ = c.conn.Close()
		return ErrTickInterval
	}
	return loop(ctx, c.conn, &c.h, tick, each(onPacket), onTick)
}
