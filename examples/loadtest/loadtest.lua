-- loadtest.lua: the load generator's gamemode (examples/loadtest). The generator puts
-- SIDE (the side of the square the players are spread over, in metres) above this text.
--
-- Each player gets a spawn point of its own at join, spread evenly over the square by
-- its id (the R2 low-discrepancy sequence), and an M4 with plenty of rounds at every
-- spawn. No teams, no kills by the script: every death is a player's shot.

GROUND = 10
AMMO = 5000

local A1, A2 = 0.7548776662466927, 0.5698402909980532

local function point(id)
  local x = ((0.5 + id * A1) % 1 - 0.5) * SIDE
  local y = ((0.5 + id * A2) % 1 - 0.5) * SIDE
  return x, y, GROUND
end

on("player_join", function(ev)
  local x, y, z = point(ev.player.id)
  local ok, msg = ev.player:set_spawn_point(x, y, z, 0)
  if not ok then log("refused: set_spawn_point: " .. tostring(msg)) end
end)

on("player_spawn", function(ev)
  local ok, msg = ev.player:give_weapon(31, AMMO, true)
  if not ok then log("refused: give_weapon: " .. tostring(msg)) end
end)
