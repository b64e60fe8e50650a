package refserver

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/internal/interest"
	"github.com/arbitergo/arbiter/wire"
)

// The defaults of StreamConfig.
const (
	// DefaultStreamDistance is StreamConfig.Distance when left zero, in metres (open.mp's
	// default stream distance).
	DefaultStreamDistance = interest.DefaultDistance
	// DefaultStreamMargin is StreamConfig.Margin when left zero, in metres.
	DefaultStreamMargin = interest.DefaultMargin
	// DefaultStreamCap is StreamConfig.Cap when left zero.
	DefaultStreamCap = interest.DefaultCap
	// DefaultStreamEvery is StreamConfig.Every when left zero.
	DefaultStreamEvery = interest.DefaultEvery
)

// StreamConfig configures streaming: who sees whom (see [streaming] in the package doc).
// The zero StreamConfig streams with the defaults of internal/interest: shown within
// 200 m, hidden beyond 220 m, at most 100 shown per recipient, each recipient re-evaluated
// every 250 ms.
type StreamConfig struct {
	// Everyone turns streaming off: every connection is shown every other, as soon as its
	// lane has room (the other fields are ignored).
	Everyone bool
	// Distance is the stream distance in metres: a player is shown to those within it.
	// Zero means 200.
	Distance float32
	// Margin is the hysteresis in metres: a shown player is hidden only beyond
	// Distance+Margin. Zero means 20; a negative value means none.
	Margin float32
	// Cap is the most players shown to one connection, the nearest first. Zero means 100.
	Cap int
	// Every is how often each connection's shown set is re-evaluated, each connection in
	// a phase slot of its own. Zero means 250 ms.
	Every time.Duration
	// VehicleCap is the most vehicles shown to one connection, the nearest first, besides
	// the one it sits in ([stream-vehicles]). Zero means DefaultVehicleStreamCap.
	VehicleCap int
}

// newStream returns the interest manager of c for maxPlayers slots, nil when c turns
// streaming off.
func (c StreamConfig) newStream(maxPlayers int) (*interest.Manager, error) {
	if c.Everyone {
		return nil, nil
	}
	m, err := interest.New(interest.Config{IDs: maxPlayers, Distance: c.Distance, Margin: c.Margin, Cap: c.Cap, Every: c.Every})
	if err != nil {
		return nil, fmt.Errorf("%w: stream: %w", ErrConfig, err)
	}
	return m, nil
}

// Sees reports whether recipient has subject shown: its PlayerShow went out and no
// PlayerHide since, so subject's frames, shots and lifecycle edges go to recipient.
func (w *World) Sees(recipient, subject PlayerID) bool {
	r := w.conn(recipient)
	return r != nil && recipient != subject && w.conn(subject) != nil && r.sees(subject)
}

// streamPlace tells the interest manager where p stands (an accepted frame, a grant, a
// move) and carries out the changes a first placement brings.
func (w *World) streamPlace(now time.Duration, p *player, pos wire.Vec3) {
	w.vsPlace(now, p, pos)
	if w.stream == nil {
		return
	}
	out, err := w.stream.Place(now, p.id, pos.X, pos.Y, w.changes[:0])
	if err != nil {
		p.frame.placed = false
		return // never: positions are validated before they are accepted
	}
	p.frame.placed = w.placedAtFrame(p)
	w.changes = out
	w.applyStream(now)
}

// placedAtFrame reports whether the interest manager holds p placed at its frame's X and
// Y: what p.frame.placed mirrors ([stream-standing-mirror]).
func (w *World) placedAtFrame(p *player) bool {
	if w.stream == nil {
		return false
	}
	x, y, ok := w.stream.Position(p.id)
	return ok && x == p.frame.pos.X && y == p.frame.pos.Y
}

// streamTick re-evaluates the connections whose phase slot came due, carries out the
// changes, and sends each connection the shows it is still owed as its lane drains.
func (w *World) streamTick(now time.Duration) {
	if w.stream == nil {
		return
	}
	w.changes = w.stream.Evaluate(now, w.changes[:0])
	w.applyStream(now)
	w.vsTick(now)
	if w.stream.OwedTotal() == 0 {
		return // nobody is owed a show: no connection to visit
	}
	for _, id := range w.conns {
		if w.stream.OwedCount(id) > 0 {
			w.drainOwed(now, w.players[id])
		}
	}
}

// applyStream sends the changes in w.changes: a show goes out while the recipient's lane
// holds fewer than ShowBacklogRoom messages (else it stays owed: drainOwed), a hide is
// queued.
func (w *World) applyStream(now time.Duration) {
	for _, c := range w.changes {
		r, s := w.conn(c.Recipient), w.conn(c.Subject)
		if r == nil || s == nil {
			continue
		}
		if c.Show {
			if w.roomForShow(r) && w.show(now, r, s) {
				w.stream.Sent(r.id, s.id)
			}
			continue
		}
		w.hidePlayer(now, r, s.id, uint32(s.handle.Token))
	}
	w.releaseChanges()
}

// keptChanges is the most streaming changes whose room the World keeps between two uses:
// a mass join or respawn grows the scratch far beyond a tick's few changes, and keeping
// that peak would cost every player of the world its share of it.
const keptChanges = 4096

// releaseChanges empties w.changes, and lets it go when a burst grew it past keptChanges.
func (w *World) releaseChanges() {
	if cap(w.changes) > keptChanges {
		w.changes = nil
		return
	}
	w.changes = w.changes[:0]
}

// roomForShow reports whether r's lane takes a PlayerShow now, leaving room for commands
// and the respawn (ShowBacklogRoom).
func (w *World) roomForShow(r *player) bool {
	return r.ep.Lane().Stats().Queued < ShowBacklogRoom && r.ep.CanQueue(&w.msgs.show) == nil
}

// drainOwed sends p the shows it is still owed, in ascending id, while its lane has room.
func (w *World) drainOwed(now time.Duration, p *player) {
	w.ids = w.stream.Owed(w.ids[:0], p.id)
	for _, s := range w.ids {
		subject := w.conn(s)
		if subject == nil {
			continue
		}
		if !w.roomForShow(p) || !w.show(now, p, subject) {
			return
		}
		w.stream.Sent(p.id, s)
	}
}

// streamLeave hides p from every connection that has it shown.
func (w *World) streamLeave(now time.Duration, p *player, token uint32) {
	w.changes = w.stream.Remove(p.id, w.changes[:0])
	p.frame.placed = false
	for _, c := range w.changes {
		if r := w.conn(c.Recipient); r != nil {
			w.hidePlayer(now, r, p.id, token)
		}
	}
	w.releaseChanges()
}

// viewersOf appends the connections that get p's relays and edges: those that have it
// shown (every other connection that was shown it, without streaming), in a
// deterministic order.
func (w *World) viewersOf(dst []PlayerID, p *player) []PlayerID {
	if w.stream != nil {
		return w.stream.Viewers(dst, p.id)
	}
	for _, id := range w.conns {
		if id != p.id && w.players[id].sees(p.id) {
			dst = append(dst, id)
		}
	}
	return dst
}

// relaySubject is the subject a relay of p is logged under: p while streaming (only those
// that have p shown get it), NoPlayer (everyone) without.
func (w *World) relaySubject(p *player) PlayerID {
	if w.stream != nil {
		return p.id
	}
	return NoPlayer
}

// emitStreamed is emitTo while streaming: recipient rid's copy of every logged message of
// the senders it sees ([streaming]), stamped for it, each sender's in log order. It reads
// only those senders' records (fanLog.heads, then fanEntry.next), so a Flush costs each
// recipient what it sees, not the whole log: most senders' one frame is inline in their
// record, one cache line a relay, and emitInline copies those in a loop with no call; the
// others (a chain, a skip list, a teammate, an older revision, a full bundle) take the
// full path below, emitEntry for each message with the teammate stamp's lookup done once
// a sender.
func (w *World) emitStreamed(rid PlayerID, emit func([]byte)) {
	f := &w.fan
	heads, entries, buf := f.heads, f.entries, f.buf
	rev := w.teams.Rev()
	relayed := uint64(0)
	seen := w.stream.SeenIDs(rid) // read in place: nothing changes it during a Flush
	if len(seen) == 0 {
		return
	}
	group := w.teams.Group(rid)
	// The fast loop (emitInline) sends a sender whose group is g to the full path below:
	// with no group, a value no sender's group takes in practice (the full path gets it
	// right whatever the sender's group is).
	g := group
	if g == 0 {
		g = 0xFFFF
	}
	bw := w.pack.Bundle()
	for k := 0; k < len(seen); k++ {
		var n uint64
		var copied bool
		k, n, copied = emitInline(bw, heads, seen, k, rid, g, rev)
		relayed += n
		if k == len(seen) {
			break
		}
		s := seen[k]
		if int(s) >= len(heads) || s == rid {
			continue
		}
		h := &heads[s]
		if h.n == 0 && h.chain < 0 {
			continue
		}
		// Teammates(s, r) now: the sender's group as it logged its first entry holds while
		// the revision has not moved since.
		teammate := h.group != 0 && h.group == group
		if h.rev != rev {
			teammate = w.teams.Teammates(s, rid)
		}
		if h.n > 0 && !copied {
			// The sender's first message, inline (fanLog.add): it skips nobody.
			if b, ok := w.appendLogged(bw, h.msg[:h.n], emit); ok {
				if h.rev != rev || teammate {
					w.stampCopy(b, s, rid, h.rev, rev, teammate)
				}
				if h.msg[1] == byte(wire.IDRemotePlayerSync) {
					relayed++
				}
			}
		}
		for i := h.chain; i >= 0; {
			e := &entries[i]
			i = e.next
			if e.skipStart != e.skipEnd && f.skips(e, rid) {
				continue
			}
			b, ok := w.appendLogged(bw, buf[e.start:e.end], emit)
			if !ok {
				continue // never: a relay is at most wire.MaxSize bytes, far below MinPayloadSize
			}
			if e.rev != rev || teammate {
				w.stampCopy(b, s, rid, e.rev, rev, teammate)
			}
			if e.relay {
				relayed++
			}
		}
	}
	w.stats.Relayed += relayed
}

// stampCopy patches b, recipient's copy of a message from sender logged at relation
// revision logged, where its stamp differs from the one it was logged with ("not a
// teammate, at logged": fanLog.add): stampAt, with the current revision rev and whether
// the two are teammates now looked up once a sender. Its caller skips the common case
// (logged at rev, not teammates: nothing to patch).
func (w *World) stampCopy(b []byte, sender, recipient PlayerID, logged, rev uint16, teammate bool) {
	if logged != rev {
		if st := w.stampBefore(sender, recipient, logged); st.Teammate || st.Rev != logged {
			_ = wire.PatchStamp(b, wire.Stamp(st))
		}
	} else if teammate {
		_ = wire.PatchStamp(b, wire.Stamp{Teammate: true, Rev: rev})
	}
}

// appendLogged adds logged message m (a valid element) to the bundle being built, bw:
// the inlined Append first, packAdd when it does not fit beside what bw holds. It
// returns m's copy, and false only where packAdd refuses m (never for a logged message).
func (w *World) appendLogged(bw *wire.BundleWriter, m []byte, emit func([]byte)) ([]byte, bool) {
	if b, ok := bw.Append(m); ok {
		return b, true
	}
	b, err := w.packAdd(m, emit)
	return b, err == nil
}

// packAdd is w.pack.Add for a logged message that Reserve or Append refused: the bundle
// being built is empty (the message goes first, through Add) or the message does not fit
// beside it (it leaves first, as Add would make it, without Add's second try).
func (w *World) packAdd(m []byte, emit func([]byte)) ([]byte, error) {
	if w.pack.Bundle().Len() > 0 {
		w.pack.Finish(emit)
	}
	return w.pack.Add(m, emit)
}

// emitInline is emitStreamed's common case in a loop of its own, with no call in it: from
// seen[k] on, each sender whose first message of the flush is inline (fanHead.n: it skips
// nobody), logged at revision rev, from a sender in no group g (the recipient's, 0xFFFF
// for none), and that fits the bundle being built is copied into it unpatched (its logged
// stamp is the recipient's). It returns the index of the first sender that needs
// emitStreamed's full path (len(seen): none), how many of the copies were relays, and
// whether that sender's inline message is already copied (it has more messages: the
// full path packs those, from fanHead.chain).
func emitInline(bw *wire.BundleWriter, heads []fanHead, seen []PlayerID, k int, self PlayerID, g, rev uint16) (int, uint64, bool) {
	relayed := uint64(0)
	for ; k < len(seen); k++ {
		s := seen[k]
		if int(s) >= len(heads) {
			break
		}
		h := &heads[s]
		if h.n == 0 || h.rev != rev || h.group == g || s == self {
			if h.count == 0 {
				continue // nothing logged
			}
			break
		}
		b, ok := bw.Reserve(int(h.n))
		if !ok {
			break
		}
		copyInline(b, &h.msg)
		if h.msg[1] == byte(wire.IDRemotePlayerSync) {
			relayed++
		}
		if h.count > 1 {
			return k, relayed, true // the rest of its messages: the full path
		}
	}
	return k, relayed, false
}

// copyInline copies the first len(dst) bytes of m (a fanHead's inline message) to dst
// with moves the compiler inlines: four 16-byte copies, [0,32) and [n-32,n), that
// overlap for the sizes of a frame's relay (44 and 49 bytes), runtime's copy below 32.
// (16 bytes a move: a larger array's copy is a call to memmove where the compiler cannot
// prove the two do not overlap.)
func copyInline(dst []byte, m *[fanInline]byte) {
	n := len(dst)
	if n < 32 || n > fanInline {
		copy(dst, m[:])
		return
	}
	*(*[16]byte)(dst) = *(*[16]byte)(m[:16])
	*(*[16]byte)(dst[16:]) = *(*[16]byte)(m[16:32])
	*(*[16]byte)(dst[n-32:]) = *(*[16]byte)(m[n-32:])
	*(*[16]byte)(dst[n-16:]) = *(*[16]byte)(m[n-16:])
}
