//go:build !linux

package refserver

import "time"

// threadCPU has no thread CPU clock here: the benchmarks report wall-clock time only.
func threadCPU() (time.Duration, bool) { return 0, false }
