package rewind

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// The kinds of movers of a random world.
const (
	idle       = iota // stands still, one frame a second
	walker            // up to 7 m/s, 30 Hz
	driver            // drives its own vehicle at 10-60 m/s, 30 Hz
	passenger         // sits in a driver's vehicle
	jet               // flies its own vehicle at 100-200 m/s (too fast for the grid)
	shaker            // a cheat jumping back and forth 24 m at 60 Hz (too long a path for the grid)
	flooder           // walks and sends a frame every millisecond
	teleporter        // walks and now and then jumps 50-500 m
	kinds
)

type mover struct {
	kind     int
	pos, vel [3]float64
	heading  float64
	seat     VehicleID
	period   time.Duration
	next     time.Duration
	rtt      time.Duration // its link's round trip; 0: never answers pings
	pong     struct {
		seq uint16
		due time.Duration
		ok  bool
	}
	// epoch is the model's own record of the player's current history epoch: every
	// position the sim fed since the last discontinuity it caused or a jump it made.
	epoch []stamped
}

type stamped struct {
	t time.Duration
	p Vec3
}

// sim drives a World with a random population, and keeps its own model of what it fed.
type sim struct {
	t      testing.TB
	w      *World
	r      *rand.Rand
	now    time.Duration
	area   float64
	movers []mover
	owner  []int // vehicle id -> the mover driving it, or -1
}

func newSim(t testing.TB, seed uint64, players int, area float64, mix []int) *sim {
	r := rng(seed)
	w := mustWorld(t, Config{Players: players, Vehicles: players})
	s := &sim{t: t, w: w, r: r, area: area, movers: make([]mover, players), owner: make([]int, players)}
	for i := range s.owner {
		s.owner[i] = -1
	}
	for i := range s.movers {
		m := &s.movers[i]
		m.kind = mix[r.IntN(len(mix))]
		m.seat = NoVehicle
		m.pos = [3]float64{(r.Float64() - 0.5) * area, (r.Float64() - 0.5) * area, r.Float64() * 5}
		m.heading = r.Float64() * 2 * math.Pi
		m.period = 33 * ms
		if r.IntN(5) > 0 {
			m.rtt = time.Duration(20+r.IntN(900)) * ms
		}
		switch m.kind {
		case idle:
			m.period = time.Second
		case walker, teleporter:
			sp := r.Float64() * 7
			m.vel = [3]float64{sp * math.Cos(m.heading), sp * math.Sin(m.heading), 0}
		case driver, jet:
			sp := 10 + r.Float64()*50
			if m.kind == jet {
				sp = 100 + r.Float64()*100
				m.pos[2] = 100 + r.Float64()*200
			}
			m.vel = [3]float64{sp * math.Cos(m.heading), sp * math.Sin(m.heading), 0}
			m.seat = VehicleID(i)
			s.owner[i] = i
			must(t, w.AddVehicle(0, m.seat, s.pose(m)))
		case shaker:
			m.period = 16 * ms
		case flooder:
			m.period = ms
			m.vel = [3]float64{5 * math.Cos(m.heading), 5 * math.Sin(m.heading), 0}
		}
		m.next = time.Duration(r.IntN(int(m.period/time.Microsecond)+1)) * time.Microsecond
		must(t, w.AddPlayer(0, PlayerID(i)))
		s.place(i, s.vec(m.pos), false)
	}
	// Passengers board a random driver's vehicle.
	for i := range s.movers {
		if m := &s.movers[i]; m.kind == passenger {
			if d := r.IntN(players); s.movers[d].kind == driver {
				m.seat = VehicleID(d)
				m.pos = s.movers[d].pos
			} else {
				m.kind = walker
			}
		}
	}
	return s
}

func (s *sim) vec(p [3]float64) Vec3 { return Vec3{float32(p[0]), float32(p[1]), float32(p[2])} }

func (s *sim) pose(m *mover) Pose {
	h := m.heading / 2
	return Pose{Position: s.vec(m.pos), Rotation: Quat{W: float32(math.Cos(h)), Z: float32(math.Sin(h))}}
}

// place records a discontinuity of player i to p in the model (and in the World when
// restart): the model's epoch starts anew.
func (s *sim) place(i int, p Vec3, restart bool) {
	m := &s.movers[i]
	if restart {
		switch s.r.IntN(3) {
		case 0:
			must(s.t, s.w.MovePlayer(s.now, PlayerID(i), p))
		case 1:
			must(s.t, s.w.RespawnPlayer(s.now, PlayerID(i), p))
			if m.kind == passenger {
				m.kind = walker
			}
			if m.kind != driver && m.kind != jet {
				m.seat = NoVehicle
			}
		default:
			must(s.t, s.w.MovePlayer(s.now, PlayerID(i), p))
			must(s.t, s.w.FreezePlayer(s.now, PlayerID(i), !s.w.players[i].frozen))
		}
		m.epoch = append(m.epoch[:0], stamped{s.now, p})
		m.pos = [3]float64{float64(p.X), float64(p.Y), float64(p.Z)}
		return
	}
	m.epoch = m.epoch[:0]
}

// step advances the clock by dt and feeds every frame, ping and pong that came due, and
// now and then a gamemode event.
func (s *sim) step(dt time.Duration) {
	s.now += dt
	r := s.r
	for i := range s.movers {
		m := &s.movers[i]
		id := PlayerID(i)
		if m.rtt > 0 {
			if m.pong.ok && s.now >= m.pong.due {
				must2[PongVerdict](s.t)(s.w.Pong(s.now, id, m.pong.seq))
				m.pong.ok = false
			}
			if s.w.PingDue(s.now, id) {
				m.pong.seq = must2[uint16](s.t)(s.w.Ping(s.now, id))
				m.pong.due, m.pong.ok = s.now+m.rtt, true
			}
		}
		if s.now < m.next {
			continue
		}
		m.next = s.now + m.period
		s.move(i, m)
	}
	if r.IntN(50) == 0 {
		s.event()
	}
}

func (s *sim) move(i int, m *mover) {
	r := s.r
	sec := float64(m.period) / float64(time.Second)
	switch m.kind {
	case passenger:
		if d := s.owner[m.seat]; d >= 0 {
			m.pos = s.movers[d].pos
		}
	case shaker:
		m.pos[0] += 24 * float64(1-2*(s.now/m.period%2))
	case teleporter:
		if r.IntN(50) == 0 {
			a, d := r.Float64()*2*math.Pi, 50+r.Float64()*450
			m.pos[0] += d * math.Cos(a)
			m.pos[1] += d * math.Sin(a)
		}
		fallthrough
	default:
		if m.kind == driver || m.kind == jet {
			m.heading += (r.Float64() - 0.5) * 0.2
			sp := math.Hypot(m.vel[0], m.vel[1])
			m.vel[0], m.vel[1] = sp*math.Cos(m.heading), sp*math.Sin(m.heading)
		}
		for k := range 3 {
			m.pos[k] += m.vel[k] * sec
		}
	}
	// Stay in the area: bounce off its edges.
	for k := range 2 {
		if math.Abs(m.pos[k]) > s.area/2 {
			m.pos[k] = math.Copysign(s.area/2, m.pos[k])
			m.vel[k] = -m.vel[k]
			m.heading = math.Atan2(m.vel[1], m.vel[0])
		}
	}
	p := s.vec(m.pos)
	seat := m.seat
	if seat != NoVehicle && (int(seat) >= len(s.w.vehicles) || !s.w.vehicles[seat].added) {
		seat, m.seat = NoVehicle, NoVehicle
		if m.kind == passenger {
			m.kind = walker
		}
	}
	if seat != NoVehicle && s.owner[seat] == i {
		must2[RecordVerdict](s.t)(s.w.RecordVehicle(s.now, seat, s.pose(m)))
	}
	v := must2[RecordVerdict](s.t)(s.w.RecordPlayer(s.now, PlayerID(i), p, seat))
	if len(m.epoch) > 0 {
		last := m.epoch[len(m.epoch)-1].p
		far := dist2(last, p) > float64(s.w.cfg.TeleportDistance)*float64(s.w.cfg.TeleportDistance)
		if far != (v == Teleported) {
			s.t.Fatalf("player %d jumped %.1f m (teleport %v): verdict %v", i, math.Sqrt(dist2(last, p)), far, v)
		}
	}
	if v == Teleported || v == Started {
		m.epoch = m.epoch[:0]
	}
	m.epoch = append(m.epoch, stamped{s.now, p})
	if len(m.epoch) > 4*HistoryDepth*8 {
		m.epoch = append(m.epoch[:0], m.epoch[len(m.epoch)-2*HistoryDepth*8:]...)
	}
}

// event makes one random gamemode event.
func (s *sim) event() {
	r := s.r
	i := r.IntN(len(s.movers))
	m := &s.movers[i]
	switch r.IntN(6) {
	case 0, 1: // move, respawn or freeze change of a player
		p := m.pos
		if r.IntN(2) == 0 {
			p[0] += (r.Float64() - 0.5) * 40
			p[1] += (r.Float64() - 0.5) * 40
		}
		s.place(i, s.vec(p), true)
	case 2: // freeze or unfreeze a vehicle
		if v := VehicleID(i); s.owner[i] >= 0 {
			must(s.t, s.w.FreezeVehicle(s.now, v, !s.w.vehicles[v].frozen))
		}
	case 3: // wreck or respawn a vehicle
		if v := VehicleID(i); s.owner[i] >= 0 {
			if s.w.vehicles[v].wrecked {
				must(s.t, s.w.RespawnVehicle(s.now, v, s.pose(&s.movers[s.owner[i]])))
			} else {
				must(s.t, s.w.WreckVehicle(s.now, v))
			}
		}
	case 4: // a player reconnects
		must(s.t, s.w.RemovePlayer(s.now, PlayerID(i)))
		must(s.t, s.w.AddPlayer(s.now, PlayerID(i)))
		m.epoch, m.pong.ok = m.epoch[:0], false
		if s.owner[i] == i { // its vehicle stays, driven by nobody but still in the world
			s.owner[i] = -1
			m.kind, m.vel = walker, [3]float64{}
		}
		if m.kind == passenger {
			m.kind = walker
		}
		m.seat = NoVehicle
	case 5: // a gamemode moves a vehicle; its driver goes along
		if v := VehicleID(i); s.owner[i] == i {
			m.pos[0] += (r.Float64() - 0.5) * 100
			must(s.t, s.w.MoveVehicle(s.now, v, s.pose(m)))
			must(s.t, s.w.MovePlayer(s.now, PlayerID(i), s.vec(m.pos)))
			m.epoch = append(m.epoch[:0], stamped{s.now, s.vec(m.pos)})
		}
	}
}

// ray returns a random ray: mostly aimed at or past another player, sometimes anywhere.
func (s *sim) ray() Ray {
	r := s.r
	kind := WeaponRay
	switch r.IntN(10) {
	case 0:
		kind = VehicleGunRay
	case 1:
		kind = CannonRay
	}
	target := s.movers[r.IntN(len(s.movers))].pos
	var o [3]float64
	if r.IntN(4) == 0 {
		o = [3]float64{(r.Float64() - 0.5) * s.area, (r.Float64() - 0.5) * s.area, r.Float64() * 10}
	} else {
		a := r.Float64() * 2 * math.Pi
		d := r.Float64() * 150
		o = [3]float64{target[0] + d*math.Cos(a), target[1] + d*math.Sin(a), target[2] + r.Float64()*3}
	}
	dir := [3]float64{target[0] - o[0] + r.NormFloat64()*3, target[1] - o[1] + r.NormFloat64()*3, target[2] - o[2] + r.NormFloat64()}
	n := math.Sqrt(dir[0]*dir[0] + dir[1]*dir[1] + dir[2]*dir[2])
	if n < 1e-3 {
		dir = [3]float64{1, 0, 0}
		n = 1
	}
	length := n + r.Float64()*60
	if r.IntN(8) == 0 {
		length = 1 + r.Float64()*(MaxRayLength-1)
	}
	length = min(length, MaxRayLength)
	return Ray{Kind: kind, Origin: s.vec(o), Direction: s.vec(dir), Length: float32(length)}
}
