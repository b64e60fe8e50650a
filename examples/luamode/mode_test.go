package luamode

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/arbitergo/arbiter/examples/refserver"
)

// recorder registers a callback for every gamemode event that appends a line per event
// to the global "seen".
const recorder = `
seen = ""
local function rec(ev)
  local s = ev.name .. " p=" .. tostring(ev.player and ev.player.id)
  if ev.name == "player_damage" then
    s = s .. " attacker=" .. tostring(ev.attacker) .. " weapon=" .. ev.weapon .. " amount=" .. ev.amount .. " deducted=" .. ev.deducted
  elseif ev.name == "player_death" then
    s = s .. " killer=" .. tostring(ev.killer) .. " weapon=" .. ev.weapon .. " gen=" .. ev.gen .. " commit=" .. ev.commit
  elseif ev.name == "player_spawn" then
    s = s .. " gen=" .. ev.gen .. " connect=" .. tostring(ev.connect)
  elseif ev.name == "player_join" then
    s = s .. " token=" .. ev.token
  elseif ev.name == "player_leave" then
    s = s .. " reason=" .. ev.reason
  elseif ev.name == "god_mode_suspect" then
    s = s .. " claimed=" .. ev.claimed .. " felt=" .. ev.felt
  end
  seen = seen .. s .. "\n"
end
for _, name in ipairs({"player_join", "player_spawn", "player_damage", "player_death", "player_leave", "god_mode_suspect"}) do
  assert(on(name, rec))
end
`

// TestEventsReachTheirCallbacks: each gamemode event of the World reaches the callback
// registered for its name, with the event's fields.
func TestEventsReachTheirCallbacks(t *testing.T) {
	h := newHarness(t, 2, recorder, Options{})
	h.run(time.Second)
	seen := h.global("seen")
	tok0, tok1 := h.cl[0].Token(), h.cl[1].Token()
	require.Contains(t, seen, "player_join p=0 token="+itoa(int(tok0))+"\n")
	require.Contains(t, seen, "player_join p=1 token="+itoa(int(tok1))+"\n")
	require.Contains(t, seen, "player_spawn p=0 gen=1 connect=true\n")
	require.Contains(t, seen, "player_spawn p=1 gen=1 connect=true\n")

	_, err := h.cl[0].Fall(h.now, 30)
	require.NoError(t, err)
	h.run(time.Second)
	seen = h.global("seen")
	require.Contains(t, seen, "player_damage p=0 attacker=nil weapon=54 amount=30 deducted=")

	_, err = h.cl[1].Fall(h.now, 150)
	require.NoError(t, err)
	h.run(3 * time.Second)
	seen = h.global("seen")
	require.Contains(t, seen, "player_death p=1 killer=nil weapon=54 gen=1 commit=")
	require.Contains(t, seen, "player_spawn p=1 gen=2 connect=false\n", "the respawn after RespawnDelay")

	require.NoError(t, h.cl[0].Leave(h.now))
	h.run(time.Second)
	require.Contains(t, h.global("seen"), "player_leave p=0 reason=")
}

// TestGodModeSuspectReachesItsCallback: the detector's flag reaches god_mode_suspect with
// the claimed and felt loss (driven as an event value: provoking the detector takes a
// cheating client).
func TestGodModeSuspectReachesItsCallback(t *testing.T) {
	h := newHarness(t, 1, recorder, Options{})
	h.run(500 * time.Millisecond)
	h.m.Handle(h.now, []refserver.Event{{Kind: refserver.EventGodModeSuspect, At: h.now, Player: 0, Other: refserver.NoPlayer, Amount: 120, Deducted: 5, Seq: 9}})
	require.Contains(t, h.global("seen"), "god_mode_suspect p=0 claimed=120 felt=5\n")
}

// TestVerbsAndRefusals: each facade verb works on a living player and comes back as
// (nil, message) when the World refuses it, never a raised error.
func TestVerbsAndRefusals(t *testing.T) {
	h := newHarness(t, 2, `assert(create_team(1, "grove", 0x00ff00ff))`, Options{})
	h.run(time.Second) // joined, spawned, first frames
	cases := []struct {
		name string
		lua  string // sets out
		want string
	}{
		{"set_health", `out = tostring(player(0):set_health(50))`, "true"},
		{"set_health refused", `local ok, msg = player(0):set_health(500); out = tostring(ok) .. "|" .. msg`, "nil|refserver: value out of range"},
		{"set_health NaN refused", `local ok, msg = player(0):set_health(0/0); out = tostring(ok) .. "|" .. msg`, "nil|health NaN not finite"},
		{"add_health", `out = tostring(player(0):add_health(10, 100))`, "true"},
		{"add_health refused", `local ok, msg = player(0):add_health(10, 1000); out = tostring(ok) .. "|" .. msg`, "nil|refserver: value out of range"},
		{"set_armor", `out = tostring(player(0):set_armor(40))`, "true"},
		{"set_armor refused", `local ok, msg = player(0):set_armor(-1); out = tostring(ok) .. "|" .. msg`, "nil|refserver: value out of range"},
		{"add_armor", `out = tostring(player(0):add_armor(10, 100))`, "true"},
		{"give_weapon", `out = tostring(player(0):give_weapon(31, 100, true))`, "true"},
		{"give_weapon unknown refused", `local ok, msg = player(0):give_weapon(19, 100); out = tostring(ok) .. "|" .. msg`, "nil|refserver: weapon"},
		{"give_weapon out of range refused", `local ok, msg = player(0):give_weapon(300, 1); out = tostring(ok) .. "|" .. msg`, "nil|weapon 300 not an integer in 0..255"},
		{"take_weapon", `out = tostring(player(0):take_weapon(31))`, "true"},
		{"set_team", `out = tostring(player(0):set_team(1)) .. player(0):team()`, "true1"},
		{"set_team refused", `local ok, msg = player(0):set_team(7); out = tostring(ok) .. "|" .. msg`, "nil|refserver: team"},
		{"set_team 0 leaves", `out = tostring(player(0):set_team(0)) .. player(0):team()`, "true0"},
		{"unknown player refused", `local p, msg = player(5); out = tostring(p) .. "|" .. msg`, "nil|refserver: unknown player"},
		{"set_damage_multiplier", `out = tostring(set_damage_multiplier("explosion", 0.5))`, "true"},
		{"set_damage_multiplier refused", `local ok, msg = set_damage_multiplier("explosion", 1000); out = tostring(ok) .. "|" .. msg`, "nil|refserver: value out of range"},
		{"set_damage_multiplier unknown class", `local ok, msg = set_damage_multiplier("laser", 1); out = tostring(ok) .. "|" .. msg`, "nil|unknown damage class"},
		{"set_weapon_property", `out = tostring(set_weapon_property(31, {25, 26, 27}, 90))`, "true"},
		{"set_weapon_property refused", `local ok, msg = set_weapon_property(4, 10, 1); out = tostring(ok) .. "|" .. msg`, "nil|refserver: weapon"},
		{"create_explosion", `out = type(create_explosion(1, 2, 3, 5, 0, player(1)))`, "number"},
		{"create_explosion refused", `local ok, msg = create_explosion(1, 2, 3, 0); out = tostring(ok) .. "|" .. msg`, "nil|"},
		{"create_fire", `out = type(create_fire(1, 2, 3, 2))`, "number"},
		{"create_fire refused", `local ok, msg = create_fire(1, 2, 3, 2, 99); out = tostring(ok) .. "|" .. msg`, "nil|"},
		{"set_spawn_point", `out = tostring(player(1):set_spawn_point(10, 20, 3, 90))`, "true"},
		{"health", `out = tostring(player(0):health())`, "60"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := h.eval(c.lua)
			require.True(t, strings.HasPrefix(out, c.want), "got %q, want prefix %q", out, c.want)
		})
	}
	require.Equal(t, uint64(0), h.m.Stats().Errors)
}

// TestRespawnDecisions: allow_respawn sets when a death respawns, on the World's clock.
func TestRespawnDecisions(t *testing.T) {
	h := newHarness(t, 1, recorder+`
on("player_death", function(ev) assert(ev.player:allow_respawn(ev.gen, 3000)) end)
`, Options{})
	h.run(time.Second)
	_, err := h.cl[0].Fall(h.now, 150)
	require.NoError(t, err)
	h.run(2500 * time.Millisecond) // the World's own delay (1 s) passed; the script's not
	require.NotContains(t, h.global("seen"), "player_spawn p=0 gen=2")
	h.run(2 * time.Second)
	require.Contains(t, h.global("seen"), "player_spawn p=0 gen=2")
	// hold_respawn on an unknown life is a refusal.
	require.True(t, strings.HasPrefix(h.eval(`local ok, msg = player(0):hold_respawn(9); out = tostring(ok) .. "|" .. msg`), "nil|"))
}

// TestScriptErrorIsLoggedWithItsLine: a Lua error in a callback is logged with its line,
// and the next callback still runs.
func TestScriptErrorIsLoggedWithItsLine(t *testing.T) {
	h := newHarness(t, 1, `count = 0
on("player_join", function(ev)
  local x = nil
  return x.field -- line 4
end)
on("player_join", function(ev) count = count + 1 end)
`, Options{})
	h.run(500 * time.Millisecond)
	require.Equal(t, "1", h.global("count"), "the second callback ran")
	require.Equal(t, uint64(1), h.m.Stats().Errors)
	require.Contains(t, h.logs.String(), "file=test.lua line=4")
	require.Contains(t, h.logs.String(), "callback=player_join")
}

// TestInfiniteLoopIsStopped: a callback that never returns is cut by the instruction
// budget, logged, and the world and the other callbacks go on; the cut is deterministic
// (the same instruction on every run).
func TestInfiniteLoopIsStopped(t *testing.T) {
	script := `n = 0; after = 0
on("player_join", function(ev) while true do n = n + 1 end end)
on("player_join", function(ev) after = after + 1 end)
`
	h := newHarness(t, 1, script, Options{Budget: 10_000})
	h.run(500 * time.Millisecond)
	require.Equal(t, "1", h.global("after"))
	require.Equal(t, uint64(1), h.m.Stats().Aborted)
	require.Contains(t, h.logs.String(), "line=2")
	require.Contains(t, h.logs.String(), ErrBudget.Error())
	n := h.global("n")

	h2 := newHarness(t, 1, script, Options{Budget: 10_000})
	h2.run(500 * time.Millisecond)
	require.Equal(t, n, h2.global("n"), "the budget cuts at the same instruction")

	// A main chunk that never returns fails New.
	_, err := New(h.w, []byte(`while true do end`), Options{Budget: 1000})
	require.ErrorIs(t, err, ErrScript)
	require.ErrorContains(t, err, ErrBudget.Error())
}

// TestTimersFireAtTheirSimulatedTime: set_timer runs at the first Tick at or after its
// due time on the World's clock; a periodic timer repeats; kill_timer stops it.
func TestTimersFireAtTheirSimulatedTime(t *testing.T) {
	h := newHarness(t, 0, `fired = ""
set_timer(250, function() fired = fired .. "once@" .. now() .. " " end)
every = set_timer(100, function() fired = fired .. "every@" .. now() .. " " end, 200)
`, Options{})
	h.run(240 * time.Millisecond)
	require.Equal(t, "every@1100 ", h.global("fired"))
	h.run(20 * time.Millisecond)
	require.Equal(t, "every@1100 once@1250 ", h.global("fired"))
	h.run(300 * time.Millisecond)
	require.Equal(t, "every@1100 once@1250 every@1300 every@1500 ", h.global("fired"))
	require.Equal(t, "true", h.eval(`out = tostring(kill_timer(every))`))
	h.run(time.Second)
	require.Equal(t, "every@1100 once@1250 every@1300 every@1500 ", h.global("fired"))
	require.True(t, strings.HasPrefix(h.eval(`local ok, msg = kill_timer(every); out = tostring(ok) .. "|" .. msg`), "nil|no timer"))
	require.True(t, strings.HasPrefix(h.eval(`local ok, msg = set_timer(-1, print); out = tostring(ok) .. "|" .. msg`), "nil|duration"))
}

// TestSandbox: the unsafe libraries are not there, math.random is the seeded generator.
func TestSandbox(t *testing.T) {
	h := newHarness(t, 0, ``, Options{Seed: 7})
	require.Equal(t, "nil nil nil nil nil nil", h.eval(`out = table.concat({tostring(os), tostring(io), tostring(dofile), tostring(loadfile), tostring(require), tostring(debug)}, " ")`))
	a := h.eval(`out = tostring(math.random(1, 1000000))`)
	h2 := newHarness(t, 0, ``, Options{Seed: 7})
	require.Equal(t, a, h2.eval(`out = tostring(math.random(1, 1000000))`))
	fn, err := h.m.L.LoadString(`return string.rep("x", 1e9)`)
	require.NoError(t, err)
	require.ErrorContains(t, h.m.pcall(fn), "string.rep")
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestGoPanicInACallIsCaught: a Go panic under a callback (a host function the script
// calls) is caught, logged as a Go panic and counted; the next callback still runs.
func TestGoPanicInACallIsCaught(t *testing.T) {
	h := newHarness(t, 1, `after = 0
on("player_join", function(ev) host_bug() end)
on("player_join", function(ev) after = after + 1 end)
`, Options{})
	h.m.L.SetGlobal("host_bug", h.m.L.NewFunction(func(*lua.LState) int { panic("boom") }))
	h.run(500 * time.Millisecond)
	require.Equal(t, "1", h.global("after"))
	require.Equal(t, uint64(1), h.m.Stats().Panics)
	require.Contains(t, h.logs.String(), "go_panic=true")
}

// TestHostContextStopsCallbacks: once the host's context is cancelled, a callback stops
// at its next instruction (logged as aborted with the context's error).
func TestHostContextStopsCallbacks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	h := newHarness(t, 1, `n = 0
on("player_join", function(ev) n = n + 1 end)
`, Options{Context: ctx})
	cancel()
	h.run(500 * time.Millisecond)
	require.Equal(t, "0", h.global("n"))
	require.Equal(t, uint64(1), h.m.Stats().Aborted)
	require.Contains(t, h.logs.String(), context.Canceled.Error())
}

// TestEveryVerbOnAPlayerWhoLeftIsARefusal: a player value outlives its connection; every
// command on it comes back as (nil, message), and bad ids are refusals too.
func TestEveryVerbOnAPlayerWhoLeftIsARefusal(t *testing.T) {
	h := newHarness(t, 2, `gone = nil; on("player_leave", function(ev) gone = ev.player end)`, Options{})
	h.run(time.Second)
	require.NoError(t, h.cl[1].Leave(h.now))
	h.run(time.Second)
	for _, call := range []string{
		"set_health(50)", "add_health(10, 100)", "set_armor(10)", "add_armor(10, 100)",
		"give_weapon(31, 10)", "take_weapon(31)", "set_ammo(24, 10)", "set_armed_weapon(24)",
		"clear_weapons()", "set_team(1)", "set_team(0)", "set_spawn_point(1, 2, 3)",
		"allow_respawn(1, 0)", "hold_respawn(1)", "health()", "armor()", "generation()",
	} {
		t.Run(call, func(t *testing.T) {
			out := h.eval(`local ok, msg = gone:` + call + `; out = tostring(ok) .. "|" .. tostring(msg)`)
			require.True(t, strings.HasPrefix(out, "nil|refserver: unknown player"), out)
		})
	}
	require.Equal(t, "false false 0", h.eval(`out = tostring(gone:alive()) .. " " .. tostring(gone:connected()) .. " " .. gone:team()`))
	for _, id := range []string{"0.5", "-1", "1e300", "0/0", "65535"} {
		require.True(t, strings.HasPrefix(h.eval(`local p, msg = player(`+id+`); out = tostring(p) .. "|" .. msg`), "nil|refserver: unknown player"), id)
	}
	require.Zero(t, h.m.Stats().Errors)
}
