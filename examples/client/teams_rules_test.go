package client

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// teams' [teammate-refused-by-victim] on the victim's client: a shot is judged by the stamp its own packet carried;
// everything else by the newest stamp received from its author, whatever packet carried it.

// rival is the remote player whose damage these tests judge.
const rival wire.PlayerID = 3

// rivalFrame is a relayed frame of rival carrying stamp.
func rivalFrame(seq uint16, stamp wire.Stamp) *wire.RemotePlayerSync {
	return &wire.RemotePlayerSync{Player: rival, SyncSeq: seq, Alive: true, Health: 100, Stamp: stamp}
}

var (
	teammateAt = func(rev uint16) wire.Stamp { return wire.Stamp{Teammate: true, Rev: rev} }
	apartAt    = func(rev uint16) wire.Stamp { return wire.Stamp{Rev: rev} }
)

// near is a point d metres from where the harness spawns the client.
func near(d float32) wire.Vec3 {
	p := spawnAt
	p.X += d
	return p
}

// reportsOf returns the damage reports among msgs.
func reportsOf(msgs []wire.Message) []*wire.DamageReport { return of[*wire.DamageReport](msgs) }

func TestVehicleShotIsJudgedByItsOwnStamp(t *testing.T) {
	rows := []struct {
		name   string
		model  uint16
		weapon uint8
		at     wire.Vec3 // where the shot's ray ends
		loss   float32   // what one hit takes
	}{
		{"bullets", 425, 38, spawnAt, 0.33 * 140},
		{"the Rhino cannon's blast", 432, 51, near(3.5), 50},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			h := newHarness(t, Config{})
			h.join()
			h.world.pellets = 1
			h.world.models[22] = r.model
			vshot := func(seq uint16, stamp wire.Stamp) *wire.RemoteVehicleShot {
				return &wire.RemoteVehicleShot{Shooter: rival, Vehicle: 22, ShotSeq: seq, Weapon: r.weapon,
					HitType: wire.HitPlayer, HitID: uint16(selfID), HitPos: r.at, Stamp: stamp}
			}
			// The frames say "teammate" at revision 5, but the shot was fired before that
			// team change (stamped apart at 4): it hits.
			h.send(rivalFrame(1, teammateAt(5)))
			h.send(vshot(1, apartAt(4)))
			require.InDelta(t, StartHealth-r.loss, h.c.Health(), 1e-3, "a shot stamped apart before the team change hits")
			// The frames say "apart" at 6; a shot stamped "teammate" at 5 is refused.
			h.send(rivalFrame(2, apartAt(6)))
			hb := h.c.Health()
			h.send(vshot(2, teammateAt(5)))
			require.Equal(t, hb, h.c.Health(), "a shot stamped teammate is refused, whatever the frames say")
			require.Equal(t, 1, h.c.Counters().HitsRefusedTeammate)
			reps := reportsOf(h.flush())
			require.Len(t, reps, 1, "no report for the refused shot")
			require.Equal(t, wire.Ref{Kind: wire.RefVehicleShot, Seq: 1}, reps[0].Ref)
		})
	}
}

func TestDetonationIsJudgedByTheNewestStampOfItsOwner(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	det := func(seq uint16, stamp wire.Stamp) *wire.RemoteDetonation {
		return &wire.RemoteDetonation{Owner: rival, Projectile: seq, Weapon: 16, Position: near(3.5), Stamp: stamp}
	}
	// The grenade's own packet says "apart" at 4, but the newest stamp (a frame) says
	// "teammate" at 5: refused.
	h.send(rivalFrame(1, teammateAt(5)))
	h.send(det(1, apartAt(4)))
	require.Equal(t, StartHealth, h.c.Health())
	require.Equal(t, 1, h.c.Counters().HitsRefusedTeammate)
	// And the other way round: an old "teammate" in the grenade's packet does not spare the
	// player when the newest stamp says "apart".
	h.send(rivalFrame(2, apartAt(6)))
	h.send(det(2, teammateAt(5)))
	require.InDelta(t, StartHealth-50, h.c.Health(), 1e-3, "half the peak at half the radius")
	reps := reportsOf(h.flush())
	require.Len(t, reps, 1)
	require.Equal(t, wire.Ref{Kind: wire.RefDetonation, Seq: 2}, reps[0].Ref)
	require.Equal(t, rival, reps[0].Attacker)
}

func TestTeammatesFireIsJudgedByTheNewestStampOfItsCreator(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	// A teammate's fire: the CreateFire's own stamp is the newest from its creator.
	h.send(&wire.CreateFire{Effect: 9, Creator: rival, Position: spawnAt, Radius: 2, Stamp: teammateAt(5)})
	r, err := h.c.InFire(h.now, 9, 4)
	require.NoError(t, err)
	require.Equal(t, DamageRefusedTeammate, r.Verdict)
	require.Equal(t, StartHealth, h.c.Health())
	// The creator leaves the team (a frame at 6): the same fire burns the player now.
	h.send(rivalFrame(1, apartAt(6)))
	r, err = h.c.InFire(h.now, 9, 4)
	require.NoError(t, err)
	require.Equal(t, DamageApplied, r.Verdict)
	require.InDelta(t, StartHealth-4, h.c.Health(), 1e-4)
	// A fire stamped "apart" at 6 arriving after a frame that says "teammate" at 7 is a
	// teammate's fire.
	h.send(rivalFrame(2, teammateAt(7)))
	h.send(&wire.CreateFire{Effect: 10, Creator: rival, Position: spawnAt, Radius: 2, Stamp: apartAt(6)})
	r, err = h.c.InFire(h.now, 10, 4)
	require.NoError(t, err)
	require.Equal(t, DamageRefusedTeammate, r.Verdict)
	require.Equal(t, 2, h.c.Counters().HitsRefusedTeammate)
	reps := reportsOf(h.run(h.now+500*time.Millisecond, 10*time.Millisecond))
	require.Len(t, reps, 1, "only the applied tick is reported")
	require.Equal(t, wire.Ref{Kind: wire.RefEffect, Seq: 9}, reps[0].Ref)
	require.InDelta(t, 4, reps[0].Loss, 1e-4)
}

func TestSprayedDamageIsJudgedByTheNewestStampOfItsAttacker(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.send(rivalFrame(1, teammateAt(5)))
	// An older frame arriving later must not bring the old relation back.
	h.send(rivalFrame(2, apartAt(4)))
	for _, w := range []uint8{inventory.CauseFire, inventory.CauseSpraycan, inventory.CauseExtinguisher} {
		r, err := h.c.Sprayed(h.now, rival, w, 3)
		require.NoError(t, err)
		require.Equal(t, DamageRefusedTeammate, r.Verdict, "weapon %d", w)
	}
	require.Equal(t, StartHealth, h.c.Health())
	h.send(rivalFrame(3, apartAt(6)))
	r, err := h.c.Sprayed(h.now, rival, inventory.CauseFire, 3)
	require.NoError(t, err)
	require.Equal(t, DamageApplied, r.Verdict)
	require.Equal(t, 3, h.c.Counters().HitsRefusedTeammate)
	reps := reportsOf(h.run(h.now+500*time.Millisecond, 10*time.Millisecond))
	require.Len(t, reps, 1)
	require.Equal(t, inventory.CauseFire, reps[0].Weapon)
	require.Equal(t, rival, reps[0].Attacker)
}

// [teammate-refused-by-victim]: a stealth kill is judged by the stamp its own packet
// carried, as a shot is: refused when that stamp says teammate; applied when a newer
// stamp of a team change since says teammate, because the server accepted the kill before
// the change and commits the death whatever the client does (in a 200-player match the
// newest-stamp judgement left a victim alive with 36 health while the server committed
// its death).
func TestTeammatesStealthKillIsJudgedByItsOwnStamp(t *testing.T) {
	const knife uint8 = 4 // the one weapon of the default catalogue whose StealthKill is set
	kill := func(stamp wire.Stamp) *wire.RemoteStealthKill {
		return &wire.RemoteStealthKill{Attacker: rival, Victim: selfID, VictimEpoch: 1, Weapon: knife, Stamp: stamp}
	}
	rows := []struct {
		name    string
		msgs    []wire.Message
		refused bool
	}{
		{"its own stamp says teammate", []wire.Message{kill(teammateAt(5))}, true},
		{"a frame's older stamp says apart, its own teammate", []wire.Message{rivalFrame(1, apartAt(4)), kill(teammateAt(5))}, true},
		{"a frame's newer stamp says teammate, its own apart", []wire.Message{rivalFrame(1, teammateAt(5)), kill(apartAt(4))}, false},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			h := newHarness(t, Config{})
			h.join()
			for _, m := range r.msgs {
				h.send(m)
			}
			got := h.run(h.now+DefaultStealthAnim+DeathReportDelay+time.Second, 10*time.Millisecond)
			if r.refused {
				require.Equal(t, 1, h.c.Counters().HitsRefusedTeammate)
				require.True(t, h.c.Alive(), "the victim stays alive")
				require.Equal(t, StartHealth, h.c.Health())
				require.Empty(t, of[*wire.DeathReport](got), "and sends no DeathReport")
				require.Empty(t, reportsOf(got))
				return
			}
			require.Zero(t, h.c.Counters().HitsRefusedTeammate)
			require.False(t, h.c.Alive(), "the victim plays the kill the server accepted")
			require.Len(t, of[*wire.DeathReport](got), 1, "and reports its death")
		})
	}
}

func TestNewerStampInAVehicleFrameOrADetonationChangesTheVerdictForLaterDamage(t *testing.T) {
	vframe := func(seq uint16, stamp wire.Stamp) wire.Message {
		return &wire.RemoteVehicleSync{Vehicle: 40, Driver: rival, SyncSeq: seq, Position: near(100), Rotation: unit,
			Health: 1000, Stamp: stamp}
	}
	far := func(seq uint16, stamp wire.Stamp) wire.Message {
		return &wire.RemoteDetonation{Owner: rival, Projectile: seq, Weapon: 16, Position: near(100), Stamp: stamp}
	}
	rows := []struct {
		name  string
		carry func(seq uint16, stamp wire.Stamp) wire.Message
	}{
		{"a vehicle frame (RemoteVehicleSync)", vframe},
		{"a detonation (RemoteDetonation) that misses", far},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			h := newHarness(t, Config{})
			h.join()
			blow := func() DamageVerdict {
				res, err := h.c.MeleeHit(h.now, rival, 5)
				require.NoError(t, err)
				return res.Verdict
			}
			h.send(rivalFrame(1, apartAt(5)))
			require.Equal(t, DamageApplied, blow())
			h.send(r.carry(1, teammateAt(6)))
			require.Equal(t, DamageRefusedTeammate, blow(), "the newer stamp says teammate")
			ram, err := h.c.Rammed(h.now, rival, 10)
			require.NoError(t, err)
			require.Equal(t, DamageRefusedTeammate, ram.Verdict)
			// An older frame does not bring the old relation back; a newer packet does.
			h.send(rivalFrame(2, apartAt(5)))
			require.Equal(t, DamageRefusedTeammate, blow())
			h.send(r.carry(2, apartAt(7)))
			require.Equal(t, DamageApplied, blow())
			require.Equal(t, 3, h.c.Counters().HitsRefusedTeammate)
			require.Len(t, reportsOf(h.flush()), 2, "one report per applied blow")
		})
	}
}
