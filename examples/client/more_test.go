package client

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

func TestSkillTierDecidesTheClipOfAGive(t *testing.T) {
	require.Equal(t, inventory.TierPoor, SkillTier(0))
	require.Equal(t, inventory.TierPoor, SkillTier(SkillStdLevel-1))
	require.Equal(t, inventory.TierStd, SkillTier(500))
	require.Equal(t, inventory.TierPro, SkillTier(999))
	h := newHarness(t, Config{})
	h.join()
	giveGun(h, 1, 22, 100)
	require.Equal(t, uint16(17), h.c.Weapons().Slots[2].Clip, "a new player is poor: 17")
	h.send(&wire.SetWeaponSkill{Skill: 0, Level: 999}) // PISTOL_SKILL
	giveGun(h, 2, 22, 1)
	require.Equal(t, uint16(34), h.c.Weapons().Slots[2].Clip, "a hitman's Colt holds 34")
	h.send(&wire.SetWeaponSkill{Skill: 40, Level: 999}) // no such skill: ignored
	require.Equal(t, inventory.TierPoor, h.c.tier(31), "the M4's skill was never set: poor, as the server's store starts")
	require.Equal(t, inventory.TierStd, h.c.tier(33), "a weapon without tiers fires at the standard one")
}

func TestTeleportTakesThePlayerOutOfItsVehicle(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	require.NoError(t, h.c.EnterVehicle(h.now, 4, 0, VehiclePose{Rotation: unit}, 1000))
	h.send(&wire.SetPlayerPosition{Position: wire.Vec3{X: 500}, Facing: 1})
	v, _ := h.c.Vehicle()
	require.Equal(t, wire.NoVehicle, v)
	require.Equal(t, wire.Vec3{X: 500}, h.c.Position())
	ev := popAll(h.c)
	require.Equal(t, EventTeleported, ev[len(ev)-1].Kind)
	require.Equal(t, wire.Vec3{X: 500}, ev[len(ev)-1].Position)
}

func TestServerMovesAndFreezesTheVehicle(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	require.NoError(t, h.c.EnterVehicle(h.now, 4, 0, VehiclePose{Rotation: unit}, 1000))
	h.send(&wire.SetVehiclePose{Vehicle: 4, Position: wire.Vec3{Y: 9}, Rotation: unit},
		&wire.SetVehicleFrozen{Vehicle: 4, Frozen: true})
	require.Equal(t, wire.Vec3{Y: 9}, h.c.Position())
	require.True(t, h.c.Frozen(4))
	require.ErrorIs(t, h.c.MoveVehicle(h.now, VehiclePose{Position: wire.Vec3{Y: 10}, Rotation: unit}), ErrFrozen)
	h.send(&wire.SetVehicleFrozen{Vehicle: 4, Frozen: false})
	require.NoError(t, h.c.MoveVehicle(h.now, VehiclePose{Position: wire.Vec3{Y: 10}, Rotation: unit}))
	require.Equal(t, wire.Vec3{Y: 10}, h.c.Position())
	h.send(&wire.SetVehiclePose{Vehicle: 5, Position: wire.Vec3{Y: 99}, Rotation: unit})
	require.Equal(t, wire.Vec3{Y: 10}, h.c.Position(), "another vehicle's move does not move the player")
}

func TestStrikeKeepsTheWeaponsCadenceAndReach(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	sh := show(3, 30, 1, 1)
	sh.Position = spawnAt
	h.send(sh)
	strike := func(v wire.PlayerID) ActVerdict {
		a, err := h.c.Strike(h.now, v)
		require.NoError(t, err)
		return a.Verdict
	}
	require.Equal(t, NoVictim, strike(4))
	require.Equal(t, Acted, strike(3))
	require.Equal(t, TooFast, strike(3), "the fists' 250 ms")
	h.at(h.now + 250*ms)
	require.Equal(t, Acted, strike(3))
	require.NoError(t, h.c.Move(h.now, wire.Vec3{X: spawnAt.X + 7, Y: spawnAt.Y, Z: spawnAt.Z}, wire.Vec3{}, 0))
	h.at(h.now + time.Second)
	require.Equal(t, OutOfRange, strike(3))
	require.Equal(t, 2, h.c.Counters().Blows)
	for _, m := range h.flush() {
		require.IsType(t, &wire.PlayerSync{}, m, "a blow sends nothing")
	}
}

func TestNextDeadlineTellsWhenTheClientNeedsATick(t *testing.T) {
	h := newHarness(t, Config{})
	at, ok := h.c.NextDeadline()
	require.True(t, ok)
	require.Equal(t, time.Duration(0), at, "Hello is due at once")
	h.step()
	at, _ = h.c.NextDeadline()
	require.Equal(t, transport.HelloRetry, at)
	h.join()
	h.send(&wire.GiveWeapon{Rev: 1, Weapon: 33, Ammo: 5, SetAsCurrent: true})
	_, _ = h.c.Fire(h.now, 33, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 1})
	h.step() // the reload starts
	at, _ = h.c.NextDeadline()
	require.LessOrEqual(t, at, h.now+transport.FrameInterval)
	// Nothing happens for an idle client between its deadlines but the frame.
	_, err := h.c.Fall(h.now, 1)
	require.NoError(t, err)
	for range 40 {
		at, ok = h.c.NextDeadline()
		require.True(t, ok)
		require.GreaterOrEqual(t, at, h.now-transport.FrameInterval)
		h.at(max(at, h.now))
		h.step()
	}
	require.Equal(t, uint16(1), h.c.Weapons().Slots[6].Clip, "the reload finished on its deadline")
	require.Equal(t, 1, h.c.Counters().SumReports, "the sum went out on its deadline")
}

func TestRemoteCopiesAreCapped(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	for i := range MaxRemotes + 5 {
		id := wire.PlayerID(i)
		if id == selfID {
			continue
		}
		h.enqueue(show(id, uint32(i)+1000, 1, 1))
		if i%200 == 0 {
			for _, d := range h.serverDatagrams() {
				require.NoError(t, h.c.Receive(h.now, d))
			}
			h.flush()
		}
	}
	for _, d := range h.serverDatagrams() {
		require.NoError(t, h.c.Receive(h.now, d))
	}
	require.Len(t, h.c.AppendRemotes(nil), MaxRemotes)
	_, ok := h.c.Remote(wire.PlayerID(MaxRemotes + 3))
	require.False(t, ok)
}

func TestEffectsAreCappedOldestForgotten(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	for i := range MaxEffects + 1 {
		h.at(h.now + ms)
		h.send(&wire.CreateFire{Effect: uint16(i), Creator: wire.NoPlayer, Position: spawnAt, Radius: 2})
	}
	_, err := h.c.InFire(h.now, 0, 1)
	require.ErrorIs(t, err, ErrUnknownEffect, "the oldest fire made room")
	_, err = h.c.InFire(h.now, MaxEffects, 1)
	require.NoError(t, err)
	_, err = h.c.InFire(h.now, 1, 1)
	require.NoError(t, err)
}

func TestEventsTellTheWorldWhatHappened(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 1, Health: 0})
	h.send(&wire.RespawnPlayer{DeathEpoch: 2, Position: wire.Vec3{X: 3}, Facing: 2})
	ev := popAll(h.c)
	kinds := make([]EventKind, len(ev))
	for i, e := range ev {
		kinds[i] = e.Kind
	}
	require.Equal(t, []EventKind{EventSpawned, EventDied, EventSpawned}, kinds)
	require.Equal(t, uint16(1), ev[1].Epoch)
	require.Equal(t, wire.Vec3{X: 3}, ev[2].Position)
	require.InDelta(t, 2, ev[2].Facing, 1e-3)
	require.Equal(t, "spawned at 0s life 1", ev[0].String())
	_, ok := h.c.PopEvent()
	require.False(t, ok)
}

func TestVerdictsHaveStableNames(t *testing.T) {
	require.Equal(t, "too fast", TooFast.String())
	require.Equal(t, "ActVerdict(99)", ActVerdict(99).String())
	require.Equal(t, "acted #3", Action{Verdict: Acted, Seq: 3}.String())
	require.Equal(t, "lethal 12.5 #4", DamageResult{Verdict: DamageLethal, Loss: 12.5, Report: 4}.String())
	require.Equal(t, "refused teammate", DamageRefusedTeammate.String())
	require.Equal(t, "DamageVerdict(0)", DamageVerdict(0).String())
	require.Equal(t, "left wreck", EventLeftWreck.String())
	require.Equal(t, "EventKind(0)", EventKind(0).String())
}
