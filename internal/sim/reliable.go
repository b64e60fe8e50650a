package sim

import (
	"fmt"

	"github.com/arbitergo/arbiter/wire"
)

// Reliable is an ordered reliable channel between two nodes of a Network: a wire.Lane at
// each end, polled by the simulator whenever a lane has something due (a new message, a
// retransmission 250 ms after the last one, an acknowledgement). It lets a model send
// messages that must arrive over a link that loses, duplicates and reorders datagrams,
// exactly as a host would with the lane.
//
// Each end registers a delivery function with OnDeliver; delivered payloads come in the
// sender's order, each exactly once. The channel owns both nodes' handlers.
type Reliable struct {
	net   *Network
	ends  [2]reliableEnd
	polls int
}

type reliableEnd struct {
	id      NodeID
	lane    *wire.Lane
	deliver func(payload []byte)
	acked   func(a wire.LaneAck)
	due     bool // a poll is scheduled
	buf     []byte
}

// NewReliable connects nodes a and b of n with a reliable channel and attaches both nodes'
// handlers.
func NewReliable(n *Network, a, b NodeID) (*Reliable, error) {
	r := &Reliable{net: n}
	for i, id := range []NodeID{a, b} {
		lane, err := wire.NewLane(wire.LaneConfig{})
		if err != nil {
			return nil, err
		}
		r.ends[i] = reliableEnd{id: id, lane: lane, buf: make([]byte, 0, wire.LaneMTU)}
		i := i
		n.Attach(id, func(_ NodeID, d []byte) { r.receive(i, d) })
	}
	return r, nil
}

func (r *Reliable) end(id NodeID) (int, error) {
	for i := range r.ends {
		if r.ends[i].id == id {
			return i, nil
		}
	}
	return 0, fmt.Errorf("sim: node %d is not an end of this channel", id)
}

// OnDeliver registers the function that receives the payloads delivered at node id.
func (r *Reliable) OnDeliver(id NodeID, fn func(payload []byte)) error {
	i, err := r.end(id)
	if err == nil {
		r.ends[i].deliver = fn
	}
	return err
}

// OnAcked registers the function told of each message node id sent that its peer
// acknowledged.
func (r *Reliable) OnAcked(id NodeID, fn func(wire.LaneAck)) error {
	i, err := r.end(id)
	if err == nil {
		r.ends[i].acked = fn
	}
	return err
}

// Send queues payload on the lane of node from.
func (r *Reliable) Send(from NodeID, payload []byte, critical bool) (wire.LaneSeq, error) {
	i, err := r.end(from)
	if err != nil {
		return 0, err
	}
	seq, err := r.ends[i].lane.Queue(r.net.sim.Now(), payload, critical)
	if err == nil {
		r.schedule(i)
	}
	return seq, err
}

// Lane returns the lane of node id.
func (r *Reliable) Lane(id NodeID) (*wire.Lane, error) {
	i, err := r.end(id)
	if err != nil {
		return nil, err
	}
	return r.ends[i].lane, nil
}

// Polls counts how many times the simulator polled the lanes.
func (r *Reliable) Polls() int { return r.polls }

func (r *Reliable) receive(i int, d []byte) {
	e := &r.ends[i]
	now := r.net.sim.Now()
	if err := e.lane.Receive(now, d); err != nil {
		return // a hostile or corrupt datagram is dropped, as a host would
	}
	for p, ok := e.lane.Deliver(); ok; p, ok = e.lane.Deliver() {
		if e.deliver != nil {
			e.deliver(p)
		}
	}
	for a, ok := e.lane.PopAcked(); ok; a, ok = e.lane.PopAcked() {
		if e.acked != nil {
			e.acked(a)
		}
	}
	r.schedule(i)
}

// schedule makes sure end i is polled at its lane's next deadline.
func (r *Reliable) schedule(i int) {
	e := &r.ends[i]
	if e.due {
		return
	}
	at, ok := e.lane.NextDeadline()
	if !ok {
		return
	}
	e.due = true
	r.net.sim.At(at, func() {
		e.due = false
		r.poll(i)
	})
}

func (r *Reliable) poll(i int) {
	e := &r.ends[i]
	r.polls++
	peer := r.ends[1-i].id
	for {
		d, err := e.lane.Poll(r.net.sim.Now(), e.buf[:0])
		if err != nil || len(d) == 0 {
			break
		}
		e.buf = d[:0]
		r.net.Send(e.id, peer, d)
	}
	r.schedule(i)
}
