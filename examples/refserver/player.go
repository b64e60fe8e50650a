package refserver

import (
	"math"
	"math/bits"
	"time"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/internal/interest"
	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/internal/ring"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// player is one connection's slot. The struct and its rings are allocated the first time
// the slot joins and reused by every later connection on the slot.
type player struct {
	// The fields every datagram and every frame reads come first, in the order of their
	// cache lines (a world of 10,000 players reads each player's from memory every tick:
	// the fewer lines, the fewer misses); the rest follow. A frame reads lines 0 and 1 and
	// nothing else of its player (its datagram, a message datagram, does not open the
	// endpoint: Receive); TestPlayerLines keeps the lines as written here.
	//
	// Line 0: what Receive, a frame, Tick and Flush all read.
	id         PlayerID
	connected  bool
	dropping   bool
	dropReason wire.Reason
	haveSeq    bool // a frame was taken; lastSeq is its sequence number
	lastSeq    uint16
	handle     lifecycle.Handle
	vit        *vitals.Player
	inv        *inventory.Inventory
	lastHeard  time.Duration
	// laneDue is the earliest time the lane may have something to send: 0 (now) after
	// anything that may have given it work (a message queued, a lane datagram or bundle
	// received), else what its NextDeadline said after the last Flush (laneIdle when
	// nothing). Flush visits the lane only when it is due, so an idle lane costs nothing.
	laneDue time.Duration
	// The per-connection caps (flood.go): the gates of its datagrams, frames, vehicle
	// frames and launches, and what they refused (the peaks are raised at every frame:
	// framePeak and datagramPeak are ConnStats' FramePeak and DatagramPeak, kept here
	// beside the frame rather than in caps).
	dgramGate, frameGate rateGate

	// Line 1: the frame's. The newest frame taken (and haveSeq, lastSeq above), the peaks
	// its gates raise, and the seat it holds (a frame on foot reads whether it holds one);
	// then what a shot reads of it beside the frame (riding) and what Tick's walk of the
	// vehicle streaming reads beside the seat (joinSerial).
	frame                   frameState
	framePeak, datagramPeak time.Duration
	seat                    seatHold
	riding                  bool   // a frame in a vehicle seat was taken: rideAt and rideLife are its
	joinSerial              uint64 // the World's serial when the connection joined

	// Line 2: the endpoint's first, all of it that a lane datagram or a bundle reads
	// (transport.Endpoint): the connection's endpoint, inline (transport.Endpoint.Init),
	// so that such a datagram reads it right after the player's lines, with no pointer to
	// follow.
	ep transport.Endpoint

	// After the endpoint's other lines, to the end of its last: Tick's (a visit reads
	// these two beside lastHeard: World.timerAt) and the rest of the gates. pingDue is when
	// the rewind's PingDue turns true: PingInterval after the last ping sent, 0 (now) for
	// a new connection.
	nextSuspect, pingDue time.Duration
	vframeGate, projGate rateGate

	// Line 6: what a shot reads of its shooter (and the shot's victim reads of its
	// attacker: shots, lifeSerial), and what a report reads of its victim first (sees:
	// stream; lifeSerial). shotOnFoot and shotSeated are Reach's ShotOnFoot and
	// ShotSeated, kept here rather than in reach.
	shotFilter             seqFilter
	shots                  shotBook
	lifeSerial             uint64 // the World's serial at the last respawn grant: combat correlation
	shotOnFoot, shotSeated float32
	// stream is the World's interest manager while streaming (then unshown is unused):
	// who this connection sees is its shown set there.
	stream *interest.Manager

	// Lines 7 and 8: what a report reads of its victim next: vis is the last shows and
	// hides of other players to this connection, which a report's action is checked
	// against ([stream-reports]), then the moment of the join its times count from.
	vis      visLog
	joinedAt time.Duration
	// reportFilter drops duplicated damage report datagrams before their correlation
	// spends a shot credit (vitals refuses them too, but after the correlation).
	reportFilter seqFilter

	// Flush's.
	out outbox // unreliable datagrams until Flush
	// debt is this connection's place in World.debtors plus one while it is owed hides
	// its lane refused at its soft cap ([stream-hide-owed]), else 0.
	debt    uint32
	session uint32 // the Session of the Hello that opened the connection (Welcome echoes it)
	// seatPast is when the held seat was taken, the last frame in a seat and the last
	// refused entry put back (seats.go).
	seatPast seatPast

	// Without streaming: unshown has bit s set while subject s is connected but not shown
	// to this connection yet (its PlayerShow waits for room on the lane). Such a subject's
	// frames and lifecycle edges are not sent here: its show builds the copy from the
	// current state. nUnshown is the bits set in it.
	unshown  []uint64
	nUnshown int

	caps ConnStats

	// vgod is the vehicle_god_mode detector of the vehicles this player drives, made the
	// first time it has something to count (vehicleDetector): nil for a player that never
	// drove a vehicle or had one it drives shot at.
	vgod *vitals.VehicleDetector

	// projectiles is allocated at the first projectile (newProjectile).
	projectiles *[MaxProjectiles]projectileRecord
	projFilter  seqFilter

	acks ackRing

	// The death the server counted and waits for: the relation revision at the count, so
	// the killer is judged by the relation then and now.
	counted  bool
	countRev uint16

	// The weapon properties revisions the client may still apply (the bullet floors take
	// the lowest damage among them): from propsLow to the newest, and the catalogue's first
	// table while propsBase.
	propsLow      uint16
	propsBase     bool
	propsAcked    uint16
	propsAckAt    time.Duration
	propsAckValid bool

	// Recent actions, for reports that arrive after them: the last frame that held a
	// continuous weapon's fire, the last frame in a driver's seat, the death's commit.
	fireWeapon   uint8
	fireAt       time.Duration
	fireLife     uint64
	driveAt      time.Duration
	driveLife    uint64
	driveVehicle uint16
	driving      bool
	dead         bool
	deadAt       time.Duration
	deadLife     uint64
	// The last frame in any vehicle seat (and riding above): a drive-by starts from the
	// vehicle (see OriginReach and SeatedOriginReach).
	rideAt   time.Duration
	rideLife uint64

	// reach is what the World measured of this connection's accepted actions against its
	// accepted path (Reach), but for ShotOnFoot and ShotSeated (shotOnFoot, shotSeated).
	reach Reach
}

// frameState is what the World keeps of a player's newest frame: for the relay, a show,
// the distance checks and the vehicle seats.
type frameState struct {
	at       time.Duration
	pos      wire.Vec3
	facing   float32
	vehicle  uint16
	have     bool
	seat     uint8
	weapon   uint8
	fireHeld bool
	// placed mirrors the interest manager: while true, the manager holds the player placed
	// at pos's X and Y (streamPlace placed it there last, and nothing moved pos since), so
	// that a frame standing there again need not read the manager ([stream-standing-mirror]).
	placed bool
}

// seqFilter refuses duplicated shot and projectile numbers within ShotWindow.
type seqFilter struct {
	have bool
	top  uint16
	bits uint64 // bit i: number top-i was seen
}

func (f *seqFilter) check(n uint16) Verdict {
	if !f.have {
		return VerdictAccepted
	}
	d := revision.Diff(n, f.top)
	switch {
	case d > 0:
		return VerdictAccepted
	case -d >= ShotWindow:
		return VerdictTooOld
	case f.bits&(1<<uint(-d)) != 0:
		return VerdictDuplicate
	}
	return VerdictAccepted
}

func (f *seqFilter) mark(n uint16) {
	if !f.have {
		f.have, f.top, f.bits = true, n, 1
		return
	}
	d := revision.Diff(n, f.top)
	if d > 0 {
		if d >= ShotWindow {
			f.bits = 0
		} else {
			f.bits <<= uint(d)
		}
		f.bits |= 1
		f.top = n
		return
	}
	if -d < ShotWindow {
		f.bits |= 1 << uint(-d)
	}
}

// The acknowledgements the World waits for on a connection's lane.
type ackKind uint8

const (
	ackHealth ackKind = iota + 1 // a health or armor command: vitals.Acknowledged
	ackMult                      // a multiplier table: vitals.MultipliersAcknowledged
	ackZero                      // the deadline's SetHealth(0): also lifecycle.ZeroAcknowledged
	ackWeapon                    // a weapon command: inventory.Acknowledged
	ackProps                     // a weapon properties revision: the floors' lower bound
)

type ackInterest struct {
	seq  lane.Seq
	kind ackKind
	rev  uint16
	gen  lifecycle.Generation
}

// ackRing holds the interests in lane order. Its cap is the lane's hard cap, so it cannot
// hold more than the lane can queue (if it ever did, the oldest would be dropped, not the
// ring grown past it); its buffer grows on demand up to that cap (internal/ring), so a
// connection with few commands in flight holds a few entries, not a thousand.
type ackRing struct{ ring.Ring[ackInterest] }

func newAckRing() ackRing { return ackRing{ring.New[ackInterest](lane.HardCap)} }

func (r *ackRing) push(a ackInterest) { r.Push(a) }

func (r *ackRing) reset() { r.Reset() }

// routeAcks drains p's lane acknowledgements and hands those the packages wait for to
// them: health commands to vitals.Acknowledged, multiplier tables to
// vitals.MultipliersAcknowledged, the deadline's zero to lifecycle.ZeroAcknowledged,
// weapon commands to inventory.Acknowledged.
func (w *World) routeAcks(p *player) {
	for a, ok := p.ep.PopAcked(); ok; a, ok = p.ep.PopAcked() {
		for it, ok := p.acks.Front(); ok; it, ok = p.acks.Front() {
			if int32(it.seq-a.Seq) > 0 {
				break // acknowledged later
			}
			p.acks.Pop()
			if it.seq != a.Seq {
				continue // its report was lost from the lane's log; Acked still knows
			}
			w.acknowledged(a.At, p, it)
			break
		}
	}
	// Interests whose acknowledgement report the lane dropped from its log.
	for it, ok := p.acks.Front(); ok; it, ok = p.acks.Front() {
		if !p.ep.Lane().Acked(it.seq) {
			return
		}
		p.acks.Pop()
		w.acknowledged(w.now, p, it)
	}
}

// acknowledged hands the acknowledgement, at at, of the message it waited for to the
// package that waits for it.
func (w *World) acknowledged(at time.Duration, p *player, it ackInterest) {
	switch it.kind {
	case ackHealth:
		w.packageRefused(CallHealthAck, p.id, p.vit.Acknowledged(at, it.rev))
	case ackMult:
		w.packageRefused(CallMultipliersAck, p.id, p.vit.MultipliersAcknowledged(at, it.rev))
	case ackZero:
		w.packageRefused(CallHealthAck, p.id, p.vit.Acknowledged(at, it.rev))
		w.packageRefused(CallZeroAck, p.id, w.life.ZeroAcknowledged(p.handle, it.gen))
	case ackProps:
		p.propertiesAcknowledged(at, it.rev)
	case ackWeapon:
		w.packageRefused(CallWeaponAck, p.id, p.inv.Acknowledged(at, it.rev))
	}
}

// propertiesAcknowledged records that the client acknowledged weapon properties revision
// rev at: it applies it from then on; reports it created before may arrive PropertiesGrace
// later.
func (p *player) propertiesAcknowledged(at time.Duration, rev uint16) {
	p.propsAcked, p.propsAckAt, p.propsAckValid = rev, at, true
}

// settleProperties moves the oldest weapon properties revision the client may still apply
// to the last one it acknowledged PropertiesGrace ago.
func (p *player) settleProperties(now time.Duration) {
	if p.propsAckValid && now-p.propsAckAt >= PropertiesGrace {
		p.propsLow, p.propsBase, p.propsAckValid = p.propsAcked, false, false
	}
}

// vehicleDetector returns p's vehicle_god_mode detector, making it at its first use (the
// Config was validated by join). An unmade detector has counted nothing: it is left,
// names no vehicle, and suspects nothing, as a made one that counted nothing does.
func (w *World) vehicleDetector(p *player) *vitals.VehicleDetector {
	if p.vgod == nil {
		d, err := vitals.NewVehicleDetector(w.cfg.VehicleGodMode)
		if err != nil {
			w.packageRefused(CallVehicleHealth, p.id, err)
		}
		p.vgod = &d
	}
	return p.vgod
}

// leftVehicle tells p's vehicle_god_mode detector, if made, that p no longer drives.
func (p *player) leftVehicle(now time.Duration) {
	if p.vgod != nil {
		p.vgod.Left(now)
	}
}

// sees reports whether subject's PlayerShow went to p (so its frames and edges go too).
func (p *player) sees(subject PlayerID) bool {
	if p.stream != nil {
		return p.stream.Sees(p.id, subject)
	}
	return p.nUnshown == 0 || p.unshown[subject>>6]&(1<<(subject&63)) == 0
}

func (p *player) markUnshown(subject PlayerID) {
	if p.unshown[subject>>6]&(1<<(subject&63)) == 0 {
		p.unshown[subject>>6] |= 1 << (subject & 63)
		p.nUnshown++
	}
}

func (p *player) clearUnshown(subject PlayerID) {
	if p.unshown[subject>>6]&(1<<(subject&63)) != 0 {
		p.unshown[subject>>6] &^= 1 << (subject & 63)
		p.nUnshown--
	}
}

// drainShows sends p the shows it still lacks, in ascending id, while its lane holds fewer
// than ShowBacklogRoom messages (a World of more players than the lane's soft cap cannot
// show everyone at once, and commands and the respawn need room too). Tick drains the rest.
func (w *World) drainShows(now time.Duration, p *player) {
	for i := 0; p.nUnshown > 0 && i < len(p.unshown); i++ {
		for p.unshown[i] != 0 {
			s := PlayerID(i*64 + bits.TrailingZeros64(p.unshown[i]))
			subject := w.conn(s)
			if subject == nil || subject == p {
				p.clearUnshown(s)
				continue
			}
			if p.ep.Lane().Stats().Queued >= ShowBacklogRoom || p.ep.CanQueue(&w.msgs.show) != nil {
				return
			}
			w.show(now, p, subject)
			p.clearUnshown(s)
		}
	}
}

// ---- joining ----

// join creates the player of a new connection in every package and sends what a new
// connection needs (the session, in the package doc: Welcome, the tables, the shows).
func (w *World) join(now time.Duration, conn PlayerID, session uint32) {
	h, err := w.life.Join(now, conn)
	if err != nil {
		w.refuseInput(conn, VerdictUnknownConnection, err.Error())
		return
	}
	// Each refusal below is counted (the Config was validated in New, and the slot is free
	// in every package while it is free in the lifecycle); what the join took is given back.
	rollback := func(err error, teamsJoined bool) {
		w.packageRefused(CallJoin, conn, err)
		if teamsJoined {
			if _, err := w.teams.Disconnect(conn); err != nil {
				w.packageRefused(CallJoinRollback, conn, err)
			}
		}
		if _, err := w.life.Leave(now, h); err != nil {
			w.packageRefused(CallJoinRollback, conn, err)
		}
	}
	vit, err := vitals.NewPlayer(w.cfg.Vitals)
	if err != nil {
		rollback(err, false)
		return
	}
	vit.ShareScratch(&w.vscratch)
	vit.TrackBusy(&w.busy[conn/64], uint8(conn%64))
	if _, err := vitals.NewVehicleDetector(w.cfg.VehicleGodMode); err != nil {
		rollback(err, false)
		return
	}
	if err := w.teams.Connect(conn); err != nil {
		rollback(err, false)
		return
	}
	if err := w.rw.AddPlayer(now, conn); err != nil {
		rollback(err, true)
		return
	}
	p := w.players[conn]
	if p == nil {
		p = &player{
			id:   conn,
			inv:  w.catalog.NewInventory(),
			acks: newAckRing(),
		}
		if w.stream == nil {
			p.unshown = make([]uint64, (len(w.players)+63)/64)
		}
		w.players[conn] = p
	} else {
		shots, projs, inv, acks, unshown, out := p.shots, p.projectiles, p.inv, p.acks, p.unshown, p.out
		shots.reset()
		if projs != nil {
			*projs = [MaxProjectiles]projectileRecord{}
		}
		inv.Reset()
		acks.reset()
		clear(unshown)
		out.buf, out.ends = out.buf[:0], out.ends[:0]
		*p = player{id: conn, inv: inv, shots: shots, projectiles: projs, acks: acks, unshown: unshown, out: out}
	}
	// The endpoint lives in the player (no object of its own to reach per datagram), new
	// for every connection.
	if err := p.ep.Init(transport.Server); err != nil {
		// Never: a server's endpoint with the lane's defaults.
		w.packageRefused(CallJoinRollback, conn, w.rw.RemovePlayer(now, conn))
		rollback(err, true)
		return
	}
	// Every message is handled before the next is decoded: the connections share the
	// World's decoder.
	p.ep.ShareDecoder(&w.dec)
	// No call of one connection's Endpoint runs inside another's (Flush's emit only
	// copies into the bundle or hands the datagram to the host): they share one scratch.
	p.ep.ShareScratch(&w.laneBuf)
	p.connected = true
	w.live[conn/64] |= 1 << (conn % 64)
	p.handle = h
	p.vit = vit
	w.vits[conn] = vit
	p.joinSerial = w.nextSerial()
	p.lifeSerial = p.joinSerial
	p.joinedAt = now
	p.session = session
	p.lastHeard = now
	p.nextSuspect = now + SuspectInterval
	w.timerAt[conn] = 0  // everything due: the next Tick visits it (World.timerAt)
	w.flushDue[conn] = 0 // the new connection's laneDue (its Welcome follows)
	p.frame.vehicle = NoVehicle
	// A new client applies the catalogue's first table until the properties it is sent
	// now reach it.
	p.propsLow = w.catalog.Revision()
	p.propsBase = p.propsLow != w.cfg.Weapons.FirstRevision
	p.stream = w.stream
	w.insertConn(conn)
	w.stats.Joins++
	w.raise(Event{Kind: EventPlayerJoin, At: now, Player: conn, Other: NoPlayer, Vehicle: NoVehicle, Token: uint32(h.Token)})

	w.welcome(p)
	if w.multSet {
		w.sendMultipliers(now, p)
	}
	w.sendProperties(now, p)
	if w.stream != nil {
		if snap, err := w.life.Snapshot(conn); err == nil {
			w.streamPlace(now, p, wire.Vec3(snap.Point.Pos))
		}
		return
	}
	for _, id := range w.conns {
		if id == conn {
			continue
		}
		other := w.players[id]
		p.markUnshown(id)
		other.markUnshown(conn)
		w.drainShows(now, other)
	}
	w.drainShows(now, p)
}

func (w *World) welcome(p *player) {
	w.msgs.welcome = wire.Welcome{Player: p.id, PlayerToken: uint32(p.handle.Token), Session: p.session}
	w.sendOwn(p, &w.msgs.welcome)
}

func (w *World) insertConn(id PlayerID) {
	i := len(w.conns)
	for i > 0 && w.conns[i-1] > id {
		i--
	}
	w.conns = append(w.conns, 0)
	copy(w.conns[i+1:], w.conns[i:])
	w.conns[i] = id
}

func (w *World) removeConn(id PlayerID) {
	for i, c := range w.conns {
		if c == id {
			w.conns = append(w.conns[:i], w.conns[i+1:]...)
			return
		}
	}
}

// sendProperties sends a joining connection the weapon properties that differ from the
// catalogue's first revision, all with the current revision. If none differs but the
// revision moved, one unchanged row still goes, so the client learns the revision its shots
// must name (ours: otherwise it would fire under a revision the catalogue may have dropped).
func (w *World) sendProperties(now time.Duration, p *player) {
	rev := w.catalog.Revision()
	if rev == w.cfg.Weapons.FirstRevision {
		return
	}
	cur := w.catalog.Properties().Weapons
	sent := false
	firstGun := -1
	for i := range cur {
		c := &cur[i]
		if c.Kind != inventory.KindBullet || c.Range <= 0 {
			continue
		}
		if firstGun < 0 {
			firstGun = i
		}
		b := &w.base[i]
		if c.Damage == b.Damage && c.Range == b.Range {
			continue
		}
		w.queueProperties(now, p, rev, uint8(i), c)
		sent = true
	}
	if !sent && firstGun >= 0 {
		w.queueProperties(now, p, rev, uint8(firstGun), &cur[firstGun])
	}
}

func (w *World) queueProperties(now time.Duration, p *player, rev uint16, weapon uint8, c *inventory.Weapon) {
	w.msgs.props = wire.WeaponProperties{Rev: rev, Weapon: weapon,
		DamagePoor: c.Damage[inventory.TierPoor], DamageStd: c.Damage[inventory.TierStd], DamagePro: c.Damage[inventory.TierPro],
		Range: min(c.Range, wire.MaxWeaponRange)}
	if seq, ok := w.queue(now, p, &w.msgs.props); ok {
		p.acks.push(ackInterest{seq: seq, kind: ackProps, rev: rev})
	}
}

func (w *World) sendMultipliers(now time.Duration, p *player) bool {
	cmd, err := p.vit.SetMultipliers(now, w.mult)
	if err != nil {
		return false
	}
	t := cmd.Table
	w.msgs.mult = wire.DamageMultipliers{Rev: cmd.Rev, Melee: t.Melee, Fire: t.Fire, Spray: t.Spray,
		Extinguisher: t.Extinguisher, Explosion: t.Explosion, PredatorGun: t.Predator}
	seq, ok := w.queue(now, p, &w.msgs.mult)
	if ok {
		p.acks.push(ackInterest{seq: seq, kind: ackMult, rev: cmd.Rev})
	}
	return ok
}

// relayHealth is the health a relay or a show carries: the ledger, never at or below 0 for
// a player the server holds alive, 0 for one it holds dead (lifecycle's [server-commits-death]).
func relayHealth(alive bool, ledger float32) float32 {
	if !alive {
		return 0
	}
	if ledger <= 0 {
		return 1
	}
	return min(ledger, wire.MaxVital)
}

// show sends recipient a PlayerShow of subject, built from the lifecycle's snapshot, the
// ledger, the damage group and the newest frame; false when it was not queued.
func (w *World) show(now time.Duration, recipient, subject *player) bool {
	snap, err := w.life.Snapshot(subject.id)
	if err != nil {
		return false
	}
	led := subject.vit.Ledger()
	f := &subject.frame
	m := &w.msgs.show
	*m = wire.PlayerShow{
		Player:      subject.id,
		PlayerToken: uint32(snap.Token),
		DeathEpoch:  uint16(snap.Gen),
		SyncSeq:     snap.SyncSeq,
		Alive:       snap.Alive,
		DamageGroup: w.teams.Group(subject.id),
		Health:      relayHealth(snap.Alive, led.Health),
		Armor:       min(max(led.Armor, 0), wire.MaxVital),
		Vehicle:     NoVehicle,
	}
	if !snap.Alive {
		m.Pose = uint8(snap.Pose) // the corpse lies as its PlayerWasted laid it everywhere else
	}
	if f.have {
		m.Position, m.Facing, m.Weapon = f.pos, f.facing, f.weapon
		if f.vehicle != NoVehicle {
			m.Vehicle, m.Seat = f.vehicle, f.seat
		}
	} else {
		m.Position = wire.Vec3(snap.Point.Pos)
		m.Facing = degToRad(snap.Point.Facing)
	}
	_, ok := w.queue(now, recipient, m)
	if ok {
		recipient.vis.add(visPlayer(subject.id), now-recipient.joinedAt, true)
	}
	if ok && recipient.debt != 0 {
		w.forgive(recipient, uint16(subject.id), false) // the show replaces the copy ([stream-hide-owed])
	}
	return ok
}

func degToRad(deg float32) float32 { return float32(float64(deg) * math.Pi / 180) }

// ---- leaving ----

// leave ends p's connection: the lifecycle first (a player inside the death wait leaves
// dead, its death committed and sent before the slot is freed), then every package, then
// PlayerHide to the others and a Disconnect to p at the next Flush.
func (w *World) leave(now time.Duration, p *player, reason wire.Reason) {
	dep, err := w.life.Leave(now, p.handle)
	if err == nil && dep.Committed {
		w.committed(now, p, dep.Commit)
	}
	token := p.handle.Token
	p.connected = false
	w.live[p.id/64] &^= 1 << (p.id % 64)
	p.dropping = false
	p.out.buf, p.out.ends = p.out.buf[:0], p.out.ends[:0]
	w.fan.dropCopies(p.id) // its own copies of shots go with it, as its outbox does
	w.removeConn(p.id)
	p.vit.TrackBusy(nil, 0) // its bit in busy goes with the connection
	if _, err := w.teams.Disconnect(p.id); err != nil {
		w.packageRefused(CallLeave, p.id, err)
	}
	w.packageRefused(CallLeave, p.id, w.rw.RemovePlayer(now, p.id))
	w.leaveSeat(p)
	w.farewells = append(w.farewells, farewell{conn: p.id, reason: reason})
	if w.stream != nil {
		w.streamLeave(now, p, uint32(token))
	}
	for _, id := range w.conns {
		if w.stream != nil {
			break
		}
		if r := w.players[id]; r.sees(p.id) {
			w.hidePlayer(now, r, p.id, uint32(token))
		} else {
			r.clearUnshown(p.id)
		}
	}
	w.stats.Leaves++
	w.raise(Event{Kind: EventPlayerLeave, At: now, Player: p.id, Other: NoPlayer, Vehicle: NoVehicle, Reason: reason, Token: uint32(token)})
}
