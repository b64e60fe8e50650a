package client

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// serverIDs are the messages a server may send, the ones FuzzClientReceive builds.
var serverIDs = func() []wire.ID {
	var out []wire.ID
	for _, id := range wire.IDs() {
		if id.Direction() != wire.ClientToServer {
			out = append(out, id)
		}
	}
	return out
}()

// FuzzClientReceive feeds a joined client arbitrary server messages between ticks: each
// chunk of the input picks a message id and gives the bytes of its body. Bodies that
// decode travel as the server would send them (reliable ones on the lane); the rest go in
// raw and must be refused as malformed. Whatever the bytes, the client never panics, keeps
// its vitals in range, and keeps ticking and flushing (a broken connection closes it
// cleanly).
func FuzzClientReceive(f *testing.F) {
	chunk := func(ms ...wire.Message) []byte {
		var out []byte
		for _, m := range ms {
			b, _ := m.Append(nil)
			for i, id := range serverIDs {
				if id == m.ID() {
					out = append(out, byte(i))
				}
			}
			out = append(out, b[wire.HeaderSize:]...)
		}
		return out
	}
	f.Add(chunk(&wire.SetHealth{Rev: 1, Health: 50}, &wire.Ping{Seq: 1}))
	f.Add(chunk(&wire.RemoteWeaponShot{Shooter: 3, Weapon: 25, HitType: wire.HitNone}, &wire.SetHealth{Rev: 2}))
	f.Add(chunk(&wire.RespawnPlayer{DeathEpoch: 9}, &wire.GiveWeapon{Rev: 1, Weapon: 31, Ammo: 9},
		&wire.PlayerShow{Player: 3, PlayerToken: 4, Vehicle: wire.NoVehicle}, &wire.PlayerWasted{Player: 3, PlayerToken: 4, Killer: wire.NoPlayer}))
	f.Add(chunk(&wire.CreateExplosion{Effect: 1, Creator: wire.NoPlayer, Radius: 200}, &wire.Disconnect{}))
	f.Fuzz(func(t *testing.T, data []byte) {
		h := newHarness(t, Config{})
		h.world.pellets = 3
		h.join()
		for len(data) > 0 {
			id := serverIDs[int(data[0])%len(serverIDs)]
			data = data[1:]
			n := min(id.Size()-wire.HeaderSize, len(data))
			raw := append([]byte{wire.Version, byte(id)}, data[:n]...)
			data = data[n:]
			m := wire.New(id)
			if err := m.Decode(raw); err == nil {
				h.send(m)
			} else {
				require.ErrorIs(t, h.c.Receive(h.now, raw), ErrMalformed)
			}
			h.at(h.now + 7*time.Millisecond)
			if closed, _ := h.c.Closed(); closed {
				return
			}
			require.NoError(t, h.c.Tick(h.now))
			h.flush()
			hp, ar := h.c.Health(), h.c.Armor()
			require.True(t, hp >= 0 && hp <= wire.MaxVital, "health %v", hp)
			require.True(t, ar >= 0 && ar <= wire.MaxVital, "armor %v", ar)
			require.Equal(t, h.c.Alive(), h.c.Spawned() && hp > 0)
		}
	})
}
