package refserver

import (
	"math"
	"time"
)

// A report names an attacker's shot; its victim's client could only have applied it if
// it was sent the relay, that is if it had the attacker shown when the relay went out
// ([stream-reports]). Who a connection sees changes at every show and
// hide, so each connection keeps the last VisibilityLog of those changes (its
// visibility log), and a report is checked against the moment of its action.

const (
	// VisibilityLog is how many shows and hides of other players a connection's
	// visibility log keeps ([stream-reports]). A report whose action is older than the
	// oldest change kept after more than VisibilityLog changes is given the benefit of
	// the doubt.
	VisibilityLog = 16
	// RelayFlushSlack is how long after an action's acceptance its shared relay may still
	// go out, at the host's next Flush: a connection shown the actor within it may have
	// been sent the relay ([stream-reports]).
	RelayFlushSlack = 250 * time.Millisecond
)

// visLog is a connection's visibility log: the last VisibilityLog shows and hides of
// other players to it, oldest first from n-VisibilityLog (a ring).
type visLog struct {
	at   [VisibilityLog]time.Duration
	id   [VisibilityLog]PlayerID
	show uint16 // bit i: entry i is a show (else a hide)
	n    uint32 // the changes recorded since the connection joined
}

// add records that subject id was shown (or hidden) to the connection at at.
func (l *visLog) add(id PlayerID, at time.Duration, show bool) {
	k := l.n % VisibilityLog
	l.at[k], l.id[k] = at, id
	if show {
		l.show |= 1 << k
	} else {
		l.show &^= 1 << k
	}
	l.n++
}

// sawDuring reports whether the connection had subject id shown at some moment from from
// to to (an instant with a change counts on both sides of it), seesNow being whether it
// has it shown now; true also when the log lost changes made since from.
func (l *visLog) sawDuring(id PlayerID, from, to time.Duration, seesNow bool) bool {
	kept := min(l.n, VisibilityLog)
	start := l.n - kept
	if l.n > VisibilityLog && l.at[start%VisibilityLog] >= from {
		return true // changes since from were dropped: the benefit of the doubt
	}
	// Before its first change kept, the subject was in the state that change left; with
	// no change kept it has been as it is now since before from.
	shown := seesNow
	for i := start; i < l.n; i++ {
		if k := i % VisibilityLog; l.id[k] == id {
			shown = l.show&(1<<k) == 0
			break
		}
	}
	since := time.Duration(math.MinInt64)
	for i := start; i < l.n; i++ {
		k := i % VisibilityLog
		if l.id[k] != id {
			continue
		}
		if shown && since <= to && l.at[k] >= from {
			return true
		}
		since, shown = l.at[k], l.show&(1<<k) != 0
	}
	return shown && since <= to
}

// sawActor reports whether victim p was sent the relay of a shot of a accepted at:
// whether it had a shown between at and at+RelayFlushSlack ([stream-reports]).
func (w *World) sawActor(p, a *player, at time.Duration) bool {
	return p.vis.sawDuring(a.id, at, at+RelayFlushSlack, p.sees(a.id))
}
