package client

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// flushCount flushes the client and returns how many datagrams it emitted.
func flushCount(h *harness) int {
	h.t.Helper()
	n := 0
	require.NoError(h.t, h.c.Flush(h.now, func([]byte) { n++ }))
	return n
}

// Flush skips the endpoint only while nothing is due: an idle client emits nothing, a
// reliable message from the server makes the next Flush acknowledge it, and what the
// client sends or queues leaves at the next Flush.
func TestFlushSkipsOnlyWhenNothingIsDue(t *testing.T) {
	h := newHarness(t, Config{Seed: 1})
	h.join()
	h.flush()
	require.Zero(t, flushCount(h), "nothing queued, nothing owed")
	require.NotEqual(t, time.Duration(0), h.c.flushDue, "the skip is armed")

	h.send(&wire.SetHealth{Health: 50, Rev: 1}) // reliable: the client owes an acknowledgement
	require.Equal(t, 1, flushCount(h), "the acknowledgement leaves at the next Flush")
	require.Zero(t, flushCount(h))

	h.at(h.now + 5*time.Millisecond)
	require.NoError(t, h.c.Leave(h.now)) // unreliable Disconnects
	require.Equal(t, DisconnectRepeats, flushCount(h))
}

// lostRespawnRequest returns a harness whose client joined and whose first RespawnRequest
// was lost on its way to the server.
func lostRespawnRequest(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, Config{Seed: 1})
	h.step() // Hello
	h.send(&wire.Welcome{Player: selfID, PlayerToken: selfToken, Session: h.c.Session()})
	h.drop = func([]byte) bool { return true }
	h.step() // RespawnRequest{0}, lost
	h.drop = nil
	return h
}

// A reliable message the server did not receive is retransmitted by a later Flush even
// though the client queued nothing since: the skip waits for the lane's deadline only.
func TestFlushSkipKeepsRetransmissions(t *testing.T) {
	h := lostRespawnRequest(t)
	require.Empty(t, of[*wire.RespawnRequest](h.got))
	before := h.c.ep.Lane().Stats().Retransmits
	for i := 0; i < 100 && len(of[*wire.RespawnRequest](h.got)) == 0; i++ {
		h.at(h.now + 10*time.Millisecond)
		h.flush() // no Tick: nothing new is queued
	}
	require.NotEmpty(t, of[*wire.RespawnRequest](h.got), "retransmitted")
	require.Greater(t, h.c.ep.Lane().Stats().Retransmits, before)
}

// A message alone (not a lane datagram, not a bundle) passes the lane by: Receive leaves
// the lane's deadline as it was, so a retransmission due is still sent while relayed
// frames arrive, and what the message's handling sends (a Pong) leaves at the next Flush.
func TestLoneMessageKeepsTheLaneDue(t *testing.T) {
	h := lostRespawnRequest(t)
	h.flush()
	for i := 0; i < 100 && len(of[*wire.RespawnRequest](h.got)) == 0; i++ {
		h.at(h.now + 10*time.Millisecond)
		h.send(rivalFrame(uint16(i+1), apartAt(1))) // a lone relayed frame (no copy: dropped)
		h.flush()
	}
	require.NotEmpty(t, of[*wire.RespawnRequest](h.got), "retransmitted between lone frames")
	h.flush()
	h.send(&wire.Ping{Seq: 9, Time: 5})
	require.Equal(t, 1, flushCount(h), "the Pong")
}

// A host that keeps the endpoint (Endpoint) and queues on it later has it sent at the
// next Flush.
func TestFlushSendsWhatTheHostQueued(t *testing.T) {
	h := newHarness(t, Config{Seed: 1})
	h.join()
	ep := h.c.Endpoint() // kept by the host
	h.flush()
	require.Zero(t, flushCount(h))
	h.at(h.now + time.Millisecond)
	_, err := ep.Queue(h.now, &wire.RespawnRequest{DeathEpoch: 1})
	require.NoError(t, err)
	require.Equal(t, 1, flushCount(h))
}

// A relayed frame skips the tracker only while its copy's remembered stamp is what the
// tracker holds: after another packet of the sender changed the tracker's entry (here to
// a revision half the space away, which any other stamp replaces), the frame's stamp is
// observed again.
func TestFrameStampSkipFollowsTheTracker(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.PlayerShow{Player: rival, PlayerToken: 30, DeathEpoch: 1, Alive: true, Health: 100, SyncSeq: 1})
	held := func() wire.Stamp {
		s, ok := h.c.tracker.Newest(rival)
		require.True(t, ok)
		return wire.Stamp{Teammate: s.Teammate, Rev: s.Rev}
	}
	h.send(rivalFrame(2, teammateAt(5)))
	require.Equal(t, teammateAt(5), held())
	h.send(&wire.RemoteVehicleSync{Driver: rival, Vehicle: 22, SyncSeq: 1, Rotation: unit, Health: 900, Stamp: apartAt(5 + 1<<15)})
	require.Equal(t, apartAt(5+1<<15), held())
	h.send(rivalFrame(3, teammateAt(5)))
	require.Equal(t, teammateAt(5), held(), "half the space away: the frame's stamp replaces it")
}

// A relayed frame is judged on the copy's barrier as mirrored in its entry
// (lifecycle.Copy{Gen, Floor}): it must answer as the whole copy does, and move the
// barrier alike, whatever the rest of the copy holds.
func TestKeyMirrorsFrameBarrier(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		full := lifecycle.Copy{Subject: wire.PlayerID(rng.IntN(8)), Token: lifecycle.Token(rng.Uint32()),
			Gen: lifecycle.Generation(rng.IntN(4)), Alive: rng.IntN(2) == 0, Pose: lifecycle.Pose(rng.IntN(3)),
			Point: lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: rng.Float32()}, Facing: rng.Float32()},
			Floor: uint16(rng.Uint32())}
		s := lifecycle.Stamp{Alive: rng.IntN(2) == 0, Gen: lifecycle.Generation(rng.IntN(4)),
			Seq: full.Floor + uint16(rng.IntN(64)) - 32, Health: rng.Float32() * 100}
		barrier := lifecycle.Copy{Gen: full.Gen, Floor: full.Floor}
		require.Equal(t, full.AcceptFrame(s), barrier.AcceptFrame(s))
		require.Equal(t, full.Floor, barrier.Floor)
	}
}

// The entry of every copy keeps its barrier equal to the copy's, and the stamp it says
// the tracker holds is the tracker's, through shows, hides, edges and frames of players
// whose relation changes.
func TestRemoteKeysFollowCopies(t *testing.T) {
	h := newHarness(t, Config{Seed: 1})
	h.join()
	rng := rand.New(rand.NewPCG(3, 4))
	type other struct {
		token uint32
		gen   uint16
		seq   uint16
		rev   uint16
	}
	players := map[wire.PlayerID]*other{}
	for i := range 3000 {
		id := wire.PlayerID(20 + rng.IntN(12))
		o := players[id]
		if o == nil {
			o = &other{token: uint32(id) * 10, gen: 1}
			players[id] = o
		}
		if rng.IntN(5) == 0 {
			o.rev++
		}
		stamp := wire.Stamp{Teammate: o.rev%3 == 0, Rev: o.rev}
		switch k := rng.IntN(20); {
		case k == 0:
			h.send(&wire.PlayerShow{Player: id, PlayerToken: o.token, DeathEpoch: o.gen, Alive: true, Health: 100,
				SyncSeq: o.seq, Vehicle: wire.NoVehicle})
		case k == 1:
			h.send(&wire.PlayerHide{Player: id, PlayerToken: o.token})
		case k == 2:
			h.send(&wire.PlayerWasted{Player: id, PlayerToken: o.token, DeathEpoch: o.gen, Killer: wire.NoPlayer})
		case k == 3:
			o.gen++
			o.seq += 5
			h.send(&wire.PlayerSpawned{Player: id, PlayerToken: o.token, DeathEpoch: o.gen, SyncSeq: o.seq})
		case k == 4:
			o.token++ // another connection on the id
			h.send(&wire.PlayerShow{Player: id, PlayerToken: o.token, DeathEpoch: o.gen, Alive: true, Health: 100,
				SyncSeq: o.seq, Vehicle: wire.NoVehicle})
		case k == 5:
			h.send(&wire.RemoteWeaponShot{Shooter: id, ShotSeq: uint16(i), Weapon: 24, Stamp: stamp})
		default:
			o.seq += uint16(rng.IntN(4)) - 1 // now and then late, or repeated
			h.send(&wire.RemotePlayerSync{Player: id, SyncSeq: o.seq, DeathEpoch: o.gen - uint16(rng.IntN(8)/7),
				Alive: true, Health: 100, Stamp: stamp})
		}
		for j, pid := range h.c.remotes.ids {
			k := h.c.remotes.at[pid]
			r := &h.c.remotes.list[j]
			require.Equal(t, j+1, int(k.slot&slotMask))
			require.Equal(t, r.Copy.Gen, k.gen)
			require.Equal(t, r.Copy.Floor, k.floor)
			if k.slot&keyHeld != 0 {
				held, ok := h.c.tracker.Newest(pid)
				require.True(t, ok)
				require.Equal(t, held.Teammate, k.slot&keyMate != 0)
				require.Equal(t, held.Rev, k.rev)
			} else {
				require.Zero(t, k.slot&keyMate)
			}
		}
		for pid := range h.c.remotes.at {
			if h.c.remotes.get(wire.PlayerID(pid)) == nil {
				require.Zero(t, h.c.remotes.at[pid], "no copy, an empty entry")
			}
		}
		h.at(h.now + time.Millisecond)
		h.flush() // the acknowledgements
	}
	require.Positive(t, h.c.Counters().FramesApplied)
	require.Positive(t, h.c.Counters().FramesDropped)
}

// Clients that share one decoder (ShareDecoder), fed one datagram each in turn, end as
// clients with their own decoders fed the same: a message is done with when its handling
// returns.
func TestSharedDecoderChangesNothing(t *testing.T) {
	var shared wire.Decoder
	var own, sharing [2]*harness
	for i := range own {
		own[i], sharing[i] = newHarness(t, Config{Seed: uint64(i)}), newHarness(t, Config{Seed: uint64(i)})
		sharing[i].c.ShareDecoder(&shared)
		own[i].join()
		sharing[i].join()
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for seq := range uint16(500) {
		for i := range own {
			id := wire.PlayerID(20 + rng.IntN(6) + 10*i)
			var m wire.Message = &wire.RemotePlayerSync{Player: id, SyncSeq: seq, DeathEpoch: 1, Alive: true,
				Health: float32(1 + rng.IntN(100)), Position: wire.Vec3{X: float32(seq)}, Vehicle: wire.NoVehicle,
				Stamp: wire.Stamp{Rev: seq / 50}}
			if rng.IntN(10) == 0 {
				m = &wire.PlayerShow{Player: id, PlayerToken: uint32(id), DeathEpoch: 1, Alive: true, Health: 100,
					SyncSeq: seq, Vehicle: wire.NoVehicle}
			}
			own[i].send(m)
			sharing[i].send(m)
		}
	}
	for i := range own {
		require.Positive(t, own[i].c.Counters().FramesApplied)
		require.Equal(t, own[i].c.Counters(), sharing[i].c.Counters())
		ids := own[i].c.AppendRemotes(nil)
		require.Equal(t, ids, sharing[i].c.AppendRemotes(nil))
		for _, id := range ids {
			a, _ := own[i].c.Remote(id)
			b, _ := sharing[i].c.Remote(id)
			require.Equal(t, a, b)
		}
	}
}
