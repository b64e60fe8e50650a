package simkit

import (
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/arbitergo/arbiter/examples/match"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// RunScenariosWith is RunScenarios with the host's own commands (see Driver.Handle).
func RunScenariosWith(t *testing.T, path string, cfg Config, cmds map[string]Command) {
	t.Helper()
	datadriven.Walk(t, path, func(t *testing.T, path string) {
		d := NewDriver(cfg)
		for verb, fn := range cmds {
			d.Handle(verb, fn)
		}
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			return d.Run(t, td)
		})
	})
}

// RunScenarios runs every scenario file under path (one file, or a directory walked
// recursively) against a world of cfg: each file is a fresh kit driven by a Driver, its
// blocks run in order, and each block's output is compared with the file's (go test
// -rewrite regenerates it). See Driver for the commands.
func RunScenarios(t *testing.T, path string, cfg Config) {
	t.Helper()
	datadriven.Walk(t, path, func(t *testing.T, path string) {
		d := NewDriver(cfg)
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			return d.Run(t, td)
		})
	})
}

// Driver runs scenario commands against a kit: the datadriven driver behind
// RunScenarios, for a host that walks its files itself. Each block of a scenario file is
// one command, or "run" followed by one command per line (blank lines and lines starting
// with # are skipped); the block's output is what the world did. A command is a verb,
// words and key=value arguments, as in datadriven:
//
//	world seed=3 vehicles=2 teams=2 respawn=5s settle=5s   a fresh world of the host's Config, no players yet
//	join a rtt=200ms jitter=30ms loss=0.05                  an honest player
//	cheater m profile=mutator rtt=100ms                     a cheater (match.Cheat names)
//	start                                                   start the world now
//	tick 1s [events=all|game|count|none]                    advance; prints the events
//	move a x=10 y=0 z=0 | move a car=1                      walk (to beside a car)
//	shoot a b [m4]                                          fire once (default m4)
//	throw a b [grenade] [fuse=2s]                           throw at b
//	strike a b [knife|fist]                                 melee (within reach)
//	enter a car=1 [seat=0] | leave a                        vehicles
//	fall b 30 | die b                                       fall damage, a deadly fall
//	set-health b 50 | add-health b 10 [max=100]             the gamemode's commands
//	set-armor b 50  | add-armor b 10 [max=100]
//	give a m4 100 [current] | take a m4                     weapon commands
//	print b                                                 ledger, store, life
//	events [kind=player_damage] [player=b]                  the events so far
//	report                                                  ends play: the match report
//
// A raw connection (Kit.JoinRaw) sends what the scenario says, hostile or not:
//
//	raw m [rtt=200ms]                                       a raw connection (Raw.SetRTT)
//	send m PlayerSync seq=1 health=NaN vehicle=none         a message (fields as printed;
//	                                                        none is the largest value)
//	send m WeaponShot shot_seq=1 truncate=5                 its first 5 bytes, as a datagram
//	send-bytes m 0102ff                                     any datagram (hex)
//	received m [type=RespawnPlayer]                         what the server sent it; forgets it
//	silent m [on|off]                                       stop answering and acknowledging
//	print m                                                 its ledger, life, round trip
//	                                                        and store on the server
//
// Weapons are named (fist, knife, grenade, deagle, shotgun, m4, spraycan) or numbered.
// What a player's client refuses, and what the server refuses, is printed as "error: ..."
// (part of the expected output); an unknown command, argument or player, or a malformed
// value, fails the test. A Driver is not safe for concurrent use.
type Driver struct {
	base    Config // the host's; each world command starts from it
	cfg     Config
	k       *Kit
	players map[string]*Player
	raws    map[string]*Raw
	printed int // the events a tick already printed
	host    map[string]Command
}

// NewDriver returns a driver of a fresh world of cfg.
func NewDriver(cfg Config) *Driver {
	return &Driver{base: cfg, cfg: cfg, k: New(cfg), players: map[string]*Player{}, raws: map[string]*Raw{}}
}

// Kit returns the driver's current kit (a "world" command replaces it).
func (d *Driver) Kit() *Kit { return d.k }

// Run runs one block of a scenario file and returns its output.
func (d *Driver) Run(t testing.TB, td *datadriven.TestData) string {
	t.Helper()
	if td.Cmd != "run" {
		c := command{verb: td.Cmd, pos: td.Pos}
		for _, a := range td.CmdArgs {
			c.add(a)
		}
		return d.exec(t, &c)
	}
	var out strings.Builder
	for i, line := range strings.Split(td.Input, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verb, args, err := datadriven.ParseLine(line)
		if err != nil {
			t.Fatalf("%s: line %d of the block: %q: %v", td.Pos, i+1, line, err)
		}
		c := command{verb: verb, pos: fmt.Sprintf("%s: line %d of the block: %q", td.Pos, i+1, line)}
		for _, a := range args {
			c.add(a)
		}
		fmt.Fprintf(&out, "> %s\n", line)
		out.WriteString(d.exec(t, &c))
	}
	return out.String()
}

// command is one parsed command: its verb, its words and its key=value arguments, with
// the arguments the verb read marked, so that an unknown one fails.
type command struct {
	verb  string
	pos   string
	words []string
	args  map[string]string
	used  map[string]bool
	tb    testing.TB
}

func (c *command) add(a datadriven.CmdArg) {
	if len(a.Vals) == 0 {
		c.words = append(c.words, a.Key)
		return
	}
	if c.args == nil {
		c.args, c.used = map[string]string{}, map[string]bool{}
	}
	c.args[a.Key] = strings.Join(a.Vals, ",")
}

func (c *command) fatalf(format string, a ...any) {
	c.tb.Helper()
	c.tb.Fatalf("%s: %s: %s", c.pos, c.verb, fmt.Sprintf(format, a...))
}

// word returns the i-th word (def when absent and def != "", else the command fails).
func (c *command) word(i int, what, def string) string {
	c.tb.Helper()
	if i < len(c.words) {
		return c.words[i]
	}
	if def == "" {
		c.fatalf("want %s as word %d", what, i+1)
	}
	return def
}

func (c *command) arg(key string) (string, bool) {
	v, ok := c.args[key]
	if ok {
		c.used[key] = true
	}
	return v, ok
}

func (c *command) float(key string, def float64) float64 {
	c.tb.Helper()
	v, ok := c.arg(key)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		c.fatalf("%s=%q: %v", key, v, err)
	}
	return f
}

func (c *command) num(s, what string) float64 {
	c.tb.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		c.fatalf("%s %q: %v", what, s, err)
	}
	return f
}

func (c *command) uint(key string, bits int, def uint64) uint64 {
	c.tb.Helper()
	v, ok := c.arg(key)
	if !ok {
		return def
	}
	n, err := strconv.ParseUint(v, 10, bits)
	if err != nil {
		c.fatalf("%s=%q: %v", key, v, err)
	}
	return n
}

func (c *command) dur(key string, def time.Duration) time.Duration {
	c.tb.Helper()
	v, ok := c.arg(key)
	if !ok {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		c.fatalf("%s=%q: %v", key, v, err)
	}
	return d
}

func (c *command) str(key, def string) string {
	if v, ok := c.arg(key); ok {
		return v
	}
	return def
}

// done fails the command if it was given more words than maxWords or an argument it did
// not read.
func (c *command) done(maxWords int) {
	c.tb.Helper()
	if len(c.words) > maxWords {
		c.fatalf("unexpected word %q", c.words[maxWords])
	}
	var unknown []string
	for k := range c.args {
		if !c.used[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		c.fatalf("unknown argument(s) %s", strings.Join(unknown, ", "))
	}
}

// weaponNames are the weapons a scenario names.
var weaponNames = map[string]uint8{
	"fist": 0, "knife": WeaponKnife, "grenade": WeaponGrenade, "deagle": WeaponDeagle,
	"shotgun": WeaponShotgun, "m4": WeaponM4, "spraycan": WeaponSpraycan,
}

func (c *command) weapon(s string) uint8 {
	c.tb.Helper()
	if w, ok := weaponNames[s]; ok {
		return w
	}
	n, err := strconv.ParseUint(s, 10, 8)
	if err != nil {
		c.fatalf("unknown weapon %q (want a name: fist, knife, grenade, deagle, shotgun, m4, spraycan, or an id)", s)
	}
	return uint8(n)
}

func weaponName(w uint8) string {
	for n, id := range weaponNames {
		if id == w && (w != 0 || n == "fist") {
			return n
		}
	}
	return strconv.Itoa(int(w))
}

// ParseCheat returns the cheat profile of a name (its String, such as "mutator").
func ParseCheat(name string) (match.Cheat, bool) {
	for c := match.Cheat(0); c < 255; c++ {
		s := c.String()
		if strings.HasPrefix(s, "Cheat(") || s == "cheatCount" {
			break
		}
		if s == name {
			return c, true
		}
	}
	return 0, false
}

func parseEventKind(name string) (refserver.EventKind, bool) {
	for k := refserver.EventKind(1); k < 255; k++ {
		s := k.String()
		if strings.HasPrefix(s, "EventKind(") || s == "eventKindEnd" {
			break
		}
		if s == name {
			return k, true
		}
	}
	return 0, false
}

func (d *Driver) player(c *command, i int) *Player {
	c.tb.Helper()
	name := c.word(i, "a player", "")
	p, ok := d.players[name]
	if !ok {
		c.fatalf("unknown player %q (join it first)", name)
	}
	return p
}

// name returns the scenario's name of a player id.
func (d *Driver) name(id refserver.PlayerID) string {
	if id == refserver.NoPlayer {
		return "none"
	}
	if int(id) < len(d.k.players) {
		return d.k.players[id].name
	}
	if i := int(id) - len(d.k.players); i < len(d.k.raws) {
		return d.k.raws[i].name
	}
	return strconv.Itoa(int(id))
}

func result(err error) string {
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	return "ok\n"
}

func (d *Driver) exec(t testing.TB, c *command) string {
	t.Helper()
	c.tb = t
	if c.used == nil {
		c.used = map[string]bool{}
	}
	if fn, ok := d.host[c.verb]; ok {
		out, err := fn(d.k, &Args{c: c, d: d})
		c.done(len(c.words))
		if err != nil {
			return result(err)
		}
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		return out
	}
	switch c.verb {
	case "world":
		return d.world(c)
	case "join", "cheater":
		return d.join(c)
	case "start":
		c.done(0)
		if err := d.k.Start(); err != nil {
			return result(err)
		}
		d.printed = len(d.k.events)
		return fmt.Sprintf("started at %v\n", d.k.Now())
	case "tick":
		return d.tick(c)
	case "move":
		return d.move(c)
	case "shoot":
		a, b := d.player(c, 0), d.player(c, 1)
		w := c.weapon(c.word(2, "a weapon", "m4"))
		c.done(3)
		seq, err := a.Shoot(b, w)
		if err != nil {
			return result(err)
		}
		return fmt.Sprintf("shot %d\n", seq)
	case "throw":
		a, b := d.player(c, 0), d.player(c, 1)
		w := c.weapon(c.word(2, "a weapon", "grenade"))
		fuse := c.dur("fuse", 2*time.Second)
		c.done(3)
		seq, err := a.Throw(b, w, fuse)
		if err != nil {
			return result(err)
		}
		return fmt.Sprintf("projectile %d\n", seq)
	case "strike":
		a, b := d.player(c, 0), d.player(c, 1)
		w := c.weapon(c.word(2, "a weapon", "fist"))
		c.done(3)
		return result(a.Strike(b, w))
	case "enter":
		p := d.player(c, 0)
		car, ok := c.arg("car")
		if !ok {
			c.fatalf("want car=<id>")
		}
		id := c.num(car, "car")
		seat := c.uint("seat", 8, 0)
		c.done(1)
		return result(p.EnterVehicle(uint16(id), uint8(seat)))
	case "leave":
		p := d.player(c, 0)
		c.done(1)
		return result(p.LeaveVehicle())
	case "fall":
		p := d.player(c, 0)
		amount := c.num(c.word(1, "an amount", ""), "amount")
		c.done(2)
		return result(p.Fall(float32(amount)))
	case "die":
		p := d.player(c, 0)
		c.done(1)
		return result(p.Die())
	case "set-health", "set-armor", "add-health", "add-armor":
		id, p := d.target(c, 0)
		v := float32(c.num(c.word(1, "a value", ""), "value"))
		max := float32(100)
		if c.verb == "add-health" || c.verb == "add-armor" {
			max = float32(c.float("max", 100))
		}
		c.done(2)
		if err := d.k.ready(); err != nil {
			return result(err)
		}
		if p != nil { // through the kit, so that the cheat measures learn of it
			switch c.verb {
			case "set-health":
				return result(d.k.SetHealth(p, v))
			case "set-armor":
				return result(d.k.SetArmor(p, v))
			case "add-health":
				return result(d.k.AddHealth(p, v, max))
			default:
				return result(d.k.AddArmor(p, v, max))
			}
		}
		srv, now := d.k.Server(), d.k.Now()
		switch c.verb {
		case "set-health":
			return result(srv.SetHealth(now, id, v))
		case "set-armor":
			return result(srv.SetArmor(now, id, v))
		case "add-health":
			return result(srv.AddHealth(now, id, v, max))
		default:
			return result(srv.AddArmor(now, id, v, max))
		}
	case "give":
		id, _ := d.target(c, 0)
		w := c.weapon(c.word(1, "a weapon", ""))
		ammo := c.num(c.word(2, "an ammo count", ""), "ammo")
		current := len(c.words) > 3 && c.words[3] == "current"
		if len(c.words) > 3 && !current {
			c.fatalf("unexpected word %q (want current)", c.words[3])
		}
		c.done(4)
		if err := d.k.ready(); err != nil {
			return result(err)
		}
		return result(d.k.Server().GiveWeapon(d.k.Now(), id, w, uint16(ammo), current))
	case "take":
		id, _ := d.target(c, 0)
		w := c.weapon(c.word(1, "a weapon", ""))
		c.done(2)
		if err := d.k.ready(); err != nil {
			return result(err)
		}
		return result(d.k.Server().TakeWeapon(d.k.Now(), id, w))
	case "print":
		if r, ok := d.raws[c.word(0, "a player", "")]; ok {
			c.done(1)
			return d.printRaw(r)
		}
		p := d.player(c, 0)
		c.done(1)
		return d.print(p)
	case "raw":
		return d.joinRaw(c)
	case "send":
		return d.send(c)
	case "send-bytes":
		return d.sendBytes(c)
	case "received":
		return d.received(c)
	case "silent":
		r := d.raw(c, 0)
		on := c.word(1, "on or off", "on")
		if on != "on" && on != "off" {
			c.fatalf("want on or off, not %q", on)
		}
		c.done(2)
		r.SetSilent(on == "on")
		return "ok\n"
	case "events":
		return d.events(c)
	case "report":
		c.done(0)
		return d.report()
	}
	c.fatalf("unknown command (want world, join, cheater, start, tick, move, shoot, throw, strike, enter, leave, fall, die, set-health, add-health, set-armor, add-armor, give, take, print, events, report, raw, send, send-bytes, received, silent or run)")
	return ""
}

func (d *Driver) world(c *command) string {
	cfg := d.base
	cfg.Seed = c.uint("seed", 64, cfg.Seed)
	cfg.Vehicles = int(c.uint("vehicles", 8, uint64(cfg.Vehicles)))
	cfg.Teams = int(c.uint("teams", 8, uint64(cfg.Teams)))
	cfg.Settle = c.dur("settle", cfg.Settle)
	cfg.Server.RespawnDelay = c.dur("respawn", cfg.Server.RespawnDelay)
	c.done(0)
	d.cfg, d.k, d.printed, d.players, d.raws = cfg, New(cfg), 0, map[string]*Player{}, map[string]*Raw{}
	return fmt.Sprintf("seed=%d vehicles=%d teams=%d\n", cfg.Seed, cfg.Vehicles, cfg.Teams)
}

func (d *Driver) join(c *command) string {
	name := c.word(0, "a name", "")
	if d.taken(name) {
		c.fatalf("player %q joined twice", name)
	}
	link := Link{RTT: c.dur("rtt", 0), Jitter: c.dur("jitter", 0), Loss: c.float("loss", 0)}
	profile := match.Honest
	if c.verb == "cheater" {
		pn, ok := c.arg("profile")
		if !ok {
			c.fatalf("want profile=<cheat>")
		}
		if profile, ok = ParseCheat(pn); !ok || profile == match.Honest {
			c.fatalf("unknown cheat profile %q", pn)
		}
	}
	c.done(1)
	p, err := d.k.JoinCheater(name, link, profile)
	if err != nil {
		return result(err)
	}
	d.players[name] = p
	out := fmt.Sprintf("%s: player %d rtt=%v jitter=%v loss=%v", name, p.ID(), link.RTT, link.Jitter, link.Loss)
	if profile != match.Honest {
		out += " cheat=" + profile.String()
	}
	return out + "\n"
}

func (d *Driver) tick(c *command) string {
	dt, err := time.ParseDuration(c.word(0, "a duration", ""))
	if err != nil || dt < 0 {
		c.fatalf("want a duration >= 0: %v", err)
	}
	show := c.str("events", "all")
	if show != "all" && show != "game" && show != "count" && show != "none" {
		c.fatalf("events=%q: want all, game, count or none", show)
	}
	c.done(1)
	var out strings.Builder
	if !d.k.started {
		if err := d.k.Start(); err != nil {
			return result(err)
		}
		fmt.Fprintf(&out, "started at %v\n", d.k.Now())
		d.printed = len(d.k.events)
	}
	if err := d.k.Advance(dt); err != nil {
		out.WriteString(result(err))
		return out.String()
	}
	if show == "count" {
		out.WriteString(countEvents(d.k.events[d.printed:]))
	}
	for _, e := range d.k.events[d.printed:] {
		if show == "all" || (show == "game" && !e.Kind.Diagnostic()) {
			out.WriteString(d.event(e))
		}
	}
	d.printed = len(d.k.events)
	fmt.Fprintf(&out, "now %v\n", d.k.Now())
	return out.String()
}

// countEvents formats how many events of each kind es holds, in the kinds' order.
func countEvents(es []refserver.Event) string {
	var n [256]int
	for _, e := range es {
		n[e.Kind]++
	}
	var parts []string
	for k, c := range n {
		if c > 0 {
			parts = append(parts, fmt.Sprintf("%v=%d", refserver.EventKind(k), c))
		}
	}
	if len(parts) == 0 {
		return "events: none\n"
	}
	return "events: " + strings.Join(parts, " ") + "\n"
}

func (d *Driver) move(c *command) string {
	p := d.player(c, 0)
	var pos wire.Vec3
	if car, ok := c.arg("car"); ok {
		if err := d.k.ready(); err != nil {
			return result(err)
		}
		var found bool
		if pos, found = d.k.Beside(uint16(c.num(car, "car"))); !found {
			return result(ErrNoVehicle)
		}
	} else {
		cur := p.Position()
		pos = wire.Vec3{X: float32(c.float("x", float64(cur.X))), Y: float32(c.float("y", float64(cur.Y))), Z: float32(c.float("z", float64(cur.Z)))}
	}
	c.done(1)
	return result(p.MoveTo(pos))
}

// event formats a server event with the scenario's names of its players.
func (d *Driver) event(e refserver.Event) string {
	s := e.String()
	s = strings.Replace(s, " player="+idText(e.Player), " player="+d.name(e.Player), 1)
	for _, label := range []string{" attacker=", " killer=", " author=", " other="} {
		s = strings.Replace(s, label+idText(e.Other), label+d.name(e.Other), 1)
	}
	return s + "\n"
}

func idText(id refserver.PlayerID) string {
	if id == refserver.NoPlayer {
		return "none"
	}
	return strconv.Itoa(int(id))
}

func (d *Driver) print(p *Player) string {
	var out strings.Builder
	l, err := p.Ledger()
	if err != nil {
		return result(err)
	}
	own := p.Own()
	fmt.Fprintf(&out, "%s: ledger=%s/%s own=%s/%s\n", p.name, f32(l.Health), f32(l.Armor), f32(own.Health), f32(own.Armor))
	life, err := p.Life()
	if err != nil {
		return result(err)
	}
	fmt.Fprintf(&out, "%s: life server=%v gen=%d client=%s gen=%d\n", p.name, life.Phase, life.Gen,
		map[bool]string{true: "alive", false: "dead"}[life.ClientAlive], life.ClientGen)
	st, err := p.Store()
	if err != nil {
		return result(err)
	}
	fmt.Fprintf(&out, "%s: store server held=%s%s\n", p.name, weaponName(st.ServerHeld), slots(st.Server))
	fmt.Fprintf(&out, "%s: store client held=%s%s\n", p.name, weaponName(st.Client.Held), slots(st.Client.Slots))
	return out.String()
}

func slots(s [inventory.NumSlots]inventory.Slot) string {
	var b strings.Builder
	for _, sl := range s {
		if sl.Weapon == 0 && sl.Total == 0 {
			continue
		}
		fmt.Fprintf(&b, " %s:%d/%d", weaponName(sl.Weapon), sl.Total, sl.Clip)
	}
	return b.String()
}

func (d *Driver) events(c *command) string {
	var kind refserver.EventKind
	if k, ok := c.arg("kind"); ok {
		if kind, ok = parseEventKind(k); !ok {
			c.fatalf("unknown event kind %q", k)
		}
	}
	who := refserver.NoPlayer
	if name, ok := c.arg("player"); ok {
		if p, ok := d.players[name]; ok {
			who = p.ID()
		} else if r, ok := d.raws[name]; ok {
			who = r.ID()
		} else {
			c.fatalf("unknown player %q", name)
		}
	}
	c.done(0)
	var out strings.Builder
	n := 0
	for _, e := range d.k.events {
		if (kind != 0 && e.Kind != kind) || (who != refserver.NoPlayer && e.Player != who) {
			continue
		}
		out.WriteString(d.event(e))
		n++
	}
	fmt.Fprintf(&out, "%d event(s)\n", n)
	return out.String()
}

func (d *Driver) report() string {
	r, err := d.k.Report()
	if err != nil && !errors.Is(err, ErrFinished) {
		return result(err)
	}
	var out strings.Builder
	w := r.Wronged
	fmt.Fprintf(&out, "honest wronged %d: early_deaths=%d cut_frames=%d refused_shots=%d refused_commands=%d disagreements=%d refused_entries=%d rate_limited=%d\n",
		r.HonestWronged, w.EarlyDeaths, w.CutFrames, w.RefusedShots, w.RefusedCommands, w.Disagreements, w.RefusedEntries, w.RateLimited)
	for _, in := range r.Incidents {
		fmt.Fprintf(&out, "incident: %s\n", in)
	}
	for _, ch := range r.Cheaters {
		fmt.Fprintf(&out, "cheater %s (%s): gained=%d flagged=%d refused=%d\n",
			d.name(refserver.PlayerID(ch.Player)), ch.Cheat, ch.Gained, ch.Flagged, ch.Refused)
	}
	return out.String()
}

func f32(v float32) string {
	s := strconv.FormatFloat(float64(v), 'f', 2, 32)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

func (d *Driver) taken(name string) bool {
	_, p := d.players[name]
	_, r := d.raws[name]
	return p || r
}

func (d *Driver) raw(c *command, i int) *Raw {
	c.tb.Helper()
	name := c.word(i, "a raw connection", "")
	r, ok := d.raws[name]
	if !ok {
		c.fatalf("unknown raw connection %q (raw %s first)", name, name)
	}
	return r
}

func (d *Driver) joinRaw(c *command) string {
	name := c.word(0, "a name", "")
	if d.taken(name) {
		c.fatalf("player %q joined twice", name)
	}
	rtt := c.dur("rtt", 0)
	c.done(1)
	r, err := d.k.JoinRaw(name)
	if err != nil {
		return result(err)
	}
	r.SetRTT(rtt)
	d.raws[name] = r
	return fmt.Sprintf("%s: raw connection rtt=%v\n", name, rtt)
}

// messageID returns the id of a message type name (its Go name, as wire prints it).
func messageID(name string) (wire.ID, bool) {
	for _, id := range wire.IDs() {
		if id.String() == name {
			return id, true
		}
	}
	return 0, false
}

func (d *Driver) send(c *command) string {
	r := d.raw(c, 0)
	typ := c.word(1, "a message type", "")
	id, ok := messageID(typ)
	if !ok {
		c.fatalf("unknown message type %q", typ)
	}
	m := wire.New(id)
	fields := messageFields(m)
	for key, val := range c.args {
		if key == "truncate" {
			continue
		}
		f, ok := fields[key]
		if !ok {
			c.fatalf("%s has no field %q (its fields: %s)", typ, key, strings.Join(sortedKeys(fields), " "))
		}
		if err := setField(f, val); err != nil {
			c.fatalf("%s=%q: %v", key, val, err)
		}
		c.used[key] = true
	}
	cut := c.uint("truncate", 16, 0)
	truncate := c.has("truncate")
	c.done(2)
	if truncate {
		b, err := m.Append(nil)
		if err != nil {
			return result(err)
		}
		if int(cut) >= len(b) {
			c.fatalf("truncate=%d: the message is only %d bytes", cut, len(b))
		}
		return result(r.SendBytes(b[:cut]))
	}
	v, err := r.Send(m)
	if err != nil {
		return result(err)
	}
	return v.String() + "\n"
}

func (c *command) has(key string) bool { _, ok := c.args[key]; return ok }

func (d *Driver) sendBytes(c *command) string {
	r := d.raw(c, 0)
	b, err := hex.DecodeString(c.word(1, "hex bytes", ""))
	if err != nil {
		c.fatalf("hex bytes: %v", err)
	}
	c.done(2)
	return result(r.SendBytes(b))
}

func (d *Driver) received(c *command) string {
	r := d.raw(c, 0)
	var want wire.ID
	if typ, ok := c.arg("type"); ok {
		if want, ok = messageID(typ); !ok {
			c.fatalf("unknown message type %q", typ)
		}
	}
	c.done(1)
	var out strings.Builder
	n := 0
	for _, m := range r.Received() {
		if want != 0 && m.ID() != want {
			continue
		}
		fmt.Fprintf(&out, "%v\n", m)
		n++
	}
	r.Clear()
	fmt.Fprintf(&out, "%d message(s)\n", n)
	return out.String()
}

func (d *Driver) printRaw(r *Raw) string {
	srv := d.k.Server()
	if srv == nil {
		return result(ErrRawNotJoined)
	}
	l, err := srv.Vitals(r.ID())
	if err != nil {
		return result(err)
	}
	ph, err := srv.Phase(r.ID())
	if err != nil {
		return result(err)
	}
	gen, err := srv.Generation(r.ID())
	if err != nil {
		return result(err)
	}
	rtt, ok := srv.RTT(r.ID())
	measured := "none"
	if ok {
		measured = rtt.String()
	}
	out := fmt.Sprintf("%s: ledger=%s/%s life server=%v gen=%d rtt=%s\n", r.name, f32(l.Health), f32(l.Armor), ph, gen, measured)
	slotsNow, err := srv.Weapons(r.ID())
	if err != nil {
		return out + result(err)
	}
	held, err := srv.HeldWeapon(r.ID())
	if err != nil {
		return out + result(err)
	}
	return out + fmt.Sprintf("%s: store server held=%s%s\n", r.name, weaponName(held), slots(slotsNow))
}

// messageFields maps the settable fields of a message, by the names wire prints them with
// (VitalRev -> vital_rev, Position.X -> position.x), to their values.
func messageFields(m wire.Message) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	var walk func(v reflect.Value, prefix string)
	walk = func(v reflect.Value, prefix string) {
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := prefix + snake(f.Name)
			if f.Type.Kind() == reflect.Struct {
				walk(v.Field(i), name+".")
				continue
			}
			out[name] = v.Field(i)
		}
	}
	walk(reflect.ValueOf(m).Elem(), "")
	return out
}

// snake spells a Go field name as wire prints it: VitalRev -> vital_rev, HitID -> hit_id.
func snake(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		ch := name[i]
		if ch >= 'A' && ch <= 'Z' {
			if i > 0 {
				prevLower := name[i-1] >= 'a' && name[i-1] <= 'z'
				nextLower := i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z'
				if prevLower || nextLower {
					b.WriteByte('_')
				}
			}
			ch += 'a' - 'A'
		}
		b.WriteByte(ch)
	}
	return b.String()
}

func setField(f reflect.Value, val string) error {
	switch f.Kind() {
	case reflect.Bool:
		b, err := strconv.ParseBool(val)
		if err != nil {
			return err
		}
		f.SetBool(b)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if val == "none" { // NoPlayer, NoVehicle
			val = strconv.FormatUint(1<<f.Type().Bits()-1, 10)
		}
		n, err := strconv.ParseUint(val, 0, f.Type().Bits())
		if err != nil {
			return err
		}
		f.SetUint(n)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(val, 0, f.Type().Bits())
		if err != nil {
			return err
		}
		f.SetInt(n)
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(val, f.Type().Bits())
		if err != nil {
			return err
		}
		f.SetFloat(x)
	default:
		return fmt.Errorf("a field of kind %v cannot be set", f.Kind())
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// target returns the server id of the i-th word's player or raw connection (and the
// player, nil for a raw connection), for the gamemode's commands.
func (d *Driver) target(c *command, i int) (refserver.PlayerID, *Player) {
	c.tb.Helper()
	name := c.word(i, "a player", "")
	if r, ok := d.raws[name]; ok {
		return r.ID(), nil
	}
	p := d.player(c, i)
	return p.ID(), p
}

// Command is a host's own scenario command (a gamemode's "safe-zone on", "regen off"):
// it acts on the kit and returns what the world did, for the expected output; an error
// is printed as "error: ..." like the kit's own refusals. A command that wants to fail
// the scenario (a malformed argument) calls Args.Fatalf.
type Command func(k *Kit, a *Args) (string, error)

// Handle adds the host's command verb, or replaces one of the kit's.
func (d *Driver) Handle(verb string, fn Command) {
	if d.host == nil {
		d.host = map[string]Command{}
	}
	d.host[verb] = fn
}

// Args are a host command's words and key=value arguments. An argument the command does
// not read fails the scenario by name, as the kit's own commands do.
type Args struct {
	c *command
	d *Driver
}

// Words returns the words after the verb.
func (a *Args) Words() []string { return append([]string(nil), a.c.words...) }

// Player returns the player the i-th word names; the scenario fails for no such player.
func (a *Args) Player(i int) *Player {
	a.c.tb.Helper()
	return a.d.player(a.c, i)
}

// Str returns the key's value, or def.
func (a *Args) Str(key, def string) string { return a.c.str(key, def) }

// Float returns the key's value as a number, or def; a malformed value fails the
// scenario.
func (a *Args) Float(key string, def float64) float64 {
	a.c.tb.Helper()
	return a.c.float(key, def)
}

// Duration returns the key's value as a Go duration, or def; a malformed value fails
// the scenario.
func (a *Args) Duration(key string, def time.Duration) time.Duration {
	a.c.tb.Helper()
	return a.c.dur(key, def)
}

// Fatalf fails the scenario at this command.
func (a *Args) Fatalf(format string, args ...any) {
	a.c.tb.Helper()
	a.c.fatalf(format, args...)
}
