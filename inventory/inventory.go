package inventory

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"time"
)

// Durations and rates of the store's own rules.
const (
	// SkillChangeGrace is how long after a skill change the damage floor takes the
	// lower of the tiers held ([skill-tier-grace]): a shot fired before the
	// client applied the change may still arrive.
	SkillChangeGrace = 5 * time.Second
	// CreditHold is how long rounds a frame has already counted wait for their shots.
	// A frame that shows a lower total than the store may include shots still in
	// flight (a datagram sent just before the frame can arrive just after it); those
	// shots are then paid by the frame, not spent a second time. Reordering between
	// two datagrams of one link is bounded by the link's delay variation, far below
	// this hold.
	CreditHold = 2 * time.Second
	// DisplacedGrace is how long after the client echoed an overwriting command (take,
	// clear, set ammo, a give that replaces a weapon or reaches the cap) blows and
	// projectiles of the weapon it overwrote are still accepted without spending from
	// the new count: they were dealt or thrown before the client applied the command. A
	// blow reaches the server through its victim's link, and a projectile whose launch
	// was lost is judged at its detonation, a fuse later.
	DisplacedGrace = 3 * time.Second
	// DisplacedShotGrace is the same for shots: a shot fired before the client applied
	// the command was sent before the frame that echoes it, on the same link, so it
	// arrives at most the link's delay variation after that frame. Old shots and
	// projectiles of an overwritten weapon are also bounded by the rounds it had when it
	// was overwritten (see Inventory.displace): no grace fires more than the player had.
	DisplacedShotGrace = 500 * time.Millisecond
	// SettleTimeout is how long after an overwriting command the same holds for blows
	// and projectiles when the client never echoes the command (the reliable lane gives
	// up on a connection after 15 s, so an honest client has applied it by then). Old
	// shots end much earlier, at the player's round trip plus OverwriteShotMargin, and
	// never later than this.
	SettleTimeout = 15 * time.Second
	// OverwriteShotMargin is what the window of an overwritten weapon's old shots adds
	// to the player's round trip (see Inventory.SetRTT): a shot the client fired before
	// the command reached it leaves the server no later than the command's queueing plus
	// one round trip, plus the server's and the client's flush (a tick each), the
	// jitter of both ways beyond what the measured estimate holds, and 250 ms for each
	// transmission of the command the network lost (the reliable lane sends it again
	// every 250 ms; a message queued behind a lost one waits for its retransmission the
	// same way). Measured in the simulated match at 400 ms RTT, 30 ms jitter and 5 %
	// loss (examples/match, TestOldShotsOfTakenGunsArriveWithinTheWindow with
	// -match.soak, seeds 11..13: about 65 000 commands taking a gun that was firing,
	// 191 000 old shots): the latest honest old shot arrived 696 ms after the command
	// plus the measured RTT (each lost transmission adds 250 ms, so that is two or
	// three of them); the default matches at 400 ms, seeds 1..4, saw at most 212 ms.
	// 900 ms covers three lost transmissions in a row with some 150 ms to spare; four
	// (about one command in 160 000 at 5 % loss) can make an old shot late.
	OverwriteShotMargin = 900 * time.Millisecond
	// UnmeasuredRTT is the round trip the store assumes while the host has measured none
	// (SetRTT with measured false): two and a half times the 400 ms the project promises
	// to serve without wronging anyone.
	UnmeasuredRTT = time.Second
	// RTTLimit is the largest round trip the window of old shots takes from the host: a
	// larger estimate (a link far slower than the project promises to serve, or a client
	// that holds back its pongs to look slower) counts as RTTLimit. So no client keeps a
	// taken weapon firing longer than RTTLimit + OverwriteShotMargin after the command.
	RTTLimit = time.Second
	// ContinuousSpendRate is the number of rounds per second the server spends itself
	// while frames show a continuous weapon's fire held. The game spends several times
	// more; the point is that a frozen counter still runs dry.
	ContinuousSpendRate = 10
	// ContinuousSpendPeriod is the fire time one round stands for.
	ContinuousSpendPeriod = time.Second / ContinuousSpendRate
	// MaxFireGap is the most fire time counted between a frame that shows the clip of a
	// held continuous weapon empty (a reload: it sprays nothing) and the next frame with
	// the fire held: the server cannot tell when in that gap the reload ended. Between
	// two frames that both show the fire held with rounds in the clip the whole time is
	// counted, however far apart they are.
	MaxFireGap = 100 * time.Millisecond
)

// Geometry limits.
const (
	// RangeSlack is added to a weapon's Range before a shot's ray is refused: float
	// rounding of the end point of a shot that missed at full range, and the +2 m the
	// range data's source (weapon-config) allows between two players.
	RangeSlack float32 = 2
	// MeleeRange is the largest distance between attacker and victim of an accepted
	// blow (vitals' [sources-of-damage]: 6 m). Positions are a frame old on both
	// sides, so this is much more than a weapon's reach.
	MeleeRange float32 = 6
)

// noTime is the rate check's "never fired": far in the past of any host clock.
const noTime = time.Duration(math.MinInt64 / 4)

// slotState is one of the 13 slots.
type slotState struct {
	weapon uint8
	total  uint16
	clip   uint16
	// credit counts rounds a frame already took from total for shots that may still
	// arrive; valid while the clock is before creditUntil.
	credit      uint16
	creditUntil time.Duration
}

// skillState is one skill stat of the player.
type skillState struct {
	tier Tier
	// graceTiers is the set (bit per Tier) of tiers held within SkillChangeGrace
	// before graceUntil, the current one included.
	graceTiers uint8
	graceUntil time.Duration
}

// Slot is the readback of one weapon slot. Weapon 0 with Total 0 is an empty slot
// (in slot 0: the bare fists).
type Slot struct {
	// Weapon is the weapon in the slot (0: empty).
	Weapon uint8
	// Total is the weapon's total ammo.
	Total uint16
	// Clip is the part of Total in the clip.
	Clip uint16
}

// String returns "weapon 31 total 80 clip 30".
func (s Slot) String() string {
	return "weapon " + strconv.Itoa(int(s.Weapon)) + " total " + strconv.Itoa(int(s.Total)) +
		" clip " + strconv.Itoa(int(s.Clip))
}

// Inventory is one player's server-owned weapon store: 13 slots of {weapon, total,
// clip}, the held weapon, the inventory revision, the skill tiers, and the state of
// the rate checks. Only the command methods (Give, Take, SetAmmo, Clear, SetArmed) add
// to it; frames, shots and projectiles only take from it.
//
// An Inventory is not safe for concurrent use: it belongs to its world's goroutine.
type Inventory struct {
	// What every Frame reads comes first, the held slot's state among it, in one cache
	// line (a server of many players reads each store from memory at every frame: the
	// fewer lines, the fewer misses; TestHotFieldsShareALine keeps them there). A store
	// is 1072 bytes, in the allocator's 1152-byte size class, whose objects start 8 bytes
	// after a 64-byte boundary (the allocator's header of an object this large that holds
	// pointers): the first line is the struct's first 56 bytes, the next ones start at
	// 56, 120, ... The skills' slice a shot reads opens the second line, and each slot of
	// slots sits in one line. The rest comes after the slots.
	cat    *Catalog
	rev    uint16
	active int8 // slot of the held weapon: its state is held, not slots[active]

	lifeSet bool
	life    uint16

	fireWeapon uint8 // continuous weapon of the current press, 0 for none (then fireAcc is 0 and fireEmpty false)
	fireEmpty  bool  // the last frame of the press showed the clip empty

	// Overwritten weapons whose old shots may still arrive (bit per weapon id).
	displaced uint64

	// held is the state of slot active; slots[active] stays zero meanwhile (slot and
	// setActive keep the two apart).
	held slotState

	fireLast time.Duration
	fireAcc  time.Duration

	skills []skillState // by the catalogue's skill index: one per skill stat it has

	displacedEcho uint64 // bits of displaced whose command the client has echoed

	slots [NumSlots]slotState

	displacedLoaded uint64 // bits of displaced: weapons that had rounds when overwritten

	// old is what the store keeps of its overwritten weapons, made at the first overwrite
	// (most stores never have one): every use of it follows a bit of displaced.
	old *displacedState

	// rtt is the host's round-trip estimate (SetRTT), capped at RTTLimit; UnmeasuredRTT
	// while none is measured.
	rtt time.Duration

	shotTAT  [NumWeapons]time.Duration // theoretical arrival time of the next shot
	meleeTAT [NumWeapons]time.Duration
}

// slot is the state of slot sl (0 to NumSlots-1): held for the held one.
func (inv *Inventory) slot(sl int8) *slotState {
	if sl == inv.active {
		return &inv.held
	}
	return &inv.slots[sl]
}

// setActive makes slot sl the held one, moving its state into held and the previous held
// slot's back into slots. A pointer from slot to either is stale after it.
func (inv *Inventory) setActive(sl int8) {
	if sl == inv.active {
		return
	}
	inv.slots[inv.active] = inv.held
	inv.held = inv.slots[sl]
	inv.slots[sl] = slotState{}
	inv.active = sl
}

// displacedState is what a store keeps of its overwritten weapons.
type displacedState struct {
	rev   [NumWeapons]uint16
	until [NumWeapons]time.Duration
	// shotUntil ends the grace of old shots (DisplacedShotGrace after the echo); rounds is
	// what the overwritten weapon still had: the most old shots the server accepts without
	// spending from the new store.
	shotUntil [NumWeapons]time.Duration
	rounds    [NumWeapons]uint16
	// pool is rounds for the weapons of a slot that pools its ammo: one stock per slot,
	// whichever of its weapons fired from it.
	pool [NumSlots]uint16
}

// Reset makes the store that of a new connection: empty, fists held, revision 0, skill
// tiers poor, no rate history. Use it to reuse an Inventory for a new player.
func (inv *Inventory) Reset() {
	cat, skills, old := inv.cat, inv.skills, inv.old
	if len(skills) != cat.nSkills {
		skills = make([]skillState, cat.nSkills)
	}
	clear(skills)
	if old != nil {
		*old = displacedState{}
	}
	*inv = Inventory{cat: cat, rtt: UnmeasuredRTT, skills: skills, old: old}
	inv.resetCombat()
}

// SetRTT tells the store the host's estimate of the player's round-trip time, and
// whether it has one (measured false: none yet, UnmeasuredRTT is assumed; an estimate
// above RTTLimit counts as RTTLimit). Call it before each overwriting command (take,
// clear, set ammo, a give that replaces a weapon or reaches the cap), or whenever the
// estimate moves: the command takes the estimate of its moment. Old shots of the weapon
// it overwrote are accepted for rtt + OverwriteShotMargin after it, and no longer: a
// shot the client fired before the command reached it cannot honestly arrive later,
// whatever the client acknowledges or echoes. A new connection (NewInventory, Reset)
// starts unmeasured; RespawnGrant keeps the estimate. SetRTT never allocates.
func (inv *Inventory) SetRTT(rtt time.Duration, measured bool) {
	if !measured {
		rtt = UnmeasuredRTT
	}
	inv.rtt = min(max(rtt, 0), RTTLimit)
}

// shotWindow is how long after an overwriting command queued now old shots of the weapon
// it overwrote may still arrive.
func (inv *Inventory) shotWindow() time.Duration {
	return min(inv.rtt+OverwriteShotMargin, SettleTimeout)
}

// resetCombat forgets the rate checks, the continuous fire and the overwritten weapons.
func (inv *Inventory) resetCombat() {
	for i := range inv.shotTAT {
		inv.shotTAT[i] = noTime
		inv.meleeTAT[i] = noTime
	}
	inv.displaced, inv.displacedEcho, inv.displacedLoaded = 0, 0, 0
	inv.fireWeapon, inv.fireAcc, inv.fireEmpty = 0, 0, false
}

// Catalog returns the catalogue the store was made from.
func (inv *Inventory) Catalog() *Catalog { return inv.cat }

// Rev returns the revision of the last command queued for the player.
func (inv *Inventory) Rev() uint16 { return inv.rev }

// Held returns the held weapon (0: fists).
func (inv *Inventory) Held() uint8 { return inv.held.weapon }

// Slots returns the readback of the 13 slots.
func (inv *Inventory) Slots() [NumSlots]Slot {
	var out [NumSlots]Slot
	for i := range int8(NumSlots) {
		s := inv.slot(i)
		out[i] = Slot{Weapon: s.weapon, Total: s.total, Clip: s.clip}
	}
	return out
}

// Owns reports whether weapon is in the store (the fists always are).
func (inv *Inventory) Owns(weapon uint8) bool {
	if weapon == Fists {
		return true
	}
	return inv.slotOf(weapon) != nil
}

// Ammo returns the stored total of weapon, and whether the store holds it.
func (inv *Inventory) Ammo(weapon uint8) (uint16, bool) {
	s := inv.slotOf(weapon)
	if s == nil {
		return 0, false
	}
	return s.total, true
}

// slotOf returns the slot holding weapon, or nil (also for the fists and ids that are
// no weapon).
func (inv *Inventory) slotOf(weapon uint8) *slotState {
	if weapon == Fists || int(weapon) >= NumWeapons {
		return nil
	}
	sl := inv.cat.slot[weapon]
	if sl < 0 {
		return nil
	}
	if s := inv.slot(sl); s.weapon == weapon {
		return s
	}
	return nil
}

// creditAt returns the slot's valid credit at now.
func (s *slotState) creditAt(now time.Duration) uint16 {
	if now >= s.creditUntil {
		return 0
	}
	return s.credit
}

// spend takes n rounds: first from the credit (rounds a frame already counted), then
// from the total. It reports how many came from each.
func (s *slotState) spend(now time.Duration, n uint16) (fromCredit, fromTotal uint16) {
	c := s.creditAt(now)
	fromCredit = min(c, n)
	s.credit = c - fromCredit
	fromTotal = min(s.total, n-fromCredit)
	s.total -= fromTotal
	s.clip = min(s.clip, s.total)
	return fromCredit, fromTotal
}

// usable reports whether the slot's weapon can be used now: a weapon that needs no
// ammo always, any other with rounds in the store or counted by a frame.
func (inv *Inventory) usable(now time.Duration, s *slotState) bool {
	return !inv.cat.kind[s.weapon].needsAmmo() || s.total > 0 || s.creditAt(now) > 0
}

// displace records that the command with revision rev overwrites the weapon of slot s,
// which the client may still be using until it applies the command: its shots and blows
// are then accepted without spending from the new count (see DisplacedGrace and
// shotWindow). A blow needs only the weapon (a gun butt works with an empty gun); a shot
// or a projectile also needs rounds, so displacedLoaded remembers whether the weapon had
// any.
//
// discard tells whether the command throws the weapon's rounds away (take, clear, set
// ammo, a give that replaces a weapon of a slot that does not pool, a give that reaches
// the cap): they become the stock its old shots spend from (oldRounds). A give into a
// slot that pools its ammo carries them over instead, so the replaced weapon's old
// shots spend from the slot's new total (poolOf), once.
func (inv *Inventory) displace(now time.Duration, s *slotState, rev uint16, discard bool) {
	w := s.weapon
	if w == Fists {
		return
	}
	bit := uint64(1) << w
	if inv.old == nil {
		inv.old = new(displacedState)
	}
	// The old shots may spend what an earlier overwrite left while its own shots may
	// still come (a client that had not applied that one yet fires from its supply);
	// a stock no protected weapon shares any more is gone.
	stock := inv.oldRounds(w)
	if !inv.stockOpen(now, w) {
		*stock = 0
	}
	if discard && inv.cat.kind[w].needsAmmo() {
		// And what the weapon had now.
		*stock = satAdd(*stock, satAdd(s.total, s.creditAt(now)))
	}
	loaded := inv.usable(now, s) || inv.isDisplaced(now, w) && inv.displacedLoaded&bit != 0
	inv.displaced |= bit
	inv.displacedEcho &^= bit
	inv.displacedLoaded &^= bit
	if loaded {
		inv.displacedLoaded |= bit
	}
	inv.old.rev[w] = rev
	inv.old.until[w] = now + SettleTimeout
	inv.old.shotUntil[w] = now + inv.shotWindow()
}

// pooled reports whether weapon's slot pools the ammo of its weapons.
func (inv *Inventory) pooled(weapon uint8) bool { return inv.cat.current()[weapon].Pooled }

// oldRounds is the stock the old shots of an overwritten weapon spend from: its own, or
// its slot's when the slot pools its ammo (any weapon of the slot fired from one supply).
func (inv *Inventory) oldRounds(weapon uint8) *uint16 {
	if inv.pooled(weapon) {
		return &inv.old.pool[inv.cat.slot[weapon]]
	}
	return &inv.old.rounds[weapon]
}

// stockOpen reports whether weapon's stock of old rounds may still be spent at now: some
// overwritten weapon that had rounds and shares the stock is still protected.
func (inv *Inventory) stockOpen(now time.Duration, weapon uint8) bool {
	if !inv.pooled(weapon) {
		return inv.isDisplaced(now, weapon) && inv.displacedLoaded&(1<<weapon) != 0
	}
	sl := inv.cat.slot[weapon]
	for m := inv.displaced & inv.displacedLoaded; m != 0; m &= m - 1 {
		x := uint8(bits.TrailingZeros64(m))
		if inv.cat.slot[x] == sl && inv.isDisplaced(now, x) {
			return true
		}
	}
	return false
}

// poolOf returns the slot whose total a weapon of a pooled slot shares: its slot, if it
// holds any weapon (the one a give carried the rounds over to); nil for a weapon of a
// slot that does not pool.
func (inv *Inventory) poolOf(weapon uint8) *slotState {
	if !inv.pooled(weapon) {
		return nil
	}
	s := inv.slot(inv.cat.slot[weapon])
	if s.weapon == Fists {
		return nil
	}
	return s
}

// isDisplaced reports whether weapon's old blows may still arrive at now.
func (inv *Inventory) isDisplaced(now time.Duration, weapon uint8) bool {
	return int(weapon) < NumWeapons && inv.displaced&(1<<weapon) != 0 && now < inv.old.until[weapon]
}

// inShotWindow reports whether weapon's old shots (and its continuous fire from before
// the command) may still arrive at now.
func (inv *Inventory) inShotWindow(now time.Duration, weapon uint8) bool {
	return inv.isDisplaced(now, weapon) && now < inv.old.shotUntil[weapon]
}

// isDisplacedLoaded reports whether weapon's old shots (it had rounds) may still arrive
// and be paid: within the shot window (the round trip plus OverwriteShotMargin after the
// command, DisplacedShotGrace after its echo) for a shot, DisplacedGrace after the echo
// for a projectile (a host may judge a projectile whose launch was lost at its
// detonation, a fuse later); and rounds left, in its stock of old rounds or, in a pooled
// slot, in the total the rounds were carried over to.
func (inv *Inventory) isDisplacedLoaded(now time.Duration, weapon uint8, shot bool) bool {
	if !inv.isDisplaced(now, weapon) || inv.displacedLoaded&(1<<weapon) == 0 {
		return false
	}
	if shot && now >= inv.old.shotUntil[weapon] {
		return false
	}
	if !inv.cat.kind[weapon].needsAmmo() || *inv.oldRounds(weapon) > 0 {
		return true
	}
	if ps := inv.poolOf(weapon); ps != nil {
		return inv.usable(now, ps)
	}
	return false
}

// pruneDisplaced forgets overwritten weapons whose time is up.
func (inv *Inventory) pruneDisplaced(now time.Duration) {
	for m := inv.displaced; m != 0; m &= m - 1 {
		w := bits.TrailingZeros64(m)
		if now >= inv.old.until[w] {
			inv.displaced &^= 1 << w
			inv.displacedEcho &^= 1 << w
			inv.displacedLoaded &^= 1 << w
		}
	}
}

// RespawnGrant clears the store for the life the grant starts, without a revision
// bump: the client clears its own store on the revival the grant triggers, and the
// reliable lane delivers everything queued before the grant before it and everything
// queued after it after it, so both sides keep one order. Call it when the grant's
// RespawnPlayer is queued, before any command for the new life.
//
// A grant repeated for the same generation (a lost RespawnPlayer sent again) clears
// nothing: a give queued after the first grant must survive. RespawnGrant reports
// whether it cleared. The revision, the skill tiers and the properties stay.
func (inv *Inventory) RespawnGrant(generation uint16) bool {
	if inv.lifeSet && inv.life == generation {
		return false
	}
	inv.lifeSet, inv.life = true, generation
	inv.slots = [NumSlots]slotState{}
	inv.held, inv.active = slotState{}, 0
	inv.resetCombat()
	return true
}

// SetSkillTier sets the server-authoritative tier of a skill stat (the host sends the
// skill to the client itself). Every weapon of the stat fires at the tier (Uzi and
// Tec-9 share one). For SkillChangeGrace after a change the damage floor takes the
// lowest tier held in that time. Errors: ErrUnknownSkill, ErrBadTier.
func (inv *Inventory) SetSkillTier(now time.Duration, stat SkillStat, tier Tier) error {
	i := inv.cat.skillIndex(stat)
	if i < 0 {
		return fmt.Errorf("%w: %v", ErrUnknownSkill, stat)
	}
	if tier >= NumTiers {
		return ErrBadTier
	}
	s := &inv.skills[i]
	if s.tier == tier {
		return nil
	}
	held := uint8(1)<<s.tier | uint8(1)<<tier
	if now < s.graceUntil {
		held |= s.graceTiers
	}
	s.tier, s.graceTiers, s.graceUntil = tier, held, now+SkillChangeGrace
	return nil
}

// SetWeaponSkillTier is SetSkillTier for the stat of weapon.
// Errors: ErrUnknownWeapon, ErrNoSkill, ErrBadTier.
func (inv *Inventory) SetWeaponSkillTier(now time.Duration, weapon uint8, tier Tier) error {
	if err := inv.cat.checkWeapon(weapon); err != nil {
		return err
	}
	stat := inv.cat.SkillOf(weapon)
	if stat == NoSkill {
		return fmt.Errorf("%w: weapon %d", ErrNoSkill, weapon)
	}
	return inv.SetSkillTier(now, stat, tier)
}

// SkillTier returns the tier weapon fires at now: its stat's tier, TierStd for a
// weapon without tiers.
func (inv *Inventory) SkillTier(weapon uint8) Tier {
	if int(weapon) >= NumWeapons || inv.cat.skillIdx[weapon] < 0 {
		return TierStd
	}
	return inv.skills[inv.cat.skillIdx[weapon]].tier
}

// floorTiers returns the set of tiers (bit per Tier) weapon may have fired at now.
func (inv *Inventory) floorTiers(now time.Duration, weapon uint8) uint8 {
	if int(weapon) >= NumWeapons || inv.cat.skillIdx[weapon] < 0 {
		return 1 << TierStd
	}
	s := &inv.skills[inv.cat.skillIdx[weapon]]
	if now < s.graceUntil {
		return s.graceTiers
	}
	return 1 << s.tier
}

// FloorTier returns the tier the damage floor of weapon uses at now: the current tier,
// or within SkillChangeGrace of a change the lowest tier held in that time. A weapon
// without tiers is TierStd.
//
// Rules: [skill-tier-grace].
func (inv *Inventory) FloorTier(now time.Duration, weapon uint8) Tier {
	return Tier(bits.TrailingZeros8(inv.floorTiers(now, weapon)))
}

// FloorDamage returns the raw damage the floor of a hit by weapon is computed from,
// for a shot that named properties revision propsRev: the smallest damage among the
// tiers the shooter may have fired at (FloorTier's set), and that tier.
// Errors: as Catalog.Damage.
//
// Rules: [skill-tier-grace].
func (inv *Inventory) FloorDamage(now time.Duration, propsRev uint16, weapon uint8) (float32, Tier, error) {
	if err := inv.cat.checkWeapon(weapon); err != nil {
		return 0, 0, err
	}
	t, err := inv.cat.lookup(propsRev)
	if err != nil {
		return 0, 0, err
	}
	w := &t[weapon]
	if !w.HasDamage {
		return 0, 0, fmt.Errorf("%w: weapon %d", ErrNoDamage, weapon)
	}
	d, tier := floorOf(w, inv.floorTiers(now, weapon))
	return d, tier, nil
}

// floorOf returns the smallest damage of w among the tiers in set.
func floorOf(w *Weapon, set uint8) (float32, Tier) {
	best, bestTier := float32(math.MaxFloat32), TierStd
	for t := range Tier(NumTiers) {
		if set&(1<<t) != 0 && w.Damage[t] < best {
			best, bestTier = w.Damage[t], t
		}
	}
	return best, bestTier
}
