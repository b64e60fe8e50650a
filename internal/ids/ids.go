// Package ids holds the player id that every package of arbiter names: vitals, lifecycle,
// teams, rewind and wire each declare PlayerID and NoPlayer as aliases of these, so a
// player id passes between them (and through the reference server) without a conversion
// while none of them imports another.
package ids

// PlayerID is a player slot, as in SA-MP: 0..MaxPlayers-1 of the package that checks it.
// A new connection may reuse the id of a player that left.
type PlayerID uint16

// NoPlayer is the player id that names no player (SA-MP's INVALID_PLAYER_ID): damage
// without an author, a death without a killer, an effect without a creator.
const NoPlayer PlayerID = 0xFFFF
