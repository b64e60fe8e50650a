package client_test

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/wire"
)

// server is the other end of the example's connection: a transport endpoint whose
// messages the example writes by hand.
type server struct {
	ep  *transport.Endpoint
	now time.Duration
}

func newServer() *server {
	ep, _ := transport.New(transport.Server)
	return &server{ep: ep}
}

// send delivers messages to the client: unreliable ones as datagrams, the others on the
// reliable lane.
func (s *server) send(c *client.Client, msgs ...wire.Message) {
	for _, m := range msgs {
		if m.ID().Delivery() == wire.Unreliable {
			_ = s.ep.Send(m)
		} else {
			_, _ = s.ep.Queue(s.now, m)
		}
	}
	_ = s.ep.Flush(s.now, func(d []byte) { _ = c.Receive(s.now, d) })
}

// hear runs the client's timers and prints what the server receives (frames shortened).
func (s *server) hear(c *client.Client) {
	_ = c.Tick(s.now)
	_ = c.Flush(s.now, func(d []byte) {
		_ = s.ep.Receive(s.now, d, func(m wire.Message) {
			if f, ok := m.(*wire.PlayerSync); ok {
				fmt.Printf("PlayerSync{seq=%d vital_rev=%d damage_seq=%d weapon_rev=%d death_epoch=%d alive=%v health=%v armor=%v}\n",
					f.Seq, f.VitalRev, f.DamageSeq, f.WeaponRev, f.DeathEpoch, f.Alive, f.Health, f.Armor)
				return
			}
			fmt.Println(m)
		})
	})
}

// join plays the joining handshake and the connect spawn, and lets the new life settle.
func join(s *server, c *client.Client) {
	_ = c.Tick(s.now)
	_ = c.Flush(s.now, func(d []byte) { _ = s.ep.Receive(s.now, d, func(wire.Message) {}) })
	s.send(c, &wire.Welcome{Player: 1, PlayerToken: 11, Session: c.Session()})
	s.send(c, &wire.RespawnPlayer{DeathEpoch: 1, Position: wire.Vec3{X: 10, Y: 10}})
	for s.now < client.DefaultSpawnSettle {
		s.now += transport.FrameInterval
		_ = c.Tick(s.now)
		_ = c.Flush(s.now, func(d []byte) { _ = s.ep.Receive(s.now, d, func(wire.Message) {}) })
	}
}

// A client joins: Hello until Welcome, RespawnRequest until the connect spawn, then a frame
// every FrameInterval.
func Example() {
	c, _ := client.New(client.Config{Seed: 1})
	s := newServer()
	s.hear(c)
	s.send(c, &wire.Welcome{Player: 1, PlayerToken: 11, Session: c.Session()})
	s.hear(c)
	s.send(c, &wire.RespawnPlayer{DeathEpoch: 1, Position: wire.Vec3{X: 10, Y: 10}})
	s.hear(c)
	fmt.Println("alive:", c.Alive(), "life:", c.DeathEpoch())
	// Output:
	// Hello{session=2298633409}
	// RespawnRequest{death_epoch=0}
	// PlayerSync{seq=1 vital_rev=0 damage_seq=0 weapon_rev=0 death_epoch=1 alive=true health=100 armor=0}
	// alive: true life: 1
}

// Health, armor and weapon commands apply in one ordered queue, and every frame echoes
// the revisions the client took.
func ExampleClient_Receive() {
	c, _ := client.New(client.Config{})
	s := newServer()
	join(s, c)
	s.send(c,
		&wire.SetHealth{Rev: 1, Health: 50},
		&wire.GiveHealth{Rev: 2, Amount: 25, Max: 100},
		&wire.GiveWeapon{Rev: 1, Weapon: 31, Ammo: 90, SetAsCurrent: true})
	s.now += transport.FrameInterval
	s.hear(c)
	fmt.Println(c.Weapons().Slots[5])
	// Output:
	// PlayerSync{seq=18 vital_rev=2 damage_seq=0 weapon_rev=1 death_epoch=1 alive=true health=75 armor=0}
	// weapon 31 total 90 clip 50
}

// An honest client fires only what it has, no faster than the weapon allows.
func ExampleClient_Fire() {
	c, _ := client.New(client.Config{})
	s := newServer()
	join(s, c)
	s.send(c, &wire.GiveWeapon{Rev: 1, Weapon: 24, Ammo: 7, SetAsCurrent: true})
	at := wire.Vec3{X: 20, Y: 10}
	for range 2 {
		a, _ := c.Fire(s.now, 24, wire.HitPlayer, 3, c.Position(), at)
		fmt.Println(a)
	}
	_ = c.Flush(s.now, func(d []byte) {
		_ = s.ep.Receive(s.now, d, func(m wire.Message) { fmt.Println(m) })
	})
	a, _ := c.Fire(s.now, 31, wire.HitNone, 0, c.Position(), at)
	fmt.Println(a)
	// Output:
	// acted #1
	// too fast
	// WeaponShot{shot_seq=1 death_epoch=1 properties_rev=0 weapon=24 hit_type=player hit_id=3 origin=(10,10,0) hit_pos=(20,10,0)}
	// not owned
}

// Damage from a teammate is refused before it is applied: a shot by its own stamp,
// anything else by the newest stamp of its sender.
func ExampleClient_MeleeHit() {
	c, _ := client.New(client.Config{})
	s := newServer()
	join(s, c)
	s.send(c, &wire.RemotePlayerSync{Player: 3, SyncSeq: 1, Alive: true, Health: 100,
		Stamp: wire.Stamp{Teammate: true, Rev: 4}})
	r, _ := c.MeleeHit(s.now, 3, 5)
	fmt.Println(r)
	r, _ = c.MeleeHit(s.now, 2, 5)
	fmt.Println(r)
	// Output:
	// refused teammate
	// applied 2.64 #1
}

// A lethal hit: the report rides the reliable lane ahead of the DeathReport, and the dead
// client asks to respawn.
func ExampleClient_Rammed() {
	c, _ := client.New(client.Config{Seed: 1})
	s := newServer()
	join(s, c)
	r, _ := c.Rammed(s.now, 4, 120)
	fmt.Println(r)
	s.now += transport.FrameInterval
	s.hear(c)
	s.now += client.DeathReportDelay // the death animation plays before the report
	s.hear(c)
	// Output:
	// lethal 100 #1
	// PlayerSync{seq=18 vital_rev=0 damage_seq=1 weapon_rev=0 death_epoch=1 alive=false health=0 armor=0}
	// DamageReport{damage_seq=1 vital_rev=0 attacker=4 weapon=49 body_part=3 ref.kind=none ref.seq=0 health_before=100 armor_before=0 health_after=0 armor_after=0 loss=100}
	// PlayerSync{seq=19 vital_rev=0 damage_seq=1 weapon_rev=0 death_epoch=1 alive=false health=0 armor=0}
	// DeathReport{death_epoch=1 killer=4 weapon=49 pose=8}
	// RespawnRequest{death_epoch=1}
}
