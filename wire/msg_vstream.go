package wire

// VehicleShow makes a vehicle visible to the recipient (the recipient's streaming range
// reaching it, or the recipient sitting in it): the current state from which the
// recipient builds the vehicle's copy, replacing any copy it kept.
//
// A recipient that does not have a vehicle shown gets none of its frames, shots, moves
// and explosion; its next show carries where the vehicle stands now. Which recipient
// sees which vehicle (streaming) is the host's decision.
type VehicleShow struct {
	// Vehicle is the vehicle shown.
	Vehicle uint16
	// Model is the vehicle's model (a GTA San Andreas model id).
	Model uint16
	// SyncSeq is the first relay number of the vehicle's frames that belongs to this
	// show; older frames are dropped.
	SyncSeq uint16
	// Frozen is true while the gamemode holds the vehicle frozen.
	Frozen bool
	// Wrecked is true for a vehicle that exploded and was not respawned since.
	Wrecked bool
	// Health is the vehicle's health as its driver's frames last showed it.
	Health float32
	// Position is the vehicle's position.
	Position Vec3
	// Rotation is the vehicle's rotation.
	Rotation Quat
}

func (m *VehicleShow) walk(c *codec) {
	c.id16(&m.Vehicle, "Vehicle", false)
	c.u16(&m.Model, "Model")
	c.u16(&m.SyncSeq, "SyncSeq")
	c.bitsBegin("Flags")
	c.bit(&m.Frozen, "Frozen")
	c.bit(&m.Wrecked, "Wrecked")
	c.bitsEnd()
	c.f32(&m.Health, "Health", spanVehicleHealth)
	c.position(&m.Position, "Position")
	c.quat(&m.Rotation, "Rotation", false)
}

// VehicleHide removes a vehicle's copy from the recipient (the vehicle left the
// recipient's streaming range).
type VehicleHide struct {
	// Vehicle is the vehicle hidden.
	Vehicle uint16
}

func (m *VehicleHide) walk(c *codec) {
	c.id16(&m.Vehicle, "Vehicle", false)
}
