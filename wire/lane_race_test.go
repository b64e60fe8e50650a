//go:build race

package wire

// laneRaceEnabled is true when the tests run under the race detector.
const laneRaceEnabled = true
