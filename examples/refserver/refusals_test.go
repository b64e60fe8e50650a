package refserver

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/lifecycle"
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
	h, a, _ := duel(t, m4)
	require.Equal(t, [NumPackageCalls]uint64{}, h.w.Stats().PackageRefusals, "honest play refuses nothing")
	p := h.w.players[a.id]
	// Acknowledgements the packages refuse: revisions never sent, a zero of another life.
	h.w.acknowledged(h.now, p, ackInterest{kind: ackHealth, rev: p.vit.Revision() + 100})
	h.w.acknowledged(h.now, p, ackInterest{kind: ackWeapon, rev: p.inv.Rev() + 100})
	h.w.acknowledged(h.now, p, ackInterest{kind: ackMult, rev: p.vit.MultiplierRevision() + 100})
	h.w.acknowledged(h.now, p, ackInterest{kind: ackZero, rev: p.vit.Revision(), gen: lifecycle.Generation(a.gen + 7)})

	st := h.w.Stats().PackageRefusals
	require.Equal(t, uint64(1), st[CallHealthAck])
	require.Equal(t, uint64(1), st[CallWeaponAck])
	require.Equal(t, uint64(1), st[CallMultipliersAck])
	require.Equal(t, uint64(1), st[CallZeroAck])
	evs := h.events(EventPackageRefused)
	require.Len(t, evs, 4)
	for i, want := range []string{"health_ack: ", "weapon_ack: ", "multipliers_ack: ", "zero_ack: "} {
		require.True(t, strings.HasPrefix(evs[i].Detail, want), evs[i].Detail)
		require.Equal(t, a.id, evs[i].Player)
	}
	require.Contains(t, evs[0].String(), "package_refused player=0 detail=health_ack: vitals:")
}
