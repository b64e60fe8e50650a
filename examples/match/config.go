package match

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/replay"
)

// Config describes one simulated match. The zero value of a field means the default named
// in its comment; Default returns the project's reference match.
type Config struct {
	// Seed seeds every random draw of the match: the network, the bots, the gamemode.
	Seed uint64
	// Players is the number of honest players (default 16, at most MaxPlayers).
	Players int
	// Duration is the simulated time of play (default 10 minutes). A settling period
	// (Settle) follows, without damage or commands, before the final comparison.
	Duration time.Duration
	// RTTMin and RTTMax spread the players' round-trip times evenly between them
	// (default 0 and 400 ms). Equal values give every player the same round trip.
	RTTMin, RTTMax time.Duration
	// Jitter is the width of the uniform extra one-way delay of each datagram (default
	// 30 ms; NoJitter for none).
	Jitter time.Duration
	// Loss is the probability that a datagram is lost, each way (default 0.05; NoLoss for
	// none).
	Loss float64
	// Teams is the number of teams, friendly fire off (default 2).
	Teams int
	// Vehicles is the number of cars in the arena (default 4).
	Vehicles int
	// World is the side of the square map in metres (default 2*ArenaHalf, the arena; at
	// most MaxWorld). On a map larger than the arena the spawn points and the cars spread
	// over the whole map, and each bot roams within Roam of where it stands, so the
	// players meet and part across the server's stream distance.
	World float64
	// Settle is the quiet time after play before the final comparison (default 12 s).
	Settle time.Duration
	// Race turns the match into the measurement of commands racing damage ([race-measurement]):
	// every player is under fire, and the gamemode sends RaceCommands set_health
	// commands to the players under fire instead of its usual mix.
	Race bool
	// RaceCommands is the number of set_health commands of a race (default 80).
	RaceCommands int
	// Cheaters is how many of the players cheat: the last Cheaters players, each with one
	// of the cheats in turn (CheatSkipHits, CheatHealthFrames, CheatFrozenAmmo,
	// CheatRevive, CheatSpam, CheatVehicleGod, CheatStaleEcho, CheatCarryOver,
	// CheatTakenWeapon, CheatFarOrigin, CheatVehicleGuns, CheatSeatSteal, CheatMutator,
	// CheatFlood). Default 0: the
	// reference match is all honest. The honest
	// measurements count only the honest players; Report.Cheaters says what each cheat
	// gained.
	Cheaters int
	// Manual turns the bots, the gamemode's script and the arena's own physics off, and
	// makes every aimed ray hit: a scenario test drives the clients and the server's
	// facade itself (players still join, spawn and send their frames).
	Manual bool
	// Gamemode, when set, builds a gamemode of the host's on the match's server at Start;
	// it replaces the match's own script (commands, effects, stages, team assignment,
	// spawn points): the match still builds the arena (its cars) and the server's loadout.
	// Nil: the match's own gamemode, the one the reference measurements measure. Not with
	// Race. The honest measurements stay: a host's gamemode must not wrong an honest
	// player either. It gets the match's server: the World through its recorder (which records only
	// with Record set; a Lua gamemode takes it as its luamode.World).
	Gamemode func(*replay.Recorder) (Gamemode, error) `json:"-"`
	// Lineup, when set, describes the players one by one: their number is len(Lineup),
	// and each Seat's link and cheat replace RTTMin/RTTMax, Jitter, Loss and Cheaters for
	// that player (a Seat's zero Jitter and Loss mean none). Cheaters must then be 0;
	// RTTMin/RTTMax, Jitter and Loss become the lineup's range and largest values.
	Lineup []Seat
	// Server, when set, is the reference server's configuration; its zero MaxPlayers
	// becomes Players, its zero MaxVehicles max(Vehicles, 1), its nil Loadout the match's
	// loadout (four guns, a knife, grenades and a spray can).
	Server *refserver.Config
	// ClientPayload is the honest clients' client.Config.PayloadSize: zero (the
	// reference) sends each message and lane datagram in a datagram of its own;
	// transport.MinPayloadSize..lane.MaxMTU coalesces what each honest client sends in
	// one flush into bundles of at most that many bytes (a lost bundle then loses a
	// frame, its shots and its reports together). Cheaters never coalesce: their
	// profiles rewrite the messages one datagram at a time.
	ClientPayload int
	// Record, when set, receives the record of the server's inputs and outputs
	// (examples/replay): every datagram it received, its ticks, flushes and drains, and
	// every gamemode command, for `go run ./examples/sim -replay FILE`. Finish writes out
	// what is buffered. Nil: nothing is recorded.
	Record io.Writer `json:"-"`
}

// Seat is one player of a Config.Lineup: its link to the server and its cheat.
type Seat struct {
	// RTT is its round-trip time to the server (at most MaxRTT).
	RTT time.Duration
	// Jitter is the width of the uniform extra one-way delay of each of its datagrams.
	Jitter time.Duration
	// Loss is the probability that one of its datagrams is lost, each way.
	Loss float64
	// Cheat is what it cheats with (Honest for an honest player).
	Cheat Cheat
}

// The limits and sentinels of a Config.
const (
	// MaxPlayers is the most players a match simulates.
	MaxPlayers = refserver.DefaultMaxPlayers
	// MaxWorld is the largest Config.World, in metres.
	MaxWorld = 20000
	// MaxRTT is the largest round-trip time a match accepts.
	MaxRTT = 2 * time.Second
	// NoJitter asks for a network without jitter (the zero Jitter means the default).
	NoJitter time.Duration = -1
	// NoLoss asks for a network without loss (the zero Loss means the default).
	NoLoss = -1.0
	// NoDelay, as RTTMax, asks for a network without delay: every round trip 0 (the zero
	// RTTMin and RTTMax mean the default spread).
	NoDelay time.Duration = -1
)

// ErrConfig is returned for a Config out of range.
var ErrConfig = errors.New("match: config out of range")

// Default returns the reference match of the README: 16 honest players, 2 teams with
// friendly fire off, round-trip times spread from 0 to 400 ms, 30 ms of jitter, 5 % loss,
// 10 simulated minutes.
func Default() Config {
	c, _ := Config{Seed: 1}.withDefaults()
	return c
}

func (c Config) withDefaults() (Config, error) {
	if len(c.Lineup) > 0 {
		c.Players = len(c.Lineup)
	}
	if c.Players == 0 {
		c.Players = 16
	}
	if c.Duration == 0 {
		c.Duration = 10 * time.Minute
	}
	switch {
	case c.RTTMax == NoDelay:
		c.RTTMin, c.RTTMax = 0, 0
	case c.RTTMin == 0 && c.RTTMax == 0:
		c.RTTMax = 400 * time.Millisecond
	}
	switch {
	case c.Jitter == NoJitter:
		c.Jitter = 0
	case c.Jitter == 0:
		c.Jitter = 30 * time.Millisecond
	}
	switch {
	case c.Loss == NoLoss:
		c.Loss = 0
	case c.Loss == 0:
		c.Loss = 0.05
	}
	if len(c.Lineup) > 0 { // the report's and the measures' ranges are the lineup's
		c.RTTMin, c.RTTMax, c.Jitter, c.Loss = c.Lineup[0].RTT, c.Lineup[0].RTT, 0, 0
		for _, s := range c.Lineup {
			c.RTTMin, c.RTTMax = min(c.RTTMin, s.RTT), max(c.RTTMax, s.RTT)
			c.Jitter, c.Loss = max(c.Jitter, s.Jitter), max(c.Loss, s.Loss)
		}
	}
	if c.Teams == 0 {
		c.Teams = 2
	}
	if c.Vehicles == 0 {
		c.Vehicles = 4
	}
	if c.Settle == 0 {
		c.Settle = 12 * time.Second
	}
	if c.RaceCommands == 0 {
		c.RaceCommands = 80
	}
	var bad []string
	if c.Players < 2 || c.Players > MaxPlayers {
		bad = append(bad, fmt.Sprintf("players %d not in 2..%d", c.Players, MaxPlayers))
	}
	if c.Duration < time.Second || c.Duration > 24*time.Hour {
		bad = append(bad, fmt.Sprintf("duration %v not in 1s..24h", c.Duration))
	}
	if c.RTTMin < 0 || c.RTTMax < c.RTTMin || c.RTTMax > MaxRTT {
		bad = append(bad, fmt.Sprintf("rtt %v..%v not within 0..%v", c.RTTMin, c.RTTMax, MaxRTT))
	}
	if c.Gamemode != nil && (c.Race || c.Cheaters > 0) {
		// The race and the cheat measurements count what the match's own gamemode sends.
		bad = append(bad, "a host's gamemode runs without race and cheaters")
	}
	if c.Jitter < 0 || c.Jitter > time.Second {
		bad = append(bad, fmt.Sprintf("jitter %v not in 0..1s", c.Jitter))
	}
	if math.IsNaN(c.Loss) || c.Loss < 0 || c.Loss > 0.5 {
		bad = append(bad, fmt.Sprintf("loss %v not in 0..0.5", c.Loss))
	}
	if c.Teams < 1 || c.Teams > 8 {
		bad = append(bad, fmt.Sprintf("teams %d not in 1..8", c.Teams))
	}
	if c.World == 0 {
		c.World = 2 * ArenaHalf
	}
	if !(c.World >= 2*ArenaHalf && c.World <= MaxWorld) {
		bad = append(bad, fmt.Sprintf("world %v not in %v..%v m", c.World, 2*ArenaHalf, MaxWorld))
	}
	if c.Vehicles < 0 || c.Vehicles > 64 {
		bad = append(bad, fmt.Sprintf("vehicles %d not in 0..64", c.Vehicles))
	}
	if c.Settle < 5*time.Second || c.Settle > time.Minute {
		bad = append(bad, fmt.Sprintf("settle %v not in 5s..1m", c.Settle))
	}
	if c.Cheaters < 0 || c.Cheaters >= c.Players {
		bad = append(bad, fmt.Sprintf("cheaters %d not in 0..players-1", c.Cheaters))
	}
	if c.RaceCommands < 1 || c.RaceCommands > 10000 {
		bad = append(bad, fmt.Sprintf("race commands %d not in 1..10000", c.RaceCommands))
	}
	for i, s := range c.Lineup {
		if s.RTT < 0 || s.RTT > MaxRTT || s.Jitter < 0 || s.Jitter > time.Second ||
			math.IsNaN(s.Loss) || s.Loss < 0 || s.Loss > 0.5 || s.Cheat >= cheatCount {
			bad = append(bad, fmt.Sprintf("lineup seat %d %+v out of range", i, s))
		}
	}
	if len(c.Lineup) > 0 && c.Cheaters > 0 {
		bad = append(bad, "cheaters with a lineup (the lineup names its cheats)")
	}
	if len(bad) > 0 {
		return c, fmt.Errorf("%w: %v", ErrConfig, bad)
	}
	return c, nil
}

// rtt returns the round-trip time of player i.
func (c Config) rtt(i int) time.Duration {
	if c.Players < 2 {
		return c.RTTMin
	}
	return c.RTTMin + (c.RTTMax-c.RTTMin)*time.Duration(i)/time.Duration(c.Players-1)
}

// RaceConfig turns cfg into the race scenario of the records: set_health commands sent to
// players under fire, by default at 200 ms of round trip for everyone, for as long as it
// takes to send Config.RaceCommands of them. The flags say which of cfg's values the
// caller chose itself and must be kept.
func RaceConfig(cfg Config, rttSet, rttMinSet, durationSet bool) Config {
	cfg.Race = true
	if !rttSet && !rttMinSet {
		cfg.RTTMin, cfg.RTTMax = 200*time.Millisecond, 200*time.Millisecond
	}
	if !durationSet {
		cfg.Duration = 8 * time.Minute
	}
	return cfg
}
