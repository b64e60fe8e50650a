package refserver

import "github.com/arbitergo/arbiter/vitals"

// LastDamageOf exposes a player's last damage to the external tests (refserver_test):
// the attacker the death of its next report would name.
func LastDamageOf(w *World, id PlayerID) vitals.LastDamage {
	p := w.conn(id)
	if p == nil {
		return vitals.LastDamage{}
	}
	return p.vit.LastDamage()
}
