package simkit

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/wire"
)

// A raw connection joins after the players with the next ids, is welcomed, answers the
// server's pings a round trip of its SetRTT later (the server measures it), and its
// hostile input gets named verdicts: a NaN frame is malformed, a truncated datagram an
// error, a server-to-client message the wrong direction.
func TestRawConnectionJoinsMeasuresItsRoundTripAndMeetsNamedVerdicts(t *testing.T) {
	k := New(Config{Seed: 2})
	_, err := k.Join("a", Link{})
	require.NoError(t, err)
	_, err = k.Join("b", Link{})
	require.NoError(t, err)
	r, err := k.JoinRaw("m")
	require.NoError(t, err)
	r.SetRTT(250 * time.Millisecond)
	_, err = r.Send(&wire.Ping{})
	require.NoError(t, err, "a verb starts the world")
	require.Equal(t, refserver.PlayerID(2), r.ID())
	require.NoError(t, k.Advance(3*time.Second))
	welcomed := false
	for _, m := range r.Received() {
		if w, ok := m.(*wire.Welcome); ok {
			welcomed = w.Player == r.ID()
		}
	}
	require.True(t, welcomed)
	rtt, ok := k.Server().RTT(r.ID())
	require.True(t, ok)
	require.InDelta(t, 250*time.Millisecond, rtt, float64(20*time.Millisecond))

	v, err := r.Send(&wire.RespawnRequest{})
	require.NoError(t, err)
	require.Equal(t, refserver.VerdictAccepted, v)
	require.NoError(t, k.Advance(50*time.Millisecond))
	v, err = r.Send(&wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: wire.NoVehicle})
	require.NoError(t, err)
	require.Equal(t, refserver.VerdictAccepted, v)
	v, err = r.Send(&wire.PlayerSync{Seq: 2, DeathEpoch: 1, Alive: true, Health: float32(nan()), Vehicle: wire.NoVehicle})
	require.NoError(t, err)
	require.Equal(t, refserver.VerdictMalformed, v)
	b, err := (&wire.WeaponShot{}).Append(nil)
	require.NoError(t, err)
	require.ErrorIs(t, r.SendBytes(b[:len(b)-1]), wire.ErrTruncated)
	v, err = r.Send(&wire.SetHealth{Health: 100})
	require.NoError(t, err)
	require.Equal(t, refserver.VerdictWrongDirection, v)
	l, err := k.Server().Vitals(r.ID())
	require.NoError(t, err)
	require.Equal(t, float32(100), l.Health, "nothing changed")
	report, err := k.Report()
	require.NoError(t, err)
	require.Zero(t, report.HonestWronged, "a raw connection is no honest player: %v", report.Incidents)
	_, err = k.JoinRaw("after")
	require.ErrorIs(t, err, ErrFinished)
}

// A raw connection added after the world started joins at once on the next id, if the
// server has room: a late joiner.
func TestLateRawConnectionJoinsAtOnce(t *testing.T) {
	k := New(Config{Seed: 2, Server: refserver.Config{MaxPlayers: 4}})
	_, _ = k.Join("a", Link{})
	_, _ = k.Join("b", Link{})
	require.NoError(t, k.Advance(time.Second))
	late, err := k.JoinRaw("late")
	require.NoError(t, err)
	require.Equal(t, refserver.PlayerID(2), late.ID())
	require.True(t, k.Server().Connected(late.ID()), "joined at once")
	require.NoError(t, k.Advance(20*time.Millisecond))
	w, ok := lastOfKind[*wire.Welcome](late)
	require.True(t, ok)
	require.Equal(t, late.ID(), w.Player)
	_, err = k.JoinRaw("late2")
	require.NoError(t, err)
	_, err = k.JoinRaw("no room")
	require.Error(t, err, "MaxPlayers 4: the fifth connection has no slot")
}

func lastOfKind[T wire.Message](r *Raw) (T, bool) {
	var last T
	ok := false
	for _, m := range r.Received() {
		if v, is := m.(T); is {
			last, ok = v, true
		}
	}
	return last, ok
}

// A silent raw connection hears but stops acknowledging: a command to it stays in flight
// on the server's lane; once it speaks again the lane drains.
func TestSilentRawConnectionLeavesTheLaneInFlight(t *testing.T) {
	k := New(Config{Seed: 2})
	_, _ = k.Join("a", Link{})
	_, _ = k.Join("b", Link{})
	r, _ := k.JoinRaw("m")
	require.NoError(t, k.Start())
	_, _ = r.Send(&wire.RespawnRequest{})
	require.NoError(t, k.Advance(50*time.Millisecond))
	_, _ = r.Send(&wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: wire.NoVehicle})
	r.SetSilent(true)
	r.Clear()
	require.NoError(t, k.Server().SetArmor(k.Now(), r.ID(), 10))
	require.NoError(t, k.Advance(time.Second))
	st, err := k.Server().LaneStats(r.ID())
	require.NoError(t, err)
	require.Positive(t, st.InFlight, "unacknowledged")
	heard := false
	for _, m := range r.Received() {
		heard = heard || m.ID() == wire.IDPing
	}
	require.True(t, heard, "a silent connection still hears the server's pings (and answers none)")
	r.SetSilent(false)
	require.NoError(t, k.Advance(3*time.Second))
	st, err = k.Server().LaneStats(r.ID())
	require.NoError(t, err)
	require.Zero(t, st.InFlight, "acknowledged once it spoke again")
}

func nan() float64 { return math.NaN() }
