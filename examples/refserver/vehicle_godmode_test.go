package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

const m4 uint8 = 31

// carTarget is the vehicle god-mode detector's duel (vitals' [vehicle-god-mode-detector]):
// raw connection b drives car 3 (at x = 20, y = -20) and a, with an M4 and a round trip
// of about 300 ms, shoots at it from x = -60. drive sends b's frame and its car's frame
// showing health, at pos (b's frame alone once onFoot); shoot sends a's shot at the car
// through aim; settle lets every claim mature and runs the detectors.
type carTarget struct {
	t         *testing.T
	k         *simkit.Kit
	a, b      *simkit.Raw
	aPos, pos wire.Vec3
	frames    [2]uint16
	carSeq    uint16
	shotSeq   uint16
	onFoot    bool
}

func newCarTarget(t *testing.T, cfg refserver.Config) *carTarget {
	t.Helper()
	k, raws := rawKit(t, cfg, 300*time.Millisecond, 2)
	c := &carTarget{t: t, k: k, a: raws[0], b: raws[1], aPos: wire.Vec3{X: -60}, pos: wire.Vec3{X: 20, Y: -20}, frames: [2]uint16{1, 1}}
	srv := k.Server()
	require.NoError(t, srv.GiveWeapon(k.Now(), c.a.ID(), m4, 2000, true))
	require.NoError(t, srv.CreateVehicle(k.Now(), 3, 411, c.pos, wire.Quat{W: 1}))
	require.NoError(t, k.Advance(20*time.Millisecond))
	c.frame(c.a, wire.NoVehicle, c.aPos) // a stands at x = -60, its M4 in hand
	c.frame(c.b, wire.NoVehicle, c.pos)  // b walks up to the door
	c.drive(1000)
	require.NoError(t, k.Advance(3*time.Second)) // the round trips are measured
	rtt, ok := srv.RTT(c.a.ID())
	require.True(t, ok)
	require.InDelta(t, 300*time.Millisecond, rtt, float64(20*time.Millisecond))
	return c
}

func (c *carTarget) frame(r *simkit.Raw, veh uint16, pos wire.Vec3) {
	c.t.Helper()
	require.Equal(c.t, refserver.VerdictAccepted, c.sendFrame(r, veh, pos))
}

// sendFrame sends r's next frame and returns the server's verdict.
func (c *carTarget) sendFrame(r *simkit.Raw, veh uint16, pos wire.Vec3) refserver.Verdict {
	c.t.Helper()
	i := 0
	if r == c.b {
		i = 1
	}
	c.frames[i]++
	m := &wire.PlayerSync{Seq: c.frames[i], DeathEpoch: 1, Alive: true, Health: 100, Vehicle: veh, Position: pos}
	if r == c.a {
		give, ok := lastOf[*wire.GiveWeapon](r)
		require.True(c.t, ok)
		m.WeaponRev, m.Weapon, m.Clip, m.Total = give.Rev, m4, 50, 2000
	}
	return must(c.t)(r.Send(m))
}

func (c *carTarget) drive(health float32) {
	c.t.Helper()
	veh := uint16(3)
	if c.onFoot {
		veh = wire.NoVehicle
	}
	c.frame(c.b, veh, c.pos)
	if c.onFoot {
		return
	}
	c.carSeq++
	require.Equal(c.t, refserver.VerdictAccepted, must(c.t)(c.b.Send(&wire.VehicleSync{Seq: c.carSeq, Vehicle: 3, Position: c.pos,
		Rotation: wire.Quat{W: 1}, Health: health})))
}

func (c *carTarget) shoot(aim wire.Vec3) {
	c.t.Helper()
	c.shotSeq++
	require.Equal(c.t, refserver.VerdictAccepted, must(c.t)(c.a.Send(&wire.WeaponShot{ShotSeq: c.shotSeq, DeathEpoch: 1,
		Weapon: m4, HitType: wire.HitVehicle, HitID: 3, Origin: c.aPos, HitPos: aim})))
}

func (c *carTarget) settle() {
	c.t.Helper()
	veh := uint16(3)
	if c.onFoot {
		veh = wire.NoVehicle
	}
	for range 12 {
		require.NoError(c.t, c.k.Advance(500*time.Millisecond))
		c.frame(c.a, wire.NoVehicle, c.aPos)
		c.sendFrame(c.b, veh, c.pos) // b's own frames, in its seat (refused once wrecked)
	}
}

func (c *carTarget) suspicions() []refserver.Event {
	return eventsOf(c.k, refserver.EventVehicleGodModeSuspect, c.b.ID())
}

func TestVehicleGodModeFlagsADriverWhoseCarNeverShowsTheHitsClaimedOnIt(t *testing.T) {
	for _, honest := range []bool{false, true} {
		c := newCarTarget(t, refserver.Config{})
		health := float32(1000)
		for range 25 {
			require.NoError(t, c.k.Advance(200*time.Millisecond))
			c.drive(health)
			c.shoot(c.pos)
			if honest {
				health -= 30 // the M4's damage, as the driver's game applies it
			}
		}
		c.drive(health)
		c.settle()
		s := c.suspicions()
		if honest {
			require.Empty(t, s, "an honest driver whose car showed the hits")
			continue
		}
		require.Len(t, s, 1)
		require.Equal(t, uint16(3), s[0].Vehicle)
		require.GreaterOrEqual(t, s[0].Seq, uint16(vitals.DefaultSuspicionMinHits), "raised once enough claims matured")
		require.InDelta(t, 30*float32(s[0].Seq), s[0].Amount, 0.01, "claimed: an M4's damage a hit")
		require.Zero(t, s[0].Deducted, "felt")
		require.Empty(t, eventsOf(c.k, refserver.EventGodModeSuspect, c.b.ID()), "no hit was claimed on the player")
		require.Equal(t, "vehicle_god_mode_suspect", s[0].Kind.String())
	}
}

func TestVehicleGodModeJudgesAHitAgainstTheCarsRewoundPose(t *testing.T) {
	// A car at 50 m/s along +y; the shooter's round trip is about 300 ms, so the car's
	// rewound pose lies 15 m behind its present one: more than the vehicle near distance
	// (12 m) off a ray aimed at the other. A claim is counted when the ray passed the pose
	// the driver was sent (the rewound one), and not when it passed only where the car is
	// now.
	cfg := refserver.Config{VehicleGodMode: vitals.VehicleConfig{MinHits: 3, MinClaimed: 60}}
	for _, aimRewound := range []bool{true, false} {
		c := newCarTarget(t, cfg)
		hits := 0
		for step := 1; step <= 18; step++ {
			require.NoError(t, c.k.Advance(50*time.Millisecond))
			c.pos.Y += 2.5
			c.drive(1000)
			if step >= 8 && step%3 == 2 {
				aim := c.pos
				if aimRewound {
					aim.Y -= 15
				}
				c.shoot(aim)
				hits++
			}
		}
		require.Equal(t, 4, hits)
		c.settle()
		s := c.suspicions()
		if aimRewound {
			require.Len(t, s, 1, "4 claims through the rewound pose, nothing felt")
			require.GreaterOrEqual(t, s[0].Seq, uint16(3))
		} else {
			require.Empty(t, s, "claims through the present pose only are not judged")
		}
	}
}

func TestVehicleGodModeForgetsTheClaimsOnAWreckAndOnACarLeft(t *testing.T) {
	for _, how := range []string{"wreck", "leave"} {
		c := newCarTarget(t, refserver.Config{})
		for range 25 {
			require.NoError(t, c.k.Advance(100*time.Millisecond))
			c.drive(1000)
			c.shoot(c.pos)
		}
		require.NoError(t, c.k.Advance(100*time.Millisecond))
		switch how {
		case "wreck": // its last fall to 0 never shows in a frame
			require.Equal(t, refserver.VerdictAccepted, must(t)(c.b.Send(&wire.VehicleExplode{Vehicle: 3, Attacker: c.a.ID(), Weapon: m4})))
		case "leave":
			c.onFoot = true
			c.drive(0)
		}
		c.settle()
		require.Empty(t, c.suspicions(), how)
	}
}

func TestVehicleGodModeConfigIsValidated(t *testing.T) {
	_, err := refserver.New(refserver.Config{VehicleGodMode: vitals.VehicleConfig{Ratio: 2}})
	require.ErrorIs(t, err, refserver.ErrConfig)
	require.ErrorIs(t, err, vitals.ErrConfig)
}

// Rule [stream-vehicle-relays]: a claimed hit on a car feeds its driver's
// vehicle_god_mode detector only when the driver was sent the shot. With a stream
// distance of 50 m the driver (82 m from the shooter) does not see the shooter, gets none
// of its shots, and is not suspected of a car that never showed them; the same volley
// with the default distance is the control.
func TestVehicleGodModeIgnoresShotsTheDriverWasNotSent(t *testing.T) {
	for _, distance := range []float32{0, 50} {
		c := newCarTarget(t, refserver.Config{Stream: refserver.StreamConfig{Distance: distance}})
		for range 25 {
			require.NoError(t, c.k.Advance(200*time.Millisecond))
			c.drive(1000)
			c.shoot(c.pos)
		}
		c.drive(1000)
		c.settle()
		seen := c.k.Server().Sees(c.b.ID(), c.a.ID())
		if distance == 0 {
			require.True(t, seen)
			require.NotEmpty(t, receivedOf[*wire.RemoteWeaponShot](c.b))
			require.Len(t, c.suspicions(), 1, "the control: the driver was sent every shot")
			continue
		}
		require.False(t, seen)
		require.Empty(t, receivedOf[*wire.RemoteWeaponShot](c.b))
		require.Empty(t, c.suspicions(), "a driver is not judged by shots it was never sent")
	}
}
