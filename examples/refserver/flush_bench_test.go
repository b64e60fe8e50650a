package refserver

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// BenchmarkFlushStreamed is BenchmarkWorldStreamed's standing cases (10,000 players over
// 6 km, 1,000 as dense, 1,000 over 6 km) with only Flush timed: flush-cpu-ns/conn is the
// CPU time of the benchmark's thread in World.Flush per connection a Flush serves (the
// frames, shots, reports and Tick of each tick run untimed before it, as
// BenchmarkWorldStreamed's tick runs them). It isolates what [flush-own-due] and
// touchFlush change from the rest of the tick's noise.
func BenchmarkFlushStreamed(b *testing.B) {
	for _, c := range []struct {
		n    int
		side float32
	}{{10000, streamSide}, {1000, 1897}, {1000, streamSide}} {
		b.Run(fmt.Sprintf("players=%d/side=%.0f", c.n, c.side), func(b *testing.B) {
			bw := newBenchWorldAt(b, Config{MaxPlayers: c.n, MaxVehicles: 1}, spread(c.n, c.side))
			for range warmTicks {
				bw.tick(true)
				bw.drain(b)
			}
			runtime.GC()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var cpu time.Duration
			conns := 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				bw.beforeFlush(true)
				conns += len(bw.w.conns)
				c0, _ := threadCPU()
				_ = bw.w.Flush(bw.now, bw.in)
				c1, _ := threadCPU()
				cpu += c1 - c0
				bw.afterFlush()
				bw.drain(b)
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(conns), "flush-cpu-ns/conn")
		})
	}
}
