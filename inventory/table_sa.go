package inventory

import "time"

// DefaultTable returns the weapon catalogue of GTA San Andreas, ids 0..46: the defaults
// of a Catalog. The figures are the game data file gta-sa-weapons.tsv (a copy lives in
// testdata/, and a test checks this table against it field by field):
//
//   - slot, kind, pooled ammo and skill stat as the game has them;
//
//   - clip and raw damage per skill tier (poor, std, pro); weapons without tiers repeat
//     the standard figure; melee, thrown and special weapons have no damage figure;
//
//   - pellets of the three shotguns;
//
//   - StatRange is the game's own range, Range the generous server-side limit used to
//     validate a shot's ray (the data's range_generous_m);
//
//   - MinInterval is the fastest allowed gap between shots; the data's "-" (thrown
//     weapons, rockets, the flamethrower, special weapons) is 0: not rate-checked.
//
//   - the behaviour columns the data file has no column for, from the game: Credits, 8
//     for the Combat Shotgun, from the data README's doubt on its pellets (the game fires
//     4, a widely used server check accepts 8 x its damage from one shot); StealthKill
//     for the knife, the one weapon of the game's stealth kill; Cause, the explosion for
//     the thrown weapons, the rockets and the satchel, fire for the molotov, and for the
//     continuous weapons the cause of their spray, which is their own id (37 fire, 41
//     spraycan, 42 extinguisher: the game's damage cause numbering); Flies for the two
//     rockets (the data README's "rockets 35, 36" among the projectiles) and Sticks for
//     the satchel charge, which in the game sticks to what it lands on, a vehicle too.
//
// The unused ids 19-21 are KindNone: no weapon. The detonator (40) and the spraycan and
// extinguisher intervals are copied as the data has them, although no WeaponShot names
// those weapons.
//
// Each call returns a fresh copy; change it and pass it in Config.Table or
// Catalog.Update to tune a server.
func DefaultTable() Table {
	const ms = time.Millisecond
	return Table{
		0:  {Name: "Fist", Kind: KindFist, Slot: 0, Range: 1.76, MinInterval: 250 * ms},
		1:  {Name: "Brassknuckle", Kind: KindMelee, Slot: 0, Range: 1.76, MinInterval: 250 * ms},
		2:  {Name: "Golfclub", Kind: KindMelee, Slot: 1, Range: 1.76, MinInterval: 250 * ms},
		3:  {Name: "Nightstick", Kind: KindMelee, Slot: 1, Range: 1.76, MinInterval: 250 * ms},
		4:  {Name: "Knife", Kind: KindMelee, Slot: 1, Range: 1.76, MinInterval: 250 * ms, StealthKill: true},
		5:  {Name: "Bat", Kind: KindMelee, Slot: 1, Range: 1.76, MinInterval: 250 * ms},
		6:  {Name: "Shovel", Kind: KindMelee, Slot: 1, Range: 1.6, MinInterval: 250 * ms},
		7:  {Name: "Poolstick", Kind: KindMelee, Slot: 1, Range: 1.76, MinInterval: 250 * ms},
		8:  {Name: "Katana", Kind: KindMelee, Slot: 1, Range: 1.76, MinInterval: 250 * ms},
		9:  {Name: "Chainsaw", Kind: KindMelee, Slot: 1, Range: 1.76, MinInterval: 30 * ms},
		10: {Name: "Purple Dildo", Kind: KindMelee, Slot: 10, Range: 1.76, MinInterval: 250 * ms},
		11: {Name: "Dildo", Kind: KindMelee, Slot: 10, Range: 1.76, MinInterval: 250 * ms},
		12: {Name: "Vibrator", Kind: KindMelee, Slot: 10, Range: 1.76, MinInterval: 250 * ms},
		13: {Name: "Silver Vibrator", Kind: KindMelee, Slot: 10, Range: 1.76, MinInterval: 250 * ms},
		14: {Name: "Flower", Kind: KindMelee, Slot: 10, Range: 1.76, MinInterval: 250 * ms},
		15: {Name: "Cane", Kind: KindMelee, Slot: 10, Range: 1.76, MinInterval: 250 * ms},
		16: {Name: "Grenade", Kind: KindProjectile, Slot: 8, Clip: tiers16(1, 1, 1), Range: 40, Cause: CauseExplosion},
		17: {Name: "Teargas", Kind: KindProjectile, Slot: 8, Clip: tiers16(1, 1, 1), Range: 40, Cause: CauseExplosion},
		18: {Name: "Molotov", Kind: KindProjectile, Slot: 8, Clip: tiers16(1, 1, 1), Range: 40, Cause: CauseFire},
		19: {Name: "unused", Kind: KindNone, Slot: NoSlot},
		20: {Name: "unused", Kind: KindNone, Slot: NoSlot},
		21: {Name: "unused", Kind: KindNone, Slot: NoSlot},
		22: {Name: "Colt 45", Kind: KindBullet, Slot: 2, Skill: SkillPistol, Clip: tiers16(17, 17, 34), HasDamage: true, Damage: tiers32(25, 25, 25), StatRange: 35, Range: 35, MinInterval: 160 * ms},
		23: {Name: "Silenced", Kind: KindBullet, Slot: 2, Skill: SkillSilenced, Clip: tiers16(17, 17, 17), HasDamage: true, Damage: tiers32(40, 40, 40), StatRange: 35, Range: 35, MinInterval: 120 * ms},
		24: {Name: "Deagle", Kind: KindBullet, Slot: 2, Skill: SkillDesertEagle, Clip: tiers16(7, 7, 7), HasDamage: true, Damage: tiers32(70, 140, 140), StatRange: 35, Range: 35, MinInterval: 120 * ms},
		25: {Name: "Shotgun", Kind: KindBullet, Slot: 3, Pooled: true, Skill: SkillShotgun, Clip: tiers16(1, 1, 1), HasDamage: true, Damage: tiers32(10, 10, 10), Pellets: 15, StatRange: 40, Range: 40, MinInterval: 800 * ms},
		26: {Name: "Sawed-off", Kind: KindBullet, Slot: 3, Pooled: true, Skill: SkillSawnOff, Clip: tiers16(2, 2, 4), HasDamage: true, Damage: tiers32(10, 10, 10), Pellets: 15, StatRange: 35, Range: 35, MinInterval: 120 * ms},
		27: {Name: "Combat Shotgun", Kind: KindBullet, Slot: 3, Pooled: true, Skill: SkillCombatShotgun, Clip: tiers16(7, 7, 7), HasDamage: true, Damage: tiers32(15, 15, 15), Pellets: 4, StatRange: 40, Range: 40, MinInterval: 120 * ms, Credits: 8},
		28: {Name: "Uzi", Kind: KindBullet, Slot: 4, Pooled: true, Skill: SkillMachinePistol, Clip: tiers16(50, 50, 100), HasDamage: true, Damage: tiers32(20, 20, 20), StatRange: 35, Range: 35, MinInterval: 50 * ms},
		29: {Name: "MP5", Kind: KindBullet, Slot: 4, Pooled: true, Skill: SkillSMG, Clip: tiers16(30, 30, 30), HasDamage: true, Damage: tiers32(25, 25, 25), StatRange: 45, Range: 45, MinInterval: 90 * ms},
		30: {Name: "AK-47", Kind: KindBullet, Slot: 5, Pooled: true, Skill: SkillAK47, Clip: tiers16(30, 30, 30), HasDamage: true, Damage: tiers32(30, 30, 30), StatRange: 70, Range: 70, MinInterval: 90 * ms},
		31: {Name: "M4", Kind: KindBullet, Slot: 5, Pooled: true, Skill: SkillM4, Clip: tiers16(50, 50, 50), HasDamage: true, Damage: tiers32(30, 30, 30), StatRange: 90, Range: 90, MinInterval: 90 * ms},
		32: {Name: "Tec-9", Kind: KindBullet, Slot: 4, Pooled: true, Skill: SkillMachinePistol, Clip: tiers16(50, 50, 100), HasDamage: true, Damage: tiers32(20, 20, 20), StatRange: 35, Range: 35, MinInterval: 50 * ms},
		33: {Name: "Rifle", Kind: KindBullet, Slot: 6, Clip: tiers16(1, 1, 1), HasDamage: true, Damage: tiers32(75, 75, 75), StatRange: 100, Range: 100, MinInterval: 800 * ms},
		34: {Name: "Sniper", Kind: KindBullet, Slot: 6, Clip: tiers16(1, 1, 1), HasDamage: true, Damage: tiers32(125, 125, 125), StatRange: 300, Range: 320, MinInterval: 800 * ms},
		35: {Name: "Rocket Launcher", Kind: KindProjectile, Slot: 7, Clip: tiers16(1, 1, 1), HasDamage: true, Damage: tiers32(75, 75, 75), StatRange: 55, Range: 55, Cause: CauseExplosion, Flies: true},
		36: {Name: "Rocket Launcher HS", Kind: KindProjectile, Slot: 7, Clip: tiers16(1, 1, 1), HasDamage: true, Damage: tiers32(75, 75, 75), StatRange: 55, Range: 55, Cause: CauseExplosion, Flies: true},
		37: {Name: "Flamethrower", Kind: KindContinuous, Slot: 7, Clip: tiers16(500, 500, 500), HasDamage: true, Damage: tiers32(25, 25, 25), StatRange: 5.1, Range: 5.1, Cause: CauseFire},
		38: {Name: "Minigun", Kind: KindBullet, Slot: 7, Clip: tiers16(500, 500, 500), HasDamage: true, Damage: tiers32(140, 140, 140), StatRange: 75, Range: 75, MinInterval: 20 * ms},
		39: {Name: "Satchel", Kind: KindProjectile, Slot: 8, Clip: tiers16(1, 1, 1), HasDamage: true, Damage: tiers32(75, 75, 75), StatRange: 40, Range: 40, Cause: CauseExplosion, Sticks: true},
		40: {Name: "Bomb", Kind: KindOther, Slot: 12, Clip: tiers16(1, 1, 1), HasDamage: true, StatRange: 25, Range: 25},
		41: {Name: "Spraycan", Kind: KindContinuous, Slot: 9, Clip: tiers16(500, 500, 500), HasDamage: true, Damage: tiers32(1, 1, 1), StatRange: 6.1, Range: 6.1, MinInterval: 10 * ms, Cause: CauseSpraycan},
		42: {Name: "Fire Extinguisher", Kind: KindContinuous, Slot: 9, Clip: tiers16(500, 500, 500), HasDamage: true, Damage: tiers32(1, 1, 1), StatRange: 10.1, Range: 10.1, MinInterval: 10 * ms, Cause: CauseExtinguisher},
		43: {Name: "Camera", Kind: KindOther, Slot: 9, Clip: tiers16(1, 1, 1), Range: 100},
		44: {Name: "Nightvision", Kind: KindOther, Slot: 11, Range: 100},
		45: {Name: "Infrared", Kind: KindOther, Slot: 11, Range: 100},
		46: {Name: "Parachute", Kind: KindOther, Slot: 11, Clip: tiers16(1, 1, 1), Range: 1.76},
	}
}

func tiers16(poor, std, pro uint16) [NumTiers]uint16   { return [NumTiers]uint16{poor, std, pro} }
func tiers32(poor, std, pro float32) [NumTiers]float32 { return [NumTiers]float32{poor, std, pro} }
