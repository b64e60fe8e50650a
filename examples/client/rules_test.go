package client

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

const ms = time.Millisecond

// ---- joining ----

func TestHelloRepeatsUntilWelcome(t *testing.T) {
	h := newHarness(t, Config{})
	got := h.run(600*ms, 10*ms)
	require.Len(t, of[*wire.Hello](got), 3, "at 0, 250 and 500 ms")
	require.Empty(t, of[*wire.RespawnRequest](got), "no request before Welcome")
	h.send(&wire.Welcome{Player: selfID, PlayerToken: selfToken, Session: h.c.Session()})
	got = h.run(2*time.Second, 10*ms)
	require.Empty(t, of[*wire.Hello](got))
	id, ok := h.c.PlayerID()
	require.True(t, ok)
	require.Equal(t, selfID, id)
	require.Equal(t, selfToken, h.c.Token())
}

func TestUnspawnedClientRequestsItsConnectSpawnOnATimer(t *testing.T) {
	h := newHarness(t, Config{})
	h.step()
	h.send(&wire.Welcome{Player: selfID, PlayerToken: selfToken, Session: h.c.Session()})
	got := h.run(2500*ms, 10*ms)
	reqs := of[*wire.RespawnRequest](got)
	require.Len(t, reqs, 3, "at once, then every RespawnRetry")
	for _, r := range reqs {
		require.Equal(t, uint16(0), r.DeathEpoch)
	}
	require.Empty(t, of[*wire.PlayerSync](got), "an unspawned client sends no frames")
}

// ---- vitals' [one-command-queue] and [health-revision]: commands in one ordered queue, echoed ----

func TestCommandsApplyInOneOrderedQueue(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 1, Health: 50}, &wire.GiveHealth{Rev: 2, Amount: 25, Max: 100})
	require.Equal(t, float32(75), h.c.Health(), "set_health(50) then add_health(25, 100) gives 75")
	require.Equal(t, uint16(2), h.c.Revisions().Vital)
}

func TestCommandsKeepTheServersOrderWhenTheNetworkReordersThem(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	// Two lane datagrams; the second overtakes the first.
	h.enqueue(&wire.SetHealth{Rev: 1, Health: 50})
	first := h.serverDatagrams()
	h.enqueue(&wire.GiveHealth{Rev: 2, Amount: 25, Max: 100}, &wire.GiveWeapon{Rev: 1, Weapon: 24, Ammo: 7})
	second := h.serverDatagrams()
	for _, d := range second {
		require.NoError(t, h.c.Receive(h.now, d))
	}
	require.Equal(t, StartHealth, h.c.Health(), "nothing applies ahead of the gap")
	for _, d := range first {
		require.NoError(t, h.c.Receive(h.now, d))
	}
	require.Equal(t, float32(75), h.c.Health())
	require.Equal(t, uint8(24), h.c.Weapons().Slots[2].Weapon)
	f := h.frameNow()
	require.Equal(t, uint16(2), f.VitalRev)
	require.Equal(t, uint16(1), f.WeaponRev)
}

func TestSetIsExactAddNeverLowers(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 1, Health: 150})
	require.Equal(t, float32(150), h.c.Health(), "a set may raise above 100")
	h.send(&wire.GiveHealth{Rev: 2, Amount: 30, Max: 100})
	require.Equal(t, float32(150), h.c.Health(), "an add never lowers")
	h.send(&wire.SetHealth{Rev: 3, Health: 20})
	require.Equal(t, float32(20), h.c.Health(), "a set lowers")
	h.send(&wire.GiveArmor{Rev: 4, Amount: 80, Max: 50}, &wire.SetArmor{Rev: 5, Armor: 10}, &wire.GiveArmor{Rev: 6, Amount: 5, Max: 200})
	require.Equal(t, float32(15), h.c.Armor())
	require.Equal(t, uint16(6), h.lastFrameAfterTick().VitalRev)
}

func (h *harness) lastFrameAfterTick() *wire.PlayerSync { return h.frameNow() }

func TestEveryFrameEchoesTheLastHealthRevisionTaken(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	require.Equal(t, uint16(0), h.lastFrame().VitalRev)
	h.send(&wire.SetArmor{Rev: 9, Armor: 40})
	got := h.run(h.now+200*ms, 10*ms)
	for _, f := range of[*wire.PlayerSync](got) {
		require.Equal(t, uint16(9), f.VitalRev)
		require.Equal(t, float32(40), f.Armor)
	}
}

func TestHealthCommandWhileDeadIsDroppedButItsRevisionTaken(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 1, Health: 0})
	require.False(t, h.c.Alive())
	h.send(&wire.SetHealth{Rev: 2, Health: 80}, &wire.GiveArmor{Rev: 3, Amount: 50, Max: 100})
	require.Equal(t, float32(0), h.c.Health(), "dropped: a set is a point in time")
	require.Equal(t, float32(0), h.c.Armor())
	require.Equal(t, uint16(3), h.c.Revisions().Vital, "the revision is taken anyway")
	require.Equal(t, uint16(3), h.frameNow().VitalRev)
	cs := h.c.Counters()
	require.Equal(t, 2, cs.CommandsDropped)
	log := h.c.AppendCommandLog(nil)
	require.Len(t, log, 3)
	require.False(t, log[0].Dropped)
	require.True(t, log[1].Dropped)
	require.True(t, log[2].Dropped)
}

func TestSetHealthZeroKillsThroughTheDeathPath(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 1, Health: 0})
	require.False(t, h.c.Alive())
	got := h.flushDeath()
	drs := of[*wire.DeathReport](got)
	require.Len(t, drs, 1)
	require.Equal(t, uint16(1), drs[0].DeathEpoch)
	require.Equal(t, wire.NoPlayer, drs[0].Killer)
	require.Empty(t, of[*wire.DamageReport](got), "nothing hit the player: no damage report")
	require.True(t, lifecycle.Pose(drs[0].Pose).Valid())
}

// ---- inventory's [give-rules] and [weapon-revision]: echo only on success ----

func TestWeaponRevEchoedOnlyOnASuccessfulApply(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	giveGun(h, 1, 24, 14)
	require.Equal(t, uint16(1), h.c.Revisions().Weapon)
	h.send(&wire.TakeWeapon{Rev: 2, Weapon: 31}) // not owned: the game refuses
	require.Equal(t, uint16(1), h.c.Revisions().Weapon, "a failed apply does not move the echo")
	require.Equal(t, 1, h.c.Counters().CommandsFailed)
	h.send(&wire.SetWeaponAmmo{Rev: 3, Weapon: 24, Total: 5, Clip: wire.NoClip})
	require.Equal(t, uint16(3), h.c.Revisions().Weapon)
	f := h.frameNow()
	require.Equal(t, uint16(3), f.WeaponRev)
	require.Equal(t, uint8(24), f.Weapon)
	require.Equal(t, uint16(5), f.Total)
	require.Equal(t, uint16(5), f.Clip)
}

func TestGiveRulesOfTheGame(t *testing.T) {
	type give struct {
		weapon  uint8
		ammo    uint16
		current bool
	}
	cases := []struct {
		name  string
		gives []give
		slot  int
		want  inventory.Slot
		held  uint8
	}{
		{"same weapon adds its ammo", []give{{30, 50, true}, {30, 20, false}}, 5, inventory.Slot{Weapon: 30, Total: 70, Clip: 30}, 30},
		{"pooled slot carries the displaced total", []give{{30, 50, true}, {31, 20, false}}, 5, inventory.Slot{Weapon: 31, Total: 70, Clip: 50}, 31},
		{"shotguns pool", []give{{25, 10, false}, {27, 5, false}}, 3, inventory.Slot{Weapon: 27, Total: 15, Clip: 7}, 0},
		{"pistols do not pool", []give{{22, 40, true}, {24, 7, true}}, 2, inventory.Slot{Weapon: 24, Total: 7, Clip: 7}, 24},
		{"rifles do not pool", []give{{33, 10, false}, {34, 3, false}}, 6, inventory.Slot{Weapon: 34, Total: 3, Clip: 1}, 0},
		{"totals stop at 65535", []give{{28, 65000, false}, {28, 1000, false}}, 4, inventory.Slot{Weapon: 28, Total: 65535, Clip: 50}, 0},
		{"a give without rounds leaves the clip empty", []give{{29, 0, true}}, 4, inventory.Slot{Weapon: 29}, 29},
		{"the clip is at most the total", []give{{31, 3, true}}, 5, inventory.Slot{Weapon: 31, Total: 3, Clip: 3}, 31},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Config{})
			h.join()
			for i, g := range tc.gives {
				h.send(&wire.GiveWeapon{Rev: uint16(i + 1), Weapon: g.weapon, Ammo: g.ammo, SetAsCurrent: g.current})
			}
			w := h.c.Weapons()
			require.Equal(t, tc.want, w.Slots[tc.slot])
			require.Equal(t, tc.held, w.Held)
			require.Equal(t, uint16(len(tc.gives)), h.c.Revisions().Weapon)
		})
	}
}

func TestTakeClearSetArmedAndSetAmmo(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.GiveWeapon{Rev: 1, Weapon: 31, Ammo: 100, SetAsCurrent: true},
		&wire.GiveWeapon{Rev: 2, Weapon: 1, Ammo: 1},
		&wire.SetArmedWeapon{Rev: 3, Weapon: 0})
	require.Equal(t, uint8(1), h.c.Weapons().Held, "the fists are slot 0, which holds the brass knuckles")
	h.send(&wire.SetWeaponAmmo{Rev: 4, Weapon: 31, Total: 60, Clip: 20})
	require.Equal(t, inventory.Slot{Weapon: 31, Total: 60, Clip: 20}, h.c.Weapons().Slots[5])
	h.send(&wire.SetWeaponAmmo{Rev: 5, Weapon: 31, Total: 60, Clip: 60}) // above the clip size: refused
	require.Equal(t, uint16(4), h.c.Revisions().Weapon)
	h.send(&wire.SetArmedWeapon{Rev: 6, Weapon: 31}, &wire.TakeWeapon{Rev: 7, Weapon: 31})
	require.Equal(t, uint8(1), h.c.Weapons().Held, "taking the held weapon holds slot 0")
	require.Equal(t, inventory.Slot{}, h.c.Weapons().Slots[5])
	h.send(&wire.ClearWeapons{Rev: 8})
	require.Equal(t, Weapons{}, h.c.Weapons())
	require.Equal(t, uint16(8), h.c.Revisions().Weapon)
}

func TestWeaponCommandsApplyWhileDeadTheCorpseKeepsItsWeapons(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	giveGun(h, 1, 31, 50)
	h.send(&wire.SetHealth{Rev: 1, Health: 0})
	giveGun(h, 2, 24, 7)
	require.Equal(t, uint16(2), h.c.Revisions().Weapon)
	require.Equal(t, uint8(31), h.c.Weapons().Slots[5].Weapon)
}

func TestRevivalClearsTheStoreAndKeepsTheEcho(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	giveGun(h, 1, 31, 50)
	h.send(&wire.SetHealth{Rev: 1, Health: 0})
	h.send(&wire.RespawnPlayer{DeathEpoch: 2, Position: wire.Vec3{X: 1}})
	require.True(t, h.c.Alive())
	require.Equal(t, Weapons{}, h.c.Weapons())
	require.Equal(t, uint16(1), h.c.Revisions().Weapon, "no packet carries a revision of the revival's clear")
	first := of[*wire.PlayerSync](h.flush())
	require.Len(t, first, 1, "the first living frame goes out at the revival")
	require.True(t, first[0].Alive)
	require.Equal(t, uint16(2), first[0].DeathEpoch)
	require.Equal(t, uint16(1), first[0].WeaponRev)
	require.Equal(t, uint16(0), first[0].Total)
	giveGun(h, 2, 24, 7) // the spawn loadout, queued after the grant
	require.Equal(t, uint8(24), h.c.Weapons().Held)
	f := h.frameNow()
	require.Equal(t, uint16(2), f.WeaponRev)
	require.Equal(t, uint16(2), f.DeathEpoch)
	require.True(t, f.Alive)
	require.Equal(t, StartHealth, f.Health)
	require.Equal(t, StartArmor, f.Armor)
}

// ---- vitals' [client-order] and [damage-multipliers]: damage reports, numbering, echo, multipliers, armor ----

func TestDamageReportsAreNumberedFromOneAndEchoedInFrames(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	require.Equal(t, uint16(0), h.lastFrame().DamageSeq, "0 before the first report")
	for i := range 3 {
		r, err := h.c.MeleeHit(h.now, 3, 0)
		require.NoError(t, err)
		require.Equal(t, uint16(i+1), r.Report)
	}
	got := h.flush()
	reps := of[*wire.DamageReport](got)
	require.Len(t, reps, 3)
	for i, r := range reps {
		require.Equal(t, uint16(i+1), r.DamageSeq)
		require.Equal(t, uint8(0), r.Weapon)
		require.Equal(t, wire.PlayerID(3), r.Attacker)
		require.Equal(t, wire.RefNone, r.Ref.Kind)
	}
	require.Equal(t, uint16(3), h.frameNow().DamageSeq)
}

func TestDamageReportEchoesTheHealthRevision(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 4, Health: 90})
	_, err := h.c.MeleeHit(h.now, 3, 5)
	require.NoError(t, err)
	reps := of[*wire.DamageReport](h.flush())
	require.Len(t, reps, 1)
	require.Equal(t, uint16(4), reps[0].VitalRev)
	require.Equal(t, float32(90), reps[0].HealthBefore)
	require.InDelta(t, 90-2.64, reps[0].HealthAfter, 1e-4)
	require.InDelta(t, 2.64, reps[0].Loss, 1e-4)
}

func TestMultipliersScaleTheirClassAndZeroRefusesTheHit(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.DamageMultipliers{Rev: 1, Melee: 2, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 0, PredatorGun: 1})
	r, err := h.c.MeleeHit(h.now, 3, 0)
	require.NoError(t, err)
	require.Equal(t, DamageApplied, r.Verdict)
	require.InDelta(t, 2*1.32, r.Loss, 1e-5, "melee x2")

	before := h.c.Health()
	h.send(&wire.CreateExplosion{Effect: 1, Creator: wire.NoPlayer, Position: h.c.Position(), Radius: 10})
	require.Equal(t, before, h.c.Health(), "0 refuses the explosion entirely")
	require.Equal(t, 1, h.c.Counters().HitsZeroMultiplier)

	// Bullets have no multiplier class.
	h.world.pellets = 1
	h.send(shotAt(3, 1, 24, wire.Stamp{}))
	require.InDelta(t, before-0.33*140, h.c.Health(), 1e-3)

	reps := of[*wire.DamageReport](h.flush())
	require.Len(t, reps, 2, "no report for the refused explosion")
	require.Equal(t, uint16(1), h.c.Revisions().Multipliers)
}

func TestDamageTakesArmorFirst(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetArmor{Rev: 1, Armor: 10})
	h.world.pellets = 1
	h.send(shotAt(3, 1, 31, wire.Stamp{})) // M4: 0.33 x 30 = 9.9
	require.InDelta(t, 0.1, h.c.Armor(), 1e-4)
	require.Equal(t, StartHealth, h.c.Health())
	h.send(shotAt(3, 2, 31, wire.Stamp{}))
	require.Equal(t, float32(0), h.c.Armor())
	require.InDelta(t, 100-9.8, h.c.Health(), 1e-4)
	reps := of[*wire.DamageReport](h.flush())
	require.Len(t, reps, 2)
	require.InDelta(t, 10, reps[0].ArmorBefore, 1e-5)
	require.InDelta(t, 0.1, reps[0].ArmorAfter, 1e-4)
	require.Equal(t, float32(100), reps[1].HealthBefore)
	require.InDelta(t, 9.9, reps[1].Loss, 1e-4)
}

// TestMultipliedDamageTakesArmorFirst: the multiplier scales the blow first, then armor
// takes what it can of the scaled amount and health the rest (vitals' [damage-multipliers]).
func TestMultipliedDamageTakesArmorFirst(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.DamageMultipliers{Rev: 1, Melee: 2, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, PredatorGun: 1})
	h.send(&wire.SetArmor{Rev: 1, Armor: 2})
	require.Equal(t, float32(2), h.c.Armor())

	// Fists: 1.32 x 2 = 2.64; armor takes 2, health the other 0.64.
	r, err := h.c.MeleeHit(h.now, 3, 0)
	require.NoError(t, err)
	require.Equal(t, DamageApplied, r.Verdict)
	require.InDelta(t, 2*1.32, r.Loss, 1e-5, "the loss is the multiplied blow")
	require.Equal(t, float32(0), h.c.Armor(), "armor is used up first")
	require.InDelta(t, StartHealth-(2*1.32-2), h.c.Health(), 1e-4, "health takes the rest")

	reps := of[*wire.DamageReport](h.flush())
	require.Len(t, reps, 1)
	rep := reps[0]
	require.InDelta(t, 2, rep.ArmorBefore, 1e-5)
	require.Equal(t, float32(0), rep.ArmorAfter)
	require.Equal(t, StartHealth, rep.HealthBefore)
	require.InDelta(t, StartHealth-0.64, rep.HealthAfter, 1e-4)
	require.InDelta(t, 2.64, rep.Loss, 1e-4)
}

func TestLethalReportGoesOnTheLaneBeforeTheDeathReport(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 1, Health: 5})
	h.drop = func(d []byte) bool { return !laneDatagram(d) } // every unreliable datagram is lost
	h.world.pellets, h.world.bodyPart = 1, wire.BodyHead
	h.send(shotAt(3, 9, 24, wire.Stamp{Rev: 2}))
	require.False(t, h.c.Alive())
	got := h.flushDeath()
	require.Equal(t, []wire.ID{wire.IDDamageReport, wire.IDDeathReport, wire.IDRespawnRequest}, ids(got),
		"the lethal report rides the lane ahead of the DeathReport")
	rep := got[0].(*wire.DamageReport)
	require.Equal(t, float32(0), rep.HealthAfter)
	require.Equal(t, wire.Ref{Kind: wire.RefWeaponShot, Seq: 9}, rep.Ref)
	dr := got[1].(*wire.DeathReport)
	require.Equal(t, wire.PlayerID(3), dr.Killer)
	require.Equal(t, uint8(24), dr.Weapon)
	require.Equal(t, uint8(lifecycle.PoseShotFace), dr.Pose)
	lives := h.c.AppendLives(nil)
	require.Len(t, lives, 1)
	require.True(t, lives[0].Died)
	require.Equal(t, rep.DamageSeq, lives[0].Lethal)
}

func TestFireSumIsReportedAfterTheFramesThatShowedIt(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.CreateFire{Effect: 5, Creator: 4, Position: h.c.Position(), Radius: 3})
	start := h.now
	var got []wire.Message
	for h.now < start+400*ms {
		if h.now < start+200*ms {
			_, err := h.c.InFire(h.now, 5, 1)
			require.NoError(t, err)
		}
		h.at(h.now + 10*ms)
		got = append(got, h.step()...)
	}
	reps := of[*wire.DamageReport](got)
	require.Len(t, reps, 1, "one sum for the whole interval")
	rep := reps[0]
	require.Equal(t, wire.Ref{Kind: wire.RefEffect, Seq: 5}, rep.Ref)
	require.Equal(t, wire.PlayerID(4), rep.Attacker)
	require.Equal(t, inventory.CauseFire, rep.Weapon)
	require.InDelta(t, 20, rep.Loss, 1e-4)
	require.Equal(t, StartHealth, rep.HealthBefore)
	require.InDelta(t, 80, rep.HealthAfter, 1e-4)
	// Every frame before the report showed the loss while still echoing the previous
	// report number; every frame after it echoes the sum.
	seenLoss := false
	afterReport := false
	for _, m := range got {
		switch m := m.(type) {
		case *wire.DamageReport:
			afterReport = true
		case *wire.PlayerSync:
			if afterReport {
				require.Equal(t, rep.DamageSeq, m.DamageSeq)
			} else {
				require.Equal(t, rep.DamageSeq-1, m.DamageSeq)
				if m.Health < StartHealth {
					seenLoss = true
				}
			}
		}
	}
	require.True(t, seenLoss, "frames showed the fire before its sum")
	require.GreaterOrEqual(t, reportTime(h, rep.DamageSeq), start+transport.FireSumInterval)
}

func reportTime(h *harness, seq uint16) time.Duration {
	for _, e := range h.c.AppendReportLog(nil) {
		if e.DamageSeq == seq {
			return e.At
		}
	}
	h.t.Fatalf("report %d not logged", seq)
	return 0
}

func TestLethalFireSumGoesOnTheLaneAtOnce(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 1, Health: 3})
	_, err := h.c.Fall(h.now, 1)
	require.NoError(t, err)
	r, err := h.c.Burn(h.now, 5)
	require.NoError(t, err)
	require.Equal(t, DamageLethal, r.Verdict)
	require.NotZero(t, r.Report)
	got := h.flushDeath()
	require.Equal(t, []wire.ID{wire.IDDamageReport, wire.IDDamageReport, wire.IDDeathReport, wire.IDRespawnRequest}, ids(got),
		"the open fall sum first (unreliable), then the lethal fire sum and the DeathReport on the lane")
	fall, fire := got[0].(*wire.DamageReport), got[1].(*wire.DamageReport)
	require.Equal(t, inventory.CauseFall, fall.Weapon)
	require.Equal(t, inventory.CauseFire, fire.Weapon)
	require.Equal(t, float32(0), fire.HealthAfter)
	require.Equal(t, r.Report, fire.DamageSeq)
	require.Equal(t, inventory.CauseFire, got[2].(*wire.DeathReport).Weapon)
}

// ---- teams' [teammate-refused-by-victim]: teammate refusal by the stamps ----

func TestShotIsJudgedByItsOwnStamp(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.world.pellets = 1
	// The shooter's frames say "teammate" at revision 5 (a team change), but the shot was
	// fired and stamped at revision 4, before it: the victim judges it by what it knew.
	h.send(&wire.RemotePlayerSync{Player: 3, SyncSeq: 1, Alive: true, Health: 100, Stamp: wire.Stamp{Teammate: true, Rev: 5}})
	h.send(shotAt(3, 1, 31, wire.Stamp{Teammate: false, Rev: 4}))
	require.InDelta(t, 100-9.9, h.c.Health(), 1e-4, "a shot stamped before the team change hits")
	// A shot stamped "teammate" is refused, whatever the frames say.
	h.send(&wire.RemotePlayerSync{Player: 3, SyncSeq: 2, Alive: true, Health: 100, Stamp: wire.Stamp{Teammate: false, Rev: 6}})
	hb := h.c.Health()
	h.send(shotAt(3, 2, 31, wire.Stamp{Teammate: true, Rev: 5}))
	require.Equal(t, hb, h.c.Health())
	require.Equal(t, 1, h.c.Counters().HitsRefusedTeammate)
	reps := of[*wire.DamageReport](h.flush())
	require.Len(t, reps, 1, "no report for the refused shot")
	require.Equal(t, uint16(1), reps[0].Ref.Seq)
}

func TestOtherDamageIsJudgedByTheNewestStampOfItsSender(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.RemotePlayerSync{Player: 3, SyncSeq: 1, Alive: true, Health: 100, Stamp: wire.Stamp{Teammate: true, Rev: 5}})
	// An older frame that arrives later must not bring the old relation back.
	h.send(&wire.RemotePlayerSync{Player: 3, SyncSeq: 2, Alive: true, Health: 100, Stamp: wire.Stamp{Teammate: false, Rev: 4}})
	r, err := h.c.MeleeHit(h.now, 3, 5)
	require.NoError(t, err)
	require.Equal(t, DamageRefusedTeammate, r.Verdict)
	r, err = h.c.Rammed(h.now, 3, 20)
	require.NoError(t, err)
	require.Equal(t, DamageRefusedTeammate, r.Verdict)
	h.send(&wire.CreateExplosion{Effect: 2, Creator: 3, Position: h.c.Position(), Radius: 5, Stamp: wire.Stamp{Teammate: true, Rev: 5}})
	require.Equal(t, StartHealth, h.c.Health())
	// Another sender, and no sender at all, are not refused.
	r, err = h.c.MeleeHit(h.now, 4, 5)
	require.NoError(t, err)
	require.Equal(t, DamageApplied, r.Verdict)
	off := h.c.Position()
	off.X += 2.5
	h.send(&wire.CreateExplosion{Effect: 3, Creator: wire.NoPlayer, Position: off, Radius: 5})
	require.InDelta(t, StartHealth-2.64-50, h.c.Health(), 1e-3, "half the peak at half the radius")
	// The team change back reaches the client in a frame: the next blow lands.
	h.send(&wire.RemotePlayerSync{Player: 3, SyncSeq: 3, Alive: true, Health: 100, Stamp: wire.Stamp{Teammate: false, Rev: 6}})
	r, err = h.c.MeleeHit(h.now, 3, 5)
	require.NoError(t, err)
	require.Equal(t, DamageApplied, r.Verdict)
	require.Equal(t, 3, h.c.Counters().HitsRefusedTeammate)
	for _, rep := range of[*wire.DamageReport](h.flush()) {
		require.NotEqual(t, wire.Ref{Kind: wire.RefEffect, Seq: 2}, rep.Ref, "a refused hit is never reported")
	}
}

// ---- rewind's [rewind-to-shooters-view]: the rewound trace ----

func TestBodyMovesToTheRewoundPoseForTheTraceOnly(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	here := wire.Vec3{X: 50, Y: 50, Z: 3}
	require.NoError(t, h.c.Move(h.now, here, wire.Vec3{X: 5}, 1))
	h.world.pellets = 1
	then := wire.Vec3{X: 48, Y: 50, Z: 3}
	s := shotAt(3, 1, 31, wire.Stamp{})
	s.Rewind = wire.Rewind{Valid: true, Position: then}
	h.send(s)
	require.Len(t, h.world.traces, 1)
	tr := h.world.traces[0]
	require.True(t, tr.pose.Rewound)
	require.Equal(t, then, tr.pose.Position)
	require.Equal(t, then, tr.bodyAt, "during the trace the body stands where the shooter saw it")
	require.Equal(t, here, h.c.Position(), "and back afterwards")
	require.Equal(t, 1, tr.shot.Pellets)
	require.Equal(t, wire.PlayerID(3), tr.shot.Shooter)

	// Without a rewind (the ray passed far), the present pose is traced.
	h.send(shotAt(3, 2, 31, wire.Stamp{}))
	require.False(t, h.world.traces[1].pose.Rewound)
	require.Equal(t, here, h.world.traces[1].bodyAt)
}

func TestBodyAndVehicleMoveToTheRewoundPoseTogether(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	id := wire.Quat{W: 1}
	now := VehiclePose{Position: wire.Vec3{X: 100, Y: 0, Z: 2}, Rotation: id}
	require.NoError(t, h.c.EnterVehicle(h.now, 12, 1, now, 1000))
	h.world.pellets = 1
	thenVeh := wire.Vec3{X: 96, Y: 0, Z: 2}
	rot := wire.Quat{W: 0.70710677, Z: 0.70710677}
	s := shotAt(3, 1, 31, wire.Stamp{})
	s.Rewind = wire.Rewind{Valid: true, Position: thenVeh, InVehicle: true, Vehicle: 12, VehiclePosition: thenVeh, VehicleRotation: rot}
	h.send(s)
	tr := h.world.traces[0]
	require.Equal(t, uint16(12), tr.pose.Vehicle)
	require.Equal(t, thenVeh, tr.pose.VehiclePosition)
	require.Equal(t, rot, tr.pose.VehicleRotation)
	require.True(t, tr.inVehicle)
	require.Equal(t, thenVeh, tr.vehicle.Position, "the copy of the vehicle moves with the body")
	require.Equal(t, rot, tr.vehicle.Rotation)
	p, _, _ := h.c.VehicleState()
	require.Equal(t, now.Position, p.Position, "and both are back afterwards")
	require.Equal(t, id, p.Rotation)
	require.Equal(t, now.Position, h.c.Position())
}

func TestShotgunReportsOnePerPelletThatHit(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.world.pellets = 40 // more than the gun fires
	h.send(shotAt(3, 1, 25, wire.Stamp{}))
	reps := of[*wire.DamageReport](h.flush())
	require.Len(t, reps, 15, "the shotgun's 15 pellets, no more")
	for i, r := range reps {
		require.Equal(t, uint16(i+1), r.DamageSeq)
		require.Equal(t, wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, r.Ref)
		require.InDelta(t, 3.3, r.Loss, 1e-4)
	}
	require.InDelta(t, 100-15*3.3, h.c.Health(), 1e-3)
}

// ---- lifecycle's [respawn-idempotent]: death, respawn timer, ShouldRespawn ----

func TestRespawnRequestRepeatsOnATimerUntilANewRespawnPlayer(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 1, Health: 0})
	died := h.now
	got := h.run(died+3500*ms, 10*ms)
	reqs := of[*wire.RespawnRequest](got)
	require.Len(t, reqs, 4, "at the death, then every RespawnRetry")
	for _, r := range reqs {
		require.Equal(t, uint16(1), r.DeathEpoch, "naming the life it died in")
	}
	for _, f := range of[*wire.PlayerSync](got) {
		require.False(t, f.Alive, "a dead client keeps sending frames with alive = 0")
		require.Equal(t, float32(0), f.Health)
	}
	// A repeated grant of the life already lived is ignored (ShouldRespawn).
	h.send(&wire.RespawnPlayer{DeathEpoch: 1, Position: wire.Vec3{X: 99}})
	require.False(t, h.c.Alive())
	require.Equal(t, 1, h.c.Counters().RespawnsIgnored)
	h.send(&wire.RespawnPlayer{DeathEpoch: 2, Position: wire.Vec3{X: 5}})
	require.True(t, h.c.Alive())
	require.Equal(t, wire.Vec3{X: 5}, h.c.Position())
	got = h.run(h.now+3*time.Second, 10*ms)
	require.Empty(t, of[*wire.RespawnRequest](got), "the timer stops with the new life")
	// A lost RespawnPlayer sent again (same generation) changes nothing.
	require.NoError(t, h.c.Move(h.now, wire.Vec3{X: 6}, wire.Vec3{}, 0))
	h.send(&wire.RespawnPlayer{DeathEpoch: 2, Position: wire.Vec3{X: 5}})
	require.Equal(t, wire.Vec3{X: 6}, h.c.Position())
	require.Equal(t, 2, h.c.Counters().RespawnsIgnored)
	require.Equal(t, 1, h.c.Counters().Respawns)
	require.Equal(t, 2, h.c.Counters().Spawns)
}

func TestFirstLivingFrameGoesOutAtOnceAfterTheRevival(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 1, Health: 0})
	h.at(h.now + time.Millisecond)
	h.step()
	h.send(&wire.RespawnPlayer{DeathEpoch: 2})
	fs := of[*wire.PlayerSync](h.step())
	require.Len(t, fs, 1, "no waiting for the frame interval")
	require.True(t, fs[0].Alive)
	require.Equal(t, uint16(2), fs[0].DeathEpoch)
}

func TestNoActionBeforeTheLifeSettles(t *testing.T) {
	h := newHarness(t, Config{})
	h.step()
	h.send(&wire.Welcome{Player: selfID, PlayerToken: selfToken, Session: h.c.Session()})
	h.step()
	h.send(&wire.RespawnPlayer{DeathEpoch: 1}, &wire.GiveWeapon{Rev: 1, Weapon: 24, Ammo: 20, SetAsCurrent: true})
	a, err := h.c.Fire(h.now, 24, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 10})
	require.NoError(t, err)
	require.Equal(t, Settling, a.Verdict)
	h.run(h.now+DefaultSpawnSettle, 10*ms)
	a, err = h.c.Fire(h.now, 24, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 10})
	require.NoError(t, err)
	require.Equal(t, Acted, a.Verdict)
}

// ---- remote copies: tokens, generations, the sync_seq barrier ----

func show(player wire.PlayerID, token uint32, epoch, syncSeq uint16) *wire.PlayerShow {
	return &wire.PlayerShow{Player: player, PlayerToken: token, DeathEpoch: epoch, SyncSeq: syncSeq, Alive: true,
		Health: 100, Vehicle: wire.NoVehicle}
}

func TestALateShowLaysTheCorpseInItsDeathPose(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	m := show(3, 30, 4, 100)
	m.Alive, m.Health, m.Pose = false, 0, uint8(lifecycle.PoseDrown)
	h.send(m)
	r, ok := h.c.Remote(3)
	require.True(t, ok)
	require.False(t, r.Copy.Alive)
	require.Equal(t, lifecycle.PoseDrown, r.Copy.Pose, "the body lies as everyone else saw it fall")
	h.send(show(4, 40, 1, 1))
	r, _ = h.c.Remote(4)
	require.Equal(t, lifecycle.PoseDefault, r.Copy.Pose, "a living copy has no death pose")
}

func TestRemoteCopyAppliesEdgesOnlyOfItsConnectionAndLife(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(show(3, 30, 4, 100))
	// A death edge of another connection that held id 3 before: ignored.
	h.send(&wire.PlayerWasted{Player: 3, PlayerToken: 29, DeathEpoch: 4, Killer: wire.NoPlayer, Pose: 1})
	r, _ := h.c.Remote(3)
	require.True(t, r.Copy.Alive)
	// A death edge of an older life: ignored.
	h.send(&wire.PlayerWasted{Player: 3, PlayerToken: 30, DeathEpoch: 3, Killer: wire.NoPlayer, Pose: 1})
	r, _ = h.c.Remote(3)
	require.True(t, r.Copy.Alive)
	// Its own death: the copy lies down in the edge's pose.
	h.send(&wire.PlayerWasted{Player: 3, PlayerToken: 30, DeathEpoch: 4, Killer: 1, Pose: uint8(lifecycle.PoseDrown)})
	r, _ = h.c.Remote(3)
	require.False(t, r.Copy.Alive)
	require.Equal(t, lifecycle.PoseDrown, r.Copy.Pose)
	// Its respawn: rebuilt alive at the point in the new life.
	h.send(&wire.PlayerSpawned{Player: 3, PlayerToken: 30, DeathEpoch: 5, SyncSeq: 200, Position: wire.Vec3{X: 9}})
	r, _ = h.c.Remote(3)
	require.True(t, r.Copy.Alive)
	require.Equal(t, lifecycle.Generation(5), r.Copy.Gen)
	require.Equal(t, wire.Vec3{X: 9}, r.Position)
	cs := h.c.Counters()
	require.Equal(t, 2, cs.EdgesApplied)
	require.Equal(t, 2, cs.EdgesIgnored)
}

func TestSyncSeqBarrierDropsLateFramesOfThePreviousLife(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(show(3, 30, 4, 100))
	frame := func(seq, epoch uint16, x float32) *wire.RemotePlayerSync {
		return &wire.RemotePlayerSync{Player: 3, SyncSeq: seq, DeathEpoch: epoch, Alive: true, Health: 50,
			Position: wire.Vec3{X: x}, Vehicle: wire.NoVehicle}
	}
	h.send(frame(101, 4, 1))
	r, _ := h.c.Remote(3)
	require.Equal(t, float32(1), r.Position.X)
	h.send(frame(99, 4, 2)) // below the barrier
	r, _ = h.c.Remote(3)
	require.Equal(t, float32(1), r.Position.X)
	h.send(&wire.PlayerWasted{Player: 3, PlayerToken: 30, DeathEpoch: 4, Killer: wire.NoPlayer})
	h.send(&wire.PlayerSpawned{Player: 3, PlayerToken: 30, DeathEpoch: 5, SyncSeq: 150, Position: wire.Vec3{X: 70}})
	h.send(frame(120, 4, 3)) // a late frame of the corpse
	h.send(frame(149, 5, 4)) // (impossible, but) below the barrier of the new life
	r, _ = h.c.Remote(3)
	require.Equal(t, float32(70), r.Position.X, "the rebuilt copy stays at the spawn point")
	h.send(frame(150, 5, 5))
	r, _ = h.c.Remote(3)
	require.Equal(t, float32(5), r.Position.X)
	require.Equal(t, float32(50), r.Health)
	require.Equal(t, 2, h.c.Counters().FramesApplied)
	require.Equal(t, 3, h.c.Counters().FramesDropped)
}

func TestFrameOfANewLifeThatOvertakesItsSpawnEdgeIsDropped(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(show(3, 30, 4, 100))
	h.send(&wire.RemotePlayerSync{Player: 3, SyncSeq: 160, DeathEpoch: 5, Alive: true, Health: 100, Position: wire.Vec3{X: 1}})
	r, _ := h.c.Remote(3)
	require.Equal(t, lifecycle.Generation(4), r.Copy.Gen)
	require.Equal(t, wire.Vec3{}, r.Position)
}

func TestHideOfADepartedConnectionKeepsTheNewPlayerOnItsID(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(show(3, 30, 4, 100))
	h.send(show(3, 31, 5, 300)) // a new connection reused id 3
	h.send(&wire.PlayerHide{Player: 3, PlayerToken: 30})
	r, ok := h.c.Remote(3)
	require.True(t, ok)
	require.Equal(t, lifecycle.Token(31), r.Copy.Token)
	h.send(&wire.PlayerHide{Player: 3, PlayerToken: 31})
	_, ok = h.c.Remote(3)
	require.False(t, ok)
	require.Empty(t, h.c.AppendRemotes(nil))
}

// TestHideKeepsEveryOtherCopy hides one copy among several (the client keeps its copies
// side by side and fills the hidden one's place): every other copy keeps its own state and
// frames, and the hidden id can be shown again.
func TestHideKeepsEveryOtherCopy(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	for _, id := range []wire.PlayerID{8, 3, 900, 5} {
		h.send(show(id, uint32(id)*10, 1, 100))
		h.send(&wire.RemotePlayerSync{Player: id, SyncSeq: 101, DeathEpoch: 1, Alive: true, Health: float32(10 + id%50), Position: wire.Vec3{X: float32(id)}})
	}
	h.send(&wire.PlayerHide{Player: 8, PlayerToken: 80})
	require.Equal(t, []wire.PlayerID{3, 5, 900}, h.c.AppendRemotes(nil))
	for _, id := range []wire.PlayerID{3, 900, 5} {
		r, ok := h.c.Remote(id)
		require.True(t, ok, "copy of %d", id)
		require.Equal(t, lifecycle.Token(uint32(id)*10), r.Copy.Token, "copy of %d", id)
		require.Equal(t, wire.Vec3{X: float32(id)}, r.Position, "copy of %d", id)
	}
	_, ok := h.c.Remote(8)
	require.False(t, ok)
	h.send(&wire.RemotePlayerSync{Player: 5, SyncSeq: 102, DeathEpoch: 1, Alive: true, Health: 40, Position: wire.Vec3{X: 55}})
	r, _ := h.c.Remote(5)
	require.Equal(t, wire.Vec3{X: 55}, r.Position)
	h.send(show(8, 81, 2, 300))
	r, ok = h.c.Remote(8)
	require.True(t, ok)
	require.Equal(t, lifecycle.Token(81), r.Copy.Token)
	require.Equal(t, []wire.PlayerID{3, 5, 8, 900}, h.c.AppendRemotes(nil))
}

func TestNewConnectionOnAnIDForgetsTheOldRelation(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(show(3, 30, 4, 100))
	h.send(&wire.RemotePlayerSync{Player: 3, SyncSeq: 101, DeathEpoch: 4, Alive: true, Health: 100, Stamp: wire.Stamp{Teammate: true, Rev: 9}})
	mate, _ := h.c.Teammate(3)
	require.True(t, mate)
	h.send(show(3, 31, 5, 300))
	mate, _ = h.c.Teammate(3)
	require.False(t, mate)
}

// ---- frames ----

func TestFramesAtLeastEvery100ms(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	last := h.now
	steps := []time.Duration{1, 33, 7, 20, 33, 33, 2, 33, 15, 33, 33, 33, 30, 4}
	for i := range 300 {
		h.at(h.now + steps[i%len(steps)]*ms)
		for _, f := range of[*wire.PlayerSync](h.step()) {
			_ = f
			require.LessOrEqual(t, h.now-last, transport.MaxFrameGap)
			require.GreaterOrEqual(t, h.now-last, transport.FrameInterval)
			last = h.now
		}
		require.LessOrEqual(t, h.now-last, transport.MaxFrameGap)
	}
	next, ok := h.c.NextDeadline()
	require.True(t, ok)
	require.LessOrEqual(t, next, last+transport.FrameInterval)
}

func TestFramesAreNumberedAndClampedToWhatTheWireCarries(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	require.NoError(t, h.c.Move(h.now, wire.Vec3{X: 1}, wire.Vec3{X: 9000, Y: -9000, Z: 3}, 7))
	h.send(&wire.SetHealth{Rev: 1, Health: 200}, &wire.GiveHealth{Rev: 2, Amount: 200, Max: 200})
	f := h.frameNow()
	require.Equal(t, float32(200), f.Health)
	require.InDelta(t, wire.MaxSpeed, f.Velocity.X, 0.01)
	require.InDelta(t, -wire.MaxSpeed, f.Velocity.Y, 0.01)
	g := h.frameNow()
	require.Equal(t, f.Seq+1, g.Seq)
}

// ---- shots ----

func TestNoShotWithoutAmmo(t *testing.T) {
	h := newHarness(t, Config{ReloadTime: 500 * ms})
	h.join()
	fire := func() ActVerdict {
		a, err := h.c.Fire(h.now, 24, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 10})
		require.NoError(t, err)
		return a.Verdict
	}
	require.Equal(t, NotOwned, fire())
	giveGun(h, 1, 24, 9) // Deagle: clip 7
	shots := 0
	for range 200 {
		if fire() == Acted {
			shots++
		}
		h.at(h.now + 10*ms)
		h.step()
	}
	require.Equal(t, 9, shots, "exactly the rounds given")
	require.Equal(t, NoAmmo, fire())
	sent := of[*wire.WeaponShot](h.got)
	require.Len(t, sent, 9)
	for i, s := range sent {
		require.Equal(t, uint16(i+1), s.ShotSeq)
		require.Equal(t, uint16(1), s.DeathEpoch)
	}
	// The reload: the 8th shot waited for it.
	require.GreaterOrEqual(t, h.c.AppendLives(nil)[0].Shots, 9)
	f := h.frameNow()
	require.Equal(t, uint16(0), f.Total)
	require.Equal(t, uint16(0), f.Clip)
}

func TestReloadTakesItsTimeAndFramesShowTheEmptyClip(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	giveGun(h, 1, 33, 3) // rifle: clip 1
	a, _ := h.c.Fire(h.now, 33, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 10})
	require.Equal(t, Acted, a.Verdict)
	fired := h.now
	got := h.run(fired+900*ms, 10*ms)
	for _, f := range of[*wire.PlayerSync](got) {
		require.Equal(t, uint16(0), f.Clip)
		require.Equal(t, uint16(2), f.Total)
	}
	a, _ = h.c.Fire(h.now, 33, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 10})
	require.Equal(t, Reloading, a.Verdict)
	h.run(fired+1100*ms, 10*ms)
	require.Equal(t, uint16(1), h.c.Weapons().Slots[6].Clip)
}

func TestNoShotFasterThanTheWeaponsInterval(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	giveGun(h, 1, 22, 500) // Colt: 160 ms
	var at []time.Duration
	for range 100 {
		a, err := h.c.Fire(h.now, 22, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 10})
		require.NoError(t, err)
		if a.Verdict == Acted {
			at = append(at, h.now)
		} else {
			require.Contains(t, []ActVerdict{TooFast, Reloading}, a.Verdict)
		}
		h.at(h.now + 20*ms)
		h.step()
	}
	require.Greater(t, len(at), 5)
	for i := 1; i < len(at); i++ {
		require.GreaterOrEqual(t, at[i]-at[i-1], 160*ms)
	}
}

func TestNoShotBeyondTheWeaponsRange(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	giveGun(h, 1, 22, 50) // 35 m
	a, _ := h.c.Fire(h.now, 22, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 36})
	require.Equal(t, OutOfRange, a.Verdict)
	a, _ = h.c.Fire(h.now, 22, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 35})
	require.Equal(t, Acted, a.Verdict)
	// A WeaponProperties changes the range the client fires within.
	h.send(&wire.WeaponProperties{Rev: 1, Weapon: 22, DamagePoor: 25, DamageStd: 25, DamagePro: 25, Range: 50})
	h.at(h.now + time.Second)
	a, _ = h.c.Fire(h.now, 22, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 45})
	require.Equal(t, Acted, a.Verdict)
}

func TestShotNamesTheLastPropertiesRevisionItsLifeAndTheClaim(t *testing.T) {
	h := newHarness(t, Config{FirstPropertiesRev: 40})
	h.join()
	giveGun(h, 1, 31, 50)
	_, err := h.c.Fire(h.now, 31, wire.HitPlayer, 3, wire.Vec3{}, wire.Vec3{X: 10})
	require.NoError(t, err)
	h.send(&wire.WeaponProperties{Rev: 41, Weapon: 31, DamagePoor: 10, DamageStd: 10, DamagePro: 10, Range: 90})
	h.at(h.now + time.Second)
	_, err = h.c.Fire(h.now, 31, wire.HitVehicle, 12, wire.Vec3{}, wire.Vec3{X: 10})
	require.NoError(t, err)
	shots := of[*wire.WeaponShot](h.flush())
	require.Len(t, shots, 2)
	require.Equal(t, uint16(40), shots[0].PropertiesRev)
	require.Equal(t, wire.HitPlayer, shots[0].HitType)
	require.Equal(t, uint16(3), shots[0].HitID)
	require.Equal(t, uint16(41), shots[1].PropertiesRev)
	require.Equal(t, uint16(1), shots[1].DeathEpoch)
	// The victim side uses the new damage too.
	h.world.pellets = 1
	h.send(shotAt(3, 1, 31, wire.Stamp{}))
	require.InDelta(t, 100-3.3, h.c.Health(), 1e-4)
}

func TestFireMakesTheWeaponHeld(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.GiveWeapon{Rev: 1, Weapon: 31, Ammo: 50, SetAsCurrent: true}, &wire.GiveWeapon{Rev: 2, Weapon: 24, Ammo: 7})
	require.Equal(t, uint8(31), h.c.Weapons().Held)
	a, _ := h.c.Fire(h.now, 24, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 3})
	require.Equal(t, Acted, a.Verdict)
	require.Equal(t, uint8(24), h.c.Weapons().Held)
	a, _ = h.c.Fire(h.now, 4, wire.HitNone, 0, wire.Vec3{}, wire.Vec3{X: 3})
	require.Equal(t, WrongKind, a.Verdict, "a knife fires no WeaponShot")
}

// ---- ping ----

func TestPingIsAnsweredAtOnce(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.Ping{Seq: 77, Time: 123456})
	got := h.flush()
	pongs := of[*wire.Pong](got)
	require.Len(t, pongs, 1)
	require.Equal(t, wire.Pong{Seq: 77, Time: 123456}, *pongs[0])
}

func TestOpenSumsReportBeforeAHealthCommandWithTheRevisionBeforeIt(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(&wire.SetHealth{Rev: 1, Health: 100})
	_, err := h.c.Fall(h.now, 10)
	require.NoError(t, err)
	h.at(h.now + 50*ms)
	h.step() // a frame shows the fall
	h.send(&wire.GiveHealth{Rev: 2, Amount: 50, Max: 200})
	got := h.flush()
	reps := of[*wire.DamageReport](got)
	require.Len(t, reps, 1, "the command closed the sum")
	require.Equal(t, uint16(1), reps[0].VitalRev, "it echoes the revision before the command")
	require.Equal(t, float32(90), reps[0].HealthAfter, "and claims what was left before it")
	require.Equal(t, float32(140), h.c.Health())
	f := h.frameNow()
	require.Equal(t, uint16(2), f.VitalRev)
	require.Equal(t, reps[0].DamageSeq, f.DamageSeq)
}
