package teams

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/arbitergo/arbiter/internal/ids"
)

// PlayerID is a player slot, 0..MaxPlayers-1. It is the same type as every other
// package's PlayerID (vitals, lifecycle, rewind, wire), so an id passes between them
// without a conversion.
type PlayerID = ids.PlayerID

// TeamID names a team, 1..MaxTeams. The zero TeamID (NoTeam) means "no team".
type TeamID uint16

// Limits of the registry. Everything is preallocated at these sizes, so no operation
// allocates and nothing a client sends can grow the registry.
const (
	// MaxPlayers is the number of player slots: ids 0..MaxPlayers-1 (ten times SA-MP's
	// MAX_PLAYERS: a streaming world of 10,000 players; 96 bytes a slot).
	MaxPlayers = 10000
	// MaxTeams is the highest team id: teams are 1..MaxTeams. There is no use for more
	// teams than player slots.
	MaxTeams = 1000
	// MaxTeamName is the longest team name, in bytes.
	MaxTeamName = 64
	// GroupHistory is how many changes of its damage group each player slot remembers, so
	// that StampAt can rebuild the stamp an action carried a moment ago (an action's report
	// arrives within a round trip, during which a player changes group rarely more than
	// once). A stamp older than that many changes of either player is forgotten.
	GroupHistory = 8
)

// NoPlayer is the PlayerID of no player, 0xFFFF (SA-MP's INVALID_PLAYER_ID): damage
// without an author, a death without a killer.
const NoPlayer = ids.NoPlayer

// NoTeam is the team of a player that is in no team. It is also damage group 0.
const NoTeam TeamID = 0

// Team is what the server keeps about a team. None of it goes on the wire: clients only
// ever see damage groups.
type Team struct {
	// Name is the team's name for the gamemode and its messages: 1..MaxTeamName bytes of
	// valid UTF-8 without control characters.
	Name string
	// Color is the team's color as RGBA (0xRRGGBBAA). Any value is valid.
	Color uint32
	// FriendlyFire allows the members to hurt each other. While it is off (the zero value)
	// the members share the team's damage group and refuse each other's damage; while it
	// is on their group is 0 and they are not teammates for damage at all.
	FriendlyFire bool
}

// Change tells what a team operation did to the damage groups and the relation revision.
// It carries nothing the host must send: a team change reaches the clients through the
// stamps of the next packets.
type Change struct {
	// Rev is the relation revision after the operation.
	Rev uint16
	// Moved reports whether the operation moved the relation revision: it did if and only
	// if the damage group of at least one player changed.
	Moved bool
	// Regrouped is the number of players whose damage group changed.
	Regrouped int
}

// String returns a deterministic description, "rev 7 moved, 3 regrouped" or "rev 7 unmoved".
func (c Change) String() string {
	if !c.Moved {
		return "rev " + strconv.Itoa(int(c.Rev)) + " unmoved"
	}
	return "rev " + strconv.Itoa(int(c.Rev)) + " moved, " + strconv.Itoa(c.Regrouped) + " regrouped"
}

// Registry holds the teams of one world, the membership and damage group of each player
// slot, and the global relation revision. Its zero value is an empty registry ready to
// use; New returns one on the heap.
//
// A Registry is not safe for concurrent use: one goroutine owns a world. The methods that
// only read (Stamp, StampAt, Teammates, Group, Rev, the Judge methods, the getters) write
// nothing, so a host may call them from several goroutines at once while no method that
// changes the registry runs.
type Registry struct {
	// rev counts every move of the relation revision since the registry was made; the wire
	// carries its low 16 bits. Keeping all 64 lets StampAt order past revisions exactly.
	rev uint64
	// groups is the damage group of each slot, kept beside rev so a stamp is two loads.
	// A slot nobody occupies has group 0.
	groups  []uint16 // one per slot: NewSlots's count, MaxPlayers for New
	players []player
	teams   [MaxTeams + 1]team // index 0 unused
	history []history
	nteams  int
}

type player struct {
	team      TeamID
	connected bool
}

type team struct {
	Team
	exists  bool
	members uint16
}

// New returns an empty registry of MaxPlayers slots: no teams, no players, relation
// revision 0.
func New() *Registry { return NewSlots(MaxPlayers) }

// NewSlots returns an empty registry of slots 0..n-1 (n at least 1, at most MaxPlayers),
// so that a world of fewer players keeps only their slots: ids from n on are refused with
// ErrPlayerOutOfRange, as ids from MaxPlayers on are.
func NewSlots(n int) *Registry {
	n = min(max(n, 1), MaxPlayers)
	return &Registry{groups: make([]uint16, n), players: make([]player, n), history: make([]history, n)}
}

// Connect occupies player slot p with a new player. The new player is in no team and has
// damage group 0: nothing of a previous player on the same slot carries over.
func (r *Registry) Connect(p PlayerID) error {
	if err := r.checkSlot(p); err != nil {
		return err
	}
	if len(r.players) == 0 { // the zero Registry: its MaxPlayers slots are made now
		n := MaxPlayers
		r.groups, r.players, r.history = make([]uint16, n), make([]player, n), make([]history, n)
	}
	if r.players[p].connected {
		return fmt.Errorf("%w: %d", ErrPlayerConnected, p)
	}
	r.players[p] = player{connected: true}
	return nil
}

// Disconnect frees player slot p. The player leaves its team with it (membership is a
// field of the player); if it had a non-zero damage group the relation revision moves.
func (r *Registry) Disconnect(p PlayerID) (Change, error) {
	if err := r.checkConnected(p); err != nil {
		return r.unchanged(), err
	}
	c := r.setTeam(p, NoTeam)
	r.players[p].connected = false
	return c, nil
}

// JoinTeam puts player p into team t, leaving the team it was in. Joining the team it is
// already in changes nothing.
func (r *Registry) JoinTeam(p PlayerID, t TeamID) (Change, error) {
	if err := r.checkConnected(p); err != nil {
		return r.unchanged(), err
	}
	if err := r.checkExists(t); err != nil {
		return r.unchanged(), err
	}
	return r.setTeam(p, t), nil
}

// LeaveTeam takes player p out of its team. A player in no team stays so.
func (r *Registry) LeaveTeam(p PlayerID) (Change, error) {
	if err := r.checkConnected(p); err != nil {
		return r.unchanged(), err
	}
	return r.setTeam(p, NoTeam), nil
}

// CreateTeam creates team t. It has no members yet, so no damage group changes.
func (r *Registry) CreateTeam(t TeamID, def Team) error {
	if err := checkTeamID(t); err != nil {
		return err
	}
	if r.teams[t].exists {
		return fmt.Errorf("%w: %d", ErrTeamExists, t)
	}
	if err := checkName(def.Name); err != nil {
		return err
	}
	r.teams[t] = team{Team: def, exists: true}
	r.nteams++
	return nil
}

// ChangeTeam replaces the name, color and friendly-fire flag of team t. Renaming and
// recoloring change no damage group and do not move the relation revision; turning
// friendly fire on or off regroups the members and moves it (if the team has members).
func (r *Registry) ChangeTeam(t TeamID, def Team) (Change, error) {
	if err := r.checkExists(t); err != nil {
		return r.unchanged(), err
	}
	if err := checkName(def.Name); err != nil {
		return r.unchanged(), err
	}
	r.teams[t].Team = def
	return r.regroupTeam(t, groupOf(t, def.FriendlyFire)), nil
}

// SetFriendlyFire turns friendly fire within team t on or off, keeping its name and color.
func (r *Registry) SetFriendlyFire(t TeamID, on bool) (Change, error) {
	if err := r.checkExists(t); err != nil {
		return r.unchanged(), err
	}
	r.teams[t].FriendlyFire = on
	return r.regroupTeam(t, groupOf(t, on)), nil
}

// RemoveTeam removes team t. Its members stay connected, in no team, with damage group 0.
func (r *Registry) RemoveTeam(t TeamID) (Change, error) {
	if err := r.checkExists(t); err != nil {
		return r.unchanged(), err
	}
	next, n := r.rev+1, 0
	for p := range r.players {
		if r.teams[t].members == 0 {
			break
		}
		if r.players[p].team == t {
			r.players[p].team = NoTeam
			r.teams[t].members--
			if r.regroup(PlayerID(p), 0, next) {
				n++
			}
		}
	}
	r.teams[t] = team{}
	r.nteams--
	return r.finish(n, next), nil
}

// Team returns the definition of team t, and whether it exists.
func (r *Registry) Team(t TeamID) (Team, bool) {
	if checkTeamID(t) != nil || !r.teams[t].exists {
		return Team{}, false
	}
	return r.teams[t].Team, true
}

// TeamCount returns the number of teams.
func (r *Registry) TeamCount() int { return r.nteams }

// AppendTeams appends the ids of all teams to dst in ascending order and returns it.
func (r *Registry) AppendTeams(dst []TeamID) []TeamID {
	for t := 1; t <= MaxTeams; t++ {
		if r.teams[t].exists {
			dst = append(dst, TeamID(t))
		}
	}
	return dst
}

// MemberCount returns the number of players in team t (0 for a team that does not exist).
func (r *Registry) MemberCount(t TeamID) int {
	if checkTeamID(t) != nil {
		return 0
	}
	return int(r.teams[t].members)
}

// AppendMembers appends the players of team t to dst in ascending order and returns it.
func (r *Registry) AppendMembers(dst []PlayerID, t TeamID) []PlayerID {
	if checkTeamID(t) != nil || r.teams[t].members == 0 {
		return dst
	}
	for p := range r.players {
		if r.players[p].connected && r.players[p].team == t {
			dst = append(dst, PlayerID(p))
		}
	}
	return dst
}

// Connected reports whether player slot p is occupied.
func (r *Registry) Connected(p PlayerID) bool {
	return int(p) < len(r.players) && r.players[p].connected
}

// TeamOf returns the team of player p, NoTeam for a player in no team or not connected.
func (r *Registry) TeamOf(p PlayerID) TeamID {
	if int(p) >= len(r.players) {
		return NoTeam
	}
	return r.players[p].team
}

// Group returns the damage group of player p: its team id while that team's friendly fire
// is off, 0 otherwise (no team, friendly fire on, not connected, out of range). This is
// the value the relay puts into the player's frames.
//
// Rules: [damage-groups].
func (r *Registry) Group(p PlayerID) uint16 {
	if int(p) >= len(r.groups) {
		return 0
	}
	return r.groups[p]
}

// setTeam moves a connected player p into team t (NoTeam to leave), keeping the member
// counts, and regroups it. The caller has validated p and t.
func (r *Registry) setTeam(p PlayerID, t TeamID) Change {
	old := r.players[p].team
	if old == t {
		return r.unchanged()
	}
	if old != NoTeam {
		r.teams[old].members--
	}
	if t != NoTeam {
		r.teams[t].members++
	}
	r.players[p].team = t
	next, n := r.rev+1, 0
	if r.regroup(p, groupOf(t, t != NoTeam && r.teams[t].FriendlyFire), next) {
		n++
	}
	return r.finish(n, next)
}

// regroupTeam gives every member of team t the damage group g.
func (r *Registry) regroupTeam(t TeamID, g uint16) Change {
	next, n := r.rev+1, 0
	if r.teams[t].members > 0 {
		for p := range r.players {
			if r.players[p].team == t && r.regroup(PlayerID(p), g, next) {
				n++
			}
		}
	}
	return r.finish(n, next)
}

// regroup sets the damage group of p to g under revision next, and reports whether it
// changed.
func (r *Registry) regroup(p PlayerID, g uint16, next uint64) bool {
	if r.groups[p] == g {
		return false
	}
	r.groups[p] = g
	r.history[p].push(next, g)
	return true
}

// finish commits revision next if n players were regrouped under it.
func (r *Registry) finish(n int, next uint64) Change {
	if n > 0 {
		r.rev = next
	}
	return Change{Rev: uint16(r.rev), Moved: n > 0, Regrouped: n}
}

func (r *Registry) unchanged() Change { return Change{Rev: uint16(r.rev)} }

// groupOf is the damage group of a member of team t: the team id while friendly fire is
// off, 0 with friendly fire on or without a team.
func groupOf(t TeamID, friendlyFire bool) uint16 {
	if t == NoTeam || friendlyFire {
		return 0
	}
	return uint16(t)
}

func checkPlayer(p PlayerID) error {
	if p >= MaxPlayers {
		return fmt.Errorf("%w: %d, slots are 0..%d", ErrPlayerOutOfRange, p, MaxPlayers-1)
	}
	return nil
}

// slots is the number of player slots: NewSlots's count, MaxPlayers for New and for the
// zero Registry (whose tables are made at its first Connect).
func (r *Registry) slots() int {
	if len(r.players) == 0 {
		return MaxPlayers
	}
	return len(r.players)
}

// checkSlot is checkPlayer for this registry's slots.
func (r *Registry) checkSlot(p PlayerID) error {
	if n := r.slots(); int(p) >= n {
		return fmt.Errorf("%w: %d, slots are 0..%d", ErrPlayerOutOfRange, p, n-1)
	}
	return nil
}

func (r *Registry) checkConnected(p PlayerID) error {
	if err := r.checkSlot(p); err != nil {
		return err
	}
	if !r.players[p].connected {
		return fmt.Errorf("%w: %d", ErrUnknownPlayer, p)
	}
	return nil
}

func checkTeamID(t TeamID) error {
	if t == NoTeam || t > MaxTeams {
		return fmt.Errorf("%w: %d, teams are 1..%d", ErrTeamOutOfRange, t, MaxTeams)
	}
	return nil
}

func (r *Registry) checkExists(t TeamID) error {
	if err := checkTeamID(t); err != nil {
		return err
	}
	if !r.teams[t].exists {
		return fmt.Errorf("%w: %d", ErrUnknownTeam, t)
	}
	return nil
}

func checkName(name string) error {
	if len(name) == 0 || len(name) > MaxTeamName {
		return fmt.Errorf("%w: %d bytes, want 1..%d", ErrTeamName, len(name), MaxTeamName)
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("%w: not valid UTF-8", ErrTeamName)
	}
	for _, c := range name {
		if unicode.IsControl(c) {
			return fmt.Errorf("%w: control character %U", ErrTeamName, c)
		}
	}
	return nil
}
