package transport

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

func pair(t *testing.T) (srv, cli *Endpoint) {
	t.Helper()
	srv, err := New(Server)
	require.NoError(t, err)
	cli, err = New(Client)
	require.NoError(t, err)
	return srv, cli
}

// carry flushes from one endpoint into the other, collecting the message strings.
func carry(t *testing.T, now time.Duration, from, to *Endpoint) []string {
	t.Helper()
	var got []string
	require.NoError(t, from.Flush(now, func(d []byte) {
		_ = to.Receive(now, d, func(m wire.Message) { got = append(got, m.ID().String()) })
	}))
	return got
}

func TestUnreliableAndReliableShareOneEndpoint(t *testing.T) {
	srv, cli := pair(t)
	require.NoError(t, cli.Send(&wire.Ping{Seq: 1}))
	_, err := cli.Queue(0, &wire.RespawnRequest{})
	require.NoError(t, err)
	got := carry(t, 0, cli, srv)
	require.Equal(t, []string{"Ping", "RespawnRequest"}, got)

	seq, err := srv.Queue(time.Millisecond, &wire.SetHealth{Rev: 1, Health: 50})
	require.NoError(t, err)
	require.Equal(t, []string{"SetHealth"}, carry(t, time.Millisecond, srv, cli))
	carry(t, 2*time.Millisecond, cli, srv) // the client's acknowledgement
	a, ok := srv.PopAcked()
	require.True(t, ok)
	require.Equal(t, seq, a.Seq)
}

func TestMessagesOnTheWrongStreamAreRefused(t *testing.T) {
	srv, _ := pair(t)
	require.ErrorIs(t, srv.Send(&wire.SetHealth{Rev: 1, Health: 50}), ErrNotReliable)
	_, err := srv.Queue(0, &wire.Ping{})
	require.ErrorIs(t, err, ErrNotReliable)
}

func TestMessagesInTheWrongDirectionAreDropped(t *testing.T) {
	srv, _ := pair(t)
	other, err := New(Server)
	require.NoError(t, err)
	// A "client" that sends a server-to-client message.
	require.NoError(t, other.Send(&wire.RemotePlayerSync{Player: 1, Health: 100, Alive: true, Vehicle: wire.NoVehicle}))
	var handled int
	require.NoError(t, other.Flush(0, func(d []byte) {
		err := srv.Receive(0, d, func(wire.Message) { handled++ })
		require.True(t, errors.Is(err, ErrWrongDirection), "%v", err)
	}))
	require.Zero(t, handled)
	require.Equal(t, 1, srv.Stats().WrongDirection)
}

func TestMalformedDatagramsAreCountedNotHandled(t *testing.T) {
	srv, _ := pair(t)
	for _, d := range [][]byte{nil, {1}, {wire.Version, byte(wire.IDPlayerSync), 1, 2}, {wire.Version, 0xF0, 1}} {
		require.Error(t, srv.Receive(0, d, func(wire.Message) { t.Fatal("handled a malformed datagram") }))
	}
	require.Equal(t, 4, srv.Stats().Malformed)
}

func TestOutboxIsCapped(t *testing.T) {
	_, cli := pair(t)
	for range MaxPendingDatagrams {
		require.NoError(t, cli.Send(&wire.Ping{}))
	}
	require.ErrorIs(t, cli.Send(&wire.Ping{}), ErrOutboxFull)
	n := 0
	require.NoError(t, cli.Flush(0, func([]byte) { n++ }))
	require.Equal(t, MaxPendingDatagrams, n)
	require.NoError(t, cli.Send(&wire.Ping{}))
}

func TestTheLethalReportAndTheDeathReportPassTheSoftCapInOrder(t *testing.T) {
	srv, cli := pair(t)
	for i := range lane.SoftCap {
		_, err := cli.Queue(0, &wire.RespawnRequest{DeathEpoch: uint16(i)})
		require.NoError(t, err)
	}
	_, err := cli.Queue(0, &wire.RespawnRequest{})
	require.ErrorIs(t, err, lane.ErrSoftCap, "an ordinary message above the soft cap")
	lethal, err := cli.Queue(0, &wire.DamageReport{DamageSeq: 1, Attacker: 2, Weapon: 24, BodyPart: 3,
		HealthBefore: 20, HealthAfter: 0, Loss: 20})
	require.NoError(t, err, "the lethal report is critical")
	death, err := cli.Queue(0, &wire.DeathReport{Weapon: 24, Killer: 2})
	require.NoError(t, err)
	require.Less(t, lethal, death, "the lethal report goes ahead of the DeathReport")
	var got []string
	now := time.Duration(0)
	for range 1000 {
		if len(got) == lane.SoftCap+2 {
			break
		}
		got = append(got, carry(t, now, cli, srv)...)
		carry(t, now, srv, cli) // the acknowledgements open the window
		now += 10 * time.Millisecond
	}
	require.Len(t, got, lane.SoftCap+2, "everything queued is delivered")
	require.Equal(t, []string{wire.IDDamageReport.String(), wire.IDDeathReport.String()}, got[len(got)-2:])
}

// bundleOf lays datagrams out as one bundle by hand (the writer refuses to build a
// hostile one): the header, then each with its little-endian u16 length.
func bundleOf(ds ...[]byte) []byte {
	b := []byte{wire.Version, byte(wire.IDBundle)}
	for _, d := range ds {
		b = append(b, byte(len(d)), byte(len(d)>>8))
		b = append(b, d...)
	}
	return b
}

func enc(t *testing.T, m wire.Message) []byte {
	t.Helper()
	b, err := m.Append(nil)
	require.NoError(t, err)
	return b
}

// TestBundleElementsArriveAsIfAlone: a peer that coalesces sends its unreliable messages
// and its lane datagram in one bundle, and the receiving endpoint hands over the same
// messages in the same order as from separate datagrams; the lane inside the bundle is
// acknowledged as usual.
func TestBundleElementsArriveAsIfAlone(t *testing.T) {
	srv, cli := pair(t)
	require.NoError(t, cli.SetPayloadSize(DefaultPayloadSizeForTest))
	require.NoError(t, cli.Send(&wire.Ping{Seq: 1}))
	require.NoError(t, cli.Send(&wire.Pong{Seq: 2}))
	_, err := cli.Queue(0, &wire.RespawnRequest{})
	require.NoError(t, err)
	_, err = cli.Queue(0, &wire.DeathReport{})
	require.NoError(t, err)
	var datagrams [][]byte
	require.NoError(t, cli.Flush(0, func(d []byte) { datagrams = append(datagrams, append([]byte(nil), d...)) }))
	require.Len(t, datagrams, 1, "one flush, one datagram")
	id, err := wire.Peek(datagrams[0])
	require.NoError(t, err)
	require.Equal(t, wire.IDBundle, id)
	var got []string
	require.NoError(t, srv.Receive(0, datagrams[0], func(m wire.Message) { got = append(got, m.ID().String()) }))
	require.Equal(t, []string{"Ping", "Pong", "RespawnRequest", "DeathReport"}, got)

	// The server's acknowledgement reaches the client's lane.
	carry(t, time.Millisecond, srv, cli)
	_, ok := cli.PopAcked()
	require.True(t, ok, "the messages in the bundle were acknowledged")

	// A lone message goes bare.
	require.NoError(t, cli.Send(&wire.Ping{Seq: 3}))
	datagrams = datagrams[:0]
	require.NoError(t, cli.Flush(2*time.Millisecond, func(d []byte) { datagrams = append(datagrams, append([]byte(nil), d...)) }))
	require.Len(t, datagrams, 1)
	require.Equal(t, enc(t, &wire.Ping{Seq: 3}), datagrams[0])
}

// DefaultPayloadSizeForTest is the payload size of the tests: the smallest allowed.
const DefaultPayloadSizeForTest = MinPayloadSize

// TestHostileBundleChangesNothing: a bundle inside a bundle, or more than
// wire.MaxBundleElements elements, is refused whole with its named error: no message of
// it is handed over and the lane took nothing from it.
func TestHostileBundleChangesNothing(t *testing.T) {
	_, cli := pair(t)
	_, err := cli.Queue(0, &wire.RespawnRequest{})
	require.NoError(t, err)
	var laneDgram []byte
	require.NoError(t, cli.Flush(0, func(d []byte) { laneDgram = append([]byte(nil), d...) }))
	ping := enc(t, &wire.Ping{Seq: 1})
	many := make([][]byte, wire.MaxBundleElements)
	for i := range many {
		many[i] = ping
	}
	over := bundleOf(append(many, ping)...)
	for _, c := range []struct {
		name string
		d    []byte
		want error
	}{
		{"nested", bundleOf(ping, laneDgram, bundleOf(ping, laneDgram)), wire.ErrBundleNested},
		{"over the cap", over, wire.ErrBundleTooMany},
		{"truncated", bundleOf(laneDgram, ping)[:10], wire.ErrBundleTruncated},
	} {
		srv, err := New(Server)
		require.NoError(t, err)
		n := 0
		err = srv.Receive(0, c.d, func(wire.Message) { n++ })
		require.ErrorIs(t, err, c.want, c.name)
		require.Zero(t, n, "%s: no message handed over", c.name)
		require.Zero(t, srv.Lane().Stats().Delivered, "%s: the lane took nothing", c.name)
		require.Equal(t, 1, srv.Stats().Malformed, c.name)
		// The same lane datagram alone is still new to the lane: the bundle took nothing.
		got := 0
		require.NoError(t, srv.Receive(0, laneDgram, func(wire.Message) { got++ }))
		require.Equal(t, 1, got, c.name)
	}
}

// TestBundleElementFailsAlone: an element that would fail alone (an unknown id, a message
// travelling the wrong way) fails in a bundle too, and the elements after it still arrive.
func TestBundleElementFailsAlone(t *testing.T) {
	srv, _ := pair(t)
	d := bundleOf([]byte{wire.Version, 0x3F, 1}, enc(t, &wire.SetHealth{Rev: 1, Health: 5}), enc(t, &wire.Ping{Seq: 4}))
	var got []string
	err := srv.Receive(0, d, func(m wire.Message) { got = append(got, m.ID().String()) })
	require.ErrorIs(t, err, wire.ErrUnknownID)
	require.Equal(t, []string{"Ping"}, got)
	require.Equal(t, 1, srv.Stats().Malformed)
	require.Equal(t, 1, srv.Stats().WrongDirection)
}

// TestPackerKeepsToThePayloadSize: a flush of more than fits leaves in several datagrams,
// none above the payload size, carrying every datagram once in order.
func TestPackerKeepsToThePayloadSize(t *testing.T) {
	var p Packer
	var out [][]byte
	emit := func(d []byte) { out = append(out, append([]byte(nil), d...)) }
	frame := enc(t, &wire.RemotePlayerSync{Player: 1, Health: 100, Vehicle: wire.NoVehicle})
	p.Start(MinPayloadSize)
	for range 100 {
		p.Send(frame, emit)
	}
	p.Finish(emit)
	perBundle := (MinPayloadSize - wire.HeaderSize) / (wire.BundlePrefixSize + len(frame))
	require.Len(t, out, (100+perBundle-1)/perBundle)
	n := 0
	for _, d := range out {
		require.LessOrEqual(t, len(d), MinPayloadSize)
		for e := range wire.Elements(d) {
			require.Equal(t, frame, e)
			n++
		}
	}
	require.Equal(t, 100, n)
	require.Equal(t, uint64(len(out)), p.Datagrams)
	require.Equal(t, uint64(100), p.Elements)
	cli, err := New(Client)
	require.NoError(t, err)
	require.ErrorIs(t, cli.SetPayloadSize(MinPayloadSize-1), ErrPayloadSize)
	require.ErrorIs(t, cli.SetPayloadSize(lane.MaxMTU+1), ErrPayloadSize)
}

// Endpoints of one goroutine may share one decoder (ShareDecoder): each decodes its own
// datagrams into it, and an endpoint that shares none makes its own only at its first
// decode, so a new endpoint holds no decoder.
func TestEndpointsOfOneGoroutineShareADecoder(t *testing.T) {
	a, err := New(Server)
	require.NoError(t, err)
	b, err := New(Server)
	require.NoError(t, err)
	require.Nil(t, a.dec, "a new endpoint holds no decoder")
	var shared wire.Decoder
	a.ShareDecoder(&shared)
	b.ShareDecoder(&shared)
	for i, e := range []*Endpoint{a, b, a} {
		d, err := (&wire.PlayerSync{Seq: uint16(10 + i), Vehicle: wire.NoVehicle}).Append(nil)
		require.NoError(t, err)
		var got []uint16
		require.NoError(t, e.Receive(time.Second, d, func(m wire.Message) { got = append(got, m.(*wire.PlayerSync).Seq) }))
		require.Equal(t, []uint16{uint16(10 + i)}, got)
	}
	require.Equal(t, uint16(12), shared.PlayerSync.Seq, "both decoded into the shared decoder")
	c, err := New(Server)
	require.NoError(t, err)
	d, _ := (&wire.PlayerSync{Seq: 7, Vehicle: wire.NoVehicle}).Append(nil)
	require.NoError(t, c.Receive(time.Second, d, func(wire.Message) {}))
	require.NotNil(t, c.dec, "one that shares none makes its own at its first decode")
	require.NotSame(t, &shared, c.dec)
}

// Endpoints of one goroutine may share one scratch buffer (ShareScratch) for what they
// queue and the lane datagrams they build: each peer still gets its own messages, in
// order. An endpoint that shares none makes its own at its first use, so a new endpoint
// holds none.
func TestEndpointsOfOneGoroutineShareAScratch(t *testing.T) {
	a, ca := pair(t)
	b, cb := pair(t)
	require.Zero(t, cap(a.own), "a new endpoint holds no scratch")
	var shared []byte
	a.ShareScratch(&shared)
	b.ShareScratch(&shared)
	_, err := a.Queue(0, &wire.SetHealth{Rev: 1, Health: 50})
	require.NoError(t, err)
	_, err = b.Queue(0, &wire.SetArmor{Rev: 1, Armor: 20})
	require.NoError(t, err)
	_, err = a.Queue(0, &wire.SetArmor{Rev: 2, Armor: 10})
	require.NoError(t, err)
	require.Equal(t, []string{"SetHealth", "SetArmor"}, carry(t, time.Millisecond, a, ca))
	require.Equal(t, []string{"SetArmor"}, carry(t, time.Millisecond, b, cb))
	require.Zero(t, cap(a.own), "they used the shared one")
	require.GreaterOrEqual(t, cap(shared), lane.MTU)
	_, err = ca.Queue(2*time.Millisecond, &wire.RespawnRequest{})
	require.NoError(t, err)
	require.Equal(t, []string{"RespawnRequest"}, carry(t, 2*time.Millisecond, ca, a))
	require.GreaterOrEqual(t, cap(ca.own), lane.MTU, "one that shares none made its own")
}

// TestInitRenewsAnEndpointInPlace: Init makes a used endpoint a new one (nothing of its
// pending messages, lane or counters kept), and one kept inside a host's structure works as
// New's; an unknown side is refused and changes nothing.
func TestInitRenewsAnEndpointInPlace(t *testing.T) {
	var held struct {
		_  int
		ep Endpoint
	}
	srv := &held.ep
	require.NoError(t, srv.Init(Server))
	_, cli := pair(t)
	require.NoError(t, srv.Send(&wire.Pong{Seq: 1}))
	_, err := srv.Queue(0, &wire.PlayerHide{Player: 1})
	require.NoError(t, err)
	require.Equal(t, []string{"Pong", "PlayerHide"}, carry(t, 0, srv, cli))
	require.NoError(t, cli.Send(&wire.Ping{Seq: 2}))
	require.Equal(t, []string{"Ping"}, carry(t, 0, cli, srv))
	require.NoError(t, srv.Send(&wire.Pong{Seq: 2}))

	require.ErrorContains(t, srv.Init(Side(9)), "unknown side")
	require.Equal(t, 1, srv.Stats().Received, "a refused Init changes nothing")

	require.NoError(t, srv.Init(Server))
	require.Equal(t, Stats{}, srv.Stats())
	require.Equal(t, lane.Stats{}, srv.Lane().Stats())
	n := 0
	require.NoError(t, srv.Flush(0, func([]byte) { n++ }))
	require.Zero(t, n, "the pending Pong went with the old endpoint")
	// The renewed endpoint talks to a new client from the start of its lane.
	_, cli = pair(t)
	_, err = srv.Queue(0, &wire.PlayerHide{Player: 1})
	require.NoError(t, err)
	require.Equal(t, []string{"PlayerHide"}, carry(t, 0, srv, cli))
}
