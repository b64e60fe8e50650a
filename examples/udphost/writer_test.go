package udphost

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// memConn is a net.PacketConn in memory, for the generic path (connIO) inside a synctest
// bubble: nothing arrives (ReadFrom waits until Close), and every datagram written is
// kept. If gate is set, every WriteTo first waits until gate is closed: a socket whose
// writes block.
type memConn struct {
	gate   chan struct{}
	closed chan struct{}
	once   sync.Once
	mu     sync.Mutex
	got    [][]byte
	late   int // writes after Close (refused)
}

func newMemConn() *memConn { return &memConn{closed: make(chan struct{})} }

func (c *memConn) ReadFrom([]byte) (int, net.Addr, error) {
	<-c.closed
	return 0, nil, net.ErrClosed
}

func (c *memConn) WriteTo(p []byte, _ net.Addr) (int, error) {
	if c.gate != nil {
		<-c.gate
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.closed:
		c.late++
		return 0, net.ErrClosed
	default:
	}
	c.got = append(c.got, bytes.Clone(p))
	return len(p), nil
}

func (c *memConn) written() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.got
}

func (c *memConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *memConn) LocalAddr() net.Addr              { return &net.UDPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 7777} }
func (c *memConn) SetDeadline(time.Time) error      { return nil }
func (c *memConn) SetReadDeadline(time.Time) error  { return nil }
func (c *memConn) SetWriteDeadline(time.Time) error { return nil }

// seq is datagram i of a test: its number, 4 bytes big-endian.
func seq(i int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(i)) }

// requireInOrder requires that got is datagrams 0..n-1, in that order.
func requireInOrder(t *testing.T, got [][]byte, n int) {
	t.Helper()
	require.Equal(t, n, len(got), "every datagram sent was written")
	for i, d := range got {
		if !bytes.Equal(d, seq(i)) {
			t.Fatalf("datagram %d of %d is %x: not in the order sent", i, n, d)
		}
	}
}

var errDone = errors.New("test: done")

// TestWriterKeepsTheOrderSent runs a Conn on the generic path (a net.PacketConn in
// memory, inside a synctest bubble) whose ticks send 1, then twice WriteBatches batches
// and a few more (so the batches are reused, and the world's goroutine waits for the
// writer), then 63 datagrams, each flushed at the end of its tick: every datagram is
// written, in the order it was sent, before Run returns, and no goroutine is left (the
// bubble would not end).
func TestWriterKeepsTheOrderSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mc := newMemConn()
		c := NewConn(mc)
		to := netip.MustParseAddrPort("10.0.0.2:9000")
		per := []int{1, 2*WriteBatches*BatchSize + 5, BatchSize - 1}
		sent, ticks := 0, 0
		err := c.Run(context.Background(), Tick, func(time.Duration, netip.AddrPort, []byte) {}, func(time.Duration) error {
			for range per[ticks] {
				c.Send(seq(sent), to)
				sent++
			}
			c.Flush()
			if ticks++; ticks == len(per) {
				return errDone
			}
			return nil
		})
		require.ErrorIs(t, err, errDone)
		requireInOrder(t, mc.written(), sent)
		require.Zero(t, mc.late, "nothing was written after the socket closed")
	})
}

// TestWriterBackpressure runs a Conn on a socket whose writes block until the test opens
// them (in a synctest bubble) and sends more than WriteBatches batches in one tick: the
// world's goroutine waits once WriteBatches batches are in flight (no more is queued,
// nothing is dropped); the test then cancels Run while it waits and opens the writes:
// every datagram is written in order before the socket closes, Run returns, and no
// goroutine is left.
func TestWriterBackpressure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mc := newMemConn()
		mc.gate = make(chan struct{})
		c := NewConn(mc)
		to := netip.MustParseAddrPort("10.0.0.2:9000")
		const n = (WriteBatches+3)*BatchSize + 7
		var sent atomic.Int64 // Sends begun
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- c.Run(ctx, Tick, func(time.Duration, netip.AddrPort, []byte) {}, func(time.Duration) error {
				if sent.Load() > 0 {
					return nil
				}
				for i := range n {
					sent.Add(1)
					c.Send(seq(i), to)
				}
				c.Flush()
				return nil
			})
		}()
		time.Sleep(Tick + Tick/2) // the first tick (fake time)
		synctest.Wait()
		// The writer holds the first batch (its write waits) and WriteBatches-1 wait in
		// the channel; the world's goroutine waits for a batch at the next Send.
		assert.Equal(t, int64(WriteBatches*BatchSize+1), sent.Load(), "the world's goroutine waits once WriteBatches batches are in flight")
		assert.Empty(t, mc.written(), "nothing is written while the socket blocks")
		assert.Equal(t, uint64(1), c.h.waits, "the send that waits for the writer is counted (WriterWaits)")
		cancel()
		synctest.Wait()
		select {
		case err := <-done:
			t.Fatalf("Run returned while its datagrams waited to be written: %v", err)
		default:
		}
		close(mc.gate)
		require.ErrorIs(t, <-done, context.Canceled)
		requireInOrder(t, mc.written(), n)
		require.Zero(t, mc.late, "nothing was written after the socket closed")
	})
}

// slowIO is a packetIO whose every write first waits delay: a writer that falls behind.
type slowIO struct {
	packetIO
	delay time.Duration
}

func (s slowIO) write(ms []message) error {
	time.Sleep(s.delay)
	return s.packetIO.write(ms)
}

// TestEverythingSentIsWrittenBeforeClose runs a Conn on a loopback socket (the batched
// path on Linux, each batch's write slowed by a millisecond) whose third tick sends a few
// batches of datagrams and ends Run at once: the peer gets every one of them, in order,
// and the socket is closed only after that (Run returns after the last write).
func TestEverythingSentIsWrittenBeforeClose(t *testing.T) {
	sock, peer := listenLoopback(t), listenLoopback(t)
	require.NoError(t, peer.SetReadBuffer(4<<20))
	require.NoError(t, peer.SetReadDeadline(time.Now().Add(30*time.Second)))
	c := NewConn(sock)
	c.h.io = slowIO{packetIO: c.h.io, delay: time.Millisecond}
	to := localAddrPort(peer)
	const n = 4*BatchSize + 3
	ctx, cancel := context.WithCancel(context.Background())
	ticks := 0
	err := c.Run(ctx, Tick, func(time.Duration, netip.AddrPort, []byte) {}, func(time.Duration) error {
		if ticks++; ticks < 3 {
			return nil
		}
		for i := range n {
			c.Send(seq(i), to)
		}
		c.Flush()
		cancel() // the next select of Run's loop sees it
		return nil
	})
	require.ErrorIs(t, err, context.Canceled)
	_, werr := sock.WriteToUDPAddrPort([]byte{1}, to)
	require.ErrorIs(t, werr, net.ErrClosed, "Run closed the socket")
	// What was written is in the peer's socket already: a missing datagram ends the wait.
	require.NoError(t, peer.SetReadDeadline(time.Now().Add(2*time.Second)))

	in := newMessages(BatchSize)
	p := newPacketIO(peer)
	var got [][]byte
	for len(got) < n {
		k, err := p.read(in)
		require.NoError(t, err, "after %d of %d datagrams", len(got), n)
		for _, m := range in[:k] {
			got = append(got, bytes.Clone(m.buf))
		}
	}
	requireInOrder(t, got, n)
}

// TestWriterAllocatesNothingPerDatagram sends a few batches of frame-sized datagrams at a
// time through a running host (its writing goroutine, the batched path on Linux) and
// waits until the writer handed every batch back: once warm, nothing is allocated.
func TestWriterAllocatesNothingPerDatagram(t *testing.T) {
	sock, peer := listenLoopback(t), listenLoopback(t)
	h := newHost(sock)
	h.start()
	defer h.stop()
	to := localAddrPort(peer)
	d := bytes.Repeat([]byte{7}, 48)
	round := func() {
		for range 3*BatchSize + 5 {
			h.send(d, to)
		}
		h.flush()
		for wait := time.Now(); len(h.free) < h.made; { // every batch written and back
			if time.Since(wait) > 10*time.Second {
				t.Fatalf("%d of %d batches came back from the writer", len(h.free), h.made)
			}
			runtime.Gosched()
		}
	}
	round()
	allocs := testing.AllocsPerRun(50, round)
	if !raceEnabled {
		require.Zero(t, allocs, "allocations per %d datagrams sent through the writer", 3*BatchSize+5)
	}
}
