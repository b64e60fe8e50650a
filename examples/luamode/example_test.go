package luamode_test

import (
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/arbitergo/arbiter/examples/luamode"
	"github.com/arbitergo/arbiter/examples/refserver"
)

// A host loads a gamemode on its World, then on the World's goroutine passes it the
// World's events and time. A refusal comes back to the script as (nil, message).
func ExampleNew() {
	w, err := refserver.New(refserver.Config{MaxPlayers: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := luamode.New(w, []byte(`
assert(create_team(1, "grove"))
local ok, msg = create_team(1, "grove again")
log(tostring(ok) .. ": " .. msg)
set_timer(500, function() log("timer at " .. now() .. " ms") end)
`), luamode.Options{Name: "example.lua", Logger: slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	for now := time.Duration(0); now <= time.Second; now += 100 * time.Millisecond {
		m.Handle(now, w.Events(nil))
		m.Tick(now)
	}
	fmt.Println(m.Stats().Callbacks, "callback ran")
	// Output:
	// level=INFO msg="lua gamemode" file=example.lua text="nil: refserver: team command refused: teams: team already exists: 1"
	// level=INFO msg="lua gamemode" file=example.lua text="timer at 500 ms"
	// 1 callback ran
}
