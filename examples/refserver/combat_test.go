package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

const (
	deagle  uint8 = 24
	shotgun uint8 = 25
	m4      uint8 = 31
)

// duel is two spawned players 10 m apart on the X axis, the shooter armed with a weapon.
func duel(t *testing.T, weapon uint8) (*harness, *tclient, *tclient) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	b.pos = wire.Vec3{X: 10}
	require.Equal(t, VerdictAccepted, h.frame(b))
	h.give(a, weapon, 100)
	h.flush()
	a.reset()
	b.reset()
	h.clearEvents()
	return h, a, b
}

func TestShotRecipientGetsItsOwnRewoundPose(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b, c := h.join(0), h.join(1), h.join(2)
	h.spawn(a)
	h.spawn(b)
	h.spawn(c)
	c.pos = wire.Vec3{X: 150} // far from the ray, within the stream distance
	require.Equal(t, VerdictAccepted, h.frame(c))
	h.give(a, m4, 300)
	h.rtt(200 * time.Millisecond)
	// The victim walks along Y at 5 m/s, a frame every 50 ms, to y=10.
	for y := float32(0); y <= 10; y += 0.25 {
		b.pos = wire.Vec3{X: 20, Y: y}
		require.Equal(t, VerdictAccepted, h.frame(b))
		h.now += 50 * time.Millisecond
	}
	h.flush()
	a.reset()
	b.reset()
	c.reset()
	// The shooter fires at where it saw the victim 200 ms ago: about y=9.
	want, err := h.w.rw.PlayerAt(h.now-200*time.Millisecond, 1)
	require.NoError(t, err)
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 40, Y: 2 * want.Y}, wire.HitPlayer, 1))
	h.flush()
	shots := received[*wire.RemoteWeaponShot](b)
	require.Len(t, shots, 1)
	require.True(t, shots[0].Rewind.Valid, "the ray passed near the victim")
	require.Equal(t, wire.Vec3(want), shots[0].Rewind.Position, "its own pose, the shooter's RTT ago")
	require.NotEqual(t, b.pos, shots[0].Rewind.Position)
	require.Equal(t, h.w.teams.Rev(), shots[0].Stamp.Rev)
	far := received[*wire.RemoteWeaponShot](c)
	require.Len(t, far, 1, "everybody who has the shooter shown gets the shot")
	require.False(t, far[0].Rewind.Valid, "the ray passed far from it")
	require.Empty(t, received[*wire.RemoteWeaponShot](a), "not the shooter")
}

func TestShotIsValidatedByLifeEpochInventoryAndNumber(t *testing.T) {
	h, a, _ := duel(t, deagle)
	target := wire.Vec3{X: 10}
	// Not owned.
	a.weapon = m4
	require.Equal(t, VerdictNotOwned, h.shoot(a, target, wire.HitPlayer, 1))
	a.weapon = deagle
	// Out of the weapon's range (35 m + slack).
	require.Equal(t, VerdictOutOfRange, h.shoot(a, wire.Vec3{X: 80}, wire.HitNone, 0))
	// No length.
	require.Equal(t, VerdictBadRay, h.shoot(a, a.pos, wire.HitNone, 0))
	// Another life.
	a.gen++
	require.Equal(t, VerdictWrongEpoch, h.shoot(a, target, wire.HitNone, 0))
	a.gen--
	// Accepted, then its duplicate is refused and spends nothing.
	require.Equal(t, VerdictAccepted, h.shoot(a, target, wire.HitPlayer, 1))
	ammo, _, _ := h.w.Ammo(0, deagle)
	require.Equal(t, uint16(99), ammo)
	require.Equal(t, VerdictDuplicate, h.w.Handle(h.now, 0, &wire.WeaponShot{ShotSeq: a.shotSeq, DeathEpoch: a.gen,
		Weapon: deagle, HitType: wire.HitNone, Origin: a.pos, HitPos: target}))
	ammo, _, _ = h.w.Ammo(0, deagle)
	require.Equal(t, uint16(99), ammo)
	// Faster than the weapon's cadence beyond the burst allowance.
	v := VerdictAccepted
	for i := 0; i < 10 && v == VerdictAccepted; i++ {
		v = h.shoot(a, target, wire.HitNone, 0)
	}
	require.Equal(t, VerdictTooFast, v)
	refused := h.events(EventShotRefused)
	require.NotEmpty(t, refused)
	require.Equal(t, VerdictNotOwned, refused[0].Verdict)
	// A dead shooter's shots are refused after the commit.
	h.now += time.Second
	require.Equal(t, VerdictAccepted, h.hit(a, NoPlayer, 54, wire.Ref{}, 100))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.DeathReport{DeathEpoch: a.gen, Killer: NoPlayer, Weapon: 54}))
	require.Equal(t, VerdictNotAlive, h.shoot(a, target, wire.HitNone, 0))
}

func TestCreditedBulletReportPaysTheWeaponFloorAndRaisesPlayerDamage(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	// The victim claims a loss of 1: the floor of the Desert Eagle at the poor tier (70 x
	// 0.33 - 0.01) is taken anyway.
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 1))
	floor := vitals.BulletFloor(70)
	hp, err := h.w.Health(1)
	require.NoError(t, err)
	require.InDelta(t, 100-floor, hp, 0.001)
	dmg := h.events(EventPlayerDamage)
	require.Len(t, dmg, 1)
	require.Equal(t, PlayerID(1), dmg[0].Player)
	require.Equal(t, PlayerID(0), dmg[0].Other)
	require.Equal(t, deagle, dmg[0].Weapon)
	require.InDelta(t, floor, dmg[0].Floor, 0.001)
	// The credit is spent: a second report naming the same shot is not credited.
	require.Equal(t, VerdictNoCredit, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 30))
	nc := h.events(EventReportNotCredited)
	require.Len(t, nc, 1)
	require.Equal(t, VerdictNoCredit, nc[0].Verdict)
}

func TestShotFloorUsesTheRevisionTheShotNamed(t *testing.T) {
	h, a, b := duel(t, deagle)
	rev := h.w.catalog.Revision()
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	// The gamemode quadruples the damage after the shot: the shot is floored with the
	// numbers it was fired under.
	require.NoError(t, h.w.SetWeaponProperties(h.now, deagle, [3]float32{280, 280, 280}, 35))
	require.NotEqual(t, rev, h.w.catalog.Revision())
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 1))
	hp, _ := h.w.Health(1)
	require.InDelta(t, 100-vitals.BulletFloor(70), hp, 0.001)
}

func TestShotArrivingAfterAPropertiesChangeIsFlooredByTheRevisionItNamed(t *testing.T) {
	h, a, b := duel(t, deagle)
	old := h.w.catalog.Revision()
	// The gamemode quadruples the damage; both clients apply the new table and the victim
	// acknowledged it longer than PropertiesGrace ago, so its own floor bound is the new
	// damage.
	require.NoError(t, h.w.SetWeaponProperties(h.now, deagle, [3]float32{280, 280, 280}, 35))
	h.flush()
	for range 3 {
		h.step(time.Second)
	}
	// A shot fired under the old table (it names the old revision) arrives only now: its
	// floor comes from the revision it names, not from the newest one.
	a.shotSeq++
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.WeaponShot{ShotSeq: a.shotSeq, DeathEpoch: a.gen,
		PropertiesRev: old, Weapon: deagle, HitType: wire.HitPlayer, HitID: 1, Origin: a.pos, HitPos: wire.Vec3{X: 10}}))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 1))
	hp, _ := h.w.Health(1)
	require.InDelta(t, 100-vitals.BulletFloor(70), hp, 0.001, "floored at the old damage (70), not the new (280)")
}

func TestShotgunCreditsOneReportPerPellet(t *testing.T) {
	h, a, b := duel(t, shotgun)
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	w, err := h.w.catalog.Weapon(h.w.catalog.Revision(), shotgun)
	require.NoError(t, err)
	ref := wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}
	for range w.Pellets {
		require.Equal(t, VerdictAccepted, h.hit(b, 0, shotgun, ref, 1))
	}
	require.Equal(t, VerdictNoCredit, h.hit(b, 0, shotgun, ref, 1), "one more than the pellets")
	require.Len(t, h.events(EventPlayerDamage), int(w.Pellets))
}

func TestCombatShotgunCreditsUpToEightReportsPerVictim(t *testing.T) {
	const spas uint8 = 27
	h, a, b := duel(t, spas)
	w, err := h.w.catalog.Weapon(h.w.catalog.Revision(), spas)
	require.NoError(t, err)
	require.Equal(t, uint8(8), w.Credits, "the catalogue's Credits column")
	require.Less(t, w.Pellets, w.Credits, "the game's 4 pellets, fewer than the generous cap")
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	ref := wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}
	for range w.Credits {
		require.Equal(t, VerdictAccepted, h.hit(b, 0, spas, ref, 1))
	}
	require.Equal(t, VerdictNoCredit, h.hit(b, 0, spas, ref, 1), "one more than the cap")
}

func TestUncorrelatedHitReportIsNotCredited(t *testing.T) {
	h, a, b := duel(t, deagle)
	c := h.join(2)
	h.spawn(c)
	c.pos = wire.Vec3{X: -50}
	require.Equal(t, VerdictAccepted, h.frame(c))
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	ref := wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}
	cases := []struct {
		name   string
		victim *tclient
		att    uint16
		weapon uint8
		ref    wire.Ref
		want   Verdict
	}{
		{"a shot never fired", b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq + 5}, VerdictNoSuchAction},
		{"another weapon than the shot's", b, 0, m4, ref, VerdictWrongWeapon},
		{"an attacker not connected", b, 9, deagle, ref, VerdictUnknownPlayer},
		{"its own shot", a, 0, deagle, ref, VerdictNotRelayed},
		{"a vehicle shot for a weapon shot", b, 0, deagle, wire.Ref{Kind: wire.RefVehicleShot, Seq: a.shotSeq}, VerdictNoSuchAction},
		{"a blow from a player who is not near", c, 0, 0, wire.Ref{}, VerdictTooFar},
	}
	for _, tc := range cases {
		h.clearEvents()
		hp, _ := h.w.Health(tc.victim.id)
		require.Equal(t, tc.want, h.hit(tc.victim, PlayerID(tc.att), tc.weapon, tc.ref, 20), tc.name)
		after, _ := h.w.Health(tc.victim.id)
		require.Equal(t, hp, after, "%s: the ledger is untouched", tc.name)
		require.Empty(t, h.events(EventPlayerDamage), tc.name)
		nc := h.events(EventReportNotCredited)
		require.Len(t, nc, 1, tc.name)
		require.Equal(t, tc.want, nc[0].Verdict, tc.name)
	}
	// After the shot's credit window, the report is no longer correlated.
	h.now += ShotCreditWindow + time.Millisecond
	require.Equal(t, VerdictNoSuchAction, h.hit(b, 0, deagle, ref, 20))
}

func TestShotRelayedBeforeTheVictimJoinedIsNotCredited(t *testing.T) {
	h, a, _ := duel(t, deagle)
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	c := h.join(2)
	h.spawn(c)
	require.Equal(t, VerdictNotRelayed, h.hit(c, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 20))
}

func TestReportBetweenTeammatesIsNotCredited(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateTeam(1, teams.Team{Name: "red"}))
	require.NoError(t, h.w.JoinTeam(0, 1))
	require.NoError(t, h.w.JoinTeam(1, 1))
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	h.flush()
	shots := received[*wire.RemoteWeaponShot](b)
	require.Len(t, shots, 1)
	require.True(t, shots[0].Stamp.Teammate, "the victim's client is told to refuse it")
	// A client that applied it anyway is not credited: no player_damage, no last damage.
	require.Equal(t, VerdictTeammate, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 46))
	require.Empty(t, h.events(EventPlayerDamage))
	nc := h.events(EventReportNotCredited)
	require.Len(t, nc, 1)
	require.Equal(t, VerdictTeammate, nc[0].Verdict)
	require.Equal(t, teams.ReportRefusedTeammateStamp.String(), nc[0].Detail)
	hp, _ := h.w.Health(1)
	require.Equal(t, float32(100), hp)
}

func TestHitFromAShotAcceptedBeforeATeamChangeIsDiscarded(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	require.NoError(t, h.w.CreateTeam(1, teams.Team{Name: "red"}))
	require.NoError(t, h.w.JoinTeam(0, 1))
	require.NoError(t, h.w.JoinTeam(1, 1))
	require.Equal(t, VerdictTeammate, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 46))
	nc := h.events(EventReportNotCredited)
	require.Len(t, nc, 1)
	require.Equal(t, teams.ReportDiscardedTeamChange.String(), nc[0].Detail)
}

func TestMeleeBlowIsCorrelatedByTheAttackersStoreAndDistance(t *testing.T) {
	h, a, b := duel(t, deagle)
	for range 12 {
		h.now += 100 * time.Millisecond
		require.Equal(t, VerdictAccepted, h.frame(a))
		require.Equal(t, VerdictAccepted, h.frame(b))
	}
	// 10 m apart over the last second: too far for a blow.
	require.Equal(t, VerdictTooFar, h.hit(b, 0, 0, wire.Ref{}, 2))
	a.pos = wire.Vec3{X: 9}
	require.Equal(t, VerdictAccepted, h.frame(a))
	// A katana the attacker does not own.
	require.Equal(t, VerdictNotOwned, h.hit(b, 0, 8, wire.Ref{}, 2))
	// Fists, and the Desert Eagle used as a club. (The first waits for the two refused
	// reports before it in the client's order, ReportWait at most.)
	h.now += time.Second
	require.Equal(t, VerdictHeld, h.hit(b, 0, 0, wire.Ref{}, 0.5))
	h.now += vitals.ReportWait
	require.NoError(t, h.w.Tick(h.now))
	hp, _ := h.w.Health(1)
	// The fake client applied the two refused blows to itself (96 left): the floor comes off
	// the lower of its claim and the ledger.
	require.InDelta(t, 96-vitals.MeleeFloor(1), hp, 0.001, "the blow pays the melee floor")
	h.now += time.Second
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{}, 3))
	require.Len(t, h.events(EventPlayerDamage), 2)
}

func TestEnvironmentalDamageIsTakenWithoutAttribution(t *testing.T) {
	h, _, b := duel(t, deagle)
	require.Equal(t, VerdictAccepted, h.hit(b, NoPlayer, 54, wire.Ref{}, 20))
	hp, _ := h.w.Health(1)
	require.Equal(t, float32(80), hp)
	d := h.events(EventPlayerDamage)
	require.Len(t, d, 1)
	require.Equal(t, NoPlayer, d[0].Other)
	// A fire named after a player who holds no flamethrower: taken, not attributed.
	require.Equal(t, VerdictAccepted, h.hit(b, 0, 37, wire.Ref{}, 10))
	un := h.events(EventReportUnattributed)
	require.Len(t, un, 1)
	require.Equal(t, VerdictNotHolding, un[0].Verdict)
	hp, _ = h.w.Health(1)
	require.Equal(t, float32(70), hp)
}

func TestGamemodeExplosionReportIsCreditedToItsCreator(t *testing.T) {
	h, a, b := duel(t, deagle)
	id, err := h.w.CreateExplosion(h.now, 0, 2, wire.Vec3{X: 11}, 5)
	require.NoError(t, err)
	h.flush()
	ex := received[*wire.CreateExplosion](b)
	require.Len(t, ex, 1)
	require.Equal(t, id, ex[0].Effect)
	require.Equal(t, PlayerID(0), ex[0].Creator)
	require.Len(t, received[*wire.CreateExplosion](a), 1, "the creator gets it too")
	require.Equal(t, VerdictAccepted, h.hit(b, 0, 51, wire.Ref{Kind: wire.RefEffect, Seq: id}, 30))
	d := h.events(EventPlayerDamage)
	require.Len(t, d, 1)
	require.Equal(t, PlayerID(0), d[0].Other)
	// A report naming another attacker is taken as an observation only.
	require.Equal(t, VerdictAccepted, h.hit(b, 5, 51, wire.Ref{Kind: wire.RefEffect, Seq: id}, 10))
	un := h.events(EventReportUnattributed)
	require.Len(t, un, 1)
	require.Equal(t, VerdictAttackerMismatch, un[0].Verdict)
	// A fire without a creator is the environment's.
	fid, err := h.w.CreateFire(h.now, NoPlayer, wire.Vec3{X: 10}, 3)
	require.NoError(t, err)
	h.flush()
	fires := received[*wire.CreateFire](b)
	require.Len(t, fires, 1)
	require.False(t, fires[0].Stamp.Teammate)
	require.Equal(t, VerdictAccepted, h.hit(b, NoPlayer, 37, wire.Ref{Kind: wire.RefEffect, Seq: fid}, 5))
	hp, _ := h.w.Health(1)
	require.Equal(t, float32(55), hp)
}

func TestProjectileAndDetonationAreCorrelatedWithTheOwner(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.GiveWeapon(h.now, 0, 16, 3, false))
	h.flush()
	require.Equal(t, VerdictAccepted, h.frame(a))
	launch := &wire.ProjectileLaunch{Projectile: 1, DeathEpoch: a.gen, Weapon: 16, Vehicle: wire.NoVehicle, Target: wire.NoVehicle,
		Origin: a.pos, Velocity: wire.Vec3{X: 10}}
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, launch))
	require.Equal(t, VerdictDuplicate, h.w.Handle(h.now, 0, launch))
	n, _, _ := h.w.Ammo(0, 16)
	require.Equal(t, uint16(2), n)
	det := &wire.Detonation{Projectile: 1, DeathEpoch: a.gen, Weapon: 16, Position: wire.Vec3{X: 9}}
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, det))
	require.Equal(t, VerdictAlreadyDetonated, h.w.Handle(h.now, 0, det))
	// A detonation whose launch was lost heals it, at the cost of its round.
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.Detonation{Projectile: 2, DeathEpoch: a.gen, Weapon: 16, Position: wire.Vec3{X: 3}}))
	n, _, _ = h.w.Ammo(0, 16)
	require.Equal(t, uint16(1), n)
	require.Equal(t, VerdictDuplicate, h.w.Handle(h.now, 0, &wire.ProjectileLaunch{Projectile: 2, DeathEpoch: a.gen, Weapon: 16,
		Vehicle: wire.NoVehicle, Target: wire.NoVehicle, Origin: a.pos}), "its late launch is not spent again")
	require.Equal(t, VerdictNotOwned, h.w.Handle(h.now, 0, &wire.Detonation{Projectile: 3, DeathEpoch: a.gen, Weapon: 17}), "a weapon it does not have")
	h.flush()
	require.Len(t, received[*wire.RemoteProjectile](b), 1)
	require.Len(t, received[*wire.RemoteDetonation](b), 2)
	require.Equal(t, VerdictAccepted, h.hit(b, 0, 51, wire.Ref{Kind: wire.RefDetonation, Seq: 1}, 40))
	d := h.events(EventPlayerDamage)
	require.Len(t, d, 1)
	require.Equal(t, PlayerID(0), d[0].Other)
}

// unfeltVolley makes player a fire 40 M4 shots at b, 200 ms apart, each aimed at end and
// claiming a hit on b, which b's client never reports; then the claims mature. It returns
// the harness and b.
func unfeltVolley(t *testing.T, end wire.Vec3) (*harness, *tclient) {
	t.Helper()
	h, a, b := duel(t, m4)
	require.NoError(t, h.w.GiveWeapon(h.now, 0, m4, 2000, true))
	h.flush()
	h.rtt(100 * time.Millisecond)
	for range 40 {
		h.now += 200 * time.Millisecond
		require.Equal(t, VerdictAccepted, h.frame(b))
		require.Equal(t, VerdictAccepted, h.shoot(a, end, wire.HitPlayer, 1))
		require.NoError(t, h.w.Tick(h.now))
	}
	for range 10 {
		h.now += 500 * time.Millisecond
		require.Equal(t, VerdictAccepted, h.frame(b))
		require.Equal(t, VerdictAccepted, h.frame(a))
		require.NoError(t, h.w.Tick(h.now))
	}
	return h, b
}

func TestGodModeDetectorFlagsAVictimThatSkipsTheHitsClaimedAgainstItsRewoundPose(t *testing.T) {
	h, _ := unfeltVolley(t, wire.Vec3{X: 30}) // straight through b at x = 10
	s := h.events(EventGodModeSuspect)
	require.NotEmpty(t, s)
	require.Equal(t, PlayerID(1), s[0].Player)
}

func TestGodModeDetectorIgnoresClaimsWhoseRayMissedTheRewoundBody(t *testing.T) {
	// The same volley, but every ray passes 1.5 m beside the victim's rewound position
	// (ClaimReach is 1 m): its trace could not confirm them, so they say only that the
	// shooter missed. The victim is still a recipient (within the 5 m near distance).
	h, b := unfeltVolley(t, wire.Vec3{X: 30, Y: 4.5})
	require.Empty(t, h.events(EventGodModeSuspect))
	h.flush()
	shots := received[*wire.RemoteWeaponShot](b)
	require.NotEmpty(t, shots)
	require.True(t, shots[len(shots)-1].Rewind.Valid, "b was a recipient near the ray, with its own rewound pose")
}

func TestVehicleGunsAreRateCheckedAndFlooredAtTheStandardTier(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 2, 425, wire.Vec3{}, wire.Quat{W: 1}))
	a.vehicle = 2
	require.Equal(t, VerdictAccepted, h.frame(a))
	shot := func(seq uint16) Verdict {
		return h.w.Handle(h.now, 0, &wire.VehicleShot{ShotSeq: seq, DeathEpoch: a.gen, PropertiesRev: h.w.catalog.Revision(),
			Vehicle: 2, Weapon: 38, HitType: wire.HitPlayer, HitID: 1, Origin: wire.Vec3{}, HitPos: wire.Vec3{X: 20}})
	}
	require.Equal(t, VerdictAccepted, shot(100))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, 38, wire.Ref{Kind: wire.RefVehicleShot, Seq: 100}, 1))
	hp, _ := h.w.Health(1)
	dmg, err := h.w.catalog.Damage(h.w.catalog.Revision(), 38, inventory.TierStd)
	require.NoError(t, err)
	require.InDelta(t, 100-vitals.BulletFloor(dmg), hp, 0.001)
	v := VerdictAccepted
	for seq := uint16(101); seq < 140 && v == VerdictAccepted; seq++ {
		v = shot(seq)
	}
	require.Equal(t, VerdictTooFast, v)
	a.vehicle = wire.NoVehicle
	require.Equal(t, VerdictAccepted, h.frame(a))
	h.now += time.Second
	require.Equal(t, VerdictNotInVehicle, shot(200))
}

func TestATakenWeaponsOldShotsEndSoonAfterTheLaneAcknowledgedTheTake(t *testing.T) {
	h, a, _ := duel(t, m4)
	echoed := a.weaponRev
	require.NoError(t, h.w.TakeWeapon(h.now, 0, m4))
	h.flush()                          // delivered, and acknowledged by a's lane
	a.weaponRev, a.weapon = echoed, m4 // a cheat that never echoes the take and keeps firing
	h.now += 100 * time.Millisecond
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 30}, wire.HitPlayer, 1), "a shot fired before the take arrived")
	h.step(inventory.DisplacedShotGrace)
	require.Equal(t, VerdictNotOwned, h.shoot(a, wire.Vec3{X: 30}, wire.HitPlayer, 1),
		"the acknowledgement settles the take: no more old shots, long before inventory.SettleTimeout")
}

func TestOnlyAVehiclesOwnRocketsAreLaunchedFromItsSeatWithoutTheStore(t *testing.T) {
	h, a, _ := duel(t, deagle)
	require.NoError(t, h.w.CreateVehicle(h.now, 2, 411, wire.Vec3{}, wire.Quat{W: 1}))         // a car
	require.NoError(t, h.w.CreateVehicle(h.now, 3, ModelHunter, wire.Vec3{}, wire.Quat{W: 1})) // rockets
	launch := func(seq uint16, weapon uint8, vehicle uint16) Verdict {
		return h.w.Handle(h.now, 0, &wire.ProjectileLaunch{Projectile: seq, DeathEpoch: a.gen, Weapon: weapon, Vehicle: vehicle,
			Target: wire.NoVehicle, Origin: a.pos, Velocity: wire.Vec3{X: 30}})
	}
	a.vehicle, a.seat = 2, 0
	require.Equal(t, VerdictAccepted, h.frame(a))
	require.Equal(t, VerdictWrongKind, launch(1, 16, 2), "a grenade it does not own, claimed from a car's seat")
	require.Equal(t, VerdictWrongKind, launch(2, 35, 2), "a car has no rockets")
	a.vehicle = 3
	require.Equal(t, VerdictAccepted, h.frame(a))
	require.Equal(t, VerdictWrongKind, launch(3, 16, 3), "the Hunter throws no grenades")
	require.Equal(t, VerdictAccepted, launch(4, 35, 3), "the Hunter's own rocket")
	require.Equal(t, VerdictAccepted, launch(5, 36, 3), "and its homing rocket")
	n, _, _ := h.w.Ammo(0, 16)
	require.Zero(t, n, "no grenade came from anywhere")
}

// TestWeaponRulesReadTheHostsCatalogueColumns: the shot credits and the stealth kill follow
// the catalogue's Credits and StealthKill columns (inventory's [credits-per-shot] and
// [weapon-causes]), not weapon ids: a host table that gives the Combat Shotgun 5 credits
// and the stealth kill to the katana instead of the knife is judged by its own columns.
func TestWeaponRulesReadTheHostsCatalogueColumns(t *testing.T) {
	const spas, knife, katana uint8 = 27, 4, 8
	table := inventory.DefaultTable()
	table[spas].Credits = 5
	table[knife].StealthKill, table[katana].StealthKill = false, true
	cfg := testConfig()
	cfg.Weapons.Table = &table
	h := newHarness(t, cfg)
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	b.pos = wire.Vec3{X: 10}
	require.Equal(t, VerdictAccepted, h.frame(b))
	h.give(a, spas, 100)
	h.flush()
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	ref := wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}
	for range 5 {
		require.Equal(t, VerdictAccepted, h.hit(b, 0, spas, ref, 1))
	}
	require.Equal(t, VerdictNoCredit, h.hit(b, 0, spas, ref, 1), "one more than the host's 5 credits")

	require.NoError(t, h.w.GiveWeapon(h.now, 0, knife, 1, true))
	require.NoError(t, h.w.GiveWeapon(h.now, 0, katana, 1, false))
	h.flush()
	for range 12 {
		h.now += 100 * time.Millisecond
		a.pos = wire.Vec3{X: 9}
		require.Equal(t, VerdictAccepted, h.frame(a))
		require.Equal(t, VerdictAccepted, h.frame(b))
	}
	claim := &wire.StealthKill{Victim: 1, VictimEpoch: b.gen, DeathEpoch: a.gen, Weapon: knife}
	require.Equal(t, VerdictWrongKind, h.w.Handle(h.now, 0, claim), "the host's knife kills nobody by stealth")
	claim.Weapon = katana
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, claim), "the host's katana does")
}
