package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/wire"
)

// Vehicles of the seat and gun tests (GTA San Andreas model ids).
const (
	modelSultan     uint16 = 560 // four seats, no guns
	modelSeasparrow uint16 = 447 // two seats, a machine gun fired from the driver's
	modelRhino      uint16 = 432 // one seat, the cannon
	modelHunter     uint16 = 425 // a vehicle with bullet guns
	sniper          uint8  = 34
	minigun         uint8  = 38 // the Hunter's guns
)

// --- the guns: the server owns the volley, the model and the rate ---

func TestAVehicleShotMustNameAGunOfItsModelWithinTheGunsRange(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	s := senders(t, k, r, deagle)
	a, b := s[0], s[1]
	w := k.Server()
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, w.CreateVehicle(k.Now(), 2, modelHunter, wire.Vec3{X: 30}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, a.board(1, 0, wire.Vec3{}))
	far := wire.Vec3{Y: 900}
	require.Equal(t, refserver.VerdictNotAGun, a.vshot(1, sniper, wire.Vec3{Z: 1}, far), "a Sniper from an unarmed car")
	require.Equal(t, refserver.VerdictNotAGun, a.vshot(1, minigun, wire.Vec3{Z: 1}, wire.Vec3{Y: 20}), "no gun at all on a car")
	n, _, _ := w.Ammo(a.r.ID(), sniper)
	require.Zero(t, n, "no Sniper came from anywhere")

	require.Equal(t, refserver.VerdictAccepted, a.board(2, 0, wire.Vec3{X: 30}))
	tick(t, k)
	b.r.Clear()
	muzzle := wire.Vec3{X: 30, Y: 3, Z: -1}
	require.Equal(t, refserver.VerdictNotAGun, a.vshot(2, sniper, muzzle, wire.Vec3{X: 30, Y: 853, Z: -1}), "a Sniper round from a Hunter")
	require.Equal(t, refserver.VerdictOutOfRange, a.vshot(2, minigun, muzzle, wire.Vec3{X: 30, Y: 853, Z: -1}), "the minigun at 850 m")
	require.Equal(t, refserver.VerdictOutOfRange, a.vshot(2, minigun, muzzle, wire.Vec3{X: 30, Y: 83, Z: -1}), "80 m: beyond the gun's 75")
	require.Equal(t, refserver.VerdictAccepted, a.vshot(2, minigun, muzzle, wire.Vec3{X: 30, Y: 73, Z: -1}), "70 m")
	tick(t, k)
	shots := receivedOf[*wire.RemoteVehicleShot](b.r)
	require.Len(t, shots, 1, "only the accepted shot is relayed")
	require.Equal(t, minigun, shots[0].Weapon)
}

func TestAVehicleGunIsFiredOnlyFromTheSeatsThatFireIt(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	s := senders(t, k, r, deagle)
	a, b := s[0], s[1]
	require.NoError(t, k.Server().CreateVehicle(k.Now(), 1, modelSeasparrow, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 10}))
	require.Equal(t, refserver.VerdictAccepted, a.board(1, 1, wire.Vec3{X: 10}), "a passenger")
	muzzle, end := wire.Vec3{X: 9.5, Y: 2.4}, wire.Vec3{X: 9.5, Y: 40}
	require.Equal(t, refserver.VerdictWrongSeat, a.vshot(1, m4, muzzle, end), "the passenger fires the driver's gun")
	require.Equal(t, refserver.VerdictAccepted, b.vshot(1, m4, muzzle, end), "the driver does")
	require.Equal(t, refserver.VerdictNoSuchSeat, a.board(1, 3, wire.Vec3{X: 10}), "a Sea Sparrow has no seat 3")
	require.Equal(t, refserver.VerdictNotInVehicle, a.vshot(1, m4, muzzle, end), "nor does a player on foot beside it")
}

func TestEachVehicleGunKeepsItsModelsOwnRate(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a := senders(t, k, r, deagle)[0]
	w := k.Server()
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelRhino, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, w.CreateVehicle(k.Now(), 2, modelHunter, wire.Vec3{X: 100}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, a.board(1, 0, wire.Vec3{}))
	barrel, end := wire.Vec3{Y: 3, Z: 2}, wire.Vec3{Y: 50, Z: 2}
	require.Equal(t, refserver.VerdictAccepted, a.vshot(1, explosionCause, barrel, end))
	require.NoError(t, k.Advance(100*time.Millisecond))
	require.Equal(t, refserver.VerdictTooFast, a.vshot(1, explosionCause, barrel, end), "a shell 100 ms after the last: the cannon's is 800")
	require.NoError(t, k.Advance(700*time.Millisecond))
	require.Equal(t, refserver.VerdictAccepted, a.vshot(1, explosionCause, barrel, end))

	require.Equal(t, refserver.VerdictAccepted, a.board(2, 0, wire.Vec3{X: 100}))
	muzzle, to := wire.Vec3{X: 100, Y: 3, Z: -1}, wire.Vec3{X: 100, Y: 60, Z: -1}
	for range 50 { // the minigun's own cadence, steadily
		require.NoError(t, k.Advance(60*time.Millisecond))
		require.Equal(t, refserver.VerdictAccepted, a.vshot(2, minigun, muzzle, to))
	}
	v := refserver.VerdictAccepted
	for i := 0; i < 40 && v == refserver.VerdictAccepted; i++ {
		require.NoError(t, k.Advance(20*time.Millisecond)) // three times too fast
		v = a.vshot(2, minigun, muzzle, to)
	}
	require.Equal(t, refserver.VerdictTooFast, v)
}

func TestAVehicleShotStartsAtItsGunsMountOnTheVehiclesAcceptedPose(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a := senders(t, k, r, deagle)[0]
	require.NoError(t, k.Server().CreateVehicle(k.Now(), 1, modelHunter, wire.Vec3{}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, a.board(1, 0, wire.Vec3{}))
	require.Equal(t, refserver.VerdictOffMount, a.vshot(1, minigun, wire.Vec3{Y: 200}, wire.Vec3{Y: 260}), "a ray from 200 m ahead")
	above := wire.Vec3{Y: 3, Z: -1 + 4 + refserver.VehicleGunSlack + 1} // the Hunter's gun: 4 m of mount reach
	require.Equal(t, refserver.VerdictOffMount, a.vshot(1, minigun, above, wire.Vec3{Y: 60}), "a metre beyond the slack above the gun")
	require.Equal(t, refserver.VerdictAccepted, a.vshot(1, minigun, wire.Vec3{Y: 3, Z: -1}, wire.Vec3{Y: 60}), "from the gun")
	// The helicopter flies at 40 m/s: a shot and the frame it was fired from travel apart.
	require.NoError(t, k.Advance(100*time.Millisecond))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.VehicleSync{Seq: 1, Vehicle: 1, Position: wire.Vec3{Y: 100},
		Rotation: wire.Quat{W: 1}, Velocity: wire.Vec3{Y: 40}, Health: 1000})))
	require.Equal(t, refserver.VerdictAccepted, a.vshot(1, minigun, wire.Vec3{Y: 111, Z: -1}, wire.Vec3{Y: 170}), "a frame's flight ahead")
	require.Equal(t, refserver.VerdictOffMount, a.vshot(1, minigun, wire.Vec3{Y: 130, Z: -1}, wire.Vec3{Y: 170}), "far beyond it")
}

// --- the seats: only an accepted entry makes a driver or a passenger ---

func TestOneFrameNamingASeatDoesNotMakeAFarPlayerItsDriver(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 3)
	s := senders(t, k, r, deagle)
	a, b, c := s[0], s[1], s[2]
	w := k.Server()
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 10}), "b drives")
	require.Equal(t, refserver.VerdictAccepted, c.board(1, 1, wire.Vec3{X: 10}), "c rides with it")
	a.walkTo(wire.Vec3{X: 1000})
	tick(t, k)
	b.r.Clear()
	a.r.Clear()
	a.veh, a.seat = 1, 0
	require.Equal(t, refserver.VerdictSeatTaken, a.frame(), "a claims the driver's seat from 1 km")
	ev := refusedInputs(t, k, a.r.ID(), refserver.VerdictSeatTaken)
	require.Len(t, ev, 1)
	require.Equal(t, b.r.ID(), ev[0].Other, "the holder")
	require.Equal(t, uint16(1), ev[0].Vehicle)

	// Its vehicle frames and its explosion are not the driver's.
	require.Equal(t, refserver.VerdictNotInVehicle, must(t)(a.r.Send(&wire.VehicleSync{Seq: 9, Vehicle: 1, Position: wire.Vec3{X: 1000},
		Rotation: wire.Quat{W: 1}, Health: 1000})), "a teleport of b's car")
	require.Equal(t, refserver.VerdictNotInVehicle, must(t)(a.r.Send(&wire.VehicleExplode{Vehicle: 1, Attacker: wire.NoPlayer, Weapon: explosionCause})))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(&wire.VehicleSync{Seq: 1, Vehicle: 1, Position: wire.Vec3{X: 11},
		Rotation: wire.Quat{W: 1}, Health: 1000})), "the driver's own")
	tick(t, k)
	for _, m := range receivedOf[*wire.RemotePlayerSync](b.r) {
		require.False(t, m.Player == a.r.ID() && m.Vehicle != wire.NoVehicle, "a's claim relayed: %+v", m)
	}
	for _, m := range receivedOf[*wire.RemoteVehicleSync](b.r) {
		require.NotEqual(t, a.r.ID(), m.Driver, "a's vehicle frame relayed")
	}
	require.Empty(t, k.EventsOf(refserver.EventVehicleExploded))
	require.Empty(t, k.EventsOf(refserver.EventDeathCounted), "nobody inside died")
	require.True(t, w.Alive(b.r.ID()) && w.Alive(c.r.ID()))
	fix := receivedOf[*wire.SetPlayerPosition](a.r)
	require.Len(t, fix, 1, "a is put back where the server last accepted it")
	require.Equal(t, wire.Vec3{X: 1000}, fix[0].Position)
}

func TestAnEntryFromBeyondEntryReachIsRefusedEvenForAFreeSeat(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	s := senders(t, k, r, deagle)
	a, b := s[0], s[1]
	w := k.Server()
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 200}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictOutOfReach, a.board(1, 0, wire.Vec3{X: 200 - refserver.EntryReach - 1}))
	require.Len(t, refusedInputs(t, k, a.r.ID(), refserver.VerdictOutOfReach), 1)
	require.Equal(t, refserver.VerdictAccepted, a.board(1, 0, wire.Vec3{X: 200 - refserver.EntryReach + 1}), "at the door")
	veh, seat, ok := w.PlayerSeat(a.r.ID())
	require.True(t, ok)
	require.Equal(t, uint16(1), veh)
	require.Equal(t, uint8(0), seat)
	_, _, ok = w.PlayerSeat(b.r.ID())
	require.False(t, ok, "b sits in nothing")
	require.Equal(t, refserver.VerdictAccepted, a.frame(), "and it stays in the seat it holds")
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.VehicleSync{Seq: 1, Vehicle: 1, Position: wire.Vec3{X: 200},
		Rotation: wire.Quat{W: 1}, Health: 1000})))
}

func TestAnEntryNeedsAVehicleThatStandsASeatItHasAndALivingPlayer(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	s := senders(t, k, r, deagle)
	a, b := s[0], s[1]
	w := k.Server()
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelHunter, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, w.CreateVehicle(k.Now(), 2, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictUnknownVehicle, a.board(5, 0, wire.Vec3{}), "a vehicle that does not exist")
	require.Equal(t, refserver.VerdictNoSuchSeat, a.board(1, 3, wire.Vec3{}), "seat 3 of a Hunter")
	require.Equal(t, refserver.VerdictNoSuchSeat, a.board(1, 1, wire.Vec3{}), "a Hunter has one seat")
	a.walkTo(wire.Vec3{})
	a.seq++
	require.Equal(t, refserver.VerdictNotAlive, must(t)(a.r.Send(&wire.PlayerSync{Seq: a.seq, DeathEpoch: 1, Alive: false, Vehicle: 1,
		Weapon: deagle})), "a corpse does not get in")
	// A wreck is no vehicle to enter.
	require.Equal(t, refserver.VerdictAccepted, b.board(2, 0, wire.Vec3{X: 10}))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(&wire.VehicleExplode{Vehicle: 2, Attacker: wire.NoPlayer, Weapon: explosionCause})))
	require.Equal(t, refserver.VerdictWrecked, a.board(2, 1, wire.Vec3{X: 10}))
	require.ErrorIs(t, w.CreateVehicle(k.Now(), 3, 399, wire.Vec3{}, wire.Quat{W: 1}), refserver.ErrOutOfRange, "a model outside the catalogue")
}

func TestASeatIsFreedWhenItsHolderLeavesItDiesOrDisconnects(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 3)
	s := senders(t, k, r, deagle)
	a, b, c := s[0], s[1], s[2]
	require.NoError(t, k.Server().CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 10}))
	require.Equal(t, refserver.VerdictSeatTaken, a.board(1, 0, wire.Vec3{X: 9}))
	b.walkTo(wire.Vec3{X: 12}) // b gets out
	require.Equal(t, refserver.VerdictAccepted, a.board(1, 0, wire.Vec3{X: 9}), "the seat b left")
	// a moves over to the passenger's seat: the driver's is free again.
	a.seat = 1
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 10}))
	// b dies at the wheel: its seat is freed when the death is committed.
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(report(1, 0, wire.NoPlayer, causeFall, wire.Ref{}, 100, 0, 100))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(&wire.DeathReport{DeathEpoch: 1, Killer: wire.NoPlayer, Weapon: causeFall})))
	a.seat = 0
	require.Equal(t, refserver.VerdictAccepted, a.frame(), "the dead driver's seat")
	// a disconnects in the driver's seat: another player takes it.
	require.Equal(t, refserver.VerdictSeatTaken, c.board(1, 0, wire.Vec3{X: 10}))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.Disconnect{})))
	tick(t, k)
	require.Equal(t, refserver.VerdictAccepted, c.board(1, 0, wire.Vec3{X: 10}), "the seat of a player who left")
}

func TestOnlyTheSeatHoldersAreTheOccupantsAVehicleExplosionKills(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 3)
	s := senders(t, k, r, deagle)
	a, b, c := s[0], s[1], s[2]
	require.NoError(t, k.Server().CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 10}))
	require.Equal(t, refserver.VerdictOutOfReach, c.board(1, 1, wire.Vec3{X: 500}), "c claims the back seat from far away")
	require.Equal(t, refserver.VerdictAccepted, a.board(1, 2, wire.Vec3{X: 11}), "a gets in")
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(&wire.VehicleExplode{Vehicle: 1, Attacker: wire.NoPlayer, Weapon: explosionCause})))
	tick(t, k)
	var dead []refserver.PlayerID
	for _, e := range k.EventsOf(refserver.EventDeathCounted) {
		dead = append(dead, e.Player)
	}
	require.ElementsMatch(t, []refserver.PlayerID{a.r.ID(), b.r.ID()}, dead, "the driver and the passenger it granted; not c")
}

func TestVehicleFramesComeOnlyFromTheGrantedDriver(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	s := senders(t, k, r, deagle)
	a, b := s[0], s[1]
	w := k.Server()
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 0, wire.Vec3{X: 10}))
	require.Equal(t, refserver.VerdictAccepted, a.board(1, 1, wire.Vec3{X: 10}))
	sync := func(from *sender, seq uint16, at wire.Vec3) refserver.Verdict {
		return must(t)(from.r.Send(&wire.VehicleSync{Seq: seq, Vehicle: 1, Position: at, Rotation: wire.Quat{W: 1}, Health: 1000}))
	}
	require.Equal(t, refserver.VerdictNotInVehicle, sync(a, 1, wire.Vec3{X: 900}), "the passenger's")
	require.Equal(t, refserver.VerdictAccepted, sync(b, 1, wire.Vec3{X: 12}), "the driver's")
	// A gamemode move keeps both in their seats.
	require.NoError(t, w.MoveVehicle(k.Now(), 1, wire.Vec3{X: 300}, wire.Quat{W: 1}))
	b.pos, a.pos = wire.Vec3{X: 300}, wire.Vec3{X: 300}
	require.Equal(t, refserver.VerdictAccepted, b.frame())
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.Equal(t, refserver.VerdictAccepted, sync(b, 2, wire.Vec3{X: 301}))
}

func TestARefusedEntryIsPutBackAtMostOncePerInterval(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a := senders(t, k, r, deagle)[0]
	require.NoError(t, k.Server().CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 300}, wire.Quat{W: 1}))
	a.walkTo(wire.Vec3{X: 5})
	tick(t, k)
	a.r.Clear()
	mark := len(refusedInputs(t, k, a.r.ID(), refserver.VerdictOutOfReach))
	a.veh = 1
	for range 10 { // a claim every frame for 330 ms
		require.NoError(t, k.Advance(33*time.Millisecond))
		require.Equal(t, refserver.VerdictOutOfReach, a.frame())
	}
	tick(t, k)
	require.Len(t, receivedOf[*wire.SetPlayerPosition](a.r), 1)
	require.NoError(t, k.Advance(refserver.EntryCorrectionInterval))
	require.Equal(t, refserver.VerdictOutOfReach, a.frame())
	tick(t, k)
	require.Len(t, receivedOf[*wire.SetPlayerPosition](a.r), 2, "again after the interval")
	require.Len(t, refusedInputs(t, k, a.r.ID(), refserver.VerdictOutOfReach)[mark:], 11, "every refused frame is raised")
}

func TestTwoPlayersRacingForOneSeatTheFirstAcceptedFrameWins(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	s := senders(t, k, r, deagle)
	a, b := s[0], s[1]
	require.NoError(t, k.Server().CreateVehicle(k.Now(), 1, modelSultan, wire.Vec3{X: 5}, wire.Quat{W: 1}))
	a.walkTo(wire.Vec3{X: 4})
	b.walkTo(wire.Vec3{X: 6})
	tick(t, k)
	b.r.Clear()
	a.veh, b.veh = 1, 1
	require.Equal(t, refserver.VerdictAccepted, a.frame(), "the first claim that arrives")
	require.Equal(t, refserver.VerdictSeatTaken, b.frame(), "the second")
	tick(t, k)
	fix := receivedOf[*wire.SetPlayerPosition](b.r)
	require.Len(t, fix, 1, "the loser is told: out of the seat, where it stood")
	require.Equal(t, wire.Vec3{X: 6}, fix[0].Position)
	b.veh = wire.NoVehicle // its client applies it
	require.Equal(t, refserver.VerdictAccepted, b.frame())
	require.Equal(t, refserver.VerdictAccepted, b.board(1, 1, wire.Vec3{X: 6}), "and takes a free seat")
}
