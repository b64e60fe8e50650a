package rewind

import (
	"math"
	"runtime"
	"testing"
	"time"
)

// cpuMeter reports the benchmark's CPU time per op as the metric cpu-ns/op.
type cpuMeter struct {
	b     *testing.B
	start time.Duration
	ok    bool
}

// startCPU locks the benchmark to its thread and starts counting its CPU time; call it
// right before the b.Loop loop and stop right after it.
func startCPU(b *testing.B) *cpuMeter {
	runtime.LockOSThread()
	b.ReportAllocs()
	start, ok := threadCPU()
	return &cpuMeter{b: b, start: start, ok: ok}
}

func (m *cpuMeter) stop() {
	end, ok := threadCPU()
	runtime.UnlockOSThread()
	if m.ok && ok && m.b.N > 0 {
		m.b.ReportMetric(float64(end-m.start)/float64(m.b.N), "cpu-ns/op")
	}
}

// naiveHistory is the obvious history a benchmark compares the ring with: a slice of
// samples, trimmed to the rewind window by copying, searched by a linear scan.
type naiveHistory struct{ s []stamped }

func (h *naiveHistory) record(now time.Duration, p Vec3) {
	// Keep the latest sample at or before now-RewindCap and everything after it.
	k := 0
	for k+1 < len(h.s) && h.s[k+1].t <= now-RewindCap {
		k++
	}
	if k > 0 {
		h.s = h.s[:copy(h.s, h.s[k:])]
	}
	h.s = append(h.s, stamped{now, p})
}

func (h *naiveHistory) at(at time.Duration) Vec3 {
	n := len(h.s)
	if at >= h.s[n-1].t {
		return h.s[n-1].p
	}
	for j := n - 1; j > 0; j-- {
		if a := h.s[j-1]; a.t <= at {
			return lerp(a.p, h.s[j].p, float64(at-a.t)/float64(h.s[j].t-a.t))
		}
	}
	return h.s[0].p
}

// linearAt is the rewind of a track by a linear scan backwards instead of the binary
// search.
func (h track) linearAt(at time.Duration) Vec3 {
	last := h.last
	if at >= h.s[last&ringMask].t {
		return h.s[last&ringMask].pos
	}
	o := h.oldest()
	for s := last; s > o; s-- {
		if a := h.s[(s-1)&ringMask].t; a <= at {
			i, j := (s-1)&ringMask, s&ringMask
			return lerp(h.s[i].pos, h.s[j].pos, float64(at-a)/float64(h.s[j].t-a))
		}
	}
	return h.s[o&ringMask].pos
}

// walkPath is a precomputed path of positions for recording benchmarks.
func walkPath(n int) []Vec3 {
	p := make([]Vec3, n)
	for i := range p {
		a := float64(i) * 0.01
		p[i] = Vec3{float32(100 * math.Cos(a)), float32(100 * math.Sin(a)), 5}
	}
	return p
}

func BenchmarkRecordPlayer(b *testing.B) {
	const players = MaxPlayers
	path := walkPath(4096)
	// 1000 players at 30 frames a second: one frame every 33 µs, round robin.
	b.Run("ring", func(b *testing.B) {
		w := mustWorld(b, Config{})
		for id := range players {
			must(b, w.AddPlayer(0, PlayerID(id)))
		}
		var now time.Duration
		i := 0
		cpu := startCPU(b)
		for b.Loop() {
			now += 33 * time.Microsecond
			id := i % players
			if _, err := w.RecordPlayer(now, PlayerID(id), path[(i/players+id)&4095], NoVehicle); err != nil {
				b.Fatal(err)
			}
			i++
		}
		cpu.stop()
	})
	b.Run("naive", func(b *testing.B) {
		hs := make([]naiveHistory, players)
		for i := range hs {
			hs[i].s = make([]stamped, 0, 4*HistoryDepth)
		}
		var now time.Duration
		i := 0
		cpu := startCPU(b)
		for b.Loop() {
			now += 33 * time.Microsecond
			id := i % players
			hs[id].record(now, path[(i/players+id)&4095])
			i++
		}
		cpu.stop()
	})
}

// BenchmarkRecordOnePlayer records the frames of a single player (its history stays in
// the cache): the cost of the bookkeeping itself.
func BenchmarkRecordOnePlayer(b *testing.B) {
	path := walkPath(4096)
	b.Run("ring", func(b *testing.B) {
		w := mustWorld(b, Config{Players: 1, Vehicles: 1})
		must(b, w.AddPlayer(0, 0))
		var now time.Duration
		i := 0
		cpu := startCPU(b)
		for b.Loop() {
			now += 33 * ms
			if _, err := w.RecordPlayer(now, 0, path[i&4095], NoVehicle); err != nil {
				b.Fatal(err)
			}
			i++
		}
		cpu.stop()
	})
	b.Run("naive", func(b *testing.B) {
		h := naiveHistory{s: make([]stamped, 0, 4*HistoryDepth)}
		var now time.Duration
		i := 0
		cpu := startCPU(b)
		for b.Loop() {
			now += 33 * ms
			h.record(now, path[i&4095])
			i++
		}
		cpu.stop()
	})
}

func BenchmarkRecordVehicle(b *testing.B) {
	path := walkPath(4096)
	w := mustWorld(b, Config{})
	for id := range MaxVehicles {
		must(b, w.AddVehicle(0, VehicleID(id), Pose{Rotation: identity}))
	}
	var now time.Duration
	i := 0
	cpu := startCPU(b)
	for b.Loop() {
		now += 16 * time.Microsecond
		id := i % MaxVehicles
		if _, err := w.RecordVehicle(now, VehicleID(id), Pose{Position: path[(i/MaxVehicles+id)&4095], Rotation: yaw(float64(i & 255))}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	cpu.stop()
}

func BenchmarkRewind(b *testing.B) {
	for _, rate := range []struct {
		name   string
		period time.Duration
	}{{"30Hz", 33 * ms}, {"128Hz", MinSampleSpacing}} {
		w := mustWorld(b, Config{Players: 1, Vehicles: 1})
		must(b, w.AddPlayer(0, 0))
		must(b, w.AddVehicle(0, 0, Pose{Rotation: identity}))
		var naive naiveHistory
		path := walkPath(200)
		var now time.Duration
		for i, p := range path {
			now = time.Duration(i) * rate.period
			must2[RecordVerdict](b)(w.RecordPlayer(now, 0, p, NoVehicle))
			must2[RecordVerdict](b)(w.RecordVehicle(now, 0, Pose{Position: p, Rotation: yaw(float64(i))}))
			naive.record(now, p)
		}
		// Moments spread over the window, so neither search gets lucky.
		var ats [64]time.Duration
		for i := range ats {
			ats[i] = now - time.Duration(i)*RewindCap/64
		}
		tr := w.ptrack(0)
		var sink Vec3
		b.Run(rate.name+"/player-binary", func(b *testing.B) {
			cpu := startCPU(b)
			i := 0
			for b.Loop() {
				p, err := w.PlayerAt(ats[i&63], 0)
				if err != nil {
					b.Fatal(err)
				}
				sink = p
				i++
			}
			cpu.stop()
		})
		b.Run(rate.name+"/player-linear-ring", func(b *testing.B) {
			cpu := startCPU(b)
			i := 0
			for b.Loop() {
				sink = tr.linearAt(ats[i&63])
				i++
			}
			cpu.stop()
		})
		b.Run(rate.name+"/player-naive-slice", func(b *testing.B) {
			cpu := startCPU(b)
			i := 0
			for b.Loop() {
				sink = naive.at(ats[i&63])
				i++
			}
			cpu.stop()
		})
		b.Run(rate.name+"/vehicle-binary", func(b *testing.B) {
			cpu := startCPU(b)
			i := 0
			for b.Loop() {
				p, err := w.VehicleAt(ats[i&63], 0)
				if err != nil {
					b.Fatal(err)
				}
				sink = p.Position
				i++
			}
			cpu.stop()
		})
		_ = sink
	}
}

// benchPlayers is how many players benchWorld simulates: the 1000 its worlds are named for
// (MaxPlayers grew past MaxVehicles, and the sim gives every player a vehicle slot).
const benchPlayers = 1000

// benchWorld is a simulated world of benchPlayers players after two seconds of play, and
// rays aimed at its players from 20-150 m.
func benchWorld(b *testing.B, area float64, mix []int) (*sim, []Ray, []PlayerID) {
	s := newSim(b, 42, benchPlayers, area, mix)
	for range 1000 {
		s.step(2 * ms)
	}
	rays := make([]Ray, 256)
	shooters := make([]PlayerID, len(rays))
	for i := range rays {
		shooters[i] = PlayerID(s.r.IntN(benchPlayers))
		for {
			rays[i] = s.ray()
			if rays[i].Kind != CannonRay && rays[i].Length <= 250 {
				break
			}
		}
	}
	return s, rays, shooters
}

func BenchmarkShot(b *testing.B) {
	for _, world := range []struct {
		name string
		area float64
		mix  []int
	}{
		// A city: 1000 players over 2 km × 2 km, on foot and in cars.
		{"city-1000", 2000, []int{idle, walker, walker, walker, driver, passenger}},
		// An arena: 1000 players in 200 m × 200 m, every ray through a crowd.
		{"arena-1000", 200, []int{idle, walker, walker, walker, driver, passenger}},
		// A city with a few cheats and jets on the far list.
		{"city-1000-with-far", 2000, allKinds},
	} {
		s, rays, shooters := benchWorld(b, world.area, world.mix)
		buf := make([]Recipient, 0, MaxPlayers)
		total := 0
		b.Run(world.name+"/broadphase", func(b *testing.B) {
			cpu := startCPU(b)
			i := 0
			total = 0
			for b.Loop() {
				res, err := s.w.Shot(s.now, shooters[i&255], rays[i&255], buf)
				if err != nil {
					b.Fatal(err)
				}
				total += len(res.Recipients)
				i++
			}
			cpu.stop()
			b.ReportMetric(float64(total)/float64(i), "recipients/op")
		})
		b.Run(world.name+"/naive-scan", func(b *testing.B) {
			cpu := startCPU(b)
			i := 0
			for b.Loop() {
				if _, err := s.w.shotNaive(s.now, shooters[i&255], rays[i&255], buf); err != nil {
					b.Fatal(err)
				}
				i++
			}
			cpu.stop()
		})
	}
}

func BenchmarkPingPong(b *testing.B) {
	w := mustWorld(b, Config{Players: 1, Vehicles: 1})
	must(b, w.AddPlayer(0, 0))
	var now time.Duration
	cpu := startCPU(b)
	for b.Loop() {
		seq, _ := w.Ping(now, 0)
		now += 50 * ms
		if v, _ := w.Pong(now, 0, seq); v != PongAccepted {
			b.Fatal(v)
		}
	}
	cpu.stop()
}

// BenchmarkWorldSecond is one second of a busy world: 1000 players (a sixth of them
// driving) sending 30 frames a second, their pings, and one shot per player.
func BenchmarkWorldSecond(b *testing.B) {
	s, rays, _ := benchWorld(b, 2000, []int{idle, walker, walker, walker, driver, passenger})
	buf := make([]Recipient, 0, MaxPlayers)
	cpu := startCPU(b)
	for b.Loop() {
		for tick := range 30 {
			s.now += 33 * ms
			for i := range s.movers {
				m := &s.movers[i]
				id := PlayerID(i)
				if tick == 0 || tick == 15 {
					if seq, err := s.w.Ping(s.now, id); err == nil {
						_, _ = s.w.Pong(s.now, id, seq)
					}
				}
				p := s.vec(m.pos)
				m.pos[0] += m.vel[0] * 0.033
				m.pos[1] += m.vel[1] * 0.033
				if m.seat != NoVehicle && s.owner[m.seat] == i {
					_, _ = s.w.RecordVehicle(s.now, m.seat, Pose{Position: p, Rotation: identity})
				}
				_, _ = s.w.RecordPlayer(s.now, id, p, m.seat)
				if i%30 == tick {
					_, _ = s.w.Shot(s.now, id, rays[i&255], buf)
				}
			}
		}
	}
	cpu.stop()
}

// BenchmarkPlayerApproach is the check of a shot's origin against the shooter's path over
// the last 500 ms, recorded at 30 frames a second (about 16 samples walked).
func BenchmarkPlayerApproach(b *testing.B) {
	w, err := New(Config{Players: 2, Vehicles: 1})
	if err != nil {
		b.Fatal(err)
	}
	if err := w.AddPlayer(0, 0); err != nil {
		b.Fatal(err)
	}
	now := time.Duration(0)
	for i := range 90 {
		now = time.Duration(i) * 33 * time.Millisecond
		if _, err := w.RecordPlayer(now, 0, Vec3{X: float32(i) * 0.2, Y: float32(i%7) * 0.1}, NoVehicle); err != nil {
			b.Fatal(err)
		}
	}
	p := Vec3{X: 17, Y: 1, Z: 0.6}
	m := startCPU(b)
	for b.Loop() {
		if _, err := w.PlayerApproach(now-500*time.Millisecond, 0, p); err != nil {
			b.Fatal(err)
		}
	}
	m.stop()
}
