package simkit

import (
	"errors"
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/examples/match"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/wire"
)

// MaxRawInFlight is the most datagrams of a raw connection with a round trip (SetRTT)
// that can be on their way to the server; more are lost.
const MaxRawInFlight = 4096

// MaxRawReceived is the most messages a raw connection keeps of what the server sent it;
// older ones are dropped (Raw.Dropped counts them).
const MaxRawReceived = 4096

// ErrRawNotJoined is returned by a raw connection's verbs before the world started.
var ErrRawNotJoined = errors.New("simkit: the raw connection has not joined (the world has not started)")

// Raw is a raw connection to the kit's server: no game and no client model behind it,
// just a transport endpoint that sends whatever the test tells it (any message, with any
// field: NaN, a wrong revision, a life that is over; or any bytes: truncated, unknown,
// floods) and keeps what the server sent it. It is how a test puts hostile input to the
// server, which must answer it with a named verdict and change nothing it must not.
//
// A raw connection talks to the server directly, not over the simulated network: what
// it sends reaches the server at Kit.Now(), and what the server flushes to it arrives at
// that flush. It joins (Hello) when the world starts, after the players, with the next
// PlayerID (or at once, if it is added later); it does not spawn until it asks (a
// RespawnRequest). Unless it is silent, its
// endpoint answers the server's pings, acknowledges its reliable lane and flushes with
// every server tick.
type Raw struct {
	k       *Kit
	idx     int // among the kit's raw connections
	name    string
	ep      *transport.Endpoint
	got     []wire.Message
	dropped int
	silent  bool
	dec     wire.Decoder // what a silent connection hears
	rtt     time.Duration
	out     []delayed // its endpoint's datagrams on their way to the server (SetRTT)
}

type delayed struct {
	at time.Duration
	d  []byte
}

// JoinRaw adds a raw connection. One added before the world starts joins when it starts;
// one added later (a late joiner) joins at once, at Kit.Now(), on the next free id (the
// server's MaxPlayers must leave room: set Config.Server.MaxPlayers).
func (k *Kit) JoinRaw(name string) (*Raw, error) {
	if k.finished {
		return nil, ErrFinished
	}
	if k.started && k.startErr != nil {
		return nil, k.startErr
	}
	ep, err := transport.New(transport.Client)
	if err != nil {
		return nil, err
	}
	r := &Raw{k: k, idx: len(k.raws), name: name, ep: ep}
	k.raws = append(k.raws, r)
	if k.started {
		if err := r.hello(); err != nil {
			k.raws = k.raws[:len(k.raws)-1]
			return nil, err
		}
	}
	return r, nil
}

func (r *Raw) hello() error {
	hello, err := (&wire.Hello{}).Append(nil)
	if err != nil {
		return err
	}
	if err := r.k.m.Server().Receive(r.k.m.Now(), r.ID(), hello); err != nil {
		return fmt.Errorf("simkit: raw connection %s: %w", r.name, err)
	}
	return nil
}

// startRaws routes the server's datagrams to the raw connections, joins them and
// schedules their flushes.
func (k *Kit) startRaws() error {
	k.m.OnForeign(func(now time.Duration, conn wire.PlayerID, d []byte) {
		if i := int(conn) - len(k.players); i >= 0 && i < len(k.raws) {
			k.raws[i].receive(now, d)
		}
	})
	for _, r := range k.raws {
		if err := r.hello(); err != nil {
			return err
		}
	}
	k.m.Every(k.m.Now()+match.ServerTick/2, match.ServerTick, func(now time.Duration) bool {
		for _, r := range k.raws {
			r.flush(now)
		}
		return true
	})
	return nil
}

// flush sends what its endpoint has to send (at once, or a round trip later), and
// delivers what is due.
func (r *Raw) flush(now time.Duration) {
	srv := r.k.m.Server()
	if !r.silent {
		_ = r.ep.Flush(now, func(d []byte) {
			if r.rtt == 0 {
				_ = srv.Receive(now, r.ID(), d)
			} else if len(r.out) < MaxRawInFlight {
				r.out = append(r.out, delayed{at: now + r.rtt, d: append([]byte(nil), d...)})
			}
		})
	}
	n := 0
	for n < len(r.out) && r.out[n].at <= now {
		_ = srv.Receive(now, r.ID(), r.out[n].d)
		n++
	}
	r.out = r.out[:copy(r.out, r.out[n:])]
}

// SetRTT makes what its endpoint sends (its pongs, its acknowledgements, what was queued
// on it) reach the server d after it was flushed, so that the server measures a round
// trip of about d (to the server's tick). What Send and SendBytes hand over still
// arrives at once: they are what the server receives now.
func (r *Raw) SetRTT(d time.Duration) { r.rtt = max(d, 0) }

func (r *Raw) receive(now time.Duration, d []byte) {
	if r.silent { // it hears, but its endpoint takes nothing: no pong, no acknowledgement
		for e := range wire.Elements(d) { // each message the server's bundles carry
			if m, err := r.dec.Decode(e); err == nil {
				r.keep(clone(m))
			}
		}
		return
	}
	_ = r.ep.Receive(now, d, func(m wire.Message) {
		c := clone(m)
		if p, ok := c.(*wire.Ping); ok {
			_ = r.ep.Send(&wire.Pong{Seq: p.Seq, Time: p.Time})
		}
		r.keep(c)
	})
}

func (r *Raw) keep(m wire.Message) {
	if m == nil {
		return
	}
	if len(r.got) == MaxRawReceived {
		copy(r.got, r.got[1:])
		r.got = r.got[:len(r.got)-1]
		r.dropped++
	}
	r.got = append(r.got, m)
}

// clone copies a decoded message (a decoder's values are overwritten by its next decode).
func clone(m wire.Message) wire.Message {
	b, err := m.Append(nil)
	if err != nil {
		return nil
	}
	c := wire.New(m.ID())
	if c == nil || c.Decode(b) != nil {
		return nil
	}
	return c
}

// ID returns the connection's id on the server: after the players', in the order the raw
// connections joined (valid once the world started).
func (r *Raw) ID() refserver.PlayerID { return refserver.PlayerID(len(r.k.players) + r.idx) }

// Name returns the name it joined with.
func (r *Raw) Name() string { return r.name }

// Send hands m to the server as the connection's, at Kit.Now(), and returns the server's
// verdict.
func (r *Raw) Send(m wire.Message) (refserver.Verdict, error) {
	if err := r.k.ready(); err != nil {
		return 0, err
	}
	return r.k.m.Server().Handle(r.k.Now(), r.ID(), m), nil
}

// SendBytes hands a datagram to the server as the connection's, at Kit.Now(): any bytes
// (a truncated message, an unknown id, another version). It returns the server's error.
func (r *Raw) SendBytes(d []byte) error {
	if err := r.k.ready(); err != nil {
		return err
	}
	return r.k.m.Server().Receive(r.k.Now(), r.ID(), d)
}

// Rejoin joins again as a fresh connection on the same slot (after it left or was
// kicked): a new transport endpoint, nothing received, and a Hello at Kit.Now().
func (r *Raw) Rejoin() error {
	if err := r.k.ready(); err != nil {
		return err
	}
	ep, err := transport.New(transport.Client)
	if err != nil {
		return err
	}
	r.ep, r.got, r.out = ep, r.got[:0], r.out[:0]
	return r.hello()
}

// Endpoint returns the connection's transport endpoint (its reliable lane, its stats),
// for what the kit does not wrap: a message queued on it goes out at the next flush.
func (r *Raw) Endpoint() *transport.Endpoint { return r.ep }

// SetSilent makes the connection stop (or resume) answering pings, acknowledging and
// flushing: a client gone quiet. A silent connection still keeps the datagrams that
// arrive and decode as one message (Received), but its endpoint takes none of them: they
// are not acknowledged, and a retransmission arrives again once it speaks.
func (r *Raw) SetSilent(silent bool) { r.silent = silent }

// Received returns the messages the server sent it since the last Clear, oldest first
// (at most MaxRawReceived). The slice is the connection's: do not modify it.
func (r *Raw) Received() []wire.Message { return r.got }

// Dropped returns how many received messages were dropped for MaxRawReceived.
func (r *Raw) Dropped() int { return r.dropped }

// Clear forgets the received messages.
func (r *Raw) Clear() { r.got = r.got[:0] }
