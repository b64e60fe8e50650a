package refserver

import (
	"errors"
	"time"

	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// A hide is an ordinary message: a lane at its soft cap refuses it. The World then owes it
// ([stream-hide-owed]): the subject is hidden for the server at once (no more of its frames,
// shots or edges go there), and the PlayerHide or VehicleHide is queued again at every Tick
// until the lane takes it, so the connection's client does not keep a frozen copy of what
// it no longer has shown. A show of the same id queued in between cancels the debt: the
// show replaces the client's copy, and a hide after it would wrongly remove the new one.

// owedHide is one hide a connection is owed: of a player (token is the departed or hidden
// connection's PlayerToken) or of a vehicle.
type owedHide struct {
	token   uint32
	id      uint16
	vehicle bool
}

// debtor is a connection with owed hides, and the join it was made for (a connection
// that left drops its debts with it).
type debtor struct {
	id   PlayerID
	join uint64
}

// hidePlayer queues a PlayerHide of subject id (the connection's token) on r's lane, or
// owes it when the lane refuses it ([stream-hide-owed]).
func (w *World) hidePlayer(now time.Duration, r *player, id PlayerID, token uint32) {
	r.vis.add(id, now, false)
	w.hide(now, r, owedHide{id: uint16(id), token: token})
}

// hideVehicle queues a VehicleHide of vehicle id on r's lane, or owes it when the lane
// refuses it ([stream-hide-owed]).
func (w *World) hideVehicle(now time.Duration, r *player, id uint16) {
	w.hide(now, r, owedHide{id: id, vehicle: true})
}

// hide queues the hide h on r's lane after the hides r is owed already, or owes it when
// the lane refuses it at its soft cap. A lane that must disconnect drops the connection
// (and with it every debt).
func (w *World) hide(now time.Duration, r *player, h owedHide) {
	if len(r.owedHides) > 0 {
		w.payHides(now, r) // the older ones first: the client applies them in order
		if len(r.owedHides) > 0 {
			w.owe(r, h)
			return
		}
	}
	if !w.queueHide(now, r, h) {
		w.owe(r, h)
	}
}

// queueHide queues the hide h on r's lane and reports whether the lane took it; a lane
// that must disconnect drops the connection (a refusal that makes no debt: it reports
// true).
func (w *World) queueHide(now time.Duration, r *player, h owedHide) bool {
	var m wire.Message
	if h.vehicle {
		w.msgs.vhide = wire.VehicleHide{Vehicle: h.id}
		m = &w.msgs.vhide
	} else {
		w.msgs.hide = wire.PlayerHide{Player: PlayerID(h.id), PlayerToken: h.token}
		m = &w.msgs.hide
	}
	if _, err := r.ep.Queue(now, m); err != nil {
		if errors.Is(err, lane.ErrMustDisconnect) {
			w.markDrop(r, wire.ReasonOverflow)
			return true
		}
		return false
	}
	r.laneDue = 0
	return true
}

// owe records h as owed to r: one debt per id (the newest hide of a player id carries the
// token to match), so a connection owes at most MaxPlayers player hides and MaxVehicles
// vehicle hides.
func (w *World) owe(r *player, h owedHide) {
	for i := range r.owedHides {
		if o := &r.owedHides[i]; o.id == h.id && o.vehicle == h.vehicle {
			o.token = h.token
			return
		}
	}
	if len(r.owedHides) == 0 {
		w.debtors = append(w.debtors, debtor{id: r.id, join: r.joinSerial})
	}
	r.owedHides = append(r.owedHides, h)
	w.stats.HidesOwed++
}

// forgive cancels r's owed hide of the id just shown to it (vehicle tells which kind).
func (w *World) forgive(r *player, id uint16, vehicle bool) {
	for i, o := range r.owedHides {
		if o.id == id && o.vehicle == vehicle {
			r.owedHides = append(r.owedHides[:i], r.owedHides[i+1:]...)
			return
		}
	}
}

// payHides queues r's owed hides, oldest first, while its lane takes them.
func (w *World) payHides(now time.Duration, r *player) {
	n := 0
	for _, o := range r.owedHides {
		if !w.queueHide(now, r, o) {
			break
		}
		n++
	}
	r.owedHides = append(r.owedHides[:0], r.owedHides[n:]...)
}

// payDebts queues the owed hides of every connection that has some, while their lanes
// take them (Tick, before the shows of the tick).
func (w *World) payDebts(now time.Duration) {
	kept := w.debtors[:0]
	for _, d := range w.debtors {
		r := w.conn(d.id)
		if r == nil || r.joinSerial != d.join || len(r.owedHides) == 0 {
			continue
		}
		w.payHides(now, r)
		if len(r.owedHides) > 0 {
			kept = append(kept, d)
		}
	}
	w.debtors = kept
}
