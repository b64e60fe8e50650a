package teams

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/arbitergo/arbiter/internal/scenario"
)

// The scenario driver. Each file in testdata/scenarios (beside the fuzz corpus) holds
// scenarios read with datadriven: a "# name" comment, then one "run" block (a new Registry)
// whose input is a list of timed events, one per line (see internal/scenario):
//
//	<time> <verb> [word ...] [key=value ...]
//
// The registry has no clock: the time only orders the story. "run world=small" starts
// from the small world of the Go tests: teams red (1) and blue (2) with friendly fire off
// and ffa (3) with friendly fire on; players redA (0) and redB (1) in red, blueA (2) and
// blueB (3) in blue, loner (4) in ffa and nomad (5) in no team; relation revision 4.
// Players and teams are named in the file (connect and create-team give a name an id); a
// bare number is an id, "none" is NoPlayer and "max" is MaxPlayers. Verbs:
//
//	connect <p> id=N                     Connect
//	disconnect <p>                       Disconnect
//	create-team <t> id=N [label=Name] [color=0xRRGGBBAA] [ff=true]
//	                                     CreateTeam (the label defaults to the name)
//	change-team <t> [label=Name] [color=C] [ff=B]
//	                                     ChangeTeam (unset fields keep their value)
//	remove-team <t>                      RemoveTeam
//	join <p> <t>                         JoinTeam
//	leave <p>                            LeaveTeam
//	friendly-fire <t> on|off             SetFriendlyFire
//	team <t>                             Team, MemberCount, AppendMembers
//	player <p>                           Connected, TeamOf, Group
//	teammates <a> <b>                    Teammates, Stamp(a, b) and AreTeammates of the groups
//	stamp <sender> <recipient> [as=S] [observe=true]
//	                                     Stamp; as= keeps it under the name S (for shot=,
//	                                     rev= and observe); observe=true hands it to the
//	                                     recipient's client (Tracker.Observe)
//	stamp-at <sender> <recipient> rev=R  StampAt
//	judge-report <attacker> <victim> [shot=S | rev=R]
//	                                     Registry.JudgeReport of damage judged by the newest
//	                                     packet, or of a shot relayed with S's (or R's) revision
//	judge-stealth <attacker> <victim>    Registry.JudgeStealthKill
//	killer <candidate> <victim> [rev=R]  Registry.JudgeKiller with the death's revision
//	                                     (default: the revision now)
//	judge-explosion [killer=K] seats=<p>:<last attacker>,...
//	                                     Registry.JudgeExplosion (killer defaults to none,
//	                                     "seats=" is an empty vehicle)
//	observe <recipient> <sender> stamp=S Tracker.Observe on the recipient's client
//	hit <victim> <attacker> [shot=S]     the victim client's Tracker.JudgeHit of a shot that
//	                                     carried S, or without shot= of other damage
//	forget <recipient> <sender>          Tracker.Forget
//
// A revision R is a number, "now", "now+N", "now-N" or the name of a kept stamp.
//
// The block's output, written by the driver (go test ./teams -run Scenario -rewrite
// regenerates it), has one line per event: what the call returned ("error: ..." for an
// error; for the Judge methods the verdict is written before the error, since it is still
// the one to apply). A change of the registry is written as its Change ("rev 5 moved, 1
// regrouped"), followed by "| registry unchanged" when the whole registry is exactly as
// before the call (a refused or empty operation leaves no trace). The driver checks on
// every line that a named killer is never the victim's teammate and that every fate but
// "spared" dies.

type teamsScenario struct {
	t       *testing.T
	r       *Registry
	players map[string]PlayerID
	teams   map[string]TeamID
	names   map[PlayerID]string
	tnames  map[TeamID]string
	stamps  map[string]Stamp
	clients map[PlayerID]*Tracker
}

func newTeamsScenario(t *testing.T) *teamsScenario {
	return &teamsScenario{
		t: t, r: New(),
		players: map[string]PlayerID{}, teams: map[string]TeamID{},
		names: map[PlayerID]string{}, tnames: map[TeamID]string{},
		stamps: map[string]Stamp{}, clients: map[PlayerID]*Tracker{},
	}
}

// smallWorld builds the small world (the one of world in registry_test.go).
func (s *teamsScenario) smallWorld() {
	r := world(s.t)
	s.r = r
	for name, id := range map[string]PlayerID{"redA": redA, "redB": redB, "blueA": blueA, "blueB": blueB, "loner": loner, "nomad": nomad} {
		s.players[name], s.names[id] = id, name
	}
	for name, id := range map[string]TeamID{"red": red, "blue": blue, "ffa": ffa} {
		s.teams[name], s.tnames[id] = id, name
	}
}

func (s *teamsScenario) player(l scenario.Line, name string) PlayerID {
	if id, ok := s.players[name]; ok {
		return id
	}
	switch name {
	case "none":
		return NoPlayer
	case "max":
		return MaxPlayers
	}
	n, err := strconv.ParseUint(name, 10, 16)
	if err != nil {
		l.Fatalf("unknown player %q", name)
	}
	return PlayerID(n)
}

func (s *teamsScenario) team(l scenario.Line, name string) TeamID {
	if id, ok := s.teams[name]; ok {
		return id
	}
	if name == "max" {
		return MaxTeams
	}
	n, err := strconv.ParseUint(name, 10, 16)
	if err != nil {
		l.Fatalf("unknown team %q", name)
	}
	return TeamID(n)
}

func (s *teamsScenario) nameOf(p PlayerID) string {
	if p == NoPlayer {
		return "none"
	}
	if n, ok := s.names[p]; ok {
		return n
	}
	return strconv.Itoa(int(p))
}

func (s *teamsScenario) teamName(t TeamID) string {
	if t == NoTeam {
		return "none"
	}
	if n, ok := s.tnames[t]; ok {
		return n
	}
	return strconv.Itoa(int(t))
}

// rev reads a revision argument.
func (s *teamsScenario) rev(l scenario.Line, v string) uint16 {
	if st, ok := s.stamps[v]; ok {
		return st.Rev
	}
	now := s.r.Rev()
	if v == "now" {
		return now
	}
	if d, ok := strings.CutPrefix(v, "now+"); ok {
		n, err := strconv.ParseUint(d, 10, 16)
		if err != nil {
			l.Fatalf("rev %q: %v", v, err)
		}
		return now + uint16(n)
	}
	if d, ok := strings.CutPrefix(v, "now-"); ok {
		n, err := strconv.ParseUint(d, 10, 16)
		if err != nil {
			l.Fatalf("rev %q: %v", v, err)
		}
		return now - uint16(n)
	}
	n, err := strconv.ParseUint(v, 10, 16)
	if err != nil {
		l.Fatalf("rev %q: want a number, now, now+N, now-N or a kept stamp", v)
	}
	return uint16(n)
}

func (s *teamsScenario) kept(l scenario.Line, key string) Stamp {
	v := l.Str(key, "")
	st, ok := s.stamps[v]
	if !ok {
		l.Fatalf("%s=%q: no stamp kept under that name", key, v)
	}
	return st
}

func (s *teamsScenario) client(p PlayerID) *Tracker {
	tr, ok := s.clients[p]
	if !ok {
		tr = new(Tracker)
		s.clients[p] = tr
	}
	return tr
}

// change writes a Change, and whether the registry is exactly as before the call.
func change(c Change, err error, before *Registry, after *Registry) string {
	out := c.String()
	if err != nil {
		out = "error: " + err.Error() + " (" + out + ")"
	}
	if before.same(after) {
		out += " | registry unchanged"
	}
	return out
}

func withErr(out string, err error) string {
	if err != nil {
		return out + " | error: " + err.Error()
	}
	return out
}

func (s *teamsScenario) definition(l scenario.Line, def Team) Team {
	def.Name = l.Str("label", def.Name)
	if l.Has("color") {
		c, err := strconv.ParseUint(l.Str("color", ""), 0, 32)
		if err != nil {
			l.Fatalf("color: %v", err)
		}
		def.Color = uint32(c)
	}
	def.FriendlyFire = l.Bool("ff", def.FriendlyFire)
	return def
}

func (s *teamsScenario) run(l scenario.Line) string {
	r := s.r
	before := r.clone()
	switch l.Verb {
	case "connect":
		id := PlayerID(l.Uint("id", 16, 0))
		s.players[l.Word(0)], s.names[id] = id, l.Word(0)
		if err := r.Connect(id); err != nil {
			return change(r.unchanged(), err, before, r)
		}
		return "connected | rev " + strconv.Itoa(int(r.Rev()))
	case "disconnect":
		c, err := r.Disconnect(s.player(l, l.Word(0)))
		return change(c, err, before, r)
	case "create-team":
		id := TeamID(l.Uint("id", 16, 0))
		s.teams[l.Word(0)], s.tnames[id] = id, l.Word(0)
		if err := r.CreateTeam(id, s.definition(l, Team{Name: l.Word(0)})); err != nil {
			return change(r.unchanged(), err, before, r)
		}
		return "created | rev " + strconv.Itoa(int(r.Rev()))
	case "change-team":
		t := s.team(l, l.Word(0))
		old, _ := r.Team(t)
		c, err := r.ChangeTeam(t, s.definition(l, old))
		return change(c, err, before, r)
	case "remove-team":
		c, err := r.RemoveTeam(s.team(l, l.Word(0)))
		return change(c, err, before, r)
	case "join":
		c, err := r.JoinTeam(s.player(l, l.Word(0)), s.team(l, l.Word(1)))
		return change(c, err, before, r)
	case "leave":
		c, err := r.LeaveTeam(s.player(l, l.Word(0)))
		return change(c, err, before, r)
	case "friendly-fire":
		on := false
		switch l.Word(1) {
		case "on":
			on = true
		case "off":
		default:
			l.Fatalf("friendly-fire: want on or off")
		}
		c, err := r.SetFriendlyFire(s.team(l, l.Word(0)), on)
		return change(c, err, before, r)
	case "team":
		t := s.team(l, l.Word(0))
		def, exists := r.Team(t)
		var members []string
		for _, p := range r.AppendMembers(nil, t) {
			members = append(members, s.nameOf(p))
		}
		if !exists {
			return fmt.Sprintf("no such team, %d members %v", r.MemberCount(t), members)
		}
		ff := "off"
		if def.FriendlyFire {
			ff = "on"
		}
		return fmt.Sprintf("%q color 0x%08x friendly fire %s, %d members %v | %d teams %v",
			def.Name, def.Color, ff, r.MemberCount(t), members, r.TeamCount(), s.teamList())
	case "player":
		p := s.player(l, l.Word(0))
		state := "not connected"
		if r.Connected(p) {
			state = "connected"
		}
		return fmt.Sprintf("%s, team %s, group %d", state, s.teamName(r.TeamOf(p)), r.Group(p))
	case "teammates":
		a, b := s.player(l, l.Word(0)), s.player(l, l.Word(1))
		return fmt.Sprintf("%v, stamp %v, groups %d/%d: rule says %v",
			r.Teammates(a, b), r.Stamp(a, b), r.Group(a), r.Group(b), AreTeammates(a, r.Group(a), b, r.Group(b)))
	case "stamp":
		from, to := s.player(l, l.Word(0)), s.player(l, l.Word(1))
		st := r.Stamp(from, to)
		out := st.String()
		if l.Has("as") {
			s.stamps[l.Str("as", "")] = st
		}
		if l.Bool("observe", false) {
			out += " | " + s.observe(to, from, st)
		}
		return out
	case "stamp-at":
		st, err := r.StampAt(s.player(l, l.Word(0)), s.player(l, l.Word(1)), s.rev(l, l.Str("rev", "now")))
		if err != nil {
			return "error: " + err.Error()
		}
		return st.String()
	case "judge-report":
		var a Action
		switch {
		case l.Has("shot"):
			a = Action{Stamped: true, Rev: s.kept(l, "shot").Rev}
		case l.Has("rev"):
			a = Action{Stamped: true, Rev: s.rev(l, l.Str("rev", ""))}
		}
		v, err := r.JudgeReport(s.player(l, l.Word(0)), s.player(l, l.Word(1)), a)
		return withErr(fmt.Sprintf("%v (credited %v)", v, v.Credited()), err)
	case "judge-stealth":
		return r.JudgeStealthKill(s.player(l, l.Word(0)), s.player(l, l.Word(1))).String()
	case "killer":
		victim := s.player(l, l.Word(1))
		k, v, err := r.JudgeKiller(s.player(l, l.Word(0)), victim, s.rev(l, l.Str("rev", "now")))
		if k != NoPlayer && r.Teammates(k, victim) {
			l.Fatalf("a teammate named killer: %s of %s", s.nameOf(k), s.nameOf(victim))
		}
		return withErr(fmt.Sprintf("killer %s, %v", s.nameOf(k), v), err)
	case "judge-explosion":
		return s.explosion(l)
	case "observe":
		return s.observe(s.player(l, l.Word(0)), s.player(l, l.Word(1)), s.kept(l, "stamp"))
	case "hit":
		h := Hit{Attacker: s.player(l, l.Word(1))}
		if l.Has("shot") {
			h.Shot, h.Stamp = true, s.kept(l, "shot")
		}
		return s.client(s.player(l, l.Word(0))).JudgeHit(h).String()
	case "forget":
		tr := s.client(s.player(l, l.Word(0)))
		tr.Forget(s.player(l, l.Word(1)))
		return s.newest(tr, s.player(l, l.Word(1)))
	}
	l.Fatalf("unknown verb %q", l.Verb)
	return ""
}

func (s *teamsScenario) teamList() []string {
	var out []string
	for _, t := range s.r.AppendTeams(nil) {
		out = append(out, s.teamName(t))
	}
	return out
}

func (s *teamsScenario) newest(tr *Tracker, sender PlayerID) string {
	st, known := tr.Newest(sender)
	if !known {
		return "newest none, teammate " + strconv.FormatBool(tr.Teammate(sender))
	}
	return "newest " + st.String() + ", teammate " + strconv.FormatBool(tr.Teammate(sender))
}

func (s *teamsScenario) observe(recipient, sender PlayerID, st Stamp) string {
	tr := s.client(recipient)
	verdict := "older, kept the newest"
	if tr.Observe(sender, st) {
		verdict = "newer, taken"
	}
	return "observed " + st.String() + ": " + verdict + "; " + s.newest(tr, sender)
}

func (s *teamsScenario) explosion(l scenario.Line) string {
	killer := NoPlayer
	if l.Has("killer") {
		killer = s.player(l, l.Str("killer", ""))
	}
	var seats []Seat
	if v := l.Str("seats", ""); v != "" {
		for _, seat := range strings.Split(v, ",") {
			p, last, ok := strings.Cut(seat, ":")
			if !ok {
				l.Fatalf("seat %q: want <player>:<last attacker>", seat)
			}
			seats = append(seats, Seat{Player: s.player(l, p), LastAttacker: s.player(l, last)})
		}
	}
	fates, err := s.r.JudgeExplosion(killer, seats, nil)
	if err != nil {
		return "error: " + err.Error()
	}
	if len(fates) == 0 {
		return "no fates"
	}
	var out []string
	for _, f := range fates {
		if f.Outcome.Dies() == (f.Outcome == SparedTeammateOfAuthor) {
			l.Fatalf("%v: Dies() is %v", f, f.Outcome.Dies())
		}
		if f.Killer != NoPlayer && s.r.Teammates(f.Killer, f.Player) {
			l.Fatalf("a teammate named killer: %v", f)
		}
		out = append(out, fmt.Sprintf("%s %v (killer %s)", s.nameOf(f.Player), f.Outcome, s.nameOf(f.Killer)))
	}
	return strings.Join(out, "; ")
}

func runTeamsScenario(t *testing.T, d *datadriven.TestData) string {
	s := newTeamsScenario(t)
	for _, a := range d.CmdArgs {
		switch {
		case a.Key == "world" && len(a.Vals) == 1 && a.Vals[0] == "small":
			s.smallWorld()
		default:
			d.Fatalf(t, "unknown run argument %q: want world=small", a.String())
		}
	}
	var out strings.Builder
	for _, l := range scenario.Lines(t, d.Input) {
		head := l.Verb
		if len(l.Words) > 0 {
			head += " " + strings.Join(l.Words, " ")
		}
		fmt.Fprintf(&out, "%-7s %s: %s\n", l.Time, head, s.run(l))
	}
	return out.String()
}

// TestScenario runs every scenario file in testdata/scenarios.
func TestScenario(t *testing.T) {
	datadriven.Walk(t, "testdata/scenarios", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "run" {
				d.Fatalf(t, "unknown command %q: want run", d.Cmd)
			}
			return runTeamsScenario(t, d)
		})
	})
}
