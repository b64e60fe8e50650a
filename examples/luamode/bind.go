package luamode

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/wire"
)

// playerID is the World's player id type: the one place the script's numbers become
// player ids (toPlayerID) and back (the player values). When refserver names its id type
// (refserver.PlayerID), this line becomes `type playerID = refserver.PlayerID`.
type playerID = refserver.PlayerID

// playerType is the metatable name of the player values.
const playerType = "arbiter.player"

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// openLibs opens the safe standard libraries and removes or replaces what could reach the
// file system, the process or a nondeterministic source.
func (m *Mode) openLibs() {
	L := m.L
	for _, lib := range []struct {
		name string
		fn   lua.LGFunction
	}{{lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable}, {lua.StringLibName, lua.OpenString}, {lua.MathLibName, lua.OpenMath}} {
		L.Push(L.NewFunction(lib.fn))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	for _, name := range []string{"dofile", "loadfile", "load", "loadstring", "require", "module", "collectgarbage", "_printregs", "getfenv", "setfenv", "newproxy"} {
		L.SetGlobal(name, lua.LNil)
	}
	L.SetGlobal("print", L.NewFunction(m.luaLog))
	L.SetGlobal("log", L.NewFunction(m.luaLog))
	mathT := L.GetGlobal("math").(*lua.LTable)
	mathT.RawSetString("random", L.NewFunction(m.luaRandom))
	mathT.RawSetString("randomseed", L.NewFunction(func(*lua.LState) int { return 0 }))
	strT := L.GetGlobal("string").(*lua.LTable)
	strT.RawSetString("rep", L.NewFunction(luaRep))
}

// bind installs the facade.
func (m *Mode) bind() {
	L := m.L
	mt := L.NewTypeMetatable(playerType)
	methods := L.SetFuncs(L.NewTable(), map[string]lua.LGFunction{
		"set_health":       m.pSetHealth,
		"add_health":       m.pAddHealth,
		"set_armor":        m.pSetArmor,
		"add_armor":        m.pAddArmor,
		"give_weapon":      m.pGiveWeapon,
		"take_weapon":      m.pTakeWeapon,
		"set_ammo":         m.pSetAmmo,
		"set_armed_weapon": m.pSetArmedWeapon,
		"clear_weapons":    m.pClearWeapons,
		"set_team":         m.pSetTeam,
		"set_spawn_point":  m.pSetSpawnPoint,
		"allow_respawn":    m.pAllowRespawn,
		"hold_respawn":     m.pHoldRespawn,
		"team":             m.pTeam,
		"health":           m.pHealth,
		"armor":            m.pArmor,
		"alive":            m.pAlive,
		"connected":        m.pConnected,
		"generation":       m.pGeneration,
	})
	L.SetField(mt, "__index", L.NewFunction(func(L *lua.LState) int {
		id := m.self(L)
		switch k := L.CheckString(2); k {
		case "id":
			L.Push(lua.LNumber(id))
		default:
			L.Push(methods.RawGetString(k))
		}
		return 1
	}))
	L.SetField(mt, "__tostring", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LString(fmt.Sprintf("player %d", m.self(L))))
		return 1
	}))
	L.SetGlobal("on", L.NewFunction(m.luaOn))
	L.SetGlobal("now", L.NewFunction(func(L *lua.LState) int { L.Push(ms(m.now)); return 1 }))
	L.SetGlobal("set_timer", L.NewFunction(m.luaSetTimer))
	L.SetGlobal("kill_timer", L.NewFunction(m.luaKillTimer))
	L.SetGlobal("player", L.NewFunction(m.luaPlayer))
	L.SetGlobal("players", L.NewFunction(m.luaPlayers))
	L.SetGlobal("set_damage_multiplier", L.NewFunction(m.luaSetDamageMultiplier))
	L.SetGlobal("set_weapon_property", L.NewFunction(m.luaSetWeaponProperty))
	L.SetGlobal("create_explosion", L.NewFunction(m.luaCreateExplosion))
	L.SetGlobal("create_fire", L.NewFunction(m.luaCreateFire))
	L.SetGlobal("create_team", L.NewFunction(m.luaCreateTeam))
	L.SetGlobal("set_friendly_fire", L.NewFunction(m.luaSetFriendlyFire))
}

// ---- conversions ----

// toPlayerID converts a script's number to a player id.
func toPlayerID(v float64) (playerID, bool) {
	if v != math.Trunc(v) || v < 0 || v >= float64(refserver.NoPlayer) {
		return 0, false
	}
	return playerID(v), true
}

// playerValue is the script's value of a player id (one userdata per id, so == compares
// players); nil for NoPlayer.
func (m *Mode) playerValue(id playerID) lua.LValue {
	if id == refserver.NoPlayer {
		return lua.LNil
	}
	if ud, ok := m.players[id]; ok {
		return ud
	}
	ud := m.L.NewUserData()
	ud.Value = id
	m.L.SetMetatable(ud, m.L.GetTypeMetatable(playerType))
	m.players[id] = ud
	return ud
}

// self is the player a method is called on (argument 1); a method called on anything else
// is a script error.
func (m *Mode) self(L *lua.LState) playerID {
	ud := L.CheckUserData(1)
	id, ok := ud.Value.(playerID)
	if !ok {
		L.ArgError(1, "player expected")
	}
	return id
}

// playerArg reads an optional player argument (a player value, a number, or nil for
// none).
func (m *Mode) playerArg(L *lua.LState, i int) (playerID, error) {
	switch v := L.Get(i).(type) {
	case *lua.LNilType:
		return refserver.NoPlayer, nil
	case *lua.LUserData:
		if id, ok := v.Value.(playerID); ok {
			return id, nil
		}
	case lua.LNumber:
		if id, ok := toPlayerID(float64(v)); ok {
			return id, nil
		}
	}
	return 0, fmt.Errorf("argument %d: not a player: %s", i, L.Get(i).String())
}

// intArg reads an integer argument in lo..hi.
func intArg(L *lua.LState, i int, lo, hi int, what string) (int, error) {
	v := float64(L.CheckNumber(i))
	if v != math.Trunc(v) || v < float64(lo) || v > float64(hi) {
		return 0, fmt.Errorf("%s %v not an integer in %d..%d", what, v, lo, hi)
	}
	return int(v), nil
}

// f32Arg reads a finite number argument.
func f32Arg(L *lua.LState, i int, what string) (float32, error) {
	v := float64(L.CheckNumber(i))
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > math.MaxFloat32 {
		return 0, fmt.Errorf("%s %v not finite", what, v)
	}
	return float32(v), nil
}

// result pushes true, or nil and the refusal's message.
func result(L *lua.LState, err error) int {
	if err != nil {
		L.Push(lua.LNil)
		L.Push(lua.LString(err.Error()))
		return 2
	}
	L.Push(lua.LTrue)
	return 1
}

// first returns the first non-nil error.
func first(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// ---- player methods ----

func (m *Mode) pSetHealth(L *lua.LState) int {
	id := m.self(L)
	v, err := f32Arg(L, 2, "health")
	if err != nil {
		return result(L, err)
	}
	return result(L, m.w.SetHealth(m.now, id, v))
}

func (m *Mode) pAddHealth(L *lua.LState) int {
	id := m.self(L)
	v, err1 := f32Arg(L, 2, "amount")
	mx, err2 := f32Arg(L, 3, "max")
	if err := first(err1, err2); err != nil {
		return result(L, err)
	}
	return result(L, m.w.AddHealth(m.now, id, v, mx))
}

func (m *Mode) pSetArmor(L *lua.LState) int {
	id := m.self(L)
	v, err := f32Arg(L, 2, "armor")
	if err != nil {
		return result(L, err)
	}
	return result(L, m.w.SetArmor(m.now, id, v))
}

func (m *Mode) pAddArmor(L *lua.LState) int {
	id := m.self(L)
	v, err1 := f32Arg(L, 2, "amount")
	mx, err2 := f32Arg(L, 3, "max")
	if err := first(err1, err2); err != nil {
		return result(L, err)
	}
	return result(L, m.w.AddArmor(m.now, id, v, mx))
}

func (m *Mode) pGiveWeapon(L *lua.LState) int {
	id := m.self(L)
	wpn, err1 := intArg(L, 2, 0, math.MaxUint8, "weapon")
	ammo, err2 := intArg(L, 3, 0, math.MaxUint16, "ammo")
	if err := first(err1, err2); err != nil {
		return result(L, err)
	}
	return result(L, m.w.GiveWeapon(m.now, id, uint8(wpn), uint16(ammo), L.OptBool(4, false)))
}

func (m *Mode) pTakeWeapon(L *lua.LState) int {
	id := m.self(L)
	wpn, err := intArg(L, 2, 0, math.MaxUint8, "weapon")
	if err != nil {
		return result(L, err)
	}
	return result(L, m.w.TakeWeapon(m.now, id, uint8(wpn)))
}

func (m *Mode) pSetAmmo(L *lua.LState) int {
	id := m.self(L)
	wpn, err1 := intArg(L, 2, 0, math.MaxUint8, "weapon")
	total, err2 := intArg(L, 3, 0, math.MaxUint16, "ammo")
	if err := first(err1, err2); err != nil {
		return result(L, err)
	}
	return result(L, m.w.SetWeaponAmmo(m.now, id, uint8(wpn), uint16(total), wire.NoClip))
}

func (m *Mode) pSetArmedWeapon(L *lua.LState) int {
	id := m.self(L)
	wpn, err := intArg(L, 2, 0, math.MaxUint8, "weapon")
	if err != nil {
		return result(L, err)
	}
	return result(L, m.w.SetArmedWeapon(m.now, id, uint8(wpn)))
}

func (m *Mode) pClearWeapons(L *lua.LState) int {
	return result(L, m.w.ClearWeapons(m.now, m.self(L)))
}

// pSetTeam puts the player in a team; 0 takes it out of its team.
func (m *Mode) pSetTeam(L *lua.LState) int {
	id := m.self(L)
	t, err := intArg(L, 2, 0, math.MaxUint16, "team")
	if err != nil {
		return result(L, err)
	}
	if t == 0 {
		return result(L, m.w.LeaveTeam(id))
	}
	return result(L, m.w.JoinTeam(id, teams.TeamID(t)))
}

func (m *Mode) pTeam(L *lua.LState) int {
	t, _ := m.w.Team(m.self(L))
	L.Push(lua.LNumber(t))
	return 1
}

func (m *Mode) pSetSpawnPoint(L *lua.LState) int {
	id := m.self(L)
	pt, err := m.pointArg(L, 2)
	if err != nil {
		return result(L, err)
	}
	return result(L, m.w.SetSpawnPoint(id, pt))
}

// pointArg reads x, y, z[, facing] from argument i on.
func (m *Mode) pointArg(L *lua.LState, i int) (lifecycle.SpawnPoint, error) {
	x, e1 := f32Arg(L, i, "x")
	y, e2 := f32Arg(L, i+1, "y")
	z, e3 := f32Arg(L, i+2, "z")
	var f float32
	var e4 error
	if L.GetTop() >= i+3 {
		f, e4 = f32Arg(L, i+3, "facing")
	}
	return lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: x, Y: y, Z: z}, Facing: f}, first(e1, e2, e3, e4)
}

// pAllowRespawn is player:allow_respawn(gen, delay_ms[, x, y, z[, facing]]): the life gen
// (the generation a player_death names, or 0 for the connect spawn) respawns delay_ms
// from now, at the point if one is given.
func (m *Mode) pAllowRespawn(L *lua.LState) int {
	id := m.self(L)
	gen, err := intArg(L, 2, 0, math.MaxUint16, "generation")
	if err != nil {
		return result(L, err)
	}
	d, err := duration(float64(L.CheckNumber(3)))
	if err != nil {
		return result(L, err)
	}
	dec := lifecycle.AllowAt(m.now + d)
	if L.GetTop() >= 4 {
		pt, err := m.pointArg(L, 4)
		if err != nil {
			return result(L, err)
		}
		dec = dec.AtPoint(pt)
	}
	return result(L, m.w.DecideRespawn(id, uint16(gen), dec))
}

func (m *Mode) pHoldRespawn(L *lua.LState) int {
	id := m.self(L)
	gen, err := intArg(L, 2, 0, math.MaxUint16, "generation")
	if err != nil {
		return result(L, err)
	}
	return result(L, m.w.DecideRespawn(id, uint16(gen), lifecycle.Hold()))
}

// pHealth returns the ledger's health, or nil and the refusal.
func (m *Mode) pHealth(L *lua.LState) int {
	h, err := m.w.Health(m.self(L))
	if err != nil {
		return result(L, err)
	}
	L.Push(lua.LNumber(h))
	return 1
}

func (m *Mode) pArmor(L *lua.LState) int {
	a, err := m.w.Armor(m.self(L))
	if err != nil {
		return result(L, err)
	}
	L.Push(lua.LNumber(a))
	return 1
}

func (m *Mode) pGeneration(L *lua.LState) int {
	g, err := m.w.Generation(m.self(L))
	if err != nil {
		return result(L, err)
	}
	L.Push(lua.LNumber(g))
	return 1
}

func (m *Mode) pAlive(L *lua.LState) int {
	L.Push(lua.LBool(m.w.Alive(m.self(L))))
	return 1
}

func (m *Mode) pConnected(L *lua.LState) int {
	L.Push(lua.LBool(m.w.Connected(m.self(L))))
	return 1
}

// ---- globals ----

// luaPlayer is player(id): the connected player id, or nil and a message.
func (m *Mode) luaPlayer(L *lua.LState) int {
	id, ok := toPlayerID(float64(L.CheckNumber(1)))
	if !ok || !m.w.Connected(id) {
		return result(L, fmt.Errorf("%w: %v", refserver.ErrUnknownPlayer, L.Get(1)))
	}
	L.Push(m.playerValue(id))
	return 1
}

// luaPlayers is players(): the connected players, in the World's order.
func (m *Mode) luaPlayers(L *lua.LState) int {
	m.ids = m.w.Players(m.ids[:0])
	t := L.CreateTable(len(m.ids), 0)
	for _, id := range m.ids {
		t.Append(m.playerValue(id))
	}
	L.Push(t)
	return 1
}

// multiplierClasses are the classes set_damage_multiplier names.
var multiplierClasses = []string{"melee", "fire", "spray", "extinguisher", "explosion", "predator"}

// luaSetDamageMultiplier is set_damage_multiplier(class, m): one class of the world's
// multiplier table (the others keep what this Mode set last; all 1 at first).
func (m *Mode) luaSetDamageMultiplier(L *lua.LState) int {
	class := L.CheckString(1)
	v, err := f32Arg(L, 2, "multiplier")
	if err != nil {
		return result(L, err)
	}
	t := m.mult
	switch class {
	case "melee":
		t.Melee = v
	case "fire":
		t.Fire = v
	case "spray":
		t.Spray = v
	case "extinguisher":
		t.Extinguisher = v
	case "explosion":
		t.Explosion = v
	case "predator":
		t.Predator = v
	default:
		return result(L, fmt.Errorf("unknown damage class %q (one of %s)", class, strings.Join(multiplierClasses, ", ")))
	}
	if err := m.w.SetDamageMultipliers(m.now, t); err != nil {
		return result(L, err)
	}
	m.mult = t
	return result(L, nil)
}

// luaSetWeaponProperty is set_weapon_property(weapon, damage, range): damage is one number
// for every skill tier or a table of inventory.NumTiers numbers.
func (m *Mode) luaSetWeaponProperty(L *lua.LState) int {
	wpn, err := intArg(L, 1, 0, math.MaxUint8, "weapon")
	if err != nil {
		return result(L, err)
	}
	var dmg [inventory.NumTiers]float32
	switch v := L.Get(2).(type) {
	case lua.LNumber:
		for i := range dmg {
			dmg[i] = float32(v)
		}
	case *lua.LTable:
		if v.Len() != inventory.NumTiers {
			return result(L, fmt.Errorf("damage: %d values, want %d", v.Len(), inventory.NumTiers))
		}
		for i := range dmg {
			n, ok := v.RawGetInt(i + 1).(lua.LNumber)
			if !ok {
				return result(L, fmt.Errorf("damage[%d] is not a number", i+1))
			}
			dmg[i] = float32(n)
		}
	default:
		L.ArgError(2, "number or table expected")
	}
	rng, err := f32Arg(L, 3, "range")
	if err != nil {
		return result(L, err)
	}
	return result(L, m.w.SetWeaponProperties(m.now, uint8(wpn), dmg, rng))
}

// luaCreateExplosion is create_explosion(x, y, z, radius[, type[, creator]]): the effect
// id, or nil and the refusal.
func (m *Mode) luaCreateExplosion(L *lua.LState) int {
	pos, e1 := m.vecArg(L, 1)
	r, e2 := f32Arg(L, 4, "radius")
	typ, e3 := 0, error(nil)
	if L.Get(5) != lua.LNil {
		typ, e3 = intArg(L, 5, 0, math.MaxUint8, "type")
	}
	creator, e4 := m.playerArg(L, 6)
	if err := first(e1, e2, e3, e4); err != nil {
		return result(L, err)
	}
	id, err := m.w.CreateExplosion(m.now, creator, uint8(typ), pos, r)
	if err != nil {
		return result(L, err)
	}
	L.Push(lua.LNumber(id))
	return 1
}

// luaCreateFire is create_fire(x, y, z, radius[, creator]).
func (m *Mode) luaCreateFire(L *lua.LState) int {
	pos, e1 := m.vecArg(L, 1)
	r, e2 := f32Arg(L, 4, "radius")
	creator, e3 := m.playerArg(L, 5)
	if err := first(e1, e2, e3); err != nil {
		return result(L, err)
	}
	id, err := m.w.CreateFire(m.now, creator, pos, r)
	if err != nil {
		return result(L, err)
	}
	L.Push(lua.LNumber(id))
	return 1
}

func (m *Mode) vecArg(L *lua.LState, i int) (wire.Vec3, error) {
	x, e1 := f32Arg(L, i, "x")
	y, e2 := f32Arg(L, i+1, "y")
	z, e3 := f32Arg(L, i+2, "z")
	return wire.Vec3{X: x, Y: y, Z: z}, first(e1, e2, e3)
}

// luaCreateTeam is create_team(id, name[, color[, friendly_fire]]).
func (m *Mode) luaCreateTeam(L *lua.LState) int {
	id, err := intArg(L, 1, 0, math.MaxUint16, "team")
	if err != nil {
		return result(L, err)
	}
	color := 0
	if L.Get(3) != lua.LNil {
		if color, err = intArg(L, 3, 0, math.MaxUint32, "color"); err != nil {
			return result(L, err)
		}
	}
	return result(L, m.w.CreateTeam(teams.TeamID(id), teams.Team{Name: L.CheckString(2), Color: uint32(color), FriendlyFire: L.OptBool(4, false)}))
}

func (m *Mode) luaSetFriendlyFire(L *lua.LState) int {
	id, err := intArg(L, 1, 0, math.MaxUint16, "team")
	if err != nil {
		return result(L, err)
	}
	return result(L, m.w.SetFriendlyFire(teams.TeamID(id), L.CheckBool(2)))
}

// eventNames maps the names on() accepts to the World's event kinds: every kind's own
// name (player_join, player_spawn, player_damage, player_death, player_leave,
// god_mode_suspect, ... and the diagnostics).
var eventNames = func() map[string]refserver.EventKind {
	out := map[string]refserver.EventKind{}
	for k := refserver.EventKind(1); k != 0; k++ {
		s := k.String()
		if strings.HasPrefix(s, "EventKind(") {
			break
		}
		out[s] = k
	}
	return out
}()

// luaOn is on(event, fn): fn(ev) is called for each event of that name.
func (m *Mode) luaOn(L *lua.LState) int {
	name := L.CheckString(1)
	fn := L.CheckFunction(2)
	k, ok := eventNames[name]
	if !ok {
		return result(L, fmt.Errorf("unknown event %q", name))
	}
	if m.nHandlers >= MaxHandlers {
		return result(L, fmt.Errorf("more than %d callbacks", MaxHandlers))
	}
	m.nHandlers++
	m.handlers[k] = append(m.handlers[k], fn)
	return result(L, nil)
}

// luaSetTimer is set_timer(delay_ms, fn[, every_ms]): the timer's id, or nil and a
// message. The timer runs at the first Tick at or after now+delay, then every every_ms
// if given (> 0).
func (m *Mode) luaSetTimer(L *lua.LState) int {
	d, err := duration(float64(L.CheckNumber(1)))
	fn := L.CheckFunction(2)
	if err != nil {
		return result(L, err)
	}
	var every time.Duration
	if L.GetTop() >= 3 {
		if every, err = duration(float64(L.CheckNumber(3))); err != nil {
			return result(L, err)
		}
		if every == 0 {
			return result(L, fmt.Errorf("period 0: a periodic timer needs a period > 0"))
		}
	}
	if len(m.timers) >= MaxTimers {
		return result(L, fmt.Errorf("more than %d timers", MaxTimers))
	}
	m.nextTimer++
	m.timers = append(m.timers, timer{id: m.nextTimer, due: m.now + d, every: every, fn: fn})
	L.Push(lua.LNumber(m.nextTimer))
	return 1
}

// luaKillTimer is kill_timer(id): true, or nil and a message for no such timer.
func (m *Mode) luaKillTimer(L *lua.LState) int {
	id, err := intArg(L, 1, 0, math.MaxInt32, "timer")
	if err != nil {
		return result(L, err)
	}
	found := false
	for i := range m.due { // due in this Tick, not run yet
		if m.due[i].id == id && m.due[i].fn != nil {
			m.due[i].fn, found = nil, true
		}
	}
	for i, t := range m.timers {
		if t.id == id {
			m.timers = append(m.timers[:i], m.timers[i+1:]...)
			return result(L, nil)
		}
	}
	if found {
		return result(L, nil)
	}
	return result(L, fmt.Errorf("no timer %d", id))
}

func (m *Mode) luaLog(L *lua.LState) int {
	var b strings.Builder
	for i := 1; i <= L.GetTop(); i++ {
		if i > 1 {
			b.WriteByte(' ')
		}
		b.WriteString(L.ToStringMeta(L.Get(i)).String())
	}
	m.log.Info("lua gamemode", "file", m.name, "text", b.String())
	return 0
}

// luaRandom is math.random from the Mode's seeded generator, with Lua's three forms.
func (m *Mode) luaRandom(L *lua.LState) int {
	switch L.GetTop() {
	case 0:
		L.Push(lua.LNumber(m.rng.Float64()))
	case 1:
		n := L.CheckInt(1)
		if n < 1 {
			L.ArgError(1, "interval is empty")
		}
		L.Push(lua.LNumber(1 + m.rng.IntN(n)))
	default:
		lo, hi := L.CheckInt(1), L.CheckInt(2)
		if hi < lo {
			L.ArgError(2, "interval is empty")
		}
		L.Push(lua.LNumber(lo + m.rng.IntN(hi-lo+1)))
	}
	return 1
}

// luaRep is string.rep with its result capped at MaxRepeat bytes.
func luaRep(L *lua.LState) int {
	s := L.CheckString(1)
	n := L.CheckInt(2)
	if n <= 0 {
		L.Push(lua.LString(""))
		return 1
	}
	if len(s) > 0 && n > MaxRepeat/len(s) {
		L.RaiseError("string.rep: result longer than %d bytes", MaxRepeat)
	}
	L.Push(lua.LString(strings.Repeat(s, n)))
	return 1
}

// eventTable is the script's view of an event: name, at (ms), player, other, and the
// kind's own fields under the records' names.
func (m *Mode) eventTable(e *refserver.Event) *lua.LTable {
	L := m.L
	t := L.CreateTable(0, 12)
	t.RawSetString("name", lua.LString(e.Kind.String()))
	t.RawSetString("at", ms(e.At))
	t.RawSetString("player", m.playerValue(e.Player))
	t.RawSetString("other", m.playerValue(e.Other))
	switch e.Kind {
	case refserver.EventPlayerDamage:
		t.RawSetString("attacker", m.playerValue(e.Other))
		t.RawSetString("weapon", lua.LNumber(e.Weapon))
		t.RawSetString("body_part", lua.LNumber(e.BodyPart))
		t.RawSetString("amount", lua.LNumber(e.Amount))
		t.RawSetString("floor", lua.LNumber(e.Floor))
		t.RawSetString("deducted", lua.LNumber(e.Deducted))
		t.RawSetString("seq", lua.LNumber(e.Seq))
	case refserver.EventPlayerDeath:
		t.RawSetString("killer", m.playerValue(e.Other))
		t.RawSetString("weapon", lua.LNumber(e.Weapon))
		t.RawSetString("gen", lua.LNumber(e.Gen))
		t.RawSetString("pose", lua.LString(e.Pose.String()))
		t.RawSetString("commit", lua.LString(e.Commit.String()))
	case refserver.EventPlayerSpawn, refserver.EventRespawnGranted:
		t.RawSetString("gen", lua.LNumber(e.Gen))
		t.RawSetString("connect", lua.LBool(e.Connect))
	case refserver.EventPlayerJoin:
		t.RawSetString("token", lua.LNumber(e.Token))
	case refserver.EventPlayerLeave:
		t.RawSetString("token", lua.LNumber(e.Token))
		t.RawSetString("reason", lua.LString(e.Reason.String()))
	case refserver.EventGodMode:
		t.RawSetString("amount", lua.LNumber(e.Amount))
	case refserver.EventGodModeSuspect, refserver.EventVehicleGodModeSuspect:
		t.RawSetString("claimed", lua.LNumber(e.Amount))
		t.RawSetString("felt", lua.LNumber(e.Deducted))
		t.RawSetString("count", lua.LNumber(e.Seq))
		if e.Vehicle != refserver.NoVehicle {
			t.RawSetString("vehicle", lua.LNumber(e.Vehicle))
		}
	default:
		t.RawSetString("weapon", lua.LNumber(e.Weapon))
		t.RawSetString("seq", lua.LNumber(e.Seq))
		t.RawSetString("verdict", lua.LString(e.Verdict.String()))
		t.RawSetString("detail", lua.LString(e.Detail))
	}
	return t
}
