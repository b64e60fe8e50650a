package replay_test

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/replay"
)

// TestReplayOfAHostileFileNeverPanics ([replay-reads-hostile-files]): a record file cut at any point, with random bytes
// flipped, with a huge length or another version, gets ErrFormat or a divergence: never a
// panic, never an allocation beyond the named caps.
func TestReplayOfAHostileFileNeverPanics(t *testing.T) {
	b := recordVerbs(t)
	spans := replay.Walk(b)
	first := spans[0].Start

	_, err := replay.Replay(bytes.NewReader(nil), replay.Options{})
	require.ErrorIs(t, err, replay.ErrFormat, "an empty file")
	v := bytes.Clone(b)
	binary.LittleEndian.PutUint16(v[len(replay.Magic):], replay.Version+1)
	_, err = replay.Replay(bytes.NewReader(v), replay.Options{})
	require.ErrorIs(t, err, replay.ErrFormat, "another version")
	v = bytes.Clone(b)
	binary.LittleEndian.PutUint32(v[len(replay.Magic)+2:], replay.MaxConfigJSON+1)
	_, err = replay.Replay(bytes.NewReader(v), replay.Options{})
	require.ErrorIs(t, err, replay.ErrFormat, "a config beyond MaxConfigJSON")
	// A datagram's length beyond MaxRecordPayload.
	for _, s := range spans {
		if s.Kind == replay.KindReceive {
			v = append(bytes.Clone(b[:s.Payload-1]), binary.AppendUvarint(nil, replay.MaxRecordPayload+1)...)
			_, err = replay.Replay(bytes.NewReader(v), replay.Options{})
			require.ErrorIs(t, err, replay.ErrFormat, "a payload beyond MaxRecordPayload")
			break
		}
	}
	// Cut at every record boundary and inside records: a whole prefix replays identically,
	// a cut record is ErrFormat.
	for i, s := range spans {
		if i%7 != 0 {
			continue
		}
		res, err := replay.Replay(bytes.NewReader(b[:s.Start]), replay.Options{})
		require.NoError(t, err, "a prefix of whole records")
		require.Nil(t, res.Divergence)
		if s.End-s.Start > 2 {
			_, err = replay.Replay(bytes.NewReader(b[:s.End-1]), replay.Options{})
			require.ErrorIs(t, err, replay.ErrFormat, "a record cut short (%v)", s.Kind)
		}
	}
	// Random flips after the header.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		v = bytes.Clone(b)
		for range 1 + rng.IntN(4) {
			v[first+rng.IntN(len(v)-first)] = byte(rng.Uint32())
		}
		require.NotPanics(t, func() { _, _ = replay.Replay(bytes.NewReader(v), replay.Options{}) })
	}
}
