package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// TestTakenWeaponFiresOnlyForTheMeasuredRoundTrip is issue 17's case through the World:
// after a TakeWeapon, a client that withholds its acknowledgement and never echoes keeps
// firing the Deagle. Its shots are accepted while they could have been fired before the
// take reached it (the round trip the server measured plus
// inventory.OverwriteShotMargin), and refused after, long before the 15 s the lane
// waits for an acknowledgement.
func TestTakenWeaponFiresOnlyForTheMeasuredRoundTrip(t *testing.T) {
	const weaponDeagle uint8 = 24
	h := newHarness(t, testConfig())
	c := h.join(0)
	h.spawn(c)
	const rtt = 200 * time.Millisecond
	h.rtt(rtt)
	got, ok := h.w.RTT(c.id)
	require.True(t, ok)
	require.Equal(t, rtt, got)
	h.give(c, weaponDeagle, 70)
	c.silent = true // from now on it acknowledges nothing and echoes nothing
	takeAt := h.now
	require.NoError(t, h.w.TakeWeapon(h.now, c.id, weaponDeagle))
	end := wire.Vec3{X: c.pos.X + 10, Y: c.pos.Y, Z: c.pos.Z}
	window := rtt + inventory.OverwriteShotMargin
	accepted := 0
	for h.now = takeAt + 10*time.Millisecond; h.now < takeAt+3*time.Second; h.now += 130 * time.Millisecond {
		v := h.shoot(c, end, wire.HitNone, 0)
		if h.now < takeAt+window {
			require.Equal(t, VerdictAccepted, v, "a Deagle shot %v after the take, within the round trip's window", h.now-takeAt)
			accepted++
			continue
		}
		require.Equal(t, VerdictNotOwned, v, "a taken Deagle fired %v after the take", h.now-takeAt)
	}
	require.Positive(t, accepted)
}
