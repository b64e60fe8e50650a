package match

import (
	"math"
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// The vehicle copies check ([vehicle-copies-current]): how the honest clients' copies of
// the vehicles (client's [vehicle-copies], built from refserver's VehicleShow and moved by
// the relayed frames) compare with the server's vehicles, sampled every VehicleCheckEvery.
const (
	// VehicleCheckEvery is how often the match compares the copies with the server.
	VehicleCheckEvery = time.Second
	// VehicleCheckSlack is how far a copy of a parked vehicle (the server's pose unchanged
	// since the previous check) may stand from the server's pose, in metres, in the
	// copies of the players that neither sit in it nor moved it last (a driver's copy of
	// its car follows its own moves, ahead of the frames in flight, and stays where its
	// game left it when the server never took the last of them). A vehicle its driver leaves is shown anew at
	// the server's pose (refserver's [stream-vehicle-left]): measured 0 m at 400 ms, 30 ms
	// of jitter and 5 % loss (1.3 m before that rule, the last relays before the driver
	// got out being lost).
	VehicleCheckSlack = 1
	// VehicleCheckReach is the distance within which a player must have a copy of a vehicle
	// when it stood as near at the previous check too, in metres: the stream distance
	// (refserver.DefaultStreamDistance) less a margin for the vehicle's and the player's
	// moves since the check.
	VehicleCheckReach = 150
	// VehicleCheckBeyond is the distance beyond which a player must have no copy of a
	// vehicle it does not sit in when it stood as far at the previous check too, in
	// metres: the stream distance and its margin (refserver.DefaultStreamMargin) plus the
	// same allowance.
	VehicleCheckBeyond = 270
)

// vehicleCheck is the state of the vehicle copies check.
type vehicleCheck struct {
	// prev is each car's server pose at the previous check, known whether it existed then.
	prev  []wire.Vec3
	known []bool
	// near and far mark, per player and car, that the player stood within
	// VehicleCheckReach (beyond VehicleCheckBeyond) of the car at the previous check.
	near, far []bool
}

// checkVehicleCopies compares every honest client's vehicle copies with the server's
// vehicles (see [vehicle-copies-current] in the package doc), when the server streams.
func (m *Match) checkVehicleCopies() {
	srv := m.Server()
	if srv.Config().Stream.Everyone {
		return
	}
	vc := &m.vcheck
	cars := m.world.cars
	if vc.prev == nil {
		vc.prev, vc.known = make([]wire.Vec3, len(cars)), make([]bool, len(cars))
		vc.near, vc.far = make([]bool, len(cars)*len(m.players)), make([]bool, len(cars)*len(m.players))
	}
	r := &m.report.Vehicles
	for ci, cr := range cars {
		pos, _, ok := srv.VehiclePose(cr.id)
		_, wrecked := srv.VehicleWrecked(cr.id)
		parked := ok && vc.known[ci] && vc.prev[ci] == pos && !wrecked
		vc.prev[ci], vc.known[ci] = pos, ok
		for _, p := range m.players {
			k := p.idx*len(cars) + ci
			wasNear, wasFar := vc.near[k], vc.far[k]
			vc.near[k], vc.far[k] = false, false
			if p.cheat != nil || !ok {
				continue
			}
			c := p.c
			d := planar(c.Position(), pos)
			vc.near[k], vc.far[k] = d <= VehicleCheckReach, d > VehicleCheckBeyond
			cp, has := c.ShownVehicle(cr.id)
			in, _ := c.Vehicle()
			r.CopiesChecked++
			switch {
			case has && parked && in != cr.id && cp.Driver != p.id:
				// Not its own car's copy: that follows its own moves, which the server
				// may not have taken (a driver killed before its last frames arrived).
				off := float64(dist(cp.Pose.Position, pos))
				r.WorstParkedCopyM = max(r.WorstParkedCopyM, off)
				if off > VehicleCheckSlack {
					r.CopiesStale++
				}
			case !has && wasNear && vc.near[k]:
				r.CopiesMissing++
			}
			// A copy (re)shown since the previous check is not lingering yet: the car may have
			// come near and been taken away again in between (a move, a respawn), its hide on
			// the way.
			if has && wasFar && vc.far[k] && in != cr.id && cp.ShownAt <= m.Now()-VehicleCheckEvery {
				r.CopiesLingering++
			}
		}
	}
}

// planar is the distance between a and b in the ground plane (streaming's measure).
func planar(a, b wire.Vec3) float64 {
	return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))
}
