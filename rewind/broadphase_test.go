package rewind

import (
	"reflect"
	"testing"
	"time"
)

// allKinds is the population mix of the differential test: every kind of mover.
var allKinds = []int{idle, walker, walker, walker, driver, driver, passenger, passenger, jet, shaker, flooder, teleporter}

func TestBroadphaseMatchesBruteForceOnRandomWorlds(t *testing.T) {
	type tally struct{ shots, recipients, far, inVehicle, notRewound, cannon int }
	var total tally
	for _, seed := range seeds(t, 12) {
		area := []float64{150, 600, 3000}[seed%3]
		s := newSim(t, seed, 150+int(seed%5)*30, area, allKinds)
		bufA := make([]Recipient, 0, MaxPlayers)
		bufB := make([]Recipient, 0, MaxPlayers)
		for step := range 1500 {
			s.step(time.Duration(1+s.r.IntN(3)) * time.Millisecond)
			if step%200 == 0 {
				if err := s.w.checkInvariants(); err != nil {
					t.Fatalf("seed %d step %d: %v", seed, step, err)
				}
			}
			if step%5 != 0 {
				continue
			}
			for range 4 {
				shooter := PlayerID(s.r.IntN(len(s.movers)))
				ray := s.ray()
				got, err := s.w.Shot(s.now, shooter, ray, bufA)
				if err != nil {
					t.Fatalf("seed %d: Shot: %v", seed, err)
				}
				want, err := s.w.shotNaive(s.now, shooter, ray, bufB)
				if err != nil {
					t.Fatalf("seed %d: naive: %v", seed, err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("seed %d step %d: shooter %d ray %+v:\nbroadphase %+v\nbrute force %+v", seed, step, shooter, ray, got, want)
				}
				total.shots++
				if got.Verdict == ShotCannon {
					total.cannon++
				}
				for k, r := range got.Recipients {
					total.recipients++
					checkRecipient(t, s.w, seed, shooter, got, r)
					if k > 0 && got.Recipients[k-1].Player >= r.Player {
						t.Fatalf("seed %d: recipients out of order: %+v", seed, got.Recipients)
					}
					if s.w.players[r.Player].level == farLevel {
						total.far++
					}
					if r.Vehicle != NoVehicle {
						total.inVehicle++
					}
					if !r.Verdict.Rewound() {
						total.notRewound++
					}
				}
			}
		}
		if err := s.w.checkInvariants(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	// The comparison means something only if the worlds produced every kind of answer.
	t.Logf("%+v", total)
	if total.recipients < 300 || total.far < 5 || total.inVehicle < 20 || total.notRewound < 2 || total.cannon < 30 {
		t.Errorf("the random worlds exercised too little: %+v", total)
	}
}

// checkRecipient verifies what every listed recipient must satisfy.
func checkRecipient(t *testing.T, w *World, seed uint64, shooter PlayerID, res ShotResult, r Recipient) {
	t.Helper()
	if r.Player == shooter {
		t.Fatalf("seed %d: the shooter %d is a recipient", seed, shooter)
	}
	limit := w.cfg.NearDistance
	if r.Vehicle != NoVehicle {
		limit = w.cfg.VehicleNearDistance
	}
	if r.Distance > limit {
		t.Fatalf("seed %d: recipient %+v beyond %v", seed, r, limit)
	}
	if r.Verdict.Rewound() {
		if p := must2[Vec3](t)(w.PlayerAt(res.At, r.Player)); p != r.Position {
			t.Fatalf("seed %d: recipient %+v not at its path at %v (%v)", seed, r, res.At, p)
		}
	} else if p := must2[Vec3](t)(w.PlayerAt(w.Now(), r.Player)); p != r.Position {
		t.Fatalf("seed %d: recipient %+v not at its present position %v", seed, r, p)
	}
	if r.Vehicle == NoVehicle {
		if r.Verdict != RewoundOnFoot || r.VehiclePose != (Pose{}) {
			t.Fatalf("seed %d: recipient on foot %+v", seed, r)
		}
		return
	}
	v := &w.vehicles[r.Vehicle]
	want := RewoundInVehicle
	switch {
	case r.Vehicle == w.players[shooter].seat:
		want = InShooterVehicle
	case v.frozen:
		want = InFrozenVehicle
	case v.wrecked:
		want = InWreckedVehicle
	}
	at := w.Now()
	if want == RewoundInVehicle {
		at = res.At
	}
	if r.Verdict != want || r.VehiclePose != v.poseAt(at) {
		t.Fatalf("seed %d: recipient %+v, want %v with the vehicle's pose at %v", seed, r, want, at)
	}
}

func TestFastMoverIsFoundWhereItWasNotWhereItIs(t *testing.T) {
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddPlayer(0, 1))
	must(t, w.AddVehicle(0, 1, Pose{Position: Vec3{-700, 50, 100}, Rotation: identity}))
	var now time.Duration
	setRTT(t, w, &now, 0, 400*ms)
	// A jet at 250 m/s along +x at y = 50, z = 100: 100 m in the rewound 400 ms, a ball
	// of 50 m about the middle of that path, more than the grid's widening. It crossed
	// x = -100 400 ms before the shot.
	start := now
	for at := start; at <= start+2*time.Second; at += 20 * ms {
		x := -500 + float32(at-start)/float32(time.Second)*250
		p := Pose{Position: Vec3{x, 50, 100}, Rotation: identity}
		must2[RecordVerdict](t)(w.RecordVehicle(at, 1, p))
		must2[RecordVerdict](t)(w.RecordPlayer(at, 1, p.Position, 1))
	}
	if w.players[1].level != farLevel {
		t.Fatalf("the jet (reach %.0f m) is not on the far list", w.reach(1))
	}
	fire := w.Now() // x = 0 at start + 2 s... the jet is at +0 m now; aim 400 ms back: x = -100
	ray := Ray{Kind: WeaponRay, Origin: Vec3{-100, 0, 100}, Direction: Vec3{0, 1, 0}, Length: 100}
	res := shoot(t, w, fire, 0, ray)
	r := only(t, res)
	if r.Player != 1 || r.Verdict != RewoundInVehicle || !near(r.Position, Vec3{-100, 50, 100}, 1e-3) {
		t.Errorf("recipient %+v, want the jet rewound to {-100 50 100}", r)
	}
}

func TestBroadphaseLooksAtFewPlayersPerShot(t *testing.T) {
	// 1000 walkers spread over 2 km: a 100 m ray must not make every one a candidate.
	const walkers = 1000
	s := newSim(t, 7, walkers, 2000, []int{walker})
	for range 300 {
		s.step(5 * ms)
	}
	q := query{seg: newSegment(Vec3{0, 0, 1}, Vec3{1, 1, 0}, 100), shooter: -1}
	s.w.collect(&q)
	n := s.w.candidates()
	clear(s.w.cand)
	if n > walkers/20 {
		t.Errorf("%d candidates of %d players for a 100 m ray", n, walkers)
	}
}

func TestBroadphaseWidensByTheVehicleNearDistance(t *testing.T) {
	// A car leaves the ray at 77.5 m/s: a path of 31 m over the rewound 400 ms keeps it
	// in the grid. 400 ms ago it was 9 m from the ray (within the vehicle distance, not
	// the on-foot one); now it is 40 m away, and the middle of its path 24.5 m: within
	// its need only with the vehicle distance (12 m + 15.5 m of reach), not with the
	// on-foot one (5 m + 15.5 m).
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddPlayer(0, 1))
	must(t, w.AddVehicle(0, 2, Pose{Position: Vec3{50, 0, 0}, Rotation: identity}))
	var now time.Duration
	setRTT(t, w, &now, 0, 400*ms)
	start := now
	for at := start; at <= start+time.Second; at += 20 * ms {
		y := 34 - 77.5*float32(start+600*ms-at)/float32(time.Second)
		p := Pose{Position: Vec3{50, max(y, 10), 0}, Rotation: identity}
		must2[RecordVerdict](t)(w.RecordVehicle(at, 2, p))
		must2[RecordVerdict](t)(w.RecordPlayer(at, 1, p.Position, 2))
	}
	if p := &w.players[1]; p.level != gridLevels-1 || p.nw.pos.Y < 64 {
		t.Fatalf("setup: the car is at %v with reach %v, in level %v", p.nw.pos, w.reach(1), p.level)
	}
	r := only(t, shoot(t, w, w.Now(), 0, Ray{Kind: WeaponRay, Origin: Vec3{0, 25, 0}, Direction: Vec3{1, 0, 0}, Length: 100}))
	if r.Player != 1 || r.Verdict != RewoundInVehicle || !near(r.Position, Vec3{50, 34, 0}, 1e-3) {
		t.Errorf("recipient %+v, want the car rewound to {50 34 0}", r)
	}
}

func TestBroadphaseFindsARecipientAtTheEdgeOfItsLevel(t *testing.T) {
	// A runner leaving the ray at 12 m/s: the ball of its rewound positions (about the
	// middle of its 4.8 m path, 2.4 m across) makes its need (5 m near + 2.4 m) nearly
	// fill the finest level's limit (7.5 m), and the ball's centre lies just past a cell
	// border that only the full widening reaches. 400 ms ago it was 4.99 m from the ray.
	w := mustWorld(t, Config{Players: 8, Vehicles: 8})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddPlayer(0, 1))
	var now time.Duration
	setRTT(t, w, &now, 0, 400*ms)
	const rayY = 8.7
	start := now
	for at := start; at <= start+time.Second; at += 20 * ms {
		y := rayY + 4.99 + 12*float32(at-(start+600*ms))/float32(time.Second)
		must2[RecordVerdict](t)(w.RecordPlayer(at, 1, Vec3{50, max(y, rayY+4.99), 0}, NoVehicle))
	}
	if p, c := &w.players[1], w.grid[1].centre; p.level != 0 || w.need(1) < w.levels[0].limit-0.2 || c.Y < 16 {
		t.Fatalf("setup: the runner is at %v, centre %v, reach %v, in level %d", p.nw.pos, c, w.reach(1), p.level)
	}
	r := only(t, shoot(t, w, w.Now(), 0, Ray{Kind: WeaponRay, Origin: Vec3{0, rayY, 0}, Direction: Vec3{1, 0, 0}, Length: 100}))
	if r.Player != 1 || r.Distance > 5 {
		t.Errorf("recipient %+v, want the runner 4.99 m from the ray", r)
	}
}

func TestShakingCheatIsBoundedByItsFarthestSampleNotItsPath(t *testing.T) {
	// A cheat jumping 20 m back and forth 128 times a second walks a path of a kilometre
	// in 400 ms while never being more than 20 m from where it stands: it stays in the
	// grid instead of costing every shot a rewind.
	w := mustWorld(t, Config{Players: 2, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	for i := range 256 {
		x := float32(20 * (i & 1))
		must2[RecordVerdict](t)(w.RecordPlayer(time.Duration(i)*MinSampleSpacing, 0, Vec3{x, 0, 0}, NoVehicle))
	}
	p := &w.players[0]
	tr := w.ptrack(0)
	if path := tr.s[tr.last&ringMask].cum - tr.s[tr.ws()&ringMask].cum; path < 1000 || w.reach(0) != 20 || p.level == farLevel {
		t.Errorf("path %v m, reach %v m, level %d: want a path over 1 km, reach 20 m, in the grid", path, w.reach(0), p.level)
	}
}
