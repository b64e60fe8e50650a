//go:build !race

package lane

// laneRaceEnabled is true when the tests run under the race detector.
const laneRaceEnabled = false
