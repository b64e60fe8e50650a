package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// The rules of where a client's own actions start: a shot's ray and a projectile's launch
// start where the server accepted the actor (its path, its seat's vehicle, its vehicle's
// rockets), and a detonation lies where that weapon can carry a projectile from its launch.

const (
	rocket   uint8  = 35
	satchel  uint8  = 39
	grenade  uint8  = 16
	carModel uint16 = 411
)

func TestAShotStartingFarFromTheShootersAcceptedPathIsRefused(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, m4, 0, 2)
	s := senders(t, k, r, m4)
	a, b := s[0], s[1]
	w := k.Server()
	// The victim stands 400 m away; the shooter's ray claims to start a metre from it.
	b.pos = wire.Vec3{X: 400}
	require.Equal(t, refserver.VerdictAccepted, b.frame())
	a.move(wire.Vec3{}, 5)
	tick(t, k)
	b.r.Clear()
	require.Equal(t, refserver.VerdictFarOrigin, a.shootFrom(wire.Vec3{X: 399}, wire.Vec3{X: 400.5}, wire.HitPlayer, b.r.ID()))
	e := lastRefusal(t, k, refserver.EventShotRefused, a.r.ID())
	require.Equal(t, refserver.VerdictFarOrigin, e.Verdict)
	require.InDelta(t, 399, e.Amount, 0.01, "the distance from its path")
	require.Equal(t, float32(refserver.OriginReach), e.Floor, "the tolerance of a shooter standing still")
	require.Contains(t, e.String(), "verdict=far_origin detail=origin")
	require.Equal(t, uint64(1), w.Stats().FarOrigins)
	require.Empty(t, receivedOf[*wire.RemoteWeaponShot](b.r), "nothing is relayed")
	require.Equal(t, refserver.VerdictNoSuchAction, must(t)(b.r.Send(report(1, 0, a.r.ID(), m4, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 100, 0, 9.9))),
		"the victim's honest trace of it is never credited")
	ammo, _, _ := w.Ammo(a.r.ID(), m4)
	require.Equal(t, uint16(100), ammo, "a refused shot spends nothing")

	// From its own hands the same shooter's shots are taken; their end stays within the
	// weapon's range from that origin (the inventory's rule).
	eye := add3(a.pos, wire.Vec3{Z: 0.6})
	require.Equal(t, refserver.VerdictAccepted, a.shootFrom(eye, wire.Vec3{X: 80}, wire.HitNone, 0))
	require.Equal(t, refserver.VerdictOutOfRange, a.shootFrom(eye, wire.Vec3{X: 200}, wire.HitNone, 0))
	require.Equal(t, uint64(1), w.Stats().FarOrigins)
}

func TestAShotMayLeadOrTrailTheFramesThatShowWhereItWasFired(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, m4, 0, 2)
	a := senders(t, k, r, m4)[0]
	a.move(wire.Vec3{X: 0.2}, 30) // 6 m/s along X for a second
	eye := wire.Vec3{Z: 0.6}
	// Fired 300 ms ago, arriving after ten newer frames.
	trail := add3(a.pos, add3(eye, wire.Vec3{X: -1.8}))
	require.Equal(t, refserver.VerdictAccepted, a.shootFrom(trail, add3(trail, wire.Vec3{X: 50}), wire.HitNone, 0))
	// Fired after a frame still on its way: ahead of the newest frame the server holds.
	lead := add3(a.pos, add3(eye, wire.Vec3{X: 0.6}))
	require.Equal(t, refserver.VerdictAccepted, a.shootFrom(lead, add3(lead, wire.Vec3{X: 50}), wire.HitNone, 0))
	// Where it never was within the window.
	for _, off := range []wire.Vec3{{X: 30}, {X: -15}, {Y: 12}} {
		o := add3(a.pos, off)
		require.Equal(t, refserver.VerdictFarOrigin, a.shootFrom(o, add3(o, wire.Vec3{X: 50}), wire.HitNone, 0), "offset %v", off)
	}
}

func TestAShotFromWhereATeleportedShooterStoodIsTakenUntilItsClientMoved(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, m4, 0, 2)
	a := senders(t, k, r, m4)[0]
	w := k.Server()
	a.move(wire.Vec3{}, 10)
	old := add3(a.pos, wire.Vec3{Z: 0.6})
	require.NoError(t, w.SetPlayerPosition(k.Now(), a.r.ID(), wire.Vec3{X: 300}, 0))
	// Its client has not applied the move yet: it fires from where it stands.
	require.NoError(t, k.Advance(20*time.Millisecond))
	require.Equal(t, refserver.VerdictAccepted, a.shootFrom(old, add3(old, wire.Vec3{Y: 50}), wire.HitNone, 0))
	a.move(wire.Vec3{}, 2) // frames from before the move, still in flight
	require.Equal(t, refserver.VerdictAccepted, a.shootFrom(old, add3(old, wire.Vec3{Y: 50}), wire.HitNone, 0))
	// The client applied it: its frames come from the new place for a while.
	a.pos = wire.Vec3{X: 300}
	a.move(wire.Vec3{}, 30)
	require.Equal(t, refserver.VerdictFarOrigin, a.shootFrom(old, add3(old, wire.Vec3{Y: 50}), wire.HitNone, 0))
	at := add3(a.pos, wire.Vec3{Z: 0.6})
	require.Equal(t, refserver.VerdictAccepted, a.shootFrom(at, add3(at, wire.Vec3{Y: 50}), wire.HitNone, 0))
}

func TestADriveByIsJudgedAgainstTheVehicleThePassengerSitsIn(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, m4, 0, 2)
	a := senders(t, k, r, m4)[0]
	require.NoError(t, k.Server().CreateVehicle(k.Now(), 2, carModel, a.pos, wire.Quat{W: 1}))
	// On foot, standing: 6 m beside it is not where it stands.
	side := add3(a.pos, wire.Vec3{Y: 6, Z: 0.6})
	require.Equal(t, refserver.VerdictFarOrigin, a.shootFrom(side, add3(side, wire.Vec3{X: 50}), wire.HitNone, 0))
	// A passenger: its frames carry the car's position, 13 m/s along X.
	a.veh, a.seat = 2, 1
	a.move(wire.Vec3{X: 13 * 0.033}, 30)
	window := add3(a.pos, wire.Vec3{Y: 1.2, Z: 0.6}) // the passenger's window
	require.Equal(t, refserver.VerdictAccepted, a.shootFrom(window, add3(window, wire.Vec3{Y: 50}), wire.HitNone, 0))
	side = add3(a.pos, wire.Vec3{Y: 6, Z: 0.6}) // the far end of a long vehicle
	require.Equal(t, refserver.VerdictAccepted, a.shootFrom(side, add3(side, wire.Vec3{Y: 50}), wire.HitNone, 0))
	far := add3(a.pos, wire.Vec3{Y: 40})
	require.Equal(t, refserver.VerdictFarOrigin, a.shootFrom(far, add3(far, wire.Vec3{Y: 50}), wire.HitNone, 0))
}

func TestAProjectileLaunchedFarFromItsOwnerIsRefused(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	s := senders(t, k, r, deagle)
	a, b := s[0], s[1]
	w := k.Server()
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), grenade, 3, false))
	a.move(wire.Vec3{}, 5)
	tick(t, k)
	b.r.Clear()
	// The owner stands at x=0; the grenade starts at x=899 and explodes there.
	require.Equal(t, refserver.VerdictFarOrigin, a.launch(1, grenade, refserver.NoVehicle, wire.Vec3{X: 899}))
	e := lastRefusal(t, k, refserver.EventProjectileRefused, a.r.ID())
	require.Equal(t, refserver.VerdictFarOrigin, e.Verdict)
	n, _, _ := w.Ammo(a.r.ID(), grenade)
	require.Equal(t, uint16(3), n, "nothing spent")
	require.NoError(t, k.Advance(2*time.Second))
	require.Equal(t, refserver.VerdictFarOrigin, a.detonate(1, grenade, wire.Vec3{X: 899}),
		"its detonation, judged as a lost launch, is as far from the owner")
	tick(t, k)
	require.Empty(t, receivedOf[*wire.RemoteProjectile](b.r))
	require.Empty(t, receivedOf[*wire.RemoteDetonation](b.r))
	require.Equal(t, uint64(2), w.Stats().FarOrigins)
	// From its hand it is taken.
	require.Equal(t, refserver.VerdictAccepted, a.launch(2, grenade, refserver.NoVehicle, add3(a.pos, wire.Vec3{Z: 0.6})))
}

func TestADetonationLiesWhereItsWeaponCarriesAProjectileSinceTheLaunch(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	s := senders(t, k, r, deagle)
	a, b := s[0], s[1]
	w := k.Server()
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), grenade, 5, false))
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), rocket, 5, false))
	a.move(wire.Vec3{}, 5)
	hand := add3(a.pos, wire.Vec3{Z: 0.6})
	tick(t, k)
	b.r.Clear()
	relayed := 0 // the detonations relayed to b (read as they come: b hears the bystanders' frames too)
	heard := func() {
		tick(t, k)
		relayed += len(receivedOf[*wire.RemoteDetonation](b.r))
		b.r.Clear()
	}
	// A grenade thrown from x=0 does not explode at x=899.
	require.Equal(t, refserver.VerdictAccepted, a.launch(1, grenade, refserver.NoVehicle, hand))
	require.NoError(t, k.Advance(2*time.Second))
	require.Equal(t, refserver.VerdictFarDetonation, a.detonate(1, grenade, wire.Vec3{X: 899}))
	require.Equal(t, refserver.VerdictFarDetonation, lastRefusal(t, k, refserver.EventProjectileRefused, a.r.ID()).Verdict)
	require.Equal(t, uint64(1), w.Stats().FarDetonations)
	require.Equal(t, refserver.VerdictAccepted, a.detonate(1, grenade, wire.Vec3{X: 30}), "a throw's length away it does")
	heard()
	// A rocket flies farther the longer it flies, up to a cap.
	require.Equal(t, refserver.VerdictAccepted, a.launch(2, rocket, refserver.NoVehicle, hand))
	require.NoError(t, k.Advance(300*time.Millisecond))
	require.Equal(t, refserver.VerdictFarDetonation, a.detonate(2, rocket, wire.Vec3{X: 250}), "250 m in 300 ms")
	require.NoError(t, k.Advance(2*time.Second))
	require.Equal(t, refserver.VerdictAccepted, a.detonate(2, rocket, wire.Vec3{X: 250}), "250 m in 2.3 s")
	heard()
	require.Equal(t, refserver.VerdictAccepted, a.launch(3, rocket, refserver.NoVehicle, hand))
	require.NoError(t, k.Advance(100*time.Second))
	heard()
	require.Equal(t, refserver.VerdictFarDetonation, a.detonate(3, rocket, wire.Vec3{X: 2000}), "beyond any rocket's flight")
	heard()
	require.Equal(t, 2, relayed, "only the reachable detonations are relayed")
}

func TestALostLaunchsDetonationIsBoundToTheOwnersPath(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a := senders(t, k, r, deagle)[0]
	w := k.Server()
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), grenade, 5, false))
	a.move(wire.Vec3{X: 0.15}, 30)
	// Its launch never arrived: the detonation heals it only a throw's reach from where
	// the owner was.
	require.Equal(t, refserver.VerdictFarOrigin, a.detonate(1, grenade, wire.Vec3{X: 500}))
	n, _, _ := w.Ammo(a.r.ID(), grenade)
	require.Equal(t, uint16(5), n, "a refused heal spends nothing")
	require.Equal(t, refserver.VerdictAccepted, a.detonate(2, grenade, add3(a.pos, wire.Vec3{X: 25})))
	n, _, _ = w.Ammo(a.r.ID(), grenade)
	require.Equal(t, uint16(4), n)
}

func TestAVehiclesRocketStartsAtTheVehicle(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a := senders(t, k, r, deagle)[0]
	start := wire.Vec3{X: 2} // beside the pilot: an entry is taken only within reach
	require.NoError(t, k.Server().CreateVehicle(k.Now(), 3, refserver.ModelHunter, start, wire.Quat{W: 1}))
	a.veh, a.seat, a.pos = 3, 0, start
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	for i := 1; i <= 20; i++ {
		require.NoError(t, k.Advance(frameSpacing))
		a.pos = add3(start, wire.Vec3{X: float32(i)})
		require.Equal(t, refserver.VerdictAccepted, a.frame())
		require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.VehicleSync{Seq: uint16(i), Vehicle: 3, Position: a.pos,
			Rotation: wire.Quat{W: 1}, Health: 1000})))
	}
	require.Equal(t, refserver.VerdictAccepted, a.launch(1, rocket, 3, add3(a.pos, wire.Vec3{X: 4, Z: -1})), "from its rocket pod")
	require.Equal(t, refserver.VerdictFarOrigin, a.launch(2, rocket, 3, add3(a.pos, wire.Vec3{X: 200})))
}

func TestASatchelRidesAVehicleThatStoodWithinItsThrow(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	s := senders(t, k, r, deagle)
	a, b := s[0], s[1]
	w := k.Server()
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), satchel, 5, false))
	require.NoError(t, w.CreateVehicle(k.Now(), 2, carModel, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	a.move(wire.Vec3{}, 5)
	require.Equal(t, refserver.VerdictAccepted, a.launch(1, satchel, refserver.NoVehicle, add3(a.pos, wire.Vec3{Z: 0.6})), "thrown onto the car")
	require.Equal(t, refserver.VerdictAccepted, a.launch(2, satchel, refserver.NoVehicle, add3(a.pos, wire.Vec3{Z: 0.6})), "thrown onto the car too")
	// b drives the car 300 m away.
	b.veh, b.seat, b.pos = 2, 0, wire.Vec3{X: 10}
	require.Equal(t, refserver.VerdictAccepted, b.frame())
	for i := 1; i <= 300; i++ {
		require.NoError(t, k.Advance(frameSpacing))
		b.pos = wire.Vec3{X: 10 + float32(i)}
		require.Equal(t, refserver.VerdictAccepted, b.frame())
		require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(&wire.VehicleSync{Seq: uint16(i), Vehicle: 2, Position: b.pos,
			Rotation: wire.Quat{W: 1}, Health: 1000})))
	}
	require.Equal(t, refserver.VerdictFarDetonation, a.detonate(2, satchel, wire.Vec3{Y: 300}), "where no car it rode went")
	require.Equal(t, refserver.VerdictAccepted, a.detonate(1, satchel, add3(b.pos, wire.Vec3{Z: 1})), "on the car")
}

func TestALostLaunchOfAVehiclesRocketIsHealedFromItsSeatWithoutTheStore(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a := senders(t, k, r, deagle)[0]
	w := k.Server()
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), rocket, 2, false))
	require.NoError(t, w.CreateVehicle(k.Now(), 3, refserver.ModelHunter, wire.Vec3{X: 2}, wire.Quat{W: 1}))
	a.veh, a.seat, a.pos = 3, 0, wire.Vec3{X: 2} // beside the pilot: an entry is taken only within reach
	a.move(wire.Vec3{X: 1}, 20)
	// The rocket's launch was lost; its detonation 80 m ahead arrives.
	require.Equal(t, refserver.VerdictAccepted, a.detonate(1, rocket, add3(a.pos, wire.Vec3{X: 80})))
	n, _, _ := w.Ammo(a.r.ID(), rocket)
	require.Equal(t, uint16(2), n, "the Hunter's rocket spends nothing of the pilot's own launcher")
	require.Equal(t, refserver.VerdictFarOrigin, a.detonate(2, rocket, add3(a.pos, wire.Vec3{X: 900})), "beyond any rocket's flight")
	// On foot, a rocket is the store's.
	a.veh, a.seat = refserver.NoVehicle, 0
	a.move(wire.Vec3{}, 20)
	require.Equal(t, refserver.VerdictAccepted, a.detonate(3, rocket, add3(a.pos, wire.Vec3{X: 30})))
	n, _, _ = w.Ammo(a.r.ID(), rocket)
	require.Equal(t, uint16(1), n, "its own launcher's rocket is spent")
	require.Equal(t, refserver.VerdictAccepted, a.detonate(4, rocket, add3(a.pos, wire.Vec3{X: 30})))
	require.Equal(t, refserver.VerdictNoAmmo, a.detonate(5, rocket, add3(a.pos, wire.Vec3{X: 30})))
}

func TestANewLifesShotStartsAtItsSpawnNotWhereItDied(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	b := senders(t, k, r, deagle)[1]
	w := k.Server()
	// b walks, and dies at x=14 by a fall.
	b.move(wire.Vec3{X: 0.2}, 20)
	died := add3(b.pos, wire.Vec3{Z: 0.6})
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(report(1, 0, refserver.NoPlayer, causeFall, wire.Ref{}, 100, 0, 100))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(&wire.DeathReport{DeathEpoch: 1, Weapon: causeFall, Killer: refserver.NoPlayer})))
	require.Equal(t, refserver.VerdictNotAlive, b.shootFrom(died, add3(died, wire.Vec3{X: 30}), wire.HitNone, 0), "a dead shooter")
	pt := lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: 200}}
	require.NoError(t, w.DecideRespawn(b.r.ID(), 1, lifecycle.AllowAt(k.Now()).AtPoint(pt)))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(&wire.RespawnRequest{DeathEpoch: 1})))
	tick(t, k)
	sp, ok := lastOf[*wire.RespawnPlayer](b.r)
	require.True(t, ok)
	require.Equal(t, uint16(2), sp.DeathEpoch)
	require.Equal(t, wire.Vec3{X: 200}, sp.Position)
	require.NoError(t, w.GiveWeapon(k.Now(), b.r.ID(), m4, 50, true))
	b.gen, b.pos, b.weapon = 2, sp.Position, m4
	require.Equal(t, refserver.VerdictAccepted, b.frame(), "its first living frame")
	require.NoError(t, k.Advance(100*time.Millisecond))
	require.Equal(t, refserver.VerdictFarOrigin, b.shootFrom(died, add3(died, wire.Vec3{X: 30}), wire.HitNone, 0),
		"within the window, but in the previous life")
	at := add3(b.pos, wire.Vec3{Z: 0.6})
	require.Equal(t, refserver.VerdictAccepted, b.shootFrom(at, add3(at, wire.Vec3{X: 30}), wire.HitNone, 0))
}
