package refserver

import (
	"strconv"
	"time"

	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/wire"
)

//go:generate go tool stringer -type=EventKind -linecomment

// EventKind is the kind of an Event: the gamemode events of the records (player_damage,
// player_death, player_spawn, the god_mode suspicion flags) and the diagnostic events a
// host or a simulator needs to tell whether an honest player was wronged.
type EventKind uint8

// The event kinds. The gamemode events come first; the rest are diagnostics.
const (
	// EventPlayerDamage (player_damage): a credited damage report. Player is the victim,
	// Other the attacker (NoPlayer for the environment), Weapon and BodyPart the report's,
	// Amount the claimed loss, Floor the floor it paid, Deducted what it took from the
	// ledger, Seq the report number, Detail the vitals verdict (applied, attribution_only,
	// late).
	EventPlayerDamage EventKind = iota + 1 // player_damage
	// EventPlayerDeath (player_death): a committed death, once per life. Player is the
	// victim, Other the killer (never a teammate, NoPlayer for none), Weapon the cause,
	// Pose the death pose, Commit how it was committed (the victim's report, the server's
	// deadline, or on leaving), Gen the life that ended.
	EventPlayerDeath // player_death
	// EventPlayerSpawn (player_spawn): the first living frame of a life. Connect marks the
	// connect spawn; Gen is the new life.
	EventPlayerSpawn // player_spawn
	// EventGodMode (suspicion flag god_mode): a frame showed more health or armor than the
	// ledger (beyond the tolerance) and was cut. Amount is the excess.
	EventGodMode // god_mode
	// EventGodModeSuspect (suspicion flag of the god-mode detector): over the detector's
	// window the player confirmed far fewer hits, and felt far less loss, than shooters
	// claimed against its rewound pose. Amount is the claimed loss, Deducted the felt loss,
	// Seq the number of unconfirmed claims.
	EventGodModeSuspect // god_mode_suspect
	// EventVehicleGodModeSuspect (suspicion flag of the vehicle_god_mode detector,
	// vitals' [vehicle-god-mode-detector]): over the detector's window the vehicles the player drove lost far less
	// health in its frames than shooters claimed against their rewound poses. Vehicle is
	// the vehicle it drove last, Amount the claimed loss, Deducted the felt loss, Seq the
	// number of claimed hits.
	EventVehicleGodModeSuspect // vehicle_god_mode_suspect

	// EventPlayerJoin: a connection joined (Hello). Token is its player token.
	EventPlayerJoin // player_join
	// EventPlayerLeave: a connection ended. Reason is why.
	EventPlayerLeave // player_leave
	// EventRespawnGranted: a respawn was granted (Gen is the new life; Connect for the
	// connect spawn). player_spawn follows on the first living frame.
	EventRespawnGranted // respawn_granted
	// EventShotRefused: a WeaponShot or VehicleShot refused. Player is the shooter, Seq the
	// shot number, Weapon its weapon, Verdict why, Detail the package verdict.
	EventShotRefused // shot_refused
	// EventProjectileRefused: a ProjectileLaunch or a Detonation refused.
	EventProjectileRefused // projectile_refused
	// EventReportNotCredited: a damage report that was not credited: refused before the
	// ledger, or discarded by vitals (Verdict and Detail say why). Player is the victim,
	// Other the attacker it named.
	EventReportNotCredited // report_not_credited
	// EventReportUnattributed: a report of damage summed or observed by the victim (fire,
	// an unowned cause) naming an attacker the World could not correlate: the ledger took
	// it, without attribution. Verdict says why.
	EventReportUnattributed // report_unattributed
	// EventCommandRefused: a gamemode command the World refused (Detail is the error).
	EventCommandRefused // command_refused
	// EventStealthKill: an accepted stealth kill (Other is the attacker).
	EventStealthKill // stealth_kill
	// EventStealthKillRefused: a refused stealth kill claim.
	EventStealthKillRefused // stealth_kill_refused
	// EventVehicleExploded: an accepted vehicle explosion. Vehicle is the vehicle, Other the
	// credited author (NoPlayer for none), Player the driver who reported it.
	EventVehicleExploded // vehicle_exploded
	// EventVehicleExplodeRefused: a refused vehicle explosion report.
	EventVehicleExplodeRefused // vehicle_explode_refused
	// EventDeathCounted: the server counted a death itself (vitals): the wait for the
	// victim's DeathReport started. Detail is how it was counted.
	EventDeathCounted // death_counted
	// EventDeathReportIgnored: a DeathReport that committed nothing (Detail is the
	// lifecycle verdict: already committed, previous life, ...).
	EventDeathReportIgnored // death_report_ignored
	// EventInputRefused: any other message of a client refused (a frame of the wrong
	// vehicle, a malformed datagram, a message in the wrong direction, ...).
	EventInputRefused // input_refused
	// EventPackageRefused: a domain package refused a call the World made on its own
	// account (a lane acknowledgement routed to it, a history restarted, a join rolled
	// back; see PackageCall). Detail is the call and the package's error. Each is also
	// counted in Stats.PackageRefusals.
	EventPackageRefused // package_refused
	// EventRefusalsSuppressed: the refusal diagnostics of one connection's input over its
	// RefusalEvents in a RefusalInterval, summarized once the interval ended. Player is the
	// connection (NoPlayer for ids outside the slots), Count how many were suppressed.
	EventRefusalsSuppressed // refusals_suppressed

	eventKindEnd
)

// Diagnostic reports whether the kind is a diagnostic rather than a gamemode event of the
// records.
func (k EventKind) Diagnostic() bool { return k >= EventPlayerJoin }

// Event is one gamemode or diagnostic event, drained with World.Events. It is a plain value;
// which fields are set depends on Kind (see each kind). Player ids that do not apply are
// NoPlayer.
type Event struct {
	// Kind is what happened.
	Kind EventKind
	// At is the World's time of the event.
	At time.Duration
	// Player is the subject: the victim, the shooter, the commanded or spawning player.
	Player PlayerID
	// Other is the second player: the attacker, the killer, the author, the creator.
	Other PlayerID
	// Vehicle is the vehicle involved, NoVehicle if none.
	Vehicle uint16
	// Weapon is the weapon or cause.
	Weapon uint8
	// BodyPart is the body part of a damage report.
	BodyPart uint8
	// Seq is the report, shot or projectile number the event is about.
	Seq uint16
	// Gen is the life (death_epoch) the event is about, where one applies.
	Gen uint16
	// Amount is the claimed loss of a report, the excess of a god_mode cut, the claimed
	// loss of a suspicion; the distance, in metres, of a shot or projectile refused as
	// VerdictFarOrigin or VerdictFarDetonation.
	Amount float32
	// Floor is the floor a credited report paid; the tolerance the distance of a
	// VerdictFarOrigin or VerdictFarDetonation refusal exceeded.
	Floor float32
	// Deducted is what a report took from the ledger (health plus armor), or the felt
	// loss of a suspicion.
	Deducted float32
	// Verdict is the World's verdict or reason for a refusal (zero for gamemode events).
	Verdict Verdict
	// Commit says how a death was committed (player_death only).
	Commit lifecycle.CommitSource
	// Pose is the death pose (player_death only).
	Pose lifecycle.Pose
	// Connect marks the connect spawn (player_spawn, respawn_granted).
	Connect bool
	// Reason is why a connection ended (player_leave).
	Reason wire.Reason
	// Token is the connection's player token (player_join, player_leave).
	Token uint32
	// Detail is the deciding package's own verdict or error, as text ("" if none).
	Detail string
	// Count is how many refusals a refusals_suppressed event summarizes.
	Count uint64
}

// String formats the event deterministically, for logs and scenario tests, printing only
// the fields its kind uses.
func (e Event) String() string {
	b := make([]byte, 0, 96)
	b = append(b, "t="...)
	b = append(b, e.At.String()...)
	b = append(b, ' ')
	b = append(b, e.Kind.String()...)
	b = appendID(b, " player=", e.Player)
	switch e.Kind {
	case EventPlayerDamage:
		b = appendID(b, " attacker=", e.Other)
		b = appendUint(b, " weapon=", uint64(e.Weapon))
		b = appendUint(b, " body=", uint64(e.BodyPart))
		b = appendUint(b, " seq=", uint64(e.Seq))
		b = appendFloat(b, " claimed=", e.Amount)
		b = appendFloat(b, " floor=", e.Floor)
		b = appendFloat(b, " deducted=", e.Deducted)
	case EventPlayerDeath:
		b = appendID(b, " killer=", e.Other)
		b = appendUint(b, " cause=", uint64(e.Weapon))
		b = appendUint(b, " gen=", uint64(e.Gen))
		b = append(b, " pose="...)
		b = append(b, e.Pose.String()...)
		b = append(b, " by="...)
		b = append(b, e.Commit.String()...)
	case EventPlayerSpawn, EventRespawnGranted:
		b = appendUint(b, " gen=", uint64(e.Gen))
		if e.Connect {
			b = append(b, " connect"...)
		}
	case EventGodMode:
		b = appendFloat(b, " excess=", e.Amount)
	case EventGodModeSuspect:
		b = appendFloat(b, " claimed=", e.Amount)
		b = appendFloat(b, " felt=", e.Deducted)
		b = appendUint(b, " unconfirmed=", uint64(e.Seq))
	case EventVehicleGodModeSuspect:
		b = appendID(b, " vehicle=", e.Vehicle)
		b = appendFloat(b, " claimed=", e.Amount)
		b = appendFloat(b, " felt=", e.Deducted)
		b = appendUint(b, " hits=", uint64(e.Seq))
	case EventPlayerJoin:
		b = appendUint(b, " token=", uint64(e.Token))
	case EventPlayerLeave:
		b = appendUint(b, " token=", uint64(e.Token))
		b = append(b, " reason="...)
		b = append(b, e.Reason.String()...)
	case EventVehicleExploded, EventVehicleExplodeRefused:
		b = appendID(b, " vehicle=", e.Vehicle)
		b = appendID(b, " author=", e.Other)
	case EventDeathCounted:
		b = appendID(b, " killer=", e.Other)
		b = appendUint(b, " cause=", uint64(e.Weapon))
	case EventPackageRefused:
		// The call and the package's error are the Detail.
	case EventRefusalsSuppressed:
		b = appendUint(b, " count=", e.Count)
	default:
		b = appendID(b, " other=", e.Other)
		b = appendUint(b, " weapon=", uint64(e.Weapon))
		b = appendUint(b, " seq=", uint64(e.Seq))
		if e.Vehicle != wire.NoVehicle {
			b = appendID(b, " vehicle=", e.Vehicle)
		}
		if e.Verdict == VerdictFarOrigin || e.Verdict == VerdictFarDetonation {
			b = appendFloat(b, " distance=", e.Amount)
			b = appendFloat(b, " tolerance=", e.Floor)
		}
	}
	if e.Verdict != 0 {
		b = append(b, " verdict="...)
		b = append(b, e.Verdict.String()...)
	}
	if e.Detail != "" {
		b = append(b, " detail="...)
		b = append(b, e.Detail...)
	}
	return string(b)
}

func appendID[ID ~uint16](b []byte, label string, id ID) []byte {
	b = append(b, label...)
	if id == 0xFFFF { // NoPlayer, NoVehicle
		return append(b, "none"...)
	}
	return strconv.AppendUint(b, uint64(id), 10)
}

func appendUint(b []byte, label string, v uint64) []byte {
	b = append(b, label...)
	return strconv.AppendUint(b, v, 10)
}

func appendFloat(b []byte, label string, v float32) []byte {
	b = append(b, label...)
	return strconv.AppendFloat(b, float64(v), 'f', 2, 32)
}
