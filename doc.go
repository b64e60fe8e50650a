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
// # Rules
//
// Every package names its rules under # Rules in its documentation, each with a short
// stable name in square brackets, such as vitals' [ledger-only-falls] or teams'
// [teammate-stamp]; code and tests cite a rule by that name, and a test in each package
// fails when a cited name has no definition. The authority model itself:
//
//   - [server-owns] The server owns the health and armor of each life, the weapons and
//     ammo, life and death, teams, and the recent path of every player and vehicle; it
//     stamps these into what it relays, and never passes a client's own claim about them
//     on.
//   - [victim-confirms] A hit happens only when the victim's client reports it; the report
//     may lower the ledger, never raise it, and a hit costs at least its floor.
//   - [client-observation] The amount of damage from the shared world (falls, drowning,
//     fire, explosions, rams) is the victim's observation, taken only downward.
//   - [claims-bound-to-sender] A datagram from one connection changes another player's
//     state only through a rule of the packages, and every claim it makes about its own
//     player is checked against what the server accepted from that connection.
//   - [honest-never-wronged] Every rule holds at 400 ms of round-trip time, 30 ms of
//     jitter and 5 % loss without wronging an honest player.
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
//
// # The host contract
//
// A host that wires the packages itself (examples/refserver does exactly this, for many
// players and vehicles, with a gamemode facade) keeps, per connection, one vitals.Player,
// one inventory.Inventory, its slot in one lifecycle.World, teams.Registry and rewind.World
// per world, and one lane.Lane (package wire/lane). One goroutine drives a world; every call takes the host's
// monotonic now, which never goes back, as its first argument. A player id is one type
// everywhere: vitals, lifecycle, teams, rewind and wire each name it PlayerID (and "no
// player" NoPlayer, 0xFFFF), and it is the same type in all of them, so an id passes from
// one to another without a conversion. What the host owes the packages, in order:
//
//  1. Bind every claim to the sender ([claims-bound-to-sender]). A datagram from connection A changes the state of
//     another player B only through a rule of the packages, and every claim A makes about
//     itself (where it stood, what it drives and from which seat, what it holds, which life
//     it is on, which revision it applied) is checked against what the server accepted from
//     A before anything acts on it. The sender of a message is the connection it came on,
//     never an id inside it.
//  2. Read loop. wire.Peek the datagram; a transport id goes to lane.Lane.Receive (then drain
//     Deliver and PopAcked), anything else to a wire.Decoder. Direction and size are the
//     codec's: a message only the server sends is refused when a client sends it.
//  3. Frames (PlayerSync). lifecycle.World.Frame drops frames of another life and stamps the
//     server's alive and generation; vitals.Player.Frame lowers the ledger (a raise is cut
//     and flagged); inventory.Inventory.Frame merges the store downward and spends
//     continuous fire; rewind.World.RecordPlayer keeps the path. The relay to each recipient
//     carries the ledger's health, never the client's, and
//     teams.Registry.Stamp(sender, recipient).
//  4. Shots (WeaponShot, VehicleShot). lifecycle.World.MayAct, then inventory's judgement
//     (owned, ammo, range, rate; it spends the round), then rewind.World.Shot lists who the
//     ray passed near and where each stood when the shooter saw it; each of those recipients
//     gets its own copy with its rewound pose and the shooter's stamp. Remember the shot for
//     the victims' reports. A claimed hit feeds the target's god-mode detector with the same
//     pose (vitals.Player.HitClaimed; vitals.VehicleDetector.HitClaimed of a vehicle's
//     driver), and never when the target was told to refuse the shooter's damage.
//  5. Damage reports. Correlate the report with what it answers (the remembered shot, a
//     detonation, a blow, a ram, a gamemode effect); ask teams whether it is credited
//     (teams.Registry.JudgeReport); compute the floor (vitals.BulletFloor of the catalogue's
//     damage); then vitals.Player.Report. A death the ledger counts goes to
//     lifecycle.World.CountDeath.
//  6. Deaths and respawns. lifecycle.World.ReportDeath, RespawnRequest and Advance produce
//     the critical PlayerWasted and PlayerSpawned edges and the RespawnPlayer; a fresh grant
//     resets combat state: inventory.Inventory.RespawnGrant, vitals.Player.NewLife,
//     rewind.World.RespawnPlayer, and the host's own correlation.
//  7. Gamemode commands. vitals' set and add of health and armor, inventory's give, take,
//     set ammo, clear and arm: each returns the message to queue on the lane, committed only
//     when the lane takes it. The lane's acknowledgements go back to the package that waits
//     for them (vitals.Player.Acknowledged, vitals.Player.MultipliersAcknowledged,
//     inventory.Inventory.Acknowledged, lifecycle.World.ZeroAcknowledged).
//  8. Every tick. Advance on vitals and lifecycle, rewind.World.PingDue and Ping, and
//     lane.Lane.Poll until it returns nothing.
//  9. Count every refusal. A verdict or error a package returns is either answered (to the
//     client, to the gamemode) or counted with its reason; none is dropped silently.
package arbiter
