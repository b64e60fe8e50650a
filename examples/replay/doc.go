// Package replay records what a refserver World receives and replays it offline,
// verifying that the World answers bit for bit as it did: the way a server owner answers
// "I was wronged" from a player (replay the minute and read each verdict).
//
// The World is a pure state machine: the same calls in the same order give the same
// datagrams and events. A host that records wraps its World in a Recorder and calls the
// Recorder instead (its gamemode too): every input is written to an io.Writer as a
// compact record (the header holds the World's Config as JSON and the format Version;
// see the format's description at Magic), and every output is folded into three running
// FNV-64a hashes: the results of the calls (their errors, an effect's id), the drained
// events (Event.String) and the flushed datagrams with their connection. Each Flush
// record stores the hashes after it. Replay builds a fresh World from the header's
// Config, feeds the records in order, recomputes the hashes at every Flush and names the
// first divergence: the Flush record, its time, which of the three differed, and the
// Flush before it (the difference arose between the two).
//
// # Rules
//
// Each under a short stable name that the code and tests cite:
//
//   - [record-every-input] Record everything that changes the World: a host's datagrams
//     (Receive), its ticks, flushes and kicks, its drains of the events (the moment of
//     a drain decides what a full event queue drops), Handle, and every gamemode verb
//     of the facade with its arguments (SetHealth, GiveWeapon, CreateTeam,
//     DecideRespawn, CreateVehicle, ...). What does not go through the Recorder is not
//     replayed: a gamemode that holds the *World itself (a Lua gamemode,
//     examples/luamode, must be given the Recorder as its World), or a change through
//     the registry World.Teams returns, makes the replay diverge at the next Flush.
//   - [recorder-caps-nothing] The Recorder caps nothing the World does not: it writes
//     what the host handed the World. A datagram costs its length and at most 16 bytes
//     of framing (a Receive record: the kind, the time, the connection and the length);
//     a tick or a drain about 10 bytes; a flush about 45; a verb about 10 bytes and its
//     arguments (at most about 40, a team's name aside). A simulated match of 16
//     players records about 30 kB a second (measured: 1.2 MB for 30 s of play and the
//     settling, 4,201 flushes).
//   - [replay-reads-hostile-files] Replay caps what it reads: MaxConfigJSON for the
//     header, MaxRecordPayload for one record's bytes, so that a corrupt or hostile
//     file gets ErrFormat, never a panic or a huge allocation.
//   - [recording-costs-the-world-nothing] Recording costs the World nothing: the
//     Recorder is a wrapper, not code in the World, and a Recorder made with a nil
//     writer only forwards (no hashing, no records), so a host can hold one whether it
//     records or not.
//
// Commands: examples/sim -record FILE records a simulated match (with -gamemode FILE.lua
// too), examples/server -record FILE a real server (its Lua gamemode's commands
// included), and examples/sim -replay FILE (-replay-events to print every event) replays
// either.
package replay
