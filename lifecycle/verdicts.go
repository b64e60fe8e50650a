package lifecycle

// FrameVerdict is what World.Frame decided about one frame of the subject.
type FrameVerdict uint8

// The verdicts of a frame.
const (
	// FrameRelayed: relay the frame with the Stamp (the server's alive, generation,
	// sequence and health replace the client's).
	FrameRelayed FrameVerdict = iota + 1
	// FrameFirstOfLife: the first living frame of a granted life. Relay it with the Stamp
	// and raise the SpawnEvent (player_spawn).
	FrameFirstOfLife
	// FrameNotSpawned: the player never spawned; nothing to relay.
	FrameNotSpawned
	// FrameOfPreviousLife: the frame carries an older generation than the server's (a late
	// frame of a life that ended); dropped, never relayed.
	FrameOfPreviousLife
	// FrameOfFutureLife: the frame carries a generation the server never granted (a client
	// trying to revive itself); dropped, never relayed.
	FrameOfFutureLife
	// FrameAwaitingLife: a respawn was granted and the frame is of the new generation but
	// not living; dropped until a living frame confirms the life.
	FrameAwaitingLife
)

// String returns the verdict's name.
func (v FrameVerdict) String() string {
	switch v {
	case FrameRelayed:
		return "relayed"
	case FrameFirstOfLife:
		return "first frame of the life"
	case FrameNotSpawned:
		return "not spawned"
	case FrameOfPreviousLife:
		return "frame of a previous life"
	case FrameOfFutureLife:
		return "frame of a life never granted"
	case FrameAwaitingLife:
		return "awaiting the first living frame"
	}
	return "frame verdict(" + itoa(int(v)) + ")"
}

// Relay reports whether the frame is relayed (with its Stamp).
func (v FrameVerdict) Relay() bool { return v == FrameRelayed || v == FrameFirstOfLife }

// ReportVerdict is what World.ReportDeath decided about a DeathReport.
type ReportVerdict uint8

// The verdicts of a death report.
const (
	// ReportCommitted: a fresh commit; DeathResult.Commit is valid.
	ReportCommitted ReportVerdict = iota + 1
	// ReportAlreadyCommitted: the life's death is already committed (by an earlier report,
	// by the server's deadline); nothing is sent again.
	ReportAlreadyCommitted
	// ReportNotSpawned: the player never spawned; nothing to commit.
	ReportNotSpawned
	// ReportOfPreviousLife: the report names a life older than the current one (a late
	// report, or one that arrives while the next life is being granted); ignored.
	ReportOfPreviousLife
	// ReportOfFutureLife: the report names a life the server never granted; ignored.
	ReportOfFutureLife
)

// String returns the verdict's name.
func (v ReportVerdict) String() string {
	switch v {
	case ReportCommitted:
		return "committed"
	case ReportAlreadyCommitted:
		return "already committed"
	case ReportNotSpawned:
		return "not spawned"
	case ReportOfPreviousLife:
		return "report of a previous life"
	case ReportOfFutureLife:
		return "report of a life never granted"
	}
	return "report verdict(" + itoa(int(v)) + ")"
}

// CountVerdict is what World.CountDeath did with a death counted by the server.
type CountVerdict uint8

// The verdicts of a counted death.
const (
	// CountWaiting: the wait for the victim's report started; the deadline is set.
	CountWaiting CountVerdict = iota + 1
	// CountEarlierDeadline: a second count with an earlier deadline; the wait now ends
	// then, and its killer and cause apply.
	CountEarlierDeadline
	// CountKeptDeadline: a second count whose deadline is not earlier; nothing changes.
	CountKeptDeadline
	// CountAlreadyCommitted: the life's death is already committed; not committed again.
	CountAlreadyCommitted
	// CountNotSpawned: the player never spawned; nothing counted.
	CountNotSpawned
	// CountBeforeFirstFrame: the respawn is granted but no living frame confirmed the life
	// yet; nothing counted (the vitals package starts counting at the first frame).
	CountBeforeFirstFrame
)

// String returns the verdict's name.
func (v CountVerdict) String() string {
	switch v {
	case CountWaiting:
		return "waiting for the report"
	case CountEarlierDeadline:
		return "earlier deadline"
	case CountKeptDeadline:
		return "deadline kept"
	case CountAlreadyCommitted:
		return "already committed"
	case CountNotSpawned:
		return "not spawned"
	case CountBeforeFirstFrame:
		return "before the first frame"
	}
	return "count verdict(" + itoa(int(v)) + ")"
}

// RequestVerdict is what World.RespawnRequest decided.
type RequestVerdict uint8

// The verdicts of a respawn request.
const (
	// RequestGranted: a fresh grant; a new generation starts (see Grant).
	RequestGranted RequestVerdict = iota + 1
	// RequestRegranted: a repeated request before the first living frame; the same
	// RespawnPlayer again, same generation.
	RequestRegranted
	// RequestTooEarly: the policy's moment has not come (Grant.At says when); the request
	// is remembered and Advance grants at that moment.
	RequestTooEarly
	// RequestHeld: the gamemode holds this respawn until it decides again.
	RequestHeld
	// RequestAwaitingZero: the server committed the death itself and the victim has not
	// acknowledged its SetHealth(0) yet.
	RequestAwaitingZero
	// RequestNotDead: the server holds the player alive (or dying: the death is not
	// committed yet); nothing to grant.
	RequestNotDead
	// RequestOfPreviousLife: the request names a life older than the one it could respawn
	// from; ignored.
	RequestOfPreviousLife
	// RequestOfFutureLife: the request names a life the server never granted; ignored.
	RequestOfFutureLife
)

// String returns the verdict's name.
func (v RequestVerdict) String() string {
	switch v {
	case RequestGranted:
		return "granted"
	case RequestRegranted:
		return "regranted"
	case RequestTooEarly:
		return "too early"
	case RequestHeld:
		return "held by the gamemode"
	case RequestAwaitingZero:
		return "awaiting the acknowledgement of the zero"
	case RequestNotDead:
		return "not dead"
	case RequestOfPreviousLife:
		return "request of a previous life"
	case RequestOfFutureLife:
		return "request of a life never granted"
	}
	return "request verdict(" + itoa(int(v)) + ")"
}

// Granted reports whether the host sends a RespawnPlayer (RequestGranted or
// RequestRegranted).
func (v RequestVerdict) Granted() bool { return v == RequestGranted || v == RequestRegranted }
