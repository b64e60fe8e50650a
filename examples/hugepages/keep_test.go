package hugepages

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
)

// Keep advises at once, then after 1, 2, 4, ... seconds up to Interval, then every
// Interval, and ends when its context does (or at once where there are no huge pages);
// stop waits for it.
func TestKeepAdvisesOftenAtFirstThenEveryInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
		defer cancel()
		var at []time.Duration
		unsupported := false
		stop := Keep(ctx, func(_ Stats, err error) {
			at = append(at, time.Since(start))
			unsupported = errors.Is(err, ErrUnsupported)
		})
		<-ctx.Done()
		stop()
		if unsupported {
			require.Equal(t, []time.Duration{0}, at, "no huge pages: one call")
			return
		}
		s := time.Second
		require.Equal(t, []time.Duration{0, s, 3 * s, 7 * s, 15 * s, 31 * s, 63 * s, 123 * s}, at, "the context ends at 180 s")
	})
}
