package lifecycle

import (
	"math"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
)

// Claim is what the client itself put into its frame about its life. The server reads it
// only to recognise the first living frame of a granted life and to drop frames of another
// life; it never relays it.
type Claim struct {
	// Alive is the client's own alive bit.
	Alive bool
	// Gen is the client's own generation (death_epoch).
	Gen Generation
}

// Stamp is what the server writes into a relayed frame in place of the client's values.
type Stamp struct {
	// Alive is the server's alive: false from the commit of a death to the next grant.
	Alive bool
	// Gen is the server's generation of the subject.
	Gen Generation
	// Seq is the subject's relay sequence: one step per relayed frame, across lives and
	// across connections on the same id. Receivers keep the newest and use
	// PlayerSpawned.SyncSeq (or Snapshot.SyncSeq) as the barrier.
	Seq uint16
	// Health is the health to relay: never at or below 0 while the server holds the player
	// alive (such a value is relayed as 1), always 0 while it holds the player dead.
	Health float32
}

// FrameResult is the outcome of World.Frame.
type FrameResult struct {
	// Verdict says whether to relay the frame.
	Verdict FrameVerdict
	// Stamp is valid when Verdict.Relay().
	Stamp Stamp
	// Spawn is valid for FrameFirstOfLife: raise player_spawn.
	Spawn SpawnEvent
}

// Frame takes one frame of h that the host is about to relay (after its own checks of the
// frame's order and content) and returns the stamp to relay it with. It is the hot path: it
// does not allocate.
//
// claim is the client's own alive and generation; health is the health the relay will
// carry (the vitals ledger's value, not the client's).
//
//   - The relayed alive and generation are the server's, never the client's: a client
//     cannot revive itself through its frame, and a frame with alive = 0 commits nothing.
//   - A frame whose generation is not the server's is dropped: a late frame of the
//     previous life (it would put the new copy back at the corpse) or a generation the
//     server never granted.
//   - While the server holds the player alive, a health at or below 0 is relayed as 1:
//     nobody sees a living player at zero without a death edge. A dead player is relayed
//     at 0.
//   - After a grant, the first frame that is living and of the granted generation confirms
//     the life (FrameFirstOfLife with the SpawnEvent); frames of the old life are dropped
//     until then, so every frame relayed after the grant carries SyncSeq or newer.
//
// Errors (nothing changes; unwrapped, so that a refusal costs no allocation):
// ErrUnknownPlayer, ErrStaleToken, ErrBadTime (a negative now), ErrBadHealth.
//
// Rules: [server-commits-death], [death-epoch], [first-living-frame].
func (w *World) Frame(now time.Duration, h Handle, claim Claim, health float32) (FrameResult, error) {
	s, err := w.lookup(h)
	if err != nil {
		return FrameResult{}, err
	}
	if now < 0 {
		return FrameResult{}, ErrBadTime
	}
	if math.IsNaN(float64(health)) || math.IsInf(float64(health), 0) {
		return FrameResult{}, ErrBadHealth
	}
	var r FrameResult
	switch s.phase {
	case PhaseUnspawned:
		return FrameResult{Verdict: FrameNotSpawned}, nil
	case PhaseRespawning:
		if v := genVerdict(claim.Gen, s.gen); v != 0 {
			return FrameResult{Verdict: v}, nil
		}
		if !claim.Alive {
			return FrameResult{Verdict: FrameAwaitingLife}, nil
		}
		s.phase = PhaseAlive
		r.Verdict = FrameFirstOfLife
		r.Spawn = SpawnEvent{Player: h.ID, Token: s.token, Gen: s.gen, Point: s.point, Connect: s.connect, At: now}
	default:
		if v := genVerdict(claim.Gen, s.gen); v != 0 {
			return FrameResult{Verdict: v}, nil
		}
		r.Verdict = FrameRelayed
	}
	r.Stamp = Stamp{Alive: s.phase.Alive(), Gen: s.gen, Seq: s.relaySeq, Health: health}
	if !r.Stamp.Alive {
		r.Stamp.Health = 0
	} else if health <= 0 {
		r.Stamp.Health = 1
	}
	s.relaySeq++
	return r, nil
}

// genVerdict returns 0 when the frame's generation is the server's, else why it is dropped.
func genVerdict(claimed, server Generation) FrameVerdict {
	switch revision.Compare(uint16(claimed), uint16(server)) {
	case revision.Equal:
		return 0
	case revision.Before:
		return FrameOfPreviousLife
	}
	return FrameOfFutureLife
}
