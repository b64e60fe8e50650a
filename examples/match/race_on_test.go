//go:build race

package match

// raceEnabled is true when the tests run under the race detector, which slows the
// simulation about tenfold: the long tests shorten themselves.
const raceEnabled = true
