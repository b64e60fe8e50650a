package transport

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// TestOpenAndNextReadOneLine keeps what Open and Next read and write for a datagram that
// is no bundle (and Touch reads) within the endpoint's first 64 bytes: a host of many
// connections that keeps the endpoint at a multiple of 64 in its own struct then reads
// one line of it per datagram.
func TestOpenAndNextReadOneLine(t *testing.T) {
	var e Endpoint
	for _, f := range []struct {
		name      string
		off, size uintptr
	}{
		{"side", unsafe.Offsetof(e.side), unsafe.Sizeof(e.side)},
		{"fromLane", unsafe.Offsetof(e.fromLane), unsafe.Sizeof(e.fromLane)},
		{"inBundle", unsafe.Offsetof(e.inBundle), unsafe.Sizeof(e.inBundle)},
		{"opened", unsafe.Offsetof(e.opened), unsafe.Sizeof(e.opened)},
		{"dec", unsafe.Offsetof(e.dec), unsafe.Sizeof(e.dec)},
		{"lane", unsafe.Offsetof(e.lane), unsafe.Sizeof(e.lane)},
		{"received", unsafe.Offsetof(e.received), unsafe.Sizeof(e.received)},
	} {
		if f.off+f.size > 64 {
			t.Errorf("Endpoint.%s ends at byte %d, past the first line", f.name, f.off+f.size)
		}
	}
}

// TestOpenDropsTheRestOfTheLastDatagram: Open starts afresh whatever the last datagram
// left unread, a bundle's elements included (Open clears the bundle's flag, not the
// bundle).
func TestOpenDropsTheRestOfTheLastDatagram(t *testing.T) {
	srv, cli := pair(t)
	require.NoError(t, cli.SetPayloadSize(DefaultPayloadSizeForTest))
	require.NoError(t, cli.Send(&wire.Ping{Seq: 1}))
	require.NoError(t, cli.Send(&wire.Pong{Seq: 2}))
	require.NoError(t, cli.Send(&wire.Ping{Seq: 3}))
	var bundle []byte
	require.NoError(t, cli.Flush(0, func(d []byte) { bundle = append([]byte(nil), d...) }))
	require.NoError(t, srv.Open(0, bundle))
	m, ok, err := srv.Next()
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "Ping", m.ID().String())

	require.NoError(t, srv.Open(0, enc(t, &wire.Pong{Seq: 9})))
	var got []string
	for {
		m, ok, err := srv.Next()
		require.NoError(t, err)
		if !ok {
			break
		}
		got = append(got, m.ID().String())
	}
	require.Equal(t, []string{"Pong"}, got, "the bundle's last two elements went with it")
	require.Equal(t, 2, srv.Stats().Received)
}
