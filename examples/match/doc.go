// Package match is arbiter's simulated match: the reference server (examples/refserver),
// one honest client (examples/client) per player with a bot that plays it, a small game
// world, and a gamemode script, all on the deterministic network simulator
// (internal/sim). It measures the project's promises instead of assuming them.
//
// # Rules
//
// A match measures the project's promise, the root package's [honest-never-wronged]: no
// early death, no cut frame, no refused shot or command, no disagreement (see What a
// match measures). What else it holds the server to, and the measurements it reproduces,
// each under a short stable name that code and tests cite (a domain package's rule is
// cited with the package's name, as in vitals' [health-revision], and defined under
// # Rules in that package's documentation):
//
//   - [every-source-occurs] A default match makes every source of damage of vitals'
//     [sources-of-damage] occur, so the promise is measured on all of them.
//   - [race-measurement] With Config.Race, set_health commands sent to players under fire
//     at 200 ms of round trip: how many cross a damage report created before the client
//     applied them (why vitals has its [health-revision]).
//   - [fixed-windows-rejected] The alternative the health revision replaced, measured
//     for comparison: a server that ignores the damage reports arriving within a fixed
//     window after a health command and applies every other (RaceWindows); the race
//     counts on how many commands each window would have corrupted the ledger.
//   - [frames-first] In every match, how many frames echoing a report reach the server
//     before the report itself (about a third at 0-30 ms of jitter: why frames wait for
//     reports, vitals' [client-order]).
//   - [vehicle-copies-current] Every VehicleCheckEvery, each honest client's copies of the
//     vehicles (client's [vehicle-copies]) are compared with the server's vehicles while
//     it streams: a copy of a parked vehicle stands within VehicleCheckSlack of the
//     server's pose (unless the player sits in it or moved it last: that copy follows
//     the player's own game), a vehicle within VehicleCheckReach of a player at two checks in a row
//     has a copy, and one beyond VehicleCheckBeyond at two checks in a row has none
//     (unless the player sits in it, or the copy was shown anew since the previous check:
//     the car came near and was taken away again in between, its hide on the way).
//     Report.Vehicles counts the pairs checked and each miss; a match expects none.
//
// # What a match plays
//
// Players join with Hello, spawn, and fight in a flat square arena: they walk between
// waypoints, pick the nearest enemy their client shows and fire the weapon that suits the
// distance (M4, Desert Eagle, shotgun), throw grenades, charge with a knife (blows and
// stealth kills), hold a spraycan, drive cars (some armed: a Predator's fixed-damage guns,
// a gunship's bullet guns) or ride in them and fire out of the window (a passenger's game
// moves the car with the driver's relayed frames), ram pedestrians, and shoot cars until
// they explode with their occupants. The arena adds falls, near drownings, and the gamemode's fires and
// explosions with a creator. Walls are a chance: the victim's game decides every hit
// (World.Trace), as the records say only the victim can.
//
// The gamemode puts the players in teams with friendly fire off, sends health, armor and
// weapon commands to random living players while they fight (a set_health(0) now and
// then; it takes a player's M4 or swaps it for an AK-47 in the same pooled slot and gives
// it back a few seconds later, and sets the Deagle's ammo, so weapons are taken from
// players while they fire them), moves one player to another team every TeamSwapEvery,
// turns a team's friendly fire on for 20 s, changes the damage multipliers and a weapon's
// damage mid-match, regenerates every living player for a minute from a sixth of the match
// on (add_health(RegenAmount, 100) every RegenEvery, so a health command is nearly always
// in flight), and chooses each dead player's next spawn point. Config.Gamemode replaces
// this script with a host's gamemode (a Lua one: `go run ./examples/sim -gamemode
// FILE.lua`), which must not wrong an honest player either.
//
// Every player is honest: every action goes through its client, which refuses what the
// game would. The network gives each player its own round-trip time (spread evenly from
// Config.RTTMin to Config.RTTMax), uniform jitter and loss on every datagram both ways.
//
// # What a match measures
//
// Report.HonestWronged sums the ways the server wronged an honest player (Wronged):
//
//   - early deaths: a death the server committed while the victim's client was alive;
//   - cut frames: a frame of an honest client cut as god mode;
//   - refused shots: a shot, projectile or stealth kill the server refused, except when
//     the target died or became a teammate while the action was in flight;
//   - refused commands: a gamemode command refused for a player the server held alive
//     and counted;
//   - disagreements: a hit an honest victim reported that the server neither credited
//     nor discarded by a domain package's rule (a shot accepted before a team change); during
//     play, the server's count of a weapon below the honest client's once both applied
//     the same commands (Report.Weapons.CountBelow); and, after the match settled
//     (Config.Settle of quiet play), any player whose life, generation, health, armor or
//     weapons the server and the client disagree on.
//
// The Report also counts frames, shots, reports by source, deaths by how they were
// committed, respawns, commands, the server's events and the network's work, and
// reproduces two measurements of the health ledger ([race-measurement],
// [fixed-windows-rejected], [frames-first]): with Config.Race, set_health commands sent to
// players under fire at 200 ms of round trip, how many cross a damage report created
// before the client applied them, and on how many a fixed time window (RaceWindows) would
// have corrupted the ledger while the revision rule does not; and, in every match, how
// many frames reach the server before the hit report they follow. Report.Weapons says how
// late the shots an honest client fired before it applied a command that took the gun
// reached the server, after the command and the round trip the server measured (the
// window of such shots is that round trip plus inventory.OverwriteShotMargin), and how
// many rounds honest clients sprayed against what the server charged them itself; and,
// over the honest players, where the server found their shots and projectiles starting
// and exploding against what it accepted of them (Report.Origins: the worst case its
// origin tolerances are sized from).
//
// # Cheaters
//
// Config.Cheaters makes some players cheat (Cheat): a game that skips every hit, frames
// that always show full health, a frozen ammo counter with forged shots past the real
// ammo, frames that claim a dead player alive with forged shots, shots forged ten times
// faster than the weapon allows, a car that never takes damage, a client that withholds
// its lane acknowledgement of every health command and keeps echoing an old health
// revision (stale_echo; the gamemode sends it a command every 15 s, and regenerates
// everyone for a minute), a replaced weapon fired again after a pooled slot carried its
// rounds over (carry_over), a taken weapon kept firing while the take's acknowledgement
// and echo are withheld (taken_weapon), shots and grenades that start next to their
// victim while the cheater stands far away (far_origin), vehicle guns forged for any
// vehicle, any seat and any range (vehicle_guns), and the driver's seat of an honest
// player's car claimed from far away, with its frames and its explosion (seat_steal).
// The cheats sit between a client and the network, as a trainer or a modified client
// would. Report.Cheaters says, for each, what it gained that the records say it must not
// (the promise is 0: the server's ledger never rose without a command, no shot was
// relayed beyond the rounds given or the weapon's cadence or while the server held the
// shooter dead or later than an honest client could have fired a taken weapon, no frame
// was relayed alive for a dead player, the ledger never kept more than the confirmed hits
// allowed, no damage was credited from a shot or grenade relayed from where the shooter
// could not have fired or thrown it, no vehicle shot the vehicle catalogue forbids was
// relayed, no seat was granted from far away) and how the server met it (refusals,
// god_mode cuts, the god_mode and
// vehicle_god_mode suspicion flags).
// The honest measurements count only the honest players.
//
// Two cheats follow no script. The mutator (CheatMutator) mutates its own honest client's
// datagrams at random, seeded (every field, id, position, number, revision, seat, ray,
// hit claim and report), replays other players' datagrams relayed to it as its own,
// forges the reliable messages and shots its game never made, and floods copies; its
// gains are counted by the records' measures apart (Gains: health above its client's
// real health, ammo beyond the rounds given, damage and kills from actions the rules
// refuse, other players' seats, vehicles and suspicions changed), with the mutation that
// found each (CheaterReport.Findings). "Refuse" is judged against what the server accepted
// of the mutator: the places it stood are its frames the server relayed to any connection
// (with streaming no single player has it shown at every moment), its actions are those
// relayed to one honest observer. The flood (CheatFlood) sends bursts of FloodBurst
// frames, shots and junk datagrams; it gains every honest relay the server lost and
// every event of the records it dropped. Report.Rates says how close the honest players'
// own traffic came to the server's per-connection caps.
//
// # Determinism
//
// A match is a pure function of its Config: the simulator's clock is virtual, every random
// draw comes from generators seeded from Config.Seed, and no goroutine runs. The same
// Config gives the same Report, byte for byte. Run plays a whole match; a test may drive
// one step by step (New, Start, RunUntil, Finish) and watch the server's events (OnEvent).
//
// Config.Manual turns the bots, the script and the arena's physics off and makes every
// aimed ray hit, for scenario tests that move the players and pull the triggers
// themselves. Config.Lineup gives each player its own link and cheat, Config.Server the
// reference server's configuration, and Every, Vehicle, Cheat, Strike, CheatTick and Vital
// let a test kit in another package (examples/simkit) run its gamemode on the match's
// clock, find the arena's cars, land melee blows, and run and inform the cheat measures.
package match
