package vitals

import "errors"

// The errors of the package. Each is returned (possibly wrapped with detail through
// fmt.Errorf("%w: ...")) by a call whose input was refused; a refused call changes nothing.
// Test for them with errors.Is.
var (
	// ErrNotFinite refuses an input holding NaN or ±Inf where a number is expected.
	ErrNotFinite = errors.New("vitals: value is not finite")
	// ErrOutOfRange refuses a value outside the range the ledger allows (a health or armor
	// command outside 0..200, an add of 0, a claimed loss above MaxClaimedLoss, ...).
	ErrOutOfRange = errors.New("vitals: value out of range")
	// ErrNotAlive refuses a command, a stealth kill or a vehicle explosion for a player
	// whose life the server does not count: before its first frame, counted dead or dead.
	ErrNotAlive = errors.New("vitals: player not alive")
	// ErrStillAlive refuses DeathZero for a player that is neither counted dead nor dead:
	// the zero of a death commit is never sent to a living player.
	ErrStillAlive = errors.New("vitals: player still alive")
	// ErrFutureRevision refuses an acknowledgement of a revision newer than anything sent.
	ErrFutureRevision = errors.New("vitals: revision newer than anything sent")
	// ErrBodyPart refuses a hit report whose body part is not on the whitelist (3..9).
	ErrBodyPart = errors.New("vitals: body part not on the whitelist")
	// ErrSource refuses a report with an unknown damage source.
	ErrSource = errors.New("vitals: unknown damage source")
	// ErrAttacker refuses an input that names no attacker where one is required (a
	// correlated report or a stealth kill without a killer).
	ErrAttacker = errors.New("vitals: no attacker")
	// ErrTeammate refuses a stealth kill by a teammate and a vehicle explosion whose killer
	// is the occupant's teammate: the victim's client refuses that damage itself.
	ErrTeammate = errors.New("vitals: attacker is a teammate")
	// ErrConfig refuses a Config with a field outside its documented range.
	ErrConfig = errors.New("vitals: invalid config")
)
