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

// debtor is a connection with owed hides (oldest first, at most one per id), and the
// join it was made for (a connection that left drops its debts with it). The player keeps
// only its place in World.debtors (player.debt), so a connection that owes nothing pays
// four bytes for the rule.
type debtor struct {
	id    PlayerID
	join  uint64
	hides []owedHide
}

// debtOf is r's entry in w.debtors, nil when it owes nothing.
func (w *World) debtOf(r *player) *debtor {
	if r.debt == 0 || int(r.debt) > len(w.debtors) {
		return nil
	}
	d := &w.debtors[r.debt-1]
	if d.id != r.id || d.join != r.joinSerial {
		return nil
	}
	return d
}

// hidePlayer queues a PlayerHide of subject id (the connection's token) on r's lane, or
// owes it when the lane refuses it ([stream-hide-owed]).
func (w *World) hidePlayer(now time.Duration, r *player, id PlayerID, token uint32) {
	r.vis.add(visPlayer(id), now-r.joinedAt, false)
	w.hide(now, r, owedHide{id: uint16(id), token: token})
}

// hideVehicle queues a VehicleHide of vehicle id on r's lane, or owes it when the lane
// refuses it ([stream-hide-owed]).
func (w *World) hideVehicle(now time.Duration, r *player, id uint16) {
	r.vis.add(visVehicle(id), now-r.joinedAt, false)
	w.hide(now, r, owedHide{id: id, vehicle: true})
}

// hide queues the hide h on r's lane after the hides r is owed already, or owes it when
// the lane refuses it at its soft cap. A lane that must disconnect drops the connection
// (and with it every debt).
func (w *World) hide(now time.Duration, r *player, h owedHide) {
	if d := w.debtOf(r); d != nil && len(d.hides) > 0 {
		w.payHides(now, r, d) // the older ones first: the client applies them in order
		if len(d.hides) > 0 {
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
	w.laneWork(r)
	return true
}

// owe records h as owed to r: one debt per id (the newest hide of a player id carries the
// token to match), so a connection owes at most MaxPlayers player hides and MaxVehicles
// vehicle hides.
func (w *World) owe(r *player, h owedHide) {
	d := w.debtOf(r)
	if d == nil {
		w.debtors = append(w.debtors, debtor{id: r.id, join: r.joinSerial})
		r.debt = uint32(len(w.debtors))
		d = &w.debtors[len(w.debtors)-1]
	}
	w.stats.HidesOwed++
	for i := range d.hides {
		if o := &d.hides[i]; o.id == h.id && o.vehicle == h.vehicle {
			o.token = h.token
			return
		}
	}
	d.hides = append(d.hides, h)
}

// forgive cancels r's owed hide of the id just shown to it (vehicle tells which kind).
func (w *World) forgive(r *player, id uint16, vehicle bool) {
	d := w.debtOf(r)
	if d == nil {
		return
	}
	for i, o := range d.hides {
		if o.id == id && o.vehicle == vehicle {
			d.hides = append(d.hides[:i], d.hides[i+1:]...)
			return
		}
	}
}

// payHides queues r's owed hides (d), oldest first, while its lane takes them.
func (w *World) payHides(now time.Duration, r *player, d *debtor) {
	n := 0
	for _, o := range d.hides {
		if !w.queueHide(now, r, o) {
			break
		}
		n++
	}
	d.hides = append(d.hides[:0], d.hides[n:]...)
}

// payDebts queues the owed hides of every connection that has some, while their lanes
// take them (Tick, before the shows of the tick).
func (w *World) payDebts(now time.Duration) {
	if len(w.debtors) == 0 {
		return
	}
	kept := w.debtors[:0]
	for i := range w.debtors {
		d := w.debtors[i]
		r := w.conn(d.id)
		if r == nil || r.joinSerial != d.join {
			continue // gone: its debts with it
		}
		w.payHides(now, r, &d)
		if len(d.hides) == 0 {
			r.debt = 0
			continue
		}
		kept = append(kept, d)
		r.debt = uint32(len(kept))
	}
	clear(w.debtors[len(kept):]) // the dropped entries' hides let go
	w.debtors = kept
}
