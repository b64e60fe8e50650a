package vitals

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
)

// maxOutcomes bounds the outcomes one call can produce: every held report of a window
// plus the call's own.
const maxOutcomes = ReportWindow + 2

type heldReport struct {
	in      ReportInput
	floor   float32
	arrived time.Duration
	used    bool
}

type waitingFrame struct {
	in      FrameInput
	arrived time.Duration
}

// passCredit is a loss deducted by something that counted past reports it had not seen (a
// frame that waited out ReportWait, or a report applied over a gap). Only the first
// report after its start may draw its floor from it, once, and only while no health
// command was sent since the loss was deducted.
type passCredit struct {
	first  uint16
	amount float32
	rev    uint16
	valid  bool
}

// Player is the health and armor ledger of one connection: the current life's ledger, the
// connection's health revision and multiplier tables, the client's order of frames and
// reports, the last damage and the god-mode suspicion detector. Create it at connect with
// NewPlayer and call NewLife at each spawn or respawn grant.
//
// A Player is not safe for concurrent use: one goroutine owns a world and its players.
// Every window it keeps for a client has a named cap (ReportWindow, MaxWaitingFrames,
// MaxPendingCommands): nothing a client sends makes it hold more. The windows are not
// allocated for the worst case at construction: they grow on demand up to their caps by
// doubling, so a player whose reports arrive in order costs little; once grown, a window
// takes frames and reports without allocating.
type Player struct {
	// The fields a frame and Advance read come first, all in the struct's first 64 bytes
	// (a server of many players reads each one's from memory at every frame: the fewer
	// lines, the fewer misses; TestFrameFieldsShareALine keeps them there). A Player is
	// 360 bytes, in the allocator's 384-byte size class, whose objects are 64-byte
	// aligned, so those 64 bytes are one cache line. The suspicion detector a frame with a loss (and a claimed hit) reads
	// fills the second line; what a report in the client's order reads besides follows,
	// in the third and the start of the fourth; then the rest.
	life          LifeState
	ledgerDeath   bool
	haveCredit    bool
	deadValid     bool
	flushing      bool
	lastFrameVerd FrameVerdict
	tracking      bool
	trackVerdict  ReportVerdict
	// ledger is the canonical ledger: base with the commands in flight replayed (see
	// pending.go). base is the ledger as of the newest revision the client's order showed.
	ledger Vitals
	base   Vitals
	// The health revision of the connection: the last command sent, and the commands in
	// flight until each settles (cmds, below).
	rev uint16
	// The client's order. cursor is the newest report number taken in order or passed by
	// something that counted without it; seen has bit i set when report cursor-i was taken
	// (credited in order or late). sinceBoundary is how many numbers the cursor moved since
	// the current life's first frame, saturating at ReportWindow: reports at or before the
	// boundary belong to an earlier life.
	cursor   uint16
	frameSeq uint16
	frameDS  uint16
	// sc is the scratch the calls build their results in, never nil: its own (NewPlayer)
	// or one it shares (ShareScratch).
	sc *Scratch
	// nwait and nheld count the frames waiting and the reports held (at most
	// MaxWaitingFrames and ReportWindow).
	nwait int32
	nheld int32
	// cmds counts the commands in flight, beside nwait and nheld, so that Advance with
	// nothing to take reads this one line (see Advance); their ring, cmdBuf, is read only
	// while one is in flight.
	cmds          pendingRing
	sinceBoundary int32

	susp suspicionState

	last      LastDamage
	creditNum uint16
	trackSeq  uint16
	// deadDS is the damage_seq of the newest frame taken while the life was dead
	// (deadValid): a dead client makes no reports, so it is the number of the last report
	// of the life that ended, the exact boundary of the next one (see firstFrame).
	deadDS       uint16
	lastAccepted uint16
	creditAt     time.Duration
	seen         uint64
	held         []heldReport // by number modulo its size, grown on demand up to ReportWindow
	mult         multState

	cmdBuf []pendingCommand // cmds' ring, grown by doubling up to MaxPendingCommands
	// busyWord is the host's word whose bit busyBit is kept set while the Player is busy
	// (TrackBusy; nil: none).
	busyWord *uint64
	waiting  []waitingFrame // a ring grown by doubling up to MaxWaitingFrames
	whead    int
	pass     *[MaxPassCredits]passCredit // made at the first pass credit
	passNext int

	stealthCounted   bool
	explosionCounted bool
	busyBit          uint8 // see busyWord
	// _ keeps the Player above 352 bytes, in the 384-byte size class: 352 is not a
	// multiple of 64, so that class would put every other Player across its lines.
	_ [8]byte
}

// Scratch is where a Player's calls build what they return: the outcomes of the reports
// a call took or released (Effects.Reports) and the rest of its Effects. Each Player has
// one of its own. A host with many players gives them one to share (ShareScratch): every
// frame then writes the same few cache lines instead of lines of each Player's own, which
// at thousands of players are cache misses. The zero value is ready to use.
type Scratch struct {
	out []Outcome // grown on demand up to maxOutcomes, reused by every call
	eff Effects
}

// ShareScratch makes p build its results in s, shared with other Players (nil: a new one
// of its own). Effects.Reports then stays valid only until the next call on any Player that
// shares s, not only on p: a host reads each call's results before its next call into the
// package, as a server of one goroutine does. Players that share a scratch must be used
// from one goroutine.
func (p *Player) ShareScratch(s *Scratch) {
	if s == nil {
		s = new(Scratch)
	}
	p.sc = s
}

// Busy reports whether Advance has anything to do: a command in flight, a frame waiting
// for a report, a report held for an earlier one. An idle Player's Advance changes
// nothing and returns only the ledger.
func (p *Player) Busy() bool { return p.cmds.n|p.nwait|p.nheld != 0 }

// TrackBusy makes p keep bit bit (0 to 63) of *word set while it is Busy and clear while
// it is not, from now on, whatever call changes it (word nil: stop, clearing the bit it
// kept). A host of many players keeps one bit per player and calls Advance only on the
// players whose bit is set: an idle player's ledger is then not read at every tick.
// Players that share a word must be used from one goroutine.
func (p *Player) TrackBusy(word *uint64, bit uint8) {
	if p.busyWord != nil {
		*p.busyWord &^= 1 << p.busyBit
	}
	p.busyWord, p.busyBit = word, bit&63
	p.noteBusy()
}

// noteBusy brings the host's bits (TrackBusy) up to date with Busy: called wherever a
// command, a waiting frame or a held report comes or goes.
func (p *Player) noteBusy() {
	if p.busyWord == nil {
		return
	}
	if p.Busy() {
		*p.busyWord |= 1 << p.busyBit
	} else {
		*p.busyWord &^= 1 << p.busyBit
	}
}

// NewPlayer creates the ledger of a connection. It has no life until NewLife.
func NewPlayer(cfg Config) (*Player, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Player{
		mult: newMultState(),
		seen: ^uint64(0),
		susp: newSuspicionState(c),
		sc:   new(Scratch),
	}, nil
}

// setLife moves the life to l, and keeps the detector's copy of whether it is counted
// (HitClaimed reads it there, in the detector's line, not the frame's).
func (p *Player) setLife(l LifeState) {
	p.life = l
	p.susp.lifeCounted = l == LifeCounted
}

// Life is where the current life stands.
func (p *Player) Life() LifeState { return p.life }

// Counted reports whether the life is counted: after its first frame, alive, not counted
// dead. Commands are taken only then.
func (p *Player) Counted() bool { return p.life == LifeCounted }

// Ledger is the canonical health and armor of the current life.
func (p *Player) Ledger() Vitals { return p.ledger }

// Touch reads the line of the ledger a frame reads (the Player's first 64 bytes: all that
// a frame in the client's order reads of it, unless it shows a loss, which adds the
// suspicion detector's line, or a raise) and returns a word of it; it changes nothing. A host
// handling a frame of one of many players calls it, and the other packages' Touch, as
// soon as it knows the player, and keeps the result (so that the reads are not left out):
// the packages' memory reads then overlap instead of waiting for one another, each in its
// turn.
func (p *Player) Touch() uint64 { return uint64(p.rev) ^ uint64(p.nheld) }

// TouchClaim reads the lines HitClaimed reads first (the suspicion detector's line, with
// whether the life is counted, and its current bucket) and returns a word of them; it changes nothing (see Touch).
func (p *Player) TouchClaim() uint64 {
	t := uint64(p.susp.curIdx)
	if p.susp.lifeCounted {
		t++
	}
	if i := int(p.susp.curIdx); i < len(p.susp.b) {
		t ^= uint64(p.susp.b[i].lap)
	}
	return t
}

// Revision is the connection's last health revision sent.
func (p *Player) Revision() uint16 { return p.rev }

// MultiplierRevision is the connection's last multiplier table revision sent.
func (p *Player) MultiplierRevision() uint16 { return p.mult.rev }

// FloorMultipliers is the table the floors use at now: the last table sent once the client
// acknowledged it MultiplierGrace ago, else the lowest it may still be applying.
func (p *Player) FloorMultipliers(now time.Duration) Multipliers { return p.mult.effective(now) }

// LastDamage is the last credited damage of the current life.
func (p *Player) LastDamage() LastDamage { return p.last }

// Waiting returns how many frames and reports wait for an earlier report.
func (p *Player) Waiting() (frames, reports int) { return int(p.nwait), int(p.nheld) }

// Killer is the killer to name when the death is committed: the attacker of the last
// credited damage, or NoPlayer when there is none or isTeammate says the attacker is the
// victim's teammate now (a teammate is never named killer, even for damage dealt before the
// two joined the same team). isTeammate may be nil.
func (p *Player) Killer(isTeammate func(attacker PlayerID) bool) PlayerID {
	if !p.last.Valid || p.last.Attacker == NoPlayer {
		return NoPlayer
	}
	if isTeammate != nil && isTeammate(p.last.Attacker) {
		return NoPlayer
	}
	return p.last.Attacker
}

// ---- per-call plumbing ----

func (p *Player) begin() {
	sc := p.sc
	sc.out = sc.out[:0]
	sc.eff = Effects{}
	p.tracking = false
}

func (p *Player) finish() Effects {
	sc := p.sc
	sc.eff.Reports = sc.out
	sc.eff.Ledger = p.ledger
	return sc.eff
}

// quiet is the result of a call that changed nothing.
func (p *Player) quiet() Effects { return Effects{Ledger: p.ledger} }

func (p *Player) emit(o Outcome) {
	if p.tracking && o.Seq == p.trackSeq && p.trackVerdict == ReportHeld {
		p.trackVerdict = o.Verdict
	}
	if sc := p.sc; len(sc.out) < maxOutcomes {
		sc.out = append(sc.out, o)
	}
}

// ---- life ----

// NewLife starts a life at a spawn or respawn grant: 100 health, 0 armor, not counted until
// its first frame. Frames and reports still waiting belong to the previous life and are
// discarded (their outcomes are returned). The health revision, the multiplier tables and
// the report numbering are the connection's and carry on. Call it once per grant, not for
// a repeated grant of the same life.
//
// NewLife takes any state and never refuses. A grant is the server's own decision, made by
// lifecycle, which vitals does not import: it grants only the connect spawn or after a
// committed death, and the host calls Died at every commit, so a host wired like
// examples/refserver calls it with the life none or dead. Refusing the other states would
// need an error result, changing the signature every host calls. A host that grants over a
// counted life anyway gets a fresh life: a death counted but not committed is forgotten
// here, and keeping its deadline is lifecycle's.
func (p *Player) NewLife(now time.Duration) Effects {
	_ = now
	p.begin()
	p.dropHeld(ReportPreviousLife, p.cursor+ReportWindow)
	p.whead, p.nwait = 0, 0
	p.noteBusy()
	p.setLife(LifeSpawned)
	// The commands sent to the previous life do not apply to this one: a new life starts
	// after every revision sent.
	p.cmds.reset()
	p.noteBusy()
	p.base = Vitals{Health: StartHealth, Armor: StartArmor}
	p.ledger = p.base
	p.last = LastDamage{}
	if p.pass != nil {
		*p.pass = [MaxPassCredits]passCredit{}
	}
	p.passNext = 0
	p.haveCredit = false
	p.ledgerDeath = false
	p.stealthCounted = false
	p.explosionCounted = false
	return p.finish()
}

// Died tells vitals that lifecycle committed the death of the current life (from the
// victim's DeathReport, from its deadline, or on leaving). Whatever still waits is taken
// first in the client's order, so the last damage is complete; then the player is dead:
// frames and reports are ignored and commands refused until NewLife.
//
// Rules: [death-by-ledger].
func (p *Player) Died(now time.Duration) (Effects, error) {
	if p.life == LifeNone || p.life == LifeDead {
		return p.quiet(), fmt.Errorf("%w: died while %v", ErrNotAlive, p.life)
	}
	p.begin()
	p.flushing = true
	if p.life == LifeSpawned {
		p.dropHeld(ReportNotAlive, p.cursor+ReportWindow)
	} else {
		p.expire(now, true)
	}
	p.flushing = false
	p.whead, p.nwait = 0, 0
	p.noteBusy()
	p.setLife(LifeDead)
	p.deadValid = false
	return p.finish(), nil
}

// DeathZero issues the critical SetHealth(0) lifecycle sends when it commits a death the
// victim did not report. It takes the connection's next revision like every health
// command and puts 0 into the ledger. Only for a life counted dead or dead.
//
// Rules: [server-zero-after-death].
func (p *Player) DeathZero(now time.Duration) (Command, error) {
	if p.life != LifeCountedDead && p.life != LifeDead {
		return Command{}, fmt.Errorf("%w: death zero while %v", ErrStillAlive, p.life)
	}
	p.ledgerDeath = true
	p.base.Health = 0
	return p.issue(now, CommandSetHealth, 0, 0, true), nil
}

// StealthKilled counts the life dead on an accepted stealth kill (the server's whole
// decision). A teammate's stealth kill is refused.
//
// Rules: [death-by-ledger], [sources-of-damage].
func (p *Player) StealthKilled(now time.Duration, k StealthKill) (Effects, error) {
	if k.Killer == NoPlayer {
		return p.quiet(), fmt.Errorf("%w: stealth kill without a killer", ErrAttacker)
	}
	if k.Teammate {
		return p.quiet(), fmt.Errorf("%w: stealth kill by %d", ErrTeammate, k.Killer)
	}
	if p.life != LifeCounted && p.life != LifeCountedDead {
		return p.quiet(), fmt.Errorf("%w: stealth kill while %v", ErrNotAlive, p.life)
	}
	p.begin()
	p.expire(now, false)
	p.last = LastDamage{Attacker: k.Killer, Weapon: k.Weapon, At: now, Seq: p.cursor, Valid: true}
	if !p.stealthCounted {
		p.stealthCounted = true
		p.countDeath(Death{At: now, Killer: k.Killer, Weapon: k.Weapon, Reason: DeathByStealthKill, Stealth: true})
	}
	return p.finish(), nil
}

// VehicleExploded counts the life dead on an accepted explosion of the vehicle the player
// sat in. The explosion's credited killer becomes the last damage; without one the killer
// comes from the earlier last damage. An occupant who is the killer's teammate while
// friendly fire is off is refused: its client refuses the damage.
//
// Rules: [death-by-ledger].
func (p *Player) VehicleExploded(now time.Duration, e VehicleExplosion) (Effects, error) {
	if e.Teammate && e.Killer != NoPlayer {
		return p.quiet(), fmt.Errorf("%w: vehicle explosion by %d", ErrTeammate, e.Killer)
	}
	if p.life != LifeCounted && p.life != LifeCountedDead {
		return p.quiet(), fmt.Errorf("%w: vehicle explosion while %v", ErrNotAlive, p.life)
	}
	p.begin()
	p.expire(now, false)
	if e.Killer != NoPlayer {
		p.last = LastDamage{Attacker: e.Killer, Weapon: WeaponExplosion, At: now, Seq: p.cursor, Valid: true}
	}
	if !p.explosionCounted {
		p.explosionCounted = true
		p.countDeath(Death{At: now, Killer: p.lastAttacker(), Weapon: WeaponExplosion, Reason: DeathByVehicleExplosion})
	}
	return p.finish(), nil
}

func (p *Player) lastAttacker() PlayerID {
	if p.last.Valid {
		return p.last.Attacker
	}
	return NoPlayer
}

func (p *Player) lastWeapon() uint8 {
	if p.last.Valid {
		return p.last.Weapon
	}
	return UnknownWeapon
}

func (p *Player) countDeath(d Death) {
	p.setLife(LifeCountedDead)
	p.susp.forgetYoung(d.At)
	if !p.flushing {
		sc := p.sc
		sc.eff.Died = true
		sc.eff.Death = d
	}
}

// checkLedgerDeath counts the death when the ledger's health reached 0: the base's (the
// client died before it took the commands in flight, which it then drops) or the
// canonical one's (set_health(0)).
//
// With ofLast set the death's weapon is the last damage's (lastWeapon), read only when the
// death is counted: a frame, which names no weapon, then reads the last damage's line only
// at a death.
func (p *Player) checkLedgerDeath(now time.Duration, reason DeathReason, weapon uint8, ofLast bool) {
	if p.life != LifeCounted && p.life != LifeCountedDead {
		return
	}
	if p.base.Health <= 0 && p.ledger.Health > 0 {
		p.voidPending()
	}
	if p.ledger.Health > 0 || p.ledgerDeath {
		return
	}
	p.base.Health = min32(p.base.Health, 0)
	p.ledger.Health = 0
	p.ledgerDeath = true
	if ofLast {
		weapon = p.lastWeapon()
	}
	p.countDeath(Death{At: now, Killer: p.lastAttacker(), Weapon: weapon, Reason: reason})
}

// ---- health revision ----

// issue sends a command: it takes the connection's next revision and goes in flight; the
// canonical ledger takes its value now.
func (p *Player) issue(now time.Duration, k CommandKind, value, max float32, critical bool) Command {
	p.settle(now)
	p.rev = revision.Next(p.rev)
	p.push(pendingCommand{rev: p.rev, kind: k, value: value, max: max, sent: now})
	return Command{Kind: k, Rev: p.rev, Value: value, Max: max, Critical: critical}
}

// Acknowledged tells vitals the client acknowledged the health command with revision rev
// (the reliable lane reported it). The lane is ordered, so every command up to rev is
// acknowledged; each settles AckGrace after its acknowledgement.
func (p *Player) Acknowledged(now time.Duration, rev uint16) error {
	if revision.Newer(rev, p.rev) {
		return fmt.Errorf("%w: health revision %d, last sent %d", ErrFutureRevision, rev, p.rev)
	}
	for i := 0; i < int(p.cmds.n); i++ {
		c := p.cmdAt(i)
		if revision.Newer(c.rev, rev) {
			break
		}
		if !c.acked {
			c.acked, c.ack = true, now
		}
	}
	return nil
}

// ---- commands ----

func checkSet(what string, v float32) error {
	if !finite(v) {
		return fmt.Errorf("%w: %s %v", ErrNotFinite, what, v)
	}
	if v < 0 || v > MaxVitalSet {
		return fmt.Errorf("%w: %s %v not in 0..%v", ErrOutOfRange, what, v, MaxVitalSet)
	}
	return nil
}

func checkAdd(what string, amount, max float32) error {
	if !finite(amount) || !finite(max) {
		return fmt.Errorf("%w: %s amount %v max %v", ErrNotFinite, what, amount, max)
	}
	if amount <= 0 || amount > MaxVitalSet || max <= 0 || max > MaxVitalSet {
		return fmt.Errorf("%w: %s amount %v max %v not in (0, %v]", ErrOutOfRange, what, amount, max, MaxVitalSet)
	}
	return nil
}

func (p *Player) checkCounted(what string) error {
	if p.life != LifeCounted {
		return fmt.Errorf("%w: %s while %v", ErrNotAlive, what, p.life)
	}
	return nil
}

func (p *Player) commandResult(c Command) CommandResult {
	sc := p.sc
	return CommandResult{Command: c, Ledger: p.ledger, Died: sc.eff.Died, Death: sc.eff.Death}
}

// SetHealth is set_health(value): an absolute value in 0..200 that may lower. The ledger
// takes it now (the command is sent now); set_health(0) counts the death.
//
// Rules: [one-command-queue], [health-revision].
func (p *Player) SetHealth(now time.Duration, value float32) (CommandResult, error) {
	if err := checkSet("set_health", value); err != nil {
		return CommandResult{}, err
	}
	if err := p.checkCounted("set_health"); err != nil {
		return CommandResult{}, err
	}
	p.begin()
	c := p.issue(now, CommandSetHealth, value, 0, false)
	p.checkLedgerDeath(now, DeathByCommand, UnknownWeapon, false)
	return p.commandResult(c), nil
}

// SetArmor is set_armor(value): an absolute value in 0..200 that may lower.
//
// Rules: [one-command-queue], [health-revision].
func (p *Player) SetArmor(now time.Duration, value float32) (CommandResult, error) {
	if err := checkSet("set_armor", value); err != nil {
		return CommandResult{}, err
	}
	if err := p.checkCounted("set_armor"); err != nil {
		return CommandResult{}, err
	}
	p.begin()
	c := p.issue(now, CommandSetArmor, value, 0, false)
	return p.commandResult(c), nil
}

// AddHealth is add_health(amount, max): adds up to max, never lowers. amount and max are
// finite, above 0 and at most 200.
//
// Rules: [one-command-queue], [health-revision].
func (p *Player) AddHealth(now time.Duration, amount, max float32) (CommandResult, error) {
	if err := checkAdd("add_health", amount, max); err != nil {
		return CommandResult{}, err
	}
	if err := p.checkCounted("add_health"); err != nil {
		return CommandResult{}, err
	}
	p.begin()
	c := p.issue(now, CommandAddHealth, amount, max, false)
	return p.commandResult(c), nil
}

// AddArmor is add_armor(amount, max): adds up to max, never lowers.
//
// Rules: [one-command-queue], [health-revision].
func (p *Player) AddArmor(now time.Duration, amount, max float32) (CommandResult, error) {
	if err := checkAdd("add_armor", amount, max); err != nil {
		return CommandResult{}, err
	}
	if err := p.checkCounted("add_armor"); err != nil {
		return CommandResult{}, err
	}
	p.begin()
	c := p.issue(now, CommandAddArmor, amount, max, false)
	return p.commandResult(c), nil
}

// SetMultipliers sends a damage multiplier table to the client (the connection's next table
// revision). It is taken in any life state.
//
// Rules: [damage-multipliers].
func (p *Player) SetMultipliers(now time.Duration, m Multipliers) (MultiplierCommand, error) {
	if err := m.Validate(); err != nil {
		return MultiplierCommand{}, err
	}
	return p.mult.send(now, m), nil
}

// MultipliersAcknowledged tells vitals the client acknowledged the multiplier table rev.
func (p *Player) MultipliersAcknowledged(now time.Duration, rev uint16) error {
	return p.mult.ack(now, rev)
}

// ---- god-mode suspicion ----

// HitClaimed feeds the god-mode suspicion detector: a shooter claimed a hit on this player
// and the server accepted it against the player's rewound pose; expected is the loss the
// hit would cause (0.33 x damage for a bullet). It never changes health. Claims while the
// life is not counted are ignored.
//
// Rules: [god-mode-detector].
func (p *Player) HitClaimed(now time.Duration, expected float32) (Suspicion, error) {
	if !finite(expected) {
		return Suspicion{}, fmt.Errorf("%w: expected loss %v", ErrNotFinite, expected)
	}
	if expected < 0 || expected > MaxClaimedLoss {
		return Suspicion{}, fmt.Errorf("%w: expected loss %v not in 0..%v", ErrOutOfRange, expected, MaxClaimedLoss)
	}
	if !p.susp.lifeCounted { // p.life != LifeCounted
		return Suspicion{}, nil
	}
	p.susp.claim(now, expected)
	return p.susp.evaluate(now), nil
}

// Advance takes what came due at now: frames and reports whose ReportWait ran out count
// without what they waited for. Call it every tick; Frame and Report do the same for their
// own time.
func (p *Player) Advance(now time.Duration) Effects {
	if p.cmds.n|p.nwait|p.nheld == 0 { // !Busy(); none is negative
		// Nothing in flight, waiting or held: settle and expire would change nothing, and
		// the per-call scratch is left alone (every call resets it first). Inlined, so
		// that the caller's walk over many players overlaps their reads.
		return Effects{Ledger: p.ledger}
	}
	return p.advance(now)
}

// advance is Advance with something to settle, expire or release.
func (p *Player) advance(now time.Duration) Effects {
	p.begin()
	p.settle(now)
	if p.nwait > 0 || p.nheld > 0 {
		p.expire(now, false)
	}
	return p.finish()
}

// Suspect evaluates the god-mode suspicion detector at now (see doc.go). Suspicion.Raised
// is set once when the victim starts to meet the condition. Call it every tick or so; it
// never changes health.
//
// Rules: [god-mode-detector].
func (p *Player) Suspect(now time.Duration) Suspicion { return p.susp.evaluate(now) }
