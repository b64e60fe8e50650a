package transport_test

import (
	"fmt"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/wire"
)

// A server endpoint sends one unreliable frame and one reliable command; the client
// endpoint receives both from the same datagram stream, and its acknowledgement tells the
// server the command arrived.
func Example() {
	server, _ := transport.New(transport.Server)
	client, _ := transport.New(transport.Client)

	_ = server.Send(&wire.Ping{Seq: 1})
	seq, _ := server.Queue(0, &wire.SetHealth{Rev: 1, Health: 50})
	_ = server.Flush(0, func(d []byte) {
		_ = client.Receive(0, d, func(m wire.Message) { fmt.Println("client got", m.ID()) })
	})
	_ = client.Flush(0, func(d []byte) { _ = server.Receive(0, d, func(wire.Message) {}) })
	a, ok := server.PopAcked()
	fmt.Println("acknowledged:", ok && a.Seq == seq)
	// Output:
	// client got Ping
	// client got SetHealth
	// acknowledged: true
}
