package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/wire"
)

// The external tests drive the reference server through the simulation kit: two honest
// bystanders on the simulated network, and the raw connections a test writes every
// message of (simkit.Raw), with no client model between the test and the server.

// rawKit starts a kit of cfg with two honest bystanders and n raw connections whose
// pongs and acknowledgements take rtt, and spawns each raw connection (life 1, its
// first frame on foot at the spawn point). A nil cfg.Loadout becomes an empty one, so
// that the tests give what they need; a zero MaxVehicles 8, a zero RespawnDelay 1 s.
func rawKit(t *testing.T, cfg refserver.Config, rtt time.Duration, n int) (*simkit.Kit, []*simkit.Raw) {
	t.Helper()
	if cfg.Loadout == nil {
		cfg.Loadout = []refserver.Loadout{}
	}
	if cfg.MaxVehicles == 0 {
		cfg.MaxVehicles = 8
	}
	if cfg.RespawnDelay == 0 {
		cfg.RespawnDelay = time.Second
	}
	k := simkit.New(simkit.Config{Seed: 1, Server: cfg})
	_, err := k.Join("bystander1", simkit.Link{})
	require.NoError(t, err)
	_, err = k.Join("bystander2", simkit.Link{})
	require.NoError(t, err)
	raws := make([]*simkit.Raw, n)
	for i := range raws {
		raws[i], err = k.JoinRaw(string(rune('a' + i)))
		require.NoError(t, err)
		raws[i].SetRTT(rtt)
	}
	require.NoError(t, k.Start())
	for _, r := range raws {
		v, err := r.Send(&wire.RespawnRequest{DeathEpoch: 0})
		require.NoError(t, err)
		require.Equal(t, refserver.VerdictAccepted, v, "respawn request")
	}
	require.NoError(t, k.Advance(50*time.Millisecond))
	for _, r := range raws {
		sp, ok := lastOf[*wire.RespawnPlayer](r)
		require.True(t, ok, "%s was sent its spawn", r.Name())
		require.Equal(t, uint16(1), sp.DeathEpoch)
		v, err := r.Send(&wire.PlayerSync{Seq: 1, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: wire.NoVehicle, Position: sp.Position})
		require.NoError(t, err)
		require.Equal(t, refserver.VerdictAccepted, v, "the first living frame")
	}
	return k, raws
}

// lastOf returns the last message of type T the raw connection received.
func lastOf[T wire.Message](r *simkit.Raw) (T, bool) {
	var last T
	ok := false
	for _, m := range r.Received() {
		if v, is := m.(T); is {
			last, ok = v, true
		}
	}
	return last, ok
}

// eventsOf returns the kit's events of kind about player id.
func eventsOf(k *simkit.Kit, kind refserver.EventKind, id refserver.PlayerID) []refserver.Event {
	var out []refserver.Event
	for _, e := range k.EventsOf(kind) {
		if e.Player == id {
			out = append(out, e)
		}
	}
	return out
}

// must fails the test on an error and returns the verdict.
func must(t *testing.T) func(refserver.Verdict, error) refserver.Verdict {
	return func(v refserver.Verdict, err error) refserver.Verdict {
		t.Helper()
		require.NoError(t, err)
		return v
	}
}
