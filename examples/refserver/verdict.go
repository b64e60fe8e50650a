package refserver

import "strconv"

// Verdict is what the World decided about one message of a client (Handle and Receive), and
// the reason an Event gives for a refusal. Every refusal has its own name, so a hostile or
// broken input is always reported with a reason and never changes anything.
type Verdict uint8

// The verdicts. VerdictAccepted and VerdictHeld are the only ones that are not refusals;
// VerdictIgnored is harmless input that needed no action.
const (
	// VerdictAccepted: the message was taken.
	VerdictAccepted Verdict = iota + 1
	// VerdictHeld: a damage report the vitals package holds for an earlier one in the
	// client's order; its final outcome comes as an event later.
	VerdictHeld
	// VerdictIgnored: nothing to do (a repeated Hello, a pong for a ping already answered,
	// a respawn request the policy does not grant yet, a death report of a committed life).
	VerdictIgnored

	// VerdictClockBackwards: now lies before the World's clock (a host bug).
	VerdictClockBackwards
	// VerdictConnectionRange: the connection id is not a player slot of the World.
	VerdictConnectionRange
	// VerdictUnknownConnection: a datagram of a connection that never said Hello.
	VerdictUnknownConnection
	// VerdictMalformed: the bytes did not decode (wire or lane error).
	VerdictMalformed
	// VerdictWrongDirection: a client sent a message only the server sends.
	VerdictWrongDirection
	// VerdictLaneFull: the answer could not be queued on the client's lane; nothing was
	// committed (the client repeats its request).
	VerdictLaneFull

	// VerdictOutdated: a frame not newer than the last one taken from this connection (or
	// vehicle).
	VerdictOutdated
	// VerdictOtherLife: a frame the lifecycle drops: of a previous or future life, not
	// spawned yet, or not living while the new life awaits its first living frame.
	VerdictOtherLife

	// VerdictNotAlive: the actor may not act (lifecycle.MayAct is false: dead, not spawned,
	// or its new life not confirmed by a living frame yet).
	VerdictNotAlive
	// VerdictWrongEpoch: the action names another life (death_epoch) than the server's.
	VerdictWrongEpoch
	// VerdictDuplicate: a shot or projectile number already seen.
	VerdictDuplicate
	// VerdictTooOld: a shot or projectile number older than the window the World
	// remembers.
	VerdictTooOld
	// VerdictBadRay: a shot whose ray has no length, or is longer than rewind.MaxRayLength.
	VerdictBadRay
	// VerdictUnknownWeapon: inventory: the weapon is no weapon of the catalogue.
	VerdictUnknownWeapon
	// VerdictWrongKind: inventory: the weapon cannot produce this action.
	VerdictWrongKind
	// VerdictNotOwned: inventory: the weapon is not in the store.
	VerdictNotOwned
	// VerdictNoAmmo: inventory: the weapon has no rounds left.
	VerdictNoAmmo
	// VerdictBadGeometry: a coordinate or distance that is not finite or negative.
	VerdictBadGeometry
	// VerdictOutOfRange: the ray is longer than the weapon's range, or a blow or a knife
	// kill from farther than its reach.
	VerdictOutOfRange
	// VerdictTooFast: faster than the weapon's (or the vehicle guns') minimum interval.
	VerdictTooFast
	// VerdictPropertiesTooOld: the shot names a weapon properties revision no longer kept.
	VerdictPropertiesTooOld
	// VerdictPropertiesFuture: the shot names a weapon properties revision never published.
	VerdictPropertiesFuture
	// VerdictUnknownVehicle: the message names a vehicle that does not exist.
	VerdictUnknownVehicle
	// VerdictNotInVehicle: a vehicle's frame, gun or explosion from a player that does not
	// hold a seat of that vehicle (for frames and explosions, its driver's seat).
	VerdictNotInVehicle
	// VerdictWrecked: the vehicle is already wrecked.
	VerdictWrecked
	// VerdictUnknownProjectile: a detonation of a projectile that was never accepted, or of
	// an earlier life.
	VerdictUnknownProjectile
	// VerdictAlreadyDetonated: a second detonation of one projectile.
	VerdictAlreadyDetonated
	// VerdictUnknownPlayer: the message names a player that is not connected.
	VerdictUnknownPlayer
	// VerdictTargetNotAlive: a stealth kill of a victim the server no longer holds alive
	// and counted (its death is counted or committed, or its new life not confirmed): the
	// world changed under the claim.
	VerdictTargetNotAlive
	// VerdictTeammate: teams refused it (a stealth kill of a teammate; a report between
	// teammates, with the teams verdict in the event's Detail).
	VerdictTeammate

	// VerdictNoSuchAction: a damage report names a shot, projectile, effect or vehicle
	// explosion the World does not remember (never accepted, expired, or forgotten).
	VerdictNoSuchAction
	// VerdictWrongWeapon: the report's weapon is not the one of the action it names.
	VerdictWrongWeapon
	// VerdictNotRelayed: the action was not relayed to this life of the victim (it joined or
	// respawned after it, or the report names its own shot).
	VerdictNotRelayed
	// VerdictNoCredit: the shot's credits for this victim are used up (one per pellet).
	VerdictNoCredit
	// VerdictAttackerMismatch: the report names another attacker than the action's author.
	VerdictAttackerMismatch
	// VerdictAttackerNotAlive: a blow or a ram from a player that may not act.
	VerdictAttackerNotAlive
	// VerdictTooFar: the victim stood too far from the blow, the ram, the blast or the
	// effect.
	VerdictTooFar
	// VerdictNotDriving: a ram (or rotor blades) from a player not driving a vehicle.
	VerdictNotDriving
	// VerdictNotHolding: fire, spray or extinguisher damage from a player not holding that
	// weapon with its fire held.
	VerdictNotHolding
	// VerdictDiscarded: the vitals package discarded the report (its verdict in Detail).
	VerdictDiscarded
	// VerdictInvalid: a field value the domain package refuses (a body part off the
	// whitelist, a claim out of range; the error in Detail).
	VerdictInvalid
	// VerdictFutureRevision: a frame echoing a health or weapon revision the server never
	// sent; the package ignores that part of it (the frame is still relayed). No honest
	// client sends one: a host may treat it as a sign of a modified client.
	VerdictFutureRevision

	// VerdictNotGranted: a respawn request the lifecycle does not grant now (Detail).
	VerdictNotGranted

	// VerdictFarOrigin: a shot's ray or a projectile's launch starts (or the detonation of
	// a projectile whose launch never arrived lies) farther from where the server accepted
	// its actor than the actor's body, its seat or vehicle, and its motion allow: the
	// actor's accepted path over OriginWindow (its vehicle's, for a vehicle's rocket).
	// Detail gives the distance and the tolerance.
	VerdictFarOrigin
	// VerdictFarDetonation: a detonation farther from its projectile's launch than that
	// weapon carries a projectile in the time since the launch (a thrown weapon's reach, a
	// rocket's speed; a satchel may ride a vehicle that stood within its reach). Detail
	// gives the distance and the bound.
	VerdictFarDetonation
	// VerdictSeatTaken: a frame claims a seat another player holds.
	VerdictSeatTaken
	// VerdictNoSuchSeat: a frame claims a seat the vehicle's model does not have.
	VerdictNoSuchSeat
	// VerdictOutOfReach: a frame claims a seat of a vehicle farther than EntryReach from
	// the player's accepted position.
	VerdictOutOfReach
	// VerdictWrongSeat: a vehicle's gun fired from a seat that does not fire it.
	VerdictWrongSeat
	// VerdictNotAGun: a vehicle shot names a weapon that is none of the model's guns (an
	// unarmed vehicle, or a weapon id the model's guns do not fire).
	VerdictNotAGun
	// VerdictOffMount: a vehicle shot's ray starts away from its gun's mount on the
	// vehicle's accepted pose (beyond the mount reach, VehicleGunSlack and the lag).
	VerdictOffMount
	// VerdictRateLimited: over one of the connection's caps (DatagramRate, FrameRate,
	// ProjectileRate): refused before anything took it, and counted (ConnStats).
	VerdictRateLimited

	verdictEnd
)

var verdictNames = [...]string{
	VerdictAccepted:          "accepted",
	VerdictHeld:              "held",
	VerdictIgnored:           "ignored",
	VerdictClockBackwards:    "clock_backwards",
	VerdictConnectionRange:   "connection_out_of_range",
	VerdictUnknownConnection: "unknown_connection",
	VerdictMalformed:         "malformed",
	VerdictWrongDirection:    "wrong_direction",
	VerdictLaneFull:          "lane_full",
	VerdictOutdated:          "outdated",
	VerdictOtherLife:         "other_life",
	VerdictNotAlive:          "not_alive",
	VerdictWrongEpoch:        "wrong_epoch",
	VerdictDuplicate:         "duplicate",
	VerdictTooOld:            "too_old",
	VerdictBadRay:            "bad_ray",
	VerdictUnknownWeapon:     "unknown_weapon",
	VerdictWrongKind:         "wrong_kind",
	VerdictNotOwned:          "not_owned",
	VerdictNoAmmo:            "no_ammo",
	VerdictBadGeometry:       "bad_geometry",
	VerdictOutOfRange:        "out_of_range",
	VerdictTooFast:           "too_fast",
	VerdictPropertiesTooOld:  "properties_too_old",
	VerdictPropertiesFuture:  "properties_future",
	VerdictUnknownVehicle:    "unknown_vehicle",
	VerdictNotInVehicle:      "not_in_vehicle",
	VerdictWrecked:           "wrecked",
	VerdictUnknownProjectile: "unknown_projectile",
	VerdictAlreadyDetonated:  "already_detonated",
	VerdictUnknownPlayer:     "unknown_player",
	VerdictTargetNotAlive:    "target_not_alive",
	VerdictTeammate:          "teammate",
	VerdictNoSuchAction:      "no_such_action",
	VerdictWrongWeapon:       "wrong_weapon",
	VerdictNotRelayed:        "not_relayed",
	VerdictNoCredit:          "no_credit",
	VerdictAttackerMismatch:  "attacker_mismatch",
	VerdictAttackerNotAlive:  "attacker_not_alive",
	VerdictTooFar:            "too_far",
	VerdictNotDriving:        "not_driving",
	VerdictNotHolding:        "not_holding",
	VerdictDiscarded:         "discarded",
	VerdictInvalid:           "invalid",
	VerdictFutureRevision:    "future_revision",
	VerdictNotGranted:        "not_granted",
	VerdictFarOrigin:         "far_origin",
	VerdictFarDetonation:     "far_detonation",
	VerdictSeatTaken:         "seat_taken",
	VerdictNoSuchSeat:        "no_such_seat",
	VerdictOutOfReach:        "out_of_reach",
	VerdictWrongSeat:         "wrong_seat",
	VerdictNotAGun:           "not_a_gun",
	VerdictOffMount:          "off_mount",
	VerdictRateLimited:       "rate_limited",
}

// String names the verdict.
func (v Verdict) String() string {
	if v > 0 && v < verdictEnd {
		return verdictNames[v]
	}
	return "verdict(" + strconv.Itoa(int(v)) + ")"
}

// Refused reports whether the verdict refuses the message.
func (v Verdict) Refused() bool {
	return v != VerdictAccepted && v != VerdictHeld && v != VerdictIgnored
}
