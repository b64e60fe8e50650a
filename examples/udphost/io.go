package udphost

import (
	"net"
	"net/netip"
)

// message is one datagram of a batch and the address it came from or goes to. Its
// buffer has room for MaxDatagram bytes; read reslices it to the datagram.
type message struct {
	buf  []byte
	addr netip.AddrPort
}

// newMessages returns n messages whose buffers share one array of n*MaxDatagram bytes.
func newMessages(n int) []message {
	ms := make([]message, n)
	room := make([]byte, n*MaxDatagram)
	for i := range ms {
		ms[i].buf = room[i*MaxDatagram : i*MaxDatagram : (i+1)*MaxDatagram]
	}
	return ms
}

// packetIO reads and writes a socket's datagrams in batches without allocating.
type packetIO interface {
	// read waits for at least one datagram and fills the first n messages of ms (at most
	// batch of them) with what arrived, each buffer resliced from its full room.
	read(ms []message) (n int, err error)
	// write sends the datagrams of ms in order; one the socket refuses is skipped, and the
	// first error is returned once the others were tried.
	write(ms []message) error
	// batch is the most datagrams one read fills.
	batch() int
}

// newPacketIO returns the fastest packetIO for conn: the batched one for a *net.UDPConn
// on Linux, one datagram per call with netip addresses for a *net.UDPConn elsewhere, and
// net.PacketConn's ReadFrom and WriteTo for any other connection.
func newPacketIO(conn net.PacketConn) packetIO {
	if uc, ok := conn.(*net.UDPConn); ok {
		if p := newBatchIO(uc); p != nil {
			return p
		}
		return &udpIO{conn: uc}
	}
	return &connIO{conn: conn, addrs: addrCache{}}
}

// unmapped returns a with an IPv4-mapped IPv6 address turned into the IPv4 one, so an
// address compares equal however the socket reported it.
func unmapped(a netip.AddrPort) netip.AddrPort {
	if a.Addr().Is4In6() {
		return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
	}
	return a
}

// addrPortOf returns the IP address and port of a, unmapped (the zero AddrPort if a is
// neither a *net.UDPAddr nor an address and port in text).
func addrPortOf(a net.Addr) netip.AddrPort {
	if ua, ok := a.(*net.UDPAddr); ok {
		return unmapped(ua.AddrPort())
	}
	ap, _ := netip.ParseAddrPort(a.String())
	return unmapped(ap)
}

// maxCachedAddrs bounds addrCache: past it the cache starts again (a server only writes
// to its players, a client to its server).
const maxCachedAddrs = 4096

// addrCache keeps the *net.UDPAddr of each address written to, so that the APIs that
// take a net.Addr do not cost an allocation per datagram.
type addrCache map[netip.AddrPort]*net.UDPAddr

func (c addrCache) get(a netip.AddrPort) *net.UDPAddr {
	if ua, ok := c[a]; ok {
		return ua
	}
	if len(c) >= maxCachedAddrs {
		clear(c)
	}
	ua := net.UDPAddrFromAddrPort(a)
	c[a] = ua
	return ua
}

// udpIO is a *net.UDPConn read and written one datagram per call, through the standard
// library's netip calls, which do not allocate.
type udpIO struct{ conn *net.UDPConn }

func (u *udpIO) batch() int { return 1 }

func (u *udpIO) read(ms []message) (int, error) {
	n, from, err := u.conn.ReadFromUDPAddrPort(ms[0].buf[:cap(ms[0].buf)])
	if err != nil {
		return 0, err
	}
	ms[0].buf, ms[0].addr = ms[0].buf[:n], unmapped(from)
	return 1, nil
}

func (u *udpIO) write(ms []message) error {
	var first error
	for i := range ms {
		if _, err := u.conn.WriteToUDPAddrPort(ms[i].buf, ms[i].addr); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// connIO is any net.PacketConn, read and written one datagram per call. Its ReadFrom
// may allocate the address it returns (pion's virtual network does); connIO itself
// allocates nothing per datagram.
type connIO struct {
	conn  net.PacketConn
	addrs addrCache
}

func (c *connIO) batch() int { return 1 }

func (c *connIO) read(ms []message) (int, error) {
	n, from, err := c.conn.ReadFrom(ms[0].buf[:cap(ms[0].buf)])
	if err != nil {
		return 0, err
	}
	ms[0].buf, ms[0].addr = ms[0].buf[:n], addrPortOf(from)
	return 1, nil
}

func (c *connIO) write(ms []message) error {
	var first error
	for i := range ms {
		if _, err := c.conn.WriteTo(ms[i].buf, c.addrs.get(ms[i].addr)); err != nil && first == nil {
			first = err
		}
	}
	return first
}
