package main

import (
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/wire"
)

// maxCoord bounds the spread: a position's coordinates on the wire.
const maxCoord = wire.MaxCoord

// liarLift is how far above where it stands a liar (Config.liars) claims to fire from:
// far beyond the server's origin allowance, well within the M4's range.
const liarLift = 40

// fireWeapon is the bots' weapon (the M4 the gamemode gives at every spawn).
const fireWeapon = 31

// bot plays one honest client: it walks a beat around its spawn point and fires at the
// nearest living player within FireRange about every Config.FireEvery. Its fields are
// touched only on the goroutine that steps its client, but the atomics, which the load
// test reads while it runs.
type bot struct {
	rng       *rand.Rand
	fireEvery time.Duration
	liar      bool // claims to fire from liarLift metres above where it stands (Config.liars)

	epoch    uint16
	homed    bool
	home     wire.Vec3
	first    wire.Vec3 // the first spawn point
	firstSet bool
	goal     wire.Vec3
	last     time.Duration
	nextShot time.Duration
	ids      []wire.PlayerID

	// What the load test reads while the clients play.
	spawned  atomic.Bool
	frames   atomic.Int64 // the client's Counters().Frames
	deaths   atomic.Int64 // the client's Counters().Deaths
	respawns atomic.Int64 // the client's Counters().Respawns
	alive    atomic.Bool
}

type bots []*bot

func newBots(cfg Config) bots {
	bs := make(bots, cfg.Players)
	for i := range bs {
		bs[i] = &bot{rng: rand.New(rand.NewPCG(uint64(i)+1, 0x10ad)), fireEvery: cfg.FireEvery, liar: i < cfg.liars}
	}
	return bs
}

// play is the bot's step at now, before its client's Tick. fire is false while the load
// test holds the bots' fire.
func (b *bot) play(now time.Duration, c *client.Client, fire bool) {
	n := c.Counters()
	b.frames.Store(int64(n.Frames))
	b.deaths.Store(int64(n.Deaths))
	b.respawns.Store(int64(n.Respawns))
	b.alive.Store(c.Alive())
	dt := now - b.last
	b.last = now
	if !c.Spawned() || !c.Alive() {
		return
	}
	b.spawned.Store(true)
	if !b.homed || c.DeathEpoch() != b.epoch {
		b.homed, b.epoch = true, c.DeathEpoch()
		b.home = c.Position()
		b.goal = b.home
		if !b.firstSet {
			b.first, b.firstSet = b.home, true
		}
		b.nextShot = now + b.jitter()
	}
	b.walk(now, dt, c)
	if fire && b.fireEvery > 0 && now >= b.nextShot {
		b.nextShot = now + b.jitter()
		b.shoot(now, c)
	}
}

// jitter is the wait until the next shot: FireEvery, ±50 %.
func (b *bot) jitter() time.Duration {
	return time.Duration(float64(b.fireEvery) * (0.5 + b.rng.Float64()))
}

// walk moves the player WalkSpeed towards its goal, a point of its beat, and picks the
// next goal on arrival.
func (b *bot) walk(now, dt time.Duration, c *client.Client) {
	pos := c.Position()
	dx, dy := b.goal.X-pos.X, b.goal.Y-pos.Y
	dist := float32(math.Hypot(float64(dx), float64(dy)))
	step := float32(WalkSpeed * dt.Seconds())
	if dist <= step || dist == 0 {
		b.goal = wire.Vec3{X: b.home.X + (b.rng.Float32()*2-1)*Beat, Y: b.home.Y + (b.rng.Float32()*2-1)*Beat, Z: b.home.Z}
		_ = c.Move(now, wire.Vec3{X: pos.X + dx, Y: pos.Y + dy, Z: b.home.Z}, wire.Vec3{}, c.Facing())
		return
	}
	ux, uy := dx/dist, dy/dist
	vel := wire.Vec3{X: ux * WalkSpeed, Y: uy * WalkSpeed}
	_ = c.Move(now, wire.Vec3{X: pos.X + ux*step, Y: pos.Y + uy*step, Z: b.home.Z}, vel, float32(math.Atan2(float64(uy), float64(ux))))
}

// shoot fires at the nearest living remote within FireRange, if any.
func (b *bot) shoot(now time.Duration, c *client.Client) {
	self, _ := c.PlayerID()
	pos := c.Position()
	best, bestD := wire.NoPlayer, float32(FireRange*FireRange)
	var at wire.Vec3
	b.ids = c.AppendRemotes(b.ids[:0])
	for _, id := range b.ids {
		r, ok := c.Remote(id)
		if !ok || id == self || !r.Copy.Alive {
			continue
		}
		dx, dy, dz := r.Position.X-pos.X, r.Position.Y-pos.Y, r.Position.Z-pos.Z
		if d := dx*dx + dy*dy + dz*dz; d < bestD {
			best, bestD, at = id, d, r.Position
		}
	}
	if best == wire.NoPlayer {
		return
	}
	if b.liar {
		pos.Z += liarLift
	}
	_, _ = c.Fire(now, fireWeapon, wire.HitPlayer, uint16(best), pos, at)
}

// allSpawned reports whether every bot's client has spawned.
func allSpawned(bs bots) bool { return countSpawned(bs) == len(bs) }

func countSpawned(bs bots) int {
	n := 0
	for _, b := range bs {
		if b.spawned.Load() {
			n++
		}
	}
	return n
}

// settled reports whether the deaths and respawns the clients lived agree with the
// server's counts in m, and every client is alive again.
func (bs bots) settled(m metricSet) bool {
	var deaths, respawns int64
	for _, b := range bs {
		if !b.alive.Load() {
			return false
		}
		deaths += b.deaths.Load()
		respawns += b.respawns.Load()
	}
	return float64(deaths) == m.get(metricDeaths) && float64(respawns) == m.get(metricRespawns)
}

// spread returns the larger side of the box around the bots' first spawn points (0 if
// none spawned). Call it after the clients stopped.
func (bs bots) spread() float64 {
	var lo, hi wire.Vec3
	n := 0
	for _, b := range bs {
		if !b.firstSet {
			continue
		}
		p := b.first
		if n == 0 {
			lo, hi = p, p
		}
		n++
		lo.X, lo.Y = min(lo.X, p.X), min(lo.Y, p.Y)
		hi.X, hi.Y = max(hi.X, p.X), max(hi.Y, p.Y)
	}
	return float64(max(hi.X-lo.X, hi.Y-lo.Y))
}

// frames returns the frames the clients have sent, as of their last steps.
func (bs bots) frames() int64 {
	var n int64
	for _, b := range bs {
		n += b.frames.Load()
	}
	return n
}
