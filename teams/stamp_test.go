package teams

import (
	"testing"

	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/stretchr/testify/require"
)

func TestDamageGroupIsTheTeamWhileFriendlyFireIsOff(t *testing.T) {
	r := world(t)
	require.Equal(t, uint16(red), r.Group(redA))
	require.Equal(t, uint16(red), r.Group(redB))
	require.Equal(t, uint16(blue), r.Group(blueA))
}

func TestDamageGroupIsZeroWithFriendlyFireOnOrWithoutATeam(t *testing.T) {
	r := world(t)
	require.Zero(t, r.Group(loner), "team with friendly fire on")
	require.Zero(t, r.Group(nomad), "no team")
	require.Zero(t, r.Group(100), "not connected")
	must(t)(r.SetFriendlyFire(red, true))
	require.Zero(t, r.Group(redA))
	require.Zero(t, r.Group(redB))
}

func TestTwoDifferentPlayersWithTheSameNonZeroGroupAreTeammates(t *testing.T) {
	r := world(t)
	require.NoError(t, r.Connect(10))
	join(t, r, 10, ffa)
	tests := []struct {
		name string
		a, b PlayerID
		want bool
	}{
		{"same team, friendly fire off", redA, redB, true},
		{"the other way round", redB, redA, true},
		{"other team", redA, blueA, false},
		{"same team, friendly fire on (group 0)", loner, 10, false},
		{"no team and no team (group 0)", nomad, 100, false},
		{"team and no team", redA, nomad, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, r.Teammates(tc.a, tc.b))
			require.Equal(t, tc.want, r.Stamp(tc.a, tc.b).Teammate)
			require.Equal(t, tc.want, AreTeammates(tc.a, r.Group(tc.a), tc.b, r.Group(tc.b)))
		})
	}
}

func TestPlayerIsNeverItsOwnTeammate(t *testing.T) {
	r := world(t)
	for p := redA; p <= nomad; p++ {
		require.False(t, r.Teammates(p, p))
		require.False(t, r.Stamp(p, p).Teammate)
		require.False(t, AreTeammates(p, 5, p, 5))
	}
}

func TestStampOfUnknownPlayersIsNotATeammate(t *testing.T) {
	r := world(t)
	for _, other := range []PlayerID{100, MaxPlayers, NoPlayer} {
		require.Equal(t, Stamp{Rev: r.Rev()}, r.Stamp(redA, other))
		require.Equal(t, Stamp{Rev: r.Rev()}, r.Stamp(other, redA))
	}
}

func TestStampCarriesTheRelationForEachRecipient(t *testing.T) {
	r := world(t)
	rev := r.Rev()
	require.Equal(t, Stamp{Teammate: true, Rev: rev}, r.Stamp(redA, redB))
	require.Equal(t, Stamp{Teammate: false, Rev: rev}, r.Stamp(redA, blueA))
	require.Equal(t, Stamp{Teammate: false, Rev: rev}, r.Stamp(redA, redA))
	require.Equal(t, "teammate@7", Stamp{Teammate: true, Rev: 7}.String())
	require.Equal(t, "apart@65535", Stamp{Rev: 65535}.String())
}

// A team change has no output to send: the next stamps carry it.
func TestTeamChangeSendsNothingTheNextStampsCarryIt(t *testing.T) {
	r := world(t)
	old := r.Stamp(blueA, redA)
	c := join(t, r, blueA, red)
	require.Equal(t, Change{Rev: revision.Next(old.Rev), Moved: true, Regrouped: 1}, c,
		"the change only reports what it did; there is nothing for the host to send")
	next := r.Stamp(blueA, redA)
	require.Equal(t, Stamp{Teammate: true, Rev: c.Rev}, next)
	require.True(t, revision.Newer(next.Rev, old.Rev))
}

func TestRelationRevisionMovesOnEveryRelationChange(t *testing.T) {
	tests := []struct {
		name      string
		do        func(r *Registry) (Change, error)
		regrouped int
	}{
		{"join a team with friendly fire off", func(r *Registry) (Change, error) { return r.JoinTeam(nomad, red) }, 1},
		{"switch team", func(r *Registry) (Change, error) { return r.JoinTeam(redB, blue) }, 1},
		{"switch from friendly fire on to off", func(r *Registry) (Change, error) { return r.JoinTeam(loner, blue) }, 1},
		{"leave a team with friendly fire off", func(r *Registry) (Change, error) { return r.LeaveTeam(redA) }, 1},
		{"friendly fire turned on", func(r *Registry) (Change, error) { return r.SetFriendlyFire(red, true) }, 2},
		{"friendly fire turned off", func(r *Registry) (Change, error) { return r.SetFriendlyFire(ffa, false) }, 1},
		{"friendly fire turned on by ChangeTeam", func(r *Registry) (Change, error) {
			return r.ChangeTeam(blue, Team{Name: "Blue", FriendlyFire: true})
		}, 2},
		{"team removed", func(r *Registry) (Change, error) { return r.RemoveTeam(blue) }, 2},
		{"teammate disconnects", func(r *Registry) (Change, error) { return r.Disconnect(redA) }, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := world(t)
			before := r.Rev()
			c := must(t)(tc.do(r))
			require.Equal(t, Change{Rev: revision.Next(before), Moved: true, Regrouped: tc.regrouped}, c)
			require.Equal(t, c.Rev, r.Rev())
			require.Equal(t, c.Rev, r.Stamp(redA, redB).Rev)
		})
	}
}

// A change that provably changes no damage group need not move the revision, and does
// not: it keeps the 16-bit space for real changes.
func TestRelationRevisionStaysWhenNoGroupChanges(t *testing.T) {
	tests := []struct {
		name string
		do   func(r *Registry) (Change, error)
	}{
		{"create a team", func(r *Registry) (Change, error) { return r.unchangedIf(r.CreateTeam(9, Team{Name: "x"})) }},
		{"rename", func(r *Registry) (Change, error) { return r.ChangeTeam(red, Team{Name: "Crimson", Color: 0xff0000ff}) }},
		{"recolor", func(r *Registry) (Change, error) { return r.ChangeTeam(red, Team{Name: "Red", Color: 0x800000ff}) }},
		{"friendly fire set to what it is", func(r *Registry) (Change, error) { return r.SetFriendlyFire(red, false) }},
		{"join a team with friendly fire on", func(r *Registry) (Change, error) { return r.JoinTeam(nomad, ffa) }},
		{"leave a team with friendly fire on", func(r *Registry) (Change, error) { return r.LeaveTeam(loner) }},
		{"friendly fire toggled on an empty team", func(r *Registry) (Change, error) {
			if err := r.CreateTeam(9, Team{Name: "Empty"}); err != nil {
				return Change{}, err
			}
			return r.SetFriendlyFire(9, true)
		}},
		{"remove a team with friendly fire on", func(r *Registry) (Change, error) { return r.RemoveTeam(ffa) }},
		{"player without a group disconnects", func(r *Registry) (Change, error) { return r.Disconnect(loner) }},
		{"player connects", func(r *Registry) (Change, error) { return r.unchangedIf(r.Connect(100)) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := world(t)
			before := r.Rev()
			c := must(t)(tc.do(r))
			require.Equal(t, Change{Rev: before}, c)
			require.Equal(t, before, r.Rev())
		})
	}
}

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

func TestStampAtRebuildsTheStampAnActionCarried(t *testing.T) {
	r := world(t)
	shot := r.Stamp(blueA, redA) // apart
	join(t, r, blueA, red)
	must(t)(r.SetFriendlyFire(blue, true))
	must(t)(r.RemoveTeam(ffa))
	then, err := r.StampAt(blueA, redA, shot.Rev)
	require.NoError(t, err)
	require.Equal(t, shot, then)
	now, err := r.StampAt(blueA, redA, r.Rev())
	require.NoError(t, err)
	require.Equal(t, r.Stamp(blueA, redA), now)
}

func TestStampAtRefusesFutureAndForgottenRevisions(t *testing.T) {
	r := world(t)
	rev := r.Rev()
	_, err := r.StampAt(redA, redB, rev+1)
	require.ErrorIs(t, err, ErrRevisionFuture)
	_, err = r.StampAt(redA, redB, rev+revision.Half)
	require.ErrorIs(t, err, ErrRevisionFuture, "half the space away cannot be ordered")
	_, err = r.StampAt(redA, redB, rev-100)
	require.ErrorIs(t, err, ErrRevisionForgotten, "older than the registry")
	_, err = r.StampAt(MaxPlayers, redB, rev)
	require.ErrorIs(t, err, ErrPlayerOutOfRange)
	_, err = r.StampAt(redA, NoPlayer, rev)
	require.ErrorIs(t, err, ErrPlayerOutOfRange)
}

func TestStampAtRemembersTheLastGroupHistoryChangesOfEachPlayer(t *testing.T) {
	r := world(t)
	start := r.Rev() // nomad has had no group change yet: group 0 since the start
	for i := range GroupHistory {
		if i%2 == 0 {
			join(t, r, nomad, red)
		} else {
			must(t)(r.LeaveTeam(nomad))
		}
	}
	s, err := r.StampAt(nomad, redA, start)
	require.NoError(t, err, "%d changes are remembered", GroupHistory)
	require.False(t, s.Teammate)

	join(t, r, nomad, blue) // one change too many: the group at start is forgotten
	_, err = r.StampAt(nomad, redA, start)
	require.ErrorIs(t, err, ErrRevisionForgotten)
	_, err = r.StampAt(redA, nomad, start)
	require.ErrorIs(t, err, ErrRevisionForgotten, "either player's history counts")
	_, err = r.StampAt(nomad, redA, start+1)
	require.ErrorIs(t, err, ErrRevisionForgotten, "the first change was dropped")
	s, err = r.StampAt(nomad, redA, start+2)
	require.NoError(t, err, "the oldest change still held")
	require.False(t, s.Teammate)
	s, err = r.StampAt(nomad, redA, start+3)
	require.NoError(t, err)
	require.True(t, s.Teammate)
	s, err = r.StampAt(redA, redB, start)
	require.NoError(t, err, "other players keep their own history")
	require.True(t, s.Teammate)
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
