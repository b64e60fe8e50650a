package client

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// Rule [vehicle-copies]: a show builds the copy, frames below its barrier or older than
// the last are dropped, a move, a freeze and an explosion update it, a hide drops it, and
// once the server streams vehicles a frame of a vehicle without a copy makes none.
func TestVehicleCopiesFollowShowsFramesAndHides(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	unit := wire.Quat{W: 1}
	// Before any show (no streaming): the first frame makes the copy.
	h.send(&wire.RemoteVehicleSync{Vehicle: 3, Driver: 2, SyncSeq: 9, Position: wire.Vec3{X: 1}, Rotation: unit, Health: 700})
	v, ok := h.c.ShownVehicle(3)
	require.True(t, ok)
	require.Equal(t, wire.Vec3{X: 1}, v.Pose.Position)
	require.Equal(t, wire.PlayerID(2), v.Driver)

	h.send(&wire.VehicleShow{Vehicle: 12, Model: 560, SyncSeq: 5, Frozen: true, Health: 800, Position: wire.Vec3{X: 10}, Rotation: unit})
	v, ok = h.c.ShownVehicle(12)
	require.True(t, ok)
	require.Equal(t, VehicleCopy{Model: 560, Pose: VehiclePose{Position: wire.Vec3{X: 10}, Rotation: unit}, Health: 800,
		Frozen: true, Driver: wire.NoPlayer, ShownAt: h.now, syncSeq: 5}, v)
	require.True(t, h.c.Frozen(12), "the show's freeze is the client's")
	h.send(&wire.RemoteVehicleSync{Vehicle: 12, Driver: 3, SyncSeq: 4, Position: wire.Vec3{X: 4}, Rotation: unit, Health: 950})
	v, _ = h.c.ShownVehicle(12)
	require.Equal(t, wire.Vec3{X: 10}, v.Pose.Position, "below the show's barrier")
	h.send(&wire.RemoteVehicleSync{Vehicle: 12, Driver: 3, SyncSeq: 5, Position: wire.Vec3{X: 5}, Rotation: unit, Health: 900})
	h.send(&wire.RemoteVehicleSync{Vehicle: 12, Driver: 3, SyncSeq: 5, Position: wire.Vec3{X: 6}, Rotation: unit, Health: 900})
	v, _ = h.c.ShownVehicle(12)
	require.Equal(t, wire.Vec3{X: 5}, v.Pose.Position, "the barrier's own frame, then no repeat")
	require.Equal(t, float32(900), v.Health)
	h.send(&wire.SetVehiclePose{Vehicle: 12, Position: wire.Vec3{X: 50}, Rotation: unit})
	h.send(&wire.SetVehicleFrozen{Vehicle: 12, Frozen: false})
	h.send(&wire.RemoteVehicleExplode{Vehicle: 12, Author: wire.NoPlayer, Weapon: 51})
	v, _ = h.c.ShownVehicle(12)
	require.Equal(t, wire.Vec3{X: 50}, v.Pose.Position)
	require.False(t, v.Frozen)
	require.True(t, v.Wrecked)
	h.send(&wire.VehicleHide{Vehicle: 12})
	_, ok = h.c.ShownVehicle(12)
	require.False(t, ok)
	// Streamed now: a frame of a vehicle without a copy (hidden, or overtaking its show)
	// makes none.
	before := h.c.Counters().VehicleFramesDropped
	h.send(&wire.RemoteVehicleSync{Vehicle: 12, Driver: 3, SyncSeq: 9, Position: wire.Vec3{X: 9}, Rotation: unit, Health: 900})
	_, ok = h.c.ShownVehicle(12)
	require.False(t, ok)
	require.Equal(t, before+1, h.c.Counters().VehicleFramesDropped)
	require.Equal(t, 1, h.c.Counters().VehicleShows)
	require.Equal(t, 1, h.c.Counters().VehicleHides)
}

// Rule [vehicle-copies]: the table holds at most MaxVehicleCopies; one more show is
// dropped and counted.
func TestVehicleCopiesAreCapped(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	for i := range MaxVehicleCopies {
		h.c.onVehicleShow(&wire.VehicleShow{Vehicle: uint16(i), Rotation: wire.Quat{W: 1}})
	}
	h.c.onVehicleShow(&wire.VehicleShow{Vehicle: MaxVehicleCopies, Rotation: wire.Quat{W: 1}})
	require.Equal(t, MaxVehicleCopies, h.c.ShownVehicles())
	require.Equal(t, 1, h.c.Counters().VehicleShowsDropped)
	h.c.onVehicleShow(&wire.VehicleShow{Vehicle: 0, Model: 400, Rotation: wire.Quat{W: 1}})
	v, _ := h.c.ShownVehicle(0)
	require.Equal(t, uint16(400), v.Model, "a copy already kept is rebuilt")
}
