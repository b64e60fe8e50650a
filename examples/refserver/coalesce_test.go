package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// These tests drive the World alone, with the benchmarks' world (bench_test.go): players
// joined, shown to each other and spawned by their messages, no client model. What the
// World sends is split and decoded here.

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

// frameBytes is player i's next frame (its Seq advanced), as bytes.
func (bw *benchWorld) frameBytes(t *testing.T, i int) []byte {
	bw.frames[i].Seq++
	return encode(t, &bw.frames[i])
}

// relaysTo decodes the datagrams a Flush handed one connection and returns the players
// whose frames (RemotePlayerSync) it carried, in order.
func relaysIn(t *testing.T, ds [][]byte) []wire.PlayerID {
	t.Helper()
	var out []wire.PlayerID
	var dec wire.Decoder
	for _, d := range ds {
		for e := range wire.Elements(d) {
			m, err := dec.Decode(e)
			require.NoError(t, err)
			if r, ok := m.(*wire.RemotePlayerSync); ok {
				out = append(out, r.Player)
			}
		}
	}
	return out
}

// flushAll runs one Flush and returns a copy of every datagram per connection.
func (bw *benchWorld) flushAll(t *testing.T) map[PlayerID][][]byte {
	t.Helper()
	got := map[PlayerID][][]byte{}
	require.NoError(t, bw.w.Flush(bw.now, func(conn PlayerID, d []byte) {
		got[conn] = append(got[conn], append([]byte(nil), d...))
	}))
	return got
}

// [coalesce-per-recipient]: what a connection gets in one Flush leaves in as few
// datagrams of at most PayloadSize bytes as fit, every relay in it once and stamped for
// its recipient, and the clients read them as before.
func TestCoalescePerRecipientPacksAFlushIntoFewDatagrams(t *testing.T) {
	const n = 16
	bw := newBenchWorld(t, n)
	bw.now += transportFrame
	for i := range n {
		require.NoError(t, bw.w.Receive(bw.now, PlayerID(i), bw.frameBytes(t, i)))
	}
	st0 := bw.w.Stats()
	got := bw.flushAll(t)
	st := bw.w.Stats()
	sent := 0
	for i := range n {
		id := PlayerID(i)
		ds := got[id]
		require.Len(t, ds, 1, "player %d: %d relays (%d bytes) fit one datagram", i, n-1, (n-1)*(wire.IDRemotePlayerSync.Size()+2))
		require.LessOrEqual(t, len(ds[0]), bw.w.Config().PayloadSize)
		for range wire.Elements(ds[0]) {
			sent++
		}
		from := relaysIn(t, ds)
		require.Len(t, from, n-1, "player %d gets every other player's frame once", i)
		seen := map[wire.PlayerID]bool{}
		for _, p := range from {
			require.NotEqual(t, wire.PlayerID(id), p)
			require.False(t, seen[p], "player %d got %d's frame twice", i, p)
			seen[p] = true
		}
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
		bw := newBenchWorldOf(t, Config{MaxPlayers: 64, MaxVehicles: 1, PayloadSize: payload, Stream: StreamConfig{Everyone: true}})
		for range 3 {
			bw.tick(false)
		}
		bw.now += transportFrame
		for i := range 64 {
			require.NoError(t, bw.w.Receive(bw.now, PlayerID(i), bw.frameBytes(t, i)))
		}
		got := bw.flushAll(t)
		for _, d := range got[0] {
			datagrams++
			largest = max(largest, len(d))
		}
		require.Len(t, relaysIn(t, got[0]), 63, "every relay arrives whatever the payload size")
		return datagrams, largest
	}
	small, largest := count(MinPayloadSize)
	require.LessOrEqual(t, largest, MinPayloadSize)
	big, largestBig := count(4 * MinPayloadSize)
	require.LessOrEqual(t, largestBig, 4*MinPayloadSize)
	require.Greater(t, small, big, "63 relays need more datagrams of %d bytes than of %d", MinPayloadSize, 4*MinPayloadSize)
	require.Greater(t, largestBig, MinPayloadSize, "the larger payload is used")

	// A lone message goes bare.
	w, err := New(Config{MaxPlayers: 2})
	require.NoError(t, err)
	now := transportFrame
	require.Equal(t, VerdictAccepted, w.Handle(now, 0, &wire.Hello{}))
	require.NoError(t, w.Flush(now, func(PlayerID, []byte) {}))
	require.Equal(t, VerdictAccepted, w.Handle(now, 0, &wire.Ping{Seq: 4}))
	var got [][]byte
	require.NoError(t, w.Flush(now, func(conn PlayerID, d []byte) {
		got = append(got, append([]byte(nil), d...))
	}))
	require.Equal(t, [][]byte{encode(t, &wire.Pong{Seq: 4})}, got, "the Pong alone leaves bare")
}

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
	bw := newBenchWorld(t, 2)
	bw.now += transportFrame
	const perBundle, bundles = 250, 40
	elems := make([][]byte, perBundle)
	for i := range elems {
		elems[i] = encode(t, &wire.Ping{Seq: uint16(i)})
	}
	d := rawBundle(elems...)
	st0 := bw.w.Stats()
	taken := 0
	for range bundles {
		if bw.w.Receive(bw.now, 0, d) == nil {
			taken++
		}
	}
	st := bw.w.Stats()
	handled := st.Messages - st0.Messages
	limit := uint64(DatagramRate*DatagramBurst/time.Second) + 1
	require.LessOrEqual(t, handled, limit, "%d of %d messages handled", handled, perBundle*bundles)
	require.Equal(t, uint64(taken*perBundle), handled, "a bundle is taken or dropped whole")
	require.Positive(t, taken, "the gate's burst takes a bundle of an honest size")
	require.Equal(t, uint64(bundles-taken), st.DatagramsOverRate-st0.DatagramsOverRate)
	// The other connection is untouched: its frame is taken.
	require.NoError(t, bw.w.Receive(bw.now, 1, bw.frameBytes(t, 1)))
	require.Equal(t, st.Frames+1, bw.w.Stats().Frames)
}

// Hostile input: a bundle inside a bundle, or more than wire.MaxBundleElements elements,
// is refused whole: the frame inside is not taken, nothing is relayed, the World counts a
// malformed datagram.
func TestHostileBundleChangesNothingInTheWorld(t *testing.T) {
	bw := newBenchWorld(t, 2)
	bw.now += transportFrame
	bw.flushAll(t)
	frame := bw.frameBytes(t, 0)
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
		st0 := bw.w.Stats()
		require.Error(t, bw.w.Receive(bw.now, 0, d))
		st := bw.w.Stats()
		require.Equal(t, st0.Frames, st.Frames, "the frame inside was not taken")
		require.Equal(t, st0.Messages, st.Messages)
		require.Equal(t, st0.Malformed+1, st.Malformed)
	}
	require.Empty(t, relaysIn(t, bw.flushAll(t)[1]), "nothing of a refused bundle is relayed")
	// The same frame in a sound bundle is taken and relayed.
	st0 := bw.w.Stats()
	require.NoError(t, bw.w.Receive(bw.now, 0, rawBundle(frame, ping)))
	require.Equal(t, st0.Frames+1, bw.w.Stats().Frames)
	require.Equal(t, []wire.PlayerID{0}, relaysIn(t, bw.flushAll(t)[1]))
}

// Flush stays allocation-free with coalescing: the one bundle buffer is reused.
func TestCoalescedFlushDoesNotAllocate(t *testing.T) {
	bw := newBenchWorld(t, 8)
	discard := func(PlayerID, []byte) {}
	run := func() {
		bw.now += transportFrame
		for i := range bw.n {
			f := &bw.frames[i]
			f.Seq++
			bw.bufs[i], _ = f.Append(bw.bufs[i][:0])
			_ = bw.w.Receive(bw.now, PlayerID(i), bw.bufs[i])
		}
		_ = bw.w.Flush(bw.now, discard)
	}
	run()
	require.Zero(t, testing.AllocsPerRun(100, run))
}

const transportFrame = 33 * time.Millisecond
