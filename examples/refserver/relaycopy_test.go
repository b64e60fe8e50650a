package refserver

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

// copyInline copies exactly the first len(dst) bytes of the inline message, whatever that
// length (the four-move path from 32 bytes on, copy below).
func TestCopyInlineCopiesTheMessage(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var m [fanInline]byte
	for i := range m {
		m[i] = byte(rng.Uint32())
	}
	for n := 0; n <= fanInline; n++ {
		dst := make([]byte, n+8)
		for i := range dst {
			dst[i] = 0xEE
		}
		copyInline(dst[4:4+n], &m)
		if !bytes.Equal(dst[4:4+n], m[:n]) {
			t.Fatalf("n=%d: copied %x, want %x", n, dst[4:4+n], m[:n])
		}
		for _, b := range append(dst[:4:4], dst[4+n:]...) {
			if b != 0xEE {
				t.Fatalf("n=%d: wrote outside the element: %x", n, dst)
			}
		}
	}
}

// emitStreamed (its call-free loop for the common sender, emitInline, and the full path
// for the others) packs exactly what the one-loop version it replaced packed (kept here
// as emitStreamedRef): the same datagrams, bytes and stamps, for every recipient, in a
// streamed world where frames are skipped, players shoot (entries chained, skip lists),
// teams share damage groups (teammate stamps) and the relation revision moves between
// arrivals (stamps taken at an older revision).
func TestEmitStreamedPacksWhatTheOneLoopPacked(t *testing.T) {
	const n = 120
	bw := newBenchWorldAt(t, Config{MaxPlayers: n, MaxVehicles: 1}, spread(n, 300))
	w := bw.w
	for id := teams.TeamID(1); id <= 4; id++ {
		if err := w.CreateTeam(id, teams.Team{Name: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var ref transport.Packer
	compared, relays, patched := 0, uint64(0), 0
	for tick := range 40 {
		bw.now += 33 * time.Millisecond
		for i := range n {
			if rng.IntN(8) == 0 {
				continue // no frame: a sender with nothing logged, or a shot first
			}
			if i == n/2 && tick%3 != 0 {
				// The revision moves between arrivals: the first half's frames carry
				// the stamps of the one before.
				if err := w.JoinTeam(PlayerID(rng.IntN(n)), teams.TeamID(1+rng.IntN(4))); err != nil {
					t.Fatal(err)
				}
			}
			f := &bw.frames[i]
			f.Seq++
			b, _ := f.Append(bw.bufs[i][:0])
			_ = w.Receive(bw.now, PlayerID(i), b)
		}
		for i := tick % 4; i < n; i += 4 {
			bw.shoot(i)
		}
		bw.feed(bw.batch)
		if tick%5 == 4 {
			_ = w.LeaveTeam(PlayerID(rng.IntN(n)))
		}
		_ = w.Tick(bw.now)
		for _, id := range w.conns {
			r := w.players[id]
			var got, want [][]byte
			keep := func(dst *[][]byte) func([]byte) {
				return func(d []byte) { *dst = append(*dst, bytes.Clone(d)) }
			}
			relayed0 := w.stats.Relayed
			w.pack.Start(w.cfg.PayloadSize)
			w.emitStreamed(r.id, keep(&got))
			w.pack.Finish(keep(&got))
			ref.Start(w.cfg.PayloadSize)
			wantRelayed := w.emitStreamedRef(&ref, r, keep(&want))
			ref.Finish(keep(&want))
			if len(got) != len(want) {
				t.Fatalf("tick %d, recipient %d: %d datagrams, want %d", tick, id, len(got), len(want))
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("tick %d, recipient %d, datagram %d differs:\n got %x\nwant %x", tick, id, i, got[i], want[i])
				}
				for e := range wire.Elements(got[i]) {
					var s wire.RemotePlayerSync
					if s.Decode(e) == nil && (s.Stamp.Teammate || s.Stamp.Rev != w.teams.Rev()) {
						patched++
					}
				}
			}
			if got := w.stats.Relayed - relayed0; got != wantRelayed {
				t.Fatalf("tick %d, recipient %d: %d relays counted, want %d", tick, id, got, wantRelayed)
			}
			relays += wantRelayed
			compared += len(got)
		}
		bw.flush()
		bw.events = w.Events(bw.events[:0])
	}
	// The cases the full path exists for came up.
	if relays == 0 || patched == 0 || compared == 0 {
		t.Fatalf("%d datagrams, %d relays, %d stamps differing from the plain one", compared, relays, patched)
	}
}

// emitStreamedRef is emitStreamed as it was before emitInline (main 7dc8481), on its own
// Packer, returning the relays it counted: the reference the test above compares with.
func (w *World) emitStreamedRef(pack *transport.Packer, r *player, emit func([]byte)) (relayed uint64) {
	f := &w.fan
	heads, entries, buf := f.heads, f.entries, f.buf
	rev := w.teams.Rev()
	seen := w.stream.SeenIDs(r.id) // read in place: nothing changes it during a Flush
	// Read every seen sender's record first: these loads do not wait on one another, so
	// the core overlaps their cache misses (in a large world most are misses), and the
	// copy loop below, whose every step waits on its record, finds them in the cache.
	logged := 0
	for _, s := range seen {
		if int(s) < len(heads) {
			logged += int(heads[s].count)
		}
	}
	if logged == 0 {
		return 0
	}
	group := w.teams.Group(r.id)
	bw := pack.Bundle()
	for _, s := range seen {
		if int(s) >= len(heads) || s == r.id {
			continue
		}
		h := &heads[s]
		if h.n == 0 && h.chain < 0 {
			continue
		}
		// Teammates(s, r) now: the sender's group as it logged its first entry holds while
		// the revision has not moved since.
		teammate := h.group != 0 && h.group == group
		if h.rev != rev {
			teammate = w.teams.Teammates(s, r.id)
		}
		if h.n > 0 {
			// The sender's first message, inline (fanLog.add): it skips nobody. Logged
			// messages are valid elements: the inlined Append first, Add when the bundle
			// is full.
			b, ok := bw.Append(h.msg[:h.n])
			if !ok {
				var err error
				b, err = pack.Add(h.msg[:h.n], emit)
				ok = err == nil
			}
			if ok {
				if h.rev != rev || teammate {
					w.stampCopy(b, s, r.id, h.rev, rev, teammate)
				}
				if h.msg[1] == byte(wire.IDRemotePlayerSync) {
					relayed++
				}
			}
		}
		for i := h.chain; i >= 0; {
			e := &entries[i]
			i = e.next
			if e.skipStart != e.skipEnd && f.skips(e, r.id) {
				continue
			}
			b, ok := bw.Append(buf[e.start:e.end])
			if !ok {
				var err error
				if b, err = pack.Add(buf[e.start:e.end], emit); err != nil {
					continue // never: a relay is at most wire.MaxSize bytes, far below MinPayloadSize
				}
			}
			if e.rev != rev || teammate {
				w.stampCopy(b, s, r.id, e.rev, rev, teammate)
			}
			if e.relay {
				relayed++
			}
		}
	}
	return relayed
}
