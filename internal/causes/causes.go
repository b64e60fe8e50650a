// Package causes holds the ids of the damage causes besides the weapons (SA-MP's
// numbering), the one set of names every package of arbiter uses: vitals, lifecycle and
// inventory each re-export them under their own names, so a cause id means the same to
// the ledger, the death rules, the weapon catalogue, the server, the honest client and the
// bots, while none of the packages imports another.
package causes

// The damage causes besides the weapon ids 0..46. Fire, Spraycan and Extinguisher share
// the ids of the weapons that spray them (the flamethrower, the spraycan, the fire
// extinguisher).
const (
	Fire         uint8 = 37  // fire, with or without a flamethrower
	Spraycan     uint8 = 41  // the spraycan
	Extinguisher uint8 = 42  // the fire extinguisher
	Vehicle      uint8 = 49  // ramming, running over
	Rotor        uint8 = 50  // helicopter blades
	Explosion    uint8 = 51  // any explosion
	Drowning     uint8 = 53  // drowning
	Fall         uint8 = 54  // a fall or a collision ("splat")
	Unknown      uint8 = 255 // a cause nobody knows
)
