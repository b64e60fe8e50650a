package lifecycle

import (
	"math"
	"strconv"

	"github.com/arbitergo/arbiter/internal/causes"
	"github.com/arbitergo/arbiter/internal/ids"
	"github.com/arbitergo/arbiter/internal/revision"
)

// PlayerID is a player slot, as in SA-MP: 0..MaxPlayers-1. A new connection may reuse the
// id of a player that left; the Token tells the two apart. It is the same type as every
// other package's PlayerID (vitals, teams, rewind, wire), so an id passes between them
// without a conversion.
type PlayerID = ids.PlayerID

// NoPlayer is the PlayerID of no player, 0xFFFF (SA-MP's INVALID_PLAYER_ID): a death
// without a killer.
const NoPlayer = ids.NoPlayer

// Token is the player_token: a number the World gives each connection when it joins,
// unique among the connections of that World (a new player on a reused id gets a new
// token). Every lifecycle edge carries the token of its subject, so a receiver never
// applies the edge of a departed player to a new player on the same id. NoToken (0) is
// never issued.
type Token uint32

// NoToken is the token of no connection; the World never issues it.
const NoToken Token = 0

// Generation is the life generation (death_epoch): one step per respawn grant (the connect
// spawn included). It grows strictly within a connection in 16-bit serial arithmetic
// (internal/revision): after 65535 comes 0, and "newer" means newer within half the space,
// which a life boundary in flight never approaches. It is counted per player id: a new
// connection continues from the last generation of its id (0 for an id never used), so a
// relayed frame of a new player never carries the generation of a receiver's copy of the
// departed one.
type Generation uint16

// Next returns the generation that follows g.
func (g Generation) Next() Generation { return Generation(revision.Next(uint16(g))) }

// Newer reports whether g is strictly newer than other in serial arithmetic.
func (g Generation) Newer(other Generation) bool { return revision.Newer(uint16(g), uint16(other)) }

// Handle names one connection: its player id and its token. Every input of the World takes
// a Handle, so an input meant for a departed player can never touch the new player on the
// same id (ErrStaleToken).
type Handle struct {
	// ID is the player id (the slot).
	ID PlayerID
	// Token is the player token of the connection that holds the slot.
	Token Token
}

// String returns "player 3 token 7".
func (h Handle) String() string {
	return "player " + strconv.Itoa(int(h.ID)) + " token " + strconv.FormatUint(uint64(h.Token), 10)
}

// none reports whether h names no connection: the zero Handle (NoToken is never issued)
// or NoPlayer. It is how a Count or a Blame says "no killer".
func (h Handle) none() bool { return h.Token == NoToken || h.ID == NoPlayer }

// Vec3 is a position in world coordinates (metres). The field list matches the other
// packages' Vec3, so the host converts with a plain type conversion.
type Vec3 struct{ X, Y, Z float32 }

// SpawnPoint is where a respawned player appears: a position and a facing (the heading
// around the vertical axis in degrees, as in SA-MP's SetSpawnInfo).
type SpawnPoint struct {
	// Pos is the position.
	Pos Vec3
	// Facing is the heading in degrees.
	Facing float32
}

// valid reports whether every component is finite.
func (p SpawnPoint) valid() bool {
	return finite(p.Pos.X) && finite(p.Pos.Y) && finite(p.Pos.Z) && finite(p.Facing)
}

// String returns "(1 2 3) facing 90".
func (p SpawnPoint) String() string {
	return "(" + ftoa(p.Pos.X) + " " + ftoa(p.Pos.Y) + " " + ftoa(p.Pos.Z) + ") facing " + ftoa(p.Facing)
}

func finite(f float32) bool {
	return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0)
}

func ftoa(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }

// Causes of death besides the weapon ids 0..46 (SA-MP's numbering).
const (
	// CauseVehicle is a ram or a run-over.
	CauseVehicle = causes.Vehicle
	// CauseHeliBlades is a helicopter's rotor blades.
	CauseHeliBlades = causes.Rotor
	// CauseExplosion is any explosion.
	CauseExplosion = causes.Explosion
	// CauseDrowning is drowning.
	CauseDrowning = causes.Drowning
	// CauseSplat is a fall or a collision.
	CauseSplat = causes.Fall
	// CauseUnknown is a cause nobody knows.
	CauseUnknown = causes.Unknown
)

// ValidCause reports whether c is on the cause list: a weapon id 0..46 of the game except
// the unused 19, 20 and 21 (37, the flamethrower, also stands for plain fire), or one of
// CauseVehicle, CauseHeliBlades, CauseExplosion, CauseDrowning, CauseSplat, CauseUnknown.
func ValidCause(c uint8) bool {
	switch {
	case c <= 18, c >= 22 && c <= 46:
		return true
	}
	switch c {
	case CauseVehicle, CauseHeliBlades, CauseExplosion, CauseDrowning, CauseSplat, CauseUnknown:
		return true
	}
	return false
}

//go:generate go tool stringer -type=Phase -linecomment

// Phase is where a connection's life stands on the server.
type Phase uint8

// The phases of a life. A connection starts Unspawned; a grant moves it to Respawning, its
// first living frame to Alive; a death counted by the server makes it Dying until the
// commit; a commit makes it Dead; only a grant leaves Dead.
const (
	// PhaseUnspawned: joined, never spawned (before the connect spawn). Not alive.
	PhaseUnspawned Phase = iota // unspawned
	// PhaseAlive: the life is confirmed by a living frame and no death is counted.
	PhaseAlive // alive
	// PhaseDying: the server counted the death (vitals: ledger at 0, vehicle explosion,
	// stealth kill) and waits for the victim's DeathReport until the deadline. Still alive
	// for the relay: no edge has been sent.
	PhaseDying // dying
	// PhaseDead: the death is committed. Only a respawn grant leaves this phase.
	PhaseDead // dead
	// PhaseRespawning: a respawn was granted; the first living frame of the new generation
	// has not arrived yet. Alive for the relay (observers rebuilt the copy at the point),
	// but not acting yet (see World.MayAct).
	PhaseRespawning // respawning
)

// Alive reports whether the server holds a player in this phase alive: what it stamps as
// `alive` into relayed frames and shows in a Snapshot. True for Alive, Dying and Respawning.
func (p Phase) Alive() bool {
	return p == PhaseAlive || p == PhaseDying || p == PhaseRespawning
}

// MayAct reports whether a player in this phase may act (shoot, report damage, take
// commands that need a body): alive, or dying (counted, the report awaited: vitals'
// [mutual-kill] refuses actions from the commit on). See World.MayAct.
func (p Phase) MayAct() bool { return p == PhaseAlive || p == PhaseDying }
