package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// walkTo sends c's frame on foot at pos: an honest client walks up to a vehicle before it
// gets in.
func (h *harness) walkTo(c *tclient, pos wire.Vec3) {
	h.t.Helper()
	c.vehicle, c.seat, c.pos = wire.NoVehicle, 0, pos
	require.Equal(h.t, VerdictAccepted, h.frame(c), "the frame on foot")
}

// board walks c to pos and sends its frame in seat of vehicle veh, returning its verdict.
func (h *harness) board(c *tclient, veh uint16, seat uint8, pos wire.Vec3) Verdict {
	h.t.Helper()
	h.walkTo(c, pos)
	c.vehicle, c.seat = veh, seat
	return h.frame(c)
}

// Vehicles of the seat and gun tests (GTA San Andreas model ids).
const (
	modelSultan     uint16 = 560 // four seats, no guns
	modelSeasparrow uint16 = 447 // two seats, a machine gun fired from the driver's
	modelRhino      uint16 = 432 // one seat, the cannon
	sniper          uint8  = 34
	explosionCause  uint8  = 51
)

// vshot sends a VehicleShot of c's from origin to end.
func (h *harness) vshot(c *tclient, veh uint16, weapon uint8, origin, end wire.Vec3) Verdict {
	h.t.Helper()
	c.shotSeq++
	return h.w.Handle(h.now, c.id, &wire.VehicleShot{ShotSeq: c.shotSeq, DeathEpoch: c.gen, PropertiesRev: h.w.catalog.Revision(),
		Vehicle: veh, Weapon: weapon, HitType: wire.HitNone, Origin: origin, HitPos: end})
}

// refusedInputs returns the input_refused events of player id with verdict v.
func (h *harness) refusedInputs(id PlayerID, v Verdict) []Event {
	var out []Event
	for _, e := range h.events(EventInputRefused) {
		if e.Player == id && e.Verdict == v {
			out = append(out, e)
		}
	}
	return out
}

// --- the guns: the server owns the volley, the model and the rate ---

func TestAVehicleShotMustNameAGunOfItsModelWithinTheGunsRange(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSultan, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, h.w.CreateVehicle(h.now, 2, modelHunter, wire.Vec3{X: 30}, wire.Quat{W: 1}))
	require.Equal(t, VerdictAccepted, h.board(a, 1, 0, wire.Vec3{}))
	far := wire.Vec3{Y: 900}
	require.Equal(t, VerdictNotAGun, h.vshot(a, 1, sniper, wire.Vec3{Z: 1}, far), "a Sniper from an unarmed car")
	require.Equal(t, VerdictNotAGun, h.vshot(a, 1, minigun, wire.Vec3{Z: 1}, wire.Vec3{Y: 20}), "no gun at all on a car")
	n, _, _ := h.w.Ammo(0, sniper)
	require.Zero(t, n, "no Sniper came from anywhere")

	require.Equal(t, VerdictAccepted, h.board(a, 2, 0, wire.Vec3{X: 30}))
	muzzle := wire.Vec3{X: 30, Y: 3, Z: -1}
	require.Equal(t, VerdictNotAGun, h.vshot(a, 2, sniper, muzzle, wire.Vec3{X: 30, Y: 853, Z: -1}), "a Sniper round from a Hunter")
	require.Equal(t, VerdictOutOfRange, h.vshot(a, 2, minigun, muzzle, wire.Vec3{X: 30, Y: 853, Z: -1}), "the minigun at 850 m")
	require.Equal(t, VerdictOutOfRange, h.vshot(a, 2, minigun, muzzle, wire.Vec3{X: 30, Y: 83, Z: -1}), "80 m: beyond the gun's 75")
	require.Equal(t, VerdictAccepted, h.vshot(a, 2, minigun, muzzle, wire.Vec3{X: 30, Y: 73, Z: -1}), "70 m")
	h.flush()
	shots := received[*wire.RemoteVehicleShot](b)
	require.Len(t, shots, 1, "only the accepted shot is relayed")
	require.Equal(t, minigun, shots[0].Weapon)
}

func TestAVehicleGunIsFiredOnlyFromTheSeatsThatFireIt(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSeasparrow, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, VerdictAccepted, h.board(b, 1, 0, wire.Vec3{X: 10}))
	require.Equal(t, VerdictAccepted, h.board(a, 1, 1, wire.Vec3{X: 10}), "a passenger")
	muzzle, end := wire.Vec3{X: 9.5, Y: 2.4}, wire.Vec3{X: 9.5, Y: 40}
	require.Equal(t, VerdictWrongSeat, h.vshot(a, 1, m4, muzzle, end), "the passenger fires the driver's gun")
	require.Equal(t, VerdictAccepted, h.vshot(b, 1, m4, muzzle, end), "the driver does")
	require.Equal(t, VerdictNoSuchSeat, h.board(a, 1, 3, wire.Vec3{X: 10}), "a Sea Sparrow has no seat 3")
	require.Equal(t, VerdictNotInVehicle, h.vshot(a, 1, m4, muzzle, end), "nor does a player on foot beside it")
}

func TestEachVehicleGunKeepsItsModelsOwnRate(t *testing.T) {
	h, a, _ := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelRhino, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, h.w.CreateVehicle(h.now, 2, modelHunter, wire.Vec3{X: 100}, wire.Quat{W: 1}))
	require.Equal(t, VerdictAccepted, h.board(a, 1, 0, wire.Vec3{}))
	barrel, end := wire.Vec3{Y: 3, Z: 2}, wire.Vec3{Y: 50, Z: 2}
	require.Equal(t, VerdictAccepted, h.vshot(a, 1, explosionCause, barrel, end))
	h.now += 100 * time.Millisecond
	require.Equal(t, VerdictTooFast, h.vshot(a, 1, explosionCause, barrel, end), "a shell 100 ms after the last: the cannon's is 800")
	h.now += 700 * time.Millisecond
	require.Equal(t, VerdictAccepted, h.vshot(a, 1, explosionCause, barrel, end))

	require.Equal(t, VerdictAccepted, h.board(a, 2, 0, wire.Vec3{X: 100}))
	muzzle, to := wire.Vec3{X: 100, Y: 3, Z: -1}, wire.Vec3{X: 100, Y: 60, Z: -1}
	for range 50 { // the minigun's own cadence, steadily
		h.now += 60 * time.Millisecond
		require.Equal(t, VerdictAccepted, h.vshot(a, 2, minigun, muzzle, to))
	}
	v := VerdictAccepted
	for i := 0; i < 40 && v == VerdictAccepted; i++ {
		h.now += 20 * time.Millisecond // three times too fast
		v = h.vshot(a, 2, minigun, muzzle, to)
	}
	require.Equal(t, VerdictTooFast, v)
}

func TestAVehicleShotStartsAtItsGunsMountOnTheVehiclesAcceptedPose(t *testing.T) {
	h, a, _ := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelHunter, wire.Vec3{}, wire.Quat{W: 1}))
	require.Equal(t, VerdictAccepted, h.board(a, 1, 0, wire.Vec3{}))
	require.Equal(t, VerdictOffMount, h.vshot(a, 1, minigun, wire.Vec3{Y: 200}, wire.Vec3{Y: 260}), "a ray from 200 m ahead")
	above := wire.Vec3{Y: 3, Z: -1 + 4 + VehicleGunSlack + 1} // the Hunter's gun: 4 m of mount reach
	require.Equal(t, VerdictOffMount, h.vshot(a, 1, minigun, above, wire.Vec3{Y: 60}), "a metre beyond the slack above the gun")
	require.Equal(t, VerdictAccepted, h.vshot(a, 1, minigun, wire.Vec3{Y: 3, Z: -1}, wire.Vec3{Y: 60}), "from the gun")
	// The helicopter flies at 40 m/s: a shot and the frame it was fired from travel apart.
	h.now += 100 * time.Millisecond
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.VehicleSync{Seq: 1, Vehicle: 1, Position: wire.Vec3{Y: 100},
		Rotation: wire.Quat{W: 1}, Velocity: wire.Vec3{Y: 40}, Health: 1000}))
	require.Equal(t, VerdictAccepted, h.vshot(a, 1, minigun, wire.Vec3{Y: 111, Z: -1}, wire.Vec3{Y: 170}), "a frame's flight ahead")
	require.Equal(t, VerdictOffMount, h.vshot(a, 1, minigun, wire.Vec3{Y: 130, Z: -1}, wire.Vec3{Y: 170}), "far beyond it")
}

// --- the seats: only an accepted entry makes a driver or a passenger ---

func TestOneFrameNamingASeatDoesNotMakeAFarPlayerItsDriver(t *testing.T) {
	h, a, b := duel(t, deagle)
	c := h.join(2)
	h.spawn(c)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, VerdictAccepted, h.board(b, 1, 0, wire.Vec3{X: 10}), "b drives")
	require.Equal(t, VerdictAccepted, h.board(c, 1, 1, wire.Vec3{X: 10}), "c rides with it")
	h.walkTo(a, wire.Vec3{X: 1000})
	h.flush()
	b.reset()
	a.reset()
	a.vehicle, a.seat = 1, 0
	require.Equal(t, VerdictSeatTaken, h.frame(a), "a claims the driver's seat from 1 km")
	ev := h.refusedInputs(0, VerdictSeatTaken)
	require.Len(t, ev, 1)
	require.Equal(t, PlayerID(1), ev[0].Other, "the holder")
	require.Equal(t, uint16(1), ev[0].Vehicle)

	// Its vehicle frames and its explosion are not the driver's.
	require.Equal(t, VerdictNotInVehicle, h.w.Handle(h.now, 0, &wire.VehicleSync{Seq: 9, Vehicle: 1, Position: wire.Vec3{X: 1000},
		Rotation: wire.Quat{W: 1}, Health: 1000}), "a teleport of b's car")
	require.Equal(t, VerdictNotInVehicle, h.w.Handle(h.now, 0, &wire.VehicleExplode{Vehicle: 1, Attacker: wire.NoPlayer, Weapon: explosionCause}))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.VehicleSync{Seq: 1, Vehicle: 1, Position: wire.Vec3{X: 11},
		Rotation: wire.Quat{W: 1}, Health: 1000}), "the driver's own")
	h.flush()
	for _, m := range received[*wire.RemotePlayerSync](b) {
		require.False(t, m.Player == 0 && m.Vehicle != wire.NoVehicle, "a's claim relayed: %+v", m)
	}
	for _, m := range received[*wire.RemoteVehicleSync](b) {
		require.NotEqual(t, PlayerID(0), m.Driver, "a's vehicle frame relayed")
	}
	require.Empty(t, h.events(EventVehicleExploded))
	require.Empty(t, h.events(EventDeathCounted), "nobody inside died")
	require.True(t, h.w.Alive(1) && h.w.Alive(2))
	fix := received[*wire.SetPlayerPosition](a)
	require.Len(t, fix, 1, "a is put back where the server last accepted it")
	require.Equal(t, wire.Vec3{X: 1000}, fix[0].Position)
}

func TestAnEntryFromBeyondEntryReachIsRefusedEvenForAFreeSeat(t *testing.T) {
	h, a, _ := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSultan, wire.Vec3{X: 200}, wire.Quat{W: 1}))
	require.Equal(t, VerdictOutOfReach, h.board(a, 1, 0, wire.Vec3{X: 200 - EntryReach - 1}))
	require.Len(t, h.refusedInputs(0, VerdictOutOfReach), 1)
	require.Equal(t, VerdictAccepted, h.board(a, 1, 0, wire.Vec3{X: 200 - EntryReach + 1}), "at the door")
	veh, seat, ok := h.w.PlayerSeat(0)
	require.True(t, ok)
	require.Equal(t, uint16(1), veh)
	require.Equal(t, uint8(0), seat)
	_, _, ok = h.w.PlayerSeat(1)
	require.False(t, ok, "b sits in nothing")
	require.Equal(t, VerdictAccepted, h.frame(a), "and it stays in the seat it holds")
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.VehicleSync{Seq: 1, Vehicle: 1, Position: wire.Vec3{X: 200},
		Rotation: wire.Quat{W: 1}, Health: 1000}))
}

func TestAnEntryNeedsAVehicleThatStandsASeatItHasAndALivingPlayer(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelHunter, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, h.w.CreateVehicle(h.now, 2, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, VerdictUnknownVehicle, h.board(a, 5, 0, wire.Vec3{}), "a vehicle that does not exist")
	require.Equal(t, VerdictNoSuchSeat, h.board(a, 1, 3, wire.Vec3{}), "seat 3 of a Hunter")
	require.Equal(t, VerdictNoSuchSeat, h.board(a, 1, 1, wire.Vec3{}), "a Hunter has one seat")
	h.walkTo(a, wire.Vec3{})
	a.vehicle, a.alive = 1, false
	require.Equal(t, VerdictNotAlive, h.frame(a), "a corpse does not get in")
	a.alive = true
	// A wreck is no vehicle to enter.
	require.Equal(t, VerdictAccepted, h.board(b, 2, 0, wire.Vec3{X: 10}))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.VehicleExplode{Vehicle: 2, Attacker: wire.NoPlayer, Weapon: explosionCause}))
	require.Equal(t, VerdictWrecked, h.board(a, 2, 1, wire.Vec3{X: 10}))
	require.ErrorIs(t, h.w.CreateVehicle(h.now, 3, 399, wire.Vec3{}, wire.Quat{W: 1}), ErrOutOfRange, "a model outside the catalogue")
}

func TestASeatIsFreedWhenItsHolderLeavesItDiesOrDisconnects(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, VerdictAccepted, h.board(b, 1, 0, wire.Vec3{X: 10}))
	require.Equal(t, VerdictSeatTaken, h.board(a, 1, 0, wire.Vec3{X: 9}))
	h.walkTo(b, wire.Vec3{X: 12}) // b gets out
	require.Equal(t, VerdictAccepted, h.board(a, 1, 0, wire.Vec3{X: 9}), "the seat b left")
	// a moves over to the passenger's seat: the driver's is free again.
	a.seat = 1
	require.Equal(t, VerdictAccepted, h.frame(a))
	require.Equal(t, VerdictAccepted, h.board(b, 1, 0, wire.Vec3{X: 10}))
	// b dies at the wheel: its seat is freed when the death is committed.
	require.Equal(t, VerdictAccepted, h.hit(b, wire.NoPlayer, 54, wire.Ref{}, 100))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Killer: wire.NoPlayer, Weapon: 54}))
	a.seat = 0
	require.Equal(t, VerdictAccepted, h.frame(a), "the dead driver's seat")
	// a disconnects in the driver's seat: another player takes it.
	c := h.join(2)
	h.spawn(c)
	require.Equal(t, VerdictSeatTaken, h.board(c, 1, 0, wire.Vec3{X: 10}))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.Disconnect{}))
	h.flush()
	require.Equal(t, VerdictAccepted, h.board(c, 1, 0, wire.Vec3{X: 10}), "the seat of a player who left")
}

func TestOnlyTheSeatHoldersAreTheOccupantsAVehicleExplosionKills(t *testing.T) {
	h, a, b := duel(t, deagle)
	c := h.join(2)
	h.spawn(c)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, VerdictAccepted, h.board(b, 1, 0, wire.Vec3{X: 10}))
	require.Equal(t, VerdictOutOfReach, h.board(c, 1, 1, wire.Vec3{X: 500}), "c claims the back seat from far away")
	require.Equal(t, VerdictAccepted, h.board(a, 1, 2, wire.Vec3{X: 11}), "a gets in")
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.VehicleExplode{Vehicle: 1, Attacker: wire.NoPlayer, Weapon: explosionCause}))
	var dead []PlayerID
	for _, e := range h.events(EventDeathCounted) {
		dead = append(dead, e.Player)
	}
	require.ElementsMatch(t, []PlayerID{0, 1}, dead, "the driver and the passenger it granted; not c")
}

func TestVehicleFramesComeOnlyFromTheGrantedDriver(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSultan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	require.Equal(t, VerdictAccepted, h.board(b, 1, 0, wire.Vec3{X: 10}))
	require.Equal(t, VerdictAccepted, h.board(a, 1, 1, wire.Vec3{X: 10}))
	sync := func(from PlayerID, seq uint16, at wire.Vec3) Verdict {
		return h.w.Handle(h.now, from, &wire.VehicleSync{Seq: seq, Vehicle: 1, Position: at, Rotation: wire.Quat{W: 1}, Health: 1000})
	}
	require.Equal(t, VerdictNotInVehicle, sync(0, 1, wire.Vec3{X: 900}), "the passenger's")
	require.Equal(t, VerdictAccepted, sync(1, 1, wire.Vec3{X: 12}), "the driver's")
	// A gamemode move keeps both in their seats.
	require.NoError(t, h.w.MoveVehicle(h.now, 1, wire.Vec3{X: 300}, wire.Quat{W: 1}))
	b.pos, a.pos = wire.Vec3{X: 300}, wire.Vec3{X: 300}
	require.Equal(t, VerdictAccepted, h.frame(b))
	require.Equal(t, VerdictAccepted, h.frame(a))
	require.Equal(t, VerdictAccepted, sync(1, 2, wire.Vec3{X: 301}))
}

func TestARefusedEntryIsPutBackAtMostOncePerInterval(t *testing.T) {
	h, a, _ := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSultan, wire.Vec3{X: 300}, wire.Quat{W: 1}))
	h.walkTo(a, wire.Vec3{X: 5})
	h.flush()
	a.reset()
	a.vehicle = 1
	for range 10 { // a claim every frame for 330 ms
		h.now += 33 * time.Millisecond
		require.Equal(t, VerdictOutOfReach, h.frame(a))
	}
	h.flush()
	require.Len(t, received[*wire.SetPlayerPosition](a), 1)
	h.now += EntryCorrectionInterval
	require.Equal(t, VerdictOutOfReach, h.frame(a))
	h.flush()
	require.Len(t, received[*wire.SetPlayerPosition](a), 2, "again after the interval")
	require.Len(t, h.refusedInputs(0, VerdictOutOfReach), 11, "every refused frame is raised")
}

func TestTwoPlayersRacingForOneSeatTheFirstAcceptedFrameWins(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSultan, wire.Vec3{X: 5}, wire.Quat{W: 1}))
	h.walkTo(a, wire.Vec3{X: 4})
	h.walkTo(b, wire.Vec3{X: 6})
	h.flush()
	b.reset()
	a.vehicle, b.vehicle = 1, 1
	require.Equal(t, VerdictAccepted, h.frame(a), "the first claim that arrives")
	require.Equal(t, VerdictSeatTaken, h.frame(b), "the second")
	h.flush()
	fix := received[*wire.SetPlayerPosition](b)
	require.Len(t, fix, 1, "the loser is told: out of the seat, where it stood")
	require.Equal(t, wire.Vec3{X: 6}, fix[0].Position)
	b.vehicle = wire.NoVehicle // its client applies it
	require.Equal(t, VerdictAccepted, h.frame(b))
	require.Equal(t, VerdictAccepted, h.board(b, 1, 1, wire.Vec3{X: 6}), "and takes a free seat")
}
