package match

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// Streaming end to end: the server shows a player only to those within its stream
// distance (refserver's [streaming]); the honest clients build, drop and rebuild their
// copies from the shows and hides, and no honest player is wronged at the edge.

// Players crossing the stream edge in the middle of a fight: a hit lands, the shooter
// runs beyond the distance and its last shot's report is still credited, both drop each
// other's copy, and when it comes back both rebuild it from the show and the fight goes on.
func TestStreamCrossingTheEdgeMidFight(t *testing.T) {
	s := newScenario(t, Config{Players: 2})
	s.shoot(0, 1, weaponM4)
	s.run(500 * ms)
	require.Less(t, s.client(1).Health(), float32(100), "hit before the edge")
	s.agree(1)
	// A shot, and at once the shooter runs off beyond the distance and its margin.
	s.shoot(0, 1, weaponM4)
	s.place(0, wire.Vec3{X: 600, Z: Ground})
	s.run(time.Second)
	_, ok := s.client(1).Remote(0)
	require.False(t, ok, "the victim dropped the shooter's copy")
	_, ok = s.client(0).Remote(1)
	require.False(t, ok, "the shooter dropped the victim's copy")
	require.False(t, s.m.server.Sees(1, 0))
	require.Len(t, s.eventsOf(refserver.EventPlayerDamage), 2, "both hits credited, the second after the shooter left")
	s.agree(1)
	// Back within the distance: shown again, alive, and the fight goes on.
	s.place(0, wire.Vec3{X: 30, Z: Ground})
	r, ok := s.client(1).Remote(0)
	require.True(t, ok, "the victim rebuilt the shooter's copy from the show")
	require.True(t, r.Copy.Alive)
	health := s.client(1).Health()
	s.shoot(0, 1, weaponM4)
	s.run(500 * ms)
	require.Less(t, s.client(1).Health(), health, "hit after the return")
	s.agree(1)
	require.Positive(t, s.client(1).Counters().Hides)
	s.noWrongs()
}

// A death just outside a player's stream: it gets no edge, and the corpse it walks up to
// is shown lying as it fell; the respawn rebuilds the copy alive in the new life.
func TestStreamDeathJustOutsideIsShownAsTheCorpse(t *testing.T) {
	s := newScenario(t, Config{Players: 3})
	// Player 2 stands 225 m from the victim (1 at x=20): beyond the distance and its
	// margin, so it does not see it.
	s.place(2, wire.Vec3{X: 245, Z: Ground})
	s.run(500 * ms)
	_, ok := s.client(2).Remote(1)
	require.False(t, ok)
	require.NoError(t, s.m.server.SetHealth(s.now(), 1, 5))
	s.run(500 * ms)
	s.shoot(0, 1, weaponM4)
	s.run(500 * ms)
	require.False(t, s.client(1).Alive())
	require.Len(t, s.eventsOf(refserver.EventPlayerDeath), 1)
	// Player 2 walks up to the corpse.
	s.place(2, wire.Vec3{X: 60, Z: Ground})
	r, ok := s.client(2).Remote(1)
	require.True(t, ok, "shown once within the distance")
	require.False(t, r.Copy.Alive, "shown as the corpse")
	gen, err := s.m.server.Generation(1)
	require.NoError(t, err)
	require.Equal(t, lifecycle.Generation(gen), r.Copy.Gen)
	// The respawn: whoever sees it rebuilds the copy alive in the new life.
	s.run(5 * time.Second)
	require.True(t, s.client(1).Alive())
	g2, err := s.m.server.Generation(1)
	require.NoError(t, err)
	for _, i := range []int{0, 2} {
		if r, ok := s.client(i).Remote(1); ok && s.m.server.Sees(refserver.PlayerID(i), 1) {
			require.True(t, r.Copy.Alive, "player %d's copy", i)
			require.Equal(t, lifecycle.Generation(g2), r.Copy.Gen, "player %d's copy", i)
		}
	}
	s.agree(1)
	s.noWrongs()
}

// A whole match on a map larger than the stream distance: the players meet and part, and
// no honest player is wronged (the measurement the README's -world command repeats at
// scale).
func TestStreamMatchOnALargeMapWrongsNobody(t *testing.T) {
	r, err := Run(Config{Seed: 3, Players: 40, World: 800, Duration: 90 * time.Second, Vehicles: 6})
	require.NoError(t, err)
	require.Zero(t, r.HonestWronged, "%v", r)
	require.Positive(t, r.Deaths, "the players met and fought")
	t.Logf("%d players on 800 m: %d shots, %d deaths", 40, r.Shots, r.Deaths)
}

// Rule [vehicle-copies-current]: on a map larger than the stream distance, with cars
// driven in and out of each other's view at 400 ms, 30 ms of jitter and 5 % loss, every
// honest client's copies of the vehicles follow the server's: a parked car's copy stands
// where the server has it, a car near a player has a copy, a far one none.
func TestStreamVehicleCopiesFollowTheServer(t *testing.T) {
	r, err := Run(Config{Seed: 2, Players: 40, World: 800, Vehicles: 12, Duration: time.Minute,
		RTTMin: 400 * ms, RTTMax: 400 * ms, Jitter: 30 * ms, Loss: 0.05})
	require.NoError(t, err)
	require.Zero(t, r.HonestWronged, "%v", r)
	v := r.Vehicles
	require.Positive(t, v.Entries, "cars were driven")
	require.Positive(t, v.Hides, "cars left players' view")
	require.Greater(t, v.Shows, v.Hides, "and came into it")
	require.Positive(t, v.CopiesChecked)
	require.Zero(t, v.CopiesStale, "worst %.1f m", v.WorstParkedCopyM)
	require.Zero(t, v.CopiesMissing)
	require.Zero(t, v.CopiesLingering)
}
