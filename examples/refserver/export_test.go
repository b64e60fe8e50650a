package refserver

import (
	"time"

	"github.com/arbitergo/arbiter/rewind"
	"github.com/arbitergo/arbiter/vitals"
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
