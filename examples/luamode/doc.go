// Package luamode runs a gamemode written in Lua (github.com/yuin/gopher-lua, Lua 5.1) on
// a refserver World, the way SA-MP and MTA servers script theirs. A host builds a Mode
// with New or Load, then, on the World's goroutine, passes it the World's events
// (Mode.Handle, after World.Events) and its time (Mode.Tick); the script acts only
// through the World's facade, so every command it issues meets the same rules as a Go
// gamemode's.
//
// # The script's API
//
// Events: on(name, fn) registers fn(ev) for every event of that name: player_join,
// player_spawn, player_damage, player_death, player_leave, god_mode_suspect (and every
// other refserver event by its name). ev has name, at (ms), player, other (players or
// nil) and the kind's own fields: attacker, weapon, body_part, amount, floor, deducted,
// seq (player_damage); killer, weapon, gen, pose, commit (player_death); gen, connect
// (player_spawn); token (player_join); token, reason (player_leave); claimed, felt, count
// (god_mode_suspect).
//
// Players: player(id) and players() return player values (one per id, so == compares
// them) with p.id and the methods set_health(v), add_health(v, max), set_armor(v),
// add_armor(v, max), give_weapon(weapon, ammo[, current]), take_weapon(weapon),
// set_ammo(weapon, total), set_armed_weapon(weapon), clear_weapons(), set_team(team) (0:
// no team), set_spawn_point(x, y, z[, facing]), allow_respawn(gen, delay_ms[, x, y, z[,
// facing]]), hold_respawn(gen), and the reads team(), health(), armor(), alive(),
// connected(), generation().
//
// World: set_damage_multiplier(class, m) (melee, fire, spray, extinguisher, explosion,
// predator), set_weapon_property(weapon, damage, range), create_explosion(x, y, z,
// radius[, type[, creator]]), create_fire(x, y, z, radius[, creator]), create_team(id,
// name[, color[, friendly_fire]]), set_friendly_fire(team, on), now() (the World's time
// in ms), set_timer(delay_ms, fn[, every_ms]), kill_timer(id), log(...) and print(...)
// (to the host's logger).
//
// # The rules
//
// A refusal is a value: every verb returns true (or its result) on success and (nil,
// message) when the World or the argument check refuses it; a script checks it as it
// would any Lua call that can fail, and nothing is raised. A wrong argument type (a
// string where a number belongs) is a script error.
//
// A script error does not stop the world: an error in a callback is caught, logged on
// the host's logger with its file and line, counted in Stats, and the next callback runs.
//
// A script cannot block the tick: each callback (and the main chunk) runs under an
// instruction budget (Options.Budget, DefaultBudget): the Lua VM counts the instructions
// it executes and aborts the callback, as a script error, at the first one past the
// budget. The budget counts instructions, not time, so where a callback is cut is the
// same on every machine and every run. The one library call that could run long without
// executing instructions, string.rep, is capped at MaxRepeat bytes; recursion is capped
// by CallStackSize and the value stack by RegistrySize. Memory a script keeps across
// callbacks (tables it grows a little at every event) is not capped: a gamemode is the
// server operator's code, not a client's.
//
// A script is deterministic: its clock is the World's (now(), timers due on the times
// Tick is given, run in order of due time then creation), math.random is seeded by
// Options.Seed, and the libraries that reach outside (os, io, package, debug, the file
// loaders, load and loadstring) and the coroutine and channel libraries are not opened.
//
// set_damage_multiplier changes one class of the table the Mode set last (all 1 at
// first): a host that also sets multipliers in Go should leave them to the script.
package luamode
