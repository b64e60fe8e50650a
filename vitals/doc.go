// Package vitals keeps the server's health and armor ledger of each player's life
// ([ledger-only-falls]): the server owns how much health and armor a life has and when it dies, the
// victim's client confirms that a hit happened, and damage from the environment stays the
// victim's own observation.
//
// # Rules
//
// The rules below are the package's contract, each under a short stable name that code,
// tests and the other packages cite. The sections after this one say how each works.
//
//   - [ledger-only-falls] Only the server raises the ledger (a command, a new life);
//     everything a client sends (frames, hit reports) can only lower it, and a frame
//     showing more than the ledger is cut and raises the god_mode flag.
//   - [health-revision] Every health or armor command carries the connection's next
//     revision (vital_rev); frames and reports echo the last one the client applied, and an
//     item is judged against the ledger as of the revision it echoes.
//   - [one-command-queue] The client applies the health commands in the order sent, in one
//     queue: set_health(50) then add_health(25, 100) gives 75. A set or an add goes up to
//     the highest value on the wire (200), and a client drops a set or an add that arrives
//     while its player is dead, and still takes (echoes) its revision.
//   - [client-order] Frames and reports are applied in the order the client created them:
//     reports are numbered (damage_seq) and a frame carries the number of the last report
//     created before it; what arrives ahead of its place waits at most ReportWait.
//   - [sources-of-damage] Each source of damage has what the server decides and what it
//     takes from the victim: a bullet (on foot or from a vehicle gun) needs an accepted
//     shot whose ray passed the victim and costs at least the floor; a blow needs a living
//     attacker within 6 m, at the weapon's rate, and costs at least the floor of the
//     weakest blow; a stealth kill is the server's whole decision; projectiles,
//     explosions, fire, rams and the environment are the victim's observation of an amount
//     only its physics knows, within the cause, window and radius the server accepted; a
//     vehicle explosion kills its occupants by the server's decision.
//   - [sums-after-frames] A sum of fire, spray or environmental damage comes after the
//     frames that already showed it, so it only lowers the ledger to what it claims was left.
//   - [damage-floor] A bullet or a blow costs at least a floor computed from the weapon's
//     damage under the WeaponProperties revision the shot echoed and the lower of the
//     shooter's skill tiers within SkillChangeGrace of a change (vehicle guns: the standard
//     tier); fire, explosions, rams and the environment have no floor.
//   - [damage-multipliers] The victim applies a damage multiplier per class (the weapon the
//     damage arrives with), armor first; a multiplier of 0 refuses the hit.
//   - [trust-in-fields] A report's attacker, weapon and order count only once the host
//     correlated it with an action the server accepted ("the shot it answers"); its body
//     part must be on the whitelist and never changes the floor; its numbers count only
//     within the floor and the ledger.
//   - [death-by-ledger] When the ledger's health reaches 0 (or on an accepted vehicle
//     explosion for an occupant, or an accepted stealth kill, whose decision is the
//     server's whole) the server counts the life dead; leaving the vehicle does not cancel
//     that death, and after it nothing raises the ledger. Whose deadline commits the death
//     is lifecycle's.
//   - [lethal-report-first] A lethal damage report travels on the reliable lane ahead of
//     the victim's DeathReport.
//   - [mutual-kill] Two shots relayed before either death both kill; once the server
//     committed a death, the dead player's shots and other actions are refused.
//   - [server-zero-after-death] When the server commits a death the victim did not report,
//     it sends a critical SetHealth(0) with the connection's next revision.
//   - [god-mode-detector] Ours: a victim that confirms far fewer of the hits shooters
//     claimed against it than were claimed, and whose ledger felt far less, is flagged; the
//     detector never changes health.
//   - [vehicle-god-mode-detector] Ours: the same weighing for the vehicles a player drives,
//     whose health is the driver's client's, against the falls its own frames show.
//
// # The ledger in plain words
//
// A Player is created when a client connects (NewPlayer) and lives as long as the
// connection. Each spawn or respawn grant starts a life (NewLife): 100 health, 0 armor. The
// life is not counted until its first frame; from then on the gamemode may command it.
//
// Only the server raises the ledger: SetHealth, SetArmor, AddHealth and AddArmor (and a new
// life). Everything the client sends can only lower it:
//
//   - A frame (Frame) shows the client's health and armor; the ledger falls to what it shows.
//     A frame showing more than the ledger (beyond RaiseTolerance, 1.0: the game rounds
//     health) is cut, the relay keeps showing the ledger, and the god_mode flag is raised
//     (Effects.GodMode), except for a frame taken before a report the server credited less
//     than CreditGrace (1 s) ago: an honest frame from before a hit may arrive after the
//     hit's report.
//   - A hit report (a bullet, a blow, an explosion, a ram by a player) deducts the loss it
//     claims, and the ledger also falls to what it claims was left. A client that restores
//     its own health between hits and claims "100 -> 54" every time still loses 46 a hit.
//   - A bullet or a blow costs at least a floor: 0.33 x the weapon's damage - 0.01 for a
//     bullet (one pellet of a shotgun), 1.32 x the melee multiplier - 0.01 for any blow,
//     0.33 x 15 x the Predator multiplier - 0.01 for the Predator's guns. The floor comes
//     off the lower of what the client claims it had and what the ledger holds, armor
//     first. Fire, spray, explosions, ramming and the environment have no floor: only the
//     clients' physics know their amount. BulletFloor, TierDamage, MeleeFloor and
//     PredatorFloor are the arithmetic; the host computes a bullet's floor from its weapon
//     catalogue (the WeaponProperties revision the shot echoed, the shooter's tier, the
//     lower tier within SkillChangeGrace of a skill change, the standard tier for vehicle
//     guns) and passes it in ReportInput.Floor.
//   - A sum of fire, spray or environmental damage (a fall, drowning, an unowned fire or
//     explosion) comes after the frames that already showed it, so it only lowers the
//     ledger to what it claims was left.
//
// When the ledger's health reaches 0 (by a report, a frame or set_health(0)), or on an
// accepted vehicle explosion for an occupant or an accepted stealth kill, vitals counts the
// life dead and returns a Death: the moment, the killer from the last damage, the cause and
// whether it was a stealth kill. From then on nothing raises the ledger and commands are
// refused. Nothing in this package ever tells a living player to lower its health back.
//
// # The health revision
//
// Every command takes the connection's next revision and the ledger takes its value when it
// is sent. The client echoes the revision of the last command it took in every frame and
// report. An item echoing an older revision than a command was created before the client
// took that command. An echo newer than anything sent is never taken.
//
// Each command settles on its own clock, whatever the gamemode's command rate: for what
// comes after an item that echoed it in the client's order, at once; for everything,
// AckGrace (2 s) after the client acknowledged it (the lane is ordered: an acknowledgement
// covers every earlier command) or SendTimeout (15 s) after it was sent. At most
// MaxPendingCommands (32) commands are in flight; above that the oldest settles at once.
//
// Ours, where a plain hold would keep such an item off the ledger (attribution only)
// until the newest command settles: an item is judged against the ledger as of the revision it
// echoes, and the commands the client had not taken yet are replayed after it, as the
// client applied them. The ledger is kept as a base (the ledger as of the newest revision
// the client's order showed or that settled) and the commands in flight; the canonical
// ledger is the base with them replayed (a set puts its value, an add adds up to its max
// and never lowers). An echo older than a settled command is judged as if it echoed the
// newest settled one. For an honest client this is exactly what it holds: a hit from before
// a set is erased by the set, a hit from before an add stays (an add never erases fresh
// damage), and a hit that took the base to 0 killed the client before it took the
// commands behind it (a dead client drops them), so the ledger counts the death. It closes
// what that hold leaves open: a client that withholds its acknowledgement and keeps
// echoing an old revision was untouchable for 15 s after every command (110 confirmed hits
// left it at full health), and under regeneration, a command every second, the newest
// command never settled and the ledger never fell again. Now such a client is judged by
// what it confirms at the revision it claims, its frames showing more than it had then are
// cut and flagged, and it dies when that reaches 0.
//
// What still stays off the ledger is an item that reached the server out of the client's
// order behind an item that echoed a newer command (a frame a later report overtook, a
// late report): the command is in the base already, so it cannot be judged as of its own
// revision. It is held off (FrameGated; a report gives attribution only) until that command
// settles by time. Deliberate reading of the record: "settled when echoed" releases only
// what comes after the echoing item in the client's order, so for an honest client the
// echo releases nothing it did not already release; it still stops a client that echoes a
// command once and then falls back to an old revision. A report that gives attribution only
// confirms nothing to the god-mode detector (below).
//
// # The client's order
//
// The server applies frames and reports in the order the client created them. Reports are
// numbered (the first of a connection is 1); a frame carries the number of the last report
// created before it (damage_seq), so it sits after that report and before the next.
// Whatever arrives ahead of its place waits for what comes before it, each item at most
// ReportWait (1 s) from its own arrival, so a newer item never restarts an older one's
// wait. When a wait runs out, the next item is taken without what it waited for: a frame
// counts on its own, an observation without attribution; a report is applied over the gap.
// Only a credited report fills its place; a discarded one (uncorrelated, a teammate's, a
// zero multiplier, a future revision) releases nothing.
//
// Deliberate extension of the rule: the rule has frames wait for reports; vitals also
// has a report wait for the reports numbered before it. A shotgun blast creates one report
// per pellet in a single frame, and 0-30 ms of jitter reorders them; taking a later pellet
// first would let its claimed remainder (which already includes the earlier pellets) stand
// in for them, and then the earlier pellets would arrive after their place and pay their
// floor a second time. Holding them keeps one loss from ever being deducted twice, at the
// price of delaying attribution by up to ReportWait behind a lost report.
//
// A report whose place was already passed (by a frame or a report that counted without it
// when its wait ran out) is late: the loss was shown by what passed it, so it only gives
// attribution and pays its floor. It draws first on what that item deducted beyond its own
// claim, but only the first report after that item's start may draw on it, once, and not if
// a health command was sent since that loss was deducted; the rest of the floor comes from
// the ledger, armor first. The price, and the rules accept it: an honest report late by more
// than ReportWait, several in one frame, or late past a command's grace pays its floor once
// more.
//
// Deliberate reading of "deducts the claimed loss ... armor first ... and falls to at most
// the claimed remainder": the claimed remainder counts towards the claimed loss. The ledger
// falls to the claimed remainder (never above the claimed "before"); if that took less than
// the claimed loss, or less than the floor below the hit's "before", the rest is taken armor
// first. For a client whose game took the hit armor first this is exactly the rule's
// arithmetic; a client whose game split it otherwise (explosions, ramming) is not charged
// the loss once from armor and once more from health.
//
// The first frame of a life does not touch the ledger. Reports numbered up to its
// damage_seq (at most ReportWindow, 64, past the last accepted report) belong to the
// previous life and are discarded, so a report in flight from the old life cannot hurt the
// new one. A report credited late is accepted like one credited in order: the window
// counts from the newest of either, or an old life's report could become the new life's. Ours, sharper than the record: when a frame of the dead client arrived (it is
// not taken, but kept), the boundary is that frame's damage_seq instead. A dead client
// makes no reports, so that is exactly its last report of the old life, and a hit the new
// life took before its first frame reached the server keeps its attribution (the
// simulator met one at 5 % loss). The host passes only frames of the current life
// (lifecycle's generation check).
//
// # Damage multipliers
//
// SetMultipliers sends a per-class table (melee, fire, spray, extinguisher, explosion,
// Predator guns) with the connection's next table revision; the victim's client applies it
// before the damage. The class is the weapon the damage arrives with (ClassOf). The melee
// and Predator floors are multiplied by it. Until the client acknowledged the last table
// (MultipliersAcknowledged) and for MultiplierGrace (2 s) after, the floors use, class by
// class, the lowest multiplier the client may still be applying. A multiplier of 0 refuses
// the hit entirely (ReportZeroMultiplier); while tables are in flight, 0 refuses when the
// lowest multiplier the client may apply is 0 (refusing loses only attribution: the frames
// still show whatever the client applied).
//
// # Death and lifecycle
//
// vitals decides when a life is counted dead and says so once per way of counting it (the
// ledger reaching 0, a vehicle explosion, a stealth kill), so that lifecycle can keep the
// earliest deadline. The wait for the victim's DeathReport and its deadline (2 x RTT + 1 s,
// RTT counted up to 1 s, +10 s for a stealth kill, the earlier of two) belong to lifecycle:
// vitals exposes the counted moment (Death.At), the killer, the cause and the stealth flag.
// When lifecycle commits a death, the host calls Died (whatever waits in the client's order
// is taken first, so the last damage is complete); when it commits one the victim did not
// report, DeathZero issues the critical SetHealth(0) with the connection's next revision.
//
// The killer is the attacker of the last credited damage. Reports between teammates are
// never credited, so they never become the last damage. For a team change after the damage
// ("never a teammate, even for damage dealt before the two joined the same team") the host
// asks at commit time: Killer(isTeammate) names no one when the relation says the attacker
// is the victim's teammate now.
//
// # Trust in fields
//
// Attacker, weapon and order of a report count only after the host correlated it with an
// action the server accepted (ReportInput.Correlated); a hit without correlation is
// discarded. The body part of a hit must be on the whitelist (3..9) and never changes the
// floor. "Before", "after" and the loss are trusted only within the floor and the ledger:
// a claim above the ledger lifts nothing; a negative claim reads as 0; values outside
// -200..201 (loss 0..400) are refused. Report numbers are monotonic within ReportWindow;
// duplicates are rejected. A frame's health and armor only lower the ledger (the same
// -200..201 span, a negative value read as 0); its damage_seq only affects the order.
//
// # The god-mode suspicion detector ([god-mode-detector])
//
// A skipped hit looks exactly like a wall between shooter and victim, so it is left to
// statistics. The host calls HitClaimed for every hit a shooter claimed that the server
// accepted against the victim's rewound pose, with the loss it would cause. The detector
// keeps a sliding window (Config.SuspicionWindow, 20 s, in one-second buckets: constant
// memory) of three sums: the claimed loss and number of claimed hits, the loss the ledger
// actually felt (frames and reports, never commands), and the correlated hits the victim
// confirmed with a credited report that touched the ledger: a report that gives
// attribution only confirms nothing, or a victim whose every report crosses a health
// command would hide its hits from the ledger and the detector at once. Suspect raises Suspicion.Raised once when, over the
// window, the victim confirmed at least SuspicionMinHits (20) fewer hits than were claimed,
// the claimed loss is at least SuspicionMinClaimed (100, a full bar of health), and the
// felt loss stays below SuspicionRatio (10 %) of the claimed loss; it re-arms when that
// stops holding. A claim is judged only once it is ClaimGrace (3 s) old, long enough for the
// victim's report to come back, so claims racing their confirmations never count; claims not
// yet judged are forgotten when the victim's life is counted dead, since a shooter keeps
// hitting a dying victim for a round trip and those hits have nothing left to take. Felt
// loss counts everything the ledger lost, so one lost report (whose loss the frames still
// show) never flags an honest player. The detector never changes health.
//
// # The vehicle_god_mode detector ([vehicle-god-mode-detector])
//
// A vehicle's health is the driver's client's, not the ledger's: a client that never lets
// its car take damage looks like a driver every bullet missed. VehicleDetector, one per
// player, weighs the hits shooters claimed on the vehicles the player drove (each accepted
// against the vehicle's rewound pose, the one the shot's recipients were sent) against
// the falls of vehicle health in the player's own vehicle frames, with the same window,
// grace, ratio and least number of hits as the god-mode detector, and a least claimed loss
// of 250 (a quarter of a car). A repair is not felt, a fall is; leaving the vehicle, its
// wreck or the driver's death forget the claims not judged yet.
//
// # Using it
//
// One Player per connection, all calls from the goroutine that owns the world: a Player is
// not safe for concurrent use. Time is the host's monotonic clock (now). Inputs are the
// methods named after their events; outputs are returned: verdicts (FrameVerdict,
// ReportVerdict), the outcome of every report that reached its final verdict in the call
// (Effects.Reports, in a buffer valid until the next call: on any Player sharing its Scratch,
// when the host makes its players share one with ShareScratch, which spares each frame the
// lines of a scratch of its own at thousands of players), the god_mode flag, the counted
// death and the ledger to relay. Call Advance every tick so waits run out on time (on the Busy players
// alone if the host likes: an idle one's Advance changes nothing, and TrackBusy keeps a
// bit per player up to date for a host of thousands). Bad input
// never panics and never changes anything: it gets a named error (ErrNotFinite,
// ErrOutOfRange, ErrNotAlive, ...) or a discarding verdict. Memory is bounded by the
// named caps of its windows (ReportWindow, MaxWaitingFrames, MaxPendingCommands), not fixed
// for the worst case at construction: a new player takes about 0.8 KB (the god-mode
// detector keeps the buckets of its configured window, not of MaxSuspicionWindow's), and
// its windows grow on demand up to their caps (about 9 KB for a client that fills all of
// them). Once a window has grown to what the client's traffic needs, the frame, report and
// advance calls do not allocate (the god-mode detector makes 240 bytes once, in the first
// second that counts more than 65535 hit claims or confirmations).
package vitals
