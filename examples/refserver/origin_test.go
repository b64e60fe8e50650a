package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// The rules of where a client's own actions start: a shot's ray and a projectile's launch
// start where the server accepted the actor (its path, its seat's vehicle, its vehicle's
// rockets), and a detonation lies where that weapon can carry a projectile from its launch.

const (
	rocket       uint8  = 35
	satchel      uint8  = 39
	carModel     uint16 = 411
	frameSpacing        = 33 * time.Millisecond
)

func add3(a, b wire.Vec3) wire.Vec3 { return wire.Vec3{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z} }

// shootFrom sends a WeaponShot of c's held weapon from origin to end.
func (h *harness) shootFrom(c *tclient, origin, end wire.Vec3, ht wire.HitType, hid uint16) Verdict {
	h.t.Helper()
	c.shotSeq++
	return h.w.Handle(h.now, c.id, &wire.WeaponShot{ShotSeq: c.shotSeq, DeathEpoch: c.gen, PropertiesRev: h.w.catalog.Revision(),
		Weapon: c.weapon, HitType: ht, HitID: hid, Origin: origin, HitPos: end})
}

// launch sends a ProjectileLaunch of c's from origin (from vehicle veh, NoVehicle on foot).
func (h *harness) launch(c *tclient, seq uint16, weapon uint8, veh uint16, origin wire.Vec3) Verdict {
	h.t.Helper()
	return h.w.Handle(h.now, c.id, &wire.ProjectileLaunch{Projectile: seq, DeathEpoch: c.gen, Weapon: weapon, Vehicle: veh,
		Target: wire.NoVehicle, Origin: origin, Velocity: wire.Vec3{X: 15}})
}

// detonate sends c's Detonation of projectile seq at pos.
func (h *harness) detonate(c *tclient, seq uint16, weapon uint8, pos wire.Vec3) Verdict {
	h.t.Helper()
	return h.w.Handle(h.now, c.id, &wire.Detonation{Projectile: seq, DeathEpoch: c.gen, Weapon: weapon, Position: pos})
}

// move walks c by step per frame for n frames, a frame every frameSpacing.
func (h *harness) move(c *tclient, step wire.Vec3, n int) {
	h.t.Helper()
	for range n {
		h.now += frameSpacing
		c.pos = add3(c.pos, step)
		require.Equal(h.t, VerdictAccepted, h.frame(c))
	}
}

// lastRefusal returns the newest refusal event of kind k.
func (h *harness) lastRefusal(k EventKind) Event {
	h.t.Helper()
	ev := h.events(k)
	require.NotEmpty(h.t, ev)
	return ev[len(ev)-1]
}

func TestAShotStartingFarFromTheShootersAcceptedPathIsRefused(t *testing.T) {
	h, a, b := duel(t, m4)
	// The victim stands 400 m away; the shooter's ray claims to start a metre from it.
	b.pos = wire.Vec3{X: 400}
	require.Equal(t, VerdictAccepted, h.frame(b))
	h.move(a, wire.Vec3{}, 5)
	b.reset()
	h.clearEvents()
	require.Equal(t, VerdictFarOrigin, h.shootFrom(a, wire.Vec3{X: 399}, wire.Vec3{X: 400.5}, wire.HitPlayer, 1))
	e := h.lastRefusal(EventShotRefused)
	require.Equal(t, VerdictFarOrigin, e.Verdict)
	require.InDelta(t, 399, e.Amount, 0.01, "the distance from its path")
	require.Equal(t, float32(OriginReach), e.Floor, "the tolerance of a shooter standing still")
	require.Contains(t, e.String(), "verdict=far_origin detail=origin")
	require.Equal(t, uint64(1), h.w.Stats().FarOrigins)
	h.flush()
	require.Empty(t, received[*wire.RemoteWeaponShot](b), "nothing is relayed")
	require.Equal(t, VerdictNoSuchAction, h.hit(b, 0, m4, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 9.9),
		"the victim's honest trace of it is never credited")
	ammo, _, _ := h.w.Ammo(0, m4)
	require.Equal(t, uint16(100), ammo, "a refused shot spends nothing")

	// From its own hands the same shooter's shots are taken; their end stays within the
	// weapon's range from that origin (the inventory's rule).
	eye := add3(a.pos, wire.Vec3{Z: 0.6})
	require.Equal(t, VerdictAccepted, h.shootFrom(a, eye, wire.Vec3{X: 80}, wire.HitNone, 0))
	require.Equal(t, VerdictOutOfRange, h.shootFrom(a, eye, wire.Vec3{X: 200}, wire.HitNone, 0))
	require.Equal(t, uint64(1), h.w.Stats().FarOrigins)
}

func TestAShotMayLeadOrTrailTheFramesThatShowWhereItWasFired(t *testing.T) {
	h, a, _ := duel(t, m4)
	h.move(a, wire.Vec3{X: 0.2}, 30) // 6 m/s along X for a second
	eye := wire.Vec3{Z: 0.6}
	// Fired 300 ms ago, arriving after ten newer frames.
	trail := add3(a.pos, add3(eye, wire.Vec3{X: -1.8}))
	require.Equal(t, VerdictAccepted, h.shootFrom(a, trail, add3(trail, wire.Vec3{X: 50}), wire.HitNone, 0))
	// Fired after a frame still on its way: ahead of the newest frame the server holds.
	lead := add3(a.pos, add3(eye, wire.Vec3{X: 0.6}))
	require.Equal(t, VerdictAccepted, h.shootFrom(a, lead, add3(lead, wire.Vec3{X: 50}), wire.HitNone, 0))
	// Where it never was within the window.
	for _, off := range []wire.Vec3{{X: 30}, {X: -15}, {Y: 12}} {
		o := add3(a.pos, off)
		require.Equal(t, VerdictFarOrigin, h.shootFrom(a, o, add3(o, wire.Vec3{X: 50}), wire.HitNone, 0), "offset %v", off)
	}
}

func TestAShotFromWhereATeleportedShooterStoodIsTakenUntilItsClientMoved(t *testing.T) {
	h, a, _ := duel(t, m4)
	h.move(a, wire.Vec3{}, 10)
	old := add3(a.pos, wire.Vec3{Z: 0.6})
	require.NoError(t, h.w.SetPlayerPosition(h.now, 0, wire.Vec3{X: 300}, 0))
	// Its client has not applied the move yet: it fires from where it stands.
	h.now += 20 * time.Millisecond
	require.Equal(t, VerdictAccepted, h.shootFrom(a, old, add3(old, wire.Vec3{Y: 50}), wire.HitNone, 0))
	h.move(a, wire.Vec3{}, 2) // frames from before the move, still in flight
	require.Equal(t, VerdictAccepted, h.shootFrom(a, old, add3(old, wire.Vec3{Y: 50}), wire.HitNone, 0))
	// The client applied it: its frames come from the new place for a while.
	h.flush()
	a.pos = wire.Vec3{X: 300}
	h.move(a, wire.Vec3{}, 30)
	require.Equal(t, VerdictFarOrigin, h.shootFrom(a, old, add3(old, wire.Vec3{Y: 50}), wire.HitNone, 0))
	at := add3(a.pos, wire.Vec3{Z: 0.6})
	require.Equal(t, VerdictAccepted, h.shootFrom(a, at, add3(at, wire.Vec3{Y: 50}), wire.HitNone, 0))
}

func TestADriveByIsJudgedAgainstTheVehicleThePassengerSitsIn(t *testing.T) {
	h, a, _ := duel(t, m4)
	require.NoError(t, h.w.CreateVehicle(h.now, 2, carModel, a.pos, wire.Quat{W: 1}))
	// On foot, standing: 6 m beside it is not where it stands.
	side := add3(a.pos, wire.Vec3{Y: 6, Z: 0.6})
	require.Equal(t, VerdictFarOrigin, h.shootFrom(a, side, add3(side, wire.Vec3{X: 50}), wire.HitNone, 0))
	// A passenger: its frames carry the car's position, 13 m/s along X.
	a.vehicle, a.seat = 2, 1
	h.move(a, wire.Vec3{X: 13 * 0.033}, 30)
	window := add3(a.pos, wire.Vec3{Y: 1.2, Z: 0.6}) // the passenger's window
	require.Equal(t, VerdictAccepted, h.shootFrom(a, window, add3(window, wire.Vec3{Y: 50}), wire.HitNone, 0))
	side = add3(a.pos, wire.Vec3{Y: 6, Z: 0.6}) // the far end of a long vehicle
	require.Equal(t, VerdictAccepted, h.shootFrom(a, side, add3(side, wire.Vec3{Y: 50}), wire.HitNone, 0))
	far := add3(a.pos, wire.Vec3{Y: 40})
	require.Equal(t, VerdictFarOrigin, h.shootFrom(a, far, add3(far, wire.Vec3{Y: 50}), wire.HitNone, 0))
}

func TestAProjectileLaunchedFarFromItsOwnerIsRefused(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.GiveWeapon(h.now, 0, grenade, 3, false))
	h.flush()
	h.move(a, wire.Vec3{}, 5)
	b.reset()
	h.clearEvents()
	// The owner stands at x=0; the grenade starts at x=899 and explodes there.
	require.Equal(t, VerdictFarOrigin, h.launch(a, 1, grenade, NoVehicle, wire.Vec3{X: 899}))
	e := h.lastRefusal(EventProjectileRefused)
	require.Equal(t, VerdictFarOrigin, e.Verdict)
	n, _, _ := h.w.Ammo(0, grenade)
	require.Equal(t, uint16(3), n, "nothing spent")
	h.now += 2 * time.Second
	require.Equal(t, VerdictFarOrigin, h.detonate(a, 1, grenade, wire.Vec3{X: 899}),
		"its detonation, judged as a lost launch, is as far from the owner")
	h.flush()
	require.Empty(t, received[*wire.RemoteProjectile](b))
	require.Empty(t, received[*wire.RemoteDetonation](b))
	require.Equal(t, uint64(2), h.w.Stats().FarOrigins)
	// From its hand it is taken.
	require.Equal(t, VerdictAccepted, h.launch(a, 2, grenade, NoVehicle, add3(a.pos, wire.Vec3{Z: 0.6})))
}

func TestADetonationLiesWhereItsWeaponCarriesAProjectileSinceTheLaunch(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.GiveWeapon(h.now, 0, grenade, 5, false))
	require.NoError(t, h.w.GiveWeapon(h.now, 0, rocket, 5, false))
	h.flush()
	h.move(a, wire.Vec3{}, 5)
	hand := add3(a.pos, wire.Vec3{Z: 0.6})
	b.reset()
	h.clearEvents()
	// A grenade thrown from x=0 does not explode at x=899.
	require.Equal(t, VerdictAccepted, h.launch(a, 1, grenade, NoVehicle, hand))
	h.now += 2 * time.Second
	require.Equal(t, VerdictFarDetonation, h.detonate(a, 1, grenade, wire.Vec3{X: 899}))
	require.Equal(t, VerdictFarDetonation, h.lastRefusal(EventProjectileRefused).Verdict)
	require.Equal(t, uint64(1), h.w.Stats().FarDetonations)
	require.Equal(t, VerdictAccepted, h.detonate(a, 1, grenade, wire.Vec3{X: 30}), "a throw's length away it does")
	// A rocket flies farther the longer it flies, up to a cap.
	require.Equal(t, VerdictAccepted, h.launch(a, 2, rocket, NoVehicle, hand))
	h.now += 300 * time.Millisecond
	require.Equal(t, VerdictFarDetonation, h.detonate(a, 2, rocket, wire.Vec3{X: 250}), "250 m in 300 ms")
	h.now += 2 * time.Second
	require.Equal(t, VerdictAccepted, h.detonate(a, 2, rocket, wire.Vec3{X: 250}), "250 m in 2.3 s")
	require.Equal(t, VerdictAccepted, h.launch(a, 3, rocket, NoVehicle, hand))
	h.now += 100 * time.Second
	require.Equal(t, VerdictFarDetonation, h.detonate(a, 3, rocket, wire.Vec3{X: 2000}), "beyond any rocket's flight")
	h.flush()
	require.Len(t, received[*wire.RemoteDetonation](b), 2, "only the reachable detonations are relayed")
}

func TestALostLaunchsDetonationIsBoundToTheOwnersPath(t *testing.T) {
	h, a, _ := duel(t, deagle)
	require.NoError(t, h.w.GiveWeapon(h.now, 0, grenade, 5, false))
	h.flush()
	h.move(a, wire.Vec3{X: 0.15}, 30)
	// Its launch never arrived: the detonation heals it only a throw's reach from where
	// the owner was.
	require.Equal(t, VerdictFarOrigin, h.detonate(a, 1, grenade, wire.Vec3{X: 500}))
	n, _, _ := h.w.Ammo(0, grenade)
	require.Equal(t, uint16(5), n, "a refused heal spends nothing")
	require.Equal(t, VerdictAccepted, h.detonate(a, 2, grenade, add3(a.pos, wire.Vec3{X: 25})))
	n, _, _ = h.w.Ammo(0, grenade)
	require.Equal(t, uint16(4), n)
}

func TestAVehiclesRocketStartsAtTheVehicle(t *testing.T) {
	h, a, _ := duel(t, deagle)
	start := wire.Vec3{X: 2} // beside the pilot: an entry is taken only within reach
	require.NoError(t, h.w.CreateVehicle(h.now, 3, ModelHunter, start, wire.Quat{W: 1}))
	a.vehicle, a.seat, a.pos = 3, 0, start
	require.Equal(t, VerdictAccepted, h.frame(a))
	for i := 1; i <= 20; i++ {
		h.now += frameSpacing
		a.pos = add3(start, wire.Vec3{X: float32(i)})
		require.Equal(t, VerdictAccepted, h.frame(a))
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.VehicleSync{Seq: uint16(i), Vehicle: 3, Position: a.pos,
			Rotation: wire.Quat{W: 1}, Health: 1000}))
	}
	require.Equal(t, VerdictAccepted, h.launch(a, 1, rocket, 3, add3(a.pos, wire.Vec3{X: 4, Z: -1})), "from its rocket pod")
	require.Equal(t, VerdictFarOrigin, h.launch(a, 2, rocket, 3, add3(a.pos, wire.Vec3{X: 200})))
}

func TestASatchelRidesAVehicleThatStoodWithinItsThrow(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.GiveWeapon(h.now, 0, satchel, 5, false))
	require.NoError(t, h.w.CreateVehicle(h.now, 2, carModel, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	h.flush()
	h.move(a, wire.Vec3{}, 5)
	require.Equal(t, VerdictAccepted, h.launch(a, 1, satchel, NoVehicle, add3(a.pos, wire.Vec3{Z: 0.6})), "thrown onto the car")
	require.Equal(t, VerdictAccepted, h.launch(a, 2, satchel, NoVehicle, add3(a.pos, wire.Vec3{Z: 0.6})), "thrown onto the car too")
	// b drives the car 300 m away.
	b.vehicle, b.seat, b.pos = 2, 0, wire.Vec3{X: 10}
	require.Equal(t, VerdictAccepted, h.frame(b))
	for i := 1; i <= 300; i++ {
		h.now += frameSpacing
		b.pos = wire.Vec3{X: 10 + float32(i)}
		require.Equal(t, VerdictAccepted, h.frame(b))
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.VehicleSync{Seq: uint16(i), Vehicle: 2, Position: b.pos,
			Rotation: wire.Quat{W: 1}, Health: 1000}))
	}
	require.Equal(t, VerdictFarDetonation, h.detonate(a, 2, satchel, wire.Vec3{Y: 300}), "where no car it rode went")
	require.Equal(t, VerdictAccepted, h.detonate(a, 1, satchel, add3(b.pos, wire.Vec3{Z: 1})), "on the car")
}

func TestALostLaunchOfAVehiclesRocketIsHealedFromItsSeatWithoutTheStore(t *testing.T) {
	h, a, _ := duel(t, deagle)
	require.NoError(t, h.w.GiveWeapon(h.now, 0, rocket, 2, false))
	require.NoError(t, h.w.CreateVehicle(h.now, 3, ModelHunter, wire.Vec3{X: 2}, wire.Quat{W: 1}))
	h.flush()
	a.vehicle, a.seat, a.pos = 3, 0, wire.Vec3{X: 2} // beside the pilot: an entry is taken only within reach
	h.move(a, wire.Vec3{X: 1}, 20)
	// The rocket's launch was lost; its detonation 80 m ahead arrives.
	require.Equal(t, VerdictAccepted, h.detonate(a, 1, rocket, add3(a.pos, wire.Vec3{X: 80})))
	n, _, _ := h.w.Ammo(0, rocket)
	require.Equal(t, uint16(2), n, "the Hunter's rocket spends nothing of the pilot's own launcher")
	require.Equal(t, VerdictFarOrigin, h.detonate(a, 2, rocket, add3(a.pos, wire.Vec3{X: 900})), "beyond any rocket's flight")
	// On foot, a rocket is the store's.
	a.vehicle, a.seat = NoVehicle, 0
	h.move(a, wire.Vec3{}, 20)
	require.Equal(t, VerdictAccepted, h.detonate(a, 3, rocket, add3(a.pos, wire.Vec3{X: 30})))
	n, _, _ = h.w.Ammo(0, rocket)
	require.Equal(t, uint16(1), n, "its own launcher's rocket is spent")
	require.Equal(t, VerdictAccepted, h.detonate(a, 4, rocket, add3(a.pos, wire.Vec3{X: 30})))
	require.Equal(t, VerdictNoAmmo, h.detonate(a, 5, rocket, add3(a.pos, wire.Vec3{X: 30})))
}

func TestJudgingWhereAShotStartsDoesNotAllocate(t *testing.T) {
	h, a, _ := duel(t, m4)
	require.NoError(t, h.w.GiveWeapon(h.now, 0, m4, 9000, true))
	h.flush()
	h.move(a, wire.Vec3{X: 0.2}, 30)
	frame := a.frameMsg()
	shot := &wire.WeaponShot{DeathEpoch: a.gen, PropertiesRev: h.w.catalog.Revision(), Weapon: m4}
	events := make([]Event, 0, 64)
	run := func() {
		h.now += 100 * time.Millisecond
		frame.Seq++
		frame.Position.X += 0.6
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, frame))
		shot.ShotSeq++
		shot.Origin, shot.HitPos = frame.Position, add3(frame.Position, wire.Vec3{Y: 30})
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, shot))
		shot.ShotSeq++
		shot.Origin = add3(frame.Position, wire.Vec3{Y: 40})
		require.Equal(t, VerdictFarOrigin, h.w.Handle(h.now, 0, shot))
		events = h.w.Events(events[:0])
	}
	run()
	h.flush()
	require.Zero(t, testing.AllocsPerRun(100, run))
}

func TestANewLifesShotStartsAtItsSpawnNotWhereItDied(t *testing.T) {
	h, _, b := duel(t, deagle)
	// b walks, and dies at x=14 by a fall.
	h.move(b, wire.Vec3{X: 0.2}, 20)
	died := add3(b.pos, wire.Vec3{Z: 0.6})
	require.Equal(t, VerdictAccepted, h.hit(b, NoPlayer, 54, wire.Ref{}, 100))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Weapon: 54, Killer: NoPlayer}))
	require.Equal(t, VerdictNotAlive, h.shootFrom(b, died, add3(died, wire.Vec3{X: 30}), wire.HitNone, 0), "a dead shooter")
	pt := lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: 200}}
	require.NoError(t, h.w.DecideRespawn(1, b.gen, lifecycle.AllowAt(h.now).AtPoint(pt)))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.RespawnRequest{DeathEpoch: b.gen}))
	h.flush()
	require.True(t, b.alive)
	require.Equal(t, wire.Vec3{X: 200}, b.pos)
	h.give(b, m4, 50) // its first living frame comes with it
	h.now += 100 * time.Millisecond
	require.Equal(t, VerdictFarOrigin, h.shootFrom(b, died, add3(died, wire.Vec3{X: 30}), wire.HitNone, 0),
		"within the window, but in the previous life")
	at := add3(b.pos, wire.Vec3{Z: 0.6})
	require.Equal(t, VerdictAccepted, h.shootFrom(b, at, add3(at, wire.Vec3{X: 30}), wire.HitNone, 0))
}
