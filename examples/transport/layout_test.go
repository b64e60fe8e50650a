package transport

import (
	"errors"
	"fmt"
	"math/rand/v2"
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

// TestDecodeMessageIsNext: DecodeMessage gives for a message datagram what an endpoint's
// Open and Next give (the message, or the same error: the decoder's, or
// ErrWrongDirection), whichever side decodes and whatever the bytes after the header.
func TestDecodeMessageIsNext(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	msgs := []wire.Message{&wire.Ping{Seq: 1}, &wire.Pong{Seq: 2}, &wire.PlayerSync{Seq: 3, Health: 50},
		&wire.WeaponShot{ShotSeq: 4}, &wire.DamageReport{DamageSeq: 5}, &wire.PlayerHide{Player: 6}}
	var dec wire.Decoder
	for i := range 2000 {
		b := enc(t, msgs[rng.IntN(len(msgs))])
		switch rng.IntN(3) {
		case 0:
			b = b[:rng.IntN(len(b)+1)] // truncated
		case 1:
			b[rng.IntN(len(b))] = byte(rng.Uint32()) // a byte changed
		}
		id, err := wire.Peek(b)
		if err != nil || id == wire.IDBundle || id.Transport() {
			continue
		}
		for _, side := range []Side{Server, Client} {
			e, err := New(side)
			require.NoError(t, err)
			require.NoError(t, e.Open(0, b))
			want, ok, wantErr := e.Next()
			require.True(t, ok)
			wantStr := ""
			if want != nil {
				wantStr = want.String()
			}
			got, gotErr := DecodeMessage(&dec, side, b)
			gotStr := ""
			if got != nil {
				gotStr = got.String()
			}
			require.Equal(t, wantStr, gotStr, "case %d side %d: % x", i, side, b)
			require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(gotErr), "case %d side %d: % x", i, side, b)
			require.Equal(t, errors.Is(wantErr, ErrWrongDirection), errors.Is(gotErr, ErrWrongDirection))
		}
	}
}
