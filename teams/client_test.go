package teams

import (
	"testing"

	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/stretchr/testify/require"
)

var (
	mateAt5  = Stamp{Teammate: true, Rev: 5}
	apartAt5 = Stamp{Teammate: false, Rev: 5}
	mateAt6  = Stamp{Teammate: true, Rev: 6}
	apartAt6 = Stamp{Teammate: false, Rev: 6}
)

func TestShotIsJudgedByItsOwnStamp(t *testing.T) {
	tests := []struct {
		name   string
		own    Stamp
		newest Stamp
		want   HitVerdict
	}{
		{"stamped teammate", mateAt5, mateAt5, HitRefusedTeammate},
		{"stamped apart", apartAt5, apartAt5, HitApplied},
		{"stamped apart, newer frame says teammate", apartAt5, mateAt6, HitApplied},
		{"stamped teammate, newer frame says apart", mateAt5, apartAt6, HitRefusedTeammate},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := Hit{Attacker: 3, Shot: true, Stamp: tc.own}
			require.Equal(t, tc.want, JudgeHit(h, tc.newest))

			var tr Tracker
			tr.Observe(3, tc.own)
			tr.Observe(3, tc.newest)
			require.Equal(t, tc.want, tr.JudgeHit(h))
		})
	}
}

func TestOtherDamageIsJudgedByTheNewestStampFromTheSender(t *testing.T) {
	tests := []struct {
		name     string
		arrivals []Stamp
		want     HitVerdict
	}{
		{"newest says teammate", []Stamp{apartAt5, mateAt6}, HitRefusedTeammate},
		{"newest says apart", []Stamp{mateAt5, apartAt6}, HitApplied},
		{"nothing received yet", nil, HitApplied},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tr Tracker
			for _, s := range tc.arrivals {
				tr.Observe(3, s)
			}
			// Melee, a ram, a blast: not a shot; the Stamp field is ignored.
			h := Hit{Attacker: 3, Stamp: mateAt5}
			require.Equal(t, tc.want, tr.JudgeHit(h))
			newest, _ := tr.Newest(3)
			require.Equal(t, tc.want, JudgeHit(h, newest))
		})
	}
}

func TestDamageWithoutAnAuthorIsNeverRefused(t *testing.T) {
	require.Equal(t, HitApplied, JudgeHit(Hit{Attacker: NoPlayer}, mateAt5))
	require.Equal(t, HitApplied, JudgeHit(Hit{Attacker: NoPlayer, Shot: true, Stamp: mateAt5}, mateAt5))
}

func TestNewestStampIsChosenByRevisionNotByArrival(t *testing.T) {
	var tr Tracker
	require.True(t, tr.Observe(3, mateAt6))
	require.False(t, tr.Observe(3, apartAt5), "a frame stamped before the change, overtaken, arrives late")
	require.True(t, tr.Teammate(3))
	require.False(t, tr.Observe(3, mateAt6), "the same revision again changes nothing")
	got, known := tr.Newest(3)
	require.True(t, known)
	require.Equal(t, mateAt6, got)
}

func TestNewestStampOrderHoldsAcrossTheWrap(t *testing.T) {
	var tr Tracker
	require.True(t, tr.Observe(3, Stamp{Teammate: true, Rev: 65534}))
	require.True(t, tr.Observe(3, Stamp{Teammate: false, Rev: 1}), "1 comes after 65534")
	require.False(t, tr.Observe(3, Stamp{Teammate: true, Rev: 65535}), "65535 comes before 1")
	require.False(t, tr.Teammate(3))
}

func TestStampHalfTheSpaceAwayReplacesTheStaleOne(t *testing.T) {
	var tr Tracker
	tr.Observe(3, Stamp{Teammate: true, Rev: 10})
	require.True(t, tr.Observe(3, Stamp{Teammate: false, Rev: 10 + revision.Half}))
	require.False(t, tr.Teammate(3))
}

func TestTrackerForgetsASenderItStopsShowing(t *testing.T) {
	var tr Tracker
	tr.Observe(3, mateAt6)
	tr.Forget(3)
	_, known := tr.Newest(3)
	require.False(t, known)
	require.False(t, tr.Teammate(3))
	require.True(t, tr.Observe(3, apartAt5), "after Forget an older revision is taken again")
	tr.Forget(NoPlayer) // ignored
}

func TestTrackerIgnoresSendersOutOfRange(t *testing.T) {
	var tr Tracker
	require.False(t, tr.Observe(MaxPlayers, mateAt5))
	require.False(t, tr.Observe(NoPlayer, mateAt5))
	_, known := tr.Newest(NoPlayer)
	require.False(t, known)
	require.Equal(t, HitApplied, tr.JudgeHit(Hit{Attacker: MaxPlayers}))
}

// A tracker holds entries up to the highest sender it was given, not MaxPlayers of them.
func TestTrackerGrowsToTheSendersItSees(t *testing.T) {
	var tr Tracker
	require.True(t, tr.Observe(9, mateAt5))
	require.LessOrEqual(t, len(tr.held), 10)
	require.True(t, tr.Observe(700, apartAt5))
	require.LessOrEqual(t, len(tr.held), 701)
	require.True(t, tr.Teammate(9), "what was held before the growth is kept")
	s, known := tr.Newest(700)
	require.True(t, known)
	require.Equal(t, apartAt5, s)
	require.True(t, tr.Observe(MaxPlayers-1, mateAt5))
	require.Equal(t, MaxPlayers, len(tr.held), "never beyond MaxPlayers")
	tr.Forget(MaxPlayers - 1)
	_, known = tr.Newest(MaxPlayers - 1)
	require.False(t, known)
}

func TestTrackerDoesNotAllocate(t *testing.T) {
	var tr Tracker
	rev := uint16(0)
	allocs := testing.AllocsPerRun(100, func() {
		rev++
		tr.Observe(3, Stamp{Teammate: rev%2 == 0, Rev: rev})
		_ = tr.JudgeHit(Hit{Attacker: 3})
	})
	require.Zero(t, allocs)
}

func TestHitVerdictStrings(t *testing.T) {
	require.Equal(t, "applied", HitApplied.String())
	require.Equal(t, "refused: teammate", HitRefusedTeammate.String())
	require.Equal(t, "HitVerdict(0)", HitVerdict(0).String())
}
