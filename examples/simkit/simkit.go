package simkit

import (
	"errors"
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/match"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// The weapons every player holds at each spawn, unless Config.Server names its own
// loadout (match.Loadout).
const (
	WeaponKnife    uint8 = 4
	WeaponGrenade  uint8 = 16
	WeaponDeagle   uint8 = 24
	WeaponShotgun  uint8 = 25
	WeaponM4       uint8 = 31
	WeaponSpraycan uint8 = 41
)

// The kit's clocks and places.
const (
	// DefaultGamemodeEvery is how often Config.Gamemode runs when Config.GamemodeEvery is 0.
	DefaultGamemodeEvery = time.Second
	// SpawnWait is the most simulated time Start waits for every player to join, spawn and
	// be counted alive by the server.
	SpawnWait = 10 * time.Second
	// Spacing is the distance between two neighbours of the line Start places the players
	// on (player i at X = Spacing*i on the ground).
	Spacing = 20
	// Ground is the height of the arena's ground.
	Ground = match.Ground
)

// Errors of the kit.
var (
	// ErrStarted is returned by Join after the world started.
	ErrStarted = errors.New("simkit: the world has started; join before the first Advance")
	// ErrFewPlayers is returned by Start with fewer than two players joined.
	ErrFewPlayers = errors.New("simkit: a world needs at least two players")
	// ErrNotStarted is returned by a readback before the world started.
	ErrNotStarted = errors.New("simkit: the world has not started")
	// ErrFinished is returned by every verb after Report.
	ErrFinished = errors.New("simkit: the match is finished")
	// ErrNotSeen is returned by a verb aimed at a player the actor's client does not see.
	ErrNotSeen = errors.New("simkit: the target is not seen by the actor's client")
	// ErrRefused is returned when the honest client refuses an action itself (no ammo,
	// too soon, dead, ...); the client's verdict is in the message.
	ErrRefused = errors.New("simkit: the honest client refused the action")
	// ErrNoVehicle is returned for a vehicle the arena does not have.
	ErrNoVehicle = errors.New("simkit: no such vehicle")
)

// Gamemode is a gamemode's rule, called from the simulated clock every
// Config.GamemodeEvery once the world has started (never after Report). It commands the
// server through k.Server() at virtual time now.
type Gamemode func(k *Kit, now time.Duration)

// Config describes a kit's world. The zero value is a world of one car, every player on a
// team of its own, the match's loadout, no gamemode.
type Config struct {
	// Seed seeds every random draw: the network's delays and losses, the clients.
	Seed uint64
	// Server is the reference server's configuration; its zero MaxPlayers becomes the
	// number of players joined, its zero MaxVehicles max(Vehicles, 1), its nil Loadout
	// match.Loadout().
	Server refserver.Config
	// Vehicles is the number of cars in the arena (default 1; they stand around the
	// arena's centre, see Kit.Vehicle).
	Vehicles int
	// Teams is the number of teams, friendly fire off; player i joins team 1+i%Teams.
	// Default: every player on a team of its own (up to 8 teams).
	Teams int
	// Gamemode, when set, runs every GamemodeEvery (default DefaultGamemodeEvery).
	Gamemode      Gamemode
	GamemodeEvery time.Duration
	// OnEvent, when set, sees each server event as the kit drains it, before Events does.
	OnEvent func(k *Kit, e refserver.Event)
	// Settle is the quiet time Report lets pass before it compares every honest player's
	// server state with its client's (default 12 s, at least 5 s).
	Settle time.Duration
}

// Link is a player's network path to the server.
type Link struct {
	// RTT is the round-trip time (at most match.MaxRTT).
	RTT time.Duration
	// Jitter is the width of the uniform extra one-way delay of each datagram.
	Jitter time.Duration
	// Loss is the probability that a datagram is lost, each way (at most 0.5).
	Loss float64
}

// Kit is a simulated world a test builds, drives and asserts on: the reference server,
// one honest client per joined player (or a cheater's, see JoinCheater) on a simulated
// network, and the test's gamemode. Everything runs on a virtual clock that only Advance
// moves, seeded from Config.Seed: the same test gives the same result, with no wall-clock
// time and no goroutine.
//
// The life of a kit: New, Join each player, then Advance (the first one starts the world:
// see Start), the players' verbs and the server's commands in any order, and Report at
// the end. A Kit is not safe for concurrent use.
type Kit struct {
	cfg      Config
	players  []*Player
	raws     []*Raw
	m        *match.Match
	events   []refserver.Event
	started  bool
	startErr error // what Start returned; every later call returns it again
	finished bool
	report   match.Report
}

// New returns an empty world described by cfg.
func New(cfg Config) *Kit { return &Kit{cfg: cfg} }

// Join adds an honest player with its own link. Players join before the world starts.
func (k *Kit) Join(name string, link Link) (*Player, error) {
	return k.JoinCheater(name, link, match.Honest)
}

// JoinCheater adds a player that cheats with profile (one of match's Cheat profiles,
// match.Honest for none). A cheater plays through the same honest client, whose
// datagrams its cheat rewrites or adds to; the cheats act and are measured on their own
// clock, and what each gained is in Report().Cheaters (the promise is 0). Send health and
// armor commands through Kit.SetHealth, AddHealth, SetArmor and AddArmor when a cheater
// plays, so that the measures know a rise of its ledger was the gamemode's. The profiles
// that need the match's bots or gamemode script to act (a scripted command, a scripted
// car) do only what the test makes the player do.
func (k *Kit) JoinCheater(name string, link Link, profile match.Cheat) (*Player, error) {
	if k.started {
		return nil, ErrStarted
	}
	p := &Player{k: k, idx: len(k.players), name: name, link: link, cheat: profile}
	k.players = append(k.players, p)
	return p, nil
}

// Players returns the players in the order they joined (player i has PlayerID i).
func (k *Kit) Players() []*Player { return append([]*Player(nil), k.players...) }

// Start builds the world from the players joined so far and runs it until every one of
// them has joined, spawned and is counted alive by the server (at most SpawnWait); then
// it places them on a line Spacing metres apart (player i at X = Spacing*i) and lets
// their frames reach everyone. The first Advance calls it; calling it again returns what
// the first call returned (a world that failed to start stays failed).
func (k *Kit) Start() error {
	if k.started {
		return k.startErr
	}
	if len(k.players) < 2 { // players may still join
		return fmt.Errorf("%w: %d joined", ErrFewPlayers, len(k.players))
	}
	k.started = true
	k.startErr = k.start()
	return k.startErr
}

func (k *Kit) start() error {
	lineup := make([]match.Seat, len(k.players))
	for i, p := range k.players {
		lineup[i] = match.Seat{RTT: p.link.RTT, Jitter: p.link.Jitter, Loss: p.link.Loss, Cheat: p.cheat}
	}
	teams := k.cfg.Teams
	if teams == 0 {
		teams = min(len(k.players), 8)
	}
	vehicles := k.cfg.Vehicles
	if vehicles == 0 {
		vehicles = 1
	}
	server := k.cfg.Server
	if server.MaxPlayers == 0 {
		server.MaxPlayers = len(k.players) + len(k.raws)
	}
	m, err := match.New(match.Config{
		Seed: k.cfg.Seed, Manual: true, Lineup: lineup, Server: &server,
		Teams: teams, Vehicles: vehicles, Settle: k.cfg.Settle, Duration: 24 * time.Hour,
	})
	if err != nil {
		return err
	}
	k.m = m
	m.OnEvent = func(e refserver.Event) {
		if k.cfg.OnEvent != nil {
			k.cfg.OnEvent(k, e)
		}
		k.events = append(k.events, e)
	}
	if err := m.Start(); err != nil {
		return err
	}
	if err := k.startRaws(); err != nil {
		return err
	}
	for !k.allAlive() {
		if m.Now() >= SpawnWait {
			return fmt.Errorf("simkit: not every player spawned within %v", SpawnWait)
		}
		m.RunUntil(m.Now() + 100*time.Millisecond)
	}
	for _, p := range k.players {
		if err := p.MoveTo(wire.Vec3{X: float32(Spacing * p.idx), Z: Ground}); err != nil {
			return err
		}
	}
	m.RunUntil(m.Now() + 600*time.Millisecond)
	if k.hasCheaters() { // the cheats act and are measured on their own clock
		m.Every(m.Now()+5*time.Millisecond, match.ThinkInterval, func(now time.Duration) bool {
			if k.finished {
				return false
			}
			m.CheatTick(now)
			return true
		})
	}
	if k.cfg.Gamemode != nil {
		every := k.cfg.GamemodeEvery
		if every <= 0 {
			every = DefaultGamemodeEvery
		}
		m.Every(m.Now()+every, every, func(now time.Duration) bool {
			if k.finished {
				return false
			}
			k.cfg.Gamemode(k, now)
			return true
		})
	}
	return nil
}

func (k *Kit) hasCheaters() bool {
	for _, p := range k.players {
		if p.cheat != match.Honest {
			return true
		}
	}
	return false
}

// SetHealth is the gamemode's set_health command to p at k.Now(). The kit's four health
// and armor commands go to the server's facade like k.Server()'s, and the cheat measures
// learn of them (a command may raise a cheater's ledger without the cheat gaining it):
// send health and armor commands through them whenever a cheater plays.
func (k *Kit) SetHealth(p *Player, value float32) error {
	return k.vital(p, vitals.CommandSetHealth, value, 0)
}

// SetArmor is the gamemode's set_armor command to p at k.Now() (see SetHealth).
func (k *Kit) SetArmor(p *Player, value float32) error {
	return k.vital(p, vitals.CommandSetArmor, value, 0)
}

// AddHealth is the gamemode's add_health command to p at k.Now(): amount more health, up
// to max (see SetHealth).
func (k *Kit) AddHealth(p *Player, amount, max float32) error {
	return k.vital(p, vitals.CommandAddHealth, amount, max)
}

// AddArmor is the gamemode's add_armor command to p at k.Now() (see AddHealth).
func (k *Kit) AddArmor(p *Player, amount, max float32) error {
	return k.vital(p, vitals.CommandAddArmor, amount, max)
}

func (k *Kit) vital(p *Player, kind vitals.CommandKind, value, max float32) error {
	if err := k.ready(); err != nil {
		return err
	}
	return k.m.Vital(k.m.Now(), p.idx, kind, value, max)
}

func (k *Kit) allAlive() bool {
	for _, p := range k.players {
		ph, err := k.m.Server().Phase(p.ID())
		if err != nil || ph != lifecycle.PhaseAlive || !k.m.Client(p.idx).Alive() {
			return false
		}
	}
	return true
}

func (k *Kit) ready() error {
	if k.finished {
		return ErrFinished
	}
	return k.Start()
}

// Advance moves the virtual clock d forward: the network delivers, the server and the
// clients tick and flush every 10 ms, the gamemode runs when due.
func (k *Kit) Advance(d time.Duration) error {
	if err := k.ready(); err != nil {
		return err
	}
	k.m.RunUntil(k.m.Now() + d)
	return nil
}

// Now returns the virtual time (0 before Start).
func (k *Kit) Now() time.Duration {
	if k.m == nil {
		return 0
	}
	return k.m.Now()
}

// Server returns the reference server, for the gamemode's commands (at k.Now()) and the
// readbacks; nil before Start.
func (k *Kit) Server() *refserver.World {
	if k.m == nil {
		return nil
	}
	return k.m.Server()
}

// Match returns the manual match under the kit (nil before Start), for what the kit does
// not wrap.
func (k *Kit) Match() *match.Match { return k.m }

// Events returns every server event so far, in order. The slice is the kit's: do not
// modify it.
func (k *Kit) Events() []refserver.Event { return k.events }

// EventsOf returns the server events of kind so far, in order.
func (k *Kit) EventsOf(kind refserver.EventKind) []refserver.Event {
	var out []refserver.Event
	for _, e := range k.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// Vehicle returns car id of the arena as the next driver's game finds it.
func (k *Kit) Vehicle(id uint16) (client.VehiclePose, float32, bool) {
	if k.m == nil {
		return client.VehiclePose{}, 0, false
	}
	return k.m.Vehicle(id)
}

// Report ends play (the gamemode stops, the players stand still), lets the world settle
// for Config.Settle, compares every honest player's server state with its client's, and
// returns the match report: HonestWronged counts every way an honest player was wronged
// (0 is the promise), Cheaters what each cheater gained. Later calls return the same
// report; every verb afterwards returns ErrFinished.
func (k *Kit) Report() (match.Report, error) {
	if k.finished {
		return k.report, nil
	}
	if err := k.Start(); err != nil {
		return match.Report{}, err
	}
	k.finished = true
	r, err := k.m.Finish()
	k.report = r
	return r, err
}

// Player is a joined player, driven through its own client.
type Player struct {
	k     *Kit
	idx   int
	name  string
	link  Link
	cheat match.Cheat
}

// ID returns the player's id on the server.
func (p *Player) ID() refserver.PlayerID { return refserver.PlayerID(p.idx) }

// Name returns the name it joined with.
func (p *Player) Name() string { return p.name }

// Link returns its link to the server.
func (p *Player) Link() Link { return p.link }

// Cheat returns its cheat profile (match.Honest for an honest player).
func (p *Player) Cheat() match.Cheat { return p.cheat }

// Client returns its client (nil before Start), for what the kit does not wrap.
func (p *Player) Client() *client.Client {
	if p.k.m == nil {
		return nil
	}
	return p.k.m.Client(p.idx)
}

// MoveTo walks the player to pos (standing, facing north); its next frames show it there.
func (p *Player) MoveTo(pos wire.Vec3) error {
	if err := p.k.ready(); err != nil {
		return err
	}
	return p.Client().Move(p.k.Now(), pos, wire.Vec3{}, 0)
}

// Position returns where its client has it (zero before Start).
func (p *Player) Position() wire.Vec3 {
	if c := p.Client(); c != nil {
		return c.Position()
	}
	return wire.Vec3{}
}

func acted(a client.Action, err error) (uint16, error) {
	if err != nil {
		return 0, err
	}
	if a.Verdict != client.Acted {
		return 0, fmt.Errorf("%w: %v", ErrRefused, a)
	}
	return a.Seq, nil
}

// Shoot fires weapon once at where the player's client shows target, and returns the
// shot's number. The arena's rays always hit: the target's client takes the hit when the
// shot reaches it, and reports it.
func (p *Player) Shoot(target *Player, weapon uint8) (uint16, error) {
	if err := p.k.ready(); err != nil {
		return 0, err
	}
	c := p.Client()
	r, ok := c.Remote(target.ID())
	if !ok {
		return 0, ErrNotSeen
	}
	origin := c.Position()
	origin.Z += 0.6
	at := r.Position
	at.Z += 0.3
	return acted(c.Fire(p.k.Now(), weapon, wire.HitPlayer, uint16(target.ID()), origin, at))
}

// Throw throws weapon (a grenade) at where its client shows target, to explode after
// fuse; it returns the projectile's number.
func (p *Player) Throw(target *Player, weapon uint8, fuse time.Duration) (uint16, error) {
	if err := p.k.ready(); err != nil {
		return 0, err
	}
	c := p.Client()
	r, ok := c.Remote(target.ID())
	if !ok {
		return 0, ErrNotSeen
	}
	eye := c.Position()
	eye.Z += 0.6
	s := float32(1 / fuse.Seconds())
	vel := wire.Vec3{X: (r.Position.X - eye.X) * s, Y: (r.Position.Y - eye.Y) * s, Z: (r.Position.Z - eye.Z) * s}
	return acted(c.Throw(p.k.Now(), weapon, eye, vel, r.Position, fuse))
}

// Strike swings melee weapon (WeaponKnife, or 0 for a fist) at target, who must stand
// within match.MeleeReach: the target's game lands the blow when the swing reaches it and
// reports it.
func (p *Player) Strike(target *Player, weapon uint8) error {
	if err := p.k.ready(); err != nil {
		return err
	}
	_, err := acted(p.k.m.Strike(p.idx, target.idx, weapon))
	return err
}

// EnterVehicle seats the player in seat (0 drives) of car vehicle, which it must stand
// next to: the server refuses a seat farther than refserver.EntryReach from the position
// it last accepted from the player, so MoveTo beside the car (see Kit.Vehicle) and
// Advance a round trip first. A refused entry counts in Report().HonestWronged.
func (p *Player) EnterVehicle(vehicle uint16, seat uint8) error {
	if err := p.k.ready(); err != nil {
		return err
	}
	pose, health, ok := p.k.m.Vehicle(vehicle)
	if !ok {
		return ErrNoVehicle
	}
	return p.Client().EnterVehicle(p.k.Now(), vehicle, seat, pose, health)
}

// Beside returns a place on the ground next to car vehicle, from where a player may
// enter it (ok false for no such car).
func (k *Kit) Beside(vehicle uint16) (wire.Vec3, bool) {
	pose, _, ok := k.Vehicle(vehicle)
	if !ok {
		return wire.Vec3{}, false
	}
	pos := pose.Position
	pos.X += 1.5
	return pos, true
}

// LeaveVehicle gets the player out of its vehicle.
func (p *Player) LeaveVehicle() error {
	if err := p.k.ready(); err != nil {
		return err
	}
	return p.Client().LeaveVehicle(p.k.Now())
}

// Fall makes the player's game take amount of fall damage; its client reports it.
func (p *Player) Fall(amount float32) error {
	if err := p.k.ready(); err != nil {
		return err
	}
	_, err := p.Client().Fall(p.k.Now(), amount)
	return err
}

// Die makes the player fall to its death: its client reports the fall and its death,
// then asks for a respawn on its own, which the server grants after its RespawnDelay.
func (p *Player) Die() error { return p.Fall(vitals.MaxVitalSet + 1) }

// Ledger returns the server's ledger of the player: the health and armor the server
// holds it at.
func (p *Player) Ledger() (vitals.Vitals, error) {
	if p.k.m == nil {
		return vitals.Vitals{}, ErrNotStarted
	}
	return p.k.m.Server().Vitals(p.ID())
}

// Own returns the health and armor its own client (its game) has (zero before Start).
func (p *Player) Own() vitals.Vitals {
	c := p.Client()
	if c == nil {
		return vitals.Vitals{}
	}
	return vitals.Vitals{Health: c.Health(), Armor: c.Armor()}
}

// Store is a player's weapons, on the server and on its client.
type Store struct {
	Server     [inventory.NumSlots]inventory.Slot
	ServerHeld uint8
	Client     client.Weapons
}

// Store returns its weapons on the server and on its client.
func (p *Player) Store() (Store, error) {
	if p.k.m == nil {
		return Store{}, ErrNotStarted
	}
	srv := p.k.Server()
	slots, err := srv.Weapons(p.ID())
	if err != nil {
		return Store{}, err
	}
	held, err := srv.HeldWeapon(p.ID())
	if err != nil {
		return Store{}, err
	}
	return Store{Server: slots, ServerHeld: held, Client: p.Client().Weapons()}, nil
}

// Life is a player's life, on the server and on its client.
type Life struct {
	// Phase and Gen are the server's lifecycle phase and life (death epoch) of it.
	Phase lifecycle.Phase
	Gen   uint16
	// ClientAlive and ClientGen are its client's.
	ClientAlive bool
	ClientGen   uint16
}

// Life returns its life on the server and on its client.
func (p *Player) Life() (Life, error) {
	if p.k.m == nil {
		return Life{}, ErrNotStarted
	}
	srv := p.k.Server()
	ph, err := srv.Phase(p.ID())
	if err != nil {
		return Life{}, err
	}
	gen, err := srv.Generation(p.ID())
	if err != nil {
		return Life{}, err
	}
	c := p.Client()
	return Life{Phase: ph, Gen: gen, ClientAlive: c.Alive(), ClientGen: c.DeathEpoch()}, nil
}
