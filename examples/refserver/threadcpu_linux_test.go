package refserver

import (
	"syscall"
	"time"
)

// rusageThread is getrusage's RUSAGE_THREAD (the standard syscall package names only
// RUSAGE_SELF and RUSAGE_CHILDREN).
const rusageThread = 1

// threadCPU returns the CPU time (user and system) the calling thread has used; the
// caller locks its goroutine to the thread (runtime.LockOSThread) between two readings.
func threadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
