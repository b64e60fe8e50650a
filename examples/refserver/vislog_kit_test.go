package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/wire"
)

// Rule [stream-reports]: a report is credited only if its victim was sent the action it
// answers, that is had its author shown when the action was relayed (up to
// RelayFlushSlack after its acceptance); a victim that had the shooter shown then is
// credited even if the shooter was hidden from it since.

// farDuel is a duel of sniper rifles (a 300 m range) with the shooter a 250 m from the
// victim b, hidden from each other, and the bystanders parked.
func farDuel(t *testing.T) (*simkit.Kit, *refserver.World, *sender, *sender) {
	t.Helper()
	k, w, s := duelOf(t, refserver.Config{}, sniper, 0, 2)
	a, b := s[0], s[1]
	parkBystanders(t, k)
	a.walkTo(wire.Vec3{X: 250})
	evaluate(t, k)
	require.False(t, w.Sees(b.r.ID(), a.r.ID()))
	return k, w, a, b
}

func TestStreamReportOfAShotItWasNeverSentIsNotCredited(t *testing.T) {
	k, w, a, b := farDuel(t)
	b.r.Clear()
	require.Equal(t, refserver.VerdictAccepted, a.shoot(b.pos, wire.HitPlayer, b.r.ID()), "the shot itself is the shooter's claim")
	tick(t, k)
	require.Empty(t, receivedOf[*wire.RemoteWeaponShot](b.r), "b does not have a shown")
	before, _ := w.Vitals(b.r.ID())
	require.Equal(t, refserver.VerdictNotRelayed, b.hit(a.r.ID(), sniper, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 40))
	tick(t, k)
	require.Empty(t, k.EventsOf(refserver.EventPlayerDamage), "nobody is credited")
	after, _ := w.Vitals(b.r.ID())
	require.Equal(t, before, after, "an uncorrelated hit is discarded, as any hit the victim could not have taken")
}

func TestStreamReportOfAShotFiredBeforeTheShooterWasShownIsNotCredited(t *testing.T) {
	k, w, a, b := farDuel(t)
	require.Equal(t, refserver.VerdictAccepted, a.shoot(b.pos, wire.HitPlayer, b.r.ID()))
	tick(t, k)
	// The shooter comes near and is shown, well after its shot went out.
	require.NoError(t, k.Advance(refserver.RelayFlushSlack))
	a.walkTo(wire.Vec3{X: 20})
	evaluate(t, k)
	require.True(t, w.Sees(b.r.ID(), a.r.ID()))
	require.Equal(t, refserver.VerdictNotRelayed, b.hit(a.r.ID(), sniper, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 40))
	b.health = 100 // the ledger discarded it: the client goes on from the server's health
	// Its next shot (a rifle's interval later), fired while shown, is credited.
	require.NoError(t, k.Advance(time.Second))
	require.Equal(t, refserver.VerdictAccepted, a.shoot(b.pos, wire.HitPlayer, b.r.ID()))
	tick(t, k)
	v := b.hit(a.r.ID(), sniper, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 40)
	require.Contains(t, []refserver.Verdict{refserver.VerdictAccepted, refserver.VerdictHeld}, v)
	require.NoError(t, k.Advance(time.Second)) // a held report is settled by the ledger's wait
	dmg := k.EventsOf(refserver.EventPlayerDamage)
	require.Len(t, dmg, 1)
	require.Equal(t, a.r.ID(), dmg[0].Other)
}

// Rule [stream-detonations]: a satchel detonated by an owner beyond the stream distance
// reaches the players standing by the blast (and is credited to its owner), not those
// far from both.
func TestStreamDetonationReachesThoseNearTheBlast(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 3)
	a, b, c := s[0], s[1], s[2]
	parkBystanders(t, k)
	c.walkTo(wire.Vec3{Y: 800})
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), satchel, 1, false))
	tick(t, k)
	require.Equal(t, refserver.VerdictAccepted, a.frame())
	require.Equal(t, refserver.VerdictAccepted, a.launch(1, satchel, refserver.NoVehicle, a.pos), "dropped at b's feet")
	// The owner walks off, out of b's sight, and detonates it from there.
	for x := float32(25); x <= 400; x += 25 {
		require.NoError(t, k.Advance(100*time.Millisecond))
		a.walkTo(wire.Vec3{X: x})
	}
	evaluate(t, k)
	require.False(t, w.Sees(b.r.ID(), a.r.ID()))
	b.r.Clear()
	c.r.Clear()
	require.Equal(t, refserver.VerdictAccepted, a.detonate(1, satchel, wire.Vec3{}))
	tick(t, k)
	got := receivedOf[*wire.RemoteDetonation](b.r)
	require.Len(t, got, 1, "b stands by the blast")
	require.Equal(t, a.r.ID(), got[0].Owner)
	require.Equal(t, w.Teams().Rev(), got[0].Stamp.Rev, "stamped for b")
	require.Empty(t, receivedOf[*wire.RemoteDetonation](c.r), "c is far from the owner and the blast")
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), explosionCause, wire.Ref{Kind: wire.RefDetonation, Seq: 1}, 40))
	tick(t, k)
	dmg := k.EventsOf(refserver.EventPlayerDamage)
	require.Len(t, dmg, 1)
	require.Equal(t, a.r.ID(), dmg[0].Other, "credited to the satchel's owner")
}

// Rules [stream-reports] and [stream-vehicle-relays]: a report of a vehicle gun's shot is
// credited only if its victim had the gun's vehicle shown when the shot was relayed, not
// only its driver: a victim past its VehicleCap nearest cars was never sent the shot. A
// vehicle shown anew (its driver got out) was shown throughout: a report of a shot the
// victim was sent before is still credited.
func TestStreamReportOfAVehicleGunShotNeedsTheVehicleShown(t *testing.T) {
	for _, c := range []struct {
		name  string
		cap   int
		shown bool
	}{{"the vehicle shown", 0, true}, {"the vehicle past the victim's cap", 1, false}} {
		t.Run(c.name, func(t *testing.T) {
			k, w, a, b := hunterBeside(t, refserver.Config{Stream: refserver.StreamConfig{VehicleCap: c.cap}})
			evaluate(t, k)
			require.True(t, w.Sees(b.r.ID(), a.r.ID()), "b sees the driver either way")
			require.Equal(t, c.shown, w.SeesVehicle(b.r.ID(), 1))
			a.drive(1, wire.Vec3{}, 1000)
			b.r.Clear()
			require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.VehicleShot{ShotSeq: a.shots + 1, DeathEpoch: a.gen,
				PropertiesRev: w.Catalog().Revision(), Vehicle: 1, Weapon: minigun, HitType: wire.HitPlayer, HitID: uint16(b.r.ID()),
				Origin: wire.Vec3{Z: 1}, HitPos: wire.Vec3{X: 30, Z: -1}})))
			a.shots++
			tick(t, k)
			require.Equal(t, c.shown, len(receivedOf[*wire.RemoteVehicleShot](b.r)) > 0)
			// Past the relay's slack, the driver gets out: the car is shown anew to b
			// ([stream-vehicle-left]), which had it shown all along.
			require.NoError(t, k.Advance(refserver.RelayFlushSlack+50*time.Millisecond))
			b.r.Clear()
			a.walkTo(wire.Vec3{X: 2})
			tick(t, k)
			require.Equal(t, c.shown, len(vshows(b.r, 1)) == 1)
			v := b.hit(a.r.ID(), minigun, wire.Ref{Kind: wire.RefVehicleShot, Seq: a.shots}, 5)
			if !c.shown {
				require.Equal(t, refserver.VerdictNotRelayed, v, "b was never sent the gun's shot")
				return
			}
			require.Contains(t, []refserver.Verdict{refserver.VerdictAccepted, refserver.VerdictHeld}, v)
			require.NoError(t, k.Advance(time.Second)) // a held report is settled by the ledger's wait
			dmg := k.EventsOf(refserver.EventPlayerDamage)
			require.Len(t, dmg, 1)
			require.Equal(t, a.r.ID(), dmg[0].Other)
		})
	}
}
