package vitals

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/arbitergo/arbiter/internal/causes"
	"github.com/arbitergo/arbiter/internal/ids"
)

// Durations and limits of the ledger's rules (see # Rules in doc.go). They are constants, not configuration:
// the honest client's behaviour is built around them.
const (
	// StartHealth is the health of every life at its spawn or respawn grant.
	StartHealth float32 = 100
	// StartArmor is the armor of every life at its spawn or respawn grant.
	StartArmor float32 = 0
	// MaxVitalSet is the highest value a health or armor command may set, and the highest
	// max and amount of an add (MAX_VITAL_SET).
	MaxVitalSet float32 = 200
	// RaiseTolerance is how far above the ledger a frame may show a value without being
	// flagged: the game rounds health.
	RaiseTolerance float32 = 1.0
	// MaxClaimedVital is the highest health or armor a report may claim (before or after):
	// the client clamps to MaxVitalSet, the tolerance covers its rounding.
	MaxClaimedVital = MaxVitalSet + RaiseTolerance
	// MaxClaimedLoss is the highest loss a report may claim: all of MaxVitalSet health and
	// MaxVitalSet armor.
	MaxClaimedLoss = 2 * MaxVitalSet

	// ReportWait is how long a frame (or a report) waits for a report that comes before it
	// in the client's order before it counts on its own (REPORT_WAIT).
	ReportWait = time.Second
	// CreditGrace is how long after a report was credited a frame taken before that report
	// may still show the health from before the hit without being flagged.
	CreditGrace = time.Second
	// AckGrace is how long after the client acknowledged a health command an echo of an
	// older revision is still judged before that command (the command settles then).
	AckGrace = 2 * time.Second
	// SendTimeout is how long after a health command was sent an echo of an older revision
	// is judged before it at most, acknowledged or not (the link breaks by then).
	SendTimeout = 15 * time.Second
	// MultiplierGrace is how long after the client acknowledged the last multiplier table
	// the floors still use the lowest multiplier it may have been applying.
	MultiplierGrace = 2 * time.Second
	// SkillChangeGrace is how long after a shooter's skill changed a bullet floor uses the
	// lower of the two tiers.
	SkillChangeGrace = 5 * time.Second

	// ReportWindow is how many report numbers the server keeps track of on either side of
	// its place in the client's order: ahead (reports held for an earlier one), behind
	// (late reports and duplicates) and the previous life's reports a new life discards.
	// It must stay a power of two.
	ReportWindow = 64
	// MaxWaitingFrames caps the frames waiting for a report. A client that sends more makes
	// the oldest count at once, as if its wait had run out.
	MaxWaitingFrames = 128
	// MaxPassCredits caps the remembered losses that a late report may draw its floor from.
	MaxPassCredits = 16
)

// PlayerID is a player slot, as in SA-MP. It names the attacker of a hit and the killer
// of a death. It is the same type as every other package's PlayerID (lifecycle, teams,
// rewind, wire), so an id passes between them without a conversion.
type PlayerID = ids.PlayerID

// NoPlayer is the PlayerID of no player, 0xFFFF (SA-MP's INVALID_PLAYER_ID): damage from
// the environment, a death without a killer.
const NoPlayer = ids.NoPlayer

// UnknownWeapon is the weapon id of an unknown cause.
const UnknownWeapon = causes.Unknown

// Weapon ids of damage causes that the package names: the one set of cause names of
// arbiter (the weapon catalogue and the death rules name the same ids).
const (
	WeaponFire         = causes.Fire         // fire, with or without a flamethrower
	WeaponSpraycan     = causes.Spraycan     // the spraycan
	WeaponExtinguisher = causes.Extinguisher // the fire extinguisher
	WeaponVehicle      = causes.Vehicle      // ramming, running over
	WeaponRotor        = causes.Rotor        // helicopter blades
	WeaponExplosion    = causes.Explosion    // any explosion
	WeaponDrowning     = causes.Drowning     // drowning
	WeaponFall         = causes.Fall         // collision or fall ("splat")
)

// Body parts of the whitelist (SA-MP numbering).
const (
	BodyTorso    uint8 = 3 // torso
	BodyGroin    uint8 = 4 // groin
	BodyLeftArm  uint8 = 5 // left arm
	BodyRightArm uint8 = 6 // right arm
	BodyLeftLeg  uint8 = 7 // left leg
	BodyRightLeg uint8 = 8 // right leg
	BodyHead     uint8 = 9 // head
)

// ValidBodyPart reports whether b is on the body part whitelist (3..9).
//
// Rules: [trust-in-fields].
func ValidBodyPart(b uint8) bool { return b >= BodyTorso && b <= BodyHead }

// Vitals is a pair of health and armor, as the ledger holds them and as a frame or a
// report shows them.
type Vitals struct {
	Health float32 // health, 0..200
	Armor  float32 // armor, 0..200
}

// Total is health plus armor: what a hit can take before the player dies.
func (v Vitals) Total() float32 { return v.Health + v.Armor }

// String formats the pair as "health/armor", to the hundredth (the game rounds health
// anyway).
func (v Vitals) String() string { return hundredths(v.Health) + "/" + hundredths(v.Armor) }

func hundredths(f float32) string {
	s := strconv.FormatFloat(float64(f), 'f', 2, 32)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// finite reports whether f is neither NaN nor ±Inf (their exponent bits are all set).
func finite(f float32) bool { return math.Float32bits(f)&0x7f800000 != 0x7f800000 }

// within reports whether lo <= f <= hi; NaN and infinities outside the range fail it.
func within(f, lo, hi float32) bool { return f >= lo && f <= hi }

func min32(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

func max32(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}

// nonNegative reads a negative claim as 0: the game lets health fall a little below zero
// on a lethal hit.
func nonNegative(f float32) float32 {
	if f < 0 {
		return 0
	}
	return f
}

func minVitals(a, b Vitals) Vitals {
	return Vitals{Health: min32(a.Health, b.Health), Armor: min32(a.Armor, b.Armor)}
}

// deduct takes amount from v, armor first, never below zero.
func deduct(v Vitals, amount float32) Vitals {
	if amount <= 0 {
		return v
	}
	if v.Armor >= amount {
		v.Armor -= amount
		return v
	}
	amount -= v.Armor
	v.Armor = 0
	v.Health = nonNegative(v.Health - amount)
	return v
}

// drop is what went from a to b, component by component (never negative).
func drop(a, b Vitals) Vitals {
	return Vitals{Health: nonNegative(a.Health - b.Health), Armor: nonNegative(a.Armor - b.Armor)}
}

//go:generate go tool stringer -type=LifeState,Source,FrameVerdict,ReportVerdict,DeathReason,CommandKind -linecomment

// LifeState is where the player's current life stands for vitals.
type LifeState uint8

// The life states.
const (
	// LifeNone: connected, never spawned.
	LifeNone LifeState = iota // none
	// LifeSpawned: granted (100 health, 0 armor) but not counted until its first frame.
	LifeSpawned // spawned
	// LifeCounted: alive and counted; commands are taken.
	LifeCounted // counted
	// LifeCountedDead: vitals counted the death; lifecycle waits for the DeathReport.
	LifeCountedDead // counted_dead
	// LifeDead: lifecycle committed the death (Died was called).
	LifeDead // dead
)

// Source is what a damage report is, as the host established it from the report's cause and
// its correlation with the server's accepted actions. It decides how the report enters the
// ledger (a hit or a sum), its floor and its multiplier class.
type Source uint8

// The damage sources ([sources-of-damage]).
const (
	sourceInvalid Source = iota
	// SourceBullet: hitscan on foot or from a vehicle seat (WeaponShot). A hit with a floor
	// the host computes (BulletFloor at the shooter's tier).
	SourceBullet // bullet
	// SourceVehicleGun: a vehicle's guns (VehicleShot), except the Predator. A hit with a
	// floor the host computes at the standard tier.
	SourceVehicleGun // vehicle_gun
	// SourcePredatorGun: the Predator's guns. A hit with the fixed floor 0.33 x 15 times the
	// Predator multiplier.
	SourcePredatorGun // predator_gun
	// SourceMelee: a melee blow or a gun butt. A hit with the floor 1.32 times the melee
	// multiplier.
	SourceMelee // melee
	// SourceExplosion: a player's or the gamemode's explosion (projectile, satchel,
	// create_explosion, Rhino cannon). A hit without floor; explosion multiplier.
	SourceExplosion // explosion
	// SourceRam: ramming, running over, rotor blades, by a driver. A hit without floor.
	SourceRam // ram
	// SourceFire: fire with a creator, summed per 250 ms. A sum; fire multiplier.
	SourceFire // fire
	// SourceSpray: the spraycan, summed. A sum; spray multiplier.
	SourceSpray // spray
	// SourceExtinguisher: the extinguisher, summed. A sum; extinguisher multiplier.
	SourceExtinguisher // extinguisher
	// SourceEnvironment: falls, drowning, unowned fire and explosions. A sum, never an
	// attacker; fire or explosion multiplier by its weapon (37, 51).
	SourceEnvironment // environment
	sourceEnd
)

func (s Source) valid() bool { return s > sourceInvalid && s < sourceEnd }

// Hit reports whether reports of this source are hits: sent together with their damage,
// they deduct the loss they claim (the others are sums that come after the frames).
func (s Source) Hit() bool { return s >= SourceBullet && s <= SourceRam }

// Floored reports whether hits of this source pay a floor.
func (s Source) Floored() bool { return s >= SourceBullet && s <= SourceMelee }

// NeedsAttacker reports whether a report of this source must be correlated with an accepted
// action of an attacker to be credited.
func (s Source) NeedsAttacker() bool { return s.Hit() }

// FrameInput is what vitals reads from one of the owner's frames (PlayerSync).
//
// Health and Armor are expected in 0..MaxVitalSet: the client clamps them to that range
// and the wire codec refuses anything else. Frame reads a negative value as 0 (the game
// lets health dip below zero on a lethal hit) and accepts the same span as a report's
// claims, -MaxVitalSet..MaxClaimedVital; a value outside it, or NaN or ±Inf, is refused
// with ErrOutOfRange or ErrNotFinite and changes nothing (no cut, no flag, no death).
type FrameInput struct {
	// Seq is the frame's sequence number; a frame not newer than the last one is stale.
	Seq uint16
	// DamageSeq is the number of the last damage report the client created (damage_seq).
	DamageSeq uint16
	// VitalRev is the health revision of the last command the client took (vital_rev).
	VitalRev uint16
	// Health is the health the client shows. It can only lower the ledger.
	Health float32
	// Armor is the armor the client shows. It can only lower the ledger.
	Armor float32
}

// ReportInput is one damage report of the victim together with the facts the host
// established about it (correlation, teammates, the floor of its weapon).
type ReportInput struct {
	// Seq is the report's number (monotonic per connection; the first report is 1).
	Seq uint16
	// VitalRev is the echoed health revision.
	VitalRev uint16
	// Source is what the host established the report to be.
	Source Source
	// Weapon is the cause: for player sources the weapon of the correlated action.
	Weapon uint8
	// BodyPart must be on the whitelist (3..9) for every hit (Source.Hit): bullets, vehicle
	// guns, the Predator's guns, melee, explosions and ramming. Sums (fire, spray, the
	// extinguisher, the environment) are not checked. It never changes the floor.
	BodyPart uint8
	// Attacker is the correlated attacker or creator of the cause; NoPlayer for none.
	Attacker PlayerID
	// Correlated is true when the host matched the report with an action of Attacker that
	// the server accepted (a shot, a blow, an explosion, a fire, a drive).
	Correlated bool
	// Teammate is true when attacker and victim are teammates now, or were when the action
	// was accepted: such a report is never credited.
	Teammate bool
	// Floor is the bullet floor the host computed for SourceBullet and SourceVehicleGun
	// (BulletFloor of the weapon's damage from the properties revision the shot echoed, at
	// the shooter's tier, or the standard tier for vehicle guns). Ignored otherwise.
	Floor float32
	// Loss is the loss the victim claims (health plus armor).
	Loss float32
	// Before is what the victim claims it had before the damage.
	Before Vitals
	// After is what the victim claims it had left after the damage.
	After Vitals
}

// FrameVerdict is what happened to a frame.
type FrameVerdict uint8

// The frame verdicts.
const (
	// FrameCounted: the frame was taken; it lowered the ledger or matched it.
	FrameCounted FrameVerdict = iota + 1 // counted
	// FrameRaiseFlagged: the frame showed more than the ledger plus RaiseTolerance; the
	// value was cut (the ledger stays) and the god_mode flag raised.
	FrameRaiseFlagged // raise_flagged
	// FrameRaiseExcused: the frame showed more than the ledger but was taken before a
	// report credited less than CreditGrace ago: cut without a flag.
	FrameRaiseExcused // raise_excused
	// FrameWaiting: the frame waits for a report that comes before it.
	FrameWaiting // waiting
	// FrameGated: the frame echoes a revision older than an unsettled command that an item
	// after it in the client's order already echoed (it arrived out of that order); it does
	// not touch the ledger.
	FrameGated // gated
	// FrameFutureRevision: the frame echoes a revision never sent; it is ignored and
	// nothing changed.
	FrameFutureRevision // future_revision
	// FrameFirst: the first frame of a life; the life counts from now, the ledger is not
	// touched.
	FrameFirst // first
	// FrameAfterDeath: a frame of a life counted dead: it may lower the ledger, never
	// raises a flag.
	FrameAfterDeath // after_death
	// FrameStale: the frame is not newer than the last frame; nothing changed.
	FrameStale // stale
	// FrameNotAlive: no life to apply it to (never spawned, or dead); nothing changed.
	FrameNotAlive // not_alive
)

// ReportVerdict is what happened to a damage report.
type ReportVerdict uint8

// The report verdicts. Applied, AttributionOnly and Late are credited (the host raises
// player_damage for them); Held is not final; every other verdict discards the report.
const (
	// ReportApplied: credited in the client's order; it touched the ledger.
	ReportApplied ReportVerdict = iota + 1 // applied
	// ReportAttributionOnly: credited, but it echoes a revision older than an unsettled
	// command that an item after it in the client's order already echoed, so it did not
	// touch the ledger (and confirms nothing to the god-mode detector).
	ReportAttributionOnly // attribution_only
	// ReportLate: credited after its place in the client's order was passed by a frame (or
	// a later report) that counted without it: it paid its floor, nothing else.
	ReportLate // late
	// ReportHeld: waiting for an earlier report; its final verdict comes in a later call.
	ReportHeld // held
	// ReportDuplicate: a report with this number was already taken.
	ReportDuplicate // duplicate
	// ReportStale: older than the window the server remembers.
	ReportStale // stale
	// ReportTooFarAhead: more than ReportWindow numbers ahead of the client's order.
	ReportTooFarAhead // too_far_ahead
	// ReportPreviousLife: numbered before the first frame of the current life.
	ReportPreviousLife // previous_life
	// ReportFutureRevision: echoes a health revision never sent.
	ReportFutureRevision // future_revision
	// ReportUncorrelated: a hit not matched with an action the server accepted.
	ReportUncorrelated // uncorrelated
	// ReportTeammate: attacker and victim are or were teammates.
	ReportTeammate // teammate
	// ReportZeroMultiplier: the class multiplier the client may be applying is 0.
	ReportZeroMultiplier // zero_multiplier
	// ReportNotAlive: no life to apply it to.
	ReportNotAlive // not_alive
)

// Credited reports whether the verdict credits the report (attribution, player_damage).
func (v ReportVerdict) Credited() bool {
	return v == ReportApplied || v == ReportAttributionOnly || v == ReportLate
}

// Outcome is the final verdict of one report and what it did: the host raises
// player_damage for a credited outcome (Attacker, Weapon, BodyPart, Claimed).
type Outcome struct {
	Seq      uint16        // the report's number
	Verdict  ReportVerdict // its final verdict
	Source   Source        // what the host established it to be
	Attacker PlayerID      // the credited attacker (NoPlayer for none)
	Weapon   uint8         // the cause
	BodyPart uint8         // the body part (no effect on the ledger)
	// Claimed is the loss the victim claimed.
	Claimed float32
	// Floor is the floor of the hit (0 for sources without one).
	Floor float32
	// Deducted is what this report took from the ledger in this call, as of the revision
	// it echoed (a set the client took after it may have given it back).
	Deducted Vitals
}

// String formats the outcome deterministically, for logs and scenario tests.
func (o Outcome) String() string {
	return "report " + strconv.Itoa(int(o.Seq)) + " " + o.Verdict.String() + " " +
		o.Source.String() + " by " + strconv.Itoa(int(o.Attacker)) +
		" deducted " + o.Deducted.String()
}

// DeathReason is why vitals counted a life dead.
type DeathReason uint8

// The reasons of a counted death.
const (
	// DeathByReport: a credited report took the ledger's health to 0.
	DeathByReport DeathReason = iota + 1 // report
	// DeathByFrame: a frame took the ledger's health to 0.
	DeathByFrame // frame
	// DeathByCommand: set_health(0).
	DeathByCommand // command
	// DeathByVehicleExplosion: an accepted explosion of the vehicle the player sat in.
	DeathByVehicleExplosion // vehicle_explosion
	// DeathByStealthKill: an accepted stealth kill.
	DeathByStealthKill // stealth_kill
)

// Death is a life counted dead by the server: what lifecycle needs to wait for the victim's
// DeathReport and to commit the death itself when it does not come. The deadline (2 x RTT
// + 1 s, RTT up to 1 s, +10 s for a stealth kill, the earlier of two) is lifecycle's.
type Death struct {
	// At is the moment the server counted the death: the deadline starts here.
	At time.Duration
	// Killer is the attacker of the last credited damage (NoPlayer for none). Reports
	// between teammates are never credited; a team change after the damage is the host's
	// to apply at commit time (see Player.Killer).
	Killer PlayerID
	// Weapon is the cause: the weapon of the report, explosion or stealth kill that
	// counted the death, or of the last damage for a frame.
	Weapon uint8
	// Reason is how the death was counted.
	Reason DeathReason
	// Stealth is true for a stealth kill: its paired animation may take 10 s to start.
	Stealth bool
}

// String formats the death deterministically.
func (d Death) String() string {
	s := "death by " + d.Reason.String() + " at " + d.At.String() + " killer " +
		strconv.Itoa(int(d.Killer)) + " weapon " + strconv.Itoa(int(d.Weapon))
	if d.Stealth {
		s += " stealth"
	}
	return s
}

// LastDamage is the last credited damage of the current life.
type LastDamage struct {
	Attacker PlayerID      // the attacker, NoPlayer for the environment
	Weapon   uint8         // the cause
	At       time.Duration // when the server credited it
	// Seq is the report number, or the place in the client's order for an explosion or a
	// stealth kill.
	Seq uint16
	// Valid is false until the life has credited damage.
	Valid bool
}

// Suspicion is the state of the god-mode suspicion detector ([god-mode-detector], in
// doc.go).
type Suspicion struct {
	// Raised is true in the call where the victim first met the condition (edge-triggered;
	// it re-arms once the condition stops holding).
	Raised bool
	// Claimed is the expected loss of the matured hit claims in the window.
	Claimed float32
	// Felt is what the ledger lost in the window (frames and reports).
	Felt float32
	// Hits is the number of matured hit claims in the window.
	Hits int
	// Confirmed is the number of correlated hit reports credited in the window that touched
	// the ledger (applied or late; never one that gave attribution only).
	Confirmed int
}

// Effects is what one call did and what the host must carry out.
type Effects struct {
	// Reports lists the reports taken into the client's order that reached their final
	// verdict in this call: the call's own report when it was decided at once, and held
	// reports credited or discarded now. A report refused on arrival shows only in
	// ReportResult.Verdict. Raise player_damage for each Outcome whose Verdict.Credited().
	// It refers to the player's buffer: valid until the next call.
	Reports []Outcome
	// Ledger is the ledger after the call: what the relay shows as the player's health.
	Ledger Vitals
	// Death says how the life was counted dead when Died is set.
	Death Death
	// GodModeExcess is the largest flagged excess above the ledger in this call.
	GodModeExcess float32
	// FramesCounted is how many frames were taken in order in this call.
	FramesCounted uint16
	// GodMode is true when a frame's raise was cut and flagged in this call.
	GodMode bool
	// Died is true when this call counted the life dead.
	Died bool
}

// FrameResult is the verdict of a frame and the effects of the call.
type FrameResult struct {
	Verdict FrameVerdict // what happened to the frame
	Effects
}

// ReportResult is the verdict of a report (ReportHeld until it is final) and the effects
// of the call.
type ReportResult struct {
	Verdict ReportVerdict // the report's verdict, ReportHeld until it is final
	Effects
}

// CommandKind is the kind of a health or armor command.
type CommandKind uint8

// The command kinds.
const (
	// CommandSetHealth: SetHealth, absolute.
	CommandSetHealth CommandKind = iota + 1 // set_health
	// CommandSetArmor: SetArmor, absolute.
	CommandSetArmor // set_armor
	// CommandAddHealth: GiveHealth, add up to a max, never lower.
	CommandAddHealth // add_health
	// CommandAddArmor: GiveArmor, add up to a max, never lower.
	CommandAddArmor // add_armor
)

// Command is a health or armor command the host sends on the reliable lane.
type Command struct {
	// Kind is the command.
	Kind CommandKind
	// Rev is the connection's health revision this command carries.
	Rev uint16
	// Value is the absolute value of a set, the amount of an add.
	Value float32
	// Max is the ceiling of an add (0 for a set).
	Max float32
	// Critical is true for the SetHealth(0) of a death commit: never dropped, and the
	// respawn waits for its acknowledgement.
	Critical bool
}

// String formats the command deterministically.
func (c Command) String() string {
	s := c.Kind.String() + " rev " + strconv.Itoa(int(c.Rev)) + " value " +
		strconv.FormatFloat(float64(c.Value), 'f', -1, 32)
	if c.Kind == CommandAddHealth || c.Kind == CommandAddArmor {
		s += " max " + strconv.FormatFloat(float64(c.Max), 'f', -1, 32)
	}
	if c.Critical {
		s += " critical"
	}
	return s
}

// CommandResult is a command to send and, for set_health(0), the death it counted.
type CommandResult struct {
	// Command is what the host sends.
	Command Command
	// Ledger is the ledger once the command is sent.
	Ledger Vitals
	// Died is true when the command counted the life dead.
	Died bool
	// Death says how, when Died is set.
	Death Death
}

// StealthKill is an accepted stealth kill of this player.
type StealthKill struct {
	Killer PlayerID // the killer
	Weapon uint8    // the knife or the weapon of the kill
	// Teammate is true when killer and victim are teammates: then it is refused.
	Teammate bool
}

// VehicleExplosion is an accepted explosion (VehicleExplode) of a vehicle this player sat in.
type VehicleExplosion struct {
	// Killer is the explosion's credited killer, NoPlayer when it has none.
	Killer PlayerID
	// Teammate is true when the killer is this occupant's teammate while friendly fire is
	// off: its client refuses the damage, the server does not count the death.
	Teammate bool
}
