package refserver

import (
	"time"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// sourceOfCause is the ledger's source of damage that arrives with a cause of the
// catalogue's Cause column (inventory's [weapon-causes]): a continuous weapon's spray, a
// molotov's fire, an explosion.
func sourceOfCause(cause uint8) vitals.Source {
	switch cause {
	case inventory.CauseSpraycan:
		return vitals.SourceSpray
	case inventory.CauseExtinguisher:
		return vitals.SourceExtinguisher
	case inventory.CauseExplosion:
		return vitals.SourceExplosion
	}
	return vitals.SourceFire
}

// correlation is what the World established about a damage report before the ledger.
type correlation struct {
	verdict Verdict // VerdictAccepted when correlated, else why not
	// credit is the shot victim entry to consume once vitals takes the report.
	credit *shotVictim
	// teams is the teams verdict of a correlated report with an attacker (0 if none).
	teams teams.ReportVerdict
}

// onDamageReport takes the victim's report (see "The cross-package rules": damage reports): correlated with the action
// it answers, judged by teams, floored from the weapon catalogue, then handed to the
// victim's ledger (vitals.Report), which applies it in the client's order. Credited
// outcomes raise player_damage; the rest raise report_not_credited with the reason.
func (w *World) onDamageReport(now time.Duration, p *player, m *wire.DamageReport) Verdict {
	if v := p.reportFilter.check(m.DamageSeq); v != VerdictAccepted {
		w.raise(Event{Kind: EventInputRefused, At: now, Player: p.id, Other: m.Attacker, Vehicle: NoVehicle, Weapon: m.Weapon, Seq: m.DamageSeq, Verdict: v, Detail: "damage_report"})
		return v
	}
	in := vitals.ReportInput{
		Seq:      m.DamageSeq,
		VitalRev: m.VitalRev,
		Weapon:   m.Weapon,
		BodyPart: m.BodyPart,
		Attacker: NoPlayer,
		Loss:     m.Loss,
		Before:   vitals.Vitals{Health: m.HealthBefore, Armor: m.ArmorBefore},
		After:    vitals.Vitals{Health: m.HealthAfter, Armor: m.ArmorAfter},
	}
	c := w.correlate(now, p, m, &in)
	if in.Correlated && in.Attacker != NoPlayer && in.Attacker != p.id {
		var action teams.Action
		if c.credit != nil {
			rec := w.players[in.Attacker].shots.at(m.Ref.Seq)
			action = teams.Action{Stamped: true, Rev: rec.rev}
		}
		var err error
		c.teams, err = w.teams.JudgeReport(in.Attacker, p.id, action)
		// A refused judgement credits nothing (its zero judgement is not Credited).
		w.packageRefused(CallJudgeReport, p.id, err)
		in.Teammate = !c.teams.Credited()
	}
	rr, err := p.vit.Report(now, in)
	if err != nil {
		w.raise(Event{Kind: EventReportNotCredited, At: now, Player: p.id, Other: m.Attacker, Vehicle: NoVehicle, Weapon: m.Weapon,
			BodyPart: m.BodyPart, Seq: m.DamageSeq, Amount: m.Loss, Verdict: VerdictInvalid, Detail: err.Error()})
		return VerdictInvalid
	}
	p.reportFilter.mark(m.DamageSeq)
	w.stats.Reports++
	if c.credit != nil && rr.Verdict != vitals.ReportDuplicate && rr.Verdict != vitals.ReportStale {
		c.credit.used++
	}
	if c.verdict != VerdictAccepted && !in.Source.NeedsAttacker() && m.Attacker != NoPlayer {
		// Taken by the ledger as an observation, without the attacker it named.
		w.raise(Event{Kind: EventReportUnattributed, At: now, Player: p.id, Other: m.Attacker, Vehicle: NoVehicle, Weapon: m.Weapon,
			Seq: m.DamageSeq, Amount: m.Loss, Verdict: c.verdict})
	}
	own := false
	for i := range rr.Reports {
		if rr.Reports[i].Seq == m.DamageSeq {
			own = true
		}
	}
	w.takeEffects(now, p, &rr.Effects)
	switch {
	case rr.Verdict == vitals.ReportHeld:
		return VerdictHeld
	case rr.Verdict.Credited():
		return VerdictAccepted
	case own:
		return VerdictDiscarded
	}
	// Refused on arrival: the reason is the World's when its correlation or teams decided.
	v, detail := VerdictDiscarded, rr.Verdict.String()
	switch {
	case rr.Verdict == vitals.ReportUncorrelated && c.verdict != VerdictAccepted:
		v = c.verdict
	case rr.Verdict == vitals.ReportTeammate:
		v, detail = VerdictTeammate, c.teams.String()
	}
	w.raise(Event{Kind: EventReportNotCredited, At: now, Player: p.id, Other: m.Attacker, Vehicle: NoVehicle, Weapon: m.Weapon,
		BodyPart: m.BodyPart, Seq: m.DamageSeq, Amount: m.Loss, Verdict: v, Detail: detail})
	return v
}

// correlate establishes what a report is (its vitals.Source), whom it may credit and
// whether it matches an action the server accepted and relayed to this life of the
// victim. A hit that cannot be correlated stays a hit (vitals discards it: no ledger, no
// attribution); damage the victim observes (explosions, fire, rams) falls back to an
// observation of the environment (the ledger takes it, nobody is credited).
func (w *World) correlate(now time.Duration, p *player, m *wire.DamageReport, in *vitals.ReportInput) correlation {
	switch m.Ref.Kind {
	case wire.RefWeaponShot, wire.RefVehicleShot:
		return w.correlateShot(now, p, m, in)
	case wire.RefDetonation:
		return w.correlateDetonation(now, p, m, in)
	case wire.RefEffect:
		return w.correlateEffect(now, p, m, in)
	case wire.RefVehicleExplode:
		return w.correlateVehicleExplosion(now, p, m, in)
	}
	switch w.catalog.Kind(m.Weapon) {
	case inventory.KindFist, inventory.KindMelee, inventory.KindBullet:
		return w.correlateMelee(now, p, m, in)
	case inventory.KindContinuous:
		return w.correlateContinuous(now, p, m, in)
	}
	switch m.Weapon {
	case inventory.CauseVehicle, inventory.CauseRotor:
		return w.correlateRam(now, p, m, in)
	}
	// Falls, drowning, unowned explosions, unknown causes: the environment.
	in.Source = vitals.SourceEnvironment
	return correlation{verdict: observed(m)}
}

// observed is the verdict of an environmental report: accepted without an attacker, else
// the attacker it named could not be correlated.
func observed(m *wire.DamageReport) Verdict {
	if m.Attacker == NoPlayer {
		return VerdictAccepted
	}
	return VerdictNoSuchAction
}

// environment makes in an uncorrelated observation, for damage whose correlation failed.
func environment(in *vitals.ReportInput, v Verdict) correlation {
	in.Source, in.Attacker, in.Correlated, in.Floor = vitals.SourceEnvironment, NoPlayer, false, 0
	return correlation{verdict: v}
}

func (w *World) correlateShot(now time.Duration, p *player, m *wire.DamageReport, in *vitals.ReportInput) correlation {
	in.Source = vitals.SourceBullet
	if m.Ref.Kind == wire.RefVehicleShot {
		in.Source = vitals.SourceVehicleGun
	}
	a := w.conn(m.Attacker)
	if a == nil {
		return correlation{verdict: VerdictUnknownPlayer}
	}
	if a == p {
		return correlation{verdict: VerdictNotRelayed}
	}
	rec := a.shots.at(m.Ref.Seq)
	vehicleShot := rec.source != vitals.SourceBullet
	found := rec.valid && rec.seq == m.Ref.Seq && rec.life == a.lifeSerial && vehicleShot == (m.Ref.Kind == wire.RefVehicleShot)
	if v := w.rules.ShotCredit.Identify(found, now-rec.at, rec.serial > p.lifeSerial); v != VerdictAccepted {
		return correlation{verdict: v}
	}
	if rec.cannon() {
		// The Rhino's shell explodes where the ray ends: its damage is the explosion's.
		if m.Weapon != inventory.CauseExplosion {
			return environment(in, VerdictWrongWeapon)
		}
		in.Source = vitals.SourceExplosion
	}
	if !w.sawActor(p, a, rec.at) || rec.vehicle != NoVehicle && !w.sawVehicle(p, rec.vehicle, rec.at) {
		// Its client was never sent the shot: it could not have applied it.
		if rec.cannon() {
			return environment(in, VerdictNotRelayed)
		}
		return correlation{verdict: VerdictNotRelayed}
	}
	var slot *shotVictim
	for i := range rec.victims[:rec.nv] {
		if rec.victims[i].id == p.id {
			slot = &rec.victims[i]
		}
	}
	left := slot == nil && int(rec.nv) < len(rec.victims) || slot != nil && slot.used < rec.pellets
	if v := w.rules.ShotCredit.Credit(rec.cannon() || m.Weapon == rec.weapon, left); v != VerdictAccepted {
		return correlation{verdict: v}
	}
	if !rec.cannon() {
		in.Source = rec.source
		in.Floor = w.bulletFloor(now, p, rec)
	}
	if slot == nil {
		rec.victims[rec.nv] = shotVictim{id: p.id}
		slot = &rec.victims[rec.nv]
		rec.nv++
	}
	in.Attacker, in.Correlated = a.id, true
	return correlation{verdict: VerdictAccepted, credit: slot}
}

// bulletFloor is the floor of a hit by the shot rec on victim p: 0.33 x the damage the
// shot's properties revision gives at the shooter's floor tier, but never above what the
// victim's own table may give, when the gamemode lowered the damage in a revision the
// victim may already apply ([floor-lowest-revision]: vitals' [damage-floor] names the shot's revision only, which
// would take more than an honest victim lost, and it says a floor must never be above the
// game's own damage). The victim may apply any revision from the last one it acknowledged
// PropertiesGrace ago to the newest (or the catalogue's first table before its join's
// properties settled), as vitals does for the multiplier tables.
func (w *World) bulletFloor(now time.Duration, p *player, rec *shotRecord) float32 {
	if rec.damage <= 0 {
		return 0
	}
	p.settleProperties(now)
	d := rec.damage
	newest := w.catalog.Revision()
	r := p.propsLow
	for range inventory.MaxPropertiesRevisions {
		if v, err := w.catalog.Damage(r, rec.weapon, rec.tier); err == nil {
			d = min(d, v)
		}
		if r == newest {
			break
		}
		r++
	}
	if p.propsBase {
		if b := &w.base[rec.weapon]; b.HasDamage {
			d = min(d, b.Damage[rec.tier])
		}
	}
	return vitals.BulletFloor(d)
}

func (w *World) correlateDetonation(now time.Duration, p *player, m *wire.DamageReport, in *vitals.ReportInput) correlation {
	in.Source = vitals.SourceExplosion
	a := w.conn(m.Attacker)
	if a == nil {
		return environment(in, VerdictUnknownPlayer)
	}
	rec := a.projectile(m.Ref.Seq)
	found := rec.valid && rec.seq == m.Ref.Seq && rec.detonated && rec.life == a.lifeSerial
	cause := w.catalog.DetonationCause(rec.weapon, m.Weapon)
	// The distance is asked of the rewind only for a detonation that the rest admits.
	within := found && cause && !w.farFrom(rec.detAt, p, rec.detPos, w.rules.Detonation.Radius)
	if v := w.rules.Detonation.Judge(found, now-rec.detAt, rec.detSerial > p.lifeSerial, cause, within); v != VerdictAccepted {
		return environment(in, v)
	}
	in.Source = sourceOfCause(m.Weapon)
	in.Attacker, in.Correlated = a.id, true
	return correlation{verdict: VerdictAccepted}
}

func (w *World) correlateEffect(now time.Duration, p *player, m *wire.DamageReport, in *vitals.ReportInput) correlation {
	e := &w.effects[int(m.Ref.Seq)%MaxEffects]
	if !e.valid || e.id != m.Ref.Seq {
		return environment(in, VerdictNoSuchAction)
	}
	window := ExplosionWindow
	want := inventory.CauseExplosion
	if e.fire {
		window, want = FireLifetime+ExplosionWindow, inventory.CauseFire
	}
	if now-e.at > window {
		return environment(in, VerdictNoSuchAction)
	}
	if !e.fire && e.serial <= p.lifeSerial {
		return environment(in, VerdictNotRelayed)
	}
	if m.Weapon != want {
		return environment(in, VerdictWrongWeapon)
	}
	if w.farFrom(e.at, p, e.pos, e.radius) {
		return environment(in, VerdictTooFar)
	}
	creator := w.effectCreator(e)
	if m.Attacker != creator {
		return environment(in, VerdictAttackerMismatch)
	}
	if creator == NoPlayer {
		return environment(in, VerdictAccepted)
	}
	in.Source = sourceOfCause(want)
	in.Attacker, in.Correlated = creator, true
	return correlation{verdict: VerdictAccepted}
}

func (w *World) correlateVehicleExplosion(now time.Duration, p *player, m *wire.DamageReport, in *vitals.ReportInput) correlation {
	v := w.vehicle(m.Ref.Seq)
	if v == nil || !v.boom.valid || now-v.boom.at > ExplosionWindow {
		return environment(in, VerdictNoSuchAction)
	}
	if v.boom.serial <= p.lifeSerial {
		return environment(in, VerdictNotRelayed)
	}
	if m.Weapon != inventory.CauseExplosion {
		return environment(in, VerdictWrongWeapon)
	}
	if w.farFrom(v.boom.at, p, v.boom.pos, BlastRadius) {
		return environment(in, VerdictTooFar)
	}
	author := v.boom.author
	if a := w.conn(author); a == nil || a.joinSerial != v.boom.join {
		author = NoPlayer
	}
	if m.Attacker != author {
		return environment(in, VerdictAttackerMismatch)
	}
	if author == NoPlayer {
		return environment(in, VerdictAccepted)
	}
	in.Source, in.Attacker, in.Correlated = vitals.SourceExplosion, author, true
	return correlation{verdict: VerdictAccepted}
}

// correlateMelee checks the attacker's side of a blow: alive and acting, the weapon in its
// store (or the fists, or a gun used as a club), within reach by the present positions of
// both (the closest they stood over the last RewindCap), the weapon's cadence.
func (w *World) correlateMelee(now time.Duration, p *player, m *wire.DamageReport, in *vitals.ReportInput) correlation {
	in.Source = vitals.SourceMelee
	a := w.conn(m.Attacker)
	if a == nil {
		return correlation{verdict: VerdictUnknownPlayer}
	}
	if a == p {
		return correlation{verdict: VerdictNotRelayed}
	}
	if !w.actedRecently(a) {
		return correlation{verdict: VerdictAttackerNotAlive}
	}
	d := w.closest(a, p)
	if d > inventory.MeleeRange {
		return correlation{verdict: VerdictTooFar}
	}
	if r := a.inv.Melee(now, true, m.Weapon, d); r.Verdict != inventory.Accepted {
		return correlation{verdict: inventoryVerdict(r.Verdict)}
	}
	in.Attacker, in.Correlated = a.id, true
	return correlation{verdict: VerdictAccepted}
}

// correlateContinuous attributes flamethrower, spraycan and extinguisher damage to an
// attacker one of whose frames of the last ContinuousWindow showed that weapon held with
// its fire, and that came within the weapon's range (plus ContinuousRange).
func (w *World) correlateContinuous(now time.Duration, p *player, m *wire.DamageReport, in *vitals.ReportInput) correlation {
	in.Source = sourceOfCause(w.catalog.Cause(m.Weapon))
	if m.Attacker == NoPlayer {
		return environment(in, VerdictAccepted)
	}
	a := w.conn(m.Attacker)
	if a == nil || a == p {
		return environment(in, VerdictUnknownPlayer)
	}
	if a.fireWeapon != m.Weapon || a.fireLife != a.lifeSerial || now-a.fireAt > ContinuousWindow {
		return environment(in, VerdictNotHolding)
	}
	reach := float32(ContinuousRange)
	if wpn, err := w.catalog.Weapon(w.catalog.Revision(), m.Weapon); err == nil {
		reach += wpn.Range
	}
	if w.closest(a, p) > reach {
		return environment(in, VerdictTooFar)
	}
	in.Attacker, in.Correlated = a.id, true
	return correlation{verdict: VerdictAccepted}
}

// correlateRam attributes a ram, a run-over or rotor blades to the driver named, if one of
// its frames of the last ContinuousWindow put it in a driver's seat, and it came within
// RamDistance of the victim.
func (w *World) correlateRam(now time.Duration, p *player, m *wire.DamageReport, in *vitals.ReportInput) correlation {
	in.Source = vitals.SourceRam
	if m.Attacker == NoPlayer {
		return environment(in, VerdictAccepted)
	}
	a := w.conn(m.Attacker)
	if a == nil || a == p {
		return environment(in, VerdictUnknownPlayer)
	}
	since := time.Duration(-1) // the time since its last frame in a driver's seat in this life
	if a.driving && a.driveLife == a.lifeSerial {
		since = w.now - a.driveAt
	}
	if v := w.rules.Ram.Judge(w.actedRecently(a), since, w.closest(a, p)); v != VerdictAccepted {
		return environment(in, v)
	}
	in.Attacker, in.Correlated = a.id, true
	return correlation{verdict: VerdictAccepted}
}

// closest is the smallest distance between a and b by their accepted paths over the last
// ProximityLookback, comparing moments at most ProximitySkew apart (sampled every 100 ms):
// a report arrives a one-way trip after the damage, what each side saw of the other was up
// to a round trip old, and the two paths reach the server over different links. The
// limits it is compared with cover the rest (a frame of age on each side).
func (w *World) closest(a, b *player) float32 {
	return w.rules.Proximity.Closest(w.now, func(t time.Duration) (Point, bool) {
		q, err := w.rw.PlayerAt(t, a.id)
		return Point(q), err == nil
	}, func(t time.Duration) (Point, bool) {
		q, err := w.rw.PlayerAt(t, b.id)
		return Point(q), err == nil
	})
}

// actedRecently reports whether a may act, or did until its death's commit less than
// ActionGrace ago in its current life: a blow or a ram dealt alive is reported by its
// victim after that.
func (w *World) actedRecently(a *player) bool {
	return w.rules.ActionGrace.Acted(w.life.MayAct(a.handle), a.dead && a.deadLife == a.lifeSerial, w.now-a.deadAt)
}

// farFrom reports whether p stood farther than radius (plus PositionSlack) from pos both at
// the moment at and now.
func (w *World) farFrom(at time.Duration, p *player, pos wire.Vec3, radius float32) bool {
	limit := radius + PositionSlack
	for _, t := range [...]time.Duration{at, w.now} {
		if q, err := w.rw.PlayerAt(t, p.id); err == nil && dist(wire.Vec3(q), pos) <= limit {
			return false
		}
	}
	return true
}

// takeEffects carries out what one vitals call did: player_damage for each credited
// outcome, report_not_credited for the rest, the god_mode flag of a frame whose raise was
// cut (in this call, or a waiting frame this call released), and a counted death to the
// lifecycle.
func (w *World) takeEffects(now time.Duration, p *player, eff *vitals.Effects) {
	if eff.GodMode {
		w.raise(Event{Kind: EventGodMode, At: now, Player: p.id, Other: NoPlayer, Vehicle: NoVehicle, Amount: eff.GodModeExcess})
	}
	for i := range eff.Reports {
		o := &eff.Reports[i]
		if o.Verdict.Credited() {
			w.stats.Credited++
			w.raise(Event{Kind: EventPlayerDamage, At: now, Player: p.id, Other: o.Attacker, Vehicle: NoVehicle, Weapon: o.Weapon,
				BodyPart: o.BodyPart, Seq: o.Seq, Amount: o.Claimed, Floor: o.Floor, Deducted: o.Deducted.Total(), Detail: o.Verdict.String()})
			continue
		}
		v := VerdictDiscarded
		if o.Verdict == vitals.ReportTeammate {
			v = VerdictTeammate
		}
		w.raise(Event{Kind: EventReportNotCredited, At: now, Player: p.id, Other: o.Attacker, Vehicle: NoVehicle, Weapon: o.Weapon,
			BodyPart: o.BodyPart, Seq: o.Seq, Amount: o.Claimed, Verdict: v, Detail: o.Verdict.String()})
	}
	if eff.Died {
		w.countDeath(now, p, eff.Death)
	}
}

// hasEffects reports whether eff holds something takeEffects acts on (without, it does
// nothing): a god-mode cut, a report's verdict or a death.
func hasEffects(eff *vitals.Effects) bool { return eff.GodMode || len(eff.Reports) > 0 || eff.Died }

// rttOf is p's measured round trip, DefaultRTT while none is measured.
func (w *World) rttOf(p *player) time.Duration {
	if rtt, ok := w.rw.RTT(p.id); ok {
		return rtt
	}
	return DefaultRTT
}

// countDeath hands a death vitals counted to the lifecycle's wait for the victim's report,
// with the victim's round-trip time and the killer filtered by teams.
func (w *World) countDeath(now time.Duration, p *player, d vitals.Death) {
	cause := d.Weapon
	if !lifecycle.ValidCause(cause) {
		cause = lifecycle.CauseUnknown
	}
	rev := w.teams.Rev()
	if p.counted {
		rev = p.countRev
	}
	killer := w.killerHandle(p, d.Killer, rev)
	cr, err := w.life.CountDeath(p.handle, lifecycle.Count{At: d.At, Killer: killer, Cause: cause, Stealth: d.Stealth}, w.rttOf(p))
	if err != nil {
		return
	}
	switch cr.Verdict {
	case lifecycle.CountWaiting:
		p.counted, p.countRev = true, rev
	case lifecycle.CountEarlierDeadline, lifecycle.CountKeptDeadline:
	default:
		return
	}
	w.raise(Event{Kind: EventDeathCounted, At: now, Player: p.id, Other: killer.ID, Vehicle: NoVehicle, Weapon: cause,
		Detail: d.Reason.String()})
}

// killerHandle turns the attacker vitals names into the lifecycle's handle of a killer: no
// one for the victim itself, a player no longer connected (or a new one on its id), or the
// victim's teammate at the relation revision rev or now (teams' [teammate-never-credited]).
func (w *World) killerHandle(victim *player, id PlayerID, rev uint16) lifecycle.Handle {
	if id == NoPlayer || id == victim.id {
		return lifecycle.Handle{ID: lifecycle.NoPlayer}
	}
	k := w.conn(id)
	if k == nil {
		return lifecycle.Handle{ID: lifecycle.NoPlayer}
	}
	if last := victim.vit.LastDamage(); last.Valid && last.Attacker == id && k.joinedAt > last.At {
		return lifecycle.Handle{ID: lifecycle.NoPlayer}
	}
	if named, _, _ := w.teams.JudgeKiller(id, victim.id, rev); named == teams.NoPlayer {
		return lifecycle.Handle{ID: lifecycle.NoPlayer}
	}
	return k.handle
}
