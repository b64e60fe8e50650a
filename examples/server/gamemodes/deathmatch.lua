-- deathmatch.lua: the match's own gamemode rules (examples/match) as a Lua gamemode.
--
-- Two teams (friendly fire off) balanced at join, the match's loadout at every spawn, a
-- respawn RESPAWN_DELAY after each death at a random point of the arena, a health reward
-- for the killer, a damage multiplier stage halfway, a score board in the log.
-- Every verb returns (nil, message) when the server refuses it: the script logs the
-- refusals it does not expect and goes on.

ARENA_HALF = 90          -- half the side of the square arena, in metres
GROUND = 10              -- the arena's ground height
RESPAWN_DELAY = 3000     -- ms from a death to its respawn
KILL_REWARD = 25         -- health given to the killer
SCORE_EVERY = 60000      -- ms between score lines

TEAMS = {
  {id = 1, name = "grove", color = 0x40302000},
  {id = 2, name = "ballas", color = 0x80604000},
}

-- The match's loadout: knife, Desert Eagle, shotgun, M4 (held), grenades, spraycan.
LOADOUT = {
  {weapon = 4, ammo = 1},
  {weapon = 24, ammo = 70},
  {weapon = 25, ammo = 40},
  {weapon = 16, ammo = 4},
  {weapon = 41, ammo = 500},
  {weapon = 31, ammo = 400, current = true},
}

kills, deaths, members = {}, {}, {}
team_of = {}              -- player id -> the team the script put it in
rewards = 0               -- kill rewards given

-- expect logs a refusal the script did not expect: expect("what", verb(...)).
local function expect(what, ok, msg)
  if not ok then log("refused: " .. what .. ": " .. tostring(msg)) end
  return ok
end

local function random_point()
  return (math.random() * 2 - 1) * ARENA_HALF, (math.random() * 2 - 1) * ARENA_HALF, GROUND
end

for _, t in ipairs(TEAMS) do
  expect("create_team " .. t.name, create_team(t.id, t.name, t.color, false))
  members[t.id] = 0
end

-- Balance the teams at join: the smaller team, the first on a tie.
on("player_join", function(ev)
  local best = TEAMS[1].id
  for _, t in ipairs(TEAMS) do
    if members[t.id] < members[best] then best = t.id end
  end
  local p = ev.player
  if expect("set_team", p:set_team(best)) then
    members[best] = members[best] + 1
    team_of[p.id] = best
  end
  kills[p.id], deaths[p.id] = 0, 0
  local x, y, z = random_point()
  expect("set_spawn_point", p:set_spawn_point(x, y, z, 0))
end)

on("player_leave", function(ev)
  -- The server has already taken a player who left out of its team: count from the
  -- script's own record.
  local t = team_of[ev.player.id]
  if t then members[t] = members[t] - 1 end
  team_of[ev.player.id] = nil
  kills[ev.player.id], deaths[ev.player.id] = nil, nil
end)

-- The loadout at every spawn (the connect spawn included).
on("player_spawn", function(ev)
  for _, l in ipairs(LOADOUT) do
    expect("give_weapon " .. l.weapon, ev.player:give_weapon(l.weapon, l.ammo, l.current))
  end
end)

on("player_death", function(ev)
  local p = ev.player
  deaths[p.id] = (deaths[p.id] or 0) + 1
  local x, y, z = random_point()
  expect("allow_respawn", p:allow_respawn(ev.gen, RESPAWN_DELAY, x, y, z, 0))
  local k = ev.killer
  if k and k ~= p then
    kills[k.id] = (kills[k.id] or 0) + 1
    -- The reward goes to a killer the server holds alive; a killer dead meanwhile gets
    -- nothing (the refusal is expected, not logged).
    if k:alive() and k:add_health(KILL_REWARD, 100) then rewards = rewards + 1 end
  end
end)

on("god_mode_suspect", function(ev)
  log("god_mode_suspect: player " .. ev.player.id .. " claimed " .. ev.claimed .. " felt " .. ev.felt)
end)

-- Halfway through the first ten minutes explosions hurt half as much; back to 1 after.
set_timer(150000, function() expect("set_damage_multiplier", set_damage_multiplier("explosion", 0.5)) end)
set_timer(450000, function() expect("set_damage_multiplier", set_damage_multiplier("explosion", 1)) end)

set_timer(SCORE_EVERY, function()
  local best, bestk = nil, -1
  for id, k in pairs(kills) do
    if k > bestk or (k == bestk and id < best) then best, bestk = id, k end
  end
  if best then log("score: leader player " .. best .. " with " .. bestk .. " kills; " .. rewards .. " kill rewards given") end
end, SCORE_EVERY)
