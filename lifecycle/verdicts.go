package lifecycle

//go:generate go tool stringer -type=FrameVerdict,ReportVerdict,CountVerdict,RequestVerdict -linecomment

// FrameVerdict is what World.Frame decided about one frame of the subject.
type FrameVerdict uint8

// The verdicts of a frame.
const (
	// FrameRelayed: relay the frame with the Stamp (the server's alive, generation,
	// sequence and health replace the client's).
	FrameRelayed FrameVerdict = iota + 1 // relayed
	// FrameFirstOfLife: the first living frame of a granted life. Relay it with the Stamp
	// and raise the SpawnEvent (player_spawn).
	FrameFirstOfLife // first frame of the life
	// FrameNotSpawned: the player never spawned; nothing to relay.
	FrameNotSpawned // not spawned
	// FrameOfPreviousLife: the frame carries an older generation than the server's (a late
	// frame of a life that ended); dropped, never relayed.
	FrameOfPreviousLife // frame of a previous life
	// FrameOfFutureLife: the frame carries a generation the server never granted (a client
	// trying to revive itself); dropped, never relayed.
	FrameOfFutureLife // frame of a life never granted
	// FrameAwaitingLife: a respawn was granted and the frame is of the new generation but
	// not living; dropped until a living frame confirms the life.
	FrameAwaitingLife // awaiting the first living frame
)

// Relay reports whether the frame is relayed (with its Stamp).
func (v FrameVerdict) Relay() bool { return v == FrameRelayed || v == FrameFirstOfLife }

// ReportVerdict is what World.ReportDeath decided about a DeathReport.
type ReportVerdict uint8

// The verdicts of a death report.
const (
	// ReportCommitted: a fresh commit; DeathResult.Commit is valid.
	ReportCommitted ReportVerdict = iota + 1 // committed
	// ReportAlreadyCommitted: the life's death is already committed (by an earlier report,
	// by the server's deadline); nothing is sent again.
	ReportAlreadyCommitted // already committed
	// ReportNotSpawned: the player never spawned; nothing to commit.
	ReportNotSpawned // not spawned
	// ReportOfPreviousLife: the report names a life older than the current one (a late
	// report, or one that arrives while the next life is being granted); ignored.
	ReportOfPreviousLife // report of a previous life
	// ReportOfFutureLife: the report names a life the server never granted; ignored.
	ReportOfFutureLife // report of a life never granted
)

// CountVerdict is what World.CountDeath did with a death counted by the server.
type CountVerdict uint8

// The verdicts of a counted death.
const (
	// CountWaiting: the wait for the victim's report started; the deadline is set.
	CountWaiting CountVerdict = iota + 1 // waiting for the report
	// CountEarlierDeadline: a second count with an earlier deadline; the wait now ends
	// then, and its killer and cause apply.
	CountEarlierDeadline // earlier deadline
	// CountKeptDeadline: a second count whose deadline is not earlier; nothing changes.
	CountKeptDeadline // deadline kept
	// CountAlreadyCommitted: the life's death is already committed; not committed again.
	CountAlreadyCommitted // already committed
	// CountNotSpawned: the player never spawned; nothing counted.
	CountNotSpawned // not spawned
	// CountBeforeFirstFrame: the respawn is granted but no living frame confirmed the life
	// yet; nothing counted (the vitals package starts counting at the first frame).
	CountBeforeFirstFrame // before the first frame
)

// RequestVerdict is what World.RespawnRequest decided.
type RequestVerdict uint8

// The verdicts of a respawn request.
const (
	// RequestGranted: a fresh grant; a new generation starts (see Grant).
	RequestGranted RequestVerdict = iota + 1 // granted
	// RequestRegranted: a repeated request before the first living frame; the same
	// RespawnPlayer again, same generation.
	RequestRegranted // regranted
	// RequestTooEarly: the policy's moment has not come (Grant.At says when); the request
	// is remembered and Advance grants at that moment.
	RequestTooEarly // too early
	// RequestHeld: the gamemode holds this respawn until it decides again.
	RequestHeld // held by the gamemode
	// RequestAwaitingZero: the server committed the death itself and the victim has not
	// acknowledged its SetHealth(0) yet.
	RequestAwaitingZero // awaiting the acknowledgement of the zero
	// RequestNotDead: the server holds the player alive (or dying: the death is not
	// committed yet); nothing to grant.
	RequestNotDead // not dead
	// RequestOfPreviousLife: the request names a life older than the one it could respawn
	// from; ignored.
	RequestOfPreviousLife // request of a previous life
	// RequestOfFutureLife: the request names a life the server never granted; ignored.
	RequestOfFutureLife // request of a life never granted
)

// Granted reports whether the host sends a RespawnPlayer (RequestGranted or
// RequestRegranted).
func (v RequestVerdict) Granted() bool { return v == RequestGranted || v == RequestRegranted }
