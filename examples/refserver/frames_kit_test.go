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

// joinedKit starts a kit with two honest bystanders and n raw connections that joined
// and did nothing else (no spawn).
func joinedKit(t *testing.T, n int, rtt time.Duration) (*simkit.Kit, []*simkit.Raw) {
	t.Helper()
	k := simkit.New(simkit.Config{Seed: 1, Server: refserver.Config{MaxPlayers: 16, MaxVehicles: 8, RespawnDelay: time.Second,
		Loadout: []refserver.Loadout{}}})
	_, _ = k.Join("bystander1", simkit.Link{})
	_, _ = k.Join("bystander2", simkit.Link{})
	raws := make([]*simkit.Raw, n)
	for i := range raws {
		var err error
		raws[i], err = k.JoinRaw(string(rune('a' + i)))
		require.NoError(t, err)
		raws[i].SetRTT(rtt)
	}
	require.NoError(t, k.Start())
	tick(t, k)
	return k, raws
}

// about returns the messages of type T the raw connection received about player id
// (their Player field).
func about[T interface {
	wire.Message
	*wire.PlayerShow | *wire.RemotePlayerSync | *wire.PlayerSpawned
}](r *simkit.Raw, id refserver.PlayerID) []T {
	var out []T
	for _, m := range receivedOf[T](r) {
		var p refserver.PlayerID
		switch m := any(m).(type) {
		case *wire.PlayerShow:
			p = m.Player
		case *wire.RemotePlayerSync:
			p = m.Player
		case *wire.PlayerSpawned:
			p = m.Player
		}
		if p == id {
			out = append(out, m)
		}
	}
	return out
}

func TestHelloCreatesThePlayerInEveryPackageAndShowsEveryone(t *testing.T) {
	k, r := joinedKit(t, 2, 0)
	a, b := r[0], r[1]
	w := k.Server()
	welcome := receivedOf[*wire.Welcome](a)
	require.Len(t, welcome, 1)
	require.Equal(t, a.ID(), welcome[0].Player)
	tok, err := w.Token(a.ID())
	require.NoError(t, err)
	require.Equal(t, tok, welcome[0].PlayerToken)

	// Each sees the other: the newcomer gets a show of the old player, the old player one
	// of the newcomer, both built from the lifecycle's snapshot (unspawned: not alive).
	showsB := about[*wire.PlayerShow](b, a.ID())
	require.Len(t, showsB, 1)
	require.Equal(t, tok, showsB[0].PlayerToken)
	require.False(t, showsB[0].Alive)
	require.Len(t, about[*wire.PlayerShow](a, b.ID()), 1)

	// A repeated Hello gets the same Welcome again and creates nothing.
	require.Equal(t, refserver.VerdictIgnored, must(t)(b.Send(&wire.Hello{})))
	tick(t, k)
	require.Len(t, receivedOf[*wire.Welcome](b), 2)
	require.Equal(t, []refserver.PlayerID{0, 1, a.ID(), b.ID()}, w.Players(nil))
	ph, err := w.Phase(b.ID())
	require.NoError(t, err)
	require.Equal(t, lifecycle.PhaseUnspawned, ph)
	require.Len(t, eventsOf(k, refserver.EventPlayerJoin, a.ID()), 1)
	require.Len(t, eventsOf(k, refserver.EventPlayerJoin, b.ID()), 1)
}

func TestDatagramsOfUnknownConnectionsAreRefused(t *testing.T) {
	k, _ := joinedKit(t, 0, 0)
	w := k.Server()
	const free refserver.PlayerID = 3 // a slot no connection holds
	b, err := (&wire.PlayerSync{Vehicle: wire.NoVehicle}).Append(nil)
	require.NoError(t, err)
	require.ErrorIs(t, w.Receive(k.Now(), free, b), refserver.ErrUnknownPlayer)
	require.ErrorIs(t, w.Receive(k.Now(), 999, b), refserver.ErrUnknownPlayer)
	require.Error(t, w.Receive(k.Now(), free, []byte{1}))
	require.Equal(t, refserver.VerdictUnknownConnection, w.Handle(k.Now(), free, &wire.PlayerSync{Vehicle: wire.NoVehicle}))
	require.Equal(t, []refserver.PlayerID{0, 1}, w.Players(nil), "the bystanders alone")
	tick(t, k)
	require.NotEmpty(t, eventsOf(k, refserver.EventInputRefused, free))
}

func TestConnectSpawnGrantsAndFirstLivingFrameRaisesPlayerSpawn(t *testing.T) {
	k, r := joinedKit(t, 2, 0)
	a, b := r[0], r[1]
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.RespawnRequest{})))
	tick(t, k)
	rs := receivedOf[*wire.RespawnPlayer](a)
	require.Len(t, rs, 1)
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.PlayerSync{Seq: 1, DeathEpoch: rs[0].DeathEpoch, Alive: true,
		Health: 100, Vehicle: wire.NoVehicle, Position: rs[0].Position})))
	tick(t, k)
	sp := about[*wire.PlayerSpawned](b, a.ID())
	require.Len(t, sp, 1)
	require.Equal(t, rs[0].DeathEpoch, sp[0].DeathEpoch)
	spawns := eventsOf(k, refserver.EventPlayerSpawn, a.ID())
	require.Len(t, spawns, 1)
	require.True(t, spawns[0].Connect)
	require.True(t, k.Server().Alive(a.ID()))
}

func TestRelayedFrameCarriesServerLifeStateLedgerHealthAndStamp(t *testing.T) {
	k, r := rawKit(t, refserver.Config{}, 0, 3)
	a, b, c := r[0], r[1], r[2]
	w := k.Server()
	const blue teams.TeamID = 7
	require.NoError(t, w.CreateTeam(blue, teams.Team{Name: "blue"}))
	require.NoError(t, w.JoinTeam(a.ID(), blue))
	require.NoError(t, w.JoinTeam(b.ID(), blue))
	tick(t, k)
	for _, x := range r {
		x.Clear()
	}
	// The client claims 150 health: the relay carries the ledger (100), the server's alive
	// and generation, the damage group, and per recipient the stamp.
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.PlayerSync{Seq: 2, DeathEpoch: 1, Alive: true, Health: 150,
		Vehicle: wire.NoVehicle})))
	tick(t, k)
	for _, rc := range []struct {
		c        *simkit.Raw
		teammate bool
	}{{b, true}, {c, false}} {
		rs := about[*wire.RemotePlayerSync](rc.c, a.ID())
		require.Len(t, rs, 1)
		m := rs[0]
		require.Equal(t, float32(100), m.Health, "the ledger, not the client's 150")
		require.True(t, m.Alive)
		require.Equal(t, uint16(1), m.DeathEpoch)
		require.Equal(t, uint16(blue), m.DamageGroup)
		require.Equal(t, rc.teammate, m.Stamp.Teammate)
		require.Equal(t, w.Teams().Rev(), m.Stamp.Rev)
	}
	require.Empty(t, about[*wire.RemotePlayerSync](a, a.ID()), "never relayed to its sender")
	gm := eventsOf(k, refserver.EventGodMode, a.ID())
	require.Len(t, gm, 1, "the raise was cut and flagged")
	require.Equal(t, float32(50), gm[0].Amount)
}

func TestRelayedHealthIsNeverLethalWhileTheServerHoldsThePlayerAlive(t *testing.T) {
	k, r := rawKit(t, refserver.Config{}, 0, 2)
	a, b := r[0], r[1]
	w := k.Server()
	// A fall takes the victim to 0: the ledger counts the death, the lifecycle waits for
	// the report, and the relay still shows 1 until the death is committed.
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(report(1, 0, refserver.NoPlayer, causeFall, wire.Ref{}, 100, 0, 100))))
	tick(t, k)
	b.Clear()
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.PlayerSync{Seq: 2, DeathEpoch: 1, DamageSeq: 1,
		Vehicle: wire.NoVehicle})))
	tick(t, k)
	rs := about[*wire.RemotePlayerSync](b, a.ID())
	require.Len(t, rs, 1)
	require.True(t, rs[0].Alive)
	require.Equal(t, float32(1), rs[0].Health)
	ph, _ := w.Phase(a.ID())
	require.Equal(t, lifecycle.PhaseDying, ph)

	// After the commit the relay says dead, at 0.
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.DeathReport{DeathEpoch: 1, Killer: refserver.NoPlayer, Weapon: causeFall})))
	tick(t, k)
	b.Clear()
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.PlayerSync{Seq: 3, DeathEpoch: 1, DamageSeq: 1,
		Vehicle: wire.NoVehicle})))
	tick(t, k)
	rs = about[*wire.RemotePlayerSync](b, a.ID())
	require.Len(t, rs, 1)
	require.False(t, rs[0].Alive)
	require.Equal(t, float32(0), rs[0].Health)
}

func TestFramesAreFilteredBySequenceAndLife(t *testing.T) {
	k, r := joinedKit(t, 2, 0)
	a, b := r[0], r[1]
	frame := func(seq, gen uint16) *wire.PlayerSync {
		return &wire.PlayerSync{Seq: seq, DeathEpoch: gen, Alive: true, Health: 100, Vehicle: wire.NoVehicle}
	}
	// Before the connect spawn there is no life to relay.
	require.Equal(t, refserver.VerdictOtherLife, must(t)(a.Send(frame(1, 0))))
	for _, x := range r {
		require.Equal(t, refserver.VerdictAccepted, must(t)(x.Send(&wire.RespawnRequest{})))
	}
	tick(t, k)
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(frame(2, 1))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(frame(1, 1))))
	tick(t, k)
	b.Clear()
	f := frame(3, 1)
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(f)))
	require.Equal(t, refserver.VerdictOutdated, must(t)(a.Send(f)), "a duplicate")
	require.Equal(t, refserver.VerdictOutdated, must(t)(a.Send(frame(2, 1))), "an older frame")
	require.Equal(t, refserver.VerdictOtherLife, must(t)(a.Send(frame(4, 6))), "a life never granted")
	tick(t, k)
	require.Len(t, about[*wire.RemotePlayerSync](b, a.ID()), 1)
}

func TestVehicleFramesAreTakenOnlyFromTheDriverAndStamped(t *testing.T) {
	k, r := rawKit(t, refserver.Config{}, 0, 2)
	a, b := r[0], r[1]
	w := k.Server()
	require.NoError(t, w.CreateVehicle(k.Now(), 3, 411, wire.Vec3{X: 5}, wire.Quat{W: 1}))
	tick(t, k)
	b.Clear()
	vs := &wire.VehicleSync{Seq: 1, Vehicle: 3, Position: wire.Vec3{X: 6}, Rotation: wire.Quat{W: 1}, Health: 1000}
	require.Equal(t, refserver.VerdictNotInVehicle, must(t)(a.Send(vs)))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.PlayerSync{Seq: 2, DeathEpoch: 1, Alive: true, Health: 100,
		Vehicle: 3})))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(vs)))
	require.Equal(t, refserver.VerdictOutdated, must(t)(a.Send(vs)))
	require.Equal(t, refserver.VerdictUnknownVehicle, must(t)(a.Send(&wire.VehicleSync{Seq: 2, Vehicle: 4, Rotation: wire.Quat{W: 1}})))
	tick(t, k)
	var got []*wire.RemoteVehicleSync
	for _, m := range receivedOf[*wire.RemoteVehicleSync](b) {
		if m.Vehicle == 3 {
			got = append(got, m)
		}
	}
	require.Len(t, got, 1)
	require.Equal(t, a.ID(), got[0].Driver)
	require.Equal(t, w.Teams().Rev(), got[0].Stamp.Rev)
}

func TestPingsMeasureTheRoundTripTime(t *testing.T) {
	k, r := joinedKit(t, 1, 200*time.Millisecond)
	a := r[0]
	require.NoError(t, k.Advance(3*time.Second))
	rtt, ok := k.Server().RTT(a.ID())
	require.True(t, ok)
	// The pong leaves at the connection's flush (every server tick) and is read at the
	// server's next tick: the measure is the round trip to a tick.
	require.InDelta(t, 200*time.Millisecond, rtt, float64(simkitTick))
	// A client's own ping is answered at once.
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.Ping{Seq: 9, Time: 77})))
	tick(t, k)
	pongs := receivedOf[*wire.Pong](a)
	require.Equal(t, &wire.Pong{Seq: 9, Time: 77}, pongs[len(pongs)-1])
}

func TestSilentConnectionIsDroppedAfterTheLinkTimeout(t *testing.T) {
	k, r := rawKit(t, refserver.Config{}, 0, 2)
	a, b := r[0], r[1]
	w := k.Server()
	a.SetSilent(true)
	a.Clear()
	for i := 0; i < 170 && w.Connected(a.ID()); i++ {
		require.NoError(t, k.Advance(100*time.Millisecond))
		require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.PlayerSync{Seq: uint16(2 + i), DeathEpoch: 1, Alive: true,
			Health: 100, Vehicle: wire.NoVehicle})))
	}
	tick(t, k)
	require.False(t, w.Connected(a.ID()))
	farewell, ok := lastOf[*wire.Disconnect](a)
	require.True(t, ok, "the server said farewell")
	require.Equal(t, wire.ReasonTimeout, farewell.Reason)
	leaves := eventsOf(k, refserver.EventPlayerLeave, a.ID())
	require.Len(t, leaves, 1)
	require.Equal(t, wire.ReasonTimeout, leaves[0].Reason)
}

func TestAFrameEchoingRevisionsNeverSentIsFlaggedAndLeavesTheLedger(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 2)
	a, b := r[0], r[1]
	w := k.Server()
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(shot(1, deagle, wire.Vec3{X: 10}, wire.HitPlayer, b.ID()))))
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(report(1, 0, a.ID(), deagle, wire.Ref{Kind: wire.RefWeaponShot, Seq: 1}, 100, 0, 46.2))))
	before, _ := w.Health(b.ID())
	tick(t, k)
	mark := len(k.Events())
	vrev, _ := w.WeaponRev(b.ID())
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.PlayerSync{Seq: 3, DeathEpoch: 1, Alive: true, Health: 100,
		DamageSeq: 1, VitalRev: 5, WeaponRev: vrev + 5, Vehicle: wire.NoVehicle, Position: wire.Vec3{X: 10}})), "the frame is still relayed")
	after, _ := w.Health(b.ID())
	require.Equal(t, before, after, "a frame with a future vital_rev is ignored by the ledger")
	tick(t, k)
	got := map[string]bool{}
	for _, e := range k.Events()[mark:] {
		if e.Player != b.ID() {
			continue
		}
		require.NotEqual(t, refserver.EventGodMode, e.Kind, "no cut: the frame's health was never taken")
		if e.Kind == refserver.EventInputRefused {
			require.Equal(t, refserver.VerdictFutureRevision, e.Verdict)
			got[e.Detail] = true
		}
	}
	require.Equal(t, map[string]bool{"vital_rev": true, "weapon_rev": true}, got)
}
