package refserver

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A shooter can make the World hold at most MaxShotCredits shot credits: 128 shots fired
// within the shot-credit window fill the table to its cap and no further; the 129th
// overwrites the oldest, as the fixed table did.
func TestShotCreditsGrowOnDemandUpToMaxShotCredits(t *testing.T) {
	var b shotBook
	require.Zero(t, b.room(), "a shooter that never fired holds no credits")
	now := time.Second
	for seq := range uint16(2 * MaxShotCredits) {
		rec := b.slot(seq, now, ShotCreditWindow, 1)
		*rec = shotRecord{valid: true, seq: seq, life: 1, at: now}
		now += time.Millisecond
		require.LessOrEqual(t, b.room(), MaxShotCredits)
	}
	require.Equal(t, MaxShotCredits, b.room())
	for seq := range uint16(2 * MaxShotCredits) {
		found := b.at(seq).valid && b.at(seq).seq == seq
		require.Equal(t, seq >= MaxShotCredits, found, "shot %d", seq)
	}
}

// A steady shooter (three shots a second, the benchmark's) holds the credits of the shots
// in its window, not the worst case: records it can no longer be credited for are
// overwritten, and a new life's shots overwrite the last life's.
func TestShotCreditsOfASteadyShooterStaySmall(t *testing.T) {
	var b shotBook
	now := time.Second
	for seq := range uint16(1000) {
		life := uint64(1 + seq/300)
		*b.slot(seq, now, ShotCreditWindow, life) = shotRecord{valid: true, seq: seq, life: life, at: now}
		now += 333 * time.Millisecond
	}
	require.Equal(t, 16, b.room(), "ten shots in a 3 s window need 16 slots")
	allocs := testing.AllocsPerRun(100, func() {
		*b.slot(uint16(now/time.Millisecond), now, ShotCreditWindow, 4) = shotRecord{valid: true, seq: uint16(now / time.Millisecond), life: 4, at: now}
		now += 333 * time.Millisecond
	})
	require.Zero(t, allocs, "a grown table takes new shots without allocating")
}

// What a victim's report finds in a shooter's credits is what the fixed table of
// MaxShotCredits records finds: random shots (numbers that skip and repeat, lives that
// change, pauses past the window) and lookups, compared record by record.
func TestShotCreditsFindWhatTheFixedTableFinds(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 7))
		var b shotBook
		var fixed [MaxShotCredits]shotRecord
		now, life, seq := time.Second, uint64(1), uint16(r.IntN(65536))
		for step := range 3000 {
			switch k := r.IntN(20); {
			case k < 10:
				seq += uint16(1 + r.IntN(3))
				if r.IntN(50) == 0 {
					seq -= uint16(r.IntN(300)) // an old number again
				}
				rec := shotRecord{valid: true, seq: seq, life: life, at: now, weapon: uint8(step)}
				*b.slot(seq, now, ShotCreditWindow, life) = rec
				fixed[int(seq)%MaxShotCredits] = rec
			case k < 18:
				q := seq - uint16(r.IntN(400))
				f, g := fixed[int(q)%MaxShotCredits], *b.at(q)
				fixedFinds := f.valid && f.seq == q && f.life == life && now-f.at <= ShotCreditWindow
				bookFinds := g.valid && g.seq == q && g.life == life && now-g.at <= ShotCreditWindow
				require.Equal(t, fixedFinds, bookFinds, "seed %d step %d shot %d", seed, step, q)
				if fixedFinds {
					require.Equal(t, f, g, "seed %d step %d shot %d", seed, step, q)
				}
			case k == 18:
				life++
			default:
				now += time.Duration(r.IntN(4000)) * time.Millisecond
			}
			now += time.Duration(r.IntN(100)) * time.Millisecond
		}
	}
}
