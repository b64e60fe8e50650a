package vitals

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
	"unsafe"
)

// A bucket is 16 bytes: evaluate reads them all at every claimed hit.
func TestBucketIs16Bytes(t *testing.T) {
	if n := unsafe.Sizeof(bucket{}); n != 16 {
		t.Fatalf("a bucket is %d bytes, not 16", n)
	}
}

// refDetector is the detector as it was with a 64-bit epoch and 32-bit counts in each
// bucket: the packed ring (laps, 16-bit counts with their high halves apart) must give
// the same sums, bit for bit, at any clock.
type refDetector struct {
	b        []refBucket
	n, grace int64
	raised   bool
	minHits  int
	ratio    float32
	minClaim float32
}

type refBucket struct {
	epoch           int64
	claimed, felt   float32
	hits, confirmed int32
}

func newRefDetector(c Config) *refDetector {
	r := &refDetector{n: int64(c.SuspicionWindow / SuspicionBucket), grace: int64((ClaimGrace + SuspicionBucket - 1) / SuspicionBucket),
		minHits: c.SuspicionMinHits, ratio: c.SuspicionRatio, minClaim: c.SuspicionMinClaimed}
	r.b = make([]refBucket, r.n)
	for i := range r.b {
		r.b[i].epoch = -1 << 62
	}
	return r
}

func (r *refDetector) at(now time.Duration) *refBucket {
	e := epochOf(now)
	i := e % r.n
	if i < 0 {
		i += r.n
	}
	b := &r.b[i]
	if b.epoch != e {
		*b = refBucket{epoch: e}
	}
	return b
}

func (r *refDetector) forgetYoung(now time.Duration) {
	e := epochOf(now)
	for i := range r.b {
		if b := &r.b[i]; e-b.epoch >= 0 && e-b.epoch < r.grace {
			b.claimed, b.hits = 0, 0
		}
	}
}

func (r *refDetector) evaluate(now time.Duration) Suspicion {
	e := epochOf(now)
	var out Suspicion
	for i := range r.b {
		b := &r.b[i]
		age := e - b.epoch
		if age < 0 || age >= r.n {
			continue
		}
		out.Felt += b.felt
		out.Confirmed += int(b.confirmed)
		if age >= r.grace {
			out.Claimed += b.claimed
			out.Hits += int(b.hits)
		}
	}
	holds := out.Hits-out.Confirmed >= r.minHits && out.Claimed >= r.minClaim && out.Felt < r.ratio*out.Claimed
	out.Raised = holds && !r.raised
	r.raised = holds
	return out
}

// The packed buckets count and sum exactly as 64-bit epochs and 32-bit counters would:
// random claims, losses, confirmations and deaths over clocks near zero, far negative and
// far positive, with bursts of more than 65535 counts in one second.
func TestPackedBucketsMatchTheWideOnes(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		c, err := Config{SuspicionWindow: time.Duration(5+rng.IntN(56)) * time.Second, SuspicionMinHits: 1 + rng.IntN(30)}.withDefaults()
		if err != nil {
			t.Fatal(err)
		}
		s, ref := newSuspicionState(c), newRefDetector(c)
		bases := []time.Duration{0, -time.Hour, math.MinInt64 + 10*time.Hour, math.MaxInt64 - 10*time.Hour, 1 << 50}
		now := bases[int(seed)%len(bases)]
		for step := range 4000 {
			switch k := rng.IntN(100); {
			case k < 3: // a jump, forward or back
				now += time.Duration(rng.Int64N(int64(3*c.SuspicionWindow))) - c.SuspicionWindow
			case k < 30:
				now += time.Duration(rng.Int64N(int64(400 * time.Millisecond)))
			}
			switch k := rng.IntN(100); {
			case k < 40:
				x := float32(rng.IntN(5000)) / 100
				s.claim(now, x)
				b := ref.at(now)
				b.claimed += x
				b.hits++
			case k < 60:
				x := float32(rng.IntN(5000)) / 100
				s.feel(now, x)
				if x > 0 {
					ref.at(now).felt += x
				}
			case k < 75:
				s.confirm(now)
				ref.at(now).confirmed++
			case k < 77:
				s.forgetYoung(now)
				ref.forgetYoung(now)
			case k < 78: // a burst past 16 bits
				m := 65530 + rng.IntN(70000)
				for range m {
					s.claim(now, 1)
					s.confirm(now)
				}
				b := ref.at(now)
				for range m {
					b.claimed++
					b.hits++
				}
				b.confirmed += int32(m)
			}
			at := now + time.Duration(rng.Int64N(int64(2*c.SuspicionWindow))) - c.SuspicionWindow/2
			if got, want := s.evaluate(at), ref.evaluate(at); got != want {
				t.Fatalf("seed %d step %d, now %v, evaluated at %v: %+v, want %+v", seed, step, now, at, got, want)
			}
		}
	}
}
