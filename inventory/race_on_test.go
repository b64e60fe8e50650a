//go:build race

package inventory

// raceEnabled scales the long randomized tests down under the race detector, which
// slows them about tenfold; the same code paths run, on fewer seeds.
const raceEnabled = true
