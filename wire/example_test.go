package wire_test

import (
	"errors"
	"fmt"

	"github.com/arbitergo/arbiter/wire"
)

// A client encodes its frame into a reusable buffer; the server decodes whatever
// arrives with a Decoder and dispatches on the type.
func ExampleDecoder() {
	buf := make([]byte, 0, wire.MaxSize)
	frame := wire.PlayerSync{Seq: 7, VitalRev: 3, DamageSeq: 1, WeaponRev: 2, DeathEpoch: 1, Weapon: 24,
		Alive: true, Clip: 7, Total: 42, Health: 76.5, Position: wire.Vec3{X: 10, Y: 20, Z: 3},
		Velocity: wire.Vec3{X: 1.5}, Facing: 0, Vehicle: wire.NoVehicle}
	pkt, err := frame.Append(buf[:0])
	if err != nil {
		panic(err)
	}
	fmt.Println(len(pkt), "bytes")

	var dec wire.Decoder
	m, err := dec.Decode(pkt)
	if err != nil {
		panic(err)
	}
	switch m := m.(type) {
	case *wire.PlayerSync:
		fmt.Println("frame", m.Seq, "health", m.Health, "echoes vital_rev", m.VitalRev)
	}
	fmt.Println(m)
	// Output:
	// 48 bytes
	// frame 7 health 76.5 echoes vital_rev 3
	// PlayerSync{seq=7 vital_rev=3 damage_seq=1 weapon_rev=2 death_epoch=1 weapon=24 alive=true fire_held=false seat=0 clip=7 total=42 health=76.5 armor=0 position=(10,20,3) velocity=(1.5,0,0) facing=0 vehicle=none}
}

// Peek reads the header for dispatch, so a read loop can drop a message coming the
// wrong way, or route a transport packet to the reliable lane, before decoding.
func ExamplePeek() {
	cmd, _ := (&wire.SetHealth{Rev: 12, Health: 0}).Append(nil)
	id, err := wire.Peek(cmd)
	fmt.Println(id, id.Direction(), id.Delivery(), err)
	fmt.Println("critical:", wire.Critical(&wire.SetHealth{Health: 0}))

	_, err = wire.Peek([]byte{wire.Version + 1, byte(wire.IDPing)})
	fmt.Println(err)
	// Output:
	// SetHealth server to client reliable <nil>
	// critical: true
	// wire: unknown protocol version
}

// Hostile bytes give a named error, never a panic: here a frame whose health is NaN,
// and the same frame cut short.
func ExamplePlayerSync_Decode() {
	pkt, _ := (&wire.PlayerSync{Health: 100, Vehicle: wire.NoVehicle}).Append(nil)
	pkt[18], pkt[19], pkt[20], pkt[21] = 0x00, 0x00, 0xC0, 0x7F // NaN, little-endian

	var frame wire.PlayerSync
	err := frame.Decode(pkt)
	fmt.Println(err, errors.Is(err, wire.ErrNotFinite))

	err = frame.Decode(pkt[:20])
	fmt.Println(err, errors.Is(err, wire.ErrTruncated))
	// Output:
	// wire: value not finite: PlayerSync.Health true
	// wire: truncated message: PlayerSync is 48 bytes true
}

// The server relays a shot to a recipient the ray passed near: the shooter's teammate
// stamp for that recipient and where the recipient (and its vehicle) stood when the
// shooter saw it.
func ExampleRemoteWeaponShot() {
	relay := wire.RemoteWeaponShot{
		Shooter: 8, ShotSeq: 1200, Weapon: 31, HitType: wire.HitPlayer, HitID: 5,
		Stamp:  wire.Stamp{Teammate: false, Rev: 91},
		Origin: wire.Vec3{X: 1, Y: 2, Z: 3}, HitPos: wire.Vec3{X: 40, Y: 2, Z: 3},
		Rewind: wire.Rewind{Valid: true, Position: wire.Vec3{X: 39.5, Y: 2.25, Z: 3}},
	}
	pkt, err := relay.Append(nil)
	fmt.Println(len(pkt), err)

	var got wire.RemoteWeaponShot
	_ = got.Decode(pkt)
	fmt.Println(got.Rewind.Valid, got.Rewind.Position, got.Rewind.InVehicle)

	// A rewind that is not valid must be all zero: one encoding per value.
	relay.Rewind = wire.Rewind{Position: wire.Vec3{X: 1}}
	_, err = relay.Append(nil)
	fmt.Println(err)
	// Output:
	// 79 <nil>
	// true {39.5 2.25 3} false
	// wire: non-canonical encoding: RemoteWeaponShot.Rewind.Position
}

// Weapon commands carry the player's next inventory revision; SetWeaponAmmo leaves the
// clip alone with NoClip.
func ExampleSetWeaponAmmo() {
	pkt, _ := (&wire.SetWeaponAmmo{Rev: 65535, Weapon: 31, Total: 300, Clip: wire.NoClip}).Append(nil)
	var cmd wire.SetWeaponAmmo
	_ = cmd.Decode(pkt)
	fmt.Println(&cmd)

	_, err := (&wire.SetWeaponAmmo{Rev: 1, Weapon: 31, Total: 30, Clip: 31}).Append(nil)
	fmt.Println(err)
	// Output:
	// SetWeaponAmmo{rev=65535 weapon=31 total=300 clip=65535}
	// wire: inconsistent fields: SetWeaponAmmo.Clip
}
