package wire

// The methods below are the same for every message. They are spelled out per type on
// purpose: a shared generic or interface-typed helper would hide the concrete type from
// the compiler, and the message (the caller's, or the decode copy) would escape to the
// heap, costing an allocation per call. Spelled out, Append and Decode allocate nothing.
// TestEveryMessageHasItsMethods checks that each type's methods name its own id. The
// hot messages have their own Append and Decode in hot.go.

// ID returns IDHello.
func (*Hello) ID() ID { return IDHello }

// Append validates m and appends its Hello encoding to dst; see Message.
func (m *Hello) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDHello)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one Hello from b into m; on error m is unchanged. See Message.
func (m *Hello) Decode(b []byte) error {
	c, err := startDecode(b, IDHello)
	if err != nil {
		return err
	}
	var t Hello
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *Hello) String() string { return format(m) }

// ID returns IDPlayerSync.
func (*PlayerSync) ID() ID { return IDPlayerSync }

// String returns the fields of m in wire order; see Message.
func (m *PlayerSync) String() string { return format(m) }

// ID returns IDVehicleSync.
func (*VehicleSync) ID() ID { return IDVehicleSync }

// String returns the fields of m in wire order; see Message.
func (m *VehicleSync) String() string { return format(m) }

// ID returns IDDamageReport.
func (*DamageReport) ID() ID { return IDDamageReport }

// String returns the fields of m in wire order; see Message.
func (m *DamageReport) String() string { return format(m) }

// ID returns IDDeathReport.
func (*DeathReport) ID() ID { return IDDeathReport }

// Append validates m and appends its DeathReport encoding to dst; see Message.
func (m *DeathReport) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDDeathReport)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one DeathReport from b into m; on error m is unchanged. See Message.
func (m *DeathReport) Decode(b []byte) error {
	c, err := startDecode(b, IDDeathReport)
	if err != nil {
		return err
	}
	var t DeathReport
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *DeathReport) String() string { return format(m) }

// ID returns IDRespawnRequest.
func (*RespawnRequest) ID() ID { return IDRespawnRequest }

// Append validates m and appends its RespawnRequest encoding to dst; see Message.
func (m *RespawnRequest) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDRespawnRequest)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one RespawnRequest from b into m; on error m is unchanged. See Message.
func (m *RespawnRequest) Decode(b []byte) error {
	c, err := startDecode(b, IDRespawnRequest)
	if err != nil {
		return err
	}
	var t RespawnRequest
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *RespawnRequest) String() string { return format(m) }

// ID returns IDWeaponShot.
func (*WeaponShot) ID() ID { return IDWeaponShot }

// String returns the fields of m in wire order; see Message.
func (m *WeaponShot) String() string { return format(m) }

// ID returns IDVehicleShot.
func (*VehicleShot) ID() ID { return IDVehicleShot }

// String returns the fields of m in wire order; see Message.
func (m *VehicleShot) String() string { return format(m) }

// ID returns IDProjectileLaunch.
func (*ProjectileLaunch) ID() ID { return IDProjectileLaunch }

// Append validates m and appends its ProjectileLaunch encoding to dst; see Message.
func (m *ProjectileLaunch) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDProjectileLaunch)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one ProjectileLaunch from b into m; on error m is unchanged. See Message.
func (m *ProjectileLaunch) Decode(b []byte) error {
	c, err := startDecode(b, IDProjectileLaunch)
	if err != nil {
		return err
	}
	var t ProjectileLaunch
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *ProjectileLaunch) String() string { return format(m) }

// ID returns IDDetonation.
func (*Detonation) ID() ID { return IDDetonation }

// Append validates m and appends its Detonation encoding to dst; see Message.
func (m *Detonation) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDDetonation)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one Detonation from b into m; on error m is unchanged. See Message.
func (m *Detonation) Decode(b []byte) error {
	c, err := startDecode(b, IDDetonation)
	if err != nil {
		return err
	}
	var t Detonation
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *Detonation) String() string { return format(m) }

// ID returns IDStealthKill.
func (*StealthKill) ID() ID { return IDStealthKill }

// Append validates m and appends its StealthKill encoding to dst; see Message.
func (m *StealthKill) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDStealthKill)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one StealthKill from b into m; on error m is unchanged. See Message.
func (m *StealthKill) Decode(b []byte) error {
	c, err := startDecode(b, IDStealthKill)
	if err != nil {
		return err
	}
	var t StealthKill
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *StealthKill) String() string { return format(m) }

// ID returns IDVehicleExplode.
func (*VehicleExplode) ID() ID { return IDVehicleExplode }

// Append validates m and appends its VehicleExplode encoding to dst; see Message.
func (m *VehicleExplode) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDVehicleExplode)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one VehicleExplode from b into m; on error m is unchanged. See Message.
func (m *VehicleExplode) Decode(b []byte) error {
	c, err := startDecode(b, IDVehicleExplode)
	if err != nil {
		return err
	}
	var t VehicleExplode
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *VehicleExplode) String() string { return format(m) }

// ID returns IDWelcome.
func (*Welcome) ID() ID { return IDWelcome }

// Append validates m and appends its Welcome encoding to dst; see Message.
func (m *Welcome) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDWelcome)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one Welcome from b into m; on error m is unchanged. See Message.
func (m *Welcome) Decode(b []byte) error {
	c, err := startDecode(b, IDWelcome)
	if err != nil {
		return err
	}
	var t Welcome
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *Welcome) String() string { return format(m) }

// ID returns IDRemotePlayerSync.
func (*RemotePlayerSync) ID() ID { return IDRemotePlayerSync }

// String returns the fields of m in wire order; see Message.
func (m *RemotePlayerSync) String() string { return format(m) }

// ID returns IDRemoteVehicleSync.
func (*RemoteVehicleSync) ID() ID { return IDRemoteVehicleSync }

// String returns the fields of m in wire order; see Message.
func (m *RemoteVehicleSync) String() string { return format(m) }

// ID returns IDRemoteWeaponShot.
func (*RemoteWeaponShot) ID() ID { return IDRemoteWeaponShot }

// String returns the fields of m in wire order; see Message.
func (m *RemoteWeaponShot) String() string { return format(m) }

// ID returns IDRemoteVehicleShot.
func (*RemoteVehicleShot) ID() ID { return IDRemoteVehicleShot }

// String returns the fields of m in wire order; see Message.
func (m *RemoteVehicleShot) String() string { return format(m) }

// ID returns IDRemoteProjectile.
func (*RemoteProjectile) ID() ID { return IDRemoteProjectile }

// Append validates m and appends its RemoteProjectile encoding to dst; see Message.
func (m *RemoteProjectile) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDRemoteProjectile)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one RemoteProjectile from b into m; on error m is unchanged. See Message.
func (m *RemoteProjectile) Decode(b []byte) error {
	c, err := startDecode(b, IDRemoteProjectile)
	if err != nil {
		return err
	}
	var t RemoteProjectile
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *RemoteProjectile) String() string { return format(m) }

// ID returns IDRemoteDetonation.
func (*RemoteDetonation) ID() ID { return IDRemoteDetonation }

// Append validates m and appends its RemoteDetonation encoding to dst; see Message.
func (m *RemoteDetonation) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDRemoteDetonation)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one RemoteDetonation from b into m; on error m is unchanged. See Message.
func (m *RemoteDetonation) Decode(b []byte) error {
	c, err := startDecode(b, IDRemoteDetonation)
	if err != nil {
		return err
	}
	var t RemoteDetonation
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *RemoteDetonation) String() string { return format(m) }

// ID returns IDRemoteStealthKill.
func (*RemoteStealthKill) ID() ID { return IDRemoteStealthKill }

// Append validates m and appends its RemoteStealthKill encoding to dst; see Message.
func (m *RemoteStealthKill) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDRemoteStealthKill)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one RemoteStealthKill from b into m; on error m is unchanged. See Message.
func (m *RemoteStealthKill) Decode(b []byte) error {
	c, err := startDecode(b, IDRemoteStealthKill)
	if err != nil {
		return err
	}
	var t RemoteStealthKill
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *RemoteStealthKill) String() string { return format(m) }

// ID returns IDRemoteVehicleExplode.
func (*RemoteVehicleExplode) ID() ID { return IDRemoteVehicleExplode }

// Append validates m and appends its RemoteVehicleExplode encoding to dst; see Message.
func (m *RemoteVehicleExplode) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDRemoteVehicleExplode)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one RemoteVehicleExplode from b into m; on error m is unchanged. See Message.
func (m *RemoteVehicleExplode) Decode(b []byte) error {
	c, err := startDecode(b, IDRemoteVehicleExplode)
	if err != nil {
		return err
	}
	var t RemoteVehicleExplode
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *RemoteVehicleExplode) String() string { return format(m) }

// ID returns IDCreateExplosion.
func (*CreateExplosion) ID() ID { return IDCreateExplosion }

// Append validates m and appends its CreateExplosion encoding to dst; see Message.
func (m *CreateExplosion) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDCreateExplosion)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one CreateExplosion from b into m; on error m is unchanged. See Message.
func (m *CreateExplosion) Decode(b []byte) error {
	c, err := startDecode(b, IDCreateExplosion)
	if err != nil {
		return err
	}
	var t CreateExplosion
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *CreateExplosion) String() string { return format(m) }

// ID returns IDCreateFire.
func (*CreateFire) ID() ID { return IDCreateFire }

// Append validates m and appends its CreateFire encoding to dst; see Message.
func (m *CreateFire) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDCreateFire)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one CreateFire from b into m; on error m is unchanged. See Message.
func (m *CreateFire) Decode(b []byte) error {
	c, err := startDecode(b, IDCreateFire)
	if err != nil {
		return err
	}
	var t CreateFire
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *CreateFire) String() string { return format(m) }

// ID returns IDPlayerShow.
func (*PlayerShow) ID() ID { return IDPlayerShow }

// Append validates m and appends its PlayerShow encoding to dst; see Message.
func (m *PlayerShow) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDPlayerShow)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one PlayerShow from b into m; on error m is unchanged. See Message.
func (m *PlayerShow) Decode(b []byte) error {
	c, err := startDecode(b, IDPlayerShow)
	if err != nil {
		return err
	}
	var t PlayerShow
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *PlayerShow) String() string { return format(m) }

// ID returns IDPlayerHide.
func (*PlayerHide) ID() ID { return IDPlayerHide }

// Append validates m and appends its PlayerHide encoding to dst; see Message.
func (m *PlayerHide) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDPlayerHide)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one PlayerHide from b into m; on error m is unchanged. See Message.
func (m *PlayerHide) Decode(b []byte) error {
	c, err := startDecode(b, IDPlayerHide)
	if err != nil {
		return err
	}
	var t PlayerHide
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *PlayerHide) String() string { return format(m) }

// ID returns IDPlayerWasted.
func (*PlayerWasted) ID() ID { return IDPlayerWasted }

// Append validates m and appends its PlayerWasted encoding to dst; see Message.
func (m *PlayerWasted) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDPlayerWasted)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one PlayerWasted from b into m; on error m is unchanged. See Message.
func (m *PlayerWasted) Decode(b []byte) error {
	c, err := startDecode(b, IDPlayerWasted)
	if err != nil {
		return err
	}
	var t PlayerWasted
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *PlayerWasted) String() string { return format(m) }

// ID returns IDPlayerSpawned.
func (*PlayerSpawned) ID() ID { return IDPlayerSpawned }

// Append validates m and appends its PlayerSpawned encoding to dst; see Message.
func (m *PlayerSpawned) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDPlayerSpawned)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one PlayerSpawned from b into m; on error m is unchanged. See Message.
func (m *PlayerSpawned) Decode(b []byte) error {
	c, err := startDecode(b, IDPlayerSpawned)
	if err != nil {
		return err
	}
	var t PlayerSpawned
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *PlayerSpawned) String() string { return format(m) }

// ID returns IDRespawnPlayer.
func (*RespawnPlayer) ID() ID { return IDRespawnPlayer }

// Append validates m and appends its RespawnPlayer encoding to dst; see Message.
func (m *RespawnPlayer) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDRespawnPlayer)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one RespawnPlayer from b into m; on error m is unchanged. See Message.
func (m *RespawnPlayer) Decode(b []byte) error {
	c, err := startDecode(b, IDRespawnPlayer)
	if err != nil {
		return err
	}
	var t RespawnPlayer
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *RespawnPlayer) String() string { return format(m) }

// ID returns IDSetHealth.
func (*SetHealth) ID() ID { return IDSetHealth }

// Append validates m and appends its SetHealth encoding to dst; see Message.
func (m *SetHealth) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDSetHealth)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one SetHealth from b into m; on error m is unchanged. See Message.
func (m *SetHealth) Decode(b []byte) error {
	c, err := startDecode(b, IDSetHealth)
	if err != nil {
		return err
	}
	var t SetHealth
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *SetHealth) String() string { return format(m) }

// ID returns IDSetArmor.
func (*SetArmor) ID() ID { return IDSetArmor }

// Append validates m and appends its SetArmor encoding to dst; see Message.
func (m *SetArmor) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDSetArmor)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one SetArmor from b into m; on error m is unchanged. See Message.
func (m *SetArmor) Decode(b []byte) error {
	c, err := startDecode(b, IDSetArmor)
	if err != nil {
		return err
	}
	var t SetArmor
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *SetArmor) String() string { return format(m) }

// ID returns IDGiveHealth.
func (*GiveHealth) ID() ID { return IDGiveHealth }

// Append validates m and appends its GiveHealth encoding to dst; see Message.
func (m *GiveHealth) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDGiveHealth)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one GiveHealth from b into m; on error m is unchanged. See Message.
func (m *GiveHealth) Decode(b []byte) error {
	c, err := startDecode(b, IDGiveHealth)
	if err != nil {
		return err
	}
	var t GiveHealth
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *GiveHealth) String() string { return format(m) }

// ID returns IDGiveArmor.
func (*GiveArmor) ID() ID { return IDGiveArmor }

// Append validates m and appends its GiveArmor encoding to dst; see Message.
func (m *GiveArmor) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDGiveArmor)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one GiveArmor from b into m; on error m is unchanged. See Message.
func (m *GiveArmor) Decode(b []byte) error {
	c, err := startDecode(b, IDGiveArmor)
	if err != nil {
		return err
	}
	var t GiveArmor
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *GiveArmor) String() string { return format(m) }

// ID returns IDDamageMultipliers.
func (*DamageMultipliers) ID() ID { return IDDamageMultipliers }

// Append validates m and appends its DamageMultipliers encoding to dst; see Message.
func (m *DamageMultipliers) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDDamageMultipliers)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one DamageMultipliers from b into m; on error m is unchanged. See Message.
func (m *DamageMultipliers) Decode(b []byte) error {
	c, err := startDecode(b, IDDamageMultipliers)
	if err != nil {
		return err
	}
	var t DamageMultipliers
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *DamageMultipliers) String() string { return format(m) }

// ID returns IDGiveWeapon.
func (*GiveWeapon) ID() ID { return IDGiveWeapon }

// Append validates m and appends its GiveWeapon encoding to dst; see Message.
func (m *GiveWeapon) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDGiveWeapon)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one GiveWeapon from b into m; on error m is unchanged. See Message.
func (m *GiveWeapon) Decode(b []byte) error {
	c, err := startDecode(b, IDGiveWeapon)
	if err != nil {
		return err
	}
	var t GiveWeapon
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *GiveWeapon) String() string { return format(m) }

// ID returns IDTakeWeapon.
func (*TakeWeapon) ID() ID { return IDTakeWeapon }

// Append validates m and appends its TakeWeapon encoding to dst; see Message.
func (m *TakeWeapon) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDTakeWeapon)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one TakeWeapon from b into m; on error m is unchanged. See Message.
func (m *TakeWeapon) Decode(b []byte) error {
	c, err := startDecode(b, IDTakeWeapon)
	if err != nil {
		return err
	}
	var t TakeWeapon
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *TakeWeapon) String() string { return format(m) }

// ID returns IDSetWeaponAmmo.
func (*SetWeaponAmmo) ID() ID { return IDSetWeaponAmmo }

// Append validates m and appends its SetWeaponAmmo encoding to dst; see Message.
func (m *SetWeaponAmmo) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDSetWeaponAmmo)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one SetWeaponAmmo from b into m; on error m is unchanged. See Message.
func (m *SetWeaponAmmo) Decode(b []byte) error {
	c, err := startDecode(b, IDSetWeaponAmmo)
	if err != nil {
		return err
	}
	var t SetWeaponAmmo
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *SetWeaponAmmo) String() string { return format(m) }

// ID returns IDClearWeapons.
func (*ClearWeapons) ID() ID { return IDClearWeapons }

// Append validates m and appends its ClearWeapons encoding to dst; see Message.
func (m *ClearWeapons) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDClearWeapons)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one ClearWeapons from b into m; on error m is unchanged. See Message.
func (m *ClearWeapons) Decode(b []byte) error {
	c, err := startDecode(b, IDClearWeapons)
	if err != nil {
		return err
	}
	var t ClearWeapons
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *ClearWeapons) String() string { return format(m) }

// ID returns IDSetArmedWeapon.
func (*SetArmedWeapon) ID() ID { return IDSetArmedWeapon }

// Append validates m and appends its SetArmedWeapon encoding to dst; see Message.
func (m *SetArmedWeapon) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDSetArmedWeapon)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one SetArmedWeapon from b into m; on error m is unchanged. See Message.
func (m *SetArmedWeapon) Decode(b []byte) error {
	c, err := startDecode(b, IDSetArmedWeapon)
	if err != nil {
		return err
	}
	var t SetArmedWeapon
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *SetArmedWeapon) String() string { return format(m) }

// ID returns IDWeaponProperties.
func (*WeaponProperties) ID() ID { return IDWeaponProperties }

// Append validates m and appends its WeaponProperties encoding to dst; see Message.
func (m *WeaponProperties) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDWeaponProperties)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one WeaponProperties from b into m; on error m is unchanged. See Message.
func (m *WeaponProperties) Decode(b []byte) error {
	c, err := startDecode(b, IDWeaponProperties)
	if err != nil {
		return err
	}
	var t WeaponProperties
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *WeaponProperties) String() string { return format(m) }

// ID returns IDSetWeaponSkill.
func (*SetWeaponSkill) ID() ID { return IDSetWeaponSkill }

// Append validates m and appends its SetWeaponSkill encoding to dst; see Message.
func (m *SetWeaponSkill) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDSetWeaponSkill)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one SetWeaponSkill from b into m; on error m is unchanged. See Message.
func (m *SetWeaponSkill) Decode(b []byte) error {
	c, err := startDecode(b, IDSetWeaponSkill)
	if err != nil {
		return err
	}
	var t SetWeaponSkill
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *SetWeaponSkill) String() string { return format(m) }

// ID returns IDSetPlayerPosition.
func (*SetPlayerPosition) ID() ID { return IDSetPlayerPosition }

// Append validates m and appends its SetPlayerPosition encoding to dst; see Message.
func (m *SetPlayerPosition) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDSetPlayerPosition)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one SetPlayerPosition from b into m; on error m is unchanged. See Message.
func (m *SetPlayerPosition) Decode(b []byte) error {
	c, err := startDecode(b, IDSetPlayerPosition)
	if err != nil {
		return err
	}
	var t SetPlayerPosition
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *SetPlayerPosition) String() string { return format(m) }

// ID returns IDSetVehiclePose.
func (*SetVehiclePose) ID() ID { return IDSetVehiclePose }

// Append validates m and appends its SetVehiclePose encoding to dst; see Message.
func (m *SetVehiclePose) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDSetVehiclePose)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one SetVehiclePose from b into m; on error m is unchanged. See Message.
func (m *SetVehiclePose) Decode(b []byte) error {
	c, err := startDecode(b, IDSetVehiclePose)
	if err != nil {
		return err
	}
	var t SetVehiclePose
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *SetVehiclePose) String() string { return format(m) }

// ID returns IDSetVehicleFrozen.
func (*SetVehicleFrozen) ID() ID { return IDSetVehicleFrozen }

// Append validates m and appends its SetVehicleFrozen encoding to dst; see Message.
func (m *SetVehicleFrozen) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDSetVehicleFrozen)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one SetVehicleFrozen from b into m; on error m is unchanged. See Message.
func (m *SetVehicleFrozen) Decode(b []byte) error {
	c, err := startDecode(b, IDSetVehicleFrozen)
	if err != nil {
		return err
	}
	var t SetVehicleFrozen
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *SetVehicleFrozen) String() string { return format(m) }

// ID returns IDPing.
func (*Ping) ID() ID { return IDPing }

// Append validates m and appends its Ping encoding to dst; see Message.
func (m *Ping) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDPing)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one Ping from b into m; on error m is unchanged. See Message.
func (m *Ping) Decode(b []byte) error {
	c, err := startDecode(b, IDPing)
	if err != nil {
		return err
	}
	var t Ping
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *Ping) String() string { return format(m) }

// ID returns IDPong.
func (*Pong) ID() ID { return IDPong }

// Append validates m and appends its Pong encoding to dst; see Message.
func (m *Pong) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDPong)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one Pong from b into m; on error m is unchanged. See Message.
func (m *Pong) Decode(b []byte) error {
	c, err := startDecode(b, IDPong)
	if err != nil {
		return err
	}
	var t Pong
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *Pong) String() string { return format(m) }

// ID returns IDDisconnect.
func (*Disconnect) ID() ID { return IDDisconnect }

// Append validates m and appends its Disconnect encoding to dst; see Message.
func (m *Disconnect) Append(dst []byte) ([]byte, error) {
	c := startEncode(dst, IDDisconnect)
	m.walk(&c)
	return c.endEncode(dst)
}

// Decode decodes one Disconnect from b into m; on error m is unchanged. See Message.
func (m *Disconnect) Decode(b []byte) error {
	c, err := startDecode(b, IDDisconnect)
	if err != nil {
		return err
	}
	var t Disconnect
	t.walk(&c)
	if err := c.endDecode(); err != nil {
		return err
	}
	*m = t
	return nil
}

// String returns the fields of m in wire order; see Message.
func (m *Disconnect) String() string { return format(m) }

// Decode decodes one message of any type from b into the Decoder's value of that type
// and returns a pointer to it. Errors are those of Peek and of the type's Decode; a
// transport id (FirstTransportID and above) is ErrUnknownID here. Decode does not
// allocate.
func (d *Decoder) Decode(b []byte) (Message, error) {
	id, err := Peek(b)
	if err != nil {
		return nil, err
	}
	var m Message
	switch id {
	case IDHello:
		m = &d.Hello
	case IDPlayerSync:
		m = &d.PlayerSync
	case IDVehicleSync:
		m = &d.VehicleSync
	case IDDamageReport:
		m = &d.DamageReport
	case IDDeathReport:
		m = &d.DeathReport
	case IDRespawnRequest:
		m = &d.RespawnRequest
	case IDWeaponShot:
		m = &d.WeaponShot
	case IDVehicleShot:
		m = &d.VehicleShot
	case IDProjectileLaunch:
		m = &d.ProjectileLaunch
	case IDDetonation:
		m = &d.Detonation
	case IDStealthKill:
		m = &d.StealthKill
	case IDVehicleExplode:
		m = &d.VehicleExplode
	case IDWelcome:
		m = &d.Welcome
	case IDRemotePlayerSync:
		m = &d.RemotePlayerSync
	case IDRemoteVehicleSync:
		m = &d.RemoteVehicleSync
	case IDRemoteWeaponShot:
		m = &d.RemoteWeaponShot
	case IDRemoteVehicleShot:
		m = &d.RemoteVehicleShot
	case IDRemoteProjectile:
		m = &d.RemoteProjectile
	case IDRemoteDetonation:
		m = &d.RemoteDetonation
	case IDRemoteStealthKill:
		m = &d.RemoteStealthKill
	case IDRemoteVehicleExplode:
		m = &d.RemoteVehicleExplode
	case IDCreateExplosion:
		m = &d.CreateExplosion
	case IDCreateFire:
		m = &d.CreateFire
	case IDPlayerShow:
		m = &d.PlayerShow
	case IDPlayerHide:
		m = &d.PlayerHide
	case IDPlayerWasted:
		m = &d.PlayerWasted
	case IDPlayerSpawned:
		m = &d.PlayerSpawned
	case IDRespawnPlayer:
		m = &d.RespawnPlayer
	case IDSetHealth:
		m = &d.SetHealth
	case IDSetArmor:
		m = &d.SetArmor
	case IDGiveHealth:
		m = &d.GiveHealth
	case IDGiveArmor:
		m = &d.GiveArmor
	case IDDamageMultipliers:
		m = &d.DamageMultipliers
	case IDGiveWeapon:
		m = &d.GiveWeapon
	case IDTakeWeapon:
		m = &d.TakeWeapon
	case IDSetWeaponAmmo:
		m = &d.SetWeaponAmmo
	case IDClearWeapons:
		m = &d.ClearWeapons
	case IDSetArmedWeapon:
		m = &d.SetArmedWeapon
	case IDWeaponProperties:
		m = &d.WeaponProperties
	case IDSetWeaponSkill:
		m = &d.SetWeaponSkill
	case IDSetPlayerPosition:
		m = &d.SetPlayerPosition
	case IDSetVehiclePose:
		m = &d.SetVehiclePose
	case IDSetVehicleFrozen:
		m = &d.SetVehicleFrozen
	case IDPing:
		m = &d.Ping
	case IDPong:
		m = &d.Pong
	case IDDisconnect:
		m = &d.Disconnect
	default:
		return nil, ErrUnknownID
	}
	if err := m.Decode(b); err != nil {
		return nil, err
	}
	return m, nil
}
