//go:build race

package vitals

// raceEnabled scales the long simulations down under the race detector: the package is
// single-goroutine, the full runs happen in the plain go test.
const raceEnabled = true
