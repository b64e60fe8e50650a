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
