package refserver

import (
	"time"

	"github.com/arbitergo/arbiter/internal/revision"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/rewind"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// vehicle is one vehicle slot.
type vehicle struct {
	exists  bool
	frozen  bool
	wrecked bool
	model   uint16
	pos     wire.Vec3
	rot     wire.Quat
	vel     wire.Vec3 // from the driver's newest frame: the gun origin check's lag
	health  float32
	// seats holds who sits in each seat, from accepted entries only (NoPlayer: free);
	// seat 0 is the driver's.
	seats [inventory.MaxVehicleSeats]PlayerID
	// gunTAT is each gun's rate check (GCRA theoretical arrival), per the model's guns.
	gunTAT [inventory.MaxVehicleGuns]time.Duration

	// The vehicle's frames: numbered by the client of the driver that sends them.
	haveSeq bool
	seqFrom PlayerID
	lastSeq uint16
	syncSeq uint16 // the relay number of the vehicle's frames

	// The last accepted shot claiming a hit on the vehicle (the explosion's credit).
	hitBy   PlayerID
	hitAt   time.Duration
	hitLife uint64

	// The accepted explosion, for the occupants' and bystanders' reports.
	boom explosion
}

// explosion is an accepted vehicle explosion.
type explosion struct {
	valid  bool
	at     time.Duration
	serial uint64
	author PlayerID
	join   uint64 // the author's joinSerial, to tell a reused id
	pos    wire.Vec3
}

func (w *World) vehicle(id uint16) *vehicle {
	if int(id) >= len(w.vehicles) {
		return nil
	}
	if v := &w.vehicles[id]; v.exists {
		return v
	}
	return nil
}

// onPlayerSync takes one frame of p (see "The cross-package rules": frames): filtered by sequence and life,
// stamped by the lifecycle, taken by vitals (the ledger, the god-mode cut), the inventory
// (downward merge, continuous spend) and the rewind history, then relayed to every other
// connection with the server's alive, generation and ledger, the damage group and the
// teammate stamp for each recipient.
func (w *World) onPlayerSync(now time.Duration, p *player, m *wire.PlayerSync) Verdict {
	if p.haveSeq && !revision.Newer(m.Seq, p.lastSeq) {
		return VerdictOutdated
	}
	if !w.takeFrame(now, p, &p.frameGate, "frame") {
		return VerdictRateLimited
	}
	// Every package's state of p is read below, each on lines of its own: ask for them
	// all now, so the reads overlap.
	w.touched ^= p.vit.Touch() ^ p.inv.Touch() ^ w.life.Touch(p.id) ^ w.rw.TouchPlayer(p.id)
	if m.Vehicle != NoVehicle && !p.seat.holds(m.Vehicle, m.Seat) {
		// A claim on a seat p does not hold: an entry, judged before anything is taken.
		// (A frame of another life is the lifecycle's to drop, below.)
		if snap, err := w.life.Snapshot(p.id); err == nil && uint16(snap.Gen) == m.DeathEpoch {
			if v, holder, detail := w.judgeEntry(p, m); v != VerdictAccepted {
				return w.refuseEntry(now, p, m, v, holder, detail)
			}
		}
	}
	lr, err := w.life.Frame(now, p.handle, lifecycle.Claim{Alive: m.Alive, Gen: lifecycle.Generation(m.DeathEpoch)}, p.vit.Ledger().Health)
	if err != nil {
		return VerdictInvalid
	}
	if !lr.Verdict.Relay() {
		return VerdictOtherLife
	}
	p.haveSeq, p.lastSeq = true, m.Seq
	w.stats.Frames++
	if lr.Verdict == lifecycle.FrameFirstOfLife {
		w.raiseSpawn(lr.Spawn)
	}

	fr, err := p.vit.Frame(now, vitals.FrameInput{Seq: m.Seq, DamageSeq: m.DamageSeq, VitalRev: m.VitalRev, Health: m.Health, Armor: m.Armor})
	if err == nil {
		w.takeEffects(now, p, &fr.Effects)
		if fr.Verdict == vitals.FrameFutureRevision {
			w.refuseInput(p.id, VerdictFutureRevision, "vital_rev")
		}
	}
	ir := p.inv.Frame(now, inventory.Frame{WeaponRev: m.WeaponRev, Weapon: m.Weapon, Clip: m.Clip, Total: m.Total, FireHeld: m.FireHeld})
	w.stats.FireSpent += uint64(ir.FireSpent)
	if ir.Verdict == inventory.FrameFutureRevision {
		w.refuseInput(p.id, VerdictFutureRevision, "weapon_rev")
	}

	seat := rewind.NoVehicle
	if m.Vehicle != NoVehicle && w.vehicle(m.Vehicle) != nil {
		seat = rewind.VehicleID(m.Vehicle)
	}
	if _, err := w.rw.RecordPlayer(now, p.id, rewind.Vec3(m.Position), seat); err != nil {
		w.packageRefused(CallRecordPlayer, p.id, err)
	}
	w.takeSeat(now, p, m.Vehicle, m.Seat)
	if m.FireHeld && w.catalog.Kind(m.Weapon) == inventory.KindContinuous {
		p.fireWeapon, p.fireAt, p.fireLife = m.Weapon, now, p.lifeSerial
	}
	if m.Vehicle != NoVehicle && m.Seat == 0 {
		p.driving, p.driveVehicle, p.driveAt, p.driveLife = true, m.Vehicle, now, p.lifeSerial
	}
	if m.Vehicle != NoVehicle {
		p.riding, p.rideAt, p.rideLife = true, now, p.lifeSerial
	}
	if p.frame.have && p.frame.vehicle != NoVehicle && p.frame.seat == 0 && (m.Vehicle != p.frame.vehicle || m.Seat != 0) {
		// It no longer drives the vehicle its vehicle frames showed: hits still landing
		// on that vehicle are not this player's to feel. Those that see the vehicle are
		// shown where it stands now ([stream-vehicle-left]).
		p.leftVehicle(now)
		w.vsReshow(now, p.frame.vehicle)
	}
	// A frame where the interest manager holds p already (p.frame.placed) would place it
	// there again, which changes nothing: vsPlace and Place return at once, with no change
	// to carry out ([stream-standing-mirror]).
	standing := p.frame.placed && m.Position.X == p.frame.pos.X && m.Position.Y == p.frame.pos.Y
	p.frame = frameState{have: true, at: now, pos: m.Position, facing: m.Facing, vehicle: m.Vehicle,
		seat: m.Seat, weapon: m.Weapon, fireHeld: m.FireHeld}

	// The relay: the server's life state and ledger, never the client's.
	led := p.vit.Ledger()
	r := &w.msgs.rps
	*r = wire.RemotePlayerSync{
		Player:      p.id,
		SyncSeq:     lr.Stamp.Seq,
		DeathEpoch:  uint16(lr.Stamp.Gen),
		Alive:       lr.Stamp.Alive,
		FireHeld:    m.FireHeld,
		Seat:        m.Seat,
		DamageGroup: w.teams.Group(p.id),
		Weapon:      m.Weapon,
		Health:      relayHealth(lr.Stamp.Alive, led.Health),
		Armor:       min(max(led.Armor, 0), wire.MaxVital),
		Position:    m.Position,
		Velocity:    m.Velocity,
		Facing:      m.Facing,
		Vehicle:     m.Vehicle,
	}
	enc, err := r.Append(w.enc[:0])
	if err != nil {
		return VerdictInvalid
	}
	w.enc = enc[:0]
	w.logRelay(enc, p, p.id, w.teams.Rev())
	if standing {
		p.frame.placed = true
	} else {
		w.streamPlace(now, p, m.Position)
	}
	return VerdictAccepted
}

// onVehicleSync takes a vehicle's frame from the player the server granted its driver's
// seat: recorded in the vehicle's rewind history and relayed with the driver's teammate
// stamp per recipient (a vehicle's frame can hurt: teams' [teammate-stamp]). Anyone else's is refused:
// a vehicle's pose comes only from its driver.
func (w *World) onVehicleSync(now time.Duration, p *player, m *wire.VehicleSync) Verdict {
	v := w.vehicle(m.Vehicle)
	if v == nil {
		return VerdictUnknownVehicle
	}
	if v.wrecked {
		return VerdictWrecked
	}
	if v.seats[0] != p.id {
		return VerdictNotInVehicle
	}
	if v.haveSeq && v.seqFrom == p.id && !revision.Newer(m.Seq, v.lastSeq) {
		return VerdictOutdated
	}
	if !w.takeFrame(now, p, &p.vframeGate, "vehicle_frame") {
		return VerdictRateLimited
	}
	if _, err := w.rw.RecordVehicle(now, rewind.VehicleID(m.Vehicle), rewind.Pose{Position: rewind.Vec3(m.Position), Rotation: rewind.Quat(m.Rotation)}); err != nil {
		return VerdictBadGeometry
	}
	v.haveSeq, v.seqFrom, v.lastSeq = true, p.id, m.Seq
	v.pos, v.rot, v.vel, v.health = m.Position, m.Rotation, m.Velocity, m.Health
	w.packageRefused(CallVehicleHealth, p.id, w.vehicleDetector(p).Health(now, m.Vehicle, m.Health))
	r := &w.msgs.rvs
	*r = wire.RemoteVehicleSync{Vehicle: m.Vehicle, Driver: p.id, SyncSeq: v.syncSeq, Position: m.Position,
		Rotation: m.Rotation, Velocity: m.Velocity, Health: m.Health}
	v.syncSeq++
	enc, err := r.Append(w.enc[:0])
	if err != nil {
		return VerdictBadGeometry
	}
	w.enc = enc[:0]
	if w.logRelay(enc, p, w.relaySubject(p), w.teams.Rev()) {
		w.vsSkipVehicle(p, m.Vehicle)
	}
	w.vsVehiclePlaced(m.Vehicle, m.Position)
	w.streamPlace(now, p, m.Position)
	return VerdictAccepted
}

func (w *World) raiseSpawn(s lifecycle.SpawnEvent) {
	w.raise(Event{Kind: EventPlayerSpawn, At: s.At, Player: s.Player, Other: NoPlayer, Vehicle: NoVehicle,
		Gen: uint16(s.Gen), Connect: s.Connect})
}
