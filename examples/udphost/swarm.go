package udphost

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/transport"
)

// SwarmTick is how often a Swarm steps each of its clients: a third of
// transport.FrameInterval, so that a client's frames go out every FrameInterval on its
// own clock (30 a second), not at the next multiple of a coarser tick.
const SwarmTick = transport.FrameInterval / 3

// MaxSwarmReads is the most batches of datagrams a Swarm reads from one client's socket
// in one step; what is left waits in the socket for the next step (so a client flooded
// with relays cannot starve the others of its goroutine).
const MaxSwarmReads = 16

// SwarmFirstRead is how many datagrams a Swarm's first read of a client's socket in a
// step offers room for (a client gets a datagram or two per step once the server
// coalesces); a full first read is followed by reads of BatchSize.
const SwarmFirstRead = 8

// ErrSwarmConfig refuses a Swarm whose clients and sockets do not pair up.
var ErrSwarmConfig = errors.New("udphost: a swarm needs one socket per client")

// poller is a packetIO that can also read without waiting (the batched one on Linux).
type poller interface {
	poll(ms []message) (int, error)
}

// SwarmStats counts what a Swarm's clients sent and received.
type SwarmStats struct {
	// Sent and Received count the clients' datagrams written and read (only the server's
	// datagrams are received; others are dropped and counted in Strangers).
	Sent, Received, Strangers uint64
	// Steps counts client steps (a read, Play, Tick and Flush of one client); Late counts
	// the worker ticks that began more than one SwarmTick behind their schedule (the
	// generator could not keep up).
	Steps, Late uint64
}

func (s *SwarmStats) add(o SwarmStats) {
	s.Sent += o.Sent
	s.Received += o.Received
	s.Strangers += o.Strangers
	s.Steps += o.Steps
	s.Late += o.Late
}

// Swarm drives many honest clients (examples/client), each on a socket of its own, from
// a bounded number of goroutines: the load generator of examples/loadtest and the
// loopback tests. Each worker goroutine owns a shard of the clients and, every SwarmTick,
// steps each of them in turn: the datagrams waiting in its socket (read without waiting,
// batched on Linux), Play, Tick, Flush. A client's clock is the worker's tick (time since
// Run began, in whole SwarmTicks), the same for the whole step.
//
// On a socket that cannot be read without waiting (not a *net.UDPConn on Linux) each
// client gets a reading goroutine as Client does.
type Swarm struct {
	server  netip.AddrPort
	members []swarmMember
	workers int
	every   time.Duration

	// Play, if set, is called in every step of client i before its Tick, on the goroutine
	// that owns client i (different clients' calls may run at once on different
	// goroutines).
	Play func(i int, now time.Duration, c *client.Client)

	stats SwarmStats
}

type swarmMember struct {
	c    *client.Client
	conn net.PacketConn
	io   packetIO
	poll func(ms []message) (int, error)
	stop func() // ends the reading goroutine of a socket without poll (nil otherwise)
	now  time.Duration
	err  error
	done bool
}

// NewSwarm returns a Swarm of clients[i] on conns[i], all talking to the server at
// server, stepped by workers goroutines (0: GOMAXPROCS; never more than the clients).
// The Swarm owns the sockets and closes them when Run returns.
func NewSwarm(server netip.AddrPort, clients []*client.Client, conns []net.PacketConn, workers int) (*Swarm, error) {
	if len(clients) != len(conns) {
		return nil, ErrSwarmConfig
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := &Swarm{server: unmapped(server), members: make([]swarmMember, len(clients)),
		workers: max(min(workers, len(clients)), 1), every: SwarmTick}
	for i := range clients {
		if clients[i] == nil || conns[i] == nil {
			return nil, ErrSwarmConfig
		}
		m := &s.members[i]
		m.c, m.conn, m.io = clients[i], conns[i], newPacketIO(conns[i])
		if p, ok := m.io.(poller); ok {
			m.poll = p.poll
		}
	}
	return s, nil
}

// Err returns how client i's run ended: ErrClosed when its connection ended, a socket's
// error, or nil while it ran until Run's context was done.
func (s *Swarm) Err(i int) error { return s.members[i].err }

// Stats returns what the clients sent and received. Call it after Run returned.
func (s *Swarm) Stats() SwarmStats { return s.stats }

// Run steps the clients until ctx is done or every client's connection ended, then closes
// the sockets. It returns ctx's error, or nil when every connection ended.
func (s *Swarm) Run(ctx context.Context) error {
	start := time.Now()
	for i := range s.members {
		if s.members[i].poll == nil {
			s.members[i].startReader()
		}
	}
	var wg sync.WaitGroup
	stats := make([]SwarmStats, s.workers)
	for w := range s.workers {
		lo, hi := w*len(s.members)/s.workers, (w+1)*len(s.members)/s.workers
		wg.Go(func() { stats[w] = s.work(ctx, start, lo, hi) })
	}
	wg.Wait()
	for i := range s.members {
		m := &s.members[i]
		_ = m.conn.Close()
		if m.stop != nil {
			m.stop()
		}
	}
	for _, st := range stats {
		s.stats.add(st)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return nil
}

// work steps the members lo..hi-1 every tick until ctx is done or all of them ended.
func (s *Swarm) work(ctx context.Context, start time.Time, lo, hi int) SwarmStats {
	var st SwarmStats
	in := newMessages(BatchSize)
	out := &host{} // no writer: a worker writes its clients' datagrams itself
	t := time.NewTicker(s.every)
	defer t.Stop()
	var last time.Duration
	for {
		select {
		case <-ctx.Done():
			return st
		case <-t.C:
		}
		since := time.Since(start)
		now := since.Truncate(s.every)
		if last > 0 && now-last > s.every {
			st.Late++
		}
		last = now
		live := 0
		for i := lo; i < hi; i++ {
			m := &s.members[i]
			if m.done {
				continue
			}
			s.step(m, i, max(now, m.now), in, out, &st)
			if !m.done {
				live++
			}
		}
		if live == 0 {
			return st
		}
	}
}

// step is one step of member m (client i) at now: its waiting datagrams, Play, Tick,
// Flush.
func (s *Swarm) step(m *swarmMember, i int, now time.Duration, in []message, out *host, st *SwarmStats) {
	st.Steps++
	m.now = now
	room := in[:SwarmFirstRead] // recvmmsg's headers are set up for the room offered
	for range MaxSwarmReads {
		n, err := m.poll(room)
		if err != nil {
			m.end(err)
			return
		}
		for _, d := range in[:n] {
			if d.addr != s.server {
				st.Strangers++
				continue
			}
			st.Received++
			_ = m.c.Receive(now, d.buf)
		}
		if n < len(room) {
			break
		}
		room = in
	}
	if s.Play != nil {
		s.Play(i, now, m.c)
	}
	_ = m.c.Tick(now)
	out.io = m.io
	_ = m.c.Flush(now, func(d []byte) {
		st.Sent++
		out.send(d, s.server)
	})
	out.flush()
	if closed, _ := m.c.Closed(); closed {
		m.end(ErrClosed)
	}
}

func (m *swarmMember) end(err error) {
	m.done, m.err = true, err
}

// startReader gives a socket that cannot be polled a reading goroutine (as Client's
// loop has) and polls the batches it hands over.
func (m *swarmMember) startReader() {
	per := m.io.batch()
	count := max(QueueLength/per, 2)
	free, full := make(chan *msgBatch, count), make(chan *msgBatch, count)
	for range count {
		free <- &msgBatch{ms: newMessages(per)}
	}
	go read(m.io, free, full)
	m.poll = func(ms []message) (int, error) {
		var b *msgBatch
		select {
		case got, ok := <-full:
			if !ok {
				return 0, net.ErrClosed
			}
			b = got
		default:
			return 0, nil
		}
		n := min(b.n, len(ms)) // b.n is at most io.batch(): 1 on these sockets
		for k := range n {
			ms[k].buf = append(ms[k].buf[:0], b.ms[k].buf...)
			ms[k].addr = b.ms[k].addr
		}
		free <- b
		return n, nil
	}
	m.stop = func() {
		for b := range full { // let the reader see the closed socket and end
			free <- b
		}
	}
}
