package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// duelOf is a rawDuel's world and its senders: a holding weapon at the origin, b at x = 10.
func duelOf(t *testing.T, cfg refserver.Config, weapon uint8, rtt time.Duration, n int) (*simkit.Kit, *refserver.World, []*sender) {
	t.Helper()
	k, r := rawDuel(t, cfg, weapon, rtt, n)
	return k, k.Server(), senders(t, k, r, weapon)
}

func TestShotRecipientGetsItsOwnRewoundPose(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, m4, 200*time.Millisecond, 3)
	a, b, c := s[0], s[1], s[2]
	c.pos = wire.Vec3{X: 150} // far from the ray, within the stream distance
	require.Equal(t, refserver.VerdictAccepted, c.frame())
	require.NoError(t, k.Advance(3*time.Second)) // the round trips are measured
	rtt, ok := w.RTT(a.r.ID())
	require.True(t, ok)
	// The victim walks along Y at 5 m/s, a frame every 50 ms, to y=10.
	for y := float32(0); y <= 10; y += 0.25 {
		b.pos = wire.Vec3{X: 20, Y: y}
		require.Equal(t, refserver.VerdictAccepted, b.frame())
		require.NoError(t, k.Advance(50*time.Millisecond))
	}
	for _, x := range s {
		x.r.Clear()
	}
	// The shooter fires at where it saw the victim a round trip ago: about y=9.
	want, err := refserver.PlayerAtOf(w, k.Now()-rtt, b.r.ID())
	require.NoError(t, err)
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 40, Y: 2 * want.Y}, wire.HitPlayer, b.r.ID()))
	tick(t, k)
	shots := receivedOf[*wire.RemoteWeaponShot](b.r)
	require.Len(t, shots, 1)
	require.True(t, shots[0].Rewind.Valid, "the ray passed near the victim")
	require.Equal(t, wire.Vec3(want), shots[0].Rewind.Position, "its own pose, the shooter's round trip ago")
	require.NotEqual(t, b.pos, shots[0].Rewind.Position)
	require.Equal(t, w.Teams().Rev(), shots[0].Stamp.Rev)
	far := receivedOf[*wire.RemoteWeaponShot](c.r)
	require.Len(t, far, 1, "everybody who has the shooter shown gets the shot")
	require.False(t, far[0].Rewind.Valid, "the ray passed far from it")
	require.Empty(t, receivedOf[*wire.RemoteWeaponShot](a.r), "not the shooter")
}

func TestShotIsValidatedByLifeEpochInventoryAndNumber(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	target := wire.Vec3{X: 10}
	// Not owned.
	a.weapon = m4
	require.Equal(t, refserver.VerdictNotOwned, a.shoot(target, wire.HitPlayer, b.r.ID()))
	a.weapon = deagle
	// Out of the weapon's range (35 m + slack).
	require.Equal(t, refserver.VerdictOutOfRange, a.shoot(wire.Vec3{X: 80}, wire.HitNone, 0))
	// No length.
	require.Equal(t, refserver.VerdictBadRay, a.shoot(a.pos, wire.HitNone, 0))
	// Another life.
	a.gen++
	require.Equal(t, refserver.VerdictWrongEpoch, a.shoot(target, wire.HitNone, 0))
	a.gen--
	// Accepted, then its duplicate is refused and spends nothing.
	require.Equal(t, refserver.VerdictAccepted, a.shoot(target, wire.HitPlayer, b.r.ID()))
	ammo, _, _ := w.Ammo(a.r.ID(), deagle)
	require.Equal(t, uint16(99), ammo)
	require.Equal(t, refserver.VerdictDuplicate, must(t)(a.r.Send(&wire.WeaponShot{ShotSeq: a.shots, DeathEpoch: a.gen,
		Weapon: deagle, HitType: wire.HitNone, Origin: a.pos, HitPos: target})))
	ammo, _, _ = w.Ammo(a.r.ID(), deagle)
	require.Equal(t, uint16(99), ammo)
	// Faster than the weapon's cadence beyond the burst allowance.
	v := refserver.VerdictAccepted
	for i := 0; i < 10 && v == refserver.VerdictAccepted; i++ {
		v = a.shoot(target, wire.HitNone, 0)
	}
	require.Equal(t, refserver.VerdictTooFast, v)
	tick(t, k)
	refused := eventsOf(k, refserver.EventShotRefused, a.r.ID())
	require.NotEmpty(t, refused)
	require.Equal(t, refserver.VerdictNotOwned, refused[0].Verdict)
	// A dead shooter's shots are refused after the commit.
	require.NoError(t, k.Advance(time.Second))
	require.Equal(t, refserver.VerdictAccepted, a.hit(refserver.NoPlayer, causeFall, wire.Ref{}, 100))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.DeathReport{DeathEpoch: a.gen, Killer: refserver.NoPlayer, Weapon: causeFall})))
	require.Equal(t, refserver.VerdictNotAlive, a.shoot(target, wire.HitNone, 0))
}

func TestCreditedBulletReportPaysTheWeaponFloorAndRaisesPlayerDamage(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 10}, wire.HitPlayer, b.r.ID()))
	// The victim claims a loss of 1: the floor of the Desert Eagle at the poor tier (70 x
	// 0.33 - 0.01) is taken anyway.
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 1))
	floor := vitals.BulletFloor(70)
	hp, err := w.Health(b.r.ID())
	require.NoError(t, err)
	require.InDelta(t, 100-floor, hp, 0.001)
	tick(t, k)
	dmg := eventsOf(k, refserver.EventPlayerDamage, b.r.ID())
	require.Len(t, dmg, 1)
	require.Equal(t, a.r.ID(), dmg[0].Other)
	require.Equal(t, deagle, dmg[0].Weapon)
	require.InDelta(t, floor, dmg[0].Floor, 0.001)
	// The credit is spent: a second report naming the same shot is not credited.
	require.Equal(t, refserver.VerdictNoCredit, b.hit(a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 30))
	tick(t, k)
	nc := eventsOf(k, refserver.EventReportNotCredited, b.r.ID())
	require.Len(t, nc, 1)
	require.Equal(t, refserver.VerdictNoCredit, nc[0].Verdict)
}

func TestShotFloorUsesTheRevisionTheShotNamed(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	rev := w.Catalog().Revision()
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 10}, wire.HitPlayer, b.r.ID()))
	// The gamemode quadruples the damage after the shot: the shot is floored with the
	// numbers it was fired under.
	require.NoError(t, w.SetWeaponProperties(k.Now(), deagle, [3]float32{280, 280, 280}, 35))
	require.NotEqual(t, rev, w.Catalog().Revision())
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 1))
	hp, _ := w.Health(b.r.ID())
	require.InDelta(t, 100-vitals.BulletFloor(70), hp, 0.001)
}

func TestShotArrivingAfterAPropertiesChangeIsFlooredByTheRevisionItNamed(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	old := w.Catalog().Revision()
	// The gamemode quadruples the damage; both clients apply the new table and the victim
	// acknowledged it longer than PropertiesGrace ago, so its own floor bound is the new
	// damage.
	require.NoError(t, w.SetWeaponProperties(k.Now(), deagle, [3]float32{280, 280, 280}, 35))
	require.NoError(t, k.Advance(3*time.Second))
	// A shot fired under the old table (it names the old revision) arrives only now: its
	// floor comes from the revision it names, not from the newest one.
	a.shots++
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.WeaponShot{ShotSeq: a.shots, DeathEpoch: a.gen,
		PropertiesRev: old, Weapon: deagle, HitType: wire.HitPlayer, HitID: uint16(b.r.ID()), Origin: a.pos, HitPos: wire.Vec3{X: 10}})))
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 1))
	hp, _ := w.Health(b.r.ID())
	require.InDelta(t, 100-vitals.BulletFloor(70), hp, 0.001, "floored at the old damage (70), not the new (280)")
}

func TestShotgunCreditsOneReportPerPellet(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, shotgun, 0, 2)
	a, b := s[0], s[1]
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 10}, wire.HitPlayer, b.r.ID()))
	wp, err := w.Catalog().Weapon(w.Catalog().Revision(), shotgun)
	require.NoError(t, err)
	ref := wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}
	for range wp.Pellets {
		require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), shotgun, ref, 1))
	}
	require.Equal(t, refserver.VerdictNoCredit, b.hit(a.r.ID(), shotgun, ref, 1), "one more than the pellets")
	tick(t, k)
	require.Len(t, eventsOf(k, refserver.EventPlayerDamage, b.r.ID()), int(wp.Pellets))
}

func TestCombatShotgunCreditsUpToEightReportsPerVictim(t *testing.T) {
	const spas uint8 = 27
	_, w, s := duelOf(t, refserver.Config{}, spas, 0, 2)
	a, b := s[0], s[1]
	wp, err := w.Catalog().Weapon(w.Catalog().Revision(), spas)
	require.NoError(t, err)
	require.Equal(t, uint8(8), wp.Credits, "the catalogue's Credits column")
	require.Less(t, wp.Pellets, wp.Credits, "the game's 4 pellets, fewer than the generous cap")
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 10}, wire.HitPlayer, b.r.ID()))
	ref := wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}
	for range wp.Credits {
		require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), spas, ref, 1))
	}
	require.Equal(t, refserver.VerdictNoCredit, b.hit(a.r.ID(), spas, ref, 1), "one more than the cap")
}

func TestUncorrelatedHitReportIsNotCredited(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 3)
	a, b, c := s[0], s[1], s[2]
	c.pos = wire.Vec3{X: -50}
	require.Equal(t, refserver.VerdictAccepted, c.frame())
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 10}, wire.HitPlayer, b.r.ID()))
	ref := wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}
	cases := []struct {
		name   string
		victim *sender
		att    refserver.PlayerID
		weapon uint8
		ref    wire.Ref
		want   refserver.Verdict
	}{
		{"a shot never fired", b, a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots + 5}, refserver.VerdictNoSuchAction},
		{"another weapon than the shot's", b, a.r.ID(), m4, ref, refserver.VerdictWrongWeapon},
		{"an attacker not connected", b, nobody, deagle, ref, refserver.VerdictUnknownPlayer},
		{"its own shot", a, a.r.ID(), deagle, ref, refserver.VerdictNotRelayed},
		{"a vehicle shot for a weapon shot", b, a.r.ID(), deagle, wire.Ref{Kind: wire.RefVehicleShot, Seq: a.shots}, refserver.VerdictNoSuchAction},
		{"a blow from a player who is not near", c, a.r.ID(), 0, wire.Ref{}, refserver.VerdictTooFar},
	}
	for _, tc := range cases {
		tick(t, k)
		mark := len(k.Events())
		hp, _ := w.Health(tc.victim.r.ID())
		require.Equal(t, tc.want, tc.victim.hit(tc.att, tc.weapon, tc.ref, 20), tc.name)
		after, _ := w.Health(tc.victim.r.ID())
		require.Equal(t, hp, after, "%s: the ledger is untouched", tc.name)
		tick(t, k)
		var nc []refserver.Event
		for _, e := range k.Events()[mark:] {
			require.NotEqual(t, refserver.EventPlayerDamage, e.Kind, tc.name)
			if e.Kind == refserver.EventReportNotCredited {
				nc = append(nc, e)
			}
		}
		require.Len(t, nc, 1, tc.name)
		require.Equal(t, tc.want, nc[0].Verdict, tc.name)
	}
	// After the shot's credit window, the report is no longer correlated.
	require.NoError(t, k.Advance(refserver.ShotCreditWindow+10*time.Millisecond))
	require.Equal(t, refserver.VerdictNoSuchAction, b.hit(a.r.ID(), deagle, ref, 20))
}

func TestShotRelayedBeforeTheVictimJoinedIsNotCredited(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 10}, wire.HitPlayer, b.r.ID()))
	c, err := k.JoinRaw("c") // joins now, after the shot was relayed
	require.NoError(t, err)
	require.Equal(t, refserver.VerdictAccepted, must(t)(c.Send(&wire.RespawnRequest{})))
	tick(t, k)
	sp, ok := lastOf[*wire.RespawnPlayer](c)
	require.True(t, ok)
	require.Equal(t, refserver.VerdictAccepted, must(t)(c.Send(&wire.PlayerSync{Seq: 1, DeathEpoch: sp.DeathEpoch, Alive: true,
		Health: 100, Vehicle: wire.NoVehicle, Position: sp.Position})))
	require.True(t, w.Alive(c.ID()))
	require.Equal(t, refserver.VerdictNotRelayed, must(t)(c.Send(report(1, 0, a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 100, 0, 20))))
}

func TestReportBetweenTeammatesIsNotCredited(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	const red teams.TeamID = 5
	require.NoError(t, w.CreateTeam(red, teams.Team{Name: "red"}))
	require.NoError(t, w.JoinTeam(a.r.ID(), red))
	require.NoError(t, w.JoinTeam(b.r.ID(), red))
	tick(t, k)
	b.r.Clear()
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 10}, wire.HitPlayer, b.r.ID()))
	tick(t, k)
	shots := receivedOf[*wire.RemoteWeaponShot](b.r)
	require.Len(t, shots, 1)
	require.True(t, shots[0].Stamp.Teammate, "the victim's client is told to refuse it")
	// A client that applied it anyway is not credited: no player_damage, no last damage.
	require.Equal(t, refserver.VerdictTeammate, b.hit(a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 46))
	tick(t, k)
	require.Empty(t, eventsOf(k, refserver.EventPlayerDamage, b.r.ID()))
	nc := eventsOf(k, refserver.EventReportNotCredited, b.r.ID())
	require.Len(t, nc, 1)
	require.Equal(t, refserver.VerdictTeammate, nc[0].Verdict)
	require.Equal(t, teams.ReportRefusedTeammateStamp.String(), nc[0].Detail)
	hp, _ := w.Health(b.r.ID())
	require.Equal(t, float32(100), hp)
}

func TestHitFromAShotAcceptedBeforeATeamChangeIsDiscarded(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 10}, wire.HitPlayer, b.r.ID()))
	const red teams.TeamID = 5
	require.NoError(t, w.CreateTeam(red, teams.Team{Name: "red"}))
	require.NoError(t, w.JoinTeam(a.r.ID(), red))
	require.NoError(t, w.JoinTeam(b.r.ID(), red))
	require.Equal(t, refserver.VerdictTeammate, b.hit(a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 46))
	tick(t, k)
	nc := eventsOf(k, refserver.EventReportNotCredited, b.r.ID())
	require.Len(t, nc, 1)
	require.Equal(t, teams.ReportDiscardedTeamChange.String(), nc[0].Detail)
}

func TestMeleeBlowIsCorrelatedByTheAttackersStoreAndDistance(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	for range 12 {
		require.NoError(t, k.Advance(100*time.Millisecond))
		require.Equal(t, refserver.VerdictAccepted, a.frame())
		require.Equal(t, refserver.VerdictAccepted, b.frame())
	}
	// 10 m apart over the last second: too far for a blow.
	require.Equal(t, refserver.VerdictTooFar, b.hit(a.r.ID(), 0, wire.Ref{}, 2))
	a.pos = wire.Vec3{X: 9}
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	// A katana the attacker does not own.
	require.Equal(t, refserver.VerdictNotOwned, b.hit(a.r.ID(), 8, wire.Ref{}, 2))
	// Fists, and the Desert Eagle used as a club. (The first waits for the two refused
	// reports before it in the client's order, ReportWait at most.)
	require.NoError(t, k.Advance(time.Second))
	require.Equal(t, refserver.VerdictHeld, b.hit(a.r.ID(), 0, wire.Ref{}, 0.5))
	require.NoError(t, k.Advance(vitals.ReportWait+simkitTick))
	hp, _ := w.Health(b.r.ID())
	// The victim applied the two refused blows to itself (96 left): the floor comes off
	// the lower of its claim and the ledger.
	require.InDelta(t, 96-vitals.MeleeFloor(1), hp, 0.001, "the blow pays the melee floor")
	require.NoError(t, k.Advance(time.Second))
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), deagle, wire.Ref{}, 3))
	tick(t, k)
	require.Len(t, eventsOf(k, refserver.EventPlayerDamage, b.r.ID()), 2)
}

func TestEnvironmentalDamageIsTakenWithoutAttribution(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	require.Equal(t, refserver.VerdictAccepted, b.hit(refserver.NoPlayer, causeFall, wire.Ref{}, 20))
	hp, _ := w.Health(b.r.ID())
	require.Equal(t, float32(80), hp)
	tick(t, k)
	d := eventsOf(k, refserver.EventPlayerDamage, b.r.ID())
	require.Len(t, d, 1)
	require.Equal(t, refserver.NoPlayer, d[0].Other)
	// A fire named after a player who holds no flamethrower: taken, not attributed.
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), 37, wire.Ref{}, 10))
	tick(t, k)
	un := eventsOf(k, refserver.EventReportUnattributed, b.r.ID())
	require.Len(t, un, 1)
	require.Equal(t, refserver.VerdictNotHolding, un[0].Verdict)
	hp, _ = w.Health(b.r.ID())
	require.Equal(t, float32(70), hp)
}

func TestGamemodeExplosionReportIsCreditedToItsCreator(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	id, err := w.CreateExplosion(k.Now(), a.r.ID(), 2, wire.Vec3{X: 11}, 5)
	require.NoError(t, err)
	tick(t, k)
	ex := receivedOf[*wire.CreateExplosion](b.r)
	require.Len(t, ex, 1)
	require.Equal(t, id, ex[0].Effect)
	require.Equal(t, a.r.ID(), ex[0].Creator)
	require.Len(t, receivedOf[*wire.CreateExplosion](a.r), 1, "the creator gets it too")
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), explosionCause, wire.Ref{Kind: wire.RefEffect, Seq: id}, 30))
	tick(t, k)
	d := eventsOf(k, refserver.EventPlayerDamage, b.r.ID())
	require.Len(t, d, 1)
	require.Equal(t, a.r.ID(), d[0].Other)
	// A report naming another attacker is taken as an observation only.
	require.Equal(t, refserver.VerdictAccepted, b.hit(5, explosionCause, wire.Ref{Kind: wire.RefEffect, Seq: id}, 10))
	tick(t, k)
	un := eventsOf(k, refserver.EventReportUnattributed, b.r.ID())
	require.Len(t, un, 1)
	require.Equal(t, refserver.VerdictAttackerMismatch, un[0].Verdict)
	// A fire without a creator is the environment's.
	b.r.Clear()
	fid, err := w.CreateFire(k.Now(), refserver.NoPlayer, wire.Vec3{X: 10}, 3)
	require.NoError(t, err)
	tick(t, k)
	fires := receivedOf[*wire.CreateFire](b.r)
	require.Len(t, fires, 1)
	require.False(t, fires[0].Stamp.Teammate)
	require.Equal(t, refserver.VerdictAccepted, b.hit(refserver.NoPlayer, 37, wire.Ref{Kind: wire.RefEffect, Seq: fid}, 5))
	hp, _ := w.Health(b.r.ID())
	require.Equal(t, float32(55), hp)
}

func TestProjectileAndDetonationAreCorrelatedWithTheOwner(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), grenade, 3, false))
	tick(t, k)
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	b.r.Clear()
	launch := &wire.ProjectileLaunch{Projectile: 1, DeathEpoch: a.gen, Weapon: grenade, Vehicle: wire.NoVehicle, Target: wire.NoVehicle,
		Origin: a.pos, Velocity: wire.Vec3{X: 10}}
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(launch)))
	require.Equal(t, refserver.VerdictDuplicate, must(t)(a.r.Send(launch)))
	n, _, _ := w.Ammo(a.r.ID(), grenade)
	require.Equal(t, uint16(2), n)
	det := &wire.Detonation{Projectile: 1, DeathEpoch: a.gen, Weapon: grenade, Position: wire.Vec3{X: 9}}
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(det)))
	require.Equal(t, refserver.VerdictAlreadyDetonated, must(t)(a.r.Send(det)))
	// A detonation whose launch was lost heals it, at the cost of its round.
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.Detonation{Projectile: 2, DeathEpoch: a.gen, Weapon: grenade, Position: wire.Vec3{X: 3}})))
	n, _, _ = w.Ammo(a.r.ID(), grenade)
	require.Equal(t, uint16(1), n)
	require.Equal(t, refserver.VerdictDuplicate, must(t)(a.r.Send(&wire.ProjectileLaunch{Projectile: 2, DeathEpoch: a.gen, Weapon: grenade,
		Vehicle: wire.NoVehicle, Target: wire.NoVehicle, Origin: a.pos})), "its late launch is not spent again")
	require.Equal(t, refserver.VerdictNotOwned, must(t)(a.r.Send(&wire.Detonation{Projectile: 3, DeathEpoch: a.gen, Weapon: 17})), "a weapon it does not have")
	tick(t, k)
	require.Len(t, receivedOf[*wire.RemoteProjectile](b.r), 1)
	require.Len(t, receivedOf[*wire.RemoteDetonation](b.r), 2)
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), explosionCause, wire.Ref{Kind: wire.RefDetonation, Seq: 1}, 40))
	tick(t, k)
	d := eventsOf(k, refserver.EventPlayerDamage, b.r.ID())
	require.Len(t, d, 1)
	require.Equal(t, a.r.ID(), d[0].Other)
}

// unfeltVolley makes a fire 40 M4 shots at b, 200 ms apart, each aimed at end and
// claiming a hit on b, which b never reports; then the claims mature. It returns the kit
// and b.
func unfeltVolley(t *testing.T, end wire.Vec3) (*simkit.Kit, *sender) {
	t.Helper()
	k, w, s := duelOf(t, refserver.Config{}, m4, 100*time.Millisecond, 2)
	a, b := s[0], s[1]
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), m4, 2000, true))
	require.NoError(t, k.Advance(3*time.Second)) // the round trips are measured
	for range 40 {
		require.NoError(t, k.Advance(200*time.Millisecond))
		require.Equal(t, refserver.VerdictAccepted, b.frame())
		require.Equal(t, refserver.VerdictAccepted, a.shoot(end, wire.HitPlayer, b.r.ID()))
	}
	for range 10 {
		require.NoError(t, k.Advance(500*time.Millisecond))
		require.Equal(t, refserver.VerdictAccepted, b.frame())
		require.Equal(t, refserver.VerdictAccepted, a.frame())
	}
	tick(t, k)
	return k, b
}

func TestGodModeDetectorFlagsAVictimThatSkipsTheHitsClaimedAgainstItsRewoundPose(t *testing.T) {
	k, b := unfeltVolley(t, wire.Vec3{X: 30}) // straight through b at x = 10
	require.NotEmpty(t, eventsOf(k, refserver.EventGodModeSuspect, b.r.ID()))
}

func TestGodModeDetectorIgnoresClaimsWhoseRayMissedTheRewoundBody(t *testing.T) {
	// The same volley, but every ray passes 1.5 m beside the victim's rewound position
	// (ClaimReach is 1 m): its trace could not confirm them, so they say only that the
	// shooter missed. The victim is still a recipient (within the 5 m near distance).
	k, b := unfeltVolley(t, wire.Vec3{X: 30, Y: 4.5})
	require.Empty(t, k.EventsOf(refserver.EventGodModeSuspect))
	var shots []*wire.RemoteWeaponShot
	for _, m := range receivedOf[*wire.RemoteWeaponShot](b.r) {
		shots = append(shots, m)
	}
	require.NotEmpty(t, shots)
	require.True(t, shots[len(shots)-1].Rewind.Valid, "b was a recipient near the ray, with its own rewound pose")
}

func TestVehicleGunsAreRateCheckedAndFlooredAtTheStandardTier(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	require.NoError(t, w.CreateVehicle(k.Now(), 2, modelHunter, wire.Vec3{}, wire.Quat{W: 1}))
	a.veh = 2
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	shot := func(seq uint16) refserver.Verdict {
		return must(t)(a.r.Send(&wire.VehicleShot{ShotSeq: seq, DeathEpoch: a.gen, PropertiesRev: w.Catalog().Revision(),
			Vehicle: 2, Weapon: minigun, HitType: wire.HitPlayer, HitID: uint16(b.r.ID()), Origin: wire.Vec3{}, HitPos: wire.Vec3{X: 20}}))
	}
	require.Equal(t, refserver.VerdictAccepted, shot(100))
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), minigun, wire.Ref{Kind: wire.RefVehicleShot, Seq: 100}, 1))
	hp, _ := w.Health(b.r.ID())
	dmg, err := w.Catalog().Damage(w.Catalog().Revision(), minigun, inventory.TierStd)
	require.NoError(t, err)
	require.InDelta(t, 100-vitals.BulletFloor(dmg), hp, 0.001)
	v := refserver.VerdictAccepted
	for seq := uint16(101); seq < 140 && v == refserver.VerdictAccepted; seq++ {
		v = shot(seq)
	}
	require.Equal(t, refserver.VerdictTooFast, v)
	a.veh = wire.NoVehicle
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.NoError(t, k.Advance(time.Second))
	require.Equal(t, refserver.VerdictNotInVehicle, shot(200))
}

func TestATakenWeaponsOldShotsEndSoonAfterTheLaneAcknowledgedTheTake(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, m4, 0, 2)
	a, b := s[0], s[1]
	require.NoError(t, w.TakeWeapon(k.Now(), a.r.ID(), m4))
	tick(t, k) // delivered, and acknowledged by a's lane at its next flush
	tick(t, k)
	// a cheat that never echoes the take and keeps firing (its frames hold no revision)
	require.NoError(t, k.Advance(80*time.Millisecond))
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 30}, wire.HitPlayer, b.r.ID()), "a shot fired before the take arrived")
	require.NoError(t, k.Advance(inventory.DisplacedShotGrace))
	require.Equal(t, refserver.VerdictNotOwned, a.shoot(wire.Vec3{X: 30}, wire.HitPlayer, b.r.ID()),
		"the acknowledgement settles the take: no more old shots, long before inventory.SettleTimeout")
}

func TestOnlyAVehiclesOwnRocketsAreLaunchedFromItsSeatWithoutTheStore(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a := s[0]
	require.NoError(t, w.CreateVehicle(k.Now(), 2, carModel, wire.Vec3{}, wire.Quat{W: 1}))              // a car
	require.NoError(t, w.CreateVehicle(k.Now(), 3, refserver.ModelHunter, wire.Vec3{}, wire.Quat{W: 1})) // rockets
	launch := func(seq uint16, weapon uint8, vehicle uint16) refserver.Verdict {
		return must(t)(a.r.Send(&wire.ProjectileLaunch{Projectile: seq, DeathEpoch: a.gen, Weapon: weapon, Vehicle: vehicle,
			Target: wire.NoVehicle, Origin: a.pos, Velocity: wire.Vec3{X: 30}}))
	}
	a.veh, a.seat = 2, 0
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.Equal(t, refserver.VerdictWrongKind, launch(1, grenade, 2), "a grenade it does not own, claimed from a car's seat")
	require.Equal(t, refserver.VerdictWrongKind, launch(2, rocket, 2), "a car has no rockets")
	a.veh = 3
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.Equal(t, refserver.VerdictWrongKind, launch(3, grenade, 3), "the Hunter throws no grenades")
	require.Equal(t, refserver.VerdictAccepted, launch(4, rocket, 3), "the Hunter's own rocket")
	require.Equal(t, refserver.VerdictAccepted, launch(5, 36, 3), "and its homing rocket")
	n, _, _ := w.Ammo(a.r.ID(), grenade)
	require.Zero(t, n, "no grenade came from anywhere")
}

// TestWeaponRulesReadTheHostsCatalogueColumns: the shot credits and the stealth kill follow
// the catalogue's Credits and StealthKill columns (inventory's [credits-per-shot] and
// [weapon-causes]), not weapon ids: a host table that gives the Combat Shotgun 5 credits
// and the stealth kill to the katana instead of the knife is judged by its own columns.
func TestWeaponRulesReadTheHostsCatalogueColumns(t *testing.T) {
	const spas, katana uint8 = 27, 8
	table := inventory.DefaultTable()
	table[spas].Credits = 5
	table[knife].StealthKill, table[katana].StealthKill = false, true
	var cfg refserver.Config
	cfg.Weapons.Table = &table
	k, w, s := duelOf(t, cfg, spas, 0, 2)
	a, b := s[0], s[1]
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 10}, wire.HitPlayer, b.r.ID()))
	ref := wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}
	for range 5 {
		require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), spas, ref, 1))
	}
	require.Equal(t, refserver.VerdictNoCredit, b.hit(a.r.ID(), spas, ref, 1), "one more than the host's 5 credits")

	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), knife, 1, true))
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), katana, 1, false))
	a.weapon = knife
	for range 12 {
		require.NoError(t, k.Advance(100*time.Millisecond))
		a.pos = wire.Vec3{X: 9}
		require.Equal(t, refserver.VerdictAccepted, a.frame())
		require.Equal(t, refserver.VerdictAccepted, b.frame())
	}
	claim := &wire.StealthKill{Victim: b.r.ID(), VictimEpoch: b.gen, DeathEpoch: a.gen, Weapon: knife}
	require.Equal(t, refserver.VerdictWrongKind, must(t)(a.r.Send(claim)), "the host's knife kills nobody by stealth")
	claim.Weapon = katana
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(claim)), "the host's katana does")
}
