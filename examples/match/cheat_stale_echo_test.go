package match

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

func shadowOf(cmds []shadowCommand, hits ...shadowHit) float32 {
	st := &staleEcho{cmds: cmds, hits: hits}
	return st.shadow()
}

func hitsAt(floor float32, at ...time.Duration) []shadowHit {
	out := make([]shadowHit, len(at))
	for i, t := range at {
		out[i] = shadowHit{at: t, floor: floor}
	}
	return out
}

// The stale-echo measurement's shadow is the highest ledger the records allow: a set may
// erase the hits credited less than the settling time after it, never those credited
// later, and never hits that together would have killed the life before it.
func TestStaleShadowIsTheHighestLedgerTheRecordsAllow(t *testing.T) {
	set := []shadowCommand{{at: 10 * time.Second, kind: vitals.CommandSetHealth, value: 100}}
	require.InDelta(t, 100, shadowOf(set), 1e-3, "a life with no hit")
	require.InDelta(t, 100, shadowOf(set, hitsAt(20, 12*time.Second, 13*time.Second)...), 1e-3,
		"hits that may have come before the set are erased by it")
	require.InDelta(t, 80, shadowOf(set, hitsAt(20, 12*time.Second, 26*time.Second)...), 1e-3,
		"a hit credited 16 s after the set came after it")
	require.InDelta(t, 60, shadowOf(set, hitsAt(20, 5*time.Second, 11*time.Second, 12*time.Second, 13*time.Second, 14*time.Second, 15*time.Second)...), 1e-3,
		"before the set, the hits would have killed: the best order takes four before it, two after")
	require.Zero(t, shadowOf(set, hitsAt(20, 1*time.Second, 2*time.Second, 3*time.Second, 4*time.Second, 5*time.Second)...),
		"hits credited before the set killed the life: the set cannot revive it")

	// adds never erase anything: regeneration adds only what it adds
	var regen []shadowCommand
	for s := 1; s <= 10; s++ {
		regen = append(regen, shadowCommand{at: time.Duration(s) * time.Second, kind: vitals.CommandAddHealth, value: 2, max: 100})
	}
	require.InDelta(t, 100-3*9.89+20, shadowOf(regen, hitsAt(9.89, 500*time.Millisecond, 1500*time.Millisecond, 2500*time.Millisecond)...), 1e-3)

	// the case: one add_armor, then 110 Deagle hits in 13 s: dead whatever the order
	armor := []shadowCommand{{at: 100 * time.Millisecond, kind: vitals.CommandAddArmor, value: 30, max: 100}}
	var deagle []time.Duration
	for i := range 110 {
		deagle = append(deagle, 200*time.Millisecond+time.Duration(i)*118*time.Millisecond)
	}
	require.Zero(t, shadowOf(armor, hitsAt(vitals.BulletFloor(140), deagle...)...))
}

// The cheat's lane rewrite: while it holds, every lane datagram it sends acknowledges only
// what it had acknowledged before the command, without the selective-ack bitmap, so the
// server's lane never learns the command arrived; its own messages still go through, and
// a damage report among them echoes the old revision. Once it lets go, the next datagram
// acknowledges everything.
func TestStaleEchoHoldsTheLaneAcknowledgementBack(t *testing.T) {
	server, err := lane.New(lane.Config{})
	require.NoError(t, err)
	client, err := lane.New(lane.Config{})
	require.NoError(t, err)
	st := &staleEcho{}
	var now time.Duration
	exchange := func(payload []byte) (lane.Seq, []byte) {
		now += 50 * time.Millisecond
		seq, err := server.Queue(now, payload, false)
		require.NoError(t, err)
		d, err := server.Poll(now, nil)
		require.NoError(t, err)
		require.NoError(t, client.Receive(now, d))
		for _, ok := client.Deliver(); ok; _, ok = client.Deliver() {
		}
		return seq, nil
	}
	reply := func(payload []byte) {
		now += 50 * time.Millisecond
		if payload != nil {
			_, err := client.Queue(now, payload, true)
			require.NoError(t, err)
		}
		d, err := client.Poll(now, nil)
		require.NoError(t, err)
		out, _ := st.laneDatagram(d)
		require.NoError(t, server.Receive(now, out))
	}
	first, _ := exchange([]byte("ShowPlayer"))
	reply(nil)
	require.True(t, server.Acked(first))
	// the command arrives; the cheat holds from here
	cmd, _ := exchange([]byte("SetHealth"))
	st.holding, st.heldAck, st.echo, st.echoing = true, st.lastAck, 7, true
	report := &wire.DamageReport{DamageSeq: 3, VitalRev: 9, Attacker: 1, Weapon: 24, BodyPart: 3, HealthBefore: 100, HealthAfter: 0, Loss: 100}
	enc, err := report.Append(nil)
	require.NoError(t, err)
	reply(enc)
	require.False(t, server.Acked(cmd), "the command's acknowledgement is held back")
	got, ok := server.Deliver()
	require.True(t, ok, "the cheater's own message went through")
	var dr wire.DamageReport
	require.NoError(t, dr.Decode(got))
	require.Equal(t, uint16(7), dr.VitalRev, "echoing the old revision")
	later, _ := exchange([]byte("PlayerWasted"))
	reply(nil)
	require.False(t, server.Acked(later))
	st.holding = false
	now += 300 * time.Millisecond // the server resends what it misses; the client acknowledges
	d, err := server.Poll(now, nil)
	require.NoError(t, err)
	require.NoError(t, client.Receive(now, d))
	reply(nil)
	require.True(t, server.Acked(cmd) && server.Acked(later), "let go: everything is acknowledged at once")
}
