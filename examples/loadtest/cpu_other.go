//go:build !linux

package main

import (
	"errors"
	"time"
)

// errNoCPU: the CPU times and the drops are read from Linux's /proc and getrusage only.
var errNoCPU = errors.New("loadtest: CPU time is measured on Linux only")

func procCPU(int) (time.Duration, error) { return 0, errNoCPU }

func selfCPU() (time.Duration, error) { return 0, errNoCPU }

func socketDrops(uint16, map[uint16]bool) (server, clients uint64, err error) { return 0, 0, errNoCPU }
