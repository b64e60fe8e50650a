package wire

// Message is implemented by a pointer to every message type of the package. The set
// is closed: only this package's types implement it.
type Message interface {
	// ID returns the message id.
	ID() ID
	// Append validates the message and appends its encoding (header included) to
	// dst, growing dst only when its spare capacity is below the message's size. On a
	// validation error it returns dst with its length and contents unchanged, and the
	// error, which matches one of the package's sentinels with errors.Is
	// (ErrNotFinite, ErrOutOfRange, ErrInvalidEnum, ErrNonCanonical, ErrInconsistent). Anything Append accepts,
	// Decode accepts, and decoding gives back the value, except for the fields the
	// layout quantizes (velocity, facing), which come back on their grid.
	Append(dst []byte) ([]byte, error)
	// Decode decodes exactly one encoded message of this type from b. On error the
	// receiver is left unchanged. Decode never panics, never allocates and never keeps
	// b. A value Decode accepts re-encodes to exactly b.
	Decode(b []byte) error
	// String returns a deterministic one-line rendering of every field, in wire
	// order, with the records' field names (vital_rev=3).
	String() string

	walk(c *codec)
}

// Decoder holds one value of every message type and decodes into them without
// allocating, so a read loop needs no per-packet memory:
//
//	var dec wire.Decoder
//	for pkt := range packets {
//		m, err := dec.Decode(pkt)
//		if err != nil { ... }
//		switch m := m.(type) {
//		case *wire.PlayerSync: ...
//		}
//	}
//
// The message Decode returns points into the Decoder and is overwritten by the next
// Decode of the same type: copy it to keep it. A Decoder is not safe for concurrent
// use; use one per goroutine (one per world).
type Decoder struct {
	// Messages, one per type, named after their type.
	Hello            Hello
	PlayerSync       PlayerSync
	VehicleSync      VehicleSync
	DamageReport     DamageReport
	DeathReport      DeathReport
	RespawnRequest   RespawnRequest
	WeaponShot       WeaponShot
	VehicleShot      VehicleShot
	ProjectileLaunch ProjectileLaunch
	Detonation       Detonation
	StealthKill      StealthKill
	VehicleExplode   VehicleExplode

	Welcome              Welcome
	RemotePlayerSync     RemotePlayerSync
	RemoteVehicleSync    RemoteVehicleSync
	RemoteWeaponShot     RemoteWeaponShot
	RemoteVehicleShot    RemoteVehicleShot
	RemoteProjectile     RemoteProjectile
	RemoteDetonation     RemoteDetonation
	RemoteStealthKill    RemoteStealthKill
	RemoteVehicleExplode RemoteVehicleExplode
	CreateExplosion      CreateExplosion
	CreateFire           CreateFire
	PlayerShow           PlayerShow
	PlayerHide           PlayerHide
	PlayerWasted         PlayerWasted
	PlayerSpawned        PlayerSpawned
	RespawnPlayer        RespawnPlayer
	SetHealth            SetHealth
	SetArmor             SetArmor
	GiveHealth           GiveHealth
	GiveArmor            GiveArmor
	DamageMultipliers    DamageMultipliers
	GiveWeapon           GiveWeapon
	TakeWeapon           TakeWeapon
	SetWeaponAmmo        SetWeaponAmmo
	ClearWeapons         ClearWeapons
	SetArmedWeapon       SetArmedWeapon
	WeaponProperties     WeaponProperties
	SetWeaponSkill       SetWeaponSkill
	SetPlayerPosition    SetPlayerPosition
	SetVehiclePose       SetVehiclePose
	SetVehicleFrozen     SetVehicleFrozen

	Ping       Ping
	Pong       Pong
	Disconnect Disconnect
}
