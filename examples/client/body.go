package client

import (
	"fmt"
	"math"
	"time"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// The player's body, moved by the world (the bot's walking and driving). The frames carry
// what these verbs set.

func checkFacing(f float32) error {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return fmt.Errorf("%w: facing %v", ErrNotFinite, f)
	}
	return nil
}

func checkVelocity(v wire.Vec3) error {
	for _, f := range [3]float32{v.X, v.Y, v.Z} {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return fmt.Errorf("%w: velocity %v", ErrNotFinite, v)
		}
	}
	return nil
}

func checkPose(p VehiclePose) error {
	if err := checkVec("vehicle position", p.Position, wire.MaxCoord); err != nil {
		return err
	}
	if err := checkVelocity(p.Velocity); err != nil {
		return err
	}
	q := p.Rotation
	n := float64(q.W)*float64(q.W) + float64(q.X)*float64(q.X) + float64(q.Y)*float64(q.Y) + float64(q.Z)*float64(q.Z)
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return fmt.Errorf("%w: rotation %v", ErrNotFinite, q)
	}
	if n < 0.81 || n > 1.21 { // |q| within 0.9..1.1, as the wire requires
		return fmt.Errorf("%w: rotation %v is not a unit quaternion", ErrOutOfRange, q)
	}
	return nil
}

// Move sets where the player's body is, how fast it moves (clamped to what a frame carries
// when sent, wire.ClampVelocity) and its heading in radians. The next frame carries them.
func (c *Client) Move(now time.Duration, pos, vel wire.Vec3, facing float32) error {
	if err := c.input(now); err != nil {
		return err
	}
	if err := checkVec("position", pos, wire.MaxCoord); err != nil {
		return err
	}
	if err := checkVelocity(vel); err != nil {
		return err
	}
	if err := checkFacing(facing); err != nil {
		return err
	}
	c.pos, c.vel, c.facing = pos, vel, facing
	return nil
}

// EnterVehicle seats the living player in vehicle (seat 0 drives) standing at pose with
// the given health (the driver's client keeps it and reports the explosion at 0). The
// player's body moves with the vehicle from now on (MoveVehicle).
func (c *Client) EnterVehicle(now time.Duration, vehicle uint16, seat uint8, pose VehiclePose, health float32) error {
	if err := c.input(now); err != nil {
		return err
	}
	if vehicle == wire.NoVehicle {
		return fmt.Errorf("%w: no vehicle", ErrOutOfRange)
	}
	if seat > wire.MaxSeat {
		return fmt.Errorf("%w: seat %d", ErrOutOfRange, seat)
	}
	if err := checkPose(pose); err != nil {
		return err
	}
	if math.IsNaN(float64(health)) || math.IsInf(float64(health), 0) {
		return fmt.Errorf("%w: vehicle health %v", ErrNotFinite, health)
	}
	if health < 0 || health > wire.MaxVehicleHealth {
		return fmt.Errorf("%w: vehicle health %v", ErrOutOfRange, health)
	}
	if !c.alive {
		return ErrNotAlive
	}
	if c.veh.in {
		return fmt.Errorf("%w: %d", ErrInVehicle, c.veh.vehicle)
	}
	c.veh = seatState{in: true, vehicle: vehicle, seat: seat, since: now, pose: pose, health: health, wrecked: health == 0,
		lastAttacker: wire.NoPlayer, lastWeapon: inventory.CauseExplosion}
	c.pos, c.vel = pose.Position, pose.Velocity
	c.fireHeld = false
	return nil
}

// MoveVehicle sets the pose of the vehicle the player sits in, and the player's with it.
// A frozen vehicle does not move (ErrFrozen).
func (c *Client) MoveVehicle(now time.Duration, pose VehiclePose) error {
	if err := c.input(now); err != nil {
		return err
	}
	if err := checkPose(pose); err != nil {
		return err
	}
	if !c.veh.in {
		return ErrNotInVehicle
	}
	if c.Frozen(c.veh.vehicle) {
		return fmt.Errorf("%w: %d", ErrFrozen, c.veh.vehicle)
	}
	c.veh.pose = pose
	c.pos, c.vel = pose.Position, pose.Velocity
	c.vehicleDriven(c.veh.vehicle, pose)
	return nil
}

// LeaveVehicle puts the player on foot where the vehicle stands. A driver whose vehicle
// exploded in its own game cannot leave it (ErrExploding): its game killed it there, and
// the server's RemoteVehicleExplode decides whether it dies or, as a teammate of the
// explosion's author, steps out of the wreck.
func (c *Client) LeaveVehicle(now time.Duration) error {
	if err := c.input(now); err != nil {
		return err
	}
	if !c.veh.in {
		return ErrNotInVehicle
	}
	if c.veh.exploded {
		return ErrExploding
	}
	c.leaveSeat()
	return nil
}

func (c *Client) leaveSeat() {
	if !c.veh.in {
		return
	}
	c.pos = c.veh.pose.Position
	c.vel = wire.Vec3{}
	c.veh = seatState{vehicle: wire.NoVehicle}
}

// VehicleHit applies amount of damage, dealt by attacker (wire.NoPlayer for none) with
// weapon, to the vehicle the player drives. Damage to a vehicle is not damage to a player:
// no teammate refusal, no report (those are for damage to players). When its health
// reaches 0 the vehicle is wrecked and VehicleExplode goes on the lane with the last player who damaged it; the
// occupants (the driver included) die, or step out, when the server's
// RemoteVehicleExplode comes back. It reports whether the vehicle exploded now.
func (c *Client) VehicleHit(now time.Duration, attacker wire.PlayerID, weapon uint8, amount float32) (bool, error) {
	if err := c.input(now); err != nil {
		return false, err
	}
	if err := checkAmount(amount); err != nil {
		return false, err
	}
	if !c.veh.in {
		return false, ErrNotInVehicle
	}
	if c.veh.seat != 0 {
		return false, ErrNotDriver
	}
	if c.veh.wrecked || !c.alive {
		return false, nil
	}
	if attacker != wire.NoPlayer {
		c.veh.lastAttacker, c.veh.lastWeapon = attacker, weapon
	}
	c.veh.health -= amount
	if c.veh.health > 0 {
		return false, nil
	}
	c.veh.health = 0
	c.veh.wrecked, c.veh.exploded = true, true
	// The report waits DeathReportDelay like a DeathReport: a gun shot the driver sent just
	// before, unreliable, must not reach the server after it (the wreck refuses it).
	c.explodeMsg = wire.VehicleExplode{Vehicle: c.veh.vehicle, Attacker: c.veh.lastAttacker, Weapon: c.veh.lastWeapon}
	c.explodePending, c.explodeDue = true, now+DeathReportDelay
	c.event(Event{Kind: EventVehicleExploded, Position: c.pos, Vehicle: c.veh.vehicle, Attacker: c.veh.lastAttacker})
	return true, nil
}
