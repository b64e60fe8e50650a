package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/wire"
)

// stealthPair is a (with a knife) and b, two raw connections at a 200 ms round trip, and a
// Sultan (vehicle 1) at x = 2 beside them.
func stealthPair(t *testing.T) (k *simkit.Kit, w *refserver.World, a, b *sender, advance func(time.Duration)) {
	t.Helper()
	kit, r := rawDuel(t, refserver.Config{}, deagle, 200*time.Millisecond, 2)
	s := senders(t, kit, r, deagle)
	a, b = s[0], s[1]
	w = kit.Server()
	require.NoError(t, w.CreateVehicle(kit.Now(), 1, modelSultan, wire.Vec3{X: 2}, wire.Quat{W: 1}))
	require.NoError(t, w.GiveWeapon(kit.Now(), a.r.ID(), knife, 1, true))
	a.weapon = knife
	require.NoError(t, kit.Advance(3*time.Second)) // the round trips are measured
	a.walkTo(wire.Vec3{X: 1})
	b.walkTo(wire.Vec3{X: 2})
	advance = func(d time.Duration) {
		t.Helper()
		require.NoError(t, kit.Advance(d))
	}
	return kit, w, a, b, advance
}

func (s *sender) stealth(victim *sender) refserver.Verdict {
	s.t.Helper()
	return must(s.t)(s.r.Send(&wire.StealthKill{Victim: victim.r.ID(), VictimEpoch: victim.gen, DeathEpoch: s.gen, Weapon: knife}))
}

// Rule [stealth-on-foot]: a knife kill takes two players on foot. A driver who has sat
// in its car for longer than the attacker's round trip and StealthSeatGrace cannot be
// knifed from beside it; nor can an attacker who sits in a car knife anyone.
func TestStealthKillOfADriverSeatedLongAgoIsRefused(t *testing.T) {
	_, w, a, b, advance := stealthPair(t)
	rtt, ok := w.RTT(a.r.ID())
	require.True(t, ok)
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 2}))
	advance(rtt + refserver.StealthSeatGrace + 50*time.Millisecond)
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.Equal(t, refserver.VerdictAccepted, b.frame())
	require.Equal(t, refserver.VerdictSeated, a.stealth(b), "the driver sits in its car")
	require.True(t, w.Alive(b.r.ID()))

	// The attacker in the car, the victim on foot beside it.
	require.Equal(t, refserver.VerdictAccepted, b.board(wire.NoVehicle, 0, wire.Vec3{X: 3}))
	require.Equal(t, refserver.VerdictAccepted, a.board(1, 0, wire.Vec3{X: 2}))
	advance(rtt + refserver.StealthSeatGrace + 50*time.Millisecond)
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.Equal(t, refserver.VerdictAccepted, b.frame())
	require.Equal(t, refserver.VerdictSeated, a.stealth(b), "the attacker sits in the car")
	require.True(t, w.Alive(b.r.ID()))
}

// Rule [stealth-on-foot], the honest side: an attacker saw its victim on foot up to a
// round trip before the server did, so a victim who took its seat within the attacker's
// round trip and StealthSeatGrace is still knifed.
func TestStealthKillOfAVictimWhoJustSatDownIsAccepted(t *testing.T) {
	_, w, a, b, advance := stealthPair(t)
	rtt, ok := w.RTT(a.r.ID())
	require.True(t, ok)
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 2}))
	advance(rtt)
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.Equal(t, refserver.VerdictAccepted, a.stealth(b), "within the round trip and the grace")
}
