// Package arbiter makes a multiplayer game server the authority over what its clients
// would otherwise decide for themselves, in a game where the server has no collision world:
// the clients run the physics and compute the damage.
//
// # The authority model
//
// Every value a client could profit from falls into one of three groups.
//
// What the server owns. The health and armor of each life (a ledger only the server's own
// commands raise), the weapons and ammo each player holds (a store only the server's
// commands fill), whether a player is alive and which life it is on, who is whose teammate,
// and where every player and vehicle stood over the last moments. The server stamps these
// facts into what it relays; a client's own claim about them is never passed on.
//
// What the victim confirms. Whether a hit happened at all. Only the victim's client knows
// whether a wall stood between it and the shooter, so a shot accepted by the server is only
// a candidate until the victim reports the hit. The report may lower the ledger, never raise
// it, and a hit costs at least a per-weapon minimum (the floor), so a client that shrinks
// the damage it takes still pays.
//
// What stays the client's observation. The amount of damage from the shared world: falls,
// drowning, fire, explosions, rams. The server cannot compute these without physics, so it
// accepts what the victim saw, again only downward.
//
// Clients talk to the server over one unreliable datagram stream (frames, shots) and one
// ordered reliable lane (commands, deaths, respawns). Every rule is written to hold at
// 400 ms of round-trip time and 5 % loss without wronging an honest player: no early death,
// no cut frame, no refused shot, no refused command.
//
// # The packages
//
//   - vitals: the health and armor ledger of each life: commands and their revisions, the
//     client's order of frames and reports, damage floors and multipliers, the god-mode cut
//     and suspicion detector, the vehicle_god_mode detector, and the moment a life is
//     counted dead.
//   - inventory: the weapon store (13 slots and the held weapon), its revision gate, the
//     downward merge of frames, the server's own spend, shot validation, the weapon
//     catalogue with revisioned properties, and the vehicle catalogue (each model's seats,
//     guns and rockets; defaults for GTA San Andreas).
//   - lifecycle: alive, generation and pending respawn of each player; the death commit
//     (including the wait for the victim's report of a death the ledger counted); respawn
//     grants; the critical lifecycle edges with player tokens.
//   - teams: teams, damage groups, the global relation revision and the per-recipient
//     teammate stamp; the server's refusals between teammates.
//   - rewind: pose histories of players and vehicles, round-trip time, and the rewound pose
//     of each recipient a shot's ray passed near.
//   - wire: every message as a Go type with a compact binary encoding, and the reliable lane
//     (ordering, acknowledgement, retransmission, caps, critical messages).
//   - examples: the reference server that wires every package into one world, the honest
//     client model, and the simulated match that measures the promises above.
//
// The domain packages never import each other: a fact one needs from another (a weapon's
// damage, whether two players are teammates, a round-trip time) enters as an argument, and
// the reference server in examples/refserver is the one place where they meet. Every state
// machine is pure: time is an argument, outputs are returned values, and nothing starts a
// goroutine, reads the clock or draws unseeded randomness, so a match replays bit for bit.
package arbiter
