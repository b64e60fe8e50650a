package wire

import (
	"testing"
)

// facing returns the heading that n steps of 2π/65536 decode to, so samples survive
// the quantization exactly.
func facing(n uint16) float32 { return angleFromWire(n) }

var (
	unitQuat = Quat{W: 0.5, X: 0.5, Y: -0.5, Z: 0.5}
	posA     = Vec3{X: 1523.25, Y: -1720.5, Z: 13.375}
	posB     = Vec3{X: 1530.75, Y: -1712, Z: 14.5}
	posC     = Vec3{X: -2400.125, Y: 95.5, Z: 33}
	velA     = Vec3{X: 3.5, Y: -0.25, Z: -9.8125} // multiples of 1/128
)

// samples returns one valid value of every message, every field set to something other
// than its zero value where the rules allow it.
func samples() []Message {
	return []Message{
		&Hello{},
		&PlayerSync{Seq: 901, VitalRev: 17, DamageSeq: 4, WeaponRev: 33, DeathEpoch: 3, Weapon: 31,
			Alive: true, FireHeld: true, Seat: 2, Clip: 27, Total: 350, Health: 54.25, Armor: 12.5,
			Position: posA, Velocity: velA, Facing: facing(12000), Vehicle: 412},
		&VehicleSync{Seq: 77, Vehicle: 412, Position: posB, Rotation: unitQuat, Velocity: Vec3{X: 30.5, Y: 2, Z: -1}, Health: 875.5},
		&DamageReport{DamageSeq: 5, VitalRev: 17, Attacker: 8, Weapon: 31, BodyPart: BodyHead,
			Ref: Ref{Kind: RefWeaponShot, Seq: 1200}, HealthBefore: 54.25, ArmorBefore: 12.5,
			HealthAfter: 50, ArmorAfter: 0, Loss: 16.75},
		&DeathReport{DeathEpoch: 3, Killer: 8, Weapon: 31, Pose: 7},
		&RespawnRequest{DeathEpoch: 3},
		&WeaponShot{ShotSeq: 1200, DeathEpoch: 9, PropertiesRev: 2, Weapon: 31, HitType: HitPlayer, HitID: 5,
			Origin: posA, HitPos: posB},
		&VehicleShot{ShotSeq: 1201, DeathEpoch: 9, PropertiesRev: 2, Vehicle: 520, Weapon: 38, HitType: HitVehicle,
			HitID: 412, Origin: posB, HitPos: posC},
		&ProjectileLaunch{Projectile: 66, DeathEpoch: 9, Weapon: 35, Vehicle: NoVehicle, Target: 412,
			Origin: posA, Velocity: Vec3{X: 40.125, Y: -3, Z: 2.5}},
		&Detonation{Projectile: 66, DeathEpoch: 9, Weapon: 35, Position: posC},
		&StealthKill{Victim: 5, VictimEpoch: 3, DeathEpoch: 9, Weapon: 4},
		&VehicleExplode{Vehicle: 412, Attacker: 8, Weapon: 51},

		&Welcome{Player: 5, PlayerToken: 0xC0FFEE01},
		&RemotePlayerSync{Player: 5, SyncSeq: 4400, DeathEpoch: 3, Alive: true, FireHeld: true,
			Stamp: Stamp{Teammate: true, Rev: 91}, Seat: 1, DamageGroup: 2, Weapon: 24, Health: 1, Armor: 100,
			Position: posA, Velocity: velA, Facing: facing(65535), Vehicle: 412},
		&RemoteVehicleSync{Vehicle: 412, Driver: 5, SyncSeq: 300, Stamp: Stamp{Teammate: true, Rev: 91},
			Position: posB, Rotation: unitQuat, Velocity: Vec3{X: -255.5, Y: 255.5, Z: 0.0078125}, Health: 250},
		&RemoteWeaponShot{Shooter: 8, ShotSeq: 1200, Weapon: 31, HitType: HitPlayer, HitID: 5,
			Stamp: Stamp{Teammate: false, Rev: 91}, Origin: posA, HitPos: posB,
			Rewind: Rewind{Valid: true, Position: posC, InVehicle: true, Vehicle: 412, VehiclePosition: posB, VehicleRotation: unitQuat}},
		&RemoteVehicleShot{Shooter: 8, Vehicle: 520, ShotSeq: 1201, Weapon: 38, HitType: HitObject, HitID: 900,
			Stamp: Stamp{Teammate: true, Rev: 65535}, Origin: posB, HitPos: posC,
			Rewind: Rewind{Valid: true, Position: posA}},
		&RemoteProjectile{Owner: 8, Projectile: 66, Weapon: 36, Vehicle: 520, Target: NoVehicle,
			Origin: posA, Velocity: Vec3{X: -999.5, Y: 1000, Z: 0.125}, Stamp: Stamp{Teammate: true, Rev: 4}},
		&RemoteDetonation{Owner: 8, Projectile: 66, Weapon: 16, Position: posC, Stamp: Stamp{Teammate: true, Rev: 5}},
		&RemoteStealthKill{Attacker: 8, Victim: 5, VictimEpoch: 3, Weapon: 4, Stamp: Stamp{Teammate: true, Rev: 6}},
		&RemoteVehicleExplode{Vehicle: 412, Author: 8, Weapon: 51, Stamp: Stamp{Teammate: true, Rev: 7}},
		&CreateExplosion{Effect: 12, Creator: 8, Type: 7, Position: posC, Radius: 12.5, Stamp: Stamp{Teammate: true, Rev: 8}},
		&CreateFire{Effect: 13, Creator: 8, Position: posB, Radius: 3.25, Age: 2500, Stamp: Stamp{Teammate: true, Rev: 9}},
		&PlayerShow{Player: 5, PlayerToken: 0xC0FFEE01, DeathEpoch: 3, SyncSeq: 4400, Alive: true, Seat: 8,
			DamageGroup: 2, Weapon: 24, Health: 75.5, Armor: 3, Position: posA, Facing: facing(1), Vehicle: 7},
		&PlayerHide{Player: 5, PlayerToken: 0xC0FFEE01},
		&PlayerWasted{Player: 5, PlayerToken: 0xC0FFEE01, DeathEpoch: 3, Killer: 8, Weapon: 31, Pose: 7},
		&PlayerSpawned{Player: 5, PlayerToken: 0xC0FFEE01, DeathEpoch: 4, SyncSeq: 4401, Position: posB, Facing: facing(32768)},
		&RespawnPlayer{DeathEpoch: 4, Position: posB, Facing: facing(32768)},
		&SetHealth{Rev: 18, Health: 150.5},
		&SetArmor{Rev: 19, Armor: 200},
		&GiveHealth{Rev: 20, Amount: 25, Max: 100},
		&GiveArmor{Rev: 21, Amount: 0.5, Max: 200},
		&DamageMultipliers{Rev: 3, Melee: 1.5, Fire: 0, Spray: 2, Extinguisher: 0.25, Explosion: 100, PredatorGun: 1},
		&GiveWeapon{Rev: 34, Weapon: 24, Ammo: 65535, SetAsCurrent: true},
		&TakeWeapon{Rev: 35, Weapon: 24},
		&SetWeaponAmmo{Rev: 36, Weapon: 31, Total: 300, Clip: 50},
		&ClearWeapons{Rev: 37},
		&SetArmedWeapon{Rev: 38, Weapon: 31},
		&WeaponProperties{Rev: 3, Weapon: 24, DamagePoor: 140, DamageStd: 140, DamagePro: 140, Range: 35.5},
		&SetWeaponSkill{Skill: 2, Level: 999},
		&SetPlayerPosition{Position: posC, Facing: facing(4096)},
		&SetVehiclePose{Vehicle: 412, Position: posB, Rotation: Quat{W: 1}},
		&SetVehicleFrozen{Vehicle: 412, Frozen: true},
		&VehicleShow{Vehicle: 412, Model: 560, SyncSeq: 77, Frozen: true, Health: 650.5, Position: posB, Rotation: Quat{W: 1}},
		&VehicleHide{Vehicle: 412},

		&Ping{Seq: 9, Time: 4000000000},
		&Pong{Seq: 9, Time: 4000000000},
		&Disconnect{Reason: ReasonOverflow},
	}
}

// sampleOf returns the sample of one id.
func sampleOf(t testing.TB, id ID) Message {
	t.Helper()
	for _, m := range samples() {
		if m.ID() == id {
			return m
		}
	}
	t.Fatalf("no sample of %v", id)
	return nil
}

// mustAppend encodes m into a fresh buffer or fails the test.
func mustAppend(t testing.TB, m Message) []byte {
	t.Helper()
	b, err := m.Append(nil)
	if err != nil {
		t.Fatalf("%v: Append: %v", m.ID(), err)
	}
	return b
}

// fieldAt returns the layout row of a message's field.
func fieldAt(t testing.TB, id ID, name string) field {
	t.Helper()
	l := layoutOf(id)
	i := l.fieldIndex(name)
	if i == noField {
		t.Fatalf("%v has no field %s", id, name)
	}
	return l.fields[i]
}
