package refserver

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

// The World encodes a relayed message once and patches each recipient's stamp into a copy
// (wire.PatchStamp): for each message the World logs, the patched bytes must be exactly the
// codec's encoding of the message with that stamp.
func TestPatchedStampEqualsTheEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		s := teams.Stamp{Teammate: rng.IntN(2) == 0, Rev: uint16(rng.Uint32())}
		alive := rng.IntN(2) == 0
		cases := []struct {
			m   wire.Message
			set func(wire.Stamp)
		}{}
		rps := &wire.RemotePlayerSync{Player: wire.PlayerID(i), SyncSeq: uint16(rng.Uint32()), Alive: alive, FireHeld: rng.IntN(2) == 0,
			Seat: uint8(rng.IntN(9)), Vehicle: uint16(rng.IntN(3)), Health: 50, Armor: 3, DamageGroup: uint16(rng.Uint32())}
		cases = append(cases, struct {
			m   wire.Message
			set func(wire.Stamp)
		}{rps, func(st wire.Stamp) { rps.Stamp = st }})
		rvs := &wire.RemoteVehicleSync{Vehicle: uint16(i), Driver: wire.PlayerID(rng.IntN(5)), SyncSeq: 3, Rotation: wire.Quat{W: 1}, Health: 900}
		cases = append(cases, struct {
			m   wire.Message
			set func(wire.Stamp)
		}{rvs, func(st wire.Stamp) { rvs.Stamp = st }})
		rws := &wire.RemoteWeaponShot{Shooter: wire.PlayerID(i), ShotSeq: 9, Weapon: 31, HitType: wire.HitPlayer, HitID: 4, Origin: wire.Vec3{X: 1}, HitPos: wire.Vec3{Y: 2}}
		cases = append(cases, struct {
			m   wire.Message
			set func(wire.Stamp)
		}{rws, func(st wire.Stamp) { rws.Stamp = st }})
		rvsh := &wire.RemoteVehicleShot{Shooter: wire.PlayerID(i), Vehicle: 2, ShotSeq: 9, Weapon: 38, Origin: wire.Vec3{X: 1}, HitPos: wire.Vec3{Y: 2}}
		cases = append(cases, struct {
			m   wire.Message
			set func(wire.Stamp)
		}{rvsh, func(st wire.Stamp) { rvsh.Stamp = st }})
		for _, c := range cases {
			// The shared encoding carries a stamp for somebody else.
			c.set(wire.Stamp{Teammate: !s.Teammate, Rev: s.Rev + 1})
			shared, err := c.m.Append(nil)
			require.NoError(t, err)
			c.set(wire.Stamp(s))
			want, err := c.m.Append(nil)
			require.NoError(t, err)
			require.NoError(t, wire.PatchStamp(shared, wire.Stamp(s)))
			require.Equal(t, want, shared, "%v", c.m.ID())
		}
	}
}

// A fanHead is one cache line, and the relay of a frame (RemotePlayerSync) and of a
// vehicle frame (RemoteVehicleSync) fits it inline: the common relay reads that one line.
func TestFanHeadIsOneLineAndHoldsAFrame(t *testing.T) {
	if s := unsafe.Sizeof(fanHead{}); s != 64 {
		t.Fatalf("fanHead is %d bytes, want 64", s)
	}
	for _, id := range []wire.ID{wire.IDRemotePlayerSync, wire.IDRemoteVehicleSync} {
		if id.Size() > fanInline {
			t.Errorf("%v is %d bytes, more than the %d a fanHead holds", id, id.Size(), fanInline)
		}
	}
}

// While streaming, a sender's first message that fits its fanHead is kept there alone:
// nothing is written to the log's buf or entries for it (a frame writes one line of the
// log). A second message of the sender is an entry its fanHead chains; a shot's copy that
// must skip a recipient (skipLast) gives the inline message an entry of its own, with the
// same bytes, first. Without streaming every message has an entry, in log order (emitTo
// walks them). Every message counts toward MaxFanOut, inline or not.
func TestStreamedFanLogKeepsAFirstMessageInItsHeadAlone(t *testing.T) {
	enc := func(p PlayerID, seq uint16) []byte {
		m := wire.RemotePlayerSync{Player: p, SyncSeq: seq, Alive: true, Health: 100}
		b, err := m.Append(nil)
		require.NoError(t, err)
		return b
	}
	stamped := func(b []byte, rev uint16) []byte {
		b = append([]byte(nil), b...)
		require.NoError(t, wire.PatchStamp(b, wire.Stamp{Rev: rev}))
		return b
	}
	var f fanLog
	f.init(4, true)
	const rev = 7
	require.True(t, f.add(enc(1, 1), 1, 1, rev, 0))
	require.Empty(t, f.entries, "the first message is in its head alone")
	require.Empty(t, f.buf)
	h := &f.heads[1]
	require.Equal(t, stamped(enc(1, 1), rev), h.msg[:h.n], "inline, stamped as logged")
	require.Equal(t, 1, f.count(1))

	require.True(t, f.add(enc(1, 2), 1, 1, rev, 0))
	require.Len(t, f.entries, 1, "the second is an entry")
	require.Equal(t, int32(0), h.chain, "chained from the head")
	require.Equal(t, int32(0), h.last)
	require.NotZero(t, h.n, "the first stays inline")
	require.Equal(t, 2, f.count(1))

	require.True(t, f.add(enc(2, 1), 2, 2, rev, 0))
	require.Len(t, f.entries, 1)
	f.skipLast(3)
	require.Len(t, f.entries, 2, "skipLast gave the inline message an entry")
	e := &f.entries[1]
	require.Equal(t, stamped(enc(2, 1), rev), f.buf[e.start:e.end])
	require.Equal(t, PlayerID(2), e.sender)
	require.True(t, f.skips(e, 3))
	require.False(t, f.skips(e, 0))
	require.Zero(t, f.heads[2].n, "no longer inline")
	require.Equal(t, int32(1), f.heads[2].chain)
	require.True(t, f.add(enc(2, 2), 2, 2, rev, 0))
	require.Equal(t, int32(2), f.entries[1].next, "the next message chains after it")
	require.Equal(t, 4, f.logged)

	f.logged = MaxFanOut - 1
	require.True(t, f.add(enc(3, 1), 3, 3, rev, 0), "inline, the last the cap takes")
	require.Len(t, f.entries, 3)
	require.False(t, f.add(enc(0, 1), 0, 0, rev, 0), "an inline message counts toward MaxFanOut")
	require.Zero(t, f.count(0))

	f.reset()
	require.Zero(t, f.logged)
	require.Empty(t, f.entries)
	require.Zero(t, f.heads[1].n)

	var all fanLog
	all.init(4, false)
	require.True(t, all.add(enc(1, 1), 1, NoPlayer, rev, 0))
	require.True(t, all.add(enc(2, 1), 2, NoPlayer, rev, 0))
	require.Len(t, all.entries, 2, "without streaming, every message in log order")
	require.Equal(t, PlayerID(1), all.entries[0].sender)
}
