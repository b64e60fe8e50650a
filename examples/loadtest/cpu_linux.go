//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTick is the unit of /proc/<pid>/stat's CPU times: USER_HZ, 100 on every Linux
// architecture's user ABI.
const clockTick = time.Second / 100

// procCPU returns the CPU time (user + system) process pid has used, from
// /proc/<pid>/stat.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces: the fields
	// after the last ')' are 3 (state) onwards; utime and stime are fields 14 and 15.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	utime, err1 := strconv.ParseUint(string(f[11]), 10, 64)
	stime, err2 := strconv.ParseUint(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: utime %q stime %q", pid, f[11], f[12])
	}
	return time.Duration(utime+stime) * clockTick, nil
}

// selfCPU returns the CPU time (user + system) this process has used.
func selfCPU() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}

// socketDrops returns the datagrams the kernel dropped for want of room in the receive
// buffer of each IPv4 UDP socket bound to one of ports (the drops column of
// /proc/net/udp), summed: the server's socket (server true) and the clients' (false).
func socketDrops(serverPort uint16, clientPorts map[uint16]bool) (server, clients uint64, err error) {
	b, err := os.ReadFile("/proc/net/udp")
	if err != nil {
		return 0, 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 13 || !strings.HasSuffix(f[0], ":") {
			continue // the header, or a blank line
		}
		_, hexPort, ok := strings.Cut(f[1], ":")
		if !ok {
			continue
		}
		port, err1 := strconv.ParseUint(hexPort, 16, 16)
		drops, err2 := strconv.ParseUint(f[12], 10, 64)
		if err1 != nil || err2 != nil {
			return 0, 0, fmt.Errorf("/proc/net/udp: %q", line)
		}
		switch {
		case uint16(port) == serverPort:
			server += drops
		case clientPorts[uint16(port)]:
			clients += drops
		}
	}
	return server, clients, nil
}
