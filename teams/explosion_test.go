package teams

import (
	"testing"

	"github.com/stretchr/testify/require"
)

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
