package rewind

import (
	"errors"
	"testing"
	"time"
)

// The scene of most shot tests: shooter 0 stands at the origin and fires along +x;
// recipient 1 walks along +y at 10 m/s through x = 50, crossing the ray at t = 1 s.
func walkingScene(t *testing.T, shooterRTT time.Duration) (*World, time.Duration) {
	t.Helper()
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddPlayer(0, 1))
	must2[RecordVerdict](t)(w.RecordPlayer(0, 0, Vec3{0, 0, 0}, NoVehicle))
	var now time.Duration
	if shooterRTT > 0 {
		setRTT(t, w, &now, 0, shooterRTT)
	}
	walk(t, w, 1, 0, 2*time.Second, func(at time.Duration) Vec3 {
		return Vec3{50, float32(at-time.Second) / float32(100*ms), 0}
	})
	return w, max(now, 2*time.Second)
}

// walk records player id every 33 ms from `from` to `to` along path.
func walk(t *testing.T, w *World, id PlayerID, from, to time.Duration, path func(time.Duration) Vec3) {
	t.Helper()
	for at := from; at <= to; at += 33 * ms {
		if at < w.Now() {
			continue
		}
		must2[RecordVerdict](t)(w.RecordPlayer(at, id, path(at), NoVehicle))
	}
}

var alongX = Ray{Kind: WeaponRay, Direction: Vec3{1, 0, 0}, Length: 100}

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

func TestRewindGoesBackByTheShooterRTT(t *testing.T) {
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddPlayer(0, 1))
	var now time.Duration
	setRTT(t, w, &now, 0, 150*ms)
	// The walker crosses the ray (x = 50) at 1.005 s; the shot comes at 1.155 s, when it
	// is 1.5 m past it.
	walk(t, w, 1, now, 1155*ms, func(at time.Duration) Vec3 { return Vec3{50, float32(at-1005*ms) / float32(100*ms), 0} })
	must2[RecordVerdict](t)(w.RecordPlayer(1155*ms, 1, Vec3{50, 1.5, 0}, NoVehicle))
	res := shoot(t, w, 1155*ms, 0, alongX)
	if res.Verdict != ShotRewound || res.Back != 150*ms || res.At != 1005*ms {
		t.Fatalf("result %v back %v at %v, want rewound by 150ms to 1.005s", res.Verdict, res.Back, res.At)
	}
	r := only(t, res)
	if r.Player != 1 || r.Verdict != RewoundOnFoot || !near(r.Position, Vec3{50, 0, 0}, 1e-4) || r.Distance > 1e-4 {
		t.Errorf("recipient %+v, want player 1 rewound onto the ray at {50 0 0}", r)
	}
}

func TestRewindIsCappedAt400msWithAOneSecondRTT(t *testing.T) {
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddPlayer(0, 1))
	var now time.Duration
	setRTT(t, w, &now, 0, time.Second)
	// The walker is on the ray at 5.0 s and fires happen at 5.4 s (RTT says 4.4 s).
	walk(t, w, 1, now, 6*time.Second, func(at time.Duration) Vec3 { return Vec3{50, float32(at-5*time.Second) / float32(100*ms), 0} })
	fire := w.Now()
	res := shoot(t, w, fire, 0, Ray{Kind: WeaponRay, Origin: Vec3{0, float32(fire-RewindCap-5*time.Second) / float32(100*ms), 0}, Direction: Vec3{1, 0, 0}, Length: 100})
	if res.Back != RewindCap || res.At != fire-RewindCap {
		t.Fatalf("back %v at %v, want the cap %v", res.Back, res.At, RewindCap)
	}
	r := only(t, res)
	want := must2[Vec3](t)(w.PlayerAt(fire-RewindCap, 1))
	if r.Position != want || r.Distance > 1e-3 {
		t.Errorf("recipient at %v (distance %v), want the path at now-400ms %v", r.Position, r.Distance, want)
	}
	// Where it stood a full second ago is 6 m off that ray: not near, not rewound there.
	if back1s := must2[Vec3](t)(w.PlayerAt(fire-time.Second, 1)); dist2(back1s, r.Position) < 5.9*5.9 {
		t.Errorf("the rewind went further than the cap: %v vs %v", back1s, r.Position)
	}
}

func TestHoldingBackPongsRewindsAtMostTheCap(t *testing.T) {
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	var now time.Duration
	for range RTTWindow {
		seq := must2[uint16](t)(w.Ping(now, 0))
		now += RTTCap // the cheat answers as late as it can and still count
		must2[PongVerdict](t)(w.Pong(now, 0, seq))
	}
	if got, _ := w.RTT(0); got != RTTCap {
		t.Fatalf("RTT %v, want %v", got, RTTCap)
	}
	res := shoot(t, w, now, 0, alongX)
	if res.Back != RewindCap {
		t.Errorf("a 2 s RTT rewinds %v, want the cap %v", res.Back, RewindCap)
	}
}

func TestRecipientJustOutsideTheNearDistanceIsNotListed(t *testing.T) {
	for _, c := range []struct {
		name   string
		y      float32
		seat   bool
		listed bool
	}{
		{"on foot, at the near distance", DefaultNearDistance, false, true},
		{"on foot, just outside", DefaultNearDistance + 0.01, false, false},
		{"in a vehicle, at the vehicle near distance", DefaultVehicleNearDistance, true, true},
		{"in a vehicle, just outside", DefaultVehicleNearDistance + 0.01, true, false},
		{"on foot, beyond the on-foot distance but within the vehicle one", DefaultNearDistance + 1, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := mustWorld(t, Config{Players: 8, Vehicles: 8})
			must(t, w.AddPlayer(0, 0))
			must(t, w.AddPlayer(0, 1))
			must(t, w.AddVehicle(0, 3, Pose{Position: Vec3{60, c.y, 0}, Rotation: identity}))
			seat := NoVehicle
			if c.seat {
				seat = 3
			}
			must2[RecordVerdict](t)(w.RecordPlayer(0, 1, Vec3{60, c.y, 0}, seat))
			res := shoot(t, w, 10*ms, 0, alongX)
			if got := len(res.Recipients) == 1; got != c.listed {
				t.Errorf("listed = %v (%+v), want %v", got, res.Recipients, c.listed)
			}
		})
	}
}

func TestNearnessIsJudgedAtTheRewoundPosition(t *testing.T) {
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	for id := PlayerID(0); id < 3; id++ {
		must(t, w.AddPlayer(0, id))
	}
	var now time.Duration
	setRTT(t, w, &now, 0, 300*ms)
	start := now
	// Player 1 stood on the ray 300 ms ago and ran 30 m/s away since (9 m off now).
	// Player 2 stood 9 m off 300 ms ago and is on the ray now.
	for at := start; at <= start+time.Second; at += 10 * ms {
		run := max(0, float32(at-start-700*ms)/float32(1000*ms/30))
		must2[RecordVerdict](t)(w.RecordPlayer(at, 1, Vec3{40, run, 0}, NoVehicle))
		must2[RecordVerdict](t)(w.RecordPlayer(at, 2, Vec3{70, 9 - run, 0}, NoVehicle))
	}
	fire := w.Now()
	res := shoot(t, w, fire, 0, alongX)
	r := only(t, res)
	if r.Player != 1 || r.Distance > 1e-3 {
		t.Errorf("recipient %+v, want player 1 (on the ray when the shooter saw it)", r)
	}
}

func TestRecipientInAVehicleIsRewoundWithIt(t *testing.T) {
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddPlayer(0, 1))
	must(t, w.AddVehicle(0, 5, Pose{Position: Vec3{30, -20, 0}, Rotation: identity}))
	var now time.Duration
	setRTT(t, w, &now, 0, 200*ms)
	// The car drives along +y at 20 m/s, turning; it crosses the ray at t0.
	t0 := now + time.Second
	path := func(at time.Duration) Pose {
		s := float32(at-t0) / float32(50*ms) // 20 m/s
		return Pose{Position: Vec3{30, s, 0}, Rotation: yaw(float64(s))}
	}
	for at := now; at <= t0+200*ms; at += 33 * ms {
		p := path(at)
		must2[RecordVerdict](t)(w.RecordVehicle(at, 5, p))
		must2[RecordVerdict](t)(w.RecordPlayer(at, 1, p.Position, 5))
	}
	fire := w.Now()
	res := shoot(t, w, fire, 0, alongX)
	r := only(t, res)
	if r.Verdict != RewoundInVehicle || r.Vehicle != 5 {
		t.Fatalf("recipient %+v, want rewound in vehicle 5", r)
	}
	wantPose := must2[Pose](t)(w.VehicleAt(fire-200*ms, 5))
	if r.VehiclePose != wantPose || r.Position != must2[Vec3](t)(w.PlayerAt(fire-200*ms, 1)) {
		t.Errorf("recipient %+v, want its own and its vehicle's pose at now-200ms (%v)", r, wantPose)
	}
	if present := must2[Pose](t)(w.VehicleAt(fire, 5)); present == r.VehiclePose {
		t.Errorf("the vehicle pose sent is the present one")
	}
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

func TestShooterOwnVehicleIsNotRewound(t *testing.T) {
	w, now := seatedScene(t, 5) // a drive-by from the passenger seat at the driver
	r := only(t, shoot(t, w, now, 0, Ray{Kind: WeaponRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10}))
	present := must2[Pose](t)(w.VehicleAt(now, 5))
	if r.Verdict != InShooterVehicle || r.VehiclePose != present || r.Position != present.Position {
		t.Errorf("recipient %+v, want its present pose %v in the shooter's vehicle", r, present)
	}
	if r.Verdict.Rewound() {
		t.Error("InShooterVehicle counts as rewound")
	}
	// The same scene with the shooter on foot rewinds the vehicle.
	w, now = seatedScene(t, NoVehicle)
	r = only(t, shoot(t, w, now, 0, Ray{Kind: WeaponRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10}))
	if r.Verdict != RewoundInVehicle || r.VehiclePose != must2[Pose](t)(w.VehicleAt(now-300*ms, 5)) {
		t.Errorf("recipient %+v, want rewound in its vehicle", r)
	}
}

func TestTheVehicleThatFiredIsTheShootersOwnWhateverItsNewestFrameSays(t *testing.T) {
	// The shooter's newest frame has it on foot, but the shot is its vehicle's guns,
	// fired from vehicle 5 just before it got out: the passenger is not rewound.
	w, now := seatedScene(t, NoVehicle)
	ray := Ray{Kind: VehicleGunRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10, FromVehicle: true, Vehicle: 5}
	r := only(t, shoot(t, w, now, 0, ray))
	if present := must2[Pose](t)(w.VehicleAt(now, 5)); r.Verdict != InShooterVehicle || r.VehiclePose != present {
		t.Errorf("recipient %+v, want its present pose in the shooter's vehicle", r)
	}
	ray.FromVehicle = false
	if r := only(t, shoot(t, w, now, 0, ray)); r.Verdict != RewoundInVehicle {
		t.Errorf("without FromVehicle: %v, want rewound in its vehicle", r.Verdict)
	}
	for _, bad := range []VehicleID{7, 9999} {
		ray.FromVehicle, ray.Vehicle = true, bad
		if _, err := w.Shot(now, 0, ray, nil); !errors.Is(err, ErrUnknownVehicle) && !errors.Is(err, ErrVehicleRange) {
			t.Errorf("fired from vehicle %d: %v", bad, err)
		}
	}
}

func TestFrozenVehicleIsNotRewound(t *testing.T) {
	w, now := seatedScene(t, NoVehicle)
	// Frozen a moment ago: the history starts anew there, and the vehicle is not rewound
	// while frozen even to the epoch's first sample.
	must(t, w.FreezeVehicle(now, 5, true))
	present := must2[Pose](t)(w.VehicleAt(now, 5))
	r := only(t, shoot(t, w, now+10*ms, 0, Ray{Kind: WeaponRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10}))
	if r.Verdict != InFrozenVehicle || r.VehiclePose != present || r.Position != must2[Vec3](t)(w.PlayerAt(now, 1)) {
		t.Errorf("recipient %+v, want its present pose %v in a frozen vehicle", r, present)
	}
	must(t, w.FreezeVehicle(now+20*ms, 5, false))
	r = only(t, shoot(t, w, now+30*ms, 0, Ray{Kind: WeaponRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10}))
	if r.Verdict != RewoundInVehicle {
		t.Errorf("after unfreezing: %v, want rewound in vehicle", r.Verdict)
	}
}

func TestWreckedVehicleIsNotRewound(t *testing.T) {
	w, now := seatedScene(t, NoVehicle)
	must(t, w.WreckVehicle(now, 5))
	present := must2[Pose](t)(w.VehicleAt(now, 5))
	r := only(t, shoot(t, w, now, 0, Ray{Kind: WeaponRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10}))
	if r.Verdict != InWreckedVehicle || r.VehiclePose != present {
		t.Errorf("recipient %+v, want its present pose %v in a wrecked vehicle", r, present)
	}
	must(t, w.RespawnVehicle(now+time.Second, 5, Pose{Position: Vec3{31, 0, 0}, Rotation: identity}))
	must2[RecordVerdict](t)(w.RecordPlayer(now+time.Second, 1, Vec3{31, 0, 0}, 5))
	r = only(t, shoot(t, w, now+time.Second, 0, Ray{Kind: WeaponRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10}))
	if r.Verdict != RewoundInVehicle {
		t.Errorf("after the respawn: %v, want rewound in vehicle", r.Verdict)
	}
}

func TestVehicleControlledWithoutSittingInItIsNotRewound(t *testing.T) {
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddPlayer(0, 1))
	must(t, w.AddVehicle(0, 2, Pose{Position: Vec3{40, 0, 0}, Rotation: identity}))
	var now time.Duration
	setRTT(t, w, &now, 0, 200*ms)
	// Player 1 stands by the ray and syncs vehicle 2 (an empty car it pushes, an RC toy)
	// without sitting in it: its frames say NoVehicle.
	for at := now; at <= now+time.Second; at += 33 * ms {
		must2[RecordVerdict](t)(w.RecordVehicle(at, 2, Pose{Position: Vec3{40 + float32(at-now)/float32(100*ms), 0, 0}, Rotation: identity}))
		must2[RecordVerdict](t)(w.RecordPlayer(at, 1, Vec3{38, 1, 0}, NoVehicle))
	}
	r := only(t, shoot(t, w, w.Now(), 0, alongX))
	if r.Verdict != RewoundOnFoot || r.Vehicle != NoVehicle || r.VehiclePose != (Pose{}) {
		t.Errorf("recipient %+v, want rewound on foot with no vehicle", r)
	}
}

func TestVehicleGunRayRewindsLikeWeaponRay(t *testing.T) {
	w, now := seatedScene(t, NoVehicle)
	ray := Ray{Kind: WeaponRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10}
	a := shoot(t, w, now, 0, ray)
	ray.Kind = VehicleGunRay
	b := shoot(t, w, now, 0, ray)
	if a.Verdict != ShotRewound || b.Verdict != a.Verdict || b.At != a.At || len(b.Recipients) != 1 || b.Recipients[0] != a.Recipients[0] {
		t.Errorf("vehicle gun %+v, weapon %+v: want the same rewind", b, a)
	}
}

func TestRhinoCannonRayRewindsNobody(t *testing.T) {
	w, now := seatedScene(t, NoVehicle)
	res := shoot(t, w, now, 0, Ray{Kind: CannonRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10})
	if res.Verdict != ShotCannon || res.Back != 0 || res.At != now || len(res.Recipients) != 0 {
		t.Errorf("cannon shot %+v, want no rewind and no recipients", res)
	}
}

func TestShooterIsNeverARecipient(t *testing.T) {
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddPlayer(0, 1))
	must2[RecordVerdict](t)(w.RecordPlayer(0, 0, Vec3{1, 0, 0}, NoVehicle)) // on its own ray
	must2[RecordVerdict](t)(w.RecordPlayer(0, 1, Vec3{2, 0, 0}, NoVehicle))
	r := only(t, shoot(t, w, 0, 0, alongX))
	if r.Player != 1 {
		t.Errorf("recipient %d, want 1", r.Player)
	}
}

func TestShotWithoutRTTGivesPresentPoses(t *testing.T) {
	w, now := walkingScene(t, 0)
	must2[RecordVerdict](t)(w.RecordPlayer(now, 1, Vec3{50, 3, 0}, NoVehicle))
	res := shoot(t, w, now, 0, alongX)
	if res.Verdict != ShotNoRTT || res.Back != 0 || res.At != now {
		t.Fatalf("result %+v, want no RTT and no rewind", res)
	}
	if r := only(t, res); r.Position != (Vec3{50, 3, 0}) {
		t.Errorf("recipient at %v, want its present position", r.Position)
	}
}

func TestPlayersWithoutPositionAreNotRecipients(t *testing.T) {
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddPlayer(0, 1))
	if res := shoot(t, w, 0, 0, alongX); len(res.Recipients) != 0 {
		t.Errorf("recipients %+v, want none", res.Recipients)
	}
}

func TestRemovingAVehicleLeavesItsOccupantsOnFoot(t *testing.T) {
	w, now := seatedScene(t, NoVehicle)
	must(t, w.RemoveVehicle(now, 5))
	if seat := must2[VehicleID](t)(w.Seat(1)); seat != NoVehicle {
		t.Errorf("seat %d after the vehicle was removed, want none", seat)
	}
	r := only(t, shoot(t, w, now, 0, Ray{Kind: WeaponRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10}))
	if r.Verdict != RewoundOnFoot || r.Vehicle != NoVehicle {
		t.Errorf("recipient %+v, want on foot", r)
	}
	if _, err := w.RecordPlayer(now, 1, Vec3{}, 5); !errors.Is(err, ErrUnknownVehicle) {
		t.Errorf("a frame seated in the removed vehicle: %v, want ErrUnknownVehicle", err)
	}
}

func TestOnePoseForEveryone(t *testing.T) {
	w, now := seatedScene(t, NoVehicle)
	must(t, w.AddPlayer(now, 2))
	must2[RecordVerdict](t)(w.RecordPlayer(now, 2, Vec3{35, 1, 0}, NoVehicle))
	ray := Ray{Kind: WeaponRay, Origin: Vec3{29, 0, 0}, Direction: Vec3{1, 0, 0}, Length: 10}
	before := w.clone()
	res := shoot(t, w, now, 0, ray)
	if !sameState(before, w) {
		t.Fatal("a shot changed the world")
	}
	if len(res.Recipients) != 2 {
		t.Fatalf("recipients %+v, want 2", res.Recipients)
	}
	// What the recipient is sent is what the accessors say at the shot's moment, and a
	// second look (for attribution or a detector) gives the same value, bit for bit.
	again := shoot(t, w, now, 0, ray)
	for i, r := range res.Recipients {
		if r != again.Recipients[i] {
			t.Errorf("second look at recipient %d: %+v, first %+v", r.Player, again.Recipients[i], r)
		}
		if r.Position != must2[Vec3](t)(w.PlayerAt(res.At, r.Player)) {
			t.Errorf("recipient %d position %v is not its path at %v", r.Player, r.Position, res.At)
		}
		if r.Vehicle != NoVehicle && r.VehiclePose != must2[Pose](t)(w.VehicleAt(res.At, r.Vehicle)) {
			t.Errorf("recipient %d vehicle pose %v is not the vehicle's at %v", r.Player, r.VehiclePose, res.At)
		}
	}
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
