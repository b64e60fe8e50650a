package lifecycle

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const ms = time.Millisecond

var (
	noKiller = Handle{}
	noBlame  = Blame{Cause: CauseUnknown}
	pointA   = SpawnPoint{Pos: Vec3{X: 1, Y: 2, Z: 3}, Facing: 90}
	pointB   = SpawnPoint{Pos: Vec3{X: -1400, Y: 2600, Z: 10}, Facing: 180}
)

func newWorld(t testing.TB, cfg Config) *World {
	t.Helper()
	w, err := New(cfg)
	require.NoError(t, err)
	return w
}

// spawned joins id and takes it through the connect spawn to a confirmed first life.
func spawned(t testing.TB, w *World, now time.Duration, id PlayerID) Handle {
	t.Helper()
	h, err := w.Join(now, id)
	require.NoError(t, err)
	g, err := w.RespawnRequest(now, h, 0)
	require.NoError(t, err)
	require.Equal(t, RequestGranted, g.Verdict, g.String())
	f, err := w.Frame(now, h, Claim{Alive: true, Gen: g.Respawn.Gen}, 100)
	require.NoError(t, err)
	require.Equal(t, FrameFirstOfLife, f.Verdict)
	return h
}

// reportDeath commits h's death by its own report.
func reportDeath(t testing.TB, w *World, now time.Duration, h Handle, pose Pose) Commit {
	t.Helper()
	r, err := w.ReportDeath(now, h, DeathReport{Gen: gen(t, w, h), Means: 24, Pose: pose}, noBlame)
	require.NoError(t, err)
	require.Equal(t, ReportCommitted, r.Verdict)
	return r.Commit
}

// respawn grants h's respawn at now (the policy must allow it) and confirms the life.
func respawn(t testing.TB, w *World, now time.Duration, h Handle) Grant {
	t.Helper()
	g, err := w.RespawnRequest(now, h, gen(t, w, h))
	require.NoError(t, err)
	require.Equal(t, RequestGranted, g.Verdict, g.String())
	f, err := w.Frame(now, h, Claim{Alive: true, Gen: g.Respawn.Gen}, 100)
	require.NoError(t, err)
	require.Equal(t, FrameFirstOfLife, f.Verdict)
	return g
}

func gen(t testing.TB, w *World, h Handle) Generation {
	t.Helper()
	s, err := w.Snapshot(h.ID)
	require.NoError(t, err)
	require.Equal(t, h.Token, s.Token)
	return s.Gen
}

func phase(t testing.TB, w *World, h Handle) Phase {
	t.Helper()
	p, err := w.Phase(h)
	require.NoError(t, err)
	return p
}

// state is everything a rejected input must leave untouched.
type state struct {
	slots     []slot
	sched     []PlayerID
	nextToken Token
	wrapped   bool
}

func capture(w *World) state {
	return state{
		slots:     append([]slot(nil), w.slots...),
		sched:     append([]PlayerID(nil), w.sched...),
		nextToken: w.nextToken,
		wrapped:   w.wrapped,
	}
}

func requireUnchanged(t testing.TB, before state, w *World) {
	t.Helper()
	after := capture(w)
	require.Equal(t, before.nextToken, after.nextToken, "token counter changed")
	require.Equal(t, before.wrapped, after.wrapped)
	require.Equal(t, before.sched, after.sched, "schedule changed")
	require.Equal(t, len(before.slots), len(after.slots))
	for i := range before.slots {
		require.True(t, before.slots[i] == after.slots[i], "slot %d changed:\n%+v\n%+v", i, before.slots[i], after.slots[i])
	}
}
