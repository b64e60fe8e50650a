package match

import (
	"time"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// The hooks a test kit built on a manual match (Config.Manual) uses from another package:
// its own clock callbacks, the arena's cars, the match's loadout.

// serverConfig is the reference server's configuration of the match: Config.Server with
// its zero fields filled in, or the match's own.
func (c Config) serverConfig() refserver.Config {
	sc := refserver.Config{SpawnPoint: lifecycle.SpawnPoint{Pos: lifecycle.Vec3{Z: Ground}}}
	if c.Server != nil {
		sc = *c.Server
	}
	if sc.MaxPlayers == 0 {
		sc.MaxPlayers = c.Players
	}
	if sc.MaxVehicles == 0 {
		sc.MaxVehicles = max(c.Vehicles, 1)
	}
	if sc.Loadout == nil {
		sc.Loadout = Loadout()
	}
	return sc
}

// Loadout returns the weapons the match gives every player at each spawn, unless
// Config.Server names its own.
func Loadout() []refserver.Loadout { return append([]refserver.Loadout(nil), loadout...) }

// Every calls fn at virtual time start and then every interval, from the match's own
// simulated clock (no goroutine: fn runs inside RunUntil), until fn returns false.
// Callbacks due at the same instant run in the order they were scheduled.
func (m *Match) Every(start, interval time.Duration, fn func(now time.Duration) bool) {
	m.sim.Every(start, interval, func() bool { return fn(m.sim.Now()) })
}

// Vehicle returns car id of the arena as the next driver's game finds it: its pose and
// health (ok false for no such car).
func (m *Match) Vehicle(id uint16) (pose client.VehiclePose, health float32, ok bool) {
	c := m.world.car(id)
	if c == nil {
		return client.VehiclePose{}, 0, false
	}
	return c.pose, c.health(), true
}

// Cheat returns the cheat of player i (Honest for an honest player or no such player).
func (m *Match) Cheat(i int) Cheat {
	if i < 0 || i >= len(m.players) || m.players[i].cheat == nil {
		return Honest
	}
	return m.players[i].cheat.kind
}

// Strike makes player attacker swing melee weapon (a knife, or 0 for a fist) at player
// victim through its honest client, as a bot does: the client arms the weapon and
// strikes, and when it acted, the victim's game lands the blow once the swing is relayed
// to it, if the attacker as the victim sees it stands within MeleeReach and the victim is
// on foot.
func (m *Match) Strike(attacker, victim int, weapon uint8) (client.Action, error) {
	a, v := m.player(wire.PlayerID(attacker)), m.player(wire.PlayerID(victim))
	if a == nil || v == nil || attacker < 0 || victim < 0 {
		return client.Action{}, refserver.ErrUnknownPlayer
	}
	now := m.sim.Now()
	if weapon != 0 {
		if act, err := a.c.Arm(now, weapon); err != nil || act.Verdict != client.Acted {
			return act, err
		}
	}
	act, err := a.c.Strike(now, v.id)
	if err == nil && act.Verdict == client.Acted {
		m.meleeLands(now, a, victim, weapon)
	}
	return act, err
}

// CheatTick runs the cheaters' own clock at now: what the cheats do on their own and the
// measures of what they gained. Start runs it every ThinkInterval except in a manual
// match, where a test kit with cheaters runs it itself.
func (m *Match) CheatTick(now time.Duration) { m.cheatTick(now) }

// Vital sends a health or armor command (kind, value, and max for an add) to player i as
// the match's gamemode does: through the server's facade, and noted for the cheat
// measures (a command may raise a cheater's ledger; the stale-echo cheater's shadow
// ledger applies it). A test kit sends its health and armor commands through it.
func (m *Match) Vital(now time.Duration, i int, kind vitals.CommandKind, value, max float32) error {
	p := m.player(wire.PlayerID(i))
	if p == nil || i < 0 {
		return refserver.ErrUnknownPlayer
	}
	return m.gm.vital(now, p, kind, value, max)
}

// OnForeign routes the server's datagrams to the connections beyond the lineup (ids from
// len(Config.Lineup) on: a test kit's raw connections, which talk to the server directly
// rather than over the simulated network) to fn, at the server's flush.
func (m *Match) OnForeign(fn func(now time.Duration, conn wire.PlayerID, d []byte)) {
	m.foreign = fn
}
