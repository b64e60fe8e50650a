package teams

import (
	"fmt"
	"strconv"

	"github.com/arbitergo/arbiter/internal/revision"
)

// Stamp is the relation the server stamps, for one recipient, into a packet that can
// hurt: whether the packet's sender is the recipient's teammate, and the relation
// revision that answer belongs to. Two stamps of the same sender for the same recipient
// with the same Rev always agree; the newer Rev (in 16-bit serial order) is the truer one.
type Stamp struct {
	// Teammate reports that the sender is the recipient's teammate: the recipient's client
	// refuses the sender's damage.
	Teammate bool
	// Rev is the global relation revision at the moment of stamping.
	Rev uint16
}

// String returns "teammate@rev" or "apart@rev".
func (s Stamp) String() string {
	if s.Teammate {
		return "teammate@" + strconv.Itoa(int(s.Rev))
	}
	return "apart@" + strconv.Itoa(int(s.Rev))
}

// Rev returns the current relation revision, the one every stamp carries until the next
// change of a damage group.
func (r *Registry) Rev() uint16 { return uint16(r.rev) }

// Stamp returns the stamp for a packet from sender relayed to recipient: every relayed
// frame (of a player, and of a vehicle, whose sender is the player whose client sent it),
// shot, projectile and detonation, and every server effect with a creator (the creator is
// the sender). It never fails: an id out of range, NoPlayer or a slot nobody occupies has
// damage group 0 and is nobody's teammate. It does not allocate and only reads.
//
// Rules: [teammate-stamp].
func (r *Registry) Stamp(sender, recipient PlayerID) Stamp {
	return Stamp{Teammate: r.Teammates(sender, recipient), Rev: uint16(r.rev)}
}

// Teammates reports whether players a and b are teammates now: two different players with
// the same non-zero damage group.
func (r *Registry) Teammates(a, b PlayerID) bool {
	if a == b || int(a) >= len(r.groups) || int(b) >= len(r.groups) {
		return false
	}
	g := r.groups[a]
	return g != 0 && g == r.groups[b]
}

// AreTeammates is the teammate rule on its own, for anyone who knows two players' damage
// groups (a client comparing the groups of two remote players): two different players
// with the same non-zero group are teammates. A player is never its own teammate.
func AreTeammates(a PlayerID, groupA uint16, b PlayerID, groupB uint16) bool {
	return a != b && groupA != 0 && groupA == groupB
}

// StampAt returns the stamp a packet from sender to recipient carried when it was relayed
// at relation revision rev: the server rebuilds the stamp an action carried (a shot whose
// report arrives later) from the revision alone, without keeping one stamp per recipient.
//
// rev must be the current revision or an older one still remembered: it fails with
// ErrRevisionFuture for a revision newer than the current one (or half the 16-bit space
// away), with ErrRevisionForgotten for one older than the registry or older than the last
// GroupHistory group changes of either player, and with ErrPlayerOutOfRange for an id
// outside the slots (NoPlayer included).
//
// Rules: [teammate-stamp].
func (r *Registry) StampAt(sender, recipient PlayerID, rev uint16) (Stamp, error) {
	if err := r.checkSlot(sender); err != nil {
		return Stamp{}, err
	}
	if err := r.checkSlot(recipient); err != nil {
		return Stamp{}, err
	}
	at, err := r.expand(rev)
	if err != nil {
		return Stamp{}, err
	}
	gs, ok := r.groupAt(sender, at)
	if !ok {
		return Stamp{}, fmt.Errorf("%w: rev %d of player %d", ErrRevisionForgotten, rev, sender)
	}
	gr, ok := r.groupAt(recipient, at)
	if !ok {
		return Stamp{}, fmt.Errorf("%w: rev %d of player %d", ErrRevisionForgotten, rev, recipient)
	}
	return Stamp{Teammate: AreTeammates(sender, gs, recipient, gr), Rev: rev}, nil
}

// expand turns a 16-bit revision at or before the current one into the full count.
func (r *Registry) expand(rev uint16) (uint64, error) {
	back := revision.Diff(uint16(r.rev), rev)
	if back < 0 {
		return 0, fmt.Errorf("%w: rev %d, current %d", ErrRevisionFuture, rev, uint16(r.rev))
	}
	if uint64(back) > r.rev {
		return 0, fmt.Errorf("%w: rev %d is older than the registry", ErrRevisionForgotten, rev)
	}
	return r.rev - uint64(back), nil
}

// history is a ring of the last GroupHistory changes of one slot's damage group: from
// revision rev[i] on, the group was group[i]. Before the first change the group was 0
// (every slot starts empty at revision 0), unless a change was dropped from the ring.
type history struct {
	rev   [GroupHistory]uint64
	group [GroupHistory]uint16
	n     uint8 // changes held
	next  uint8 // where the next change goes
	lost  bool  // a change was dropped: revisions before the oldest one held are unknown
}

// groupAt is the group of slot p at revision at (a slot of a zero Registry that never
// connected anyone was always in group 0).
func (r *Registry) groupAt(p PlayerID, at uint64) (uint16, bool) {
	if int(p) >= len(r.history) {
		return 0, true
	}
	return r.history[p].at(at)
}

func (h *history) push(rev uint64, g uint16) {
	h.rev[h.next], h.group[h.next] = rev, g
	h.next = (h.next + 1) % GroupHistory
	if h.n < GroupHistory {
		h.n++
	} else {
		h.lost = true
	}
}

// at returns the group at revision rev, and false if the ring no longer reaches back so far.
func (h *history) at(rev uint64) (uint16, bool) {
	i := h.next
	for range h.n {
		i = (i + GroupHistory - 1) % GroupHistory
		if h.rev[i] <= rev {
			return h.group[i], true
		}
	}
	return 0, !h.lost
}
