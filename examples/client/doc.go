// Package client is the honest game client of the arbiter protocol: the client's side of
// every rule of the domain packages, as a pure state machine. The simulator
// (examples/sim) puts many of them on a simulated network with the reference server
// (examples/refserver) to measure the promise that an honest player is never wronged;
// anyone writing a real client can read this package as the reference for what a client
// must do. A rule cited by its bracketed name, such as vitals' [one-command-queue], is
// defined under # Rules in the documentation of the package named.
//
// # Rules
//
// The client's own decisions, each under a short stable name that code and tests cite:
//
//   - [honest-amounts] The amounts the rules leave to the game (blasts, blows, fire, the
//     death animations, the reload time, the skill levels: MeleeDamage, DetonationBlast,
//     ExplosionPeak, CannonRadius, SkillTier, DefaultReloadTime, DefaultStealthAnim) are
//     ours, chosen so that an honest client never claims less than the server's floors.
//   - [death-report-delay] The DeathReport leaves DeathReportDelay (150 ms, the death
//     animation) after the death, so a shot fired just before, which travels unreliably,
//     does not reach the server after the committed death that would refuse it; the
//     delay must exceed the link's jitter.
//   - [spend-above-server] A continuous weapon spends Config.SprayRate rounds a second,
//     more than the server's own spend (inventory.ContinuousSpendRate), so the server's
//     count never falls below the client's.
//   - [vehicle-copies] The client keeps a copy of each vehicle the server shows it
//     (VehicleShow builds or rebuilds it from the state it carries, VehicleHide drops it),
//     at most MaxVehicleCopies; a relayed vehicle frame moves the copy when it is not
//     below the show's sync_seq and newer than the copy's last frame, SetVehiclePose,
//     SetVehicleFrozen and RemoteVehicleExplode update it. Once the server has shown a
//     vehicle (it streams them) a frame of a vehicle without a copy is dropped; before
//     that (a server that sends every vehicle's frames to everyone) the first frame makes
//     the copy. The vehicle the player sits in as a passenger moves with its driver's
//     frames as before (ShownVehicle and VehicleState agree); the vehicle it drives
//     itself moves with its own MoveVehicle (its frames are never relayed back to it).
//   - [fire-burns-what-is-left] A gamemode fire burns FireLife from when the server lit
//     it: its arrival less the Age its CreateFire carries. A fire sent late (the player
//     came near it while it burned) burns only what is left, so it goes out when it does
//     for a player who got it when it was lit, and the reports of its damage stay within
//     the server's window; a fire whose Age is beyond FireLife is out when it arrives and
//     is dropped.
//
// # Driving a Client
//
// A Client has three faces.
//
//   - The network: Receive takes each datagram from the server (its own
//     transport.Endpoint, the client side, splits unreliable messages from the reliable
//     lane and delivers lane messages in order, each once); Tick runs the client's timers
//     (Hello, RespawnRequest, frames, reloads, sums, detonations, the stealth animation);
//     Flush hands the datagrams to send to the host. NextDeadline says when Tick or Flush is
//     next needed. Call Tick at least every transport.FrameInterval.
//   - The game: the world around the player (the simulator's bots and physics) moves the
//     body (Move, EnterVehicle, MoveVehicle, LeaveVehicle), acts (Fire, VehicleFire, Throw,
//     Strike, StealthKill, HoldFire, Arm) and deals damage the world computes (MeleeHit,
//     Rammed, RotorHit, Fall, Drown, Burn, InFire, Sprayed, VehicleHit). Damage the server
//     relays (shots, blasts, gamemode explosions, vehicle explosions, stealth kills) arrives
//     through Receive; whether a relayed ray hit the player is asked of Config.World
//     (World.Trace), as a real client asks its collision world.
//   - Observation: read-only accessors (Health, Armor, Alive, DeathEpoch, Weapons,
//     Revisions, Counters, Remote, ...), the per-life log (AppendLives), the logs of
//     reports and health commands for the race measurement (AppendReportLog,
//     AppendCommandLog) and the events the world must follow (PopEvent: revived, died,
//     teleported, left a wreck). They never change what the client does.
//
// Time is an argument (now, the host's monotonic clock) and only moves forward: an earlier
// now is ErrClock. The client starts no goroutine, reads no clock and draws randomness only
// from Config.Seed (which of equivalent death animations to play), so a match replays bit
// for bit. Bad input (NaN, out of range, a verb that needs a vehicle on foot) returns a
// named error and changes nothing; an action the honest game would not do returns a
// verdict (ActVerdict) and changes nothing. Every buffer has a cap that is a named
// constant. A Client is not safe for concurrent use.
//
// # Joining (the session protocol)
//
// The client sends Hello every transport.HelloRetry until Welcome gives it its player id
// and token. From then on, while it has no body, it sends RespawnRequest{DeathEpoch: 0} on
// the lane every transport.RespawnRetry until the connect spawn's RespawnPlayer. It sends
// no frames before its first spawn.
//
// # The frame
//
// While it has a body (alive or dead) the client sends PlayerSync every
// transport.FrameInterval, so never more than transport.MaxFrameGap apart: Seq +1 per
// frame (from 1); vital_rev, damage_seq and weapon_rev (below); its death_epoch and alive
// (which the server reads and never relays: lifecycle's [server-commits-death]); the held weapon with its clip and
// total; FireHeld while a continuous weapon's fire is held; health and armor clamped to
// 0..200 and the velocity clamped by wire.ClampVelocity, so the frame always encodes; the
// body's position and heading; its vehicle and seat. A driver also sends its vehicle's
// VehicleSync with each frame (the server's vehicle rewind history is made of them). The
// first frame of a new life goes out at the revival itself, ahead of anything else of the
// life: it is what confirms the life on the server.
//
// # Commands: one ordered queue
//
// The server's health, armor and weapon commands arrive on the reliable lane, and the
// client applies each at once in arrival order (vitals' [one-command-queue], inventory's
// [give-rules] and [weapon-revision]): one queue, so set_health(50) followed by
// add_health(25, 100) gives 75 whatever the network did.
//
//   - SetHealth/SetArmor set the exact value (clamped to 0..200); GiveHealth/GiveArmor add
//     up to the ceiling and never lower. The client echoes the revision of the last of
//     these it took in every frame and every damage report (vital_rev). A command that
//     arrives while the player is dead (or before its first spawn) is dropped, and its
//     revision is still taken: a set is a point in time and must not land in the next
//     life. A SetHealth(0) on a living player kills it through the normal death path (a
//     DeathReport, no damage report).
//   - Before a health or armor command applies, the sums still open (below) are reported:
//     their damage came before the command, so they echo the revision before it and claim
//     what was left before it. (Reporting them after the command with its revision would
//     make the server lower the commanded value by damage from before it.)
//   - GiveWeapon, TakeWeapon, SetWeaponAmmo, ClearWeapons and SetArmedWeapon follow the
//     game's rules, the same the server's inventory package keeps: the same weapon again
//     adds its ammo; a different weapon in a slot whose weapons pool their ammo (shotguns,
//     submachine guns, assault rifles) carries the displaced total over; any other slot is
//     replaced; totals stop at 65535; a give with rounds refills the clip (at the clip size
//     of the player's skill tier); set_as_current makes it held; taking the held weapon
//     holds slot 0. The client echoes the revision of the last weapon command it applied
//     successfully (weapon_rev); a command the game refuses (taking a weapon it does not
//     have) leaves the echo where it was. Weapon commands apply while dead too: the
//     corpse keeps its weapons.
//   - DamageMultipliers replaces the multiplier table; WeaponProperties replaces one
//     weapon's damage per tier and range in the client's table, and every later shot names
//     its revision (PropertiesRev) so the server floors the hit with the numbers the
//     shooter had. SetWeaponSkill sets a skill's tier by its level (SkillTier: ours, [honest-amounts]: poor below 200, standard below 999, pro from 999).
//   - SetPlayerPosition moves the player (out of any vehicle); SetVehiclePose moves the
//     vehicle it sits in; SetVehicleFrozen freezes a vehicle (MoveVehicle refuses it).
//
// # Damage: the victim decides and reports
//
// Every damage the player takes goes through the same steps (teams'
// [teammate-refused-by-victim], vitals' [damage-multipliers], [client-order],
// [sums-after-frames], [lethal-report-first]).
//
//  1. Teammates. Damage from another player is refused if that player is a
//     teammate: a shot (RemoteWeaponShot, RemoteVehicleShot) by the stamp its own packet
//     carried, so a shot fired before a team change lands by what the victim knew then;
//     everything else by the newest stamp received from its author (teams.Tracker: newest
//     by relation revision, not by arrival, so an old frame cannot bring an old relation
//     back). The stamps of every packet of a sender are fed to the tracker: frames,
//     vehicle frames (the driver), shots, projectiles, detonations, stealth kills, vehicle
//     explosions (the author), gamemode effects (the creator). A refused hit is not
//     applied at all: no damage, no hit reaction, no report. Damage without an author
//     (falls, drowning, unowned fire and explosions) and the player's own are never
//     refused.
//  2. The multiplier of the damage's class, by the weapon it arrives with: melee blows,
//     fire (37), the spraycan (41), the extinguisher (42), explosions (51) and the
//     Predator's guns; bullets, vehicle guns, rams, falls and drowning have none. A
//     multiplier of 0 refuses the hit entirely, like a teammate's.
//  3. Armor first: the damage takes the armor, the rest the health, never below 0.
//  4. The report. Each applied hit creates a DamageReport at once: the next number
//     (damage_seq, from 1, per connection, across lives), the health revision, the
//     attacker, the weapon or cause, the body part, what it answers (Ref), health and armor
//     before and after, and the loss. Every later frame echoes its number. Fire, spray,
//     falls, drowning and unowned fire are sums instead: applied at once (the frames show
//     them), summed per author, cause and effect, and reported transport.FireSumInterval
//     after their first tick, after the frames that already showed them, claiming what was
//     left at the report; a health command or a death reports them earlier.
//  5. Death. Damage that takes the health to 0 sends its report on the reliable lane, then
//     the DeathReport (vitals' [lethal-report-first]); sums still open go out first, claiming what was left before the lethal
//     damage.
//
// What each source reports:
//
//	source                      Weapon           Attacker          Ref
//	bullet (a pellet each)      the shot's       shooter           RefWeaponShot, ShotSeq
//	vehicle guns                the shot's       shooter           RefVehicleShot, ShotSeq
//	Rhino cannon's shell        51               shooter           RefVehicleShot, ShotSeq
//	melee blow                  attacker's       attacker          none
//	projectile blast            51               owner (or self)   RefDetonation, number
//	gamemode explosion          51               creator or none   RefEffect, effect id
//	vehicle explosion           51               author or none    RefVehicleExplode, vehicle
//	ram, run over / rotor       49 / 50          driver            none
//	gamemode fire (sum)         37               creator or none   RefEffect, effect id
//	flamethrower, spray (sum)   37, 41, 42       attacker          none
//	fall, drowning (sum)        54, 53           none              none
//	unowned fire (sum)          37               none              none
//
// The amounts are the client's own computation, as the rules leave them to the victim (vitals'
// [sources-of-damage]; ours: [honest-amounts]):
// a bullet does PlayerDamageFactor (0.33) x its weapon's standard-tier damage in the
// client's table per pellet (the server floors at the shooter's tier, which never exceeds
// it in the default catalogue); the Predator's guns 0.33 x PredatorDamage; a melee blow
// MeleeDamage (never below the server's melee floor); a blast of peak P and radius R does
// P x (1 - d/R) at d metres from its centre, nothing from R on (BlastDamage; the peaks and
// radii of DetonationBlast, ExplosionPeak with the radius of a CreateExplosion,
// CannonRadius), at the player's present position ("the explosion hits whoever is there
// now", rewind's [rewind-to-shooters-view]); rams, falls, drowning and fire are the world's amounts. Body parts come
// from the trace; damage without a ray reports the torso (the body part never changes
// the damage to a player, and it must be on the whitelist).
//
// # The rewound trace
//
// Rewind's [rewind-to-shooters-view] and [victim-decides-hit] on the client.
// When the server sends a relayed shot with the player's rewound pose (the ray passed near
// it), the client moves its body, and its copy of the vehicle it sits in, to that pose for
// the trace only: during World.Trace, Position and VehicleState report the rewound pose;
// afterwards they are back. A shot without a rewind is traced at the present pose. The hit,
// walls, the body part and the damage stay the client's own computation.
//
// # Death and respawn
//
// The dying client sends DeathReport on the lane (lifecycle's [server-commits-death]),
// DeathReportDelay (150 ms, the death animation) after it died ([death-report-delay]),
// with its life, its own belief of the killer (the attacker of the lethal damage; none
// for a fall, set_health(0) or a suicide), the means, and the death animation it played, always one of lifecycle's poses (a seat
// pose in a vehicle, drowning, a fatal fall, a blast, a knock-down for blows and rams, a
// head or leg shot, the knife's for a stealth kill; the default otherwise). It stops acting, keeps
// sending frames with alive = 0 and health 0, and sends RespawnRequest naming the life it
// died in right after the DeathReport and every transport.RespawnRetry. The delay keeps a
// shot the player fired just before it died, which travels unreliably, from reaching the
// server after the DeathReport, when the committed death would refuse it (vitals'
// [mutual-kill]): it must exceed the link's jitter. A RespawnPlayer revives it only if
// lifecycle.ShouldRespawn says it is new (a newer generation, or the connection's first;
// lifecycle's [respawn-idempotent]):
// a repeated grant of the life it already lives in is ignored. The revival puts it at the
// point with 100 health and 0 armor, empties its weapon store as the server's grant did,
// without touching its weapon_rev echo (no packet carries a revision of that clear), drops
// what the previous life left (reloads, sums, projectiles in the air), and sends the first
// living frame at once. It then waits Config.SpawnSettle before acting: the server accepts
// actions of a life only from its first living frame (lifecycle's [first-living-frame]),
// and frames are unreliable.
//
// A stealth kill of the player (RemoteStealthKill for its current life, not by a teammate)
// plays the paired animation for Config.StealthAnim, then the player dies with the knife
// (4) and lifecycle.PoseKnifeStealth; there is no damage report (the server counted that
// death itself). When the vehicle the player sits in explodes (RemoteVehicleExplode), the
// player dies at once, a death and not an amount, so no multiplier spares it; the lethal
// report answers the explosion. If the explosion's author is a teammate by the newest
// stamp, the player takes nothing and steps out of the wreck (teams' [explosion-spares-teammates]). The driver whose
// own game blew its vehicle up reports it (VehicleExplode, after DeathReportDelay so that
// a gun shot it sent just before is not overtaken) and stays in the wreck until the
// server's RemoteVehicleExplode decides: leaving the vehicle does not cancel the death
// (vitals' [death-by-ledger]).
//
// # Copies of the others
//
// The client keeps a copy of every player the server shows it (PlayerShow), by
// lifecycle's receiver rules (lifecycle.Copy, [show-current-state], [player-token]): a show builds the copy from the state it
// carries, replaying no edge; PlayerWasted and PlayerSpawned apply only to the connection
// (player_token) and life they name; a spawn rebuilds the copy at its point with the
// edge's sync_seq as the barrier below which late frames of the old life are dropped; a
// relayed frame applies only to the copy's life at or past its barrier, and its alive
// never kills or revives the copy; PlayerHide removes only the connection it names. A new
// connection on an id, and a hide, make the tracker forget the old sender.
//
// # Acting honestly
//
// Fire fires only a gun the store holds (inventory's [shot-sanity-check]), with a round in the clip, no sooner than the
// weapon's MinInterval after its last shot, along a ray no longer than its Range; one round
// leaves the clip and the total, the weapon becomes the held one (as the server's spend
// makes it), and the WeaponShot names the shot number, the life, the properties revision
// and the shooter's claim of what the ray hit. An empty clip with rounds left reloads for
// Config.ReloadTime (frames show clip 0). VehicleFire fires the gun its seat fires in
// the vehicle it sits in, by the vehicle catalogue (Config.Vehicles) for the model the
// world names (World.VehicleModel): the gun's weapon id, at its interval, within its range
// and from its mount, once its frames have shown it in the seat for Config.SpawnSettle. Throw spends one round of
// a projectile, sends ProjectileLaunch, and after the fuse reports the Detonation (also if
// the thrower died meanwhile, not after a revival) and takes its own blast. HoldFire holds
// a continuous weapon's fire: frames show FireHeld and the weapon spends Config.SprayRate
// rounds a second, more than the server's own spend, so the server's count never falls
// below the client's ([spend-above-server]). Strike keeps the held weapon's cadence on a victim in reach (the
// victim reports the blow); StealthKill claims a kill with the knife on a living victim
// within StealthReach that is not a teammate.
//
// # What is ours, and what stays open
//
//   - The rules leave to the game the amounts of blasts, blows and fire, the death
//     animations, the reload time and the skill levels; the numbers here are ours
//     ([honest-amounts]).
//   - Vehicle models are not on the wire: which vehicle is a Predator or a Rhino comes from
//     the world (World.VehicleModel), and what its guns fire from the vehicle catalogue,
//     which must be the server's.
//   - The wire has no message to enter a vehicle: EnterVehicle seats the player, and the
//     frames that name the seat are its claim; the server grants it only near a free seat,
//     and answers a refused claim with a SetPlayerPosition that takes the player out.
//   - A vehicle explosion hurts its occupants only (the server's rule); a blast of a
//     vehicle near a player on foot is not modelled.
//   - A shot fired in the life's last moments that arrives after the server committed the
//     death is refused by vitals' [mutual-kill]; the client cannot prevent it, only make it
//     rarer ([death-report-delay]).
//   - WeaponProperties carries damage and range only; a server table that changes a
//     weapon's interval or clip reaches no client.
//   - A real client would also send its own pings; this one only answers the server's.
package client
