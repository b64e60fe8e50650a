package luamode

import (
	"bytes"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
)

// harness is a small world: a refserver World, honest clients on a perfect network, and
// the Mode under test, all stepped on one simulated clock.
type harness struct {
	t    *testing.T
	w    *refserver.World
	m    *Mode
	cl   []*client.Client
	now  time.Duration
	ev   []refserver.Event
	logs *bytes.Buffer
	all  []refserver.Event // every event the World raised
}

const step = 10 * time.Millisecond

func newHarness(t *testing.T, players int, script string, opts Options) *harness {
	t.Helper()
	w, err := refserver.New(refserver.Config{MaxPlayers: 8, MaxVehicles: 1, RespawnDelay: time.Second})
	require.NoError(t, err)
	h := &harness{t: t, w: w, logs: &bytes.Buffer{}, now: time.Second}
	opts.Logger = slog.New(slog.NewTextHandler(h.logs, nil))
	opts.Now = h.now
	if opts.Name == "" {
		opts.Name = "test.lua"
	}
	h.m, err = New(w, []byte(script), opts)
	require.NoError(t, err)
	t.Cleanup(h.m.Close)
	for i := range players {
		c, err := client.New(client.Config{Seed: uint64(i + 1)})
		require.NoError(t, err)
		h.cl = append(h.cl, c)
	}
	return h
}

// run steps the world for d: clients tick and send, the World ticks and sends, its events
// go to the Mode, the Mode's timers run.
func (h *harness) run(d time.Duration) {
	h.t.Helper()
	for end := h.now + d; h.now < end; {
		h.now += step
		for i, c := range h.cl {
			if closed, _ := c.Closed(); closed {
				_ = c.Flush(h.now, func(b []byte) { _ = h.w.Receive(h.now, refserver.PlayerID(i), b) }) // its goodbye
				continue
			}
			require.NoError(h.t, c.Tick(h.now))
			require.NoError(h.t, c.Flush(h.now, func(b []byte) { _ = h.w.Receive(h.now, refserver.PlayerID(i), b) }))
		}
		require.NoError(h.t, h.w.Tick(h.now))
		require.NoError(h.t, h.w.Flush(h.now, func(conn refserver.PlayerID, b []byte) {
			if int(conn) < len(h.cl) {
				_ = h.cl[conn].Receive(h.now, b)
			}
		}))
		h.ev = h.w.Events(h.ev[:0])
		h.all = append(h.all, h.ev...)
		h.m.Handle(h.now, h.ev)
		h.m.Tick(h.now)
	}
}

// global reads a global of the script.
func (h *harness) global(name string) string {
	return h.m.L.GetGlobal(name).String()
}

// eval runs a chunk of Lua in the Mode's state (as the host would run a callback) and
// returns the global "out" it sets.
func (h *harness) eval(src string) string {
	h.t.Helper()
	fn, err := h.m.L.LoadString(src)
	require.NoError(h.t, err)
	require.NoError(h.t, h.m.pcall(fn))
	return h.global("out")
}
