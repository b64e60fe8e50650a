package client

import (
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/rewind"
	"github.com/arbitergo/arbiter/wire"
)

// MaxVehicleCopies is the most vehicle copies the client keeps (the reference server's
// MaxVehicles): a VehicleShow of one more is dropped and counted
// (Counters.VehicleShowsDropped).
const MaxVehicleCopies = rewind.MaxVehicles

// VehicleCopy is the client's copy of a vehicle: what the server's VehicleShow said, moved
// by its driver's relayed frames and the gamemode's SetVehiclePose since.
type VehicleCopy struct {
	// Model is the vehicle's model; 0 when the copy was made from a frame (no streaming:
	// the host's world knows the model).
	Model uint16
	// Pose is where the copy stands.
	Pose VehiclePose
	// Health is its health: the show's, then its driver's newest frame's.
	Health float32
	// Frozen and Wrecked are the server's.
	Frozen, Wrecked bool
	// Driver is the driver of its newest frame, wire.NoPlayer before one.
	Driver wire.PlayerID
	// ShownAt is when the client got the VehicleShow that made (or rebuilt) the copy, 0
	// for a copy made from a frame.
	ShownAt time.Duration

	syncSeq uint16 // the barrier (after a show) or the newest frame's relay number
	synced  bool   // a frame was applied since the show
}

// Vehicle copies ([vehicle-copies]): the table of the vehicles the server has shown the
// client (the reference server streams vehicles). With streaming, a copy exists from its VehicleShow to
// its VehicleHide, and a frame of a vehicle without a copy is dropped (it was hidden, or
// the frame overtook its show); without streaming (the server sends no VehicleShow) the
// first frame of a vehicle makes its copy.

// ShownVehicle returns the client's copy of vehicle id.
func (c *Client) ShownVehicle(id uint16) (VehicleCopy, bool) {
	v, ok := c.vcopies[id]
	return v, ok
}

// ShownVehicles reports how many vehicle copies the client keeps.
func (c *Client) ShownVehicles() int { return len(c.vcopies) }

// onVehicleShow builds (or rebuilds) a vehicle's copy from the server's state.
func (c *Client) onVehicleShow(m *wire.VehicleShow) {
	c.vstreamed = true
	if _, ok := c.vcopies[m.Vehicle]; !ok && len(c.vcopies) >= MaxVehicleCopies {
		c.counters.VehicleShowsDropped++
		return
	}
	if c.vcopies == nil {
		c.vcopies = make(map[uint16]VehicleCopy)
	}
	c.vcopies[m.Vehicle] = VehicleCopy{Model: m.Model, Pose: VehiclePose{Position: m.Position, Rotation: m.Rotation},
		Health: m.Health, Frozen: m.Frozen, Wrecked: m.Wrecked, Driver: wire.NoPlayer, ShownAt: c.now, syncSeq: m.SyncSeq}
	c.setFrozen(m.Vehicle, m.Frozen)
	c.counters.VehicleShows++
}

// onVehicleHide drops a vehicle's copy.
func (c *Client) onVehicleHide(m *wire.VehicleHide) {
	if _, ok := c.vcopies[m.Vehicle]; ok {
		delete(c.vcopies, m.Vehicle)
		c.counters.VehicleHides++
	}
}

// vehicleFrame applies a relayed vehicle frame to the vehicle's copy: not below the show's
// barrier, newer than the copy's newest frame.
func (c *Client) vehicleFrame(m *wire.RemoteVehicleSync) {
	v, ok := c.vcopies[m.Vehicle]
	switch {
	case !ok && (c.vstreamed || len(c.vcopies) >= MaxVehicleCopies):
		c.counters.VehicleFramesDropped++
		return
	case !ok:
		if c.vcopies == nil {
			c.vcopies = make(map[uint16]VehicleCopy)
		}
	case v.synced && !revision.Newer(m.SyncSeq, v.syncSeq),
		!v.synced && m.SyncSeq != v.syncSeq && !revision.Newer(m.SyncSeq, v.syncSeq):
		c.counters.VehicleFramesDropped++
		return
	}
	v.Pose = VehiclePose{Position: m.Position, Rotation: m.Rotation, Velocity: m.Velocity}
	v.Health, v.Driver, v.syncSeq, v.synced = m.Health, m.Driver, m.SyncSeq, true
	c.vcopies[m.Vehicle] = v
}

// vehicleDriven moves the copy of the vehicle the client itself moves: its own frames are
// never relayed back to it, so the copy follows its moves instead.
func (c *Client) vehicleDriven(id uint16, pose VehiclePose) {
	if v, ok := c.vcopies[id]; ok {
		v.Pose, v.Driver = pose, c.id
		c.vcopies[id] = v
	}
}

// vehiclePosed applies a gamemode move to the vehicle's copy.
func (c *Client) vehiclePosed(m *wire.SetVehiclePose) {
	if v, ok := c.vcopies[m.Vehicle]; ok {
		v.Pose = VehiclePose{Position: m.Position, Rotation: m.Rotation}
		c.vcopies[m.Vehicle] = v
	}
}

// vehicleFrozen applies a freeze to the vehicle's copy.
func (c *Client) vehicleFrozen(id uint16, frozen bool) {
	if v, ok := c.vcopies[id]; ok {
		v.Frozen = frozen
		c.vcopies[id] = v
	}
}

// vehicleWrecked marks the vehicle's copy wrecked.
func (c *Client) vehicleWrecked(id uint16) {
	if v, ok := c.vcopies[id]; ok {
		v.Wrecked = true
		c.vcopies[id] = v
	}
}
