package rewind

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"time"
)

// populated returns a world with players 0..2 (0 and 1 placed, 1 in vehicle 0, 2 without
// position), vehicles 0 and 1, an RTT for player 0 and the clock at 2 s.
func populated(t *testing.T) *World {
	t.Helper()
	w := mustWorld(t, Config{Players: 4, Vehicles: 3})
	for id := PlayerID(0); id < 3; id++ {
		must(t, w.AddPlayer(0, id))
	}
	must(t, w.AddVehicle(0, 0, Pose{Position: Vec3{10, 0, 0}, Rotation: identity}))
	must(t, w.AddVehicle(0, 1, Pose{Position: Vec3{20, 0, 0}, Rotation: identity}))
	var now time.Duration
	setRTT(t, w, &now, 0, 100*ms)
	for at := now; at <= 2*time.Second; at += 33 * ms {
		must2[RecordVerdict](t)(w.RecordPlayer(at, 0, Vec3{0, 0, 0}, NoVehicle))
		must2[RecordVerdict](t)(w.RecordPlayer(at, 1, Vec3{10 + float32(at)/float32(time.Second), 0, 0}, 0))
		must2[RecordVerdict](t)(w.RecordVehicle(at, 0, Pose{Position: Vec3{10 + float32(at)/float32(time.Second), 0, 0}, Rotation: identity}))
	}
	must2[uint16](t)(w.Ping(w.Now(), 0))
	return w
}

func TestBadInputIsRefusedAndChangesNothing(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	const late = 3 * time.Second
	good := Ray{Kind: WeaponRay, Direction: Vec3{1, 0, 0}, Length: 50}
	withRay := func(f func(*Ray)) Ray { r := good; f(&r); return r }
	shot := func(w *World, now time.Duration, id PlayerID, r Ray) error {
		_, err := w.Shot(now, id, r, nil)
		return err
	}
	for _, c := range []struct {
		name string
		want error
		call func(w *World) error
	}{
		{"frame from the past", ErrClockBackwards, func(w *World) error { _, err := w.RecordPlayer(time.Second, 0, Vec3{}, NoVehicle); return err }},
		{"frame with NaN", ErrBadPosition, func(w *World) error { _, err := w.RecordPlayer(late, 0, Vec3{nan, 0, 0}, NoVehicle); return err }},
		{"frame with +Inf", ErrBadPosition, func(w *World) error { _, err := w.RecordPlayer(late, 0, Vec3{0, inf, 0}, NoVehicle); return err }},
		{"frame with -Inf", ErrBadPosition, func(w *World) error { _, err := w.RecordPlayer(late, 0, Vec3{0, 0, -inf}, NoVehicle); return err }},
		{"frame beyond the map bound", ErrBadPosition, func(w *World) error {
			_, err := w.RecordPlayer(late, 0, Vec3{MaxCoordinate * 1.01, 0, 0}, NoVehicle)
			return err
		}},
		{"frame of an unknown player", ErrUnknownPlayer, func(w *World) error { _, err := w.RecordPlayer(late, 3, Vec3{}, NoVehicle); return err }},
		{"frame of an out-of-range player", ErrPlayerRange, func(w *World) error { _, err := w.RecordPlayer(late, 4, Vec3{}, NoVehicle); return err }},
		{"frame of NoPlayer", ErrPlayerRange, func(w *World) error { _, err := w.RecordPlayer(late, NoPlayer, Vec3{}, NoVehicle); return err }},
		{"frame seated in an unknown vehicle", ErrUnknownVehicle, func(w *World) error { _, err := w.RecordPlayer(late, 0, Vec3{}, 2); return err }},
		{"frame seated in an out-of-range vehicle", ErrVehicleRange, func(w *World) error { _, err := w.RecordPlayer(late, 0, Vec3{}, 3); return err }},
		{"move to NaN", ErrBadPosition, func(w *World) error { return w.MovePlayer(late, 0, Vec3{0, 0, nan}) }},
		{"respawn of an unknown player", ErrUnknownPlayer, func(w *World) error { return w.RespawnPlayer(late, 3, Vec3{}) }},
		{"respawn from the past", ErrClockBackwards, func(w *World) error { return w.RespawnPlayer(0, 0, Vec3{}) }},
		{"freeze of an unknown player", ErrUnknownPlayer, func(w *World) error { return w.FreezePlayer(late, 3, true) }},
		{"add an added player", ErrPlayerExists, func(w *World) error { return w.AddPlayer(late, 1) }},
		{"add an out-of-range player", ErrPlayerRange, func(w *World) error { return w.AddPlayer(late, 4) }},
		{"remove an unknown player", ErrUnknownPlayer, func(w *World) error { return w.RemovePlayer(late, 3) }},
		{"vehicle frame with a NaN rotation", ErrBadRotation, func(w *World) error {
			_, err := w.RecordVehicle(late, 0, Pose{Rotation: Quat{nan, 0, 0, 1}})
			return err
		}},
		{"vehicle frame with a zero rotation", ErrBadRotation, func(w *World) error { _, err := w.RecordVehicle(late, 0, Pose{}); return err }},
		{"vehicle frame with an infinite rotation", ErrBadRotation, func(w *World) error {
			_, err := w.RecordVehicle(late, 0, Pose{Rotation: Quat{inf, 0, 0, 0}})
			return err
		}},
		{"vehicle frame with NaN", ErrBadPosition, func(w *World) error {
			_, err := w.RecordVehicle(late, 0, Pose{Position: Vec3{nan, 0, 0}, Rotation: identity})
			return err
		}},
		{"vehicle frame of an unknown vehicle", ErrUnknownVehicle, func(w *World) error {
			_, err := w.RecordVehicle(late, 2, Pose{Rotation: identity})
			return err
		}},
		{"vehicle frame from the past", ErrClockBackwards, func(w *World) error {
			_, err := w.RecordVehicle(time.Second, 0, Pose{Rotation: identity})
			return err
		}},
		{"add an added vehicle", ErrVehicleExists, func(w *World) error { return w.AddVehicle(late, 0, Pose{Rotation: identity}) }},
		{"add a vehicle with a bad pose", ErrBadRotation, func(w *World) error { return w.AddVehicle(late, 2, Pose{}) }},
		{"add an out-of-range vehicle", ErrVehicleRange, func(w *World) error { return w.AddVehicle(late, NoVehicle, Pose{Rotation: identity}) }},
		{"move a vehicle to Inf", ErrBadPosition, func(w *World) error {
			return w.MoveVehicle(late, 0, Pose{Position: Vec3{inf, 0, 0}, Rotation: identity})
		}},
		{"respawn a vehicle with a zero rotation", ErrBadRotation, func(w *World) error { return w.RespawnVehicle(late, 0, Pose{}) }},
		{"freeze an unknown vehicle", ErrUnknownVehicle, func(w *World) error { return w.FreezeVehicle(late, 2, true) }},
		{"wreck an unknown vehicle", ErrUnknownVehicle, func(w *World) error { return w.WreckVehicle(late, 2) }},
		{"remove an unknown vehicle", ErrUnknownVehicle, func(w *World) error { return w.RemoveVehicle(late, 2) }},
		{"ping from the past", ErrClockBackwards, func(w *World) error { _, err := w.Ping(0, 0); return err }},
		{"ping an unknown player", ErrUnknownPlayer, func(w *World) error { _, err := w.Ping(late, 3); return err }},
		{"pong from the past", ErrClockBackwards, func(w *World) error { _, err := w.Pong(0, 0, 5); return err }},
		{"pong of an unknown player", ErrUnknownPlayer, func(w *World) error { _, err := w.Pong(late, 3, 0); return err }},
		{"shot from the past", ErrClockBackwards, func(w *World) error { return shot(w, time.Second, 0, good) }},
		{"shot by an unknown player", ErrUnknownPlayer, func(w *World) error { return shot(w, late, 3, good) }},
		{"shot by NoPlayer", ErrPlayerRange, func(w *World) error { return shot(w, late, NoPlayer, good) }},
		{"shot of kind 0", ErrBadRayKind, func(w *World) error { return shot(w, late, 0, withRay(func(r *Ray) { r.Kind = 0 })) }},
		{"shot of kind 9", ErrBadRayKind, func(w *World) error { return shot(w, late, 0, withRay(func(r *Ray) { r.Kind = 9 })) }},
		{"shot from NaN", ErrBadPosition, func(w *World) error { return shot(w, late, 0, withRay(func(r *Ray) { r.Origin.Y = nan })) }},
		{"shot with a zero direction", ErrBadDirection, func(w *World) error { return shot(w, late, 0, withRay(func(r *Ray) { r.Direction = Vec3{} })) }},
		{"shot with a tiny direction", ErrBadDirection, func(w *World) error {
			return shot(w, late, 0, withRay(func(r *Ray) { r.Direction = Vec3{1e-7, 0, 0} }))
		}},
		{"shot with a NaN direction", ErrBadDirection, func(w *World) error { return shot(w, late, 0, withRay(func(r *Ray) { r.Direction.Z = nan })) }},
		{"shot with an infinite direction", ErrBadDirection, func(w *World) error { return shot(w, late, 0, withRay(func(r *Ray) { r.Direction.X = inf })) }},
		{"shot with a negative length", ErrBadLength, func(w *World) error { return shot(w, late, 0, withRay(func(r *Ray) { r.Length = -1 })) }},
		{"shot with a zero length", ErrBadLength, func(w *World) error { return shot(w, late, 0, withRay(func(r *Ray) { r.Length = 0 })) }},
		{"shot with a huge length", ErrBadLength, func(w *World) error { return shot(w, late, 0, withRay(func(r *Ray) { r.Length = MaxRayLength + 1 })) }},
		{"shot with a NaN length", ErrBadLength, func(w *World) error { return shot(w, late, 0, withRay(func(r *Ray) { r.Length = nan })) }},
		{"shot with an infinite length", ErrBadLength, func(w *World) error { return shot(w, late, 0, withRay(func(r *Ray) { r.Length = inf })) }},
		{"player at time of a player without position", ErrNoPosition, func(w *World) error { _, err := w.PlayerAt(late, 2); return err }},
		{"player at time of an unknown player", ErrUnknownPlayer, func(w *World) error { _, err := w.PlayerAt(late, 3); return err }},
		{"vehicle at time of an unknown vehicle", ErrUnknownVehicle, func(w *World) error { _, err := w.VehicleAt(late, 2); return err }},
		{"seat of an unknown player", ErrUnknownPlayer, func(w *World) error { _, err := w.Seat(3); return err }},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := populated(t)
			before := w.clone()
			err := c.call(w)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if !sameState(before, w) {
				t.Error("the refused call changed the world")
			}
		})
	}
}

func TestEveryErrorNamesThePackage(t *testing.T) {
	for _, err := range []error{ErrBadConfig, ErrClockBackwards, ErrPlayerRange, ErrUnknownPlayer, ErrPlayerExists,
		ErrNoPosition, ErrVehicleRange, ErrUnknownVehicle, ErrVehicleExists, ErrBadPosition, ErrBadRotation,
		ErrBadDirection, ErrBadLength, ErrBadRayKind} {
		if s := err.Error(); len(s) < 8 || s[:8] != "rewind: " {
			t.Errorf("%q does not start with the package name", s)
		}
	}
}

func TestConfigZeroFieldsTakeTheDefaults(t *testing.T) {
	w := mustWorld(t, Config{})
	want := Config{Players: MaxPlayers, Vehicles: MaxVehicles, NearDistance: DefaultNearDistance,
		VehicleNearDistance: DefaultVehicleNearDistance, TeleportDistance: DefaultTeleportDistance}
	if got := w.Config(); got != want {
		t.Errorf("Config() = %+v, want %+v", got, want)
	}
}

func TestConfigOutOfRangeIsRefused(t *testing.T) {
	nan := float32(math.NaN())
	for _, c := range []Config{
		{Players: -1}, {Players: MaxPlayers + 1}, {Vehicles: -1}, {Vehicles: MaxVehicles + 1},
		{NearDistance: -1}, {NearDistance: nan}, {NearDistance: MaxNearDistance + 1}, {NearDistance: float32(math.Inf(1))},
		{VehicleNearDistance: -0.5}, {VehicleNearDistance: nan}, {VehicleNearDistance: MaxNearDistance * 2},
		{TeleportDistance: -3}, {TeleportDistance: nan}, {TeleportDistance: float32(math.Inf(1))},
	} {
		if _, err := New(c); !errors.Is(err, ErrBadConfig) {
			t.Errorf("New(%+v): %v, want ErrBadConfig", c, err)
		}
	}
}

func TestVerdictNamesAreDistinct(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range []string{
		Started.String(), Appended.String(), Merged.String(), Teleported.String(), RecordVerdict(0).String(),
		PongAccepted.String(), PongDuplicate.String(), PongExpired.String(), PongUnknown.String(), PongVerdict(0).String(),
		WeaponRay.String(), VehicleGunRay.String(), CannonRay.String(), RayKind(0).String(),
		ShotRewound.String(), ShotNoRTT.String(), ShotCannon.String(), ShotVerdict(0).String(),
		RewoundOnFoot.String(), RewoundInVehicle.String(), InShooterVehicle.String(), InFrozenVehicle.String(),
		InWreckedVehicle.String(), RecipientVerdict(0).String(),
	} {
		if seen[s] {
			t.Errorf("%q names two values", s)
		}
		seen[s] = true
	}
}

// sameState must see every field of the World: this fails when a field is added to World
// without adding it to sameState (and clone).
func TestSameStateSeesEveryField(t *testing.T) {
	if n := reflect.TypeFor[World]().NumField(); n != 16 {
		t.Errorf("World has %d fields; update sameState and clone", n)
	}
	a := populated(t)
	b := a.clone()
	if !sameState(a, b) {
		t.Fatal("a clone differs")
	}
	b.prings[1][3].cum++
	if sameState(a, b) {
		t.Error("a changed history is not seen")
	}
}
