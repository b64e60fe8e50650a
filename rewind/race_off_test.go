//go:build !race

package rewind

// raceEnabled scales the randomized tests down under the race detector.
const raceEnabled = false
