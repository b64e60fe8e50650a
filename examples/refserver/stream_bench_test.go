package refserver

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/arbitergo/arbiter/examples/hugepages"
	"github.com/arbitergo/arbiter/rewind"
	"github.com/arbitergo/arbiter/wire"
)

// streamSide is the side of the benchmark's square map, in metres: GTA San Andreas's.
const streamSide = 6000

// spread returns the centres of n/10 clusters of ten, uniform over a square of side
// metres (seeded: the same map every run).
func spread(n int, side float32) []wire.Vec3 {
	r := rand.New(rand.NewPCG(uint64(n), 13))
	c := make([]wire.Vec3, (n+9)/10)
	for i := range c {
		c[i] = wire.Vec3{X: r.Float32()*side - side/2, Y: r.Float32()*side - side/2}
	}
	return c
}

// BenchmarkWorldStreamed is BenchmarkWorld with streaming (the default Config.Stream: 200 m,
// at most 100 shown) for 1,000 and 10,000 players in clusters of ten spread over a
// 6 km x 6 km map, and 1,000 as dense as the 10,000 (1.9 km x 1.9 km), side by side: ns per frame handled (with one shot per ten frames and
// its credited report), relays per frame, and the memory per player (the World with the
// benchmark's clients, the World alone, and the World without the rewind's pose
// histories). ns/frame is the whole tick's time, the clients' share included (encoding
// their frames, shots and reports; reading what the server sent them while their lanes
// wait for acknowledgements); server-ns/frame is the World's calls alone, and
// cpu-ns/frame the CPU time of the benchmark's thread in them (Linux): what "fits one
// core" asks, and what the machine's other work inflates least.
//
// The "huge" cases advise the heap into huge pages after the warm-up, as
// examples/server does (examples/hugepages): a frame's scattered reads of a large
// World's state then miss the TLB far less. huge-MiB is what the kernel collapsed (0:
// none here, and the case is the plain one).
func BenchmarkWorldStreamed(b *testing.B) {
	// The third case puts 1,000 players on a map of a tenth of the area, as dense as the
	// 10,000: what a frame costs depends on how many see the player, not on N. The moving
	// cases walk every player around a 4 m circle at a walking pace: nobody stands still,
	// so interest's [stream-standing] skips no evaluation there (a world of players
	// standing still, the first three, is its best case).
	//
	// The last cases feed the 10,000 players' frames of a tick otherwise (feed): shuffled
	// (seeded), as a real host's datagrams arrive, from no particular connection to the
	// next (connection order flatters the hardware prefetcher), and through ReceiveBatch
	// (64 datagrams a call, as udphost's recvmmsg reads them), in connection order and
	// shuffled: "batch_shuffled" against "shuffled" is what the batch gains a host, and
	// the 1,000 players' "batch_shuffled" is the other side of a real host's pair.
	for _, c := range []streamCase{{1000, streamSide, false, "", false}, {10000, streamSide, false, "", false}, {1000, 1897, false, "", false},
		{1000, streamSide, true, "", false}, {10000, streamSide, true, "", false},
		{10000, streamSide, false, "shuffled", false}, {10000, streamSide, false, "batch", false},
		{10000, streamSide, false, "batch/shuffled", false}, {1000, streamSide, false, "batch/shuffled", false},
		// Last: the heap's mappings stay advised for the cases after these.
		{1000, streamSide, false, "", true}, {10000, streamSide, false, "", true}, {1000, 1897, false, "", true},
		{10000, streamSide, false, "batch/shuffled", true}} {
		b.Run(c.name(), func(b *testing.B) { runStreamed(b, c) })
	}
}

// BenchmarkWorldDensity is BenchmarkWorldStreamed's standing case at the density of 10,000
// players over 6 km (about 278 a square kilometre: the same players shown, the same relays
// a frame) for worlds of 1,000 to 10,000 players: what a frame costs as the World's state
// outgrows the processor's caches, with the work per frame held the same. Its cases take
// as long as BenchmarkWorldStreamed's; run it alone:
// go test -run '^$' -bench WorldDensity -benchtime 150x ./examples/refserver/
func BenchmarkWorldDensity(b *testing.B) {
	for _, n := range []int{1000, 2000, 3000, 5000, 7000, 10000} {
		side := float32(math.Round(streamSide * math.Sqrt(float64(n)/10000)))
		c := streamCase{n: n, side: side}
		b.Run(c.name(), func(b *testing.B) { runStreamed(b, c) })
	}
}

// streamCase is one case of BenchmarkWorldStreamed: n players in clusters of ten over a
// square of side metres (spread), standing or walking (moving), their frames fed in
// connection order or otherwise (feed: "shuffled", "batch", "batch/shuffled"), the heap
// advised into huge pages after the warm-up or not.
type streamCase struct {
	n      int
	side   float32
	moving bool
	feed   string
	huge   bool
}

// name is the case's benchmark name. Every case's has the same three levels, so an
// anchored pattern selects one alone:
// -bench 'WorldStreamed/^players=10000$/^side=6000$/^standing$'.
func (c streamCase) name() string {
	variant := "standing"
	if c.moving {
		variant = "moving"
	}
	if c.feed != "" {
		variant = strings.ReplaceAll(c.feed, "/", "_")
	}
	if c.huge {
		variant += "_huge"
	}
	return fmt.Sprintf("players=%d/side=%.0f/%s", c.n, c.side, variant)
}

// runStreamed runs case c (see BenchmarkWorldStreamed for what it reports).
func runStreamed(b *testing.B, c streamCase) {
	n := c.n
	var heap0, heap1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&heap0)
	bw := newBenchWorldAt(b, Config{MaxPlayers: n, MaxVehicles: 1}, spread(n, c.side))
	bw.moving = c.moving
	bw.batch = strings.HasPrefix(c.feed, "batch")
	if strings.HasSuffix(c.feed, "shuffled") {
		bw.order = rand.New(rand.NewPCG(uint64(n), 17)).Perm(n)
	}
	for range warmTicks {
		bw.tick(true)
		bw.drain(b)
	}
	var huge hugepages.Stats
	if c.huge {
		huge, _ = hugepages.Advise() // zero where there are none: the metric says so
	}
	runtime.GC()
	runtime.ReadMemStats(&heap1)
	perPlayer := float64(heap1.HeapAlloc-heap0.HeapAlloc) / float64(n)
	history := rewindBytesPerPlayer(b, n)
	most := 0
	for id := range n {
		most = max(most, len(bw.w.stream.Shown(nil, PlayerID(id))))
	}
	if most > DefaultStreamCap {
		b.Fatalf("%d shown to one player", most)
	}
	bw.measure(b)
	// The World alone: the benchmark's clients (their lanes, frames and buffers)
	// let go.
	w := bw.w
	bw = nil
	runtime.GC()
	var heap2 runtime.MemStats
	runtime.ReadMemStats(&heap2)
	worldPerPlayer := float64(heap2.HeapAlloc-heap0.HeapAlloc) / float64(n)
	runtime.KeepAlive(w)
	b.ReportMetric(perPlayer, "B/player+client")
	b.ReportMetric(worldPerPlayer, "B/player")
	b.ReportMetric(worldPerPlayer-history, "B/player-no-history")
	b.ReportMetric(float64(most), "most-shown")
	if c.huge {
		b.ReportMetric(float64(huge.Collapsed>>20), "huge-MiB")
	}
}

// rewindBytesPerPlayer is what the rewind's pose histories of n players take, per player.
func rewindBytesPerPlayer(b *testing.B, n int) float64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	rw, err := rewind.New(rewind.Config{Players: n, Vehicles: 1})
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(rw)
	return float64(m1.HeapAlloc-m0.HeapAlloc) / float64(n)
}
