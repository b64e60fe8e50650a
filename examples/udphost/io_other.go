//go:build !linux

package udphost

import "net"

// newBatchIO returns nil: batched system calls are used on Linux only.
func newBatchIO(*net.UDPConn) packetIO { return nil }
