package interest

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/arbitergo/arbiter/internal/ids"
)

// Defaults of Config.
const (
	// DefaultDistance is Config.Distance when left zero: open.mp's default stream
	// distance, in metres.
	DefaultDistance = 200
	// DefaultMargin is Config.Margin when left zero, in metres.
	DefaultMargin = 20
	// DefaultCap is Config.Cap when left zero.
	DefaultCap = 100
	// DefaultEvery is Config.Every when left zero.
	DefaultEvery = 250 * time.Millisecond
	// Slots is how many phase slots the recipients are spread over ([stream-phase]):
	// recipient id is evaluated at Every*(id%Slots)/Slots past each multiple of Every.
	Slots = 8
	// MaxCap is the largest Config.Cap.
	MaxCap = 1 << 15
	// MaxCrowd is how many subjects within reach one evaluation examines besides those
	// already shown, and how many recipients within Distance a join offers itself to
	// ([stream-crowd]): a crowd of thousands at one spawn point costs each evaluation
	// and each join a bounded amount instead of the whole crowd. Ten times DefaultCap: a
	// world whose recipients have fewer than that within reach is evaluated exactly.
	MaxCrowd = 1024
	// maxSeenSlab is the most ids New lays out for the seen lists in one array (IDs*Cap,
	// 8 MB): a larger world grows each recipient's list on its own.
	maxSeenSlab = 1 << 22
	// idsPerLine is how many ids one 64-byte cache line holds.
	idsPerLine = 64 / 2 // an ID (ids.PlayerID) is two bytes
	// maxTouched is the most entries of Manager.touched (16 KB).
	maxTouched = 1 << 12
	// MaxCoordinate bounds a position's coordinates (metres from the origin); a position
	// beyond it is refused (ErrBadPosition).
	MaxCoordinate = 1 << 20
)

// Errors.
var (
	// ErrConfig is returned by New for a Config out of range.
	ErrConfig = errors.New("interest: bad config")
	// ErrBadID is returned for an id outside 0..IDs-1.
	ErrBadID = errors.New("interest: id out of range")
	// ErrBadPosition is returned for a position that is not finite or lies beyond
	// MaxCoordinate; nothing changes.
	ErrBadPosition = errors.New("interest: bad position")
)

// ID names a player: a recipient and a subject are the same players (the player id every
// package of arbiter names).
type ID = ids.PlayerID

// Config configures a Manager. A zero field means its default.
type Config struct {
	// IDs is the number of player ids, 0..IDs-1 (at most 65535). Required.
	IDs int
	// Distance is the stream distance in metres (default DefaultDistance).
	Distance float32
	// Margin is the hysteresis in metres: hidden only beyond Distance+Margin (default
	// DefaultMargin; a negative value means none).
	Margin float32
	// Cap is the most subjects shown to one recipient (default DefaultCap, at most
	// MaxCap).
	Cap int
	// Every is the re-evaluation period of each recipient (default DefaultEvery).
	Every time.Duration
}

func (c Config) withDefaults() (Config, error) {
	if c.Distance == 0 {
		c.Distance = DefaultDistance
	}
	if c.Margin == 0 {
		c.Margin = DefaultMargin
	} else if c.Margin < 0 {
		c.Margin = 0
	}
	if c.Cap == 0 {
		c.Cap = DefaultCap
	}
	if c.Every == 0 {
		c.Every = DefaultEvery
	}
	switch {
	case c.IDs < 1 || c.IDs > math.MaxUint16:
		return c, fmt.Errorf("%w: IDs %d not in 1..%d", ErrConfig, c.IDs, math.MaxUint16)
	case !(c.Distance > 0) || c.Distance > MaxCoordinate || !(c.Margin <= MaxCoordinate):
		return c, fmt.Errorf("%w: Distance %v, Margin %v", ErrConfig, c.Distance, c.Margin)
	case c.Cap < 1 || c.Cap > MaxCap:
		return c, fmt.Errorf("%w: Cap %d not in 1..%d", ErrConfig, c.Cap, MaxCap)
	case c.Every < 0:
		return c, fmt.Errorf("%w: Every %v", ErrConfig, c.Every)
	}
	return c, nil
}

// Change is one show or hide for the host to send: Subject shown to (or hidden from)
// Recipient.
type Change struct {
	Recipient ID
	Subject   ID
	Show      bool
}

// String is "show 3 to 1" or "hide 3 from 1".
func (c Change) String() string {
	if c.Show {
		return fmt.Sprintf("show %d to %d", c.Subject, c.Recipient)
	}
	return fmt.Sprintf("hide %d from %d", c.Subject, c.Recipient)
}

const none = math.MaxUint32

// entry is one subject shown to a recipient.
type entry struct {
	id   ID
	vi   uint16 // where the recipient stands in the subject's viewers (fewer than IDs)
	sent bool
}

// player is what the Manager keeps of one id.
type player struct {
	active bool
	// shown is the subjects shown to this recipient, in ascending id.
	shown []entry
	// seen is the ids of shown whose show went out, in ascending id: what the host walks
	// for every recipient at every flush (SeenIDs), two bytes a subject and no test of
	// sent, kept apart from shown's bookkeeping.
	seen []ID
	// viewers is the recipients this subject is shown to (an entry in their shown),
	// in no order.
	viewers []ID
	// owed is how many entries of shown are not sent.
	owed int
}

// spot is where a player stands in the spatial hash, kept apart from the rest of its
// state: 32 bytes a player, so a query walking the buckets reads a compact array, and a
// Place that keeps the player in its cell touches nothing else.
type spot struct {
	x, y       float32
	cx, cy     int32
	next, prev uint32 // the neighbours in the bucket's list, or none
	// settled is the evaluation count (Manager.seq) at the player's last evaluation when
	// that one weighed every subject within reach and kept them all (under Cap, below
	// MaxCrowd), else 0: what lets its next one be skipped ([stream-standing]). Here
	// rather than in an array of its own: a Place that moves the player clears it in the
	// line it writes anyway, and an evaluation reads it in the line near reads.
	settled uint32
	placed  bool
}

// candidate is a subject considered for a recipient, with the distance it competes by.
type candidate struct {
	d2 float32
	id ID
}

// Manager is the interest manager of one world.
type Manager struct {
	cfg     Config
	cell    float32 // Distance+Margin: a query visits the 3x3 cells around the recipient
	inv     float32
	hide2   float32 // (Distance+Margin)^2
	show2   float32 // Distance^2
	players []player
	spots   []spot
	heads   []uint32 // first player of each bucket, or none
	mask    uint32
	active  []ID // the active ids, ascending
	cands   []candidate
	// mark[s] == stamp while s is shown to the recipient being evaluated (near reads it
	// instead of searching the shown set for every candidate).
	mark  []uint32
	stamp uint32
	// want[s] == stamp while s is among the nearest chosen for the recipient being
	// evaluated.
	want    []uint32
	desired []entry
	scratch []entry
	// due is each id's next evaluation ([stream-phase]), apart from players so that
	// Evaluate reads a compact array to find the few that are due.
	due []time.Duration
	// touched[b&tmask] is the evaluation count (seq) when bucket b's players last changed
	// (one came, left or moved). An evaluation of a settled recipient (spot.settled) none
	// of whose 3x3 buckets was touched since would choose the shown set it has
	// (unchanged). At most maxTouched entries, shared by the buckets of equal low bits: a
	// Place that moves writes one, and a small table stays in the cache (a moving world
	// skips nothing, and must not pay a miss a frame for it); a bucket that shares its
	// entry with a moving one is only re-weighed for nothing.
	// seq counts the evaluations that weighed their candidates; 0 only before the first
	// (and at a wrap, which unsettles everyone).
	touched []uint32
	tmask   uint32
	seq     uint32
	// slab is every recipient's seen list in one array (New), Cap ids each, nil for a
	// world too large; seenN[id] is then len(players[id].seen), so Sees finds a list
	// without reading the player (a compact array instead of a line a recipient).
	slab  []ID
	seenN []uint16
	// stride is each recipient's room in slab: Cap ids rounded up to whole 64-byte lines,
	// so a list starts on a line of its own and a short one spans the fewest lines.
	stride int
	// owing is the sum of every recipient's owed.
	owing int
	// examined is how many subjects the last near examined within reach, weighed how
	// many evaluations weighed their candidates (were not skipped), for the tests; full
	// turns the skipping off (the tests compare both).
	examined int
	weighed  int
	full     bool
}

// New returns an empty Manager.
func New(cfg Config) (*Manager, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	nb := 1
	for nb < 2*c.IDs {
		nb <<= 1
	}
	m := &Manager{cfg: c, cell: c.Distance + c.Margin, players: make([]player, c.IDs), spots: make([]spot, c.IDs), heads: make([]uint32, nb),
		mask: uint32(nb - 1), active: make([]ID, 0, c.IDs), mark: make([]uint32, c.IDs), want: make([]uint32, c.IDs),
		due: make([]time.Duration, c.IDs)}
	m.touched = make([]uint32, min(nb, maxTouched))
	m.tmask = uint32(len(m.touched) - 1)
	m.inv = 1 / m.cell
	m.hide2 = m.cell * m.cell
	m.show2 = c.Distance * c.Distance
	for i := range m.heads {
		m.heads[i] = none
	}
	for i := range m.players {
		m.spots[i].next, m.spots[i].prev = none, none
	}
	if stride := (c.Cap + idsPerLine - 1) / idsPerLine * idsPerLine; c.IDs*stride <= maxSeenSlab {
		// Every recipient's seen list in one array, in id order, each with room for Cap
		// from the start of a line: a host walking the recipients in ascending id reads
		// them as one stream.
		slab := make([]ID, c.IDs*stride)
		for i := range m.players {
			m.players[i].seen = slab[i*stride : i*stride : i*stride+c.Cap]
		}
		m.slab, m.seenN, m.stride = slab, make([]uint16, c.IDs), stride
	}
	return m, nil
}

// Config returns the configuration with its defaults filled in.
func (m *Manager) Config() Config { return m.cfg }

// Placed reports whether id was placed (Place) and not removed since.
func (m *Manager) Placed(id ID) bool {
	return int(id) < len(m.spots) && m.spots[id].placed
}

// Position is where id stands (its last Place); false when it is not placed.
func (m *Manager) Position(id ID) (x, y float32, ok bool) {
	if !m.Placed(id) {
		return 0, 0, false
	}
	return m.spots[id].x, m.spots[id].y, true
}

// Sees reports whether subject is shown to recipient and its show went out.
func (m *Manager) Sees(recipient, subject ID) bool {
	if int(recipient) >= len(m.players) {
		return false
	}
	if m.seenN != nil {
		base := int(recipient) * m.stride
		_, ok := slices.BinarySearch(m.slab[base:base+int(m.seenN[recipient])], subject)
		return ok
	}
	_, ok := slices.BinarySearch(m.players[recipient].seen, subject)
	return ok
}

// Shown appends the subjects shown to recipient (sent or owed), in ascending id.
func (m *Manager) Shown(dst []ID, recipient ID) []ID {
	if int(recipient) >= len(m.players) {
		return dst
	}
	for _, e := range m.players[recipient].shown {
		dst = append(dst, e.id)
	}
	return dst
}

// Seen appends the subjects recipient sees (shown, and the show went out), in ascending
// id.
func (m *Manager) Seen(dst []ID, recipient ID) []ID {
	return append(dst, m.SeenIDs(recipient)...)
}

// SeenIDs returns the subjects recipient sees, in ascending id, as Seen does, without a
// copy: the Manager's own slice, which the caller only reads, and only until the next
// Place, Remove, Evaluate or Sent. Nil for an id out of range.
func (m *Manager) SeenIDs(recipient ID) []ID {
	if int(recipient) >= len(m.players) {
		return nil
	}
	if m.seenN != nil {
		// From the slab and seenN: the recipient's own line is not read.
		base, n := int(recipient)*m.stride, int(m.seenN[recipient])
		return m.slab[base : base+n : base+n]
	}
	return m.players[recipient].seen
}

// Owed appends the subjects shown to recipient whose show has not gone out yet, in
// ascending id.
func (m *Manager) Owed(dst []ID, recipient ID) []ID {
	if int(recipient) >= len(m.players) {
		return dst
	}
	for _, e := range m.players[recipient].shown {
		if !e.sent {
			dst = append(dst, e.id)
		}
	}
	return dst
}

// Viewers appends the recipients subject is shown to and whose show went out, in no
// particular order (the order is deterministic).
func (m *Manager) Viewers(dst []ID, subject ID) []ID {
	if int(subject) >= len(m.players) {
		return dst
	}
	for _, r := range m.players[subject].viewers {
		if m.Sees(r, subject) {
			dst = append(dst, r)
		}
	}
	return dst
}

// Sent records that subject's show went out to recipient; false when it is not shown.
func (m *Manager) Sent(recipient, subject ID) bool {
	if int(recipient) >= len(m.players) {
		return false
	}
	sh := m.players[recipient].shown
	i, ok := slices.BinarySearchFunc(sh, subject, func(e entry, id ID) int { return int(e.id) - int(id) })
	if ok && !sh[i].sent {
		sh[i].sent = true
		p := &m.players[recipient]
		p.owed--
		m.owing--
		j, _ := slices.BinarySearch(p.seen, subject)
		p.seen = slices.Insert(p.seen, j, subject)
		m.seenSet(recipient)
	}
	return ok
}

// OwedTotal is how many shows, over every recipient, still wait to go out: the sum of
// OwedCount (a host that drains the owed shows skips the walk over its recipients when
// it is zero).
func (m *Manager) OwedTotal() int { return m.owing }

// OwedCount is how many subjects shown to recipient still wait for their show to go out.
func (m *Manager) OwedCount(recipient ID) int {
	if int(recipient) >= len(m.players) {
		return 0
	}
	return m.players[recipient].owed
}

func (m *Manager) cellOf(x, y float32) (int32, int32) {
	return int32(math.Floor(float64(x * m.inv))), int32(math.Floor(float64(y * m.inv)))
}

func (m *Manager) hash(cx, cy int32) uint32 {
	h := uint32(cx)*0x9E3779B1 ^ uint32(cy)*0x85EBCA77
	h ^= h >> 15
	return h & m.mask
}

// Place puts id at (x, y): a recipient's own position and where others see it. The first
// Place of an id makes it active and evaluates it at once ([stream-join]): the changes
// (shows to id, and shows of id to those within Distance with room) are appended to out.
func (m *Manager) Place(now time.Duration, id ID, x, y float32, out []Change) ([]Change, error) {
	if int(id) >= len(m.players) {
		return out, fmt.Errorf("%w: %d", ErrBadID, id)
	}
	if !finite(x) || !finite(y) || abs(x) > MaxCoordinate || abs(y) > MaxCoordinate {
		return out, fmt.Errorf("%w: (%v, %v)", ErrBadPosition, x, y)
	}
	sp := &m.spots[id]
	if sp.placed {
		if x == sp.x && y == sp.y {
			return out, nil // standing still: nothing any evaluation reads changed
		}
		sp.x, sp.y = x, y
		sp.settled = 0
		m.touched[m.hash(sp.cx, sp.cy)&m.tmask] = m.seq
		cx, cy := m.cellOf(x, y)
		if cx != sp.cx || cy != sp.cy {
			m.unlink(id)
			sp.cx, sp.cy = cx, cy
			m.link(id)
		}
		return out, nil
	}
	sp.x, sp.y = x, y
	sp.cx, sp.cy = m.cellOf(x, y)
	m.link(id)
	sp.placed = true
	if p := &m.players[id]; !p.active {
		p.active = true
		i, _ := slices.BinarySearch(m.active, id)
		m.active = slices.Insert(m.active, i, id)
		m.due[id] = m.NextDue(now, id)
		out = m.evaluate(id, out)
		out = m.joinOthers(id, out)
	}
	return out, nil
}

// Remove takes id out of the world: it is hidden from every recipient it was shown to
// (the hides of the shows that went out are appended to out) and sees nobody.
func (m *Manager) Remove(id ID, out []Change) []Change {
	if int(id) >= len(m.players) || !m.players[id].active {
		return out
	}
	p := &m.players[id]
	for _, r := range p.viewers {
		rp := &m.players[r]
		i, ok := slices.BinarySearchFunc(rp.shown, id, func(e entry, id ID) int { return int(e.id) - int(id) })
		if ok {
			if rp.shown[i].sent {
				out = append(out, Change{Recipient: r, Subject: id})
				if j, ok := slices.BinarySearch(rp.seen, id); ok {
					rp.seen = slices.Delete(rp.seen, j, j+1)
					m.seenSet(r)
				}
			} else {
				rp.owed--
				m.owing--
			}
			rp.shown = slices.Delete(rp.shown, i, i+1)
			m.spots[r].settled = 0
		}
	}
	p.viewers = p.viewers[:0]
	for _, e := range p.shown {
		m.dropViewer(e.id, e.vi)
	}
	p.shown, p.seen = p.shown[:0], p.seen[:0]
	m.seenSet(id)
	m.owing -= p.owed
	p.owed = 0
	if m.spots[id].placed {
		m.unlink(id)
	}
	p.active, m.spots[id].placed = false, false
	m.spots[id].settled = 0
	if i, ok := slices.BinarySearch(m.active, id); ok {
		m.active = slices.Delete(m.active, i, i+1)
	}
	return out
}

// Evaluate re-evaluates every active recipient whose phase slot came due since the last
// call ([stream-phase]) and appends the changes to out: the hides first, then the shows,
// per recipient in ascending id.
func (m *Manager) Evaluate(now time.Duration, out []Change) []Change {
	due := m.due
	for _, id := range m.active {
		if now < due[id] {
			continue
		}
		due[id] = m.NextDue(now, id)
		out = m.evaluate(id, out)
	}
	return out
}

// NextDue is the next moment past now at which recipient id's phase slot comes due
// ([stream-phase]): of the form k*Every + Every*(id%Slots)/Slots (now itself when Every
// is not positive). A host that re-evaluates other things per recipient on the same
// phase (the reference server's vehicles) reads it here.
func (m *Manager) NextDue(now time.Duration, id ID) time.Duration {
	every := m.cfg.Every
	if every <= 0 {
		return now
	}
	phase := every * time.Duration(int(id)%Slots) / Slots
	k := (now - phase) / every
	due := k*every + phase
	for due <= now {
		due += every
	}
	return due
}

func (m *Manager) link(id ID) {
	p := &m.spots[id]
	b := m.hash(p.cx, p.cy)
	p.prev = none
	p.next = m.heads[b]
	m.touched[b&m.tmask] = m.seq
	if p.next != none {
		m.spots[p.next].prev = uint32(id)
	}
	m.heads[b] = uint32(id)
}

func (m *Manager) unlink(id ID) {
	p := &m.spots[id]
	b := m.hash(p.cx, p.cy)
	m.touched[b&m.tmask] = m.seq
	if p.prev != none {
		m.spots[p.prev].next = p.next
	} else {
		m.heads[b] = p.next
	}
	if p.next != none {
		m.spots[p.next].prev = p.prev
	}
	p.next, p.prev = none, none
}

// near appends to m.cands every placed player but id within reach of id (Distance for a
// subject not shown to id, Distance+Margin for one shown), competing by its squared
// distance less the margin's advantage of a shown one ([stream-cap]): first those shown
// to id (marked), then the others the grid holds, id's own cell first, at most MaxCrowd
// of them ([stream-crowd]). It reports whether it weighed every one within reach (false
// when MaxCrowd cut the walk short).
func (m *Manager) near(id ID) bool {
	p := &m.spots[id]
	m.cands = m.cands[:0]
	margin := m.cfg.Margin
	for _, e := range m.players[id].shown {
		o := &m.spots[e.id]
		ex, ey := float64(o.x-p.x), float64(o.y-p.y)
		d2 := float32(ex*ex + ey*ey)
		if d2 > m.hide2 {
			continue
		}
		rank := d2
		if margin > 0 {
			d := float32(math.Sqrt(float64(d2))) - margin
			rank = d * abs(d) // keeps the order of signed distances
		}
		m.cands = append(m.cands, candidate{d2: rank, id: e.id})
	}
	others := 0
	for k := range crowdOrder {
		cx, cy := p.cx+crowdOrder[k][0], p.cy+crowdOrder[k][1]
		for q := m.heads[m.hash(cx, cy)]; q != none; q = m.spots[q].next {
			o := &m.spots[q]
			if o.cx != cx || o.cy != cy || ID(q) == id {
				continue
			}
			ex, ey := float64(o.x-p.x), float64(o.y-p.y)
			// The distance before the mark: most of a cell's players are beyond reach,
			// and their marks need not be read.
			if d2 := float32(ex*ex + ey*ey); d2 <= m.show2 && m.mark[q] != m.stamp {
				if others == MaxCrowd {
					m.examined = others
					return false
				}
				others++
				m.cands = append(m.cands, candidate{d2: d2, id: ID(q)})
			}
		}
	}
	m.examined = others
	return true
}

// crowdOrder is the order near and joinOthers visit the 3x3 cells around a player: its
// own first (in a crowd, MaxCrowd is reached there).
var crowdOrder = [9][2]int32{{0, 0}, {-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}

// evaluate recomputes id's shown set and appends the changes.
func (m *Manager) evaluate(id ID, out []Change) []Change {
	if !m.spots[id].placed || m.unchanged(id) {
		return out
	}
	p := &m.players[id]
	m.weighed++
	m.seq++
	if m.seq == 0 { // wrapped: unsettle everyone
		for i := range m.spots {
			m.spots[i].settled = 0
		}
		clear(m.touched)
		m.seq = 1
	}
	m.stamp++
	if m.stamp == 0 { // wrapped: forget every old mark
		clear(m.mark)
		clear(m.want)
		m.stamp = 1
	}
	stamp := m.stamp
	for _, e := range p.shown {
		m.mark[e.id] = stamp
	}
	whole := m.near(id)
	m.spots[id].settled = 0
	if whole && len(m.cands) <= m.cfg.Cap {
		m.spots[id].settled = m.seq
	}
	if len(m.cands) > m.cfg.Cap {
		selectNearest(m.cands, m.cfg.Cap)
		m.cands = m.cands[:m.cfg.Cap]
	}
	// The chosen ones not shown yet (the shows), and whether the set stands.
	m.desired = m.desired[:0]
	for _, c := range m.cands {
		if m.mark[c.id] != stamp {
			m.desired = append(m.desired, entry{id: c.id})
		}
	}
	if len(m.desired) == 0 && len(m.cands) == len(p.shown) {
		return out // the set stands (the common case): nothing to merge
	}
	for _, c := range m.cands {
		m.want[c.id] = stamp
	}
	if len(m.desired) > 1 {
		slices.SortFunc(m.desired, func(a, b entry) int { return int(a.id) - int(b.id) })
	}
	// The hides, in ascending id: those of the old set (p.shown) not chosen; the kept ones
	// go to scratch.
	m.scratch = m.scratch[:0]
	for _, e := range p.shown {
		if m.want[e.id] == stamp {
			m.scratch = append(m.scratch, e)
			continue
		}
		if e.sent {
			out = append(out, Change{Recipient: id, Subject: e.id})
		}
		m.dropViewer(e.id, e.vi)
	}
	// Now the shows, in ascending id, and the new set: scratch and the new ones merged.
	m.owing -= p.owed
	p.owed = 0
	p.shown = p.shown[:0]
	k := 0
	for _, d := range m.desired {
		for k < len(m.scratch) && m.scratch[k].id < d.id {
			p.shown = append(p.shown, m.scratch[k])
			k++
		}
		p.shown = append(p.shown, entry{id: d.id, vi: uint16(len(m.players[d.id].viewers))})
		out = append(out, Change{Recipient: id, Subject: d.id, Show: true})
		m.players[d.id].viewers = append(m.players[d.id].viewers, id)
	}
	p.shown = append(p.shown, m.scratch[k:]...)
	p.seen = p.seen[:0]
	for _, e := range p.shown {
		if e.sent {
			p.seen = append(p.seen, e.id)
		} else {
			p.owed++
		}
	}
	m.seenSet(id)
	m.owing += p.owed
	return out
}

// seenSet records the length of id's seen list in seenN (after every change of it).
// The list never outgrows the Cap ids New gave it in the slab: a recipient is shown at
// most Cap.
func (m *Manager) seenSet(id ID) {
	if m.seenN != nil {
		m.seenN[id] = uint16(len(m.players[id].seen))
	}
}

// unchanged reports whether an evaluation of id would keep its shown set as it is: its
// last evaluation weighed every subject within reach and kept them all (settled), and
// since then no player came into, left or moved within the 3x3 cells around it (their
// buckets untouched), nor did its shown set change otherwise (a join or a Remove unsettles
// it). The same positions and the same shown set then give the same candidates, every
// one of them already shown: nothing to change ([stream-distance] and [stream-cap] hold
// as they did). Rule [stream-standing].
func (m *Manager) unchanged(id ID) bool {
	sp := &m.spots[id]
	at := sp.settled
	if at == 0 || m.full {
		return false
	}
	for k := range crowdOrder {
		if m.touched[m.hash(sp.cx+crowdOrder[k][0], sp.cy+crowdOrder[k][1])&m.tmask] >= at {
			return false
		}
	}
	return true
}

// joinOthers shows the newly placed id to every placed recipient within Distance that
// has room under its Cap ([stream-join]).
func (m *Manager) joinOthers(id ID, out []Change) []Change {
	p, sp := &m.players[id], &m.spots[id]
	within := 0
	for k := range crowdOrder {
		cx, cy := sp.cx+crowdOrder[k][0], sp.cy+crowdOrder[k][1]
		for q := m.heads[m.hash(cx, cy)]; q != none; q = m.spots[q].next {
			qs, o := &m.spots[q], &m.players[q]
			if qs.cx != cx || qs.cy != cy || ID(q) == id {
				continue
			}
			ex, ey := float64(qs.x-sp.x), float64(qs.y-sp.y)
			if float32(ex*ex+ey*ey) > m.show2 {
				continue
			}
			if within == MaxCrowd {
				return out // the rest see id at their own evaluation, if it is among their nearest
			}
			within++
			if len(o.shown) >= m.cfg.Cap {
				continue
			}
			i, ok := slices.BinarySearchFunc(o.shown, id, func(e entry, id ID) int { return int(e.id) - int(id) })
			if ok {
				continue
			}
			o.shown = slices.Insert(o.shown, i, entry{id: id, vi: uint16(len(p.viewers))})
			o.owed++
			m.owing++
			qs.settled = 0
			p.viewers = append(p.viewers, ID(q))
			out = append(out, Change{Recipient: ID(q), Subject: id, Show: true})
		}
	}
	return out
}

// dropViewer removes the viewer at index vi of subject's viewers: the last one takes its
// place, and that viewer's entry of subject learns its new index.
func (m *Manager) dropViewer(subject ID, vi uint16) {
	v := m.players[subject].viewers
	last := len(v) - 1
	if int(vi) < last {
		moved := v[last]
		v[vi] = moved
		sh := m.players[moved].shown
		if i, ok := slices.BinarySearchFunc(sh, subject, func(e entry, id ID) int { return int(e.id) - int(id) }); ok {
			sh[i].vi = vi
		}
	}
	m.players[subject].viewers = v[:last]
}

func finite(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }

func abs(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}

// closer orders candidates by distance, then by id: a total order, so the selection is
// deterministic.
func closer(a, b candidate) bool {
	return a.d2 < b.d2 || a.d2 == b.d2 && a.id < b.id
}

// selectNearest moves the k nearest candidates (by closer) to c[:k], in no order, in
// linear expected time (a quickselect with a median-of-three pivot; deterministic).
func selectNearest(c []candidate, k int) {
	lo, hi := 0, len(c)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		// Median of three to c[hi] as the pivot.
		if closer(c[mid], c[lo]) {
			c[mid], c[lo] = c[lo], c[mid]
		}
		if closer(c[hi], c[lo]) {
			c[hi], c[lo] = c[lo], c[hi]
		}
		if closer(c[mid], c[hi]) {
			c[mid], c[hi] = c[hi], c[mid]
		}
		pivot := c[hi]
		store := lo
		for i := lo; i < hi; i++ {
			if closer(c[i], pivot) {
				c[i], c[store] = c[store], c[i]
				store++
			}
		}
		c[store], c[hi] = c[hi], c[store]
		switch {
		case store == k || store == k-1:
			return
		case store < k:
			lo = store + 1
		default:
			hi = store - 1
		}
	}
}
