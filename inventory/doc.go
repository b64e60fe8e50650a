// Package inventory keeps each player's weapons and ammo on the server and reconciles
// them with the client only downward ([inventory-only-falls]).
//
// The gamemode needs to read a player's weapons back, and the server must validate a
// WeaponShot against what the player really owns. The client switches weapons and
// spends ammo on its own; copying its reported ammo would make a frozen ammo counter
// legal infinite ammo. So the server owns the store, only its own commands add to it,
// and what the client reports can only take from it.
//
// # Rules
//
// The rules below are the package's contract, each under a short stable name that code,
// tests and the other packages cite. The sections after this one say how each works.
//
//   - [inventory-only-falls] Only the server's commands (give, set ammo) add weapons or
//     ammo; a client's frames and shots can only take from the store.
//   - [weapon-revision] Each of the five weapon commands carries the player's next
//     inventory revision (weapon_rev); the client echoes the last one it applied
//     successfully, and its frames lower the store only while that echo matches.
//   - [give-rules] A give follows the game's rules: the same weapon again adds its ammo, a
//     different weapon in a slot that pools ammo carries the displaced total over, any
//     other slot is replaced; a clip of 0xFFFF in SetWeaponAmmo means "not set".
//   - [never-below-client] The invariant: the server's count of a weapon's rounds is never
//     below the honest client's, whatever the reordering, so an honest shot is never
//     refused for ammo.
//   - [server-spends-continuous] For a continuous weapon (flamethrower, spray can,
//     extinguisher) the server spends the ammo itself while the frame says the fire key
//     is held, for the interval it was held.
//   - [shot-sanity-check] The server's validation of a shot (the weapon is held, has a
//     round, the ray is within its range) is a sanity check on what the player owns, not
//     a judgement of the hit.
//   - [skill-tier-grace] A shot is floored at the tier the player's skill gives, the lower
//     of two tiers within SkillChangeGrace of a change; vehicle guns fire at the standard
//     tier.
//   - [credits-per-shot] One shot credits at most so many hit reports per victim: the
//     weapon's Credits column, or one per pellet (the Combat Shotgun 8, more than the
//     game's 4 pellets, because the data's sources disagree and a report refused costs
//     an honest player more than one credited too many).
//   - [weapon-causes] What a weapon does besides its ids is a column of the catalogue,
//     read alike by the server, the honest client and the bots: StealthKill (the knife
//     kills from behind in one move), Cause (the damage cause a projectile's detonation
//     arrives with, an explosion or, for the molotov, fire, which may also arrive as an
//     explosion; the cause of a continuous weapon's spray: fire, spray paint,
//     extinguisher foam), Flies (a rocket flies on until it hits; a thrown projectile
//     lands within its Range), Sticks (a satchel charge sticks to what it lands on and
//     may ride a vehicle away). The damage causes besides the weapons (CauseFire ...
//     CauseFall) are one set of names, the same ids vitals and lifecycle name. A new
//     weapon rule is one column plus one pure function of it.
//
// # The pieces
//
// A Catalog is the world's weapon catalogue: for every weapon id 0..46 its kind, slot,
// whether its slot pools ammo, its skill stat, what it does (StealthKill, Cause, Flies, Sticks), and the
// properties the gamemode may tune (clip and damage per skill tier, pellets, Credits,
// range, minimum interval). The defaults are
// GTA San Andreas (DefaultTable); a host passes its own Table in Config. Properties are
// revisioned: Catalog.Update publishes a new revision as a WeaponProperties message,
// and a shot names the revision it was fired under, so it is judged, and its hit
// floored, with the numbers the shooter had. The catalogue keeps the last
// MaxPropertiesRevisions revisions and refuses to drop one superseded less than
// PropertiesHold ago (ErrPropertiesBusy).
//
// A VehicleCatalog is the world's vehicle catalogue (Config.Vehicles; DefaultVehicleTable
// is GTA San Andreas, models 400..611): for every model its number of seats, its guns and
// the rockets it launches itself. A gun (VehicleGun) is what the server judges a
// VehicleShot by, since a vehicle's guns are no player's weapons: its kind (bullets of a
// weapon of the table, at the standard tier; a fixed damage, the Predator's; the Rhino's
// cannon, whose ray only places an explosion), the weapon id its shots name, the seats
// whose occupant fires it, its range, its minimum interval and burst, and its mount (the
// point in the vehicle's own axes where its rays start, with a reach for several muzzles
// and turrets). The catalogue is checked against the weapon table when the Catalog is
// made (ErrBadTable) and never changes after; a host that arms another model, or plays
// another game, passes its own table. The figures and their sources and doubts are in
// DefaultVehicleTable's documentation; the honest client reads the same catalogue, so it
// fires exactly what the server accepts.
//
// An Inventory is one player's store, made by Catalog.NewInventory when the player
// joins: 13 slots of {weapon, total, clip}, the held weapon (0: fists), the inventory
// revision, the skill tiers and the state of the rate checks.
//
// # Commands: the only way up
//
// Give, Take, SetAmmo, Clear and SetArmed validate their input (a named error changes
// nothing), take the player's next 16-bit revision, are committed to the store at once
// (call them when the packet is queued) and return the message the host sends on the
// player's reliable lane. Give follows the game's own ammo rules so the store matches
// what the client will have: the same weapon again adds its ammo; a different weapon in
// a slot whose weapons share ammo (shotguns, submachine guns, assault rifles) carries
// the displaced weapon's total over; any other slot is replaced. Totals are capped at
// MaxWeaponAmmo (65535), so every legal total fits a frame's u16. The clip is refilled
// from the total on a give, as the game's reload does.
//
// # Frames: only down
//
// The client echoes the last revision it applied in every frame. A frame echoing any
// other revision is not used for reconciliation (strict equality, correct across the
// wrap): a give in flight would otherwise be undone by frames still showing the old
// count. A frame of the current revision can move the held weapon only within the
// store, its total only down (min(observed, stored)), and the clip freely under the
// total.
//
// # The server's own spend
//
// An accepted WeaponShot (one trigger pull, a shotgun's pellets included) takes one
// round and makes its weapon the held one; an accepted projectile takes one round. The
// flamethrower, spraycan and extinguisher send no shots: while frames show their fire
// held, the server spends ContinuousSpendRate (10) rounds per second itself, counted on
// the whole time between consecutive frames of one press, however far apart they come:
// a client that sends its frames sparsely pays the same rate as one that sends them
// every 33 ms (the floor rate holds whatever the spacing). The game sprays several
// times faster, so the server never spends more than the client did; two moments in
// which the game sprays nothing are not counted: the first frame of a press, and
// frames that show the clip empty (a reload), after which the next gap counts at most
// MaxFireGap, since the reload may have ended anywhere in it. The fire key and the clip
// are the client's word, like everything in a frame; the rule is there for a client
// whose ammo counter is frozen, which shows a full clip and runs dry.
//
// # The invariant, and what it takes under reordering
//
// The server's count is never below the client's real count, so an honest shot is
// never refused for want of ammo. The simple argument is that nothing is deducted twice
// because a frame carries an absolute value; two cases of a real network need more,
// and this package handles both:
//
//   - A frame can overtake a shot sent just before it (both are unreliable datagrams).
//     The frame already shows the round gone, and the shot arriving after it would take
//     it a second time. So the rounds a merge takes off the total are kept as credit
//     for CreditHold: a shot that finds credit is paid by it (PaidByFrame) instead of
//     lowering the total again. The credit comes only from the client's own reported
//     decrease, so it buys nothing: a frozen counter creates none, and every round of
//     credit was first taken from the store. In short, the server counts the larger of
//     the two spends, never their sum.
//   - A command that overwrites a count (take, clear, set ammo, a give that replaces a
//     weapon or reaches the cap) races with shots the client fired before it applied
//     the command. Spending those shots from the new count would put the server below
//     the client (the client's count after the command does not include them), and
//     refusing them would refuse honest shots of a weapon the client still held. So
//     the overwritten weapon is remembered: its shots are accepted without spending
//     from the new count (NotCharged) within the window of old shots (below: the round
//     trip plus OverwriteShotMargin, or DisplacedShotGrace after the client echoed the
//     command if that comes first); its blows, which reach the server through the
//     victim's link, and its projectiles, whose lost launch a host judges at the
//     detonation, until DisplacedGrace after the echo, or SettleTimeout after the
//     command if it never comes. Those old shots spend instead from the rounds the
//     weapon had when it was overwritten; once those are gone, shots spend from the new
//     count. So a client firing forged shots in the window fires at most what it had
//     plus what it was given: the window moves no round it was not given.
//   - Carried-over rounds are spent once. A give into a slot that pools its ammo does
//     not throw the old weapon's rounds away: the new weapon's total holds them. So the
//     old weapon keeps no stock of its own; its shots fired before the client applied
//     the give spend from the slot's new total (and from the rounds a frame already
//     counted, which move over with the total). Uzi 50 then MP5 +10 is 60 shots in all,
//     whichever of the two fires them and whatever the client echoes. The stock of old
//     rounds a take, a clear or a set ammo leaves in such a slot is the slot's, shared
//     by every weapon that was in it. In a slot that does not pool, the replaced weapon
//     keeps the rounds it had as its own stock, and the new one has only what it was
//     given: again at most what the player had plus what it was given.
//   - Old shots end with the round trip. A shot the client fired before a command
//     reached it leaves the client at the latest when the command arrives, so it reaches
//     the server within one round trip of the command's queueing, plus the time the
//     network took to lose and resend the command. The host tells the store its
//     round-trip estimate (SetRTT, a fact the store does not measure); old shots (and
//     the continuous fire the server leaves uncharged meanwhile) are accepted for the
//     estimate plus OverwriteShotMargin after the command, and no longer, whatever the
//     client acknowledges or echoes: withholding them no longer keeps a taken weapon
//     firing. Without an estimate the store assumes UnmeasuredRTT, and an estimate
//     above RTTLimit counts as RTTLimit, so no client keeps the window open longer than
//     RTTLimit + OverwriteShotMargin by looking slow. An echo or an acknowledgement can
//     still end the window earlier (DisplacedShotGrace after it).
//
// # Shot validation
//
// Inventory.Shot checks, with a named Verdict each: the shooter alive (the host's word),
// a known gun, a properties revision still kept, the weapon in the store with rounds,
// the ray within the weapon's range, and the weapon's minimum interval. There is no
// check that the weapon is the held one: a shot routinely overtakes the frame that
// announces a switch.
//
// The interval is a leaky bucket (GCRA) per weapon: the sustained rate is one shot per
// MinInterval, and shots may arrive up to a burst allowance (Config.ShotRateTolerance,
// 300 ms by default) ahead of that cadence. Shots are unreliable datagrams: two shots fired
// 160 ms apart can arrive 100 ms apart after jitter or reordering, and a shrinking
// round trip bunches a whole burst. An honest shooter's arrivals deviate from its
// cadence by at most the link's delay variation, which the allowance covers; a shooter
// firing faster than the cadence exhausts it within a few shots. Weapons whose
// MinInterval is 0 (the data's "-": thrown weapons, rockets, the flamethrower, special
// weapons) are not rate-checked; each of their actions still costs a round.
//
// Projectile and Melee are the same checks for a projectile thrown on foot (a
// projectile weapon with rounds) and for the attacker's side of a melee blow (alive,
// the fists or any weapon in the store, at most MeleeRange (6 m) from the victim, the
// weapon's interval with MeleeRateTolerance).
//
// # Skill tiers
//
// Tiers are the server's: the host sets them (SetSkillTier) and sends the skill to the
// client. Uzi and Tec-9 share a stat. A new connection starts at TierPoor, the lowest,
// so a floor can never exceed the game's damage before the host has set the tiers.
// Within SkillChangeGrace (5 s) of a change the floor uses the lowest tier held in that
// time (FloorTier, FloorDamage). Weapons without tiers fire at TierStd; vehicle guns
// are the host's (Catalog.Damage with TierStd).
//
// # Lifetime
//
// A death does not touch the store: the corpse keeps its weapons. RespawnGrant clears
// it without a revision bump when the grant is queued: frames of the old store cannot
// add anything to an empty store, and a give queued after the grant is applied after
// the client's own clear. A repeated grant of the same generation clears nothing. A new
// connection starts with an empty store (NewInventory or Reset).
//
// # What the host owns
//
// Passing only frames of the current life (lifecycle); the shooter's alive flag;
// dropping duplicated datagrams before Shot or Projectile; the player's round-trip
// estimate (SetRTT) before each weapon command; routing weapon pickups
// through Give (the store grows only by commands); the 0.33 factor and the rounding
// margin of the floor (vitals); who sits in which vehicle, and so who fires its guns (the
// catalogue says which seats fire them). The detonator the game hands out with
// a satchel is not in the store; a frame holding it leaves the held weapon as it was.
//
// # Deliberately open
//
// A client that never reloads still fires within its finite total and the weapon's
// cadence (a hole the rules leave open). The continuous spend trusts the frame's
// fire key and clip: a client that forges its frames can hide its fire, and a press
// shorter than a frame interval costs nothing. Blows and projectiles of an overwritten
// weapon still have the echo's DisplacedGrace, or SettleTimeout without an echo (they
// spend only the weapon's old rounds): a projectile whose launch was lost is judged at
// its detonation, a fuse after it was thrown, and a blow arrives through its victim's
// link, neither bounded by the thrower's round trip. The figures of the default table (ranges,
// intervals, the 2 m RangeSlack) come from the game data and its sources, not from
// measurements in a running game.
//
// # Concurrency and cost
//
// Nothing here is safe for concurrent use: a Catalog and its inventories belong to one
// world goroutine. Frame, Shot, Projectile and Melee do not allocate. Every history has
// a fixed size: the properties ring (MaxPropertiesRevisions) and per-weapon arrays.
package inventory
