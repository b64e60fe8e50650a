package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

// modelSedan is a vehicle without guns.
const modelSedan uint16 = 411

// The team the team tests form (the kit's bystanders are on teams 1 and 2).
const green teams.TeamID = 3

// teamTrio is three spawned raw connections: a and b in one team with friendly fire off,
// c in none. a stands at the origin with an M4, b 10 m along X, c 30 m along Y; each has
// a second of frames there (a rewind history), and nothing is left to receive.
func teamTrio(t *testing.T) (*simkit.Kit, *refserver.World, *sender, *sender, *sender) {
	t.Helper()
	k, w, s := duelOf(t, refserver.Config{}, m4, 0, 3)
	a, b, c := s[0], s[1], s[2]
	require.NoError(t, w.CreateTeam(green, teams.Team{Name: "green"}))
	require.NoError(t, w.JoinTeam(a.r.ID(), green))
	require.NoError(t, w.JoinTeam(b.r.ID(), green))
	c.pos = wire.Vec3{Y: 30}
	walk(t, k, a, b, c)
	require.True(t, w.Teams().Teammates(a.r.ID(), b.r.ID()))
	require.False(t, w.Teams().Teammates(a.r.ID(), c.r.ID()))
	require.False(t, w.Teams().Teammates(b.r.ID(), c.r.ID()))
	tick(t, k)
	for _, x := range s {
		x.r.Clear()
	}
	return k, w, a, b, c
}

// walk sends a second of frames, one every 100 ms, of every sender at its position.
func walk(t *testing.T, k *simkit.Kit, xs ...*sender) {
	t.Helper()
	for range 12 {
		require.NoError(t, k.Advance(100*time.Millisecond))
		for _, x := range xs {
			require.Equal(t, refserver.VerdictAccepted, x.frame())
		}
	}
}

// stamped is the stamp of one message a recipient got from the sender under test, and
// whether it was the recipient's own copy (a shot with its rewound pose).
type stamped struct {
	stamp wire.Stamp
	own   bool
}

// from returns, for every message of type T the raw connection got whose sender is id,
// what stamped says.
func from[T wire.Message](r *simkit.Raw, id refserver.PlayerID, sender func(T) refserver.PlayerID, st func(T) stamped) []stamped {
	var out []stamped
	for _, m := range receivedOf[T](r) {
		if sender(m) == id {
			out = append(out, st(m))
		}
	}
	return out
}

// A packet that can hurt carries, for each recipient, whether its sender is the
// recipient's teammate and the relation revision (teams' [teammate-stamp]): every relayed frame of a
// player and of a vehicle, shot, projectile and detonation, every stealth kill and vehicle
// explosion (stamped with its author), and every server effect with a creator. A relay is
// never sent back to its sender.
func TestEveryPacketThatCanHurtCarriesItsSendersStampPerRecipient(t *testing.T) {
	type row struct {
		name string
		// act makes a (the sender) do the action once, after arranging what it needs.
		act func(t *testing.T, k *simkit.Kit, w *refserver.World, a, b, c *sender)
		// got returns what x got from sender id.
		got func(x *simkit.Raw, id refserver.PlayerID) []stamped
		// senderCopy: the sender gets a copy too (a reliable broadcast, not a relay).
		senderCopy bool
		// near is the recipient the shot's ray passes near (1 for b, 2 for c): it gets its
		// own copy, with its rewound pose; 0 when the action is not a shot.
		near int
	}
	plain := func(s wire.Stamp) stamped { return stamped{stamp: s} }
	weaponShots := func(x *simkit.Raw, id refserver.PlayerID) []stamped {
		return from(x, id, func(m *wire.RemoteWeaponShot) refserver.PlayerID { return m.Shooter },
			func(m *wire.RemoteWeaponShot) stamped { return stamped{m.Stamp, m.Rewind.Valid} })
	}
	vehicleShots := func(x *simkit.Raw, id refserver.PlayerID) []stamped {
		return from(x, id, func(m *wire.RemoteVehicleShot) refserver.PlayerID { return m.Shooter },
			func(m *wire.RemoteVehicleShot) stamped { return stamped{m.Stamp, m.Rewind.Valid} })
	}
	// board puts a in the driver's seat of a Hunter at the origin.
	board := func(t *testing.T, k *simkit.Kit, w *refserver.World, a *sender) {
		require.NoError(t, w.CreateVehicle(k.Now(), 2, modelHunter, a.pos, wire.Quat{W: 1}))
		a.veh, a.seat = 2, 0
		require.Equal(t, refserver.VerdictAccepted, a.frame())
	}
	vehicleShot := func(t *testing.T, k *simkit.Kit, w *refserver.World, a *sender, end wire.Vec3) {
		board(t, k, w, a)
		require.Equal(t, refserver.VerdictAccepted, a.vshot(2, minigun, a.pos, end))
	}
	launch := func(t *testing.T, k *simkit.Kit, w *refserver.World, a *sender) {
		require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), grenade, 3, false))
		require.Equal(t, refserver.VerdictAccepted, a.frame())
		require.Equal(t, refserver.VerdictAccepted, a.launch(1, grenade, wire.NoVehicle, a.pos))
	}
	rows := []row{
		{
			name: "player frame",
			act: func(t *testing.T, _ *simkit.Kit, _ *refserver.World, a, _, _ *sender) {
				require.Equal(t, refserver.VerdictAccepted, a.frame())
			},
			got: func(x *simkit.Raw, id refserver.PlayerID) []stamped {
				return from(x, id, func(m *wire.RemotePlayerSync) refserver.PlayerID { return m.Player },
					func(m *wire.RemotePlayerSync) stamped { return plain(m.Stamp) })
			},
		},
		{
			name: "vehicle frame (RemoteVehicleSync, the driver's stamp)",
			act: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, _, _ *sender) {
				require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSedan, a.pos, wire.Quat{W: 1}))
				a.veh, a.seat = 1, 0
				require.Equal(t, refserver.VerdictAccepted, a.frame())
				require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.VehicleSync{Seq: 1, Vehicle: 1, Position: a.pos,
					Rotation: wire.Quat{W: 1}, Health: 1000})))
			},
			got: func(x *simkit.Raw, id refserver.PlayerID) []stamped {
				return from(x, id, func(m *wire.RemoteVehicleSync) refserver.PlayerID { return m.Driver },
					func(m *wire.RemoteVehicleSync) stamped { return plain(m.Stamp) })
			},
		},
		{
			name: "weapon shot near the teammate (its own copy; the outsider's shared)",
			act: func(t *testing.T, _ *simkit.Kit, _ *refserver.World, a, _, _ *sender) {
				require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 20}, wire.HitNone, 0))
			},
			got:  weaponShots,
			near: 1,
		},
		{
			name: "weapon shot near the outsider (its own copy; the teammate's shared)",
			act: func(t *testing.T, _ *simkit.Kit, _ *refserver.World, a, _, _ *sender) {
				require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{Y: 40}, wire.HitNone, 0))
			},
			got:  weaponShots,
			near: 2,
		},
		{
			name: "vehicle shot near the teammate (its own copy; the outsider's shared)",
			act: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, _, _ *sender) {
				vehicleShot(t, k, w, a, wire.Vec3{X: 20})
			},
			got:  vehicleShots,
			near: 1,
		},
		{
			name: "vehicle shot near the outsider (its own copy; the teammate's shared)",
			act: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, _, _ *sender) {
				vehicleShot(t, k, w, a, wire.Vec3{Y: 40})
			},
			got:  vehicleShots,
			near: 2,
		},
		{
			name: "projectile (RemoteProjectile)",
			act: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, _, _ *sender) {
				launch(t, k, w, a)
			},
			got: func(x *simkit.Raw, id refserver.PlayerID) []stamped {
				return from(x, id, func(m *wire.RemoteProjectile) refserver.PlayerID { return m.Owner },
					func(m *wire.RemoteProjectile) stamped { return plain(m.Stamp) })
			},
		},
		{
			name: "detonation (RemoteDetonation)",
			act: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, _, _ *sender) {
				launch(t, k, w, a)
				require.Equal(t, refserver.VerdictAccepted, a.detonate(1, grenade, wire.Vec3{X: 5}))
			},
			got: func(x *simkit.Raw, id refserver.PlayerID) []stamped {
				return from(x, id, func(m *wire.RemoteDetonation) refserver.PlayerID { return m.Owner },
					func(m *wire.RemoteDetonation) stamped { return plain(m.Stamp) })
			},
		},
		{
			name: "stealth kill of the outsider (RemoteStealthKill)",
			act: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, b, c *sender) {
				require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), knife, 1, true))
				a.weapon = knife
				c.pos = wire.Vec3{X: 1}
				walk(t, k, a, b, c)
				tick(t, k)
				for _, x := range []*sender{a, b, c} {
					x.r.Clear()
				}
				require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(&wire.StealthKill{Victim: c.r.ID(), VictimEpoch: c.gen,
					DeathEpoch: a.gen, Weapon: knife})))
			},
			got: func(x *simkit.Raw, id refserver.PlayerID) []stamped {
				return from(x, id, func(m *wire.RemoteStealthKill) refserver.PlayerID { return m.Attacker },
					func(m *wire.RemoteStealthKill) stamped { return plain(m.Stamp) })
			},
			senderCopy: true,
		},
		{
			name: "vehicle explosion reported by the outsider, stamped with its author (RemoteVehicleExplode)",
			act: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, _, c *sender) {
				require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSedan, c.pos, wire.Quat{W: 1}))
				c.veh, c.seat = 1, 0
				require.Equal(t, refserver.VerdictAccepted, c.frame())
				require.Equal(t, refserver.VerdictAccepted, a.shoot(c.pos, wire.HitVehicle, 1))
				require.Equal(t, refserver.VerdictAccepted, must(t)(c.r.Send(&wire.VehicleExplode{Vehicle: 1, Attacker: a.r.ID(), Weapon: explosionCause})))
			},
			got: func(x *simkit.Raw, id refserver.PlayerID) []stamped {
				return from(x, id, func(m *wire.RemoteVehicleExplode) refserver.PlayerID { return m.Author },
					func(m *wire.RemoteVehicleExplode) stamped { return plain(m.Stamp) })
			},
			senderCopy: true,
		},
		{
			name: "gamemode explosion with a creator (CreateExplosion)",
			act: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, _, _ *sender) {
				_, err := w.CreateExplosion(k.Now(), a.r.ID(), 2, wire.Vec3{X: 5}, 5)
				require.NoError(t, err)
			},
			got: func(x *simkit.Raw, id refserver.PlayerID) []stamped {
				return from(x, id, func(m *wire.CreateExplosion) refserver.PlayerID { return m.Creator },
					func(m *wire.CreateExplosion) stamped { return plain(m.Stamp) })
			},
			senderCopy: true,
		},
		{
			name: "gamemode fire with a creator (CreateFire)",
			act: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, _, _ *sender) {
				_, err := w.CreateFire(k.Now(), a.r.ID(), wire.Vec3{X: 5}, 3)
				require.NoError(t, err)
			},
			got: func(x *simkit.Raw, id refserver.PlayerID) []stamped {
				return from(x, id, func(m *wire.CreateFire) refserver.PlayerID { return m.Creator },
					func(m *wire.CreateFire) stamped { return plain(m.Stamp) })
			},
			senderCopy: true,
		},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			k, w, a, b, c := teamTrio(t)
			rev := w.Teams().Rev()
			require.NotZero(t, rev)
			r.act(t, k, w, a, b, c)
			require.Equal(t, rev, w.Teams().Rev(), "the action changed no relation")
			tick(t, k)
			for i, x := range []*sender{a, b, c} {
				got := r.got(x.r, a.r.ID())
				if x == a && !r.senderCopy {
					require.Empty(t, got, "the sender gets no copy of its own relay")
					continue
				}
				require.Len(t, got, 1, "recipient %d gets one copy", x.r.ID())
				want := wire.Stamp{Teammate: x == b, Rev: rev}
				require.Equal(t, wire.Stamp(w.Teams().Stamp(a.r.ID(), x.r.ID())), want, "the registry's relation")
				require.Equal(t, want, got[0].stamp, "recipient %d's stamp", x.r.ID())
				require.Equal(t, i > 0 && i == r.near, got[0].own, "recipient %d's own copy (its rewound pose)", x.r.ID())
			}
		})
	}
}

// greenTeam puts a and b in the green team (friendly fire off): teammates from now.
func greenTeam(t *testing.T, w *refserver.World, a, b *sender) {
	t.Helper()
	require.NoError(t, w.CreateTeam(green, teams.Team{Name: "green"}))
	require.NoError(t, w.JoinTeam(a.r.ID(), green))
	require.NoError(t, w.JoinTeam(b.r.ID(), green))
}

// The killer of a counted death is judged by the relation when the death was counted and
// when it is committed (teams' [teammate-never-credited], teams.Registry.JudgeKiller): a teammate at either moment
// is never named; a player apart at both is, whatever happened between.
func TestKillerIsJudgedByTheRelationWhenTheDeathWasCountedAndAtTheCommit(t *testing.T) {
	rows := []struct {
		name string
		// count counts b's death by the ledger, with a the attacker of its last damage.
		count func(t *testing.T, k *simkit.Kit, w *refserver.World, a, b *sender)
		// after changes the teams between the count and the commit.
		after func(t *testing.T, w *refserver.World, a, b *sender)
		// namedA: the count (death_counted) and the commit (player_death, PlayerWasted)
		// name a; otherwise nobody.
		countedA, killerA bool
	}{
		{
			name: "teammates when counted, apart at the commit",
			count: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, b *sender) {
				require.Equal(t, refserver.VerdictAccepted, a.shoot(b.pos, wire.HitPlayer, b.r.ID()))
				require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 40))
				greenTeam(t, w, a, b)                                 // a and b become teammates
				require.NoError(t, w.SetHealth(k.Now(), b.r.ID(), 0)) // the ledger at 0: counted
			},
			after: func(t *testing.T, w *refserver.World, a, _ *sender) {
				require.NoError(t, w.LeaveTeam(a.r.ID()))
			},
		},
		{
			name: "apart when counted, teammates at the commit",
			count: func(t *testing.T, k *simkit.Kit, _ *refserver.World, a, b *sender) {
				lethal(t, k, a.r, b.r, deagle)
			},
			after: func(t *testing.T, w *refserver.World, a, b *sender) {
				greenTeam(t, w, a, b)
			},
			countedA: true,
		},
		{
			name: "apart when counted and at the commit, teammates in between",
			count: func(t *testing.T, k *simkit.Kit, _ *refserver.World, a, b *sender) {
				lethal(t, k, a.r, b.r, deagle)
			},
			after: func(t *testing.T, w *refserver.World, a, b *sender) {
				greenTeam(t, w, a, b)
				require.NoError(t, w.LeaveTeam(b.r.ID()))
			},
			countedA: true,
			killerA:  true,
		},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
			a, b := s[0], s[1]
			name := func(isA bool) refserver.PlayerID {
				if isA {
					return a.r.ID()
				}
				return refserver.NoPlayer
			}
			r.count(t, k, w, a, b)
			ph, err := w.Phase(b.r.ID())
			require.NoError(t, err)
			require.Equal(t, lifecycle.PhaseDying, ph, "the ledger counted the death")
			last := refserver.LastDamageOf(w, b.r.ID())
			require.True(t, last.Valid)
			require.Equal(t, a.r.ID(), last.Attacker, "a's damage is b's last")
			tick(t, k)
			dc := eventsOf(k, refserver.EventDeathCounted, b.r.ID())
			require.Len(t, dc, 1)
			require.Equal(t, name(r.countedA), dc[0].Other, "the killer named at the count")
			r.after(t, w, a, b)
			// b's client never reports: the deadline commits the death.
			b.r.SetSilent(true)
			for i := 0; i < 60 && len(eventsOf(k, refserver.EventPlayerDeath, b.r.ID())) == 0; i++ {
				require.NoError(t, k.Advance(100*time.Millisecond))
			}
			d := eventsOf(k, refserver.EventPlayerDeath, b.r.ID())
			require.Len(t, d, 1)
			require.Equal(t, lifecycle.CommitByServer, d[0].Commit)
			require.Equal(t, name(r.killerA), d[0].Other, "player_death's killer")
			wasted := receivedOf[*wire.PlayerWasted](a.r)
			require.Len(t, wasted, 1)
			require.Equal(t, name(r.killerA), wasted[0].Killer, "PlayerWasted's killer")
		})
	}
}

// A vehicle explosion without a credited killer has no author and kills everyone inside;
// the attacker of an occupant's last damage is its killer, unless it is the occupant's
// teammate (teams' [explosion-spares-teammates], [teammate-never-credited]).
func TestExplosionWithoutAKillerKillsEveryoneInsideNamingTheLastAttackerButNeverATeammate(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 4)
	a, b, c, d := s[0], s[1], s[2], s[3]
	require.NoError(t, w.GiveWeapon(k.Now(), d.r.ID(), deagle, 10, true))
	d.weapon = deagle
	d.pos = wire.Vec3{Y: 5}
	require.Equal(t, refserver.VerdictAccepted, d.frame())
	require.NoError(t, w.CreateVehicle(k.Now(), 1, modelSedan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	// b drives, c sits beside it.
	b.veh, b.seat, b.pos = 1, 0, wire.Vec3{X: 10}
	c.veh, c.seat, c.pos = 1, 1, wire.Vec3{X: 10}
	require.Equal(t, refserver.VerdictAccepted, b.frame())
	require.Equal(t, refserver.VerdictAccepted, c.frame())
	// a (an enemy of both) hurts b; d hurts c, then d and c join one team.
	require.Equal(t, refserver.VerdictAccepted, a.shoot(b.pos, wire.HitPlayer, b.r.ID()))
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 30))
	require.Equal(t, refserver.VerdictAccepted, d.shoot(c.pos, wire.HitPlayer, c.r.ID()))
	require.Equal(t, refserver.VerdictAccepted, c.hit(d.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: d.shots}, 30))
	const blue teams.TeamID = 5
	require.NoError(t, w.CreateTeam(blue, teams.Team{Name: "blue"}))
	require.NoError(t, w.JoinTeam(c.r.ID(), blue))
	require.NoError(t, w.JoinTeam(d.r.ID(), blue))
	require.True(t, w.Teams().Teammates(c.r.ID(), d.r.ID()))
	tick(t, k)
	for _, x := range s {
		x.r.Clear()
	}
	mark := len(k.Events())

	require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(&wire.VehicleExplode{Vehicle: 1, Attacker: refserver.NoPlayer, Weapon: explosionCause})))
	tick(t, k)
	rx := receivedOf[*wire.RemoteVehicleExplode](c.r)
	require.Len(t, rx, 1)
	require.Equal(t, refserver.NoPlayer, rx[0].Author, "no credited killer: no author")
	require.False(t, rx[0].Stamp.Teammate)
	for _, x := range []*sender{b, c} {
		ph, err := w.Phase(x.r.ID())
		require.NoError(t, err)
		require.Equal(t, lifecycle.PhaseDying, ph, "occupant %d is counted dead", x.r.ID())
	}
	want := map[refserver.PlayerID]refserver.PlayerID{b.r.ID(): a.r.ID(), c.r.ID(): refserver.NoPlayer} // b: its enemy a; c: not its teammate d
	of := func(kind refserver.EventKind) []refserver.Event {
		var out []refserver.Event
		for _, e := range k.Events()[mark:] {
			if e.Kind == kind {
				out = append(out, e)
			}
		}
		return out
	}
	counted := of(refserver.EventDeathCounted)
	require.Len(t, counted, 2)
	for _, e := range counted {
		require.Equal(t, want[e.Player], e.Other, "the killer counted for %d", e.Player)
	}
	for _, x := range []*sender{b, c} {
		x.r.SetSilent(true) // their clients never report: the deadline commits the deaths
	}
	require.NoError(t, k.Advance(6*time.Second))
	deaths := of(refserver.EventPlayerDeath)
	require.Len(t, deaths, 2)
	for _, e := range deaths {
		require.Equal(t, want[e.Player], e.Other, "the killer named for %d", e.Player)
	}
	wasted := receivedOf[*wire.PlayerWasted](a.r)
	require.Len(t, wasted, 2)
	for _, m := range wasted {
		require.Equal(t, want[m.Player], m.Killer, "PlayerWasted's killer of %d", m.Player)
	}
}

// A damage report between teammates is not credited: no player_damage, and it does not
// become the victim's last damage (teams' [teammate-never-credited]; teams.ReportVerdict.Credited), whatever
// kind of damage it is.
func TestReportBetweenTeammatesEarnsNoLastDamage(t *testing.T) {
	const red teams.TeamID = 5
	join := func(t *testing.T, w *refserver.World, a, b *sender) {
		require.NoError(t, w.CreateTeam(red, teams.Team{Name: "red"}))
		require.NoError(t, w.JoinTeam(a.r.ID(), red))
		require.NoError(t, w.JoinTeam(b.r.ID(), red))
	}
	rows := []struct {
		name   string
		report func(t *testing.T, k *simkit.Kit, w *refserver.World, a, b *sender) refserver.Verdict
		detail string
	}{
		{
			name: "a shot stamped teammates",
			report: func(t *testing.T, _ *simkit.Kit, w *refserver.World, a, b *sender) refserver.Verdict {
				join(t, w, a, b)
				require.Equal(t, refserver.VerdictAccepted, a.shoot(b.pos, wire.HitPlayer, b.r.ID()))
				return b.hit(a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 46)
			},
			detail: teams.ReportRefusedTeammateStamp.String(),
		},
		{
			name: "a shot accepted before the two joined one team",
			report: func(t *testing.T, _ *simkit.Kit, w *refserver.World, a, b *sender) refserver.Verdict {
				require.Equal(t, refserver.VerdictAccepted, a.shoot(b.pos, wire.HitPlayer, b.r.ID()))
				join(t, w, a, b)
				return b.hit(a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 46)
			},
			detail: teams.ReportDiscardedTeamChange.String(),
		},
		{
			name: "a teammate's blow",
			report: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, b *sender) refserver.Verdict {
				join(t, w, a, b)
				a.pos = wire.Vec3{X: 9}
				walk(t, k, a, b)
				return b.hit(a.r.ID(), 0, wire.Ref{}, 2)
			},
			detail: teams.ReportRefusedTeammates.String(),
		},
		{
			name: "a teammate's gamemode explosion",
			report: func(t *testing.T, k *simkit.Kit, w *refserver.World, a, b *sender) refserver.Verdict {
				join(t, w, a, b)
				id, err := w.CreateExplosion(k.Now(), a.r.ID(), 2, b.pos, 5)
				require.NoError(t, err)
				tick(t, k)
				return b.hit(a.r.ID(), explosionCause, wire.Ref{Kind: wire.RefEffect, Seq: id}, 30)
			},
			detail: teams.ReportRefusedTeammates.String(),
		},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
			a, b := s[0], s[1]
			v := r.report(t, k, w, a, b)
			last := refserver.LastDamageOf(w, b.r.ID())
			require.False(t, last.Valid, "the refused report is not b's last damage: %+v", last)
			require.Equal(t, refserver.VerdictTeammate, v)
			tick(t, k)
			require.Empty(t, eventsOf(k, refserver.EventPlayerDamage, b.r.ID()), "no player_damage")
			nc := eventsOf(k, refserver.EventReportNotCredited, b.r.ID())
			require.Len(t, nc, 1)
			require.Equal(t, refserver.VerdictTeammate, nc[0].Verdict)
			require.Equal(t, r.detail, nc[0].Detail)
			// b's client then reports its death: nobody is named.
			require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(&wire.DeathReport{DeathEpoch: b.gen, Killer: a.r.ID(), Weapon: deagle})))
			tick(t, k)
			d := eventsOf(k, refserver.EventPlayerDeath, b.r.ID())
			require.Len(t, d, 1)
			require.Equal(t, refserver.NoPlayer, d[0].Other)
		})
	}
}
