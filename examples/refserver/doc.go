// Package refserver is the reference authoritative server of arbiter: every domain package
// (vitals, inventory, lifecycle, teams, rewind) and the wire protocol wired into one game
// world of many connections and vehicles, with a gamemode facade on top. It is the one
// place where the packages meet. A host uses it as is, or copies it and changes what it
// needs; the honest client model (examples/client) speaks the same session protocol.
//
// # What a World owns
//
// A World holds, for each connection (player id = connection id, 0..MaxPlayers-1):
//
//   - a transport.Endpoint (the reliable lane and the decoder) and an outbox of its own
//     unreliable datagrams;
//   - a vitals.Player: the health and armor ledger of each life, its revisions, the
//     client's order of frames and reports, the floors, the god-mode cut and detector;
//   - an inventory.Inventory from the world's one inventory.Catalog (the weapon table
//     with its revisioned properties);
//   - its place in the world's lifecycle.World (alive, generation, death wait, grants),
//     teams.Registry (team, damage group, relation revision) and rewind.World (pose
//     history, round-trip time);
//   - the combat correlation of its life: a table of its accepted shots (at most
//     MaxShotCredits, grown on demand: the shots that can still be credited) with the
//     credits each victim may still claim, a ring of its projectiles (MaxProjectiles,
//     allocated at its first projectile), the duplicate filters of its shot, projectile
//     and report numbers;
//   - the acknowledgements the packages wait for on its lane (health commands, multiplier
//     tables, the death zero), and the PlayerShows it still owes.
//
// And for the world: the vehicles (model, pose, the seat table, frozen, wrecked, each
// gun's rate, the last shot claiming a hit on each, its explosion), the vehicle catalogue
// (inventory.VehicleCatalog: each model's seats, guns and rockets; Config.Weapons.Vehicles
// overrides it), the live gamemode effects (MaxEffects), the damage multiplier table, the
// relay log of the current tick (chained by sender), one bundle buffer every connection's Flush
// reuses in turn, the interest manager of streaming (internal/interest: who sees whom,
// [streaming]), the index of the vehicles' positions and each connection's shown vehicles
// and sent effects ([stream-vehicles], [stream-effects]), and the events.
//
// # How a host drives it
//
// One goroutine owns a World; every call takes the host's monotonic now, which never goes
// back (a call from the past gets ErrClockBackwards or VerdictClockBackwards). The loop:
//
//	for each datagram from connection conn:  w.Receive(now, conn, datagram)
//	every tick (at least every frame interval):
//		w.Tick(now)                  // ledger waits, death deadlines, due respawns, pings, link timeouts
//		gamemode logic: w.Events(buf[:0]), then facade verbs (w.SetHealth, w.GiveWeapon, ...)
//		w.Flush(now, send)            // every datagram for every connection, then Disconnects
//
// A host that reads its socket in batches (recvmmsg) hands each batch to ReceiveBatch: the
// same as Receive for each datagram in order (the same errors, events, stats and
// datagrams), but it reads the state of the next few datagrams' connections ahead of
// handling each, so that with many players, whose state does not fit the caches, their
// cache misses overlap.
//
// Receive takes raw bytes: a Hello from a new connection joins it; anything else from a
// joined connection is opened by its Endpoint and its messages pulled one by one (an
// unreliable message, or every message a lane datagram completes, in order; a datagram of
// one unreliable message is decoded as its Endpoint would, transport.DecodeMessage, with
// no read of the Endpoint), each handled
// with its own verdict, and the lane acknowledgements it brought are routed to the
// packages at once. Handle takes one decoded message (tests, or a host that decodes
// itself; it is validated by the wire's rules first) and returns the World's Verdict. Tick
// runs the timers. Flush hands, connection by connection in ascending id, first the
// connection's own unreliable messages, then its own copies of the shots whose rays passed
// near it (with its rewound pose), then its copy of every relayed frame and shot of
// the tick (stamped for it), then whatever its lane has ready, all coalesced into as few
// datagrams of at most Config.PayloadSize bytes as fit ([coalesce-per-recipient]); a
// lane that must disconnect (hard cap, link timeout) is removed there with a Disconnect. NextDeadline tells when a
// lane wants its next Flush. Nothing runs on its own: no goroutine, no clock, no
// randomness; the same calls give the same datagrams and events, bit for bit.
//
// # The session
//
// The World follows the session protocol shared with the client model (examples/client);
// every message, its id and its layout are package wire's tables (wire/doc.go, held to
// the code by a test):
// Hello → Welcome (repeated Hello, same Welcome) → on the lane the multiplier table, the
// weapon properties that differ from the catalogue's first table, and a PlayerShow of
// everyone streamed to it (and a PlayerShow of the newcomer to everyone it is streamed to:
// [streaming]) and a VehicleShow of each vehicle streamed to it ([stream-vehicles]) → RespawnRequest → connect spawn → first living frame → player_spawn.
// Frames at 30 Hz are relayed to every connection that has the player shown; shots the
// same, with a rewound pose for those near the ray;
// the victim reports its damage; deaths and respawns travel as critical edges; gamemode
// commands go on the lane, one ordered queue per connection. Disconnect (or silence for
// transport.LinkTimeout) ends a connection.
//
// # The cross-package rules, and where they live
//
// The rules that join what several packages accepted (the shot credit, the claim reach of
// the god-mode detectors, the grace of a blow dealt alive, the ram, the stealth kill's
// reach, a vehicle explosion's author, how close two paths came) each have a small pure
// type of their own in rules.go (ShotCreditRule, DetonationRule, ClaimReachRule,
// ActionGraceRule, RamRule,
// StealthKillRule, VehicleCreditRule, ProximityRule; DefaultRules holds the package's
// constants): a host that wires its own server copies the one it needs. The World gathers
// the facts and asks them.
//
// Frames (frames.go, onPlayerSync):
//
//   - A frame not newer than the last one taken is dropped (VerdictOutdated); then the
//     lifecycle drops frames of another life, of a player not spawned, and non-living
//     frames of a granted life (VerdictOtherLife). Only then is the frame taken by vitals
//     (the ledger only falls; a raise is cut and god_mode raised), the inventory (downward
//     merge within the echoed revision, continuous spend) and the rewind history.
//   - Seats (seats.go). Who sits where is the server's seat table, filled by accepted
//     entries only; the wire has no message to enter a vehicle, so a frame naming a seat
//     its player does not hold is a claim to enter. It is granted when the vehicle exists
//     and is not wrecked, the seat exists on its model (the catalogue's seat count) and is
//     free, the player is alive, and its accepted position (its last accepted frame, or
//     where a grant, a teleport or a vehicle move put it) lies within EntryReach of the
//     vehicle's accepted position. Anything else refuses the frame whole, before any
//     package takes it (not relayed, not in the rewind, no seat): VerdictSeatTaken,
//     VerdictNoSuchSeat, VerdictOutOfReach, VerdictWrecked, VerdictUnknownVehicle or
//     VerdictNotAlive, raised as input_refused (Vehicle the claimed one, Other the seat's
//     holder) and counted (Stats.EntriesRefused); and the player gets a SetPlayerPosition
//     back to its accepted position, at most every EntryCorrectionInterval, which takes
//     its client out of the seat it believes it holds. A frame on foot, in another seat or
//     in another vehicle frees the held seat; so do a committed death, a respawn grant and
//     leaving the server. A gamemode move or respawn of the vehicle keeps its occupants in
//     their seats (their clients move with it); a frozen vehicle's seats work as any.
//     Of two honest players racing for one free seat, the first claim to arrive wins; the
//     other's frames are refused until its client applies the SetPlayerPosition, and its
//     next claim (another seat) is judged anew. A client that shows the seat held (its copy
//     of the holder sits in it) does not try: a seat is freed by the frame that leaves it,
//     the same frame that shows it free to everyone else.
//   - The first living frame of a granted life raises player_spawn.
//   - The relay (RemotePlayerSync) carries the server's alive and generation and sync_seq
//     (lifecycle's stamp), the ledger's health and armor (never at or below 0 while the
//     server holds the player alive, 0 when dead), the damage group, and per recipient
//     the teammate stamp at the relation revision the frame was accepted under. Only
//     recipients that were shown the subject get its frames.
//
// Shots (combat.go, onWeaponShot, onVehicleShot):
//
//   - Refused unless the shooter may act (lifecycle.MayAct) in the life the shot names
//     (death_epoch), its number is new (ShotWindow), its ray has a length, and the ray
//     starts where the server accepted the shooter (origin.go): within OriginReach of the
//     shooter's accepted path over the last OriginWindow (rewind.PlayerApproach: the
//     frames the shot overtook or followed, across a teleport or a gamemode move its
//     client may not have applied yet, never across a respawn), SeatedOriginReach when its
//     frames put it in a vehicle's seat within the window (a drive-by: a seated player's
//     frames carry the vehicle's position), plus how far it may have moved since its
//     newest frame (its speed along that path, at most MaxOriginSpeed, for OriginLead);
//     VerdictFarOrigin otherwise. Then the inventory judges it (owned, ammo, range from
//     that origin, rate, properties revision) and spends the round.
//   - Vehicle guns are the vehicle catalogue's, the server's and not the shooter's: the
//     vehicle exists and is not wrecked; the shot's weapon id is one of its model's guns
//     (VerdictNotAGun: a Sniper from a car, any gun of an unarmed one); the shooter holds
//     a seat that fires that gun (VerdictWrongSeat for another seat of it,
//     VerdictNotInVehicle for none), or held it within VehicleShotGrace (a shot fired just
//     before getting out may be overtaken by the frame on foot); the ray is no longer than
//     the gun's range and starts within its mount reach plus VehicleGunSlack plus the
//     vehicle's speed (at most VehicleGunMaxSpeed) times VehicleGunLag of the gun's mount
//     on the vehicle's accepted pose (VerdictOffMount); a gun of the weapon table names a
//     kept properties revision; and each gun of each vehicle keeps its model's interval
//     with its burst (a leaky bucket per vehicle and gun; VerdictTooFast). No store is
//     involved: no round is spent, and a gun the catalogue does not give cannot be fired
//     whatever the shooter owns.
//   - rewind.Shot lists the players near the ray, with the pose the shooter's round-trip
//     time ago (at most 400 ms). Each of them gets a RemoteWeaponShot of its own with that
//     pose (and its vehicle's); everyone else gets the shared copy without one. Every copy
//     carries the shooter's stamp for its recipient. The Rhino's cannon rewinds nobody.
//   - The accepted shot is remembered (the shot credit): weapon, the raw damage of its
//     floor (inventory's damage at the shooter's floor tier in the shot's revision; the
//     standard tier for vehicle guns), relation revision, the shooter's life, and per
//     victim one credit per pellet, for ShotCreditWindow.
//   - A claimed hit on a player near the ray feeds that player's god-mode detector
//     (vitals.HitClaimed) with the loss the hit would cause: judged against the same
//     rewound pose that player was sent, and only when the ray passed within ClaimReach
//     (1 m) of it (farther, the victim's trace could not confirm it: the shooter missed),
//     and never when the shot was stamped "teammate" for that player (friendly fire off):
//     a claim never feeds a detector when the victim was told not to apply it. A claimed
//     hit on a vehicle makes the shooter the
//     candidate author of its explosion (VehicleCreditWindow), and feeds the
//     vehicle_god_mode detector of its driver (vitals.VehicleDetector) with the
//     weapon's damage when the ray passed within VehicleClaimReach (6 m) of the vehicle's
//     pose that driver was sent, whatever the stamp: damage to a vehicle is not damage to
//     a player, and a teammate may wreck it.
//
// Damage reports (reports.go, onDamageReport), in this order:
//
//   - Duplicated report numbers are dropped before anything (the report's number filter).
//   - Correlation by what the report answers: a shot of the attacker relayed to this life
//     of the victim, within its window, same weapon, with a credit left (a shotgun one per
//     pellet, the Combat Shotgun 8: the catalogue's Credits column, inventory's
//     [credits-per-shot]); a detonation of the attacker's projectile within ExplosionWindow and
//     BlastRadius (the damage cause an explosion, or the projectile's catalogue Cause: a
//     molotov's fire); a live gamemode effect whose creator is the
//     attacker, within its radius; an accepted explosion of that vehicle with its author; a
//     melee blow of an attacker that may act, holds the weapon (or the fists, or a gun as
//     a club), within inventory.MeleeRange by the closest their paths came over the last
//     ProximityLookback, at the weapon's cadence (a blow dealt alive and reported within
//     ActionGrace of the attacker's death still counts); a ram by an attacker whose frames
//     put it in a driver's seat within ContinuousWindow, within RamDistance; flamethrower,
//     spraycan and extinguisher damage of an attacker whose frames showed that weapon with
//     its fire held within ContinuousWindow, within its range.
//   - teams.JudgeReport decides credit (a shot by the stamp it was relayed with; anything
//     else by the relation now): a report between teammates, or of a shot accepted before a
//     team change, is not credited and never becomes the last damage (teams'
//     [teammate-never-credited]). The event set ([event-set]) has no gamemode event for it; the World raises the diagnostic report_not_credited with
//     VerdictTeammate, so a host can tell it from a wrong.
//   - The floor comes with the report: vitals.BulletFloor of the shot's damage, lowered to
//     the damage of any weapon properties revision the victim may still apply (from the
//     one it acknowledged PropertiesGrace ago to the newest: when the gamemode lowers a
//     weapon's damage, an honest victim may compute an old shot's hit with the new table;
//     ours, see below); vitals itself computes the melee and Predator floors with the
//     multipliers the client may still apply.
//   - vitals.Report applies it in the client's order. A hit that cannot be correlated is
//     discarded (the frames still show its loss); damage the victim observes (explosions,
//     fire, rams) whose correlation fails is taken as an observation of the environment,
//     without attribution (report_unattributed). Credited outcomes raise player_damage
//     (also for reports held and credited later); the rest raise report_not_credited with
//     the reason.
//
// Deaths (reports.go countDeath, death.go):
//
//   - A death vitals counted (the ledger at 0 by a report, a frame or set_health(0); a
//     vehicle explosion; a stealth kill) goes to lifecycle.CountDeath with the victim's
//     round-trip time (DefaultRTT while none is measured) and the killer from the last
//     damage, filtered by teams (never a teammate, at the relation of the count or now;
//     never the victim itself; never a player who left or joined after the damage).
//   - A DeathReport goes to lifecycle.ReportDeath with the server's blame. The commit (by
//     the report, by the deadline, or on leaving) calls vitals.Died (whatever waits in the
//     client's order is taken first, and the killer of a death reported before it was
//     counted is taken from the completed order), sends the critical PlayerWasted (killer,
//     cause, pose) to every connection that sees the victim, and raises player_death with
//     how it was committed. A deadline commit also queues the critical SetHealth(0) from
//     vitals.DeathZero; its acknowledgement goes to vitals.Acknowledged and
//     lifecycle.ZeroAcknowledged, and the respawn waits for it.
//   - A player that leaves inside the death wait leaves dead: lifecycle.Leave commits the
//     death first, its PlayerWasted is queued before the PlayerHide.
//
// Respawns (death.go, onRespawnRequest, granted): a request is asked of the lifecycle only
// when the answer fits the lane. A fresh grant clears the inventory (RespawnGrant, no
// revision bump), starts a new vitals life (100/0), starts the rewind history anew at the
// point, resets combat correlation (the old life's shots, projectiles, counted death and
// credits no longer apply: every record carries the life it belongs to), queues
// RespawnPlayer, sends the critical PlayerSpawned with its sync_seq barrier to everyone
// who sees the player, and then gives Config.Loadout through the normal commands (their
// revisions come after the clear on both sides). A repeated request before the first
// living frame gets the same RespawnPlayer again and nothing else.
//
// Projectiles (onProjectile, onDetonation): a launch on foot starts where the owner was,
// as a shot does, and is judged and spent by the inventory; from a vehicle the owner must
// sit in it, it must be one of the vehicle's own rockets (the catalogue's rockets of its model:
// weapon 35 or 36 from a Hunter or a Hydra by default; they come from no store, and the
// game throws nothing else from a seat) and it
// starts within VehicleLaunchReach of the vehicle's accepted path (rewind.VehicleApproach;
// the vehicle's size until a catalogue of mounts says where its pods are). The detonation
// of a projectile of the owner's current life is relayed (a dead owner's grenade still
// explodes) if it lies where its weapon carries a projectile from the launch in the time
// since (VerdictFarDetonation otherwise): a thrown weapon (grenade, tear gas, molotov,
// satchel) within its catalogue Range plus ThrowSlack; a rocket (the catalogue's Flies)
// within RocketSpeed × (the
// time since the launch + RocketTimeSlack), at most MaxRocketTravel. A satchel (the catalogue's Sticks) sticks
// to what it lands on: it may also explode within SatchelRideReach of the accepted path of a
// vehicle that stood within its throw's reach when it was thrown (the nearest
// MaxSatchelRides of them), wherever that vehicle went (ours). A detonation whose launch
// was lost on the way heals it once (ours): it must lie within its weapon's longest reach
// (a thrown weapon's Range, a rocket's MaxRocketTravel), the owner's reach and
// LostLaunchSlack of the owner's
// accepted path over LostLaunchLookback (VerdictFarOrigin otherwise), and pays its round
// then (a rocket of the Hunter or Hydra the owner's frames put it in comes from no store).
// Every such refusal raises projectile_refused (shot_refused for a shot) with the
// distance (Amount) and the tolerance (Floor), and is counted in Stats (FarOrigins,
// FarDetonations); judging an origin allocates nothing, refused or not. Reach reads back, per connection, the
// largest distances the World accepted: the simulator's measure of the honest worst case.
//
// Stealth kills (onStealthKill): both players acting in the lives the claim names (a victim
// no longer alive and counted is VerdictTargetNotAlive: the world changed under the
// claim), the victim's life counted, a weapon whose catalogue StealthKill is set (the knife) in the attacker's store, within
// StealthKillRange by their paths, both on foot ([stealth-on-foot]), not teammates
// (teams.JudgeStealthKill). Accepted: vitals.StealthKilled counts the death (the wait is
// 10 s longer) and RemoteStealthKill goes, stamped, to the victim, the attacker and the
// victim's viewers ([stream-edges]).
//
// Vehicle explosions (onVehicleExplode): reported by the player the seat table holds in
// the driver's seat (or who held it by a frame within ContinuousWindow: the report on the
// lane may follow the frame that leaves it); the occupants are the seat table's. The
// attacker it names is the explosion's author only if it had an accepted shot claiming a
// hit on that vehicle within VehicleCreditWindow in its current life ([vehicle-credit]). teams.JudgeExplosion judges the occupants: the author's teammates are spared,
// the others counted dead (vitals.VehicleExploded); leaving the vehicle does not cancel
// it. The vehicle is wrecked in the rewind (no longer rewound) and RemoteVehicleExplode
// goes, stamped with the author, to every connection that has the vehicle shown
// ([stream-vehicle-relays]).
//
// Gamemode effects (facade.go): CreateExplosion and CreateFire take a creator, are sent on
// the lane of every connection within their reach ([stream-effects]) stamped with the
// creator's relation to each recipient, and are remembered so reports are credited to the
// creator.
//
// Leaving (player.go, leave): lifecycle.Leave first, then teams, rewind and the lane go,
// PlayerHide to every connection that was shown the player, Disconnect at the next Flush.
//
// # The gamemode facade
//
// Each verb validates its input, checks that its message fits every lane it goes on
// (Endpoint.CanQueue), commits in the package, then queues: a refused verb returns one of
// the package's errors (wrapping the deciding package's own), changes nothing, sends
// nothing, and raises command_refused.
//
//   - Health and armor (vitals' [one-command-queue]): SetHealth, SetArmor, AddHealth, AddArmor. Only in a life
//     the server counts (ErrNotAlive); values finite (ErrNotFinite), 0..200, adds above 0
//     (ErrOutOfRange). set_health(0) is critical and counts the death.
//   - Weapons (inventory's [give-rules]): GiveWeapon, TakeWeapon, SetWeaponAmmo, ClearWeapons,
//     SetArmedWeapon, SetWeaponSkill (ErrWeapon); in any life state (the loadout comes
//     before the first frame). Every accepted pong hands the rewind's round-trip estimate
//     to the player's inventory (SetRTT): old shots of a weapon a command overwrote are
//     accepted for that round trip plus inventory.OverwriteShotMargin after the command.
//   - SetDamageMultipliers (world-wide, each connection's own table revision; joiners get
//     it) and SetWeaponProperties (a gun's damage per tier and range, a new catalogue
//     revision to every connection; ErrPropertiesBusy).
//   - Teams (teams' [teammate-stamp]): CreateTeam, ChangeTeam, RemoveTeam, SetFriendlyFire, JoinTeam,
//     LeaveTeam (ErrTeam). They send nothing: the next frames carry the relation.
//   - Respawn policy ([respawn-policy]): DecideRespawn with lifecycle.AllowAt / Hold / AtPoint,
//     SetSpawnPoint (ErrRespawn).
//   - Effects: CreateExplosion, CreateFire (ErrTooManyEffects at MaxEffects live).
//   - Vehicles and positions: CreateVehicle (a model of the vehicle catalogue, else
//     ErrOutOfRange), MoveVehicle, RespawnVehicle, FreezeVehicle, SetPlayerPosition
//     (ErrUnknownVehicle, ErrVehicleExists); each restarts the rewind history (rewind's
//     [history-restarts]). Kick.
//   - Readbacks: Vitals, Health, Armor, Weapons, HeldWeapon, Ammo, WeaponRev, Alive, Phase,
//     Generation, RTT, Team, Token, Connected, Players, Sees and SeesVehicle (streaming), VehicleWrecked, PlayerSeat (the
//     seat table's), LaneStats, Stats.
//
// # Events
//
// Events are typed values (Event, EventKind) with a deterministic String, drained with
// Events, at most MaxPendingEvents waiting (more are dropped and counted). The gamemode
// events ([event-set]): player_damage, player_death (with how it was committed),
// player_spawn, and the suspicion flags god_mode (a frame's raise cut), god_mode_suspect
// (the detector) and vehicle_god_mode_suspect (the vehicle detector: a claimed hit on a
// vehicle, accepted against the rewound pose its driver was sent, feeds the driver's
// vitals.VehicleDetector; the falls of health in its VehicleSync frames are what it
// felt). The diagnostics tell a host, or the simulator, whether an honest player
// was wronged: player_join, player_leave, respawn_granted, death_counted,
// shot_refused and projectile_refused (with the verdict and the inventory's own),
// report_not_credited (correlation, teams or vitals reason), report_unattributed,
// command_refused (the error), stealth_kill and stealth_kill_refused, vehicle_exploded and
// vehicle_explode_refused, death_report_ignored (the lifecycle's verdict), and
// input_refused (anything else a client sent that was refused, and a frame echoing a
// health or weapon revision never sent: verdict future_revision, which no honest client
// sends), refusals_suppressed (the refusals of one connection over its budget,
// summarized: see One client never drowns the others), and package_refused (a domain
// package refused a call the World made on its own account, with no client or gamemode to
// answer: a lane acknowledgement routed to it, a history restarted, a join rolled back;
// each is also counted by its PackageCall in Stats.PackageRefusals, so no refusal leaves
// no trace).
//
// # Hostile input
//
// Every message of a client gets a named Verdict: direction, connection, life and epoch,
// ids (players, vehicles, projectiles, effects), ranges, duplicates; the domain packages
// judge the rest with their own verdicts and errors. A datagram of one connection changes
// another player's state only through a rule of a domain package (FuzzCrossPlayer runs a world
// of honest scripted players with and without a hostile connection's datagrams and
// compares their ledgers, stores, lives, seats, relays and events). Nothing a client
// sends panics the World (FuzzReceive) or grows its memory beyond a named cap (a cap
// bounds what a connection can make the World hold; the tables and queues below it grow
// on demand, see Cost):
// MaxShotCredits and MaxShotVictims per shooter, a seat table of
// inventory.MaxVehicleSeats and a rate check of inventory.MaxVehicleGuns per vehicle,
// MaxProjectiles per owner (each with at most MaxSatchelRides vehicles), ShotWindow,
// MaxEffects, MaxFanOut,
// MaxPendingEvents, transport.MaxPendingDatagrams per connection, the lane's own caps,
// and the packages' caps (vitals' waits and windows, teams' group history, rewind's
// histories).
//
// # One client never drowns the others
//
// Whatever one connection sends, the others keep their data (flood.go). Every buffer the
// World shares between connections gives each its own share, and each connection has its
// own rates, sized from an honest client's worst traffic with a margin of two or more
// (the doc of each constant gives the measured worst case):
//
//   - DatagramRate (500 a second, DatagramBurst 1 s ahead): Receive drops a datagram
//     over it before decoding it. A bundle is charged one datagram per element and
//     dropped whole unless all of them conform ([elements-count-as-datagrams]), so ten
//     bundles never carry more messages than the gate lets through alone.
//   - FrameRate (60 a second for PlayerSync and as many for VehicleSync, FrameBurst
//     500 ms ahead; an honest client sends 30): a frame over it is refused before the
//     lifecycle, vitals, the inventory or the rewind take it, and is not relayed.
//   - ProjectileRate (10 launches a second, ProjectileBurst 2 s ahead): each launch is a
//     datagram in every other connection's outbox, and a vehicle's rockets come from no
//     store. Shots need no gate of their own: the inventory's per-weapon cadence bounds
//     the accepted ones (the vehicle guns have theirs), DatagramRate the refused ones.
//   - The relay log: MaxFanOutPerSender entries per sender between two Flush calls, so
//     MaxPlayers senders never fill MaxFanOut and no sender pushes another's frame out.
//   - Each outbox keeps OutboxReserve datagrams for its connection's own (its Welcome,
//     pings and pongs); other players' projectiles and detonations stop short of it. A
//     shot's own copies for the recipients near its ray wait in the relay log instead, at
//     most MaxShotCopies between two Flush calls, and a Flush writes one connection at
//     most the same room (MaxPendingDatagrams - OutboxReserve) of them; what is over
//     either is counted as an outbox drop.
//   - Events: the refusal diagnostics of one connection's input (input_refused,
//     shot_refused, projectile_refused, report_not_credited, report_unattributed,
//     stealth_kill_refused, vehicle_explode_refused, death_report_ignored) are limited to
//     RefusalEvents per RefusalInterval per connection (connections that never said
//     Hello by slot, ids outside the slots together); the rest are counted and summarized
//     by one refusals_suppressed event when the interval ends. Diagnostics stop at
//     MaxPendingEvents - RecordEventReserve waiting, so the gamemode events
//     (player_damage, player_death, player_spawn, god_mode and the suspicion flags)
//     always have room.
//
// What is over a cap gets VerdictRateLimited and is counted, in Stats and per connection
// in ConnStats (with each gate's peak, for sizing). Handle takes decoded messages and is
// not gated by DatagramRate (the host's decoder is); the other caps apply to it.
//
// # Cost
//
// A relayed frame or shot is validated and encoded once when it arrives and logged; Flush
// copies it once into each recipient's bundle and patches the recipient's stamp there
// with wire.PatchStamp (the wire owns where each message keeps its stamp and how a bundle
// is laid out). For that the World keeps the unreliable messages itself instead of using
// Endpoint.Send; the Endpoint carries the lane and decodes. Flush packs everything one
// connection gets into bundles of at most Config.PayloadSize bytes (DefaultPayloadSize,
// 1200; at least MinPayloadSize, so any message or lane datagram fits alone) with one
// transport.Packer whose buffer every connection reuses in turn; a datagram of one
// element goes bare. So the datagrams per tick grow with the players, not with their
// square: in BenchmarkWorld, 100 players who all see each other, each connection gets its
// 99 frames, its shots and its lane in 5 datagrams a tick instead of 109 (500 datagrams a
// tick instead of 10,896; 46,000 instead of 1,098,963 at 1,000 players; Stats.Flushes,
// DatagramsSent, ElementsSent). A lost bundle loses every element in it at once; each is
// an unreliable message the records already let the network lose, or a lane datagram the
// lane resends. The frame, shot, report, tick and flush paths do not allocate once the
// buffers have grown. BenchmarkWorld reports ns and allocations per frame handled, and
// datagrams per tick, for 100 and 1000 players at 30 frames a second with shots, credited
// reports and every relay, everybody seeing everybody (StreamConfig.Everyone: a frame
// costs n-1 relays); BenchmarkWorldStreamed the same with streaming for 1,000 and 10,000
// players in clusters of ten spread over 6 km x 6 km (a frame costs one relay per
// connection that has the player shown, at most the stream Cap; a Flush reads, for each
// connection, only the relays of the players it sees).
//
// An idle connection costs little. Flush visits a connection's lane only when it is due (a
// message was queued, a lane datagram or bundle arrived, or the lane's own deadline came:
// a retransmission), and Receive routes lane acknowledgements only after a lane datagram
// or a bundle, so the frames of a connection whose lane has nothing in flight never touch
// the lane. A connection with nothing of its own (an empty outbox, a lane not due) costs
// Flush only its relays, with no read of its player while streaming ([flush-own-due]).
//
// Memory per connection is bounded by the named caps, not allocated for them. The
// acknowledgement ring (internal/ring) and the shot credits grow by doubling up to
// lane.HardCap and MaxShotCredits (a shot credit that can no longer be credited is
// overwritten instead of growing the table); the projectile table is made at the first
// projectile and the vehicle_god_mode detector at its first use; vitals' windows and the
// lane's rings and arenas start small and grow on demand, and the lane gives back what a
// burst (a mass respawn, the shows of a crowd) grew once it falls idle; the connections
// share the World's decoder and one scratch for what their endpoints encode and the lane
// datagrams they build (transport.Endpoint.ShareDecoder and ShareScratch: every message is
// handled before the next is decoded, and no endpoint call runs inside another's), and
// the outbox doubles from what one message needs. In BenchmarkWorldStreamed a World takes
// about 9.6 KB per player with the rewind's pose history and 7.2 KB without, at 10,000
// players (it took 87 KB and 85 KB with everything sized for the worst case; 7.5 KB
// without history at 1,000, with teams sized to MaxPlayers and the scratch of streaming
// changes let go after a burst, keptChanges): the
// interest manager's shown sets 1.6 KB, the inventory 1.3 KB, the shot credits of a
// shooter firing three times a second 1.1 KB (16 records), vitals 1.0 KB, the player 0.7
// KB, the lane 0.5 KB, the Endpoint 0.2 KB, the outbox 0.25 KB, the lifecycle 0.2 KB,
// teams 0.1 KB (a heap profile of the 1,000-player case after four seconds of play, where
// teams' fixed table of MaxPlayers slots comes to 1 KB a player: 9.1 KB without history).
//
// # Rules
//
// The reference server's own decisions, where no domain package's rule decides, each
// under a short stable name that code and tests cite (a rule of a domain package is cited
// with the package's name, as in teams' [teammate-never-credited], and defined under
// # Rules in that package's documentation):
//
//   - [vehicle-credit] Ours: a vehicle explosion's author is the player it
//     names if that player had an accepted shot claiming a hit on the vehicle within
//     VehicleCreditWindow in its current life; only the driver's report is taken.
//   - [streaming] Ours: who sees whom is the interest manager's (internal/interest,
//     configured by Config.Stream): a player is shown to those within the stream distance
//     (200 m) and hidden from them beyond the distance plus its margin (220 m), at most Cap
//     (100) shown to each connection, the nearest first, each connection re-evaluated
//     every 250 ms in a phase slot of its own. Where a player stands is where its accepted
//     frames (a driver's vehicle frames too), its respawn grant and SetPlayerPosition put
//     it; a new connection stands at its spawn point and is evaluated at once. A
//     PlayerShow is queued only while the recipient's lane holds fewer than
//     ShowBacklogRoom messages; the rest stay owed and follow as the lane drains (each
//     Tick). A recipient sees a subject (Sees) from the moment its show is queued to the
//     moment a PlayerHide is: until then it gets none of its frames, vehicle frames,
//     shots, projectiles, detonations and lifecycle edges, and the show builds the copy
//     from the current state (lifecycle's [show-current-state]). StreamConfig.Everyone
//     turns streaming off: everybody sees everybody, as soon as the lane has room.
//   - [stream-vehicles] Ours (open.mp streams vehicles the same way): each connection has
//     shown the vehicles within the stream distance of where it stands, hidden only
//     beyond the distance plus its margin, at most StreamConfig.VehicleCap
//     (DefaultVehicleStreamCap, 100) of them, the nearest first (a shown one competes as
//     if it stood Margin nearer), re-evaluated in the connection's own phase slot of
//     Stream.Every (no tick spike); the vehicle it sits in is always shown to it (at once
//     when its seat is granted, and whatever the cap). A vehicle created, moved or
//     respawned is offered at once to the connections within the distance that have room
//     under their cap. A VehicleShow goes out only while the lane holds fewer than
//     ShowBacklogRoom messages (the next evaluation tries again); a VehicleHide is queued
//     (or owed: [stream-hide-owed]).
//     The index of vehicle positions is interest.Points (interest's [points-index]): bounded by
//     MaxVehicles, allocation-free. StreamConfig.Everyone turns it off: every connection
//     sees every vehicle and no VehicleShow or VehicleHide is sent.
//   - [stream-hide-owed] Ours: a PlayerHide or VehicleHide that a lane refuses at its
//     soft cap is owed, not lost. The subject is hidden for the server at once (nothing
//     more of it goes there), and the hide is queued again at every Tick, oldest first,
//     before the tick's shows, until the lane takes it; a later hide on the same lane
//     waits behind the owed ones. A show of the same id that goes out in between cancels
//     the debt (the show replaces the client's copy). A connection owes at most one hide
//     per id (MaxPlayers player hides, MaxVehicles vehicle hides), and its debts end with
//     it. So no client keeps a frozen copy of what it no longer has shown once its lane
//     drains (Stats.HidesOwed counts the refusals). A vehicle respawned while a lane has
//     no room for its new show is hidden there the same way, so its client does not keep
//     the wreck.
//   - [stream-vehicle-show] Ours: a VehicleShow carries the vehicle's state now: model,
//     pose, health (its driver's last frame), frozen, wrecked and the first relay number
//     of its frames it belongs to; so a vehicle driven, moved or respawned while hidden
//     from a connection is shown where it stands when that connection comes near. A
//     respawn shows the vehicle anew to those that have it shown (the wreck repaired),
//     and hides it from those of them it now stands beyond the distance plus the margin
//     of (unless they sit in it).
//   - [stream-vehicle-left] Ours: when its driver's frame shows it out of the driver's
//     seat, a vehicle is shown anew (a reliable VehicleShow) to the connections that have
//     it shown, with the pose of the driver's last accepted frame. Its frames' relays are
//     unreliable: without this, a copy whose last relays were lost keeps an older pose
//     for as long as the car stands parked (the simulated match measured copies 1.3 m off
//     at the default settings; none with it).
//   - [stream-vehicle-relays] Ours: a vehicle's frames (RemoteVehicleSync), its guns'
//     shots (RemoteVehicleShot, shared and rewound copies), its explosion
//     (RemoteVehicleExplode) and the gamemode's SetVehiclePose and SetVehicleFrozen go only
//     to the connections that have it shown (frames and shots: that also see its driver,
//     [stream-shots]); a vehicle verb checks lane room only on those. A connection that
//     has it hidden gets the new state with its next show. A claimed hit feeds the
//     god-mode detector of the player it names (or the vehicle_god_mode detector of the
//     driver of the vehicle it names) only when that player was sent the shot (it sees
//     the shooter and, for a vehicle's gun, has the vehicle shown): a client never
//     applies a shot it did not get.
//   - [stream-effects] Ours: a gamemode effect (CreateExplosion, CreateFire) goes to the
//     connections standing within the stream distance plus its margin plus the effect's
//     radius of it, in the plane (beyond that nothing the effect touches is shown to
//     them), and only their lanes must have room. A fire still burning is sent to a
//     connection that comes within that reach later, at its next evaluation, while its
//     lane has room as for a show (its audience comes from the interest grid, and each
//     effect slot remembers whom its effect was sent to, so an effect costs what it
//     reaches, not a walk over every connection). Every CreateFire says how long its fire has burned
//     when it is queued (Age: 0 when it is lit, the time since then for a late one, in
//     whole milliseconds rounded down), so a late recipient's game burns only what is
//     left: every recipient's game puts the fire out FireLifetime after it was lit, later
//     only by the delay of its own lane and link, as for the first send, and its reports
//     stay within the server's window. The effect's correlation (ExplosionWindow, BlastRadius,
//     FireLifetime from its creation) is the same for every recipient. StreamConfig.Everyone
//     sends effects to every connection.
//   - [stealth-on-foot] Ours (the records name no seat condition; the game has no knife
//     kill of or from a vehicle's occupant): a stealth kill is refused (VerdictSeated)
//     when its victim or its attacker has held a seat for longer than the attacker's
//     round trip and StealthSeatGrace, so a client on foot beside a car cannot knife its
//     driver, while an honest attacker who saw its victim on foot a round trip ago, or
//     whose claim was resent after its own entry, is not refused.
//   - [stream-edges] Ours: PlayerWasted and PlayerSpawned go to the connections that see
//     the subject (its viewers), so a mass respawn puts at most Cap edges of others on
//     any lane; an accepted stealth kill goes to its victim, its attacker and the
//     victim's viewers.
//   - [stream-late-show] Ours: a connection that comes within the distance of a dead
//     player is shown the corpse: the PlayerShow carries alive, the generation and the
//     death pose, never an edge it missed.
//   - [stream-shots] Ours: a shot's shared copy, its rewound copy for a recipient near
//     the ray, and the teammate stamp in each, go only to the connections that see the
//     shooter when the shot is accepted (the shared copy: when it is flushed); a recipient
//     the ray passed near that does not see the shooter gets nothing, as its client would
//     not know the shooter.
//   - [stream-reports] Ours: a damage report that answers a shot (a player's, a vehicle
//     gun's or a cannon's) is correlated only if its victim was sent it: if it had the
//     shooter shown at some moment from the shot's acceptance to RelayFlushSlack (250 ms)
//     after it, when the shared copy went out at the host's next Flush, and for a vehicle
//     gun's shot the gun's vehicle too ([stream-vehicle-relays]). Each connection keeps
//     its last VisibilityLog (16) shows and hides of other players and of vehicles for
//     this (changes only: a vehicle shown anew to one that has it shown is none); a
//     report whose shot is older than changes the log has lost is given the benefit of
//     the doubt. A victim that had the shooter shown when the shot was relayed is
//     credited even if the shooter was hidden from it since, within the shot credit's
//     window; a report of a shot the victim was never sent is refused as not relayed
//     (VerdictNotRelayed: a bullet's hit is discarded, a cannon's blast taken as the
//     environment's, unattributed), since its client could not have applied it.
//   - [stream-detonations] Ours: a detonation (RemoteDetonation) goes to those that see
//     its owner and to every connection standing within the stream reach of the blast
//     (the stream distance plus its margin plus BlastRadius, as [stream-effects]), so a
//     satchel detonated from beyond the stream distance is seen and felt by those
//     standing by it; a report of it is correlated by the blast's place and time, as
//     before.
//   - [event-set] Ours: the event set and fields above; refused damage raises no
//     player_damage and names no killer.
//   - [god-mode-feed] Ours: the detector is vitals' ([god-mode-detector]); the World feeds it a claimed hit on a
//     player near the ray, and evaluates it every SuspectInterval.
//   - [cause-correlation] Ours: the correlation rules per cause above, with their distances
//     (PositionSlack, RamDistance, BlastRadius, StealthKillRange, StealthSeatGrace, ContinuousRange) and
//     windows (ShotCreditWindow, ExplosionWindow, FireLifetime, ProjectileLifetime).
//   - [claim-start-reach] Ours: where a client's own actions start (vitals'
//     [sources-of-damage] makes the server own the start of a hitscan ray and the cause of
//     a projectile, and names no tolerance): the
//     tolerances above, sized from the simulator's honest worst case at 400 ms, 30 ms of
//     jitter and 5 % loss, with a margin: OriginReach 3 m on foot (measured 1.25 m),
//     SeatedOriginReach 8 m in a seat (measured 5.2 m), both plus the lead of
//     OriginWindow's path speed for OriginLead (at most MaxFootSpeed, 20 m/s, on foot, and
//     MaxOriginSpeed, 100 m/s, in a seat); ThrowSlack 20 m over a thrown weapon's
//     Range (measured 30.5 m from launch to detonation, bound 60 m); LostLaunchSlack 10 m
//     over a thrown weapon's Range and the owner's reach (measured 29.8 m from the owner's
//     path, bound 53 m). The simulator fires no
//     rockets and launches nothing from a vehicle: RocketSpeed, RocketTimeSlack,
//     MaxRocketTravel and VehicleLaunchReach are sized from the game alone.
//   - [respawn-policy] Ours: lifecycle's default delay ([respawn-delay]), overridable per
//     death with DecideRespawn; the connect spawn at once unless Config.HoldConnectSpawn.
//   - [facade-verbs] Ours: the gamemode's facade, grants and rewards are the Go verbs above; a command is
//     committed when its message is queued; the spawn loadout is Config.Loadout.
//   - [leave-frees-slot] Ours: leaving frees the slot in every package; a new connection on
//     the id starts from nothing but its lifecycle generation.
//   - [no-storage] Ours: nothing is stored; carrying health over a reconnection is the gamemode's.
//   - [floor-lowest-revision] Ours: vitals' [damage-floor] floors a bullet with the
//     revision the shot echoed; when the gamemode lowers a weapon's damage, a victim that
//     already applied the new table computes less than that floor, and the ledger would
//     take more than the victim lost (a floor must never be above the game's damage). The World takes the lowest damage among the shot's revision and
//     every revision the victim may still apply, acknowledged as for multiplier tables.
//   - [coalesce-per-recipient] Ours: what a connection gets in one Flush (its own
//     unreliable messages, its own copies of shots, the relays, its lane datagrams, in
//     that order) leaves in as few datagrams of at most Config.PayloadSize bytes as fit,
//     each a bundle of whole datagrams (wire's [bundle-carries-whole-datagrams]) or one
//     datagram bare.
//   - [flush-own-due] Ours: the World keeps, for each slot, when Flush must next read the
//     connection itself (its flushDue, in one dense array): now while its outbox holds a
//     datagram of its own or its lane may have work, else its lane's deadline. Every
//     outbox send and every lane wake-up sets it, each Flush that reads the connection
//     resets it, and it always equals what it stands for (the outbox empty and the
//     lane's due time). A connection before it gets only its own copies of shots and its relays, in the same
//     datagrams as if it had been read, with no read of its player while streaming: at
//     10,000 players most connections have nothing of their own in a Flush.
//   - [stream-standing-mirror] Ours: each player keeps whether the interest manager holds
//     it placed where its newest frame stands (frameState.placed): every place in the
//     manager and every removal from it sets it, every move of the frame's position that
//     does not place it clears it, so it always equals what it stands for. A frame that
//     stands where the manager holds its player already does not place it again (which
//     would change nothing): a world standing still reads no interest state per frame.
//   - [live-mirror] Ours: the World keeps one bit a slot, set while the slot holds a
//     connection (World.live), which join and leave set with the player's connected, so
//     it always equals it: a shot finds the recipients near its ray there, reading none
//     of their players.
//   - [elements-count-as-datagrams] Ours: the per-connection datagram gate (DatagramRate)
//     charges a received bundle one unit per element and drops it whole unless all of
//     them conform: coalescing never lets a client pass more messages than it could send
//     one per datagram.
//   - [lost-launch] Ours: ProjectileLaunch and Detonation are both unreliable; a detonation
//     whose launch was lost is judged as its launch (owned, rounds, spent) instead of
//     being refused, so an honest grenade is not refused for a lost datagram.
//   - Vehicles: the protocol has no message that creates one on the clients apart from
//     the streaming's VehicleShow, so CreateVehicle sends nothing but the shows to those
//     near it (without streaming nothing: the host's world knows its vehicles);
//     RespawnVehicle sends SetVehiclePose. Weapon skill levels: SkillLevelPoor/Std/Pro.
//   - [seat-table] Ours: the rules speak of "the driver" and of vehicle guns without
//     saying who decides either: the seat table from accepted entries
//     (EntryReach, EntryCorrectionInterval), and each model's guns, seats, ranges, rates
//     and mounts from the vehicle catalogue (VehicleGunSlack, VehicleGunLag,
//     VehicleGunMaxSpeed for the origin). An explosion is not bound to the vehicle's
//     health: the health is the driver's own word (no rule makes the server own it),
//     so a rule "its frames showed it burning (250 or less) first" would cost a cheating
//     driver one forged frame; and a rocket or a shell takes a car from full health to a
//     wreck between two frames, which the rule would need every explosion source
//     correlated to allow (measured in the simulator, where damage comes 30 at a time:
//     the last health a driver's frames showed before its explosion was at most 100 over
//     232 explosions).
//
// # Left to the host, and open
//
//   - Telling a new connection on a reused id from datagrams of the old one (the lane
//     starts at 0 on both): the host's handshake.
//   - A client that never reloads fires within its total and cadence (inventory's open
//     hole). Vehicle health stays the driver's client's (no rule makes the server own
//     it): a client that repairs its car between two frames shows each fall and is not
//     caught by vehicle_god_mode; only a car that never shows the damage is.
//   - The last grenade of a store whose launch was lost may be refused at its detonation
//     (the frame that showed it spent is older than the inventory's CreditHold by then).
//   - A satchel whose launch was lost and which the owner detonates after walking (or
//     riding) farther than its reach and LostLaunchSlack from where it threw it is
//     refused: without the launch the World does not know where it lies. A satchel that
//     rode a vehicle standing farther than its throw's reach when it was thrown (or one
//     beyond the nearest MaxSatchelRides) is refused too. A client whose own frames lie
//     about where it stands moves its origins with them: the frames' positions are the
//     client's claim.
//   - A player's frames are its position and a driver's frames its vehicle's pose:
//     nothing here bounds how far either moves between two frames (a teleporting client).
//     This is deliberate: the server has no map, and the game itself moves a player
//     through its own entrances and exits without the server; a speed gate would cut an
//     honest player's frames there. What the World binds instead is every other claim to
//     that path: a shot, a launch, a seat and a vehicle gun start where the sender's own
//     accepted frames put it, so a client that lies about where it stands shows every
//     screen the lie it shoots from (the lead of a path that jumps is capped by
//     MaxFootSpeed on foot, MaxOriginSpeed in a seat). A host with a map (or that turns
//     the game's entrances off) can add a speed gate in front of onPlayerSync.
//   - A driver that reports its vehicle's explosion and leaves it before the
//     RemoteVehicleExplode comes back is still counted dead by the server (vitals'
//     [death-by-ledger]: leaving does not cancel the death); its client must not live on.
//   - Weapon property changes and damage multiplier tables go to every connection,
//     streamed or not (everyone needs them), and one full lane refuses the verb for all
//     (canQueueAll); with many thousands of players a host should use them sparingly.
//   - Past interest.MaxCrowd candidates within reach (the interest manager bounds a
//     crowd), a connection is shown the nearest of those weighed, not the true nearest.
//
// A World is not safe for concurrent use.
package refserver
