package luamode

import (
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// World is the part of a refserver World a Mode calls: a *refserver.World, or a wrapper
// with the same methods, such as examples/replay's Recorder (which records every command
// the script gives, so that a recorded server with a Lua gamemode replays).
type World interface {
	AddArmor(now time.Duration, id refserver.PlayerID, amount, max float32) error
	AddHealth(now time.Duration, id refserver.PlayerID, amount, max float32) error
	Alive(id refserver.PlayerID) bool
	Ammo(id refserver.PlayerID, weapon uint8) (uint16, bool, error)
	Armor(id refserver.PlayerID) (float32, error)
	ClearWeapons(now time.Duration, id refserver.PlayerID) error
	Connected(id refserver.PlayerID) bool
	CreateExplosion(now time.Duration, creator refserver.PlayerID, typ uint8, pos wire.Vec3, radius float32) (uint16, error)
	CreateFire(now time.Duration, creator refserver.PlayerID, pos wire.Vec3, radius float32) (uint16, error)
	CreateTeam(id teams.TeamID, def teams.Team) error
	DecideRespawn(player refserver.PlayerID, gen uint16, d lifecycle.Decision) error
	Generation(id refserver.PlayerID) (uint16, error)
	GiveWeapon(now time.Duration, id refserver.PlayerID, weapon uint8, ammo uint16, current bool) error
	Health(id refserver.PlayerID) (float32, error)
	JoinTeam(player refserver.PlayerID, id teams.TeamID) error
	LeaveTeam(player refserver.PlayerID) error
	Players(dst []refserver.PlayerID) []refserver.PlayerID
	SetArmedWeapon(now time.Duration, id refserver.PlayerID, weapon uint8) error
	SetArmor(now time.Duration, id refserver.PlayerID, value float32) error
	SetDamageMultipliers(now time.Duration, m vitals.Multipliers) error
	SetFriendlyFire(id teams.TeamID, on bool) error
	SetHealth(now time.Duration, id refserver.PlayerID, value float32) error
	SetSpawnPoint(player refserver.PlayerID, pt lifecycle.SpawnPoint) error
	SetWeaponAmmo(now time.Duration, id refserver.PlayerID, weapon uint8, total, clip uint16) error
	SetWeaponProperties(now time.Duration, weapon uint8, damage [inventory.NumTiers]float32, rng float32) error
	TakeWeapon(now time.Duration, id refserver.PlayerID, weapon uint8) error
	Team(id refserver.PlayerID) (teams.TeamID, uint16)
}

var _ World = (*refserver.World)(nil)
