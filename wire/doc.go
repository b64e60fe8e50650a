// Package wire defines every message of the arbiter protocol as a Go type, with a
// compact binary encoding, and the per-connection reliable lane that carries the
// messages which must arrive.
//
// The messages are those the rules of the domain packages need (death and respawn in
// lifecycle, friendly fire in teams, shot rewind in rewind, the health ledger in vitals,
// weapons and ammo in inventory), client to server and server to client, with every
// field those rules require, plus the few a working connection needs (marked "ours"
// below). A comment citing a rule by its bracketed name, such as vitals'
// [health-revision], points at the # Rules section of that package's documentation.
// The package is pure: it encodes and decodes bytes in memory, reads no clock, does no
// I/O and starts no goroutine.
//
// # Rules
//
// The wire's own rules, each under a short stable name that code and tests cite:
//
//   - [fixed-size-messages] Every message starts with the Version and the message ID and
//     has a fixed size (ID.Size), with no padding and no length prefix.
//   - [canonical-encoding] A message Decode accepts re-encodes to exactly the same bytes,
//     and every valid value has exactly one encoding.
//   - [validation-both-ways] Append refuses what Decode would refuse, so a peer never
//     emits a message the other side drops; nothing is clamped.
//   - [critical-messages] The lane never refuses a critical message (Critical): the
//     lifecycle edges, every SetHealth to 0 and the victim's DeathReport.
//   - [wire-judges-only-the-wire] The decoder checks sizes, the header, finite floats,
//     ranges, its own enums and the rules between fields its tables state; what belongs
//     to a domain package or to the host's game data is that package's verdict.
//   - [bundle-carries-whole-datagrams] A bundle (IDBundle) carries several datagrams of
//     their own, unchanged, as its elements: unreliable messages and lane datagrams, never
//     another bundle; a receiver handles each element exactly as if it had come alone.
//   - [bundle-checked-whole] A received bundle is checked whole before its first element
//     is handled: a truncated one, an empty element, a bundle inside a bundle or more than
//     MaxBundleElements elements refuses all of it, and nothing of it is handled.
//
// # Encoding
//
// Every message starts with a two-byte header: the protocol Version (byte 0) and the
// message ID (byte 1). The fields follow in the order of the layout tables below,
// with no padding and no length prefix: every message has a fixed size (ID.Size), so a
// decoder knows from the header exactly how many bytes must follow.
//
//   - Integers are little-endian. Player ids (PlayerID) and vehicle ids are uint16 with 0xFFFF meaning
//     "none" (NoPlayer, NoVehicle) where the table says so, and refused where the field
//     names a subject that must exist. Revisions, report numbers, death_epoch and
//     sync_seq are uint16 that wrap at 65535 (compare them with internal/revision);
//     player_token is a uint32. A fire's Age (CreateFire) is a uint16 of milliseconds,
//     0..MaxFireAge. Weapon and cause ids, body parts, death poses,
//     explosion types and skills are raw bytes (see "What the decoder does not judge").
//   - Floats are IEEE 754 binary32, little-endian. Health and armor keep full float32
//     precision everywhere (the ledger's arithmetic needs it). A float must be finite
//     and inside the range its table states.
//   - Booleans are a byte holding 0 or 1, or one bit of a flags byte. Bit groups are
//     packed low bit first; the bits the table does not assign are reserved and 0.
//   - A frame's velocity is fixed point: each axis an int16 counting 1/128 m/s
//     (VelocityScale), so ±255.99 m/s in steps of 7.8 mm/s. A heading (Facing) is a uint16
//     fraction of a turn: radians = n × 2π/65536, a step of 0.0055°. These two are the
//     only quantized fields; Append rounds them to the nearest step, and they decode to a
//     value on the grid. Positions, rotations and every other float travel unchanged.
//
// The player frame, PlayerSync, is 48 bytes: the flags byte packs alive, fire held and
// the seat, the velocity and the heading are fixed point, the rest is full width.
//
// # One encoding per value
//
// The encoding is canonical: a message Decode accepts re-encodes to exactly the same
// bytes, and every valid value has exactly one encoding. Append writes -0.0 as +0.0, and
// Decode refuses the bits of -0.0 (ErrNonCanonical); NaN of any payload is refused
// (ErrNotFinite); a bool byte other than 0 or 1 is refused (ErrInvalidEnum); a reserved
// bit that is set, or a field that must be zero because another field says it is absent
// (the seat of a player on foot, the hit id of a shot that hit nothing, the vehicle pose
// of a recipient on foot), is refused (ErrNonCanonical). The fuzz target FuzzDecode
// checks the property on arbitrary input.
//
// # Validation, both ways
//
// Append validates a message with the same rules Decode applies to received bytes, and
// a refused Append returns dst as it was: a server cannot emit a message its own
// clients would refuse, and a client library built on this package cannot send a frame
// the server will drop. Nothing is clamped: a health of 250, a velocity of 300 m/s or a NaN is an
// error to the caller, who decides (the honest client clamps its game's health to
// 0..MaxVital before it sends). The one exception is the heading, which wraps: every
// finite angle is a valid heading.
//
// # Errors
//
// Every failure matches exactly one sentinel of the package's error block with
// errors.Is: ErrTruncated, ErrTrailing, ErrVersion, ErrUnknownID, ErrWrongMessage,
// ErrNotFinite, ErrOutOfRange, ErrInvalidEnum, ErrNonCanonical, ErrInconsistent. The
// errors of Append and Decode also name the message and the field
// ("wire: value not finite: PlayerSync.Health"). They are preallocated per message and
// field, so rejecting hostile bytes costs no allocation and never panics; Peek returns
// the bare sentinels.
//
// # Reading and writing
//
// A read loop peeks at the header, routes transport packets to the lane, and decodes
// everything else into a Decoder, which holds one value of every message type and
// returns a pointer to the one it filled; no per-packet allocation:
//
//	var dec wire.Decoder
//	id, err := wire.Peek(pkt)
//	if err != nil { /* drop */ }
//	if id.Direction() == wire.ServerToClient { /* a client sent a server message: drop */ }
//	m, err := dec.Decode(pkt)
//	switch m := m.(type) {
//	case *wire.PlayerSync:   // ...
//	case *wire.DamageReport: // ...
//	}
//
// A datagram whose id is IDBundle carries several datagrams of their own: open it with
// OpenBundle and route each element as if it had come alone (see Bundles below);
// examples/transport's Endpoint does this for its host.
//
// A typed Decode works as well when the host dispatches on the ID itself. To send,
// Append into a reusable buffer: buf, err = msg.Append(buf[:0]). A buffer with MaxSize
// bytes of spare capacity never grows.
//
// # What the decoder does not judge
//
// The wire checks what the wire defines: sizes, the header, finite floats, ranges, its
// own enums, and the rules between fields that its tables state. It does not judge
// what belongs to a domain package or to the host's game data, where a refusal must be
// a verdict with a reason and not a malformed packet:
//
//   - weapon and cause ids (a host may bring another game's weapon table; the inventory
//     catalogue validates them);
//   - the body part of a damage report (the vitals package whitelists it, vitals'
//     [trust-in-fields]);
//   - the death pose (the lifecycle package replaces a pose the game cannot produce with
//     the default one, lifecycle's [default-pose]);
//   - explosion types and weapon skills (raw game values);
//   - whether a revision, report number, epoch or token is stale, fresh or from the
//     future (the state machines compare them with internal/revision);
//   - whether the loss a report claims matches its before and after, or any floor;
//   - whether a fire's Age is past its lifetime (the lifetime is the host's: the
//     recipient's game finds the fire out already and drops it).
//
// # Names
//
// Go field names map to the protocol's snake_case names in the obvious way, and each field's
// comment gives that name where there is one: VitalRev is vital_rev, DamageSeq
// damage_seq, WeaponRev weapon_rev, DeathEpoch death_epoch, PlayerToken player_token,
// SyncSeq sync_seq, SetAsCurrent set_as_current, Rev a command's rev. String prints every
// field in wire order with the snake_case spelling (PlayerSync{seq=1 vital_rev=3 ...}),
// deterministically, for scenario output.
//
// # The numbers that tie messages together
//
//   - vital_rev: each SetHealth, SetArmor, GiveHealth and GiveArmor carries the
//     connection's next health revision (Rev); PlayerSync and DamageReport echo the last
//     one applied (vitals' [health-revision]).
//   - weapon_rev: each GiveWeapon, TakeWeapon, SetWeaponAmmo, ClearWeapons and
//     SetArmedWeapon carries the player's next inventory revision; PlayerSync echoes the
//     last one applied successfully (inventory's [weapon-revision]).
//   - damage_seq: each DamageReport is numbered; PlayerSync echoes the last number created
//     (vitals' [client-order]).
//   - death_epoch: the life. The server stamps its own into RemotePlayerSync, PlayerShow,
//     PlayerWasted, PlayerSpawned and RespawnPlayer; a client echoes its own in
//     PlayerSync, DeathReport, RespawnRequest and in every combat message it sends
//     (WeaponShot, VehicleShot, ProjectileLaunch, Detonation, StealthKill), so a shot of
//     an earlier life can be refused (lifecycle's [death-epoch]).
//   - player_token: the connection, in Welcome, PlayerShow, PlayerHide, PlayerWasted and
//     PlayerSpawned, so an edge never hits a new player on a reused id (lifecycle's [player-token]).
//   - sync_seq: the server numbers each subject's relayed frames (RemotePlayerSync); a
//     PlayerSpawned or PlayerShow carries the barrier below which frames are dropped.
//   - ShotSeq, Projectile and Effect number shots, projectiles and gamemode effects; a
//     DamageReport names the one it answers in Ref (vitals' [trust-in-fields]: "the shot it answers").
//   - PropertiesRev: a shot echoes the WeaponProperties revision it was fired under, the
//     one the server floors its damage with (vitals' [damage-floor]).
//
// # The teammate stamp
//
// Every packet that can hurt carries, per recipient, a Stamp: whether its sender is the
// recipient's teammate and the relation revision (teams' [teammate-stamp]). These are RemotePlayerSync,
// RemoteVehicleSync, RemoteWeaponShot, RemoteVehicleShot, RemoteProjectile,
// RemoteDetonation, RemoteStealthKill, RemoteVehicleExplode, CreateExplosion and
// CreateFire. A packet without a sender (no driver, no author, no creator) carries
// Teammate false. The damage group itself is shown with each player in
// RemotePlayerSync and PlayerShow; teams, names and colours never go on the wire.
//
// # Delivery and critical messages
//
// ID.Delivery says how each message travels: unreliable datagrams for frames, shots,
// relays and ping; the reliable lane for commands, lifecycle edges and claims; a
// DamageReport is unreliable except the lethal one, which goes on the lane ahead of the
// DeathReport (vitals' [lethal-report-first]). Critical reports the messages the lane
// must never refuse ([critical-messages]):
// PlayerWasted, PlayerSpawned, every SetHealth to 0, and the victim's DeathReport.
//
// # The reliable lane
//
// The per-connection ordered reliable stream that carries the messages ID.Delivery marks
// reliable is package wire/lane: it carries the encodings of this package as opaque
// payloads, and its datagrams share this package's two-byte header (Version, then an id
// of the transport range), so one socket carries both and a read loop routes by Peek.
//
// # Bundles
//
// A peer may pack everything it sends in one flush (its unreliable messages, other
// players' relays, its lane datagrams) into as few datagrams as fit its payload size:
// a bundle is the header (Version, IDBundle, the second id of the transport range) and
// then elements, each a little-endian u16 length and the bytes of one whole datagram of
// its own ([bundle-carries-whole-datagrams]); its layout is the last table below.
// Nothing inside an element changes, so a relay copied into a recipient's bundle is
// stamped there with PatchStamp, and a lane datagram keeps its own framing. A bundle of
// one element is allowed, but a writer sends a lone element bare: one message costs no
// byte more than before. BundleWriter builds bundles up to a payload size (refusing
// what does not fit with ErrBundleFull, and what OpenBundle would refuse);
// OpenBundle checks a received one whole and walks its elements
// ([bundle-checked-whole]); Elements splits any datagram, bundle or not, for a reader
// that does not go through a transport endpoint. None of them allocates. A lost bundle
// loses all its elements at once; each is still a datagram that the rules already
// allow to be lost (unreliable messages) or that the lane resends.
//
// # Ours: messages the rules imply but do not define
//
// Hello and Welcome (joining, and the client's own id and token), PlayerShow and
// PlayerHide (the streaming, lifecycle's [show-current-state]: a show carries the state a copy is built from
// and the token later edges are checked against), VehicleShow and VehicleHide (the
// streaming of vehicles: a show carries the vehicle's current pose, health and model, so a
// vehicle moved while hidden is shown where it stands), SetWeaponSkill (the server-owned skill
// the floors depend on), SetPlayerPosition, SetVehiclePose and SetVehicleFrozen (the
// gamemode moves that restart a rewind history), the Ping time echo, and the widths the
// rules leave open, all documented in the tables.
//
// # Performance
//
// Append and Decode never allocate (Append only grows a dst without room). Every layout
// is written once, as the walk of its message type, which encodes, decodes, documents
// and prints it. The messages a server handles per frame and per recipient (PlayerSync,
// RemotePlayerSync, VehicleSync, RemoteVehicleSync, DamageReport, WeaponShot,
// VehicleShot, RemoteWeaponShot, RemoteVehicleShot) also have unrolled Append and Decode
// methods, several times faster than the walk, generated from their walks by
// internal/wiregen (go generate ./wire), so the layout is still written once: each
// checks every field at once and runs the checks one by one, in the walk's order, only
// to name a failure. The tests and the fuzz target run them against the walk on every
// input and require the same bytes, values and errors. A frame's round trip (Append then
// Decode) costs about 20 ns; BenchmarkRoundTrip puts it beside encoding/binary's Encode
// and Decode and its Write and Read on mirror structs.
//
// # Concurrency
//
// Messages are plain values. The package's only state is its layout tables, built once
// at initialisation and read-only afterwards, so Append, Decode and Peek may run on many
// goroutines at once on distinct values. A Decoder is not safe for concurrent use.
//
// # Message catalogue
//
// Generated from the codec by TestDocTables; regenerate with
// go test ./wire -run TestDocTables -update.
//
// Every message, its id, its size in bytes (header included), who sends it and how it
// travels:
//
//	id    message               bytes  direction         delivery
//	0x01  Hello                     6  client to server  unreliable
//	0x02  PlayerSync               48  client to server  unreliable
//	0x03  VehicleSync              44  client to server  unreliable
//	0x04  DamageReport             33  client to server  unreliable; reliable if lethal
//	0x05  DeathReport               8  client to server  reliable
//	0x06  RespawnRequest            4  client to server  reliable
//	0x07  WeaponShot               36  client to server  unreliable
//	0x08  VehicleShot              38  client to server  unreliable
//	0x09  ProjectileLaunch         35  client to server  unreliable
//	0x0A  Detonation               19  client to server  unreliable
//	0x0B  StealthKill               9  client to server  reliable
//	0x0C  VehicleExplode            7  client to server  reliable
//	0x40  Welcome                  12  server to client  unreliable
//	0x41  RemotePlayerSync         44  server to client  unreliable
//	0x42  RemoteVehicleSync        49  server to client  unreliable
//	0x43  RemoteWeaponShot         79  server to client  unreliable
//	0x44  RemoteVehicleShot        81  server to client  unreliable
//	0x45  RemoteProjectile         38  server to client  unreliable
//	0x46  RemoteDetonation         22  server to client  unreliable
//	0x47  RemoteStealthKill        12  server to client  reliable
//	0x48  RemoteVehicleExplode     10  server to client  reliable
//	0x49  CreateExplosion          26  server to client  reliable
//	0x4A  CreateFire               27  server to client  reliable
//	0x4B  PlayerShow               41  server to client  reliable
//	0x4C  PlayerHide                8  server to client  reliable
//	0x4D  PlayerWasted             14  server to client  reliable
//	0x4E  PlayerSpawned            26  server to client  reliable
//	0x4F  RespawnPlayer            18  server to client  reliable
//	0x50  SetHealth                 8  server to client  reliable
//	0x51  SetArmor                  8  server to client  reliable
//	0x52  GiveHealth               12  server to client  reliable
//	0x53  GiveArmor                12  server to client  reliable
//	0x54  DamageMultipliers        28  server to client  reliable
//	0x55  GiveWeapon                8  server to client  reliable
//	0x56  TakeWeapon                5  server to client  reliable
//	0x57  SetWeaponAmmo             9  server to client  reliable
//	0x58  ClearWeapons              4  server to client  reliable
//	0x59  SetArmedWeapon            5  server to client  reliable
//	0x5A  WeaponProperties         21  server to client  reliable
//	0x5B  SetWeaponSkill            5  server to client  reliable
//	0x5C  SetPlayerPosition        16  server to client  reliable
//	0x5D  SetVehiclePose           32  server to client  reliable
//	0x5E  SetVehicleFrozen          5  server to client  reliable
//	0x5F  VehicleShow              41  server to client  reliable
//	0x60  VehicleHide               4  server to client  reliable
//	0xA0  Ping                      8  both ways         unreliable
//	0xA1  Pong                      8  both ways         unreliable
//	0xA2  Disconnect                3  both ways         unreliable
//
// # Layouts
//
// Every message begins with the header, which the tables below do not repeat:
//
//	off  size  field    type  valid range    meaning
//	0    1     version  u8    1              the protocol Version
//	1    1     id       u8    the message's  the message ID
//
// In each table, off is the byte offset in the message (byte.bit for a bit field,
// counted from the low bit) and size is in bytes (or bits); a rule is a condition
// between fields, with the error that breaks it. The field comments in the Go types
// say more.
//
// Hello (0x01, 6 bytes, client to server, unreliable): a client's request to join, repeated until the server answers with Welcome.
//
//	off  size  field    type  valid range    meaning
//	2    4     Session  u32   0..4294967295  the number the client drew for this connection (a new one each time it connects; 0: none)
//
// PlayerSync (0x02, 48 bytes, client to server, unreliable): the player's frame, sent by its client at least every 100 ms.
//
//	off   size   field       type       valid range                                    meaning
//	2     2      Seq         u16        0..65535                                       the client's frame number, +1 per frame (wraps); a frame not newer than the last one taken is outdated
//	4     2      VitalRev    u16        0..65535                                       vital_rev: the revision of the last health or armor command the client applied (vitals' [health-revision])
//	6     2      DamageSeq   u16        0..65535                                       damage_seq: the number of the last damage report the client created (vitals' [client-order])
//	8     2      WeaponRev   u16        0..65535                                       weapon_rev: the revision of the last weapon command the client applied successfully (inventory's [weapon-revision])
//	10    2      DeathEpoch  u16        0..65535                                       death_epoch: the life the client believes it is on (lifecycle's [death-epoch])
//	12    1      Weapon      u8         0..255                                         the held weapon (0 = fists)
//	13    1      Flags       u8 bits    bits 6..7 are 0                                flags: the bit fields below
//	13.0  1 bit  Alive       bit        0 or 1                                         alive as the client sees it; it never commits a death (lifecycle's [server-commits-death])
//	13.1  1 bit  FireHeld    bit        0 or 1                                         true while the fire key is held; for continuous weapons (37, 41, 42) it makes the server spend ammo itself (inventory's [server-spends-continuous])
//	13.2  4 bit  Seat        bits       0..8                                           the seat in Vehicle (0 = driver); 0 on foot
//	14    2      Clip        u16        0..65535                                       the held weapon's ammo in the clip
//	16    2      Total       u16        0..65535                                       the held weapon's total ammo, clip included (capped at 65535, MAX_WEAPON_AMMO)
//	18    4      Health      f32        finite, 0..200                                 the health the client's game shows (its hp); the client clamps it to 0..MaxVital
//	22    4      Armor       f32        finite, 0..200                                 the armor the client's game shows, clamped to 0..MaxVital
//	26    12     Position    3×f32      finite, |axis| <= 100000                       the player's position
//	38    6      Velocity    3×i16      each axis ±255.99 m/s, step 1/128; not -32768  the player's velocity in m/s, quantized to 1/128 m/s (see ClampVelocity)
//	44    2      Facing      u16 angle  any finite radians (wraps), step 2π/65536      the heading in radians, quantized to 2π/65536
//	46    2      Vehicle     u16 id     0..65534, 0xFFFF none                          the vehicle the player sits in, NoVehicle on foot
//	rule: Seat is 0 when Vehicle is NoVehicle (on foot). (non-canonical encoding)
//
// VehicleSync (0x03, 44 bytes, client to server, unreliable): a vehicle's frame, sent by the client that controls the vehicle (its driver, or the client that syncs it while empty).
//
//	off  size  field     type    valid range                                    meaning
//	2    2     Seq       u16     0..65535                                       the client's frame number for this vehicle, +1 per frame (wraps)
//	4    2     Vehicle   u16 id  0..65534                                       the vehicle this frame is about
//	6    12    Position  3×f32   finite, |axis| <= 100000                       the vehicle's position
//	18   16    Rotation  4×f32   finite, unit (|q| 0.9..1.1)                    the vehicle's rotation
//	34   6     Velocity  3×i16   each axis ±255.99 m/s, step 1/128; not -32768  the vehicle's velocity in m/s, quantized to 1/128 m/s (see ClampVelocity)
//	40   4     Health    f32     finite, 0..100000                              the vehicle's health (the game's default is 1000; the client clamps a negative value to 0)
//
// DamageReport (0x04, 33 bytes, client to server, unreliable; reliable if lethal): the victim's report of damage its client applied to its own player: the victim confirms the hit, and the server's ledger only ever goes down by it (vitals' [ledger-only-falls]).
//
//	off  size  field         type     valid range            meaning
//	2    2     DamageSeq     u16      0..65535               damage_seq: this report's number, +1 per report the client creates (wraps); frames echo the last one
//	4    2     VitalRev      u16      0..65535               vital_rev: the revision of the last health or armor command the client applied before the damage
//	6    2     Attacker      u16 id   0..65534, 0xFFFF none  the player the damage came from, NoPlayer for the environment
//	8    1     Weapon        u8       0..255                 the weapon or cause: 0..46 weapons, 49 vehicle, 50 rotor blades, 51 explosion, 53 drowning, 54 fall, 37 also plain fire, 255 unknown
//	9    1     BodyPart      u8       0..255                 the body part hit (3 torso .. 9 head); not whitelisted by the decoder
//	10   1     Ref.Kind      u8 enum  0..5, RefKind          the kind of packet answered; RefNone for damage that answers nothing
//	11   2     Ref.Seq       u16      0..65535               identifies the packet within its kind: a shot's ShotSeq, a projectile's number, an effect id or a vehicle id; 0 when Kind is RefNone
//	13   4     HealthBefore  f32      finite, 0..200         the health before the damage
//	17   4     ArmorBefore   f32      finite, 0..200         the armor before the damage
//	21   4     HealthAfter   f32      finite, 0..200         the health left after the damage
//	25   4     ArmorAfter    f32      finite, 0..200         the armor left after the damage
//	29   4     Loss          f32      finite, 0..400         the claimed loss, armor and health together; the server deducts it armor first
//	rule: Ref.Seq is 0 when Ref.Kind is none. (non-canonical encoding)
//	rule: Attacker is a player when Ref answers a weapon shot, a vehicle shot or a detonation (their shooter or owner). (inconsistent fields)
//
// DeathReport (0x05, 8 bytes, client to server, reliable): the dying client's report of its own death, with the means and the death animation, on the reliable lane (lifecycle's [server-commits-death]).
//
//	off  size  field       type    valid range            meaning
//	2    2     DeathEpoch  u16     0..65535               death_epoch: the life that ended, as the client counts it
//	4    2     Killer      u16 id  0..65534, 0xFFFF none  the player the client's game holds responsible, NoPlayer if none (the client's view; the server names the killer itself)
//	6    1     Weapon      u8      0..255                 the means of death: weapon or cause id, as in DamageReport
//	7    1     Pose        u8      0..255                 the death animation the victim played; a raw game value
//
// RespawnRequest (0x06, 4 bytes, client to server, reliable): a dead client's request to respawn, repeated on a timer until the server grants it (lifecycle's [respawn-idempotent]: the server decides the moment).
//
//	off  size  field       type  valid range  meaning
//	2    2     DeathEpoch  u16   0..65535     death_epoch: the life the client died in; a request for an older life than the server's is stale
//
// WeaponShot (0x07, 36 bytes, client to server, unreliable): one trigger pull of a hitscan weapon, on foot or from a vehicle, sent by the shooter's client (a shotgun's pellets included).
//
//	off  size  field          type     valid range               meaning
//	2    2     ShotSeq        u16      0..65535                  the shooter's shot number, +1 per shot (wraps); a victim's DamageReport answers the shot by it
//	4    2     DeathEpoch     u16      0..65535                  death_epoch: the shooter's life; a shot of an earlier life is refused (the grant resets combat correlation, lifecycle's [death-epoch])
//	6    2     PropertiesRev  u16      0..65535                  the WeaponProperties revision the shot was fired under; the damage floor reads the weapon's damage from it (vitals' [damage-floor])
//	8    1     Weapon         u8       0..255                    the weapon fired
//	9    1     HitType        u8 enum  0..4, HitType             what the shooter's client says the ray hit
//	10   2     HitID          u16      0..65535                  the id of what was hit; 0 when HitType is none
//	12   12    Origin         3×f32    finite, |axis| <= 100000  the start of the ray
//	24   12    HitPos         3×f32    finite, |axis| <= 100000  the end of the ray: where it hit, or its full length
//	rule: HitID is 0 when HitType is none. (non-canonical encoding)
//
// VehicleShot (0x08, 38 bytes, client to server, unreliable): one ray of a vehicle's guns (Hunter, Hydra, Predator, Sea Sparrow, the Rhino's cannon ...), sent by the client firing them.
//
//	off  size  field          type     valid range               meaning
//	2    2     ShotSeq        u16      0..65535                  the shooter's shot number, shared with WeaponShot, +1 per shot
//	4    2     DeathEpoch     u16      0..65535                  death_epoch: the shooter's life
//	6    2     PropertiesRev  u16      0..65535                  the WeaponProperties revision the shot was fired under
//	8    2     Vehicle        u16 id   0..65534                  the vehicle whose guns fired
//	10   1     Weapon         u8       0..255                    the weapon id of the guns
//	11   1     HitType        u8 enum  0..4, HitType             what the shooter's client says the ray hit
//	12   2     HitID          u16      0..65535                  the id of what was hit; 0 when HitType is none
//	14   12    Origin         3×f32    finite, |axis| <= 100000  the start of the ray
//	26   12    HitPos         3×f32    finite, |axis| <= 100000  the end of the ray
//	rule: HitID is 0 when HitType is none. (non-canonical encoding)
//
// ProjectileLaunch (0x09, 35 bytes, client to server, unreliable): a projectile thrown or launched by the client's player: a grenade, tear gas, a molotov, a satchel, a rocket (on foot or from a vehicle).
//
//	off  size  field       type    valid range               meaning
//	2    2     Projectile  u16     0..65535                  the owner's projectile number, +1 per launch (wraps); its Detonation and the victims' reports name it
//	4    2     DeathEpoch  u16     0..65535                  death_epoch: the owner's life
//	6    1     Weapon      u8      0..255                    the weapon behind the projectile (16, 17, 18, 35, 36, 39 ...)
//	7    2     Vehicle     u16 id  0..65534, 0xFFFF none     the vehicle that launched it, NoVehicle when thrown on foot
//	9    2     Target      u16 id  0..65534, 0xFFFF none     the vehicle a homing rocket follows, NoVehicle if none
//	11   12    Origin      3×f32   finite, |axis| <= 100000  where the projectile starts
//	23   12    Velocity    3×f32   finite, |axis| <= 1000    its launch velocity in m/s (full float precision)
//
// Detonation (0x0A, 19 bytes, client to server, unreliable): the owner's report that its projectile exploded (impact, fuse, or a satchel set off by the detonator), at a point its physics decided.
//
//	off  size  field       type   valid range               meaning
//	2    2     Projectile  u16    0..65535                  the owner's number of the projectile that exploded
//	4    2     DeathEpoch  u16    0..65535                  death_epoch: the owner's life
//	6    1     Weapon      u8     0..255                    the weapon behind the projectile
//	7    12    Position    3×f32  finite, |axis| <= 100000  where it exploded
//
// StealthKill (0x0B, 9 bytes, client to server, reliable): the attacker's claim of a stealth kill (the knife's paired animation).
//
//	off  size  field        type    valid range  meaning
//	2    2     Victim       u16 id  0..65534     the player the attacker claims to kill
//	4    2     VictimEpoch  u16     0..65535     the victim's death_epoch as the attacker last saw it; a claim against an earlier life is stale
//	6    2     DeathEpoch   u16     0..65535     death_epoch: the attacker's own life
//	8    1     Weapon       u8      0..255       the weapon used (the knife, 4)
//
// VehicleExplode (0x0C, 7 bytes, client to server, reliable): a client's report that a vehicle it controls exploded.
//
//	off  size  field     type    valid range            meaning
//	2    2     Vehicle   u16 id  0..65534               the vehicle that exploded
//	4    2     Attacker  u16 id  0..65534, 0xFFFF none  the player the client's game holds responsible, NoPlayer if none
//	6    1     Weapon    u8      0..255                 the cause as the client's game has it
//
// Welcome (0x40, 12 bytes, server to client, unreliable): accepts a client: its player id and connection token.
//
//	off  size  field        type    valid range    meaning
//	2    2     Player       u16 id  0..65534       the client's own player id
//	4    4     PlayerToken  u32     0..4294967295  player_token: the token of this connection, which every lifecycle edge of the player carries (lifecycle's [player-token])
//	8    4     Session      u32     0..4294967295  echoes the Session of the Hello that opened the connection
//
// RemotePlayerSync (0x41, 44 bytes, server to client, unreliable): another player's frame as the server relays it to one recipient.
//
//	off  size   field           type       valid range                                    meaning
//	2    2      Player          u16 id     0..65534                                       the subject: the player whose frame this is
//	4    2      SyncSeq         u16        0..65535                                       sync_seq: the server's relay number of the subject's frames, +1 per relayed frame (lifecycle's [show-current-state])
//	6    2      DeathEpoch      u16        0..65535                                       death_epoch: the subject's life as the server counts it
//	8    1      Flags           u8 bits    bits 7..7 are 0                                flags: the bit fields below
//	8.0  1 bit  Alive           bit        0 or 1                                         alive as the server holds it; it triggers no death and no respawn on the receiver (lifecycle's [server-commits-death])
//	8.1  1 bit  FireHeld        bit        0 or 1                                         true while the subject holds the fire key
//	8.2  1 bit  Stamp.Teammate  bit        0 or 1                                         true when the sender is the recipient's teammate: same non-zero damage group
//	8.3  4 bit  Seat            bits       0..8                                           the seat in Vehicle (0 = driver); 0 on foot
//	9    2      Stamp.Rev       u16        0..65535                                       the relation revision the answer was taken at; compare revisions with internal/revision (they wrap at 65535)
//	11   2      DamageGroup     u16        0..65535                                       the subject's damage group: its team id while that team's friendly fire is off, 0 otherwise (teams' [damage-groups])
//	13   1      Weapon          u8         0..255                                         the subject's held weapon
//	14   4      Health          f32        finite, 0..200                                 the relayed health: the server's ledger, never 0 or below while Alive (lifecycle's [server-commits-death])
//	18   4      Armor           f32        finite, 0..200                                 the relayed armor (the server's ledger)
//	22   12     Position        3×f32      finite, |axis| <= 100000                       the subject's position
//	34   6      Velocity        3×i16      each axis ±255.99 m/s, step 1/128; not -32768  the subject's velocity in m/s, quantized to 1/128 m/s
//	40   2      Facing          u16 angle  any finite radians (wraps), step 2π/65536      the subject's heading in radians, quantized to 2π/65536
//	42   2      Vehicle         u16 id     0..65534, 0xFFFF none                          the vehicle the subject sits in, NoVehicle on foot
//	rule: Seat is 0 when Vehicle is NoVehicle (on foot). (non-canonical encoding)
//	rule: Health is above 0 while Alive: a living player is never relayed at lethal health (lifecycle's [server-commits-death]). (inconsistent fields)
//
// RemoteVehicleSync (0x42, 49 bytes, server to client, unreliable): a vehicle's frame as the server relays it to one recipient, with the controlling player's teammate relation to the recipient (teams' [teammate-stamp]: a relayed vehicle frame can hurt, by ramming or running over).
//
//	off  size  field           type     valid range                                    meaning
//	2    2     Vehicle         u16 id   0..65534                                       the vehicle this frame is about
//	4    2     Driver          u16 id   0..65534, 0xFFFF none                          the player controlling the vehicle, NoPlayer if none
//	6    2     SyncSeq         u16      0..65535                                       the server's relay number of this vehicle's frames, +1 per relayed frame
//	8    1     Stamp.Teammate  u8 bool  0 or 1                                         true when the sender is the recipient's teammate: same non-zero damage group
//	9    2     Stamp.Rev       u16      0..65535                                       the relation revision the answer was taken at; compare revisions with internal/revision (they wrap at 65535)
//	11   12    Position        3×f32    finite, |axis| <= 100000                       the vehicle's position
//	23   16    Rotation        4×f32    finite, unit (|q| 0.9..1.1)                    the vehicle's rotation
//	39   6     Velocity        3×i16    each axis ±255.99 m/s, step 1/128; not -32768  the vehicle's velocity in m/s, quantized to 1/128 m/s
//	45   4     Health          f32      finite, 0..100000                              the vehicle's health
//	rule: Stamp.Teammate is false when Driver is NoPlayer. (inconsistent fields)
//
// RemoteWeaponShot (0x43, 79 bytes, server to client, unreliable): a WeaponShot as the server relays it to one recipient: with the shooter's teammate relation to that recipient, and, when the ray passed near the recipient, the recipient's rewound pose and its vehicle's pose (rewind's [rewind-to-shooters-view], teams' [teammate-stamp]).
//
//	off   size   field                   type     valid range                           meaning
//	2     2      Shooter                 u16 id   0..65534                              the player who fired
//	4     2      ShotSeq                 u16      0..65535                              the shooter's shot number, echoed by the victim's DamageReport
//	6     1      Weapon                  u8       0..255                                the weapon fired
//	7     1      HitType                 u8 enum  0..4, HitType                         what the shooter's client says the ray hit
//	8     2      HitID                   u16      0..65535                              the id of what was hit; 0 when HitType is none
//	10    1      Flags                   u8 bits  bits 3..7 are 0                       flags: the bit fields below
//	10.0  1 bit  Stamp.Teammate          bit      0 or 1                                true when the sender is the recipient's teammate: same non-zero damage group
//	10.1  1 bit  Rewind.Valid            bit      0 or 1                                true when the ray passed near the recipient and it must be rewound; when false every other field is zero
//	10.2  1 bit  Rewind.InVehicle        bit      0 or 1                                true when the recipient sits in a vehicle that is rewound with it (not the shooter's own vehicle, not a frozen or wrecked one); when false the vehicle fields are zero
//	11    2      Stamp.Rev               u16      0..65535                              the relation revision the answer was taken at; compare revisions with internal/revision (they wrap at 65535)
//	13    12     Origin                  3×f32    finite, |axis| <= 100000              the start of the ray
//	25    12     HitPos                  3×f32    finite, |axis| <= 100000              the end of the ray
//	37    12     Rewind.Position         3×f32    finite, |axis| <= 100000              where the recipient stood, the shooter's round-trip time ago (at most 400 ms back)
//	49    2      Rewind.Vehicle          u16 id   0..65534                              the id of the recipient's vehicle
//	51    12     Rewind.VehiclePosition  3×f32    finite, |axis| <= 100000              where that vehicle stood at the same moment
//	63    16     Rewind.VehicleRotation  4×f32    finite, unit (|q| 0.9..1.1) or all 0  the vehicle's rotation at the same moment
//	rule: Rewind.Position is zero when Rewind.Valid is false. (non-canonical encoding)
//	rule: Rewind.InVehicle is false when Rewind.Valid is false. (non-canonical encoding)
//	rule: Rewind.Vehicle is 0 when Rewind.InVehicle is false. (non-canonical encoding)
//	rule: Rewind.VehiclePosition is zero when Rewind.InVehicle is false. (non-canonical encoding)
//	rule: Rewind.VehicleRotation is zero when Rewind.InVehicle is false. (non-canonical encoding)
//	rule: Rewind.VehicleRotation is a unit quaternion when Rewind.InVehicle is true. (value out of range)
//	rule: HitID is 0 when HitType is none. (non-canonical encoding)
//
// RemoteVehicleShot (0x44, 81 bytes, server to client, unreliable): a VehicleShot as the server relays it to one recipient, with the shooter's relation and the recipient's rewound pose, exactly as RemoteWeaponShot (rewind's [rewind-to-shooters-view]: vehicle gun rays rewind like WeaponShot; the Rhino cannon's never carries a valid Rewind).
//
//	off   size   field                   type     valid range                           meaning
//	2     2      Shooter                 u16 id   0..65534                              the player who fired
//	4     2      Vehicle                 u16 id   0..65534                              the vehicle whose guns fired
//	6     2      ShotSeq                 u16      0..65535                              the shooter's shot number, echoed by the victim's DamageReport
//	8     1      Weapon                  u8       0..255                                the weapon id of the guns
//	9     1      HitType                 u8 enum  0..4, HitType                         what the shooter's client says the ray hit
//	10    2      HitID                   u16      0..65535                              the id of what was hit; 0 when HitType is none
//	12    1      Flags                   u8 bits  bits 3..7 are 0                       flags: the bit fields below
//	12.0  1 bit  Stamp.Teammate          bit      0 or 1                                true when the sender is the recipient's teammate: same non-zero damage group
//	12.1  1 bit  Rewind.Valid            bit      0 or 1                                true when the ray passed near the recipient and it must be rewound; when false every other field is zero
//	12.2  1 bit  Rewind.InVehicle        bit      0 or 1                                true when the recipient sits in a vehicle that is rewound with it (not the shooter's own vehicle, not a frozen or wrecked one); when false the vehicle fields are zero
//	13    2      Stamp.Rev               u16      0..65535                              the relation revision the answer was taken at; compare revisions with internal/revision (they wrap at 65535)
//	15    12     Origin                  3×f32    finite, |axis| <= 100000              the start of the ray
//	27    12     HitPos                  3×f32    finite, |axis| <= 100000              the end of the ray
//	39    12     Rewind.Position         3×f32    finite, |axis| <= 100000              where the recipient stood, the shooter's round-trip time ago (at most 400 ms back)
//	51    2      Rewind.Vehicle          u16 id   0..65534                              the id of the recipient's vehicle
//	53    12     Rewind.VehiclePosition  3×f32    finite, |axis| <= 100000              where that vehicle stood at the same moment
//	65    16     Rewind.VehicleRotation  4×f32    finite, unit (|q| 0.9..1.1) or all 0  the vehicle's rotation at the same moment
//	rule: Rewind.Position is zero when Rewind.Valid is false. (non-canonical encoding)
//	rule: Rewind.InVehicle is false when Rewind.Valid is false. (non-canonical encoding)
//	rule: Rewind.Vehicle is 0 when Rewind.InVehicle is false. (non-canonical encoding)
//	rule: Rewind.VehiclePosition is zero when Rewind.InVehicle is false. (non-canonical encoding)
//	rule: Rewind.VehicleRotation is zero when Rewind.InVehicle is false. (non-canonical encoding)
//	rule: Rewind.VehicleRotation is a unit quaternion when Rewind.InVehicle is true. (value out of range)
//	rule: HitID is 0 when HitType is none. (non-canonical encoding)
//
// RemoteProjectile (0x45, 38 bytes, server to client, unreliable): a ProjectileLaunch as the server relays it to one recipient, with the owner's teammate relation to that recipient (teams' [teammate-stamp]).
//
//	off  size  field           type     valid range               meaning
//	2    2     Owner           u16 id   0..65534                  the player who launched it
//	4    2     Projectile      u16      0..65535                  the owner's projectile number
//	6    1     Weapon          u8       0..255                    the weapon behind the projectile
//	7    2     Vehicle         u16 id   0..65534, 0xFFFF none     the vehicle that launched it, NoVehicle on foot
//	9    2     Target          u16 id   0..65534, 0xFFFF none     the vehicle a homing rocket follows, NoVehicle if none
//	11   12    Origin          3×f32    finite, |axis| <= 100000  where the projectile starts
//	23   12    Velocity        3×f32    finite, |axis| <= 1000    its launch velocity in m/s
//	35   1     Stamp.Teammate  u8 bool  0 or 1                    true when the sender is the recipient's teammate: same non-zero damage group
//	36   2     Stamp.Rev       u16      0..65535                  the relation revision the answer was taken at; compare revisions with internal/revision (they wrap at 65535)
//
// RemoteDetonation (0x46, 22 bytes, server to client, unreliable): a Detonation as the server relays it to one recipient, with the owner's teammate relation; the recipient applies the explosion to itself and reports what it took, answering RefDetonation.
//
//	off  size  field           type     valid range               meaning
//	2    2     Owner           u16 id   0..65534                  the player whose projectile exploded
//	4    2     Projectile      u16      0..65535                  the owner's projectile number
//	6    1     Weapon          u8       0..255                    the weapon behind the projectile
//	7    12    Position        3×f32    finite, |axis| <= 100000  where it exploded
//	19   1     Stamp.Teammate  u8 bool  0 or 1                    true when the sender is the recipient's teammate: same non-zero damage group
//	20   2     Stamp.Rev       u16      0..65535                  the relation revision the answer was taken at; compare revisions with internal/revision (they wrap at 65535)
//
// RemoteStealthKill (0x47, 12 bytes, server to client, reliable): an accepted stealth kill as the server relays it to the victim and the players both are shown to, with the attacker's relation to the recipient.
//
//	off  size  field           type     valid range  meaning
//	2    2     Attacker        u16 id   0..65534     the player who kills
//	4    2     Victim          u16 id   0..65534     the player killed
//	6    2     VictimEpoch     u16      0..65535     death_epoch: the victim's life that ends
//	8    1     Weapon          u8       0..255       the weapon used
//	9    1     Stamp.Teammate  u8 bool  0 or 1       true when the sender is the recipient's teammate: same non-zero damage group
//	10   2     Stamp.Rev       u16      0..65535     the relation revision the answer was taken at; compare revisions with internal/revision (they wrap at 65535)
//	rule: Victim is not Attacker. (inconsistent fields)
//
// RemoteVehicleExplode (0x48, 10 bytes, server to client, reliable): an accepted vehicle explosion as the server relays it to one recipient: the explosion's author (the credited killer) and the author's relation to the recipient, so the author's teammates inside refuse its damage (teams' [teammate-refused-by-victim]).
//
//	off  size  field           type     valid range            meaning
//	2    2     Vehicle         u16 id   0..65534               the vehicle that exploded
//	4    2     Author          u16 id   0..65534, 0xFFFF none  the credited killer, NoPlayer if none
//	6    1     Weapon          u8       0..255                 the cause
//	7    1     Stamp.Teammate  u8 bool  0 or 1                 true when the sender is the recipient's teammate: same non-zero damage group
//	8    2     Stamp.Rev       u16      0..65535               the relation revision the answer was taken at; compare revisions with internal/revision (they wrap at 65535)
//	rule: Stamp.Teammate is false when Author is NoPlayer. (inconsistent fields)
//
// CreateExplosion (0x49, 26 bytes, server to client, reliable): a gamemode explosion (create_explosion), with its creator and the creator's relation to the recipient (teams' [teammate-stamp]: a server effect with a creator is stamped).
//
//	off  size  field           type     valid range               meaning
//	2    2     Effect          u16      0..65535                  the server's id of this effect, +1 per effect (wraps)
//	4    2     Creator         u16 id   0..65534, 0xFFFF none     the player the gamemode credits with the explosion, NoPlayer if none
//	6    1     Type            u8       0..255                    the game's explosion type; a raw game value
//	7    12    Position        3×f32    finite, |axis| <= 100000  the centre of the explosion
//	19   4     Radius          f32      finite, 0 < v <= 1000     the explosion's radius in metres
//	23   1     Stamp.Teammate  u8 bool  0 or 1                    true when the sender is the recipient's teammate: same non-zero damage group
//	24   2     Stamp.Rev       u16      0..65535                  the relation revision the answer was taken at; compare revisions with internal/revision (they wrap at 65535)
//	rule: Stamp.Teammate is false when Creator is NoPlayer. (inconsistent fields)
//
// CreateFire (0x4A, 27 bytes, server to client, reliable): a gamemode fire (create_fire), with its creator, how long it has burned already and the creator's relation to the recipient.
//
//	off  size  field           type     valid range               meaning
//	2    2     Effect          u16      0..65535                  the server's id of this effect, shared with CreateExplosion
//	4    2     Creator         u16 id   0..65534, 0xFFFF none     the player the gamemode credits with the fire, NoPlayer if none
//	6    12    Position        3×f32    finite, |axis| <= 100000  the centre of the fire
//	18   4     Radius          f32      finite, 0 < v <= 1000     the fire's radius in metres
//	22   2     Age             u16      0..60000                  how long the fire had burned when the server sent this, in whole milliseconds rounded down (0 for the send when it is lit), at most MaxFireAge
//	24   1     Stamp.Teammate  u8 bool  0 or 1                    true when the sender is the recipient's teammate: same non-zero damage group
//	25   2     Stamp.Rev       u16      0..65535                  the relation revision the answer was taken at; compare revisions with internal/revision (they wrap at 65535)
//	rule: Stamp.Teammate is false when Creator is NoPlayer. (inconsistent fields)
//
// PlayerShow (0x4B, 41 bytes, server to client, reliable): makes a player visible to the recipient (a join, or the recipient's streaming range reaching it): the current state from which the recipient builds the player's copy.
//
//	off   size   field        type       valid range                                meaning
//	2     2      Player       u16 id     0..65534                                   the player shown
//	4     4      PlayerToken  u32        0..4294967295                              player_token: the connection's token, which every later lifecycle edge of the player carries (lifecycle's [player-token])
//	8     2      DeathEpoch   u16        0..65535                                   death_epoch: the player's current life
//	10    2      SyncSeq      u16        0..65535                                   sync_seq: the first relay number of the player's frames that belongs to this show; older frames are dropped
//	12    1      Flags        u8 bits    bits 5..7 are 0                            flags: the bit fields below
//	12.0  1 bit  Alive        bit        0 or 1                                     the server's alive: false shows a body lying dead
//	12.1  4 bit  Seat         bits       0..8                                       the seat in Vehicle (0 = driver); 0 on foot
//	13    2      DamageGroup  u16        0..65535                                   the player's damage group (teams' [damage-groups])
//	15    1      Weapon       u8         0..255                                     the held weapon
//	16    4      Health       f32        finite, 0..200                             the server's ledger health; above 0 while Alive
//	20    4      Armor        f32        finite, 0..200                             the server's ledger armor
//	24    12     Position     3×f32      finite, |axis| <= 100000                   the player's position
//	36    2      Facing       u16 angle  any finite radians (wraps), step 2π/65536  the heading in radians, quantized to 2π/65536
//	38    2      Vehicle      u16 id     0..65534, 0xFFFF none                      the vehicle the player sits in, NoVehicle on foot
//	40    1      Pose         u8         0..255                                     the death pose the body lies in while not Alive: the one its PlayerWasted carried, so a late show lays the corpse as everyone else saw it (lifecycle's [show-current-state]); a raw game value, 0 while Alive
//	rule: Seat is 0 when Vehicle is NoVehicle (on foot). (non-canonical encoding)
//	rule: Health is above 0 while Alive (lifecycle's [server-commits-death]). (inconsistent fields)
//	rule: Pose is 0 while Alive. (non-canonical encoding)
//
// PlayerHide (0x4C, 8 bytes, server to client, reliable): removes a player's copy from the recipient (the player left, or left the recipient's streaming range).
//
//	off  size  field        type    valid range    meaning
//	2    2     Player       u16 id  0..65534       the player hidden
//	4    4     PlayerToken  u32     0..4294967295  player_token: the token of the connection being hidden, so a hide never removes a new player that reused the id
//
// PlayerWasted (0x4D, 14 bytes, server to client, reliable): the death edge the server sends to the players the victim is shown to (not to the victim), once per life, on a fresh commit (lifecycle's [lifecycle-edges]).
//
//	off  size  field        type    valid range            meaning
//	2    2     Player       u16 id  0..65534               the victim
//	4    4     PlayerToken  u32     0..4294967295          player_token: the victim's connection token; a receiver applies the edge only to the copy with that token
//	8    2     DeathEpoch   u16     0..65535               death_epoch: the life that ended
//	10   2     Killer       u16 id  0..65534, 0xFFFF none  the killer the server names (from the last credited damage; never a teammate, teams' [teammate-never-credited]), NoPlayer if none
//	12   1     Weapon       u8      0..255                 the means of death: weapon or cause id
//	13   1     Pose         u8      0..255                 the death animation to play: the victim's, or the default one
//	rule: Killer is not Player (a suicide has no killer: NoPlayer). (inconsistent fields)
//
// PlayerSpawned (0x4E, 26 bytes, server to client, reliable): the respawn edge the server sends, on the grant, to the players the subject is shown to (lifecycle's [lifecycle-edges]).
//
//	off  size  field        type       valid range                                meaning
//	2    2     Player       u16 id     0..65534                                   the player respawning
//	4    4     PlayerToken  u32        0..4294967295                              player_token: its connection token
//	8    2     DeathEpoch   u16        0..65535                                   death_epoch: the new life's generation
//	10   2     SyncSeq      u16        0..65535                                   sync_seq: the barrier of the new life; the receiver drops the subject's RemotePlayerSync frames with an older SyncSeq (late frames of the previous life)
//	12   12    Position     3×f32      finite, |axis| <= 100000                   the spawn point
//	24   2     Facing       u16 angle  any finite radians (wraps), step 2π/65536  the heading at the spawn point in radians, quantized to 2π/65536
//
// RespawnPlayer (0x4F, 18 bytes, server to client, reliable): the server's respawn grant to the respawning player: a new life at a point (lifecycle's [respawn-idempotent]).
//
//	off  size  field       type       valid range                                meaning
//	2    2     DeathEpoch  u16        0..65535                                   death_epoch: the new life's generation
//	4    12    Position    3×f32      finite, |axis| <= 100000                   the spawn point
//	16   2     Facing      u16 angle  any finite radians (wraps), step 2π/65536  the heading at the spawn point in radians, quantized to 2π/65536
//
// SetHealth (0x50, 8 bytes, server to client, reliable): sets the player's health to an absolute value (player:set_health).
//
//	off  size  field   type  valid range     meaning
//	2    2     Rev     u16   0..65535        the health revision (rev) of this command, the connection's next one; frames and reports echo it as vital_rev
//	4    4     Health  f32   finite, 0..200  the new health, 0..MaxVital (MAX_VITAL_SET)
//
// SetArmor (0x51, 8 bytes, server to client, reliable): sets the player's armor to an absolute value (player:set_armor).
//
//	off  size  field  type  valid range     meaning
//	2    2     Rev    u16   0..65535        the health revision (rev) of this command; armor shares it with health
//	4    4     Armor  f32   finite, 0..200  the new armor, 0..MaxVital
//
// GiveHealth (0x52, 12 bytes, server to client, reliable): adds to the player's health up to a maximum and never lowers it (player:add_health, a reward; vitals' [ledger-only-falls]).
//
//	off  size  field   type  valid range           meaning
//	2    2     Rev     u16   0..65535              the health revision (rev) of this command
//	4    4     Amount  f32   finite, 0 < v <= 200  the health to add, above 0 and at most MaxVital
//	8    4     Max     f32   finite, 0 < v <= 200  the ceiling the add stops at, above 0 and at most MaxVital
//
// GiveArmor (0x53, 12 bytes, server to client, reliable): adds to the player's armor up to a maximum and never lowers it (player:add_armor).
//
//	off  size  field   type  valid range           meaning
//	2    2     Rev     u16   0..65535              the health revision (rev) of this command
//	4    4     Amount  f32   finite, 0 < v <= 200  the armor to add, above 0 and at most MaxVital
//	8    4     Max     f32   finite, 0 < v <= 200  the ceiling the add stops at, above 0 and at most MaxVital
//
// DamageMultipliers (0x54, 28 bytes, server to client, reliable): the table of damage multipliers per class for the damage that WeaponProperties does not cover (dlmp.set_damage_multiplier; vitals' [damage-multipliers]).
//
//	off  size  field         type  valid range     meaning
//	2    2     Rev           u16   0..65535        the table's revision, +1 per table sent on the connection (its own counter, not vital_rev)
//	4    4     Melee         f32   finite, 0..100  the multiplier of melee damage (also scales the melee floor)
//	8    4     Fire          f32   finite, 0..100  the multiplier of fire (weapon 37, the flamethrower and plain fire)
//	12   4     Spray         f32   finite, 0..100  the multiplier of the spraycan (41)
//	16   4     Extinguisher  f32   finite, 0..100  the multiplier of the fire extinguisher (42)
//	20   4     Explosion     f32   finite, 0..100  the multiplier of explosions (51)
//	24   4     PredatorGun   f32   finite, 0..100  the multiplier of the Predator's guns (also scales their floor)
//
// GiveWeapon (0x55, 8 bytes, server to client, reliable): gives a weapon with ammo, following the game's rules: the same weapon again adds its ammo, a different weapon in a slot that pools ammo carries the displaced total over, any other slot is replaced (inventory's [give-rules]).
//
//	off  size  field         type     valid range  meaning
//	2    2     Rev           u16      0..65535     the inventory revision (rev) of this command, the player's next one; frames echo the last one applied as weapon_rev
//	4    1     Weapon        u8       0..255       the weapon given
//	5    2     Ammo          u16      0..65535     the ammo given with it
//	7    1     SetAsCurrent  u8 bool  0 or 1       set_as_current: whether the weapon becomes the held one (a give may leave the held weapon alone)
//
// TakeWeapon (0x56, 5 bytes, server to client, reliable): removes a weapon and its ammo.
//
//	off  size  field   type  valid range  meaning
//	2    2     Rev     u16   0..65535     the inventory revision (rev) of this command
//	4    1     Weapon  u8    0..255       the weapon taken
//
// SetWeaponAmmo (0x57, 9 bytes, server to client, reliable): sets a weapon's total ammo, and its clip unless Clip is NoClip.
//
//	off  size  field   type  valid range  meaning
//	2    2     Rev     u16   0..65535     the inventory revision (rev) of this command
//	4    1     Weapon  u8    0..255       the weapon whose ammo is set
//	5    2     Total   u16   0..65535     the new total ammo, clip included
//	7    2     Clip    u16   0..65535     the new ammo in the clip, or NoClip (0xFFFF, "not set") to leave it
//	rule: Clip is NoClip or at most Total (the clip is part of the total). (inconsistent fields)
//
// ClearWeapons (0x58, 4 bytes, server to client, reliable): removes every weapon and all ammo.
//
//	off  size  field  type  valid range  meaning
//	2    2     Rev    u16   0..65535     the inventory revision (rev) of this command
//
// SetArmedWeapon (0x59, 5 bytes, server to client, reliable): makes a weapon the player owns the held one (0 = fists).
//
//	off  size  field   type  valid range  meaning
//	2    2     Rev     u16   0..65535     the inventory revision (rev) of this command
//	4    1     Weapon  u8    0..255       the weapon to hold
//
// WeaponProperties (0x5A, 21 bytes, server to client, reliable): changes one weapon's properties for the client's game: its damage at each skill tier and its range.
//
//	off  size  field       type  valid range             meaning
//	2    2     Rev         u16   0..65535                the weapon properties revision this change creates (global, +1 per change); shots echo the revision they were fired under as PropertiesRev
//	4    1     Weapon      u8    0..255                  the weapon changed
//	5    4     DamagePoor  f32   finite, 0..1000         the damage per hit (per pellet) at the poor skill tier
//	9    4     DamageStd   f32   finite, 0..1000         the damage per hit (per pellet) at the standard skill tier
//	13   4     DamagePro   f32   finite, 0..1000         the damage per hit (per pellet) at the pro skill tier
//	17   4     Range       f32   finite, 0 < v <= 10000  the weapon's range in metres
//
// SetWeaponSkill (0x5B, 5 bytes, server to client, reliable): sets one of the player's weapon skill levels; the skill is the server's, and a shot is floored at the tier it gives (the lower of two tiers within 5 s of a change; inventory's [skill-tier-grace]).
//
//	off  size  field  type  valid range  meaning
//	2    1     Skill  u8    0..255       the game's weapon skill type (0 pistol .. 10 sniper rifle in SA-MP numbering); a raw game value
//	3    2     Level  u16   0..65535     the skill level (0..999 in the game); a raw game value
//
// SetPlayerPosition (0x5C, 16 bytes, server to client, reliable): moves the player (a gamemode teleport).
//
//	off  size  field     type       valid range                                meaning
//	2    12    Position  3×f32      finite, |axis| <= 100000                   the new position
//	14   2     Facing    u16 angle  any finite radians (wraps), step 2π/65536  the new heading in radians, quantized to 2π/65536
//
// SetVehiclePose (0x5D, 32 bytes, server to client, reliable): moves a vehicle (a gamemode move).
//
//	off  size  field     type    valid range                  meaning
//	2    2     Vehicle   u16 id  0..65534                     the vehicle moved
//	4    12    Position  3×f32   finite, |axis| <= 100000     its new position
//	16   16    Rotation  4×f32   finite, unit (|q| 0.9..1.1)  its new rotation
//
// SetVehicleFrozen (0x5E, 5 bytes, server to client, reliable): freezes or unfreezes a vehicle.
//
//	off  size  field    type     valid range  meaning
//	2    2     Vehicle  u16 id   0..65534     the vehicle
//	4    1     Frozen   u8 bool  0 or 1       the new state
//
// VehicleShow (0x5F, 41 bytes, server to client, reliable): makes a vehicle visible to the recipient (the recipient's streaming range reaching it, or the recipient sitting in it): the current state from which the recipient builds the vehicle's copy, replacing any copy it kept.
//
//	off  size   field     type     valid range                  meaning
//	2    2      Vehicle   u16 id   0..65534                     the vehicle shown
//	4    2      Model     u16      0..65535                     the vehicle's model (a GTA San Andreas model id)
//	6    2      SyncSeq   u16      0..65535                     the first relay number of the vehicle's frames that belongs to this show; older frames are dropped
//	8    1      Flags     u8 bits  bits 2..7 are 0              flags: the bit fields below
//	8.0  1 bit  Frozen    bit      0 or 1                       true while the gamemode holds the vehicle frozen
//	8.1  1 bit  Wrecked   bit      0 or 1                       true for a vehicle that exploded and was not respawned since
//	9    4      Health    f32      finite, 0..100000            the vehicle's health as its driver's frames last showed it
//	13   12     Position  3×f32    finite, |axis| <= 100000     the vehicle's position
//	25   16     Rotation  4×f32    finite, unit (|q| 0.9..1.1)  the vehicle's rotation
//
// VehicleHide (0x60, 4 bytes, server to client, reliable): removes a vehicle's copy from the recipient (the vehicle left the recipient's streaming range).
//
//	off  size  field    type    valid range  meaning
//	2    2     Vehicle  u16 id  0..65534     the vehicle hidden
//
// Ping (0xA0, 8 bytes, both ways, unreliable): asks the peer for a Pong; the server measures each connection's round-trip time with it (rewind's [rtt-by-ping]).
//
//	off  size  field  type  valid range    meaning
//	2    2     Seq    u16   0..65535       the sender's ping number; the Pong echoes it
//	4    4     Time   u32   0..4294967295  the sender's clock when it sent the ping (milliseconds, wraps); the Pong echoes it
//
// Pong (0xA1, 8 bytes, both ways, unreliable): answers a Ping at once, echoing it.
//
//	off  size  field  type  valid range    meaning
//	2    2     Seq    u16   0..65535       the echoed ping number
//	4    4     Time   u32   0..4294967295  the echoed send time of the ping
//
// Disconnect (0xA2, 3 bytes, both ways, unreliable): ends the connection, with the reason.
//
//	off  size  field   type     valid range   meaning
//	2    1     Reason  u8 enum  0..7, Reason  why the connection ends
//
// Bundle (0xF1, transport, both ways, unreliable): several whole datagrams in one ([bundle-carries-whole-datagrams]).
// After the header come 1..256 elements, each a length prefix and the bytes of one
// datagram of its own, up to the datagram's end:
//
//	off  size    field    type   valid range  meaning
//	+0   2       length   u16    2..65535     the element's size in bytes
//	+2   length  element  bytes  a datagram   an unreliable message or a lane datagram, with its own header; never a bundle
//	rule: the elements end exactly at the datagram's end (bundle truncated)
//	rule: at least one element, none shorter than a header (bundle element empty)
//	rule: no element is a bundle (bundle inside a bundle)
//	rule: at most 256 elements (too many elements in a bundle)
package wire
