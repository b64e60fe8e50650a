package vitals

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Rule: a report that gives attribution only did not touch the ledger, so it confirms
// nothing to the god-mode suspicion detector: counting it would let a victim whose reports
// all cross a health command (late, behind an echo of the command) hide every hit from both
// the ledger and the detector.
func TestAttributionOnlyReportsAreNotConfirmationsForTheDetector(t *testing.T) {
	p := livePlayer(t)
	// a frame that passed reports 1..30 (they never came in time) shows full health
	mustFrame(t, p, 0, FrameInput{Seq: 2, DamageSeq: 30, Health: 100})
	p.Advance(ReportWait)
	_, err := p.SetHealth(ReportWait+ms, 100)
	require.NoError(t, err)
	mustFrame(t, p, ReportWait+50*ms, FrameInput{Seq: 3, DamageSeq: 30, VitalRev: 1, Health: 100})
	// 30 Deagle hits were claimed, and their reports, created before the set, come late
	for i := range 30 {
		now := ReportWait + 100*ms + time.Duration(i)*100*ms
		_, err := p.HitClaimed(now, PlayerDamageFactor*140)
		require.NoError(t, err)
		r := mustReport(t, p, now, deagle(uint16(i+1), Vitals{100, 0}))
		require.Equal(t, ReportAttributionOnly, r.Verdict)
	}
	wantLedger(t, p, 100, 0)
	s := p.Suspect(ReportWait + 3*time.Second + ClaimGrace + time.Second)
	require.Zero(t, s.Confirmed, "%+v", s)
	require.True(t, s.Raised, "%+v", s)
}

// Rule: a frame or report echoing a revision older than a command in flight is judged as
// of its own revision, so a client that withholds its acknowledgement and keeps echoing the
// revision from before an add_armor is not immortal while the command waits to settle: the
// hits it confirms come off the ledger as of that revision (where it had no armor yet),
// its frames showing full health are cut and flagged, and the third Deagle hit kills it.
func TestAClientEchoingAnOldRevisionDiesByTheHitsItConfirms(t *testing.T) {
	p := livePlayer(t)
	_, err := p.AddArmor(100*ms, 30, 100)
	require.NoError(t, err)
	wantLedger(t, p, 100, 30)
	flagged, died := 0, -1
	for i := range 110 { // 110 Deagle hits over 13 s, every report and frame echoing 0
		now := 200*ms + time.Duration(i)*118*ms
		_, err := p.HitClaimed(now, PlayerDamageFactor*140)
		require.NoError(t, err)
		// the client restores its own health between hits and claims "100 -> 53.8"
		r, err := p.Report(now, deagle(uint16(i+1), Vitals{100, 0}))
		require.NoError(t, err)
		if r.Died && died < 0 {
			died = i + 1
			require.Equal(t, DeathByReport, r.Death.Reason)
			require.Equal(t, PlayerID(7), r.Death.Killer)
		}
		if p.Life() != LifeCounted {
			continue
		}
		require.Equal(t, ReportApplied, r.Verdict, "hit %d", i+1)
		f := mustFrame(t, p, now+10*ms, FrameInput{Seq: uint16(i + 2), DamageSeq: uint16(i + 1), Health: 100})
		if f.GodMode {
			flagged++
		}
	}
	require.Equal(t, 3, died, "100 health and no armor as of revision 0: three Deagle hits")
	require.Equal(t, LifeCountedDead, p.Life())
	require.Equal(t, 2, flagged, "its frames showing full health after the first two hits")
}

// Rule: each command settles on its own clock, whatever the gamemode's command rate. With
// regeneration (add_health every second), the newest command never settles, but each one
// does 15 s after it was sent: a client that keeps echoing the revision from before the
// first one and shows 10 health is judged, from then on, as if it echoed the newest
// settled command, with only the commands still in flight replayed after it.
func TestRegenerationDoesNotSwitchTheLedgerOff(t *testing.T) {
	p := livePlayer(t)
	var now time.Duration
	seq := uint16(1)
	for s := 1; s <= 60; s++ {
		now = time.Duration(s) * time.Second
		_, err := p.AddHealth(now, 1, 100)
		require.NoError(t, err)
		for k := range 10 {
			seq++
			mustFrame(t, p, now+time.Duration(k)*100*ms+50*ms, FrameInput{Seq: seq, Health: 10})
		}
	}
	// the adds sent 46..60 s are still in flight at 60.95 s: 10 + 15
	wantLedger(t, p, 25, 0)
	require.Equal(t, LifeCounted, p.Life())
	// and it dies by what it shows, in flight or not
	seq++
	r := mustFrame(t, p, now+time.Second, FrameInput{Seq: seq, Health: 0})
	require.True(t, r.Died)
	require.Equal(t, DeathByFrame, r.Death.Reason)
}

// Rule: the commands in flight are capped (MaxPendingCommands); above the cap the oldest
// settles at once, as if its time had come, and an older echo is judged after it.
func TestCommandsInFlightAreCappedAndTheOldestSettlesFirst(t *testing.T) {
	p := livePlayer(t)
	mustFrame(t, p, 10*ms, FrameInput{Seq: 2, Health: 10})
	const n = MaxPendingCommands + 8
	for i := range n {
		_, err := p.AddHealth(20*ms+time.Duration(i)*ms, 1, 100)
		require.NoError(t, err)
	}
	wantLedger(t, p, 10+n, 0)
	require.Equal(t, MaxPendingCommands, len(p.cmdBuf), "the ring grew on demand to its cap and no further")
	// an echo of 0: the 8 oldest adds settled when the cap was reached; only the newest
	// MaxPendingCommands still apply after it
	r := mustFrame(t, p, 100*ms, FrameInput{Seq: 3, Health: 10})
	require.Equal(t, FrameCounted, r.Verdict)
	wantLedger(t, p, 10+MaxPendingCommands, 0)
}

// Rule: a client's reports wait for an earlier one within ReportWindow. Their table grows
// on demand up to that cap: two reports ahead hold a small table, reports spread over the
// whole window grow it to ReportWindow and no further, and every one is still found and
// taken in order once the gap fills.
func TestHeldReportsGrowOnDemandUpToReportWindow(t *testing.T) {
	p := livePlayer(t)
	report := func(seq uint16) {
		_, err := p.Report(20*ms, ReportInput{Seq: seq, Source: SourceEnvironment, Weapon: WeaponFall,
			Attacker: NoPlayer, Before: Vitals{100, 0}, After: Vitals{100, 0}})
		require.NoError(t, err)
	}
	first := p.cursor + 1
	report(first + 1)
	report(first + 2)
	require.Equal(t, minHeld, len(p.held), "two held reports take the first table")
	for k := uint16(3); k < ReportWindow; k++ {
		report(first + k)
	}
	_, held := p.Waiting()
	require.Equal(t, ReportWindow-1, held)
	require.Equal(t, ReportWindow, len(p.held), "grown to the cap and no further")
	report(first) // the gap: everything is taken in order
	_, held = p.Waiting()
	require.Zero(t, held)
	require.Equal(t, first+ReportWindow-1, p.cursor)
}
