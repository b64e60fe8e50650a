package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// The rules of streaming ([streaming]): who sees whom is the interest manager's, and every
// relay and edge of a subject goes only to those that have it shown. These tests drive
// the server through the kit's raw connections; the kit's two bystanders are parked far
// away first (parkBystanders), so that they are nobody's nearest and nobody's edge.

// parkedAt is where parkBystanders sends the kit's bystanders: far beyond the stream
// distance and its margin from every place these tests use.
var parkedAt = wire.Vec3{X: -5000, Y: -5000, Z: simkit.Ground}

// parkBystanders walks the kit's honest bystanders to parkedAt (20 m apart) and lets the
// server accept their frames and every connection's phase slot come due, so that they
// are hidden from every raw connection.
func parkBystanders(t *testing.T, k *simkit.Kit) {
	t.Helper()
	for i, p := range k.Players() {
		pos := parkedAt
		pos.Y += float32(simkit.Spacing * i)
		require.NoError(t, p.MoveTo(pos))
	}
	require.NoError(t, k.Advance(time.Second))
	w := k.Server()
	for _, p := range k.Players() {
		for _, id := range w.Players(nil) {
			if id != p.ID() && int(id) >= len(k.Players()) {
				require.False(t, w.Sees(id, p.ID()), "bystander %d is parked out of %d's sight", p.ID(), id)
			}
		}
	}
}

// streamKit is rawKit of cfg with n raw connections (no round trip) and their senders:
// each spawned at the spawn point past its first frame, the bystanders not parked yet.
func streamKit(t *testing.T, cfg refserver.Config, n int) (*simkit.Kit, *refserver.World, []*sender) {
	t.Helper()
	k, raws := rawKit(t, cfg, 0, n)
	out := make([]*sender, n)
	for i, r := range raws {
		sp, ok := lastOf[*wire.RespawnPlayer](r)
		require.True(t, ok)
		out[i] = &sender{t: t, k: k, r: r, seq: 1, gen: 1, veh: wire.NoVehicle, health: 100, pos: sp.Position}
	}
	return k, k.Server(), out
}

// evaluate lets every connection's phase slot come due once (the default 250 ms).
func evaluate(t *testing.T, k *simkit.Kit) {
	t.Helper()
	for range 6 {
		require.NoError(t, k.Advance(50*time.Millisecond))
	}
}

func shownIDs(r *simkit.Raw) []refserver.PlayerID {
	var out []refserver.PlayerID
	for _, m := range receivedOf[*wire.PlayerShow](r) {
		out = append(out, m.Player)
	}
	return out
}

func hiddenIDs(r *simkit.Raw) []refserver.PlayerID {
	var out []refserver.PlayerID
	for _, m := range receivedOf[*wire.PlayerHide](r) {
		out = append(out, m.Player)
	}
	return out
}

func framesOf(r *simkit.Raw, subject refserver.PlayerID) int {
	n := 0
	for _, m := range receivedOf[*wire.RemotePlayerSync](r) {
		if m.Player == subject {
			n++
		}
	}
	return n
}

// Rule [streaming]: shown within the stream distance, hidden only beyond distance plus
// margin, and only while shown does a recipient get the subject's frames.
func TestStreamShowsWithinDistanceAndHidesBeyondTheMargin(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 2)
	a, b := s[0], s[1]
	require.True(t, w.Sees(a.r.ID(), b.r.ID()), "players standing together see each other from the start")
	require.True(t, w.Sees(b.r.ID(), a.r.ID()))
	parkBystanders(t, k)
	// Along the edge, between 200 and 220 m: kept.
	for _, x := range []float32{150, 205, 215, 201, 219} {
		b.walkTo(wire.Vec3{X: x})
		evaluate(t, k)
		require.True(t, w.Sees(a.r.ID(), b.r.ID()), "at %v m", x)
	}
	a.r.Clear()
	b.walkTo(wire.Vec3{X: 230})
	evaluate(t, k)
	require.False(t, w.Sees(a.r.ID(), b.r.ID()))
	require.False(t, w.Sees(b.r.ID(), a.r.ID()))
	require.Equal(t, []refserver.PlayerID{b.r.ID()}, hiddenIDs(a.r))
	a.r.Clear()
	b.walkTo(wire.Vec3{X: 231})
	tick(t, k)
	require.Zero(t, framesOf(a.r, b.r.ID()), "no frames of a hidden subject")
	// Back within 210 m: not yet (it must come within the distance); at 190 m: shown
	// again, with its current state.
	b.walkTo(wire.Vec3{X: 210})
	evaluate(t, k)
	require.False(t, w.Sees(a.r.ID(), b.r.ID()))
	b.walkTo(wire.Vec3{X: 190})
	evaluate(t, k)
	require.True(t, w.Sees(a.r.ID(), b.r.ID()))
	shows := receivedOf[*wire.PlayerShow](a.r)
	require.Len(t, shows, 1)
	require.Equal(t, wire.Vec3{X: 190}, shows[0].Position)
	require.True(t, shows[0].Alive)
	a.r.Clear()
	b.walkTo(wire.Vec3{X: 189})
	tick(t, k)
	require.Equal(t, 1, framesOf(a.r, b.r.ID()), "its frames again")
}

// die is the gamemode setting p's health to 0 and p's game reporting its death with pose
// (no killer, no weapon): the ledger counts the death.
func die(t *testing.T, k *simkit.Kit, p *sender, pose lifecycle.Pose) {
	t.Helper()
	require.NoError(t, k.Server().SetHealth(k.Now(), p.r.ID(), 0))
	require.Equal(t, refserver.VerdictAccepted, must(t)(p.r.Send(&wire.DeathReport{DeathEpoch: p.gen, Killer: refserver.NoPlayer,
		Weapon: 255, Pose: uint8(pose)})))
	p.health = 0
}

// Rule [stream-edges]: PlayerWasted and
// PlayerSpawned reach the recipients that have the subject shown, and nobody else.
func TestStreamEdgesGoToWhoeverHasTheSubjectShown(t *testing.T) {
	cfg := refserver.Config{RespawnDelay: time.Millisecond}
	k, w, s := streamKit(t, cfg, 3)
	a, b, c := s[0], s[1], s[2]
	parkBystanders(t, k)
	c.walkTo(wire.Vec3{X: 1000})
	evaluate(t, k)
	require.False(t, w.Sees(c.r.ID(), b.r.ID()))
	require.True(t, w.Sees(a.r.ID(), b.r.ID()))
	a.r.Clear()
	c.r.Clear()
	die(t, k, b, 0)
	tick(t, k)
	require.NoError(t, k.Advance(cfg.RespawnDelay))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.r.Send(&wire.RespawnRequest{DeathEpoch: b.gen})), "respawn request")
	tick(t, k)
	sp, ok := lastOf[*wire.RespawnPlayer](b.r)
	require.True(t, ok, "b was sent its respawn")
	require.Equal(t, b.gen+1, sp.DeathEpoch)
	b.gen, b.health = sp.DeathEpoch, 100
	b.walkTo(sp.Position)
	tick(t, k)
	require.Len(t, receivedOf[*wire.PlayerWasted](a.r), 1)
	require.Len(t, receivedOf[*wire.PlayerSpawned](a.r), 1)
	require.Empty(t, receivedOf[*wire.PlayerWasted](c.r), "c does not have the subject shown")
	require.Empty(t, receivedOf[*wire.PlayerSpawned](c.r))
}

// Rule [stream-late-show] (lifecycle's [show-current-state]): a recipient that did not have the subject shown
// when it died gets no edge; the show, once it comes within the distance, carries the life
// and the death pose.
func TestStreamLateShowCarriesTheLifeAndTheDeathPose(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 2)
	a, b := s[0], s[1]
	parkBystanders(t, k)
	b.walkTo(wire.Vec3{X: 500})
	evaluate(t, k)
	require.False(t, w.Sees(a.r.ID(), b.r.ID()))
	die(t, k, b, lifecycle.PoseDrown)
	tick(t, k)
	a.r.Clear()
	// a walks up to the corpse.
	a.walkTo(wire.Vec3{X: 400})
	evaluate(t, k)
	require.True(t, w.Sees(a.r.ID(), b.r.ID()))
	require.Empty(t, receivedOf[*wire.PlayerWasted](a.r), "no edge of a subject it did not see")
	shows := receivedOf[*wire.PlayerShow](a.r)
	require.Len(t, shows, 1)
	require.Equal(t, b.r.ID(), shows[0].Player)
	require.False(t, shows[0].Alive, "shown lying dead")
	require.Zero(t, shows[0].Health)
	require.Equal(t, uint8(lifecycle.PoseDrown), shows[0].Pose, "in the pose its death was reported with")
}

// Rule [stream-shots] (the shot rewind's relay, friendly fire's stamp): a shot goes, with its stamp and a
// near recipient's rewound pose, to each recipient that has the shooter shown, and to no
// other, even one the ray passed near.
func TestStreamShotGoesToThoseThatHaveTheShooterShown(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{Stream: refserver.StreamConfig{Cap: 1}}, m4, 0, 4)
	a, b, c, d := s[0], s[1], s[2], s[3]
	parkBystanders(t, k)
	// The shooter a at the origin; b 40 m away with d 1 m beside it (b's one shown player
	// is d, nearer than a by more than the margin); c 30 m from a on the other side, its
	// nearest a.
	b.walkTo(wire.Vec3{X: 40})
	d.walkTo(wire.Vec3{X: 40, Y: 1})
	c.walkTo(wire.Vec3{X: -30})
	evaluate(t, k)
	require.True(t, w.Sees(b.r.ID(), d.r.ID()))
	require.False(t, w.Sees(b.r.ID(), a.r.ID()), "b's cap holds d")
	require.True(t, w.Sees(c.r.ID(), a.r.ID()))
	b.r.Clear()
	c.r.Clear()
	// A ray through b, and one through c.
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 60}, wire.HitPlayer, b.r.ID()))
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: -40}, wire.HitPlayer, c.r.ID()))
	tick(t, k)
	require.Empty(t, receivedOf[*wire.RemoteWeaponShot](b.r), "the ray passed near b, but b does not have the shooter shown")
	got := receivedOf[*wire.RemoteWeaponShot](c.r)
	require.Len(t, got, 2, "c has the shooter shown: both shots")
	rewound := 0
	for _, m := range got {
		require.Equal(t, w.Teams().Rev(), m.Stamp.Rev, "stamped for c")
		if m.Rewind.Valid {
			rewound++
		}
	}
	require.Equal(t, 1, rewound, "its own rewound pose for the ray that passed near it")
}

// Rule [stream-reports]: a victim that had the shooter shown when the
// shot was relayed gets its report credited even if the shooter is hidden from it before
// the report arrives, within the shot credit's window.
func TestStreamReportAgainstAShooterHiddenSinceIsCredited(t *testing.T) {
	k, w, s := duelOf(t, refserver.Config{}, deagle, 0, 2)
	a, b := s[0], s[1]
	parkBystanders(t, k)
	require.True(t, w.Sees(b.r.ID(), a.r.ID()))
	require.Equal(t, refserver.VerdictAccepted, a.shoot(wire.Vec3{X: 10}, wire.HitPlayer, b.r.ID()))
	tick(t, k)
	require.Len(t, receivedOf[*wire.RemoteWeaponShot](b.r), 1)
	// The shooter runs off (a vehicle, a teleport) and is hidden from the victim.
	a.walkTo(wire.Vec3{X: 1000})
	require.NoError(t, k.Advance(260*time.Millisecond))
	require.False(t, w.Sees(b.r.ID(), a.r.ID()))
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shots}, 46.2))
	tick(t, k)
	dmg := k.EventsOf(refserver.EventPlayerDamage)
	require.Len(t, dmg, 1)
	require.Equal(t, b.r.ID(), dmg[0].Player)
	require.Equal(t, a.r.ID(), dmg[0].Other, "credited to the shooter")
	require.Empty(t, k.EventsOf(refserver.EventReportNotCredited))
}

// StreamConfig.Everyone is today's behaviour: everybody sees everybody, whatever the
// distance.
func TestStreamEveryoneSeesEverybodyAtAnyDistance(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{Stream: refserver.StreamConfig{Everyone: true}}, 2)
	a, b := s[0], s[1]
	b.walkTo(wire.Vec3{X: 5000})
	evaluate(t, k)
	require.True(t, w.Sees(a.r.ID(), b.r.ID()))
	a.r.Clear()
	b.walkTo(wire.Vec3{X: 5001})
	tick(t, k)
	require.Equal(t, 1, framesOf(a.r, b.r.ID()))
}

// Leaving hides the player from exactly those that had it shown.
func TestStreamLeaveHidesFromThoseThatHadItShown(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 3)
	a, b, c := s[0], s[1], s[2]
	parkBystanders(t, k)
	c.walkTo(wire.Vec3{X: 1000})
	evaluate(t, k)
	a.r.Clear()
	c.r.Clear()
	require.NoError(t, w.Kick(k.Now(), b.r.ID()))
	tick(t, k)
	require.Equal(t, []refserver.PlayerID{b.r.ID()}, hiddenIDs(a.r))
	require.Empty(t, hiddenIDs(c.r))
	require.Empty(t, shownIDs(c.r))
}

// Rule [stream-edges]: an accepted stealth kill is played by its victim and its attacker,
// and seen by every connection that has the victim shown; one that does not, gets nothing.
func TestStreamStealthKillGoesToThoseThatHaveTheVictimShown(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 4)
	a, b, c, d := s[0], s[1], s[2], s[3]
	parkBystanders(t, k)
	c.walkTo(wire.Vec3{X: 50})
	d.walkTo(wire.Vec3{X: 1000})
	evaluate(t, k)
	require.True(t, w.Sees(c.r.ID(), b.r.ID()))
	require.False(t, w.Sees(d.r.ID(), b.r.ID()))
	require.NoError(t, w.GiveWeapon(k.Now(), a.r.ID(), knife, 1, true))
	a.weapon = knife
	for range 3 {
		require.NoError(t, k.Advance(100*time.Millisecond))
		a.pos = wire.Vec3{X: 1}
		require.Equal(t, refserver.VerdictAccepted, a.frame())
		require.Equal(t, refserver.VerdictAccepted, b.frame())
	}
	for _, p := range s {
		p.r.Clear()
	}
	claim := &wire.StealthKill{Victim: b.r.ID(), VictimEpoch: b.gen, DeathEpoch: a.gen, Weapon: knife}
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.r.Send(claim)))
	tick(t, k)
	for _, p := range []*sender{a, b, c} {
		got := receivedOf[*wire.RemoteStealthKill](p.r)
		require.Len(t, got, 1, "%s plays or sees the kill", p.r.Name())
		require.Equal(t, b.r.ID(), got[0].Victim)
	}
	require.Empty(t, receivedOf[*wire.RemoteStealthKill](d.r), "d does not have the victim shown")
}
