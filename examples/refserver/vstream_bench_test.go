package refserver

import (
	"fmt"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// BenchmarkVehicleStream is the vehicle streaming's share of a tick ([stream-vehicles]):
// 1,000 players in clusters of ten over the 6 km map, and MaxVehicles vehicles, two by
// each player (the vehicles a cluster stands among) or spread uniformly; per iteration one
// 10 ms tick's evaluations (each connection every 250 ms in its phase slot), the shows
// all sent before. ns/eval is one connection's evaluation.
func BenchmarkVehicleStream(b *testing.B) {
	for _, clustered := range []bool{true, false} {
		b.Run(fmt.Sprintf("clustered=%v", clustered), func(b *testing.B) {
			const n = 1000
			bw := newBenchWorldAt(b, Config{MaxPlayers: n, MaxVehicles: MaxVehicles}, spread(n, streamSide))
			w := bw.w
			centres := spread(MaxVehicles, streamSide)
			for v := range MaxVehicles {
				pos := centres[v/10]
				if clustered {
					pos = bw.pos(v / 2)
				}
				pos.X += float32(v%10) * 3
				if err := w.CreateVehicle(bw.now, uint16(v), 560, pos, wire.Quat{W: 1}); err != nil {
					b.Fatal(err)
				}
			}
			for range 40 { // every connection evaluated a few times, its shows acknowledged
				bw.now += 33 * time.Millisecond
				_ = w.Tick(bw.now)
				bw.flush()
			}
			shown := 0
			for id := range n {
				shown += len(w.vs.recips[id].list)
			}
			evals := 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				bw.now += 10 * time.Millisecond
				for _, id := range w.conns {
					if r := &w.vs.recips[id]; r.placed && bw.now >= r.due {
						evals++
					}
				}
				w.vsTick(bw.now)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(evals, 1)), "ns/eval")
			b.ReportMetric(float64(shown)/n, "shown/player")
		})
	}
}
