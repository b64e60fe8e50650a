package revision

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOrderAcrossTheWrap(t *testing.T) {
	tests := []struct {
		name string
		a, b uint16
		want Order
	}{
		{"equal", 7, 7, Equal},
		{"equal at the top", 65535, 65535, Equal},
		{"plain newer", 8, 7, After},
		{"plain older", 7, 8, Before},
		{"zero is newer than 65535", 0, 65535, After},
		{"65535 is older than zero", 65535, 0, Before},
		{"two past the wrap", 1, 65535, After},
		{"far side of the wrap", 100, 65000, After},
		{"largest forward distance", 32767, 0, After},
		{"largest backward distance", 32769, 0, Before},
		{"half apart is unordered", 32768, 0, Unordered},
		{"half apart the other way is unordered", 0, 32768, Unordered},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Compare(tc.a, tc.b))
			require.Equal(t, tc.want == After, Newer(tc.a, tc.b))
			require.Equal(t, tc.want == Before, Older(tc.a, tc.b))
			require.Equal(t, tc.want == After || tc.want == Equal, NewerOrEqual(tc.a, tc.b))
		})
	}
}

func TestDiffAcrossTheWrap(t *testing.T) {
	require.Equal(t, 2, Diff(1, 65535))
	require.Equal(t, -2, Diff(65535, 1))
	require.Equal(t, 0, Diff(65535, 65535))
	require.Equal(t, 32767, Diff(32767, 0))
	require.Equal(t, -32768, Diff(32768, 0))
	require.Equal(t, uint16(0), Next(65535))
	require.Equal(t, uint16(0), Max(65535, 0))
	require.Equal(t, uint16(0), Max(0, 65535))
}

// TestCompareIsAntisymmetric checks, over random pairs, that exactly one of the four
// orders holds and that swapping the arguments mirrors it.
func TestCompareIsAntisymmetric(t *testing.T) {
	seed := uint64(20261129)
	r := rand.New(rand.NewPCG(seed, seed))
	mirror := map[Order]Order{Equal: Equal, After: Before, Before: After, Unordered: Unordered}
	for range 100000 {
		a, b := uint16(r.Uint32()), uint16(r.Uint32())
		o := Compare(a, b)
		require.Equal(t, mirror[o], Compare(b, a), "seed %d: a=%d b=%d", seed, a, b)
		if o == After || o == Before {
			require.Equal(t, o == After, Diff(a, b) > 0, "seed %d: a=%d b=%d", seed, a, b)
		}
	}
}

func TestCountingThroughTheWrapStaysNewer(t *testing.T) {
	r := uint16(65530)
	for range 20 {
		n := Next(r)
		require.True(t, Newer(n, r), "%d after %d", n, r)
		r = n
	}
	require.Equal(t, uint16(14), r)
}

func TestOrderString(t *testing.T) {
	require.Equal(t, "equal after before unordered",
		Equal.String()+" "+After.String()+" "+Before.String()+" "+Unordered.String())
}

func BenchmarkNewer(b *testing.B) {
	b.ReportAllocs()
	var x uint16
	var n int
	for b.Loop() {
		if Newer(x, 65000) {
			n++
		}
		x++
	}
	_ = n
}
