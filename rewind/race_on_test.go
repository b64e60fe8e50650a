//go:build race

package rewind

// raceEnabled scales the randomized tests down under the race detector, which slows this
// single-goroutine code tenfold without anything to find in it.
const raceEnabled = true
