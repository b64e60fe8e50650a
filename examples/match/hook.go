package match

import (
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
)

// Gamemode is a gamemode of the host's that replaces the match's own script
// (Config.Gamemode), such as a Lua gamemode (examples/luamode). The match calls it on the
// server's goroutine: Handle with every batch of the server's events, Tick with the
// match's time, both only during play (not while the match settles).
type Gamemode interface {
	// Handle sees the server's events drained at now.
	Handle(now time.Duration, events []refserver.Event)
	// Tick runs what is due at now.
	Tick(now time.Duration)
}
