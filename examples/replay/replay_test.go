package replay_test

import (
	"bytes"
	"encoding/binary"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/luamode"
	"github.com/arbitergo/arbiter/examples/match"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/replay"
	"github.com/arbitergo/arbiter/wire"
)

// recordMatch plays a short simulated match (six players, two of them cheaters, two
// teams, two cars, 30 s) with its server recorded, and returns the record and the events
// the match saw live.
func recordMatch(t *testing.T) ([]byte, []string) {
	t.Helper()
	var rec bytes.Buffer
	m, err := match.New(match.Config{Seed: 3, Players: 6, Cheaters: 2, Teams: 2, Vehicles: 2,
		Duration: 30 * time.Second, Record: &rec})
	require.NoError(t, err)
	var live []string
	m.OnEvent = func(e refserver.Event) { live = append(live, e.String()) }
	require.NoError(t, m.Start())
	m.RunUntil(m.Config().Duration)
	_, err = m.Finish()
	require.NoError(t, err)
	return rec.Bytes(), live
}

// TestReplayOfARecordedMatchIsIdentical: a recorded simulated match replays offline with
// every call's result, every event and every datagram bit-identical at every flush, and
// the replay raises exactly the events the match saw live, in order (the verdicts a
// server owner reads when a player says they were wronged).
func TestReplayOfARecordedMatchIsIdentical(t *testing.T) {
	b, live := recordMatch(t)
	res, err := replay.Replay(bytes.NewReader(b), replay.Options{Events: true})
	require.NoError(t, err)
	require.Nil(t, res.Divergence, "the replay diverged")
	require.Greater(t, res.Flushes, 1000, "a 30 s match flushes every server tick")
	require.Positive(t, res.Final.NDatagrams)
	var replayed []string
	for _, e := range res.Events {
		replayed = append(replayed, e.String())
	}
	require.NotEmpty(t, live)
	require.Equal(t, live, replayed, "the replay raises the match's events, in order")

	spans := replay.Walk(b)
	kinds := map[replay.Kind]int{}
	for _, s := range spans {
		kinds[s.Kind]++
	}
	require.Equal(t, res.Records, len(spans))
	for _, k := range []replay.Kind{replay.KindReceive, replay.KindTick, replay.KindFlush, replay.KindDrain, replay.KindVerb} {
		require.Positive(t, kinds[k], "the match's record holds %v records", k)
	}
}

// TestReplayNamesTheFirstDivergence: one byte flipped in a recorded datagram (a player's
// frame: the World relays another position) makes the replay stop at the first flush
// after it, naming that record, its time and what differed, and the record before it.
func TestReplayNamesTheFirstDivergence(t *testing.T) {
	b, _ := recordMatch(t)
	spans := replay.Walk(b)
	// A player frame in the middle of the match, whose position the World relays.
	k := -1
	for i := len(spans) / 2; i < len(spans); i++ {
		if s := spans[i]; s.Kind == replay.KindReceive && len(s.Datagram) > 20 {
			if id, err := wire.Peek(s.Datagram); err == nil && id == wire.IDPlayerSync {
				k = i
				break
			}
		}
	}
	require.NotEqual(t, -1, k, "the record holds a player frame")
	// The first flush after it.
	next := k + 1
	for spans[next].Kind != replay.KindFlush {
		next++
	}
	prev := k - 1
	for spans[prev].Kind != replay.KindFlush {
		prev--
	}
	bad := bytes.Clone(b)
	bad[spans[k].End-1] ^= 0x40 // the frame's last byte

	res, err := replay.Replay(bytes.NewReader(bad), replay.Options{})
	require.NoError(t, err)
	require.NotNil(t, res.Divergence, "a corrupted datagram must diverge")
	d := res.Divergence
	require.Equal(t, next, d.Record, "the first flush after the corrupted record: %v", d)
	require.Equal(t, spans[next].At, d.At)
	require.Equal(t, prev, d.Since, "the previous flush matched")
	require.NotEmpty(t, d.What)
	t.Logf("divergence: %v", d)

	// A corrupted hash in a flush record is named at that very record.
	bad = bytes.Clone(b)
	hash := spans[prev].Start + 1 + binary.PutVarint(make([]byte, binary.MaxVarintLen64), int64(spans[prev].At))
	bad[hash+3] ^= 1 // inside the flush's first hash (after its kind and its time)
	res, err = replay.Replay(bytes.NewReader(bad), replay.Options{})
	require.NoError(t, err)
	require.NotNil(t, res.Divergence)
	require.Equal(t, prev, res.Divergence.Record)
}

// TestReplayOfAMatchWithALuaGamemodeIsIdentical: a match played with the server's Lua
// gamemode (deathmatch.lua, given the recorder as its World) records the script's
// commands, and replays identically without the script.
func TestReplayOfAMatchWithALuaGamemodeIsIdentical(t *testing.T) {
	var rec bytes.Buffer
	var mode *luamode.Mode
	defer func() {
		if mode != nil {
			mode.Close()
		}
	}()
	m, err := match.New(match.Config{Seed: 5, Players: 6, Duration: 20 * time.Second, Record: &rec,
		Gamemode: func(w *replay.Recorder) (match.Gamemode, error) {
			md, err := luamode.Load(w, "../server/gamemodes/deathmatch.lua", luamode.Options{Seed: 5})
			mode = md
			return md, err
		}})
	require.NoError(t, err)
	require.NoError(t, m.Start())
	m.RunUntil(m.Config().Duration)
	_, err = m.Finish()
	require.NoError(t, err)
	res, err := replay.Replay(bytes.NewReader(rec.Bytes()), replay.Options{})
	require.NoError(t, err)
	require.Nil(t, res.Divergence, "the replay diverged")
	require.Positive(t, res.Verbs[replay.VerbJoinTeam], "the script's team commands were recorded")
}
