//go:build !race

package inventory

// raceEnabled: see race_on_test.go.
const raceEnabled = false
