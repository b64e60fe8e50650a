package vitals

import (
	"fmt"
	"math"
	"time"
)

// The god-mode suspicion detector ([god-mode-detector], our design, see doc.go). Defaults of Config and the detector's fixed resolution.
const (
	// SuspicionBucket is the resolution of the detector's sliding window.
	SuspicionBucket = time.Second
	// MaxSuspicionWindow is the longest window a Config may ask for.
	MaxSuspicionWindow = 60 * time.Second
	// ClaimGrace is how old a hit claim must be before the detector judges it: the
	// victim's report and frames need a round trip, a wait and some jitter to arrive.
	ClaimGrace = 3 * time.Second
	// DefaultSuspicionWindow is the window of a zero Config.
	DefaultSuspicionWindow = 20 * time.Second
	// DefaultSuspicionRatio: flag a victim whose felt loss stays below this share of the
	// claimed loss.
	DefaultSuspicionRatio float32 = 0.10
	// DefaultSuspicionMinHits is the least number of judged, unconfirmed hit claims in the
	// window before anything is flagged. Twenty, not ten: in the simulated match, where a
	// wall stops 45 % of the rays aimed at a player, ten let an honest player's run of bad
	// luck (11 of 12 shots stopped) raise the flag about once in eight ten-minute matches;
	// twenty did not in 13 matches, and still flagged every skip-hits cheater.
	DefaultSuspicionMinHits = 20
	// DefaultSuspicionMinClaimed is the least claimed loss in the window before anything is
	// flagged: a full bar of health.
	DefaultSuspicionMinClaimed float32 = 100
)

const maxSuspicionBuckets = int(MaxSuspicionWindow / SuspicionBucket)

// Config configures a Player. The zero Config is the package's defaults.
type Config struct {
	// SuspicionWindow is the god-mode detector's window. Zero means
	// DefaultSuspicionWindow (20 s). Otherwise ClaimGrace+2s..MaxSuspicionWindow, rounded
	// up to whole SuspicionBuckets.
	SuspicionWindow time.Duration
	// SuspicionRatio flags a victim whose felt loss is below this share of the claimed
	// loss. Zero means DefaultSuspicionRatio (0.10). Otherwise in (0, 1].
	SuspicionRatio float32
	// SuspicionMinHits is the least number of unconfirmed hit claims before a flag. Zero
	// means DefaultSuspicionMinHits (20). Otherwise 1..100000.
	SuspicionMinHits int
	// SuspicionMinClaimed is the least claimed loss before a flag. Zero means
	// DefaultSuspicionMinClaimed (100). Otherwise finite and in (0, 100000].
	SuspicionMinClaimed float32
}

// withDefaults validates c and fills its zero fields with the package's defaults.
func (c Config) withDefaults() (Config, error) {
	if c.SuspicionWindow == 0 {
		c.SuspicionWindow = DefaultSuspicionWindow
	}
	if c.SuspicionWindow < ClaimGrace+2*SuspicionBucket || c.SuspicionWindow > MaxSuspicionWindow {
		return c, fmt.Errorf("%w: SuspicionWindow %v not in %v..%v", ErrConfig,
			c.SuspicionWindow, ClaimGrace+2*SuspicionBucket, MaxSuspicionWindow)
	}
	if r := c.SuspicionWindow % SuspicionBucket; r != 0 {
		c.SuspicionWindow += SuspicionBucket - r
	}
	if c.SuspicionRatio == 0 {
		c.SuspicionRatio = DefaultSuspicionRatio
	}
	if !finite(c.SuspicionRatio) || c.SuspicionRatio <= 0 || c.SuspicionRatio > 1 {
		return c, fmt.Errorf("%w: SuspicionRatio %v not in (0, 1]", ErrConfig, c.SuspicionRatio)
	}
	if c.SuspicionMinHits == 0 {
		c.SuspicionMinHits = DefaultSuspicionMinHits
	}
	if c.SuspicionMinHits < 1 || c.SuspicionMinHits > 100000 {
		return c, fmt.Errorf("%w: SuspicionMinHits %d not in 1..100000", ErrConfig, c.SuspicionMinHits)
	}
	if c.SuspicionMinClaimed == 0 {
		c.SuspicionMinClaimed = DefaultSuspicionMinClaimed
	}
	if !finite(c.SuspicionMinClaimed) || c.SuspicionMinClaimed < 0 || c.SuspicionMinClaimed > 100000 {
		return c, fmt.Errorf("%w: SuspicionMinClaimed %v not in (0, 100000]", ErrConfig, c.SuspicionMinClaimed)
	}
	return c, nil
}

// bucket is one second of the window, 16 bytes, so that a claimed hit's evaluate, which
// reads every bucket, reads fewer lines (TestBucketIs16Bytes). Its epoch (the second
// since the clock's zero) is lap*n + its index in the ring, n the buckets of the window:
// the index is the epoch modulo n, so the lap is all a bucket keeps, and with n at least
// 5 any clock's lap fits 32 bits. hits and confirmed are the low 16 bits of the counts;
// the high ones are in suspicionState.high, made at the first count past 65535 (a
// thousand shooters at one victim for a second), so the counts are those of 32-bit
// counters.
type bucket struct {
	lap       int32
	claimed   float32
	felt      float32
	hits      uint16
	confirmed uint16
}

// noLap is the lap of a bucket never used: its epoch is before any clock's.
const noLap = math.MinInt32

// bucketHigh is the high 16 bits of a bucket's counts.
type bucketHigh struct{ hits, confirmed uint16 }

// suspicionState is a ring of one-second buckets, as many as the configured window holds
// (at most MaxSuspicionWindow's): constant memory whatever the traffic. It keeps the
// Config's thresholds it judges by beside the ring's bookkeeping, all in 64 bytes: a
// claimed hit, and a frame with a loss, read one line of it besides the buckets.
type suspicionState struct {
	b []bucket
	// the bucket of the last lookup, so most lookups need no division
	curStart time.Duration
	// high is the high 16 bits of the buckets' counts, by index; nil until a count first
	// passes 65535.
	high *[maxSuspicionBuckets]bucketHigh
	// The Config's SuspicionMinHits (at most 100000), SuspicionRatio and
	// SuspicionMinClaimed.
	minHits    int32
	ratio      float32
	minClaimed float32
	curIdx     int16
	n          int16 // buckets in the window (5 to maxSuspicionBuckets)
	grace      int16 // newest buckets whose claims are not judged yet
	curOK      bool
	raised     bool
	// lifeCounted is the Player's life == LifeCounted (setLife keeps it), here so that a
	// claimed hit reads only this line of the Player; a VehicleDetector leaves it unset.
	lifeCounted bool
}

// newSuspicionState makes the detector of c, a Config with its defaults filled in.
func newSuspicionState(c Config) suspicionState {
	s := suspicionState{
		n:          int16(c.SuspicionWindow / SuspicionBucket),
		grace:      int16((ClaimGrace + SuspicionBucket - 1) / SuspicionBucket),
		minHits:    int32(c.SuspicionMinHits),
		ratio:      c.SuspicionRatio,
		minClaimed: c.SuspicionMinClaimed,
	}
	s.b = make([]bucket, min(max(int(s.n), 1), maxSuspicionBuckets))
	for i := range s.b {
		s.b[i].lap = noLap
	}
	return s
}

func epochOf(now time.Duration) int64 {
	e := int64(now / SuspicionBucket)
	if now < 0 && now%SuspicionBucket != 0 {
		e--
	}
	return e
}

// place is epoch e's lap and index in the ring.
func (s *suspicionState) place(e int64) (lap int32, i int64) {
	n := int64(s.n)
	l, i := e/n, e%n
	if i < 0 {
		l, i = l-1, i+n
	}
	return int32(l), i
}

// epochAt is the epoch of the bucket at index i.
func (s *suspicionState) epochAt(i int) int64 {
	return int64(s.b[i].lap)*int64(s.n) + int64(i)
}

func (s *suspicionState) at(now time.Duration) *bucket {
	if s.curOK && now >= s.curStart && now-s.curStart < SuspicionBucket {
		return &s.b[s.curIdx]
	}
	e := epochOf(now)
	lap, i := s.place(e)
	b := &s.b[i]
	if b.lap != lap {
		*b = bucket{lap: lap}
		if s.high != nil {
			s.high[i] = bucketHigh{}
		}
	}
	s.curIdx, s.curStart, s.curOK = int16(i), time.Duration(e)*SuspicionBucket, true
	return b
}

// carry adds one to a count's high 16 bits, its low ones having wrapped to 0.
func (s *suspicionState) carry(hits bool) {
	if s.high == nil {
		s.high = new([maxSuspicionBuckets]bucketHigh)
	}
	if h := &s.high[s.curIdx]; hits {
		h.hits++
	} else {
		h.confirmed++
	}
}

func (s *suspicionState) claim(now time.Duration, expected float32) {
	b := s.at(now)
	b.claimed += expected
	if b.hits++; b.hits == 0 {
		s.carry(true)
	}
}

func (s *suspicionState) feel(now time.Duration, loss float32) {
	if loss > 0 {
		s.at(now).felt += loss
	}
}

func (s *suspicionState) confirm(now time.Duration) {
	b := s.at(now)
	if b.confirmed++; b.confirmed == 0 {
		s.carry(false)
	}
}

// counts is the bucket at index i's hits and confirmations, as 32-bit counters.
func (s *suspicionState) counts(i int) (hits, confirmed int32) {
	b := &s.b[i]
	if s.high == nil {
		return int32(b.hits), int32(b.confirmed)
	}
	h := &s.high[i]
	return int32(uint32(h.hits)<<16 | uint32(b.hits)), int32(uint32(h.confirmed)<<16 | uint32(b.confirmed))
}

// forgetYoung drops the claims not judged yet when the victim's life is counted dead: a
// shooter keeps hitting a dying victim until the server learns of the death (a round trip
// and more), and those hits have nothing left to take.
func (s *suspicionState) forgetYoung(now time.Duration) {
	e := epochOf(now)
	for i := range s.b {
		if age := e - s.epochAt(i); age >= 0 && age < int64(s.grace) {
			s.b[i].claimed, s.b[i].hits = 0, 0
			if s.high != nil {
				s.high[i].hits = 0
			}
		}
	}
}

// evaluate sums the window: claims older than the grace, felt loss and confirmations over
// the whole window. It raises the flag on the edge into the condition.
func (s *suspicionState) evaluate(now time.Duration) Suspicion {
	e := epochOf(now)
	var out Suspicion
	n, grace := int64(s.n), int64(s.grace)
	for i := range int(n) {
		age := e - s.epochAt(i)
		if age < 0 || age >= n {
			continue
		}
		b := &s.b[i]
		hits, confirmed := s.counts(i)
		out.Felt += b.felt
		out.Confirmed += int(confirmed)
		if age >= grace {
			out.Claimed += b.claimed
			out.Hits += int(hits)
		}
	}
	unconfirmed := out.Hits - out.Confirmed
	holds := unconfirmed >= int(s.minHits) && out.Claimed >= s.minClaimed &&
		out.Felt < s.ratio*out.Claimed
	out.Raised = holds && !s.raised
	s.raised = holds
	return out
}
