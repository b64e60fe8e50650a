package refserver

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

// The World encodes a relayed message once and patches each recipient's stamp into a copy:
// the patched bytes must be exactly the codec's encoding of the message with that stamp.
func TestPatchedStampEqualsTheEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		s := teams.Stamp{Teammate: rng.IntN(2) == 0, Rev: uint16(rng.Uint32())}
		alive := rng.IntN(2) == 0
		cases := []struct {
			m      wire.Message
			set    func(wire.Stamp)
			layout stampLayout
		}{}
		rps := &wire.RemotePlayerSync{Player: uint16(i), SyncSeq: uint16(rng.Uint32()), Alive: alive, FireHeld: rng.IntN(2) == 0,
			Seat: uint8(rng.IntN(9)), Vehicle: uint16(rng.IntN(3)), Health: 50, Armor: 3, DamageGroup: uint16(rng.Uint32())}
		cases = append(cases, struct {
			m      wire.Message
			set    func(wire.Stamp)
			layout stampLayout
		}{rps, func(st wire.Stamp) { rps.Stamp = st }, stampRemotePlayerSync})
		rvs := &wire.RemoteVehicleSync{Vehicle: uint16(i), Driver: uint16(rng.IntN(5)), SyncSeq: 3, Rotation: wire.Quat{W: 1}, Health: 900}
		cases = append(cases, struct {
			m      wire.Message
			set    func(wire.Stamp)
			layout stampLayout
		}{rvs, func(st wire.Stamp) { rvs.Stamp = st }, stampRemoteVehicleSync})
		rws := &wire.RemoteWeaponShot{Shooter: uint16(i), ShotSeq: 9, Weapon: 31, HitType: wire.HitPlayer, HitID: 4, Origin: wire.Vec3{X: 1}, HitPos: wire.Vec3{Y: 2}}
		cases = append(cases, struct {
			m      wire.Message
			set    func(wire.Stamp)
			layout stampLayout
		}{rws, func(st wire.Stamp) { rws.Stamp = st }, stampRemoteWeaponShot})
		rvsh := &wire.RemoteVehicleShot{Shooter: uint16(i), Vehicle: 2, ShotSeq: 9, Weapon: 38, Origin: wire.Vec3{X: 1}, HitPos: wire.Vec3{Y: 2}}
		cases = append(cases, struct {
			m      wire.Message
			set    func(wire.Stamp)
			layout stampLayout
		}{rvsh, func(st wire.Stamp) { rvsh.Stamp = st }, stampRemoteVehicleShot})
		for _, c := range cases {
			// The shared encoding carries a stamp for somebody else.
			c.set(wire.Stamp{Teammate: !s.Teammate, Rev: s.Rev + 1})
			shared, err := c.m.Append(nil)
			require.NoError(t, err)
			c.set(wire.Stamp(s))
			want, err := c.m.Append(nil)
			require.NoError(t, err)
			c.layout.patch(shared, s)
			require.Equal(t, want, shared, "%v", c.m.ID())
		}
	}
}
