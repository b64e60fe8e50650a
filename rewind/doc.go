// Package rewind tells each player a shot's ray passed near where it stood when the
// shooter saw it ([rewind-to-shooters-view]), so a shooter does not have to lead its targets by its ping,
// while the hit itself stays the victim's own computation.
//
// A shooter aims at where its screen shows the victim, which is where the victim was
// about one round trip ago. The server has no collision world and cannot decide the hit,
// so it does the next best thing: for every recipient near the ray it looks up the
// recipient's own accepted path at now minus the shooter's round-trip time, at most
// RewindCap (400 ms) back, and sends that pose in the recipient's RemoteWeaponShot. The
// recipient's client puts its body there for the shot's trace only, and decides the hit,
// the walls, the body part and the damage itself; its DamageReport does not change.
//
// # The World
//
// A World holds up to MaxPlayers players and MaxVehicles vehicles by id (PlayerID, VehicleID), all
// allocated by New. The host feeds it events as method calls with its monotonic clock
// (now); the World refuses a now from before the latest call that changed it
// (ErrClockBackwards), which keeps every history in time order and is what lets a shot
// trust that nothing it reads lies in its future. A World is not safe for concurrent use; one goroutine owns
// it. It is deterministic: the same calls give the same answers, bit for bit, on every
// platform (no fused multiply-add is allowed to change a result), so a match recorded
// on one machine replays on another.
//
// Every call checks all of its input before it changes anything: a NaN or infinite
// coordinate, one beyond MaxCoordinate, a zero rotation, a zero or non-finite ray
// direction, a ray length that is not in (0, MaxRayLength], an unknown or out-of-range
// id, or a now from the past gets a named error (ErrBadPosition, ErrBadRotation,
// ErrBadDirection, ErrBadLength, ErrUnknownPlayer, ...) and leaves the World as it was.
// Nothing panics.
//
// # Histories
//
// Each player keeps its accepted positions (RecordPlayer, from its accepted frames), each
// vehicle its poses, position and rotation (RecordVehicle, from the accepted frames of the
// player controlling it), each sample stamped with the moment the server accepted it.
// The histories are rings of HistoryDepth (64) samples. A client cannot flood one: up to
// MaxFrameRate (128) frames a second each frame keeps a sample, but a sample accepted
// less than MinSampleSpacing (1/128 s) after the last kept sample replaces the newest
// sample instead of taking a slot (Merged), so kept samples are at least that far apart
// and a full ring always spans more than RewindCap (484 ms at least), whatever the rate.
//
// A rewind interpolates between the two samples around the moment: the position along
// the straight line between them, the rotation along the shorter arc (normalised linear
// blend; between two frames of one vehicle it is as good as slerp). It never
// extrapolates: a moment after the newest sample gives the newest (rewinding to now gives
// the present pose), a moment before the oldest gives the oldest.
//
// A rewind never interpolates across a discontinuity. A gamemode move (MovePlayer,
// MoveVehicle), a freeze change (FreezePlayer, FreezeVehicle), a respawn (RespawnPlayer,
// RespawnVehicle) and a teleport each start the history anew, a new epoch, from where
// the entity stands afterwards; a moment before the epoch's first sample gives that first
// sample. A teleport is detected, not declared: two consecutive accepted samples farther
// apart than Config.TeleportDistance (DefaultTeleportDistance, 30 m) split the history
// there (Teleported). A client shows such a jump as a jump too, so the shooter never saw
// the entity anywhere in between. More than ten times what the fastest vehicle covers
// between two frames at 30 Hz, it is reached honestly only after about half a second of
// lost frames at top speed, and then starting anew costs only that the shooter leads
// that target for up to 400 ms. A host that teleports an entity itself says so with
// MovePlayer or MoveVehicle, whatever the distance. MoveVehicle and RespawnVehicle move
// the vehicle's history only: a host that moves a vehicle with players inside moves each
// occupant too (MovePlayer), or a recipient in it is listed with its own position still on
// the old path while its vehicle's pose is at the new spot (examples/refserver does this).
//
// # Where an entity's own claims may start
//
// PlayerApproach and VehicleApproach answer a different question than a rewind: not
// where an entity stood at one moment, but how near a point lies to the path it took
// over a span (the least distance to it, and the path's length and duration, from which
// its speed follows). The host checks there what a client claims of its own entity: the
// start of its shot's ray, the origin of its projectile. Such a claim may be a few frames
// ahead of or behind the frames the server accepted, so one moment is not enough; the
// path is. It crosses a move, a freeze change or a teleport (the client may still act
// from where it stood until it applies the move), joining no two epochs by a segment,
// and stops at a respawn and at the slot's previous connection.
//
// # Round-trip time
//
// The server measures each connection's round-trip time (RTT) itself. Every PingInterval
// (PingDue) the host sends a ping whose id Ping returns, and hands the pong's id to
// Pong. A pong for a ping that was never sent (PongUnknown), that was answered already
// (PongDuplicate), or that comes later than RTTCap after its ping (PongExpired) gives no
// sample and changes nothing. The estimate (RTT) is the median of the last RTTWindow
// (5) samples, the lower middle one of an even count. There is none before
// MinRTTSamples (3) samples are in (about a second after the first ping): from then a
// single spike, high or low, never moves it past an honest sample, and once five samples
// are in, neither do two spikes of any kind. It is never above RTTCap, because no later
// pong is taken. Without an estimate the shooter's shots rewind nobody (ShotNoRTT) and
// its recipients get their present poses.
//
// The lifecycle's death wait uses the same estimate (it counts it up to 1 s itself).
//
// What a client gains by holding back its pongs (or any acknowledgement the host times):
// a longer RTT, so its shots rewind their recipients further, but never more than
// RewindCap (400 ms); a link honestly slower than that has to lead its targets by the
// rest, and so does a cheat. What it cannot do: move anyone beyond the cap; pick the
// pose (the moment is the server's clock minus the server's own estimate, and the pose
// is the recipient's accepted path at that moment, where the recipient really stood);
// decide the hit (the victim's client still computes it, walls and all). Ping ids count
// up, so a client could also answer a ping it predicts before the ping arrives; that
// only shortens its RTT, so its shots rewind less and its own death wait is shorter:
// nothing to gain.
//
// # Who is near a ray
//
// Shot takes a shooter, a now and a Ray (origin, direction, length, kind) and lists every
// other player whose rewound position lies within Config.NearDistance
// (DefaultNearDistance, 5 m) of the ray's segment, or within Config.VehicleNearDistance
// (DefaultVehicleNearDistance, 12 m) for a player sitting in a vehicle, whose body is
// only one point of a larger target. Each gets its own pose: a shot near a recipient
// becomes a datagram of its own for it. The shooter is never a recipient. Recipients
// come in ascending id order, into a slice the caller provides; Shot does not allocate
// and changes nothing.
//
// A world of a thousand players is not scanned for every shot. Each player is filed in a
// spatial hash by a ball that holds every position a shot can rewind it to: centred on
// the middle of its path over the last RewindCap, with half that path's length as radius
// (any point of a path lies within half its length of the midpoint of its ends). That
// bound is exact, not a guess at the game's top speed; when the path is long and folded
// (a cheat shaking its position), the ball about the present position out to the farthest
// sample is taken instead. A shot searches only the cells along the ray, widened by how
// far a filed ball may reach. Players are filed by the widening they need: those standing
// and walking in fine cells with a narrow widening, drivers in coarser cells by their
// speed, and the few that need more (a jet) on a short list every shot checks. The
// result is always that of checking every player, which the tests verify
// against a brute-force scan on random worlds.
//
// # Vehicles
//
// A recipient sitting in a vehicle is rewound with it: the vehicle's pose at the same
// moment goes along (RewoundInVehicle), and the recipient puts its copy of the vehicle
// there, itself with it. A recipient in the vehicle the shooter sits in
// (InShooterVehicle), in a frozen vehicle (InFrozenVehicle) or in a wrecked one
// (InWreckedVehicle, until RespawnVehicle) is not rewound: it and its vehicle get their
// present poses. Vehicles a player controls without sitting in them (an empty vehicle it
// syncs, a remote-controlled one, a trailer) are never rewound: only the vehicle a
// recipient sits in, by its newest frame, goes along.
//
// Rays of vehicle guns (VehicleGunRay, from VehicleShot) rewind like those of hand-held
// weapons (WeaponRay). The Rhino cannon's ray (CannonRay) only sets the point of an
// explosion, which hits whoever stands there now: it rewinds nobody (ShotCannon).
//
// # One pose for everyone
//
// A Recipient is the pose sent: the host copies it into the RemoteWeaponShot and hands
// the same value to the attribution of the hit and to the god_mode and vehicle_god_mode
// detectors, so every judgement is made against exactly what the recipient was told.
// The package keeps no copy and recomputes nothing.
//
// # Rules
//
// The rules below are the package's contract, each under a short stable name that code,
// tests and the other packages cite. The sections after this one say how each works.
//
//   - [rewind-to-shooters-view] For every recipient near a shot's ray the server looks up
//     the recipient's own accepted path at now minus the shooter's round-trip time and
//     sends that pose with the relayed shot; the recipient's client traces the shot
//     against it, and only for that trace. Vehicle gun rays rewind like a player's shot; a
//     projectile or a cannon shell rewinds nobody, since its explosion hits whoever is
//     there when it goes off.
//   - [rewind-cap] A shot rewinds a recipient at most RewindCap (400 ms) back: the
//     shooter's round-trip time counts up to that and no further.
//   - [victim-decides-hit] The server has no collision world: the hit, the walls, the body
//     part and the damage are the victim's client's computation; the shooter's hit claim
//     decides nothing.
//   - [history-restarts] A gamemode move, a freeze change, a respawn and a detected
//     teleport each start the entity's history anew, and a rewind never interpolates
//     across such a break.
//   - [rtt-by-ping] The server measures each connection's round-trip time itself, with
//     its own pings; a shooter whose round-trip time is not measured yet rewinds nobody.
//
// # Decided here, where no rule decides
//
// The near distances (5 m on foot, 12 m seated), the teleport distance (30 m), the
// frame rate a history keeps one sample per frame for (128 Hz), and the RTT measurement
// (a ping every 500 ms, the median of the last five samples, pongs taken up to 2 s) are
// this package's choices, each a named constant and the first three configurable. A
// shooter whose RTT is not measured yet rewinds nobody: guessing would give a cheat a
// rewind it did not earn. A recipient whose vehicle is not rewound (the shooter's,
// frozen, wrecked) is not rewound either: it sits in that vehicle, so moving it alone
// would tear it out of its seat.
//
// # Left open
//
// Whether a recipient sits in a vehicle is decided by its newest frame, and its own
// position is its recorded path even if it entered or left the vehicle within the
// rewound span: the client can only place the vehicle it sits in now. Frames still in
// flight when the gamemode moves a player or vehicle carry the old position; if they
// land farther than the teleport distance they start yet another epoch, otherwise the
// history interpolates across at most that distance, until the client applies the move.
// No rule names a revision for moves that would tell such frames apart. MoveVehicle
// moves the vehicle's history only: a host that moves a vehicle with people in it calls
// MovePlayer for each of them as well.
package rewind
