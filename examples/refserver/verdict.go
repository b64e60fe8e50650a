package refserver

//go:generate go tool stringer -type=Verdict -linecomment

// Verdict is what the World decided about one message of a client (Handle and Receive), and
// the reason an Event gives for a refusal. Every refusal has its own name, so a hostile or
// broken input is always reported with a reason and never changes anything.
type Verdict uint8

// The verdicts. VerdictAccepted and VerdictHeld are the only ones that are not refusals;
// VerdictIgnored is harmless input that needed no action.
const (
	// VerdictAccepted: the message was taken.
	VerdictAccepted Verdict = iota + 1 // accepted
	// VerdictHeld: a damage report the vitals package holds for an earlier one in the
	// client's order; its final outcome comes as an event later.
	VerdictHeld // held
	// VerdictIgnored: nothing to do (a repeated Hello, a pong for a ping already answered,
	// a respawn request the policy does not grant yet, a death report of a committed life).
	VerdictIgnored // ignored

	// VerdictClockBackwards: now lies before the World's clock (a host bug).
	VerdictClockBackwards // clock_backwards
	// VerdictConnectionRange: the connection id is not a player slot of the World.
	VerdictConnectionRange // connection_out_of_range
	// VerdictUnknownConnection: a datagram of a connection that never said Hello.
	VerdictUnknownConnection // unknown_connection
	// VerdictMalformed: the bytes did not decode (wire or lane error).
	VerdictMalformed // malformed
	// VerdictWrongDirection: a client sent a message only the server sends.
	VerdictWrongDirection // wrong_direction
	// VerdictLaneFull: the answer could not be queued on the client's lane; nothing was
	// committed (the client repeats its request).
	VerdictLaneFull // lane_full

	// VerdictOutdated: a frame not newer than the last one taken from this connection (or
	// vehicle).
	VerdictOutdated // outdated
	// VerdictOtherLife: a frame the lifecycle drops: of a previous or future life, not
	// spawned yet, or not living while the new life awaits its first living frame.
	VerdictOtherLife // other_life

	// VerdictNotAlive: the actor may not act (lifecycle.MayAct is false: dead, not spawned,
	// or its new life not confirmed by a living frame yet).
	VerdictNotAlive // not_alive
	// VerdictWrongEpoch: the action names another life (death_epoch) than the server's.
	VerdictWrongEpoch // wrong_epoch
	// VerdictDuplicate: a shot or projectile number already seen.
	VerdictDuplicate // duplicate
	// VerdictTooOld: a shot or projectile number older than the window the World
	// remembers.
	VerdictTooOld // too_old
	// VerdictBadRay: a shot whose ray has no length, or is longer than rewind.MaxRayLength.
	VerdictBadRay // bad_ray
	// VerdictUnknownWeapon: inventory: the weapon is no weapon of the catalogue.
	VerdictUnknownWeapon // unknown_weapon
	// VerdictWrongKind: inventory: the weapon cannot produce this action.
	VerdictWrongKind // wrong_kind
	// VerdictNotOwned: inventory: the weapon is not in the store.
	VerdictNotOwned // not_owned
	// VerdictNoAmmo: inventory: the weapon has no rounds left.
	VerdictNoAmmo // no_ammo
	// VerdictBadGeometry: a coordinate or distance that is not finite or negative.
	VerdictBadGeometry // bad_geometry
	// VerdictOutOfRange: the ray is longer than the weapon's range, or a blow or a knife
	// kill from farther than its reach.
	VerdictOutOfRange // out_of_range
	// VerdictTooFast: faster than the weapon's (or the vehicle guns') minimum interval.
	VerdictTooFast // too_fast
	// VerdictPropertiesTooOld: the shot names a weapon properties revision no longer kept.
	VerdictPropertiesTooOld // properties_too_old
	// VerdictPropertiesFuture: the shot names a weapon properties revision never published.
	VerdictPropertiesFuture // properties_future
	// VerdictUnknownVehicle: the message names a vehicle that does not exist.
	VerdictUnknownVehicle // unknown_vehicle
	// VerdictNotInVehicle: a vehicle's frame, gun or explosion from a player that does not
	// hold a seat of that vehicle (for frames and explosions, its driver's seat).
	VerdictNotInVehicle // not_in_vehicle
	// VerdictWrecked: the vehicle is already wrecked.
	VerdictWrecked // wrecked
	// VerdictUnknownProjectile: a detonation of a projectile that was never accepted, or of
	// an earlier life.
	VerdictUnknownProjectile // unknown_projectile
	// VerdictAlreadyDetonated: a second detonation of one projectile.
	VerdictAlreadyDetonated // already_detonated
	// VerdictUnknownPlayer: the message names a player that is not connected.
	VerdictUnknownPlayer // unknown_player
	// VerdictTargetNotAlive: a stealth kill of a victim the server no longer holds alive
	// and counted (its death is counted or committed, or its new life not confirmed): the
	// world changed under the claim.
	VerdictTargetNotAlive // target_not_alive
	// VerdictTeammate: teams refused it (a stealth kill of a teammate; a report between
	// teammates, with the teams verdict in the event's Detail).
	VerdictTeammate // teammate

	// VerdictNoSuchAction: a damage report names a shot, projectile, effect or vehicle
	// explosion the World does not remember (never accepted, expired, or forgotten).
	VerdictNoSuchAction // no_such_action
	// VerdictWrongWeapon: the report's weapon is not the one of the action it names.
	VerdictWrongWeapon // wrong_weapon
	// VerdictNotRelayed: the action was not relayed to this life of the victim (it joined or
	// respawned after it, it did not have the actor shown when the action was relayed:
	// [stream-reports], or the report names its own shot).
	VerdictNotRelayed // not_relayed
	// VerdictNoCredit: the shot's credits for this victim are used up (one per pellet).
	VerdictNoCredit // no_credit
	// VerdictAttackerMismatch: the report names another attacker than the action's author.
	VerdictAttackerMismatch // attacker_mismatch
	// VerdictAttackerNotAlive: a blow or a ram from a player that may not act.
	VerdictAttackerNotAlive // attacker_not_alive
	// VerdictTooFar: the victim stood too far from the blow, the ram, the blast or the
	// effect.
	VerdictTooFar // too_far
	// VerdictNotDriving: a ram (or rotor blades) from a player not driving a vehicle.
	VerdictNotDriving // not_driving
	// VerdictNotHolding: fire, spray or extinguisher damage from a player not holding that
	// weapon with its fire held.
	VerdictNotHolding // not_holding
	// VerdictDiscarded: the vitals package discarded the report (its verdict in Detail).
	VerdictDiscarded // discarded
	// VerdictInvalid: a field value the domain package refuses (a body part off the
	// whitelist, a claim out of range; the error in Detail).
	VerdictInvalid // invalid
	// VerdictFutureRevision: a frame echoing a health or weapon revision the server never
	// sent; the package ignores that part of it (the frame is still relayed). No honest
	// client sends one: a host may treat it as a sign of a modified client.
	VerdictFutureRevision // future_revision

	// VerdictNotGranted: a respawn request the lifecycle does not grant now (Detail).
	VerdictNotGranted // not_granted

	// VerdictFarOrigin: a shot's ray or a projectile's launch starts (or the detonation of
	// a projectile whose launch never arrived lies) farther from where the server accepted
	// its actor than the actor's body, its seat or vehicle, and its motion allow: the
	// actor's accepted path over OriginWindow (its vehicle's, for a vehicle's rocket).
	// Detail gives the distance and the tolerance.
	VerdictFarOrigin // far_origin
	// VerdictFarDetonation: a detonation farther from its projectile's launch than that
	// weapon carries a projectile in the time since the launch (a thrown weapon's reach, a
	// rocket's speed; a satchel may ride a vehicle that stood within its reach). Detail
	// gives the distance and the bound.
	VerdictFarDetonation // far_detonation
	// VerdictSeatTaken: a frame claims a seat another player holds.
	VerdictSeatTaken // seat_taken
	// VerdictNoSuchSeat: a frame claims a seat the vehicle's model does not have.
	VerdictNoSuchSeat // no_such_seat
	// VerdictOutOfReach: a frame claims a seat of a vehicle farther than EntryReach from
	// the player's accepted position.
	VerdictOutOfReach // out_of_reach
	// VerdictWrongSeat: a vehicle's gun fired from a seat that does not fire it.
	VerdictWrongSeat // wrong_seat
	// VerdictNotAGun: a vehicle shot names a weapon that is none of the model's guns (an
	// unarmed vehicle, or a weapon id the model's guns do not fire).
	VerdictNotAGun // not_a_gun
	// VerdictOffMount: a vehicle shot's ray starts away from its gun's mount on the
	// vehicle's accepted pose (beyond the mount reach, VehicleGunSlack and the lag).
	VerdictOffMount // off_mount
	// VerdictRateLimited: over one of the connection's caps (DatagramRate, FrameRate,
	// ProjectileRate): refused before anything took it, and counted (ConnStats).
	VerdictRateLimited // rate_limited
	// VerdictSeated: a stealth kill of a victim, or by an attacker, who has held a seat of
	// a vehicle for longer than the attacker's round trip and StealthSeatGrace (a knife
	// kill takes two players on foot, [stealth-on-foot]).
	VerdictSeated // seated

	verdictEnd
)

// Refused reports whether the verdict refuses the message.
func (v Verdict) Refused() bool {
	return v != VerdictAccepted && v != VerdictHeld && v != VerdictIgnored
}
