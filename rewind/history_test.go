package rewind

import (
	"fmt"
	"math"
	"testing"
	"time"
)

func TestRewindInterpolatesBetweenTwoSamples(t *testing.T) {
	w := mustWorld(t, Config{Players: 4, Vehicles: 4})
	must(t, w.AddPlayer(0, 1))
	must(t, w.AddVehicle(0, 2, Pose{Position: Vec3{0, 0, 0}, Rotation: identity}))
	must2[RecordVerdict](t)(w.RecordPlayer(0, 1, Vec3{0, 0, 0}, NoVehicle))
	must2[RecordVerdict](t)(w.RecordPlayer(100*ms, 1, Vec3{10, -4, 2}, NoVehicle))
	must2[RecordVerdict](t)(w.RecordVehicle(100*ms, 2, Pose{Position: Vec3{20, 0, 0}, Rotation: yaw(90)}))

	for _, c := range []struct {
		at   time.Duration
		want Vec3
	}{
		{0, Vec3{0, 0, 0}},
		{25 * ms, Vec3{2.5, -1, 0.5}},
		{50 * ms, Vec3{5, -2, 1}},
		{75 * ms, Vec3{7.5, -3, 1.5}},
		{100 * ms, Vec3{10, -4, 2}},
	} {
		got := must2[Vec3](t)(w.PlayerAt(c.at, 1))
		if !near(got, c.want, 1e-6) {
			t.Errorf("PlayerAt(%v) = %v, want %v", c.at, got, c.want)
		}
	}
	pose := must2[Pose](t)(w.VehicleAt(50*ms, 2))
	if !near(pose.Position, Vec3{10, 0, 0}, 1e-6) {
		t.Errorf("vehicle position halfway = %v, want {10 0 0}", pose.Position)
	}
	if want := yaw(45); math.Abs(float64(pose.Rotation.W-want.W)) > 1e-6 || math.Abs(float64(pose.Rotation.Z-want.Z)) > 1e-6 ||
		pose.Rotation.X != 0 || pose.Rotation.Y != 0 {
		t.Errorf("vehicle rotation halfway = %v, want %v", pose.Rotation, want)
	}
}

func TestRotationIsInterpolatedAlongTheShorterArc(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	// 170° and -170° (stored as a quaternion of the opposite sign) are 20° apart: halfway
	// is 180°, not 0°.
	must(t, w.AddVehicle(0, 0, Pose{Rotation: yaw(170)}))
	neg := yaw(-170)
	must2[RecordVerdict](t)(w.RecordVehicle(100*ms, 0, Pose{Rotation: neg}))
	got := must2[Pose](t)(w.VehicleAt(50*ms, 0)).Rotation
	if math.Abs(float64(got.W)) > 1e-6 || math.Abs(math.Abs(float64(got.Z))-1) > 1e-6 {
		t.Errorf("halfway between 170° and -170° = %v, want ±{0 0 0 1} (180°)", got)
	}
}

func TestRewindToNowReturnsThePresentPose(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	must(t, w.AddVehicle(0, 0, Pose{Rotation: identity}))
	must2[RecordVerdict](t)(w.RecordPlayer(10*ms, 0, Vec3{1, 2, 3}, NoVehicle))
	must2[RecordVerdict](t)(w.RecordPlayer(43*ms, 0, Vec3{1.1, 2.2, 3.3}, NoVehicle))
	must2[RecordVerdict](t)(w.RecordVehicle(43*ms, 0, Pose{Position: Vec3{7, 8, 9}, Rotation: yaw(33)}))
	for _, at := range []time.Duration{43 * ms, 44 * ms, time.Hour} {
		if got := must2[Vec3](t)(w.PlayerAt(at, 0)); got != (Vec3{1.1, 2.2, 3.3}) {
			t.Errorf("PlayerAt(%v) = %v, want the newest sample exactly", at, got)
		}
		if got := must2[Pose](t)(w.VehicleAt(at, 0)); got != (Pose{Vec3{7, 8, 9}, yaw(33)}) {
			t.Errorf("VehicleAt(%v) = %v, want the newest pose exactly", at, got)
		}
	}
}

func TestMomentBeforeTheEpochReturnsItsFirstSample(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	must(t, w.RespawnPlayer(500*ms, 0, Vec3{4, 4, 4}))
	must2[RecordVerdict](t)(w.RecordPlayer(600*ms, 0, Vec3{5, 4, 4}, NoVehicle))
	for _, at := range []time.Duration{0, 100 * ms, 499 * ms, 500 * ms} {
		if got := must2[Vec3](t)(w.PlayerAt(at, 0)); got != (Vec3{4, 4, 4}) {
			t.Errorf("PlayerAt(%v) = %v, want the epoch's first sample {4 4 4}", at, got)
		}
	}
}

// restartCases are the discontinuities that start a player's history anew, each with
// where the entity stands afterwards.
var restartCases = []struct {
	name    string
	to      Vec3
	restart func(w *World, now time.Duration, to Vec3) error
}{
	{"gamemode move", Vec3{9, 3, 0}, func(w *World, now time.Duration, to Vec3) error { return w.MovePlayer(now, 0, to) }},
	{"respawn", Vec3{9, 3, 0}, func(w *World, now time.Duration, to Vec3) error { return w.RespawnPlayer(now, 0, to) }},
	{"teleport", Vec3{9, 3 + DefaultTeleportDistance, 0}, func(w *World, now time.Duration, to Vec3) error {
		v, err := w.RecordPlayer(now, 0, to, NoVehicle)
		if err == nil && v != Teleported {
			return fmt.Errorf("a jump beyond the teleport distance was %v", v)
		}
		return err
	}},
	{"freeze", Vec3{9, 3, 0}, func(w *World, now time.Duration, to Vec3) error {
		if _, err := w.RecordPlayer(now, 0, to, NoVehicle); err != nil {
			return err
		}
		return w.FreezePlayer(now, 0, true)
	}},
}

func TestGamemodeMoveIsNotInterpolatedAcross(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	must2[RecordVerdict](t)(w.RecordPlayer(0, 0, Vec3{0, 0, 0}, NoVehicle))
	must2[RecordVerdict](t)(w.RecordPlayer(100*ms, 0, Vec3{1, 0, 0}, NoVehicle))
	// A short move, well under the teleport distance: still no interpolation across it.
	must(t, w.MovePlayer(150*ms, 0, Vec3{5, 0, 0}))
	must2[RecordVerdict](t)(w.RecordPlayer(200*ms, 0, Vec3{6, 0, 0}, NoVehicle))
	for _, c := range []struct {
		at   time.Duration
		want Vec3
	}{
		{50 * ms, Vec3{5, 0, 0}},  // before the move: the new epoch's first sample
		{125 * ms, Vec3{5, 0, 0}}, // between the last old sample and the move: not {3 0 0}
		{150 * ms, Vec3{5, 0, 0}},
		{175 * ms, Vec3{5.5, 0, 0}}, // within the new epoch: interpolated
	} {
		if got := must2[Vec3](t)(w.PlayerAt(c.at, 0)); !near(got, c.want, 1e-6) {
			t.Errorf("PlayerAt(%v) = %v, want %v", c.at, got, c.want)
		}
	}
}

func TestEveryDiscontinuityStartsTheHistoryAnew(t *testing.T) {
	for _, c := range restartCases {
		t.Run(c.name, func(t *testing.T) {
			w := mustWorld(t, Config{Players: 1, Vehicles: 1})
			must(t, w.AddPlayer(0, 0))
			for i := range 10 {
				must2[RecordVerdict](t)(w.RecordPlayer(time.Duration(i)*33*ms, 0, Vec3{float32(i), 0, 0}, NoVehicle))
			}
			to := c.to
			must(t, c.restart(w, 400*ms, to))
			must2[RecordVerdict](t)(w.RecordPlayer(500*ms, 0, Vec3{to.X, to.Y + 1, 0}, NoVehicle))
			for _, at := range []time.Duration{0, 200 * ms, 350 * ms, 399 * ms, 400 * ms} {
				if got := must2[Vec3](t)(w.PlayerAt(at, 0)); got != to {
					t.Errorf("PlayerAt(%v) = %v, want the new epoch's first sample %v", at, got, to)
				}
			}
			if want := (Vec3{to.X, to.Y + 0.5, 0}); !near(must2[Vec3](t)(w.PlayerAt(450*ms, 0)), want, 1e-6) {
				t.Errorf("PlayerAt(450ms) = %v, want %v within the new epoch", must2[Vec3](t)(w.PlayerAt(450*ms, 0)), want)
			}
			if tr := &w.ptracks[0]; tr.last-tr.first != 1 {
				t.Errorf("the new epoch holds %d samples, want 2", tr.last-tr.first+1)
			}
		})
	}
}

func TestUnfreezeStartsTheHistoryAnewToo(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	must2[RecordVerdict](t)(w.RecordPlayer(0, 0, Vec3{0, 0, 0}, NoVehicle))
	must(t, w.FreezePlayer(10*ms, 0, true))
	e := w.ptracks[0].epoch
	must(t, w.FreezePlayer(20*ms, 0, true)) // no change: no new epoch
	if w.ptracks[0].epoch != e {
		t.Errorf("freezing a frozen player started a new epoch")
	}
	must2[RecordVerdict](t)(w.RecordPlayer(30*ms, 0, Vec3{1, 0, 0}, NoVehicle))
	must(t, w.FreezePlayer(40*ms, 0, false))
	if w.ptracks[0].epoch != e+1 {
		t.Errorf("unfreezing did not start a new epoch")
	}
	if got := must2[Vec3](t)(w.PlayerAt(35*ms, 0)); got != (Vec3{1, 0, 0}) {
		t.Errorf("PlayerAt before the unfreeze = %v, want where it stood {1 0 0}", got)
	}
}

func TestVehicleMoveFreezeAndRespawnStartItsHistoryAnew(t *testing.T) {
	for _, c := range []struct {
		name    string
		restart func(w *World, now time.Duration) error
		to      Pose
	}{
		{"gamemode move", func(w *World, now time.Duration) error {
			return w.MoveVehicle(now, 0, Pose{Position: Vec3{50, 0, 0}, Rotation: yaw(90)})
		}, Pose{Position: Vec3{50, 0, 0}, Rotation: yaw(90)}},
		{"freeze", func(w *World, now time.Duration) error { return w.FreezeVehicle(now, 0, true) },
			Pose{Position: Vec3{9, 0, 0}, Rotation: yaw(9)}},
		{"respawn", func(w *World, now time.Duration) error {
			return w.RespawnVehicle(now, 0, Pose{Position: Vec3{-3, 0, 0}, Rotation: identity})
		}, Pose{Position: Vec3{-3, 0, 0}, Rotation: identity}},
		{"teleport", func(w *World, now time.Duration) error {
			v, err := w.RecordVehicle(now, 0, Pose{Position: Vec3{100, 0, 0}, Rotation: yaw(9)})
			if err == nil && v != Teleported {
				t.Errorf("a 91 m jump was %v, want teleported", v)
			}
			return err
		}, Pose{Position: Vec3{100, 0, 0}, Rotation: yaw(9)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := mustWorld(t, Config{Players: 1, Vehicles: 1})
			must(t, w.AddVehicle(0, 0, Pose{Rotation: identity}))
			for i := 1; i <= 9; i++ {
				must2[RecordVerdict](t)(w.RecordVehicle(time.Duration(i)*33*ms, 0, Pose{Position: Vec3{float32(i), 0, 0}, Rotation: yaw(float64(i))}))
			}
			must(t, c.restart(w, 300*ms))
			for _, at := range []time.Duration{0, 150 * ms, 299 * ms, 300 * ms, time.Second} {
				got := must2[Pose](t)(w.VehicleAt(at, 0))
				if !near(got.Position, c.to.Position, 1e-6) || math.Abs(float64(got.Rotation.W-c.to.Rotation.W)) > 1e-6 {
					t.Errorf("VehicleAt(%v) = %v, want the new epoch's first pose %v", at, got, c.to)
				}
			}
		})
	}
}

func TestJumpBeyondTheTeleportDistanceStartsANewEpoch(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1, TeleportDistance: 10})
	must(t, w.AddPlayer(0, 0))
	if v := must2[RecordVerdict](t)(w.RecordPlayer(0, 0, Vec3{0, 0, 0}, NoVehicle)); v != Started {
		t.Errorf("first sample: %v, want started", v)
	}
	if v := must2[RecordVerdict](t)(w.RecordPlayer(100*ms, 0, Vec3{6, 8, 0}, NoVehicle)); v != Appended {
		t.Errorf("a jump of exactly the teleport distance: %v, want appended", v)
	}
	if v := must2[RecordVerdict](t)(w.RecordPlayer(200*ms, 0, Vec3{6, 18.01, 0}, NoVehicle)); v != Teleported {
		t.Errorf("a jump just beyond the teleport distance: %v, want teleported", v)
	}
	if got := must2[Vec3](t)(w.PlayerAt(150*ms, 0)); got != (Vec3{6, 18.01, 0}) {
		t.Errorf("PlayerAt across the teleport = %v, want the new epoch's first sample", got)
	}
	if got := must2[Vec3](t)(w.PlayerAt(50*ms, 0)); got != (Vec3{6, 18.01, 0}) {
		t.Errorf("PlayerAt in the old epoch = %v, want the new epoch's first sample", got)
	}
}

func TestFramesFasterThanMaxFrameRateAreMergedAndTheHistoryStillCoversTheCap(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	// A client flooding 1000 frames a second, moving at 10 m/s along x.
	counts := map[RecordVerdict]int{}
	var now time.Duration
	for i := range 3000 {
		now = time.Duration(i) * time.Millisecond
		counts[must2[RecordVerdict](t)(w.RecordPlayer(now, 0, Vec3{float32(i) / 100, 0, 0}, NoVehicle))]++
	}
	if counts[Merged] < 2000 {
		t.Errorf("verdicts %v: a 1 kHz flood should mostly merge", counts)
	}
	tr := &w.ptracks[0]
	if span := tr.s[tr.last&ringMask].t - tr.s[tr.oldest()&ringMask].t; span < RewindCap {
		t.Errorf("the history spans %v, less than RewindCap", span)
	}
	for _, back := range []time.Duration{0, 100 * ms, 250 * ms, 399 * ms, RewindCap} {
		at := now - back
		want := Vec3{float32(at/time.Millisecond) / 100, 0, 0}
		if got := must2[Vec3](t)(w.PlayerAt(at, 0)); !near(got, want, 1e-3) {
			t.Errorf("PlayerAt(now-%v) = %v, want %v", back, got, want)
		}
	}
	must(t, w.checkInvariants())
}

func TestHistoryAt128HzKeepsEveryFrameAndCoversTheCap(t *testing.T) {
	w := mustWorld(t, Config{Players: 1, Vehicles: 1})
	must(t, w.AddPlayer(0, 0))
	var now time.Duration
	for i := range 256 {
		now = time.Duration(i) * MinSampleSpacing
		v := must2[RecordVerdict](t)(w.RecordPlayer(now, 0, Vec3{float32(i), 0, 0}, NoVehicle))
		if i > 0 && v != Appended {
			t.Fatalf("frame %d at 128 Hz: %v, want appended", i, v)
		}
	}
	tr := &w.ptracks[0]
	if span := tr.s[tr.last&ringMask].t - tr.s[tr.oldest()&ringMask].t; span != (HistoryDepth-1)*MinSampleSpacing || span < RewindCap {
		t.Errorf("span %v, want %v (≥ %v)", span, (HistoryDepth-1)*MinSampleSpacing, RewindCap)
	}
	// now-400ms lies 51.2 frames back: between frames 204 and 205 of 255.
	if got := must2[Vec3](t)(w.PlayerAt(now-RewindCap, 0)); !near(got, Vec3{255 - 51.2, 0, 0}, 1e-3) {
		t.Errorf("PlayerAt(now-400ms) = %v, want {203.8 0 0}", got)
	}
}

func TestHistoryCoversTheCapAtAnyArrivalPattern(t *testing.T) {
	for _, seed := range seeds(t, 40) {
		r := rng(seed)
		w := mustWorld(t, Config{Players: 1, Vehicles: 1})
		must(t, w.AddPlayer(0, 0))
		var now time.Duration
		for range 2000 {
			// bursts, floods, honest rates and pauses, mixed
			switch r.IntN(4) {
			case 0:
				now += time.Duration(r.IntN(3)) * time.Millisecond
			case 1:
				now += time.Duration(r.IntN(10000)) * time.Microsecond
			case 2:
				now += 33 * ms
			default:
				now += time.Duration(r.IntN(200)) * time.Millisecond
			}
			must2[RecordVerdict](t)(w.RecordPlayer(now, 0, Vec3{float32(r.Float64()), 0, 0}, NoVehicle))
			tr := &w.ptracks[0]
			if tr.last-tr.first+1 >= HistoryDepth {
				if old := tr.s[tr.oldest()&ringMask].t; old > now-RewindCap {
					t.Fatalf("seed %d: the oldest kept sample is at %v, after now-400ms = %v", seed, old, now-RewindCap)
				}
			}
		}
		if err := w.checkInvariants(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}
