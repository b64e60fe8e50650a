//go:build race

package udphost

// raceEnabled is true under the race detector, which makes sync.Pool drop what it is
// given (x/net's sendmmsg keeps its headers in one): allocation counts mean nothing there.
const raceEnabled = true
