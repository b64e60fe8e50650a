package vitals

import (
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
)

// This file keeps the health and armor commands in flight: each settles on its own clock,
// and an item of the client's order is judged against the ledger as of the revision it
// echoes, with the commands the client had not taken yet replayed on top.
//
// The ledger is kept in two parts: the base, the ledger as of the newest revision the
// client's order has shown it took (or that settled), and the commands sent after it,
// oldest first. The canonical ledger (Ledger, what the relay shows) is the base with those
// commands replayed: a set puts its value, an add adds up to its max and never lowers.
// A frame or a report echoing a revision older than a command was created before the
// client took that command: it lowers the base, and the command still applies after it,
// as it did on the client. So a loss from before an add is kept (the add never erases
// fresh damage), a loss from before a set is erased by the set, and a loss that took the
// base to 0 is a death (the dead client dropped the commands behind it).

// MaxPendingCommands caps the health and armor commands the ledger keeps in flight (sent
// and not settled). A command settles on its own clock: once an item of the client's order
// echoed it (for what comes after that item), AckGrace after the client acknowledged it,
// or SendTimeout after it was sent. Above the cap the oldest settles at once, as if its
// time had come: an echo older than it is then judged after it. That is safe for an honest
// client as long as the oldest command is more than a round trip, the lane's
// retransmissions and AckGrace old (about 3 s at 400 ms), so 32 holds for a gamemode that
// sends up to about ten commands a second. Measured worst honest cases, with regeneration
// (add_health every second) on top of the other commands, at 400 ms round trip, 30 ms
// jitter and 5 % loss: 5 in flight in the simulated match, 10 in vitals' own client model
// (1.6 commands a second); a client that never acknowledges keeps about 16 (one a second
// for SendTimeout).
const MaxPendingCommands = 32

// pendingCommand is a health or armor command the ledger keeps until it settles.
type pendingCommand struct {
	rev        uint16
	kind       CommandKind
	value, max float32
	sent, ack  time.Duration
	acked      bool
	// echoed: an item at echoAt in the client's order echoed it (or a newer revision):
	// what comes after that item was created after the client took it.
	echoed bool
	echoAt uint16
	// void: the life the command was sent to reached 0 health before the client took
	// it; a dead client drops it.
	void bool
}

// settled reports whether the command settled on its own clock at now.
func (c *pendingCommand) settled(now time.Duration) bool {
	return now-c.sent >= SendTimeout || c.acked && now-c.ack >= AckGrace
}

// applyTo is what the command makes of v on the client.
func (c *pendingCommand) applyTo(v Vitals) Vitals {
	if c.void {
		return v
	}
	switch c.kind {
	case CommandSetHealth:
		v.Health = c.value
	case CommandSetArmor:
		v.Armor = c.value
	case CommandAddHealth:
		if v.Health < c.max {
			v.Health = min32(v.Health+c.value, c.max)
		}
	case CommandAddArmor:
		if v.Armor < c.max {
			v.Armor = min32(v.Armor+c.value, c.max)
		}
	}
	return v
}

// pendingRing is the counts of the commands in flight, oldest first, in Player.cmdBuf. The
// first folded of them are in the base already (an item echoed them); they stay until they
// settle, to hold off what the client created before taking them and the server receives
// out of its order. The counts sit in the Player's first line (Advance reads n beside
// Player.nwait and nheld); the ring itself is read only while a command is in flight.
type pendingRing struct {
	n      int32
	head   int32
	folded int32
}

// cmdAt is the i-th oldest command in flight.
func (p *Player) cmdAt(i int) *pendingCommand {
	return &p.cmdBuf[(int(p.cmds.head)+i)%len(p.cmdBuf)]
}

// minPending is the first size of the ring of commands in flight.
const minPending = 4

// growCmds doubles the ring (at least minPending, at most MaxPendingCommands), oldest
// first.
func (p *Player) growCmds() {
	grown := make([]pendingCommand, min(max(2*len(p.cmdBuf), minPending), MaxPendingCommands))
	for i := range int(p.cmds.n) {
		grown[i] = *p.cmdAt(i)
	}
	p.cmdBuf, p.cmds.head = grown, 0
}

func (r *pendingRing) reset() { r.head, r.n, r.folded = 0, 0, 0 }

// relevel recomputes the canonical ledger: the base with the unfolded commands replayed.
func (p *Player) relevel() {
	l := p.base
	for i := int(p.cmds.folded); i < int(p.cmds.n); i++ {
		l = p.cmdAt(i).applyTo(l)
	}
	p.ledger = l
}

// foldOne puts the oldest unfolded command into the base.
func (p *Player) foldOne() {
	p.base = p.cmdAt(int(p.cmds.folded)).applyTo(p.base)
	p.cmds.folded++
}

// popOldest forgets the oldest command, folding it first if it is not in the base yet.
func (p *Player) popOldest() {
	if p.cmds.folded == 0 {
		p.foldOne()
	}
	p.cmds.head = (p.cmds.head + 1) % int32(len(p.cmdBuf))
	p.cmds.n--
	p.cmds.folded--
	p.noteBusy()
}

// settle forgets the commands that settled on their own clock, oldest first: their
// effect goes into the base, and an echo older than them is judged as if it echoed them.
func (p *Player) settle(now time.Duration) {
	changed := false
	for p.cmds.n > 0 && p.cmdAt(0).settled(now) {
		if p.cmds.folded == 0 {
			changed = true
		}
		p.popOldest()
	}
	if changed {
		p.relevel()
	}
}

// push keeps a command just sent; above MaxPendingCommands the oldest settles at once.
func (p *Player) push(c pendingCommand) {
	if p.cmds.n == MaxPendingCommands {
		p.popOldest()
	}
	if int(p.cmds.n) == len(p.cmdBuf) {
		p.growCmds()
	}
	*p.cmdAt(int(p.cmds.n)) = c
	p.cmds.n++
	p.noteBusy()
	p.relevel()
}

// heldOff reports whether an item at place in the client's order, echoing rev, must stay
// off the ledger: a command newer than rev that has not settled was echoed by an item that
// comes after this one in the client's order. This item was created before the client took
// that command and reached the server out of the client's order (a frame overtaken by a
// later report, a late report); the command is in the base already, so the item cannot be
// judged as of its own revision. An echo at a report's number comes after that report and
// after the frames that carry its number; a frame carrying that number comes after it.
func (p *Player) heldOff(now time.Duration, rev, place uint16, frame bool) bool {
	for i := int(p.cmds.folded) - 1; i >= 0; i-- {
		c := p.cmdAt(i)
		if !revision.Newer(c.rev, rev) {
			return false
		}
		if !c.echoed || c.settled(now) {
			continue
		}
		if frame && revision.Newer(c.echoAt, place) || !frame && revision.NewerOrEqual(c.echoAt, place) {
			return true
		}
	}
	return false
}

// echo records that an item at place in the client's order echoed rev, and puts the
// commands up to rev into the base: the client took them before it created the item,
// and what comes after the item in the client's order is judged after them. An echo older
// than what is in the base is judged as if it echoed the newest command in the base.
func (p *Player) echo(rev, place uint16) {
	changed := false
	for i := 0; i < int(p.cmds.n); i++ {
		c := p.cmdAt(i)
		if revision.Newer(c.rev, rev) {
			break
		}
		if !c.echoed || revision.Newer(c.echoAt, place) {
			c.echoed, c.echoAt = true, place
		}
		if i >= int(p.cmds.folded) {
			p.foldOne()
			changed = true
		}
	}
	if changed {
		p.relevel()
	}
}

// voidPending drops the commands not yet in the base: the base reached 0 health, so the
// client died before it took them, and a dead client drops a set or an add. The ledger
// never rises by it: a dropped set that lowered the armor leaves the lower armor.
func (p *Player) voidPending() {
	for i := int(p.cmds.folded); i < int(p.cmds.n); i++ {
		p.cmdAt(i).void = true
	}
	p.base = minVitals(p.base, p.ledger)
	p.relevel()
}
