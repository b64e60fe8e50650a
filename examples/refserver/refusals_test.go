package refserver

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

func TestEveryPackageCallHasAName(t *testing.T) {
	seen := map[string]bool{}
	for c := PackageCall(0); c < NumPackageCalls; c++ {
		name := c.String()
		require.NotContains(t, name, "PackageCall(", "%d", c)
		require.False(t, seen[name], "%s named twice", name)
		seen[name] = true
	}
	require.Equal(t, "PackageCall(200)", PackageCall(200).String())
}

// A refusal of a call the World makes on its own account is never dropped silently: it is
// counted by its call and raised as package_refused with the package's reason.
func TestEveryPackageRefusalIsCountedByItsCall(t *testing.T) {
	// Two players in their first life, the first holding an M4: connections the test
	// speaks for (no client model).
	w, err := New(Config{MaxPlayers: 2, RespawnDelay: time.Second})
	require.NoError(t, err)
	now := time.Second
	const a PlayerID = 0
	for id := range PlayerID(2) {
		require.Equal(t, VerdictAccepted, w.Handle(now, id, &wire.Hello{}))
		require.Equal(t, VerdictAccepted, w.Handle(now, id, &wire.RespawnRequest{}))
		require.Equal(t, VerdictAccepted, w.Handle(now, id, &wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true, Health: 100,
			Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 10 * float32(id)}}))
	}
	require.NoError(t, w.GiveWeapon(now, a, m4, 100, true))
	const gen = 1
	h := struct {
		w   *World
		now time.Duration
	}{w, now}
	events := func(k EventKind) []Event {
		var out []Event
		for _, e := range w.Events(nil) {
			if e.Kind == k {
				out = append(out, e)
			}
		}
		return out
	}
	require.Equal(t, [NumPackageCalls]uint64{}, h.w.Stats().PackageRefusals, "honest play refuses nothing")
	p := h.w.players[a]
	// Acknowledgements the packages refuse: revisions never sent, a zero of another life.
	h.w.acknowledged(h.now, p, ackInterest{kind: ackHealth, rev: p.vit.Revision() + 100})
	h.w.acknowledged(h.now, p, ackInterest{kind: ackWeapon, rev: p.inv.Rev() + 100})
	h.w.acknowledged(h.now, p, ackInterest{kind: ackMult, rev: p.vit.MultiplierRevision() + 100})
	h.w.acknowledged(h.now, p, ackInterest{kind: ackZero, rev: p.vit.Revision(), gen: lifecycle.Generation(gen + 7)})

	st := h.w.Stats().PackageRefusals
	require.Equal(t, uint64(1), st[CallHealthAck])
	require.Equal(t, uint64(1), st[CallWeaponAck])
	require.Equal(t, uint64(1), st[CallMultipliersAck])
	require.Equal(t, uint64(1), st[CallZeroAck])
	evs := events(EventPackageRefused)
	require.Len(t, evs, 4)
	for i, want := range []string{"health_ack: ", "weapon_ack: ", "multipliers_ack: ", "zero_ack: "} {
		require.True(t, strings.HasPrefix(evs[i].Detail, want), evs[i].Detail)
		require.Equal(t, a, evs[i].Player)
	}
	require.Contains(t, evs[0].String(), "package_refused player=0 detail=health_ack: vitals:")
}
