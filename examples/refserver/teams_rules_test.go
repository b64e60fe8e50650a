package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

// Weapons and vehicles the team tests use (besides combat_test.go's deagle and m4).
const (
	grenade     uint8  = 16
	knife       uint8  = 4
	minigun     uint8  = 38  // the Hunter's guns
	modelHunter uint16 = 425 // a vehicle with bullet guns
	modelSedan  uint16 = 411 // a vehicle without guns
)

// teamTrio is three spawned players: a (0) and b (1) in one team with friendly fire off,
// c (2) in none. a stands at the origin with an M4, b 10 m along X, c 30 m along Y; each
// has a second of frames there (a rewind history), and nothing is left to receive.
func teamTrio(t *testing.T) (h *harness, a, b, c *tclient) {
	t.Helper()
	h = newHarness(t, testConfig())
	a, b, c = h.join(0), h.join(1), h.join(2)
	for _, x := range []*tclient{a, b, c} {
		h.spawn(x)
	}
	require.NoError(t, h.w.CreateTeam(3, teams.Team{Name: "green"}))
	require.NoError(t, h.w.JoinTeam(0, 3))
	require.NoError(t, h.w.JoinTeam(1, 3))
	h.give(a, m4, 300)
	a.pos, b.pos, c.pos = wire.Vec3{}, wire.Vec3{X: 10}, wire.Vec3{Y: 30}
	walk(h, a, b, c)
	require.True(t, h.w.Teams().Teammates(0, 1))
	require.False(t, h.w.Teams().Teammates(0, 2))
	require.False(t, h.w.Teams().Teammates(1, 2))
	h.flush()
	for _, x := range []*tclient{a, b, c} {
		x.reset()
	}
	h.clearEvents()
	return h, a, b, c
}

// walk sends a second of frames, one every 100 ms, of every player at its position.
func walk(h *harness, xs ...*tclient) {
	h.t.Helper()
	for range 12 {
		h.now += 100 * time.Millisecond
		for _, x := range xs {
			require.Equal(h.t, VerdictAccepted, h.frame(x))
		}
	}
}

// stamped is the stamp of one message a recipient got from the sender under test, and
// whether it was the recipient's own copy (a shot with its rewound pose).
type stamped struct {
	stamp wire.Stamp
	own   bool
}

// from returns, for every message of type T the client got whose sender is id, what
// stamped says.
func from[T wire.Message](c *tclient, id PlayerID, sender func(T) PlayerID, st func(T) stamped) []stamped {
	var out []stamped
	for _, m := range received[T](c) {
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
		act func(t *testing.T, h *harness, a, b, c *tclient)
		// got returns what client x got from a.
		got func(x *tclient) []stamped
		// senderCopy: the sender gets a copy too (a reliable broadcast, not a relay).
		senderCopy bool
		// near is the recipient the shot's ray passes near: it gets its own copy, with
		// its rewound pose; NoPlayer when the action is not a shot.
		near PlayerID
	}
	plain := func(s wire.Stamp) stamped { return stamped{stamp: s} }
	weaponShots := func(x *tclient) []stamped {
		return from(x, 0, func(m *wire.RemoteWeaponShot) PlayerID { return m.Shooter },
			func(m *wire.RemoteWeaponShot) stamped { return stamped{m.Stamp, m.Rewind.Valid} })
	}
	vehicleShots := func(x *tclient) []stamped {
		return from(x, 0, func(m *wire.RemoteVehicleShot) PlayerID { return m.Shooter },
			func(m *wire.RemoteVehicleShot) stamped { return stamped{m.Stamp, m.Rewind.Valid} })
	}
	// board puts a in the driver's seat of a Hunter at the origin.
	board := func(t *testing.T, h *harness, a *tclient) {
		require.NoError(t, h.w.CreateVehicle(h.now, 2, modelHunter, a.pos, wire.Quat{W: 1}))
		a.vehicle, a.seat = 2, 0
		require.Equal(t, VerdictAccepted, h.frame(a))
	}
	vehicleShot := func(t *testing.T, h *harness, a *tclient, end wire.Vec3) {
		board(t, h, a)
		a.shotSeq++
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.VehicleShot{ShotSeq: a.shotSeq, DeathEpoch: a.gen,
			PropertiesRev: h.w.catalog.Revision(), Vehicle: 2, Weapon: minigun, HitType: wire.HitNone, Origin: a.pos, HitPos: end}))
	}
	launch := func(t *testing.T, h *harness, a *tclient) {
		require.NoError(t, h.w.GiveWeapon(h.now, 0, grenade, 3, false))
		h.flush()
		require.Equal(t, VerdictAccepted, h.frame(a))
		require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.ProjectileLaunch{Projectile: 1, DeathEpoch: a.gen,
			Weapon: grenade, Vehicle: wire.NoVehicle, Target: wire.NoVehicle, Origin: a.pos, Velocity: wire.Vec3{X: 10}}))
	}
	rows := []row{
		{
			name: "player frame",
			act: func(t *testing.T, h *harness, a, _, _ *tclient) {
				require.Equal(t, VerdictAccepted, h.frame(a))
			},
			got: func(x *tclient) []stamped {
				return from(x, 0, func(m *wire.RemotePlayerSync) PlayerID { return m.Player },
					func(m *wire.RemotePlayerSync) stamped { return plain(m.Stamp) })
			},
			near: NoPlayer,
		},
		{
			name: "vehicle frame (RemoteVehicleSync, the driver's stamp)",
			act: func(t *testing.T, h *harness, a, _, _ *tclient) {
				require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSedan, a.pos, wire.Quat{W: 1}))
				a.vehicle, a.seat = 1, 0
				require.Equal(t, VerdictAccepted, h.frame(a))
				require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.VehicleSync{Seq: 1, Vehicle: 1, Position: a.pos,
					Rotation: wire.Quat{W: 1}, Health: 1000}))
			},
			got: func(x *tclient) []stamped {
				return from(x, 0, func(m *wire.RemoteVehicleSync) PlayerID { return m.Driver },
					func(m *wire.RemoteVehicleSync) stamped { return plain(m.Stamp) })
			},
			near: NoPlayer,
		},
		{
			name: "weapon shot near the teammate (its own copy; the outsider's shared)",
			act: func(t *testing.T, h *harness, a, _, _ *tclient) {
				require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 20}, wire.HitNone, 0))
			},
			got:  weaponShots,
			near: 1,
		},
		{
			name: "weapon shot near the outsider (its own copy; the teammate's shared)",
			act: func(t *testing.T, h *harness, a, _, _ *tclient) {
				require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{Y: 40}, wire.HitNone, 0))
			},
			got:  weaponShots,
			near: 2,
		},
		{
			name: "vehicle shot near the teammate (its own copy; the outsider's shared)",
			act: func(t *testing.T, h *harness, a, _, _ *tclient) {
				vehicleShot(t, h, a, wire.Vec3{X: 20})
			},
			got:  vehicleShots,
			near: 1,
		},
		{
			name: "vehicle shot near the outsider (its own copy; the teammate's shared)",
			act: func(t *testing.T, h *harness, a, _, _ *tclient) {
				vehicleShot(t, h, a, wire.Vec3{Y: 40})
			},
			got:  vehicleShots,
			near: 2,
		},
		{
			name: "projectile (RemoteProjectile)",
			act: func(t *testing.T, h *harness, a, _, _ *tclient) {
				launch(t, h, a)
			},
			got: func(x *tclient) []stamped {
				return from(x, 0, func(m *wire.RemoteProjectile) PlayerID { return m.Owner },
					func(m *wire.RemoteProjectile) stamped { return plain(m.Stamp) })
			},
			near: NoPlayer,
		},
		{
			name: "detonation (RemoteDetonation)",
			act: func(t *testing.T, h *harness, a, _, _ *tclient) {
				launch(t, h, a)
				require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.Detonation{Projectile: 1, DeathEpoch: a.gen,
					Weapon: grenade, Position: wire.Vec3{X: 5}}))
			},
			got: func(x *tclient) []stamped {
				return from(x, 0, func(m *wire.RemoteDetonation) PlayerID { return m.Owner },
					func(m *wire.RemoteDetonation) stamped { return plain(m.Stamp) })
			},
			near: NoPlayer,
		},
		{
			name: "stealth kill of the outsider (RemoteStealthKill)",
			act: func(t *testing.T, h *harness, a, b, c *tclient) {
				require.NoError(t, h.w.GiveWeapon(h.now, 0, knife, 1, true))
				h.flush()
				c.pos = wire.Vec3{X: 1}
				walk(h, a, b, c)
				require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.StealthKill{Victim: 2, VictimEpoch: c.gen,
					DeathEpoch: a.gen, Weapon: knife}))
			},
			got: func(x *tclient) []stamped {
				return from(x, 0, func(m *wire.RemoteStealthKill) PlayerID { return m.Attacker },
					func(m *wire.RemoteStealthKill) stamped { return plain(m.Stamp) })
			},
			senderCopy: true,
			near:       NoPlayer,
		},
		{
			name: "vehicle explosion reported by the outsider, stamped with its author (RemoteVehicleExplode)",
			act: func(t *testing.T, h *harness, a, _, c *tclient) {
				require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSedan, c.pos, wire.Quat{W: 1}))
				c.vehicle, c.seat = 1, 0
				require.Equal(t, VerdictAccepted, h.frame(c))
				require.Equal(t, VerdictAccepted, h.shoot(a, c.pos, wire.HitVehicle, 1))
				require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 2, &wire.VehicleExplode{Vehicle: 1, Attacker: 0, Weapon: 51}))
			},
			got: func(x *tclient) []stamped {
				return from(x, 0, func(m *wire.RemoteVehicleExplode) PlayerID { return m.Author },
					func(m *wire.RemoteVehicleExplode) stamped { return plain(m.Stamp) })
			},
			senderCopy: true,
			near:       NoPlayer,
		},
		{
			name: "gamemode explosion with a creator (CreateExplosion)",
			act: func(t *testing.T, h *harness, _, _, _ *tclient) {
				_, err := h.w.CreateExplosion(h.now, 0, 2, wire.Vec3{X: 5}, 5)
				require.NoError(t, err)
			},
			got: func(x *tclient) []stamped {
				return from(x, 0, func(m *wire.CreateExplosion) PlayerID { return m.Creator },
					func(m *wire.CreateExplosion) stamped { return plain(m.Stamp) })
			},
			senderCopy: true,
			near:       NoPlayer,
		},
		{
			name: "gamemode fire with a creator (CreateFire)",
			act: func(t *testing.T, h *harness, _, _, _ *tclient) {
				_, err := h.w.CreateFire(h.now, 0, wire.Vec3{X: 5}, 3)
				require.NoError(t, err)
			},
			got: func(x *tclient) []stamped {
				return from(x, 0, func(m *wire.CreateFire) PlayerID { return m.Creator },
					func(m *wire.CreateFire) stamped { return plain(m.Stamp) })
			},
			senderCopy: true,
			near:       NoPlayer,
		},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			h, a, b, c := teamTrio(t)
			rev := h.w.Teams().Rev()
			require.NotZero(t, rev)
			r.act(t, h, a, b, c)
			require.Equal(t, rev, h.w.Teams().Rev(), "the action changed no relation")
			h.flush()
			for _, x := range []*tclient{a, b, c} {
				got := r.got(x)
				if x == a && !r.senderCopy {
					require.Empty(t, got, "the sender gets no copy of its own relay")
					continue
				}
				require.Len(t, got, 1, "recipient %d gets one copy", x.id)
				want := wire.Stamp{Teammate: x == b, Rev: rev}
				require.Equal(t, wire.Stamp(h.w.Teams().Stamp(0, x.id)), want, "the registry's relation")
				require.Equal(t, want, got[0].stamp, "recipient %d's stamp", x.id)
				require.Equal(t, x.id == r.near, got[0].own, "recipient %d's own copy (its rewound pose)", x.id)
			}
		})
	}
}

// The killer of a counted death is judged by the relation when the death was counted and
// when it is committed (teams' [teammate-never-credited], teams.Registry.JudgeKiller): a teammate at either moment
// is never named; a player apart at both is, whatever happened between.
func TestKillerIsJudgedByTheRelationWhenTheDeathWasCountedAndAtTheCommit(t *testing.T) {
	rows := []struct {
		name string
		// count counts b's death by the ledger, with a the attacker of its last damage.
		count func(t *testing.T, h *harness, a, b *tclient)
		// after changes the teams between the count and the commit.
		after   func(t *testing.T, h *harness)
		counted PlayerID // the killer the count names (death_counted)
		killer  PlayerID // the killer the commit names (player_death, PlayerWasted)
	}{
		{
			name: "teammates when counted, apart at the commit",
			count: func(t *testing.T, h *harness, a, b *tclient) {
				require.Equal(t, VerdictAccepted, h.shoot(a, b.pos, wire.HitPlayer, 1))
				require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 40))
				greenTeam(t, h)                                // players 0 and 1 become teammates
				require.NoError(t, h.w.SetHealth(h.now, 1, 0)) // the ledger at 0: counted
			},
			after: func(t *testing.T, h *harness) {
				require.NoError(t, h.w.LeaveTeam(0))
			},
			counted: NoPlayer,
			killer:  NoPlayer,
		},
		{
			name: "apart when counted, teammates at the commit",
			count: func(t *testing.T, h *harness, a, b *tclient) {
				lethal(t, h, a, b)
			},
			after: func(t *testing.T, h *harness) {
				greenTeam(t, h) // players 0 and 1 become teammates
			},
			counted: 0,
			killer:  NoPlayer,
		},
		{
			name: "apart when counted and at the commit, teammates in between",
			count: func(t *testing.T, h *harness, a, b *tclient) {
				lethal(t, h, a, b)
			},
			after: func(t *testing.T, h *harness) {
				greenTeam(t, h) // players 0 and 1 become teammates
				require.NoError(t, h.w.LeaveTeam(1))
			},
			counted: 0,
			killer:  0,
		},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			h, a, b := duel(t, deagle)
			r.count(t, h, a, b)
			ph, err := h.w.Phase(1)
			require.NoError(t, err)
			require.Equal(t, lifecycle.PhaseDying, ph, "the ledger counted the death")
			last := h.w.players[1].vit.LastDamage()
			require.True(t, last.Valid)
			require.Equal(t, PlayerID(0), last.Attacker, "a's damage is b's last")
			dc := h.events(EventDeathCounted)
			require.Len(t, dc, 1)
			require.Equal(t, r.counted, dc[0].Other, "the killer named at the count")
			r.after(t, h)
			// b's client never reports: the deadline commits the death.
			b.silent = true
			for i := 0; i < 60 && len(h.events(EventPlayerDeath)) == 0; i++ {
				h.step(100 * time.Millisecond)
			}
			d := h.events(EventPlayerDeath)
			require.Len(t, d, 1)
			require.Equal(t, lifecycle.CommitByServer, d[0].Commit)
			require.Equal(t, r.killer, d[0].Other, "player_death's killer")
			w := received[*wire.PlayerWasted](a)
			require.Len(t, w, 1)
			require.Equal(t, r.killer, w[0].Killer, "PlayerWasted's killer")
		})
	}
}

// A vehicle explosion without a credited killer has no author and kills everyone inside;
// the attacker of an occupant's last damage is its killer, unless it is the occupant's
// teammate (teams' [explosion-spares-teammates], [teammate-never-credited]).
func TestExplosionWithoutAKillerKillsEveryoneInsideNamingTheLastAttackerButNeverATeammate(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b, c, d := h.join(0), h.join(1), h.join(2), h.join(3)
	for _, x := range []*tclient{a, b, c, d} {
		h.spawn(x)
	}
	h.give(a, deagle, 10)
	h.give(d, deagle, 10)
	d.pos = wire.Vec3{Y: 5}
	require.Equal(t, VerdictAccepted, h.frame(d))
	require.NoError(t, h.w.CreateVehicle(h.now, 1, modelSedan, wire.Vec3{X: 10}, wire.Quat{W: 1}))
	// b drives, c sits beside it.
	b.vehicle, b.seat, b.pos = 1, 0, wire.Vec3{X: 10}
	c.vehicle, c.seat, c.pos = 1, 1, wire.Vec3{X: 10}
	require.Equal(t, VerdictAccepted, h.frame(b))
	require.Equal(t, VerdictAccepted, h.frame(c))
	// a (an enemy of both) hurts b; d hurts c, then d and c join one team.
	require.Equal(t, VerdictAccepted, h.shoot(a, b.pos, wire.HitPlayer, 1))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 30))
	require.Equal(t, VerdictAccepted, h.shoot(d, c.pos, wire.HitPlayer, 2))
	require.Equal(t, VerdictAccepted, h.hit(c, 3, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: d.shotSeq}, 30))
	require.NoError(t, h.w.CreateTeam(5, teams.Team{Name: "blue"}))
	require.NoError(t, h.w.JoinTeam(2, 5))
	require.NoError(t, h.w.JoinTeam(3, 5))
	require.True(t, h.w.Teams().Teammates(2, 3))
	h.flush()
	h.clearEvents()

	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.VehicleExplode{Vehicle: 1, Attacker: NoPlayer, Weapon: 51}))
	h.flush()
	rx := received[*wire.RemoteVehicleExplode](c)
	require.Len(t, rx, 1)
	require.Equal(t, NoPlayer, rx[0].Author, "no credited killer: no author")
	require.False(t, rx[0].Stamp.Teammate)
	for _, id := range []PlayerID{1, 2} {
		ph, err := h.w.Phase(PlayerID(id))
		require.NoError(t, err)
		require.Equal(t, lifecycle.PhaseDying, ph, "occupant %d is counted dead", id)
	}
	want := map[PlayerID]PlayerID{1: 0, 2: NoPlayer} // b: its enemy a; c: not its teammate d
	counted := h.events(EventDeathCounted)
	require.Len(t, counted, 2)
	for _, e := range counted {
		require.Equal(t, want[e.Player], e.Other, "the killer counted for %d", e.Player)
	}
	for range 60 {
		h.step(100 * time.Millisecond)
	}
	deaths := h.events(EventPlayerDeath)
	require.Len(t, deaths, 2)
	for _, e := range deaths {
		require.Equal(t, want[e.Player], e.Other, "the killer named for %d", e.Player)
	}
	wasted := received[*wire.PlayerWasted](a)
	require.Len(t, wasted, 2)
	for _, m := range wasted {
		require.Equal(t, want[m.Player], m.Killer, "PlayerWasted's killer of %d", m.Player)
	}
}

// A damage report between teammates is not credited: no player_damage, and it does not
// become the victim's last damage (teams' [teammate-never-credited]; teams.ReportVerdict.Credited), whatever
// kind of damage it is.
func TestReportBetweenTeammatesEarnsNoLastDamage(t *testing.T) {
	join := func(t *testing.T, h *harness) {
		require.NoError(t, h.w.CreateTeam(1, teams.Team{Name: "red"}))
		require.NoError(t, h.w.JoinTeam(0, 1))
		require.NoError(t, h.w.JoinTeam(1, 1))
	}
	rows := []struct {
		name   string
		report func(t *testing.T, h *harness, a, b *tclient) Verdict
		detail string
	}{
		{
			name: "a shot stamped teammates",
			report: func(t *testing.T, h *harness, a, b *tclient) Verdict {
				join(t, h)
				require.Equal(t, VerdictAccepted, h.shoot(a, b.pos, wire.HitPlayer, 1))
				return h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 46)
			},
			detail: teams.ReportRefusedTeammateStamp.String(),
		},
		{
			name: "a shot accepted before the two joined one team",
			report: func(t *testing.T, h *harness, a, b *tclient) Verdict {
				require.Equal(t, VerdictAccepted, h.shoot(a, b.pos, wire.HitPlayer, 1))
				join(t, h)
				return h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 46)
			},
			detail: teams.ReportDiscardedTeamChange.String(),
		},
		{
			name: "a teammate's blow",
			report: func(t *testing.T, h *harness, a, b *tclient) Verdict {
				join(t, h)
				a.pos = wire.Vec3{X: 9}
				walk(h, a, b)
				return h.hit(b, 0, 0, wire.Ref{}, 2)
			},
			detail: teams.ReportRefusedTeammates.String(),
		},
		{
			name: "a teammate's gamemode explosion",
			report: func(t *testing.T, h *harness, _, b *tclient) Verdict {
				join(t, h)
				id, err := h.w.CreateExplosion(h.now, 0, 2, b.pos, 5)
				require.NoError(t, err)
				h.flush()
				return h.hit(b, 0, 51, wire.Ref{Kind: wire.RefEffect, Seq: id}, 30)
			},
			detail: teams.ReportRefusedTeammates.String(),
		},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			h, a, b := duel(t, deagle)
			v := r.report(t, h, a, b)
			last := h.w.players[1].vit.LastDamage()
			require.False(t, last.Valid, "the refused report is not b's last damage: %+v", last)
			require.Equal(t, VerdictTeammate, v)
			require.Empty(t, h.events(EventPlayerDamage), "no player_damage")
			nc := h.events(EventReportNotCredited)
			require.Len(t, nc, 1)
			require.Equal(t, VerdictTeammate, nc[0].Verdict)
			require.Equal(t, r.detail, nc[0].Detail)
			// b's client then reports its death: nobody is named.
			require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 1, &wire.DeathReport{DeathEpoch: b.gen, Killer: 0, Weapon: deagle}))
			d := h.events(EventPlayerDeath)
			require.Len(t, d, 1)
			require.Equal(t, NoPlayer, d[0].Other)
		})
	}
}

// greenTeam puts players 0 and 1 in team 3 (friendly fire off): teammates from now.
func greenTeam(t *testing.T, h *harness) {
	t.Helper()
	require.NoError(t, h.w.CreateTeam(3, teams.Team{Name: "green"}))
	require.NoError(t, h.w.JoinTeam(0, 3))
	require.NoError(t, h.w.JoinTeam(1, 3))
}
