package rewind

import (
	"flag"
	"math/rand/v2"
	"testing"
)

var seedFlag = flag.Uint64("seed", 0, "run the randomized tests with this one seed")

// seeds returns the seeds a randomized test runs: n fixed ones (a third of them under
// the race detector), or the -seed flag.
func seeds(t testing.TB, n int) []uint64 {
	if *seedFlag != 0 {
		return []uint64{*seedFlag}
	}
	if raceEnabled {
		n = (n + 2) / 3
	}
	s := make([]uint64, n)
	for i := range s {
		s[i] = uint64(i)*0x9E3779B97F4A7C15 + 1
	}
	return s
}

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0xA5A5A5A5)) }
