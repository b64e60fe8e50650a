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
