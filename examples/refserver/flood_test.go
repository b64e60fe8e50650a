package refserver

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
)

// sendBytes encodes m and hands it to the World as a datagram of connection id.
func sendBytes(t *testing.T, h *harness, id PlayerID, m wire.Message, buf []byte) []byte {
	t.Helper()
	b, err := m.Append(buf[:0])
	require.NoError(t, err)
	_ = h.w.Receive(h.now, id, b)
	return b
}

// One client drowns the others (1): a sender that sends MaxFanOut frames in one tick
// must not push another player's frame of that tick out of the relay: each sender has
// its share of the relay log and its frames a per-connection rate, and what is over the
// cap is counted.
func TestOneSendersFrameFloodNeverPushesAnotherPlayersFrameOutOfTheRelay(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b, c := h.join(0), h.join(1), h.join(2)
	h.spawn(a)
	h.spawn(b)
	h.spawn(c)
	h.flush()
	c.reset()
	buf := make([]byte, 0, wire.MaxSize)
	for range MaxFanOut {
		buf = sendBytes(t, h, a.id, a.frameMsg(), buf)
	}
	buf = sendBytes(t, h, b.id, b.frameMsg(), buf)
	h.flush()
	fromA, fromB := 0, 0
	for _, m := range received[*wire.RemotePlayerSync](c) {
		switch m.Player {
		case a.id:
			fromA++
		case b.id:
			fromB++
		}
	}
	require.Equal(t, 1, fromB, "the honest player's frame of the tick reaches everyone")
	require.LessOrEqual(t, fromA, MaxFanOutPerSender, "the flooder's frames within its share of the log")
	cs, err := h.w.ConnStats(a.id)
	require.NoError(t, err)
	require.Equal(t, uint64(MaxFanOut-fromA), cs.DatagramsOverRate+cs.FramesOverRate+cs.FanOutCapped,
		"every frame of the flood that was not relayed is counted: %+v", cs)
	st := h.w.Stats()
	require.Equal(t, cs.DatagramsOverRate, st.DatagramsOverRate)
	require.Equal(t, cs.FramesOverRate, st.FramesOverRate)
	bs, err := h.w.ConnStats(b.id)
	require.NoError(t, err)
	require.Zero(t, bs.DatagramsOverRate+bs.FramesOverRate+bs.FanOutCapped, "nothing of the honest player's is over a cap")
}

// One client drowns the others (2): MaxPendingEvents junk datagrams in one tick, from a
// joined connection, a connection that never said Hello and an id outside the slots,
// must not cost an honest player's death its player_death (nor its hit its
// player_damage): refusal diagnostics are rate-limited per connection and summarized, and
// the records' events have room of their own.
func TestJunkFloodNeverDropsAnotherPlayersRecordEvents(t *testing.T) {
	h, a, b := duel(t, deagle)
	x := h.join(2)
	for i := range MaxPendingEvents {
		switch i % 3 {
		case 0:
			_ = h.w.Receive(h.now, x.id, []byte{0xEE})
		case 1:
			_ = h.w.Receive(h.now, 7, []byte{0xEE}) // never said Hello
		case 2:
			_ = h.w.Receive(h.now, 60000, []byte{0xEE}) // not a slot
		}
	}
	lethal(t, h, a, b)
	require.Equal(t, VerdictAccepted, h.w.Handle(h.now, b.id, &wire.DeathReport{DeathEpoch: b.gen, Killer: a.id, Weapon: deagle}))
	require.Len(t, h.events(EventPlayerDamage), 1, "the lethal hit's player_damage")
	d := h.events(EventPlayerDeath)
	require.Len(t, d, 1, "the honest victim's player_death")
	require.Equal(t, b.id, d[0].Player)
	st := h.w.Stats()
	require.Zero(t, st.EventsDropped, "no event was dropped: the junk's refusals were summarized")
	require.Positive(t, st.RefusalsSuppressed)
	require.LessOrEqual(t, len(h.events(EventInputRefused)), 3*RefusalEvents, "at most RefusalEvents refusals per source per interval")
}

// One client drowns the others (3): a vehicle's rockets come from no store; a driver that
// launches thousands in one tick must not fill the other connections' outboxes: its
// launches have a rate (ProjectileRate), and every outbox keeps room for its own
// connection's datagrams (OutboxReserve).
func TestRocketFloodNeverCostsAnotherPlayerItsOwnDatagrams(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	require.NoError(t, h.w.CreateVehicle(h.now, 3, ModelHunter, wire.Vec3{}, wire.Quat{W: 1}))
	a.vehicle, a.seat = 3, 0
	require.Equal(t, VerdictAccepted, h.frame(a))
	h.flush()
	b.reset()
	buf := make([]byte, 0, wire.MaxSize)
	const flood = 5000
	for i := range flood {
		buf = sendBytes(t, h, a.id, &wire.ProjectileLaunch{Projectile: uint16(i + 1), DeathEpoch: a.gen, Weapon: 35, Vehicle: 3,
			Target: wire.NoVehicle, Velocity: wire.Vec3{X: 1}}, buf)
	}
	buf = sendBytes(t, h, b.id, &wire.Ping{Seq: 77, Time: 5}, buf)
	h.flush()
	pongs := 0
	for _, m := range received[*wire.Pong](b) {
		if m.Seq == 77 {
			pongs++
		}
	}
	require.Equal(t, 1, pongs, "the honest player's pong")
	rockets := len(received[*wire.RemoteProjectile](b))
	require.LessOrEqual(t, rockets, int(ProjectileBurst/projectileInterval)+1, "the flooder's rockets within its rate")
	cs, err := h.w.ConnStats(a.id)
	require.NoError(t, err)
	require.Equal(t, uint64(flood-rockets), cs.ProjectilesOverRate+cs.DatagramsOverRate, "what is over the caps is counted: %+v", cs)
}

// The refusals of one connection's input beyond RefusalEvents in a RefusalInterval are
// counted and summarized once by refusals_suppressed with their number; the next
// interval has its budget again.
func TestRefusalsOverTheBudgetAreSummarized(t *testing.T) {
	h := newHarness(t, testConfig())
	x := h.join(0)
	h.clearEvents()
	const junk = 100
	for range junk {
		_ = h.w.Receive(h.now, x.id, []byte{0xEE})
	}
	require.Len(t, h.events(EventInputRefused), RefusalEvents)
	require.Empty(t, h.events(EventRefusalsSuppressed), "the summary waits for the end of the interval")
	h.step(RefusalInterval)
	s := h.events(EventRefusalsSuppressed)
	require.Len(t, s, 1)
	require.Equal(t, x.id, s[0].Player)
	require.Equal(t, uint64(junk-RefusalEvents), s[0].Count)
	require.Equal(t, "t=2s refusals_suppressed player=0 count=68 verdict=rate_limited", s[0].String())
	cs, err := h.w.ConnStats(x.id)
	require.NoError(t, err)
	require.Equal(t, uint64(junk-RefusalEvents), cs.RefusalsSuppressed)
	h.clearEvents()
	_ = h.w.Receive(h.now, x.id, []byte{0xEE})
	require.Len(t, h.events(EventInputRefused), 1, "a new interval, a new budget")
}

// The caps never touch an honest client: the worst traffic one can send (a frame and a
// vehicle frame every transport.FrameInterval, the minigun at its cadence after the
// inventory's whole burst, a lane datagram every 10 ms client tick and 50 damage
// reports a second), through 200 ms of one-way delay with 30 ms of uniform jitter and 5 %
// loss, for 20 s, is refused nothing by DatagramRate, FrameRate or the relay log's share.
// The peaks it reaches are logged: they are the measured worst case the caps are sized
// from.
func TestHonestWorstCaseTrafficStaysUnderTheCaps(t *testing.T) {
	h := newHarness(t, testConfig())
	a, b := h.join(0), h.join(1)
	h.spawn(a)
	h.spawn(b)
	require.NoError(t, h.w.CreateVehicle(h.now, 2, 470, wire.Vec3{}, wire.Quat{W: 1}))
	h.give(a, 38, 60000) // the minigun
	a.vehicle, a.seat = 2, 1
	h.flush()
	type arrival struct {
		at time.Duration
		b  []byte
	}
	rng := rand.New(rand.NewPCG(17, 4))
	var in []arrival
	start := h.now
	send := func(at time.Duration, m wire.Message) {
		if rng.Float64() < 0.05 {
			return
		}
		bs, err := m.Append(nil)
		require.NoError(t, err)
		in = append(in, arrival{at: at + 200*time.Millisecond + time.Duration(rng.Int64N(int64(30*time.Millisecond))), b: bs})
	}
	const span = 20 * time.Second
	frameSeq, vehSeq, shotSeq := a.frameSeq, uint16(0), a.shotSeq
	for at := start; at < start+span; at += transport.FrameInterval {
		frameSeq++
		f := a.frameMsg()
		f.Seq = frameSeq
		send(at, f)
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
		send(at, &wire.WeaponShot{ShotSeq: shotSeq, DeathEpoch: a.gen, PropertiesRev: h.w.catalog.Revision(), Weapon: 38,
			HitType: wire.HitNone, Origin: a.pos, HitPos: wire.Vec3{X: 30}})
	}
	for at := start; at < start+span; at += 10 * time.Millisecond {
		send(at, &wire.Pong{Seq: 9999}) // a lane datagram's worth
	}
	for at := start; at < start+span; at += 20 * time.Millisecond {
		send(at, &wire.DamageReport{DamageSeq: 1, Attacker: NoPlayer, Weapon: 54, BodyPart: wire.BodyTorso})
	}
	sort.SliceStable(in, func(i, j int) bool { return in[i].at < in[j].at })
	for _, d := range in {
		for h.now+10*time.Millisecond <= d.at {
			h.step(10 * time.Millisecond)
		}
		h.now = max(h.now, d.at)
		_ = h.w.Receive(h.now, a.id, d.b)
	}
	cs, err := h.w.ConnStats(a.id)
	require.NoError(t, err)
	t.Logf("%d datagrams in %v: peaks ahead of the rates: datagrams %v (burst %v), frames %v (burst %v)",
		len(in), span, cs.DatagramPeak-datagramInterval, DatagramBurst, cs.FramePeak-frameInterval, FrameBurst)
	require.Zero(t, cs.DatagramsOverRate+cs.FramesOverRate+cs.FanOutCapped, "%+v", cs)
	require.Positive(t, h.w.Stats().Shots, "the minigun fired")
	require.Less(t, cs.DatagramPeak, DatagramBurst/2, "a margin of two at least")
	require.Less(t, cs.FramePeak, FrameBurst/2, "a margin of two at least")
}
