package lifecycle

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
)

// The wait for the victim's report of a death the server counted ([report-wait]): ReportWaitBase + 2 x min(RTT, MaxCountedRTT), plus StealthKillExtra for a
// stealth kill, from the moment the server counted the death.
const (
	// ReportWaitBase is the fixed part of the wait.
	ReportWaitBase = time.Second
	// MaxCountedRTT is the largest round-trip time the wait counts.
	MaxCountedRTT = time.Second
	// StealthKillExtra is added for a stealth kill: its paired animation can take this long
	// to start on the victim's game.
	StealthKillExtra = 10 * time.Second
)

// ReportDeadline returns the moment the server commits a death it counted at `at` if no
// DeathReport came: at + 2 x min(rtt, MaxCountedRTT) + ReportWaitBase (+ StealthKillExtra).
// A negative rtt counts as 0. The sum is not checked: for an at less than the wait (at most
// 13 s) below the largest Duration it wraps, and CountDeath refuses such an at (ErrBadTime).
//
// Rules: [report-wait].
func ReportDeadline(at, rtt time.Duration, stealth bool) time.Duration {
	rtt = min(max(rtt, 0), MaxCountedRTT)
	d := at + 2*rtt + ReportWaitBase
	if stealth {
		d += StealthKillExtra
	}
	return d
}

// Count is a death the server counted itself, as the vitals package decides it (the
// ledger's health reached 0 by a report, a frame or set_health(0); an accepted vehicle
// explosion for an occupant; an accepted stealth kill).
type Count struct {
	// At is the moment the server counted the death.
	At time.Duration
	// Killer is the connection of the last damage; the zero Handle for none.
	Killer Handle
	// Cause is the weapon or cause of the last damage (see ValidCause).
	Cause uint8
	// Stealth is true for a stealth kill (the wait is StealthKillExtra longer).
	Stealth bool
}

// CountResult is the outcome of World.CountDeath.
type CountResult struct {
	// Verdict says what the count did.
	Verdict CountVerdict
	// Deadline is the deadline that applies (for CountWaiting, CountEarlierDeadline and
	// CountKeptDeadline).
	Deadline time.Duration
}

// CountDeath starts the wait for h's DeathReport of a death the server counted. rtt is h's
// round-trip time as the rewind package measures it; it counts up to MaxCountedRTT.
//
// Nothing cancels the wait (leaving the vehicle after an accepted explosion does not): it
// ends with the victim's report in time (ReportDeath), with the server's own commit when
// the deadline passes (Advance), or with the commit on Leave. Of two counted deaths the
// earlier deadline applies, with its killer and cause. A death already committed is not
// committed again (CountAlreadyCommitted).
//
// Errors (nothing changes): ErrUnknownPlayer, ErrStaleToken, ErrBadRTT, ErrBadTime,
// ErrBadCause, ErrBadPlayerID (a killer id out of range).
//
// Rules: [report-wait].
func (w *World) CountDeath(h Handle, c Count, rtt time.Duration) (CountResult, error) {
	s, err := w.lookup(h)
	if err != nil {
		return CountResult{}, fmt.Errorf("%w: %v", err, h)
	}
	if rtt < 0 {
		return CountResult{}, fmt.Errorf("%w: %v", ErrBadRTT, rtt)
	}
	if c.At < 0 {
		return CountResult{}, fmt.Errorf("%w: counted at %v", ErrBadTime, c.At)
	}
	// The wait adds at most a few seconds; a sum that wrapped past the largest Duration is
	// smaller than c.At, and would otherwise commit at once.
	deadline := ReportDeadline(c.At, rtt, c.Stealth)
	if deadline < c.At {
		return CountResult{}, fmt.Errorf("%w: counted at %v, its deadline overflows", ErrBadTime, c.At)
	}
	if !ValidCause(c.Cause) {
		return CountResult{}, fmt.Errorf("%w: %d", ErrBadCause, c.Cause)
	}
	if !w.killerInRange(c.Killer) {
		return CountResult{}, fmt.Errorf("%w: killer %d", ErrBadPlayerID, c.Killer.ID)
	}
	switch s.phase {
	case PhaseUnspawned:
		return CountResult{Verdict: CountNotSpawned}, nil
	case PhaseRespawning:
		return CountResult{Verdict: CountBeforeFirstFrame}, nil
	case PhaseDead:
		return CountResult{Verdict: CountAlreadyCommitted}, nil
	case PhaseDying:
		if deadline >= s.deadline {
			return CountResult{Verdict: CountKeptDeadline, Deadline: s.deadline}, nil
		}
		s.deadline, s.killer, s.cause = deadline, c.Killer, c.Cause
		return CountResult{Verdict: CountEarlierDeadline, Deadline: deadline}, nil
	}
	s.phase = PhaseDying
	s.deadline, s.killer, s.cause = deadline, c.Killer, c.Cause
	w.reschedule(h.ID, s)
	return CountResult{Verdict: CountWaiting, Deadline: deadline}, nil
}

// DeathReport is the victim's own report of its death (sent on its reliable lane).
type DeathReport struct {
	// Gen is the life the report is about: the client's generation when it died.
	Gen Generation
	// Means is the weapon or cause the victim's game names. It is not trusted: it names the
	// cause only when the server knows none (no count, no last damage), and a value off the
	// cause list becomes CauseUnknown.
	Means uint8
	// Pose is the death animation. A pose the game cannot produce becomes PoseDefault.
	Pose Pose
}

// Blame is the server's attribution of a death from the last damage (vitals), for a death
// reported before the server counted it. A counted death uses its Count instead. With no
// damage on record it is Blame{Cause: CauseUnknown}: no killer, and the report's Means
// names the cause.
type Blame struct {
	// Killer is the connection of the last damage; the zero Handle for none.
	Killer Handle
	// Cause is the weapon or cause of the last damage (CauseUnknown if none).
	Cause uint8
}

// DeathResult is the outcome of World.ReportDeath.
type DeathResult struct {
	// Verdict says whether the report committed the death, and if not, why.
	Verdict ReportVerdict
	// Commit is valid for ReportCommitted.
	Commit Commit
	// PoseReplaced is true when the report's pose was not on the list and PoseDefault was
	// committed instead.
	PoseReplaced bool
	// Confirmed is true when the report confirmed a granted life whose living frames had
	// not arrived (the client revived and died before any of them got through): Spawn is
	// then valid and player_spawn is raised before player_death.
	Confirmed bool
	// Spawn is valid when Confirmed.
	Spawn SpawnEvent
}

// ReportDeath takes h's DeathReport. A fresh commit (once per life, only for a spawned
// player the server holds alive in the life the report names) sends PlayerWasted with the
// report's pose to the observers and raises player_death; nothing goes to the victim. The killer and
// cause are the server's: those of the counted death if the server counted it, else blame
// (the vitals package's last damage), else the report's Means with no killer.
//
// A report of a life whose death is already committed (by an earlier report, by the
// server's deadline, by the ledger) commits nothing (ReportAlreadyCommitted). A report of a
// previous life (a late one, or one that arrives while the player is respawning) is
// ignored. A report of the granted life itself, while its first living frame has not
// arrived, proves the life began: it is confirmed (player_spawn) and the death committed;
// otherwise an honest client killed before any of its frames got through would be left
// dead with no way back (its requests name a life the server never saw end).
//
// Errors (nothing changes): ErrUnknownPlayer, ErrStaleToken, ErrBadTime (a negative now),
// ErrBadCause and ErrBadPlayerID (a blame out of range).
//
// Rules: [server-commits-death], [default-pose].
func (w *World) ReportDeath(now time.Duration, h Handle, r DeathReport, blame Blame) (DeathResult, error) {
	s, err := w.lookup(h)
	if err != nil {
		return DeathResult{}, fmt.Errorf("%w: %v", err, h)
	}
	if now < 0 {
		return DeathResult{}, badNow(now)
	}
	if !ValidCause(blame.Cause) {
		return DeathResult{}, fmt.Errorf("%w: %d", ErrBadCause, blame.Cause)
	}
	if !w.killerInRange(blame.Killer) {
		return DeathResult{}, fmt.Errorf("%w: killer %d", ErrBadPlayerID, blame.Killer.ID)
	}
	if s.phase == PhaseUnspawned {
		return DeathResult{Verdict: ReportNotSpawned}, nil
	}
	switch revision.Compare(uint16(r.Gen), uint16(s.gen)) {
	case revision.Before:
		return DeathResult{Verdict: ReportOfPreviousLife}, nil
	case revision.After, revision.Unordered:
		return DeathResult{Verdict: ReportOfFutureLife}, nil
	}
	if s.phase == PhaseDead {
		return DeathResult{Verdict: ReportAlreadyCommitted}, nil
	}

	var res DeathResult
	if s.phase == PhaseRespawning {
		s.phase = PhaseAlive
		res.Confirmed = true
		res.Spawn = SpawnEvent{Player: h.ID, Token: s.token, Gen: s.gen, Point: s.point, Connect: s.connect, At: now}
	}
	pose := r.Pose.OrDefault()
	res.PoseReplaced = pose != r.Pose
	means := r.Means
	if !ValidCause(means) {
		means = CauseUnknown
	}
	killer, cause := blame.Killer, blame.Cause
	if s.phase == PhaseDying {
		killer, cause = s.killer, s.cause
	}
	if cause == CauseUnknown {
		cause = means
	}
	res.Verdict = ReportCommitted
	res.Commit = w.commit(now, h.ID, s, CommitByReport, pose, killer, cause)
	return res, nil
}

// killerInRange reports whether k is no killer or an id of this World (the killer's
// connection may have ended since: that is not an error, see DeathEvent.KillerLeft).
func (w *World) killerInRange(k Handle) bool {
	return k.none() || int(k.ID) < len(w.slots)
}

// commit makes s dead and returns what the host must carry out. The caller has validated
// everything.
func (w *World) commit(now time.Duration, id PlayerID, s *slot, src CommitSource, pose Pose, killer Handle, cause uint8) Commit {
	s.phase = PhaseDead
	s.pose = pose
	s.committedAt = now
	s.zeroPending = src == CommitByServer
	s.requested = false
	s.decision = Decision{}
	w.reschedule(id, s)

	ev := DeathEvent{
		Victim:      id,
		VictimToken: s.token,
		Gen:         s.gen,
		Killer:      NoPlayer,
		Cause:       cause,
		Pose:        pose,
		Source:      src,
		At:          now,
	}
	switch {
	case killer.none():
	case w.current(killer):
		ev.Killer = killer.ID
	default:
		ev.KillerLeft = true
	}
	return Commit{
		Subject:  Handle{ID: id, Token: s.token},
		Source:   src,
		Wasted:   PlayerWasted{Subject: id, Token: s.token, Gen: s.gen, Pose: pose},
		Death:    ev,
		SendZero: src == CommitByServer,
	}
}

// ZeroAcknowledged reports that h's client acknowledged the critical SetHealth(0) the host
// sent for the server's commit of life gen. Until then the respawn is not granted: a zero
// arriving late would kill the new life. Errors (nothing changes): ErrUnknownPlayer,
// ErrStaleToken, ErrWrongGeneration (not the current life), ErrNoZeroPending.
func (w *World) ZeroAcknowledged(h Handle, gen Generation) error {
	s, err := w.lookup(h)
	if err != nil {
		return fmt.Errorf("%w: %v", err, h)
	}
	if gen != s.gen {
		return fmt.Errorf("%w: acknowledged life %d, current %d", ErrWrongGeneration, gen, s.gen)
	}
	if s.phase != PhaseDead || !s.zeroPending {
		return fmt.Errorf("%w: %v life %d", ErrNoZeroPending, h, gen)
	}
	s.zeroPending = false
	return nil
}
