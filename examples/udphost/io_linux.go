//go:build linux

package udphost

import (
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/net/ipv4"
	"golang.org/x/net/ipv6"
)

// batchWriter is the WriteBatch that golang.org/x/net's ipv4.PacketConn and
// ipv6.PacketConn share (their Message is the same type): sendmmsg on Linux.
type batchWriter interface {
	WriteBatch(ms []ipv4.Message, flags int) (int, error)
}

// mmsghdr is Linux's struct mmsghdr: a message header and the length the kernel filled
// in. Go lays it out as C does on every Linux architecture (syscall.Msghdr is the
// architecture's struct msghdr).
type mmsghdr struct {
	hdr syscall.Msghdr
	n   uint32
}

// batchIO reads a *net.UDPConn with recvmmsg and writes it with x/net's WriteBatch
// (sendmmsg), BatchSize datagrams per system call at most, allocating nothing per
// datagram.
//
// x/net's ReadBatch is not used to read: it allocates the source address of every
// datagram (a net.IP and a *net.UDPAddr); recvmmsg here fills preallocated socket
// addresses that become netip.AddrPort values.
type batchIO struct {
	raw syscall.RawConn
	w   batchWriter

	// recvmmsg's arguments, one entry per message of a batch, and its results.
	hs     []mmsghdr
	iovs   []syscall.Iovec
	names  []syscall.RawSockaddrInet6
	k      int // messages offered to this call
	got    int
	errno  syscall.Errno
	recvFn func(fd uintptr) bool // b.recv, bound once
	pollFn func(fd uintptr) bool // b.recvNow, bound once
	zones  map[uint32]string     // IPv6 scope ids seen, by number

	// WriteBatch's messages: out[i].Buffers is bufs[i:i+1].
	out   []ipv4.Message
	bufs  [][]byte
	addrs addrCache
}

// newBatchIO returns the batched packetIO of conn, or nil if conn has no raw access.
func newBatchIO(conn *net.UDPConn) packetIO {
	raw, err := conn.SyscallConn()
	if err != nil {
		return nil
	}
	b := &batchIO{
		raw:   raw,
		hs:    make([]mmsghdr, BatchSize),
		iovs:  make([]syscall.Iovec, BatchSize),
		names: make([]syscall.RawSockaddrInet6, BatchSize),
		zones: map[uint32]string{},
		out:   make([]ipv4.Message, BatchSize),
		bufs:  make([][]byte, BatchSize),
		addrs: addrCache{},
	}
	b.recvFn = b.recv
	b.pollFn = b.recvNow
	for i := range b.out {
		b.out[i].Buffers = b.bufs[i : i+1]
	}
	if la, ok := conn.LocalAddr().(*net.UDPAddr); ok && la.IP.To4() != nil {
		b.w = ipv4.NewPacketConn(conn)
	} else {
		b.w = ipv6.NewPacketConn(conn)
	}
	return b
}

func (b *batchIO) batch() int { return BatchSize }

func (b *batchIO) read(ms []message) (int, error) { return b.readWith(ms, b.recvFn) }

// poll is read without waiting: it returns 0 when no datagram is there (the poller
// interface; a Swarm reads its clients' sockets this way, from a few goroutines).
func (b *batchIO) poll(ms []message) (int, error) { return b.readWith(ms, b.pollFn) }

func (b *batchIO) readWith(ms []message, recv func(fd uintptr) bool) (int, error) {
	b.k = min(len(ms), len(b.hs))
	for i := range b.k {
		buf := ms[i].buf[:cap(ms[i].buf)]
		b.iovs[i].Base = &buf[0]
		b.iovs[i].SetLen(len(buf))
		h := &b.hs[i]
		*h = mmsghdr{}
		h.hdr.Name = (*byte)(unsafe.Pointer(&b.names[i]))
		h.hdr.Namelen = syscall.SizeofSockaddrInet6
		h.hdr.Iov = &b.iovs[i]
		h.hdr.Iovlen = 1
	}
	if err := b.raw.Read(recv); err != nil {
		return 0, err
	}
	if b.errno != 0 {
		return 0, &net.OpError{Op: "read", Net: "udp", Err: b.errno}
	}
	for i := range b.got {
		ms[i].buf = ms[i].buf[:b.hs[i].n]
		ms[i].addr = b.addrOf(&b.names[i])
	}
	return b.got, nil
}

// recv is recvmmsg on the socket fd, without waiting (Go's sockets are non-blocking):
// it returns false when nothing is there, and RawConn.Read then waits for the socket.
func (b *batchIO) recv(fd uintptr) bool {
	for {
		n, _, e := syscall.Syscall6(syscall.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&b.hs[0])), uintptr(b.k), 0, 0, 0)
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		b.got, b.errno = int(n), e
		if e != 0 {
			b.got = 0
		}
		return true
	}
}

// recvNow is recv that never waits: nothing there is 0 datagrams read.
func (b *batchIO) recvNow(fd uintptr) bool {
	if !b.recv(fd) {
		b.got, b.errno = 0, 0
	}
	return true
}

// addrOf reads the socket address recvmmsg filled.
func (b *batchIO) addrOf(sa *syscall.RawSockaddrInet6) netip.AddrPort {
	p := (*[2]byte)(unsafe.Pointer(&sa.Port)) // network byte order
	port := uint16(p[0])<<8 | uint16(p[1])
	switch sa.Family {
	case syscall.AF_INET:
		sa4 := (*syscall.RawSockaddrInet4)(unsafe.Pointer(sa))
		return netip.AddrPortFrom(netip.AddrFrom4(sa4.Addr), port)
	case syscall.AF_INET6:
		a := netip.AddrFrom16(sa.Addr)
		if a.Is4In6() {
			return netip.AddrPortFrom(a.Unmap(), port)
		}
		if sa.Scope_id != 0 {
			a = a.WithZone(b.zone(sa.Scope_id))
		}
		return netip.AddrPortFrom(a, port)
	}
	return netip.AddrPort{}
}

// zone names an IPv6 scope id by its interface (or its number), once per id.
func (b *batchIO) zone(id uint32) string {
	if z, ok := b.zones[id]; ok {
		return z
	}
	z := strconv.FormatUint(uint64(id), 10)
	if ifi, err := net.InterfaceByIndex(int(id)); err == nil {
		z = ifi.Name
	}
	if len(b.zones) < maxCachedAddrs {
		b.zones[id] = z
	}
	return z
}

func (b *batchIO) write(ms []message) error {
	var first error
	for len(ms) > 0 {
		k := min(len(ms), len(b.out))
		for i := range k {
			b.bufs[i] = ms[i].buf
			b.out[i].Addr = b.addrs.get(ms[i].addr)
		}
		n, err := b.w.WriteBatch(b.out[:k], 0)
		n = max(n, 0) // a failed system call reports -1
		if err != nil {
			if first == nil {
				first = err
			}
			n++ // the datagram at n was refused: skip it
		}
		ms = ms[min(n, len(ms)):]
	}
	clear(b.bufs)
	return first
}
