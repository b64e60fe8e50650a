package refserver

import (
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// benchWorld is a world of n spawned players at 30 frames a second, in clusters of ten
// standing a metre apart (so shots have recipients near their rays), every player armed
// with an M4 whose damage the gamemode set to 0 (so nobody dies and the match is steady).
type benchWorld struct {
	w      *World
	n      int
	now    time.Duration
	frames []wire.PlayerSync
	shots  []wire.WeaponShot
	report []wire.DamageReport
	bufs   [][]byte
	gen    []uint16
	// The clients' lanes: they acknowledge the server's reliable messages (the relays and
	// other unreliable datagrams are dropped unread, as a network would deliver them).
	lanes  []*transport.Endpoint
	acks   []bool
	in     func(PlayerID, []byte)
	events []Event
	// inbox holds the copies (in inboxBuf) of the datagrams a Flush sent to connections
	// whose server lane had messages in flight, as a host copies what it sends into its
	// socket batch: the clients read them after the Flush (readInbox), so that the World's
	// time (clock) holds none of theirs.
	inbox    []Datagram
	inboxBuf []byte
	// clock, when a benchmark sets one, adds up the time the World's calls take.
	clock *serverClock
	// centres are the clusters' places (nil: the grid of pos).
	centres []wire.Vec3
	// moving walks every player around a circle of walkRadius about its place at
	// walkSpeed (pos depends on now), so that no one stands still.
	moving bool
	// sent counts the datagrams the World emitted (bundles count once).
	sent int
	// laneDue is when each client's lane next wants a Flush (its NextDeadline after the
	// last one; 0 before the first): the harness leaves idle client lanes alone, as the
	// World does its own.
	laneDue []time.Duration
	// order is the order the tick's frames arrive in, a permutation of the players (nil:
	// in connection order); batch feeds them through ReceiveBatch, benchBatch datagrams a
	// call (as a host's recvmmsg reads them), dgrams their scratch.
	order  []int
	batch  bool
	dgrams []Datagram
	// ackBuf holds the copies of the datagrams (in bw.dgrams) the clients' lanes sent in a
	// flush (their acknowledgements), handed to the World together after every lane has
	// flushed.
	ackBuf []byte
	// ring holds the datagrams of a tick's clients (frames, shots, reports) until they are
	// fed, benchBatch at a time (encodeBuf): a host receives into a few buffers it reuses
	// (udphost's recvmmsg batch), not into one per client, and a harness that wrote each
	// client's own buffer would add a cold line per datagram to what a frame costs.
	// next is the first unused.
	ring [benchBatch][wire.MaxSize]byte
	next int
}

// encodeBuf returns an empty buffer for the next datagram the clients send, from bw.ring;
// when every one holds a datagram not yet fed, it feeds them first (benchBatch at a time,
// as feed hands them to ReceiveBatch: the World gets the same calls as if every
// datagram of the phase had been encoded first).
func (bw *benchWorld) encodeBuf() []byte {
	if bw.next == len(bw.ring) {
		bw.feed(bw.batch)
	}
	bw.next++
	return bw.ring[bw.next-1][:0]
}

// benchBatch is how many datagrams a batched benchmark hands ReceiveBatch at once:
// udphost.BatchSize, the most one recvmmsg reads.
const benchBatch = 64

func newBenchWorld(b testing.TB, n int) *benchWorld {
	// Everybody sees everybody (StreamConfig.Everyone), as before streaming: each frame is
	// relayed to n-1 connections. BenchmarkWorldStreamed measures streaming.
	return newBenchWorldAt(b, Config{MaxPlayers: n, MaxVehicles: 1, Stream: StreamConfig{Everyone: true}}, nil)
}

// newBenchWorldOf is newBenchWorld on cfg (cfg.MaxPlayers players join, at pos's grid).
func newBenchWorldOf(b testing.TB, cfg Config) *benchWorld { return newBenchWorldAt(b, cfg, nil) }

// newBenchWorldAt is newBenchWorld with cfg and the clusters' centres (nil: pos's grid);
// each player joins at its own place (its spawn point).
func newBenchWorldAt(b testing.TB, cfg Config, centres []wire.Vec3) *benchWorld {
	n := cfg.MaxPlayers
	w, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	bw := &benchWorld{w: w, n: n, now: time.Second, frames: make([]wire.PlayerSync, n), shots: make([]wire.WeaponShot, n),
		report: make([]wire.DamageReport, n), bufs: make([][]byte, n), gen: make([]uint16, n),
		lanes: make([]*transport.Endpoint, n), acks: make([]bool, n), laneDue: make([]time.Duration, n), centres: centres}
	bw.in = bw.deliver
	if err := w.SetWeaponProperties(bw.now, m4, [3]float32{0, 0, 0}, 90); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		id := uint16(i)
		if bw.lanes[i], err = transport.New(transport.Client); err != nil {
			b.Fatal(err)
		}
		w.Handle(bw.now, PlayerID(id), &wire.Hello{})
		if centres != nil {
			if err := w.SetSpawnPoint(PlayerID(id), lifecycle.SpawnPoint{Pos: lifecycle.Vec3(bw.pos(i))}); err != nil {
				b.Fatal(err)
			}
		}
		bw.bufs[i] = make([]byte, 0, wire.MaxSize)
	}
	// Everyone shows everyone: the shows beyond a lane's soft cap wait for room.
	for round := 0; ; round++ {
		backlog := 0
		for i := range n {
			backlog += w.players[i].nUnshown
		}
		if backlog == 0 {
			break
		}
		if round > 1000 {
			b.Fatalf("%d shows still waiting", backlog)
		}
		bw.now += 33 * time.Millisecond
		_ = w.Tick(bw.now)
		bw.flush()
	}
	for i := range n {
		id := uint16(i)
		if v := w.Handle(bw.now, PlayerID(id), &wire.RespawnRequest{}); v != VerdictAccepted {
			b.Fatalf("respawn of %d: %v", i, v)
		}
		bw.gen[i], _ = w.Generation(PlayerID(id))
		bw.frames[i] = wire.PlayerSync{DeathEpoch: bw.gen[i], Alive: true, Health: 100, Weapon: m4, Clip: 50, Total: 60000,
			Position: bw.pos(i), Vehicle: wire.NoVehicle}
		if i%50 == 49 { // each spawn is a critical PlayerSpawned on every other lane
			bw.now += 33 * time.Millisecond
			bw.flush()
			bw.flush()
		}
	}
	for i := range n {
		if err := w.GiveWeapon(bw.now, PlayerID(i), m4, 65535, true); err != nil {
			b.Fatal(err)
		}
		bw.frames[i].WeaponRev = w.players[i].inv.Rev()
	}
	bw.tick(false) // the first living frames
	// Every connection measures a 100 ms round trip.
	if err := w.Tick(bw.now); err != nil {
		b.Fatal(err)
	}
	bw.now += 100 * time.Millisecond
	for i := range n {
		w.Handle(bw.now, PlayerID(i), &wire.Pong{Seq: 0})
	}
	bw.flush()
	return bw
}

// walkRadius and walkSpeed are the circle a moving benchmark's players walk, in metres
// and metres a second (a walking pace).
const (
	walkRadius = 4
	walkSpeed  = 1.4
)

func (bw *benchWorld) pos(i int) wire.Vec3 {
	cluster := i / 10
	if bw.centres != nil {
		c := bw.centres[cluster]
		p := wire.Vec3{X: c.X + float32(i%10), Y: c.Y}
		if bw.moving {
			sin, cos := math.Sincos(bw.now.Seconds()*walkSpeed/walkRadius + float64(i))
			p.X += float32(walkRadius * cos)
			p.Y += float32(walkRadius * sin)
		}
		return p
	}
	return wire.Vec3{X: float32(cluster%32)*100 + float32(i%10), Y: float32(cluster/32) * 100}
}

func (bw *benchWorld) flush() {
	bw.clock.start()
	_ = bw.w.Flush(bw.now, bw.in)
	bw.clock.stop()
	bw.afterFlush()
}

// afterFlush is what follows the World's Flush in a tick: the clients read what their
// lanes wait for and acknowledge it.
func (bw *benchWorld) afterFlush() {
	bw.readInbox()
	for i, c := range bw.lanes {
		// A client lane gets work only from what it receives (acks), which its handler
		// drains at once; else only its own deadline makes it due.
		if bw.laneDue[i] <= bw.now || bw.acks[i] {
			bw.acks[i] = false
			_ = c.Flush(bw.now, func(d []byte) { keepCopy(&bw.dgrams, &bw.ackBuf, PlayerID(i), d) })
			bw.laneDue[i] = laneIdle
			if d, ok := c.NextDeadline(); ok {
				bw.laneDue[i] = d
			}
		}
	}
	// The acknowledgements reach the World one by one, in the lanes' order.
	bw.feed(false)
	bw.ackBuf = bw.ackBuf[:0]
}

// keepCopy appends to *dst datagram d of conn, copied to the end of *buf (a copy stays
// valid when buf grows: the old array keeps it).
func keepCopy(dst *[]Datagram, buf *[]byte, conn PlayerID, d []byte) {
	*buf = append(*buf, d...)
	*dst = append(*dst, Datagram{Conn: conn, Data: (*buf)[len(*buf)-len(d):]})
}

// deliver is the World's emit: it counts the datagram and, while the server's lane of
// conn has messages in flight for the client to acknowledge, copies it to the inbox.
// The relays are dropped unread, as a network would deliver them. It reads the
// connection's player only when the dense flushDue does not already say its lane is
// idle (a connection Flush does not read has flushDue equal to its laneDue,
// [flush-own-due]): a host's emit reads nothing of the World, and the harness's should
// not add a player's line per connection to what a Flush costs.
func (bw *benchWorld) deliver(conn PlayerID, d []byte) {
	bw.sent++
	if bw.w.flushDue[conn] == laneIdle || bw.w.players[conn].laneDue == laneIdle { // nothing in flight: no deadline
		return
	}
	keepCopy(&bw.inbox, &bw.inboxBuf, conn, d)
}

// readInbox hands each copied datagram's lane elements to its client's lane (splitting
// every bundle would add a client's cost to the server's, so it happens after the
// Flush) and empties the inbox.
func (bw *benchWorld) readInbox() {
	for _, d := range bw.inbox {
		for e := range wire.Elements(d.Data) {
			if id, err := wire.Peek(e); err == nil && id.Transport() {
				_ = bw.lanes[d.Conn].Receive(bw.now, e, func(wire.Message) {})
				bw.acks[d.Conn] = true
			}
		}
	}
	bw.inbox, bw.inboxBuf = bw.inbox[:0], bw.inboxBuf[:0]
}

// tick is one frame interval: every player's frame arrives (as bytes; in bw.order, and
// through ReceiveBatch when bw.batch, as the shots and reports), one player in ten
// fires at its neighbour (the shots rotate through the players) and the neighbour's report
// of the hit arrives, then the World ticks and flushes. The clients encode a phase's
// datagrams before the World receives them (so that bw.clock times the World alone); the
// World receives them in the same order as if each went out as it was written.
func (bw *benchWorld) tick(shoot bool) (frames, shots int) {
	frames, shots = bw.beforeFlush(shoot)
	bw.flush()
	return frames, shots
}

// beforeFlush is tick up to its Flush: the frames, the shots and their reports, and the
// World's Tick.
func (bw *benchWorld) beforeFlush(shoot bool) (frames, shots int) {
	bw.now += 33 * time.Millisecond
	w := bw.w
	for k := range bw.n {
		i := k
		if bw.order != nil {
			i = bw.order[k]
		}
		f := &bw.frames[i]
		f.Seq++
		if bw.moving {
			f.Position = bw.pos(i)
		}
		b, _ := f.Append(bw.encodeBuf())
		bw.dgrams = append(bw.dgrams, Datagram{Conn: PlayerID(i), Data: b})
		frames++
	}
	bw.feed(bw.batch)
	if shoot {
		// One player in ten fires: in connection order, or in bw.order's.
		turn := int(bw.now/(33*time.Millisecond)) % 10
		if bw.order == nil {
			for i := turn; i < bw.n; i += 10 {
				shots += bw.shoot(i)
			}
		} else {
			for _, i := range bw.order {
				if i%10 == turn {
					shots += bw.shoot(i)
				}
			}
		}
		bw.feed(bw.batch)
	}
	bw.clock.start()
	_ = w.Tick(bw.now)
	bw.clock.stop()
	return frames, shots
}

// shoot queues player i's shot at its neighbour and the neighbour's report of the hit
// (in bw.dgrams, in the ring's buffers: encodeBuf); 0 when i has no neighbour.
func (bw *benchWorld) shoot(i int) int {
	victim := i/10*10 + (i+1)%10
	if victim >= bw.n {
		return 0
	}
	w := bw.w
	s := &bw.shots[i]
	s.ShotSeq++
	to := bw.pos(victim)
	from := bw.pos(i)
	*s = wire.WeaponShot{ShotSeq: s.ShotSeq, DeathEpoch: bw.gen[i], PropertiesRev: w.catalog.Revision(), Weapon: m4,
		HitType: wire.HitPlayer, HitID: uint16(victim), Origin: from,
		HitPos: wire.Vec3{X: 2*to.X - from.X, Y: 2*to.Y - from.Y, Z: 2*to.Z - from.Z}}
	b, _ := s.Append(bw.encodeBuf())
	bw.dgrams = append(bw.dgrams, Datagram{Conn: PlayerID(i), Data: b})
	r := &bw.report[victim]
	r.DamageSeq++
	*r = wire.DamageReport{DamageSeq: r.DamageSeq, Attacker: wire.PlayerID(i), Weapon: m4, BodyPart: wire.BodyTorso,
		Ref: wire.Ref{Kind: wire.RefWeaponShot, Seq: s.ShotSeq}, HealthBefore: 100, HealthAfter: 100}
	bw.frames[victim].DamageSeq = r.DamageSeq
	b, _ = r.Append(bw.encodeBuf())
	bw.dgrams = append(bw.dgrams, Datagram{Conn: PlayerID(victim), Data: b})
	return 1
}

// feed hands the datagrams bw.dgrams holds to the World, in order: to ReceiveBatch,
// benchBatch a call, when batch, else to Receive one by one; and empties it.
func (bw *benchWorld) feed(batch bool) {
	bw.clock.start()
	if batch {
		for start := 0; start < len(bw.dgrams); start += benchBatch {
			bw.w.ReceiveBatch(bw.now, bw.dgrams[start:min(start+benchBatch, len(bw.dgrams))], nil)
		}
	} else {
		for _, d := range bw.dgrams {
			_ = bw.w.Receive(bw.now, d.Conn, d.Data)
		}
	}
	bw.clock.stop()
	bw.dgrams = bw.dgrams[:0]
	bw.next = 0
}

// serverClock adds up the time the World's own calls take (Receive, ReceiveBatch, Tick,
// Flush): wall-clock, and the CPU time of the benchmark's thread (threadCPU; the
// benchmark locks its goroutine to the thread), which the machine's other work does not
// inflate. A nil clock times nothing.
type serverClock struct {
	wall, cpu time.Duration
	// wall0 and cpu0 are the readings at start.
	wall0 time.Time
	cpu0  time.Duration
	noCPU bool // this platform has no thread CPU clock
}

func (c *serverClock) start() {
	if c == nil {
		return
	}
	cpu, ok := threadCPU()
	c.cpu0, c.noCPU = cpu, !ok
	c.wall0 = time.Now()
}

func (c *serverClock) stop() {
	if c == nil {
		return
	}
	c.wall += time.Since(c.wall0)
	if cpu, ok := threadCPU(); ok {
		c.cpu += cpu - c.cpu0
	}
}

// report adds the clock's time per frame to b's metrics: server-ns/frame (wall) and
// cpu-ns/frame (the thread's CPU time; left out where threadCPU has no clock).
func (c *serverClock) report(b *testing.B, frames int) {
	b.ReportMetric(float64(c.wall.Nanoseconds())/float64(frames), "server-ns/frame")
	if !c.noCPU {
		b.ReportMetric(float64(c.cpu.Nanoseconds())/float64(frames), "cpu-ns/frame")
	}
}

// BenchmarkWorld is the world-scale benchmark of issue 8: n players at 30 frames a second,
// with shots, their reports and every relay (everybody sees everybody: each frame is
// relayed to n-1 connections). One op is one frame interval of the whole world; ns/frame
// and allocs/frame divide by the frames handled.
func BenchmarkWorld(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			var heap0, heap1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&heap0)
			bw := newBenchWorld(b, n)
			for range warmTicks { // buffers reach their size, histories fill
				bw.tick(true)
				bw.drain(b)
			}
			runtime.GC()
			runtime.ReadMemStats(&heap1)
			// Memory per player: the whole World (every package's state, the lanes, the
			// relay buffers) with one second of history, divided by the players.
			perPlayer := float64(heap1.HeapAlloc-heap0.HeapAlloc) / float64(n)
			sent0 := bw.sent
			frames, ticks, before := bw.measure(b)
			b.ReportMetric(float64(bw.w.stats.Credited-before.Credited)/float64(frames), "credited/frame")
			b.ReportMetric(perPlayer, "B/player")
			b.ReportMetric(float64(bw.sent-sent0)/float64(ticks), "datagrams/tick")
		})
	}
}

// measure is the world benchmarks' timed run: bw's ticks (with their shots) under b.Loop,
// the World's events drained every tick as a host does, its calls timed (serverClock, on
// this goroutine's thread, which the World's time alone occupies while it keeps it). It
// reports ns/frame, allocs/frame, relays/frame and shots/frame and the clock's metrics,
// fails when no shot was accepted or credited, and returns the frames and ticks it ran
// and the World's stats before them.
func (bw *benchWorld) measure(b *testing.B) (frames, ticks int, before Stats) {
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	before = bw.w.stats
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	bw.clock = &serverClock{}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		f, _ := bw.tick(true)
		frames += f
		ticks++
		bw.drain(b)
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	bw.clock.report(b, frames)
	st := &bw.w.stats
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(frames), "ns/frame")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(frames), "allocs/frame")
	b.ReportMetric(float64(st.Relayed-before.Relayed)/float64(frames), "relays/frame")
	b.ReportMetric(float64(st.Shots-before.Shots)/float64(frames), "shots/frame")
	if st.Shots == before.Shots || st.Credited == before.Credited {
		b.Fatal("no shot was accepted or credited")
	}
	return frames, ticks, before
}

// warmTicks is the world benchmarks' warm-up before measuring: a little more than
// ShotCreditWindow of ticks, so that every shooter's shot credits (grown on demand) have
// reached the size its steady fire needs, and every buffer its working size.
const warmTicks = 100

// drain takes the World's events as a host does every tick, into a reused buffer, and
// fails on any event a steady match of honest players cannot raise.
func (bw *benchWorld) drain(b *testing.B) {
	bw.events = bw.w.Events(bw.events[:0])
	for _, e := range bw.events {
		if e.Kind != EventPlayerDamage && e.Kind != EventPlayerSpawn && e.Kind != EventPlayerJoin && e.Kind != EventRespawnGranted {
			b.Fatalf("unexpected event %v", e)
		}
	}
}

// BenchmarkFrame is one frame of one player handled (decoded, taken by every package,
// logged for the relay) in a world of 100 players, with its share of the Flush that copies
// it to the 99 others.
func BenchmarkFrame(b *testing.B) {
	bw := newBenchWorld(b, 100)
	for range 30 {
		bw.tick(false)
	}
	f := &bw.frames[0]
	buf := make([]byte, 0, wire.MaxSize)
	b.ReportAllocs()
	for b.Loop() {
		bw.now += transport.FrameInterval // within the connection's FrameRate
		f.Seq++
		buf, _ = f.Append(buf[:0])
		_ = bw.w.Receive(bw.now, 0, buf)
		if f.Seq%32 == 0 {
			bw.flush()
		}
	}
}

// BenchmarkShotAndReport is one accepted shot in a cluster of ten players (one recipient
// gets its rewound pose, 99 the shared copy at the next Flush) and its victim's credited
// report, in a world of 100 players.
func BenchmarkShotAndReport(b *testing.B) {
	bw := newBenchWorld(b, 100)
	for range 30 {
		bw.tick(false)
	}
	shooter, victim := 0, 1
	s, r := &bw.shots[shooter], &bw.report[victim]
	buf := make([]byte, 0, wire.MaxSize)
	events := make([]Event, 0, 64)
	from, to := bw.pos(shooter), bw.pos(victim)
	shots0 := bw.w.stats.Shots
	b.ReportAllocs()
	for b.Loop() {
		if s.ShotSeq%1024 == 0 {
			// Refill the store outside the timer: every shot measured is an accepted one.
			b.StopTimer()
			if err := bw.w.SetWeaponAmmo(bw.now, PlayerID(shooter), m4, 65535, wire.NoClip); err != nil {
				b.Fatal(err)
			}
			bw.frames[shooter].WeaponRev = bw.w.players[shooter].inv.Rev()
			bw.flush()
			b.StartTimer()
		}
		bw.now += 100 * time.Millisecond // the M4's cadence
		s.ShotSeq++
		*s = wire.WeaponShot{ShotSeq: s.ShotSeq, DeathEpoch: bw.gen[shooter], PropertiesRev: bw.w.catalog.Revision(), Weapon: m4,
			HitType: wire.HitPlayer, HitID: uint16(victim), Origin: from, HitPos: wire.Vec3{X: 2*to.X - from.X, Y: 2*to.Y - from.Y}}
		buf, _ = s.Append(buf[:0])
		_ = bw.w.Receive(bw.now, PlayerID(shooter), buf)
		r.DamageSeq++
		*r = wire.DamageReport{DamageSeq: r.DamageSeq, Attacker: wire.PlayerID(shooter), Weapon: m4, BodyPart: wire.BodyTorso,
			Ref: wire.Ref{Kind: wire.RefWeaponShot, Seq: s.ShotSeq}, HealthBefore: 100, HealthAfter: 100}
		buf, _ = r.Append(buf[:0])
		_ = bw.w.Receive(bw.now, PlayerID(victim), buf)
		if s.ShotSeq%16 == 0 {
			bw.flush()
			events = bw.w.Events(events[:0])
		}
	}
	if bw.w.stats.Credited == 0 {
		b.Fatal("nothing credited")
	}
	accepted := float64(bw.w.stats.Shots-shots0) / float64(b.N)
	b.ReportMetric(accepted, "accepted/op")
	if accepted < 0.99 {
		b.Fatalf("only %.1f%% of the shots were accepted: the benchmark measures refusals", 100*accepted)
	}
}
