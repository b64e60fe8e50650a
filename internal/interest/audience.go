package interest

import "slices"

// Audience is what Sees reads for many recipients of one subject (Manager.Audience): the
// subject's viewers, a short list scanned once per recipient instead of a search of each
// recipient's seen list, which lies elsewhere in memory for every recipient. Its answers
// are those of Sees, and it is valid, like SeenIDs, until the next Place, Remove,
// Evaluate or Sent.
type Audience struct {
	m       *Manager
	subject ID
	viewers []ID
}

// Audience returns the Audience of subject: for an id out of range, one that sees nobody.
func (m *Manager) Audience(subject ID) Audience {
	if int(subject) >= len(m.players) {
		return Audience{m: m, subject: subject}
	}
	return Audience{m: m, subject: subject, viewers: m.players[subject].viewers}
}

// Sees is Manager.Sees(recipient, a's subject): the subject is shown to recipient (the
// recipient is among its viewers) and its show went out (the recipient owes no show, or
// the subject is in its seen list).
func (a Audience) Sees(recipient ID) bool {
	if !slices.Contains(a.viewers, recipient) {
		return false // not shown; a viewer is an id in range
	}
	p := &a.m.players[recipient]
	if p.owed == 0 {
		return true
	}
	_, ok := slices.BinarySearch(p.seen, a.subject)
	return ok
}

// Touch reads the line of recipient's state that Sees reads and returns a word of it; it
// changes nothing. A host asking Sees of many recipients touches them all first and
// keeps the results (so the reads are not left out): their memory reads then overlap
// instead of waiting for one another. Zero for an id out of range.
func (a Audience) Touch(recipient ID) uint64 {
	if a.m == nil || int(recipient) >= len(a.m.players) {
		return 0
	}
	return uint64(a.m.players[recipient].owed)
}
