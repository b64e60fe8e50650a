package refserver

import (
	"math"
	"time"
)

// A report names an attacker's shot; its victim's client could only have applied it if
// it was sent the relay, that is if it had the attacker shown when the relay went out
// ([stream-reports]), and for a vehicle gun's shot the vehicle too
// ([stream-vehicle-relays]). Who and what a connection sees changes at every show and
// hide, so each connection keeps the last VisibilityLog of those changes, of players and
// of vehicles (its visibility log), and a report is checked against the moment of its
// action.

const (
	// VisibilityLog is how many shows and hides of other players and of vehicles a
	// connection's visibility log keeps ([stream-reports]). A report whose action is older than the
	// oldest change kept after more than VisibilityLog changes is given the benefit of
	// the doubt.
	VisibilityLog = 16
	// RelayFlushSlack is how long after an action's acceptance its shared relay may still
	// go out, at the host's next Flush: a connection shown the actor within it may have
	// been sent the relay ([stream-reports]).
	RelayFlushSlack = 250 * time.Millisecond
)

// visLog is a connection's visibility log: the last VisibilityLog shows and hides of
// other players and of vehicles to it, oldest first from n-VisibilityLog (a ring). Times
// are kept in milliseconds since the connection joined (104 bytes a connection); a
// connection older than the uint32 milliseconds can count (49 days) is given the benefit
// of the doubt.
type visLog struct {
	at   [VisibilityLog]uint32 // milliseconds since the join
	id   [VisibilityLog]uint16 // a PlayerID, or a vehicle's id (bit i of veh)
	show uint16                // bit i: entry i is a show (else a hide)
	veh  uint16                // bit i: entry i is of a vehicle (else of a player)
	n    uint32                // the changes recorded since the connection joined
}

// visSubject is what a visibility log entry is about: a player, or a vehicle.
type visSubject struct {
	id      uint16
	vehicle bool
}

// visPlayer and visVehicle name a subject of the log.
func visPlayer(id PlayerID) visSubject { return visSubject{id: uint16(id)} }
func visVehicle(id uint16) visSubject  { return visSubject{id: id, vehicle: true} }

// is reports whether entry k is about s.
func (l *visLog) is(k uint32, s visSubject) bool {
	return l.id[k] == s.id && (l.veh&(1<<k) != 0) == s.vehicle
}

// visMS is since, a time since the join, in the log's milliseconds rounded down (up with
// up), and false beyond what they can count.
func visMS(since time.Duration, up bool) (uint32, bool) {
	if since < 0 {
		return 0, true
	}
	ms := since / time.Millisecond
	if up && since%time.Millisecond != 0 {
		ms++
	}
	if ms > math.MaxUint32 {
		return 0, false
	}
	return uint32(ms), true
}

// add records that subject s was shown (or hidden) to the connection at since its join.
// Only changes are recorded: a show of what is shown already is not one.
func (l *visLog) add(s visSubject, since time.Duration, show bool) {
	ms, ok := visMS(since, false)
	if !ok {
		ms = math.MaxUint32
	}
	k := l.n % VisibilityLog
	l.at[k], l.id[k] = ms, s.id
	l.show = setBit(l.show, k, show)
	l.veh = setBit(l.veh, k, s.vehicle)
	l.n++
}

// setBit is m with bit k set to on.
func setBit(m uint16, k uint32, on bool) uint16 {
	if on {
		return m | 1<<k
	}
	return m &^ (1 << k)
}

// sawDuring reports whether the connection had subject s shown at some moment from from
// to to (times since its join; an instant with a change counts on both sides of it, and
// the same millisecond is the same instant), seesNow being whether it has it shown now;
// true also when the log lost changes made since from, or cannot count to to.
func (l *visLog) sawDuring(s visSubject, from, to time.Duration, seesNow bool) bool {
	lo, _ := visMS(from, false)
	hi, ok := visMS(to, true)
	if !ok {
		return true
	}
	kept := min(l.n, VisibilityLog)
	start := l.n - kept
	if l.n > VisibilityLog && l.at[start%VisibilityLog] >= lo {
		return true // changes since from were dropped: the benefit of the doubt
	}
	// Before its first change kept, the subject was in the state that change left; with
	// no change kept it has been as it is now since before from.
	shown := seesNow
	for i := start; i < l.n; i++ {
		if k := i % VisibilityLog; l.is(k, s) {
			shown = l.show&(1<<k) == 0
			break
		}
	}
	since, first := uint32(0), true
	for i := start; i < l.n; i++ {
		k := i % VisibilityLog
		if !l.is(k, s) {
			continue
		}
		if shown && (first || since <= hi) && l.at[k] >= lo {
			return true
		}
		since, shown, first = l.at[k], l.show&(1<<k) != 0, false
	}
	return shown && (first || since <= hi)
}

// sawActor reports whether victim p was sent the relay of a shot of a accepted at:
// whether it had a shown between at and at+RelayFlushSlack ([stream-reports]).
func (w *World) sawActor(p, a *player, at time.Duration) bool {
	return p.sawRelay(visPlayer(a.id), at, p.sees(a.id))
}

// sawVehicle reports whether victim p had vehicle veh shown between at and
// at+RelayFlushSlack: a vehicle gun's shot goes only to the connections that have its
// vehicle shown ([stream-vehicle-relays], [stream-reports]).
func (w *World) sawVehicle(p *player, veh uint16, at time.Duration) bool {
	return p.sawRelay(visVehicle(veh), at, w.vsSees(p.id, veh))
}

// sawRelay reports whether p had s shown at some moment from at to at+RelayFlushSlack,
// seesNow being whether it has it shown now.
func (p *player) sawRelay(s visSubject, at time.Duration, seesNow bool) bool {
	return p.vis.sawDuring(s, at-p.joinedAt, at+RelayFlushSlack-p.joinedAt, seesNow)
}
