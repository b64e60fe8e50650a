package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// The allocation guard of judging where a shot starts, on the World alone: the shooter
// is a connection the test speaks for (no client model), a frame every 100 ms.
func TestJudgingWhereAShotStartsDoesNotAllocate(t *testing.T) {
	w, err := New(Config{MaxPlayers: 2, RespawnDelay: time.Second, Loadout: []Loadout{{Weapon: m4, Ammo: 9000, Current: true}}})
	require.NoError(t, err)
	now := time.Second
	require.Equal(t, VerdictAccepted, w.Handle(now, 0, &wire.Hello{}))
	require.Equal(t, VerdictAccepted, w.Handle(now, 0, &wire.RespawnRequest{}))
	frame := &wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true, Health: 100, Weapon: m4, Vehicle: wire.NoVehicle}
	require.Equal(t, VerdictAccepted, w.Handle(now, 0, frame))
	for range 30 {
		now += 33 * time.Millisecond
		frame.Seq++
		frame.Position.X += 0.2
		require.Equal(t, VerdictAccepted, w.Handle(now, 0, frame))
	}
	shot := &wire.WeaponShot{DeathEpoch: 1, PropertiesRev: w.catalog.Revision(), Weapon: m4}
	events := make([]Event, 0, 64)
	run := func() {
		now += 100 * time.Millisecond
		frame.Seq++
		frame.Position.X += 0.6
		require.Equal(t, VerdictAccepted, w.Handle(now, 0, frame))
		shot.ShotSeq++
		shot.Origin, shot.HitPos = frame.Position, wire.Vec3{X: frame.Position.X, Y: frame.Position.Y + 30, Z: frame.Position.Z}
		require.Equal(t, VerdictAccepted, w.Handle(now, 0, shot))
		shot.ShotSeq++
		shot.Origin = wire.Vec3{X: frame.Position.X, Y: frame.Position.Y + 40, Z: frame.Position.Z}
		require.Equal(t, VerdictFarOrigin, w.Handle(now, 0, shot))
		events = w.Events(events[:0])
	}
	run()
	require.NoError(t, w.Tick(now))
	require.NoError(t, w.Flush(now, func(PlayerID, []byte) {}))
	require.Zero(t, testing.AllocsPerRun(100, run))
}
