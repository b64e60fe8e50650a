package sim

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
	"unsafe"
)

// NodeID names an endpoint of the simulated network.
type NodeID int

// Handler receives a datagram delivered to a node. The slice is valid only during the call
// (the network reuses its bytes for a later datagram): a handler that keeps the bytes copies
// them. The handler may change them.
type Handler func(from NodeID, datagram []byte)

// LinkConfig describes one direction of a link.
//
// Each datagram is delayed by Delay plus a uniform draw in [0, Jitter]; with probability
// Reorder it is held back a further ReorderDelay, so that later datagrams overtake it. It
// is lost with probability Loss and, if not lost, delivered twice with probability
// Duplicate (the copy takes its own delay draw).
type LinkConfig struct {
	// Delay is the one-way base latency (half the round-trip time of a symmetric link).
	Delay time.Duration
	// Jitter is the width of the uniform extra delay added to each datagram.
	Jitter time.Duration
	// Loss is the probability that a datagram is dropped, in [0, 1).
	Loss float64
	// Duplicate is the probability that a delivered datagram arrives twice, in [0, 1).
	Duplicate float64
	// Reorder is the probability that a datagram is held back by ReorderDelay, in [0, 1).
	Reorder float64
	// ReorderDelay is the extra delay of a held-back datagram; zero means 20 ms.
	ReorderDelay time.Duration
}

// DefaultReorderDelay is the hold-back of a reordered datagram when the config leaves it zero.
const DefaultReorderDelay = 20 * time.Millisecond

// ErrBadLink is returned for a link configuration that is out of range.
var ErrBadLink = errors.New("sim: bad link configuration")

// Validate checks the configuration.
func (c LinkConfig) Validate() error {
	prob := func(name string, p float64) error {
		if math.IsNaN(p) || p < 0 || p >= 1 {
			return fmt.Errorf("%w: %s %v not in [0, 1)", ErrBadLink, name, p)
		}
		return nil
	}
	if c.Delay < 0 || c.Jitter < 0 || c.ReorderDelay < 0 {
		return fmt.Errorf("%w: negative duration", ErrBadLink)
	}
	return errors.Join(prob("loss", c.Loss), prob("duplicate", c.Duplicate), prob("reorder", c.Reorder))
}

// LinkStats counts what a link did to the datagrams given to it.
type LinkStats struct {
	// Sent is the number of datagrams handed to the link.
	Sent int
	// Lost is the number dropped.
	Lost int
	// Duplicated is the number delivered a second time.
	Duplicated int
	// Delivered is the number of deliveries (duplicates included).
	Delivered int
	// Overtaken is the number of deliveries that arrived after a datagram sent later.
	Overtaken int
	// Bytes is the number of bytes handed to the link.
	Bytes int
}

// link is one direction between two nodes: what Send draws and counts. It is laid out
// for Send, which with a thousand links finds it cold: the fields Send reads and writes
// come first and the whole is padded to a multiple of linkSize (two cache lines on a
// 64-bit machine), so that, allocated in the 128-byte size class, it starts on a line and
// Send touches two lines. What a delivery touches sits apart, in Sim.recv.
type link struct {
	linkState
	_ [(linkSize - unsafe.Sizeof(linkState{})%linkSize) % linkSize]byte
}

// linkState is the content of a link.
type linkState struct {
	// rng draws from pcg; both live in the link, so a datagram's draws touch no memory
	// of their own (with a thousand links, each separate object is a cache miss).
	rng     rand.Rand
	pcg     rand.PCG
	sentSeq uint64 // datagrams handed to the link: LinkStats.Sent
	cfg     LinkConfig
	// The counters of Send (LinkStats.Bytes, Lost, Duplicated).
	bytes, lost, duplicated int
	num                     uint32 // its number in the simulator (Sim.recv)
}

// linkSize is what a link's size is a multiple of: a size class of the Go allocator,
// whose objects of 128 bytes lie on 128-byte boundaries.
const linkSize = 128

// linkRecv is what a delivery reads and counts of its link, in Sim.recv by the link's
// number: the deliveries of a crowd's links touch a dense table (48 bytes a link) rather
// than the links themselves.
type linkRecv struct {
	net       *Network
	from, to  NodeID
	highest   uint64 // highest send sequence delivered so far
	delivered int    // LinkStats.Delivered
	overtaken int    // LinkStats.Overtaken
}

// Fate is what a Filter decides for one datagram.
type Fate struct {
	// Drop loses the datagram.
	Drop bool
	// Delay holds the datagram back by this much on top of the link's delay.
	Delay time.Duration
	// Duplicate delivers the datagram twice.
	Duplicate bool
}

// Filter sees every datagram handed to the network, before the link's own randomness, and
// decides its fate: scenario tests use it to lose, delay or duplicate one chosen message.
// It must not keep the slice.
type Filter func(from, to NodeID, datagram []byte) Fate

// Network moves datagrams between nodes over configured links.
//
// The datagram path allocates nothing once the network has warmed up: Send copies the
// datagram beside the other datagrams due in the same short span of virtual time, into
// memory the queue reuses once they are delivered, and the delivery is an event without a
// closure.
type Network struct {
	sim      *Sim
	handlers []Handler          // by node, for nodes 0 to denseNodes-1
	far      map[NodeID]Handler // the other nodes
	links    [][]*link          // [from][to], for nodes 0 to denseNodes-1
	farLinks map[[2]NodeID]*link
	order    []*link // every link, in order of creation
	fallback LinkConfig
	filter   Filter
}

// denseNodes bounds the node numbers whose handlers and links sit in slices rather than in
// maps (the examples number their nodes from 0).
const denseNodes = 1 << 12

func dense(id NodeID) bool { return id >= 0 && id < denseNodes }

// SetFilter installs f (nil removes it).
func (n *Network) SetFilter(f Filter) { n.filter = f }

// NewNetwork returns an empty network on s. Links that were not configured use def.
func NewNetwork(s *Sim, def LinkConfig) (*Network, error) {
	if err := def.Validate(); err != nil {
		return nil, err
	}
	return &Network{sim: s, far: map[NodeID]Handler{}, farLinks: map[[2]NodeID]*link{}, fallback: def}, nil
}

// Sim returns the simulator the network runs on.
func (n *Network) Sim() *Sim { return n.sim }

// Attach registers the handler of a node, replacing any earlier one.
func (n *Network) Attach(id NodeID, h Handler) {
	if !dense(id) {
		n.far[id] = h
		return
	}
	if int(id) >= len(n.handlers) {
		n.handlers = append(n.handlers, make([]Handler, int(id)+1-len(n.handlers))...)
	}
	n.handlers[id] = h
}

// Detach removes a node; datagrams in flight to it are dropped on arrival.
func (n *Network) Detach(id NodeID) {
	if !dense(id) {
		delete(n.far, id)
	} else if int(id) < len(n.handlers) {
		n.handlers[id] = nil
	}
}

func (n *Network) handler(id NodeID) Handler {
	if !dense(id) {
		return n.far[id]
	}
	if int(id) < len(n.handlers) {
		return n.handlers[id]
	}
	return nil
}

// SetLink configures the direction from -> to.
func (n *Network) SetLink(from, to NodeID, cfg LinkConfig) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	l := n.link(from, to)
	l.cfg = cfg
	return nil
}

// SetPath configures both directions between a and b with the same settings.
func (n *Network) SetPath(a, b NodeID, cfg LinkConfig) error {
	if err := n.SetLink(a, b, cfg); err != nil {
		return err
	}
	return n.SetLink(b, a, cfg)
}

// Stats returns the counters of the direction from -> to.
func (n *Network) Stats(from, to NodeID) LinkStats {
	if l := n.lookup(from, to); l != nil {
		return n.stats(l)
	}
	return LinkStats{}
}

// stats returns the counters of l.
func (n *Network) stats(l *link) LinkStats {
	r := &n.sim.recv[l.num]
	return LinkStats{Sent: int(l.sentSeq), Lost: l.lost, Duplicated: l.duplicated, Delivered: r.delivered,
		Overtaken: r.overtaken, Bytes: l.bytes}
}

// TotalStats sums the counters of every link.
func (n *Network) TotalStats() LinkStats {
	var t LinkStats
	for _, l := range n.order {
		s := n.stats(l)
		t.Sent += s.Sent
		t.Lost += s.Lost
		t.Duplicated += s.Duplicated
		t.Delivered += s.Delivered
		t.Overtaken += s.Overtaken
		t.Bytes += s.Bytes
	}
	return t
}

// lookup returns the link from -> to, or nil if it was never used or configured.
func (n *Network) lookup(from, to NodeID) *link {
	if !dense(from) || !dense(to) {
		return n.farLinks[[2]NodeID{from, to}]
	}
	if int(from) < len(n.links) && int(to) < len(n.links[from]) {
		return n.links[from][to]
	}
	return nil
}

// link returns the link from -> to, creating it with the default configuration.
func (n *Network) link(from, to NodeID) *link {
	if l := n.lookup(from, to); l != nil {
		return l
	}
	stream := uint64(uint32(from))<<32 | uint64(uint32(to))
	l := &link{linkState: linkState{cfg: n.fallback}}
	l.pcg.Seed(n.sim.streamSeed(stream ^ 0x6c696e6b)) // the draws of Sim.Stream
	l.rng = *rand.New(&l.pcg)
	n.sim.addLink(l, linkRecv{net: n, from: from, to: to})
	n.order = append(n.order, l)
	if !dense(from) || !dense(to) {
		n.farLinks[[2]NodeID{from, to}] = l
		return l
	}
	if int(from) >= len(n.links) {
		n.links = append(n.links, make([][]*link, int(from)+1-len(n.links))...)
	}
	row := n.links[from]
	if int(to) >= len(row) {
		row = append(row, make([]*link, int(to)+1-len(row))...)
		n.links[from] = row
	}
	row[to] = l
	return l
}

// Send hands a copy of datagram to the link from -> to.
func (n *Network) Send(from, to NodeID, datagram []byte) {
	l := n.link(from, to)
	l.bytes += len(datagram)
	l.sentSeq++
	seq := l.sentSeq
	var fate Fate
	if n.filter != nil {
		fate = n.filter(from, to, datagram)
	}
	if fate.Drop || (l.cfg.Loss > 0 && l.rng.Float64() < l.cfg.Loss) {
		l.lost++
		return
	}
	copies := 1
	if fate.Duplicate || (l.cfg.Duplicate > 0 && l.rng.Float64() < l.cfg.Duplicate) {
		copies = 2
		l.duplicated++
	}
	for range copies {
		n.sim.scheduleDelivery(l.delay()+max(fate.Delay, 0), l, seq, datagram)
	}
}

// deliver hands the seq-th datagram of a link (r, its entry in Sim.recv) to the handler of
// its destination.
func (r *linkRecv) deliver(seq uint64, b []byte) {
	r.delivered++
	if seq < r.highest {
		r.overtaken++
	} else {
		r.highest = seq
	}
	if h := r.net.handler(r.to); h != nil {
		h(r.from, b)
	}
}

func (l *link) delay() time.Duration {
	d := l.cfg.Delay
	if l.cfg.Jitter > 0 {
		d += time.Duration(l.rng.Int64N(int64(l.cfg.Jitter) + 1))
	}
	if l.cfg.Reorder > 0 && l.rng.Float64() < l.cfg.Reorder {
		rd := l.cfg.ReorderDelay
		if rd == 0 {
			rd = DefaultReorderDelay
		}
		d += rd
	}
	return d
}
