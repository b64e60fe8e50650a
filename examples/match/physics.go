package match

import (
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/wire"
)

// VehicleRespawn is how long a wreck stands before the gamemode respawns the car.
const VehicleRespawn = 20 * time.Second

// physics advances what the arena does by itself: rams, fires, falls, near drownings and
// the respawn of wrecks.
func (m *Match) physics(now time.Duration) {
	w := m.world
	for _, cr := range w.cars {
		if cr.wrecked {
			if now >= cr.respawnAt && cr.driver < 0 && cr.passenger < 0 {
				if err := m.server.RespawnVehicle(now, cr.id, cr.home, wire.Quat{W: 1}); err == nil {
					cr.wrecked, cr.lastHealth = false, VehicleHealth
					cr.pose = client.VehiclePose{Position: cr.home, Rotation: wire.Quat{W: 1}}
				}
			}
			continue
		}
		if cr.driver < 0 || length(cr.pose.Velocity) < 5 {
			continue
		}
		for _, p := range m.players {
			if p.idx == cr.driver || p.idx == cr.passenger || !p.c.Alive() {
				continue
			}
			if v, _ := p.c.Vehicle(); v != wire.NoVehicle {
				continue
			}
			if dist(p.c.Position(), cr.pose.Position) > RamDistance {
				continue
			}
			key := [2]int{cr.driver, p.idx}
			if last, ok := w.rams[key]; ok && now-last < RamCooldown {
				continue
			}
			w.rams[key] = now
			_, _ = p.c.Rammed(now, wire.PlayerID(cr.driver), float32(8+p.rng.IntN(15)))
		}
	}
	live := w.fires[:0]
	for _, f := range w.fires {
		if now >= f.until {
			continue
		}
		live = append(live, f)
		for _, p := range m.players {
			if !p.c.Alive() || dist(p.c.Position(), f.pos) > FireRadius {
				continue
			}
			if v, _ := p.c.Vehicle(); v != wire.NoVehicle {
				continue
			}
			_, _ = p.c.InFire(now, f.effect, FireTick) // unknown to a client that has not heard of it yet
		}
	}
	w.fires = live
	for _, p := range m.players {
		if !p.c.Alive() {
			continue
		}
		if v, _ := p.c.Vehicle(); v != wire.NoVehicle {
			continue
		}
		if p.rng.Float64() < float64(ThinkInterval)/float64(FallEvery) {
			_, _ = p.c.Fall(now, float32(4+p.rng.IntN(20)))
		}
		if p.rng.Float64() < float64(ThinkInterval)/float64(DrownEvery) {
			_, _ = p.c.Drown(now, float32(5+p.rng.IntN(15)))
		}
	}
}

// relayDelay is how long an action of a's client takes to show on b's screen: a's
// one-way delay to the server plus the server's to b.
func (m *Match) relayDelay(a, b *player) time.Duration { return a.rtt/2 + b.rtt/2 + ServerTick }

// meleeLands makes the victim's game take the attacker's blow when the attacker's swing
// reaches its screen.
func (m *Match) meleeLands(now time.Duration, attacker *player, victim int, weapon uint8) {
	v := m.players[victim]
	m.sim.After(m.relayDelay(attacker, v), func() {
		// The victim's game lands the blow if the attacker, as the victim sees it, swings
		// within reach of it, and not at a player sitting in a vehicle.
		if m.quiet || !m.withinReach(v, attacker, MeleeReach) {
			return
		}
		_, _ = v.c.MeleeHit(m.sim.Now(), attacker.id, weapon)
	})
}

// sprayLands makes the victim's game take a tick of the attacker's spraycan.
func (m *Match) sprayLands(now time.Duration, attacker *player, victim int) {
	v := m.players[victim]
	m.sim.After(m.relayDelay(attacker, v), func() {
		if !m.quiet && m.withinReach(v, attacker, SprayRange+1) {
			_, _ = v.c.Sprayed(m.sim.Now(), attacker.id, weaponSpraycan, SprayTick)
		}
	})
}

// MeleeReach is how close the victim's copy of an attacker must be for its blow to land.
const MeleeReach = 3

// withinReach reports whether victim v, on foot, sees attacker a (its copy of a) within
// reach metres: what the victim's game decides a blow or a spray by.
func (m *Match) withinReach(v, a *player, reach float32) bool {
	if veh, _ := v.c.Vehicle(); veh != wire.NoVehicle {
		return false
	}
	r, ok := v.c.Remote(a.id)
	return ok && r.Copy.Alive && r.Vehicle == wire.NoVehicle && dist(r.Position, v.c.Position()) <= reach
}

// vehicleShotLands makes the car's driver's game take the damage of a shot at the car.
func (m *Match) vehicleShotLands(now time.Duration, shooter *player, cr *car, weapon uint8) {
	if cr.driver < 0 {
		return
	}
	d := m.players[cr.driver]
	m.sim.After(m.relayDelay(shooter, d), func() {
		if m.quiet || cr.driver != d.idx || cr.wrecked {
			return
		}
		if d.cheat != nil && d.cheat.kind == CheatVehicleGod {
			return // its trainer keeps the car whole
		}
		if boom, err := d.c.VehicleHit(m.sim.Now(), shooter.id, weapon, 30); err == nil && boom {
			cr.wrecked, cr.lastHealth = true, 0
			cr.respawnAt = m.sim.Now() + VehicleRespawn
		}
	})
}
