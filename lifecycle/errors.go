package lifecycle

import "errors"

// The errors of the package. Every input refused as bad returns one of them (possibly
// wrapped with detail through fmt.Errorf("%w: ...")), so errors.Is works, and leaves the
// World exactly as it was. Refusals that are part of normal play (a respawn asked for too
// early, a death report that lost the race against the server's own commit) are not errors:
// they are verdicts (ReportVerdict, RequestVerdict, CountVerdict, FrameVerdict).
var (
	// ErrBadConfig is returned by New for a Config field out of its documented range.
	ErrBadConfig = errors.New("lifecycle: bad config")
	// ErrBadPlayerID is returned by Join for an id outside 0..MaxPlayers-1 (NoPlayer is
	// never a player), and by CountDeath and ReportDeath for a killer whose id is neither
	// NoPlayer nor in that range.
	ErrBadPlayerID = errors.New("lifecycle: player id out of range")
	// ErrSlotTaken is returned by Join for an id a connected player already holds.
	ErrSlotTaken = errors.New("lifecycle: player id already in use")
	// ErrUnknownPlayer is returned for an id that nobody holds: never joined, or left.
	ErrUnknownPlayer = errors.New("lifecycle: unknown player")
	// ErrStaleToken is returned for a Handle whose id is held by another connection
	// (the handle's player left and the id was reused).
	ErrStaleToken = errors.New("lifecycle: stale player token")
	// ErrBadHealth is returned by Frame for a health to relay that is NaN or infinite.
	ErrBadHealth = errors.New("lifecycle: health not finite")
	// ErrBadRTT is returned by CountDeath for a negative round-trip time.
	ErrBadRTT = errors.New("lifecycle: negative round-trip time")
	// ErrBadTime is returned for a moment outside the clock's range: a now before the
	// epoch (by Join, Frame, ReportDeath, RespawnRequest and Leave), and by CountDeath for a
	// counted moment before the epoch or so late that its deadline overflows a Duration.
	ErrBadTime = errors.New("lifecycle: moment out of range")
	// ErrBadCause is returned for a server-side cause of death (from a Count or a Blame)
	// that is not on the cause list (see ValidCause). A client's Means is never an error:
	// it is replaced by CauseUnknown.
	ErrBadCause = errors.New("lifecycle: cause not on the list")
	// ErrBadPoint is returned for a spawn point whose position or facing is NaN or infinite.
	ErrBadPoint = errors.New("lifecycle: spawn point not finite")
	// ErrNotDead is returned by DecideRespawn for a player that has no death to decide on:
	// alive, dying (counted but not committed) or already granted.
	ErrNotDead = errors.New("lifecycle: player not dead")
	// ErrWrongGeneration is returned by DecideRespawn and ZeroAcknowledged for a
	// generation that is not the player's current one.
	ErrWrongGeneration = errors.New("lifecycle: wrong generation")
	// ErrNoZeroPending is returned by ZeroAcknowledged when no server-committed death waits
	// for the victim's acknowledgement of its SetHealth(0).
	ErrNoZeroPending = errors.New("lifecycle: no zero waiting for acknowledgement")
)
