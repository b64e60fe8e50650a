package lifecycle

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Rule: the death is committed once per life: two reports for one life give one commit,
// one PlayerWasted, one player_death.
func TestTwoDeathReportsForOneLifeCommitOnce(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 4)
	var commits []Commit
	for i, pose := range []Pose{PoseShotFace, PoseSkidBack} {
		r, err := w.ReportDeath(time.Duration(i)*100*ms+time.Second, h, DeathReport{Gen: 1, Means: 31, Pose: pose}, noBlame)
		require.NoError(t, err)
		if r.Verdict == ReportCommitted {
			commits = append(commits, r.Commit)
		} else {
			require.Equal(t, ReportAlreadyCommitted, r.Verdict)
			require.Zero(t, r.Commit)
		}
	}
	require.Len(t, commits, 1, "one commit")
	c := commits[0]
	require.Equal(t, PlayerWasted{Subject: 4, Token: h.Token, Gen: 1, Pose: PoseShotFace}, c.Wasted, "one PlayerWasted, the first report's pose")
	require.Equal(t, DeathEvent{Victim: 4, VictimToken: h.Token, Gen: 1, Killer: NoPlayer, Cause: 31, Pose: PoseShotFace, Source: CommitByReport, At: time.Second}, c.Death)
	require.False(t, c.SendZero, "the victim reported: no zero to send")
}

// Rule: the server replaces a pose the game cannot produce with the default one.
func TestUnknownPoseIsReplacedByTheDefault(t *testing.T) {
	for p := range 256 {
		pose := Pose(p)
		w := newWorld(t, Config{})
		h := spawned(t, w, 0, 0)
		r, err := w.ReportDeath(time.Second, h, DeathReport{Gen: 1, Means: 24, Pose: pose}, noBlame)
		require.NoError(t, err)
		require.Equal(t, ReportCommitted, r.Verdict)
		if p < int(poseCount) {
			require.Equal(t, pose, r.Commit.Wasted.Pose)
			require.False(t, r.PoseReplaced)
		} else {
			require.Equal(t, PoseDefault, r.Commit.Wasted.Pose, "pose %d", p)
			require.Equal(t, PoseDefault, r.Commit.Death.Pose)
			require.True(t, r.PoseReplaced)
		}
		s, err := w.Snapshot(0)
		require.NoError(t, err)
		require.True(t, s.Pose.Valid(), "the corpse lies in a pose the game can produce")
	}
}

// Rule: the death is committed only for a spawned, living player that is not respawning.
func TestDeathIsCommittedOnlyForASpawnedLivingPlayerNotRespawning(t *testing.T) {
	t.Run("unspawned", func(t *testing.T) {
		w := newWorld(t, Config{})
		h, err := w.Join(0, 0)
		require.NoError(t, err)
		before := capture(w)
		r, err := w.ReportDeath(time.Second, h, DeathReport{Gen: 0, Pose: PoseShotFace}, noBlame)
		require.NoError(t, err)
		require.Equal(t, ReportNotSpawned, r.Verdict)
		requireUnchanged(t, before, w)
	})
	t.Run("respawning: a late report of the old life", func(t *testing.T) {
		w := newWorld(t, Config{})
		h := spawned(t, w, 0, 0)
		reportDeath(t, w, time.Second, h, PoseDefault)
		g, err := w.RespawnRequest(5*time.Second, h, 1)
		require.NoError(t, err)
		require.Equal(t, RequestGranted, g.Verdict)
		before := capture(w)
		r, err := w.ReportDeath(5*time.Second, h, DeathReport{Gen: 1, Pose: PoseShotFace}, noBlame)
		require.NoError(t, err)
		require.Equal(t, ReportOfPreviousLife, r.Verdict)
		requireUnchanged(t, before, w)
	})
	t.Run("dead", func(t *testing.T) {
		w := newWorld(t, Config{})
		h := spawned(t, w, 0, 0)
		reportDeath(t, w, time.Second, h, PoseDefault)
		before := capture(w)
		r, err := w.ReportDeath(2*time.Second, h, DeathReport{Gen: 1, Pose: PoseShotFace}, noBlame)
		require.NoError(t, err)
		require.Equal(t, ReportAlreadyCommitted, r.Verdict)
		requireUnchanged(t, before, w)
	})
	t.Run("a life never granted", func(t *testing.T) {
		w := newWorld(t, Config{})
		h := spawned(t, w, 0, 0)
		before := capture(w)
		for _, g := range []Generation{2, 0x8001} {
			r, err := w.ReportDeath(time.Second, h, DeathReport{Gen: g}, noBlame)
			require.NoError(t, err)
			require.Equal(t, ReportOfFutureLife, r.Verdict)
			requireUnchanged(t, before, w)
		}
	})
	t.Run("a previous life while alive", func(t *testing.T) {
		w := newWorld(t, Config{})
		h := spawned(t, w, 0, 0)
		reportDeath(t, w, time.Second, h, PoseDefault)
		respawn(t, w, 5*time.Second, h)
		before := capture(w)
		r, err := w.ReportDeath(6*time.Second, h, DeathReport{Gen: 1}, noBlame)
		require.NoError(t, err)
		require.Equal(t, ReportOfPreviousLife, r.Verdict)
		requireUnchanged(t, before, w)
	})
}

// Rule (our decision): a report of the granted life that arrives before any living frame
// of it proves the life began: confirmed (player_spawn) and committed, so an honest client
// killed before its first frame got through is not left without a respawn.
func TestReportOfTheGrantedLifeBeforeItsFirstFrameConfirmsAndCommits(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	reportDeath(t, w, time.Second, h, PoseDefault)
	g, err := w.RespawnRequest(5*time.Second, h, 1)
	require.NoError(t, err)
	require.Equal(t, Generation(2), g.Respawn.Gen)
	r, err := w.ReportDeath(5100*ms, h, DeathReport{Gen: 2, Means: CauseExplosion, Pose: PoseKnockedLeft}, noBlame)
	require.NoError(t, err)
	require.Equal(t, ReportCommitted, r.Verdict)
	require.True(t, r.Confirmed)
	require.Equal(t, SpawnEvent{Player: 0, Token: h.Token, Gen: 2, Point: g.Respawn.Point, At: 5100 * ms}, r.Spawn)
	require.Equal(t, Generation(2), r.Commit.Wasted.Gen)
	require.Equal(t, PhaseDead, phase(t, w, h))
	// And the way back works: the next grant is life 3.
	g = respawn(t, w, 9*time.Second, h)
	require.Equal(t, Generation(3), g.Respawn.Gen)
}

// Rule: the killer and cause are the server's (from the count, or the last damage), never
// the victim's word; the victim's means names the cause only when the server knows none.
func TestKillerAndCauseAreTheServersNotTheVictims(t *testing.T) {
	w := newWorld(t, Config{})
	victim := spawned(t, w, 0, 0)
	killer := spawned(t, w, 0, 1)
	other := spawned(t, w, 0, 2)

	// Counted: the count's killer and cause win over blame and means.
	_, err := w.CountDeath(victim, Count{At: time.Second, Killer: killer, Cause: 30}, 0)
	require.NoError(t, err)
	r, err := w.ReportDeath(time.Second, victim, DeathReport{Gen: 1, Means: 4, Pose: PoseShotFace}, Blame{Killer: other, Cause: 22})
	require.NoError(t, err)
	require.Equal(t, PlayerID(1), r.Commit.Death.Killer)
	require.Equal(t, uint8(30), r.Commit.Death.Cause)

	// Not counted: the blame.
	respawn(t, w, 5*time.Second, victim)
	r, err = w.ReportDeath(6*time.Second, victim, DeathReport{Gen: 2, Means: 4}, Blame{Killer: other, Cause: 22})
	require.NoError(t, err)
	require.Equal(t, PlayerID(2), r.Commit.Death.Killer)
	require.Equal(t, uint8(22), r.Commit.Death.Cause)

	// No count, no known cause: the means, no killer; a means off the list is unknown.
	respawn(t, w, 10*time.Second, victim)
	r, err = w.ReportDeath(11*time.Second, victim, DeathReport{Gen: 3, Means: CauseDrowning}, noBlame)
	require.NoError(t, err)
	require.Equal(t, NoPlayer, r.Commit.Death.Killer)
	require.Equal(t, CauseDrowning, r.Commit.Death.Cause)
	respawn(t, w, 15*time.Second, victim)
	r, err = w.ReportDeath(16*time.Second, victim, DeathReport{Gen: 4, Means: 20}, noBlame)
	require.NoError(t, err)
	require.Equal(t, CauseUnknown, r.Commit.Death.Cause)
}

// Rule: a killer whose connection ended before the commit is not named: its id may
// already be another player's.
func TestKillerWhoLeftIsNotNamed(t *testing.T) {
	w := newWorld(t, Config{})
	victim := spawned(t, w, 0, 0)
	killer := spawned(t, w, 0, 1)
	_, err := w.CountDeath(victim, Count{At: time.Second, Killer: killer, Cause: 24}, 0)
	require.NoError(t, err)
	_, err = w.Leave(1500*ms, killer)
	require.NoError(t, err)
	spawned(t, w, 1600*ms, 1) // someone else on the killer's id
	due := w.Advance(3*time.Second, nil)
	require.Len(t, due, 1)
	require.Equal(t, NoPlayer, due[0].Commit.Death.Killer)
	require.True(t, due[0].Commit.Death.KillerLeft)
}

func TestReportDeathRefusesBadBlame(t *testing.T) {
	w := newWorld(t, Config{MaxPlayers: 8})
	h := spawned(t, w, 0, 0)
	before := capture(w)
	_, err := w.ReportDeath(time.Second, h, DeathReport{Gen: 1}, Blame{Killer: noKiller, Cause: 47})
	require.ErrorIs(t, err, ErrBadCause)
	_, err = w.ReportDeath(time.Second, h, DeathReport{Gen: 1}, Blame{Killer: Handle{ID: 8, Token: 1}, Cause: 24})
	require.ErrorIs(t, err, ErrBadPlayerID)
	requireUnchanged(t, before, w)
}

// Rule: the wait for the report is 2 x RTT + 1 s from the counted moment, RTT counted up
// to 1 s, plus 10 s for a stealth kill.
func TestReportDeadlineIsTwoRTTPlusOneSecond(t *testing.T) {
	for _, tc := range []struct {
		rtt     time.Duration
		stealth bool
		want    time.Duration
	}{
		{0, false, time.Second},
		{100 * ms, false, 1200 * ms},
		{400 * ms, false, 1800 * ms},
		{time.Second, false, 3 * time.Second},
		{5 * time.Second, false, 3 * time.Second},
		{-time.Second, false, time.Second},
		{0, true, 11 * time.Second},
		{400 * ms, true, 11800 * ms},
		{time.Hour, true, 13 * time.Second},
	} {
		at := 7 * time.Second
		require.Equal(t, at+tc.want, ReportDeadline(at, tc.rtt, tc.stealth), "rtt %v stealth %v", tc.rtt, tc.stealth)
		if tc.rtt < 0 {
			continue
		}
		w := newWorld(t, Config{})
		h := spawned(t, w, 0, 0)
		c, err := w.CountDeath(h, Count{At: at, Killer: noKiller, Cause: 4, Stealth: tc.stealth}, tc.rtt)
		require.NoError(t, err)
		require.Equal(t, CountWaiting, c.Verdict)
		require.Equal(t, at+tc.want, c.Deadline)
		require.Empty(t, w.Advance(at+tc.want-1, nil), "not a nanosecond early")
		require.Len(t, w.Advance(at+tc.want, nil), 1)
	}
}

// Rule: a counted death without a report in time is committed by the server: player_death
// with the killer of the last damage, PlayerWasted with the default pose, a critical
// SetHealth(0) to the victim; the respawn is granted only after the victim acknowledged
// that zero.
func TestCountedDeathWithoutReportIsCommittedByTheServer(t *testing.T) {
	w := newWorld(t, Config{})
	victim := spawned(t, w, 0, 0)
	killer := spawned(t, w, 0, 1)
	c, err := w.CountDeath(victim, Count{At: 10 * time.Second, Killer: killer, Cause: 31}, 200*ms)
	require.NoError(t, err)
	require.Equal(t, 11400*ms, c.Deadline)
	require.Empty(t, w.Advance(11399*ms, nil))
	require.Equal(t, PhaseDying, phase(t, w, victim))
	require.True(t, w.MayAct(victim), "dying: the death is not committed yet")

	due := w.Advance(11500*ms, nil)
	require.Len(t, due, 1)
	require.Equal(t, DueCommit, due[0].Kind)
	got := due[0].Commit
	require.Equal(t, CommitByServer, got.Source)
	require.True(t, got.SendZero, "critical SetHealth(0) to the victim")
	require.Equal(t, PlayerWasted{Subject: 0, Token: victim.Token, Gen: 1, Pose: PoseDefault}, got.Wasted)
	require.Equal(t, DeathEvent{Victim: 0, VictimToken: victim.Token, Gen: 1, Killer: 1, Cause: 31, Pose: PoseDefault, Source: CommitByServer, At: 11500 * ms}, got.Death)
	require.Equal(t, PhaseDead, phase(t, w, victim))
	require.False(t, w.MayAct(victim))
	require.Empty(t, w.Advance(11600*ms, nil), "committed once")

	// The respawn is held until the zero is acknowledged, however long that takes.
	g, err := w.RespawnRequest(20*time.Second, victim, 1)
	require.NoError(t, err)
	require.Equal(t, RequestAwaitingZero, g.Verdict)
	require.Empty(t, w.Advance(60*time.Second, nil))
	require.ErrorIs(t, w.ZeroAcknowledged(victim, 2), ErrWrongGeneration)
	require.NoError(t, w.ZeroAcknowledged(victim, 1))
	require.ErrorIs(t, w.ZeroAcknowledged(victim, 1), ErrNoZeroPending, "acknowledged once")
	due = w.Advance(61*time.Second, nil)
	require.Len(t, due, 1, "the remembered request is granted")
	require.Equal(t, RequestGranted, due[0].Grant.Verdict)
	require.Equal(t, Generation(2), due[0].Grant.Respawn.Gen)
}

// Rule: the respawn after a server commit also waits for the policy, whichever comes last.
func TestServerCommitGrantNeedsBothTheAckAndThePolicy(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	_, err := w.CountDeath(h, Count{At: 0, Killer: noKiller, Cause: 51}, 0)
	require.NoError(t, err)
	require.Len(t, w.Advance(time.Second, nil), 1) // committed at 1 s
	require.NoError(t, w.ZeroAcknowledged(h, 1))
	g, err := w.RespawnRequest(1100*ms, h, 1)
	require.NoError(t, err)
	require.Equal(t, RequestTooEarly, g.Verdict)
	require.Equal(t, 4*time.Second, g.At, "3 s after the commit")
}

// Rule: a report in time commits with its pose, and no zero is sent.
func TestReportInTimeCommitsWithItsPose(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	c, err := w.CountDeath(h, Count{At: time.Second, Killer: noKiller, Cause: 16}, 400*ms)
	require.NoError(t, err)
	r, err := w.ReportDeath(c.Deadline-ms, h, DeathReport{Gen: 1, Means: 16, Pose: PoseSkidBack}, noBlame)
	require.NoError(t, err)
	require.Equal(t, ReportCommitted, r.Verdict)
	require.Equal(t, PoseSkidBack, r.Commit.Wasted.Pose)
	require.False(t, r.Commit.SendZero)
	require.Empty(t, w.Advance(c.Deadline+time.Hour, nil), "the wait ended with the report")
	g, err := w.RespawnRequest(c.Deadline-ms+3*time.Second, h, 1)
	require.NoError(t, err)
	require.Equal(t, RequestGranted, g.Verdict, "no zero to wait for")
}

// Rule: a death already committed (by the server's deadline) is not committed again by a
// late report: the DeathReport racing the server's own commit.
func TestLateReportAfterTheServerCommitIsNotCommittedAgain(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	_, err := w.CountDeath(h, Count{At: 0, Killer: noKiller, Cause: 24}, 400*ms)
	require.NoError(t, err)
	due := w.Advance(1800*ms, nil)
	require.Len(t, due, 1)
	before := capture(w)
	r, err := w.ReportDeath(1900*ms, h, DeathReport{Gen: 1, Pose: PoseShotFace}, noBlame)
	require.NoError(t, err)
	require.Equal(t, ReportAlreadyCommitted, r.Verdict)
	requireUnchanged(t, before, w)
}

// Rule (our decision): a report handled after its deadline but before Advance settled it is
// still in time: the victim's own report is the better commit (its pose, no zero).
func TestReportBeforeAdvanceSettledTheDeadlineIsInTime(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	c, err := w.CountDeath(h, Count{At: 0, Killer: noKiller, Cause: 24}, 0)
	require.NoError(t, err)
	r, err := w.ReportDeath(c.Deadline+10*ms, h, DeathReport{Gen: 1, Pose: PoseShotFace}, noBlame)
	require.NoError(t, err)
	require.Equal(t, ReportCommitted, r.Verdict)
	require.False(t, r.Commit.SendZero)
	require.Empty(t, w.Advance(c.Deadline+20*ms, nil))
}

// Rule: of two counted deaths, the earlier deadline applies (in either order), with its
// killer and cause.
func TestOfTwoCountedDeathsTheEarlierDeadlineApplies(t *testing.T) {
	stealth := Count{At: 10 * time.Second, Cause: 4, Stealth: true} // deadline 21 s + 2 RTT
	ledger := Count{At: 12 * time.Second, Cause: 24}                // deadline 13 s + 2 RTT
	for _, order := range [][2]Count{{stealth, ledger}, {ledger, stealth}} {
		w := newWorld(t, Config{})
		victim := spawned(t, w, 0, 0)
		knifer := spawned(t, w, 0, 1)
		shooter := spawned(t, w, 0, 2)
		for i := range order {
			if order[i].Stealth {
				order[i].Killer = knifer
			} else {
				order[i].Killer = shooter
			}
		}
		first, err := w.CountDeath(victim, order[0], 100*ms)
		require.NoError(t, err)
		require.Equal(t, CountWaiting, first.Verdict)
		second, err := w.CountDeath(victim, order[1], 100*ms)
		require.NoError(t, err)
		if order[1].Stealth {
			require.Equal(t, CountKeptDeadline, second.Verdict)
		} else {
			require.Equal(t, CountEarlierDeadline, second.Verdict)
		}
		require.Equal(t, 13200*ms, second.Deadline)
		require.Empty(t, w.Advance(13199*ms, nil))
		due := w.Advance(13200*ms, nil)
		require.Len(t, due, 1)
		require.Equal(t, PlayerID(2), due[0].Commit.Death.Killer, "the killer of the applying count")
		require.Equal(t, uint8(24), due[0].Commit.Death.Cause)
		require.Empty(t, w.Advance(30*time.Second, nil), "the later deadline commits nothing more")
	}
}

// Rule: leaving the vehicle (or anything the client does) does not cancel the wait: only a
// report, the deadline or leaving ends it.
func TestLeavingTheVehicleDoesNotCancelTheWait(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	// An accepted vehicle explosion: counted for the occupant.
	_, err := w.CountDeath(h, Count{At: 0, Killer: noKiller, Cause: CauseExplosion}, 50*ms)
	require.NoError(t, err)
	// The client answers with an exit and carries on, alive, healthy, asking to respawn.
	for i := range 30 {
		now := time.Duration(i) * 33 * ms
		f, err := w.Frame(now, h, Claim{Alive: true, Gen: 1}, 100)
		require.NoError(t, err)
		require.True(t, f.Stamp.Alive)
		g, err := w.RespawnRequest(now, h, 1)
		require.NoError(t, err)
		require.Equal(t, RequestNotDead, g.Verdict)
		require.ErrorIs(t, w.DecideRespawn(h, 1, AllowAt(0)), ErrNotDead)
	}
	require.Equal(t, PhaseDying, phase(t, w, h))
	due := w.Advance(1100*ms, nil)
	require.Len(t, due, 1)
	require.Equal(t, CommitByServer, due[0].Commit.Source)
	require.Equal(t, CauseExplosion, due[0].Commit.Death.Cause)
}

// Rule: a player who leaves within the wait leaves dead: the death is committed before the
// slot is freed.
func TestPlayerLeavingInsideTheWaitLeavesDead(t *testing.T) {
	w := newWorld(t, Config{})
	victim := spawned(t, w, 0, 0)
	killer := spawned(t, w, 0, 1)
	_, err := w.CountDeath(victim, Count{At: time.Second, Killer: killer, Cause: 24}, 100*ms)
	require.NoError(t, err)
	d, err := w.Leave(1500*ms, victim)
	require.NoError(t, err)
	require.True(t, d.Committed)
	require.Equal(t, CommitOnLeave, d.Commit.Source)
	require.Equal(t, PlayerWasted{Subject: 0, Token: victim.Token, Gen: 1, Pose: PoseDefault}, d.Commit.Wasted)
	require.Equal(t, PlayerID(1), d.Commit.Death.Killer)
	require.False(t, d.Commit.SendZero, "nobody to send the zero to")
	require.Empty(t, w.Advance(time.Hour, nil), "the wait left with the player")
	_, err = w.Snapshot(0)
	require.ErrorIs(t, err, ErrUnknownPlayer)

	// Leaving alive, dead or respawning commits nothing.
	for _, setup := range []func(h Handle){
		func(Handle) {},
		func(h Handle) { reportDeath(t, w, 2*time.Second, h, PoseDefault) },
		func(h Handle) {
			reportDeath(t, w, 2*time.Second, h, PoseDefault)
			_, err := w.RespawnRequest(6*time.Second, h, 1)
			require.NoError(t, err)
		},
	} {
		h := spawned(t, w, 2*time.Second, 0)
		setup(h)
		d, err := w.Leave(7*time.Second, h)
		require.NoError(t, err)
		require.False(t, d.Committed)
	}
}

// Rule: a death already committed is not committed again by the ledger either.
func TestCountAfterTheCommitIsNotCommittedAgain(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	reportDeath(t, w, time.Second, h, PoseShotFace)
	before := capture(w)
	c, err := w.CountDeath(h, Count{At: time.Second, Killer: noKiller, Cause: 24}, 0)
	require.NoError(t, err)
	require.Equal(t, CountAlreadyCommitted, c.Verdict)
	requireUnchanged(t, before, w)
	require.Empty(t, w.Advance(time.Hour, nil))
}

func TestCountIsNotTakenBeforeTheLifeIsConfirmedOrSpawned(t *testing.T) {
	w := newWorld(t, Config{})
	h, err := w.Join(0, 0)
	require.NoError(t, err)
	before := capture(w)
	c, err := w.CountDeath(h, Count{At: 0, Killer: noKiller, Cause: 24}, 0)
	require.NoError(t, err)
	require.Equal(t, CountNotSpawned, c.Verdict)
	requireUnchanged(t, before, w)
	_, err = w.RespawnRequest(0, h, 0)
	require.NoError(t, err)
	before = capture(w)
	c, err = w.CountDeath(h, Count{At: 0, Killer: noKiller, Cause: 24}, 0)
	require.NoError(t, err)
	require.Equal(t, CountBeforeFirstFrame, c.Verdict)
	requireUnchanged(t, before, w)
}

func TestCountDeathRefusesBadInput(t *testing.T) {
	w := newWorld(t, Config{MaxPlayers: 8})
	h := spawned(t, w, 0, 0)
	before := capture(w)
	for _, tc := range []struct {
		c    Count
		rtt  time.Duration
		want error
	}{
		{Count{At: 0, Killer: noKiller, Cause: 24}, -ms, ErrBadRTT},
		{Count{At: -ms, Killer: noKiller, Cause: 24}, 0, ErrBadTime},
		{Count{At: 0, Killer: noKiller, Cause: 19}, 0, ErrBadCause},
		{Count{At: 0, Killer: noKiller, Cause: 52}, 0, ErrBadCause},
		{Count{At: 0, Killer: Handle{ID: 9, Token: 1}, Cause: 24}, 0, ErrBadPlayerID},
		{Count{At: math.MinInt64, Killer: noKiller, Cause: 24}, 0, ErrBadTime},
		// So late that the deadline overflows: it would wrap below 0 and commit at once.
		{Count{At: math.MaxInt64 - time.Second, Killer: noKiller, Cause: 4, Stealth: true}, 0, ErrBadTime},
		{Count{At: math.MaxInt64, Killer: noKiller, Cause: 24}, 0, ErrBadTime},
		{Count{At: math.MaxInt64 - 3*time.Second + 1, Killer: noKiller, Cause: 24}, time.Second, ErrBadTime},
	} {
		_, err := w.CountDeath(h, tc.c, tc.rtt)
		require.ErrorIs(t, err, tc.want, "%+v", tc.c)
		requireUnchanged(t, before, w)
	}
	require.Equal(t, PhaseAlive, phase(t, w, h))
	require.Empty(t, w.Advance(0, nil))

	// The latest moment whose deadline still fits is taken.
	c, err := w.CountDeath(h, Count{At: math.MaxInt64 - 3*time.Second, Killer: noKiller, Cause: 24}, time.Second)
	require.NoError(t, err)
	require.Equal(t, CountWaiting, c.Verdict)
	require.Equal(t, time.Duration(math.MaxInt64), c.Deadline)
	require.Empty(t, w.Advance(time.Hour, nil), "not committed at once")
}

func TestZeroAcknowledgedRefusesWhatIsNotPending(t *testing.T) {
	w := newWorld(t, Config{})
	h := spawned(t, w, 0, 0)
	before := capture(w)
	require.ErrorIs(t, w.ZeroAcknowledged(h, 1), ErrNoZeroPending, "alive")
	reportDeath(t, w, time.Second, h, PoseDefault)
	before = capture(w)
	require.ErrorIs(t, w.ZeroAcknowledged(h, 1), ErrNoZeroPending, "the victim reported: no zero was sent")
	require.ErrorIs(t, w.ZeroAcknowledged(h, 0), ErrWrongGeneration)
	requireUnchanged(t, before, w)
}

// Rule: after the commit the player's actions are refused, and only a respawn grant
// revives: no frame, report, count or request of the dead player makes it alive.
func TestAfterTheCommitActionsAreRefusedUntilAGrant(t *testing.T) {
	w := newWorld(t, Config{RespawnDelay: 10 * time.Second})
	h := spawned(t, w, 0, 0)
	require.True(t, w.MayAct(h))
	reportDeath(t, w, time.Second, h, PoseDefault)
	require.False(t, w.MayAct(h))
	for i := range 50 {
		now := time.Second + time.Duration(i)*100*ms
		for _, claim := range []Claim{{true, 1}, {true, 2}, {true, 3}, {false, 2}} {
			f, err := w.Frame(now, h, claim, 100)
			require.NoError(t, err)
			require.False(t, f.Verdict == FrameFirstOfLife)
			if f.Verdict.Relay() {
				require.False(t, f.Stamp.Alive)
			}
		}
		for _, g := range []Generation{0, 1, 2, 3} {
			_, err := w.ReportDeath(now, h, DeathReport{Gen: g}, noBlame)
			require.NoError(t, err)
			_, err = w.CountDeath(h, Count{At: now, Killer: noKiller, Cause: 24}, 0)
			require.NoError(t, err)
			gr, err := w.RespawnRequest(now, h, g)
			require.NoError(t, err)
			require.False(t, gr.Verdict.Granted(), "delay of 10 s not over at %v", now)
		}
		require.Empty(t, w.Advance(now, nil))
		require.False(t, w.MayAct(h))
		require.Equal(t, PhaseDead, phase(t, w, h))
	}
	due := w.Advance(11*time.Second, nil)
	require.Len(t, due, 1, "the grant")
	require.False(t, w.MayAct(h), "granted, not yet confirmed")
	_, err := w.Frame(11*time.Second, h, Claim{Alive: true, Gen: 2}, 100)
	require.NoError(t, err)
	require.True(t, w.MayAct(h))
}
