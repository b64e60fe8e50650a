package refserver

import (
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// Datagram is one datagram a host read from the network, for ReceiveBatch: the
// connection it came from and its bytes.
type Datagram struct {
	// Conn is the connection that sent the datagram.
	Conn PlayerID
	// Data is the datagram's bytes, read only during the call.
	Data []byte
}

// batchStride is how many datagrams ahead ReceiveBatch starts each stage of its reads:
// the first stage (touchID) 3*batchStride datagrams ahead, the second (touchPlayer)
// 2*batchStride, the last (touchPackages) batchStride; 0 reads nothing ahead. Measured at
// 10,000 players with shuffled frames, strides 1 to 6 gain the same; 1 keeps the reads
// closest to their use. A variable for the tests, which try several.
var batchStride = 1

// ReceiveBatch takes the datagrams of batch at now, in order, exactly as calling Receive
// for each of them in turn would: the same events, stats and verdicts, the same datagrams
// at the next Flush. The error Receive would return for batch[i] is written to errs[i]
// (nil when it returned none) for every i below len(errs); errs may be nil. It returns how
// many of the datagrams returned an error.
//
// A host that reads the socket in batches (recvmmsg) calls it instead of Receive: before
// it handles a datagram it reads the state of the connections of the next few (their
// player, lane, ledger, inventory, life and pose history), a stage of those reads each
// datagram, so that in a World of many players, whose state does not fit the caches, their
// cache misses overlap one another instead of waiting each in its turn. The reads change
// nothing. ReceiveBatch allocates nothing (beyond the errors Receive allocates) and
// never panics, whatever the bytes and connections.
func (w *World) ReceiveBatch(now time.Duration, batch []Datagram, errs []error) int {
	s := batchStride
	failed := 0
	if s > 0 {
		for j := range min(3*s, len(batch)) {
			w.touchID(batch[j].Conn)
			if j < 2*s {
				w.touchPlayer(batch[j].Conn, batch[j].Data)
			}
			if j < s {
				w.touchPackages(batch[j].Conn)
			}
		}
	}
	for i := range batch {
		if s > 0 {
			if j := i + 3*s; j < len(batch) {
				w.touchID(batch[j].Conn)
			}
			if j := i + 2*s; j < len(batch) {
				w.touchPlayer(batch[j].Conn, batch[j].Data)
			}
			if j := i + s; j < len(batch) {
				w.touchPackages(batch[j].Conn)
			}
		}
		err := w.Receive(now, batch[i].Conn, batch[i].Data)
		if err != nil {
			failed++
		}
		if i < len(errs) {
			errs[i] = err
		}
	}
	return failed
}

// touchID reads what a datagram of conn reads first that its id alone finds (its slot
// of players, its life, its pose history's bookkeeping, its relay log head, its damage
// group): the first stage of ReceiveBatch's reads.
func (w *World) touchID(conn PlayerID) {
	if int(conn) >= len(w.players) {
		return
	}
	t := w.life.Touch(conn) ^ w.rw.TouchPlayerSlot(conn) ^ uint64(w.fan.count(conn)) ^ uint64(w.teams.Group(conn))
	if w.players[conn] != nil {
		t ^= 1
	}
	w.touched ^= t
}

// touchPlayer reads the lines of conn's player that datagram and a frame read (touch: its
// lines 0 and 1, and its endpoint's first unless datagram is a message datagram; and its
// place in the interest manager unless the player mirrors it: placeTouch): the second
// stage, once touchID brought its slot.
func (w *World) touchPlayer(conn PlayerID, datagram []byte) {
	if int(conn) >= len(w.players) {
		return
	}
	p := w.players[conn]
	if p == nil {
		return
	}
	w.touched ^= p.touch(datagram) ^ w.placeTouch(p)
}

// touchPackages reads the packages' lines of conn that a frame reads first (its ledger
// and its inventory, found through the player that touchPlayer brought, and its newest
// pose samples, found through the bookkeeping touchID brought): the last stage.
func (w *World) touchPackages(conn PlayerID) {
	if int(conn) >= len(w.players) {
		return
	}
	p := w.players[conn]
	if p == nil || !p.connected {
		return
	}
	w.touched ^= p.vit.Touch() ^ p.inv.Touch() ^ w.rw.TouchPlayer(conn)
}

// touchDatagram reads, for a datagram of connected p about to be handled, the lines its
// handling reads first: p's lines and its endpoint's if it reads it (touch), and for a
// frame or a shot its packages'. Receive calls it right after touchID, so that at 10,000 players the
// misses of a datagram overlap one another.
func (w *World) touchDatagram(p *player, datagram []byte) {
	t := p.touch(datagram) ^ w.placeTouch(p)
	if len(datagram) >= 2 {
		switch wire.ID(datagram[1]) {
		case wire.IDPlayerSync, wire.IDWeaponShot:
			t ^= p.vit.Touch() ^ p.inv.Touch() ^ w.rw.TouchPlayer(p.id)
		}
	}
	w.touched ^= t
}

// placeTouch reads p's place in the interest manager, which a frame reads unless p's frame
// mirrors it (frameState.placed: [stream-standing-mirror]), and returns a word of it; it
// changes nothing.
func (w *World) placeTouch(p *player) uint64 {
	if w.stream == nil || p.frame.placed || !w.stream.Placed(p.id) {
		return 0
	}
	return 2
}

// touch reads p's lines datagram and a frame read (0 and 1, and 2, its endpoint's first,
// unless datagram is a message datagram, which Receive takes without its endpoint: see
// player) and returns a word of them; it changes nothing.
func (p *player) touch(datagram []byte) uint64 {
	t := uint64(p.lastHeard) ^ uint64(p.frame.at)
	if !messageDatagram(wire.Peek(datagram)) {
		t ^= p.ep.Touch() // a message datagram does not read the endpoint (Receive)
	}
	return t
}
