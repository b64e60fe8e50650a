package teams

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Vehicle explosions, each case of [explosion-spares-teammates]. The world: redA, redB in red and blueA,
// blueB in blue (friendly fire off), loner in ffa (friendly fire on), nomad in no team.
func TestVehicleExplosion(t *testing.T) {
	tests := []struct {
		name   string
		killer PlayerID
		seats  []Seat
		want   []Fate
	}{
		{
			name:   "with a credited killer the killer's enemies inside die and get that killer",
			killer: blueA,
			seats:  []Seat{{redA, NoPlayer}, {redB, NoPlayer}},
			want:   []Fate{{redA, KilledByAuthor, blueA}, {redB, KilledByAuthor, blueA}},
		},
		{
			name:   "the killer's teammates inside refuse its damage: not counted dead, no killer",
			killer: blueA,
			seats:  []Seat{{blueB, NoPlayer}, {redA, NoPlayer}},
			want:   []Fate{{blueB, SparedTeammateOfAuthor, NoPlayer}, {redA, KilledByAuthor, blueA}},
		},
		{
			name:   "a teammate of the killer is spared even with an enemy's earlier damage",
			killer: blueA,
			seats:  []Seat{{blueB, redA}},
			want:   []Fate{{blueB, SparedTeammateOfAuthor, NoPlayer}},
		},
		{
			name:   "with a credited killer the killer is the author, not the last damage",
			killer: blueA,
			seats:  []Seat{{redA, nomad}},
			want:   []Fate{{redA, KilledByAuthor, blueA}},
		},
		{
			name:   "the killer inside its own explosion is not its own teammate",
			killer: blueA,
			seats:  []Seat{{blueA, NoPlayer}, {blueB, NoPlayer}},
			want:   []Fate{{blueA, KilledByAuthor, blueA}, {blueB, SparedTeammateOfAuthor, NoPlayer}},
		},
		{
			name:   "friendly fire on: the killer's team mates are not teammates and die",
			killer: loner,
			seats:  []Seat{{10, NoPlayer}},
			want:   []Fate{{10, KilledByAuthor, loner}},
		},
		{
			name:   "a killer without a team spares nobody",
			killer: nomad,
			seats:  []Seat{{redA, NoPlayer}, {nomad, NoPlayer}},
			want:   []Fate{{redA, KilledByAuthor, nomad}, {nomad, KilledByAuthor, nomad}},
		},
		{
			name:   "without a credited killer everyone inside dies; the last damage names the killer",
			killer: NoPlayer,
			seats:  []Seat{{redA, blueA}, {blueB, redB}},
			want:   []Fate{{redA, KilledByLastDamage, blueA}, {blueB, KilledByLastDamage, redB}},
		},
		{
			name:   "without a credited killer a teammate's last damage names no killer",
			killer: NoPlayer,
			seats:  []Seat{{redA, redB}, {blueA, redB}},
			want:   []Fate{{redA, KilledTeammateUnnamed, NoPlayer}, {blueA, KilledByLastDamage, redB}},
		},
		{
			name:   "without a credited killer and without a last damage there is no killer",
			killer: NoPlayer,
			seats:  []Seat{{redA, NoPlayer}, {redB, NoPlayer}},
			want:   []Fate{{redA, KilledNoKiller, NoPlayer}, {redB, KilledNoKiller, NoPlayer}},
		},
		{
			name:   "an empty vehicle has no fates",
			killer: blueA,
			seats:  nil,
			want:   nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := world(t)
			require.NoError(t, r.Connect(10))
			must(t)(r.JoinTeam(10, ffa))
			got, err := r.JudgeExplosion(tc.killer, tc.seats, nil)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			for _, f := range got {
				require.Equal(t, f.Outcome != SparedTeammateOfAuthor, f.Outcome.Dies())
				if f.Killer != NoPlayer {
					require.False(t, r.Teammates(f.Killer, f.Player), "a teammate named killer: %v", f)
				}
			}
		})
	}
}

// The explosion is judged with the groups at the explosion: a team change just before it
// decides who is spared.
func TestVehicleExplosionUsesTheRelationAtTheExplosion(t *testing.T) {
	r := world(t)
	must(t)(r.JoinTeam(redA, blue))
	got, err := r.JudgeExplosion(blueA, []Seat{{redA, NoPlayer}, {redB, NoPlayer}}, nil)
	require.NoError(t, err)
	require.Equal(t, []Fate{{redA, SparedTeammateOfAuthor, NoPlayer}, {redB, KilledByAuthor, blueA}}, got)
}

func TestVehicleExplosionRefusesBadFactsAndLeavesDstAlone(t *testing.T) {
	eleven := make([]Occupant, MaxOccupants+1)
	for i := range eleven {
		eleven[i] = Occupant{Player: PlayerID(i), LastAttacker: NoPlayer}
	}
	tests := []struct {
		name string
		e    Explosion
		want error
	}{
		{"too many occupants", Explosion{Killer: NoPlayer, Occupants: eleven}, ErrOccupants},
		{"an occupant twice", Explosion{Killer: NoPlayer, Occupants: []Occupant{
			{Player: 1, LastAttacker: NoPlayer}, {Player: 2, LastAttacker: NoPlayer}, {Player: 1, LastAttacker: NoPlayer}}}, ErrOccupants},
		{"killer out of range", Explosion{Killer: MaxPlayers}, ErrPlayerOutOfRange},
		{"occupant out of range", Explosion{Killer: NoPlayer, Occupants: []Occupant{{Player: NoPlayer, LastAttacker: NoPlayer}}}, ErrPlayerOutOfRange},
		{"last attacker out of range", Explosion{Killer: NoPlayer, Occupants: []Occupant{{Player: 1, LastAttacker: MaxPlayers}}}, ErrPlayerOutOfRange},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := []Fate{{Player: 9, Outcome: KilledNoKiller, Killer: NoPlayer}}
			got, err := JudgeExplosion(tc.e, dst)
			require.ErrorIs(t, err, tc.want)
			require.Equal(t, dst, got)
		})
	}
	r := world(t)
	seats := make([]Seat, MaxOccupants+1)
	_, err := r.JudgeExplosion(NoPlayer, seats, nil)
	require.ErrorIs(t, err, ErrOccupants)
}

func TestVehicleExplosionDoesNotAllocate(t *testing.T) {
	r := world(t)
	seats := []Seat{{redA, NoPlayer}, {redB, blueB}, {blueB, NoPlayer}, {nomad, redA}}
	dst := make([]Fate, 0, MaxOccupants)
	allocs := testing.AllocsPerRun(100, func() {
		dst, _ = r.JudgeExplosion(blueA, seats, dst[:0])
		dst, _ = r.JudgeExplosion(NoPlayer, seats, dst[:0])
	})
	require.Zero(t, allocs)
	require.Len(t, dst, len(seats))
}

func TestOutcomeAndFateStrings(t *testing.T) {
	require.Equal(t, "player 3: killed by the author (killer 7)", Fate{3, KilledByAuthor, 7}.String())
	require.Equal(t, "player 4: spared: teammate of the author (killer none)", Fate{4, SparedTeammateOfAuthor, NoPlayer}.String())
	require.Equal(t, []string{"killed, killer by the last damage", "killed, teammate not named", "killed, no killer", "Outcome(0)"},
		[]string{KilledByLastDamage.String(), KilledTeammateUnnamed.String(), KilledNoKiller.String(), Outcome(0).String()})
	require.False(t, Outcome(0).Dies())
}
