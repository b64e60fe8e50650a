package refserver_test

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/wire"
)

// A World with two players: both join and spawn, player 0 shoots player 1 with a Desert
// Eagle, player 1's client reports the hit and the server credits it, and the gamemode
// heals player 1.
func Example() {
	w, err := refserver.New(refserver.Config{MaxPlayers: 2, MaxVehicles: 1})
	if err != nil {
		panic(err)
	}
	now := time.Second
	for id := refserver.PlayerID(0); id < 2; id++ {
		w.Handle(now, id, &wire.Hello{})
		w.Handle(now, id, &wire.RespawnRequest{}) // the connect spawn
		gen, _ := w.Generation(id)
		w.Handle(now, id, &wire.PlayerSync{Seq: 1, DeathEpoch: gen, Alive: true, Health: 100,
			Position: wire.Vec3{X: 10 * float32(id)}, Vehicle: wire.NoVehicle})
	}
	_ = w.GiveWeapon(now, 0, 24, 7, true)

	gen, _ := w.Generation(0)
	fmt.Println("shot:", w.Handle(now, 0, &wire.WeaponShot{ShotSeq: 1, DeathEpoch: gen, Weapon: 24,
		HitType: wire.HitPlayer, HitID: 1, HitPos: wire.Vec3{X: 10}}))
	fmt.Println("report:", w.Handle(now, 1, &wire.DamageReport{DamageSeq: 1, Attacker: 0, Weapon: 24,
		BodyPart: wire.BodyTorso, Ref: wire.Ref{Kind: wire.RefWeaponShot, Seq: 1},
		HealthBefore: 100, HealthAfter: 54, Loss: 46}))
	hp, _ := w.Health(1)
	fmt.Printf("ledger: %.2f\n", hp)

	_ = w.AddHealth(now, 1, 25, 100)
	hp, _ = w.Health(1)
	fmt.Printf("after add_health(25, 100): %.2f\n", hp)
	ammo, _, _ := w.Ammo(0, 24)
	fmt.Println("rounds left:", ammo)

	for _, e := range w.Events(nil) {
		if !e.Kind.Diagnostic() {
			fmt.Println(e)
		}
	}
	// Output:
	// shot: accepted
	// report: accepted
	// ledger: 54.00
	// after add_health(25, 100): 79.00
	// rounds left: 6
	// t=1s player_spawn player=0 gen=1 connect
	// t=1s player_spawn player=1 gen=1 connect
	// t=1s player_damage player=1 attacker=0 weapon=24 body=3 seq=1 claimed=46.00 floor=23.09 deducted=46.00 detail=applied
}

// The host's loop: datagrams in with Receive, timers with Tick, datagrams out with Flush.
// Here one client's transport endpoint stands in for the network.
func ExampleWorld_Receive() {
	w, _ := refserver.New(refserver.Config{MaxPlayers: 4, MaxVehicles: 1})
	client, _ := transport.New(transport.Client)
	now := time.Second

	hello, _ := (&wire.Hello{}).Append(nil)
	_ = w.Receive(now, 3, hello)                     // the read loop: one datagram of connection 3
	_, _ = client.Queue(now, &wire.RespawnRequest{}) // the client asks for its connect spawn
	_ = client.Flush(now, func(d []byte) { _ = w.Receive(now, 3, d) })

	_ = w.Tick(now) // every tick: timers, pings, link timeouts
	_ = w.Flush(now, func(conn refserver.PlayerID, d []byte) {
		_ = client.Receive(now, d, func(m wire.Message) { fmt.Println(conn, m.ID()) })
	})
	// Output:
	// 3 Welcome
	// 3 Ping
	// 3 RespawnPlayer
}

// A host that reads its socket in batches hands each batch to ReceiveBatch: the same as
// Receive for each datagram in order, each datagram's error in its place.
func ExampleWorld_ReceiveBatch() {
	w, _ := refserver.New(refserver.Config{MaxPlayers: 4, MaxVehicles: 1})
	now := time.Second
	hello, _ := (&wire.Hello{}).Append(nil)
	frame, _ := (&wire.PlayerSync{Seq: 1, Vehicle: wire.NoVehicle}).Append(nil)

	batch := []refserver.Datagram{ // what one recvmmsg read, from three connections
		{Conn: 0, Data: hello},
		{Conn: 1, Data: hello},
		{Conn: 2, Data: frame},     // before its Hello
		{Conn: 9, Data: hello},     // beyond MaxPlayers
		{Conn: 1, Data: frame[:2]}, // a frame cut short
	}
	errs := make([]error, len(batch))
	fmt.Println("failed:", w.ReceiveBatch(now, batch, errs))
	for i, err := range errs {
		fmt.Println(i, err)
	}
	fmt.Println("joins:", w.Stats().Joins)
	// Output:
	// failed: 3
	// 0 <nil>
	// 1 <nil>
	// 2 refserver: unknown player: connection 2 sent PlayerSync before Hello
	// 3 refserver: unknown player: connection 9
	// 4 wire: truncated message: PlayerSync is 48 bytes
	// joins: 2
}

// A gamemode command is validated, committed when its message is queued on the player's
// reliable lane, and refused with a named error otherwise.
func ExampleWorld_SetHealth() {
	w, _ := refserver.New(refserver.Config{MaxPlayers: 1, MaxVehicles: 1})
	now := time.Second
	w.Handle(now, 0, &wire.Hello{})
	fmt.Println(w.SetHealth(now, 0, 50)) // not spawned yet
	w.Handle(now, 0, &wire.RespawnRequest{})
	gen, _ := w.Generation(0)
	w.Handle(now, 0, &wire.PlayerSync{Seq: 1, DeathEpoch: gen, Alive: true, Health: 100, Vehicle: wire.NoVehicle})
	fmt.Println(w.SetHealth(now, 0, 250))
	fmt.Println(w.SetHealth(now, 0, 50))
	hp, _ := w.Health(0)
	fmt.Println(hp)
	// Output:
	// refserver: player not alive: vitals: player not alive: set_health while none
	// refserver: value out of range: vitals: value out of range: set_health 250 not in 0..200
	// <nil>
	// 50
}

// A host that wires its own server takes one rule alone: here, whether a victim's report
// of a ram is the named driver's.
func ExampleRamRule() {
	r := refserver.DefaultRules().Ram
	fmt.Println(r.Judge(true, 500*time.Millisecond, 4))  // drove half a second ago, 4 m away
	fmt.Println(r.Judge(true, 5*time.Second, 4))         // out of the car for 5 s
	fmt.Println(r.Judge(true, 500*time.Millisecond, 40)) // 40 m away
	// Output:
	// accepted
	// not_driving
	// too_far
}
