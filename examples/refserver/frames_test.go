package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

func TestHelloCreatesThePlayerInEveryPackageAndShowsEveryone(t *testing.T) {
	h := newHarness(t, testConfig())
	a := h.join(0)
	welcome := received[*wire.Welcome](a)
	require.Len(t, welcome, 1)
	require.Equal(t, PlayerID(0), welcome[0].Player)
	tok, err := h.w.Token(0)
	require.NoError(t, err)
	require.Equal(t, tok, welcome[0].PlayerToken)

	b := h.join(1)
	// Each sees the other: the newcomer gets a show of the old player, the old player one
	// of the newcomer, both built from the lifecycle's snapshot (unspawned: not alive).
	showsB := received[*wire.PlayerShow](b)
	require.Len(t, showsB, 1)
	require.Equal(t, PlayerID(0), showsB[0].Player)
	require.Equal(t, tok, showsB[0].PlayerToken)
	require.False(t, showsB[0].Alive)
	showsA := received[*wire.PlayerShow](a)
	require.Len(t, showsA, 1)
	require.Equal(t, PlayerID(1), showsA[0].Player)

	// A repeated Hello gets the same Welcome again and creates nothing.
	require.Equal(t, VerdictIgnored, h.w.Handle(h.now, 1, &wire.Hello{}))
	h.flush()
	require.Len(t, received[*wire.Welcome](b), 2)
	require.Equal(t, []PlayerID{0, 1}, h.w.Players(nil))
	ph, err := h.w.Phase(1)
	require.NoError(t, err)
	require.Equal(t, lifecycle.PhaseUnspawned, ph)
	require.Len(t, h.events(EventPlayerJoin), 2)
}

func TestDatagramsOfUnknownConnectionsAreRefused(t *testing.T) {
	h := newHarness(t, testConfig())
	b, err := (&wire.PlayerSync{Vehicle: wire.NoVehicle}).Append(nil)
	require.NoError(t, err)
	require.ErrorIs(t, h.w.Receive(h.now, 3, b), ErrUnknownPlayer)
	require.ErrorIs(t, h.w.Receive(h.now, 999, b), ErrUnknownPlayer)
	require.Error(t, h.w.Receive(h.now, 3, []byte{1}))
	require.Equal(t, VerdictUnknownConnection, h.w.Handle(h.now, 3, &wire.PlayerSync{Vehicle: wire.NoVehicle}))
	require.Empty(t, h.w.Players(nil))
	require.NotEmpty(t, h.events(EventInputRefused))
}

func TestConnectSpawnGrantsAndFirstLivingFrameRaisesPlayerSpawn(t *testing.T) {
	h := newHarness(t, testConfig())
	a := h.join(0)
	b := h.join(1)
	h.spawn(a)
	r := received[*wire.RespawnPlayer](a)
	require.Len(t, r, 1)
	sp := received[*wire.PlayerSpawned](b)
	require.Len(t, sp, 1)
	require.Equal(t, PlayerID(0), sp[0].Player)
	require.Equal(t, r[0].DeathEpoch, sp[0].DeathEpoch)
	spawns := h.events(EventPlayerSpawn)
	require.Len(t, spawns, 1)
	require.True(t, spawns[0].Connect)
	require.True(t, h.w.Alive(0))
}

func TestRelayedFrameCarriesServerLifeStateLedgerHealthAndStamp(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b, c := h.join(0), h.join(1), h.join(2)
	h.spawn(a)
	h.spawn(b)
	h.spawn(c)
	require.NoError(t, h.w.CreateTeam(7, teams.Team{Name: "blue"}))
	require.NoError(t, h.w.JoinTeam(0, 7))
	require.NoError(t, h.w.JoinTeam(1, 7))
	h.flush()
	a.reset()
	b.reset()
	c.reset()

	// The client claims 150 health and a future life: the relay carries the ledger (100),
	// the server's alive and generation, the damage group, and per recipient the stamp.
	f := a.frameMsg()
	f.Health = 150
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, f))
	h.flush()
	for _, rc := range []struct {
		c        *tclient
		teammate bool
	}{{b, true}, {c, false}} {
		rs := received[*wire.RemotePlayerSync](rc.c)
		require.Len(t, rs, 1)
		r := rs[0]
		require.Equal(t, PlayerID(0), r.Player)
		require.Equal(t, float32(100), r.Health, "the ledger, not the client's 150")
		require.True(t, r.Alive)
		require.Equal(t, a.gen, r.DeathEpoch)
		require.Equal(t, uint16(7), r.DamageGroup)
		require.Equal(t, rc.teammate, r.Stamp.Teammate)
		require.Equal(t, h.w.teams.Rev(), r.Stamp.Rev)
	}
	for _, r := range received[*wire.RemotePlayerSync](a) {
		require.NotEqual(t, PlayerID(0), r.Player, "never relayed to its sender")
	}
	gm := h.events(EventGodMode)
	require.Len(t, gm, 1, "the raise was cut and flagged")
	require.Equal(t, float32(50), gm[0].Amount)
}

func TestRelayedHealthIsNeverLethalWhileTheServerHoldsThePlayerAlive(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	// A fall takes the victim to 0: the ledger counts the death, the lifecycle waits for
	// the report, and the relay still shows 1 until the death is committed.
	require.Equal(t, VerdictAccepted, h.hit(a, NoPlayer, 54, wire.Ref{}, 100))
	b.reset()
	require.Equal(t, VerdictAccepted, h.frame(a))
	h.flush()
	rs := received[*wire.RemotePlayerSync](b)
	require.Len(t, rs, 1)
	require.True(t, rs[0].Alive)
	require.Equal(t, float32(1), rs[0].Health)
	ph, _ := h.w.Phase(0)
	require.Equal(t, lifecycle.PhaseDying, ph)

	// After the commit the relay says dead, at 0.
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.DeathReport{DeathEpoch: a.gen, Killer: NoPlayer, Weapon: 54}))
	b.reset()
	require.Equal(t, VerdictAccepted, h.frame(a))
	h.flush()
	rs = received[*wire.RemotePlayerSync](b)
	require.Len(t, rs, 1)
	require.False(t, rs[0].Alive)
	require.Equal(t, float32(0), rs[0].Health)
}

func TestFramesAreFilteredBySequenceAndLife(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	// Before the connect spawn there is no life to relay.
	require.Equal(t, VerdictOtherLife, h.frame(a))
	h.spawn(a)
	h.spawn(b)
	b.reset()
	f := a.frameMsg()
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, f))
	require.Equal(t, VerdictOutdated, h.w.Handle(h.now, 0, f), "a duplicate")
	old := *f
	old.Seq--
	require.Equal(t, VerdictOutdated, h.w.Handle(h.now, 0, &old), "an older frame")
	future := a.frameMsg()
	future.DeathEpoch = a.gen + 5
	require.Equal(t, VerdictOtherLife, h.w.Handle(h.now, 0, future), "a life never granted")
	h.flush()
	require.Len(t, received[*wire.RemotePlayerSync](b), 1)
}

func TestVehicleFramesAreTakenOnlyFromTheDriverAndStamped(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	require.NoError(t, h.w.CreateVehicle(h.now, 3, 411, wire.Vec3{X: 5}, wire.Quat{W: 1}))
	vs := &wire.VehicleSync{Seq: 1, Vehicle: 3, Position: wire.Vec3{X: 6}, Rotation: wire.Quat{W: 1}, Health: 1000}
	require.Equal(t, VerdictNotInVehicle, h.w.Handle(h.now, 0, vs))
	a.vehicle, a.seat = 3, 0
	require.Equal(t, VerdictAccepted, h.frame(a))
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, vs))
	require.Equal(t, VerdictOutdated, h.w.Handle(h.now, 0, vs))
	require.Equal(t, VerdictUnknownVehicle, h.w.Handle(h.now, 0, &wire.VehicleSync{Seq: 2, Vehicle: 4, Rotation: wire.Quat{W: 1}}))
	h.flush()
	r := received[*wire.RemoteVehicleSync](b)
	require.Len(t, r, 1)
	require.Equal(t, PlayerID(0), r[0].Driver)
	require.Equal(t, h.w.teams.Rev(), r[0].Stamp.Rev)
}

func TestPingsMeasureTheRoundTripTime(t *testing.T) {
	h := newHarness(t, testConfig())
	h.join(0)
	h.rtt(200 * time.Millisecond)
	rtt, ok := h.w.RTT(0)
	require.True(t, ok)
	require.Equal(t, 200*time.Millisecond, rtt)
	// A client's own ping is answered at once.
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, 0, &wire.Ping{Seq: 9, Time: 77}))
	h.flush()
	pongs := received[*wire.Pong](h.cl[0])
	require.Equal(t, &wire.Pong{Seq: 9, Time: 77}, pongs[len(pongs)-1])
}

func TestSilentConnectionIsDroppedAfterTheLinkTimeout(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	a.silent = true
	var farewell *wire.Disconnect
	for i := 0; i < 170 && h.w.Connected(0); i++ {
		h.now += 100 * time.Millisecond
		require.Equal(t, VerdictAccepted, h.frame(b))
		require.NoError(t, h.w.Tick(h.now))
		require.NoError(t, h.w.Flush(h.now, func(conn PlayerID, d []byte) {
			if conn == 0 {
				var dec wire.Decoder
				for e := range wire.Elements(d) {
					if m, err := dec.Decode(e); err == nil {
						if dm, ok := m.(*wire.Disconnect); ok {
							farewell = &wire.Disconnect{Reason: dm.Reason}
						}
					}
				}
			}
		}))
	}
	require.False(t, h.w.Connected(0))
	require.NotNil(t, farewell)
	require.Equal(t, wire.ReasonTimeout, farewell.Reason)
	leaves := h.events(EventPlayerLeave)
	require.Len(t, leaves, 1)
	require.Equal(t, wire.ReasonTimeout, leaves[0].Reason)
}

func TestAFrameEchoingRevisionsNeverSentIsFlaggedAndLeavesTheLedger(t *testing.T) {
	h, a, b := duel(t, deagle)
	require.Equal(t, VerdictAccepted, h.shoot(a, wire.Vec3{X: 10}, wire.HitPlayer, 1))
	require.Equal(t, VerdictAccepted, h.hit(b, 0, deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: a.shotSeq}, 46.2))
	before, _ := h.w.Health(1)
	b.vitalRev, b.weaponRev, b.health = b.vitalRev+5, b.weaponRev+5, 100
	h.clearEvents()
	require.Equal(t, VerdictAccepted, h.frame(b), "the frame is still relayed")
	after, _ := h.w.Health(1)
	require.Equal(t, before, after, "a frame with a future vital_rev is ignored by the ledger")
	got := map[string]bool{}
	for _, e := range h.events(EventInputRefused) {
		require.Equal(t, VerdictFutureRevision, e.Verdict)
		got[e.Detail] = true
	}
	require.Equal(t, map[string]bool{"vital_rev": true, "weapon_rev": true}, got)
	require.Empty(t, h.events(EventGodMode), "no cut: the frame's health was never taken")
}
