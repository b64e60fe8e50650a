package lifecycle

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/stretchr/testify/require"
)

// The property test and the fuzz target drive a World with random sequences of joins,
// leaves, frames, death reports, counted deaths, respawn requests, gamemode decisions,
// acknowledgements of the zero, timer advances, shows and deliveries of the edges to an
// observer, and check after every step what the records promise:
//
//   - a death is committed at most once per life (per token and generation);
//   - generations strictly increase per connection, one step per fresh grant, and a
//     repeated grant repeats the same generation;
//   - no edge applies to a copy of another token, and once the observer's lane is
//     drained every copy agrees with the server's state;
//   - a dead player is never alive (not in the relay, not in a snapshot, not for MayAct)
//     without a grant, and a grant respects the policy and the acknowledgement of the zero;
//   - the server commits a counted death only at its deadline or later;
//   - every relayed frame carries the server's values, one relay sequence step per frame
//     of the id, never older than the barrier of its life;
//   - an input refused with an error changes nothing.

const harnessPlayers = 4

type source interface{ intn(n int) int }

type pcgSource struct{ r *rand.Rand }

func (p pcgSource) intn(n int) int { return p.r.IntN(n) }

type byteSource struct {
	b []byte
	i int
}

func (s *byteSource) intn(n int) int {
	if s.i >= len(s.b) {
		return 0
	}
	v := int(s.b[s.i])
	s.i++
	return v % n
}

// lifeModel is what the test knows of one connection, from the results the World returned.
type lifeModel struct {
	h           Handle
	spawned     bool // granted at least once
	gen         Generation
	commits     map[Generation]int
	dead        bool // a commit and no grant since
	commitAt    time.Duration
	zeroPending bool
	decision    Decision
	counted     bool
	deadline    time.Duration
	granted     bool // a grant not yet confirmed
}

type laneKind uint8

const (
	laneShow laneKind = iota
	laneHide
	laneWasted
	laneSpawned
)

type laneItem struct {
	kind    laneKind
	id      PlayerID
	snap    Snapshot
	wasted  PlayerWasted
	spawned PlayerSpawned
}

type barrier struct {
	token Token
	gen   Generation
	seq   uint16
}

type harness struct {
	t       testing.TB
	w       *World
	cfg     Config
	src     source
	now     time.Duration
	lives   map[Token]*lifeModel
	current [harnessPlayers]Handle
	handles []Handle
	queue   []laneItem
	history []laneItem
	copies  map[PlayerID]*Copy
	lastSeq map[PlayerID]uint16
	barrier map[PlayerID]barrier
	lastGen map[PlayerID]Generation // the generation of each id's last life
	frames  []datagram              // relayed frames in flight to the observer, in any order
	log     []string
}

// datagram is a relayed frame on its way to the observer (unreliable: late, reordered).
type datagram struct {
	id    PlayerID
	token Token
	stamp Stamp
}

func newHarness(t testing.TB, src source, holdConnect bool) *harness {
	cfg := Config{MaxPlayers: harnessPlayers, HoldConnectSpawn: holdConnect}
	return &harness{
		t: t, w: newWorld(t, cfg), cfg: cfg, src: src,
		lives:   map[Token]*lifeModel{},
		copies:  map[PlayerID]*Copy{},
		lastSeq: map[PlayerID]uint16{},
		barrier: map[PlayerID]barrier{},
		lastGen: map[PlayerID]Generation{},
	}
}

func (x *harness) logf(format string, args ...any) {
	x.log = append(x.log, fmt.Sprintf("%v ", x.now)+fmt.Sprintf(format, args...))
	if len(x.log) > 40 {
		x.log = x.log[1:]
	}
}

func (x *harness) fail(format string, args ...any) {
	x.t.Helper()
	x.t.Fatalf("%s\nlast steps:\n  %s", fmt.Sprintf(format, args...), strings.Join(x.log, "\n  "))
}

func (x *harness) check(ok bool, format string, args ...any) {
	x.t.Helper()
	if !ok {
		x.fail(format, args...)
	}
}

func (x *harness) pickHandle() Handle {
	switch r := x.src.intn(10); {
	case r < 7:
		return x.current[x.src.intn(harnessPlayers)]
	case r < 9 && len(x.handles) > 0:
		return x.handles[x.src.intn(len(x.handles))]
	default:
		return Handle{ID: PlayerID(x.src.intn(harnessPlayers + 2)), Token: Token(x.src.intn(8))}
	}
}

func (x *harness) pickGen(h Handle) Generation {
	m := x.lives[h.Token]
	if m == nil {
		return Generation(x.src.intn(4))
	}
	switch r := x.src.intn(20); {
	case r < 10:
		return m.gen
	case r < 14:
		return m.gen - 1
	case r < 17:
		return m.gen + 1
	default:
		return Generation(x.src.intn(65536))
	}
}

func (x *harness) step() {
	x.t.Helper()
	op := x.src.intn(14)
	if op != 8 {
		x.now += time.Duration(x.src.intn(25)) * time.Millisecond
	}
	before := capture(x.w)
	var err error
	switch op {
	case 0:
		err = x.join()
	case 1:
		err = x.leave()
	case 2, 3:
		err = x.frame()
	case 4:
		err = x.report()
	case 5:
		err = x.count()
	case 6:
		err = x.request()
	case 7:
		err = x.decide()
	case 8:
		x.advance()
	case 9:
		err = x.ack()
	case 10:
		x.show()
	case 11:
		x.deliver(1 + x.src.intn(4))
	case 12:
		x.stray()
	case 13:
		x.datagram()
	}
	if err != nil {
		x.logf("op %d: %v", op, err)
		after := capture(x.w)
		x.check(sameState(before, after), "op %d refused with %v but changed the state", op, err)
	}
	x.checkState()
}

func sameState(a, b state) bool {
	if a.nextToken != b.nextToken || a.wrapped != b.wrapped || len(a.sched) != len(b.sched) {
		return false
	}
	for i := range a.sched {
		if a.sched[i] != b.sched[i] {
			return false
		}
	}
	for i := range a.slots {
		if a.slots[i] != b.slots[i] {
			return false
		}
	}
	return true
}

func (x *harness) join() error {
	id := PlayerID(x.src.intn(harnessPlayers + 1))
	h, err := x.w.Join(x.now, id)
	x.logf("join %d -> %v %v", id, h, err)
	if err != nil {
		return err
	}
	x.check(x.current[id].Token == NoToken, "join on an occupied id %d succeeded", id)
	x.check(x.lives[h.Token] == nil, "token %d issued twice", h.Token)
	x.addLife(h)
	return nil
}

func (x *harness) addLife(h Handle) {
	x.t.Helper()
	snap, err := x.w.Snapshot(h.ID)
	x.check(err == nil, "no snapshot after join: %v", err)
	if prev, ok := x.lastGen[h.ID]; ok {
		x.check(snap.Gen == prev, "a new connection starts at life %d, the id's last was %d", snap.Gen, prev)
	}
	x.current[h.ID] = h
	x.handles = append(x.handles, h)
	x.lives[h.Token] = &lifeModel{h: h, gen: snap.Gen, commits: map[Generation]int{}}
}

func (x *harness) leave() error {
	h := x.pickHandle()
	d, err := x.w.Leave(x.now, h)
	x.logf("leave %v -> committed %v %v", h, d.Committed, err)
	if err != nil {
		return err
	}
	m := x.lives[h.Token]
	x.check(m != nil && x.current[h.ID] == h, "leave of %v succeeded but it is not current", h)
	if d.Committed {
		x.check(m.counted, "left dead without a counted death")
		x.recordCommit(d.Commit)
	} else {
		x.check(!m.counted || m.dead, "left inside the wait without a commit")
	}
	x.current[h.ID] = Handle{}
	x.lastGen[h.ID] = m.gen
	x.queue = append(x.queue, laneItem{kind: laneHide, id: h.ID})
	return nil
}

func (x *harness) frame() error {
	h := x.pickHandle()
	claim := Claim{Alive: x.src.intn(3) > 0, Gen: x.pickGen(h)}
	hp := []float32{100, 43.5, 0.5, 0, -12}[x.src.intn(5)]
	f, err := x.w.Frame(x.now, h, claim, hp)
	x.logf("frame %v %+v hp %v -> %v %+v %v", h, claim, hp, f.Verdict, f.Stamp, err)
	if err != nil {
		return err
	}
	m := x.lives[h.Token]
	if f.Verdict == FrameFirstOfLife {
		x.check(m.granted && !m.dead, "first frame of a life never granted")
		x.check(claim.Alive && claim.Gen == m.gen, "confirmed by a frame that is not living or not of the life")
		m.granted = false
		x.check(f.Spawn.Gen == m.gen && f.Spawn.Token == h.Token, "player_spawn %v for the wrong life", f.Spawn)
	}
	if !f.Verdict.Relay() {
		return nil
	}
	s := f.Stamp
	x.check(claim.Gen == m.gen, "relayed a frame of another life (claim %d, life %d)", claim.Gen, m.gen)
	x.check(s.Gen == m.gen, "stamped life %d, server life %d", s.Gen, m.gen)
	x.check(s.Alive == !m.dead, "stamped alive=%v for a player whose death state is %v", s.Alive, m.dead)
	if s.Alive {
		x.check(s.Health > 0, "living player relayed at %v", s.Health)
	} else {
		x.check(s.Health == 0, "dead player relayed at %v", s.Health)
	}
	if last, ok := x.lastSeq[h.ID]; ok {
		x.check(s.Seq == last+1, "relay sequence %d after %d", s.Seq, last)
	}
	x.lastSeq[h.ID] = s.Seq
	x.frames = append(x.frames, datagram{id: h.ID, token: h.Token, stamp: s})
	if len(x.frames) > 64 {
		x.frames = x.frames[1:]
	}
	if b, ok := x.barrier[h.ID]; ok && b.token == h.Token && b.gen == s.Gen {
		x.check(!revision.Older(s.Seq, b.seq), "frame %d of life %d relayed below its barrier %d", s.Seq, s.Gen, b.seq)
	}
	return nil
}

func (x *harness) report() error {
	h := x.pickHandle()
	r := DeathReport{Gen: x.pickGen(h), Means: uint8(x.src.intn(256)), Pose: Pose(x.src.intn(40))}
	blame := noBlame
	if x.src.intn(2) == 0 {
		blame = Blame{Killer: x.pickHandle(), Cause: []uint8{24, 31, CauseExplosion, 47}[x.src.intn(4)]}
	}
	res, err := x.w.ReportDeath(x.now, h, r, blame)
	x.logf("report %v %+v -> %v %v", h, r, res.Verdict, err)
	if err != nil {
		return err
	}
	m := x.lives[h.Token]
	if res.Verdict != ReportCommitted {
		x.check(res.Commit == Commit{}, "a report that did not commit returned a commit")
		return nil
	}
	x.check(r.Gen == m.gen, "committed a report of life %d in life %d", r.Gen, m.gen)
	x.check(res.Commit.Wasted.Pose.Valid(), "committed an invalid pose")
	x.check(res.PoseReplaced == !r.Pose.Valid(), "pose replacement flag wrong")
	if res.Confirmed {
		x.check(m.granted, "confirmed a life that was not granted")
		m.granted = false
	} else {
		x.check(!m.granted, "committed a respawning life without confirming it")
	}
	x.recordCommit(res.Commit)
	return nil
}

func (x *harness) count() error {
	h := x.pickHandle()
	c := Count{
		At:      max(0, x.now-time.Duration(x.src.intn(500))*time.Millisecond),
		Killer:  x.pickHandle(),
		Cause:   []uint8{24, 4, CauseExplosion, CauseSplat, 20}[x.src.intn(5)],
		Stealth: x.src.intn(6) == 0,
	}
	rtt := time.Duration(x.src.intn(1500)) * time.Millisecond
	res, err := x.w.CountDeath(h, c, rtt)
	x.logf("count %v %+v rtt %v -> %v %v %v", h, c, rtt, res.Verdict, res.Deadline, err)
	if err != nil {
		return err
	}
	m := x.lives[h.Token]
	want := ReportDeadline(c.At, rtt, c.Stealth)
	switch res.Verdict {
	case CountWaiting:
		x.check(!m.dead && !m.counted && !m.granted && m.spawned, "a wait started for a player that cannot be dying")
		m.counted, m.deadline = true, want
	case CountEarlierDeadline:
		x.check(m.counted && !m.dead && want < m.deadline, "earlier deadline %v not before %v", want, m.deadline)
		m.deadline = want
	case CountKeptDeadline:
		x.check(m.counted && want >= m.deadline, "kept %v though %v is earlier", m.deadline, want)
	case CountAlreadyCommitted:
		x.check(m.dead, "already committed but not dead")
	}
	if m.counted && !m.dead {
		x.check(res.Deadline == m.deadline, "deadline %v, model %v", res.Deadline, m.deadline)
	}
	return nil
}

func (x *harness) request() error {
	h := x.pickHandle()
	g := x.pickGen(h)
	res, err := x.w.RespawnRequest(x.now, h, g)
	x.logf("request %v life %d -> %v %v", h, g, res, err)
	if err != nil {
		return err
	}
	x.recordGrant(res)
	return nil
}

func (x *harness) decide() error {
	h := x.pickHandle()
	g := x.pickGen(h)
	var d Decision
	switch x.src.intn(4) {
	case 1:
		d = AllowAt(x.now + time.Duration(x.src.intn(5000)-1000)*time.Millisecond)
	case 2:
		d = Hold()
	case 3:
		d = AllowAt(x.now).AtPoint(pointB)
	}
	err := x.w.DecideRespawn(h, g, d)
	x.logf("decide %v life %d %v -> %v", h, g, d, err)
	if err != nil {
		return err
	}
	m := x.lives[h.Token]
	x.check(m.dead || !m.spawned, "a decision was taken for a player with no death to decide")
	m.decision = d
	return nil
}

func (x *harness) ack() error {
	h := x.pickHandle()
	g := x.pickGen(h)
	err := x.w.ZeroAcknowledged(h, g)
	x.logf("ack %v life %d -> %v", h, g, err)
	if err != nil {
		return err
	}
	m := x.lives[h.Token]
	x.check(m.zeroPending && g == m.gen, "acknowledged a zero that was not pending")
	m.zeroPending = false
	return nil
}

func (x *harness) advance() {
	x.now += time.Duration(x.src.intn(1500)) * time.Millisecond
	due := x.w.Advance(x.now, nil)
	x.logf("advance -> %d due", len(due))
	for _, d := range due {
		switch d.Kind {
		case DueCommit:
			x.check(d.Commit.Source == CommitByServer, "Advance committed %v", d.Commit.Source)
			x.recordCommit(d.Commit)
		case DueGrant:
			x.check(d.Grant.Verdict == RequestGranted, "Advance returned %v", d.Grant.Verdict)
			x.recordGrant(d.Grant)
		default:
			x.fail("Advance returned kind %v", d.Kind)
		}
	}
}

func (x *harness) recordCommit(c Commit) {
	x.t.Helper()
	m := x.lives[c.Subject.Token]
	x.check(m != nil && x.current[c.Subject.ID] == c.Subject, "commit for %v, not a current connection", c.Subject)
	x.check(c.Wasted.Subject == c.Subject.ID && c.Wasted.Token == c.Subject.Token, "PlayerWasted %v for %v", c.Wasted, c.Subject)
	x.check(c.Death.Victim == c.Subject.ID && c.Death.VictimToken == c.Subject.Token, "player_death %v for %v", c.Death, c.Subject)
	x.check(c.Wasted.Gen == m.gen && c.Death.Gen == m.gen, "commit of life %d, model life %d", c.Wasted.Gen, m.gen)
	x.check(!m.dead, "a dead player's death committed again")
	m.commits[m.gen]++
	x.check(m.commits[m.gen] == 1, "life %d of %v committed %d times", m.gen, c.Subject, m.commits[m.gen])
	x.check(c.Wasted.Pose.Valid() && c.Death.Pose == c.Wasted.Pose, "pose %v / %v", c.Wasted.Pose, c.Death.Pose)
	if c.Death.Killer != NoPlayer {
		x.check(int(c.Death.Killer) < harnessPlayers && x.current[c.Death.Killer].Token != NoToken, "killer %d is not connected", c.Death.Killer)
	}
	switch c.Source {
	case CommitByServer:
		x.check(m.counted && x.now >= m.deadline, "server commit at %v before the deadline %v", x.now, m.deadline)
		x.check(c.SendZero && c.Wasted.Pose == PoseDefault, "server commit without zero or with a pose")
		m.zeroPending = true
	case CommitOnLeave:
		x.check(m.counted && !c.SendZero && c.Wasted.Pose == PoseDefault, "bad commit on leave")
	default:
		x.check(!c.SendZero, "a reported death sends a zero")
	}
	m.dead, m.commitAt, m.counted, m.decision = true, x.now, false, Decision{}
	x.queue = append(x.queue, laneItem{kind: laneWasted, id: c.Subject.ID, wasted: c.Wasted})
	x.history = append(x.history, x.queue[len(x.queue)-1])
}

func (x *harness) recordGrant(g Grant) {
	x.t.Helper()
	m := x.lives[g.Subject.Token]
	switch g.Verdict {
	case RequestGranted:
		x.check(m != nil && x.current[g.Subject.ID] == g.Subject, "grant for %v, not current", g.Subject)
		connect := !m.spawned
		x.check(m.dead || connect, "granted a player that is not dead")
		x.check(g.Connect == connect, "connect flag %v", g.Connect)
		x.check(!m.zeroPending, "granted before the zero was acknowledged")
		switch m.decision.kind {
		case decideHold:
			x.fail("granted a held respawn")
		case decideAt:
			x.check(x.now >= m.decision.at, "granted at %v before the decision's %v", x.now, m.decision.at)
		default:
			if connect {
				x.check(!x.cfg.HoldConnectSpawn, "granted a held connect spawn")
			} else {
				x.check(x.now >= m.commitAt+x.w.cfg.RespawnDelay, "granted at %v, %v after the commit", x.now, x.now-m.commitAt)
			}
		}
		x.check(g.Respawn.Gen.Newer(m.gen) && g.Respawn.Gen == m.gen.Next(), "generation %d after %d", g.Respawn.Gen, m.gen)
		x.check(g.ResetCombat, "a grant without a reset of combat")
		sp := g.Spawned
		x.check(sp.Subject == g.Subject.ID && sp.Token == g.Subject.Token && sp.Gen == g.Respawn.Gen && sp.Point == g.Respawn.Point, "PlayerSpawned %v vs %v", sp, g.Respawn)
		if last, ok := x.lastSeq[g.Subject.ID]; ok {
			x.check(sp.SyncSeq == last+1, "sync_seq %d, last relayed %d", sp.SyncSeq, last)
		}
		m.gen, m.dead, m.granted, m.decision, m.spawned = g.Respawn.Gen, false, true, Decision{}, true
		x.barrier[g.Subject.ID] = barrier{token: g.Subject.Token, gen: sp.Gen, seq: sp.SyncSeq}
		x.queue = append(x.queue, laneItem{kind: laneSpawned, id: g.Subject.ID, spawned: sp})
		x.history = append(x.history, x.queue[len(x.queue)-1])
	case RequestRegranted:
		x.check(m.granted && g.Respawn.Gen == m.gen, "regranted %v, model life %d granted %v", g.Respawn, m.gen, m.granted)
		x.check(!g.ResetCombat && g.Spawned == PlayerSpawned{}, "a repeated grant must not reset or re-announce")
	case RequestTooEarly, RequestHeld, RequestAwaitingZero:
		x.check(m.dead || !m.spawned, "%v for a player that is not dead", g.Verdict)
		if g.Verdict == RequestAwaitingZero {
			x.check(m.zeroPending, "awaiting a zero that is not pending")
		}
	}
}

func (x *harness) show() {
	id := PlayerID(x.src.intn(harnessPlayers))
	snap, err := x.w.Snapshot(id)
	if err != nil {
		x.check(x.current[id].Token == NoToken, "no snapshot of a current player: %v", err)
		return
	}
	x.queue = append(x.queue, laneItem{kind: laneShow, id: id, snap: snap})
}

// deliver applies the first n items of the observer's ordered lane.
func (x *harness) deliver(n int) {
	for ; n > 0 && len(x.queue) > 0; n-- {
		it := x.queue[0]
		x.queue = x.queue[1:]
		switch it.kind {
		case laneShow:
			c := NewCopy(it.snap)
			x.copies[it.id] = &c
		case laneHide:
			delete(x.copies, it.id)
		default:
			if c := x.copies[it.id]; c != nil {
				x.applyEdge(c, it)
			}
		}
	}
	if len(x.queue) == 0 {
		x.checkCopies()
	}
}

// stray applies an edge from the whole history to a throwaway clone of any copy: a late,
// duplicated or misrouted edge.
func (x *harness) stray() {
	if len(x.history) == 0 || len(x.copies) == 0 {
		return
	}
	it := x.history[x.src.intn(len(x.history))]
	for id := range PlayerID(harnessPlayers) {
		if c := x.copies[id]; c != nil && x.src.intn(2) == 0 {
			clone := *c
			x.applyEdge(&clone, it)
		}
	}
}

// datagram delivers one relayed frame, picked at random among those in flight, to the
// observer's copy of its id: a frame of another connection or another life never applies.
func (x *harness) datagram() {
	if len(x.frames) == 0 {
		return
	}
	i := x.src.intn(len(x.frames))
	d := x.frames[i]
	x.frames = append(x.frames[:i], x.frames[i+1:]...)
	c := x.copies[d.id]
	if c == nil {
		return
	}
	before := *c
	if c.AcceptFrame(d.stamp) {
		x.check(d.token == before.Token, "a frame of token %d moved the copy of token %d", d.token, before.Token)
		x.check(d.stamp.Gen == before.Gen, "a frame of life %d moved the copy of life %d", d.stamp.Gen, before.Gen)
		x.check(!revision.Older(d.stamp.Seq, before.Floor), "a frame below the barrier was accepted")
		if b, ok := x.barrier[d.id]; ok && b.token == c.Token && b.gen == c.Gen {
			x.check(!revision.Older(d.stamp.Seq, b.seq), "a frame older than sync_seq moved the new life")
		}
	} else {
		x.check(*c == before, "a dropped frame changed the copy")
	}
}

func (x *harness) applyEdge(c *Copy, it laneItem) {
	before := *c
	var v EdgeVerdict
	var token Token
	var g Generation
	if it.kind == laneWasted {
		v, token, g = c.ApplyWasted(it.wasted), it.wasted.Token, it.wasted.Gen
	} else {
		v, token, g = c.ApplySpawned(it.spawned), it.spawned.Token, it.spawned.Gen
	}
	if v != EdgeApplied {
		x.check(*c == before, "edge %v (%v) changed the copy", it, v)
		return
	}
	x.check(token == before.Token, "edge of token %d applied to a copy of token %d", token, before.Token)
	if it.kind == laneWasted {
		x.check(g == before.Gen && before.Alive && !c.Alive, "death edge of life %d applied to life %d", g, before.Gen)
	} else {
		x.check(g.Newer(before.Gen) && c.Alive && c.Gen == g, "spawn edge of life %d applied to life %d", g, before.Gen)
	}
}

// checkCopies: with the lane drained, every copy shows what the server holds.
func (x *harness) checkCopies() {
	for id, c := range x.copies {
		h := x.current[id]
		x.check(h.Token == c.Token, "copy of token %d on id %d, current %v", c.Token, id, h)
		snap, err := x.w.Snapshot(id)
		x.check(err == nil, "snapshot: %v", err)
		x.check(c.Gen == snap.Gen && c.Alive == snap.Alive, "copy %+v, server %+v", *c, snap)
		if !c.Alive && snap.Spawned {
			x.check(c.Pose == snap.Pose, "corpse pose %v, server %v", c.Pose, snap.Pose)
		}
	}
}

// checkState: the World agrees with the model on every current connection.
func (x *harness) checkState() {
	x.t.Helper()
	for id, h := range x.current {
		if h.Token == NoToken {
			_, err := x.w.Snapshot(PlayerID(id))
			x.check(err != nil, "a snapshot of a free id %d", id)
			continue
		}
		m := x.lives[h.Token]
		snap, err := x.w.Snapshot(PlayerID(id))
		x.check(err == nil && snap.Token == h.Token, "snapshot of %v: %+v %v", h, snap, err)
		x.check(snap.Gen == m.gen, "server life %d, model %d", snap.Gen, m.gen)
		if m.dead {
			x.check(snap.Phase == PhaseDead && !snap.Alive && !x.w.MayAct(h), "dead without a grant, yet %v alive=%v", snap.Phase, snap.Alive)
		} else if m.spawned {
			x.check(snap.Alive, "a granted life that is not alive: %v", snap.Phase)
			x.check(x.w.MayAct(h) == !m.granted, "may act %v before/after the first frame (granted %v)", x.w.MayAct(h), m.granted)
		} else {
			x.check(snap.Phase == PhaseUnspawned && !x.w.MayAct(h), "unspawned player %v", snap.Phase)
		}
		x.check((snap.Phase == PhaseRespawning) == m.granted, "respawning %v, model granted %v", snap.Phase, m.granted)
		x.check((snap.Phase == PhaseDying) == (m.counted && !m.dead), "dying %v, model counted %v", snap.Phase, m.counted)
	}
}

func (x *harness) drain() {
	x.deliver(len(x.queue))
	x.checkCopies()
}

func TestPropertyRandomLifecycles(t *testing.T) {
	const seeds, steps = 200, 500
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 0x11fec7c1e))
		x := newHarness(t, pcgSource{r}, seed%5 == 0)
		ok := t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			x.t = t
			for range steps {
				x.step()
			}
			x.drain()
		})
		if !ok {
			t.Fatalf("failed with seed %d", seed)
		}
	}
}

// A property run that plays mostly honest clients, so that the deep paths (grants after
// the delay, confirmations, server commits, acknowledgements) are taken often.
func TestPropertyMostlyHonestClients(t *testing.T) {
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 0x40ae57))
		x := newHarness(t, pcgSource{r}, false)
		ok := t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			x.t = t
			for id := range PlayerID(harnessPlayers) {
				h, err := x.w.Join(0, id)
				require.NoError(t, err)
				x.addLife(h)
			}
			x.src = honestSource{r: r, x: x}
			for range 800 {
				x.step()
			}
			x.drain()
		})
		if !ok {
			t.Fatalf("failed with seed %d", seed)
		}
	}
}

// honestSource biases the choices toward current handles and current generations.
type honestSource struct {
	r *rand.Rand
	x *harness
}

func (s honestSource) intn(n int) int {
	if n == 20 { // pickGen: mostly the current life
		if s.r.IntN(10) < 9 {
			return 0
		}
	}
	if n == 10 { // pickHandle: mostly a current handle
		if s.r.IntN(10) < 9 {
			return 0
		}
	}
	return s.r.IntN(n)
}

func FuzzLifecycle(f *testing.F) {
	f.Add([]byte{0, 0, 6, 0, 0, 2, 0, 0, 1, 4, 0, 0, 0, 8, 200, 6, 0, 0, 0, 8, 255, 2, 0, 0, 1})
	f.Add([]byte{0, 1, 0, 2, 6, 0, 1, 0, 6, 0, 2, 0, 10, 1, 2, 0, 1, 0, 5, 0, 1, 0, 3, 8, 250, 11, 4, 9, 0, 1, 0})
	f.Add([]byte{0, 3, 1, 0, 3, 0, 0, 3, 10, 3, 12, 11, 4, 4, 3, 3, 0, 0, 1, 7, 12, 11, 11})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			data = data[:4096]
		}
		src := &byteSource{b: data}
		x := newHarness(t, src, len(data)%2 == 1)
		for src.i < len(src.b) {
			x.step()
		}
		x.drain()
	})
}
