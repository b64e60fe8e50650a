package teams

import "errors"

// The errors of the package. Every refused input returns one of them (possibly wrapped
// with detail through fmt.Errorf("%w: ...")), so errors.Is works, and leaves the Registry
// exactly as it was.
var (
	// ErrPlayerOutOfRange is returned for a player id outside the slots 0..MaxPlayers-1.
	ErrPlayerOutOfRange = errors.New("teams: player id out of range")
	// ErrUnknownPlayer is returned for a player slot in range that nobody occupies: the
	// player never connected or has disconnected.
	ErrUnknownPlayer = errors.New("teams: unknown player")
	// ErrPlayerConnected is returned by Connect for a slot that is already occupied.
	ErrPlayerConnected = errors.New("teams: player already connected")
	// ErrTeamOutOfRange is returned for a team id outside 1..MaxTeams (0 means "no team"
	// and is never a team).
	ErrTeamOutOfRange = errors.New("teams: team id out of range")
	// ErrUnknownTeam is returned for a team id in range that was not created or was removed.
	ErrUnknownTeam = errors.New("teams: unknown team")
	// ErrTeamExists is returned by CreateTeam for an id that is already a team.
	ErrTeamExists = errors.New("teams: team already exists")
	// ErrTeamName is returned for a team name that is empty, longer than MaxTeamName bytes,
	// not valid UTF-8 or holds a control character.
	ErrTeamName = errors.New("teams: bad team name")
	// ErrRevisionFuture is returned by StampAt for a relation revision newer than the
	// current one (or exactly half the 16-bit space away from it): no stamp carried it yet.
	ErrRevisionFuture = errors.New("teams: relation revision from the future")
	// ErrRevisionForgotten is returned by StampAt for a relation revision older than what
	// the registry still remembers of one of the two players (see GroupHistory), or older
	// than the registry itself.
	ErrRevisionForgotten = errors.New("teams: relation revision forgotten")
	// ErrOccupants is returned by JudgeExplosion for an occupant list that is too long
	// (more than MaxOccupants) or names a player twice.
	ErrOccupants = errors.New("teams: bad vehicle occupants")
)
