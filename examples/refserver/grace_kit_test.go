package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

func TestBulletFloorNeverExceedsTheDamageOfATableTheVictimMayApply(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, m4, 0, 2)
	a, b := s[0], s[1]
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 10}, wire.HitPlayer, b.r.ID()))
	old := a.shots
	// The gamemode lowers the M4 after the shot; the victim applies the new table before
	// the old shot's bullet reaches it, and computes 0.33 x 25.
	require.NoError(t, w.SetWeaponProperties(k.Now(), m4, [3]float32{25, 25, 25}, 90))
	tick(t, k)
	tick(t, k) // the victim acknowledges
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), m4, wire.Ref{Kind: wire.RefWeaponShot, Seq: old}, 0.5))
	hp, _ := w.Health(b.r.ID())
	require.InDelta(t, 100-vitals.BulletFloor(25), hp, 0.001, "floored at the lower table, not the shot's 30")
	// The other way round, the shot's own revision is the lower one.
	require.NoError(t, k.Advance(time.Second))
	require.NoError(t, w.SetWeaponProperties(k.Now(), m4, [3]float32{60, 60, 60}, 90))
	tick(t, k)
	tick(t, k)
	require.NoError(t, k.Advance(refserver.PropertiesGrace))
	a.shots++
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.WeaponShot{ShotSeq: a.shots, DeathEpoch: a.gen,
		PropertiesRev: w.Catalog().Revision() - 1, Weapon: m4, HitType: wire.HitPlayer, HitID: uint16(b.r.ID()), HitPos: wire.Vec3{X: 10}})))
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), m4, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 0.5))
	hp2, _ := w.Health(b.r.ID())
	require.InDelta(t, hp-vitals.BulletFloor(25), hp2, 0.01, "the shot fired under 25 is floored at 25")
}

func TestBlowDealtBeforeTheAttackersDeathIsStillCredited(t *testing.T) {
	k, _, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	a.pos = wire.Vec3{X: 9}
	walk(t, k, a, b)
	require.Equal(t, refserver.VerdictAccepted, a.hit(refserver.NoPlayer, causeFall, wire.Ref{}, 100))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.DeathReport{DeathEpoch: a.gen, Weapon: causeFall, Killer: refserver.NoPlayer})))
	require.NoError(t, k.Advance(refserver.ActionGrace/2))
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), 0, wire.Ref{}, 2), "dealt alive, reported after the commit")
	require.NoError(t, k.Advance(refserver.ActionGrace))
	require.Equal(t, refserver.VerdictAttackerNotAlive, b.hit(a.r.ID(), 0, wire.Ref{}, 2))
}

func TestSprayAndRamAreAttributedByTheAttackersRecentFrames(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	const spraycan, causeRam uint8 = 41, 49
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), spraycan, 500, true))
	require.NoError(t, w.CreateVehicle(k.Now(), 3, carModel, wire.Vec3{X: 8}, wire.Quat{W: 1}))
	a.pos, a.weapon = wire.Vec3{X: 7}, spraycan
	spray := func(held bool) {
		t.Helper()
		a.seq++
		require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.PlayerSync{Seq: a.seq, DeathEpoch: a.gen, Alive: true,
			Health: 100, Weapon: spraycan, FireHeld: held, Vehicle: wire.NoVehicle, Position: a.pos})))
	}
	for range 12 {
		require.NoError(t, k.Advance(100*time.Millisecond))
		spray(true)
		require.Equal(t, refserver.VerdictAccepted, b.frame())
	}
	// The spray stopped a moment ago; its sum arrives after.
	spray(false)
	require.NoError(t, k.Advance(300*time.Millisecond))
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), spraycan, wire.Ref{}, 3))
	tick(t, k)
	d := eventsOf(k, refserver.EventPlayerDamage, b.r.ID())
	require.Len(t, d, 1)
	require.Equal(t, a.r.ID(), d[0].Other)
	// A ram by a driver who got out just before the report arrived.
	a.veh, a.seat = 3, 0
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	a.veh = wire.NoVehicle
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), causeRam, wire.Ref{}, 5))
	tick(t, k)
	d = eventsOf(k, refserver.EventPlayerDamage, b.r.ID())
	require.Len(t, d, 2)
	require.Equal(t, a.r.ID(), d[1].Other)
	// Long after: no attribution, the ledger still takes it.
	require.NoError(t, k.Advance(refserver.ContinuousWindow+10*time.Millisecond))
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), causeRam, wire.Ref{}, 5))
	tick(t, k)
	un := eventsOf(k, refserver.EventReportUnattributed, b.r.ID())
	require.Len(t, un, 1)
	require.Equal(t, refserver.VerdictNotDriving, un[0].Verdict)
}

func TestStealthKillOfAVictimAlreadyCountedDeadIsRefusedAsTargetNotAlive(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), knife, 1, true))
	a.pos, a.weapon = wire.Vec3{X: 9.5}, knife
	walk(t, k, a, b)
	require.Equal(t, refserver.VerdictAccepted, b.hit(refserver.NoPlayer, causeFall, wire.Ref{}, 100))
	require.Equal(t, refserver.VerdictTargetNotAlive, must(t)(a.r.Send(&wire.StealthKill{Victim: b.r.ID(), VictimEpoch: b.gen,
		DeathEpoch: a.gen, Weapon: knife})))
}

func TestVehicleExplosionIsTakenFromADriverWhoseSeatFrameIsLate(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a := s[0]
	require.NoError(t, w.CreateVehicle(k.Now(), 2, carModel, wire.Vec3{}, wire.Quat{W: 1}))
	a.veh, a.seat = 2, 0
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	a.veh = wire.NoVehicle
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.VehicleExplode{Vehicle: 2, Attacker: refserver.NoPlayer, Weapon: explosionCause})))
	require.NoError(t, w.CreateVehicle(k.Now(), 3, carModel, wire.Vec3{}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictNotInVehicle, must(t)(a.r.Send(&wire.VehicleExplode{Vehicle: 3, Attacker: refserver.NoPlayer, Weapon: explosionCause})))
}

func TestVehicleShotIsTakenFromADriverWhoseLeavingFrameOvertookIt(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	require.NoError(t, w.CreateVehicle(k.Now(), 2, modelHunter, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, w.CreateVehicle(k.Now(), 3, modelHunter, wire.Vec3{}, wire.Quat{W: 1}))
	shot := func(seq, vehicle uint16) refserver.Verdict {
		return must(t)(a.r.Send(&wire.VehicleShot{ShotSeq: seq, DeathEpoch: a.gen, PropertiesRev: w.Catalog().Revision(),
			Vehicle: vehicle, Weapon: minigun, HitType: wire.HitPlayer, HitID: uint16(b.r.ID()), Origin: wire.Vec3{}, HitPos: wire.Vec3{X: 20}}))
	}
	a.veh, a.seat = 2, 0
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.NoError(t, k.Advance(33*time.Millisecond))
	a.veh = wire.NoVehicle
	require.Equal(t, refserver.VerdictAccepted, a.frame()) // the frame on foot, ahead of the shot fired before it
	require.NoError(t, k.Advance(10*time.Millisecond))
	require.Equal(t, refserver.VerdictAccepted, shot(1, 2), "a shot from the seat it left within the grace")
	require.Equal(t, refserver.VerdictNotInVehicle, shot(2, 3), "never a vehicle it did not drive")
	require.NoError(t, k.Advance(refserver.VehicleShotGrace))
	require.Equal(t, refserver.VerdictNotInVehicle, shot(3, 2), "after the grace")
}
