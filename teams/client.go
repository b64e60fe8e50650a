package teams

import "github.com/arbitergo/arbiter/internal/revision"

// This file is the client's side of the record: what the victim's client does with the
// stamps it receives. The server never runs it; the honest client model in examples/ and
// a real client do.

//go:generate go tool stringer -type=HitVerdict -linecomment

// HitVerdict is the victim client's decision about damage from another player.
type HitVerdict uint8

// The decisions of JudgeHit.
const (
	// HitApplied: the damage is not a teammate's; the client applies it and reports it.
	HitApplied HitVerdict = iota + 1 // applied
	// HitRefusedTeammate: the damage is a teammate's; the client refuses it before applying
	// it: no damage, no hit reaction, no report.
	HitRefusedTeammate // refused: teammate
)

// Hit is what the victim's client knows about damage when it judges it.
type Hit struct {
	// Attacker is the author of the damage: the shooter, the driver that rams, the thrower
	// of a projectile, the creator of a server effect, the credited killer of an exploding
	// vehicle. NoPlayer for damage without an author (a fall, drowning, an unowned fire).
	Attacker PlayerID
	// Shot marks a bullet of a shot packet (WeaponShot, VehicleShot): it is judged by the
	// stamp that very packet carried. Everything else is judged by the newest stamp from
	// the attacker.
	Shot bool
	// Stamp is the stamp the shot packet carried (Shot only).
	Stamp Stamp
}

// JudgeHit decides on the victim's client whether damage is refused as a teammate's. A
// shot is judged by its own stamp; any other damage by newest, the newest stamp the
// client holds from the attacker (the zero Stamp if it holds none, which is not a
// teammate's). Damage without an author is never refused. It is a pure function.
//
// Rules: [teammate-refused-by-victim].
func JudgeHit(h Hit, newest Stamp) HitVerdict {
	teammate := newest.Teammate
	if h.Shot {
		teammate = h.Stamp.Teammate
	}
	if h.Attacker == NoPlayer || !teammate {
		return HitApplied
	}
	return HitRefusedTeammate
}

// Tracker is kept by one client: for every sender, the newest stamp it has received from
// it. Newest means newest relation revision in 16-bit serial order, not last to arrive:
// datagrams overtake each other, and a frame stamped before a team change that arrives
// after one stamped after it must not bring the old relation back.
//
// Feed it the stamp of every packet from a sender (frames, shots, projectiles,
// detonations, effects the sender created); call Forget when the client removes the
// sender (it leaves or is no longer shown), so a stamp kept across a long absence is never
// compared with revisions half the 16-bit space later. Its zero value is empty and ready
// to use. It holds one small entry per sender up to the highest it has been given (a
// world of a thousand players costs it kilobytes, not MaxPlayers' worth), grows by
// doubling when a higher sender first appears, and does not allocate once grown. Not
// safe for concurrent use.
type Tracker struct {
	held []heldStamp // by sender
}

// heldStamp is the newest stamp of one sender, side by side with whether there is one.
type heldStamp struct {
	newest Stamp
	known  bool
}

// Observe takes the stamp of a packet from sender and reports whether it became the
// newest. An older or equal revision changes nothing; a revision exactly half the 16-bit
// space away from the one held cannot be ordered and replaces it (the one held is that
// stale). A sender out of range is ignored.
func (t *Tracker) Observe(sender PlayerID, s Stamp) bool {
	if sender >= MaxPlayers {
		return false
	}
	if int(sender) >= len(t.held) {
		n := min(max(int(sender)+1, 2*len(t.held)), MaxPlayers)
		t.held = append(t.held, make([]heldStamp, n-len(t.held))...)
	}
	h := &t.held[sender]
	if h.known {
		switch revision.Compare(s.Rev, h.newest.Rev) {
		case revision.Equal, revision.Before:
			return false
		}
	}
	*h = heldStamp{newest: s, known: true}
	return true
}

// Newest returns the newest stamp received from sender, and false if none was (the zero
// Stamp then says "not a teammate").
func (t *Tracker) Newest(sender PlayerID) (Stamp, bool) {
	if int(sender) >= len(t.held) || !t.held[sender].known {
		return Stamp{}, false
	}
	return t.held[sender].newest, true
}

// Teammate reports whether, by the newest stamp received from it, sender is this client's
// teammate now.
func (t *Tracker) Teammate(sender PlayerID) bool {
	s, _ := t.Newest(sender)
	return s.Teammate
}

// Forget drops what the tracker holds about sender.
func (t *Tracker) Forget(sender PlayerID) {
	if int(sender) < len(t.held) {
		t.held[sender] = heldStamp{}
	}
}

// JudgeHit judges a hit on this client with JudgeHit, taking the newest stamp from the
// attacker from the tracker. The caller has already observed the stamp of the hit's own
// packet, if it had one.
//
// Rules: [teammate-refused-by-victim].
func (t *Tracker) JudgeHit(h Hit) HitVerdict {
	s, _ := t.Newest(h.Attacker)
	return JudgeHit(h, s)
}
