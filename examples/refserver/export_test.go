package refserver

import (
	"time"

	"github.com/arbitergo/arbiter/rewind"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// LastDamageOf exposes a player's last damage to the external tests (refserver_test):
// the attacker the death of its next report would name.
func LastDamageOf(w *World, id PlayerID) vitals.LastDamage {
	p := w.conn(id)
	if p == nil {
		return vitals.LastDamage{}
	}
	return p.vit.LastDamage()
}

// PlayerAtOf exposes the rewind history's position of a player at a time to the external
// tests.
func PlayerAtOf(w *World, now time.Duration, id PlayerID) (rewind.Vec3, error) {
	return w.rw.PlayerAt(now, id)
}

// UnshownOf exposes how many subjects a recipient has not been shown yet, and whether it
// sees subject, to the external tests.
func UnshownOf(w *World, recipient, subject PlayerID) (unshown int, sees bool) {
	p := w.conn(recipient)
	if p == nil {
		return 0, false
	}
	return p.nUnshown, p.sees(subject)
}

// ShotCreditUsedOf exposes how many credits the first victim of a shot of shooter has
// used, to the external tests.
func ShotCreditUsedOf(w *World, shooter PlayerID, seq uint16) uint8 {
	p := w.conn(shooter)
	if p == nil {
		return 0
	}
	return p.shots.at(seq).victims[0].used
}

// SnapshotOf exposes the lifecycle's snapshot of a player (alive, life) to the external
// tests.
func SnapshotOf(w *World, id PlayerID) (alive bool, gen uint16, err error) {
	s, err := w.life.Snapshot(id)
	return s.Alive, uint16(s.Gen), err
}

// The per-connection gates' intervals, for the external tests.
const (
	FrameIntervalForTest      = frameInterval
	DatagramIntervalForTest   = datagramInterval
	ProjectileIntervalForTest = projectileInterval
)

// FrameOf exposes the newest frame the server took of a player to the external tests:
// where it stood and the vehicle seat it showed (ok false before its first frame or for
// no such connection).
func FrameOf(w *World, id PlayerID) (pos wire.Vec3, vehicle uint16, seat uint8, ok bool) {
	p := w.conn(id)
	if p == nil || !p.frame.have {
		return wire.Vec3{}, NoVehicle, 0, false
	}
	return p.frame.pos, p.frame.vehicle, p.frame.seat, true
}

// VehicleOf exposes a vehicle's position and whether it is a wreck to the external tests
// (ok false for no such vehicle).
func VehicleOf(w *World, id uint16) (pos wire.Vec3, wrecked, ok bool) {
	v := w.vehicle(id)
	if v == nil {
		return wire.Vec3{}, false, false
	}
	return v.pos, v.wrecked, true
}

// ProjectileOf exposes the server's record of a player's projectile seq to the external
// tests: where it was launched (healed: no launch arrived, the origin is the detonation's)
// and where it detonated (ok false when the record's slot holds no such projectile).
func ProjectileOf(w *World, id PlayerID, seq uint16) (origin, detPos wire.Vec3, detonated, healed, ok bool) {
	p := w.conn(id)
	if p == nil {
		return
	}
	r := p.projectile(seq)
	if !r.valid || r.seq != seq {
		return
	}
	return r.origin, r.detPos, r.detonated, r.healed, true
}

// OwedHidesOf exposes how many hides a connection is owed ([stream-hide-owed]) to the
// external tests.
func OwedHidesOf(w *World, id PlayerID) int {
	p := w.conn(id)
	if p == nil {
		return 0
	}
	if d := w.debtOf(p); d != nil {
		return len(d.hides)
	}
	return 0
}
