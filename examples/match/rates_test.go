package match

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestWindowCountsTheLastSecond: the sliding window's maximum is the most arrivals any
// one-second span ending at an arrival held, as a naive count over every arrival finds it,
// through bursts that grow its ring and quiet spells that empty it.
func TestWindowCountsTheLastSecond(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var w window
	var all []time.Duration
	now := time.Duration(0)
	for i := range 5000 {
		switch {
		case i%3000 < 400: // a burst
			now += time.Duration(rng.IntN(3)) * time.Millisecond
		case rng.IntN(50) == 0: // a pause
			now += time.Duration(rng.IntN(3000)) * time.Millisecond
		default:
			now += time.Duration(rng.IntN(60)) * time.Millisecond
		}
		w.add(now)
		all = append(all, now)
		n := 0
		for _, at := range all {
			if now-at < time.Second {
				n++
			}
		}
		require.Equal(t, n, w.n, "arrival %d", i)
	}
	most := 0
	for i, at := range all {
		n := 0
		for _, b := range all[:i+1] {
			if at-b < time.Second {
				n++
			}
		}
		most = max(most, n)
	}
	require.Equal(t, most, w.most)
	require.Greater(t, most, 200, "the bursts grew the ring")
}
