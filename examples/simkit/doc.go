// Package simkit is a simulation test kit for a server built on arbiter: from a test in
// any module, a host builds a world (the reference server, examples/refserver, with its
// Config and the host's gamemode rules), joins players with their own round trip, jitter
// and loss, drives them through their honest clients (examples/client), commands the
// server as a gamemode does, advances simulated time, and asserts on the server's events,
// the ledgers on both sides, the weapon stores, the lives and the match report.
//
//	k := simkit.New(simkit.Config{Seed: 1, Gamemode: regenerate})
//	alice, _ := k.Join("alice", simkit.Link{RTT: 300 * time.Millisecond})
//	bob, _ := k.Join("bob", simkit.Link{RTT: 100 * time.Millisecond, Jitter: 30 * time.Millisecond, Loss: 0.05})
//	_, _ = alice.Shoot(bob, simkit.WeaponM4)   // the first verb or Advance starts the world
//	_ = k.Advance(2 * time.Second)
//	hits := k.EventsOf(refserver.EventPlayerDamage)
//	ledger, _ := bob.Ledger()                  // the server's; bob.Own() is his game's
//	report, _ := k.Report()                    // report.HonestWronged must be 0
//
// # The world
//
// A kit is a manual match of examples/match (Config.Manual): the same reference server,
// honest clients, simulated network (internal/sim) and arena as the simulated matches,
// with the bots, the match's own gamemode script and the arena's physics off. Every aimed
// ray hits: a shot at a player reaches that player's client, which takes the hit and
// reports it, as a real game would. Start (called by the first Advance or verb) joins
// every player, waits until each one is spawned and counted alive (SpawnWait), and places
// them on a line Spacing metres apart; Config.Teams puts them on teams (by default each on
// its own), friendly fire off. The arena has Config.Vehicles cars (Kit.Vehicle,
// Kit.Beside). Unless Config.Server names its own loadout, every spawn gives the match's
// weapons (WeaponKnife, WeaponDeagle, WeaponShotgun, WeaponM4, WeaponGrenade,
// WeaponSpraycan).
//
// # Players
//
// Join adds an honest player, JoinCheater a player with one of the match's cheat profiles
// (match.Cheat): its honest client's datagrams are rewritten by the cheat, and what it
// gained is in Report().Cheaters (the promise is 0). A player's verbs go through its
// client's own logic, which refuses what an honest game would not do (ErrRefused):
// MoveTo, Shoot, Throw, Strike, EnterVehicle, LeaveVehicle, Fall and Die. A player who
// dies reports its death and asks for its respawn on its own; the server grants it after
// its RespawnDelay (or the gamemode decides it, refserver.World.DecideRespawn). The readbacks: Ledger (the
// server's health and armor), Own (the client's), Store (both weapon stores), Life (both
// lives), and Client for the rest.
//
// # Raw connections
//
// JoinRaw adds a raw connection: no game and no client model, a transport endpoint that
// sends what the test writes (Raw.Send, any message with any field; Raw.SendBytes, any
// datagram) and keeps what the server sent it (Raw.Received, at most MaxRawReceived). It
// is how a test puts hostile input to the server (a NaN, a truncated datagram, a wrong
// revision, a flood, a connection gone silent: Raw.SetSilent) and reads the verdicts.
// It talks to the server directly at Kit.Now(), joins after the players with the next
// ids, and answers pings and acknowledges its lane on its own (Raw.SetRTT delays that,
// so that the server measures a round trip). The report counts no raw connection as an
// honest player.
//
// # Gamemode
//
// Config.Gamemode runs every Config.GamemodeEvery on the simulated clock and commands the
// server through Kit.Server (at the time it is given), or, for health and armor, through
// Kit.SetHealth, AddHealth, SetArmor and AddArmor, which the cheat measures learn of (use
// them when a cheater plays); Config.OnEvent sees every server event as it is drained. A test may also command the server itself between two Advances
// (at Kit.Now). A gamemode written in another language plugs in the same way: its host
// calls it from the Gamemode function.
//
// # Asserting
//
// While reports and commands are in flight the server's ledger and the client's health
// legitimately differ (a hit lowers the ledger when its report arrives, a command raises
// it when it is sent). Report ends play, lets the world settle (Config.Settle), compares
// every honest player's server state with its client's and returns the match report:
// HonestWronged counts every early death, cut frame, refused shot, refused entry,
// uncredited report and final disagreement an honest player met.
//
// # Scenario files
//
// RunScenarios runs table-driven scenario files (github.com/cockroachdb/datadriven, the
// format of the domain packages' scenario files) against a world of the host's Config:
// each block is a command ("join a rtt=200ms", "shoot a b m4", "tick 1s", "print b",
// "report", or "run" with one command per line) followed by what the world did, which
// go test -rewrite regenerates. Driver lists the commands; a host adds commands of its
// own (a gamemode's "regen off", "safe-zone radius=25") with RunScenariosWith or
// Driver.Handle.
//
//	run
//	join a rtt=300ms jitter=30ms loss=0.05
//	join b rtt=100ms
//	tick 1s events=none
//	shoot a b deagle
//	tick 2s events=game
//	print b
//	report
//	----
//	> join a rtt=300ms jitter=30ms loss=0.05
//	a: player 0 rtt=300ms jitter=30ms loss=0.05
//	...
//	> report
//	honest wronged 0: early_deaths=0 cut_frames=0 ...
//
// # Determinism
//
// A kit is a pure function of its Config and of what the test does: the clock is virtual
// (only Advance moves it), every random draw is seeded from Config.Seed, and the kit
// starts no goroutine. A Kit is not safe for concurrent use.
package simkit
