package rewind

import (
	"fmt"
	"time"
)

// World holds the histories and round-trip times of one game world's players and
// vehicles, and answers shots. Create it with New.
//
// A World is not safe for concurrent use: one goroutine owns it (a host shards by world).
// Every input is a method named after the event, with the host's monotonic now; the
// World keeps the now of the latest call that changed it (its clock) and refuses any
// call, a query too, whose now lies before that.
type World struct {
	cfg   Config
	clock time.Duration
	tele2 float64 // TeleportDistance squared
	near  float64 // NearDistance
	vnear float64 // VehicleNearDistance

	players  []player
	prings   []ring // the players' samples (each's bookkeeping is in its player)
	meters   []rttMeter
	vehicles []vehicle
	vhot     []vehicleHot // what a shot reads of each vehicle, copied from vehicles

	levels [gridLevels]gridLevel // the broadphase's spatial hashes
	grid   []gridEntry           // what a query reads of each filed player
	// next and prev link the filed players of a bucket into a list: the players after
	// and before each in its bucket, or none.
	next, prev []uint16
	// farHead starts the far list: the players whose need is too large for any level,
	// linked through next and prev like a bucket (a hash of one bucket), which every
	// query scans.
	farHead [1]uint16
	cand    []uint64 // a query's candidate set, one bit per player; all zero between calls
}

// player is what a frame and a shot read of a player: its track's bookkeeping and newest
// sample (head) and what the shot reads for every candidate, in exactly one 64-byte
// cache line (the slice is large enough to be page-aligned from 512 players on). A frame
// reads and writes this line, the player's grid entry, the ring's slot of its new sample
// and the samples after its window start; a shot reads it for each candidate, and the
// samples only of a recipient it rewinds. The history's samples and the player's grid
// entry lie apart (prings, grid): the broadphase's scan reads many players' grid
// entries, which stay dense.
//
// The player is placed (filed in a level or on the far list) exactly when it is added
// and has a position: when head.has.
type player struct {
	head // its newest sample (nw) is the present: the newest accepted position
	// tWS is a copy of the window start's time (see place). A shot finds the samples
	// around its moment from it and head, without first reading the samples, which lie
	// on lines of their own: one cache miss fewer per recipient.
	tWS    time.Duration
	cx, cy int16     // the grid cell of the grid entry's centre in its level
	seat   VehicleID // the vehicle it sits in by its newest frame, or NoVehicle
	level  int8      // the broadphase level it is filed in, farLevel, or noLevel
}

// vehicle is one vehicle's state and pose history; rot[i] is the rotation of the sample
// in slot i of the track.
type vehicle struct {
	head    // with the vehicle's added and frozen
	s       ring
	rot     [HistoryDepth]Quat
	wrecked bool
}

// track is the vehicle's history.
func (v *vehicle) track() track { return track{&v.head, &v.s} }

// ptrack is player id's history.
func (w *World) ptrack(id int) track { return track{&w.players[id].head, &w.prings[id]} }

// vehicleHot is what a shot reads of a vehicle a recipient sits in, copied from the
// vehicle (by note, after every change of it) and kept apart from its 3 KB of history
// the way player is: whether it is rewound, and the track's bookkeeping (the newest
// and the oldest retained sample's times, the oldest's slot and the samples from it to
// the newest). From these a shot finds the samples around its moment without first
// reading the track's own fields, which lie on lines of their own.
type vehicleHot struct {
	tNew, tOld      time.Duration
	oldSlot, span   uint8
	frozen, wrecked bool
}

// noteVehicle refreshes vehicle id's hot copy after a change of the vehicle.
func (w *World) noteVehicle(id VehicleID) { w.vehicles[id].hot(&w.vhot[id]) }

// hot writes into *c what vehicleHot copies of the vehicle. (Field by field: a copy of
// a whole struct just written field by field would wait for the writes to retire.)
func (v *vehicle) hot(c *vehicleHot) {
	c.frozen, c.wrecked = v.frozen, v.wrecked
	if !v.has {
		c.tNew, c.tOld, c.oldSlot, c.span = 0, 0, 0, 0
		return
	}
	o := v.track().oldest()
	c.tNew, c.tOld = v.s[v.last&ringMask].t, v.s[o&ringMask].t
	c.oldSlot, c.span = uint8(o&ringMask), uint8(v.last-o)
}

// none marks the end of a grid bucket's list and an unused link.
const none = 0xFFFF

// emptyPlayer is the state of a player slot that holds no player.
func emptyPlayer() player {
	return player{seat: NoVehicle, level: noLevel}
}

// New returns an empty World. Every slot's history is allocated here, so recording and
// querying never allocate.
func New(cfg Config) (*World, error) {
	cfg, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	w := &World{
		cfg:      cfg,
		tele2:    float64(cfg.TeleportDistance) * float64(cfg.TeleportDistance),
		near:     float64(cfg.NearDistance),
		vnear:    float64(cfg.VehicleNearDistance),
		players:  make([]player, cfg.Players),
		prings:   make([]ring, cfg.Players),
		meters:   make([]rttMeter, cfg.Players),
		vehicles: make([]vehicle, cfg.Vehicles),
		vhot:     make([]vehicleHot, cfg.Vehicles),
		grid:     make([]gridEntry, cfg.Players),
		next:     make([]uint16, cfg.Players),
		prev:     make([]uint16, cfg.Players),
		farHead:  [1]uint16{none},
		cand:     make([]uint64, (cfg.Players+63)/64),
	}
	w.setLevels()
	for i := range w.players {
		w.players[i] = emptyPlayer()
		w.next[i], w.prev[i] = none, none
	}
	return w, nil
}

// Config returns the world's configuration with its defaults filled in.
func (w *World) Config() Config { return w.cfg }

// Now returns the World's clock: the now of the latest call that changed it.
func (w *World) Now() time.Duration { return w.clock }

func (w *World) checkClock(now time.Duration) error {
	if now < w.clock {
		return fmt.Errorf("%w: %v is before %v", ErrClockBackwards, now, w.clock)
	}
	return nil
}

// resetPlayer empties player slot id and clears its history; the history's sequence
// and epoch count go on.
func (w *World) resetPlayer(id int) {
	p := &w.players[id]
	h := p.head
	*p = emptyPlayer()
	p.head = h
	p.added, p.frozen = false, false
	w.ptrack(id).clear()
}

// player returns the slot of an added player.
func (w *World) player(id PlayerID) (*player, error) {
	if int(id) >= len(w.players) {
		return nil, fmt.Errorf("%w: %d (slots 0..%d)", ErrPlayerRange, id, len(w.players)-1)
	}
	p := &w.players[id]
	if !p.added {
		return nil, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	return p, nil
}

// vehicle returns the slot of an added vehicle.
func (w *World) vehicle(id VehicleID) (*vehicle, error) {
	if int(id) >= len(w.vehicles) {
		return nil, fmt.Errorf("%w: %d (slots 0..%d)", ErrVehicleRange, id, len(w.vehicles)-1)
	}
	v := &w.vehicles[id]
	if !v.added {
		return nil, fmt.Errorf("%w: %d", ErrUnknownVehicle, id)
	}
	return v, nil
}

func checkPosition(p Vec3) error {
	if !validPosition(p) {
		return fmt.Errorf("%w: %v", ErrBadPosition, p)
	}
	return nil
}

func checkPose(p Pose) (Quat, error) {
	if err := checkPosition(p.Position); err != nil {
		return Quat{}, err
	}
	q, ok := normalize(p.Rotation)
	if !ok {
		return Quat{}, fmt.Errorf("%w: %v", ErrBadRotation, p.Rotation)
	}
	return q, nil
}

// ---- players ----

// AddPlayer opens player slot id for a new connection: no position yet (the first
// spawn, move or frame gives one), no round-trip time yet, on foot.
func (w *World) AddPlayer(now time.Duration, id PlayerID) error {
	if err := w.checkClock(now); err != nil {
		return err
	}
	if int(id) >= len(w.players) {
		return fmt.Errorf("%w: %d (slots 0..%d)", ErrPlayerRange, id, len(w.players)-1)
	}
	if w.players[id].added {
		return fmt.Errorf("%w: %d", ErrPlayerExists, id)
	}
	w.clock = now
	w.resetPlayer(int(id))
	w.players[id].added = true
	w.meters[id] = rttMeter{}
	return nil
}

// RemovePlayer closes player slot id (the connection ended): its history and round-trip
// time are forgotten.
func (w *World) RemovePlayer(now time.Duration, id PlayerID) error {
	if err := w.checkClock(now); err != nil {
		return err
	}
	if _, err := w.player(id); err != nil {
		return err
	}
	w.clock = now
	w.unfile(int(id))
	w.resetPlayer(int(id))
	w.meters[id] = rttMeter{}
	return nil
}

// RecordPlayer records the position of an accepted frame of player id at now, and the
// vehicle it sits in (NoVehicle on foot). For a player in a vehicle the host records the
// position its frame carries (SA-MP: the vehicle's). A jump farther than the teleport
// distance from the previous sample starts a new epoch (Teleported).
func (w *World) RecordPlayer(now time.Duration, id PlayerID, pos Vec3, seat VehicleID) (RecordVerdict, error) {
	if err := w.checkClock(now); err != nil {
		return 0, err
	}
	p, err := w.player(id)
	if err != nil {
		return 0, err
	}
	if err := checkPosition(pos); err != nil {
		return 0, err
	}
	if seat != NoVehicle {
		if _, err := w.vehicle(seat); err != nil {
			return 0, err
		}
	}
	w.clock = now
	v, _ := w.ptrack(int(id)).push(now, pos, w.tele2, true)
	p.seat = seat
	w.place(int(id))
	return v, nil
}

// TouchPlayer reads the lines of player id that RecordPlayer and PlayerApproach both read
// first (its slot, which holds its history's bookkeeping and newest sample, its grid
// entry, and the sample after its window start) and returns a word of them; it changes
// nothing (see vitals.Player.Touch). Zero for an id out of range.
//
// It leaves alone the lines that only one of them reads: the ring's slot a frame writes
// its new sample to, and the samples an approach walks back over from the newest.
func (w *World) TouchPlayer(id PlayerID) uint64 {
	if int(id) >= len(w.players) {
		return 0
	}
	p := &w.players[id]
	return uint64(p.nw.t) ^ uint64(w.grid[id].r) ^ uint64(w.prings[id][(p.last-int(p.wsBack)+1)&ringMask].t)
}

// TouchPlayerSlot reads the lines of player id that TouchPlayer reads before it can find
// the samples (its slot, which holds its history's bookkeeping, and its grid entry) and
// returns a word of them; it changes nothing (see vitals.Player.Touch). A host that reads
// ahead of many players' frames calls it a step before TouchPlayer, whose sample reads
// then do not wait for the bookkeeping. Zero for an id out of range.
func (w *World) TouchPlayerSlot(id PlayerID) uint64 {
	if int(id) >= len(w.players) {
		return 0
	}
	p := &w.players[id]
	return uint64(p.nw.t) ^ uint64(w.grid[id].r) ^ uint64(p.last) ^ uint64(p.wsBack)
}

// MovePlayer records a gamemode move of player id to pos (a set-position, a put into a
// vehicle, a teleport the server made): the history starts anew there, and no rewind
// interpolates across the move.
//
// Rules: [history-restarts].
func (w *World) MovePlayer(now time.Duration, id PlayerID, pos Vec3) error {
	return w.restartPlayer(now, id, pos, false)
}

// RespawnPlayer records a respawn of player id at pos: the history starts anew there,
// and the player is on foot.
//
// Rules: [history-restarts].
func (w *World) RespawnPlayer(now time.Duration, id PlayerID, pos Vec3) error {
	return w.restartPlayer(now, id, pos, true)
}

func (w *World) restartPlayer(now time.Duration, id PlayerID, pos Vec3, respawn bool) error {
	if err := w.checkClock(now); err != nil {
		return err
	}
	p, err := w.player(id)
	if err != nil {
		return err
	}
	if err := checkPosition(pos); err != nil {
		return err
	}
	w.clock = now
	tr := w.ptrack(int(id))
	tr.start(now, pos)
	if respawn {
		p.seat = NoVehicle
		tr.fence()
	}
	w.place(int(id))
	return nil
}

// FreezePlayer records that the gamemode froze (or unfroze) player id. A change starts
// the history anew from where the player stands; setting the state it already has
// changes nothing.
//
// Rules: [history-restarts].
func (w *World) FreezePlayer(now time.Duration, id PlayerID, frozen bool) error {
	if err := w.checkClock(now); err != nil {
		return err
	}
	p, err := w.player(id)
	if err != nil {
		return err
	}
	w.clock = now
	if p.frozen == frozen {
		return nil
	}
	p.frozen = frozen
	if tr := w.ptrack(int(id)); tr.has {
		tr.start(now, tr.newest().pos)
		w.place(int(id))
	}
	return nil
}

// PlayerAt returns where player id stood at moment at by its accepted path: interpolated
// between the two samples around at, the newest position for a moment at or after it,
// and the first sample of the current epoch (or the oldest one kept) for a moment before
// it. It is the rewind of a single entity, and changes nothing.
func (w *World) PlayerAt(at time.Duration, id PlayerID) (Vec3, error) {
	if _, err := w.player(id); err != nil {
		return Vec3{}, err
	}
	tr := w.ptrack(int(id))
	if !tr.has {
		return Vec3{}, fmt.Errorf("%w: %d", ErrNoPosition, id)
	}
	return tr.at(at), nil
}

// Seat returns the vehicle player id sits in by its newest frame, or NoVehicle.
func (w *World) Seat(id PlayerID) (VehicleID, error) {
	p, err := w.player(id)
	if err != nil {
		return NoVehicle, err
	}
	return p.seat, nil
}

// ---- round-trip time ----

// PingDue reports whether player id's connection should be pinged at now: it never was,
// or the last ping is PingInterval old. It is false for an id that is not an added player.
func (w *World) PingDue(now time.Duration, id PlayerID) bool {
	if _, err := w.player(id); err != nil {
		return false
	}
	return w.meters[id].due(now)
}

// Ping records a ping sent to player id's connection at now and returns the id the pong
// must carry. Ids count up from 0 per connection and wrap.
func (w *World) Ping(now time.Duration, id PlayerID) (uint16, error) {
	if err := w.checkClock(now); err != nil {
		return 0, err
	}
	if _, err := w.player(id); err != nil {
		return 0, err
	}
	w.clock = now
	return w.meters[id].ping(now), nil
}

// Pong records the pong of player id's connection for ping seq, received at now. Only
// PongAccepted takes a round-trip sample; the other verdicts change nothing.
//
// Rules: [rtt-by-ping].
func (w *World) Pong(now time.Duration, id PlayerID, seq uint16) (PongVerdict, error) {
	if err := w.checkClock(now); err != nil {
		return 0, err
	}
	if _, err := w.player(id); err != nil {
		return 0, err
	}
	m := &w.meters[id]
	v := m.judge(now, seq)
	if v != PongAccepted {
		return v, nil
	}
	w.clock = now
	m.pong(now, seq)
	return v, nil
}

// RTT returns the estimated round-trip time of player id's connection: the median of its
// last RTTWindow samples, never above RTTCap. It is false while no pong was accepted (or
// for an id that is not an added player). Shots rewind by this estimate up to RewindCap;
// the lifecycle's death wait counts it itself up to its own cap.
func (w *World) RTT(id PlayerID) (time.Duration, bool) {
	if _, err := w.player(id); err != nil {
		return 0, false
	}
	return w.meters[id].rtt()
}

// ---- vehicles ----

// AddVehicle opens vehicle slot id for a vehicle created at pose: its history starts
// there, neither frozen nor wrecked.
func (w *World) AddVehicle(now time.Duration, id VehicleID, pose Pose) error {
	if err := w.checkClock(now); err != nil {
		return err
	}
	if int(id) >= len(w.vehicles) {
		return fmt.Errorf("%w: %d (slots 0..%d)", ErrVehicleRange, id, len(w.vehicles)-1)
	}
	v := &w.vehicles[id]
	if v.added {
		return fmt.Errorf("%w: %d", ErrVehicleExists, id)
	}
	q, err := checkPose(pose)
	if err != nil {
		return err
	}
	w.clock = now
	v.added, v.frozen, v.wrecked = true, false, false
	v.rot[v.track().start(now, pose.Position)] = q
	w.noteVehicle(id)
	return nil
}

// RemoveVehicle closes vehicle slot id (the vehicle was destroyed for good). Players
// that sat in it are on foot until their next frame says otherwise.
func (w *World) RemoveVehicle(now time.Duration, id VehicleID) error {
	if err := w.checkClock(now); err != nil {
		return err
	}
	v, err := w.vehicle(id)
	if err != nil {
		return err
	}
	w.clock = now
	v.added, v.frozen, v.wrecked = false, false, false
	v.track().clear()
	w.noteVehicle(id)
	for i := range w.players {
		if w.players[i].seat == id {
			w.players[i].seat = NoVehicle
			if w.players[i].has {
				w.place(i) // its need shrinks to the on-foot one
			}
		}
	}
	return nil
}

// RecordVehicle records the pose of vehicle id from an accepted frame of the player
// controlling it, at now. A jump farther than the teleport distance starts a new epoch.
func (w *World) RecordVehicle(now time.Duration, id VehicleID, pose Pose) (RecordVerdict, error) {
	if err := w.checkClock(now); err != nil {
		return 0, err
	}
	v, err := w.vehicle(id)
	if err != nil {
		return 0, err
	}
	q, err := checkPose(pose)
	if err != nil {
		return 0, err
	}
	w.clock = now
	verdict, i := v.track().push(now, pose.Position, w.tele2, false)
	v.rot[i] = q
	w.noteVehicle(id)
	return verdict, nil
}

// MoveVehicle records a gamemode move of vehicle id to pose: the history starts anew
// there. It does not move the occupants' own histories: a host that moves a vehicle with
// players in it calls MovePlayer for each of them too.
//
// Rules: [history-restarts].
func (w *World) MoveVehicle(now time.Duration, id VehicleID, pose Pose) error {
	return w.restartVehicle(now, id, pose, false)
}

// RespawnVehicle records that vehicle id was respawned at pose: the history starts anew
// there and the vehicle is no longer wrecked.
//
// Rules: [history-restarts].
func (w *World) RespawnVehicle(now time.Duration, id VehicleID, pose Pose) error {
	return w.restartVehicle(now, id, pose, true)
}

func (w *World) restartVehicle(now time.Duration, id VehicleID, pose Pose, respawn bool) error {
	if err := w.checkClock(now); err != nil {
		return err
	}
	v, err := w.vehicle(id)
	if err != nil {
		return err
	}
	q, err := checkPose(pose)
	if err != nil {
		return err
	}
	w.clock = now
	tr := v.track()
	v.rot[tr.start(now, pose.Position)] = q
	if respawn {
		v.wrecked = false
		tr.fence()
	}
	w.noteVehicle(id)
	return nil
}

// FreezeVehicle records that the gamemode froze (or unfroze) vehicle id. A change starts
// the history anew from where the vehicle stands; a frozen vehicle is not rewound.
//
// Rules: [history-restarts].
func (w *World) FreezeVehicle(now time.Duration, id VehicleID, frozen bool) error {
	if err := w.checkClock(now); err != nil {
		return err
	}
	v, err := w.vehicle(id)
	if err != nil {
		return err
	}
	w.clock = now
	if v.frozen == frozen {
		return nil
	}
	v.frozen = frozen
	cur := v.present()
	v.rot[v.track().start(now, cur.Position)] = cur.Rotation
	w.noteVehicle(id)
	return nil
}

// WreckVehicle records that vehicle id was wrecked (it exploded). A wrecked vehicle is
// not rewound until RespawnVehicle.
func (w *World) WreckVehicle(now time.Duration, id VehicleID) error {
	if err := w.checkClock(now); err != nil {
		return err
	}
	v, err := w.vehicle(id)
	if err != nil {
		return err
	}
	w.clock = now
	v.wrecked = true
	w.noteVehicle(id)
	return nil
}

// VehicleAt returns the pose of vehicle id at moment at by its history, the way PlayerAt
// does for a player: position interpolated linearly and rotation along the shorter arc.
// It changes nothing.
func (w *World) VehicleAt(at time.Duration, id VehicleID) (Pose, error) {
	v, err := w.vehicle(id)
	if err != nil {
		return Pose{}, err
	}
	return v.poseAt(at), nil
}

// present is the vehicle's newest pose.
func (v *vehicle) present() Pose {
	i := v.last & ringMask
	return Pose{Position: v.s[i].pos, Rotation: v.rot[i]}
}

// poseAt is the vehicle's pose at moment at.
func (v *vehicle) poseAt(at time.Duration) Pose {
	lo, hi := v.track().oldest(), v.last
	return v.poseIn(at, lo, hi, v.s[lo&ringMask].t, v.s[hi&ringMask].t)
}

// poseIn is the pose at moment at, searched for between samples lo and hi (see search).
func (v *vehicle) poseIn(at time.Duration, lo, hi int, tlo, thi time.Duration) Pose {
	i, j, f := v.track().search(at, lo, hi, tlo, thi)
	if i == j {
		return Pose{Position: v.s[i].pos, Rotation: v.rot[i]}
	}
	return Pose{Position: lerp(v.s[i].pos, v.s[j].pos, f), Rotation: nlerp(v.rot[i], v.rot[j], f)}
}
