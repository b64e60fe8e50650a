package refserver

import (
	"math"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/wire"
)

// The shots' own copies for the recipients near their rays (fanLog.copies): who gets one
// is decided at the shot, the copy is written at Flush (emitCopies).

// shotWorld is a streamed world of two clusters of ten far apart, everyone past its first
// frames, its shows and its round trip.
func shotWorld(t *testing.T) *benchWorld {
	t.Helper()
	return newBenchWorldAt(t, Config{MaxPlayers: 20, MaxVehicles: 1}, []wire.Vec3{{X: 0}, {X: 3000}})
}

// fire has player i of bw fire at player victim (the ray runs on past it) and returns the
// shot's verdict.
func fire(t *testing.T, bw *benchWorld, i, victim int) Verdict {
	t.Helper()
	s := &bw.shots[i]
	s.ShotSeq++
	from, to := bw.pos(i), bw.pos(victim)
	*s = wire.WeaponShot{ShotSeq: s.ShotSeq, DeathEpoch: bw.gen[i], PropertiesRev: bw.w.catalog.Revision(), Weapon: m4,
		HitType: wire.HitPlayer, HitID: uint16(victim), Origin: from,
		HitPos: wire.Vec3{X: 2*to.X - from.X, Y: 2*to.Y - from.Y, Z: 2*to.Z - from.Z}}
	return bw.w.Handle(bw.now, PlayerID(i), s)
}

// shotsIn decodes the shots in the datagrams a Flush handed one connection.
func shotsIn(t *testing.T, ds [][]byte) []wire.RemoteWeaponShot {
	t.Helper()
	var out []wire.RemoteWeaponShot
	var dec wire.Decoder
	for _, d := range ds {
		for e := range wire.Elements(d) {
			if id, err := wire.Peek(e); err == nil && id.Transport() {
				continue // the lane's
			}
			m, err := dec.Decode(e)
			require.NoError(t, err)
			if s, ok := m.(*wire.RemoteWeaponShot); ok {
				out = append(out, *s)
			}
		}
	}
	return out
}

// Rule [stream-shots]: the rewound copy goes to a recipient near the ray that sees the
// shooter when the shot is accepted, even when the shooter is hidden from it before the
// Flush that writes the copy; those that see the shooter at the Flush and were not near
// get the shared copy, the shooter none.
func TestStreamShotCopyIsDecidedAtTheShot(t *testing.T) {
	bw := shotWorld(t)
	w := bw.w
	bw.now += 33 * time.Millisecond
	require.True(t, w.Sees(1, 0))
	require.Equal(t, VerdictAccepted, fire(t, bw, 0, 1))
	require.NotEmpty(t, w.fan.copies, "player 1 is near the ray")
	// Player 1 is teleported to the other cluster and hidden from the shooter at its
	// next evaluation, before the Flush.
	require.NoError(t, w.SetPlayerPosition(bw.now, 1, wire.Vec3{X: 3005, Y: 50}, 0))
	bw.now += 300 * time.Millisecond
	require.NoError(t, w.Tick(bw.now))
	require.False(t, w.Sees(1, 0), "hidden from the shooter before the Flush")
	got := bw.flushAll(t)
	one := shotsIn(t, got[1])
	require.Len(t, one, 1, "its own copy, decided at the shot")
	require.True(t, one[0].Rewind.Valid)
	require.InDelta(t, bw.pos(1).X, one[0].Rewind.Position.X, 0.5, "its rewound pose")
	require.Equal(t, w.Teams().Rev(), one[0].Stamp.Rev)
	require.Empty(t, shotsIn(t, got[0]), "not back to the shooter")
	shared := shotsIn(t, got[9])
	require.Len(t, shared, 1, "player 9 sees the shooter, 7 m from the ray's end: the shared copy")
	require.False(t, shared[0].Rewind.Valid)
	require.Empty(t, shotsIn(t, got[15]), "the other cluster does not see the shooter")
	require.Empty(t, w.fan.copies, "reset by the Flush")
}

// A copy kept for a recipient goes to that connection only: one that leaves before the
// Flush takes it with it, and the next connection on its slot does not get it.
func TestShotCopyIsNotForTheNextConnectionOnTheSlot(t *testing.T) {
	bw := shotWorld(t)
	w := bw.w
	bw.now += 33 * time.Millisecond
	require.Equal(t, VerdictAccepted, fire(t, bw, 0, 1))
	require.NotEmpty(t, w.fan.copies)
	require.NoError(t, w.Kick(bw.now, 1))
	w.Handle(bw.now, 1, &wire.Hello{})
	require.True(t, w.Connected(1))
	got := bw.flushAll(t)
	for _, s := range shotsIn(t, got[1]) {
		require.False(t, s.Rewind.Valid, "the rewound copy was the last connection's")
	}
}

// MaxShotCopies: a copy over it is not kept, and counted as a datagram the recipient's
// outbox had no room for; the recipient, skipped by the shared copy, gets no shot, as when
// its outbox was full.
func TestShotCopiesOverTheCapAreCountedAsOutboxDrops(t *testing.T) {
	bw := shotWorld(t)
	w := bw.w
	bw.now += 33 * time.Millisecond
	w.fan.copies = append(w.fan.copies, make([]shotCopy, MaxShotCopies)...)
	for i := range w.fan.copies {
		w.fan.copies[i].recipient = PlayerID(MaxPlayers) // nobody's
	}
	st0 := w.Stats()
	c0, err := w.ConnStats(1)
	require.NoError(t, err)
	require.Equal(t, VerdictAccepted, fire(t, bw, 0, 1))
	c, err := w.ConnStats(1)
	require.NoError(t, err)
	require.Equal(t, c0.OutboxDropped+1, c.OutboxDropped)
	require.Greater(t, w.Stats().OutboxDropped, st0.OutboxDropped)
	got := bw.flushAll(t)
	require.Empty(t, shotsIn(t, got[1]))
	require.Len(t, shotsIn(t, got[9]), 1, "the shared copy")
}

// A Flush writes one connection at most the room of other players' datagrams in its
// outbox (transport.MaxPendingDatagrams - OutboxReserve) of its own copies; the rest are
// counted as outbox drops.
func TestShotCopiesToOneConnectionStopAtItsOutboxRoom(t *testing.T) {
	bw := shotWorld(t)
	w := bw.w
	bw.now += 33 * time.Millisecond
	m := wire.RemoteWeaponShot{Shooter: 0, ShotSeq: 1, Weapon: m4}
	enc, err := m.Append(nil)
	require.NoError(t, err)
	room := transport.MaxPendingDatagrams - OutboxReserve
	for range room + 3 {
		ok, full := w.fan.addCopy(enc, 1, 0, w.teams.Rev(), wire.Rewind{Valid: true, Position: wire.Vec3{X: 1}})
		require.True(t, ok)
		require.False(t, full)
	}
	ok, full := w.fan.addCopy(enc, 2, 0, w.teams.Rev(), wire.Rewind{Valid: true, Position: wire.Vec3{X: 2, Y: float32(1e9)}})
	require.False(t, ok, "a pose that does not encode is not kept")
	require.False(t, full)
	c0, err := w.ConnStats(1)
	require.NoError(t, err)
	got := bw.flushAll(t)
	require.Len(t, shotsIn(t, got[1]), room)
	c, err := w.ConnStats(1)
	require.NoError(t, err)
	require.Equal(t, c0.OutboxDropped+3, c.OutboxDropped)
	require.Empty(t, shotsIn(t, got[2]))
}

// A shot's own copies keep the shot's bytes once and each its pose (fanLog.addCopy); the
// copy a Flush writes is still exactly the shot encoded with the recipient's pose and
// stamp, whatever the pose: on foot, in a vehicle, with a -0 in a field that must be zero
// (the wire writes it as 0), not valid.
func TestShotCopyIsTheShotWithItsPose(t *testing.T) {
	bw := shotWorld(t)
	w := bw.w
	bw.now += 33 * time.Millisecond
	negZero := float32(math.Copysign(0, -1))
	poses := []wire.Rewind{
		{Valid: true, Position: wire.Vec3{X: 1, Y: 2, Z: 3}},
		{Valid: true, Position: wire.Vec3{X: negZero, Y: -4}},
		{Valid: true, Position: wire.Vec3{X: 5}, InVehicle: true, Vehicle: 3, VehiclePosition: wire.Vec3{X: 6, Y: 7},
			VehicleRotation: wire.Quat{W: 0.6, Z: 0.8}},
		{Valid: true, Position: wire.Vec3{X: 8}, VehiclePosition: wire.Vec3{Y: negZero}},
		{Valid: true, Position: wire.Vec3{X: 9}, InVehicle: true, Vehicle: 0, VehiclePosition: wire.Vec3{Z: 1},
			VehicleRotation: wire.Quat{W: 1}},
		{},
	}
	rev := w.teams.Rev()
	var want [][]byte
	for i, rw := range poses {
		m := wire.RemoteWeaponShot{Shooter: PlayerID(i % 2), ShotSeq: uint16(10 + i/2), Weapon: m4, Origin: wire.Vec3{X: float32(i)}}
		enc, err := m.Append(nil)
		require.NoError(t, err)
		for range 2 { // two copies of each shot: the second shares the first's bytes
			ok, full := w.fan.addCopy(enc, 1, m.Shooter, rev, rw)
			require.True(t, ok)
			require.False(t, full)
			b := append([]byte(nil), enc...)
			require.NoError(t, wire.PatchRewind(b, rw))
			require.NoError(t, wire.PatchStamp(b, wire.Stamp(w.stampAt(m.Shooter, 1, rev))))
			want = append(want, b)
		}
	}
	require.Len(t, w.fan.copyBuf, len(poses)*len(want[0]), "each shot's bytes once")
	require.Equal(t, 32, int(unsafe.Sizeof(shotCopy{})), "a copy is half a line")
	var got [][]byte
	for _, d := range bw.flushAll(t)[1] {
		for e := range wire.Elements(d) {
			if id, err := wire.Peek(e); err == nil && id == wire.IDRemoteWeaponShot {
				got = append(got, e)
			}
		}
	}
	require.Equal(t, want, got)
}
