package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// checkFlushDue asserts [flush-own-due]'s mirror: every connection's flushDue is now (0)
// while its outbox holds a datagram, else its lane's due time (player.laneDue).
func checkFlushDue(t testing.TB, w *World, format string, args ...any) {
	t.Helper()
	for _, id := range w.conns {
		p := w.players[id]
		want := p.laneDue
		if len(p.out.ends) > 0 {
			want = 0
		}
		if w.flushDue[id] != want {
			t.Fatalf(format+": connection %d: flushDue %v, want %v (outbox %d datagrams, laneDue %v)",
				append(args, id, w.flushDue[id], want, len(p.out.ends), p.laneDue)...)
		}
	}
}

// checkBusy asserts the busy bits' mirror: bit id is set exactly while connection id is
// connected and its ledger is Busy (vitals.Player.TrackBusy), and no other bit is.
func checkBusy(t testing.TB, w *World, format string, args ...any) {
	t.Helper()
	want := make([]uint64, len(w.busy))
	for _, id := range w.conns {
		if w.vits[id].Busy() {
			want[id/64] |= 1 << (id % 64)
		}
	}
	for k := range want {
		if want[k] != w.busy[k] {
			t.Fatalf(format+": busy word %d is %#x, want %#x", append(args, k, w.busy[k], want[k])...)
		}
	}
}

// checkLive fails t unless w.live has exactly the bits of the slots that hold a
// connection: connected(id) is conn(id) != nil for every slot (relayShot reads a shot's
// recipients through it, not through their players).
func checkLive(t testing.TB, w *World, format string, args ...any) {
	t.Helper()
	for i := range w.players {
		id := PlayerID(i)
		if w.connected(id) != (w.conn(id) != nil) {
			t.Fatalf(format+": slot %d: live bit %v, connected %v", append(args, id, w.connected(id), w.conn(id) != nil)...)
		}
	}
	if w.connected(PlayerID(len(w.players))) {
		t.Fatalf(format+": a slot out of range is live", args...)
	}
}

// [flush-own-due]: the dense flushDue equals what it mirrors after every step of the
// random hostile World (joins, leaves, rejoins on the same slot, drops, hostile bytes,
// pings and pongs, lane traffic), and Flush sends exactly what it sends when it reads
// every connection (flushDue cleared before each Flush: the World before the skip). The
// busy bits too: they mirror the ledgers, and Tick raises exactly the events it raises
// when it advances every ledger.
func TestFlushDueMirrorsOutboxAndLane(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		skip, all := newChaos(t, seed), newChaos(t, seed)
		all.visitAll = true
		require.NotNil(t, skip.w.stream, "the chaos World streams: Flush's skip reads no player there")
		for i := range 3000 {
			skip.step()
			all.step()
			checkFlushDue(t, skip.w, "seed %d step %d", seed, i)
			checkBusy(t, skip.w, "seed %d step %d", seed, i)
			require.Equal(t, all.out.h, skip.out.h, "seed %d step %d: the datagrams differ from a Flush that reads every connection", seed, i)
			require.Equal(t, all.events, skip.events, "seed %d step %d: the events differ from a Tick that advances every ledger", seed, i)
		}
		require.NotZero(t, skip.w.Stats().Joins)
		require.NotZero(t, skip.w.Stats().Leaves)
	}
}

// [flush-own-due] at scale: streaming players in crowds (most of them with nothing of
// their own in a Flush), outboxes overflowed by a flood of pings, lanes woken by gamemode
// commands, their datagrams taken by Receive and by ReceiveBatch: the mirror holds after
// every tick, and the datagrams, byte for byte, with the stats, are those of a Flush that
// reads every connection.
func TestFlushDueSkipSendsWhatAVisitSends(t *testing.T) {
	run := func(visitAll, batch bool) (uint64, Stats) {
		bw := newBenchWorldOf(t, Config{MaxPlayers: 200, MaxVehicles: 1})
		bw.batch = batch
		var h hash64
		bw.in = func(conn PlayerID, d []byte) {
			h.add(conn, d)
			bw.deliver(conn, d)
		}
		w := bw.w
		skipped, overflowed := 0, 0
		for i := range 120 {
			switch {
			case i%17 == 3: // a lane woken for a few
				for id := PlayerID(i % 7); int(id) < bw.n; id += 23 {
					_ = w.SetHealth(bw.now, id, float32(50+i%50))
				}
			case i%29 == 5: // outboxes flooded: relays to their cap (the rest refused), then pongs
				for id := PlayerID(i % 5); int(id) < bw.n; id += 11 {
					for k := 0; w.relayTo(w.players[id], &wire.Ping{Seq: uint16(k)}); k++ {
					}
					for k := range 80 {
						msg := wire.Ping{Seq: uint16(k), Time: uint32(i)}
						b, err := msg.Append(nil)
						require.NoError(t, err)
						_ = w.Receive(bw.now, id, b)
					}
					if w.players[id].caps.OutboxDropped > 0 {
						overflowed++
					}
				}
			}
			if visitAll {
				clear(w.flushDue)
			} else {
				for _, id := range w.conns {
					if bw.now+33*time.Millisecond < w.flushDue[id] {
						skipped++
					}
				}
			}
			bw.tick(i%3 == 0)
			if !visitAll {
				checkFlushDue(t, w, "tick %d", i)
				checkBusy(t, w, "tick %d", i)
			}
		}
		if !visitAll {
			require.Greater(t, skipped, 120*bw.n/2, "most connections had nothing of their own")
			require.NotZero(t, overflowed, "some outboxes were filled to their cap")
		}
		return h.h, w.Stats()
	}
	for _, batch := range []bool{false, true} { // Receive, and ReceiveBatch
		h1, s1 := run(false, batch)
		h2, s2 := run(true, batch)
		require.Equal(t, h2, h1, "batch %v: the same datagrams, in the same order", batch)
		require.Equal(t, s2, s1, "batch %v", batch)
		require.NotZero(t, s1.Relayed)
	}
}
