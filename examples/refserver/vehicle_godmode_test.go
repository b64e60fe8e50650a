package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// carTarget sets up a duel where b drives car 3 (at x = 20) and a, with an M4 and an RTT
// of 300 ms, shoots at it from x = -60. drive sends b's frame and its car's frame showing
// health, at b's position.
func carTarget(t *testing.T, cfg Config) (h *harness, a, b *tclient, drive func(health float32)) {
	t.Helper()
	h = newHarness(t, cfg)
	a, b = h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	h.give(a, m4, 2000)
	require.NoError(t, h.w.CreateVehicle(h.now, 3, 411, wire.Vec3{X: 20, Y: -20}, wire.Quat{W: 1}))
	a.pos = wire.Vec3{X: -60}
	h.walkTo(b, wire.Vec3{X: 20, Y: -20}) // up to the door
	b.vehicle, b.seat = 3, 0
	var seq uint16
	drive = func(health float32) {
		t.Helper()
		require.Equal(t, VerdictAccepted, h.frame(b))
		seq++
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.VehicleSync{Seq: seq, Vehicle: 3, Position: b.pos,
			Rotation: wire.Quat{W: 1}, Health: health}))
	}
	drive(1000)
	h.flush()
	h.rtt(300 * time.Millisecond)
	h.clearEvents()
	return h, a, b, drive
}

// settle lets every claim mature and runs the detectors.
func settle(h *harness, a, b *tclient) {
	for range 12 {
		h.now += 500 * time.Millisecond
		h.frame(a)
		h.frame(b)
		require.NoError(h.t, h.w.Tick(h.now))
	}
}

func TestVehicleGodModeFlagsADriverWhoseCarNeverShowsTheHitsClaimedOnIt(t *testing.T) {
	for _, honest := range []bool{false, true} {
		h, a, b, drive := carTarget(t, testConfig())
		health := float32(1000)
		for range 25 {
			h.now += 200 * time.Millisecond
			drive(health)
			require.Equal(t, VerdictAccepted, h.shoot(a, b.pos, wire.HitVehicle, 3))
			if honest {
				health -= 30 // the M4's damage, as the driver's game applies it
			}
			require.NoError(t, h.w.Tick(h.now))
		}
		drive(health)
		settle(h, a, b)
		s := h.events(EventVehicleGodModeSuspect)
		if honest {
			require.Empty(t, s, "an honest driver whose car showed the hits")
			continue
		}
		require.Len(t, s, 1)
		require.Equal(t, PlayerID(1), s[0].Player)
		require.Equal(t, uint16(3), s[0].Vehicle)
		require.GreaterOrEqual(t, s[0].Seq, uint16(vitals.DefaultSuspicionMinHits), "raised once enough claims matured")
		require.InDelta(t, 30*float32(s[0].Seq), s[0].Amount, 0.01, "claimed: an M4's damage a hit")
		require.Zero(t, s[0].Deducted, "felt")
		require.Empty(t, h.events(EventGodModeSuspect), "no hit was claimed on the player")
		require.Equal(t, "vehicle_god_mode_suspect", s[0].Kind.String())
	}
}

func TestVehicleGodModeJudgesAHitAgainstTheCarsRewoundPose(t *testing.T) {
	// A car at 50 m/s along +y; the shooter's RTT is 300 ms, so the car's rewound pose lies
	// 15 m behind its present one: more than the vehicle near distance (12 m) off a ray
	// aimed at the other. A claim is counted when the ray passed the pose the driver was
	// sent (the rewound one), and not when it passed only where the car is now.
	cfg := testConfig()
	cfg.VehicleGodMode = vitals.VehicleConfig{MinHits: 3, MinClaimed: 60}
	for _, aimRewound := range []bool{true, false} {
		h, a, b, drive := carTarget(t, cfg)
		hits := 0
		for step := 1; step <= 18; step++ {
			h.now += 50 * time.Millisecond
			b.pos.Y += 2.5
			drive(1000)
			if step >= 8 && step%3 == 2 {
				aim := b.pos
				if aimRewound {
					aim.Y -= 15
				}
				require.Equal(t, VerdictAccepted, h.shoot(a, aim, wire.HitVehicle, 3))
				hits++
			}
		}
		require.Equal(t, 4, hits)
		settle(h, a, b)
		s := h.events(EventVehicleGodModeSuspect)
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
		h, a, b, drive := carTarget(t, testConfig())
		for range 25 {
			h.now += 100 * time.Millisecond
			drive(1000)
			require.Equal(t, VerdictAccepted, h.shoot(a, b.pos, wire.HitVehicle, 3))
		}
		h.now += 100 * time.Millisecond
		switch how {
		case "wreck": // its last fall to 0 never shows in a frame
			require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.VehicleExplode{Vehicle: 3, Attacker: 0, Weapon: m4}))
		case "leave":
			b.vehicle = wire.NoVehicle
			require.Equal(t, VerdictAccepted, h.frame(b))
		}
		settle(h, a, b)
		require.Empty(t, h.events(EventVehicleGodModeSuspect), how)
	}
}

func TestVehicleGodModeConfigIsValidated(t *testing.T) {
	cfg := testConfig()
	cfg.VehicleGodMode.Ratio = 2
	_, err := New(cfg)
	require.ErrorIs(t, err, ErrConfig)
	require.ErrorIs(t, err, vitals.ErrConfig)
}
