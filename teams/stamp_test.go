package teams

import (
	"testing"

	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/stretchr/testify/require"
)

func TestLargeChangeMovesTheRevisionOnce(t *testing.T) {
	r := New()
	require.NoError(t, r.CreateTeam(1, Team{Name: "Army"}))
	for p := range PlayerID(MaxPlayers) {
		require.NoError(t, r.Connect(p))
		join(t, r, p, 1)
	}
	before := r.Rev()
	c := must(t)(r.SetFriendlyFire(1, true))
	require.Equal(t, Change{Rev: revision.Next(before), Moved: true, Regrouped: MaxPlayers}, c)
	c = must(t)(r.RemoveTeam(1))
	require.Equal(t, Change{Rev: c.Rev, Moved: false}, c, "members had group 0 already")
}

func TestRelationRevisionWrapsAroundAndStaysNewer(t *testing.T) {
	r := world(t)
	prev := r.Stamp(nomad, redA)
	for i := range 70000 {
		if i%2 == 0 {
			join(t, r, nomad, red)
		} else {
			must(t)(r.LeaveTeam(nomad))
		}
		s := r.Stamp(nomad, redA)
		require.True(t, revision.Newer(s.Rev, prev.Rev), "step %d: %v after %v", i, s, prev)
		require.Equal(t, i%2 == 0, s.Teammate)
		prev = s
	}
	// The past is still rebuilt across the wrap.
	back, err := r.StampAt(nomad, redA, prev.Rev-1)
	require.NoError(t, err)
	require.Equal(t, Stamp{Teammate: !prev.Teammate, Rev: prev.Rev - 1}, back)
}

func TestRegistryDoesNotAllocate(t *testing.T) {
	r := world(t)
	var sink Stamp
	allocs := testing.AllocsPerRun(100, func() {
		sink = r.Stamp(redA, redB)
		sink, _ = r.StampAt(redA, redB, r.Rev())
		_, _ = r.JoinTeam(nomad, red)
		_, _ = r.SetFriendlyFire(red, true)
		_, _ = r.SetFriendlyFire(red, false)
		_, _ = r.LeaveTeam(nomad)
		_, _ = r.JudgeReport(redA, redB, Action{Stamped: true, Rev: r.Rev()})
	})
	require.Zero(t, allocs)
	_ = sink
}
