package match

import (
	"math/rand/v2"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// The gamemode's rhythm.
const (
	// CommandEvery is how often the gamemode sends a health, armor or weapon command.
	CommandEvery = 1500 * time.Millisecond
	// EffectEvery is how often it creates a fire or an explosion.
	EffectEvery = 12 * time.Second
	// TeamSwapEvery is how often one player changes team.
	TeamSwapEvery = 40 * time.Second
	// RaceQuiet is how long the shooters hold their fire after each race command, so the
	// ledger can be compared with the client's health once everything settled.
	RaceQuiet = 3 * time.Second
)

// RaceWindows are the fixed time windows of the rejected alternative the race compares the
// revision rule with ([fixed-windows-rejected]): a server that ignores the
// damage reports arriving within the window after a health command, and applies every
// report arriving after it.
var RaceWindows = []time.Duration{100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second}

// gamemode is the match's script: teams with friendly fire off, health, armor and weapon
// commands raced against damage, fires and explosions with a creator, team changes, a
// friendly-fire toggle, a change of the damage multipliers and of a weapon's properties.
type gamemode struct {
	m        *Match
	rng      *rand.Rand
	commands int
	next     struct{ cmd, effect, swap time.Duration }
	stage    int
	race     raceState
	stale    staleGM // regeneration and the stale-echo cheat's commands
	// given counts the M4 rounds the gamemode gave each player (the frozen-ammo
	// cheater's measurement).
	given []int
	// returns are the M4s taken or swapped away, to give back (overwrite.go).
	returns []pendingReturn
	// hook is the host's gamemode (Config.Gamemode) that replaces this script; nil for
	// none.
	hook Gamemode
}

func newGamemode(m *Match, rng *rand.Rand) *gamemode {
	return &gamemode{m: m, rng: rng, given: make([]int, len(m.players))}
}

func (g *gamemode) setup(now time.Duration) error {
	s := g.m.server
	for t := 1; t <= g.m.cfg.Teams && g.m.cfg.Gamemode == nil; t++ {
		if err := s.CreateTeam(teams.TeamID(t), teams.Team{Name: teamNames[t%len(teamNames)], Color: uint32(t) * 0x40302000}); err != nil {
			return err
		}
	}
	for _, cr := range g.m.world.cars {
		if err := s.CreateVehicle(now, cr.id, cr.model, cr.home, wire.Quat{W: 1}); err != nil {
			return err
		}
	}
	if g.m.cfg.Gamemode != nil { // the host's gamemode makes its own teams
		h, err := g.m.cfg.Gamemode(s)
		if err != nil {
			return err
		}
		g.hook = h
		return nil
	}
	g.next.cmd, g.next.effect, g.next.swap = 3*time.Second, EffectEvery, TeamSwapEvery
	if g.m.cfg.Race {
		g.race.next = 5 * time.Second
	}
	return nil
}

var teamNames = []string{"grove", "ballas", "vagos", "aztecas", "rifa", "triads", "mafia", "da nang"}

// placeSpawn picks the player's next spawn point.
func (g *gamemode) placeSpawn(p *player) {
	pt := randomPoint(g.rng, g.m.cfg.half())
	_ = g.m.server.SetSpawnPoint(p.id, lifecycle.SpawnPoint{Pos: lifecycle.Vec3(pt), Facing: 0})
}

// counted reports whether the server holds the player alive in a life it counts: the
// moment a gamemode may send it health commands.
func (g *gamemode) counted(p *player) bool {
	ph, err := g.m.server.Phase(p.id)
	return err == nil && ph == lifecycle.PhaseAlive
}

func (g *gamemode) tick(now time.Duration) {
	if g.hook != nil {
		g.hook.Tick(now)
		return
	}
	if g.m.cfg.Race {
		g.raceTick(now)
		return
	}
	g.stages(now)
	g.staleTick(now)
	g.returnGuns(now)
	if now >= g.next.cmd {
		g.next.cmd = now + CommandEvery
		g.command(now)
	}
	if now >= g.next.effect {
		g.next.effect = now + EffectEvery
		g.effect(now)
	}
	if now >= g.next.swap && g.m.cfg.Teams > 1 {
		g.next.swap = now + TeamSwapEvery
		p := g.m.players[g.rng.IntN(len(g.m.players))]
		t, _ := g.m.server.Team(p.id)
		_ = g.m.server.JoinTeam(p.id, teams.TeamID(1+int(t)%g.m.cfg.Teams))
	}
}

// stages changes the rules of the match at fixed points of its duration.
func (g *gamemode) stages(now time.Duration) {
	d := g.m.cfg.Duration
	steps := []struct {
		at  time.Duration
		run func()
	}{
		{d / 4, func() {
			g.issue(g.m.server.SetDamageMultipliers(now, vitals.Multipliers{Melee: 1.5, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 0.5, Predator: 1}), true)
		}},
		{d / 3, func() { g.issue(g.m.server.SetFriendlyFire(1, true), true) }},
		{d/3 + 20*time.Second, func() { g.issue(g.m.server.SetFriendlyFire(1, false), true) }},
		{d / 2, func() {
			g.issue(g.m.server.SetWeaponProperties(now, weaponM4, [inventory.NumTiers]float32{25, 25, 25}, 90), true)
		}},
		{2 * d / 3, func() {
			g.issue(g.m.server.SetWeaponProperties(now, weaponM4, [inventory.NumTiers]float32{30, 30, 30}, 90), true)
			g.issue(g.m.server.SetDamageMultipliers(now, vitals.Multipliers{Melee: 1, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, Predator: 1}), true)
		}},
	}
	for g.stage < len(steps) && now >= steps[g.stage].at {
		steps[g.stage].run()
		g.stage++
	}
}

// issue counts a command and, when the gamemode expected it to succeed, a refusal as a
// wrong.
func (g *gamemode) issue(err error, expected bool) {
	g.commands++
	if err != nil && expected {
		g.m.report.Wronged.RefusedCommands++
		g.m.incidentf("refused command at %v: %v", g.m.sim.Now(), err)
	}
}

// command sends one health, armor or weapon command to a random player the server holds
// alive and counted.
func (g *gamemode) command(now time.Duration) {
	ps := g.m.players
	p := ps[g.rng.IntN(len(ps))]
	if !g.counted(p) {
		return
	}
	s := g.m.server
	if p.cheat != nil {
		p.cheat.excused = now // a health or armor command may raise the ledger
		if g.m.adv != nil {
			defer g.m.adv.commanded(p)()
		}
	}
	switch k := g.rng.IntN(14); k {
	case 0, 1, 2:
		g.issue(g.vital(now, p, vitals.CommandSetHealth, float32(40+g.rng.IntN(61)), 0), true)
	case 3, 4:
		g.issue(g.vital(now, p, vitals.CommandAddHealth, 25, 100), true)
	case 5:
		g.issue(g.vital(now, p, vitals.CommandSetArmor, float32(g.rng.IntN(101)), 0), true)
	case 6:
		g.issue(g.vital(now, p, vitals.CommandAddArmor, 30, 100), true)
	case 7:
		err := s.GiveWeapon(now, p.id, weaponM4, 60, false)
		g.issue(err, true)
		if err == nil {
			g.given[p.idx] += 60
		}
	case 8:
		g.issue(s.GiveWeapon(now, p.id, weaponShotgun, 10, g.rng.IntN(2) == 0), true)
	case 9:
		if g.owns(p, weaponDeagle) {
			err := s.SetWeaponAmmo(now, p.id, weaponDeagle, 35, wire.NoClip)
			g.issue(err, true)
			if err == nil {
				g.m.noteOverwrite(now, p, weaponDeagle)
			}
		}
	case 10:
		if g.owns(p, weaponM4) {
			g.issue(s.SetArmedWeapon(now, p.id, weaponM4), true)
		}
	case 11:
		if g.rng.IntN(6) == 0 {
			g.issue(g.vital(now, p, vitals.CommandSetHealth, 0, 0), true) // the gamemode slays a player
		} else if _, owned, err := s.Ammo(p.id, weaponGrenade); err == nil && owned {
			g.issue(s.TakeWeapon(now, p.id, weaponGrenade), true)
		}
	case 12:
		g.takeGun(now, p)
	case 13:
		g.swapRifle(now, p)
	}
}

// effect creates a fire or an explosion next to a random living player, with a random
// creator (or none).
func (g *gamemode) effect(now time.Duration) {
	ps := g.m.players
	p := ps[g.rng.IntN(len(ps))]
	if !p.c.Alive() {
		return
	}
	pos := add(p.c.Position(), wire.Vec3{X: float32(g.rng.Float64()*4 - 2), Y: float32(g.rng.Float64()*4 - 2)})
	creator := wire.NoPlayer
	if g.rng.IntN(3) > 0 {
		creator = ps[g.rng.IntN(len(ps))].id
	}
	if g.rng.IntN(2) == 0 {
		id, err := g.m.server.CreateFire(now, creator, pos, FireRadius)
		g.issue(err, true)
		if err == nil {
			g.m.world.fires = append(g.m.world.fires, fire{effect: id, pos: pos, until: now + fireLife})
		}
		return
	}
	_, err := g.m.server.CreateExplosion(now, creator, 0, pos, ExplosionRadius)
	g.issue(err, true)
}

// onJoin puts a player who joined in its team (none in the race, where nobody is
// anybody's teammate) and picks its spawn point.
func (g *gamemode) onJoin(p *player) {
	if g.hook != nil {
		return
	}
	if !g.m.cfg.Race {
		g.issue(g.m.server.JoinTeam(p.id, teams.TeamID(1+p.idx%g.m.cfg.Teams)), true)
	}
	g.placeSpawn(p)
}

// onDeath picks the next spawn point of a player who died.
func (g *gamemode) onDeath(p *player) {
	if g.hook == nil {
		g.placeSpawn(p)
	}
}

// raceState is the measurement of set_health commands racing damage reports.
type raceState struct {
	next    time.Duration
	victim  int
	pending []raceCommand
	check   []raceCommand // commands waiting for their settled comparison
}

// raceCommand is one set_health of the race.
type raceCommand struct {
	p       *player
	sentAt  time.Duration
	rev     uint16 // the revision the client applied it with (known once applied)
	revSet  bool
	crossed bool
	// window[i]: the server with RaceWindows[i] would have misjudged a report around
	// this command, and its ledger would differ from the client's health
	window   [8]bool
	checkAt  time.Duration
	arrivals []arrival
}

// arrival is a hit report of the victim that reached the server after a command was sent.
type arrival struct {
	at   time.Duration
	rev  uint16
	loss float32
}

// maxRaceArrivals caps the reports a race command keeps.
const maxRaceArrivals = 256

// raceTick drives the race: every player fires at one victim; now and then the gamemode
// sets the victim's health, then the shooters hold fire until the ledger settled, and the
// ledger is compared with the victim's own health.
func (g *gamemode) raceTick(now time.Duration) {
	r := &g.race
	g.resolveRace(now)
	if g.m.report.Race.SetHealth+len(r.pending) >= g.m.cfg.RaceCommands || now < r.next {
		return
	}
	v := g.m.players[r.victim]
	if !g.counted(v) {
		r.victim = (r.victim + 1) % len(g.m.players)
		return
	}
	if err := g.m.server.SetHealth(now, v.id, 100); err != nil {
		g.issue(err, true)
		return
	}
	g.commands++
	r.pending = append(r.pending, raceCommand{p: v, sentAt: now, checkAt: now + RaceQuiet})
	r.next = now + RaceQuiet + time.Duration(500+g.rng.IntN(1500))*time.Millisecond
	r.victim = (r.victim + 1) % len(g.m.players)
}

// RaceShooters is how many players fire at the race's victim.
const RaceShooters = 2

// raceTarget reports whether shooter may fire at o in the race: the victim of the race is
// the player the next or pending command is for, RaceShooters players shoot at it, and
// they hold their fire while its command settles.
func (g *gamemode) raceTarget(now time.Duration, shooter, o *player) bool {
	v := g.race.victim
	if len(g.race.pending) > 0 {
		v = g.race.pending[len(g.race.pending)-1].p.idx
	}
	if o.idx != v || !g.racing(now, o) {
		return false
	}
	n := len(g.m.players)
	d := (shooter.idx - v + n) % n
	return d >= 1 && d <= RaceShooters
}

// racing reports whether the shooters may fire at player p now (not while its race
// command settles).
func (g *gamemode) racing(now time.Duration, p *player) bool {
	for _, c := range g.race.pending {
		if c.p == p && now >= c.sentAt+RaceQuiet/3 {
			return false
		}
	}
	return true
}

// reportArrived sees every hit report the server receives; the race keeps those of a
// player with a command pending, to judge them once the command's revision is known.
func (g *gamemode) reportArrived(now time.Duration, p *player, rep *wire.DamageReport) {
	if !g.m.cfg.Race {
		return
	}
	for i := range g.race.pending {
		c := &g.race.pending[i]
		if c.p == p && now > c.sentAt && len(c.arrivals) < maxRaceArrivals {
			c.arrivals = append(c.arrivals, arrival{at: now, rev: rep.VitalRev, loss: rep.Loss})
		}
	}
}

// judgeArrivals decides, for a command whose revision is known, whether a report crossed
// it (it echoes an older revision: the client created it before applying the command, and
// it reached the server after the command was sent), and on which fixed windows the
// rejected alternative would have misjudged a report: one from before the command applied
// after the window deducts a loss the set already erased; one from after it, ignored
// inside the window, loses a loss the client took.
func (c *raceCommand) judgeArrivals() {
	for _, a := range c.arrivals {
		before := revision.Older(a.rev, c.rev)
		if before {
			c.crossed = true
		}
		if a.loss <= 0 {
			continue
		}
		for w, d := range RaceWindows {
			if inside := a.at <= c.sentAt+d; before != inside {
				c.window[w] = true
			}
		}
	}
}

// learnRev finds the revision the client applied the command with, from its command log.
func (g *gamemode) learnRev(c *raceCommand) bool {
	if c.revSet {
		return true
	}
	for _, e := range c.p.c.AppendCommandLog(nil) {
		if e.Kind == wire.IDSetHealth && e.At >= c.sentAt && !e.Dropped {
			c.rev, c.revSet = e.Rev, true
			return true
		}
	}
	return false
}

// resolveRace settles the race commands whose quiet time is over: the server's ledger must
// equal the victim's own health.
func (g *gamemode) resolveRace(now time.Duration) {
	r := &g.race
	keep := r.pending[:0]
	for _, c := range r.pending {
		if now < c.checkAt {
			keep = append(keep, c)
			continue
		}
		if g.learnRev(&c) {
			c.judgeArrivals()
		}
		rc := &g.m.report.Race
		rc.SetHealth++
		if len(rc.Windows) == 0 {
			for _, d := range RaceWindows {
				rc.Windows = append(rc.Windows, WindowResult{WindowMs: millis(d)})
			}
		}
		if c.crossed {
			rc.Crossed++
		}
		for w := range RaceWindows {
			if c.window[w] {
				rc.Windows[w].Corrupted++
			}
		}
		if c.p.c.Alive() && g.counted(c.p) {
			if h, err := g.m.server.Health(c.p.id); err == nil && diff(h, c.p.c.Health()) > 0.01 {
				rc.RevisionCorrupted++
				g.m.incidentf("race: player %d ledger %.2f, client %.2f after set_health at %v", c.p.idx, h, c.p.c.Health(), c.sentAt)
			}
		}
	}
	r.pending = keep
}

// carModel is the model of the arena's cars (a Sultan: unarmed).
const carModel = 560

// fireLife is how long a gamemode fire burns in the arena: the client's game's.
const fireLife = 10 * time.Second
