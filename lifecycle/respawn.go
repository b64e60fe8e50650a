package lifecycle

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
)

type decisionKind uint8

const (
	decideDefault decisionKind = iota
	decideAt
	decideHold
)

// Decision is the gamemode's respawn decision for one death (or for the connect spawn).
// The zero value is the core default: no earlier than Config.RespawnDelay after the commit
// (at once for the connect spawn), at the player's standing spawn point. Build others with
// AllowAt, Hold and AtPoint:
//
//	lifecycle.AllowAt(now + 10*time.Second)            // later than the default
//	lifecycle.AllowAt(0).AtPoint(p)                     // at once, at p
//	lifecycle.Decision{}.AtPoint(p)                     // default delay, at p
//	lifecycle.Hold()                                    // until the gamemode decides again
//
// A decision lasts until the grant (or until another decision replaces it); the next death
// starts from the default again.
type Decision struct {
	kind     decisionKind
	at       time.Duration
	point    SpawnPoint
	hasPoint bool
}

// AllowAt allows the respawn from the moment at on (a moment already past allows it at
// once).
func AllowAt(at time.Duration) Decision { return Decision{kind: decideAt, at: at} }

// Hold holds the respawn until the gamemode decides again (AllowAt releases it).
func Hold() Decision { return Decision{kind: decideHold} }

// AtPoint returns d with the respawn at p instead of the standing spawn point.
func (d Decision) AtPoint(p SpawnPoint) Decision {
	d.point, d.hasPoint = p, true
	return d
}

// String returns a stable text form.
func (d Decision) String() string {
	var s string
	switch d.kind {
	case decideAt:
		s = "allow at " + d.at.String()
	case decideHold:
		s = "hold"
	default:
		s = "default"
	}
	if d.hasPoint {
		s += " at " + d.point.String()
	}
	return s
}

// DecideRespawn sets the gamemode's decision for the respawn out of life gen of h: for the
// death of that life (after its player_death), or for the connect spawn (before the first
// grant; gen is then not checked: there is only one spawn to decide). It replaces an earlier
// decision; a request already waiting is granted by the next Advance (or request) once the
// decision allows it.
//
// Errors (nothing changes): ErrUnknownPlayer, ErrStaleToken, ErrBadPoint, ErrNotDead (the
// player has no committed death or pending connect spawn), ErrWrongGeneration.
//
// Rules: [respawn-delay].
func (w *World) DecideRespawn(h Handle, gen Generation, d Decision) error {
	s, err := w.lookup(h)
	if err != nil {
		return fmt.Errorf("%w: %v", err, h)
	}
	if d.hasPoint && !d.point.valid() {
		return fmt.Errorf("%w: %v", ErrBadPoint, d.point)
	}
	if s.phase != PhaseDead && s.phase != PhaseUnspawned {
		return fmt.Errorf("%w: %v is %v", ErrNotDead, h, s.phase)
	}
	if s.phase == PhaseDead && gen != s.gen {
		return fmt.Errorf("%w: decided for life %d, current %d", ErrWrongGeneration, gen, s.gen)
	}
	s.decision = d
	return nil
}

// RespawnRequest takes h's RespawnRequest for the life gen it is dead in. The client
// repeats it on a timer; repeating is safe. The connect spawn is asked for the same way; its
// generation is not checked (the client learns its generation from its first RespawnPlayer,
// and a connection has only one first spawn to ask for).
//
//   - Dead (or unspawned) in life gen: the request is remembered; if the policy allows it
//     now, it is granted (RequestGranted: new generation, new point, ResetCombat). If not,
//     the verdict says why (RequestTooEarly with Grant.At, RequestHeld,
//     RequestAwaitingZero) and Advance grants as soon as it is allowed.
//   - Granted out of life gen and not yet confirmed by a living frame: the same grant again
//     (RequestRegranted, same generation, same point), so a lost RespawnPlayer heals. For
//     the connect spawn every request before the first living frame is such a repeat,
//     whatever generation it names (also the granted one, life 0 after a wrap).
//   - Alive or dying in life gen: RequestNotDead. Another life: RequestOfPreviousLife or
//     RequestOfFutureLife. Nothing changes.
//
// The policy: the gamemode's Decision for that death, else the core default (no earlier
// than Config.RespawnDelay after the commit; the connect spawn at once unless
// Config.HoldConnectSpawn); never before the victim acknowledged the SetHealth(0) of a
// death the server committed itself.
//
// Errors (nothing changes): ErrUnknownPlayer, ErrStaleToken, ErrBadTime (a negative now).
//
// Rules: [respawn-idempotent].
func (w *World) RespawnRequest(now time.Duration, h Handle, gen Generation) (Grant, error) {
	s, err := w.lookup(h)
	if err != nil {
		return Grant{}, fmt.Errorf("%w: %v", err, h)
	}
	if now < 0 {
		return Grant{}, badNow(now)
	}
	g := Grant{Subject: h}
	if s.phase == PhaseRespawning {
		switch {
		// A connect spawn's client does not know its generation before its first
		// RespawnPlayer, so whatever it names is a repeat, including the granted life
		// itself when the id's generations wrapped to life 0.
		case gen.Next() == s.gen, s.connect:
			g.Verdict = RequestRegranted
			g.Respawn = RespawnPlayer{Gen: s.gen, Point: s.point}
			g.Connect = s.connect
		case gen == s.gen:
			g.Verdict = RequestNotDead
		case revision.Older(uint16(gen), uint16(s.gen)):
			g.Verdict = RequestOfPreviousLife
		default:
			g.Verdict = RequestOfFutureLife
		}
		return g, nil
	}
	if s.phase != PhaseUnspawned {
		switch revision.Compare(uint16(gen), uint16(s.gen)) {
		case revision.Before:
			g.Verdict = RequestOfPreviousLife
			return g, nil
		case revision.After, revision.Unordered:
			g.Verdict = RequestOfFutureLife
			return g, nil
		}
	}
	if s.phase == PhaseAlive || s.phase == PhaseDying {
		g.Verdict = RequestNotDead
		return g, nil
	}
	at, v := w.readiness(s)
	if v == RequestGranted && at <= now {
		return w.grant(h.ID, s), nil
	}
	s.requested = true
	w.reschedule(h.ID, s)
	if v == RequestGranted {
		v = RequestTooEarly
		g.At = at
	}
	g.Verdict = v
	return g, nil
}

// readiness returns when the policy allows the respawn of a dead or unspawned s
// (RequestGranted and the moment), or why it does not (RequestHeld, RequestAwaitingZero).
func (w *World) readiness(s *slot) (time.Duration, RequestVerdict) {
	if s.zeroPending {
		return 0, RequestAwaitingZero
	}
	switch s.decision.kind {
	case decideHold:
		return 0, RequestHeld
	case decideAt:
		return s.decision.at, RequestGranted
	}
	if s.phase == PhaseUnspawned {
		if w.cfg.HoldConnectSpawn {
			return 0, RequestHeld
		}
		return s.joinedAt, RequestGranted
	}
	return s.committedAt + w.cfg.RespawnDelay, RequestGranted
}

// grant starts the next life of a dead or unspawned s.
func (w *World) grant(id PlayerID, s *slot) Grant {
	point := s.standing
	if s.decision.hasPoint {
		point = s.decision.point
	}
	connect := s.phase == PhaseUnspawned
	s.gen = s.gen.Next()
	s.phase = PhaseRespawning
	s.point = point
	s.connect = connect
	s.requested = false
	s.decision = Decision{}
	s.zeroPending = false
	s.pose = PoseDefault
	s.killer, s.cause, s.deadline = Handle{}, 0, 0
	w.reschedule(id, s)
	h := Handle{ID: id, Token: s.token}
	return Grant{
		Verdict:     RequestGranted,
		Subject:     h,
		Respawn:     RespawnPlayer{Gen: s.gen, Point: point},
		Spawned:     PlayerSpawned{Subject: id, Token: s.token, Gen: s.gen, SyncSeq: s.relaySeq, Point: point},
		ResetCombat: true,
		Connect:     connect,
	}
}
