package lifecycle

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Named limits and defaults.
const (
	// MaxPlayerSlots is the largest MaxPlayers: ids 0..65534 (65535 is NoPlayer).
	MaxPlayerSlots = 0xFFFF
	// DefaultMaxPlayers is MaxPlayers when the Config leaves it zero (SA-MP's MAX_PLAYERS).
	DefaultMaxPlayers = 1000
	// DefaultRespawnDelay is the core default of the respawn policy: a respawn is granted no
	// earlier than this after the commit of the death, unless the gamemode decided otherwise
	// for that death. It leaves the death animation and the "wasted" screen time to play.
	DefaultRespawnDelay = 3 * time.Second
	// MaxRespawnDelay caps Config.RespawnDelay; a longer wait is a gamemode's Hold.
	MaxRespawnDelay = 10 * time.Minute
)

// Config configures a World. The zero value is the records' defaults.
type Config struct {
	// MaxPlayers is the number of player slots (ids 0..MaxPlayers-1). Zero means
	// DefaultMaxPlayers; at most MaxPlayerSlots.
	MaxPlayers int
	// RespawnDelay is the default time from the commit of a death to the earliest grant.
	// Zero means DefaultRespawnDelay; at most MaxRespawnDelay. (A host that wants no delay
	// sets a nanosecond, or decides AllowAt per death.)
	RespawnDelay time.Duration
	// SpawnPoint is the standing spawn point of a new connection (until SetSpawnPoint).
	// Zero means the origin facing north. Must be finite.
	SpawnPoint SpawnPoint
	// HoldConnectSpawn makes the connect spawn wait for the gamemode's decision (for a
	// login or a class selection): a RespawnRequest of a new connection is held until
	// DecideRespawn allows it. False (the default) grants the connect spawn at once.
	HoldConnectSpawn bool
}

// World holds the life state of every connection of one game world: it issues the player
// tokens, stamps the relayed frames, commits deaths and grants respawns.
//
// A World is not safe for concurrent use: drive each World from one goroutine (a host
// shards by world). All times are the host's monotonic clock (`now`), passed in; a
// negative one is refused (ErrBadTime).
type World struct {
	cfg       Config
	slots     []slot
	nextToken Token
	wrapped   bool       // nextToken went around once: check tokens in use before issuing
	sched     []PlayerID // players Advance must look at (dying, or dead with a request)
	due       []dueItem  // Advance's scratch
}

// slot is one player id: the connection holding it (if any) and its life.
type slot struct {
	token Token // NoToken: free
	phase Phase
	// gen is the generation of the id's current (or last) life. Like relaySeq it is not
	// reset when the id changes hands: a new connection's lives continue from it, so a
	// relayed frame of the new player never carries the generation of an observer's copy
	// of the departed one.
	gen Generation
	// relaySeq is the sequence number of the next relayed frame of this id. It is not
	// reset when the id changes hands, so a late frame of a departed player is older than
	// the barrier of the new player's copy.
	relaySeq uint16
	joinedAt time.Duration
	standing SpawnPoint // the player's standing spawn point
	point    SpawnPoint // the point of the last grant
	connect  bool       // the current (or granted) life is the connect spawn

	// The counted death (PhaseDying).
	deadline time.Duration
	killer   Handle
	cause    uint8

	// The committed death (PhaseDead).
	pose        Pose
	committedAt time.Duration
	zeroPending bool

	// The respawn.
	requested bool
	decision  Decision

	schedIdx int32 // index in World.sched, -1 if absent
}

type dueItem struct {
	when   time.Duration
	id     PlayerID
	commit bool
}

// New returns a World for cfg, or ErrBadConfig.
func New(cfg Config) (*World, error) {
	if cfg.MaxPlayers == 0 {
		cfg.MaxPlayers = DefaultMaxPlayers
	}
	if cfg.MaxPlayers < 1 || cfg.MaxPlayers > MaxPlayerSlots {
		return nil, fmt.Errorf("%w: MaxPlayers %d not in 1..%d", ErrBadConfig, cfg.MaxPlayers, MaxPlayerSlots)
	}
	if cfg.RespawnDelay == 0 {
		cfg.RespawnDelay = DefaultRespawnDelay
	}
	if cfg.RespawnDelay < 0 || cfg.RespawnDelay > MaxRespawnDelay {
		return nil, fmt.Errorf("%w: RespawnDelay %v not in 0..%v", ErrBadConfig, cfg.RespawnDelay, MaxRespawnDelay)
	}
	if !cfg.SpawnPoint.valid() {
		return nil, fmt.Errorf("%w: SpawnPoint %v", ErrBadConfig, cfg.SpawnPoint)
	}
	w := &World{
		cfg:       cfg,
		slots:     make([]slot, cfg.MaxPlayers),
		nextToken: 1,
		sched:     make([]PlayerID, 0, cfg.MaxPlayers),
		due:       make([]dueItem, 0, cfg.MaxPlayers),
	}
	for i := range w.slots {
		w.slots[i].schedIdx = -1
	}
	return w, nil
}

// Config returns the World's configuration with its defaults filled in.
func (w *World) Config() Config { return w.cfg }

// Join registers a new connection on id and returns its Handle with a fresh token. The
// player starts unspawned (not alive); its connect spawn is a respawn grant like any other
// (see RespawnRequest). Its generation continues from the last generation of the id (0 for
// an id never used), so its lives never share a generation with the departed player's.
// Errors (nothing changes): ErrBadPlayerID, ErrSlotTaken, ErrBadTime (a negative now).
func (w *World) Join(now time.Duration, id PlayerID) (Handle, error) {
	if int(id) >= len(w.slots) {
		return Handle{}, fmt.Errorf("%w: %d (MaxPlayers %d)", ErrBadPlayerID, id, len(w.slots))
	}
	if now < 0 {
		return Handle{}, badNow(now)
	}
	s := &w.slots[id]
	if s.token != NoToken {
		return Handle{}, fmt.Errorf("%w: %d", ErrSlotTaken, id)
	}
	t := w.issueToken()
	*s = slot{
		token:    t,
		phase:    PhaseUnspawned,
		gen:      s.gen,
		relaySeq: s.relaySeq,
		joinedAt: now,
		standing: w.cfg.SpawnPoint,
		schedIdx: -1,
	}
	return Handle{ID: id, Token: t}, nil
}

// issueToken returns a token no connection of this World has had (before the 32-bit
// counter wraps) or holds (after it wraps, which takes four billion joins: a token that old
// has no edge in flight any more).
func (w *World) issueToken() Token {
	for {
		t := w.nextToken
		w.nextToken++
		if w.nextToken == NoToken {
			w.nextToken = 1
			w.wrapped = true
		}
		if !w.wrapped || !w.tokenInUse(t) {
			return t
		}
	}
}

func (w *World) tokenInUse(t Token) bool {
	for i := range w.slots {
		if w.slots[i].token == t {
			return true
		}
	}
	return false
}

// lookup returns the slot of h, or ErrUnknownPlayer / ErrStaleToken (unwrapped: this is on
// the frame's hot path).
func (w *World) lookup(h Handle) (*slot, error) {
	if int(h.ID) >= len(w.slots) {
		return nil, ErrUnknownPlayer
	}
	s := &w.slots[h.ID]
	if s.token == NoToken || h.Token == NoToken {
		return nil, ErrUnknownPlayer
	}
	if s.token != h.Token {
		return nil, ErrStaleToken
	}
	return s, nil
}

// badNow refuses a now before the clock's epoch: the host's clock counts up from an epoch
// it chose, so a negative now is the host's mistake, refused like CountDeath's negative At.
func badNow(now time.Duration) error {
	return fmt.Errorf("%w: now %v", ErrBadTime, now)
}

// current reports whether h is a connection that is still here.
func (w *World) current(h Handle) bool {
	_, err := w.lookup(h)
	return err == nil
}

// Departure is the result of Leave.
type Departure struct {
	// Committed is true when the player left inside the wait for its death report: the
	// death was committed (Commit is valid, Source CommitOnLeave) before the slot was freed.
	// The host sends Commit.Wasted to the observers before it removes the player, and raises
	// Commit.Death.
	Committed bool
	// Commit is valid when Committed.
	Commit Commit
}

// Leave ends the connection h. A player that leaves while the server waits for its death
// report (PhaseDying) leaves dead: the death is committed first (default pose, the killer of
// the count) and returned. The id is free afterwards; the token is never reused for
// another connection. Errors (nothing changes): ErrUnknownPlayer, ErrStaleToken,
// ErrBadTime (a negative now).
func (w *World) Leave(now time.Duration, h Handle) (Departure, error) {
	s, err := w.lookup(h)
	if err != nil {
		return Departure{}, fmt.Errorf("%w: %v", err, h)
	}
	if now < 0 {
		return Departure{}, badNow(now)
	}
	var d Departure
	if s.phase == PhaseDying {
		d = Departure{Committed: true, Commit: w.commit(now, h.ID, s, CommitOnLeave, PoseDefault, s.killer, s.cause)}
	}
	w.unschedule(s)
	*s = slot{gen: s.gen, relaySeq: s.relaySeq, schedIdx: -1}
	return d, nil
}

// Snapshot is the current life state of one player, from which a recipient that starts to
// see the player builds its copy (see NewCopy). It is built from the current state; no edge
// is replayed.
type Snapshot struct {
	// Subject and Token name the player's connection.
	Subject PlayerID
	Token   Token
	// Phase is where its life stands.
	Phase Phase
	// Spawned is false before the connect spawn: there is no body to show.
	Spawned bool
	// Alive is the server's alive (Phase.Alive).
	Alive bool
	// Gen is the generation of the current life (or of the last one of the id, before
	// the connect spawn).
	Gen Generation
	// Pose is the committed death pose while the player is dead (PoseDefault otherwise):
	// a late show lays the corpse as everyone else saw it.
	Pose Pose
	// Point is the point of the last grant (where the current life started).
	Point SpawnPoint
	// SyncSeq is the relay sequence of the next frame the server relays: the new copy's
	// barrier (frames relayed before the show are older).
	SyncSeq uint16
}

// Snapshot returns the current life state of the player on id. Error: ErrUnknownPlayer.
func (w *World) Snapshot(id PlayerID) (Snapshot, error) {
	if int(id) >= len(w.slots) || w.slots[id].token == NoToken {
		return Snapshot{}, fmt.Errorf("%w: %d", ErrUnknownPlayer, id)
	}
	s := &w.slots[id]
	snap := Snapshot{
		Subject: id,
		Token:   s.token,
		Phase:   s.phase,
		Spawned: s.phase != PhaseUnspawned,
		Alive:   s.phase.Alive(),
		Gen:     s.gen,
		Point:   s.point,
		SyncSeq: s.relaySeq,
	}
	if s.phase == PhaseDead {
		snap.Pose = s.pose
	}
	return snap, nil
}

// Phase returns the phase of h's life. Errors: ErrUnknownPlayer, ErrStaleToken.
func (w *World) Phase(h Handle) (Phase, error) {
	s, err := w.lookup(h)
	if err != nil {
		return 0, err
	}
	return s.phase, nil
}

// Touch reads the line of id's slot that Frame reads and returns a word of it; it changes
// nothing (see vitals.Player.Touch). Zero for an id out of range.
func (w *World) Touch(id PlayerID) uint64 {
	if int(id) >= len(w.slots) {
		return 0
	}
	return uint64(w.slots[id].token)
}

// MayAct is the cheap check the host makes before it accepts an action of h (a shot, a
// damage report, a command that needs a living body). It is false from the commit of a
// death on: only a respawn grant revives, and the revived player acts from the first living
// frame of its new life, which an honest client sends before anything else (the same
// moment from which vitals accepts commands). So a client cannot act in a life
// it never confirms, and nothing of the previous life acts in the new one. False as well
// before the connect spawn and for an unknown or stale handle. True while alive and while
// dying (the server counted the death and waits for the report: vitals'
// [mutual-kill] refuses actions from the commit on).
//
// Rules: [first-living-frame].
func (w *World) MayAct(h Handle) bool {
	s, err := w.lookup(h)
	return err == nil && s.phase.MayAct()
}

// SetSpawnPoint sets h's standing spawn point (SA-MP's SetSpawnInfo): the point of every
// later grant whose decision names no point. Errors: ErrUnknownPlayer, ErrStaleToken,
// ErrBadPoint.
func (w *World) SetSpawnPoint(h Handle, p SpawnPoint) error {
	s, err := w.lookup(h)
	if err != nil {
		return fmt.Errorf("%w: %v", err, h)
	}
	if !p.valid() {
		return fmt.Errorf("%w: %v", ErrBadPoint, p)
	}
	s.standing = p
	return nil
}

// Advance settles what came due by now, in the order of the due moments (then of the ids):
//
//   - a counted death whose deadline passed without a DeathReport is committed by the
//     server (Commit with the default pose, the count's killer, SendZero);
//   - a requested respawn whose policy now allows it is granted (Grant, RequestGranted).
//
// It appends to dst and returns it; pass a reused buffer and nothing is allocated. Call it
// at least once per tick, before the tick's inputs, so a deadline is not stretched by the
// tick (a DeathReport handled before Advance saw its deadline pass still commits, with its
// pose: the victim's own report is the better commit).
func (w *World) Advance(now time.Duration, dst []Due) []Due {
	w.due = w.due[:0]
	for _, id := range w.sched {
		s := &w.slots[id]
		switch {
		case s.phase == PhaseDying:
			if s.deadline <= now {
				w.due = append(w.due, dueItem{when: s.deadline, id: id, commit: true})
			}
		case s.requested:
			if at, v := w.readiness(s); v == RequestGranted && at <= now {
				w.due = append(w.due, dueItem{when: at, id: id})
			}
		}
	}
	slices.SortFunc(w.due, func(a, b dueItem) int {
		if c := cmp.Compare(a.when, b.when); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	for _, d := range w.due {
		s := &w.slots[d.id]
		if d.commit {
			c := w.commit(now, d.id, s, CommitByServer, PoseDefault, s.killer, s.cause)
			dst = append(dst, Due{Kind: DueCommit, Commit: c})
		} else {
			dst = append(dst, Due{Kind: DueGrant, Grant: w.grant(d.id, s)})
		}
	}
	return dst
}

// reschedule puts id on or off the list Advance looks at: a dying player (its deadline) or
// a dead or unspawned player that asked to respawn.
func (w *World) reschedule(id PlayerID, s *slot) {
	want := s.phase == PhaseDying ||
		(s.requested && (s.phase == PhaseDead || s.phase == PhaseUnspawned))
	if want && s.schedIdx < 0 {
		s.schedIdx = int32(len(w.sched))
		w.sched = append(w.sched, id)
	} else if !want {
		w.unschedule(s)
	}
}

// unschedule takes s off Advance's list (swap with the last entry).
func (w *World) unschedule(s *slot) {
	i := s.schedIdx
	if i < 0 {
		return
	}
	last := len(w.sched) - 1
	moved := w.sched[last]
	w.sched[i] = moved
	w.slots[moved].schedIdx = i
	w.sched = w.sched[:last]
	s.schedIdx = -1
}
