package lifecycle

import (
	"strconv"
	"time"
)

// PlayerWasted is the death edge. The host sends it as a CRITICAL message on the reliable
// lane (never dropped when the recipient's queue is full) to every connection that has the
// subject streamed in at that moment, and not to the subject, whose game already played
// its death. A connection that does not see the subject gets nothing; its next show builds
// the copy from a Snapshot.
type PlayerWasted struct {
	// Subject is the dead player.
	Subject PlayerID
	// Token is the subject's connection: a receiver whose copy has another token ignores
	// the edge (see Copy.ApplyWasted).
	Token Token
	// Gen is the generation of the life that ended.
	Gen Generation
	// Pose is the death animation the corpse shows, always on the list.
	Pose Pose
}

// String returns a stable text form for logs and tests.
func (e PlayerWasted) String() string {
	return "PlayerWasted{player " + itoa(int(e.Subject)) + " token " + utoa(uint32(e.Token)) +
		" life " + itoa(int(e.Gen)) + " pose " + e.Pose.String() + "}"
}

// PlayerSpawned is the respawn edge. The host sends it as a CRITICAL message on the
// reliable lane to every connection that has the subject streamed in at the moment of the
// grant (not to the subject, which gets RespawnPlayer). A receiver rebuilds its copy of the
// subject at Point instead of reviving the corpse in place.
type PlayerSpawned struct {
	// Subject is the respawned player.
	Subject PlayerID
	// Token is the subject's connection (see PlayerWasted.Token).
	Token Token
	// Gen is the generation of the new life.
	Gen Generation
	// SyncSeq is the frame barrier: the relay sequence number (Stamp.Seq) that the first
	// relayed frame of the new life carries. Every frame of the subject relayed before the
	// grant has an older sequence, every frame relayed after it is a frame of the new life
	// with SyncSeq or newer. A receiver drops a relayed frame whose Seq is older than
	// SyncSeq (16-bit serial arithmetic), so a late frame of the corpse never moves the new
	// copy (see Copy.AcceptFrame).
	SyncSeq uint16
	// Point is where the new life starts.
	Point SpawnPoint
}

// String returns a stable text form for logs and tests.
func (e PlayerSpawned) String() string {
	return "PlayerSpawned{player " + itoa(int(e.Subject)) + " token " + utoa(uint32(e.Token)) +
		" life " + itoa(int(e.Gen)) + " sync_seq " + itoa(int(e.SyncSeq)) + " at " + e.Point.String() + "}"
}

// RespawnPlayer goes to the respawning player only, on the reliable lane: revive at Point
// as generation Gen. A repeated RespawnRequest before the first living frame gets the very
// same RespawnPlayer again, so a lost one heals itself; the client applies it only if Gen
// is newer than its own, or if it is the first of its connection (see ShouldRespawn).
type RespawnPlayer struct {
	// Gen is the generation of the new life.
	Gen Generation
	// Point is where the player revives.
	Point SpawnPoint
}

// String returns a stable text form for logs and tests.
func (r RespawnPlayer) String() string {
	return "RespawnPlayer{life " + itoa(int(r.Gen)) + " at " + r.Point.String() + "}"
}

//go:generate go tool stringer -type=CommitSource,DueKind -linecomment

// CommitSource says who committed a death.
type CommitSource uint8

// The ways a death is committed.
const (
	// CommitByReport: the victim's DeathReport, with its pose.
	CommitByReport CommitSource = iota + 1 // by report
	// CommitByServer: the deadline of a counted death passed without a report; default pose,
	// and a critical SetHealth(0) goes to the victim.
	CommitByServer // by server
	// CommitOnLeave: the victim left while the server waited for its report; it leaves
	// dead, with the default pose.
	CommitOnLeave // on leave
)

// DeathEvent is the gamemode event player_death, raised once per life on its commit.
type DeathEvent struct {
	// Victim and VictimToken name the dead player's connection.
	Victim      PlayerID
	VictimToken Token
	// Gen is the generation of the life that ended.
	Gen Generation
	// Killer is the player of the last damage (from vitals, through Count or Blame), or
	// NoPlayer. If the killer's connection ended before the commit, Killer is NoPlayer and
	// KillerLeft is true: the id may already belong to somebody else.
	Killer PlayerID
	// KillerLeft is true when the killer's connection ended before the commit.
	KillerLeft bool
	// Cause is the weapon or cause id (see ValidCause).
	Cause uint8
	// Pose is the pose sent in PlayerWasted.
	Pose Pose
	// Source says who committed the death.
	Source CommitSource
	// At is the moment of the commit.
	At time.Duration
}

// String returns a stable text form for logs and tests.
func (e DeathEvent) String() string {
	killer := "none"
	if e.Killer != NoPlayer {
		killer = itoa(int(e.Killer))
	} else if e.KillerLeft {
		killer = "left"
	}
	return "player_death{victim " + itoa(int(e.Victim)) + " life " + itoa(int(e.Gen)) +
		" killer " + killer + " cause " + itoa(int(e.Cause)) + " pose " + e.Pose.String() +
		" " + e.Source.String() + "}"
}

// SpawnEvent is the gamemode event player_spawn, raised on the first living frame of a
// life (the connect spawn included).
type SpawnEvent struct {
	// Player and Token name the spawned player's connection.
	Player PlayerID
	Token  Token
	// Gen is the generation of the life that began.
	Gen Generation
	// Point is the point of its grant.
	Point SpawnPoint
	// Connect is true for the first life of the connection (the connect spawn).
	Connect bool
	// At is the moment of the first living frame.
	At time.Duration
}

// String returns a stable text form for logs and tests.
func (e SpawnEvent) String() string {
	s := "player_spawn{player " + itoa(int(e.Player)) + " life " + itoa(int(e.Gen))
	if e.Connect {
		s += " connect"
	}
	return s + "}"
}

// Commit is a committed death and everything the host must carry out for it:
//
//   - send Wasted, CRITICAL, to the subject's observers (not to the subject);
//   - raise Death (player_death) to the gamemode;
//   - if SendZero, send a CRITICAL SetHealth(0) to the victim (the host creates it with the
//     vitals package's revision), and report the client's acknowledgement of it through
//     World.ZeroAcknowledged: the respawn is not granted before.
type Commit struct {
	// Subject is the dead player's connection.
	Subject Handle
	// Source says who committed the death.
	Source CommitSource
	// Wasted goes, CRITICAL, to the subject's observers.
	Wasted PlayerWasted
	// Death is raised as player_death.
	Death DeathEvent
	// SendZero asks for a CRITICAL SetHealth(0) to the victim (server commits only).
	SendZero bool
}

// String returns a stable text form for logs and tests.
func (c Commit) String() string {
	s := "commit " + c.Source.String() + ": " + c.Wasted.String() + " " + c.Death.String()
	if c.SendZero {
		s += " + critical SetHealth(0) to the victim"
	}
	return s
}

// Grant is the answer to a RespawnRequest (or a grant that came due in Advance).
//
// For RequestGranted the host must: send Respawn to the subject; send Spawned, CRITICAL,
// to the subject's observers; and, since ResetCombat is set, reset the combat correlation
// of the old life (its pending shots and credits), clear the inventory and start a new
// vitals life. For RequestRegranted it sends Respawn again and nothing else. For every
// other verdict nothing is sent (the client repeats its request on its timer).
type Grant struct {
	// Verdict says whether the respawn was granted, and if not, why.
	Verdict RequestVerdict
	// Subject is the requesting player's connection.
	Subject Handle
	// At is, for RequestTooEarly, the earliest moment of the grant; Advance grants then by
	// itself.
	At time.Duration
	// Respawn is valid for RequestGranted and RequestRegranted.
	Respawn RespawnPlayer
	// Spawned is valid for RequestGranted.
	Spawned PlayerSpawned
	// ResetCombat is true for RequestGranted: a shot or credit of the previous life must not
	// carry over.
	ResetCombat bool
	// Connect is true when the grant is the connect spawn (the first life).
	Connect bool
}

// String returns a stable text form for logs and tests.
func (g Grant) String() string {
	switch g.Verdict {
	case RequestGranted:
		s := "granted " + g.Respawn.String() + " " + g.Spawned.String()
		if g.ResetCombat {
			s += " reset combat"
		}
		return s
	case RequestRegranted:
		return "regranted " + g.Respawn.String()
	case RequestTooEarly:
		return "not before " + g.At.String()
	}
	return g.Verdict.String()
}

// DueKind says what came due in Advance.
type DueKind uint8

// What Advance can return.
const (
	// DueCommit: a counted death's deadline passed without a report; Commit is valid.
	DueCommit DueKind = iota + 1 // commit
	// DueGrant: a requested respawn became allowed; Grant is valid.
	DueGrant // grant
)

// Due is one thing that came due in Advance.
type Due struct {
	// Kind says which of Commit and Grant is valid.
	Kind DueKind
	// Commit is valid for DueCommit.
	Commit Commit
	// Grant is valid for DueGrant (always RequestGranted).
	Grant Grant
}

// String returns a stable text form for logs and tests.
func (d Due) String() string {
	if d.Kind == DueCommit {
		return d.Commit.String()
	}
	return d.Grant.String()
}

func itoa(i int) string    { return strconv.Itoa(i) }
func utoa(u uint32) string { return strconv.FormatUint(uint64(u), 10) }
