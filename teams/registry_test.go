package teams

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The teams of the small world most tests start from.
const (
	red  TeamID = 1 // friendly fire off
	blue TeamID = 2 // friendly fire off
	ffa  TeamID = 3 // friendly fire on
)

// Players of that world: redA and redB in red, blueA and blueB in blue, loner in ffa and
// nomad in no team.
const (
	redA PlayerID = iota
	redB
	blueA
	blueB
	loner
	nomad
)

// world builds the small world.
func world(t *testing.T) *Registry {
	t.Helper()
	r := New()
	require.NoError(t, r.CreateTeam(red, Team{Name: "Red", Color: 0xff0000ff}))
	require.NoError(t, r.CreateTeam(blue, Team{Name: "Blue", Color: 0x0000ffff}))
	require.NoError(t, r.CreateTeam(ffa, Team{Name: "Free for all", Color: 0xffffffff, FriendlyFire: true}))
	for p := redA; p <= nomad; p++ {
		require.NoError(t, r.Connect(p))
	}
	join(t, r, redA, red)
	join(t, r, redB, red)
	join(t, r, blueA, blue)
	join(t, r, blueB, blue)
	join(t, r, loner, ffa)
	return r
}

func join(t *testing.T, r *Registry, p PlayerID, team TeamID) Change {
	t.Helper()
	c, err := r.JoinTeam(p, team)
	require.NoError(t, err)
	return c
}

// must(t)(r.Verb(...)) fails the test on an error and returns the change.
func must(t *testing.T) func(Change, error) Change {
	return func(c Change, err error) Change {
		t.Helper()
		require.NoError(t, err)
		return c
	}
}

func TestCreateTeamRefusesBadInputAndChangesNothing(t *testing.T) {
	tests := []struct {
		name string
		id   TeamID
		def  Team
		want error
	}{
		{"team id 0 means no team", NoTeam, Team{Name: "x"}, ErrTeamOutOfRange},
		{"team id above MaxTeams", MaxTeams + 1, Team{Name: "x"}, ErrTeamOutOfRange},
		{"team id 0xFFFF", 0xFFFF, Team{Name: "x"}, ErrTeamOutOfRange},
		{"existing team", red, Team{Name: "x"}, ErrTeamExists},
		{"empty name", 9, Team{}, ErrTeamName},
		{"name too long", 9, Team{Name: strings.Repeat("n", MaxTeamName+1)}, ErrTeamName},
		{"name not UTF-8", 9, Team{Name: "caf\xe9"}, ErrTeamName},
		{"name with a newline", 9, Team{Name: "two\nlines"}, ErrTeamName},
		{"name with DEL", 9, Team{Name: "del\x7f"}, ErrTeamName},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := world(t)
			before := r.clone()
			require.ErrorIs(t, r.CreateTeam(tc.id, tc.def), tc.want)
			require.True(t, before.same(r), "a refused creation left a trace")
		})
	}
}

func TestTeamNameLimitIsMaxTeamNameBytes(t *testing.T) {
	r := New()
	require.NoError(t, r.CreateTeam(1, Team{Name: strings.Repeat("n", MaxTeamName)}))
	require.NoError(t, r.CreateTeam(2, Team{Name: strings.Repeat("é", MaxTeamName/2)}), "64 bytes of two-byte runes")
	require.ErrorIs(t, r.CreateTeam(3, Team{Name: strings.Repeat("é", MaxTeamName/2) + "n"}), ErrTeamName)
}

func TestChangeAndRemoveRefuseUnknownTeamsAndChangeNothing(t *testing.T) {
	tests := []struct {
		name string
		do   func(r *Registry) (Change, error)
		want error
	}{
		{"change unknown team", func(r *Registry) (Change, error) { return r.ChangeTeam(9, Team{Name: "x"}) }, ErrUnknownTeam},
		{"change team 0", func(r *Registry) (Change, error) { return r.ChangeTeam(NoTeam, Team{Name: "x"}) }, ErrTeamOutOfRange},
		{"change with a bad name", func(r *Registry) (Change, error) { return r.ChangeTeam(red, Team{FriendlyFire: true}) }, ErrTeamName},
		{"friendly fire of unknown team", func(r *Registry) (Change, error) { return r.SetFriendlyFire(9, true) }, ErrUnknownTeam},
		{"friendly fire of team out of range", func(r *Registry) (Change, error) { return r.SetFriendlyFire(MaxTeams+1, true) }, ErrTeamOutOfRange},
		{"remove unknown team", func(r *Registry) (Change, error) { return r.RemoveTeam(9) }, ErrUnknownTeam},
		{"remove team 0", func(r *Registry) (Change, error) { return r.RemoveTeam(NoTeam) }, ErrTeamOutOfRange},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := world(t)
			before := r.clone()
			c, err := tc.do(r)
			require.ErrorIs(t, err, tc.want)
			require.Equal(t, Change{Rev: before.Rev()}, c)
			require.True(t, before.same(r), "a refused change left a trace")
		})
	}
}

func TestMembershipVerbsRefuseBadPlayersAndTeamsAndChangeNothing(t *testing.T) {
	tests := []struct {
		name string
		do   func(r *Registry) (Change, error)
		want error
	}{
		{"join: player out of range", func(r *Registry) (Change, error) { return r.JoinTeam(MaxPlayers, red) }, ErrPlayerOutOfRange},
		{"join: NoPlayer", func(r *Registry) (Change, error) { return r.JoinTeam(NoPlayer, red) }, ErrPlayerOutOfRange},
		{"join: player not connected", func(r *Registry) (Change, error) { return r.JoinTeam(100, red) }, ErrUnknownPlayer},
		{"join: team 0", func(r *Registry) (Change, error) { return r.JoinTeam(nomad, NoTeam) }, ErrTeamOutOfRange},
		{"join: unknown team", func(r *Registry) (Change, error) { return r.JoinTeam(nomad, 9) }, ErrUnknownTeam},
		{"leave: player out of range", func(r *Registry) (Change, error) { return r.LeaveTeam(MaxPlayers) }, ErrPlayerOutOfRange},
		{"leave: player not connected", func(r *Registry) (Change, error) { return r.LeaveTeam(100) }, ErrUnknownPlayer},
		{"disconnect: player out of range", func(r *Registry) (Change, error) { return r.Disconnect(NoPlayer) }, ErrPlayerOutOfRange},
		{"disconnect: player not connected", func(r *Registry) (Change, error) { return r.Disconnect(100) }, ErrUnknownPlayer},
		{"connect: slot out of range", func(r *Registry) (Change, error) { return r.unchangedIf(r.Connect(MaxPlayers)) }, ErrPlayerOutOfRange},
		{"connect: slot occupied", func(r *Registry) (Change, error) { return r.unchangedIf(r.Connect(redA)) }, ErrPlayerConnected},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := world(t)
			before := r.clone()
			c, err := tc.do(r)
			require.ErrorIs(t, err, tc.want)
			require.Equal(t, Change{Rev: before.Rev()}, c)
			require.True(t, before.same(r), "a refused operation left a trace")
		})
	}
}

func TestGettersAnswerForIDsOutOfRange(t *testing.T) {
	r := world(t)
	for _, p := range []PlayerID{MaxPlayers, NoPlayer} {
		require.False(t, r.Connected(p))
		require.Equal(t, NoTeam, r.TeamOf(p))
		require.Zero(t, r.Group(p))
	}
	for _, team := range []TeamID{NoTeam, MaxTeams + 1} {
		_, exists := r.Team(team)
		require.False(t, exists)
		require.Zero(t, r.MemberCount(team))
		require.Empty(t, r.AppendMembers(nil, team))
	}
}

func TestZeroRegistryIsEmptyAndUsable(t *testing.T) {
	var r Registry
	require.Zero(t, r.Rev())
	require.Zero(t, r.TeamCount())
	require.NoError(t, r.Connect(0))
	require.NoError(t, r.CreateTeam(1, Team{Name: "a"}))
	c, err := r.JoinTeam(0, 1)
	require.NoError(t, err)
	require.Equal(t, "rev 1 moved, 1 regrouped", c.String())
	require.Equal(t, "rev 1 unmoved", Change{Rev: 1}.String())
}

// NewSlots keeps only the slots a world has: an id from n on is refused as one from
// MaxPlayers on is, and reads of it answer as for a slot nobody occupies.
func TestNewSlotsRefusesIDsBeyondItsSlots(t *testing.T) {
	r := NewSlots(4)
	require.NoError(t, r.Connect(3))
	require.ErrorIs(t, r.Connect(4), ErrPlayerOutOfRange)
	require.NoError(t, r.CreateTeam(1, Team{Name: "a"}))
	_, err := r.JoinTeam(4, 1)
	require.ErrorIs(t, err, ErrPlayerOutOfRange)
	_, err = r.StampAt(3, 4, r.Rev())
	require.ErrorIs(t, err, ErrPlayerOutOfRange)
	require.False(t, r.Connected(4))
	require.Equal(t, NoTeam, r.TeamOf(4))
	require.Zero(t, r.Group(4))
	require.False(t, r.Teammates(3, 4))
	require.Equal(t, 1, NewSlots(0).slots(), "at least one slot")
	require.Equal(t, MaxPlayers, NewSlots(MaxPlayers+1).slots(), "at most MaxPlayers")
}
