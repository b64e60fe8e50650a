package wire

// rewindAt is where an encoded message keeps a Rewind: the flags byte and the bits of
// Rewind.Valid and Rewind.InVehicle, and the offsets of its other fields. It is read off
// the message's layout (its walk), as stampAt is.
type rewindAt struct {
	ok                      bool
	valid, inVehicle        uint
	flags                   int
	pos, vehicle, vpos, rot int
	size                    int
}

var rewinds [256]rewindAt

// initRewinds reads every layout's Rewind; the layouts' init calls it once they are built.
func initRewinds() {
	for id, l := range layouts {
		if l == nil {
			continue
		}
		var at [6]int
		ok := true
		for i, name := range [6]string{"Rewind.Valid", "Rewind.InVehicle", "Rewind.Position", "Rewind.Vehicle",
			"Rewind.VehiclePosition", "Rewind.VehicleRotation"} {
			f := l.fieldIndex(name)
			if f == noField {
				ok = false
				break
			}
			at[i] = int(f)
		}
		if !ok {
			continue
		}
		valid, inVehicle := l.fields[at[0]], l.fields[at[1]]
		if valid.off != inVehicle.off {
			continue // never: both bits live in the message's flags byte
		}
		rewinds[id] = rewindAt{ok: true, flags: valid.off, valid: uint(valid.bit), inVehicle: uint(inVehicle.bit),
			pos: l.fields[at[2]].off, vehicle: l.fields[at[3]].off, vpos: l.fields[at[4]].off, rot: l.fields[at[5]].off,
			size: l.size}
	}
}

// HasRewind reports whether messages of id carry a recipient's rewound pose (Rewind: the
// relays of a shot, RemoteWeaponShot and RemoteVehicleShot).
func (id ID) HasRewind() bool { return rewinds[id].ok }

// PatchRewind writes r into b, the encoding of one message that carries a Rewind
// (ID.HasRewind), in place: a server encodes a shot once and patches each nearby
// recipient's pose into its copy, as PatchStamp does its stamp. The result is exactly
// the encoding of the message with r. It checks the header, the size and r by the rules
// Append checks it by (ranges and the zero fields of an absent part), and returns
// ErrTruncated, ErrVersion, ErrUnknownID, ErrWrongMessage for a message without a Rewind,
// or Append's error for r, changing nothing then. It does not allocate.
func PatchRewind(b []byte, r Rewind) error {
	if len(b) < HeaderSize || b[0] != Version || !rewinds[b[1]].ok {
		return patchRefused(b)
	}
	at := &rewinds[b[1]]
	if len(b) < at.size {
		return ErrTruncated
	}
	if !rewindOK(&r) {
		var f fault
		f.vec3(r.Position, spanCoord, "Rewind.Position")
		f.subject(r.Vehicle, "Rewind.Vehicle")
		f.vec3(r.VehiclePosition, spanCoord, "Rewind.VehiclePosition")
		f.quat(r.VehicleRotation, true, "Rewind.VehicleRotation")
		f.rule(r.Valid || r.Position == Vec3{}, kindNonCanonical, "Rewind.Position")
		f.rule(r.Valid || !r.InVehicle, kindNonCanonical, "Rewind.InVehicle")
		f.rule(r.InVehicle || r.Vehicle == 0, kindNonCanonical, "Rewind.Vehicle")
		f.rule(r.InVehicle || r.VehiclePosition == Vec3{}, kindNonCanonical, "Rewind.VehiclePosition")
		f.rule(r.InVehicle || r.VehicleRotation == Quat{}, kindNonCanonical, "Rewind.VehicleRotation")
		f.rule(!r.InVehicle || r.VehicleRotation != Quat{}, kindOutOfRange, "Rewind.VehicleRotation")
		return f.err(ID(b[1]))
	}
	fl := b[at.flags] &^ (1<<at.valid | 1<<at.inVehicle)
	fl |= bit(r.Valid, at.valid) | bit(r.InVehicle, at.inVehicle)
	b[at.flags] = fl
	putVec3(b[at.pos:], r.Position)
	le.PutUint16(b[at.vehicle:], r.Vehicle)
	putVec3(b[at.vpos:], r.VehiclePosition)
	putQuat(b[at.rot:], r.VehicleRotation)
	return nil
}

// Encodes reports whether r is a pose Append and PatchRewind take: false exactly when
// PatchRewind would refuse r (for a message that carries a Rewind). A server that keeps a
// pose to patch in later checks it here, without writing it anywhere.
func (r Rewind) Encodes() bool { return rewindOK(&r) }

// rewindOK is every check Append makes of a Rewind, at once.
func rewindOK(r *Rewind) bool {
	return coordOK(r.Position) && r.Vehicle != 0xFFFF && coordOK(r.VehiclePosition) &&
		quatOK(r.VehicleRotation, true) &&
		(r.Valid || r.Position == Vec3{}) &&
		(r.Valid || !r.InVehicle) &&
		(r.InVehicle || r.Vehicle == 0) &&
		(r.InVehicle || r.VehiclePosition == Vec3{}) &&
		(r.InVehicle || r.VehicleRotation == Quat{}) &&
		(!r.InVehicle || r.VehicleRotation != Quat{})
}

// coordOK is the check of a position (spanCoord; NaN fails).
func coordOK(v Vec3) bool {
	return v.X >= -MaxCoord && v.X <= MaxCoord && v.Y >= -MaxCoord && v.Y <= MaxCoord && v.Z >= -MaxCoord && v.Z <= MaxCoord
}
