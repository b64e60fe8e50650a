package refserver

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// batchTwin is one of the two worlds TestReceiveBatchIsReceive drives side by side: one
// takes each tick's datagrams with Receive, the other with ReceiveBatch.
type batchTwin struct {
	bw *benchWorld
	// acks are the client lanes' datagrams of the last Flush, to arrive with the next
	// tick's.
	acks []Datagram
	// flushed is every datagram the World emitted at the last Flush, with its connection.
	flushed []Datagram
}

// flush ticks and flushes the twin's World at now and keeps what it emitted; the client
// lanes take their datagrams and their acknowledgements wait for the next tick.
func (t *batchTwin) flush(tb testing.TB, now time.Duration) (Stats, []Event) {
	w := t.bw.w
	if err := w.Tick(now); err != nil {
		tb.Fatal(err)
	}
	t.flushed = t.flushed[:0]
	if err := w.Flush(now, func(conn PlayerID, d []byte) {
		t.flushed = append(t.flushed, Datagram{Conn: conn, Data: slices.Clone(d)})
		if int(conn) >= len(t.bw.lanes) {
			return
		}
		for e := range wire.Elements(d) {
			if id, err := wire.Peek(e); err == nil && id.Transport() {
				_ = t.bw.lanes[conn].Receive(now, e, func(wire.Message) {})
			}
		}
	}); err != nil {
		tb.Fatal(err)
	}
	t.acks = t.acks[:0]
	for i, c := range t.bw.lanes {
		_ = c.Flush(now, func(d []byte) { t.acks = append(t.acks, Datagram{Conn: PlayerID(i), Data: slices.Clone(d)}) })
	}
	return w.Stats(), w.Events(nil)
}

// batchMix returns a tick's datagrams for bw: the client lanes' acknowledgements and a
// random mix of frames (new, repeated and stale), shots, damage reports, respawn
// requests, pings, Hellos (of joined connections, of free slots, of ids beyond the slots),
// disconnects, junk bytes, truncated messages and datagrams from unknown connections, in a
// random order.
func batchMix(r *rand.Rand, bw *benchWorld, now time.Duration, acks []Datagram) []Datagram {
	out := slices.Clone(acks)
	add := func(conn PlayerID, m wire.Message) {
		if b, err := m.Append(nil); err == nil {
			out = append(out, Datagram{Conn: conn, Data: b})
		}
	}
	n := bw.n
	for i := range n {
		if r.IntN(10) == 0 {
			continue // no frame from this one this tick
		}
		f := bw.frames[i]
		switch r.IntN(8) {
		case 0: // a repeated or stale frame
			f.Seq -= uint16(r.IntN(3))
		default:
			bw.frames[i].Seq++
			f.Seq = bw.frames[i].Seq
		}
		f.Position.X += r.Float32() - 0.5
		f.Position.Y += 40 * (r.Float32() - 0.5)
		add(PlayerID(i), &f)
	}
	for range r.IntN(n / 2) {
		i := r.IntN(n)
		victim := i/10*10 + (i+1)%10
		if victim >= n {
			continue
		}
		s := &bw.shots[i]
		s.ShotSeq++
		to, from := bw.frames[victim].Position, bw.frames[i].Position
		*s = wire.WeaponShot{ShotSeq: s.ShotSeq, DeathEpoch: bw.gen[i], PropertiesRev: bw.w.catalog.Revision(), Weapon: m4,
			HitType: wire.HitPlayer, HitID: uint16(victim), Origin: from,
			HitPos: wire.Vec3{X: 2*to.X - from.X, Y: 2*to.Y - from.Y, Z: 2*to.Z - from.Z}}
		add(PlayerID(i), s)
		rep := &bw.report[victim]
		rep.DamageSeq++
		*rep = wire.DamageReport{DamageSeq: rep.DamageSeq, Attacker: wire.PlayerID(i), Weapon: m4, BodyPart: wire.BodyTorso,
			Ref: wire.Ref{Kind: wire.RefWeaponShot, Seq: s.ShotSeq}, HealthBefore: 100, HealthAfter: 100}
		bw.frames[victim].DamageSeq = rep.DamageSeq
		if r.IntN(4) > 0 {
			add(PlayerID(victim), rep)
		}
	}
	for range 1 + r.IntN(12) {
		conn := PlayerID(r.IntN(n + 8)) // a joined one, a free slot or beyond the slots
		switch r.IntN(9) {
		case 0:
			add(conn, &wire.Hello{Session: r.Uint32()})
		case 1:
			add(conn, &wire.RespawnRequest{})
		case 2:
			add(conn, &wire.Ping{Seq: uint16(r.IntN(100)), Time: uint32(now / time.Millisecond)})
		case 3:
			if r.IntN(4) == 0 {
				add(conn, &wire.Disconnect{Reason: wire.ReasonQuit})
			}
		case 4: // junk
			b := make([]byte, r.IntN(40))
			for k := range b {
				b[k] = byte(r.Uint32())
			}
			out = append(out, Datagram{Conn: conn, Data: b})
		case 5: // a frame cut short
			f := bw.frames[int(conn)%n]
			if b, err := f.Append(nil); err == nil {
				out = append(out, Datagram{Conn: conn, Data: b[:r.IntN(len(b))]})
			}
		case 6: // a frame from another connection's client: its numbers and life
			f := bw.frames[r.IntN(n)]
			add(conn, &f)
		case 7: // a message only a server sends
			add(conn, &wire.Pong{Seq: 1})
		case 8: // a frame from beyond the slots
			f := bw.frames[0]
			add(PlayerID(1<<16-1-r.IntN(3)), &f)
		}
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// errText is err's text, "" for nil: errors of two worlds compare by what they say.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestReceiveBatchIsReceive drives two equal worlds of 40 streamed players (and 8 free
// slots) with the same random datagrams every tick, one by Receive datagram by datagram,
// the other by ReceiveBatch in batches of random sizes (some with no errs, some with too
// few): every datagram's error, the events, the stats and every datagram flushed must be
// the same, tick after tick, with every lookahead stride.
func TestReceiveBatchIsReceive(t *testing.T) {
	defer func(s int) { batchStride = s }(batchStride)
	for _, stride := range []int{0, 1, 2, 5} {
		t.Run(fmt.Sprintf("stride=%d", stride), func(t *testing.T) {
			batchStride = stride
			const n, slots = 40, 48
			cfg := Config{MaxPlayers: slots, MaxVehicles: 1}
			centres := spread(slots, 300)
			one, many := &batchTwin{bw: newBenchWorldAt(t, cfg, centres)}, &batchTwin{bw: newBenchWorldAt(t, cfg, centres)}
			for _, tw := range []*batchTwin{one, many} {
				for id := n; id < slots; id++ {
					if err := tw.bw.w.Kick(tw.bw.now, PlayerID(id)); err != nil {
						t.Fatal(err)
					}
				}
				tw.bw.n = n
				tw.flush(t, tw.bw.now)
			}
			r1, r2 := rand.New(rand.NewPCG(7, uint64(stride))), rand.New(rand.NewPCG(7, uint64(stride)))
			sizes := rand.New(rand.NewPCG(8, uint64(stride)))
			now := one.bw.now
			var errs []error
			var received, failures int
			for tick := range 120 {
				now += 33 * time.Millisecond
				in1 := batchMix(r1, one.bw, now, one.acks)
				in2 := batchMix(r2, many.bw, now, many.acks)
				if len(in1) != len(in2) {
					t.Fatalf("tick %d: the twins' inputs differ", tick)
				}
				want := make([]string, len(in1))
				failed := 0
				for i, d := range in1 {
					want[i] = errText(one.bw.w.Receive(now, d.Conn, d.Data))
					if want[i] != "" {
						failed++
					}
				}
				got := 0
				for start := 0; start < len(in2); {
					k := min(len(in2)-start, 1+sizes.IntN(70))
					chunk := in2[start : start+k]
					errs = make([]error, k)
					switch sizes.IntN(4) {
					case 0:
						errs = nil
					case 1:
						errs = errs[:sizes.IntN(k)]
					}
					f := many.bw.w.ReceiveBatch(now, chunk, errs)
					for i, err := range errs {
						if errText(err) != want[start+i] {
							t.Fatalf("tick %d datagram %d (conn %d): batch %q, alone %q", tick, start+i, chunk[i].Conn, errText(err), want[start+i])
						}
					}
					got += f
					start += k
				}
				if got != failed {
					t.Fatalf("tick %d: batch counted %d errors, Receive %d", tick, got, failed)
				}
				s1, e1 := one.flush(t, now)
				s2, e2 := many.flush(t, now)
				if s1 != s2 {
					t.Fatalf("tick %d: stats differ:\n%+v\n%+v", tick, s1, s2)
				}
				if !slices.Equal(e1, e2) {
					t.Fatalf("tick %d: events differ:\n%v\n%v", tick, e1, e2)
				}
				if !slices.EqualFunc(one.flushed, many.flushed, func(a, b Datagram) bool { return a.Conn == b.Conn && string(a.Data) == string(b.Data) }) {
					t.Fatalf("tick %d: flushed datagrams differ (%d and %d)", tick, len(one.flushed), len(many.flushed))
				}
				received += len(in1)
				failures += failed
			}
			// The mix must have reached what it means to: errors, joins, frames, shots,
			// credits, refusals and leaves.
			st := one.bw.w.Stats()
			if failures == 0 || st.Joins <= slots || st.Leaves <= slots-n || st.Frames == 0 || st.Shots == 0 || st.Credited == 0 ||
				st.Refused == 0 || st.Malformed == 0 || st.DatagramsSent == 0 {
				t.Fatalf("the mix missed a case: %d errors of %d datagrams, %+v", failures, received, st)
			}
			t.Logf("%d datagrams, %d errors; %d joins, %d leaves, %d frames, %d shots, %d credited, %d refused, %d malformed",
				received, failures, st.Joins, st.Leaves, st.Frames, st.Shots, st.Credited, st.Refused, st.Malformed)
		})
	}
}

// TestReceiveBatchClockBackwards: a batch from before the World's clock is refused
// datagram by datagram, as Receive refuses each, and changes nothing.
func TestReceiveBatchClockBackwards(t *testing.T) {
	w, err := New(Config{MaxPlayers: 4, MaxVehicles: 1})
	if err != nil {
		t.Fatal(err)
	}
	hello, _ := (&wire.Hello{}).Append(nil)
	if err := w.Tick(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	before := w.Stats()
	errs := make([]error, 3)
	if n := w.ReceiveBatch(time.Second, []Datagram{{0, hello}, {1, hello}, {9, nil}}, errs); n != 3 {
		t.Fatalf("%d errors, want 3", n)
	}
	for i, err := range errs {
		if !errors.Is(err, ErrClockBackwards) {
			t.Fatalf("datagram %d: %v", i, err)
		}
	}
	if w.Stats() != before || len(w.Events(nil)) != 0 {
		t.Fatal("a batch from the past changed the World")
	}
}

// ReceiveBatch allocates nothing: a tick of frames through it, shuffled, then the Flush.
func TestReceiveBatchDoesNotAllocate(t *testing.T) {
	bw := newBenchWorld(t, 32)
	discard := func(PlayerID, []byte) {}
	batch := make([]Datagram, bw.n)
	errs := make([]error, bw.n)
	order := rand.New(rand.NewPCG(1, 2)).Perm(bw.n)
	run := func() {
		bw.now += transportFrame
		for k, i := range order {
			f := &bw.frames[i]
			f.Seq++
			bw.bufs[i], _ = f.Append(bw.bufs[i][:0])
			batch[k] = Datagram{Conn: PlayerID(i), Data: bw.bufs[i]}
		}
		if n := bw.w.ReceiveBatch(bw.now, batch, errs); n != 0 {
			t.Fatalf("%d datagrams failed: %v", n, errors.Join(errs...))
		}
		_ = bw.w.Flush(bw.now, discard)
	}
	run()
	if a := testing.AllocsPerRun(100, run); a != 0 {
		t.Fatalf("%v allocations a tick", a)
	}
}
