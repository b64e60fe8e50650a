package rewind

import (
	"testing"
	"time"
)

// The shot scenarios are in testdata/scenarios (shots.txt, vehicles.txt); the helpers here
// serve the Go tests that stay (the broadphase's, the caller's slice).

func shoot(t *testing.T, w *World, now time.Duration, shooter PlayerID, ray Ray) ShotResult {
	t.Helper()
	res, err := w.Shot(now, shooter, ray, make([]Recipient, 0, 8))
	if err != nil {
		t.Fatal(err)
	}
	naive, err := w.shotNaive(now, shooter, ray, nil)
	if err != nil || len(naive.Recipients) != len(res.Recipients) {
		t.Fatalf("naive scan disagrees: %+v, %v vs %+v", naive, err, res)
	}
	for i := range naive.Recipients {
		if naive.Recipients[i] != res.Recipients[i] {
			t.Fatalf("naive scan disagrees: %+v vs %+v", naive.Recipients[i], res.Recipients[i])
		}
	}
	return res
}

func only(t *testing.T, res ShotResult) Recipient {
	t.Helper()
	if len(res.Recipients) != 1 {
		t.Fatalf("%d recipients %+v, want 1", len(res.Recipients), res.Recipients)
	}
	return res.Recipients[0]
}

// seatedScene puts recipient 1 in vehicle 5 on the ray; the shooter 0 sits in shooterSeat.
func seatedScene(t *testing.T, shooterSeat VehicleID) (*World, time.Duration) {
	t.Helper()
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddPlayer(0, 1))
	must(t, w.AddVehicle(0, 5, Pose{Position: Vec3{20, 0, 0}, Rotation: identity}))
	must(t, w.AddVehicle(0, 6, Pose{Position: Vec3{0, 0, 0}, Rotation: identity}))
	var now time.Duration
	setRTT(t, w, &now, 0, 300*ms)
	// Vehicle 5 creeps along +x; the shooter's frames say which vehicle it sits in.
	for at := now; at <= now+time.Second; at += 33 * ms {
		p := Pose{Position: Vec3{20 + float32(at-now)/float32(100*ms), 0, 0}, Rotation: yaw(float64(at-now) / float64(10*ms))}
		must2[RecordVerdict](t)(w.RecordVehicle(at, 5, p))
		must2[RecordVerdict](t)(w.RecordPlayer(at, 1, p.Position, 5))
		must2[RecordVerdict](t)(w.RecordPlayer(at, 0, p.Position, shooterSeat))
	}
	return w, w.Now()
}

func TestRecipientsAreWrittenIntoTheCallersSlice(t *testing.T) {
	w, now := seatedScene(t, NoVehicle)
	buf := make([]Recipient, 3, 8)
	res, err := w.Shot(now, 0, Ray{Kind: WeaponRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10}, buf)
	must(t, err)
	if len(res.Recipients) != 1 || &res.Recipients[0] != &buf[0] {
		t.Errorf("recipients not written from index 0 of the given slice")
	}
}
