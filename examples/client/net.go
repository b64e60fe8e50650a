package client

import (
	"fmt"
	"math"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// DisconnectRepeats is how many Disconnect datagrams Leave sends (it is unreliable).
const DisconnectRepeats = 3

// Receive takes one datagram from the server: an unreliable message, or a datagram of the
// reliable lane, whose messages are applied in the server's order, each exactly once.
// Every message the datagram carries intact is handled, at now; what the transport refused
// is counted and returned wrapped in ErrMalformed. A datagram after the connection closed
// is refused with ErrClosed.
func (c *Client) Receive(now time.Duration, datagram []byte) error {
	if err := c.input(now); err != nil {
		return err
	}
	err := c.ep.Receive(now, datagram, c.handleFn)
	if id, perr := wire.Peek(datagram); perr != nil || id == wire.IDBundle || id.Transport() {
		// A datagram that may have reached the lane (a lane datagram, a bundle): what
		// it acknowledged is dropped, and the lane may want a Flush sooner. A message
		// alone (most of them: relayed frames) passes the lane by, and what its handling
		// queues sets flushDue itself (epSend, epQueue): a crowd's clients do not touch
		// their lanes for it.
		for _, ok := c.ep.PopAcked(); ok; _, ok = c.ep.PopAcked() {
			// The client keeps nothing that waits for the server's acknowledgements.
		}
		c.flushDue = min(c.flushDue, c.laneDue())
	}
	if err != nil {
		c.counters.Malformed++
		return fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	return nil
}

// ShareDecoder makes the client decode what it receives into d, a decoder that the
// clients (and other endpoints) of one goroutine may share: a message is done with when
// the client's handling of it returns, before any other decode (transport.Endpoint's
// ShareDecoder). A host of a crowd of clients then decodes into one decoder the caches
// keep, rather than into each client's own (about 1 KB each, cold). d must not be nil.
func (c *Client) ShareDecoder(d *wire.Decoder) { c.ep.ShareDecoder(d) }

// handle applies one message from the server, in arrival order.
func (c *Client) handle(m wire.Message) {
	if c.closed {
		return
	}
	switch m := m.(type) {
	case *wire.Welcome:
		if m.Session != c.session {
			c.counters.StaleWelcomes++ // the answer to another connection's Hello
			return
		}
		if !c.welcomed {
			c.welcomed, c.id, c.token = true, m.Player, m.PlayerToken
			c.nextRespawn = c.now // the connect spawn is asked for at the next Tick
		}
	case *wire.RemotePlayerSync:
		c.onRemotePlayerSync(m)
	case *wire.RemoteVehicleSync:
		c.onRemoteVehicleSync(m)
	case *wire.RemoteWeaponShot:
		c.onRemoteWeaponShot(m)
	case *wire.RemoteVehicleShot:
		c.onRemoteVehicleShot(m)
	case *wire.RemoteProjectile:
		c.observe(m.Owner, m.Stamp) // the blast comes with its detonation
	case *wire.RemoteDetonation:
		c.onRemoteDetonation(m)
	case *wire.RemoteStealthKill:
		c.onRemoteStealthKill(m)
	case *wire.RemoteVehicleExplode:
		c.onRemoteVehicleExplode(m)
	case *wire.CreateExplosion:
		c.onCreateExplosion(m)
	case *wire.CreateFire:
		c.onCreateFire(m)
	case *wire.PlayerShow:
		c.onPlayerShow(m)
	case *wire.PlayerHide:
		c.onPlayerHide(m)
	case *wire.PlayerWasted:
		c.onPlayerWasted(m)
	case *wire.PlayerSpawned:
		c.onPlayerSpawned(m)
	case *wire.RespawnPlayer:
		c.onRespawnPlayer(m)
	case *wire.SetHealth:
		c.vitalCommand(wire.IDSetHealth, m.Rev, m.Health, 0)
	case *wire.SetArmor:
		c.vitalCommand(wire.IDSetArmor, m.Rev, m.Armor, 0)
	case *wire.GiveHealth:
		c.vitalCommand(wire.IDGiveHealth, m.Rev, m.Amount, m.Max)
	case *wire.GiveArmor:
		c.vitalCommand(wire.IDGiveArmor, m.Rev, m.Amount, m.Max)
	case *wire.DamageMultipliers:
		c.mult = *m
	case *wire.GiveWeapon:
		c.onGiveWeapon(m)
	case *wire.TakeWeapon:
		c.onTakeWeapon(m)
	case *wire.SetWeaponAmmo:
		c.onSetWeaponAmmo(m)
	case *wire.ClearWeapons:
		c.onClearWeapons(m)
	case *wire.SetArmedWeapon:
		c.onSetArmedWeapon(m)
	case *wire.WeaponProperties:
		c.onWeaponProperties(m)
	case *wire.SetWeaponSkill:
		c.onSetWeaponSkill(m)
	case *wire.SetPlayerPosition:
		c.onSetPlayerPosition(m)
	case *wire.SetVehiclePose:
		c.onSetVehiclePose(m)
	case *wire.SetVehicleFrozen:
		c.onSetVehicleFrozen(m)
	case *wire.VehicleShow:
		c.onVehicleShow(m)
	case *wire.VehicleHide:
		c.onVehicleHide(m)
	case *wire.Ping:
		c.pongMsg = wire.Pong{Seq: m.Seq, Time: m.Time}
		if c.sendOrCount(&c.pongMsg) == nil {
			c.counters.Pongs++
		}
	case *wire.Disconnect:
		if !c.welcomed && m.Reason != wire.ReasonFull && m.Reason != wire.ReasonVersion {
			// Before its Welcome a connection can only be refused (full, version); any
			// other Disconnect ends a connection this client does not have (the one its
			// predecessor on this address had).
			c.counters.StaleDisconnects++
			return
		}
		c.close(m.Reason)
	}
}

// onRespawnPlayer revives the player if lifecycle.ShouldRespawn says the grant is new
// (the first of the connection, or a newer generation); a repeated grant of the life the
// client already lives in is ignored (lifecycle's [respawn-idempotent]: a lost RespawnPlayer heals itself).
func (c *Client) onRespawnPlayer(m *wire.RespawnPlayer) {
	if !lifecycle.ShouldRespawn(c.spawned, lifecycle.Generation(c.epoch),
		lifecycle.RespawnPlayer{Gen: lifecycle.Generation(m.DeathEpoch)}) {
		c.counters.RespawnsIgnored++
		return
	}
	if c.explodePending {
		c.explodePending = false
		_, err := c.epQueue(c.now, &c.explodeMsg)
		c.sendError(err)
	}
	if c.deathPending {
		// A grant overtook the delay of the last DeathReport (the server committed the death
		// itself): report the old life's death first, in the lane's order.
		c.reportDeath()
	}
	if c.spawned {
		c.counters.Respawns++
	}
	c.counters.Spawns++
	c.spawned, c.alive = true, true
	c.epoch = m.DeathEpoch
	c.health, c.armor = StartHealth, StartArmor
	// The revival clears the store, as the server's grant did, without touching the echo:
	// no packet carries a revision of this clear (inventory's [weapon-revision]).
	c.store.clear()
	c.reloading, c.fireHeld, c.stealthing = false, false, false
	c.fuses, c.armedFuses = [MaxFuses]fuse{}, 0
	c.sums, c.openSums = [MaxOpenSums]sum{}, 0
	c.veh = seatState{vehicle: wire.NoVehicle}
	c.pos, c.vel, c.facing = m.Position, wire.Vec3{}, m.Facing
	c.settleUntil = c.now + c.cfg.SpawnSettle
	c.lives.Push(Life{Epoch: m.DeathEpoch, SpawnedAt: c.now, Point: m.Position, Killer: wire.NoPlayer})
	c.event(Event{Kind: EventSpawned, Position: m.Position, Facing: m.Facing, Vehicle: wire.NoVehicle})
	// The first living frame goes out at once, ahead of anything the new life sends: it
	// is what confirms the life on the server (lifecycle's [first-living-frame]), which takes nothing of the life
	// before it.
	c.sendFrame(c.now)
}

// Tick runs the client's timers at now: Hello until Welcome (transport.HelloRetry);
// RespawnRequest while unspawned or dead (transport.RespawnRetry); the end of a stealth
// animation; the detonations of its projectiles; the spray of a held continuous weapon;
// reloads; the fire and environmental sums due (transport.FireSumInterval); and the frame
// (PlayerSync, and VehicleSync while driving) every transport.FrameInterval. Call it at
// least every FrameInterval (NextDeadline tells when it is next needed), so that frames are
// never more than transport.MaxFrameGap apart. What it sends goes out at the next Flush.
func (c *Client) Tick(now time.Duration) error {
	if err := c.input(now); err != nil {
		return err
	}
	if !c.welcomed && now >= c.nextHello {
		if c.sendOrCount(&wire.Hello{Session: c.session}) == nil {
			c.counters.Hellos++
		}
		c.nextHello = now + transport.HelloRetry
	}
	if c.spawned {
		c.tickStealth(now)
		c.tickFuses(now)
		c.tickSpray(now)
		c.tickReload(now)
		c.tickSums(now)
	}
	if c.explodePending && now >= c.explodeDue && !c.closed {
		c.explodePending = false
		_, err := c.epQueue(now, &c.explodeMsg)
		c.sendError(err)
	}
	if c.deathPending && now >= c.deathDue && !c.closed {
		c.reportDeath()
	}
	if c.welcomed && (!c.spawned || !c.alive) && !c.deathPending && now >= c.nextRespawn && !c.closed {
		c.requestRespawn()
	}
	if c.spawned && !c.closed && (!c.framed || now-c.lastFrame >= transport.FrameInterval) {
		c.sendFrame(now)
	}
	return nil
}

// Warm reads what Tick, Flush and PopEvent read first of the client, and changes
// nothing. A host about to tick a crowd of clients one after the other calls it for each
// of them first: the clients' memory (which a crowd's does not fit the caches) is then
// fetched by loads that wait on nothing before them, many in flight at once, rather than
// one client at a time by the ticks. The result means nothing; the host adds it up, so
// that the loads are kept.
func (c *Client) Warm() int {
	n := int(c.now) + int(c.flushDue) + int(c.nextRespawn) + int(c.lastFrame) + int(c.stealthUntil) +
		c.armedFuses + c.openSums + c.events.Len() + int(c.weaponRev)
	for _, b := range [...]bool{c.closed, c.spawned, c.explodePending, c.deathPending, c.reloading, c.fireHeld, c.stealthing} {
		if b {
			n++
		}
	}
	return n
}

// sendFrame sends the player's frame: everything the server reads, clamped to what the
// wire carries (health and armor 0..200, the velocity by wire.ClampVelocity).
func (c *Client) sendFrame(now time.Duration) {
	c.frameSeq = revision.Next(c.frameSeq)
	c.framed, c.lastFrame = true, now
	s := &c.store.slots[c.store.active]
	f := &c.frameMsg
	*f = wire.PlayerSync{
		Seq: c.frameSeq, VitalRev: c.vitalRev, DamageSeq: c.damageSeq, WeaponRev: c.weaponRev,
		DeathEpoch: c.epoch, Weapon: s.Weapon, Alive: c.alive, FireHeld: c.fireHeld,
		Clip: s.Clip, Total: s.Total, Health: clampVital(c.health), Armor: clampVital(c.armor),
		Position: c.pos, Velocity: wire.ClampVelocity(c.vel), Facing: c.facing, Vehicle: wire.NoVehicle,
	}
	if c.veh.in {
		f.Vehicle, f.Seat = c.veh.vehicle, c.veh.seat
	}
	if c.sendOrCount(f) == nil {
		c.counters.Frames++
	}
	if c.veh.in && c.veh.seat == 0 && !c.veh.wrecked && c.alive {
		c.vehSyncSeq = revision.Next(c.vehSyncSeq)
		v := &c.vsyncMsg
		*v = wire.VehicleSync{Seq: c.vehSyncSeq, Vehicle: c.veh.vehicle, Position: c.veh.pose.Position,
			Rotation: c.veh.pose.Rotation, Velocity: wire.ClampVelocity(c.veh.pose.Velocity),
			Health: min(max(c.veh.health, 0), wire.MaxVehicleHealth)}
		if c.sendOrCount(v) == nil {
			c.counters.VehicleFrames++
		}
	}
}

// Flush hands every datagram the client has to send at now to emit (unreliable messages
// first, then the lane's: new messages, retransmissions, acknowledgements). The slice
// passed to emit is only valid during the call. A lane that broke closes the client.
func (c *Client) Flush(now time.Duration, emit func([]byte)) error {
	if err := c.clock(now); err != nil {
		return err
	}
	if now < c.flushDue && !c.epShared {
		return nil // nothing queued, no acknowledgement owed, no retransmission due
	}
	if err := c.ep.Flush(now, emit); err != nil {
		c.close(wire.ReasonTimeout)
		return fmt.Errorf("%w: %w", ErrClosed, err)
	}
	c.flushDue = c.laneDue()
	return nil
}

// laneDue returns when the endpoint's lane next wants a Flush (an acknowledgement owed,
// a message not yet sent, a retransmission, the link timeout): 0 (at once) when the lane
// is broken, so that Flush reports it; never when nothing is pending.
func (c *Client) laneDue() time.Duration {
	if c.ep.Lane().State() != lane.Open {
		return 0
	}
	if t, ok := c.ep.NextDeadline(); ok {
		return t
	}
	return math.MaxInt64
}

// epSend sends an unreliable message through the endpoint; the next Flush carries it.
func (c *Client) epSend(m wire.Message) error {
	c.flushDue = 0
	return c.ep.Send(m)
}

// epQueue queues a reliable message on the lane; the next Flush carries it.
func (c *Client) epQueue(now time.Duration, m wire.Message) (lane.Seq, error) {
	c.flushDue = 0
	return c.ep.Queue(now, m)
}

// NextDeadline returns the earliest moment at which Tick or Flush has something to do: a
// frame, a timer, a detonation, a sum, a lane retransmission or acknowledgement. It
// reports false when nothing is pending (a closed connection).
func (c *Client) NextDeadline() (time.Duration, bool) {
	if c.closed {
		return 0, false
	}
	var at time.Duration
	ok := false
	take := func(t time.Duration) {
		if !ok || t < at {
			at, ok = t, true
		}
	}
	if !c.welcomed {
		take(c.nextHello)
	}
	if c.welcomed && (!c.spawned || !c.alive) {
		take(c.nextRespawn)
	}
	if c.explodePending {
		take(c.explodeDue)
	}
	if c.spawned {
		if c.framed {
			take(c.lastFrame + transport.FrameInterval)
		} else {
			take(c.now)
		}
		if c.reloading {
			take(c.reloadUntil)
		}
		if c.stealthing {
			take(c.stealthUntil)
		}
		for i := range c.fuses {
			if c.fuses[i].armed {
				take(c.fuses[i].due)
			}
		}
		if s := c.oldestSum(nil); s != nil {
			take(s.start + transport.FireSumInterval)
		}
	}
	if t, lane := c.ep.NextDeadline(); lane {
		take(t)
	}
	return at, ok
}

// Leave ends the connection from the client's side: Disconnect{ReasonQuit}, sent
// DisconnectRepeats times at the next Flush (it is unreliable). Nothing else is sent after.
func (c *Client) Leave(now time.Duration) error {
	if err := c.input(now); err != nil {
		return err
	}
	for range DisconnectRepeats {
		_ = c.sendOrCount(&wire.Disconnect{Reason: wire.ReasonQuit})
	}
	c.close(wire.ReasonQuit)
	return nil
}

func (c *Client) close(r wire.Reason) {
	if !c.closed {
		c.closed, c.reason = true, r
		c.fireHeld = false
	}
}
