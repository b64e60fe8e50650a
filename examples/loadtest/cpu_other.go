//go:build !linux

package main

import (
	"errors"
	"time"
)

// errNoCPU: the CPU times are read from Linux's /proc and getrusage only.
var errNoCPU = errors.New("loadtest: CPU time is measured on Linux only")

func procCPU(int) (time.Duration, error) { return 0, errNoCPU }

func selfCPU() (time.Duration, error) { return 0, errNoCPU }
