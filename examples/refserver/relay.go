package refserver

import (
	"bytes"
	"slices"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

// outbox holds a connection's own unreliable messages (one datagram of its own each, which
// Flush packs into the connection's bundles) until Flush, as transport.Endpoint.Send does: the Welcome, pings, pongs, and the projectiles and
// detonations built for that recipient alone (a shot's own copies wait in the fan log: fanLog.copies). The World keeps its own so that the buffer
// grows by doubling (wire's Append grows a full buffer by exactly one message) and so that
// the relays every connection shares can be served from one log (fanLog).
type outbox struct {
	buf  []byte
	ends []int32
}

// full reports whether the outbox holds transport.MaxPendingDatagrams datagrams.
func (o *outbox) full() bool { return len(o.ends) >= transport.MaxPendingDatagrams }

// room makes sure n more bytes fit without a reallocation by append. The buffer doubles
// from what one message needs: most connections get a ping and a few messages a tick, so
// it stays at a few hundred bytes.
func (o *outbox) room(n int) {
	if cap(o.buf)-len(o.buf) < n {
		grown := make([]byte, len(o.buf), 2*cap(o.buf)+n)
		copy(grown, o.buf)
		o.buf = grown
	}
}

// send encodes m as one datagram; false when the outbox is full or m does not encode.
func (o *outbox) send(m wire.Message) bool {
	if o.full() {
		return false
	}
	o.room(wire.MaxSize)
	b, err := m.Append(o.buf)
	if err != nil {
		return false
	}
	o.buf = b
	o.ends = append(o.ends, int32(len(o.buf)))
	return true
}

// emit hands every datagram to emit and empties the outbox.
func (o *outbox) emit(emit func([]byte)) {
	start := int32(0)
	for _, end := range o.ends {
		emit(o.buf[start:end])
		start = end
	}
	o.buf, o.ends = o.buf[:0], o.ends[:0]
}

// fanLog holds the relayed messages every connection gets a copy of (frames, vehicle
// frames, the shared copy of a shot) from one Flush to the next: each is encoded and
// validated once, when it arrives, and copied to each recipient at Flush with the
// recipient's stamp patched in. Recipients are served one after the other from this one
// small log, so a world of a thousand players does not write a thousand relay buffers.
type fanLog struct {
	buf     []byte
	entries []fanEntry
	skip    []PlayerID // the recipients each entry skips (they got a datagram of their own)
	// logged counts the messages logged since the last reset (MaxFanOut): while
	// streaming, a sender's first message kept inline in its fanHead has no entry.
	logged int
	// streamed: the World streams, and a recipient reads a sender's messages only
	// through its fanHead (emitStreamed), never the entries in log order (emitTo's
	// other path). A sender's first message that fits inline is then kept in its
	// fanHead alone, not also in buf and entries: a frame writes one line of the log,
	// not three. inlineLast is the sender whose inline message is
	// the last logged (NoPlayer: the last has an entry), for skipLast.
	streamed   bool
	inlineLast PlayerID
	// heads is each sender's record of the flush (fanHead): a recipient that sees few
	// senders reads only theirs (emitStreamed), most often one cache line each. senders
	// lists the senders with a record, to reset them.
	heads   []fanHead
	senders []PlayerID
	// copies are the shots' own copies for the recipients near their rays, in the order
	// they were accepted (each shot's bytes once in copyBuf, unstamped; each copy's
	// rewound pose in the copy itself, or in poses when it is more than a position):
	// written at Flush into each recipient's datagrams (emitCopies) instead of into its
	// outbox at the shot, so a shot reads no recipient's outbox. byRecipient orders them
	// by recipient for Flush (built at its first recipient: recipient<<32 | index);
	// next is where the following recipient's start.
	copies      []shotCopy
	copyBuf     []byte
	poses       []wire.Rewind
	byRecipient []uint64
	next        int
}

// MaxShotCopies caps the shots' own copies (a recipient near a shot's ray gets the shot
// with its rewound pose) the World holds for its connections between two Flush calls; a
// copy over it is not sent, and counted as a datagram the recipient's outbox had no room
// for (ConnStats.OutboxDropped, Stats.OutboxDropped). At Flush each connection takes at
// most transport.MaxPendingDatagrams - OutboxReserve of them, the room of other players'
// datagrams in its outbox, where these copies used to wait; the rest are counted the
// same way. A host flushes every tick, far below it.
const MaxShotCopies = 1 << 16

// shotCopy is one recipient's own copy of a shot (fanLog.copies). It is for the
// connection that held the recipient's slot at the shot: that connection's leave drops
// it (fanLog.dropCopies), so Flush writes it without reading the recipient's player.
// Flush patches its rewound pose and its stamp into the recipient's copy of the shot's
// bytes (emitCopies): a copy is 32 bytes, not the shot's 79, so a shot near ten players
// writes a few lines, not a dozen.
type shotCopy struct {
	start, end int32    // the shot's bytes in copyBuf (shared by its copies), unstamped
	recipient  PlayerID // who gets it (NoPlayer: dropped, nobody's)
	sender     PlayerID // the shooter: whose stamp it gets
	rev        uint16   // the relation revision at the shot: the stamp is taken there
	// pose is the index of its rewound pose in poses, or -1: the pose is valid, at pos,
	// not in a vehicle (a player on foot, the common case).
	pose int32
	pos  wire.Vec3
}

// rewind is c's rewound pose.
func (f *fanLog) rewind(c *shotCopy) wire.Rewind {
	if c.pose >= 0 {
		return f.poses[c.pose]
	}
	return wire.Rewind{Valid: true, Position: c.pos}
}

// fanInline is the most bytes of a sender's first message its fanHead carries inline: a
// fanHead is one 64-byte cache line, and every relay of a frame (RemotePlayerSync,
// 44 bytes; RemoteVehicleSync, 49) fits.
const fanInline = 49

// fanHead is one sender's share of the log since the last reset: how many entries it
// logged (its share is MaxFanOutPerSender), its last entry (to chain the next), and what
// a recipient reads to copy them (emitStreamed). The common case, one frame a sender a
// flush that skips nobody, is the message itself, inline (n > 0): a relay then reads
// this one line, not an index, an entry and the bytes in three other places.
type fanHead struct {
	count uint16 // entries logged since the last reset
	rev   uint16 // the relation revision at the sender's first entry
	// group is the sender's damage group at rev (teams.Registry.Group): while the
	// revision is still rev, a recipient is its teammate when it has the same non-zero
	// group, with no lookup of the sender's.
	group uint16
	n     uint8 // the first message's bytes are msg[:n]; 0: not inline, chain starts the chain
	msg   [fanInline]byte
	// chain is the entry a recipient reads next, in log order, chained by fanEntry.next:
	// with a message inline, the sender's second entry, else its first (-1: none).
	chain int32
	last  int32 // the sender's last entry (-1: none)
}

// fanEntry is one message of the log.
type fanEntry struct {
	start, end int32
	skipStart  int32
	skipEnd    int32
	sender     PlayerID // whose stamp each recipient gets; never sent back to it
	subject    PlayerID // only recipients that see it (NoPlayer: everyone)
	rev        uint16   // the relation revision when it was logged: the stamp is taken there
	relay      bool     // a RemotePlayerSync (counted in Stats.Relayed)
	next       int32    // the sender's next entry, or -1
}

// init sizes the log for n senders, for a World that streams or not (fanLog.streamed).
func (f *fanLog) init(n int, streamed bool) {
	f.heads = make([]fanHead, n)
	for i := range f.heads {
		f.heads[i].chain, f.heads[i].last = -1, -1
	}
	f.streamed, f.inlineLast = streamed, NoPlayer
}

// add logs the encoded message enc from sender about subject, accepted at relation
// revision rev when the sender's damage group was group; wire.PatchStamp stamps each
// recipient's copy.
// It reports false (nothing logged) when the log holds MaxFanOut messages.
func (f *fanLog) add(enc []byte, sender, subject PlayerID, rev, group uint16) bool {
	if f.logged >= MaxFanOut || len(enc) < wire.HeaderSize || !wire.ID(enc[1]).HasStamp() {
		return false
	}
	f.logged++
	if f.streamed && int(sender) < len(f.heads) && f.heads[sender].count == 0 && len(enc) <= fanInline {
		// The sender's first message, inline in its fanHead alone (fanLog.streamed):
		// subject is the sender while streaming (relaySubject), and emitStreamed reads
		// neither.
		h := &f.heads[sender]
		f.senders = append(f.senders, sender)
		h.rev, h.group = rev, group
		h.n = uint8(copy(h.msg[:], enc))
		_ = wire.PatchStamp(h.msg[:h.n], wire.Stamp{Rev: rev}) // never fails: the message carries a stamp
		h.count = 1
		f.inlineLast = sender
		return true
	}
	f.inlineLast = NoPlayer
	i, logged := f.appendEntry(enc, sender, subject, rev)
	// Logged with the stamp most recipients get (not a teammate, at rev): emitEntry and
	// emitStreamed patch only the copies whose stamp differs. Never fails: the message carries a stamp.
	_ = wire.PatchStamp(logged, wire.Stamp{Rev: rev})
	if int(sender) >= len(f.heads) {
		return true
	}
	h := &f.heads[sender]
	switch h.count {
	case 0:
		f.senders = append(f.senders, sender)
		h.rev, h.group = rev, group
		if len(logged) <= fanInline {
			h.n = uint8(copy(h.msg[:], logged))
		} else {
			h.chain = i
		}
	case 1:
		if h.n > 0 {
			h.chain = i // the second entry: the first is inline
		}
		fallthrough
	default:
		if h.last >= 0 { // else the first is inline alone: it has no entry to chain from
			f.entries[h.last].next = i
		}
	}
	h.last = i
	h.count++
	return true
}

// entryOfInline gives the inline message of sender, kept in its fanHead alone
// (fanLog.streamed), an entry of its own (its bytes copied to buf, already stamped),
// which its fanHead then chains instead of carrying it inline, and returns its index.
func (f *fanLog) entryOfInline(sender PlayerID) int32 {
	h := &f.heads[sender]
	i, _ := f.appendEntry(h.msg[:h.n], sender, sender, h.rev)
	h.n, h.chain, h.last = 0, i, i
	return i
}

// appendEntry copies enc, a message from sender about subject accepted at relation
// revision rev, to the end of buf with an entry of its own (no skips yet, chained to
// nothing) and returns the entry's index and the copy.
func (f *fanLog) appendEntry(enc []byte, sender, subject PlayerID, rev uint16) (int32, []byte) {
	start := int32(len(f.buf))
	f.buf = append(f.buf, enc...)
	i := int32(len(f.entries))
	n := int32(len(f.skip))
	f.entries = append(f.entries, fanEntry{start: start, end: int32(len(f.buf)), skipStart: n, skipEnd: n,
		sender: sender, subject: subject, rev: rev, relay: wire.ID(enc[1]) == wire.IDRemotePlayerSync, next: -1})
	return i, f.buf[start:]
}

// count is how many entries sender logged since the last reset.
func (f *fanLog) count(sender PlayerID) int {
	if int(sender) < len(f.heads) {
		return int(f.heads[sender].count)
	}
	return 0
}

// skipLast makes the last logged message skip recipient id (ids in ascending order).
func (f *fanLog) skipLast(id PlayerID) {
	if f.inlineLast != NoPlayer {
		// The last message is inline alone: a recipient must read its skip list, in an
		// entry.
		f.entryOfInline(f.inlineLast)
		f.inlineLast = NoPlayer
	}
	f.skip = append(f.skip, id)
	last := int32(len(f.entries) - 1)
	e := &f.entries[last]
	e.skipEnd = int32(len(f.skip))
	if int(e.sender) < len(f.heads) {
		if h := &f.heads[e.sender]; h.n > 0 && h.count == 1 {
			// The inline message is this one: a recipient must read its skip list now.
			h.n, h.chain = 0, last
		}
	}
}

// skips reports whether e skips recipient id (it got a datagram of its own).
func (f *fanLog) skips(e *fanEntry, id PlayerID) bool {
	for _, s := range f.skip[e.skipStart:e.skipEnd] {
		if s == id {
			return true
		}
	}
	return false
}

// addCopy keeps recipient's own copy of a shot of sender, encoded as enc with its
// rewound pose rw (wire.PatchRewind), accepted at relation revision rev, for the
// connection now on recipient's slot (its leave drops it: dropCopies). It reports false
// (nothing kept) when rw does not encode, full when MaxShotCopies are kept.
func (f *fanLog) addCopy(enc []byte, recipient PlayerID, sender PlayerID, rev uint16, rw wire.Rewind) (ok, full bool) {
	if len(f.copies) >= MaxShotCopies {
		return false, true
	}
	if !rw.Encodes() {
		return false, false
	}
	// The shot's bytes once, shared by its copies (the last kept, when they are the same).
	start, end := 0, 0
	if n := len(f.copies); n > 0 {
		last := &f.copies[n-1]
		if start, end = int(last.start), int(last.end); !bytes.Equal(f.copyBuf[start:end], enc) {
			start, end = 0, 0
		}
	}
	if end == 0 {
		start = len(f.copyBuf)
		f.copyBuf = append(f.copyBuf, enc...)
		end = len(f.copyBuf)
	}
	c := shotCopy{start: int32(start), end: int32(end), recipient: recipient, sender: sender, rev: rev, pose: -1, pos: rw.Position}
	if rw != (wire.Rewind{Valid: true, Position: rw.Position}) { // == compares as the wire writes (-0 as 0)
		c.pose, c.pos = int32(len(f.poses)), wire.Vec3{}
		f.poses = append(f.poses, rw)
	}
	f.copies = append(f.copies, c)
	return true, false
}

// dropCopies drops the copies kept for recipient: its connection left, and a copy never
// goes to the next connection on its slot. A dropped copy still counts toward
// MaxShotCopies, as a kept one does, until the Flush.
func (f *fanLog) dropCopies(recipient PlayerID) {
	for i := range f.copies {
		if f.copies[i].recipient == recipient {
			f.copies[i].recipient = NoPlayer
		}
	}
	f.byRecipient = f.byRecipient[:0] // rebuilt by the next copiesOf
}

// copiesOf returns recipient id's keys in byRecipient (recipient<<32 | its index in
// copies), in the order the copies were kept. Flush visits its
// connections in ascending id, so each search starts where the last one ended.
func (f *fanLog) copiesOf(id PlayerID) []uint64 {
	if len(f.byRecipient) != len(f.copies) {
		f.byRecipient = f.byRecipient[:0]
		for i := range f.copies {
			f.byRecipient = append(f.byRecipient, uint64(f.copies[i].recipient)<<32|uint64(i))
		}
		slices.Sort(f.byRecipient)
		f.next = 0
	}
	keys, at := f.byRecipient, f.next
	if at > 0 && keys[at-1]>>32 >= uint64(id) {
		at = 0 // not ascending: search from the start
	}
	for at < len(keys) && keys[at]>>32 < uint64(id) {
		at++
	}
	end := at
	for end < len(keys) && keys[end]>>32 == uint64(id) {
		end++
	}
	f.next = end
	return keys[at:end]
}

func (f *fanLog) reset() {
	f.buf, f.entries, f.skip = f.buf[:0], f.entries[:0], f.skip[:0]
	f.logged, f.inlineLast = 0, NoPlayer
	f.copies, f.copyBuf, f.byRecipient, f.next = f.copies[:0], f.copyBuf[:0], f.byRecipient[:0], 0
	f.poses = f.poses[:0]
	for _, s := range f.senders {
		h := &f.heads[s]
		h.count, h.n, h.chain, h.last = 0, 0, -1, -1
	}
	f.senders = f.senders[:0]
}

// stampAt is the stamp a message from sender to recipient carries when it was accepted at
// relation revision rev (a team change between its arrival and the Flush does not change
// what it says; a shot's report is judged by the same revision).
func (w *World) stampAt(sender, recipient PlayerID, rev uint16) teams.Stamp {
	if rev == w.teams.Rev() {
		return w.teams.Stamp(sender, recipient)
	}
	return w.stampBefore(sender, recipient, rev)
}

// stampBefore is stampAt for a revision older than the current one (kept out of line, so
// that stampAt's common case inlines into the relay's copy loop).
func (w *World) stampBefore(sender, recipient PlayerID, rev uint16) teams.Stamp {
	if s, err := w.teams.StampAt(sender, recipient, rev); err == nil {
		return s
	}
	return w.teams.Stamp(sender, recipient)
}

// emitTo packs into connection id's datagrams (w.pack) its own copies of the shots whose
// rays passed near it (emitCopies), then its copy of every logged message, copied once
// into the bundle and stamped there for it. While streaming it reads nothing of the
// connection's player unless it has a copy ([flush-own-due]).
func (w *World) emitTo(id PlayerID, emit func([]byte)) {
	if len(w.fan.copies) > 0 {
		w.emitCopies(id, emit)
	}
	if w.stream != nil {
		w.emitStreamed(id, emit)
		return
	}
	r := w.players[id]
	f := &w.fan
	for i := range f.entries {
		e := &f.entries[i]
		if e.subject != NoPlayer && !r.sees(e.subject) {
			continue
		}
		w.emitEntry(r, e, emit)
	}
}

// emitCopies packs into connection id's datagrams its own copies of the shots near it
// (fanLog.copies), each stamped for it, in the order the shots were accepted: at most
// the room of other players' datagrams in its outbox (MaxShotCopies). It reads nothing
// of the connection's player unless a copy is over that room.
func (w *World) emitCopies(id PlayerID, emit func([]byte)) {
	f := &w.fan
	keys := f.copiesOf(id)
	if len(keys) == 0 {
		return // read nothing of a connection that has none ([flush-own-due])
	}
	// Every copy of id is for its connection (a leave drops its own: dropCopies), so its
	// player is read only for a copy over the room ([flush-own-due]).
	room := transport.MaxPendingDatagrams - OutboxReserve
	for _, k := range keys {
		c := &f.copies[uint32(k)]
		if room == 0 {
			w.players[id].caps.OutboxDropped++
			w.stats.OutboxDropped++
			continue
		}
		b, err := w.pack.Add(f.copyBuf[c.start:c.end], emit)
		if err != nil {
			continue // never: a shot is at most wire.MaxSize bytes, far below MinPayloadSize
		}
		room--
		_ = wire.PatchRewind(b, f.rewind(c))                               // never fails: addCopy checked the pose
		_ = wire.PatchStamp(b, wire.Stamp(w.stampAt(c.sender, id, c.rev))) // never fails: a shot carries a stamp
	}
}

// emitEntry packs recipient r's copy of one logged message, stamped for it, unless r
// sent it or is on its skip list.
func (w *World) emitEntry(r *player, e *fanEntry, emit func([]byte)) {
	if e.sender == r.id {
		return
	}
	f := &w.fan
	if e.skipStart != e.skipEnd && f.skips(e, r.id) {
		return
	}
	b, err := w.pack.Add(f.buf[e.start:e.end], emit)
	if err != nil {
		return // never: a relay is at most wire.MaxSize bytes, far below MinPayloadSize
	}
	// The log holds the message stamped "not a teammate, at e.rev" (fanLog.add): only a
	// copy whose stamp differs is patched. Never fails: the log holds only messages that
	// carry a stamp.
	if e.rev == w.teams.Rev() { // stampAt's common case, inlined
		if w.teams.Teammates(e.sender, r.id) {
			_ = wire.PatchStamp(b, wire.Stamp{Teammate: true, Rev: e.rev})
		}
	} else if st := w.stampBefore(e.sender, r.id, e.rev); st.Teammate || st.Rev != e.rev {
		_ = wire.PatchStamp(b, wire.Stamp(st))
	}
	if e.relay {
		w.stats.Relayed++
	}
}
