package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/wire"
)

// The rules of vehicle streaming ([stream-vehicles], [stream-vehicle-show],
// [stream-vehicle-relays]), on the kit's raw connections with the bystanders parked.

func vshows(r *simkit.Raw, v uint16) []*wire.VehicleShow {
	var out []*wire.VehicleShow
	for _, m := range receivedOf[*wire.VehicleShow](r) {
		if m.Vehicle == v {
			out = append(out, m)
		}
	}
	return out
}

func vhides(r *simkit.Raw, v uint16) int {
	return countOf(r, func(m *wire.VehicleHide) bool { return m.Vehicle == v })
}

func vframes(r *simkit.Raw, v uint16) int {
	return countOf(r, func(m *wire.RemoteVehicleSync) bool { return m.Vehicle == v })
}

// countOf counts the messages of type T the raw connection received that keep accepts.
func countOf[T wire.Message](r *simkit.Raw, keep func(T) bool) int {
	n := 0
	for _, m := range receivedOf[T](r) {
		if keep(m) {
			n++
		}
	}
	return n
}

// drive sends s's next vehicle frame of v at pos with health, which must be accepted.
func (s *sender) drive(v uint16, pos wire.Vec3, health float32) {
	s.t.Helper()
	s.seq++
	s.pos = pos
	tick(s.t, s.k)
	require.Equal(s.t, refserver.VerdictAccepted, must(s.t)(s.r.Send(&wire.VehicleSync{Seq: s.seq, Vehicle: v,
		Position: pos, Rotation: wire.Quat{W: 1}, Health: health})))
}

// Rule [stream-vehicles]: a vehicle within the stream distance is shown with its current
// pose (at once when created near), kept along the edge, hidden beyond distance plus
// margin, and shown again only within the distance.
func TestStreamVehicleShownWithinDistanceHiddenBeyondMargin(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 1)
	a := s[0]
	parkBystanders(t, k)
	a.walkTo(wire.Vec3{})
	a.r.Clear()
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 100, Y: 5}, wire.Quat{W: 1}))
	require.NoError(t, w.CreateVehicle(k.Now(), 2, modelSultan, wire.Vec3{X: 500}, wire.Quat{W: 1}))
	tick(t, k)
	got := vshows(a.r, 1)
	require.Len(t, got, 1, "created within the distance: shown at once")
	require.Equal(t, &wire.VehicleShow{Vehicle: 1, Model: modelSultan, Health: 1000, Position: wire.Vec3{X: 100, Y: 5}, Rotation: wire.Quat{W: 1}}, got[0])
	require.True(t, w.SeesVehicle(a.r.ID(), 1))
	require.Empty(t, vshows(a.r, 2), "500 m away")
	require.False(t, w.SeesVehicle(a.r.ID(), 2))
	for _, x := range []float32{-90, -105, -119} { // 190, 205, 219 m
		a.walkTo(wire.Vec3{X: x})
		evaluate(t, k)
		require.True(t, w.SeesVehicle(a.r.ID(), 1), "at %v m", 100-x)
	}
	require.Zero(t, vhides(a.r, 1))
	a.walkTo(wire.Vec3{X: -125})
	evaluate(t, k)
	require.False(t, w.SeesVehicle(a.r.ID(), 1))
	require.Equal(t, 1, vhides(a.r, 1))
	a.r.Clear()
	a.walkTo(wire.Vec3{X: -110}) // 210 m: not yet
	evaluate(t, k)
	require.Empty(t, vshows(a.r, 1))
	a.walkTo(wire.Vec3{X: -95})
	evaluate(t, k)
	require.Len(t, vshows(a.r, 1), 1)
	require.True(t, w.SeesVehicle(a.r.ID(), 1))
}

// Rule [stream-vehicle-show]: a vehicle driven, moved, frozen or respawned while hidden
// from a connection is shown with its state now when the connection comes near; the
// hidden connection got none of it meanwhile ([stream-vehicle-relays]).
func TestStreamVehicleChangedWhileHiddenIsShownAsItIsNow(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 2)
	a, b := s[0], s[1]
	parkBystanders(t, k)
	a.walkTo(wire.Vec3{})
	b.walkTo(wire.Vec3{X: 5})
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	tick(t, k)
	require.True(t, w.SeesVehicle(a.r.ID(), 1))
	a.walkTo(wire.Vec3{X: -1000})
	evaluate(t, k)
	require.False(t, w.SeesVehicle(a.r.ID(), 1))
	a.r.Clear()
	// b drives it away, the gamemode freezes it: a gets nothing of it.
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 10}))
	b.drive(1, wire.Vec3{X: 40}, 900)
	b.drive(1, wire.Vec3{X: 80}, 850)
	require.NoError(t, w.FreezeVehicle(k.Now(), 1, true))
	tick(t, k)
	require.Zero(t, vframes(a.r, 1), "no frames of a vehicle a does not have shown")
	require.Empty(t, receivedOf[*wire.SetVehicleFrozen](a.r))
	require.Len(t, receivedOf[*wire.SetVehicleFrozen](b.r), 1, "the driver has it shown")
	a.walkTo(wire.Vec3{X: 0})
	evaluate(t, k)
	got := vshows(a.r, 1)
	require.Len(t, got, 1)
	require.Equal(t, wire.Vec3{X: 80}, got[0].Position, "where b drove it")
	require.Equal(t, float32(850), got[0].Health)
	require.True(t, got[0].Frozen)
	require.Equal(t, uint16(2), got[0].SyncSeq, "the frames relayed before the show are older")
	// Respawned far from a: a is offered nothing, and is shown the new pose on arrival.
	require.NoError(t, w.FreezeVehicle(k.Now(), 1, false))
	b.walkTo(wire.Vec3{X: 5})
	require.NoError(t, w.RespawnVehicle(k.Now(), 1, wire.Vec3{X: 2000}, wire.Quat{W: 1}))
	evaluate(t, k)
	require.False(t, w.SeesVehicle(a.r.ID(), 1), "the respawn put it beyond reach")
	a.r.Clear()
	require.NoError(t, w.MoveVehicle(k.Now(), 1, wire.Vec3{X: 2100}, wire.Quat{W: 1}))
	tick(t, k)
	require.Empty(t, receivedOf[*wire.SetVehiclePose](a.r), "a hidden vehicle's move is not sent")
	a.walkTo(wire.Vec3{X: 2050})
	evaluate(t, k)
	got = vshows(a.r, 1)
	require.Len(t, got, 1)
	require.Equal(t, wire.Vec3{X: 2100}, got[0].Position)
	require.False(t, got[0].Frozen)
	require.Equal(t, float32(1000), got[0].Health, "respawned whole")
	// A move near a connection that has it shown is a SetVehiclePose, no new show.
	a.r.Clear()
	require.NoError(t, w.MoveVehicle(k.Now(), 1, wire.Vec3{X: 2060}, wire.Quat{W: 1}))
	tick(t, k)
	require.Len(t, receivedOf[*wire.SetVehiclePose](a.r), 1)
	require.Empty(t, vshows(a.r, 1))
}

// Rules [stream-vehicles] and [stream-vehicle-relays]: at most VehicleCap vehicles are
// shown, the nearest first; a recipient that sees the driver but does not have its
// vehicle shown gets none of its frames and shots; the vehicle a connection sits in is
// always shown to it, beyond the cap.
func TestStreamVehicleCapAndTheOccupiedVehicle(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{Stream: refserver.StreamConfig{VehicleCap: 2}}, 2)
	a, b := s[0], s[1]
	parkBystanders(t, k)
	a.walkTo(wire.Vec3{})
	b.walkTo(wire.Vec3{X: 40})
	for v := uint16(4); v >= 1; v-- { // vehicle v at 10*v m, the nearest created first
		require.NoError(t, w.CreateVehicle(k.Now(), v, modelHunter, wire.Vec3{X: 10 * float32(v)}, wire.Quat{W: 1}))
	}
	require.NoError(t, w.CreateVehicle(k.Now(), 5, modelHunter, wire.Vec3{X: 40}, wire.Quat{W: 1}))
	require.NoError(t, w.CreateVehicle(k.Now(), 6, modelHunter, wire.Vec3{X: 40}, wire.Quat{W: 1}))
	evaluate(t, k)
	for v, want := range map[uint16]bool{1: true, 2: true, 3: false, 4: false, 5: false, 6: false} {
		require.Equal(t, want, w.SeesVehicle(a.r.ID(), v), "a: vehicle %d", v)
	}
	for v, want := range map[uint16]bool{1: false, 2: false, 3: false, 4: true, 5: true, 6: false} {
		require.Equal(t, want, w.SeesVehicle(b.r.ID(), v), "b: vehicle %d (ties go to the lower id)", v)
	}
	require.True(t, w.Sees(a.r.ID(), b.r.ID()))
	// b takes vehicle 6's seat: shown to it at once, and kept beyond the cap.
	a.r.Clear()
	require.Equal(t, refserver.VerdictAccepted, b.board(6, 0, wire.Vec3{X: 40}))
	for v, want := range map[uint16]bool{4: true, 5: true, 6: true} {
		require.Equal(t, want, w.SeesVehicle(b.r.ID(), v), "b: vehicle %d, the occupied one at once beyond the cap", v)
	}
	b.drive(6, wire.Vec3{X: 41}, 1000)
	b.drive(6, wire.Vec3{X: 42}, 1000)
	evaluate(t, k)
	// Re-evaluated: the one it sits in counts among its nearest (it is the nearest).
	for v, want := range map[uint16]bool{4: true, 5: false, 6: true} {
		require.Equal(t, want, w.SeesVehicle(b.r.ID(), v), "b: vehicle %d", v)
	}
	// a sees b but not vehicle 6: none of its frames and none of its guns' shots.
	require.Equal(t, refserver.VerdictAccepted, b.vshot(6, minigun, wire.Vec3{X: 42, Z: 1}, wire.Vec3{X: 0, Y: 1}))
	tick(t, k)
	require.Zero(t, vframes(a.r, 6))
	require.Empty(t, receivedOf[*wire.RemoteVehicleShot](a.r), "a does not have the gun's vehicle shown")
	require.NotZero(t, framesOf(a.r, b.r.ID()), "b's own frames still go to a")
	// a walks next to vehicle 6: now among its two nearest, shown, and its frames follow.
	a.walkTo(wire.Vec3{X: 43})
	evaluate(t, k)
	require.True(t, w.SeesVehicle(a.r.ID(), 6))
	require.False(t, w.SeesVehicle(a.r.ID(), 1), "beyond its two nearest")
	a.r.Clear()
	b.drive(6, wire.Vec3{X: 44}, 1000)
	tick(t, k)
	require.Equal(t, 1, vframes(a.r, 6))
}

// Rule [stream-vehicles]: StreamConfig.Everyone shows every vehicle to every connection
// without a VehicleShow, as before streaming.
func TestStreamVehiclesEverywhereWithoutStreaming(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{Stream: refserver.StreamConfig{Everyone: true}}, 2)
	a, b := s[0], s[1]
	a.walkTo(wire.Vec3{X: -3000})
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	evaluate(t, k)
	require.True(t, w.SeesVehicle(a.r.ID(), 1))
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 10}))
	b.drive(1, wire.Vec3{X: 11}, 1000)
	require.NoError(t, w.MoveVehicle(k.Now(), 1, wire.Vec3{X: 20}, wire.Quat{W: 1}))
	tick(t, k)
	require.Equal(t, 1, vframes(a.r, 1))
	require.Len(t, receivedOf[*wire.SetVehiclePose](a.r), 1)
	require.Empty(t, receivedOf[*wire.VehicleShow](a.r))
	require.Empty(t, receivedOf[*wire.VehicleHide](a.r))
}

// Rules [stream-vehicle-relays] and [stream-vehicle-show]: a vehicle's explosion goes to
// those that have it shown; one that comes near later is shown the wreck.
func TestStreamVehicleExplosionGoesToThoseThatHaveItShown(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 2)
	a, b := s[0], s[1]
	parkBystanders(t, k)
	a.walkTo(wire.Vec3{X: -1000})
	b.walkTo(wire.Vec3{X: 5})
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 10}))
	b.drive(1, wire.Vec3{X: 12}, 200)
	a.r.Clear()
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(&wire.VehicleExplode{Vehicle: 1, Attacker: refserver.NoPlayer, Weapon: 51})))
	tick(t, k)
	require.Len(t, receivedOf[*wire.RemoteVehicleExplode](b.r), 1)
	require.Empty(t, receivedOf[*wire.RemoteVehicleExplode](a.r), "a does not have it shown")
	a.walkTo(wire.Vec3{X: 0})
	evaluate(t, k)
	got := vshows(a.r, 1)
	require.Len(t, got, 1)
	require.True(t, got[0].Wrecked)
	require.Equal(t, wire.Vec3{X: 12}, got[0].Position)
	// Respawned: a, which has it shown, is shown it anew, repaired.
	a.r.Clear()
	require.NoError(t, w.RespawnVehicle(k.Now(), 1, wire.Vec3{X: 20}, wire.Quat{W: 1}))
	tick(t, k)
	require.Len(t, receivedOf[*wire.SetVehiclePose](a.r), 1)
	got = vshows(a.r, 1)
	require.Len(t, got, 1)
	require.False(t, got[0].Wrecked)
	require.Equal(t, float32(1000), got[0].Health)
	require.Equal(t, wire.Vec3{X: 20}, got[0].Position)
	require.True(t, w.SeesVehicle(a.r.ID(), 1))
}

// Rule [stream-vehicles]: the cap has a named range; a VehicleCap outside it is refused.
func TestStreamVehicleCapIsChecked(t *testing.T) {
	for _, c := range []int{-1, refserver.MaxVehicleStreamCap + 1} {
		_, err := refserver.New(refserver.Config{Stream: refserver.StreamConfig{VehicleCap: c}})
		require.ErrorIs(t, err, refserver.ErrConfig, "VehicleCap %d", c)
	}
	_, err := refserver.New(refserver.Config{Stream: refserver.StreamConfig{VehicleCap: refserver.MaxVehicleStreamCap}})
	require.NoError(t, err)
}

// hunterBeside has a sit at the wheel of a Hunter (vehicle 1) at the origin, and b stand at
// x = 10 by a car of its own (vehicle 2, the nearer to b), once their round trips are
// measured.
func hunterBeside(t *testing.T, cfg refserver.Config) (*simkit.Kit, *refserver.World, *sender, *sender) {
	t.Helper()
	k, w, s := streamKit(t, cfg, 2)
	a, b := s[0], s[1]
	parkBystanders(t, k)
	a.walkTo(wire.Vec3{})
	b.walkTo(wire.Vec3{X: 10})
	require.NoError(t, w.CreateVehicle(k.Now(), 2, modelSultan, wire.Vec3{X: 10, Y: 2}, wire.Quat{W: 1}))
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelHunter, wire.Vec3{}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, a.board(1, 0, wire.Vec3{}))
	require.NoError(t, k.Advance(3*time.Second))
	return k, w, a, b
}

// unfeltVehicleVolley has a drive a Hunter at the origin and fire 40 minigun bursts
// through b at x = 10, 200 ms apart, each claiming a hit on b, which b never reports; b
// stands by a car of its own. It returns the kit and b once the claims matured.
func unfeltVehicleVolley(t *testing.T, cfg refserver.Config) (*simkit.Kit, *sender) {
	t.Helper()
	k, w, a, b := hunterBeside(t, cfg)
	for range 40 {
		require.NoError(t, k.Advance(200*time.Millisecond))
		require.Equal(t, refserver.VerdictAccepted, b.frame())
		a.drive(1, wire.Vec3{}, 1000)
		require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.VehicleShot{ShotSeq: uint16(a.shots + 1), DeathEpoch: a.gen,
			PropertiesRev: w.Catalog().Revision(), Vehicle: 1, Weapon: minigun, HitType: wire.HitPlayer, HitID: uint16(b.r.ID()),
			Origin: wire.Vec3{Z: 1}, HitPos: wire.Vec3{X: 30, Z: -1}})))
		a.shots++
	}
	for range 10 {
		require.NoError(t, k.Advance(500*time.Millisecond))
		require.Equal(t, refserver.VerdictAccepted, b.frame())
		a.drive(1, wire.Vec3{}, 1000)
	}
	tick(t, k)
	return k, b
}

// Rule [stream-vehicle-relays]: a claimed hit of a vehicle's gun feeds the god-mode
// detector of a victim only when the victim was sent the shot, so a victim that does not
// have the vehicle shown is not suspected of skipping a hit it never saw.
func TestStreamVehicleShotUnseenDoesNotFeedTheGodModeDetector(t *testing.T) {
	k, b := unfeltVehicleVolley(t, refserver.Config{})
	require.True(t, k.Server().SeesVehicle(b.r.ID(), 1))
	require.NotEmpty(t, receivedOf[*wire.RemoteVehicleShot](b.r))
	require.NotEmpty(t, eventsOf(k, refserver.EventGodModeSuspect, b.r.ID()), "the control: b was sent every shot")

	k, b = unfeltVehicleVolley(t, refserver.Config{Stream: refserver.StreamConfig{VehicleCap: 1}})
	require.False(t, k.Server().SeesVehicle(b.r.ID(), 1), "b's one car is its own")
	require.Empty(t, receivedOf[*wire.RemoteVehicleShot](b.r))
	require.Empty(t, eventsOf(k, refserver.EventGodModeSuspect, b.r.ID()))
}

// Rule [stream-vehicle-left]: when its driver gets out, a vehicle is shown anew to the
// connections that have it shown, at the pose of the driver's last accepted frame, so a
// copy that missed the last relays is put right; one that has it hidden gets nothing.
func TestStreamVehicleLeftIsShownAnewWhereItStands(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 3)
	a, b, c := s[0], s[1], s[2]
	parkBystanders(t, k)
	a.walkTo(wire.Vec3{})
	b.walkTo(wire.Vec3{X: 5})
	c.walkTo(wire.Vec3{X: 2000})
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	tick(t, k)
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 10}))
	b.drive(1, wire.Vec3{X: 40}, 900)
	b.drive(1, wire.Vec3{X: 60}, 880)
	tick(t, k)
	a.r.Clear()
	b.r.Clear()
	c.r.Clear()
	require.Empty(t, vshows(a.r, 1))
	b.walkTo(wire.Vec3{X: 62}) // b's frame on foot: it left the driver's seat
	tick(t, k)
	got := vshows(a.r, 1)
	require.Len(t, got, 1, "a has the car shown: shown anew")
	require.Equal(t, wire.Vec3{X: 60}, got[0].Position, "at the driver's last frame")
	require.Equal(t, float32(880), got[0].Health)
	require.True(t, w.SeesVehicle(a.r.ID(), 1))
	require.Empty(t, vshows(c.r, 1), "2 km away: nothing")
	require.Len(t, vshows(b.r, 1), 1, "the driver that left too")
}

// Rule [stream-vehicle-show]: a vehicle respawned far from a connection that had it shown
// is hidden from it (a VehicleHide, no show of a car it would hide at once); one
// respawned near is shown anew, repaired.
func TestStreamVehicleRespawnedFarIsHiddenNotShown(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 1)
	a := s[0]
	parkBystanders(t, k)
	a.walkTo(wire.Vec3{})
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 50}, wire.Quat{W: 1}))
	tick(t, k)
	require.True(t, w.SeesVehicle(a.r.ID(), 1))
	a.r.Clear()
	require.NoError(t, w.RespawnVehicle(k.Now(), 1, wire.Vec3{X: 60}, wire.Quat{W: 1}))
	tick(t, k)
	require.Len(t, vshows(a.r, 1), 1, "near: shown anew")
	require.Zero(t, vhides(a.r, 1))
	a.r.Clear()
	require.NoError(t, w.RespawnVehicle(k.Now(), 1, wire.Vec3{X: 500}, wire.Quat{W: 1}))
	tick(t, k)
	require.False(t, w.SeesVehicle(a.r.ID(), 1))
	require.Empty(t, vshows(a.r, 1), "far: not shown")
	require.Equal(t, 1, vhides(a.r, 1), "but hidden")
}
