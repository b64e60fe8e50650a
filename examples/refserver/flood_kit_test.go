package refserver_test

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// sendAll hands m to the World as a datagram of the raw connection, n times at once.
func sendAll(t *testing.T, n int, m func(i int) wire.Message, r interface{ SendBytes([]byte) error }) {
	t.Helper()
	buf := make([]byte, 0, wire.MaxSize)
	for i := range n {
		b, err := m(i).Append(buf[:0])
		require.NoError(t, err)
		_ = r.SendBytes(b)
	}
}

// One client drowns the others (1): a sender that sends MaxFanOut frames in one tick
// must not push another player's frame of that tick out of the relay: each sender has
// its share of the relay log and its frames a per-connection rate, and what is over the
// cap is counted.
func TestOneSendersFrameFloodNeverPushesAnotherPlayersFrameOutOfTheRelay(t *testing.T) {
	k, r := rawKit(t, refserver.Config{}, 0, 3)
	a, b, c := r[0], r[1], r[2]
	w := k.Server()
	tick(t, k)
	c.Clear()
	frame := &wire.PlayerSync{Seq: 2, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: wire.NoVehicle}
	sendAll(t, refserver.MaxFanOut, func(i int) wire.Message { frame.Seq = uint16(2 + i); return frame }, a)
	sendAll(t, 1, func(int) wire.Message {
		return &wire.PlayerSync{Seq: 2, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: wire.NoVehicle}
	}, b)
	tick(t, k)
	fromA, fromB := len(about[*wire.RemotePlayerSync](c, a.ID())), len(about[*wire.RemotePlayerSync](c, b.ID()))
	require.Equal(t, 1, fromB, "the honest player's frame of the tick reaches everyone")
	require.LessOrEqual(t, fromA, refserver.MaxFanOutPerSender, "the flooder's frames within its share of the log")
	cs, err := w.ConnStats(a.ID())
	require.NoError(t, err)
	require.Equal(t, uint64(refserver.MaxFanOut-fromA), cs.DatagramsOverRate+cs.FramesOverRate+cs.FanOutCapped,
		"every frame of the flood that was not relayed is counted: %+v", cs)
	st := w.Stats()
	require.Equal(t, cs.DatagramsOverRate, st.DatagramsOverRate)
	require.Equal(t, cs.FramesOverRate, st.FramesOverRate)
	bs, err := w.ConnStats(b.ID())
	require.NoError(t, err)
	require.Zero(t, bs.DatagramsOverRate+bs.FramesOverRate+bs.FanOutCapped, "nothing of the honest player's is over a cap")
}

// One client drowns the others (2): MaxPendingEvents junk datagrams in one tick, from a
// joined connection, a connection that never said Hello and an id outside the slots,
// must not cost an honest player's death its player_death (nor its hit its
// player_damage): refusal diagnostics are rate-limited per connection and summarized, and
// the records' events have room of their own.
func TestJunkFloodNeverDropsAnotherPlayersRecordEvents(t *testing.T) {
	k, r := rawDuel(t, refserver.Config{}, deagle, 0, 3)
	a, b, x := r[0], r[1], r[2]
	w := k.Server()
	tick(t, k)
	mark := len(k.Events())
	for i := range refserver.MaxPendingEvents {
		switch i % 3 {
		case 0:
			_ = x.SendBytes([]byte{0xEE})
		case 1:
			_ = w.Receive(k.Now(), 7, []byte{0xEE}) // never said Hello
		case 2:
			_ = w.Receive(k.Now(), 60000, []byte{0xEE}) // not a slot
		}
	}
	lethal(t, k, a, b, deagle)
	require.Equal(t, refserver.VerdictAccepted, must(t)(b.Send(&wire.DeathReport{DeathEpoch: 1, Killer: a.ID(), Weapon: deagle})))
	tick(t, k)
	require.Len(t, eventsOf(k, refserver.EventPlayerDamage, b.ID()), 1, "the lethal hit's player_damage")
	d := eventsOf(k, refserver.EventPlayerDeath, b.ID())
	require.Len(t, d, 1, "the honest victim's player_death")
	st := w.Stats()
	require.Zero(t, st.EventsDropped, "no event was dropped: the junk's refusals were summarized")
	require.Positive(t, st.RefusalsSuppressed)
	refused := 0
	for _, e := range k.Events()[mark:] {
		if e.Kind == refserver.EventInputRefused {
			refused++
		}
	}
	require.LessOrEqual(t, refused, 3*refserver.RefusalEvents, "at most RefusalEvents refusals per source per interval")
}

// One client drowns the others (3): a vehicle's rockets come from no store; a driver that
// launches thousands in one tick must not fill the other connections' outboxes: its
// launches have a rate (ProjectileRate), and every outbox keeps room for its own
// connection's datagrams (OutboxReserve).
func TestRocketFloodNeverCostsAnotherPlayerItsOwnDatagrams(t *testing.T) {
	k, r := rawKit(t, refserver.Config{}, 0, 2)
	a, b := r[0], r[1]
	w := k.Server()
	require.NoError(t, w.CreateVehicle(k.Now(), 3, refserver.ModelHunter, wire.Vec3{}, wire.Quat{W: 1}))
	require.Equal(t, refserver.VerdictAccepted, must(t)(a.Send(&wire.PlayerSync{Seq: 2, DeathEpoch: 1, Alive: true, Health: 100, Vehicle: 3})))
	tick(t, k)
	b.Clear()
	const flood = 5000
	sendAll(t, flood, func(i int) wire.Message {
		return &wire.ProjectileLaunch{Projectile: uint16(i + 1), DeathEpoch: 1, Weapon: 35, Vehicle: 3,
			Target: wire.NoVehicle, Velocity: wire.Vec3{X: 1}}
	}, a)
	sendAll(t, 1, func(int) wire.Message { return &wire.Ping{Seq: 77, Time: 5} }, b)
	tick(t, k)
	pongs := 0
	for _, m := range receivedOf[*wire.Pong](b) {
		if m.Seq == 77 {
			pongs++
		}
	}
	require.Equal(t, 1, pongs, "the honest player's pong")
	rockets := 0
	for _, m := range receivedOf[*wire.RemoteProjectile](b) {
		if m.Owner == a.ID() {
			rockets++
		}
	}
	require.LessOrEqual(t, rockets, int(refserver.ProjectileBurst/refserver.ProjectileIntervalForTest)+1, "the flooder's rockets within its rate")
	cs, err := w.ConnStats(a.ID())
	require.NoError(t, err)
	require.Equal(t, uint64(flood-rockets), cs.ProjectilesOverRate+cs.DatagramsOverRate, "what is over the caps is counted: %+v", cs)
}

// The refusals of one connection's input beyond RefusalEvents in a RefusalInterval are
// counted and summarized once by refusals_suppressed with their number; the next
// interval has its budget again.
func TestRefusalsOverTheBudgetAreSummarized(t *testing.T) {
	k, r := joinedKit(t, 1, 0)
	x := r[0]
	w := k.Server()
	// Start at the beginning of a refusal interval, as a fresh World does.
	require.NoError(t, k.Advance(refserver.RefusalInterval-k.Now()%refserver.RefusalInterval))
	mark := len(k.Events())
	const junk = 100
	for range junk {
		_ = x.SendBytes([]byte{0xEE})
	}
	tick(t, k)
	count := func(kind refserver.EventKind) []refserver.Event {
		var out []refserver.Event
		for _, e := range k.Events()[mark:] {
			if e.Kind == kind && e.Player == x.ID() {
				out = append(out, e)
			}
		}
		return out
	}
	require.Len(t, count(refserver.EventInputRefused), refserver.RefusalEvents)
	require.Empty(t, count(refserver.EventRefusalsSuppressed), "the summary waits for the end of the interval")
	require.NoError(t, k.Advance(refserver.RefusalInterval))
	s := count(refserver.EventRefusalsSuppressed)
	require.Len(t, s, 1)
	require.Equal(t, uint64(junk-refserver.RefusalEvents), s[0].Count)
	require.Equal(t, fmt.Sprintf("t=%v refusals_suppressed player=%d count=68 verdict=rate_limited", s[0].At, x.ID()), s[0].String())
	cs, err := w.ConnStats(x.ID())
	require.NoError(t, err)
	require.Equal(t, uint64(junk-refserver.RefusalEvents), cs.RefusalsSuppressed)
	mark = len(k.Events())
	_ = x.SendBytes([]byte{0xEE})
	tick(t, k)
	require.Len(t, count(refserver.EventInputRefused), 1, "a new interval, a new budget")
}

// The caps never touch an honest client: the worst traffic one can send (a frame and a
// vehicle frame every transport.FrameInterval, the minigun at its cadence after the
// inventory's whole burst, a lane datagram every 10 ms client tick and 50 damage
// reports a second), through 200 ms of one-way delay with 30 ms of uniform jitter and 5 %
// loss, for 20 s, is refused nothing by DatagramRate, FrameRate or the relay log's share.
// The peaks it reaches are logged: they are the measured worst case the caps are sized
// from.
func TestHonestWorstCaseTrafficStaysUnderTheCaps(t *testing.T) {
	k, r := rawKit(t, refserver.Config{}, 0, 2)
	a := r[0]
	w := k.Server()
	require.NoError(t, w.CreateVehicle(k.Now(), 2, 470, wire.Vec3{}, wire.Quat{W: 1}))
	require.NoError(t, w.GiveWeapon(k.Now(), a.ID(), 38, 60000, true)) // the minigun
	tick(t, k)
	give, _ := lastOf[*wire.GiveWeapon](a)
	type arrival struct {
		at time.Duration
		b  []byte
	}
	rng := rand.New(rand.NewPCG(17, 4))
	var in []arrival
	start := k.Now()
	send := func(at time.Duration, m wire.Message) {
		if rng.Float64() < 0.05 {
			return
		}
		bs, err := m.Append(nil)
		require.NoError(t, err)
		in = append(in, arrival{at: at + 200*time.Millisecond + time.Duration(rng.Int64N(int64(30*time.Millisecond))), b: bs})
	}
	const span = 20 * time.Second
	frameSeq, vehSeq, shotSeq := uint16(1), uint16(0), uint16(0)
	for at := start; at < start+span; at += transport.FrameInterval {
		frameSeq++
		send(at, &wire.PlayerSync{Seq: frameSeq, DeathEpoch: 1, Alive: true, Health: 100, WeaponRev: give.Rev, Weapon: 38,
			Clip: 500, Total: 60000, Vehicle: 2, Seat: 1})
		vehSeq++
		send(at, &wire.VehicleSync{Seq: vehSeq, Vehicle: 2, Rotation: wire.Quat{W: 1}, Health: 1000})
	}
	interval := inventory.DefaultTable()[38].MinInterval
	at := start
	for i := range int(span / interval) {
		if i > int(inventory.DefaultShotRateTolerance/interval) {
			at += interval // the whole burst first, then the cadence
		}
		shotSeq++
		send(at, &wire.WeaponShot{ShotSeq: shotSeq, DeathEpoch: 1, PropertiesRev: w.Catalog().Revision(), Weapon: 38,
			HitType: wire.HitNone, HitPos: wire.Vec3{X: 30}})
	}
	for at := start; at < start+span; at += 10 * time.Millisecond {
		send(at, &wire.Pong{Seq: 9999}) // a lane datagram's worth
	}
	for at := start; at < start+span; at += 20 * time.Millisecond {
		send(at, &wire.DamageReport{DamageSeq: 1, Attacker: refserver.NoPlayer, Weapon: 54, BodyPart: wire.BodyTorso})
	}
	sort.SliceStable(in, func(i, j int) bool { return in[i].at < in[j].at })
	for _, d := range in {
		if d.at > k.Now() {
			require.NoError(t, k.Advance(d.at-k.Now()))
		}
		_ = a.SendBytes(d.b)
	}
	cs, err := w.ConnStats(a.ID())
	require.NoError(t, err)
	t.Logf("%d datagrams in %v: peaks ahead of the rates: datagrams %v (burst %v), frames %v (burst %v)",
		len(in), span, cs.DatagramPeak-refserver.DatagramIntervalForTest, refserver.DatagramBurst,
		cs.FramePeak-refserver.FrameIntervalForTest, refserver.FrameBurst)
	require.Zero(t, cs.DatagramsOverRate+cs.FramesOverRate+cs.FanOutCapped, "%+v", cs)
	require.Positive(t, w.Stats().Shots, "the minigun fired")
	require.Less(t, cs.DatagramPeak, refserver.DatagramBurst/2, "a margin of two at least")
	require.Less(t, cs.FramePeak, refserver.FrameBurst/2, "a margin of two at least")
}
