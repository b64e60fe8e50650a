package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// rawBundle lays datagrams out as a bundle by hand (the wire's writer refuses to build a
// hostile one): the header, then each with its little-endian u16 length.
func rawBundle(ds ...[]byte) []byte {
	b := []byte{wire.Version, byte(wire.IDBundle)}
	for _, d := range ds {
		b = append(b, byte(len(d)), byte(len(d)>>8))
		b = append(b, d...)
	}
	return b
}

func encode(t *testing.T, m wire.Message) []byte {
	t.Helper()
	b, err := m.Append(nil)
	require.NoError(t, err)
	return b
}

// [coalesce-per-recipient]: what a connection gets in one Flush leaves in as few
// datagrams of at most PayloadSize bytes as fit, every relay in it once and stamped for
// its recipient, and the clients read them as before.
func TestCoalescePerRecipientPacksAFlushIntoFewDatagrams(t *testing.T) {
	const n = 16
	h := newHarness(t, testConfig())
	cl := make([]*tclient, n)
	for i := range cl {
		cl[i] = h.join(PlayerID(i))
	}
	for _, c := range cl {
		h.spawn(c)
	}
	h.flush()
	for _, c := range cl {
		c.reset()
		require.Equal(t, VerdictAccepted, h.frame(c))
	}
	st0 := h.w.Stats()
	per := map[PlayerID]int{}
	elems := map[PlayerID]int{}
	require.NoError(t, h.w.Flush(h.now, func(conn PlayerID, d []byte) {
		require.LessOrEqual(t, len(d), h.w.Config().PayloadSize)
		per[conn]++
		for e := range wire.Elements(d) {
			_, err := wire.Peek(e)
			require.NoError(t, err)
			elems[conn]++
		}
		_ = h.cl[conn].ep.Receive(h.now, d, func(m wire.Message) { h.cl[conn].take(clone(t, m)) })
	}))
	st := h.w.Stats()
	sent := 0
	for _, c := range cl {
		require.Equal(t, 1, per[c.id], "player %d: %d relays (%d bytes) fit one datagram", c.id, n-1, (n-1)*(wire.IDRemotePlayerSync.Size()+2))
		require.GreaterOrEqual(t, elems[c.id], n-1)
		got := received[*wire.RemotePlayerSync](c)
		require.Len(t, got, n-1, "player %d gets every other player's frame once", c.id)
		for _, m := range got {
			require.NotEqual(t, c.id, m.Player)
		}
		sent += elems[c.id]
	}
	require.Equal(t, uint64(1), st.Flushes-st0.Flushes)
	require.Equal(t, uint64(n), st.DatagramsSent-st0.DatagramsSent)
	require.Equal(t, uint64(sent), st.ElementsSent-st0.ElementsSent)
	require.Equal(t, uint64(n*(n-1)), st.Relayed-st0.Relayed)
}

// [coalesce-per-recipient]: the payload size bounds every datagram; a smaller one (here
// the minimum) needs more of them than a larger one for the same relays, and a lone
// message goes bare.
func TestCoalescePerRecipientKeepsToThePayloadSize(t *testing.T) {
	count := func(payload int) (datagrams, largest int) {
		cfg := testConfig()
		cfg.MaxPlayers = 64
		cfg.PayloadSize = payload
		h := newHarness(t, cfg)
		cl := make([]*tclient, 64)
		for i := range cl {
			cl[i] = h.join(PlayerID(i))
		}
		for _, c := range cl {
			h.spawn(c)
		}
		for range 3 {
			h.step(transportFrame)
		}
		for _, c := range cl {
			require.Equal(t, VerdictAccepted, h.frame(c))
		}
		require.NoError(t, h.w.Flush(h.now, func(conn PlayerID, d []byte) {
			if conn == 0 {
				datagrams++
				largest = max(largest, len(d))
			}
		}))
		return datagrams, largest
	}
	small, largest := count(MinPayloadSize)
	require.LessOrEqual(t, largest, MinPayloadSize)
	big, largestBig := count(4 * MinPayloadSize)
	require.LessOrEqual(t, largestBig, 4*MinPayloadSize)
	require.Greater(t, small, big, "63 relays need more datagrams of %d bytes than of %d", MinPayloadSize, 4*MinPayloadSize)
	require.Greater(t, largestBig, MinPayloadSize, "the larger payload is used")

	// A lone message goes bare.
	h := newHarness(t, testConfig())
	a := h.join(0)
	h.flush()
	h.flush()
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, a.id, &wire.Ping{Seq: 4}))
	var got [][]byte
	require.NoError(t, h.w.Flush(h.now, func(conn PlayerID, d []byte) {
		got = append(got, append([]byte(nil), d...))
	}))
	require.Equal(t, [][]byte{encode(t, &wire.Pong{Seq: 4})}, got, "the Pong alone leaves bare")
}

const transportFrame = 33 * time.Millisecond

// Config.PayloadSize is validated: zero is DefaultPayloadSize, below MinPayloadSize or
// above MaxPayloadSize is refused.
func TestPayloadSizeIsValidated(t *testing.T) {
	w, err := New(Config{MaxPlayers: 2})
	require.NoError(t, err)
	require.Equal(t, DefaultPayloadSize, w.Config().PayloadSize)
	for _, bad := range []int{-1, 1, MinPayloadSize - 1, MaxPayloadSize + 1} {
		_, err := New(Config{MaxPlayers: 2, PayloadSize: bad})
		require.ErrorIs(t, err, ErrConfig, "PayloadSize %d", bad)
	}
	for _, good := range []int{MinPayloadSize, MaxPayloadSize} {
		_, err := New(Config{MaxPlayers: 2, PayloadSize: good})
		require.NoError(t, err, "PayloadSize %d", good)
	}
	require.GreaterOrEqual(t, MinPayloadSize, wire.MaxSize+wire.BundleOverhead)
}

// [elements-count-as-datagrams]: a client cannot pass 10,000 messages in 40 bundles: the
// datagram gate charges each element, so what it takes at once is what it would take one
// message per datagram (DatagramBurst of DatagramRate), and the rest is dropped whole.
func TestElementsCountAsDatagramsAtTheDatagramGate(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	h.flush()
	const perBundle, bundles = 250, 40
	elems := make([][]byte, perBundle)
	for i := range elems {
		elems[i] = encode(t, &wire.Ping{Seq: uint16(i)})
	}
	d := rawBundle(elems...)
	st0 := h.w.Stats()
	taken := 0
	for range bundles {
		if h.w.Receive(h.now, a.id, d) == nil {
			taken++
		}
	}
	st := h.w.Stats()
	handled := st.Messages - st0.Messages
	limit := uint64(DatagramRate*DatagramBurst/time.Second) + 1
	require.LessOrEqual(t, handled, limit, "%d of %d messages handled", handled, perBundle*bundles)
	require.Equal(t, uint64(taken*perBundle), handled, "a bundle is taken or dropped whole")
	require.Positive(t, taken, "the gate's burst takes a bundle of an honest size")
	require.Equal(t, uint64(bundles-taken), st.DatagramsOverRate-st0.DatagramsOverRate)
	// The other connection is untouched.
	require.Equal(t, VerdictAccepted, h.frame(b))
}

// Hostile input: a bundle inside a bundle, or more than wire.MaxBundleElements elements,
// is refused whole: the frame inside is not taken, nothing is relayed, the World counts a
// malformed datagram.
func TestHostileBundleChangesNothingInTheWorld(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	h.flush()
	b.reset()
	frame := encode(t, a.frameMsg())
	ping := encode(t, &wire.Ping{})
	many := make([][]byte, wire.MaxBundleElements)
	for i := range many {
		many[i] = ping
	}
	for _, d := range [][]byte{
		rawBundle(frame, rawBundle(ping, ping)),
		rawBundle(append([][]byte{frame}, many...)...),
		rawBundle(frame, nil),
	} {
		st0 := h.w.Stats()
		require.Error(t, h.w.Receive(h.now, a.id, d))
		st := h.w.Stats()
		require.Equal(t, st0.Frames, st.Frames, "the frame inside was not taken")
		require.Equal(t, st0.Messages, st.Messages)
		require.Equal(t, st0.Malformed+1, st.Malformed)
	}
	h.flush()
	require.Empty(t, received[*wire.RemotePlayerSync](b))
	// The same frame in a sound bundle is taken.
	st0 := h.w.Stats()
	require.NoError(t, h.w.Receive(h.now, a.id, rawBundle(frame, ping)))
	require.Equal(t, st0.Frames+1, h.w.Stats().Frames)
}

// Flush stays allocation-free with coalescing: the one bundle buffer is reused.
func TestCoalescedFlushDoesNotAllocate(t *testing.T) {
	h := newHarness(t, testConfig())
	cl := make([]*tclient, 8)
	for i := range cl {
		cl[i] = h.join(PlayerID(i))
		h.spawn(cl[i])
	}
	h.flush()
	bufs := make([][]byte, len(cl))
	frames := make([]wire.PlayerSync, len(cl))
	for i := range bufs {
		bufs[i] = make([]byte, 0, wire.MaxSize)
		frames[i] = *cl[i].frameMsg()
	}
	discard := func(PlayerID, []byte) {}
	run := func() {
		h.now += transportFrame
		for i, c := range cl {
			frames[i].Seq++
			bufs[i], _ = frames[i].Append(bufs[i][:0])
			_ = h.w.Receive(h.now, c.id, bufs[i])
		}
		_ = h.w.Flush(h.now, discard)
	}
	run()
	require.Zero(t, testing.AllocsPerRun(100, run))
}
