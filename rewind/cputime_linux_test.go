//go:build linux

package rewind

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time the calling OS thread has used (CLOCK_THREAD_CPUTIME_ID).
// Benchmarks lock their goroutine to a thread and report it per op beside the wall
// time, which on a shared machine also counts the time other processes held the CPU.
func threadCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
