package refserver_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// Rule [stream-hide-owed]: a hide a lane refuses at its soft cap is owed, and goes out
// once the lane drains; a show of the same id sent in between cancels it.

// fillLane silences r and fills its lane to the soft cap with ordinary commands it never
// acknowledges.
func fillLane(t *testing.T, k *simkit.Kit, r *simkit.Raw) {
	t.Helper()
	r.SetSilent(true)
	var err error
	for err == nil {
		err = k.Server().SetArmedWeapon(k.Now(), r.ID(), inventory.Fists)
	}
	require.ErrorIs(t, err, lane.ErrSoftCap)
}

// kinds lists the PlayerShow and PlayerHide of subject r received, in order, as "show"
// and "hide".
func kinds(r *simkit.Raw, subject refserver.PlayerID) []string {
	return showsAndHides(r, func(m wire.Message) (uint16, bool, bool) {
		switch m := m.(type) {
		case *wire.PlayerShow:
			return uint16(m.Player), true, true
		case *wire.PlayerHide:
			return uint16(m.Player), false, true
		}
		return 0, false, false
	}, uint16(subject))
}

// vkinds is kinds of vehicle v's VehicleShow and VehicleHide.
func vkinds(r *simkit.Raw, v uint16) []string {
	return showsAndHides(r, func(m wire.Message) (uint16, bool, bool) {
		switch m := m.(type) {
		case *wire.VehicleShow:
			return m.Vehicle, true, true
		case *wire.VehicleHide:
			return m.Vehicle, false, true
		}
		return 0, false, false
	}, v)
}

// showsAndHides lists, in order, "show" or "hide" for each received message that of
// reports as a show or a hide of id.
func showsAndHides(r *simkit.Raw, of func(wire.Message) (id uint16, show, ok bool), id uint16) []string {
	var out []string
	for _, m := range r.Received() {
		if got, show, ok := of(m); ok && got == id {
			if show {
				out = append(out, "show")
			} else {
				out = append(out, "hide")
			}
		}
	}
	return out
}

// speakAgain lets r (silenced by fillLane) acknowledge again, and its lane drain over two
// evaluation periods.
func speakAgain(t *testing.T, k *simkit.Kit, r *simkit.Raw) {
	t.Helper()
	r.SetSilent(false)
	evaluate(t, k)
	evaluate(t, k)
}

func TestStreamHideRefusedByAFullLaneIsOwedUntilTheLaneDrains(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 2)
	a, b := s[0], s[1]
	parkBystanders(t, k)
	fillLane(t, k, a.r)
	a.r.Clear()
	owed := w.Stats().HidesOwed
	b.walkTo(wire.Vec3{X: 230})
	evaluate(t, k)
	require.False(t, w.Sees(a.r.ID(), b.r.ID()), "hidden for the server at once")
	require.Equal(t, 1, refserver.OwedHidesOf(w, a.r.ID()))
	require.Equal(t, owed+1, w.Stats().HidesOwed)
	require.Empty(t, kinds(a.r, b.r.ID()))
	a.r.Clear()
	b.walkTo(wire.Vec3{X: 231})
	tick(t, k)
	require.Zero(t, framesOf(a.r, b.r.ID()), "no frames of a subject hidden, even with its hide owed")
	require.Empty(t, kinds(a.r, b.r.ID()))
	// The client speaks again: its lane drains, and the owed hide goes.
	speakAgain(t, k, a.r)
	require.Zero(t, refserver.OwedHidesOf(w, a.r.ID()))
	require.Equal(t, []string{"hide"}, kinds(a.r, b.r.ID()))
}

func TestStreamOwedHideGoesBeforeTheShowThatFollowsIt(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 2)
	a, b := s[0], s[1]
	parkBystanders(t, k)
	fillLane(t, k, a.r)
	a.r.Clear()
	b.walkTo(wire.Vec3{X: 230})
	evaluate(t, k)
	require.Equal(t, 1, refserver.OwedHidesOf(w, a.r.ID()))
	// Back within the distance while the lane is still full: the show waits too.
	b.walkTo(wire.Vec3{X: 150})
	evaluate(t, k)
	require.False(t, w.Sees(a.r.ID(), b.r.ID()), "no room for the show yet")
	speakAgain(t, k, a.r)
	require.True(t, w.Sees(a.r.ID(), b.r.ID()))
	require.Zero(t, refserver.OwedHidesOf(w, a.r.ID()))
	require.Equal(t, []string{"hide", "show"}, kinds(a.r, b.r.ID()), "the client drops the old copy, then builds the new")
}

func TestStreamOwedHideOfADepartedPlayerGoesWithoutStreaming(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{Stream: refserver.StreamConfig{Everyone: true}}, 2)
	a, b := s[0], s[1]
	fillLane(t, k, a.r)
	a.r.Clear()
	require.NoError(t, w.Kick(k.Now(), b.r.ID()))
	tick(t, k)
	require.Equal(t, 1, refserver.OwedHidesOf(w, a.r.ID()))
	speakAgain(t, k, a.r)
	require.Zero(t, refserver.OwedHidesOf(w, a.r.ID()))
	require.Equal(t, []string{"hide"}, kinds(a.r, b.r.ID()))
}

func TestStreamOwedVehicleHidesGoBeforeTheShowThatFollows(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 1)
	a := s[0]
	parkBystanders(t, k)
	a.walkTo(wire.Vec3{})
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 100}, wire.Quat{W: 1}))
	require.NoError(t, w.CreateVehicle(k.Now(), 2, modelSultan, wire.Vec3{X: 110}, wire.Quat{W: 1}))
	tick(t, k)
	require.True(t, w.SeesVehicle(a.r.ID(), 1))
	require.True(t, w.SeesVehicle(a.r.ID(), 2))
	fillLane(t, k, a.r)
	a.r.Clear()
	a.walkTo(wire.Vec3{X: -150}) // 250 m and 260 m
	evaluate(t, k)
	require.False(t, w.SeesVehicle(a.r.ID(), 1))
	require.False(t, w.SeesVehicle(a.r.ID(), 2))
	require.Equal(t, 2, refserver.OwedHidesOf(w, a.r.ID()))
	require.Zero(t, vhides(a.r, 1)+vhides(a.r, 2))
	// The client speaks again, while the gamemode keeps moving car 2 next to it: the
	// owed hides go at the first Tick with room, the show after them.
	a.r.SetSilent(false)
	for i := 0; i < 100 && refserver.OwedHidesOf(w, a.r.ID()) > 0; i++ {
		require.NoError(t, w.MoveVehicle(k.Now(), 2, wire.Vec3{X: -140}, wire.Quat{W: 1}))
		tick(t, k)
	}
	require.Zero(t, refserver.OwedHidesOf(w, a.r.ID()))
	evaluate(t, k)
	require.True(t, w.SeesVehicle(a.r.ID(), 2))
	require.Equal(t, 1, vhides(a.r, 1))
	require.Len(t, vshows(a.r, 2), 1)
	require.Equal(t, []string{"hide", "show"}, vkinds(a.r, 2), "never a hide after the show")
}
