package refserver

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// checkPlacedMirror asserts [stream-standing-mirror]: every slot's frameState.placed is
// true exactly while its player is connected and the interest manager holds it placed at
// its frame's X and Y.
func checkPlacedMirror(t testing.TB, w *World, format string, args ...any) {
	t.Helper()
	for id, p := range w.players {
		if p == nil {
			continue
		}
		want := false
		if x, y, ok := w.stream.Position(PlayerID(id)); ok && p.connected {
			want = x == p.frame.pos.X && y == p.frame.pos.Y
		}
		if p.frame.placed != want {
			t.Fatalf(format+": connection %d (connected %v): placed %v, want %v (frame at %v)",
				append(args, id, p.connected, p.frame.placed, want, p.frame.pos)...)
		}
	}
}

// [stream-standing-mirror]: the mirror equals the interest manager after every step of the
// random hostile World (joins, leaves, rejoins on the same slot, frames on foot and in
// seats, respawns, hostile bytes), with frames that stand where their player stood,
// set-positions and vehicles moved and respawned with their occupants mixed in. So does
// [live-mirror] the players' connections.
func TestMirrorsOfTheInterestManagerAndTheConnections(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		c := newChaos(t, seed)
		require.NotNil(t, c.w.stream, "the chaos World streams")
		rng := rand.New(rand.NewPCG(seed, 77))
		stood := 0
		for i := range 3000 {
			id := c.player()
			switch rng.IntN(8) {
			case 0, 1, 2: // a frame where the player stands (its last accepted position)
				if p := c.w.conn(id); p != nil && c.eps[id] != nil {
					c.seq[id]++
					if p.frame.placed {
						stood++
					}
					c.send(id, &wire.PlayerSync{Seq: c.seq[id], DamageSeq: c.dmg[id], DeathEpoch: c.gen[id], Alive: true,
						Health: 100, Position: p.frame.pos, Vehicle: wire.NoVehicle})
				}
			case 3:
				_ = c.w.SetPlayerPosition(c.now, id, c.pos(), 0)
			case 4:
				_ = c.w.MoveVehicle(c.now, uint16(rng.IntN(2)), c.pos(), wire.Quat{W: 1})
			case 5:
				_ = c.w.RespawnVehicle(c.now, uint16(rng.IntN(2)), c.pos(), wire.Quat{W: 1})
			}
			checkPlacedMirror(t, c.w, "seed %d step %d (ours)", seed, i)
			c.step()
			checkPlacedMirror(t, c.w, "seed %d step %d", seed, i)
			checkLive(t, c.w, "seed %d step %d", seed, i)
		}
		require.NotZero(t, stood, "seed %d: no frame stood where the manager held its player", seed)
		require.NotZero(t, c.w.Stats().Leaves)
	}
}
