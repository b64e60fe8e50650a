package inventory

import (
	"fmt"
	"math/bits"
	"strconv"
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
)

// Frame is what the owner's PlayerSync frame says about its weapons.
type Frame struct {
	// WeaponRev is the echo of the last weapon command the client applied.
	WeaponRev uint16
	// Weapon is the held weapon.
	Weapon uint8
	// Clip and Total are the held weapon's ammo.
	Clip, Total uint16
	// FireHeld: the frame shows the fire key held (the host reads it from the keys).
	// Only a held continuous weapon makes use of it.
	FireHeld bool
}

//go:generate go tool stringer -type=FrameVerdict -linecomment

// FrameVerdict is what Inventory.Frame did with a frame.
type FrameVerdict uint8

// The verdicts of a frame.
const (
	// FrameMerged: the frame echoed the current revision; its held weapon (in the store)
	// became the held one, the held total fell to min(observed, stored) and the clip
	// followed under the total.
	FrameMerged FrameVerdict = iota + 1 // merged
	// FrameHeldNotInStore: the frame echoed the current revision but holds a weapon the
	// store does not have (an observation cannot add a weapon); nothing merged.
	FrameHeldNotInStore // held weapon not in the store
	// FrameUnknownWeapon: the frame holds an id that is no weapon of the catalogue;
	// nothing merged.
	FrameUnknownWeapon // unknown weapon
	// FrameStaleRevision: the frame echoes an older revision than the last command
	// queued (a command is in flight, or the client failed to apply one); it is not
	// used for reconciliation.
	FrameStaleRevision // stale weapon revision
	// FrameFutureRevision: the frame echoes a revision that was never sent; it is not
	// used for reconciliation.
	FrameFutureRevision // future weapon revision
)

// FrameResult is the outcome of Inventory.Frame.
type FrameResult struct {
	// Verdict is what the merge did.
	Verdict FrameVerdict
	// FireSpent is the number of rounds of a continuous weapon the server spent itself
	// for the fire held up to this frame (from the store or from rounds a frame already
	// counted).
	FireSpent uint16
}

// String returns "merged" or "merged, fire spent 2".
func (r FrameResult) String() string {
	if r.FireSpent == 0 {
		return r.Verdict.String()
	}
	return r.Verdict.String() + ", fire spent " + strconv.Itoa(int(r.FireSpent))
}

// Touch reads the line of the store Frame reads and returns a word of it; it changes
// nothing (see vitals.Player.Touch): the store's first line, with the catalogue, the
// revision, the overwritten weapons and the held slot's state, all that a frame holding
// the held weapon reads of the store unless a continuous weapon fires.
func (inv *Inventory) Touch() uint64 {
	return uint64(inv.rev) ^ uint64(inv.held.total)
}

// Frame takes the weapons part of an owner frame of the current life (the host passes
// only frames lifecycle accepts as the current life's; a frame of a dead player in that
// life is fine). now is the arrival time. It never allocates. In order:
//
//  1. The echo settles overwriting commands: once the client echoes a command that
//     overwrote a weapon, old shots of that weapon are accepted for DisplacedShotGrace
//     more (at most until the round trip's window ends), its blows and projectiles for
//     DisplacedGrace.
//  2. Continuous fire: while consecutive frames show the same continuous weapon held
//     with fire held, the server spends ContinuousSpendRate rounds per second of the
//     whole time between them from the store, however far apart they come. The first
//     frame of a press, the last fraction of a round, and the time up to a frame
//     showing an empty clip (the weapon reloads and sprays nothing) are free, and the
//     gap after such a frame counts at most MaxFireGap. This runs whatever the frame
//     echoes, so a client cannot escape it by never echoing; it skips a weapon whose
//     overwriting command may still be in flight (the window of its old shots).
//  3. The revision gate: only a frame echoing exactly the current revision (equality,
//     across the 16-bit wrap) is merged: the held weapon moves only within the store,
//     the held total only down (min(observed, stored)), the clip freely under the total.
//     Rounds the frame took from the total are kept for CreditHold as credit, so shots
//     the frame already counted do not cost them a second time when they arrive after it.
//
// Rules: [inventory-only-falls], [weapon-revision], [server-spends-continuous], [never-below-client].
func (inv *Inventory) Frame(now time.Duration, f Frame) FrameResult {
	future := revision.Newer(f.WeaponRev, inv.rev)
	if inv.displaced != 0 {
		if !future {
			inv.settleDisplaced(now, f.WeaponRev)
		}
		inv.pruneDisplaced(now)
	}
	res := FrameResult{FireSpent: inv.continuousFire(now, f)}

	switch {
	case future:
		res.Verdict = FrameFutureRevision
		return res
	case f.WeaponRev != inv.rev:
		res.Verdict = FrameStaleRevision
		return res
	case int(f.Weapon) >= NumWeapons || inv.cat.kind[f.Weapon] == KindNone:
		res.Verdict = FrameUnknownWeapon
		return res
	case f.Weapon == Fists:
		inv.setActive(0)
		res.Verdict = FrameMerged
		return res
	}
	s := inv.slotOf(f.Weapon)
	if s == nil {
		res.Verdict = FrameHeldNotInStore
		return res
	}
	if sl := inv.cat.slot[f.Weapon]; sl != inv.active {
		inv.setActive(sl)
		s = &inv.held // setActive moved the slot's state there
	}
	if f.Total < s.total {
		drop := s.total - f.Total
		s.credit = satAdd(s.creditAt(now), drop)
		s.creditUntil = now + CreditHold
		s.total = f.Total
	}
	s.clip = min(f.Clip, s.total)
	res.Verdict = FrameMerged
	return res
}

// Acknowledged tells the store that the client's reliable lane acknowledged the command
// of revision rev at now (the host learns it from its lane, as for vitals). An honest
// client applies a command when it is delivered, so the acknowledgement settles the
// weapons that command (and any before it) overwrote just as the echo of rev in a frame
// does: their old shots are accepted for DisplacedShotGrace more (if the round trip's
// window is not over first), their old blows and projectiles for DisplacedGrace. A
// client that acknowledges its commands but never echoes them gets no longer than that
// for its blows and projectiles, instead of SettleTimeout; a client that does neither
// still gets no more than the round trip's window for its shots. A revision newer than
// the last command is ErrFutureRevision and changes nothing; an older one is harmless.
func (inv *Inventory) Acknowledged(now time.Duration, rev uint16) error {
	if revision.Newer(rev, inv.rev) {
		return fmt.Errorf("%w: acknowledged %d, last command %d", ErrFutureRevision, rev, inv.rev)
	}
	if inv.displaced != 0 {
		inv.settleDisplaced(now, rev)
	}
	return nil
}

// settleDisplaced shortens the protection of every overwritten weapon whose command the
// echo covers to DisplacedGrace from now.
func (inv *Inventory) settleDisplaced(now time.Duration, echo uint16) {
	for m := inv.displaced &^ inv.displacedEcho; m != 0; m &= m - 1 {
		w := bits.TrailingZeros64(m)
		if revision.NewerOrEqual(echo, inv.old.rev[w]) {
			inv.displacedEcho |= 1 << w
			inv.old.until[w] = min(inv.old.until[w], now+DisplacedGrace)
			inv.old.shotUntil[w] = min(inv.old.shotUntil[w], now+DisplacedShotGrace)
		}
	}
}

// continuousFire runs rule 2 of Frame and returns the rounds spent.
func (inv *Inventory) continuousFire(now time.Duration, f Frame) uint16 {
	w := f.Weapon
	var s *slotState
	if f.FireHeld && int(w) < NumWeapons && inv.cat.kind[w] == KindContinuous && !inv.inShotWindow(now, w) {
		s = inv.slotOf(w)
	}
	if s == nil {
		if inv.fireWeapon != 0 { // else fireAcc and fireEmpty are zero already
			inv.fireWeapon, inv.fireAcc, inv.fireEmpty = 0, 0, false
		}
		return 0
	}
	if inv.fireWeapon != w {
		inv.fireWeapon, inv.fireLast, inv.fireAcc, inv.fireEmpty = w, now, 0, f.Clip == 0
		return 0
	}
	gap := max(now-inv.fireLast, 0)
	if inv.fireEmpty {
		gap = min(gap, MaxFireGap) // the reload ended somewhere in the gap
	}
	inv.fireLast, inv.fireEmpty = now, f.Clip == 0
	if f.Clip == 0 {
		return 0 // reloading (or dry): the weapon sprays nothing
	}
	inv.fireAcc += gap
	n := inv.fireAcc / ContinuousSpendPeriod
	if n == 0 {
		return 0
	}
	inv.fireAcc -= n * ContinuousSpendPeriod
	fromCredit, fromTotal := s.spend(now, uint16(min(n, MaxWeaponAmmo)))
	return fromCredit + fromTotal
}
