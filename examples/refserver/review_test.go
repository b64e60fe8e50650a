package refserver

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/arbitergo/arbiter/wire"
)

// headCopies is what emitStreamed reads of sender s for recipient rid: the inline first
// message, then the chain from the sender's fanHead, less the entries that skip rid.
func headCopies(f *fanLog, s, rid PlayerID) [][]byte {
	var out [][]byte
	h := &f.heads[s]
	if h.n > 0 {
		out = append(out, h.msg[:h.n])
	}
	for i := h.chain; i >= 0; {
		e := &f.entries[i]
		i = e.next
		if e.skipStart == e.skipEnd || !f.skips(e, rid) {
			out = append(out, f.buf[e.start:e.end])
		}
	}
	return out
}

// logCopies is what emitTo's walk of the entries in log order reads of sender s for
// recipient rid.
func logCopies(f *fanLog, s, rid PlayerID) [][]byte {
	var out [][]byte
	for i := range f.entries {
		if e := &f.entries[i]; e.sender == s && (e.skipStart == e.skipEnd || !f.skips(e, rid)) {
			out = append(out, f.buf[e.start:e.end])
		}
	}
	return out
}

// A streamed fan log (a sender's first message inline in its fanHead, given an entry by
// skipLast) gives every recipient, sender by sender, exactly the messages and skips of a
// log that keeps every message as an entry, after any sequence of frames, vehicle frames
// and shots, skips of any recipient after any of them, and resets; and a reset leaves no
// head holding a message.
func TestStreamedFanLogGivesWhatTheLogInOrderGives(t *testing.T) {
	const n = 5
	for seed := uint64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		var streamed, plain fanLog
		streamed.init(n, true)
		plain.init(n, false)
		seq := uint16(0)
		for step := range 300 {
			if rng.IntN(30) == 0 {
				streamed.reset()
				plain.reset()
				for s := range streamed.heads {
					if h := &streamed.heads[s]; h.count != 0 || h.n != 0 || h.chain != -1 || h.last != -1 {
						t.Fatalf("seed %d step %d: sender %d's head survived the reset: %+v", seed, step, s, *h)
					}
				}
				continue
			}
			s := PlayerID(rng.IntN(n))
			seq++
			var m wire.Message
			switch rng.IntN(3) {
			case 0:
				m = &wire.RemotePlayerSync{Player: s, SyncSeq: seq, Alive: true, Health: 100}
			case 1:
				m = &wire.RemoteVehicleSync{Vehicle: 1, Driver: s, SyncSeq: seq, Rotation: wire.Quat{W: 1}, Health: 1000}
			default:
				m = &wire.RemoteWeaponShot{Shooter: s, ShotSeq: seq, Weapon: m4}
			}
			enc, err := m.Append(nil)
			if err != nil {
				t.Fatal(err)
			}
			rev, group := uint16(rng.IntN(3)), uint16(rng.IntN(2))
			if a, b := streamed.add(enc, s, s, rev, group), plain.add(enc, s, s, rev, group); !a || !b {
				t.Fatalf("seed %d step %d: add %v, %v", seed, step, a, b)
			}
			for r := range PlayerID(n) {
				if rng.IntN(4) == 0 {
					streamed.skipLast(r)
					plain.skipLast(r)
				}
			}
			for s := range PlayerID(n) {
				if streamed.count(s) != plain.count(s) {
					t.Fatalf("seed %d step %d: sender %d counts %d, %d", seed, step, s, streamed.count(s), plain.count(s))
				}
				for r := range PlayerID(n) {
					got, want := headCopies(&streamed, s, r), logCopies(&plain, s, r)
					if len(got) != len(want) {
						t.Fatalf("seed %d step %d: sender %d to %d: %d messages, want %d", seed, step, s, r, len(got), len(want))
					}
					for i := range got {
						if !bytes.Equal(got[i], want[i]) {
							t.Fatalf("seed %d step %d: sender %d to %d, message %d: %x, want %x", seed, step, s, r, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}
