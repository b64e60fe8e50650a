package wire

import "math"

// Hand-unrolled Append and Decode of the hot messages; see fast.go for why and for how
// they are held to the walk. Each checks in the walk's order (fields in wire order,
// then the rules), so the first failure, and so the error, is the walk's.

// Append validates m and appends its PlayerSync encoding to dst; see Message.
func (m *PlayerSync) Append(dst []byte) ([]byte, error) {
	// Every check at once, without naming the failure; the checks in order below only run
	// when one failed, to name it.
	vx, okx := velocityStep(m.Velocity.X)
	vy, oky := velocityStep(m.Velocity.Y)
	vz, okz := velocityStep(m.Velocity.Z)
	if !(m.Seat <= MaxSeat && vital(m.Health) && vital(m.Armor) && coord3(m.Position) && okx && oky && okz &&
		finite(m.Facing) && (m.Vehicle != NoVehicle || m.Seat == 0)) {
		var f fault
		f.atMost(m.Seat, MaxSeat, "Seat")
		f.span(m.Health, spanVital, "Health")
		f.span(m.Armor, spanVital, "Armor")
		f.vec3(m.Position, spanCoord, "Position")
		f.velocity(m.Velocity, "Velocity")
		f.angle(m.Facing, "Facing")
		f.rule(m.Vehicle != NoVehicle || m.Seat == 0, kindNonCanonical, "Seat")
		if f.kind != kindNone {
			return dst, f.err(IDPlayerSync)
		}
	}
	out, b := extend(dst, 48)
	_ = b[47]
	b[0], b[1] = Version, byte(IDPlayerSync)
	le.PutUint16(b[2:4], m.Seq)
	le.PutUint16(b[4:6], m.VitalRev)
	le.PutUint16(b[6:8], m.DamageSeq)
	le.PutUint16(b[8:10], m.WeaponRev)
	le.PutUint16(b[10:12], m.DeathEpoch)
	b[12] = m.Weapon
	b[13] = bit(m.Alive, 0) | bit(m.FireHeld, 1) | m.Seat<<2
	le.PutUint16(b[14:16], m.Clip)
	le.PutUint16(b[16:18], m.Total)
	putF32(b[18:22], m.Health)
	putF32(b[22:26], m.Armor)
	putVec3(b[26:38], m.Position)
	le.PutUint16(b[38:40], uint16(vx))
	le.PutUint16(b[40:42], uint16(vy))
	le.PutUint16(b[42:44], uint16(vz))
	if a := float64(m.Facing); a >= 0 && a < turn {
		le.PutUint16(b[44:46], wireTurn(a))
	} else {
		le.PutUint16(b[44:46], angleToWire(m.Facing))
	}
	le.PutUint16(b[46:48], m.Vehicle)
	return out, nil
}

// Decode decodes one PlayerSync from b into m; on error m is unchanged. See Message.
func (m *PlayerSync) Decode(b []byte) error {
	if len(b) != 48 || b[0] != Version || ID(b[1]) != IDPlayerSync {
		return checkHeader(b, IDPlayerSync)
	}
	_ = b[47]
	// Every check at once on the raw fields; the checked decode below runs only when one
	// failed, to name the failure.
	flags := b[13]
	health, armor := le.Uint32(b[18:22]), le.Uint32(b[22:26])
	px, py, pz := le.Uint32(b[26:30]), le.Uint32(b[30:34]), le.Uint32(b[34:38])
	vx, vy, vz := int16(le.Uint16(b[38:40])), int16(le.Uint16(b[40:42])), int16(le.Uint16(b[42:44]))
	vehicle := le.Uint16(b[46:48])
	if flags>>6 == 0 && flags>>2 <= MaxSeat && (vehicle != NoVehicle || flags>>2 == 0) &&
		vitalBits(health) && vitalBits(armor) && coordBits(px) && coordBits(py) && coordBits(pz) &&
		vx >= -maxVelocityStep && vy >= -maxVelocityStep && vz >= -maxVelocityStep {
		// Field by field: a composite literal would be built aside and copied.
		m.Seq = le.Uint16(b[2:4])
		m.VitalRev = le.Uint16(b[4:6])
		m.DamageSeq = le.Uint16(b[6:8])
		m.WeaponRev = le.Uint16(b[8:10])
		m.DeathEpoch = le.Uint16(b[10:12])
		m.Weapon = b[12]
		m.Alive = flags&1 != 0
		m.FireHeld = flags&2 != 0
		m.Seat = flags >> 2
		m.Clip = le.Uint16(b[14:16])
		m.Total = le.Uint16(b[16:18])
		m.Health = math.Float32frombits(health)
		m.Armor = math.Float32frombits(armor)
		m.Position = Vec3{math.Float32frombits(px), math.Float32frombits(py), math.Float32frombits(pz)}
		m.Velocity = Vec3{float32(vx) / VelocityScale, float32(vy) / VelocityScale, float32(vz) / VelocityScale}
		m.Facing = angleFromWire(le.Uint16(b[44:46]))
		m.Vehicle = vehicle
		return nil
	}
	var f fault
	seat := flags >> 2 & 0xF
	f.atMost(seat, MaxSeat, "Seat")
	f.reserved(flags, 6, "Flags")
	t := PlayerSync{
		Seq:        le.Uint16(b[2:4]),
		VitalRev:   le.Uint16(b[4:6]),
		DamageSeq:  le.Uint16(b[6:8]),
		WeaponRev:  le.Uint16(b[8:10]),
		DeathEpoch: le.Uint16(b[10:12]),
		Weapon:     b[12],
		Alive:      flags&1 != 0,
		FireHeld:   flags&2 != 0,
		Seat:       seat,
		Clip:       le.Uint16(b[14:16]),
		Total:      le.Uint16(b[16:18]),
		Health:     f.f32(b[18:22], spanVital, "Health"),
		Armor:      f.f32(b[22:26], spanVital, "Armor"),
		Position:   f.getVec3(b[26:38], spanCoord, "Position"),
		Velocity:   f.getVelocity(b[38:44], "Velocity"),
		Facing:     angleFromWire(le.Uint16(b[44:46])),
		Vehicle:    le.Uint16(b[46:48]),
	}
	f.rule(t.Vehicle != NoVehicle || t.Seat == 0, kindNonCanonical, "Seat")
	if f.kind != kindNone {
		return f.err(IDPlayerSync)
	}
	*m = t
	return nil
}

// Append validates m and appends its RemotePlayerSync encoding to dst; see Message.
func (m *RemotePlayerSync) Append(dst []byte) ([]byte, error) {
	// As PlayerSync's: every check at once, then in order only to name a failure.
	vx, okx := velocityStep(m.Velocity.X)
	vy, oky := velocityStep(m.Velocity.Y)
	vz, okz := velocityStep(m.Velocity.Z)
	if !(m.Player != 0xFFFF && m.Seat <= MaxSeat && vital(m.Health) && vital(m.Armor) && coord3(m.Position) &&
		okx && oky && okz && finite(m.Facing) && (m.Vehicle != NoVehicle || m.Seat == 0) &&
		(!m.Alive || m.Health > 0)) {
		var f fault
		f.subject(uint16(m.Player), "Player")
		f.atMost(m.Seat, MaxSeat, "Seat")
		f.span(m.Health, spanVital, "Health")
		f.span(m.Armor, spanVital, "Armor")
		f.vec3(m.Position, spanCoord, "Position")
		f.velocity(m.Velocity, "Velocity")
		f.angle(m.Facing, "Facing")
		f.rule(m.Vehicle != NoVehicle || m.Seat == 0, kindNonCanonical, "Seat")
		f.rule(!m.Alive || m.Health > 0, kindInconsistent, "Health")
		if f.kind != kindNone {
			return dst, f.err(IDRemotePlayerSync)
		}
	}
	out, b := extend(dst, 44)
	_ = b[43]
	b[0], b[1] = Version, byte(IDRemotePlayerSync)
	le.PutUint16(b[2:4], uint16(m.Player))
	le.PutUint16(b[4:6], m.SyncSeq)
	le.PutUint16(b[6:8], m.DeathEpoch)
	b[8] = bit(m.Alive, 0) | bit(m.FireHeld, 1) | bit(m.Stamp.Teammate, 2) | m.Seat<<3
	le.PutUint16(b[9:11], m.Stamp.Rev)
	le.PutUint16(b[11:13], m.DamageGroup)
	b[13] = m.Weapon
	putF32(b[14:18], m.Health)
	putF32(b[18:22], m.Armor)
	putVec3(b[22:34], m.Position)
	le.PutUint16(b[34:36], uint16(vx))
	le.PutUint16(b[36:38], uint16(vy))
	le.PutUint16(b[38:40], uint16(vz))
	if a := float64(m.Facing); a >= 0 && a < turn {
		le.PutUint16(b[40:42], wireTurn(a))
	} else {
		le.PutUint16(b[40:42], angleToWire(m.Facing))
	}
	le.PutUint16(b[42:44], m.Vehicle)
	return out, nil
}

// Decode decodes one RemotePlayerSync from b into m; on error m is unchanged. See
// Message.
func (m *RemotePlayerSync) Decode(b []byte) error {
	if len(b) != 44 || b[0] != Version || ID(b[1]) != IDRemotePlayerSync {
		return checkHeader(b, IDRemotePlayerSync)
	}
	_ = b[43]
	// As PlayerSync's: every check at once on the raw fields, then the checked decode
	// only to name a failure.
	flags := b[8]
	player := le.Uint16(b[2:4])
	health, armor := le.Uint32(b[14:18]), le.Uint32(b[18:22])
	px, py, pz := le.Uint32(b[22:26]), le.Uint32(b[26:30]), le.Uint32(b[30:34])
	vx, vy, vz := int16(le.Uint16(b[34:36])), int16(le.Uint16(b[36:38])), int16(le.Uint16(b[38:40]))
	vehicle := le.Uint16(b[42:44])
	if player != 0xFFFF && flags>>7 == 0 && flags>>3 <= MaxSeat && (vehicle != NoVehicle || flags>>3 == 0) &&
		vitalBits(health) && vitalBits(armor) && coordBits(px) && coordBits(py) && coordBits(pz) &&
		vx >= -maxVelocityStep && vy >= -maxVelocityStep && vz >= -maxVelocityStep &&
		(flags&1 == 0 || math.Float32frombits(health) > 0) {
		m.Player = PlayerID(player)
		m.SyncSeq = le.Uint16(b[4:6])
		m.DeathEpoch = le.Uint16(b[6:8])
		m.Alive = flags&1 != 0
		m.FireHeld = flags&2 != 0
		m.Stamp = Stamp{Teammate: flags&4 != 0, Rev: le.Uint16(b[9:11])}
		m.Seat = flags >> 3
		m.DamageGroup = le.Uint16(b[11:13])
		m.Weapon = b[13]
		m.Health = math.Float32frombits(health)
		m.Armor = math.Float32frombits(armor)
		m.Position = Vec3{math.Float32frombits(px), math.Float32frombits(py), math.Float32frombits(pz)}
		m.Velocity = Vec3{float32(vx) / VelocityScale, float32(vy) / VelocityScale, float32(vz) / VelocityScale}
		m.Facing = angleFromWire(le.Uint16(b[40:42]))
		m.Vehicle = vehicle
		return nil
	}
	var f fault
	player = f.getSubject(b[2:4], "Player")
	seat := flags >> 3 & 0xF
	f.atMost(seat, MaxSeat, "Seat")
	f.reserved(flags, 7, "Flags")
	t := RemotePlayerSync{
		Player:      PlayerID(player),
		SyncSeq:     le.Uint16(b[4:6]),
		DeathEpoch:  le.Uint16(b[6:8]),
		Alive:       flags&1 != 0,
		FireHeld:    flags&2 != 0,
		Stamp:       Stamp{Teammate: flags&4 != 0, Rev: le.Uint16(b[9:11])},
		Seat:        seat,
		DamageGroup: le.Uint16(b[11:13]),
		Weapon:      b[13],
		Health:      f.f32(b[14:18], spanVital, "Health"),
		Armor:       f.f32(b[18:22], spanVital, "Armor"),
		Position:    f.getVec3(b[22:34], spanCoord, "Position"),
		Velocity:    f.getVelocity(b[34:40], "Velocity"),
		Facing:      angleFromWire(le.Uint16(b[40:42])),
		Vehicle:     le.Uint16(b[42:44]),
	}
	f.rule(t.Vehicle != NoVehicle || t.Seat == 0, kindNonCanonical, "Seat")
	f.rule(!t.Alive || t.Health > 0, kindInconsistent, "Health")
	if f.kind != kindNone {
		return f.err(IDRemotePlayerSync)
	}
	*m = t
	return nil
}

// Append validates m and appends its VehicleSync encoding to dst; see Message.
func (m *VehicleSync) Append(dst []byte) ([]byte, error) {
	var f fault
	f.subject(m.Vehicle, "Vehicle")
	f.vec3(m.Position, spanCoord, "Position")
	f.quat(m.Rotation, false, "Rotation")
	f.velocity(m.Velocity, "Velocity")
	f.span(m.Health, spanVehicleHealth, "Health")
	if f.kind != kindNone {
		return dst, f.err(IDVehicleSync)
	}
	out, b := extend(dst, 44)
	_ = b[43]
	b[0], b[1] = Version, byte(IDVehicleSync)
	le.PutUint16(b[2:4], m.Seq)
	le.PutUint16(b[4:6], m.Vehicle)
	putVec3(b[6:18], m.Position)
	putQuat(b[18:34], m.Rotation)
	putVelocity(b[34:40], m.Velocity)
	putF32(b[40:44], m.Health)
	return out, nil
}

// Decode decodes one VehicleSync from b into m; on error m is unchanged. See Message.
func (m *VehicleSync) Decode(b []byte) error {
	if err := checkHeader(b, IDVehicleSync); err != nil {
		return err
	}
	_ = b[43]
	var f fault
	t := VehicleSync{
		Seq:      le.Uint16(b[2:4]),
		Vehicle:  f.getSubject(b[4:6], "Vehicle"),
		Position: f.getVec3(b[6:18], spanCoord, "Position"),
		Rotation: f.getQuat(b[18:34], false, "Rotation"),
		Velocity: f.getVelocity(b[34:40], "Velocity"),
		Health:   f.f32(b[40:44], spanVehicleHealth, "Health"),
	}
	if f.kind != kindNone {
		return f.err(IDVehicleSync)
	}
	*m = t
	return nil
}

// Append validates m and appends its RemoteVehicleSync encoding to dst; see Message.
func (m *RemoteVehicleSync) Append(dst []byte) ([]byte, error) {
	var f fault
	f.subject(m.Vehicle, "Vehicle")
	f.vec3(m.Position, spanCoord, "Position")
	f.quat(m.Rotation, false, "Rotation")
	f.velocity(m.Velocity, "Velocity")
	f.span(m.Health, spanVehicleHealth, "Health")
	f.rule(m.Driver != NoPlayer || !m.Stamp.Teammate, kindInconsistent, "Stamp.Teammate")
	if f.kind != kindNone {
		return dst, f.err(IDRemoteVehicleSync)
	}
	out, b := extend(dst, 49)
	_ = b[48]
	b[0], b[1] = Version, byte(IDRemoteVehicleSync)
	le.PutUint16(b[2:4], m.Vehicle)
	le.PutUint16(b[4:6], uint16(m.Driver))
	le.PutUint16(b[6:8], m.SyncSeq)
	b[8] = putBool(m.Stamp.Teammate)
	le.PutUint16(b[9:11], m.Stamp.Rev)
	putVec3(b[11:23], m.Position)
	putQuat(b[23:39], m.Rotation)
	putVelocity(b[39:45], m.Velocity)
	putF32(b[45:49], m.Health)
	return out, nil
}

// Decode decodes one RemoteVehicleSync from b into m; on error m is unchanged. See
// Message.
func (m *RemoteVehicleSync) Decode(b []byte) error {
	if err := checkHeader(b, IDRemoteVehicleSync); err != nil {
		return err
	}
	_ = b[48]
	var f fault
	t := RemoteVehicleSync{
		Vehicle:  f.getSubject(b[2:4], "Vehicle"),
		Driver:   PlayerID(le.Uint16(b[4:6])),
		SyncSeq:  le.Uint16(b[6:8]),
		Stamp:    Stamp{Teammate: f.getBool(b[8], "Stamp.Teammate"), Rev: le.Uint16(b[9:11])},
		Position: f.getVec3(b[11:23], spanCoord, "Position"),
		Rotation: f.getQuat(b[23:39], false, "Rotation"),
		Velocity: f.getVelocity(b[39:45], "Velocity"),
		Health:   f.f32(b[45:49], spanVehicleHealth, "Health"),
	}
	f.rule(t.Driver != NoPlayer || !t.Stamp.Teammate, kindInconsistent, "Stamp.Teammate")
	if f.kind != kindNone {
		return f.err(IDRemoteVehicleSync)
	}
	*m = t
	return nil
}

// Append validates m and appends its DamageReport encoding to dst; see Message.
func (m *DamageReport) Append(dst []byte) ([]byte, error) {
	var f fault
	f.enum(uint8(m.Ref.Kind), uint8(refKindCount), "Ref.Kind")
	f.span(m.HealthBefore, spanVital, "HealthBefore")
	f.span(m.ArmorBefore, spanVital, "ArmorBefore")
	f.span(m.HealthAfter, spanVital, "HealthAfter")
	f.span(m.ArmorAfter, spanVital, "ArmorAfter")
	f.span(m.Loss, spanLoss, "Loss")
	m.rules(&f)
	if f.kind != kindNone {
		return dst, f.err(IDDamageReport)
	}
	out, b := extend(dst, 33)
	_ = b[32]
	b[0], b[1] = Version, byte(IDDamageReport)
	le.PutUint16(b[2:4], m.DamageSeq)
	le.PutUint16(b[4:6], m.VitalRev)
	le.PutUint16(b[6:8], uint16(m.Attacker))
	b[8] = m.Weapon
	b[9] = m.BodyPart
	b[10] = uint8(m.Ref.Kind)
	le.PutUint16(b[11:13], m.Ref.Seq)
	putF32(b[13:17], m.HealthBefore)
	putF32(b[17:21], m.ArmorBefore)
	putF32(b[21:25], m.HealthAfter)
	putF32(b[25:29], m.ArmorAfter)
	putF32(b[29:33], m.Loss)
	return out, nil
}

// Decode decodes one DamageReport from b into m; on error m is unchanged. See Message.
func (m *DamageReport) Decode(b []byte) error {
	if err := checkHeader(b, IDDamageReport); err != nil {
		return err
	}
	_ = b[32]
	var f fault
	f.enum(b[10], uint8(refKindCount), "Ref.Kind")
	t := DamageReport{
		DamageSeq:    le.Uint16(b[2:4]),
		VitalRev:     le.Uint16(b[4:6]),
		Attacker:     PlayerID(le.Uint16(b[6:8])),
		Weapon:       b[8],
		BodyPart:     b[9],
		Ref:          Ref{Kind: RefKind(b[10]), Seq: le.Uint16(b[11:13])},
		HealthBefore: f.f32(b[13:17], spanVital, "HealthBefore"),
		ArmorBefore:  f.f32(b[17:21], spanVital, "ArmorBefore"),
		HealthAfter:  f.f32(b[21:25], spanVital, "HealthAfter"),
		ArmorAfter:   f.f32(b[25:29], spanVital, "ArmorAfter"),
		Loss:         f.f32(b[29:33], spanLoss, "Loss"),
	}
	t.rules(&f)
	if f.kind != kindNone {
		return f.err(IDDamageReport)
	}
	*m = t
	return nil
}

func (m *DamageReport) rules(f *fault) {
	f.rule(m.Ref.Kind != RefNone || m.Ref.Seq == 0, kindNonCanonical, "Ref.Seq")
	f.rule(!refNeedsAttacker(m.Ref.Kind) || m.Attacker != NoPlayer, kindInconsistent, "Attacker")
}

// Append validates m and appends its WeaponShot encoding to dst; see Message.
func (m *WeaponShot) Append(dst []byte) ([]byte, error) {
	var f fault
	f.enum(uint8(m.HitType), uint8(hitTypeCount), "HitType")
	f.vec3(m.Origin, spanCoord, "Origin")
	f.vec3(m.HitPos, spanCoord, "HitPos")
	f.rule(m.HitType != HitNone || m.HitID == 0, kindNonCanonical, "HitID")
	if f.kind != kindNone {
		return dst, f.err(IDWeaponShot)
	}
	out, b := extend(dst, 36)
	_ = b[35]
	b[0], b[1] = Version, byte(IDWeaponShot)
	le.PutUint16(b[2:4], m.ShotSeq)
	le.PutUint16(b[4:6], m.DeathEpoch)
	le.PutUint16(b[6:8], m.PropertiesRev)
	b[8] = m.Weapon
	b[9] = uint8(m.HitType)
	le.PutUint16(b[10:12], m.HitID)
	putVec3(b[12:24], m.Origin)
	putVec3(b[24:36], m.HitPos)
	return out, nil
}

// Decode decodes one WeaponShot from b into m; on error m is unchanged. See Message.
func (m *WeaponShot) Decode(b []byte) error {
	if err := checkHeader(b, IDWeaponShot); err != nil {
		return err
	}
	_ = b[35]
	var f fault
	f.enum(b[9], uint8(hitTypeCount), "HitType")
	t := WeaponShot{
		ShotSeq:       le.Uint16(b[2:4]),
		DeathEpoch:    le.Uint16(b[4:6]),
		PropertiesRev: le.Uint16(b[6:8]),
		Weapon:        b[8],
		HitType:       HitType(b[9]),
		HitID:         le.Uint16(b[10:12]),
		Origin:        f.getVec3(b[12:24], spanCoord, "Origin"),
		HitPos:        f.getVec3(b[24:36], spanCoord, "HitPos"),
	}
	f.rule(t.HitType != HitNone || t.HitID == 0, kindNonCanonical, "HitID")
	if f.kind != kindNone {
		return f.err(IDWeaponShot)
	}
	*m = t
	return nil
}

// Append validates m and appends its VehicleShot encoding to dst; see Message.
func (m *VehicleShot) Append(dst []byte) ([]byte, error) {
	var f fault
	f.subject(m.Vehicle, "Vehicle")
	f.enum(uint8(m.HitType), uint8(hitTypeCount), "HitType")
	f.vec3(m.Origin, spanCoord, "Origin")
	f.vec3(m.HitPos, spanCoord, "HitPos")
	f.rule(m.HitType != HitNone || m.HitID == 0, kindNonCanonical, "HitID")
	if f.kind != kindNone {
		return dst, f.err(IDVehicleShot)
	}
	out, b := extend(dst, 38)
	_ = b[37]
	b[0], b[1] = Version, byte(IDVehicleShot)
	le.PutUint16(b[2:4], m.ShotSeq)
	le.PutUint16(b[4:6], m.DeathEpoch)
	le.PutUint16(b[6:8], m.PropertiesRev)
	le.PutUint16(b[8:10], m.Vehicle)
	b[10] = m.Weapon
	b[11] = uint8(m.HitType)
	le.PutUint16(b[12:14], m.HitID)
	putVec3(b[14:26], m.Origin)
	putVec3(b[26:38], m.HitPos)
	return out, nil
}

// Decode decodes one VehicleShot from b into m; on error m is unchanged. See Message.
func (m *VehicleShot) Decode(b []byte) error {
	if err := checkHeader(b, IDVehicleShot); err != nil {
		return err
	}
	_ = b[37]
	var f fault
	vehicle := f.getSubject(b[8:10], "Vehicle")
	f.enum(b[11], uint8(hitTypeCount), "HitType")
	t := VehicleShot{
		ShotSeq:       le.Uint16(b[2:4]),
		DeathEpoch:    le.Uint16(b[4:6]),
		PropertiesRev: le.Uint16(b[6:8]),
		Vehicle:       vehicle,
		Weapon:        b[10],
		HitType:       HitType(b[11]),
		HitID:         le.Uint16(b[12:14]),
		Origin:        f.getVec3(b[14:26], spanCoord, "Origin"),
		HitPos:        f.getVec3(b[26:38], spanCoord, "HitPos"),
	}
	f.rule(t.HitType != HitNone || t.HitID == 0, kindNonCanonical, "HitID")
	if f.kind != kindNone {
		return f.err(IDVehicleShot)
	}
	*m = t
	return nil
}

// Append validates m and appends its RemoteWeaponShot encoding to dst; see Message.
func (m *RemoteWeaponShot) Append(dst []byte) ([]byte, error) {
	var f fault
	f.subject(uint16(m.Shooter), "Shooter")
	f.enum(uint8(m.HitType), uint8(hitTypeCount), "HitType")
	f.vec3(m.Origin, spanCoord, "Origin")
	f.vec3(m.HitPos, spanCoord, "HitPos")
	m.Rewind.check(&f)
	f.rule(m.HitType != HitNone || m.HitID == 0, kindNonCanonical, "HitID")
	if f.kind != kindNone {
		return dst, f.err(IDRemoteWeaponShot)
	}
	out, b := extend(dst, 79)
	_ = b[78]
	b[0], b[1] = Version, byte(IDRemoteWeaponShot)
	le.PutUint16(b[2:4], uint16(m.Shooter))
	le.PutUint16(b[4:6], m.ShotSeq)
	b[6] = m.Weapon
	b[7] = uint8(m.HitType)
	le.PutUint16(b[8:10], m.HitID)
	b[10] = bit(m.Stamp.Teammate, 0) | bit(m.Rewind.Valid, 1) | bit(m.Rewind.InVehicle, 2)
	le.PutUint16(b[11:13], m.Stamp.Rev)
	putVec3(b[13:25], m.Origin)
	putVec3(b[25:37], m.HitPos)
	m.Rewind.put(b[37:79])
	return out, nil
}

// Decode decodes one RemoteWeaponShot from b into m; on error m is unchanged. See
// Message.
func (m *RemoteWeaponShot) Decode(b []byte) error {
	if err := checkHeader(b, IDRemoteWeaponShot); err != nil {
		return err
	}
	_ = b[78]
	var f fault
	shooter := f.getSubject(b[2:4], "Shooter")
	f.enum(b[7], uint8(hitTypeCount), "HitType")
	flags := b[10]
	f.reserved(flags, 3, "Flags")
	t := RemoteWeaponShot{
		Shooter: PlayerID(shooter),
		ShotSeq: le.Uint16(b[4:6]),
		Weapon:  b[6],
		HitType: HitType(b[7]),
		HitID:   le.Uint16(b[8:10]),
		Stamp:   Stamp{Teammate: flags&1 != 0, Rev: le.Uint16(b[11:13])},
		Origin:  f.getVec3(b[13:25], spanCoord, "Origin"),
		HitPos:  f.getVec3(b[25:37], spanCoord, "HitPos"),
		Rewind:  f.getRewind(b[37:79], flags&2 != 0, flags&4 != 0),
	}
	t.Rewind.rules(&f)
	f.rule(t.HitType != HitNone || t.HitID == 0, kindNonCanonical, "HitID")
	if f.kind != kindNone {
		return f.err(IDRemoteWeaponShot)
	}
	*m = t
	return nil
}

// Append validates m and appends its RemoteVehicleShot encoding to dst; see Message.
func (m *RemoteVehicleShot) Append(dst []byte) ([]byte, error) {
	var f fault
	f.subject(uint16(m.Shooter), "Shooter")
	f.subject(m.Vehicle, "Vehicle")
	f.enum(uint8(m.HitType), uint8(hitTypeCount), "HitType")
	f.vec3(m.Origin, spanCoord, "Origin")
	f.vec3(m.HitPos, spanCoord, "HitPos")
	m.Rewind.check(&f)
	f.rule(m.HitType != HitNone || m.HitID == 0, kindNonCanonical, "HitID")
	if f.kind != kindNone {
		return dst, f.err(IDRemoteVehicleShot)
	}
	out, b := extend(dst, 81)
	_ = b[80]
	b[0], b[1] = Version, byte(IDRemoteVehicleShot)
	le.PutUint16(b[2:4], uint16(m.Shooter))
	le.PutUint16(b[4:6], m.Vehicle)
	le.PutUint16(b[6:8], m.ShotSeq)
	b[8] = m.Weapon
	b[9] = uint8(m.HitType)
	le.PutUint16(b[10:12], m.HitID)
	b[12] = bit(m.Stamp.Teammate, 0) | bit(m.Rewind.Valid, 1) | bit(m.Rewind.InVehicle, 2)
	le.PutUint16(b[13:15], m.Stamp.Rev)
	putVec3(b[15:27], m.Origin)
	putVec3(b[27:39], m.HitPos)
	m.Rewind.put(b[39:81])
	return out, nil
}

// Decode decodes one RemoteVehicleShot from b into m; on error m is unchanged. See
// Message.
func (m *RemoteVehicleShot) Decode(b []byte) error {
	if err := checkHeader(b, IDRemoteVehicleShot); err != nil {
		return err
	}
	_ = b[80]
	var f fault
	shooter := f.getSubject(b[2:4], "Shooter")
	vehicle := f.getSubject(b[4:6], "Vehicle")
	f.enum(b[9], uint8(hitTypeCount), "HitType")
	flags := b[12]
	f.reserved(flags, 3, "Flags")
	t := RemoteVehicleShot{
		Shooter: PlayerID(shooter),
		Vehicle: vehicle,
		ShotSeq: le.Uint16(b[6:8]),
		Weapon:  b[8],
		HitType: HitType(b[9]),
		HitID:   le.Uint16(b[10:12]),
		Stamp:   Stamp{Teammate: flags&1 != 0, Rev: le.Uint16(b[13:15])},
		Origin:  f.getVec3(b[15:27], spanCoord, "Origin"),
		HitPos:  f.getVec3(b[27:39], spanCoord, "HitPos"),
		Rewind:  f.getRewind(b[39:81], flags&2 != 0, flags&4 != 0),
	}
	t.Rewind.rules(&f)
	f.rule(t.HitType != HitNone || t.HitID == 0, kindNonCanonical, "HitID")
	if f.kind != kindNone {
		return f.err(IDRemoteVehicleShot)
	}
	*m = t
	return nil
}

// The rewind's 42 bytes after its two flag bits: Position (12), Vehicle (2),
// VehiclePosition (12), VehicleRotation (16).

func (r *Rewind) check(f *fault) {
	f.vec3(r.Position, spanCoord, "Rewind.Position")
	f.subject(r.Vehicle, "Rewind.Vehicle")
	f.vec3(r.VehiclePosition, spanCoord, "Rewind.VehiclePosition")
	f.quat(r.VehicleRotation, true, "Rewind.VehicleRotation")
	r.rules(f)
}

func (r *Rewind) rules(f *fault) {
	f.rule(r.Valid || r.Position == Vec3{}, kindNonCanonical, "Rewind.Position")
	f.rule(r.Valid || !r.InVehicle, kindNonCanonical, "Rewind.InVehicle")
	f.rule(r.InVehicle || r.Vehicle == 0, kindNonCanonical, "Rewind.Vehicle")
	f.rule(r.InVehicle || r.VehiclePosition == Vec3{}, kindNonCanonical, "Rewind.VehiclePosition")
	f.rule(r.InVehicle || r.VehicleRotation == Quat{}, kindNonCanonical, "Rewind.VehicleRotation")
	f.rule(!r.InVehicle || r.VehicleRotation != Quat{}, kindOutOfRange, "Rewind.VehicleRotation")
}

func (r *Rewind) put(b []byte) {
	_ = b[41]
	putVec3(b[0:12], r.Position)
	le.PutUint16(b[12:14], r.Vehicle)
	putVec3(b[14:26], r.VehiclePosition)
	putQuat(b[26:42], r.VehicleRotation)
}

func (f *fault) getRewind(b []byte, valid, inVehicle bool) Rewind {
	_ = b[41]
	return Rewind{
		Valid:           valid,
		Position:        f.getVec3(b[0:12], spanCoord, "Rewind.Position"),
		InVehicle:       inVehicle,
		Vehicle:         f.getSubject(b[12:14], "Rewind.Vehicle"),
		VehiclePosition: f.getVec3(b[14:26], spanCoord, "Rewind.VehiclePosition"),
		VehicleRotation: f.getQuat(b[26:42], true, "Rewind.VehicleRotation"),
	}
}
