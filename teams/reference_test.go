package teams

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// reference is the naive model of the package's rules the tests compare the Registry with. It
// keeps the teams and the membership in maps and computes every relation from scratch,
// with no cached groups. Its revision moves when the groups computed from scratch before
// and after an operation differ, and it keeps the groups at every revision it reached.
type reference struct {
	teams  map[TeamID]Team
	member map[PlayerID]TeamID // connected players and their team (NoTeam for none)
	rev    uint64
	// snaps[rev] is the group of every watched slot at that revision.
	snaps   map[uint64]map[PlayerID]uint16
	watched []PlayerID
	// changes[p] lists the revisions at which slot p's group changed, in order.
	changes map[PlayerID][]uint64
}

func newReference(watched []PlayerID) *reference {
	m := &reference{
		teams:   map[TeamID]Team{},
		member:  map[PlayerID]TeamID{},
		snaps:   map[uint64]map[PlayerID]uint16{},
		watched: watched,
		changes: map[PlayerID][]uint64{},
	}
	m.snaps[0] = m.groups()
	return m
}

// group computes player p's damage group from scratch.
func (m *reference) group(p PlayerID) uint16 {
	t, ok := m.member[p]
	if !ok || t == NoTeam {
		return 0
	}
	def, ok := m.teams[t]
	if !ok || def.FriendlyFire {
		return 0
	}
	return uint16(t)
}

// teammates computes the relation from scratch, from the team definitions.
func (m *reference) teammates(a, b PlayerID) bool {
	if a == b {
		return false
	}
	ta, oka := m.member[a]
	tb, okb := m.member[b]
	if !oka || !okb || ta == NoTeam || ta != tb {
		return false
	}
	def, ok := m.teams[ta]
	return ok && !def.FriendlyFire
}

func (m *reference) groups() map[PlayerID]uint16 {
	g := make(map[PlayerID]uint16, len(m.watched))
	for _, p := range m.watched {
		g[p] = m.group(p)
	}
	return g
}

// regrouped counts the watched players whose group differs between two snapshots.
func regrouped(a, b map[PlayerID]uint16) int {
	n := 0
	for p, g := range a {
		if b[p] != g {
			n++
		}
	}
	return n
}

// op is one team operation of a random sequence.
type op struct {
	kind byte
	p    PlayerID
	t    TeamID
	def  Team
	on   bool
}

const (
	opConnect = iota
	opDisconnect
	opCreate
	opChange
	opSetFF
	opRemove
	opJoin
	opLeave
	numOps
)

func (o op) String() string {
	names := [...]string{"connect", "disconnect", "create", "change", "setff", "remove", "join", "leave"}
	return fmt.Sprintf("%s(p%d t%d %+v on=%v)", names[o.kind], o.p, o.t, o.def, o.on)
}

// apply runs o on the model and returns the error sentinel it expects, the change of
// the revision and the number of watched players regrouped.
func (m *reference) apply(o op) (want error, moved bool, n int) {
	before := m.groups()
	if err := m.validate(o); err != nil {
		return err, false, 0
	}
	switch o.kind {
	case opConnect:
		m.member[o.p] = NoTeam
	case opDisconnect:
		delete(m.member, o.p)
	case opCreate:
		m.teams[o.t] = o.def
	case opChange:
		m.teams[o.t] = o.def
	case opSetFF:
		def := m.teams[o.t]
		def.FriendlyFire = o.on
		m.teams[o.t] = def
	case opRemove:
		delete(m.teams, o.t)
		for p, t := range m.member {
			if t == o.t {
				m.member[p] = NoTeam
			}
		}
	case opJoin:
		m.member[o.p] = o.t
	case opLeave:
		m.member[o.p] = NoTeam
	}
	after := m.groups()
	n = regrouped(before, after)
	if n > 0 {
		m.rev++
		m.snaps[m.rev] = after
		for p, g := range after {
			if before[p] != g {
				m.changes[p] = append(m.changes[p], m.rev)
			}
		}
	}
	return nil, n > 0, n
}

func (m *reference) validate(o op) error {
	playerInRange := o.p < MaxPlayers
	_, connected := m.member[o.p]
	teamInRange := o.t >= 1 && o.t <= MaxTeams
	_, exists := m.teams[o.t]
	switch o.kind {
	case opConnect:
		switch {
		case !playerInRange:
			return ErrPlayerOutOfRange
		case connected:
			return ErrPlayerConnected
		}
	case opDisconnect, opLeave:
		switch {
		case !playerInRange:
			return ErrPlayerOutOfRange
		case !connected:
			return ErrUnknownPlayer
		}
	case opJoin:
		switch {
		case !playerInRange:
			return ErrPlayerOutOfRange
		case !connected:
			return ErrUnknownPlayer
		case !teamInRange:
			return ErrTeamOutOfRange
		case !exists:
			return ErrUnknownTeam
		}
	case opCreate:
		switch {
		case !teamInRange:
			return ErrTeamOutOfRange
		case exists:
			return ErrTeamExists
		case !nameOK(o.def.Name):
			return ErrTeamName
		}
	case opChange:
		switch {
		case !teamInRange:
			return ErrTeamOutOfRange
		case !exists:
			return ErrUnknownTeam
		case !nameOK(o.def.Name):
			return ErrTeamName
		}
	case opSetFF, opRemove:
		switch {
		case !teamInRange:
			return ErrTeamOutOfRange
		case !exists:
			return ErrUnknownTeam
		}
	}
	return nil
}

func nameOK(s string) bool {
	if len(s) < 1 || len(s) > MaxTeamName || !utf8.ValidString(s) {
		return false
	}
	for _, c := range s {
		if unicode.IsControl(c) {
			return false
		}
	}
	return true
}

// run applies o to the registry.
func run(r *Registry, o op) (Change, error) {
	switch o.kind {
	case opConnect:
		return r.unchangedIf(r.Connect(o.p))
	case opDisconnect:
		return r.Disconnect(o.p)
	case opCreate:
		return r.unchangedIf(r.CreateTeam(o.t, o.def))
	case opChange:
		return r.ChangeTeam(o.t, o.def)
	case opSetFF:
		return r.SetFriendlyFire(o.t, o.on)
	case opRemove:
		return r.RemoveTeam(o.t)
	case opJoin:
		return r.JoinTeam(o.p, o.t)
	case opLeave:
		return r.LeaveTeam(o.p)
	}
	panic("unknown op")
}

func (r *Registry) unchangedIf(err error) (Change, error) { return r.unchanged(), err }

// changesAfter counts how often slot p's group changed at revisions after rev, and in all.
func (m *reference) changesAfter(p PlayerID, rev uint64) (after, total int) {
	for _, v := range m.changes[p] {
		if v > rev {
			after++
		}
	}
	return after, len(m.changes[p])
}
