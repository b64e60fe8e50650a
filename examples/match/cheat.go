package match

import (
	"time"

	"github.com/arbitergo/arbiter/examples/client"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

//go:generate go tool stringer -type=Cheat -linecomment

// Cheat is what a cheating player does. A cheater plays through the same honest client
// and bot as everyone; the cheat sits between its client and the network (rewriting and
// forging datagrams, as a trainer or a modified client would) or in its game (skipping
// hits). The match measures, per cheat, that it gains nothing the records say it must not
// (CheaterReport.Gained) and whether the server flagged it.
type Cheat uint8

// The cheats.
const (
	// Honest plays fair.
	Honest Cheat = iota // honest
	// CheatSkipHits: its game never takes a bullet, as if a wall always stood in the way.
	// The records leave a skipped hit open (it looks exactly like a wall): the god-mode
	// suspicion detector must flag it. It gains: nothing is measured as a gain.
	CheatSkipHits // skip_hits
	// CheatHealthFrames: its frames always show full health and armor (an
	// infinite-health trainer). It gains every time the server's ledger of it rises
	// without a server command (a spawn, a health or armor command).
	CheatHealthFrames // health_frames
	// CheatFrozenAmmo: its frames show a frozen ammo counter, and it keeps firing forged
	// shots when its game has no rounds left. It gains every shot the server relays beyond
	// the rounds it was given.
	CheatFrozenAmmo // frozen_ammo
	// CheatRevive: once dead, it keeps sending frames that claim it alive, and forged shots.
	// It gains every frame relayed alive and every shot relayed while the server holds it
	// dead.
	CheatRevive // revive
	// CheatSpam: it fires a forged copy of every shot, ten times faster than its weapon
	// allows. It gains every shot the server relays beyond the weapon's cadence.
	CheatSpam // spam
	// CheatVehicleGod: the car it drives never takes damage (a vehicle god-mode trainer),
	// and it drives whenever it can. Vehicle health stays the client's (no rule makes the
	// server own it), so nothing is measured as a gain: vitals'
	// [vehicle-god-mode-detector] must flag it.
	CheatVehicleGod // vehicle_god
	// CheatStaleEcho: after its game took a health or armor command it withholds the
	// lane's acknowledgement (StaleAckHold, just short of the link timeout) and keeps
	// echoing the revision from before that command in every frame and report, while its
	// frames show full health; the gamemode sends it a command every StaleCommandEvery and
	// regenerates everyone for a minute. It gains, per life, the health and armor its
	// ledger keeps above a shadow ledger (the highest the records allow: commands apply
	// when sent, each confirmed hit takes at least its floor and may come before any command
	// sent less than the 15 s settling time before it), rounded up, and every confirmed hit
	// (credited in order) that took nothing from a living ledger, so that it was neither on
	// the ledger nor an unconfirmed claim for the god-mode detector.
	CheatStaleEcho // stale_echo
	// CheatCarryOver: the gamemode gives it an Uzi (CarryOverUzi rounds) at each spawn and,
	// CarryOverDelay later, an MP5 (CarryOverMP5) into the same slot, which pools its ammo:
	// the MP5's total holds the Uzi's rounds. Once its client applied the MP5, it withholds
	// its lane acknowledgements and its echo of the give for CheatWindow and fires forged
	// shots of the replaced Uzi (as many as it had) through the overwrite window, then of
	// the MP5 (more than it has). It gains every Uzi or MP5 shot the server relays beyond
	// the rounds it was given (what the store held plus what the gives added).
	CheatCarryOver // carry_over
	// CheatTakenWeapon: TakenDelay after each spawn the gamemode takes its Deagle. Once its
	// client applied the take, it withholds its lane acknowledgements (the lane's
	// acknowledgements are cumulative: it holds back every lane datagram, so nothing of the
	// take's is acknowledged) and its echo of the take for CheatWindow, and keeps firing
	// forged Deagle shots. It gains every Deagle shot the server relays, in the life the
	// take was in, later than an honest client's shot fired before the take could arrive:
	// the link's round trip, twice its jitter, TakenHonestResends lost transmissions of the
	// take and a tick on each side after the take.
	CheatTakenWeapon // taken_weapon
	// CheatFarOrigin: its shots at a target farther than FarOriginMin start a metre from
	// the target (as its client shows it) instead of at its own hands, and now and then it
	// throws a grenade at an enemy beyond any throw (FarThrowMin) whose launch starts next
	// to the target and which explodes at the target's feet. The victims' honest clients
	// trace and explode what the server relays. It gains every credited damage report that
	// answers a shot or projectile the server relayed starting, or exploding, farther from
	// where the cheater stood than it could have put it (beyond refserver.OriginReach and
	// its lead; beyond the grenade's reach and refserver.ThrowSlack).
	CheatFarOrigin // far_origin
	// CheatVehicleGuns: it fires vehicle guns no honest client could (cheat_vehicles.go):
	// a Sniper round 900 m long from an unarmed car, the driver's gun from a passenger's
	// seat, an armed vehicle's gun from on foot, its own gun's rays beyond the gun's range
	// and far beyond its cadence; it drives whenever it can. It gains every such shot the
	// server relays (the vehicle catalogue forbids them), every relayed ray beyond the
	// gun's cadence, and every damage credited from a Sniper round.
	CheatVehicleGuns // vehicle_guns
	// CheatSeatSteal: from 50 m away or more, its client gets into the driver's seat of a
	// car an honest player drives (cheat_vehicles.go), sends the car's frames to where it
	// stands, and after a second reports the car exploded. It gains every seat the server
	// grants it that way, every frame of the car the server relays from it, and every
	// explosion of the car the server accepts from it (its occupants die).
	CheatSeatSteal // seat_steal
	// CheatMutator: the unscripted adversary. It takes its own honest client's datagrams
	// and mutates them at random, seeded (fields, ids, positions, numbers, revisions,
	// seats, rays, hit claims, reports), replays other players' datagrams relayed to it
	// re-encoded as its own, forges the reliable messages (deaths, respawns, stealth kills,
	// vehicle explosions), and floods copies. It gains (Gains, each measure apart): health
	// its server ledger keeps above its client's real health, shots and launches relayed
	// beyond the rounds it was given, damage credited to others from an action the rules
	// refuse (a shot or a launch from where the server never accepted it to be, a
	// detonation far from its launch), the kills that damage made, and other players'
	// state changed (a seat or a vehicle of another player taken over, a vehicle exploded
	// that it did not drive, a suspicion raised on another player by its claims).
	CheatMutator // mutator
	// CheatFlood: bursts of frames, shots and junk datagrams at many times the honest
	// rate (FloodBurst datagrams every FloodEvery). It gains every honest player's relay
	// the server could not log or deliver, every gamemode event of the records the server
	// dropped (Gains.Others), and whatever wrongs the honest players (honest_wronged).
	CheatFlood // flood

	cheatCount
)

// CheaterReport is what one cheater obtained.
type CheaterReport struct {
	// Player is the cheater's id; Cheat its cheat.
	Player int    `json:"player"`
	Cheat  string `json:"cheat"`
	// Forged counts the datagrams the cheat forged or rewrote; ForgedShots the shots among
	// them.
	Forged      int `json:"forged"`
	ForgedShots int `json:"forged_shots"`
	// Flagged counts the server's god_mode cuts and god-mode and vehicle_god_mode
	// suspicions on the cheater.
	Flagged int `json:"flagged"`
	// Refused counts the server's refusals of the cheater's shots.
	Refused int `json:"refused"`
	// Gained counts what the cheat obtained that the records say it must not (see the
	// Cheat's doc). The promise is 0.
	Gained int `json:"gained"`
	// Gains are the parts of Gained by measure, for the cheats that measure several
	// (mutator, flood).
	Gains *Gains `json:"gains,omitempty"`
	// Findings counts the gains by measure and by the mutation that obtained them
	// ("damage:shot.origin"), for a reader hunting the hole.
	Findings map[string]int `json:"findings,omitempty"`
}

// Gains are what a cheat obtained, by the records' measures.
type Gains struct {
	// Health counts the times its server ledger stayed above its client's real health
	// longer than LedgerExcuse while its frames were taken, or rose without a server
	// command.
	Health int `json:"health"`
	// Ammo counts its shots and launches relayed beyond the rounds it was given.
	Ammo int `json:"ammo"`
	// Damage counts damage reports of other players credited to an action of it that the
	// rules refuse.
	Damage int `json:"damage"`
	// Kills counts deaths of other players that such damage made, or that a vehicle
	// explosion it forged made.
	Kills int `json:"kills"`
	// Others counts changes of other players' state through it: a seat or a vehicle taken
	// over, a vehicle exploded it did not drive, a suspicion its claims raised on another
	// player; for a flood, the honest relays lost and the records' events dropped.
	Others int `json:"others"`
}

// Sum returns the total of the measures.
func (g Gains) Sum() int { return g.Health + g.Ammo + g.Damage + g.Kills + g.Others }

// SpamCopies is how many forged copies a spammer sends of each shot it fires.
const SpamCopies = 9

// FrozenAmmoGrant is the M4 ammo the gamemode leaves a frozen-ammo cheater at each spawn,
// so that it soon runs dry and its forged shots meet an empty store.
const FrozenAmmoGrant = 60

// cheater is the state of a cheating player's cheat.
type cheater struct {
	kind     Cheat
	report   CheaterReport
	frozen   uint16 // the ammo counter its frames show (frozen ammo)
	lastShot wire.WeaponShot
	haveShot bool
	shotSeq  uint16 // the forged shots' numbers continue the client's
	// measurements
	granted   int                      // M4 rounds given (frozen ammo)
	relayed   map[uint16]bool          // distinct shots of the cheater relayed (frozen ammo, spam)
	relayAt   [][]time.Duration        // by weapon: when each distinct shot was first relayed (spam)
	deadSeen  map[uint16]time.Duration // shots relayed while the server held it dead (revive)
	ledger    float32                  // health plus armor the ledger held at the last check
	ledgerGen uint16                   // the life that check saw
	spawned   bool                     // a life was granted; gen is the last one
	gen       uint16
	diedAt    time.Duration // when the server committed its death; -1 while alive
	excused   time.Duration // the last spawn or health command (health frames)
	enc       []byte
	stale     *staleEcho    // the stale-echo cheat's state (CheatStaleEcho)
	hold      *withhold     // carry over, taken weapon
	far       *farOrigin    // the far-origin cheat's state (nil for the others)
	veh       *vehicleCheat // the vehicle cheats' state (cheat_vehicles.go)
}

func newCheater(kind Cheat, idx int) *cheater {
	ch := &cheater{kind: kind, report: CheaterReport{Player: idx, Cheat: kind.String()}, diedAt: -1,
		relayed: map[uint16]bool{}, deadSeen: map[uint16]time.Duration{}}
	if kind == CheatStaleEcho {
		ch.stale = &staleEcho{}
	}
	if kind == CheatCarryOver || kind == CheatTakenWeapon {
		ch.hold = newWithhold()
	}
	if kind == CheatFarOrigin {
		ch.far = newFarOrigin()
	}
	if kind == CheatVehicleGuns || kind == CheatSeatSteal {
		ch.veh = newVehicleCheat()
	}
	return ch
}

// outgoing rewrites a datagram of the cheater's client on its way out, and may add forged
// datagrams after it (send).
func (m *Match) outgoing(now time.Duration, p *player, d []byte, send func([]byte)) {
	ch := p.cheat
	if ch != nil && ch.stale != nil {
		m.staleOutgoing(now, p, d, send)
		return
	}
	if ch != nil && ch.hold != nil && m.withholding(now, p, d, send) {
		return
	}
	if ch != nil && ch.kind == CheatMutator {
		m.mutateOutgoing(now, p, d, send)
		return
	}
	if ch != nil && ch.kind == CheatFlood {
		m.floodOutgoing(p, d)
		send(d)
		return
	}
	id, err := wire.Peek(d)
	if ch == nil || err != nil || id.Transport() {
		send(d)
		return
	}
	msg, err := m.cheatDecoder.Decode(d)
	if err != nil {
		send(d)
		return
	}
	switch msg := msg.(type) {
	case *wire.PlayerSync:
		switch {
		case ch.kind == CheatHealthFrames && msg.Alive:
			msg.Health, msg.Armor = 100, max(msg.Armor, 100)
			ch.rewrite(msg, send)
			return
		case ch.kind == CheatFrozenAmmo && msg.Weapon == weaponM4 && msg.Alive:
			if msg.Total > ch.frozen || ch.frozen == 0 {
				ch.frozen = msg.Total
			}
			msg.Total, msg.Clip = ch.frozen, min(ch.frozen, 50)
			ch.rewrite(msg, send)
			return
		case ch.kind == CheatRevive && !msg.Alive && msg.Health == 0 && p.c.Spawned():
			msg.Alive, msg.Health = true, 100
			ch.rewrite(msg, send)
			return
		}
	case *wire.WeaponShot:
		if ch.kind == CheatFarOrigin {
			m.farShot(p, d, msg, send)
			return
		}
		ch.lastShot, ch.haveShot = *msg, true
		ch.shotSeq = msg.ShotSeq
		send(d)
		if ch.kind == CheatSpam {
			for range SpamCopies {
				ch.forgeShot(send) // more trigger pulls in the same instant
			}
		}
		return
	case *wire.ProjectileLaunch:
		if ch.kind == CheatFarOrigin {
			m.farLaunch(p, d, msg, send)
			return
		}
	case *wire.Detonation:
		if ch.kind == CheatFarOrigin {
			m.farDetonation(p, d, msg, send)
			return
		}
	}
	send(d)
}

func (ch *cheater) rewrite(msg wire.Message, send func([]byte)) {
	b, err := msg.Append(ch.enc[:0])
	if err != nil {
		return
	}
	ch.enc = b[:0]
	ch.report.Forged++
	send(b)
}

// forgeShot sends a copy of the cheater's last shot under the next shot number.
func (ch *cheater) forgeShot(send func([]byte)) {
	if !ch.haveShot {
		return
	}
	ch.shotSeq++
	s := ch.lastShot
	s.ShotSeq = ch.shotSeq
	ch.report.ForgedShots++
	ch.rewrite(&s, send)
}

// forge runs every client tick of a cheater: the shots its game would not fire.
func (m *Match) forge(now time.Duration, p *player, send func([]byte)) {
	ch := p.cheat
	if ch != nil && ch.kind == CheatMutator {
		m.mutatorTick(now, p, send)
		return
	}
	if ch != nil && ch.kind == CheatFlood {
		m.floodTick(now, p, send)
		return
	}
	if ch != nil && ch.hold != nil {
		m.forgeHeld(now, p, send)
		return
	}
	if ch != nil && ch.kind == CheatFarOrigin {
		m.forgeFarOrigin(now, p)
		return
	}
	if ch != nil && ch.veh != nil {
		m.forgeVehicles(now, p, send)
	}
	if ch == nil || !ch.haveShot {
		return
	}
	switch ch.kind {
	case CheatFrozenAmmo:
		// Its game is out of rounds (or reloading): the modified client fires anyway.
		if w := p.c.Weapons(); p.c.Alive() && m.bulletsLeft(w) == 0 && p.rng.IntN(5) == 0 {
			ch.lastShot.DeathEpoch = p.c.DeathEpoch()
			ch.forgeShot(send)
		}
	case CheatRevive:
		if !p.c.Alive() && p.c.Spawned() && p.rng.IntN(10) == 0 {
			ch.forgeShot(send)
		}
	}
}

// forgeHeld runs every client tick of the carry-over and taken-weapon cheaters: the shots
// they fire through the overwrite window.
func (m *Match) forgeHeld(now time.Duration, p *player, send func([]byte)) {
	switch p.cheat.kind {
	case CheatCarryOver:
		m.forgeCarryOver(now, p, send)
	case CheatTakenWeapon:
		m.forgeTakenWeapon(now, p, send)
	}
}

// bulletsLeft is the M4 rounds the client's game holds.
func (m *Match) bulletsLeft(w client.Weapons) uint16 {
	for _, s := range w.Slots {
		if s.Weapon == weaponM4 {
			return s.Total
		}
	}
	return 0
}

// watch sees every datagram the server sends, for the cheats' measurements.
func (m *Match) watch(now time.Duration, to int, d []byte) {
	if len(m.cheaters) == 0 {
		return
	}
	if m.adv != nil {
		m.adv.watch(now, to, d)
	}
	id, err := wire.Peek(d)
	if err != nil || (id != wire.IDRemoteWeaponShot && id != wire.IDRemotePlayerSync &&
		id != wire.IDRemoteProjectile && id != wire.IDRemoteDetonation &&
		id != wire.IDRemoteVehicleShot && id != wire.IDRemoteVehicleSync) {
		return
	}
	msg, err := m.cheatDecoder.Decode(d)
	if err != nil {
		return
	}
	m.watchFarOrigin(msg)
	m.watchVehicles(now, msg)
	switch msg := msg.(type) {
	case *wire.RemoteWeaponShot:
		p := m.player(msg.Shooter)
		if p == nil || p.cheat == nil {
			return
		}
		ch := p.cheat
		if ch.hold != nil {
			m.watchHeld(now, p, msg)
			return
		}
		if ch.kind == CheatFrozenAmmo && msg.Weapon != weaponM4 {
			return
		}
		if !ch.relayed[msg.ShotSeq] {
			ch.relayed[msg.ShotSeq] = true
			if ch.relayAt == nil {
				ch.relayAt = make([][]time.Duration, inventory.NumWeapons)
			}
			if int(msg.Weapon) < len(ch.relayAt) {
				ch.relayAt[msg.Weapon] = append(ch.relayAt[msg.Weapon], now)
			}
		}
		if ch.kind == CheatRevive && m.heldDead(now, p) {
			if _, seen := ch.deadSeen[msg.ShotSeq]; !seen {
				ch.deadSeen[msg.ShotSeq] = now
				ch.report.Gained++
			}
		}
	case *wire.RemotePlayerSync:
		p := m.player(msg.Player)
		if p != nil && p.cheat != nil && p.cheat.kind == CheatRevive && msg.Alive && m.heldDead(now, p) {
			p.cheat.report.Gained++
		}
	}
}

// heldDead reports whether the server has held the cheater dead since before this
// flush: a relay made in the tick of the commit was made while it was alive.
func (m *Match) heldDead(now time.Duration, p *player) bool {
	ch := p.cheat
	return !m.serverAlive(p) && ch.diedAt >= 0 && now-ch.diedAt > ServerTick
}

// serverAlive reports whether the server holds the player alive (what it stamps).
func (m *Match) serverAlive(p *player) bool {
	ph, err := m.server.Phase(p.id)
	return err == nil && ph != lifecycle.PhaseDead && ph != lifecycle.PhaseUnspawned
}

// cheatTick runs the continuous checks of the cheats (every ThinkInterval): the ledger of
// a health-frames cheater must never rise but by a server command.
func (m *Match) cheatTick(now time.Duration) {
	if m.adv != nil {
		m.adv.tick(now)
	}
	for _, p := range m.cheaters {
		ch := p.cheat
		if ch.stale != nil {
			m.staleTick(p)
			continue
		}
		if ch.hold != nil {
			m.heldTick(now, p)
			continue
		}
		if ch.kind != CheatHealthFrames {
			continue
		}
		v, err := m.server.Vitals(p.id)
		gen, gerr := m.server.Generation(p.id)
		if err != nil || gerr != nil {
			continue
		}
		sum := v.Health + v.Armor
		// A new life starts a new ledger: only a rise within one life is a gain.
		if gen == ch.ledgerGen && sum > ch.ledger+0.01 && now-ch.excused > RaiseExcuse {
			ch.report.Gained++
		}
		ch.ledger, ch.ledgerGen = sum, gen
	}
}

// RaiseExcuse is how long after a spawn or a health command a rise of a cheater's ledger
// is the server's own doing.
const RaiseExcuse = 2 * time.Second

// onCheaterSpawn sets a frozen-ammo cheater's M4 ammo low at each spawn.
func (m *Match) onCheaterSpawn(now time.Duration, p *player) {
	if p.cheat == nil {
		return
	}
	p.cheat.excused = now
	if m.adv != nil {
		m.adv.spawned(now, p)
	}
	if p.cheat.hold != nil {
		m.heldSpawn(now, p)
		return
	}
	if p.cheat.kind != CheatFrozenAmmo {
		return
	}
	if err := m.server.SetWeaponAmmo(now, p.id, weaponM4, FrozenAmmoGrant, wire.NoClip); err == nil {
		p.cheat.granted += FrozenAmmoGrant
		p.cheat.frozen = 0
	}
}

// finishCheats computes the gains that are known only at the end.
func (m *Match) finishCheats() {
	if m.adv != nil {
		m.adv.finish()
	}
	for _, p := range m.cheaters {
		ch := p.cheat
		switch ch.kind {
		case CheatFrozenAmmo:
			// Every relayed M4 shot spent a round the server gave: the loadout of each life
			// (overwritten by the grant at the spawn) is not counted, only the grants.
			ch.report.Gained += max(0, len(ch.relayed)-ch.granted-m.gm.given[p.idx])
		case CheatSpam:
			for w, at := range ch.relayAt { // each weapon has its own cadence
				ch.report.Gained += cadenceExcess(at, m.catalogInterval(uint8(w)))
			}
		case CheatStaleEcho:
			ch.stale.closeLife(p)
		case CheatCarryOver:
			ch.hold.closeLife(ch)
		case CheatVehicleGuns:
			m.finishVehicleCheat(p)
		}
		m.report.Cheaters = append(m.report.Cheaters, ch.report)
		m.report.CheatsGained += ch.report.Gained
	}
}

// catalogInterval is a weapon's minimum interval in the server's catalogue.
func (m *Match) catalogInterval(w uint8) time.Duration {
	t := inventory.DefaultTable()
	return t[w].MinInterval
}

// cadenceExcess counts the shots beyond what the weapon's cadence allows in any one
// second, with the rate check's burst allowance (inventory.DefaultShotRateTolerance).
func cadenceExcess(at []time.Duration, interval time.Duration) int {
	if interval <= 0 {
		return 0
	}
	limit := int((time.Second+inventory.DefaultShotRateTolerance)/interval) + 1
	excess, j := 0, 0
	for i := range at {
		for at[i]-at[j] >= time.Second {
			j++
		}
		if i-j+1 > limit {
			excess++
		}
	}
	return excess
}
