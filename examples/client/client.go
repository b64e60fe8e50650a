package client

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/internal/ring"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

// Defaults of a zero Config field.
const (
	// DefaultReloadTime is how long a reload takes: from the moment a weapon's clip is empty
	// (and rounds are left) until the clip is full again. Frames show clip 0 meanwhile.
	DefaultReloadTime = time.Second
	// DefaultStealthAnim is how long the victim's side of a stealth kill's paired animation
	// plays before the victim dies and reports its death.
	DefaultStealthAnim = 3 * time.Second
	// DefaultSpawnSettle is how long after a revival the honest client waits before it
	// acts (fires, throws, strikes, stealth-kills): the server accepts actions of a life
	// only from its first living frame (lifecycle's [first-living-frame], lifecycle.World.MayAct), and frames are
	// unreliable. 500 ms is 15 frames: the chance that all of them are lost or overtaken
	// by a shot is negligible at any loss rate the records consider.
	DefaultSpawnSettle = 500 * time.Millisecond
	// DefaultSprayRate is how many rounds per second a continuous weapon (flamethrower,
	// spraycan, extinguisher) spends while its fire is held. The game's rate is higher
	// still; what matters is that it is above the server's inventory.ContinuousSpendRate,
	// so the server's count never falls below the client's (inventory's [never-below-client]; [spend-above-server]).
	DefaultSprayRate = 20
	// MaxSprayRate bounds Config.SprayRate.
	MaxSprayRate = 1000
	// MaxConfigDuration bounds Config.ReloadTime, Config.StealthAnim and Config.SpawnSettle.
	MaxConfigDuration = time.Minute
)

// Fixed rules of the honest client that are not configuration.
const (
	// PlayerDamageFactor is what the game multiplies a weapon's damage by when the victim is
	// a player (the weapon data's 0.33): a bullet does 0.33 x its standard-tier damage per
	// pellet.
	PlayerDamageFactor float32 = 0.33
	// PredatorDamage is the fixed raw damage of one hit of the Predator's guns.
	PredatorDamage float32 = 15
	// StealthReach is the farthest the honest client stands from its victim (by the
	// victim's last accepted relayed frame) when it claims a stealth kill. The server
	// checks 2 m on its own positions, which are a frame apart from the client's view.
	StealthReach float32 = 1.5
	// DeathReportDelay is how long after its death the client sends its DeathReport (the
	// game plays the death animation first). A shot sent just before the death travels
	// unreliably; without the delay, jitter could carry it to the server after the report,
	// where the committed death refuses it. It must exceed the link's jitter.
	DeathReportDelay = 150 * time.Millisecond
	// StartHealth and StartArmor are the vitals of every new life (vitals' [ledger-only-falls]: a new life).
	StartHealth float32 = 100
	// StartArmor is the armor of every new life.
	StartArmor float32 = 0
	// FireLife is how long a gamemode fire (CreateFire) burns in the client's game from
	// when the server lit it, its arrival less the Age it carries
	// ([fire-burns-what-is-left]): InFire names it by its effect id during that time. The
	// records give a fire no duration on the wire; this is the reference server's burning
	// time (refserver.FireLifetime), so the world never burns a player in a fire the server
	// has put out, however late the fire reached this client.
	FireLife = 10 * time.Second
	// DefaultBodyPart is the body part the client reports for damage that does not come
	// from a traced ray (blows, blasts, rams, fire, falls), and for a trace whose body part
	// is off the whitelist: the torso. The body part never changes the damage to a player
	// (vitals' [trust-in-fields]), but the server refuses one off the whitelist.
	DefaultBodyPart = wire.BodyTorso
)

// Caps of everything the client keeps. Nothing the server or the world sends can grow the
// client beyond them.
const (
	// MaxRemotes is the most remote players the client keeps a copy of (the player slots of
	// teams.MaxPlayers); a show beyond it is ignored and counted.
	MaxRemotes = teams.MaxPlayers
	// MaxEffects is the most gamemode fires the client remembers; the oldest is forgotten.
	MaxEffects = 64
	// MaxOpenSums is the most sums of fire, spray or environmental damage open at once;
	// a further one reports the oldest at once.
	MaxOpenSums = 8
	// MaxFuses is the most own projectiles waiting for their detonation; a throw beyond it
	// is refused as TooFast.
	MaxFuses = 8
	// MaxLifeLog is how many lives the per-life log keeps (the oldest is dropped).
	MaxLifeLog = 1024
	// MaxReportLog is how many damage reports the report log keeps (the oldest is dropped).
	MaxReportLog = 4096
	// MaxCommandLog is how many health and armor commands the command log keeps.
	MaxCommandLog = 1024
	// MaxEvents is how many events wait for PopEvent (the oldest is dropped).
	MaxEvents = 256
	// numSkills is the number of weapon skills of SetWeaponSkill (SA-MP's 0..10).
	numSkills = 11
)

// The skill level at which a weapon skill reaches a tier (SetWeaponSkill levels are
// 0..999, the game's stat). Ours: the records leave the mapping open; the reference
// server must use the same one for its floor tiers.
const (
	// SkillStdLevel is the lowest level of the standard tier.
	SkillStdLevel uint16 = 200
	// SkillProLevel is the lowest level of the pro ("hitman") tier.
	SkillProLevel uint16 = 999
)

// SkillTier is the tier a SetWeaponSkill level gives: poor below SkillStdLevel, standard
// below SkillProLevel, pro from it on.
func SkillTier(level uint16) inventory.Tier {
	switch {
	case level >= SkillProLevel:
		return inventory.TierPro
	case level >= SkillStdLevel:
		return inventory.TierStd
	}
	return inventory.TierPoor
}

// Config configures a Client. The zero value is a client of the GTA San Andreas catalogue
// in an empty world.
type Config struct {
	// World answers what the client's game would compute from its collision world: whether
	// a relayed ray hits the player, and which model a vehicle is. nil: no ray ever hits,
	// and no vehicle is known.
	World World
	// Vehicles is the vehicle catalogue the client's game has (each model's seats and
	// guns: what VehicleFire fires, how far and how fast). nil means
	// inventory.DefaultVehicleTable(), the server's default; the server must have the
	// same. It must pass inventory.NewVehicleCatalog's checks against Table.
	Vehicles *inventory.VehicleTable
	// Table is the weapon catalogue the client's game starts with (structure and
	// properties). nil means inventory.DefaultTable(), the server's default. It must pass
	// inventory.NewCatalog's checks.
	Table *inventory.Table
	// FirstPropertiesRev is the weapon properties revision of Table, named in every shot
	// until the first WeaponProperties arrives (the server's catalogue FirstRevision).
	// Zero is revision 0.
	FirstPropertiesRev uint16
	// Seed seeds the client's only randomness (which death animation of a few equivalent
	// ones it plays). Two clients with the same seed and the same inputs behave the same.
	Seed uint64
	// ReloadTime is how long a reload takes. Zero means DefaultReloadTime; at most
	// MaxConfigDuration.
	ReloadTime time.Duration
	// StealthAnim is the victim's stealth-kill animation. Zero means DefaultStealthAnim;
	// at most MaxConfigDuration.
	StealthAnim time.Duration
	// SpawnSettle is the wait after a revival before acting. Zero means
	// DefaultSpawnSettle; negative means no wait; at most MaxConfigDuration.
	SpawnSettle time.Duration
	// SprayRate is the rounds per second a held continuous weapon spends. Zero means
	// DefaultSprayRate; it must be above inventory.ContinuousSpendRate and at most
	// MaxSprayRate.
	SprayRate int
	// PayloadSize makes Flush coalesce what the client sends in one flush (its frames,
	// shots, reports, pongs and lane datagrams) into bundles of at most this many bytes
	// (transport.Endpoint.SetPayloadSize; the server takes them as if each had come
	// alone). Zero means no coalescing: one datagram per message and per lane datagram.
	// Otherwise transport.MinPayloadSize..lane.MaxMTU.
	PayloadSize int
}

func (cfg *Config) fill() error {
	if cfg.ReloadTime == 0 {
		cfg.ReloadTime = DefaultReloadTime
	}
	if cfg.StealthAnim == 0 {
		cfg.StealthAnim = DefaultStealthAnim
	}
	switch {
	case cfg.SpawnSettle == 0:
		cfg.SpawnSettle = DefaultSpawnSettle
	case cfg.SpawnSettle < 0:
		cfg.SpawnSettle = 0
	}
	if cfg.SprayRate == 0 {
		cfg.SprayRate = DefaultSprayRate
	}
	if cfg.ReloadTime < 0 || cfg.ReloadTime > MaxConfigDuration {
		return fmt.Errorf("%w: ReloadTime %v not in 0..%v", ErrConfig, cfg.ReloadTime, MaxConfigDuration)
	}
	if cfg.StealthAnim < 0 || cfg.StealthAnim > MaxConfigDuration {
		return fmt.Errorf("%w: StealthAnim %v not in 0..%v", ErrConfig, cfg.StealthAnim, MaxConfigDuration)
	}
	if cfg.SpawnSettle > MaxConfigDuration {
		return fmt.Errorf("%w: SpawnSettle %v above %v", ErrConfig, cfg.SpawnSettle, MaxConfigDuration)
	}
	if cfg.SprayRate <= inventory.ContinuousSpendRate || cfg.SprayRate > MaxSprayRate {
		return fmt.Errorf("%w: SprayRate %d not in %d..%d", ErrConfig, cfg.SprayRate,
			inventory.ContinuousSpendRate+1, MaxSprayRate)
	}
	return nil
}

// Client is the honest game client of one player: the client's side of every rule, as a
// pure state machine. It speaks to the server through its own transport.Endpoint
// (Receive, Tick, Flush) and to the world around it through the game-side verbs (Move,
// Fire, MeleeHit, ...), and it never lies: it applies what the server commands in order,
// reports every damage it takes, refuses what the records tell it to refuse, and never
// fires what it does not have.
//
// Time is an argument and only moves forward; the client starts no goroutine, reads no
// clock, and draws randomness only from Config.Seed. A Client is not safe for concurrent
// use: one goroutine drives it (in the simulator, the one that drives the whole match).
type Client struct {
	// The fields are laid out by use: a crowd of clients does not fit the caches, so what
	// Tick, Receive and a relayed frame touch sits together in the first few cache lines,
	// and the large arrays they rarely touch come last.
	cfg      Config
	world    World
	ep       *transport.Endpoint
	handleFn func(wire.Message)
	rng      *rand.Rand
	vehicles *inventory.VehicleCatalog

	now    time.Duration
	closed bool
	reason wire.Reason
	// flushDue is when Flush next has something to send: 0 once the client queued or
	// sent anything, else the lane's NextDeadline as of the last Flush or Receive (laneDue).
	// Flush skips the endpoint before it (a crowd of idle clients would otherwise touch
	// every endpoint and lane each tick). epShared turns the skip off for good once the
	// host took the endpoint (Endpoint): it may queue on it behind the client's back.
	flushDue time.Duration
	epShared bool

	// the connection
	welcomed  bool
	id        wire.PlayerID
	token     uint32
	nextHello time.Duration
	session   uint32 // the Session of this connection's Hello (Welcome must echo it)

	// the life
	spawned     bool
	alive       bool
	epoch       uint16
	health      float32
	armor       float32
	settleUntil time.Duration
	nextRespawn time.Duration
	// the VehicleExplode waiting for DeathReportDelay
	explodePending bool
	explodeDue     time.Duration
	explodeMsg     wire.VehicleExplode
	// the DeathReport waiting for DeathReportDelay
	deathPending bool
	deathDue     time.Duration
	deathMsg     wire.DeathReport

	// the body
	pos    wire.Vec3
	vel    wire.Vec3
	facing float32
	veh    seatState

	// what the client echoes and names
	vitalRev  uint16
	weaponRev uint16
	damageSeq uint16
	propsRev  uint16

	// the weapon store and its use
	store       store
	reloading   bool
	reloadSlot  int8
	reloadUntil time.Duration
	fireHeld    bool
	sprayWeapon uint8
	sprayFrom   time.Duration

	// the numbers of what the client sends
	frameSeq   uint16
	framed     bool
	lastFrame  time.Duration
	shotSeq    uint16
	projSeq    uint16
	vehSyncSeq uint16

	// pending combat
	armedFuses    int // how many of fuses are armed
	openSums      int // how many of sums are open
	stealthing    bool
	stealthBy     wire.PlayerID
	stealthWeapon uint8 // the weapon of the stealth kill that is killing the player
	stealthUntil  time.Duration
	lastGun       time.Duration
	gunUsed       bool
	lastBlow      time.Duration
	blowUsed      bool

	// the others
	tracker teams.Tracker
	remotes remoteTable
	// vcopies is the vehicles the server showed (vehicles.go), at most MaxVehicleCopies;
	// vstreamed is set by the first VehicleShow.
	vcopies   map[uint16]VehicleCopy
	vstreamed bool

	// observability
	counters Counters
	events   ring.Ring[Event]

	// messages reused for sending, so the hot paths do not allocate
	frameMsg  wire.PlayerSync
	vsyncMsg  wire.VehicleSync
	reportMsg wire.DamageReport
	shotMsg   wire.WeaponShot
	vshotMsg  wire.VehicleShot
	pongMsg   wire.Pong

	// the skills and the multipliers
	tiers [numSkills]inventory.Tier
	mult  wire.DamageMultipliers

	// pending combat, by slot
	fuses [MaxFuses]fuse
	sums  [MaxOpenSums]sum

	// the logs
	lives      ring.Ring[Life]
	reportLog  ring.Ring[ReportEntry]
	commandLog ring.Ring[CommandEntry]

	// the large tables
	table   inventory.Table // the game's weapon properties (damage and range follow WeaponProperties)
	lastUse [inventory.NumWeapons]time.Duration
	used    [inventory.NumWeapons]bool
	effects [MaxEffects]effect
	frozen  [1 << 10]uint64 // one bit per vehicle id
}

// New returns a client that has not joined yet: its first Tick sends Hello.
func New(cfg Config) (*Client, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	table := inventory.DefaultTable()
	if cfg.Table != nil {
		table = *cfg.Table
	}
	cat, err := inventory.NewCatalog(inventory.Config{Table: &table, FirstRevision: cfg.FirstPropertiesRev, Vehicles: cfg.Vehicles})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	ep, err := transport.New(transport.Client)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := ep.SetPayloadSize(cfg.PayloadSize); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	world := cfg.World
	if world == nil {
		world = emptyWorld{}
	}
	c := &Client{
		cfg:        cfg,
		world:      world,
		ep:         ep,
		rng:        rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		table:      table,
		vehicles:   cat.Vehicles(),
		id:         wire.NoPlayer,
		propsRev:   cfg.FirstPropertiesRev,
		mult:       wire.DamageMultipliers{Melee: 1, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, PredatorGun: 1},
		veh:        seatState{vehicle: wire.NoVehicle},
		lives:      ring.New[Life](MaxLifeLog),
		reportLog:  ring.New[ReportEntry](MaxReportLog),
		commandLog: ring.New[CommandEntry](MaxCommandLog),
		events:     ring.New[Event](MaxEvents),
		session:    sessionOf(cfg.Seed),
	}
	c.handleFn = c.handle
	return c, nil
}

// clock takes now for an input: it must not be negative nor before a time already seen.
func (c *Client) clock(now time.Duration) error {
	if now < 0 || now < c.now {
		return fmt.Errorf("%w: %v after %v", ErrClock, now, c.now)
	}
	c.now = now
	return nil
}

// Endpoint returns the client's end of the connection (for its lane statistics). The
// client owns it: the host only moves datagrams through Receive and Flush. A host that
// queues on it directly still has it sent: from this call on, every Flush polls the
// endpoint.
func (c *Client) Endpoint() *transport.Endpoint {
	c.epShared, c.flushDue = true, 0
	return c.ep
}

// PlayerID returns the player id the server gave the client in Welcome, and whether it came.
func (c *Client) PlayerID() (wire.PlayerID, bool) { return c.id, c.welcomed }

// Token returns the connection's player_token from Welcome (0 before it).
func (c *Client) Token() uint32 { return c.token }

// Closed reports whether the connection ended, and the reason (of the server's Disconnect,
// or ReasonOverflow/ReasonTimeout when the client's own lane broke, ReasonQuit when the
// client left).
func (c *Client) Closed() (bool, wire.Reason) { return c.closed, c.reason }

// Spawned reports whether the client has had a body since its connect spawn.
func (c *Client) Spawned() bool { return c.spawned }

// Alive reports whether the client's player is alive (as its own game sees it).
func (c *Client) Alive() bool { return c.alive }

// DeathEpoch returns the life the client is on (death_epoch): the generation of its last
// applied RespawnPlayer.
func (c *Client) DeathEpoch() uint16 { return c.epoch }

// Health returns the player's health as its game shows it (0..200).
func (c *Client) Health() float32 { return c.health }

// Armor returns the player's armor as its game shows it (0..200).
func (c *Client) Armor() float32 { return c.armor }

// Position returns where the player's body is. During a World.Trace call it is the
// rewound pose of the shot being traced (rewind's [rewind-to-shooters-view]), and back afterwards.
func (c *Client) Position() wire.Vec3 { return c.pos }

// Velocity returns the player's velocity as its frames carry it (before quantization).
func (c *Client) Velocity() wire.Vec3 { return c.vel }

// Facing returns the player's heading in radians.
func (c *Client) Facing() float32 { return c.facing }

// Vehicle returns the vehicle the player sits in and its seat (wire.NoVehicle on foot).
func (c *Client) Vehicle() (vehicle uint16, seat uint8) {
	if !c.veh.in {
		return wire.NoVehicle, 0
	}
	return c.veh.vehicle, c.veh.seat
}

// VehicleState returns the pose and health of the vehicle the player sits in, as the
// client's game has it, and false on foot.
func (c *Client) VehicleState() (VehiclePose, float32, bool) {
	if !c.veh.in {
		return VehiclePose{}, 0, false
	}
	return c.veh.pose, c.veh.health, true
}

// Weapons is the readback of the client's weapon store, in the shape of the server's
// inventory readback (inventory.Inventory.Slots and Held), so the two compare directly.
type Weapons struct {
	// Slots are the 13 weapon slots.
	Slots [inventory.NumSlots]inventory.Slot
	// Held is the held weapon (0: fists, or the brass knuckles of slot 0).
	Held uint8
}

// Weapons returns the client's weapon store.
func (c *Client) Weapons() Weapons {
	return Weapons{Slots: c.store.slots, Held: c.store.held()}
}

// Revisions are the numbers the client echoes and names, as its next frame will carry them.
type Revisions struct {
	// Vital is vital_rev: the revision of the last health or armor command taken
	// (applied, or dropped because the player was dead).
	Vital uint16
	// Weapon is weapon_rev: the revision of the last weapon command applied successfully.
	Weapon uint16
	// DamageSeq is damage_seq: the number of the last damage report created (0 before the
	// first).
	DamageSeq uint16
	// Properties is the WeaponProperties revision the client's shots name.
	Properties uint16
	// Multipliers is the revision of the damage multiplier table applied (0: the default).
	Multipliers uint16
	// FrameSeq is the Seq of the last frame sent (0 before the first).
	FrameSeq uint16
	// ShotSeq is the number of the last shot sent (WeaponShot and VehicleShot share it).
	ShotSeq uint16
}

// Revisions returns the numbers the client echoes and names.
func (c *Client) Revisions() Revisions {
	return Revisions{
		Vital: c.vitalRev, Weapon: c.weaponRev, DamageSeq: c.damageSeq, Properties: c.propsRev,
		Multipliers: c.mult.Rev, FrameSeq: c.frameSeq, ShotSeq: c.shotSeq,
	}
}

// WeaponRev returns weapon_rev, Revisions().Weapon, without reading the rest: the match
// reads it every tick of every client, and Revisions reaches the multiplier table's
// revision, a cache line of its own far down the client.
func (c *Client) WeaponRev() uint16 { return c.weaponRev }

// Multipliers returns the damage multiplier table the client applies (all 1 and revision
// 0 before the first DamageMultipliers).
func (c *Client) Multipliers() wire.DamageMultipliers { return c.mult }

// Properties returns the client's current row of weapon in its weapon table (damage and
// range as the last WeaponProperties set them), and false for an id outside the table.
func (c *Client) Properties(weapon uint8) (inventory.Weapon, bool) {
	if int(weapon) >= inventory.NumWeapons {
		return inventory.Weapon{}, false
	}
	return c.table[weapon], true
}

// Teammate reports whether player is this client's teammate by the newest stamp received
// from it (teams' [teammate-refused-by-victim]), and the stamp; false and the zero stamp when none was received.
func (c *Client) Teammate(player wire.PlayerID) (bool, wire.Stamp) {
	s, ok := c.tracker.Newest(player)
	if !ok {
		return false, wire.Stamp{}
	}
	return s.Teammate, wire.Stamp{Teammate: s.Teammate, Rev: s.Rev}
}

// Counters counts what the client did, for the simulator's measurements. They only grow.
type Counters struct {
	Hellos        int // Hello datagrams sent
	StaleWelcomes int // Welcomes that echoed another connection's Session, ignored
	// StaleDisconnects counts Disconnects before the Welcome that were no refusal of the
	// Hello (another connection's end), ignored.
	StaleDisconnects int
	Frames           int // PlayerSync frames sent
	VehicleFrames    int // VehicleSync frames sent
	Reports          int // damage reports created (hits and sums, lethal included)
	LethalReports    int // of which lethal, sent on the lane
	SumReports       int // of which sums of fire, spray or environmental damage
	DeathReports     int // DeathReports queued
	Shots            int // WeaponShots and VehicleShots sent
	Projectiles      int // ProjectileLaunches sent
	Detonations      int // Detonations sent
	Blows            int // melee blows struck (nothing on the wire: the victim reports them)
	StealthKills     int // StealthKill claims queued
	Refusals         int // actions the honest client refused itself (any ActVerdict but Acted)

	HitsApplied         int // damage applied (per report: a shotgun's pellets count one each)
	HitsRefusedTeammate int // damage refused as a teammate's
	HitsZeroMultiplier  int // damage refused by a zero multiplier
	HitsMissed          int // relayed shots and blasts that did not reach the player
	HitsIgnored         int // damage while dead or unspawned

	Deaths          int // deaths of the player
	Spawns          int // revivals (the connect spawn included)
	Respawns        int // of which after a death
	RespawnRequests int // RespawnRequests queued
	RespawnsIgnored int // RespawnPlayers ShouldRespawn turned down (repeated grants)

	CommandsApplied int // health, armor and weapon commands applied
	CommandsDropped int // health and armor commands dropped because the player was dead
	CommandsFailed  int // weapon commands the game's rules refused (no echo)
	VitalCommands   int // health and armor commands received
	WeaponCommands  int // weapon commands received

	Pongs         int // Pong answers to the server's Ping
	Malformed     int // datagrams the transport refused (counted per Receive error)
	SendErrors    int // messages the transport refused to send (outbox full, lane cap)
	EdgesApplied  int // PlayerWasted / PlayerSpawned applied to a copy
	EdgesIgnored  int // edges a copy turned down (other token, old life, duplicate, unknown)
	FramesApplied int // relayed frames accepted by a copy
	FramesDropped int // relayed frames a copy dropped (other life, below the barrier, unknown)
	Shows         int // PlayerShows applied
	Hides         int // PlayerHides applied

	VehicleShows         int // VehicleShows applied (a copy built or rebuilt)
	VehicleHides         int // VehicleHides that dropped a copy
	VehicleShowsDropped  int // VehicleShows beyond MaxVehicleCopies
	VehicleFramesDropped int // relayed vehicle frames dropped (no copy, below the barrier, old)
}

// Counters returns the client's counters.
func (c *Client) Counters() Counters { return c.counters }

// Event is something that happened to the player that the world around it must follow
// (see EventKind). Read them with PopEvent.
type Event struct {
	// Kind is what happened.
	Kind EventKind
	// At is the client's time of the event; Epoch the life it happened in.
	At    time.Duration
	Epoch uint16
	// Position and Facing are where the player was (for a spawn or a teleport: where it
	// is now).
	Position wire.Vec3
	Facing   float32
	// Vehicle is the vehicle involved, wire.NoVehicle if none.
	Vehicle uint16
	// Attacker is the player behind it (the killer, the explosion's author), wire.NoPlayer
	// if none; Weapon the weapon or cause.
	Attacker wire.PlayerID
	Weapon   uint8
}

// String returns a stable text form.
func (e Event) String() string {
	return fmt.Sprintf("%v at %v life %d", e.Kind, e.At, e.Epoch)
}

// PopEvent returns the oldest event not yet popped. At most MaxEvents wait; beyond that the
// oldest is dropped (EventsDropped counts them).
func (c *Client) PopEvent() (Event, bool) { return c.events.Pop() }

// EventsDropped returns how many events were dropped unread.
func (c *Client) EventsDropped() uint64 { return c.events.Dropped() }

func (c *Client) event(e Event) {
	e.At, e.Epoch = c.now, c.epoch
	c.events.Push(e)
}

// Life is one life of the player as its client lived it: the per-life log the simulator
// compares with the server's (lifecycle's and vitals') view.
type Life struct {
	// Epoch is the life's death_epoch.
	Epoch uint16
	// SpawnedAt is when the client applied its RespawnPlayer; Point where.
	SpawnedAt time.Duration
	Point     wire.Vec3
	// Died reports that the life ended; DiedAt when, Cause the means (weapon or cause id),
	// Killer the client's belief (NoPlayer for none), Pose the death animation reported.
	Died   bool
	DiedAt time.Duration
	Cause  uint8
	Killer wire.PlayerID
	Pose   lifecycle.Pose
	// Lethal is the DamageSeq of the lethal report sent ahead of the DeathReport (0 for a
	// death without one: set_health(0), a stealth kill).
	Lethal uint16
	// Reports counts the damage reports created in the life; Loss their summed loss.
	Reports int
	Loss    float32
	// Refused counts damage refused as a teammate's in the life.
	Refused int
	// Shots counts the shots the life fired.
	Shots int
}

// AppendLives appends the per-life log, oldest first, to dst. At most MaxLifeLog lives are
// kept; LivesDropped counts the ones dropped.
func (c *Client) AppendLives(dst []Life) []Life { return c.lives.AppendTo(dst) }

// LivesDropped returns how many lives the log dropped.
func (c *Client) LivesDropped() uint64 { return c.lives.Dropped() }

func (c *Client) life() *Life { return c.lives.Last() }

// ReportEntry is one damage report as the client created it: for the race measurement of
// a report created before a health command and arriving after it (vitals' [health-revision]).
type ReportEntry struct {
	// At is the moment the client created the report.
	At time.Duration
	// DamageSeq is its number, VitalRev the health revision it echoed.
	DamageSeq uint16
	VitalRev  uint16
	// Epoch is the life it was created in.
	Epoch uint16
	// Attacker, Weapon and Ref as sent; Loss the claimed loss; HealthAfter what was left.
	Attacker    wire.PlayerID
	Weapon      uint8
	Ref         wire.Ref
	Loss        float32
	HealthAfter float32
	// Lethal: it went on the lane ahead of the DeathReport; Sum: a sum of fire, spray or
	// environmental damage.
	Lethal bool
	Sum    bool
}

// AppendReportLog appends the report log, oldest first, to dst. At most MaxReportLog
// reports are kept; ReportLogDropped counts the ones dropped.
func (c *Client) AppendReportLog(dst []ReportEntry) []ReportEntry { return c.reportLog.AppendTo(dst) }

// ReportLogDropped returns how many reports the log dropped.
func (c *Client) ReportLogDropped() uint64 { return c.reportLog.Dropped() }

// CommandEntry is one health or armor command as the client took it.
type CommandEntry struct {
	// At is the moment the client applied (or dropped) it.
	At time.Duration
	// Rev is the command's revision; Kind which command (wire.IDSetHealth, IDSetArmor,
	// IDGiveHealth, IDGiveArmor).
	Rev  uint16
	Kind wire.ID
	// Value is the value set or the amount added; Max the ceiling of an add.
	Value, Max float32
	// Dropped: the player was dead, the command was dropped and only its revision taken.
	Dropped bool
	// Health and Armor are the player's vitals right after it.
	Health, Armor float32
}

// AppendCommandLog appends the command log, oldest first, to dst. At most MaxCommandLog
// commands are kept; CommandLogDropped counts the ones dropped.
func (c *Client) AppendCommandLog(dst []CommandEntry) []CommandEntry {
	return c.commandLog.AppendTo(dst)
}

// CommandLogDropped returns how many commands the log dropped.
func (c *Client) CommandLogDropped() uint64 { return c.commandLog.Dropped() }

// sessionOf is the Session a client of seed announces in its Hello: a mix of the seed
// (splitmix64), never 0, drawn apart from the client's game randomness so that it changes
// nothing else the client does.
func sessionOf(seed uint64) uint32 {
	z := seed + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return uint32(z) | 1
}

// Session returns the Session of this connection's Hello.
func (c *Client) Session() uint32 { return c.session }
