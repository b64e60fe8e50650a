package udphost

import (
	"net"
	"testing"
	"time"

	"golang.org/x/net/ipv4"
)

// benchBatch is how many datagrams one iteration of BenchmarkLoopback writes and reads.
const benchBatch = 64

// BenchmarkLoopback writes benchBatch frame-sized datagrams (48 bytes) from one socket on
// 127.0.0.1 to another and reads them back, per iteration, four ways: the host's batched
// path (sendmmsg through x/net's WriteBatch, recvmmsg), x/net's WriteBatch and ReadBatch
// (which allocate the source address of every datagram read), one system call per
// datagram with netip addresses (WriteToUDPAddrPort, ReadFromUDPAddrPort), and one
// WriteTo and ReadFrom per datagram (net.Addr, the host's former path). It reports the
// cost per datagram (written and read) and datagrams per second.
//
//	go test -run '^$' -bench Loopback -benchmem ./examples/udphost/
func BenchmarkLoopback(b *testing.B) {
	pair := func(b *testing.B) (*net.UDPConn, *net.UDPConn) {
		a, c := listenLoopback(b), listenLoopback(b)
		if err := c.SetReadBuffer(1 << 20); err != nil {
			b.Fatal(err)
		}
		if err := c.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
			b.Fatal(err)
		}
		return a, c
	}
	report := func(b *testing.B) {
		ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N*benchBatch)
		b.ReportMetric(ns, "ns/datagram")
		b.ReportMetric(1e9/ns, "datagrams/s")
	}
	run := func(name string, w, r func(a, c *net.UDPConn) packetIO) {
		b.Run(name, func(b *testing.B) {
			a, c := pair(b)
			pw, pr := w(a, c), r(a, c)
			out := datagrams(benchBatch, 48, localAddrPort(c))
			in := newMessages(pr.batch())
			b.ReportAllocs()
			for b.Loop() {
				if err := pw.write(out); err != nil {
					b.Fatal(err)
				}
				for got := 0; got < benchBatch; {
					n, err := pr.read(in)
					if err != nil {
						b.Fatalf("after %d datagrams: %v", got, err)
					}
					got += n
				}
			}
			report(b)
		})
	}
	host := func(a, _ *net.UDPConn) packetIO { return newPacketIO(a) }
	hostR := func(_, c *net.UDPConn) packetIO { return newPacketIO(c) }
	run("batched", host, hostR)
	run("x-net-WriteBatch+ReadBatch", func(a, _ *net.UDPConn) packetIO { return newXNetIO(a) },
		func(_, c *net.UDPConn) packetIO { return newXNetIO(c) })
	run("WriteToUDPAddrPort+ReadFromUDPAddrPort", func(a, _ *net.UDPConn) packetIO { return &udpIO{conn: a} },
		func(_, c *net.UDPConn) packetIO { return &udpIO{conn: c} })
	run("WriteTo+ReadFrom", func(a, _ *net.UDPConn) packetIO { return &connIO{conn: a, addrs: addrCache{}} },
		func(_, c *net.UDPConn) packetIO { return &connIO{conn: c, addrs: addrCache{}} })
}

// xnetIO is x/net's ipv4 WriteBatch and ReadBatch as a packetIO, for the benchmark.
type xnetIO struct {
	pc    *ipv4.PacketConn
	ms    []ipv4.Message
	addrs addrCache
}

func newXNetIO(c *net.UDPConn) *xnetIO {
	x := &xnetIO{pc: ipv4.NewPacketConn(c), ms: make([]ipv4.Message, BatchSize), addrs: addrCache{}}
	for i := range x.ms {
		x.ms[i].Buffers = make([][]byte, 1)
	}
	return x
}

func (x *xnetIO) batch() int { return BatchSize }

func (x *xnetIO) read(ms []message) (int, error) {
	k := min(len(ms), len(x.ms))
	for i := range k {
		x.ms[i].Buffers[0] = ms[i].buf[:cap(ms[i].buf)]
	}
	n, err := x.pc.ReadBatch(x.ms[:k], 0)
	if err != nil {
		return 0, err
	}
	for i := range n {
		ms[i].buf = ms[i].buf[:x.ms[i].N]
		ms[i].addr = addrPortOf(x.ms[i].Addr)
	}
	return n, nil
}

func (x *xnetIO) write(ms []message) error {
	for len(ms) > 0 {
		k := min(len(ms), len(x.ms))
		for i := range k {
			x.ms[i].Buffers[0] = ms[i].buf
			x.ms[i].Addr = x.addrs.get(ms[i].addr)
		}
		n, err := x.pc.WriteBatch(x.ms[:k], 0)
		if err != nil {
			return err
		}
		ms = ms[n:]
	}
	return nil
}
