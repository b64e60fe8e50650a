package refserver

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/arbitergo/arbiter/internal/interest"
	"github.com/arbitergo/arbiter/wire"
)

// DefaultVehicleStreamCap is StreamConfig.VehicleCap when left zero: the most vehicles
// shown to one connection, the nearest first ([stream-vehicles]). The same budget as
// players (DefaultStreamCap): a show is about as large as a PlayerShow, and a parking
// lot of more cars than that within 200 m is rare enough that showing the nearest
// hundred is what a player notices.
const DefaultVehicleStreamCap = 100

// MaxVehicleStreamCap is the largest StreamConfig.VehicleCap.
const MaxVehicleStreamCap = MaxVehicles

// vstream is the streaming of vehicles and of gamemode effects (this file): where each
// connection stands, which vehicles it has shown, which live effects it was sent.
type vstream struct {
	on     bool // streaming (World.stream is not nil)
	index  *interest.Points
	dist   float32 // the stream distance: a vehicle is shown within it
	margin float32 // hidden only beyond dist+margin
	cap    int
	every  time.Duration
	recips []vrecip // per player slot
	// viewers lists, per vehicle slot, the connections that have it shown, in the order
	// they were shown it: a respawned or left vehicle is shown anew to them (vsReshow)
	// without a walk over every connection. An entry of a connection that left stays until
	// its slot is placed again (vrecipOf), and is told apart by its join.
	viewers [][]PlayerID
	// Scratch: the candidates of one evaluation, the new shown set's marks, the
	// connections standing near an offered vehicle, the viewers of a vehicle shown anew.
	near   []interest.Point
	mark   []uint64
	offer  []PlayerID
	reshow []PlayerID
	// fires lists the effect slots of the fires that may still be live (pruned as they
	// burn out): a connection that comes within reach is sent them ([stream-effects]).
	// sentTo lists, per effect slot, the connections its effect was sent to (those whose
	// vrecip.effects mark it).
	sentTo [MaxEffects][]PlayerID
	fires  []uint16
	// ticked is the moment of the last vsTick.
	ticked time.Duration
}

// vrecip is one connection's share of vstream; join tells a reused slot.
type vrecip struct {
	join   uint64
	placed bool
	// pos is where the connection stood when first placed; from then on the interest
	// manager holds where it stands (vsPos), so a frame does not touch vrecip.
	pos     wire.Vec3
	due     time.Duration
	effects [MaxEffects / 64]uint64 // effect slots this connection was sent
	shown   []uint64                // vehicles shown, one bit each
	list    []uint16                // the same vehicles, as a list
}

// newVStream returns the vehicle streaming of cfg for a World of maxPlayers slots and
// maxVehicles vehicles; m is the World's interest manager (nil: streaming off).
func newVStream(cfg StreamConfig, m *interest.Manager, maxPlayers, maxVehicles int) (vstream, error) {
	vs := vstream{recips: make([]vrecip, maxPlayers)}
	if m == nil {
		return vs, nil
	}
	c := m.Config()
	vs.on, vs.dist, vs.margin, vs.every = true, c.Distance, c.Margin, c.Every
	vs.cap = cfg.VehicleCap
	if vs.cap == 0 {
		vs.cap = DefaultVehicleStreamCap
	}
	if vs.cap < 0 || vs.cap > MaxVehicleStreamCap {
		return vs, fmt.Errorf("%w: Stream.VehicleCap %d not in 0..%d", ErrConfig, cfg.VehicleCap, MaxVehicleStreamCap)
	}
	ix, err := interest.NewPoints(maxVehicles, c.Distance+c.Margin)
	if err != nil {
		return vs, fmt.Errorf("%w: stream: %w", ErrConfig, err)
	}
	vs.index = ix
	vs.mark = make([]uint64, (maxVehicles+63)/64)
	vs.viewers = make([][]PlayerID, maxVehicles)
	return vs, nil
}

// view records that connection c was shown vehicle id, and unview that it no longer has
// it shown.
func (vs *vstream) view(id uint16, c PlayerID) {
	if int(id) < len(vs.viewers) {
		vs.viewers[id] = append(vs.viewers[id], c)
	}
}
func (vs *vstream) unview(id uint16, c PlayerID) {
	if int(id) >= len(vs.viewers) {
		return
	}
	if i := slices.Index(vs.viewers[id], c); i >= 0 {
		vs.viewers[id] = slices.Delete(vs.viewers[id], i, i+1)
	}
}

// vrecipOf returns p's share of the vehicle streaming, emptied when p is a new
// connection on the slot.
func (w *World) vrecipOf(p *player) *vrecip {
	r := &w.vs.recips[p.id]
	if r.join != p.joinSerial {
		for _, id := range r.list { // the vehicles the slot's last connection had shown
			w.vs.unview(id, p.id)
		}
		clear(r.shown)
		*r = vrecip{join: p.joinSerial, shown: r.shown, list: r.list[:0]}
	}
	return r
}

// reach is how far from a connection something of radius is within its stream: the
// distance plus the margin plus radius (effectReach; a detonation's neighbours).
func (vs *vstream) reach(radius float32) float32 { return vs.dist + vs.margin + radius }

// grow makes r's shown bits at its first use (a connection never placed has none).
func (vs *vstream) grow(r *vrecip) {
	if r.shown == nil {
		r.shown = make([]uint64, len(vs.mark))
	}
}

// vsPlace evaluates a connection placed for the first time at once (every place
// streamPlace is told comes here first). Where a placed connection stands is the
// interest manager's (vsPos): a frame of one already placed costs nothing here.
func (w *World) vsPlace(now time.Duration, p *player, pos wire.Vec3) {
	if !w.vs.on || w.stream.Placed(p.id) {
		return
	}
	// The first place since the connection joined: the interest manager forgets a
	// connection as it leaves (streamLeave), so a new one on the slot is not placed there.
	r := w.vrecipOf(p)
	r.pos, r.placed = pos, true
	r.due = w.stream.NextDue(now, p.id)
	w.vsEvaluate(now, p, r)
}

// vsPos is where r's connection (id) stands, in the plane, while streaming: the interest
// manager's position once it is placed there, the first position (r.pos) while its first
// place is evaluated.
func (w *World) vsPos(id PlayerID, r *vrecip) (x, y float32) {
	if x, y, ok := w.stream.Position(id); ok {
		return x, y
	}
	return r.pos.X, r.pos.Y
}

// vsTick re-evaluates the connections whose phase slot came due. It visits only the ids
// of the slots whose due moment passed since the last tick (an eighth of the slots at a
// tick interval of Every/8), not every connection.
func (w *World) vsTick(now time.Duration) {
	vs := &w.vs
	if !vs.on {
		return
	}
	last, every := vs.ticked, vs.every
	vs.ticked = now
	for s := range interest.Slots {
		if every > 0 && now-last < every {
			phase := every * time.Duration(s) / interest.Slots
			if now < phase {
				continue
			}
			if due := (now-phase)/every*every + phase; due <= last {
				continue // this slot's last due moment was seen by the previous tick
			}
		}
		for id := s; id < len(w.players); id += interest.Slots {
			p := w.conn(PlayerID(id))
			if p == nil {
				continue
			}
			r := &vs.recips[id]
			if r.join != p.joinSerial || !r.placed || now < r.due {
				continue
			}
			r.due = w.stream.NextDue(now, PlayerID(id))
			w.vsEvaluate(now, p, r)
		}
	}
}

// vsSees reports whether connection id has vehicle v shown (always without streaming).
func (w *World) vsSees(id PlayerID, v uint16) bool {
	if !w.vs.on {
		return true
	}
	p := w.conn(id)
	if p == nil {
		return false
	}
	r := &w.vs.recips[id]
	return r.join == p.joinSerial && int(v)/64 < len(r.shown) && r.shown[v/64]&(1<<(v%64)) != 0
}

// SeesVehicle reports whether connection id has vehicle v shown: its VehicleShow went out
// and no VehicleHide since, so v's frames, shots, moves and explosion go to it
// ([stream-vehicles]). Without streaming every connection sees every vehicle.
func (w *World) SeesVehicle(id PlayerID, v uint16) bool {
	return w.conn(id) != nil && w.vehicle(v) != nil && w.vsSees(id, v)
}

// vsVehiclePlaced tells the index where vehicle id stands (created, driven, moved).
func (w *World) vsVehiclePlaced(id uint16, pos wire.Vec3) {
	if w.vs.on {
		_ = w.vs.index.Place(id, pos.X, pos.Y) // never fails: positions are validated first
	}
}

// vsEvaluate sends r's connection the live fires within reach it was not sent, and
// brings its shown vehicles up to date ([stream-vehicles]): the nearest VehicleCap
// within the distance (a shown one competes as if it stood Margin nearer, and stays
// until beyond distance plus margin), and the one it sits in whatever its distance.
func (w *World) vsEvaluate(now time.Duration, p *player, r *vrecip) {
	w.vsFires(now, p, r)
	vs := &w.vs
	vs.grow(r)
	x, y := w.vsPos(p.id, r)
	near := vs.index.Near(vs.near[:0], x, y, vs.dist+vs.margin)
	n := 0
	for _, c := range near {
		d := float32(math.Sqrt(float64(c.D2)))
		if r.shown[c.ID/64]&(1<<(c.ID%64)) != 0 {
			d -= vs.margin
		} else if d > vs.dist {
			continue
		}
		near[n] = interest.Point{ID: c.ID, D2: d} // from here on D2 holds the ranking distance
		n++
	}
	near = near[:n]
	if len(near) > vs.cap {
		slices.SortFunc(near, func(a, b interest.Point) int {
			if a.D2 != b.D2 {
				if a.D2 < b.D2 {
					return -1
				}
				return 1
			}
			return int(a.ID) - int(b.ID)
		})
		near = near[:vs.cap]
	}
	for _, c := range near {
		vs.mark[c.ID/64] |= 1 << (c.ID % 64)
	}
	seat := NoVehicle
	if p.seat.held && w.vehicle(p.seat.vehicle) != nil {
		seat = p.seat.vehicle
		vs.mark[seat/64] |= 1 << (seat % 64)
	}
	// Hides first, then the shows, the nearest first.
	kept := r.list[:0]
	for _, id := range r.list {
		if vs.mark[id/64]&(1<<(id%64)) != 0 {
			kept = append(kept, id)
			continue
		}
		r.shown[id/64] &^= 1 << (id % 64)
		vs.unview(id, p.id)
		w.hideVehicle(now, p, id)
	}
	r.list = kept
	if seat != NoVehicle {
		w.vsShow(now, p, r, seat)
	}
	for _, c := range near {
		w.vsShow(now, p, r, c.ID)
	}
	for _, c := range near {
		vs.mark[c.ID/64] = 0
	}
	if seat != NoVehicle {
		vs.mark[seat/64] = 0
	}
	vs.near = near[:0]
}

// vsShow sends r's connection a VehicleShow of vehicle id with its current state, unless
// it is shown already; like a PlayerShow it goes out only while the lane holds fewer than
// ShowBacklogRoom messages (else the next evaluation tries again).
func (w *World) vsShow(now time.Duration, p *player, r *vrecip, id uint16) bool {
	if r.shown[id/64]&(1<<(id%64)) != 0 {
		return true
	}
	if !w.vsSend(now, p, id) {
		return false
	}
	p.vis.add(visVehicle(id), now-p.joinedAt, true)
	r.shown[id/64] |= 1 << (id % 64)
	r.list = append(r.list, id)
	w.vs.view(id, p.id)
	return true
}

// vsSend queues a VehicleShow of vehicle id with its current state on p's lane, while it
// holds fewer than ShowBacklogRoom messages, and reports whether it went out.
func (w *World) vsSend(now time.Duration, p *player, id uint16) bool {
	v := w.vehicle(id)
	if v == nil {
		return false
	}
	m := &w.msgs.vshow
	*m = wire.VehicleShow{Vehicle: id, Model: v.model, SyncSeq: v.syncSeq, Frozen: v.frozen, Wrecked: v.wrecked,
		Health: min(max(v.health, 0), wire.MaxVehicleHealth), Position: v.pos, Rotation: v.rot}
	if p.ep.Lane().Stats().Queued >= ShowBacklogRoom || p.ep.CanQueue(m) != nil {
		return false
	}
	if _, ok := w.queue(now, p, m); !ok {
		return false
	}
	if p.debt != 0 {
		w.forgive(p, id, true) // the show replaces the copy ([stream-hide-owed])
	}
	return true
}

// vsOffer shows vehicle id at once to every connection standing within the stream
// distance of it that does not have it shown and has room under its VehicleCap (a vehicle
// created, or moved or respawned by the gamemode: as interest's [stream-join]); the others
// see it at their own evaluation if it is among their nearest.
func (w *World) vsOffer(now time.Duration, id uint16) {
	v := w.vehicle(id)
	if !w.vs.on || v == nil {
		return
	}
	// The connections within the distance, from the interest grid (not a walk over every
	// connection).
	w.vs.offer = w.stream.Within(w.vs.offer[:0], v.pos.X, v.pos.Y, w.vs.dist)
	for _, c := range w.vs.offer {
		p := w.conn(c)
		if p == nil {
			continue
		}
		r := w.vrecipOf(p)
		if !r.placed || len(r.list) >= w.vs.cap {
			continue
		}
		w.vs.grow(r)
		w.vsShow(now, p, r, id)
	}
}

// vehicleViewers appends the connections that have vehicle id shown: its list of
// viewers while streaming (in the order they were shown it), every connection without.
func (w *World) vehicleViewers(dst []PlayerID, id uint16) []PlayerID {
	if !w.vs.on {
		return append(dst, w.conns...)
	}
	if int(id) >= len(w.vs.viewers) {
		return dst
	}
	for _, c := range w.vs.viewers[id] {
		if w.vsSees(c, id) { // not an entry of a connection that left
			dst = append(dst, c)
		}
	}
	return dst
}

// queueViewers queues m on the lane of every connection that has vehicle id shown.
func (w *World) queueViewers(now time.Duration, id uint16, m wire.Message) {
	w.viewers = w.vehicleViewers(w.viewers[:0], id)
	for _, c := range w.viewers {
		w.queue(now, w.players[c], m)
	}
}

// vsReshow sends every connection that has vehicle id shown (its viewers) a new VehicleShow of its
// state (a respawn: the protocol has no message that repairs a wreck), while its lane has
// room as for a show; one without room has it hidden until its next evaluation shows it,
// and so has one that now stands beyond the stream distance plus its margin of it (and
// does not sit in it): its next evaluation would hide it at once.
func (w *World) vsReshow(now time.Duration, id uint16) {
	v := w.vehicle(id)
	if !w.vs.on || v == nil {
		return
	}
	// Its viewers (a copy: a hide takes the viewer off the list).
	w.vs.reshow = w.vehicleViewers(w.vs.reshow[:0], id)
	for _, c := range w.vs.reshow {
		p, r := w.players[c], &w.vs.recips[c]
		// The copy goes to the end of the list as a new show would (the order of later
		// hides), but stays shown throughout: the log records no change.
		if i := slices.Index(r.list, id); i >= 0 {
			r.list = slices.Delete(r.list, i, i+1)
		}
		far := !w.effectReach(p, v.pos, 0) && !(p.seat.held && p.seat.vehicle == id)
		if !far && w.vsSend(now, p, id) {
			r.list = append(r.list, id)
			continue
		}
		r.shown[id/64] &^= 1 << (id % 64)
		w.vs.unview(id, p.id)
		w.hideVehicle(now, p, id) // its client drops the wreck; its next evaluation shows it if near
	}
}

// vsSeated shows p the vehicle whose seat it was just granted, at once ([stream-vehicles]:
// the vehicle a connection sits in is always shown to it).
func (w *World) vsSeated(now time.Duration, p *player, id uint16) {
	if !w.vs.on {
		return
	}
	r := w.vrecipOf(p)
	w.vs.grow(r)
	w.vsShow(now, p, r, id)
}

// vsSkipVehicle makes the message just logged in the relay log skip every viewer of p
// that does not have vehicle id shown ([stream-vehicles]).
func (w *World) vsSkipVehicle(p *player, id uint16) {
	if !w.vs.on {
		return
	}
	w.viewers = w.viewersOf(w.viewers[:0], p)
	for _, r := range w.viewers {
		if !w.vsSees(r, id) {
			w.fan.skipLast(r)
		}
	}
}

// ---- gamemode effects ([stream-effects]) ----

// effectReach reports whether an effect of radius at pos reaches connection p: always
// without streaming; else when p stands within the stream distance plus its margin plus
// the radius of it, in the plane (the reach of the streaming: anything farther is
// nothing p's client shows). With radius 0 it tells whether a vehicle at pos is within
// the distance a shown vehicle stays shown (vsReshow).
func (w *World) effectReach(p *player, pos wire.Vec3, radius float32) bool {
	if !w.vs.on {
		return true
	}
	r := w.vrecipOf(p)
	if !r.placed {
		return false
	}
	reach := w.vs.reach(radius)
	x, y := w.vsPos(p.id, r)
	dx, dy := x-pos.X, y-pos.Y
	return dx*dx+dy*dy <= reach*reach
}

// effectAudience appends the connections an effect of radius at pos reaches
// (effectReach): while streaming, those the interest grid finds within the stream's reach
// of it (not a walk over every connection), in the grid's order; every connection
// without.
func (w *World) effectAudience(dst []PlayerID, pos wire.Vec3, radius float32) []PlayerID {
	if !w.vs.on {
		return append(dst, w.conns...)
	}
	start := len(dst)
	dst = w.stream.Within(dst, pos.X, pos.Y, w.vs.reach(radius))
	n := start
	for _, c := range dst[start:] {
		if p := w.conn(c); p != nil && w.effectReach(p, pos, radius) {
			dst[n] = c
			n++
		}
	}
	return dst[:n]
}

// canQueueReach reports whether every connection of aud (an effect's audience) takes m
// now.
func (w *World) canQueueReach(m wire.Message, aud []PlayerID) error {
	for _, id := range aud {
		if err := w.players[id].ep.CanQueue(m); err != nil {
			return laneFull(id, err)
		}
	}
	return nil
}

// markEffect records that connection p was sent the effect in slot (a fire's late
// recipients are those without the mark: vsFires).
func (w *World) markEffect(p *player, slot int) {
	if !w.vs.on {
		return
	}
	r := w.vrecipOf(p)
	r.effects[slot/64] |= 1 << (slot % 64)
	w.vs.sentTo[slot] = append(w.vs.sentTo[slot], p.id)
}

// clearEffect forgets who was sent the effect that last held slot, before a new one takes
// it: only those it was sent to carry the slot's mark.
func (w *World) clearEffect(slot int) {
	if !w.vs.on {
		return
	}
	for _, c := range w.vs.sentTo[slot] {
		w.vs.recips[c].effects[slot/64] &^= 1 << (slot % 64) // a connection that left: its slot's next join starts clear anyway
	}
	w.vs.sentTo[slot] = w.vs.sentTo[slot][:0]
}

// vsFires sends r's connection the live fires within reach that it was not sent (it
// came within reach after they were lit), while its lane has room as for a show, each
// with how long it has burned (Age), so that connection burns only what is left.
func (w *World) vsFires(now time.Duration, p *player, r *vrecip) {
	fires := w.vs.fires[:0]
	for _, slot := range w.vs.fires {
		e := &w.effects[slot]
		if !e.valid || !e.fire || now-e.at > FireLifetime {
			continue // burnt out (or the slot was reused by an explosion): forgotten
		}
		fires = append(fires, slot)
		if r.effects[slot/64]&(1<<(slot%64)) != 0 || !w.effectReach(p, e.pos, e.radius) {
			continue
		}
		creator := w.effectCreator(e)
		m := &w.msgs.fire
		*m = wire.CreateFire{Effect: e.id, Creator: creator, Position: e.pos, Radius: e.radius,
			Age: fireAge(now - e.at), Stamp: wire.Stamp(w.teams.Stamp(creator, p.id))}
		if p.ep.Lane().Stats().Queued >= ShowBacklogRoom || p.ep.CanQueue(m) != nil {
			continue
		}
		if _, ok := w.queue(now, p, m); ok {
			w.markEffect(p, int(slot))
		}
	}
	w.vs.fires = fires
}

// fireAge is the Age a CreateFire carries for a fire that has burned for burned: whole
// milliseconds, rounded down so that no recipient puts out a fire still burning here,
// within 0..wire.MaxFireAge ([stream-effects]).
func fireAge(burned time.Duration) uint16 {
	return uint16(min(max(burned, 0), wire.MaxFireAge*time.Millisecond) / time.Millisecond)
}

// litFire remembers a new fire's slot for the connections that come within reach later.
func (w *World) litFire(slot int) {
	if w.vs.on && !slices.Contains(w.vs.fires, uint16(slot)) {
		w.vs.fires = append(w.vs.fires, uint16(slot))
	}
}
