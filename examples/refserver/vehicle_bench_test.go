package refserver

import (
	"testing"
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// BenchmarkVehicleFrameAndShot is one driver of a Hunter in a world of 100 players: per
// iteration its frame in the driver's seat, the vehicle's frame, and a burst of the guns'
// ray (every 100 ms, slower than the minigun's cadence) hitting nobody, with their share
// of the Flush that copies them to the 99 others.
func BenchmarkVehicleFrameAndShot(b *testing.B) {
	bw := newBenchWorld(b, 100)
	for range 30 {
		bw.tick(false)
	}
	const veh = 0
	at := bw.pos(0)
	if err := bw.w.CreateVehicle(bw.now, veh, ModelHunter, at, wire.Quat{W: 1}); err != nil {
		b.Fatal(err)
	}
	f := &bw.frames[0]
	f.Vehicle, f.Seat = veh, 0
	vs := wire.VehicleSync{Vehicle: veh, Position: at, Rotation: wire.Quat{W: 1}, Health: 1000}
	shot := wire.VehicleShot{DeathEpoch: bw.gen[0], PropertiesRev: bw.w.catalog.Revision(), Vehicle: veh, Weapon: 38,
		HitType: wire.HitNone, Origin: wire.Vec3{X: at.X, Y: at.Y + 3, Z: at.Z - 1}, HitPos: wire.Vec3{X: at.X, Y: at.Y + 23, Z: at.Z - 1}}
	buf := make([]byte, 0, wire.MaxSize)
	send := func(m wire.Message) {
		buf, _ = m.Append(buf[:0])
		_ = bw.w.Receive(bw.now, 0, buf)
	}
	shots0 := bw.w.stats.Shots
	b.ReportAllocs()
	for b.Loop() {
		bw.now += 33 * time.Millisecond
		f.Seq++
		send(f)
		vs.Seq++
		send(&vs)
		if vs.Seq%3 == 0 {
			shot.ShotSeq++
			send(&shot)
		}
		if vs.Seq%16 == 0 {
			bw.flush()
		}
	}
	if bw.w.stats.Shots == shots0 {
		b.Fatal("no vehicle shot was accepted")
	}
}
