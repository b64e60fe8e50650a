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
