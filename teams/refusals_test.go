package teams

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReportVerdictFollowsTheRelationNowAndTheCarriedStamp(t *testing.T) {
	tests := []struct {
		f    ReportFacts
		want ReportVerdict
	}{
		{ReportFacts{}, ReportCredited},
		{ReportFacts{Stamped: true}, ReportCredited},
		{ReportFacts{TeammatesNow: true}, ReportRefusedTeammates},
		{ReportFacts{TeammatesNow: true, Stamped: true}, ReportDiscardedTeamChange},
		{ReportFacts{TeammatesNow: true, Stamped: true, StampedTeammates: true}, ReportRefusedTeammateStamp},
		{ReportFacts{Stamped: true, StampedTeammates: true}, ReportRefusedTeammateStamp},
		{ReportFacts{StampedTeammates: true}, ReportCredited},                             // not stamped: the flag means nothing
		{ReportFacts{TeammatesNow: true, StampedTeammates: true}, ReportRefusedTeammates}, // idem
	}
	for _, tc := range tests {
		t.Run(tc.want.String(), func(t *testing.T) {
			v := JudgeReport(tc.f)
			require.Equal(t, tc.want, v, "%+v", tc.f)
			require.Equal(t, tc.want == ReportCredited, v.Credited())
		})
	}
}

// The registry's part is in testdata/refusals.txt.
func TestStealthKillOfATeammateIsRefused(t *testing.T) {
	require.Equal(t, StealthRefusedTeammate, JudgeStealthKill(true))
	require.Equal(t, StealthAllowed, JudgeStealthKill(false))
}

// The registry's part is in testdata/refusals.txt.
func TestTeammateIsNeverNamedKiller(t *testing.T) {
	tests := []struct {
		name       string
		candidate  PlayerID
		teammates  bool
		wantKiller PlayerID
		want       KillerVerdict
	}{
		{"an enemy is named", blueA, false, blueA, KillerNamed},
		{"a teammate is not", redB, true, NoPlayer, KillerRefusedTeammate},
		{"no candidate", NoPlayer, false, NoPlayer, KillerNone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, v := JudgeKiller(tc.candidate, tc.teammates)
			require.Equal(t, tc.wantKiller, k)
			require.Equal(t, tc.want, v)
		})
	}
}

func TestVerdictStringsAreDeterministic(t *testing.T) {
	require.Equal(t, []string{"credited", "refused: teammates", "discarded: accepted before a team change",
		"refused: stamped as teammates", "ReportVerdict(0)"},
		[]string{ReportCredited.String(), ReportRefusedTeammates.String(), ReportDiscardedTeamChange.String(),
			ReportRefusedTeammateStamp.String(), ReportVerdict(0).String()})
	require.Equal(t, []string{"allowed", "refused: teammate", "StealthVerdict(9)"},
		[]string{StealthAllowed.String(), StealthRefusedTeammate.String(), StealthVerdict(9).String()})
	require.Equal(t, []string{"named", "none", "refused: teammate", "KillerVerdict(0)"},
		[]string{KillerNamed.String(), KillerNone.String(), KillerRefusedTeammate.String(), KillerVerdict(0).String()})
}
