package client

import (
	"testing"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/wire"
)

// benchClient returns a joined, settled client whose server side is srv, at time now.
func benchClient(b *testing.B, w World) (*Client, *transport.Endpoint, time.Duration) {
	b.Helper()
	h := newHarness(b, Config{World: w})
	h.join()
	return h.c, h.srv, h.now
}

func discard([]byte) {}

// BenchmarkTickFrame is the client's steady state: one frame built, encoded and flushed.
func BenchmarkTickFrame(b *testing.B) {
	c, _, now := benchClient(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		now += transport.FrameInterval
		if err := c.Tick(now); err != nil {
			b.Fatal(err)
		}
		if err := c.Flush(now, discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReceiveRemotePlayerSync is one relayed frame of another player: decoded, its
// stamp observed, applied to the copy.
func BenchmarkReceiveRemotePlayerSync(b *testing.B) {
	c, srv, now := benchClient(b, nil)
	_, _ = srv.Queue(now, &wire.PlayerShow{Player: 3, PlayerToken: 30, DeathEpoch: 2, Alive: true, Health: 100, Vehicle: wire.NoVehicle})
	_ = srv.Flush(now, func(d []byte) { _ = c.Receive(now, d) })
	f := wire.RemotePlayerSync{Player: 3, DeathEpoch: 2, Alive: true, Health: 80, Armor: 10,
		Stamp: wire.Stamp{Rev: 1}, Position: wire.Vec3{X: 1, Y: 2, Z: 3}, Vehicle: wire.NoVehicle}
	buf := make([]byte, 0, wire.MaxSize)
	b.ReportAllocs()
	for b.Loop() {
		f.SyncSeq++
		buf, _ = f.Append(buf[:0])
		if err := c.Receive(now, buf); err != nil {
			b.Fatal(err)
		}
	}
	if c.Counters().FramesApplied == 0 {
		b.Fatal("no frame applied")
	}
}

// BenchmarkReceiveFramesOf199 is a client of a 200-player match receiving the relayed
// frames of the 199 others in turn, each op one frame (of the next player) encoded and
// received: the copy it updates is found by the player's id among 199.
func BenchmarkReceiveFramesOf199(b *testing.B) {
	const others = 199
	c, srv, now := benchClient(b, nil)
	frames := make([]wire.RemotePlayerSync, 0, others)
	for i := range wire.PlayerID(others + 1) {
		if i == selfID {
			continue
		}
		_, _ = srv.Queue(now, &wire.PlayerShow{Player: i, PlayerToken: uint32(i) + 1000, DeathEpoch: 2, Alive: true, Health: 100, Vehicle: wire.NoVehicle})
		_ = srv.Flush(now, func(d []byte) { _ = c.Receive(now, d) })
		frames = append(frames, wire.RemotePlayerSync{Player: i, DeathEpoch: 2, Alive: true, Health: 80, Armor: 10,
			Stamp: wire.Stamp{Rev: 1}, Position: wire.Vec3{X: float32(i), Y: 2, Z: 3}, Vehicle: wire.NoVehicle})
	}
	if n := len(c.AppendRemotes(nil)); n != others {
		b.Fatalf("%d copies, want %d", n, others)
	}
	buf := make([]byte, 0, wire.MaxSize)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		f := &frames[i]
		if i++; i == others {
			i = 0
		}
		f.SyncSeq++
		buf, _ = f.Append(buf[:0])
		if err := c.Receive(now, buf); err != nil {
			b.Fatal(err)
		}
	}
	if c.Counters().FramesApplied < others {
		b.Fatal("frames not applied")
	}
}

type hitWorld struct{}

func (hitWorld) Trace(wire.PlayerID, Shot, Pose) (int, uint8) { return 1, wire.BodyTorso }
func (hitWorld) VehicleModel(uint16) (uint16, bool)           { return 0, false }

// BenchmarkReceiveShotHit is a relayed shot that hits: decoded, judged by its stamp,
// traced at the rewound pose, applied armor first, reported and flushed.
func BenchmarkReceiveShotHit(b *testing.B) {
	c, srv, now := benchClient(b, hitWorld{})
	// A feather-light gun, so the player survives the whole run.
	_, _ = srv.Queue(now, &wire.WeaponProperties{Rev: 1, Weapon: 22, DamagePoor: 1e-6, DamageStd: 1e-6, DamagePro: 1e-6, Range: 35})
	_ = srv.Flush(now, func(d []byte) { _ = c.Receive(now, d) })
	s := wire.RemoteWeaponShot{Shooter: 3, Weapon: 22, HitType: wire.HitPlayer, HitID: uint16(selfID),
		Origin: wire.Vec3{}, HitPos: spawnAt, Rewind: wire.Rewind{Valid: true, Position: spawnAt}}
	buf := make([]byte, 0, wire.MaxSize)
	b.ReportAllocs()
	for b.Loop() {
		s.ShotSeq++
		buf, _ = s.Append(buf[:0])
		if err := c.Receive(now, buf); err != nil {
			b.Fatal(err)
		}
		if err := c.Flush(now, discard); err != nil {
			b.Fatal(err)
		}
	}
	if !c.Alive() || c.Counters().HitsApplied == 0 {
		b.Fatal("the shots did not land")
	}
}

// BenchmarkFire is the honest client's shot: the checks, the spend, the encoded WeaponShot.
func BenchmarkFire(b *testing.B) {
	c, srv, now := benchClient(b, nil)
	_, _ = srv.Queue(now, &wire.GiveWeapon{Rev: 1, Weapon: 38, Ammo: 65535, SetAsCurrent: true})
	_ = srv.Flush(now, func(d []byte) { _ = c.Receive(now, d) })
	to := wire.Vec3{X: spawnAt.X + 30, Y: spawnAt.Y}
	b.ReportAllocs()
	for b.Loop() {
		now += 25 * time.Millisecond
		if _, err := c.Fire(now, 38, wire.HitNone, 0, spawnAt, to); err != nil {
			b.Fatal(err)
		}
		if err := c.Flush(now, discard); err != nil {
			b.Fatal(err)
		}
		if c.store.slots[7].Total < 1000 {
			c.store.slots[7].Total = 65535 // keep the belt full; not part of what is measured
		}
		if c.store.slots[7].Clip == 0 {
			c.store.slots[7].Clip = 500
		}
	}
	if c.Counters().Shots == 0 {
		b.Fatal("no shot")
	}
}
