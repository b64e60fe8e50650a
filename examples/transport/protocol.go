package transport

import "time"

// The session's timing, shared by the reference server and the honest client model.
const (
	// FrameInterval is how often a client sends its PlayerSync (30 Hz).
	FrameInterval = 33 * time.Millisecond
	// MaxFrameGap is the longest a client ever goes without a frame.
	MaxFrameGap = 100 * time.Millisecond
	// HelloRetry is how often a client repeats Hello until the server's Welcome.
	HelloRetry = 250 * time.Millisecond
	// RespawnRetry is the timer on which a dead or unspawned client repeats RespawnRequest.
	RespawnRetry = time.Second
	// FireSumInterval is the period over which a client sums fire, spray and extinguisher
	// damage into one report.
	FireSumInterval = 250 * time.Millisecond
	// LinkTimeout is how long a server waits without a datagram before it drops a
	// connection.
	LinkTimeout = 15 * time.Second
)
