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
