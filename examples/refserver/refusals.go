package refserver

//go:generate go tool stringer -type=PackageCall -linecomment

// PackageCall names a call the World makes into a domain package on its own account: no
// client datagram and no gamemode verb waits for its answer (a lane acknowledgement routed
// to the package that waits for it, a history the rewind restarts, a join rolled back, a
// slot freed on leaving). The World never drops such a refusal silently: each is counted by
// its call in Stats.PackageRefusals and raised as a package_refused diagnostic whose Detail
// is the call and the package's error (the refusal changed nothing in that package: the
// packages validate before they commit).
type PackageCall uint8

// The calls whose refusals the World counts.
const (
	// CallRecordPlayer: rewind.World.RecordPlayer of an accepted frame.
	CallRecordPlayer PackageCall = iota // record_player
	// CallRespawnHistory: rewind.World.RespawnPlayer at a respawn grant.
	CallRespawnHistory // respawn_history
	// CallMovePlayer: rewind.World.MovePlayer of an occupant of a moved vehicle.
	CallMovePlayer // move_player
	// CallWreckVehicle: rewind.World.WreckVehicle of an accepted explosion.
	CallWreckVehicle // wreck_vehicle
	// CallVehicleHealth: vitals.VehicleDetector.Health of an accepted vehicle frame.
	CallVehicleHealth // vehicle_health
	// CallHealthAck: vitals.Player.Acknowledged of a health or armor command's
	// acknowledgement (also the deadline's zero).
	CallHealthAck // health_ack
	// CallMultipliersAck: vitals.Player.MultipliersAcknowledged of a multiplier table's
	// acknowledgement.
	CallMultipliersAck // multipliers_ack
	// CallZeroAck: lifecycle.World.ZeroAcknowledged of the deadline's SetHealth(0).
	CallZeroAck // zero_ack
	// CallWeaponAck: inventory.Inventory.Acknowledged of a weapon command's
	// acknowledgement.
	CallWeaponAck // weapon_ack
	// CallJudgeReport: teams.Registry.JudgeReport of a correlated damage report (a refusal
	// leaves the report uncredited).
	CallJudgeReport // judge_report
	// CallJoin: a package refused the new connection (the join is rolled back in the
	// packages that took it).
	CallJoin // join
	// CallJoinRollback: a package refused to undo its part of a join rolled back.
	CallJoinRollback // join_rollback
	// CallLeave: a package refused to free the slot of a connection that ended.
	CallLeave // leave

	// NumPackageCalls is the number of PackageCall values (the length of
	// Stats.PackageRefusals).
	NumPackageCalls
)

// packageRefused counts a refusal of call for player id (NoPlayer if none) and raises its
// package_refused diagnostic. A nil err is no refusal: it returns false and does nothing,
// so a call site reads `w.packageRefused(CallX, id, pkg.Call(...))`.
func (w *World) packageRefused(c PackageCall, id PlayerID, err error) bool {
	if err == nil {
		return false
	}
	w.stats.PackageRefusals[c]++
	w.raise(Event{Kind: EventPackageRefused, At: w.now, Player: id, Other: NoPlayer, Vehicle: NoVehicle,
		Detail: c.String() + ": " + err.Error()})
	return true
}
