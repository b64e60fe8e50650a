package lifecycle

import "github.com/arbitergo/arbiter/internal/revision"

// This file is the receiving side of the record: the rules a client applies to the
// lifecycle edges and relayed frames of another player. They are pure functions of their
// inputs so that the honest client model (examples/client) and tests use the very same
// rules.

//go:generate go tool stringer -type=EdgeVerdict -linecomment

// EdgeVerdict is what a receiver did with a lifecycle edge.
type EdgeVerdict uint8

// The verdicts of an edge at a receiver.
const (
	// EdgeApplied: the edge changed the copy.
	EdgeApplied EdgeVerdict = iota + 1 // applied
	// EdgeOtherPlayer: the edge carries another token than the copy: it is about another
	// connection (a departed player whose id was reused); ignored.
	EdgeOtherPlayer // other player
	// EdgeOldLife: the edge is about a life older than the copy's; ignored.
	EdgeOldLife // old life
	// EdgeDuplicate: the copy already shows what the edge says; ignored.
	EdgeDuplicate // duplicate
	// EdgeFutureLife: a death edge of a life the copy has not been shown; ignored (on an
	// ordered lane the PlayerSpawned of that life always comes first).
	EdgeFutureLife // future life
)

// Copy is a receiver's copy of another player: which connection and life it shows, whether
// alive, and the frame barrier. Build it from a Snapshot when the player is shown; feed it
// the edges and relayed frames of that player.
type Copy struct {
	// Subject and Token name the connection the copy shows.
	Subject PlayerID
	Token   Token
	// Gen is the life the copy shows.
	Gen Generation
	// Alive is false for a corpse.
	Alive bool
	// Pose is the pose of the corpse while !Alive.
	Pose Pose
	// Point is where the copy was last rebuilt.
	Point SpawnPoint
	// Floor is the oldest relay sequence still accepted: frames with an older Seq are
	// dropped. PlayerSpawned.SyncSeq sets it; each accepted frame moves it past itself.
	Floor uint16
}

// NewCopy builds a copy from the current state (a show, or a late join). No edge is
// replayed: the snapshot already is the result of all of them.
//
// Rules: [show-current-state].
func NewCopy(s Snapshot) Copy {
	return Copy{
		Subject: s.Subject,
		Token:   s.Token,
		Gen:     s.Gen,
		Alive:   s.Alive,
		Pose:    s.Pose,
		Point:   s.Point,
		Floor:   s.SyncSeq,
	}
}

// AcceptEdge is the receiver's rule for an edge about a copy showing connection copyToken in
// life copyGen: an edge of another token is never applied; an edge of an older life is
// ignored. wasted tells a PlayerWasted (which must be about the copy's own life) from a
// PlayerSpawned (which must be about a newer life). It returns EdgeApplied when the edge
// applies; copyAlive tells a duplicate death apart.
//
// Rules: [player-token].
func AcceptEdge(copyToken Token, copyGen Generation, copyAlive bool, wasted bool, edgeToken Token, edgeGen Generation) EdgeVerdict {
	if edgeToken != copyToken {
		return EdgeOtherPlayer
	}
	order := revision.Compare(uint16(edgeGen), uint16(copyGen))
	if wasted {
		switch order {
		case revision.Equal:
			if !copyAlive {
				return EdgeDuplicate
			}
			return EdgeApplied
		case revision.Before:
			return EdgeOldLife
		}
		return EdgeFutureLife
	}
	switch order {
	case revision.After:
		return EdgeApplied
	case revision.Equal:
		return EdgeDuplicate
	}
	return EdgeOldLife
}

// ApplyWasted applies a PlayerWasted: the copy dies in the edge's pose if the edge is about
// this connection and this life. Anything else leaves the copy as it was.
func (c *Copy) ApplyWasted(e PlayerWasted) EdgeVerdict {
	v := AcceptEdge(c.Token, c.Gen, c.Alive, true, e.Token, e.Gen)
	if v == EdgeApplied {
		c.Alive = false
		c.Pose = e.Pose.OrDefault()
	}
	return v
}

// ApplySpawned applies a PlayerSpawned: if it is about this connection and a newer life,
// the copy is rebuilt alive at the point, in the new generation, with the edge's SyncSeq
// as its frame barrier. Anything else leaves the copy as it was.
func (c *Copy) ApplySpawned(e PlayerSpawned) EdgeVerdict {
	v := AcceptEdge(c.Token, c.Gen, c.Alive, false, e.Token, e.Gen)
	if v == EdgeApplied {
		c.Gen = e.Gen
		c.Alive = true
		c.Pose = PoseDefault
		c.Point = e.Point
		c.Floor = e.SyncSeq
	}
	return v
}

// AcceptFrame reports whether a relayed frame with stamp s applies to the copy: it must be
// of the copy's life and not older than the barrier (the newest frame wins). An accepted
// frame moves the barrier past it. The frame's alive never kills or revives the copy: only
// edges do; it only says whether to replay input on the body.
func (c *Copy) AcceptFrame(s Stamp) bool {
	if s.Gen != c.Gen || revision.Older(s.Seq, c.Floor) {
		return false
	}
	c.Floor = revision.Next(s.Seq)
	return true
}

// ShouldRespawn is the respawning client's rule for a RespawnPlayer: apply it (revive at
// the point, take the generation) if the client never spawned in this connection (its
// first RespawnPlayer tells it its generation), or if its generation is newer than the
// client's own. A repeated RespawnPlayer of the life the client already lives in is ignored.
//
// Rules: [respawn-idempotent].
func ShouldRespawn(spawned bool, own Generation, r RespawnPlayer) bool {
	return !spawned || r.Gen.Newer(own)
}
