package refserver

import (
	"slices"
	"time"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/rewind"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

var noKiller = lifecycle.Handle{ID: lifecycle.NoPlayer}

// blame is the server's attribution of a death the victim reports before the server
// counted it: the last credited damage, never a teammate.
func (w *World) blame(p *player) lifecycle.Blame {
	last := p.vit.LastDamage()
	if !last.Valid {
		return lifecycle.Blame{Killer: noKiller, Cause: lifecycle.CauseUnknown}
	}
	cause := last.Weapon
	if !lifecycle.ValidCause(cause) {
		cause = lifecycle.CauseUnknown
	}
	return lifecycle.Blame{Killer: w.killerHandle(p, last.Attacker, w.teams.Rev()), Cause: cause}
}

// onDeathReport takes the victim's DeathReport (lifecycle's [server-commits-death]): committed once per life by the
// lifecycle, with the server's killer and cause (the counted death's, or the last damage),
// and the victim's pose.
func (w *World) onDeathReport(now time.Duration, p *player, m *wire.DeathReport) Verdict {
	dr, err := w.life.ReportDeath(now, p.handle, lifecycle.DeathReport{Gen: lifecycle.Generation(m.DeathEpoch), Means: m.Weapon,
		Pose: lifecycle.Pose(m.Pose)}, w.blame(p))
	if err != nil {
		w.raise(Event{Kind: EventDeathReportIgnored, At: now, Player: p.id, Other: NoPlayer, Vehicle: NoVehicle, Gen: m.DeathEpoch,
			Verdict: VerdictInvalid, Detail: err.Error()})
		return VerdictInvalid
	}
	if dr.Confirmed {
		w.raiseSpawn(dr.Spawn)
	}
	if dr.Verdict != lifecycle.ReportCommitted {
		w.raise(Event{Kind: EventDeathReportIgnored, At: now, Player: p.id, Other: NoPlayer, Vehicle: NoVehicle, Gen: m.DeathEpoch,
			Verdict: VerdictIgnored, Detail: dr.Verdict.String()})
		return VerdictIgnored
	}
	w.committed(now, p, dr.Commit)
	return VerdictAccepted
}

// committed carries out a death the lifecycle committed (by the victim's report, by the
// deadline of a counted death, or on leaving): vitals.Died (whatever waits in the client's
// order is taken first), the critical PlayerWasted to every other connection, the
// critical SetHealth(0) of a deadline commit (its acknowledgement routed to
// lifecycle.ZeroAcknowledged), and player_death.
func (w *World) committed(now time.Duration, p *player, c lifecycle.Commit) {
	eff, err := p.vit.Died(now)
	if err == nil {
		w.takeEffects(now, p, &eff)
	}
	p.leftVehicle(now)
	killer, cause := c.Death.Killer, c.Death.Cause
	if c.Death.KillerLeft {
		killer = NoPlayer
	}
	if c.Source == lifecycle.CommitByReport && !p.counted {
		// The report's blame was taken before Died completed the client's order (a lethal
		// report may have waited for an earlier one): name the killer from the complete one.
		if last := p.vit.LastDamage(); last.Valid {
			killer = w.killerHandle(p, last.Attacker, w.teams.Rev()).ID
			if lifecycle.ValidCause(last.Weapon) {
				cause = last.Weapon
			}
		}
	} else if killer != NoPlayer {
		rev := w.teams.Rev()
		if p.counted {
			rev = p.countRev
		}
		if named, _, _ := w.teams.JudgeKiller(killer, p.id, rev); named == teams.NoPlayer {
			killer = NoPlayer
		}
	}
	if killer == p.id {
		killer = NoPlayer
	}
	p.counted = false
	p.dead, p.deadAt, p.deadLife = true, now, p.lifeSerial
	w.leaveSeat(p) // a corpse holds no seat
	w.stats.Deaths++

	o := &w.msgs.wasted
	*o = wire.PlayerWasted{Player: p.id, PlayerToken: uint32(c.Subject.Token), DeathEpoch: uint16(c.Death.Gen), Killer: killer,
		Weapon: cause, Pose: uint8(c.Death.Pose)}
	w.viewers = w.viewersOf(w.viewers[:0], p)
	for _, id := range w.viewers {
		w.queue(now, w.players[id], o)
	}
	if c.SendZero {
		if cmd, err := p.vit.DeathZero(now); err == nil {
			w.msgs.zero = wire.SetHealth{Rev: cmd.Rev, Health: 0}
			if seq, ok := w.queue(now, p, &w.msgs.zero); ok {
				p.acks.push(ackInterest{seq: seq, kind: ackZero, rev: cmd.Rev, gen: c.Death.Gen})
			}
		}
	}
	w.raise(Event{Kind: EventPlayerDeath, At: now, Player: p.id, Other: killer, Vehicle: NoVehicle, Weapon: cause,
		Gen: uint16(c.Death.Gen), Commit: c.Source, Pose: c.Death.Pose})
}

// onRespawnRequest takes a RespawnRequest (lifecycle's [respawn-idempotent]): granted when the lifecycle's policy
// allows, the same grant again for a repeated request before the first living frame.
// Nothing is asked of the lifecycle unless the answer can be queued.
func (w *World) onRespawnRequest(now time.Duration, p *player, m *wire.RespawnRequest) Verdict {
	if err := p.ep.CanQueue(&w.msgs.respawn); err != nil {
		return VerdictLaneFull
	}
	g, err := w.life.RespawnRequest(now, p.handle, lifecycle.Generation(m.DeathEpoch))
	if err != nil {
		return VerdictInvalid
	}
	switch g.Verdict {
	case lifecycle.RequestGranted:
		w.granted(now, p, g)
		return VerdictAccepted
	case lifecycle.RequestRegranted:
		w.queueRespawn(now, p, g.Respawn)
		return VerdictAccepted
	case lifecycle.RequestOfFutureLife:
		return VerdictNotGranted
	}
	return VerdictIgnored
}

func (w *World) queueRespawn(now time.Duration, p *player, r lifecycle.RespawnPlayer) {
	w.msgs.respawn = wire.RespawnPlayer{DeathEpoch: uint16(r.Gen), Position: wire.Vec3(r.Point.Pos), Facing: degToRad(r.Point.Facing)}
	w.queue(now, p, &w.msgs.respawn)
}

// granted carries out a fresh respawn grant (see "The cross-package rules": respawns), in this order: the
// inventory's clear (no revision bump), a new vitals life (100/0), the rewind's new
// history at the point, the reset of combat correlation (the old life's shot credits,
// projectiles and counted death no longer apply), RespawnPlayer to the player and the
// critical PlayerSpawned to everyone else, then the spawn loadout through the normal
// commands.
func (w *World) granted(now time.Duration, p *player, g lifecycle.Grant) {
	gen, pt := g.Respawn.Gen, g.Respawn.Point
	p.inv.RespawnGrant(uint16(gen))
	eff := p.vit.NewLife(now)
	w.takeEffects(now, p, &eff)
	w.packageRefused(CallRespawnHistory, p.id, w.rw.RespawnPlayer(now, p.id, rewind.Vec3(pt.Pos)))
	p.lifeSerial = w.nextSerial()
	p.counted = false
	w.leaveSeat(p)
	p.frame = frameState{have: true, at: now, pos: wire.Vec3(pt.Pos), facing: degToRad(pt.Facing), vehicle: NoVehicle}
	w.stats.Respawns++

	w.queueRespawn(now, p, g.Respawn)
	o := &w.msgs.spawned
	*o = wire.PlayerSpawned{Player: p.id, PlayerToken: uint32(g.Spawned.Token), DeathEpoch: uint16(g.Spawned.Gen),
		SyncSeq: g.Spawned.SyncSeq, Position: wire.Vec3(g.Spawned.Point.Pos), Facing: degToRad(g.Spawned.Point.Facing)}
	w.viewers = w.viewersOf(w.viewers[:0], p)
	for _, id := range w.viewers {
		w.queue(now, w.players[id], o)
	}
	w.streamPlace(now, p, wire.Vec3(pt.Pos))
	w.raise(Event{Kind: EventRespawnGranted, At: now, Player: p.id, Other: NoPlayer, Vehicle: NoVehicle, Gen: uint16(gen), Connect: g.Connect})
	for _, l := range w.cfg.Loadout {
		w.giveLoadout(now, p, l)
	}
}

// giveLoadout gives one loadout weapon like GiveWeapon, inside a grant (which may run in
// the middle of a datagram or a tick, so it removes nobody itself).
func (w *World) giveLoadout(now time.Duration, p *player, l Loadout) {
	m := &w.msgs.give
	if err := p.ep.CanQueue(m); err != nil {
		_ = w.refuse(p.id, "loadout", laneFull(p.id, err))
		return
	}
	g, err := p.inv.Give(now, l.Weapon, l.Ammo, l.Current)
	if err != nil {
		_ = w.refuse(p.id, "loadout", wrap(ErrWeapon, err))
		return
	}
	*m = wire.GiveWeapon{Rev: g.Rev, Weapon: g.Weapon, Ammo: g.Ammo, SetAsCurrent: g.SetAsCurrent}
	w.queue(now, p, m)
	w.stats.Commands++
}

func (w *World) refuseStealth(now time.Duration, p *player, m *wire.StealthKill, v Verdict, detail string) Verdict {
	w.raise(Event{Kind: EventStealthKillRefused, At: now, Player: m.Victim, Other: p.id, Vehicle: NoVehicle, Weapon: m.Weapon, Verdict: v, Detail: detail})
	return v
}

// onStealthKill judges a stealth kill claim (the server's whole decision, vitals' [sources-of-damage]): both
// players acting in the lives the claim names, the victim's life counted, the knife in the
// attacker's store, the two within StealthKillRange, both on foot ([stealth-on-foot]), not
// teammates. An accepted kill counts
// the victim dead (the wait gets StealthKillExtra) and is relayed, reliably and stamped, to
// the victim, the attacker and every connection that has the victim shown.
func (w *World) onStealthKill(now time.Duration, p *player, m *wire.StealthKill) Verdict {
	if v := w.mayAct(p, m.DeathEpoch); v != VerdictAccepted {
		return w.refuseStealth(now, p, m, v, "attacker")
	}
	victim := w.conn(m.Victim)
	if victim == nil || victim == p {
		return w.refuseStealth(now, p, m, VerdictUnknownPlayer, "")
	}
	if v := w.mayAct(victim, m.VictimEpoch); v != VerdictAccepted {
		if v == VerdictNotAlive {
			v = VerdictTargetNotAlive
		}
		return w.refuseStealth(now, p, m, v, "victim")
	}
	if victim.vit.Life() != vitals.LifeCounted {
		return w.refuseStealth(now, p, m, VerdictTargetNotAlive, "victim "+victim.vit.Life().String())
	}
	grace := w.rttOf(p) + StealthSeatGrace
	if w.seatedFor(victim, grace) {
		return w.refuseStealth(now, p, m, VerdictSeated, "victim")
	}
	if w.seatedFor(p, grace) {
		return w.refuseStealth(now, p, m, VerdictSeated, "attacker")
	}
	knife := w.catalog.StealthKill(m.Weapon)
	if v := w.rules.StealthKill.Judge(knife, knife && p.inv.Owns(m.Weapon), w.closest(p, victim)); v != VerdictAccepted {
		return w.refuseStealth(now, p, m, v, "")
	}
	if w.teams.JudgeStealthKill(p.id, victim.id) != teams.StealthAllowed {
		return w.refuseStealth(now, p, m, VerdictTeammate, "")
	}
	o := &w.msgs.stealth
	*o = wire.RemoteStealthKill{Attacker: p.id, Victim: victim.id, VictimEpoch: m.VictimEpoch, Weapon: m.Weapon}
	if err := victim.ep.CanQueue(o); err != nil {
		return w.refuseStealth(now, p, m, VerdictLaneFull, "")
	}
	eff, err := victim.vit.StealthKilled(now, vitals.StealthKill{Killer: p.id, Weapon: m.Weapon})
	if err != nil {
		return w.refuseStealth(now, p, m, VerdictInvalid, err.Error())
	}
	w.raise(Event{Kind: EventStealthKill, At: now, Player: victim.id, Other: p.id, Vehicle: NoVehicle, Weapon: m.Weapon})
	w.takeEffects(now, victim, &eff)
	// The victim and the attacker play the kill; the others see it if they have the
	// victim shown ([stream-edges]).
	w.viewers = append(w.viewersOf(w.viewers[:0], victim), victim.id)
	if !slices.Contains(w.viewers, p.id) {
		w.viewers = append(w.viewers, p.id)
	}
	for _, id := range w.viewers {
		o.Stamp = wire.Stamp(w.teams.Stamp(p.id, id))
		w.queue(now, w.players[id], o)
	}
	return VerdictAccepted
}

// droveWithin reports whether one of p's frames of the last window, in its current life,
// put it in a driver's seat: of vehicle v, or of any vehicle for NoVehicle. A message sent
// from the seat may arrive after the frame that shows the player out of it (datagrams
// reorder; the lane may pass them).
func (w *World) droveWithin(p *player, v uint16, window time.Duration) bool {
	return p.driving && (v == NoVehicle || p.driveVehicle == v) && p.driveLife == p.lifeSerial && w.now-p.driveAt <= window
}

// droveRecently reports whether p holds the driver's seat of vehicle v, or held it by a
// frame within ContinuousWindow: its VehicleExplode travels on the lane and may follow
// the frame that shows it leaving. (It cannot overtake the frame of its entry: the seat
// was granted by an accepted frame.)
func (w *World) droveRecently(p *player, v uint16) bool {
	return w.satWithin(p, v, 0, ContinuousWindow)
}

func (w *World) refuseExplode(now time.Duration, p *player, m *wire.VehicleExplode, v Verdict) Verdict {
	w.raise(Event{Kind: EventVehicleExplodeRefused, At: now, Player: p.id, Other: m.Attacker, Vehicle: m.Vehicle, Weapon: m.Weapon, Verdict: v})
	return v
}

// onVehicleExplode takes a vehicle explosion from the player the server granted its
// driver's seat, or who held it within ContinuousWindow ([vehicle-credit]). The
// attacker the client names is credited as the author only if it had an accepted shot
// claiming a hit on this vehicle within VehicleCreditWindow, in its current life. The occupants are judged by teams.JudgeExplosion: the author's teammates
// are spared (their clients refuse the damage), everyone else inside is counted dead
// (vitals.VehicleExploded). The vehicle is wrecked (no longer rewound) and the explosion
// relayed, reliably and stamped with the author, to every connection.
func (w *World) onVehicleExplode(now time.Duration, p *player, m *wire.VehicleExplode) Verdict {
	veh := w.vehicle(m.Vehicle)
	switch {
	case veh == nil:
		return w.refuseExplode(now, p, m, VerdictUnknownVehicle)
	case veh.wrecked:
		return w.refuseExplode(now, p, m, VerdictWrecked)
	case !w.droveRecently(p, m.Vehicle):
		return w.refuseExplode(now, p, m, VerdictNotInVehicle)
	case !w.life.MayAct(p.handle):
		return w.refuseExplode(now, p, m, VerdictNotAlive)
	}
	author := NoPlayer
	if a := w.conn(m.Attacker); a != nil && w.rules.VehicleCredit.Credited(veh.hitBy == a.id, veh.hitLife == a.lifeSerial, now-veh.hitAt) {
		author = a.id
	}
	// The occupants are the seat table's: only an accepted entry puts a player inside.
	seats := w.seats[:0]
	for _, id := range veh.seats {
		q := w.conn(id)
		if q == nil || len(seats) == cap(seats) {
			continue
		}
		last := teams.NoPlayer
		if d := q.vit.LastDamage(); d.Valid && d.Attacker != NoPlayer {
			last = d.Attacker
		}
		seats = append(seats, teams.Seat{Player: id, LastAttacker: last})
	}
	fates, err := w.teams.JudgeExplosion(author, seats, w.fates[:0])
	if err != nil {
		return w.refuseExplode(now, p, m, VerdictInvalid)
	}
	for _, f := range fates {
		if !f.Outcome.Dies() {
			continue
		}
		q := w.players[f.Player]
		if eff, err := q.vit.VehicleExploded(now, vitals.VehicleExplosion{Killer: author}); err == nil {
			w.takeEffects(now, q, &eff)
		}
	}
	w.packageRefused(CallWreckVehicle, p.id, w.rw.WreckVehicle(now, rewind.VehicleID(m.Vehicle)))
	veh.wrecked = true
	for _, id := range w.conns {
		// The wreck's last fall may never show in a frame (a wreck's frames are refused):
		// the claims on it not judged yet are forgotten.
		if d := w.players[id].vgod; d != nil {
			if v, ok := d.Vehicle(); ok && v == m.Vehicle {
				d.Left(now)
			}
		}
	}
	join := uint64(0)
	if a := w.conn(author); a != nil {
		join = a.joinSerial
	}
	veh.boom = explosion{valid: true, at: now, serial: w.nextSerial(), author: author, join: join, pos: veh.pos}
	weapon := m.Weapon
	if !lifecycle.ValidCause(weapon) {
		weapon = inventory.CauseExplosion
	}
	o := &w.msgs.vexplode
	*o = wire.RemoteVehicleExplode{Vehicle: m.Vehicle, Author: author, Weapon: weapon}
	for _, id := range w.conns {
		if !w.vsSees(id, m.Vehicle) {
			continue // [stream-vehicles]: only those that have the vehicle shown
		}
		o.Stamp = wire.Stamp(w.teams.Stamp(author, id))
		w.queue(now, w.players[id], o)
	}
	w.raise(Event{Kind: EventVehicleExploded, At: now, Player: p.id, Other: author, Vehicle: m.Vehicle, Weapon: weapon})
	return VerdictAccepted
}
