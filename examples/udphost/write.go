package udphost

import (
	"net"
	"net/netip"
)

// WriteBatches is the most batches of datagrams (BatchSize each) a host's world goroutine
// may have handed to its writing goroutine and not yet had back written: 8·QueueLength
// datagrams, 128 batches of 64, about one tick's output of a world of issue 13's 10,000
// players, so that the writer can write a whole tick's flush while the world goes on.
// When none is free, a send that needs a new batch waits for the writer to hand one back
// (backpressure, as a synchronous write waits for the socket). The batches are allocated
// as they are first needed, up to this cap (about 12 MB of datagram room at most), and
// reused.
const WriteBatches = 8 * QueueLength / BatchSize

// write is a host's writing goroutine: it writes the batches full gives it, in order,
// and hands each back to free, until full is closed; then it closes done.
func write(p packetIO, full <-chan *msgBatch, free chan<- *msgBatch, done chan<- struct{}) {
	defer close(done)
	for b := range full {
		// A datagram the socket refused is lost, as on any network; the lane
		// retransmits what must arrive.
		_ = p.write(b.ms[:b.n])
		b.n = 0
		free <- b // never waits: free has room for every batch
	}
}

// host is what a Server, a Client and a Conn share: the socket and the datagrams waiting
// to be written.
//
// While the host runs (between start and stop, on loop's goroutine) a full batch, and the
// partial one at flush, go over a channel to a writing goroutine that only writes the
// socket, so that the kernel's send path runs off the world's goroutine; one writer
// reading one channel keeps the datagrams in the order they were sent. Outside of that (a
// Swarm's workers, or a Conn's Send before Run) send and flush write on the caller's
// goroutine.
type host struct {
	io  packetIO
	cur *msgBatch // the batch send fills (nil: none taken yet)

	// The writer's channels while it runs (full is nil otherwise); each has room for
	// WriteBatches, so that handing a batch over or back never waits.
	full chan *msgBatch
	free chan *msgBatch
	done chan struct{} // closed when the writer ended
	made int           // batches allocated while the writer runs, at most WriteBatches
	// waits counts the sends that waited for the writer to hand a batch back (all
	// WriteBatches in flight): the world's goroutine held up by the socket.
	waits uint64
}

func newHost(conn net.PacketConn) host { return host{io: newPacketIO(conn)} }

// send queues a copy of d for to, handing the batch over (or writing it) when it is full.
func (h *host) send(d []byte, to netip.AddrPort) {
	if h.cur == nil {
		h.cur = h.take()
	}
	b := h.cur
	m := &b.ms[b.n]
	m.buf = append(m.buf[:0], d...)
	m.addr = to
	if b.n++; b.n == len(b.ms) {
		h.flush()
	}
}

// take returns an empty batch: without a writer a new one (send keeps it); with one a
// batch the writer handed back, else a new one while fewer than WriteBatches were made,
// else the next one the writer hands back, waiting for it.
func (h *host) take() *msgBatch {
	if h.full != nil {
		select {
		case b := <-h.free:
			return b
		default:
		}
		if h.made == WriteBatches {
			h.waits++
			return <-h.free
		}
		h.made++
	}
	return &msgBatch{ms: newMessages(BatchSize)}
}

// flush hands what send queued to the writer, or writes it when none runs. A datagram
// the socket refused is lost, as on any network; the lane retransmits what must arrive.
func (h *host) flush() {
	b := h.cur
	if b == nil || b.n == 0 {
		return
	}
	if h.full == nil {
		_ = h.io.write(b.ms[:b.n])
		b.n = 0
		return
	}
	h.cur = nil
	h.full <- b // never waits: full has room for every batch
}

// start writes what was queued without a writer, then starts the writing goroutine.
func (h *host) start() {
	h.flush()
	h.cur = nil
	h.made = 0
	h.full, h.free, h.done = make(chan *msgBatch, WriteBatches), make(chan *msgBatch, WriteBatches), make(chan struct{})
	go write(h.io, h.full, h.free, h.done)
}

// stop hands the writer what send queued and waits until it wrote everything and ended;
// send and flush write on the caller's goroutine again.
func (h *host) stop() {
	if h.full == nil {
		return
	}
	h.flush()
	close(h.full)
	<-h.done
	h.full, h.free, h.done, h.cur = nil, nil, nil, nil
}
