package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

func TestBulletFloorNeverExceedsTheDamageOfATableTheVictimMayApply(t *testing.T) {
	h, a, b := duel(t, m4)
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	old := a.shotSeq
	// The gamemode lowers the M4 after the shot; the victim applies the new table before
	// the old shot's bullet reaches it, and computes 0.33 x 25.
	require.NoError(t, h.w.SetWeaponProperties(h.now, m4, [3]float32{25, 25, 25}, 90))
	h.flush()
	h.flush() // the victim acknowledges
	require.Equal(t, VerdictAccepted, h.hit(b, 0, m4, wire.Ref{Kind: wire.RefWeaponShot, Seq: old}, 0.5))
	hp, _ := h.w.Health(1)
	require.InDelta(t, 100-vitals.BulletFloor(25), hp, 0.001, "floored at the lower table, not the shot's 30")
	// The other way round, the shot's own revision is the lower one.
	h.now += time.Second
	require.NoError(t, h.w.SetWeaponProperties(h.now, m4, [3]float32{60, 60, 60}, 90))
	h.flush()
	h.flush()
	h.now += PropertiesGrace
	a.reset()
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.WeaponShot{ShotSeq: a.shotSeq + 1, DeathEpoch: a.gen,
		PropertiesRev: h.w.catalog.Revision() - 1, Weapon: m4, HitType: wire.HitPlayer, HitID: 1, HitPos: wire.Vec3{X: 10}}))
	a.shotSeq++
	require.Equal(t, VerdictAccepted, h.hit(b, 0, m4, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 0.5))
	hp2, _ := h.w.Health(1)
	require.InDelta(t, hp-vitals.BulletFloor(25), hp2, 0.01, "the shot fired under 25 is floored at 25")
}

func TestBlowDealtBeforeTheAttackersDeathIsStillCredited(t *testing.T) {
	h, a, b := duel(t, deagle)
	for range 12 {
		h.now += 100 * time.Millisecond
		a.pos = wire.Vec3{X: 9}
		require.Equal(t, VerdictAccepted, h.frame(a))
		require.Equal(t, VerdictAccepted, h.frame(b))
	}
	require.Equal(t, VerdictAccepted, h.hit(a, NoPlayer, 54, wire.Ref{}, 100))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.DeathReport{DeathEpoch: a.gen, Weapon: 54, Killer: NoPlayer}))
	h.now += ActionGrace / 2
	require.Equal(t, VerdictAccepted, h.hit(b, 0, 0, wire.Ref{}, 2), "dealt alive, reported after the commit")
	h.now += ActionGrace
	require.Equal(t, VerdictAttackerNotAlive, h.hit(b, 0, 0, wire.Ref{}, 2))
}

func TestSprayAndRamAreAttributedByTheAttackersRecentFrames(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.GiveWeapon(h.now, 0, 41, 500, true))
	require.NoError(t, h.w.CreateVehicle(h.now, 3, 411, wire.Vec3{X: 8}, wire.Quat{W: 1}))
	h.flush()
	for range 12 {
		h.now += 100 * time.Millisecond
		a.pos = wire.Vec3{X: 7}
		f := a.frameMsg()
		f.Weapon, f.FireHeld = 41, true
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, f))
		require.Equal(t, VerdictAccepted, h.frame(b))
	}
	// The spray stopped a moment ago; its sum arrives after.
	f := a.frameMsg()
	f.Weapon = 41
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, f))
	h.now += 300 * time.Millisecond
	require.Equal(t, VerdictAccepted, h.hit(b, 0, 41, wire.Ref{}, 3))
	d := h.events(EventPlayerDamage)
	require.Len(t, d, 1)
	require.Equal(t, PlayerID(0), d[0].Other)
	// A ram by a driver who got out just before the report arrived.
	a.vehicle, a.seat = 3, 0
	require.Equal(t, VerdictAccepted, h.frame(a))
	a.vehicle = wire.NoVehicle
	require.Equal(t, VerdictAccepted, h.frame(a))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, 49, wire.Ref{}, 5))
	d = h.events(EventPlayerDamage)
	require.Len(t, d, 2)
	require.Equal(t, PlayerID(0), d[1].Other)
	// Long after: no attribution, the ledger still takes it.
	h.now += ContinuousWindow + time.Millisecond
	require.Equal(t, VerdictAccepted, h.hit(b, 0, 49, wire.Ref{}, 5))
	un := h.events(EventReportUnattributed)
	require.Len(t, un, 1)
	require.Equal(t, VerdictNotDriving, un[0].Verdict)
}

func TestStealthKillOfAVictimAlreadyCountedDeadIsRefusedAsTargetNotAlive(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.GiveWeapon(h.now, 0, 4, 1, true))
	for range 12 {
		h.now += 100 * time.Millisecond
		a.pos = wire.Vec3{X: 9.5}
		require.Equal(t, VerdictAccepted, h.frame(a))
		require.Equal(t, VerdictAccepted, h.frame(b))
	}
	require.Equal(t, VerdictAccepted, h.hit(b, NoPlayer, 54, wire.Ref{}, 100))
	require.Equal(t, VerdictTargetNotAlive, h.w.Handle(h.now, 0, &wire.StealthKill{Victim: 1, VictimEpoch: b.gen, DeathEpoch: a.gen, Weapon: 4}))
}

func TestVehicleExplosionIsTakenFromADriverWhoseSeatFrameIsLate(t *testing.T) {
	h, a, _ := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 2, 411, wire.Vec3{}, wire.Quat{W: 1}))
	a.vehicle, a.seat = 2, 0
	require.Equal(t, VerdictAccepted, h.frame(a))
	a.vehicle = wire.NoVehicle
	require.Equal(t, VerdictAccepted, h.frame(a))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.VehicleExplode{Vehicle: 2, Attacker: NoPlayer, Weapon: 51}))
	require.NoError(t, h.w.CreateVehicle(h.now, 3, 411, wire.Vec3{}, wire.Quat{W: 1}))
	require.Equal(t, VerdictNotInVehicle, h.w.Handle(h.now, 0, &wire.VehicleExplode{Vehicle: 3, Attacker: NoPlayer, Weapon: 51}))
}

func TestVehicleShotIsTakenFromADriverWhoseLeavingFrameOvertookIt(t *testing.T) {
	h, a, _ := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 2, 425, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, h.w.CreateVehicle(h.now, 3, 425, wire.Vec3{}, wire.Quat{W: 1}))
	shot := func(seq, vehicle uint16) Verdict {
		return h.w.Handle(h.now, 0, &wire.VehicleShot{ShotSeq: seq, DeathEpoch: a.gen, PropertiesRev: h.w.catalog.Revision(),
			Vehicle: vehicle, Weapon: 38, HitType: wire.HitPlayer, HitID: 1, Origin: wire.Vec3{}, HitPos: wire.Vec3{X: 20}})
	}
	a.vehicle, a.seat = 2, 0
	require.Equal(t, VerdictAccepted, h.frame(a))
	h.now += 33 * time.Millisecond
	a.vehicle = wire.NoVehicle
	require.Equal(t, VerdictAccepted, h.frame(a)) // the frame on foot, ahead of the shot fired before it
	h.now += 10 * time.Millisecond
	require.Equal(t, VerdictAccepted, shot(1, 2), "a shot from the seat it left within the grace")
	require.Equal(t, VerdictNotInVehicle, shot(2, 3), "never a vehicle it did not drive")
	h.now += VehicleShotGrace
	require.Equal(t, VerdictNotInVehicle, shot(3, 2), "after the grace")
}
