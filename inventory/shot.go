package inventory

import (
	"errors"
	"math"
	"time"
)

// Vec3 is a position in world coordinates (metres). The field list matches the other
// packages' Vec3, so the host converts with a plain type conversion.
type Vec3 struct{ X, Y, Z float32 }

//go:generate go tool stringer -type=Verdict,Payment -linecomment

// Verdict is the decision on a shot, a projectile or a melee blow.
type Verdict uint8

// The verdicts. Every verdict but Accepted is a refusal that left the store untouched.
const (
	// Accepted: the action is valid; its round (if any) is paid (see Payment).
	Accepted Verdict = iota + 1 // accepted
	// NotAlive: the host says the actor is not spawned and alive.
	NotAlive // not alive
	// UnknownWeapon: the weapon id is outside the catalogue or no weapon (19-21).
	UnknownWeapon // unknown weapon
	// WrongKind: the weapon cannot produce this action (a knife in a WeaponShot, a gun
	// as a projectile).
	WrongKind // wrong kind of weapon
	// NotOwned: the weapon is not in the store (and was not overwritten by a command the
	// client may not have applied yet).
	NotOwned // weapon not owned
	// NoAmmo: the weapon is in the store with no rounds left.
	NoAmmo // no ammo
	// BadGeometry: a coordinate or distance that is NaN, infinite or negative.
	BadGeometry // bad geometry
	// OutOfRange: the shot's ray is longer than the weapon's range (plus RangeSlack), or
	// the blow's distance above MeleeRange.
	OutOfRange // out of range
	// TooFast: the action comes faster than the weapon's minimum interval allows, beyond
	// the burst allowance.
	TooFast // too fast
	// PropertiesTooOld: the shot names a weapon properties revision the catalogue no
	// longer keeps.
	PropertiesTooOld // properties revision too old
	// PropertiesFuture: the shot names a weapon properties revision never published.
	PropertiesFuture // properties revision never published
)

// Payment tells where the round of an accepted shot or projectile came from.
type Payment uint8

// The payments.
const (
	// NoPayment: the action was refused, or costs no round (a melee blow).
	NoPayment Payment = iota // no payment
	// PaidFromStore: one round was taken from the stored total.
	PaidFromStore // paid from the store
	// PaidByFrame: a frame that arrived before the shot had already counted its round
	// (see CreditHold); the total was not lowered a second time.
	PaidByFrame // paid by a frame
	// NotCharged: the weapon was overwritten by a command the client may not have
	// applied when it fired (take, clear, set ammo, a give that replaces a weapon or
	// reaches the cap); the command sets the client's count anyway, so the round is not
	// taken from the store.
	NotCharged // not charged
)

// Shot is what a WeaponShot says that the store judges: one trigger pull (a shotgun's
// pellets included).
type Shot struct {
	// Weapon is the gun fired.
	Weapon uint8
	// PropsRev is the weapon properties revision the client fired under.
	PropsRev uint16
	// Origin and End are the ray of the shot.
	Origin, End Vec3
}

// ShotResult is the outcome of Inventory.Shot. For an accepted shot it also carries
// what the damage floor of a hit by this shot needs (when the weapon has a damage
// figure): the tier and the raw per-pellet damage from the properties revision the
// shot named, and the pellets of one pull.
type ShotResult struct {
	// Verdict is the decision.
	Verdict Verdict
	// Paid tells where the round came from (NoPayment for a refusal).
	Paid Payment
	// HasDamage tells whether Damage and Tier are set.
	HasDamage bool
	// Tier is the floor tier (FloorTier at the shot's arrival).
	Tier Tier
	// Damage is the raw damage per hit (per pellet) at Tier in the shot's revision.
	Damage float32
	// Pellets is the number of pellets of one pull (1 for a non-shotgun).
	Pellets int
	// Credits is how many hit reports the shot may credit per victim
	// ([credits-per-shot]): the weapon's Credits, or one per pellet.
	Credits int
}

// String returns "accepted, paid from the store" or the refusal.
func (r ShotResult) String() string {
	if r.Verdict != Accepted {
		return r.Verdict.String()
	}
	return r.Verdict.String() + ", " + r.Paid.String()
}

// Result is the outcome of Inventory.Projectile and Inventory.Melee.
type Result struct {
	// Verdict is the decision.
	Verdict Verdict
	// Paid tells where the round came from (NoPayment for a refusal or a blow).
	Paid Payment
}

// String returns "accepted, paid from the store" or the refusal.
func (r Result) String() string {
	if r.Verdict != Accepted {
		return r.Verdict.String()
	}
	return r.Verdict.String() + ", " + r.Paid.String()
}

// finite reports whether every coordinate is a finite number.
func finite(vs ...float32) bool {
	for _, v := range vs {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return false
		}
	}
	return true
}

// ownership decides whether weapon may be used now: from the store, or as an
// overwritten weapon whose old shots may still arrive. It returns the slot (nil for an
// overwritten weapon no longer in the store) and the refusal, if any.
func (inv *Inventory) ownership(now time.Duration, weapon uint8, shot bool) (s *slotState, displaced bool, v Verdict) {
	s = inv.slotOf(weapon)
	if inv.isDisplacedLoaded(now, weapon, shot) {
		if s == nil {
			s = inv.poolOf(weapon) // its rounds were carried over to the slot's weapon
		}
		return s, true, Accepted
	}
	if s == nil {
		return nil, false, NotOwned
	}
	if !inv.usable(now, s) {
		return s, false, NoAmmo
	}
	return s, false, Accepted
}

// rateOK applies the rate check of one weapon: a virtual-scheduling leaky bucket (GCRA)
// with the weapon's interval as the sustained gap and tolerance as the burst allowance.
// tat is the theoretical arrival time of the next action; an action is refused when it
// arrives more than tolerance before it. It returns the new tat for an accepted action.
func rateOK(tat, now, interval, tolerance time.Duration) (time.Duration, bool) {
	if interval <= 0 {
		return tat, true
	}
	if tat-now > tolerance {
		return tat, false
	}
	return max(tat, now) + interval, true
}

// pay takes the round of an accepted action. An old shot of an overwritten weapon spends
// from the rounds that weapon had when a command threw them away (its stock of old
// rounds), not from the new store; once the stock is gone, from the store (in a pooled
// slot: from the total its rounds were carried over to).
func (inv *Inventory) pay(now time.Duration, s *slotState, displaced bool, weapon uint8) Payment {
	if displaced {
		if stock := inv.oldRounds(weapon); *stock > 0 {
			*stock--
			return NotCharged
		}
	}
	if s == nil {
		return NotCharged
	}
	fromCredit, fromTotal := s.spend(now, 1)
	switch {
	case fromCredit > 0:
		return PaidByFrame
	case fromTotal > 0:
		return PaidFromStore
	}
	return NotCharged // a weapon that needs no ammo
}

// Shot judges a WeaponShot that arrived at now. alive is the host's (lifecycle's) word
// that the shooter is spawned and alive in the life the shot belongs to. In order:
// alive; the weapon a gun of the catalogue (KindBullet); the properties revision the
// shot names still kept; the weapon in the store with rounds (or counted by a frame, or
// overwritten by a command the client may not have applied when it fired); a finite ray
// no longer than the weapon's Range + RangeSlack; the weapon's minimum interval with the
// shot rate tolerance. There is no check that the weapon is the held one: a shot
// routinely overtakes the frame that shows the switch.
//
// An accepted shot takes one round (Payment says from where) and makes its weapon the
// held one. A refused shot changes nothing. Shot never allocates. Duplicated datagrams
// must be dropped before (each call spends a round).
//
// Rules: [shot-sanity-check], [never-below-client].
func (inv *Inventory) Shot(now time.Duration, alive bool, shot Shot) ShotResult {
	if !alive {
		return ShotResult{Verdict: NotAlive}
	}
	w := shot.Weapon
	if int(w) >= NumWeapons || inv.cat.kind[w] == KindNone {
		return ShotResult{Verdict: UnknownWeapon}
	}
	if inv.cat.kind[w] != KindBullet {
		return ShotResult{Verdict: WrongKind}
	}
	table, err := inv.cat.lookup(shot.PropsRev)
	if err != nil {
		if errors.Is(err, ErrPropertiesFuture) {
			return ShotResult{Verdict: PropertiesFuture}
		}
		return ShotResult{Verdict: PropertiesTooOld}
	}
	s, displaced, v := inv.ownership(now, w, true)
	if v != Accepted {
		return ShotResult{Verdict: v}
	}
	o, e := shot.Origin, shot.End
	if !finite(o.X, o.Y, o.Z, e.X, e.Y, e.Z) {
		return ShotResult{Verdict: BadGeometry}
	}
	props := &table[w]
	dx, dy, dz := float64(e.X-o.X), float64(e.Y-o.Y), float64(e.Z-o.Z)
	reach := float64(props.Range + RangeSlack)
	if d2 := dx*dx + dy*dy + dz*dz; !(d2 <= reach*reach) {
		return ShotResult{Verdict: OutOfRange}
	}
	tat, ok := rateOK(inv.shotTAT[w], now, props.MinInterval, inv.cat.shotTolerance)
	if !ok {
		return ShotResult{Verdict: TooFast}
	}

	inv.shotTAT[w] = tat
	res := ShotResult{Verdict: Accepted, Paid: inv.pay(now, s, displaced, w), Pellets: pellets(props), Credits: credits(props)}
	if s != nil {
		inv.setActive(inv.cat.slot[w])
	}
	if props.HasDamage {
		res.HasDamage = true
		res.Damage, res.Tier = floorOf(props, inv.floorTiers(now, w))
	}
	return res
}

// Projectile judges a projectile thrown or launched on foot (a vehicle's weapons are
// not in the store). alive is the host's word as for Shot. The weapon must be a
// projectile of the catalogue, in the store with rounds (or counted by a frame, or
// overwritten by a command the client may not have applied), and within its minimum
// interval if the table sets one (the GTA San Andreas data sets none). An accepted
// projectile takes one round of its weapon; it does not change the held weapon. A
// refused one changes nothing.
//
// Rules: [shot-sanity-check].
func (inv *Inventory) Projectile(now time.Duration, alive bool, weapon uint8) Result {
	if !alive {
		return Result{Verdict: NotAlive}
	}
	if int(weapon) >= NumWeapons || inv.cat.kind[weapon] == KindNone {
		return Result{Verdict: UnknownWeapon}
	}
	if inv.cat.kind[weapon] != KindProjectile {
		return Result{Verdict: WrongKind}
	}
	s, displaced, v := inv.ownership(now, weapon, false)
	if v != Accepted {
		return Result{Verdict: v}
	}
	tat, ok := rateOK(inv.shotTAT[weapon], now, inv.cat.current()[weapon].MinInterval, inv.cat.shotTolerance)
	if !ok {
		return Result{Verdict: TooFast}
	}
	inv.shotTAT[weapon] = tat
	return Result{Verdict: Accepted, Paid: inv.pay(now, s, displaced, weapon)}
}

// Melee judges the attacker's side of a melee blow reported by its victim: alive is
// the host's word that the attacker is alive; weapon is the fists, or any weapon in the
// store (a melee weapon, or a gun used as a club), ammo or not, or one overwritten by a
// command the attacker may not have applied; distance (attacker to victim, metres) is
// finite, not negative and at most MeleeRange; and the blows of the weapon keep its
// minimum interval (a gun butt uses the fists' interval) with the melee rate
// tolerance, in the newest properties. A blow costs no round and changes nothing but
// the rate check.
//
// Rules: [shot-sanity-check].
func (inv *Inventory) Melee(now time.Duration, alive bool, weapon uint8, distance float32) Result {
	if !alive {
		return Result{Verdict: NotAlive}
	}
	if int(weapon) >= NumWeapons || inv.cat.kind[weapon] == KindNone {
		return Result{Verdict: UnknownWeapon}
	}
	if weapon != Fists && inv.slotOf(weapon) == nil && !inv.isDisplaced(now, weapon) {
		return Result{Verdict: NotOwned}
	}
	if !finite(distance) || distance < 0 {
		return Result{Verdict: BadGeometry}
	}
	if distance > MeleeRange {
		return Result{Verdict: OutOfRange}
	}
	table := inv.cat.current()
	interval := table[Fists].MinInterval
	if k := inv.cat.kind[weapon]; k == KindMelee {
		interval = table[weapon].MinInterval
	}
	tat, ok := rateOK(inv.meleeTAT[weapon], now, interval, inv.cat.meleeTolerance)
	if !ok {
		return Result{Verdict: TooFast}
	}
	inv.meleeTAT[weapon] = tat
	return Result{Verdict: Accepted}
}
