package vitals

import (
	"fmt"
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

type bucket struct {
	epoch     int64
	claimed   float32
	felt      float32
	hits      int32
	confirmed int32
}

// suspicionState is a ring of one-second buckets, as many as the configured window holds
// (at most MaxSuspicionWindow's): constant memory whatever the traffic. It keeps the
// Config's thresholds it judges by beside the ring's bookkeeping, all in 64 bytes: a
// claimed hit, and a frame with a loss, read one line of it besides the buckets.
type suspicionState struct {
	b []bucket
	// the bucket of the last lookup, so most lookups need no division
	curStart time.Duration
	curIdx   int32
	n        int32 // buckets in the window (at most maxSuspicionBuckets)
	grace    int32 // newest buckets whose claims are not judged yet
	// The Config's SuspicionMinHits (at most 100000), SuspicionRatio and
	// SuspicionMinClaimed.
	minHits    int32
	ratio      float32
	minClaimed float32
	curOK      bool
	raised     bool
}

// newSuspicionState makes the detector of c, a Config with its defaults filled in.
func newSuspicionState(c Config) suspicionState {
	s := suspicionState{
		n:          int32(c.SuspicionWindow / SuspicionBucket),
		grace:      int32((ClaimGrace + SuspicionBucket - 1) / SuspicionBucket),
		minHits:    int32(c.SuspicionMinHits),
		ratio:      c.SuspicionRatio,
		minClaimed: c.SuspicionMinClaimed,
	}
	s.b = make([]bucket, min(max(int(s.n), 1), maxSuspicionBuckets))
	for i := range s.b {
		s.b[i].epoch = -1 << 62
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

func (s *suspicionState) at(now time.Duration) *bucket {
	if s.curOK && now >= s.curStart && now-s.curStart < SuspicionBucket {
		return &s.b[s.curIdx]
	}
	e := epochOf(now)
	i := e % int64(s.n)
	if i < 0 {
		i += int64(s.n)
	}
	b := &s.b[i]
	if b.epoch != e {
		*b = bucket{epoch: e}
	}
	s.curIdx, s.curStart, s.curOK = int32(i), time.Duration(e)*SuspicionBucket, true
	return b
}

func (s *suspicionState) claim(now time.Duration, expected float32) {
	b := s.at(now)
	b.claimed += expected
	b.hits++
}

func (s *suspicionState) feel(now time.Duration, loss float32) {
	if loss > 0 {
		s.at(now).felt += loss
	}
}

func (s *suspicionState) confirm(now time.Duration) { s.at(now).confirmed++ }

// forgetYoung drops the claims not judged yet when the victim's life is counted dead: a
// shooter keeps hitting a dying victim until the server learns of the death (a round trip
// and more), and those hits have nothing left to take.
func (s *suspicionState) forgetYoung(now time.Duration) {
	e := epochOf(now)
	for i := range s.b {
		if b := &s.b[i]; e-b.epoch >= 0 && e-b.epoch < int64(s.grace) {
			b.claimed, b.hits = 0, 0
		}
	}
}

// evaluate sums the window: claims older than the grace, felt loss and confirmations over
// the whole window. It raises the flag on the edge into the condition.
func (s *suspicionState) evaluate(now time.Duration) Suspicion {
	e := epochOf(now)
	var out Suspicion
	n, grace := int64(s.n), int64(s.grace)
	for i := int64(0); i < n; i++ {
		b := &s.b[i]
		age := e - b.epoch
		if age < 0 || age >= n {
			continue
		}
		out.Felt += b.felt
		out.Confirmed += int(b.confirmed)
		if age >= grace {
			out.Claimed += b.claimed
			out.Hits += int(b.hits)
		}
	}
	unconfirmed := out.Hits - out.Confirmed
	holds := unconfirmed >= int(s.minHits) && out.Claimed >= s.minClaimed &&
		out.Felt < s.ratio*out.Claimed
	out.Raised = holds && !s.raised
	s.raised = holds
	return out
}
