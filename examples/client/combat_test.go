package client

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

var unit = wire.Quat{W: 1}

// ---- vehicles ----

func TestDriverSendsVehicleFramesWithItsFrames(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	pose := VehiclePose{Position: wire.Vec3{X: 30, Y: 1, Z: 2}, Rotation: unit, Velocity: wire.Vec3{X: 12}}
	require.NoError(t, h.c.EnterVehicle(h.now, 12, 0, pose, 1000))
	got := h.run(h.now+100*ms, 10*ms)
	fs, vs := of[*wire.PlayerSync](got), of[*wire.VehicleSync](got)
	require.NotEmpty(t, fs)
	require.Len(t, vs, len(fs))
	require.Equal(t, uint16(12), fs[0].Vehicle)
	require.Equal(t, uint8(0), fs[0].Seat)
	require.Equal(t, pose.Position, vs[0].Position)
	require.Equal(t, float32(1000), vs[0].Health)
	require.Equal(t, vs[0].Seq+1, vs[1].Seq)
	require.NoError(t, h.c.LeaveVehicle(h.now))
	f := h.frameNow()
	require.Equal(t, wire.NoVehicle, f.Vehicle)
	require.Equal(t, pose.Position, f.Position)
}

func TestPassengerFollowsTheDriversNewestVehicleFrame(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	require.NoError(t, h.c.EnterVehicle(h.now, 12, 2, VehiclePose{Rotation: unit}, 1000))
	h.send(&wire.RemoteVehicleSync{Vehicle: 12, Driver: 3, SyncSeq: 5, Position: wire.Vec3{X: 5}, Rotation: unit, Health: 900})
	h.send(&wire.RemoteVehicleSync{Vehicle: 12, Driver: 3, SyncSeq: 4, Position: wire.Vec3{X: 4}, Rotation: unit, Health: 950})
	require.Equal(t, wire.Vec3{X: 5}, h.c.Position(), "an older vehicle frame does not move it back")
	p, hp, ok := h.c.VehicleState()
	require.True(t, ok)
	require.Equal(t, wire.Vec3{X: 5}, p.Position)
	require.Equal(t, float32(900), hp)
	f := h.frameNow()
	require.Equal(t, uint8(2), f.Seat)
	require.Empty(t, of[*wire.VehicleSync](h.got), "a passenger sends no vehicle frames")
}

func TestVehicleExplodesAtZeroHealthNamingItsLastAttacker(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	require.NoError(t, h.c.EnterVehicle(h.now, 12, 0, VehiclePose{Rotation: unit}, 100))
	boom, err := h.c.VehicleHit(h.now, 3, 31, 60)
	require.NoError(t, err)
	require.False(t, boom)
	boom, err = h.c.VehicleHit(h.now, wire.NoPlayer, inventory.CauseFall, 50) // a crash: keeps the last attacker
	require.NoError(t, err)
	require.True(t, boom)
	got := h.flush()
	require.Empty(t, of[*wire.VehicleExplode](got), "the report waits DeathReportDelay")
	got = h.run(h.now+DeathReportDelay, 10*ms)
	ex := of[*wire.VehicleExplode](got)
	require.Len(t, ex, 1)
	require.Equal(t, wire.VehicleExplode{Vehicle: 12, Attacker: 3, Weapon: 31}, *ex[0])
	require.True(t, h.c.Alive(), "the occupants die when the server relays the explosion")
	boom, err = h.c.VehicleHit(h.now, 3, 31, 60)
	require.NoError(t, err)
	require.False(t, boom, "a wreck explodes once")
	require.ErrorIs(t, h.c.LeaveVehicle(h.now), ErrExploding, "the driver waits in the wreck for the server's verdict")

	// The server accepts it and relays it; the author is no teammate: the driver dies.
	h.send(&wire.RemoteVehicleExplode{Vehicle: 12, Author: 3, Weapon: 31, Stamp: wire.Stamp{Rev: 1}})
	require.False(t, h.c.Alive())
	got = h.flushDeath()
	require.Equal(t, []wire.ID{wire.IDDamageReport, wire.IDDeathReport, wire.IDRespawnRequest}, ids(got))
	rep := got[0].(*wire.DamageReport)
	require.Equal(t, wire.Ref{Kind: wire.RefVehicleExplode, Seq: 12}, rep.Ref)
	require.Equal(t, inventory.CauseExplosion, rep.Weapon)
	require.Equal(t, wire.PlayerID(3), rep.Attacker)
	require.Equal(t, float32(0), rep.HealthAfter)
	dr := got[1].(*wire.DeathReport)
	require.Equal(t, inventory.CauseExplosion, dr.Weapon)
	require.Equal(t, uint8(lifecycle.PoseCarDeadLeft), dr.Pose)
}

func TestTeammateInsideAVehicleExplosionTakesNothingAndLeavesTheWreck(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetArmor{Rev: 1, Armor: 50})
	require.NoError(t, h.c.EnterVehicle(h.now, 12, 1, VehiclePose{Position: wire.Vec3{X: 8}, Rotation: unit}, 1000))
	h.send(&wire.RemotePlayerSync{Player: 3, SyncSeq: 1, Alive: true, Health: 100, Stamp: wire.Stamp{Teammate: true, Rev: 3}})
	h.send(&wire.RemoteVehicleExplode{Vehicle: 12, Author: 3, Weapon: 51, Stamp: wire.Stamp{Teammate: true, Rev: 3}})
	require.True(t, h.c.Alive())
	require.Equal(t, StartHealth, h.c.Health())
	require.Equal(t, float32(50), h.c.Armor())
	v, _ := h.c.Vehicle()
	require.Equal(t, wire.NoVehicle, v)
	require.Equal(t, wire.Vec3{X: 8}, h.c.Position())
	e := popAll(h.c)
	require.Equal(t, EventLeftWreck, e[len(e)-1].Kind)
	// Without an author the explosion kills everyone inside.
	require.NoError(t, h.c.EnterVehicle(h.now, 13, 1, VehiclePose{Rotation: unit}, 1000))
	h.send(&wire.RemoteVehicleExplode{Vehicle: 13, Author: wire.NoPlayer, Weapon: 51})
	require.False(t, h.c.Alive())
	// The vehicle explosion is a death, not an amount: no multiplier spares it.
	require.Equal(t, float32(0), h.c.Armor())
}

func popAll(c *Client) []Event {
	var out []Event
	for e, ok := c.PopEvent(); ok; e, ok = c.PopEvent() {
		out = append(out, e)
	}
	return out
}

func TestVehicleGunsFireAtTheirCadence(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.world.models[12] = 425 // a Hunter: the minigun, 60 ms, 75 m, under the nose
	h.world.models[13] = 560 // a Sultan: no gun
	muzzle := wire.Vec3{Y: 3, Z: -1}
	fireFrom := func(origin, end wire.Vec3) ActVerdict {
		a, err := h.c.VehicleFire(h.now, wire.HitNone, 0, origin, end)
		require.NoError(t, err)
		return a.Verdict
	}
	fire := func() ActVerdict { return fireFrom(muzzle, wire.Vec3{X: 50}) }
	require.Equal(t, NoGun, fire())
	require.NoError(t, h.c.EnterVehicle(h.now, 12, 0, VehiclePose{Rotation: unit}, 1000))
	require.Equal(t, Settling, fire(), "not before frames showed the driver in the seat")
	h.run(h.now+DefaultSpawnSettle, 10*ms)
	require.Equal(t, Acted, fire())
	require.Equal(t, TooFast, fire())
	h.at(h.now + 60*ms)
	require.Equal(t, Acted, fire())
	h.at(h.now + 60*ms)
	require.Equal(t, OutOfRange, fireFrom(muzzle, wire.Vec3{X: 80}), "beyond the minigun's 75 m")
	require.Equal(t, OutOfRange, fireFrom(wire.Vec3{X: 20}, wire.Vec3{X: 50}), "a ray that does not start at the gun")
	vs := of[*wire.VehicleShot](h.flush())
	require.Len(t, vs, 2)
	require.Equal(t, uint16(12), vs[0].Vehicle)
	require.Equal(t, uint8(38), vs[0].Weapon)
	require.Equal(t, vs[0].ShotSeq+1, vs[1].ShotSeq, "vehicle shots share the shot numbers")
	require.NoError(t, h.c.LeaveVehicle(h.now))
	require.NoError(t, h.c.EnterVehicle(h.now, 13, 0, VehiclePose{Rotation: unit}, 1000))
	h.run(h.now+DefaultSpawnSettle, 10*ms)
	require.Equal(t, NoGun, fireFrom(wire.Vec3{}, wire.Vec3{X: 20}), "an unarmed car")
	require.NoError(t, h.c.LeaveVehicle(h.now))
	require.NoError(t, h.c.EnterVehicle(h.now, 12, 1, VehiclePose{Rotation: unit}, 1000))
	h.run(h.now+DefaultSpawnSettle, 10*ms)
	require.Equal(t, NoGun, fire(), "a seat that fires no gun")
}

func TestRelayedVehicleShotsPredatorAndCannon(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.world.pellets = 1
	h.world.models[20] = 430 // the Predator: fixed damage, weapon 31
	h.world.models[21] = 432 // the Rhino's cannon, weapon 51
	h.world.models[22] = 425 // the Hunter's minigun, weapon 38
	weapons := map[uint16]uint8{20: 31, 21: 51, 22: 38}
	h.send(&wire.DamageMultipliers{Rev: 1, Melee: 1, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, PredatorGun: 2})
	h.send(&wire.SetHealth{Rev: 1, Health: 200})
	vshot := func(v, seq uint16, at wire.Vec3) *wire.RemoteVehicleShot {
		return &wire.RemoteVehicleShot{Shooter: 3, Vehicle: v, ShotSeq: seq, Weapon: weapons[v], HitPos: at}
	}
	h.send(vshot(20, 1, spawnAt))
	require.InDelta(t, 200-2*0.33*15, h.c.Health(), 1e-4, "the Predator's fixed damage under its multiplier")
	h.send(vshot(22, 2, spawnAt))
	require.InDelta(t, 200-2*0.33*15-0.33*140, h.c.Health(), 1e-3)
	traces := len(h.world.traces)
	off := spawnAt
	off.X += 3.5
	hb := h.c.Health()
	h.send(vshot(21, 3, off))
	require.Equal(t, traces, len(h.world.traces), "the cannon's ray is not traced")
	require.InDelta(t, hb-50, h.c.Health(), 1e-3, "its shell explodes where it lands")
	reps := of[*wire.DamageReport](h.flush())
	require.Len(t, reps, 3)
	for i, r := range reps {
		require.Equal(t, wire.Ref{Kind: wire.RefVehicleShot, Seq: uint16(i + 1)}, r.Ref)
	}
	require.Equal(t, inventory.CauseExplosion, reps[2].Weapon)
}

// ---- stealth kill ----

func TestStealthKillVictimDiesWhenTheAnimationEnds(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.RemoteStealthKill{Attacker: 3, Victim: selfID, VictimEpoch: 1, Weapon: 4})
	require.True(t, h.c.Alive())
	a, _ := h.c.Fire(h.now, 24, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 1})
	require.Equal(t, Animating, a.Verdict)
	start := h.now
	got := h.run(start+DefaultStealthAnim-10*ms, 10*ms)
	require.Empty(t, of[*wire.DeathReport](got))
	require.True(t, h.c.Alive())
	got = h.run(start+DefaultStealthAnim, 10*ms)
	require.False(t, h.c.Alive())
	require.Empty(t, of[*wire.DeathReport](got), "the DeathReport waits DeathReportDelay")
	got = h.run(h.now+DeathReportDelay, 10*ms)
	drs := of[*wire.DeathReport](got)
	require.Len(t, drs, 1)
	require.Equal(t, wire.DeathReport{DeathEpoch: 1, Killer: 3, Weapon: 4, Pose: uint8(lifecycle.PoseKnifeStealth)}, *drs[0])
	require.Empty(t, of[*wire.DamageReport](got), "the server counted the death itself")
}

func TestStealthKillOfAnotherLifeOrPlayerChangesNothing(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.RemoteStealthKill{Attacker: 3, Victim: selfID, VictimEpoch: 0, Weapon: 4})
	h.send(&wire.RemoteStealthKill{Attacker: 3, Victim: 5, VictimEpoch: 1, Weapon: 4})
	h.run(h.now+5*time.Second, 50*ms)
	require.True(t, h.c.Alive())
}

func TestStealthKillClaimNeedsTheKnifeAndAVictimInReach(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	kill := func(v wire.PlayerID) ActVerdict {
		a, err := h.c.StealthKill(h.now, v)
		require.NoError(t, err)
		return a.Verdict
	}
	require.Equal(t, WrongKind, kill(3))
	h.send(&wire.GiveWeapon{Rev: 1, Weapon: 4, Ammo: 1, SetAsCurrent: true})
	require.Equal(t, NoVictim, kill(3))
	sh := show(3, 30, 6, 1)
	sh.Position = spawnAt
	sh.Position.X += 5
	h.send(sh)
	require.Equal(t, OutOfRange, kill(3))
	require.NoError(t, h.c.Move(h.now, wire.Vec3{X: 14, Y: 20, Z: 3}, wire.Vec3{}, 0))
	h.send(&wire.RemotePlayerSync{Player: 3, SyncSeq: 2, DeathEpoch: 6, Alive: true, Health: 100, Position: sh.Position,
		Stamp: wire.Stamp{Teammate: true, Rev: 2}})
	require.Equal(t, Teammate, kill(3))
	h.send(&wire.RemotePlayerSync{Player: 3, SyncSeq: 3, DeathEpoch: 6, Alive: true, Health: 100, Position: sh.Position,
		Stamp: wire.Stamp{Rev: 3}})
	require.Equal(t, Acted, kill(3))
	sk := of[*wire.StealthKill](h.flush())
	require.Len(t, sk, 1)
	require.Equal(t, wire.StealthKill{Victim: 3, VictimEpoch: 6, DeathEpoch: 1, Weapon: 4}, *sk[0])
}

// ---- projectiles ----

func TestGrenadeDetonatesAfterItsFuseAndHurtsItsThrower(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.GiveWeapon{Rev: 1, Weapon: 16, Ammo: 2})
	at := spawnAt
	at.X += 3.5
	a, err := h.c.Throw(h.now, 16, spawnAt, wire.Vec3{X: 5, Z: 3}, at, 2*time.Second)
	require.NoError(t, err)
	require.Equal(t, Acted, a.Verdict)
	require.Equal(t, uint16(1), h.c.Weapons().Slots[8].Total)
	launches := of[*wire.ProjectileLaunch](h.flush())
	require.Len(t, launches, 1)
	require.Equal(t, wire.ProjectileLaunch{Projectile: 1, DeathEpoch: 1, Weapon: 16, Vehicle: wire.NoVehicle,
		Target: wire.NoVehicle, Origin: spawnAt, Velocity: wire.Vec3{X: 5, Z: 3}}, *launches[0])
	start := h.now
	got := h.run(start+1990*ms, 10*ms)
	require.Empty(t, of[*wire.Detonation](got))
	got = h.run(start+2*time.Second, 10*ms)
	dets := of[*wire.Detonation](got)
	require.Len(t, dets, 1)
	require.Equal(t, wire.Detonation{Projectile: 1, DeathEpoch: 1, Weapon: 16, Position: at}, *dets[0])
	reps := of[*wire.DamageReport](got)
	require.Len(t, reps, 1, "its own game computes its own blast")
	require.Equal(t, wire.Ref{Kind: wire.RefDetonation, Seq: 1}, reps[0].Ref)
	require.Equal(t, selfID, reps[0].Attacker)
	require.InDelta(t, 50, reps[0].Loss, 1e-3)
	// The relay of its own detonation is not applied twice.
	h.send(&wire.RemoteDetonation{Owner: selfID, Projectile: 1, Weapon: 16, Position: at})
	require.InDelta(t, 50, h.c.Health(), 1e-3)
	// Another player's blast is.
	h.send(&wire.RemoteDetonation{Owner: 3, Projectile: 4, Weapon: 16, Position: at})
	require.InDelta(t, 0, h.c.Health(), 1e-3)
	require.False(t, h.c.Alive())
}

func TestThrowNeedsAProjectileInTheStore(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	th := func(w uint8) ActVerdict {
		a, err := h.c.Throw(h.now, w, spawnAt, wire.Vec3{}, spawnAt, time.Second)
		require.NoError(t, err)
		return a.Verdict
	}
	require.Equal(t, NotOwned, th(16))
	require.Equal(t, WrongKind, th(24))
	h.send(&wire.GiveWeapon{Rev: 1, Weapon: 16, Ammo: 1})
	require.Equal(t, Acted, th(16))
	require.Equal(t, NoAmmo, th(16))
	require.NoError(t, h.c.EnterVehicle(h.now, 1, 1, VehiclePose{Rotation: unit}, 1000))
	require.Equal(t, OnFoot, th(16))
}

func TestADeadThrowersGrenadeStillExplodesButNotIntoTheNextLife(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.GiveWeapon{Rev: 1, Weapon: 16, Ammo: 2})
	_, err := h.c.Throw(h.now, 16, spawnAt, wire.Vec3{}, spawnAt, time.Second)
	require.NoError(t, err)
	h.send(&wire.SetHealth{Rev: 1, Health: 0})
	got := h.run(h.now+2*time.Second, 10*ms)
	dets := of[*wire.Detonation](got)
	require.Len(t, dets, 1, "the grenade leaves the dead hand and explodes")
	require.Equal(t, uint16(1), dets[0].DeathEpoch)
	require.Empty(t, of[*wire.DamageReport](got), "a corpse takes no blast")

	h.send(&wire.RespawnPlayer{DeathEpoch: 2, Position: spawnAt}, &wire.GiveWeapon{Rev: 2, Weapon: 16, Ammo: 1})
	h.run(h.now+DefaultSpawnSettle, 10*ms)
	_, err = h.c.Throw(h.now, 16, spawnAt, wire.Vec3{}, spawnAt, time.Second)
	require.NoError(t, err)
	h.send(&wire.SetHealth{Rev: 2, Health: 0}, &wire.RespawnPlayer{DeathEpoch: 3, Position: spawnAt})
	got = h.run(h.now+2*time.Second, 10*ms)
	require.Empty(t, of[*wire.Detonation](got), "a revival drops what the previous life left in the air")
}

// ---- continuous weapons ----

func TestHeldContinuousFireSpendsAmmoLocallyAndShowsInFrames(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.GiveWeapon{Rev: 1, Weapon: 42, Ammo: 600, SetAsCurrent: true})
	a, err := h.c.HoldFire(h.now, true)
	require.NoError(t, err)
	require.Equal(t, Acted, a.Verdict)
	got := h.run(h.now+time.Second, 10*ms)
	fs := of[*wire.PlayerSync](got)
	require.NotEmpty(t, fs)
	for _, f := range fs {
		require.True(t, f.FireHeld)
	}
	spent := 600 - int(h.c.Weapons().Slots[9].Total)
	require.GreaterOrEqual(t, spent, DefaultSprayRate-1)
	require.Greater(t, spent, inventory.ContinuousSpendRate, "more than the server spends on its own")
	_, _ = h.c.HoldFire(h.now, false)
	require.False(t, h.frameNow().FireHeld)
	a, _ = h.c.Arm(h.now, 0)
	require.Equal(t, Acted, a.Verdict)
	a, _ = h.c.HoldFire(h.now, true)
	require.Equal(t, WrongKind, a.Verdict)
}

func TestContinuousFireStopsWhenTheTotalIsSpent(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.GiveWeapon{Rev: 1, Weapon: 41, Ammo: 5, SetAsCurrent: true})
	_, _ = h.c.HoldFire(h.now, true)
	h.run(h.now+time.Second, 10*ms)
	require.False(t, h.c.FireHeld())
	require.Equal(t, uint16(0), h.c.Weapons().Slots[9].Total)
	a, _ := h.c.HoldFire(h.now, true)
	require.Equal(t, NoAmmo, a.Verdict)
}

// ---- damage from the world ----

func TestSpraySumsAreClassedByTheirWeapon(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.DamageMultipliers{Rev: 1, Melee: 1, Fire: 1, Spray: 0.5, Extinguisher: 0, Explosion: 1, PredatorGun: 1})
	r, err := h.c.Sprayed(h.now, 3, inventory.CauseSpraycan, 4)
	require.NoError(t, err)
	require.InDelta(t, 2, r.Loss, 1e-5)
	r, err = h.c.Sprayed(h.now, 3, inventory.CauseExtinguisher, 4)
	require.NoError(t, err)
	require.Equal(t, DamageZeroMultiplier, r.Verdict)
	_, err = h.c.Sprayed(h.now, 3, 24, 4)
	require.ErrorIs(t, err, ErrOutOfRange)
	got := h.run(h.now+300*ms, 10*ms)
	reps := of[*wire.DamageReport](got)
	require.Len(t, reps, 1)
	require.Equal(t, inventory.CauseSpraycan, reps[0].Weapon)
	require.Equal(t, wire.PlayerID(3), reps[0].Attacker)
}

func TestFallAndDrowningAreSummedWithoutAnAuthor(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	_, _ = h.c.Fall(h.now, 12)
	_, _ = h.c.Drown(h.now, 1)
	h.at(h.now + 100*ms)
	_, _ = h.c.Drown(h.now, 1)
	got := h.run(h.now+400*ms, 10*ms)
	reps := of[*wire.DamageReport](got)
	require.Len(t, reps, 2, "one sum per cause")
	require.Equal(t, inventory.CauseFall, reps[0].Weapon)
	require.Equal(t, wire.NoPlayer, reps[0].Attacker)
	require.InDelta(t, 12, reps[0].Loss, 1e-5)
	require.Equal(t, inventory.CauseDrowning, reps[1].Weapon)
	require.InDelta(t, 2, reps[1].Loss, 1e-5)
	// Each sum is consistent: before - after = loss.
	for _, r := range reps {
		require.InDelta(t, r.Loss, (r.HealthBefore-r.HealthAfter)+(r.ArmorBefore-r.ArmorAfter), 1e-4)
	}
}

func TestInFireNeedsTheFireToExistInTheClientsGame(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	_, err := h.c.InFire(h.now, 9, 1)
	require.ErrorIs(t, err, ErrUnknownEffect)
	h.send(&wire.CreateFire{Effect: 9, Creator: wire.NoPlayer, Position: spawnAt, Radius: 2})
	r, err := h.c.InFire(h.now, 9, 1)
	require.NoError(t, err)
	require.Equal(t, DamageApplied, r.Verdict)
	h.at(h.now + FireLife + time.Second)
	_, err = h.c.InFire(h.now, 9, 1)
	require.ErrorIs(t, err, ErrUnknownEffect, "a fire burns out of the client's memory")
}

func TestDamageWhileDeadIsIgnored(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 1, Health: 0})
	h.flush()
	r, err := h.c.MeleeHit(h.now, 3, 0)
	require.NoError(t, err)
	require.Equal(t, DamageIgnored, r.Verdict)
	h.world.pellets = 1
	h.send(shotAt(3, 1, 24, wire.Stamp{}))
	require.Empty(t, of[*wire.DamageReport](h.flush()))
	require.Empty(t, h.world.traces, "a dead body traces nothing")
	require.Equal(t, 1, h.c.Counters().HitsIgnored)
}

// ---- bad input ----

func TestBadInputIsRefusedAndChangesNothing(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	giveGun(h, 1, 31, 50)
	before := *h.c
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	checks := []struct {
		name string
		err  error
		want error
	}{
		{"move NaN", h.c.Move(h.now, wire.Vec3{X: nan}, wire.Vec3{}, 0), ErrNotFinite},
		{"move far", h.c.Move(h.now, wire.Vec3{X: 2e5}, wire.Vec3{}, 0), ErrOutOfRange},
		{"move inf velocity", h.c.Move(h.now, wire.Vec3{}, wire.Vec3{Y: inf}, 0), ErrNotFinite},
		{"move NaN facing", h.c.Move(h.now, wire.Vec3{}, wire.Vec3{}, nan), ErrNotFinite},
		{"clock back", h.c.Move(h.now-1, wire.Vec3{}, wire.Vec3{}, 0), ErrClock},
		{"melee nobody", second(h.c.MeleeHit(h.now, wire.NoPlayer, 0)), ErrOutOfRange},
		{"ram NaN", second(h.c.Rammed(h.now, 3, nan)), ErrNotFinite},
		{"fall negative", second(h.c.Fall(h.now, -1)), ErrOutOfRange},
		{"fire NaN ray", second(h.c.Fire(h.now, 31, wire.HitNone, 0, wire.Vec3{Z: nan}, wire.Vec3{})), ErrNotFinite},
		{"fire hit nothing with an id", second(h.c.Fire(h.now, 31, wire.HitNone, 4, wire.Vec3{}, wire.Vec3{})), ErrOutOfRange},
		{"fire bad hit type", second(h.c.Fire(h.now, 31, 9, 0, wire.Vec3{}, wire.Vec3{})), ErrOutOfRange},
		{"throw fast", second(h.c.Throw(h.now, 16, wire.Vec3{}, wire.Vec3{X: 2000}, wire.Vec3{}, 0)), ErrOutOfRange},
		{"throw long fuse", second(h.c.Throw(h.now, 16, wire.Vec3{}, wire.Vec3{}, wire.Vec3{}, time.Hour)), ErrOutOfRange},
		{"enter no vehicle", h.c.EnterVehicle(h.now, wire.NoVehicle, 0, VehiclePose{Rotation: unit}, 1), ErrOutOfRange},
		{"enter bad rotation", h.c.EnterVehicle(h.now, 1, 0, VehiclePose{Rotation: wire.Quat{W: 2}}, 1), ErrOutOfRange},
		{"enter bad seat", h.c.EnterVehicle(h.now, 1, 9, VehiclePose{Rotation: unit}, 1), ErrOutOfRange},
		{"enter NaN health", h.c.EnterVehicle(h.now, 1, 0, VehiclePose{Rotation: unit}, nan), ErrNotFinite},
		{"move vehicle on foot", h.c.MoveVehicle(h.now, VehiclePose{Rotation: unit}), ErrNotInVehicle},
		{"leave on foot", h.c.LeaveVehicle(h.now), ErrNotInVehicle},
		{"vehicle hit on foot", second(h.c.VehicleHit(h.now, 3, 31, 5)), ErrNotInVehicle},
		{"tick back", h.c.Tick(h.now - 1), ErrClock},
		{"receive garbage", h.c.Receive(h.now, []byte{1, 0xEE}), ErrMalformed},
		{"receive wrong direction", h.c.Receive(h.now, mustAppend(t, &wire.PlayerSync{Vehicle: wire.NoVehicle})), ErrMalformed},
	}
	for _, tc := range checks {
		require.ErrorIs(t, tc.err, tc.want, tc.name)
	}
	after := *h.c
	before.counters.Malformed = after.counters.Malformed // counting a bad datagram is all it does
	require.Equal(t, before.health, after.health)
	require.Equal(t, before.pos, after.pos)
	require.Equal(t, before.store, after.store)
	require.Equal(t, before.counters, after.counters)
	require.Equal(t, before.damageSeq, after.damageSeq)
	require.Equal(t, before.shotSeq, after.shotSeq)
	require.Equal(t, 2, after.counters.Malformed)
}

func second[T any](_ T, err error) error { return err }

func mustAppend(t *testing.T, m wire.Message) []byte {
	b, err := m.Append(nil)
	require.NoError(t, err)
	return b
}

func TestConfigIsValidated(t *testing.T) {
	for _, cfg := range []Config{
		{ReloadTime: -1},
		{StealthAnim: time.Hour},
		{SprayRate: 5},
		{SpawnSettle: time.Hour},
		{Table: &inventory.Table{}},
	} {
		_, err := New(cfg)
		require.ErrorIs(t, err, ErrConfig)
	}
	c, err := New(Config{SpawnSettle: -1})
	require.NoError(t, err)
	require.Equal(t, time.Duration(0), c.cfg.SpawnSettle)
}

func TestDisconnectClosesTheClient(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.Disconnect{Reason: wire.ReasonKicked})
	closed, why := h.c.Closed()
	require.True(t, closed)
	require.Equal(t, wire.ReasonKicked, why)
	require.ErrorIs(t, h.c.Tick(h.now), ErrClosed)
	_, err := h.c.Fire(h.now, 31, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{})
	require.True(t, errors.Is(err, ErrClosed))
	_, ok := h.c.NextDeadline()
	require.False(t, ok)
}

func TestLeaveSendsDisconnect(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	require.NoError(t, h.c.Leave(h.now))
	got := h.flush()
	require.Len(t, of[*wire.Disconnect](got), DisconnectRepeats)
	closed, why := h.c.Closed()
	require.True(t, closed)
	require.Equal(t, wire.ReasonQuit, why)
}

// ---- the logs for the simulator ----

func TestRaceLogRecordsWhenReportsWereCreatedAndCommandsApplied(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	_, _ = h.c.MeleeHit(h.now, 3, 0) // created before the command: echoes 0
	created := h.now
	h.at(h.now + 30*ms)
	h.send(&wire.SetHealth{Rev: 1, Health: 100})
	applied := h.now
	h.at(h.now + 30*ms)
	_, _ = h.c.MeleeHit(h.now, 3, 0)
	reps := h.c.AppendReportLog(nil)
	require.Len(t, reps, 2)
	require.Equal(t, ReportEntry{At: created, DamageSeq: 1, VitalRev: 0, Epoch: 1, Attacker: 3, Weapon: 0,
		Loss: reps[0].Loss, HealthAfter: reps[0].HealthAfter}, reps[0])
	require.Equal(t, uint16(1), reps[1].VitalRev)
	cmds := h.c.AppendCommandLog(nil)
	require.Len(t, cmds, 1)
	require.Equal(t, CommandEntry{At: applied, Rev: 1, Kind: wire.IDSetHealth, Value: 100, Health: 100}, cmds[0])
	require.Less(t, reps[0].At, cmds[0].At)
	require.Less(t, reps[0].VitalRev, cmds[0].Rev, "the report that crosses the command")
}

func TestLogsAreBounded(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	for i := range MaxReportLog + 10 {
		h.send(&wire.SetHealth{Rev: uint16(i + 1), Health: 100})
		_, _ = h.c.MeleeHit(h.now, 3, 0)
		if i%100 == 0 {
			h.flush()
		}
	}
	require.Len(t, h.c.AppendReportLog(nil), MaxReportLog)
	require.Equal(t, uint64(10), h.c.ReportLogDropped())
	require.Len(t, h.c.AppendCommandLog(nil), MaxCommandLog)
	require.Equal(t, uint64(MaxReportLog+10-MaxCommandLog), h.c.CommandLogDropped())
	last := h.c.AppendReportLog(nil)[MaxReportLog-1]
	require.Equal(t, uint16(MaxReportLog+10), last.DamageSeq)
}

// TestStealthKillClaimFollowsTheCataloguesStealthKillColumn: the weapon of a stealth kill
// is the one the client's catalogue marks StealthKill (inventory's [weapon-causes]), not a
// weapon id: with a table that gives the stealth kill to the katana instead of the knife,
// the knife claims nothing and the katana does.
func TestStealthKillClaimFollowsTheCataloguesStealthKillColumn(t *testing.T) {
	const knife, katana uint8 = 4, 8
	table := inventory.DefaultTable()
	table[knife].StealthKill, table[katana].StealthKill = false, true
	h := newHarness(t, Config{Table: &table})
	h.join()
	sh := show(3, 30, 6, 1)
	sh.Position = spawnAt
	sh.Position.X++
	h.send(sh)
	h.send(&wire.GiveWeapon{Rev: 1, Weapon: knife, Ammo: 1, SetAsCurrent: true})
	a, err := h.c.StealthKill(h.now, 3)
	require.NoError(t, err)
	require.Equal(t, WrongKind, a.Verdict, "this catalogue's knife kills nobody by stealth")
	h.send(&wire.GiveWeapon{Rev: 2, Weapon: katana, Ammo: 1, SetAsCurrent: true})
	a, err = h.c.StealthKill(h.now, 3)
	require.NoError(t, err)
	require.Equal(t, Acted, a.Verdict)
	sk := of[*wire.StealthKill](h.flush())
	require.Len(t, sk, 1)
	require.Equal(t, katana, sk[0].Weapon)
}

// The counts that let Tick skip scanning its fuses and sums follow the slots: they rise
// with a throw and a sum and fall back to zero once the detonations and the reports went
// out, and a revival clears them with the slots.
func TestFuseAndSumCountsFollowTheirSlots(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.GiveWeapon{Rev: 1, Weapon: 16, Ammo: 3})
	_, err := h.c.Arm(h.now, 16) // a held weapon reloads
	require.NoError(t, err)
	for range 2 {
		at := spawnAt
		at.X += 30 // out of the blast
		a, err := h.c.Throw(h.now, 16, spawnAt, wire.Vec3{}, at, 5*time.Second)
		require.NoError(t, err)
		require.Equal(t, Acted, a.Verdict)
		h.run(h.now+DefaultReloadTime+h.c.table[16].MinInterval+100*ms, 10*ms) // the next grenade in the hand
	}
	_, _ = h.c.Fall(h.now, 12)
	_, _ = h.c.Drown(h.now, 1)
	require.Equal(t, 2, h.c.armedFuses)
	require.Equal(t, 2, h.c.openSums)
	h.run(h.now+6*time.Second, 10*ms)
	require.Equal(t, 0, h.c.armedFuses)
	require.Equal(t, 0, h.c.openSums)

	_, err = h.c.Throw(h.now, 16, spawnAt, wire.Vec3{}, spawnAt, time.Second)
	require.NoError(t, err)
	_, _ = h.c.Fall(h.now, 12)
	require.Equal(t, 1, h.c.armedFuses)
	require.Equal(t, 1, h.c.openSums)
	h.send(&wire.SetHealth{Rev: 1, Health: 0}, &wire.RespawnPlayer{DeathEpoch: 2, Position: spawnAt})
	require.Equal(t, 0, h.c.armedFuses)
	require.Equal(t, 0, h.c.openSums)
}
