package wire

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzDecode feeds arbitrary bytes to the decoder: it must return a message or an
// error matching exactly one sentinel, never panic, and a message it returns must
// re-encode to exactly the input (canonical encoding) and agree with Peek and with the
// typed Decode. Whenever the header names a message, that message's Decode must also
// agree exactly with the reference walk (the same value or the same error).
func FuzzDecode(f *testing.F) {
	for _, m := range samples() {
		b, err := m.Append(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)-1])
		f.Add(append(bytes.Clone(b), 0))
	}
	f.Add([]byte{})
	f.Add([]byte{Version})
	f.Add([]byte{Version, byte(FirstTransportID), 1, 2, 3})
	f.Add([]byte{Version + 1, byte(IDPing), 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= HeaderSize && ID(b[1]).Known() {
			sameDecode(t, ID(b[1]), b, "fuzz")
		}
		var dec Decoder
		m, err := dec.Decode(b)
		id, perr := Peek(b)
		if err != nil {
			if m != nil {
				t.Fatalf("Decode returned a message with the error %v", err)
			}
			n := 0
			for _, s := range sentinels {
				if errors.Is(err, s) {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("error %v matches %d sentinels", err, n)
			}
			return
		}
		if perr != nil || id != m.ID() {
			t.Fatalf("Decode gave %v but Peek %v, %v", m.ID(), id, perr)
		}
		out, err := m.Append(nil)
		if err != nil {
			t.Fatalf("a decoded %v does not encode: %v", m.ID(), err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("%v re-encodes to other bytes:\n in % x\nout % x", m.ID(), b, out)
		}
		typed := New(id)
		if err := typed.Decode(b); err != nil || !cmp.Equal(typed, m) {
			t.Fatalf("typed Decode disagrees: %v", err)
		}
	})
}

// TestDecodeNeverAllocates checks, over random and random-but-valid inputs, that
// decoding costs no allocation whatever the bytes (so no allocation is ever larger than
// the input).
func TestDecodeNeverAllocates(t *testing.T) {
	seed := uint64(11)
	rng := rand.New(rand.NewPCG(seed, 4))
	ids := IDs()
	var dec Decoder
	for i := range 400 {
		var b []byte
		switch i % 3 {
		case 0:
			b = make([]byte, rng.IntN(MaxSize+8))
			for j := range b {
				b[j] = byte(rng.Uint32())
			}
		case 1:
			b = randomEncoding(rng, ids[rng.IntN(len(ids))])
		case 2:
			b = randomEncoding(rng, ids[rng.IntN(len(ids))])
			b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
		}
		if a := testing.AllocsPerRun(3, func() { _, _ = dec.Decode(b) }); a != 0 {
			t.Fatalf("seed %d: decoding % x allocates %v times", seed, b, a)
		}
	}
}

// TestAppendNeverAllocatesIntoABigEnoughBuffer covers every message type.
func TestAppendNeverAllocatesIntoABigEnoughBuffer(t *testing.T) {
	buf := make([]byte, 0, MaxSize)
	for _, m := range samples() {
		if a := testing.AllocsPerRun(10, func() { buf, _ = m.Append(buf[:0]) }); a != 0 {
			t.Errorf("%v: Append allocates %v times", m.ID(), a)
		}
	}
}
