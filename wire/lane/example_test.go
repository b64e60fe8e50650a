package lane_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/wire/lane"
)

// Two ends of a connection: the server queues a critical death event, the datagram
// carries it to the client, the client delivers it and acknowledges it, and the server
// learns when the client acknowledged it.
func ExampleLane() {
	server, _ := lane.New(lane.Config{})
	client, _ := lane.New(lane.Config{})

	seq, _ := server.Queue(0, []byte("PlayerWasted"), true)
	d, _ := server.Poll(0, nil)
	fmt.Printf("server sends message %d in a %d-byte datagram\n", seq, len(d))

	_ = client.Receive(100*time.Millisecond, d)
	for p, ok := client.Deliver(); ok; p, ok = client.Deliver() {
		fmt.Printf("client delivers %s\n", p)
	}
	ack, _ := client.Poll(100*time.Millisecond, nil)
	fmt.Printf("client acknowledges in an %d-byte datagram\n", len(ack))

	_ = server.Receive(200*time.Millisecond, ack)
	fmt.Println("acknowledged:", server.Acked(seq))
	// Output:
	// server sends message 0 in a 27-byte datagram
	// client delivers PlayerWasted
	// client acknowledges in an 8-byte datagram
	// acknowledged: true
}

// The soft cap refuses ordinary messages; critical ones still go in, up to the hard cap,
// where the lane tells the host to disconnect.
func ExampleLane_Queue() {
	l, _ := lane.New(lane.Config{SoftCap: 2, HardCap: 3})
	for _, m := range []struct {
		name     string
		critical bool
	}{
		{"SetHealth(50)", false},
		{"GiveWeapon", false},
		{"ChatMessage", false},
		{"PlayerSpawned", true},
		{"PlayerWasted", true},
	} {
		seq, err := l.Queue(0, []byte(m.name), m.critical)
		switch {
		case err == nil:
			fmt.Printf("%-13s queued as %d\n", m.name, seq)
		case errors.Is(err, lane.ErrSoftCap):
			fmt.Printf("%-13s refused: soft cap\n", m.name)
		case errors.Is(err, lane.ErrMustDisconnect):
			fmt.Printf("%-13s hard cap: %v\n", m.name, l.State())
		}
	}
	// Output:
	// SetHealth(50) queued as 0
	// GiveWeapon    queued as 1
	// ChatMessage   refused: soft cap
	// PlayerSpawned queued as 2
	// PlayerWasted  hard cap: must-disconnect
}

// A message whose datagram is lost goes out again 250 ms after its last transmission,
// and not before; NextDeadline tells the host when to poll.
func ExampleLane_Poll() {
	l, _ := lane.New(lane.Config{})
	_, _ = l.Queue(0, []byte("SetHealth(0)"), true)
	for _, now := range []time.Duration{0, 100 * time.Millisecond, 250 * time.Millisecond} {
		d, _ := l.Poll(now, nil)
		next, _ := l.NextDeadline()
		fmt.Printf("poll at %v: %d bytes, next deadline %v\n", now, len(d), next)
	}
	// Output:
	// poll at 0s: 27 bytes, next deadline 250ms
	// poll at 100ms: 0 bytes, next deadline 250ms
	// poll at 250ms: 27 bytes, next deadline 500ms
}

// "The victim acknowledged X": the server drains the acknowledgement reports after each
// Receive, with the time each acknowledgement arrived (for example to grant a respawn only
// after the victim acknowledged its SetHealth(0), or to settle a health command 2 s later).
func ExampleLane_PopAcked() {
	server, _ := lane.New(lane.Config{})
	victim, _ := lane.New(lane.Config{})
	_, _ = server.Queue(0, []byte("SetHealth(50)"), false)
	zero, _ := server.Queue(0, []byte("SetHealth(0)"), true)

	d, _ := server.Poll(0, nil)
	_ = victim.Receive(150*time.Millisecond, d)
	ack, _ := victim.Poll(160*time.Millisecond, nil)
	_ = server.Receive(310*time.Millisecond, ack)

	for a, ok := server.PopAcked(); ok; a, ok = server.PopAcked() {
		fmt.Printf("message %d (critical %v) sent at %v, acknowledged at %v\n", a.Seq, a.Critical, a.Sent, a.At)
	}
	fmt.Println("respawn may be granted:", server.Acked(zero))
	// Output:
	// message 0 (critical false) sent at 0s, acknowledged at 310ms
	// message 1 (critical true) sent at 0s, acknowledged at 310ms
	// respawn may be granted: true
}
