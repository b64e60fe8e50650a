package client

import (
	"slices"

	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

// Remote is the client's copy of another player, kept by the receiver's rules of
// lifecycle (lifecycle.Copy, [show-current-state], [player-token]): a show builds it from the server's current state; a death
// or respawn edge applies only to the connection (player_token) and the life it names; a
// respawn rebuilds the copy at the spawn point with a new frame barrier (sync_seq); a
// relayed frame applies only to the copy's life and at or past its barrier. The frame's
// alive never kills or revives the copy: only the edges do.
type Remote struct {
	// Copy is the lifecycle part: token, life, alive, death pose, frame barrier. Its
	// Point.Facing holds the wire's heading in radians.
	Copy lifecycle.Copy
	// The rest is what the last accepted relayed frame (or the show, or the spawn edge)
	// said.
	//
	// Group is the player's damage group (teams' [damage-groups]).
	Group uint16
	// Weapon is the held weapon.
	Weapon uint8
	// Health and Armor are the server's ledger of the player, not its client's word.
	Health float32
	Armor  float32
	// Position, Velocity and Facing are its body (the heading in radians).
	Position wire.Vec3
	Velocity wire.Vec3
	Facing   float32
	// Vehicle and Seat are the vehicle it sits in (wire.NoVehicle on foot).
	Vehicle uint16
	Seat    uint8
	// FireHeld reports that it holds the fire of a continuous weapon.
	FireHeld bool
	// Relayed is the server's alive in the last accepted frame (it replays no input on a
	// corpse; it decides nothing).
	Relayed bool
}

// remoteTable holds the client's copies: their values side by side in list (at most
// MaxRemotes), found by player id through at, whose entry (remoteKey) holds a copy's
// place in list and what a relayed frame checks before it writes the copy. at grows to
// the largest id shown, so it is bounded by the id space (65,536 entries of 8 bytes); a
// relayed frame reads its player's entry and then only writes the copy: the copy, cold
// in a crowd, costs no load the frame waits on.
type remoteTable struct {
	at   []remoteKey
	ids  []wire.PlayerID // the id of each copy in list
	list []Remote
}

// remoteKey is a player's entry in remoteTable.at.
//
// slot is the copy's place in list plus one (0: no copy), in its low bits, and two flags:
// keyHeld says the client's teams.Tracker holds exactly the stamp {keyMate, rev} for this
// player (set by observeFrame, cleared when the tracker's entry changes or is forgotten:
// observe, a new show, a hide), so that a relayed frame with that stamp skips the
// tracker. gen and floor mirror the copy's Copy.Gen and Copy.Floor (the frame barrier:
// what lifecycle.Copy.AcceptFrame reads), kept equal to them by every change of the copy
// (show, edges, accepted frames: sync).
type remoteKey struct {
	slot  uint16
	gen   lifecycle.Generation
	floor uint16
	rev   uint16
}

// The bits of remoteKey.slot.
const (
	keyHeld  = 1 << 15
	keyMate  = 1 << 14
	slotMask = keyMate - 1
)

// A place in list plus one fits below the flags (the index is 0 only then).
var _ = [1]struct{}{}[MaxRemotes/slotMask]

// key returns the entry of player if it has a copy, or nil. The pointer is valid until
// the next add.
func (t *remoteTable) key(player wire.PlayerID) *remoteKey {
	if int(player) < len(t.at) {
		if k := &t.at[player]; k.slot&slotMask != 0 {
			return k
		}
	}
	return nil
}

// of returns the copy k (an entry of at with a copy) names.
func (t *remoteTable) of(k *remoteKey) *Remote { return &t.list[k.slot&slotMask-1] }

// get returns the copy of player, or nil. The pointer is valid until the next add or remove.
func (t *remoteTable) get(player wire.PlayerID) *Remote {
	if k := t.key(player); k != nil {
		return t.of(k)
	}
	return nil
}

// sync mirrors the frame barrier of player's copy r in its entry, after a change of r.Copy.
func (t *remoteTable) sync(player wire.PlayerID, r *Remote) {
	k := &t.at[player]
	k.gen, k.floor = r.Copy.Gen, r.Copy.Floor
}

// len returns the number of copies.
func (t *remoteTable) len() int { return len(t.list) }

// add makes an empty copy of player, which has none (the caller checks MaxRemotes).
func (t *remoteTable) add(player wire.PlayerID) *Remote {
	if int(player) >= len(t.at) {
		t.at = append(t.at, make([]remoteKey, int(player)+1-len(t.at))...)
	}
	t.list = append(t.list, Remote{})
	t.ids = append(t.ids, player)
	t.at[player] = remoteKey{slot: uint16(len(t.list))}
	return &t.list[len(t.list)-1]
}

// remove drops the copy of player, which has one: the last copy takes its place.
func (t *remoteTable) remove(player wire.PlayerID) {
	i, last := int(t.at[player].slot&slotMask)-1, len(t.list)-1
	if i != last {
		t.list[i], t.ids[i] = t.list[last], t.ids[last]
		k := &t.at[t.ids[i]]
		k.slot = k.slot&^slotMask | uint16(i+1)
	}
	t.list[last] = Remote{}
	t.list, t.ids = t.list[:last], t.ids[:last]
	t.at[player] = remoteKey{}
}

// Remote returns the client's copy of player, and whether it has one.
func (c *Client) Remote(player wire.PlayerID) (Remote, bool) {
	r := c.remotes.get(player)
	if r == nil {
		return Remote{}, false
	}
	return *r, true
}

// AppendRemotes appends the ids of the players the client has a copy of, ascending.
func (c *Client) AppendRemotes(dst []wire.PlayerID) []wire.PlayerID {
	start := len(dst)
	dst = append(dst, c.remotes.ids...)
	slices.Sort(dst[start:])
	return dst
}

// onPlayerShow builds the copy of a player from the state the server sends (a join, or a
// streaming range reaching it). No edge is replayed: the show already is their result.
func (c *Client) onPlayerShow(m *wire.PlayerShow) {
	if c.welcomed && m.Player == c.id {
		return
	}
	r := c.remotes.get(m.Player)
	if r == nil {
		if c.remotes.len() >= MaxRemotes {
			c.counters.EdgesIgnored++
			return
		}
		r = c.remotes.add(m.Player)
	} else if r.Copy.Token != lifecycle.Token(m.PlayerToken) {
		// Another connection on the same id: nothing of the departed player's relation
		// may judge the new one's damage.
		c.tracker.Forget(m.Player)
	}
	pose := lifecycle.PoseDefault
	if !m.Alive {
		pose = lifecycle.Pose(m.Pose).OrDefault() // lay the body as everyone else saw it fall
	}
	*r = Remote{
		Copy: lifecycle.NewCopy(lifecycle.Snapshot{
			Subject: m.Player, Token: lifecycle.Token(m.PlayerToken), Spawned: true,
			Alive: m.Alive, Gen: lifecycle.Generation(m.DeathEpoch), Pose: pose,
			Point:   lifecycle.SpawnPoint{Pos: lifecycle.Vec3(m.Position), Facing: m.Facing},
			SyncSeq: m.SyncSeq,
		}),
		Group: m.DamageGroup, Weapon: m.Weapon, Health: m.Health, Armor: m.Armor, Position: m.Position,
		Facing: m.Facing, Vehicle: m.Vehicle, Seat: m.Seat, Relayed: m.Alive,
	}
	c.remotes.sync(m.Player, r)
	c.remotes.at[m.Player].slot &^= keyHeld | keyMate // a new show: the stamp is asked again
	c.counters.Shows++
}

// onPlayerHide removes the copy of the connection the hide names; a hide of a departed
// connection never removes a new player on its id.
func (c *Client) onPlayerHide(m *wire.PlayerHide) {
	r := c.remotes.get(m.Player)
	if r == nil || r.Copy.Token != lifecycle.Token(m.PlayerToken) {
		c.counters.EdgesIgnored++
		return
	}
	c.remotes.remove(m.Player)
	c.tracker.Forget(m.Player)
	c.counters.Hides++
}

// onPlayerWasted lays the copy down in the pose of the edge, if the edge is about the
// copy's connection and life (lifecycle.Copy.ApplyWasted).
func (c *Client) onPlayerWasted(m *wire.PlayerWasted) {
	r := c.remotes.get(m.Player)
	if r == nil {
		c.counters.EdgesIgnored++
		return
	}
	v := r.Copy.ApplyWasted(lifecycle.PlayerWasted{Subject: m.Player,
		Token: lifecycle.Token(m.PlayerToken), Gen: lifecycle.Generation(m.DeathEpoch), Pose: lifecycle.Pose(m.Pose)})
	c.edge(v)
	if v == lifecycle.EdgeApplied {
		c.remotes.sync(m.Player, r)
		r.Health, r.FireHeld, r.Relayed = 0, false, false
	}
}

// onPlayerSpawned rebuilds the copy alive at the spawn point in the new life, with the
// edge's sync_seq as the barrier below which late frames of the old life are dropped.
func (c *Client) onPlayerSpawned(m *wire.PlayerSpawned) {
	r := c.remotes.get(m.Player)
	if r == nil {
		c.counters.EdgesIgnored++
		return
	}
	v := r.Copy.ApplySpawned(lifecycle.PlayerSpawned{Subject: m.Player,
		Token: lifecycle.Token(m.PlayerToken), Gen: lifecycle.Generation(m.DeathEpoch), SyncSeq: m.SyncSeq,
		Point: lifecycle.SpawnPoint{Pos: lifecycle.Vec3(m.Position), Facing: m.Facing}})
	c.edge(v)
	if v == lifecycle.EdgeApplied {
		c.remotes.sync(m.Player, r)
		r.Position, r.Velocity, r.Facing = m.Position, wire.Vec3{}, m.Facing
		r.Health, r.Armor, r.Weapon = StartHealth, StartArmor, 0
		r.Vehicle, r.Seat, r.FireHeld, r.Relayed = wire.NoVehicle, 0, false, true
	}
}

func (c *Client) edge(v lifecycle.EdgeVerdict) {
	if v == lifecycle.EdgeApplied {
		c.counters.EdgesApplied++
	} else {
		c.counters.EdgesIgnored++
	}
}

// onRemotePlayerSync feeds the frame's stamp to the tracker (every packet of a sender
// carries its relation), then applies the frame to the copy if it is of the copy's life
// and not below its barrier.
func (c *Client) onRemotePlayerSync(m *wire.RemotePlayerSync) {
	k := c.remotes.key(m.Player)
	c.observeFrame(k, m.Player, m.Stamp)
	if k == nil {
		c.counters.FramesDropped++
		return
	}
	// The copy's frame barrier, from its mirror in the entry (AcceptFrame reads Gen and
	// Floor only: TestKeyMirrorsFrameBarrier holds it to the whole copy's answer).
	barrier := lifecycle.Copy{Gen: k.gen, Floor: k.floor}
	if !barrier.AcceptFrame(lifecycle.Stamp{Alive: m.Alive, Gen: lifecycle.Generation(m.DeathEpoch),
		Seq: m.SyncSeq, Health: m.Health}) {
		c.counters.FramesDropped++
		return
	}
	c.counters.FramesApplied++
	k.floor = barrier.Floor
	r := c.remotes.of(k)
	r.Copy.Floor = barrier.Floor
	r.Group, r.Weapon, r.Health, r.Armor = m.DamageGroup, m.Weapon, m.Health, m.Armor
	r.Position, r.Velocity, r.Facing = m.Position, m.Velocity, m.Facing
	r.Vehicle, r.Seat, r.FireHeld, r.Relayed = m.Vehicle, m.Seat, m.FireHeld, m.Alive
}

// onRemoteVehicleSync feeds the driver's stamp to the tracker (a vehicle can hurt by
// ramming), and moves the vehicle a passenger sits in with the driver's newest frame.
func (c *Client) onRemoteVehicleSync(m *wire.RemoteVehicleSync) {
	c.observe(m.Driver, m.Stamp)
	c.vehicleFrame(m)
	if !c.veh.in || c.veh.vehicle != m.Vehicle || c.veh.seat == 0 {
		return
	}
	if c.veh.synced && !revision.Newer(m.SyncSeq, c.veh.syncSeq) {
		return
	}
	c.veh.synced, c.veh.syncSeq = true, m.SyncSeq
	c.veh.pose = VehiclePose{Position: m.Position, Rotation: m.Rotation, Velocity: m.Velocity}
	c.veh.health = m.Health
	c.pos, c.vel = m.Position, m.Velocity
}
