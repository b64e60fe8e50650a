package rewind

import (
	"testing"
	"time"
)

func TestHotPathsDoNotAllocate(t *testing.T) {
	s := newSim(t, 3, 200, 600, allKinds)
	for range 300 {
		s.step(2 * ms)
	}
	w := s.w
	buf := make([]Recipient, 0, MaxPlayers)
	rays := make([]Ray, 32)
	for i := range rays {
		rays[i] = s.ray()
	}
	now := s.now
	i := 0
	veh := VehicleID(0)
	for !w.vehicles[veh].added {
		veh++
	}
	pl := PlayerID(0)
	for !w.players[pl].has {
		pl++
	}
	for _, c := range []struct {
		name string
		call func()
	}{
		{"RecordPlayer", func() {
			now += time.Microsecond
			must2[RecordVerdict](t)(w.RecordPlayer(now, pl, s.vec(s.movers[pl].pos), s.movers[pl].seat))
		}},
		{"RecordVehicle", func() {
			now += time.Microsecond
			must2[RecordVerdict](t)(w.RecordVehicle(now, veh, Pose{Position: Vec3{1, 2, 3}, Rotation: yaw(10)}))
		}},
		{"PlayerAt", func() { must2[Vec3](t)(w.PlayerAt(now-100*ms, pl)) }},
		{"VehicleAt", func() { must2[Pose](t)(w.VehicleAt(now-100*ms, veh)) }},
		{"PlayerApproach", func() { must2[Approach](t)(w.PlayerApproach(now-500*ms, pl, Vec3{1, 2, 3})) }},
		{"VehicleApproach", func() { must2[Approach](t)(w.VehicleApproach(now-500*ms, veh, Vec3{1, 2, 3})) }},
		{"Shot", func() { i++; must2[ShotResult](t)(w.Shot(now, PlayerID(i%200), rays[i%32], buf)) }},
		{"Ping and Pong", func() {
			now += time.Microsecond
			seq := must2[uint16](t)(w.Ping(now, pl))
			must2[PongVerdict](t)(w.Pong(now, pl, seq))
		}},
	} {
		if n := testing.AllocsPerRun(200, c.call); n != 0 {
			t.Errorf("%s: %v allocations per call, want 0", c.name, n)
		}
	}
}
