package rewind_test

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/rewind"
)

const ms = time.Millisecond

// A shooter with a 120 ms round trip fires along the x axis at a player who walked
// across the ray 120 ms earlier: the walker is told to stand on the ray for the trace.
func Example() {
	w, _ := rewind.New(rewind.Config{})
	const shooter, walker rewind.PlayerID = 0, 1
	_ = w.AddPlayer(0, shooter)
	_ = w.AddPlayer(0, walker)

	// The server measures the shooter's round trip itself.
	var now time.Duration
	for range rewind.RTTWindow {
		id, _ := w.Ping(now, shooter)
		now += 120 * ms
		_, _ = w.Pong(now, shooter, id)
	}

	// The walker's accepted frames, 30 a second, crossing y = 0 at 1.0 s at 5 m/s.
	for at := now; at <= 1120*ms; at += 10 * ms {
		y := float32(at-time.Second) / float32(200*ms)
		_, _ = w.RecordPlayer(at, walker, rewind.Vec3{X: 40, Y: y}, rewind.NoVehicle)
	}

	buf := make([]rewind.Recipient, 0, rewind.MaxPlayers)
	res, _ := w.Shot(1120*ms, shooter, rewind.Ray{
		Kind:      rewind.WeaponRay,
		Direction: rewind.Vec3{X: 1},
		Length:    100,
	}, buf)
	fmt.Println(res.Verdict, "back", res.Back)
	for _, r := range res.Recipients {
		fmt.Printf("player %d %v at %.2f\n", r.Player, r.Verdict, r.Position)
	}
	// Output:
	// rewound back 120ms
	// player 1 rewound-on-foot at {40.00 0.00 0.00}
}

// A round trip of a full second still rewinds no more than RewindCap.
func ExampleWorld_Shot_cap() {
	w, _ := rewind.New(rewind.Config{Players: 4, Vehicles: 1})
	_ = w.AddPlayer(0, 0)
	_ = w.AddPlayer(0, 1)
	var now time.Duration
	for range rewind.RTTWindow {
		id, _ := w.Ping(now, 0)
		now += time.Second
		_, _ = w.Pong(now, 0, id)
	}
	_, _ = w.RecordPlayer(now, 1, rewind.Vec3{X: 10}, rewind.NoVehicle)
	rtt, _ := w.RTT(0)
	res, _ := w.Shot(now, 0, rewind.Ray{Kind: rewind.WeaponRay, Direction: rewind.Vec3{X: 1}, Length: 50}, nil)
	fmt.Println("rtt", rtt, "back", res.Back)
	// Output:
	// rtt 1s back 400ms
}

// A recipient sitting in a vehicle is rewound together with it; the Rhino cannon's ray
// rewinds nobody.
func ExampleWorld_Shot_vehicle() {
	w, _ := rewind.New(rewind.Config{Players: 4, Vehicles: 4})
	_ = w.AddPlayer(0, 0)
	_ = w.AddPlayer(0, 1)
	_ = w.AddVehicle(0, 2, rewind.Pose{Position: rewind.Vec3{X: 30, Y: -10}, Rotation: rewind.Quat{W: 1}})
	var now time.Duration
	for range rewind.RTTWindow {
		id, _ := w.Ping(now, 0)
		now += 200 * ms
		_, _ = w.Pong(now, 0, id)
	}
	// The car drives along +y at 25 m/s and was on the ray (y = 0) 200 ms ago.
	for at := now; at <= 2*time.Second; at += 20 * ms {
		y := float32(at-1800*ms) / float32(40*ms)
		pose := rewind.Pose{Position: rewind.Vec3{X: 30, Y: y}, Rotation: rewind.Quat{W: 1}}
		_, _ = w.RecordVehicle(at, 2, pose)
		_, _ = w.RecordPlayer(at, 1, pose.Position, 2)
	}
	ray := rewind.Ray{Kind: rewind.VehicleGunRay, Direction: rewind.Vec3{X: 1}, Length: 100}
	res, _ := w.Shot(2*time.Second, 0, ray, nil)
	for _, r := range res.Recipients {
		fmt.Printf("player %d %v: vehicle %d at %.1f\n", r.Player, r.Verdict, r.Vehicle, r.VehiclePose.Position)
	}
	ray.Kind = rewind.CannonRay
	res, _ = w.Shot(2*time.Second, 0, ray, nil)
	fmt.Println(res.Verdict, len(res.Recipients))
	// Output:
	// player 1 rewound-in-vehicle: vehicle 2 at {30.0 0.0 0.0}
	// cannon-not-rewound 0
}

// The round-trip estimate is the median of the last samples: one spike does not move it,
// and a pong that answers nothing, or answers twice, gives no sample.
func ExampleWorld_Pong() {
	w, _ := rewind.New(rewind.Config{Players: 1, Vehicles: 1})
	_ = w.AddPlayer(0, 0)
	var now time.Duration
	for _, rtt := range []time.Duration{80 * ms, 90 * ms, 900 * ms, 85 * ms} {
		id, _ := w.Ping(now, 0)
		now += rtt
		v, _ := w.Pong(now, 0, id)
		est, _ := w.RTT(0)
		fmt.Println(v, rtt, "estimate", est)
		if rtt == 900*ms {
			again, _ := w.Pong(now, 0, id)
			fmt.Println(again)
		}
	}
	v, _ := w.Pong(now, 0, 77)
	fmt.Println(v)
	// Output:
	// accepted 80ms estimate 80ms
	// accepted 90ms estimate 80ms
	// accepted 900ms estimate 90ms
	// duplicate
	// accepted 85ms estimate 85ms
	// unknown
}

// Frames faster than MaxFrameRate merge: the frame at 35 ms is kept only until the next
// one replaces it, and the frame at 66 ms replaces the one at 38 ms, which was too close
// to the kept frame at 33 ms. A jump beyond the teleport distance starts the history
// anew, so no rewind interpolates across it.
func ExampleWorld_RecordPlayer() {
	w, _ := rewind.New(rewind.Config{Players: 1, Vehicles: 1})
	_ = w.AddPlayer(0, 0)
	for _, f := range []struct {
		at time.Duration
		x  float32
	}{{0, 0}, {33 * ms, 1}, {35 * ms, 1.1}, {38 * ms, 1.2}, {66 * ms, 2}, {100 * ms, 500}} {
		v, _ := w.RecordPlayer(f.at, 0, rewind.Vec3{X: f.x}, rewind.NoVehicle)
		fmt.Println(f.at, v)
	}
	p, _ := w.PlayerAt(80*ms, 0)
	fmt.Println("at 80ms:", p)
	// Output:
	// 0s started
	// 33ms appended
	// 35ms appended
	// 38ms merged
	// 66ms merged
	// 100ms teleported
	// at 80ms: {500 0 0}
}

// A gamemode move starts the history anew: a moment before it gives where the player
// was put, never a point on the way.
func ExampleWorld_MovePlayer() {
	w, _ := rewind.New(rewind.Config{Players: 1, Vehicles: 1})
	_ = w.AddPlayer(0, 0)
	_, _ = w.RecordPlayer(0, 0, rewind.Vec3{X: 0}, rewind.NoVehicle)
	_, _ = w.RecordPlayer(100*ms, 0, rewind.Vec3{X: 2}, rewind.NoVehicle)
	_ = w.MovePlayer(200*ms, 0, rewind.Vec3{X: 10})
	for _, at := range []time.Duration{50 * ms, 150 * ms, 250 * ms} {
		p, _ := w.PlayerAt(at, 0)
		fmt.Println(at, p)
	}
	// Output:
	// 50ms {10 0 0}
	// 150ms {10 0 0}
	// 250ms {10 0 0}
}
