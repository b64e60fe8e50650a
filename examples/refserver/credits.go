package refserver

import "time"

// shotBook is a shooter's shot credits: its accepted shots, indexed by the shot number
// modulo the table's size, for its victims' reports. It holds at most MaxShotCredits
// records (the bound a shooter can make the World hold), and it allocates them on demand:
// the table starts at minShotBook records and doubles, up to MaxShotCredits, only when a
// new shot would overwrite a record that can still be credited and that a table of
// MaxShotCredits would have kept. A record that can never be credited again (of an earlier
// life, or older than the shot-credit window) is overwritten instead, so a shooter's table
// is sized by the shots it has in the window, not by the worst case.
//
// What a victim's report finds is exactly what a fixed table of MaxShotCredits records
// indexed by shot number modulo MaxShotCredits would give: a record is dropped early only
// when it could not be credited any more (a lookup of it finds nothing, the verdict a
// lookup of an expired record gives).
type shotBook struct{ recs []shotRecord }

// noShot and noProjectile are what a lookup in an empty table finds: zero records, never
// written (a caller writes only to a record it found valid, or to one slot or
// newProjectile returned).
var (
	noShot       shotRecord
	noProjectile projectileRecord
)

// minShotBook is the first size of a shotBook's table.
const minShotBook = 8

// at returns the record at the slot of shot number seq (a zero record when the table is
// empty); the caller checks its number.
func (b *shotBook) at(seq uint16) *shotRecord {
	if len(b.recs) == 0 {
		return &noShot
	}
	return &b.recs[int(seq)&(len(b.recs)-1)]
}

// slot returns the record to overwrite with shot number seq of the life lifeSerial at now,
// growing the table while the slot holds a record that may still be credited (window is
// the shot-credit window) and that a full table would keep.
func (b *shotBook) slot(seq uint16, now, window time.Duration, lifeSerial uint64) *shotRecord {
	for {
		if len(b.recs) == MaxShotCredits {
			return &b.recs[int(seq)%MaxShotCredits]
		}
		if len(b.recs) > 0 {
			rec := &b.recs[int(seq)&(len(b.recs)-1)]
			dead := !rec.valid || rec.life != lifeSerial || now-rec.at > window
			if dead || int(rec.seq)%MaxShotCredits == int(seq)%MaxShotCredits {
				return rec
			}
		}
		b.grow()
	}
}

// grow doubles the table (at least minShotBook records), moving every valid record to its
// slot in the new one: two valid records never share a slot, since they did not in the
// smaller table.
func (b *shotBook) grow() {
	n := max(2*len(b.recs), minShotBook)
	grown := make([]shotRecord, n)
	for i := range b.recs {
		if rec := &b.recs[i]; rec.valid {
			grown[int(rec.seq)&(n-1)] = *rec
		}
	}
	b.recs = grown
}

// reset forgets every record; the table keeps its size.
func (b *shotBook) reset() { clear(b.recs) }

// room is the table's size: the records allocated so far.
func (b *shotBook) room() int { return len(b.recs) }

// projectile returns the record at the slot of projectile number seq (a zero record while
// the owner launched none); the caller checks its number.
func (p *player) projectile(seq uint16) *projectileRecord {
	if p.projectiles == nil {
		return &noProjectile
	}
	return &p.projectiles[int(seq)%MaxProjectiles]
}

// newProjectile returns the record to overwrite with projectile number seq. The owner's
// table of MaxProjectiles records is allocated at its first projectile: most players
// never launch one.
func (p *player) newProjectile(seq uint16) *projectileRecord {
	if p.projectiles == nil {
		p.projectiles = new([MaxProjectiles]projectileRecord)
	}
	return &p.projectiles[int(seq)%MaxProjectiles]
}

// The shot book indexes by masking: MaxShotCredits is a power of two.
var _ = [1]struct{}{}[MaxShotCredits&(MaxShotCredits-1)]
