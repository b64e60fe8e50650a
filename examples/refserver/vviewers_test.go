package refserver

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/wire"
)

// Rule [stream-vehicle-show]: a vehicle respawned (or left by its driver) is shown anew to
// the connections that have it shown, found from the vehicle's own list of viewers, not by
// a walk over every connection. The list must name exactly the connections that have the
// vehicle shown: checked after every step of a random world of walking players, vehicles
// moved and respawned, and connections leaving and joining on their slots again.
func TestVehicleViewersAreExactlyThoseThatHaveItShown(t *testing.T) {
	const players, vehicles, side = 12, 6, 600
	bw := newBenchWorldAt(t, Config{MaxPlayers: players, MaxVehicles: vehicles, Stream: StreamConfig{VehicleCap: 3}}, nil)
	w := bw.w
	rng := rand.New(rand.NewPCG(7, 41))
	at := func() wire.Vec3 { return wire.Vec3{X: rng.Float32()*side - side/2, Y: rng.Float32()*side - side/2} }
	for v := range uint16(vehicles) {
		if err := w.CreateVehicle(bw.now, v, 560, at(), wire.Quat{W: 1}); err != nil {
			t.Fatal(err)
		}
	}
	gone := make([]bool, players)
	reshown, stale := 0, 0
	for step := range 600 {
		bw.now += 33 * time.Millisecond
		i := rng.IntN(players)
		switch op := rng.IntN(10); {
		case op < 6 && !gone[i]: // a frame somewhere on the map
			f := &bw.frames[i]
			f.Seq++
			f.Position = at()
			b, _ := f.Append(bw.bufs[i][:0])
			_ = w.Receive(bw.now, PlayerID(i), b)
		case op == 6:
			if err := w.MoveVehicle(bw.now, uint16(rng.IntN(vehicles)), at(), wire.Quat{W: 1}); err != nil {
				t.Fatal(err)
			}
		case op == 7:
			v := uint16(rng.IntN(vehicles))
			reshown += len(w.vs.viewers[v])
			if err := w.RespawnVehicle(bw.now, v, at(), wire.Quat{W: 1}); err != nil {
				t.Fatal(err)
			}
		case op == 8 && !gone[i]:
			if err := w.Kick(bw.now, PlayerID(i)); err != nil {
				t.Fatal(err)
			}
			gone[i] = true
		case op == 9 && gone[i]: // a new connection on the slot: never placed yet
			w.Handle(bw.now, PlayerID(i), &wire.Hello{})
			gone[i] = false
			bw.frames[i].Seq += 100 // frames of the old connection's numbers would be stale
		}
		if err := w.Tick(bw.now); err != nil {
			t.Fatal(err)
		}
		bw.flush()
		for v := range uint16(vehicles) {
			var want, got []PlayerID
			for c := range PlayerID(players) {
				if w.conn(c) != nil && w.vsSees(c, v) {
					want = append(want, c)
				}
			}
			for _, c := range w.vs.viewers[v] {
				p := w.conn(c)
				switch {
				case p == nil || w.vs.recips[c].join != p.joinSerial:
					stale++ // a connection that left, its slot not placed again
				case !w.vsSees(c, v):
					t.Fatalf("step %d, vehicle %d: viewer %d does not have it shown", step, v, c)
				default:
					got = append(got, c)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("step %d, vehicle %d: viewers %v, those that have it shown %v", step, v, got, want)
			}
		}
	}
	if reshown == 0 || stale == 0 {
		t.Fatalf("the walk never respawned a shown vehicle (%d) or left a stale entry (%d)", reshown, stale)
	}
}

// BenchmarkVehicleLeft is a driver getting out of its car and back in, one frame each,
// in a world of 10,000 players over 6 km: the frame on foot shows the car anew to its
// viewers ([stream-vehicle-left]), found from the car's list of viewers (before it, a
// walk over every connection).
func BenchmarkVehicleLeft(b *testing.B) {
	const n = 10000
	bw := newBenchWorldAt(b, Config{MaxPlayers: n, MaxVehicles: 1}, spread(n, streamSide))
	w := bw.w
	f := &bw.frames[0]
	if err := w.CreateVehicle(bw.now, 0, 560, f.Position, wire.Quat{W: 1}); err != nil {
		b.Fatal(err)
	}
	for range 20 { // everyone evaluated: the car's neighbours have it shown
		bw.tick(false)
	}
	if len(w.vs.viewers[0]) == 0 {
		b.Fatal("nobody has the car shown")
	}
	send := func(veh uint16) {
		bw.now += transport.FrameInterval
		f.Seq++
		f.Vehicle = veh
		buf, _ := f.Append(bw.bufs[0][:0])
		_ = w.Receive(bw.now, 0, buf)
	}
	frames, refused := w.stats.Frames, w.stats.Refused
	b.ReportAllocs()
	for b.Loop() {
		send(0)
		send(wire.NoVehicle)
		if f.Seq%64 == 0 {
			b.StopTimer()
			bw.flush()
			b.StartTimer()
		}
	}
	b.StopTimer()
	if w.stats.Frames == frames || w.stats.Refused != refused {
		b.Fatalf("%d frames taken, %d refused", w.stats.Frames-frames, w.stats.Refused-refused)
	}
}
