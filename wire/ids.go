package wire

import "strconv"

// ID is a message id: byte 1 of every message, after the protocol version.
//
// Ids are grouped by direction: 0x01-0x3F client to server, 0x40-0x9F server to
// client, 0xA0-0xAF both ways. 0xF0-0xFF are reserved for the transport (the packets of
// the reliable lane, and IDBundle); this package defines no message there. 0 is never an
// id, so a zeroed buffer is not a message.
type ID uint8

// Client to server.
const (
	IDHello            ID = 0x01
	IDPlayerSync       ID = 0x02
	IDVehicleSync      ID = 0x03
	IDDamageReport     ID = 0x04
	IDDeathReport      ID = 0x05
	IDRespawnRequest   ID = 0x06
	IDWeaponShot       ID = 0x07
	IDVehicleShot      ID = 0x08
	IDProjectileLaunch ID = 0x09
	IDDetonation       ID = 0x0A
	IDStealthKill      ID = 0x0B
	IDVehicleExplode   ID = 0x0C
)

// Server to client.
const (
	IDWelcome              ID = 0x40
	IDRemotePlayerSync     ID = 0x41
	IDRemoteVehicleSync    ID = 0x42
	IDRemoteWeaponShot     ID = 0x43
	IDRemoteVehicleShot    ID = 0x44
	IDRemoteProjectile     ID = 0x45
	IDRemoteDetonation     ID = 0x46
	IDRemoteStealthKill    ID = 0x47
	IDRemoteVehicleExplode ID = 0x48
	IDCreateExplosion      ID = 0x49
	IDCreateFire           ID = 0x4A
	IDPlayerShow           ID = 0x4B
	IDPlayerHide           ID = 0x4C
	IDPlayerWasted         ID = 0x4D
	IDPlayerSpawned        ID = 0x4E
	IDRespawnPlayer        ID = 0x4F
	IDSetHealth            ID = 0x50
	IDSetArmor             ID = 0x51
	IDGiveHealth           ID = 0x52
	IDGiveArmor            ID = 0x53
	IDDamageMultipliers    ID = 0x54
	IDGiveWeapon           ID = 0x55
	IDTakeWeapon           ID = 0x56
	IDSetWeaponAmmo        ID = 0x57
	IDClearWeapons         ID = 0x58
	IDSetArmedWeapon       ID = 0x59
	IDWeaponProperties     ID = 0x5A
	IDSetWeaponSkill       ID = 0x5B
	IDSetPlayerPosition    ID = 0x5C
	IDSetVehiclePose       ID = 0x5D
	IDSetVehicleFrozen     ID = 0x5E
	IDVehicleShow          ID = 0x5F
	IDVehicleHide          ID = 0x60
)

// Both ways.
const (
	IDPing       ID = 0xA0
	IDPong       ID = 0xA1
	IDDisconnect ID = 0xA2
)

// The id range reserved for the transport.
const (
	// FirstTransportID is the first id reserved for the transport's own packets
	// (the reliable lane). Peek reports such an id without error so a read loop can
	// route the packet; Decode refuses it with ErrUnknownID.
	FirstTransportID ID = 0xF0
)

//go:generate go tool stringer -type=Direction,Delivery -linecomment

// Direction says which side sends a message.
type Direction uint8

// The directions of a message.
const (
	ClientToServer Direction = iota + 1 // client to server
	ServerToClient                      // server to client
	BothWays                            // both ways
)

// Delivery says how a message travels.
type Delivery uint8

// The deliveries of a message.
const (
	// Unreliable: a datagram of its own; a later one replaces or outdates it, a lost
	// one is not resent (frames, shots, relays, ping).
	Unreliable Delivery = iota + 1 // unreliable
	// Reliable: a payload of the connection's ordered reliable lane (commands,
	// lifecycle edges, reports that must not be lost).
	Reliable // reliable
	// ReliableIfLethal: unreliable, except the one that kills, which travels on the
	// reliable lane ahead of the DeathReport (vitals' [lethal-report-first]).
	// Only DamageReport travels this way.
	ReliableIfLethal // unreliable; reliable if lethal
)

// catalog lists every message: id, Go type (by constructor), direction and delivery.
// It is the one list the rest of the package (layouts, Decoder, docs, tests) follows;
// methods.go is generated from it (hot.go, the fast paths, from the walks).
//
//go:generate go run ../internal/wiregen/cmd
func catalog() []entry {
	return []entry{
		{IDHello, ClientToServer, Unreliable, func() Message { return new(Hello) }},
		{IDPlayerSync, ClientToServer, Unreliable, func() Message { return new(PlayerSync) }},
		{IDVehicleSync, ClientToServer, Unreliable, func() Message { return new(VehicleSync) }},
		{IDDamageReport, ClientToServer, ReliableIfLethal, func() Message { return new(DamageReport) }},
		{IDDeathReport, ClientToServer, Reliable, func() Message { return new(DeathReport) }},
		{IDRespawnRequest, ClientToServer, Reliable, func() Message { return new(RespawnRequest) }},
		{IDWeaponShot, ClientToServer, Unreliable, func() Message { return new(WeaponShot) }},
		{IDVehicleShot, ClientToServer, Unreliable, func() Message { return new(VehicleShot) }},
		{IDProjectileLaunch, ClientToServer, Unreliable, func() Message { return new(ProjectileLaunch) }},
		{IDDetonation, ClientToServer, Unreliable, func() Message { return new(Detonation) }},
		{IDStealthKill, ClientToServer, Reliable, func() Message { return new(StealthKill) }},
		{IDVehicleExplode, ClientToServer, Reliable, func() Message { return new(VehicleExplode) }},

		{IDWelcome, ServerToClient, Unreliable, func() Message { return new(Welcome) }},
		{IDRemotePlayerSync, ServerToClient, Unreliable, func() Message { return new(RemotePlayerSync) }},
		{IDRemoteVehicleSync, ServerToClient, Unreliable, func() Message { return new(RemoteVehicleSync) }},
		{IDRemoteWeaponShot, ServerToClient, Unreliable, func() Message { return new(RemoteWeaponShot) }},
		{IDRemoteVehicleShot, ServerToClient, Unreliable, func() Message { return new(RemoteVehicleShot) }},
		{IDRemoteProjectile, ServerToClient, Unreliable, func() Message { return new(RemoteProjectile) }},
		{IDRemoteDetonation, ServerToClient, Unreliable, func() Message { return new(RemoteDetonation) }},
		{IDRemoteStealthKill, ServerToClient, Reliable, func() Message { return new(RemoteStealthKill) }},
		{IDRemoteVehicleExplode, ServerToClient, Reliable, func() Message { return new(RemoteVehicleExplode) }},
		{IDCreateExplosion, ServerToClient, Reliable, func() Message { return new(CreateExplosion) }},
		{IDCreateFire, ServerToClient, Reliable, func() Message { return new(CreateFire) }},
		{IDPlayerShow, ServerToClient, Reliable, func() Message { return new(PlayerShow) }},
		{IDPlayerHide, ServerToClient, Reliable, func() Message { return new(PlayerHide) }},
		{IDPlayerWasted, ServerToClient, Reliable, func() Message { return new(PlayerWasted) }},
		{IDPlayerSpawned, ServerToClient, Reliable, func() Message { return new(PlayerSpawned) }},
		{IDRespawnPlayer, ServerToClient, Reliable, func() Message { return new(RespawnPlayer) }},
		{IDSetHealth, ServerToClient, Reliable, func() Message { return new(SetHealth) }},
		{IDSetArmor, ServerToClient, Reliable, func() Message { return new(SetArmor) }},
		{IDGiveHealth, ServerToClient, Reliable, func() Message { return new(GiveHealth) }},
		{IDGiveArmor, ServerToClient, Reliable, func() Message { return new(GiveArmor) }},
		{IDDamageMultipliers, ServerToClient, Reliable, func() Message { return new(DamageMultipliers) }},
		{IDGiveWeapon, ServerToClient, Reliable, func() Message { return new(GiveWeapon) }},
		{IDTakeWeapon, ServerToClient, Reliable, func() Message { return new(TakeWeapon) }},
		{IDSetWeaponAmmo, ServerToClient, Reliable, func() Message { return new(SetWeaponAmmo) }},
		{IDClearWeapons, ServerToClient, Reliable, func() Message { return new(ClearWeapons) }},
		{IDSetArmedWeapon, ServerToClient, Reliable, func() Message { return new(SetArmedWeapon) }},
		{IDWeaponProperties, ServerToClient, Reliable, func() Message { return new(WeaponProperties) }},
		{IDSetWeaponSkill, ServerToClient, Reliable, func() Message { return new(SetWeaponSkill) }},
		{IDSetPlayerPosition, ServerToClient, Reliable, func() Message { return new(SetPlayerPosition) }},
		{IDSetVehiclePose, ServerToClient, Reliable, func() Message { return new(SetVehiclePose) }},
		{IDSetVehicleFrozen, ServerToClient, Reliable, func() Message { return new(SetVehicleFrozen) }},
		{IDVehicleShow, ServerToClient, Reliable, func() Message { return new(VehicleShow) }},
		{IDVehicleHide, ServerToClient, Reliable, func() Message { return new(VehicleHide) }},

		{IDPing, BothWays, Unreliable, func() Message { return new(Ping) }},
		{IDPong, BothWays, Unreliable, func() Message { return new(Pong) }},
		{IDDisconnect, BothWays, Unreliable, func() Message { return new(Disconnect) }},
	}
}

type entry struct {
	id       ID
	dir      Direction
	delivery Delivery
	new      func() Message
}

// Known reports whether the id names a message of this package.
func (id ID) Known() bool { return layoutOf(id) != nil }

// Transport reports whether the id lies in the range reserved for the transport.
func (id ID) Transport() bool { return id >= FirstTransportID }

// String returns the message's Go type name, "Bundle" for IDBundle, or "ID(0x..)" for
// another id.
func (id ID) String() string {
	if l := layoutOf(id); l != nil {
		return l.name
	}
	if id == IDBundle {
		return "Bundle"
	}
	return "ID(0x" + strconv.FormatUint(uint64(id), 16) + ")"
}

// Size returns the encoded size of the message in bytes, header included (every
// message has a fixed size), or 0 for an unknown id.
func (id ID) Size() int {
	if l := layoutOf(id); l != nil {
		return l.size
	}
	return 0
}

// Direction returns which side sends the message, or 0 for an unknown id. A server
// should drop a ServerToClient message arriving from a client, and the other way round.
func (id ID) Direction() Direction {
	if l := layoutOf(id); l != nil {
		return l.dir
	}
	return 0
}

// Delivery returns how the message travels, or 0 for an unknown id.
func (id ID) Delivery() Delivery {
	if l := layoutOf(id); l != nil {
		return l.delivery
	}
	return 0
}

// IDs returns every message id this package defines, in increasing order.
func IDs() []ID {
	all := catalog()
	ids := make([]ID, len(all))
	for i, e := range all {
		ids[i] = e.id
	}
	return ids
}

// New returns a new zero message of the given id, or nil for an unknown id. It
// allocates; a read loop uses a Decoder instead.
func New(id ID) Message {
	if l := layoutOf(id); l != nil {
		return l.new()
	}
	return nil
}

// Peek reads the header of an encoded message for dispatch: the id, after checking the
// protocol version. It returns ErrTruncated for fewer than HeaderSize bytes, ErrVersion
// for another version, and ErrUnknownID (with the id, for logging) for an id that is
// neither a message of this package nor in the transport range. It does not look past
// the header and does not allocate.
func Peek(b []byte) (ID, error) {
	if len(b) < HeaderSize {
		return 0, ErrTruncated
	}
	if b[0] != Version {
		return 0, ErrVersion
	}
	id := ID(b[1])
	if !id.Known() && !id.Transport() {
		return id, ErrUnknownID
	}
	return id, nil
}

// Critical reports whether a message must never be refused by the reliable lane, even
// above its soft cap: the lifecycle edges PlayerWasted and PlayerSpawned (lifecycle's [lifecycle-edges]),
// every SetHealth to 0 (vitals' [server-zero-after-death]), the
// victim's own DeathReport (its pose is what every screen shows), and the lethal
// DamageReport (HealthAfter 0), which travels on the lane ahead of that DeathReport and
// must not be refused while the DeathReport behind it is taken. A lane that cannot take
// a critical message disconnects the peer instead.
func Critical(m Message) bool {
	switch m := m.(type) {
	case *PlayerWasted, *PlayerSpawned, *DeathReport:
		return true
	case *SetHealth:
		return m.Health == 0
	case *DamageReport:
		return m.HealthAfter == 0
	}
	return false
}
