package match

import (
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// The weapons of the match: every player gets them at each spawn (refserver's loadout).
const (
	weaponKnife    uint8 = 4
	weaponDeagle   uint8 = 24
	weaponShotgun  uint8 = 25
	weaponM4       uint8 = 31
	weaponGrenade  uint8 = 16
	weaponSpraycan uint8 = 41
)

var loadout = []refserver.Loadout{
	{Weapon: weaponKnife, Ammo: 1},
	{Weapon: weaponDeagle, Ammo: 70},
	{Weapon: weaponShotgun, Ammo: 40},
	{Weapon: weaponM4, Ammo: 400, Current: true},
	{Weapon: weaponGrenade, Ammo: 4},
	{Weapon: weaponSpraycan, Ammo: 500},
}

// stealthWeapon is the loadout's weapon that kills by stealth (the catalogue's
// StealthKill column, inventory's [weapon-causes]: the knife), or the fists if none does.
func stealthWeapon(cat *inventory.Catalog) uint8 {
	for _, l := range loadout {
		if cat.StealthKill(l.Weapon) {
			return l.Weapon
		}
	}
	return inventory.Fists
}

// The bots' habits.
const (
	// SightRange is the farthest a bot picks a target.
	SightRange = 95
	// BrawlerShare is the share of bots that charge their target with a knife.
	BrawlerShare = 0.25
	// GrenadeEvery is the mean time between a bot's grenades.
	GrenadeEvery = 25 * time.Second
	// DriveEvery is the mean time between a bot's drives.
	DriveEvery = 30 * time.Second
	// VehicleFireShare is the share of shots a bot fires at a driven car in sight.
	VehicleFireShare = 0.25
	// FireShare is the chance that a bot with a target in sight pulls the trigger at a
	// decision.
	FireShare = 0.25
	// FallEvery and DrownEvery are the mean times between a player's falls and near
	// drownings.
	FallEvery  = 50 * time.Second
	DrownEvery = 200 * time.Second
)

// bot plays one player: it walks between waypoints, picks the nearest enemy its client
// shows, and fights it with the weapon that suits the distance. A bot is honest by
// construction: every action goes through its client, which refuses what the game would.
type bot struct {
	p        *player
	brawler  bool
	waypoint wire.Vec3
	target   int
	car      *car
	carGoal  *car // the car the bot walks to
	driving  bool
	leaveAt  time.Duration
	spraying time.Duration // until when the spraycan is held
	nextNade time.Duration
	ids      []wire.PlayerID // scratch: the client's remote copies
	picked   target          // pickTarget's answer
}

func newBot(p *player, cfg Config) bot {
	return bot{p: p, brawler: p.rng.Float64() < BrawlerShare, target: -1,
		waypoint: randomPoint(p.rng, cfg.half()), nextNade: expDuration(p, GrenadeEvery)}
}

// expDuration draws an exponentially distributed wait with the given mean.
func expDuration(p *player, mean time.Duration) time.Duration {
	return time.Duration(p.rng.ExpFloat64() * float64(mean))
}

// think runs one decision of the bot.
func (b *bot) think(now time.Duration, m *Match) {
	c := b.p.c
	if !c.Alive() {
		if cr := b.car; cr != nil {
			if cr.driver == b.p.idx {
				cr.driver = -1
			}
			if cr.passenger == b.p.idx {
				cr.passenger = -1
			}
		}
		b.car, b.carGoal, b.driving, b.spraying = nil, nil, false, 0
		return
	}
	if b.car != nil {
		b.ride(now, m)
		return
	}
	if b.p.cheat.busy() {
		return // a seat-steal cheater's client sits in the seat it claims: the cheat drives
	}
	if b.spraying > 0 && now >= b.spraying {
		_, _ = c.HoldFire(now, false)
		b.spraying = 0
	}
	t := b.pickTarget(m)
	if b.carGoal == nil && !m.cfg.Race && b.wantsToDrive() {
		b.carGoal = b.freeCar(m)
	}
	if cr := b.carGoal; cr != nil {
		if b.seat(m, cr) < 0 {
			b.carGoal = nil // taken, or wrecked, meanwhile
		} else if dist(c.Position(), cr.pose.Position) <= CarReach {
			b.enterCar(now, m, cr)
			if b.car != nil {
				return
			}
		} else {
			b.waypoint = cr.pose.Position
			t = nil // on its way to the car the bot does not fight
		}
	}
	b.walk(now, m, t)
	if t != nil {
		b.fight(now, m, t)
	}
}

// target is what the bot knows of its target: its client's copy.
type target struct {
	idx  int
	id   wire.PlayerID
	r    client.Remote
	dist float32
}

// pickTarget returns the nearest living enemy within SightRange that the bot's client
// shows (the first in player order among equally near ones), or nil. It looks only at
// the client's copies (the players the server streams to it), in ascending id order,
// which is the order of m.players: a scan of every player of a crowd per decision would
// cost the match's time quadratically. The target is held in b.picked until the next
// call.
func (b *bot) pickTarget(m *Match) *target {
	c := b.p.c
	pos := c.Position()
	var best *target
	b.ids = c.AppendRemotes(b.ids[:0])
	for _, id := range b.ids {
		if int(id) >= len(m.players) {
			break // a connection beyond the lineup (ids ascend)
		}
		o := m.players[id]
		if o == b.p {
			continue
		}
		if m.cfg.Race && !m.gm.raceTarget(m.sim.Now(), b.p, o) {
			continue
		}
		r, ok := c.Remote(o.id)
		if !ok || !r.Copy.Alive {
			continue
		}
		if mate, _ := c.Teammate(o.id); mate {
			continue
		}
		d := dist(pos, r.Position)
		if d > SightRange {
			continue
		}
		if best == nil || d < best.dist {
			b.picked = target{idx: o.idx, id: o.id, r: r, dist: d}
			best = &b.picked
		}
	}
	return best
}

func (b *bot) walk(now time.Duration, m *Match, t *target) {
	c := b.p.c
	pos := c.Position()
	goal := b.waypoint
	if (b.brawler || m.cfg.Race) && t != nil {
		goal = t.r.Position
		if b.brawler && t.dist <= 1.2 {
			goal = pos // close enough: stand and swing
		}
	}
	if m.cfg.Race && t != nil && t.dist < 25 {
		goal = pos // a race shooter stands and fires
	}
	next, reached := stepTowards(pos, goal, WalkSpeed*float32(ThinkInterval.Seconds()))
	if reached && goal == b.waypoint {
		b.waypoint = roamPoint(b.p.rng, pos, m.cfg.half())
	}
	vel := scale(sub(next, pos), float32(1/ThinkInterval.Seconds()))
	f := c.Facing()
	if length(vel) > 0.01 {
		f = facing(vel)
	}
	_ = c.Move(now, next, vel, f)
}

func (b *bot) fight(now time.Duration, m *Match, t *target) {
	c := b.p.c
	rng := b.p.rng
	eye := add(c.Position(), wire.Vec3{Z: 0.6})
	aim := add(t.r.Position, wire.Vec3{Z: 0.3})
	switch {
	case m.cfg.Race:
		if t.dist < 60 {
			_, _ = c.Fire(now, weaponM4, wire.HitPlayer, uint16(t.id), eye, aim)
		}
	case t.dist <= client.StealthReach && b.brawler && t.r.Vehicle == wire.NoVehicle && rng.Float64() < 0.15:
		_, _ = c.Arm(now, stealthWeapon(m.server.Catalog()))
		_, _ = c.StealthKill(now, t.id)
	case t.dist <= 1.6 && b.brawler && t.r.Vehicle == wire.NoVehicle:
		_, _ = c.Arm(now, weaponKnife)
		if a, err := c.Strike(now, t.id); err == nil && a.Verdict == client.Acted {
			m.meleeLands(now, b.p, t.idx, weaponKnife)
		}
	case t.dist <= SprayRange && b.brawler && rng.Float64() < 0.2:
		if b.spraying == 0 {
			if _, err := c.Arm(now, weaponSpraycan); err == nil {
				if a, err := c.HoldFire(now, true); err == nil && a.Verdict == client.Acted {
					b.spraying = now + time.Duration(500+rng.IntN(1500))*time.Millisecond
				}
			}
		}
		if b.spraying > 0 {
			m.sprayLands(now, b.p, t.idx)
		}
	case now >= b.nextNade && t.dist > 12 && t.dist < 30:
		b.nextNade = now + expDuration(b.p, GrenadeEvery)
		vel := scale(sub(aim, eye), 1/2.0)
		_, _ = c.Throw(now, weaponGrenade, eye, vel, t.r.Position, 2*time.Second)
	default:
		if b.brawler && t.dist > 8 {
			return // a brawler closes in before it fights
		}
		if cr := b.carInSight(m, c.Position()); cr != nil && rng.Float64() < VehicleFireShare {
			if a, err := c.Fire(now, weaponM4, wire.HitVehicle, cr.id, eye, cr.pose.Position); err == nil && a.Verdict == client.Acted {
				m.vehicleShotLands(now, b.p, cr, weaponM4)
			}
			return
		}
		if b.p.cheat != nil && b.p.cheat.kind == CheatFrozenAmmo {
			// The frozen-ammo cheater empties its M4 as fast as it can.
			_, _ = c.Fire(now, weaponM4, wire.HitPlayer, uint16(t.id), eye, aim)
			return
		}
		if rng.Float64() >= FireShare && !m.cfg.Race {
			return
		}
		w := weaponM4
		switch {
		case t.dist < 9:
			w = weaponShotgun
		case t.dist < 30 && rng.Float64() < 0.3:
			w = weaponDeagle
		}
		if a, _ := c.Fire(now, w, wire.HitPlayer, uint16(t.id), eye, aim); a.Verdict != client.Acted && w != weaponM4 {
			_, _ = c.Fire(now, weaponM4, wire.HitPlayer, uint16(t.id), eye, aim)
		}
	}
}

func (b *bot) carInSight(m *Match, pos wire.Vec3) *car {
	for _, cr := range m.world.cars {
		if cr.wrecked || cr.driver < 0 || cr.driver == b.p.idx || cr.passenger == b.p.idx {
			continue
		}
		if mate, _ := b.p.c.Teammate(wire.PlayerID(cr.driver)); mate {
			continue
		}
		if dist(pos, cr.pose.Position) < 60 {
			return cr
		}
	}
	return nil
}

// wantsToDrive decides, once per thought on foot, whether the bot looks for a car: an
// honest bot about every DriveEvery, a vehicle-god cheater always, other cheaters never.
func (b *bot) wantsToDrive() bool {
	switch {
	case b.p.cheat == nil:
		return b.p.rng.Float64() < float64(ThinkInterval)/float64(DriveEvery)
	case b.p.cheat.kind == CheatVehicleGod, b.p.cheat.kind == CheatVehicleGuns:
		return true
	}
	return false
}

// CarReach is how close a bot must stand to a car to get in.
const CarReach = 3

// freeCar picks a car within 40 m with a free seat: the driver's, or a passenger's beside
// a driver.
func (b *bot) freeCar(m *Match) *car {
	for _, cr := range m.world.cars {
		if b.seat(m, cr) >= 0 && dist(b.p.c.Position(), cr.pose.Position) <= 40 {
			return cr
		}
	}
	return nil
}

// seat is the seat the bot may take in cr (0 drives), or -1: one the car's model has, that
// no other bot has taken (the match's shared car state), and that the bot's own client
// shows free, as a player's game shows who sits in a car (nobody gets into a seat it sees
// taken: the server holds a seat until the frame that leaves it, which is the frame that
// shows it free).
func (b *bot) seat(m *Match, cr *car) int {
	if cr.wrecked {
		return -1
	}
	seats := m.vehicles().Seats(cr.model)
	switch {
	case cr.driver < 0 && b.seesFree(cr.id, 0):
		return 0
	case cr.passenger < 0 && seats > 1 && b.seesFree(cr.id, 1):
		return 1
	}
	return -1
}

// seesFree reports whether the bot's client shows nobody in seat of vehicle.
func (b *bot) seesFree(vehicle uint16, seat uint8) bool {
	b.ids = b.p.c.AppendRemotes(b.ids[:0])
	for _, id := range b.ids {
		if r, ok := b.p.c.Remote(id); ok && r.Vehicle == vehicle && r.Seat == seat {
			return false
		}
	}
	return true
}

// enterCar seats the bot in cr, which it stands next to.
func (b *bot) enterCar(now time.Duration, m *Match, cr *car) {
	c := b.p.c
	b.carGoal = nil
	seat := b.seat(m, cr)
	if seat < 0 {
		return
	}
	if err := c.EnterVehicle(now, cr.id, uint8(seat), cr.pose, cr.health()); err != nil {
		return
	}
	b.car = cr
	b.driving = seat == 0
	if b.driving {
		cr.driver = b.p.idx
		cr.waypoint = roamPoint(b.p.rng, cr.pose.Position, m.cfg.half())
	} else {
		cr.passenger = b.p.idx
	}
	b.leaveAt = now + time.Duration(15+b.p.rng.IntN(30))*time.Second
}

// ride drives the car (the driver) or sits in it (the passenger), and leaves it after a
// while or when it is wrecked.
func (b *bot) ride(now time.Duration, m *Match) {
	c := b.p.c
	cr := b.car
	if v, _ := c.Vehicle(); v == wire.NoVehicle {
		b.leaveCar(now, m) // the client stepped out of a wreck (or died)
		return
	}
	if cr.wrecked {
		return // the wreck burns: the server's verdict on its occupants is on its way
	}
	if now >= b.leaveAt {
		b.leaveCar(now, m)
		return
	}
	if !b.driving {
		// A passenger's game moves the car with the driver's frames the server relays (its
		// client does that); it fires from where its game shows the car.
		b.driveBy(now, m)
		return
	}
	next, reached := stepTowards(cr.pose.Position, cr.waypoint, DriveSpeed*float32(ThinkInterval.Seconds()))
	if reached {
		cr.waypoint = roamPoint(b.p.rng, cr.pose.Position, m.cfg.half())
		// Mostly the driver heads for the nearest enemy on foot: a ram.
		if t := b.pickTarget(m); t != nil && t.r.Vehicle == wire.NoVehicle && b.p.rng.IntN(4) > 0 {
			cr.waypoint = t.r.Position
		}
	}
	vel := scale(sub(next, cr.pose.Position), float32(1/ThinkInterval.Seconds()))
	rot := cr.pose.Rotation
	if length(vel) > 0.01 {
		rot = yaw(facing(vel))
	}
	cr.pose = client.VehiclePose{Position: next, Rotation: rot, Velocity: vel}
	_ = c.MoveVehicle(now, cr.pose)
	// The driver fires its car's gun, if the catalogue gives it one: from the gun's mount,
	// within its range (the client keeps its cadence).
	if gun, _, ok := m.vehicles().SeatGun(cr.model, 0); ok && b.p.rng.Float64() < 0.5 {
		if t := b.pickTarget(m); t != nil {
			muzzle := wire.Vec3(gun.Muzzle(inventory.Vec3(next), inventory.Quat(rot)))
			aim := add(t.r.Position, wire.Vec3{Z: 0.3})
			if dist(muzzle, aim) < gun.Range {
				_, _ = c.VehicleFire(now, wire.HitPlayer, uint16(t.id), muzzle, aim)
			}
		}
	}
}

func (b *bot) leaveCar(now time.Duration, m *Match) {
	c := b.p.c
	cr := b.car
	if b.driving {
		if _, h, ok := c.VehicleState(); ok {
			cr.lastHealth = h
		}
		cr.driver = -1
	} else if cr.passenger == b.p.idx {
		cr.passenger = -1
	}
	_ = c.LeaveVehicle(now)
	b.car, b.driving = nil, false
}

// stop ends the bot's play: it lets go of the trigger and stands still.
func (b *bot) stop(now time.Duration, m *Match) {
	c := b.p.c
	if b.spraying > 0 {
		_, _ = c.HoldFire(now, false)
		b.spraying = 0
	}
	if c.Alive() {
		pos := c.Position()
		_ = c.Move(now, pos, wire.Vec3{}, c.Facing())
	}
}
