package teams

// This file holds the server's refusals between teammates: damage reports, stealth kills
// and the naming of a killer. Each decision is a pure function of its facts, with a
// Registry method that gathers the facts from the registry.

//go:generate go tool stringer -type=ReportVerdict,StealthVerdict,KillerVerdict -linecomment

// ReportVerdict is the server's decision about a damage report from a victim naming
// another player as its attacker.
type ReportVerdict uint8

// The decisions of JudgeReport. Only ReportCredited credits the report: it may raise
// player_damage and becomes the victim's last damage. Every other verdict does neither.
const (
	// ReportCredited: the attacker and the victim are not teammates, and the action behind
	// the report did not carry a teammate stamp.
	ReportCredited ReportVerdict = iota + 1 // credited
	// ReportRefusedTeammates: the attacker and the victim are teammates now and the damage
	// was judged by the newest packet (not a shot). An honest victim may still have applied
	// it if its newest stamp predated the team change; either way it is not credited.
	ReportRefusedTeammates // refused: teammates
	// ReportDiscardedTeamChange: the action carried a stamp saying "not teammates", and the
	// two are teammates now: it was accepted before a team change. The victim may have
	// applied the hit, by what it knew then; the server discards the report.
	ReportDiscardedTeamChange // discarded: accepted before a team change
	// ReportRefusedTeammateStamp: the action carried a stamp saying "teammates". An honest
	// victim refuses such a hit before applying it and never reports it, so this report
	// comes from a client that did not refuse; the host may count it as suspicious.
	ReportRefusedTeammateStamp // refused: stamped as teammates
)

// Credited reports whether the verdict credits the report (player_damage, last damage).
func (v ReportVerdict) Credited() bool { return v == ReportCredited }

// ReportFacts are the facts a damage report is judged by.
type ReportFacts struct {
	// TeammatesNow: the attacker and the victim are teammates when the report is handled.
	TeammatesNow bool
	// Stamped: the action behind the report carried its own stamp to the victim and the
	// server knows it (a shot). Damage judged by the newest packet (melee, fire, a ram, an
	// explosion) is not stamped.
	Stamped bool
	// StampedTeammates: that stamp said "teammates" (Stamped only).
	StampedTeammates bool
}

// JudgeReport decides whether a damage report between two players is credited. A report
// between teammates is not credited; neither is one whose action was stamped as a
// teammate's; one whose action was stamped "not teammates" before the two became teammates
// is discarded.
//
// Rules: [teammate-never-credited].
func JudgeReport(f ReportFacts) ReportVerdict {
	switch {
	case f.Stamped && f.StampedTeammates:
		return ReportRefusedTeammateStamp
	case f.TeammatesNow && f.Stamped:
		return ReportDiscardedTeamChange
	case f.TeammatesNow:
		return ReportRefusedTeammates
	}
	return ReportCredited
}

// Action is what the server knows of the action behind a damage report.
type Action struct {
	// Stamped: the action carried its own stamp (a shot the server relayed). The zero
	// Action is damage judged by the newest packet.
	Stamped bool
	// Rev is the relation revision the action was relayed with (Stamped only). The server
	// keeps it with the accepted shot; StampAt rebuilds the victim's stamp from it.
	Rev uint16
}

// JudgeReport judges a report of damage to victim naming attacker (NoPlayer for none) at
// the relation now, and, for a stamped action, at the revision it was relayed with.
//
// If that revision cannot be rebuilt (StampAt fails: see GroupHistory), the report is
// judged by the relation now alone and the error says why; the verdict is still the one
// to apply. An attacker that is NoPlayer or not connected is nobody's teammate.
func (r *Registry) JudgeReport(attacker, victim PlayerID, a Action) (ReportVerdict, error) {
	f := ReportFacts{TeammatesNow: r.Teammates(attacker, victim)}
	var err error
	if a.Stamped && attacker != NoPlayer {
		var s Stamp
		if s, err = r.StampAt(attacker, victim, a.Rev); err == nil {
			f.Stamped, f.StampedTeammates = true, s.Teammate
		}
	}
	return JudgeReport(f), err
}

// StealthVerdict is the teams' part of the decision about a stealth kill.
type StealthVerdict uint8

// The decisions of JudgeStealthKill.
const (
	// StealthAllowed: the two are not teammates; the other rules of the stealth kill decide.
	StealthAllowed StealthVerdict = iota + 1 // allowed
	// StealthRefusedTeammate: the victim is the attacker's teammate; the stealth kill is not
	// accepted.
	StealthRefusedTeammate // refused: teammate
)

// JudgeStealthKill refuses a stealth kill of a teammate. The server decides a stealth kill
// whole, at the moment it accepts it, so the relation at that moment is the one that counts.
func JudgeStealthKill(teammates bool) StealthVerdict {
	if teammates {
		return StealthRefusedTeammate
	}
	return StealthAllowed
}

// JudgeStealthKill judges a stealth kill of victim by attacker at the relation now.
func (r *Registry) JudgeStealthKill(attacker, victim PlayerID) StealthVerdict {
	return JudgeStealthKill(r.Teammates(attacker, victim))
}

// KillerVerdict tells how a killer candidate was judged.
type KillerVerdict uint8

// The decisions of JudgeKiller.
const (
	// KillerNamed: the candidate is named killer.
	KillerNamed KillerVerdict = iota + 1 // named
	// KillerNone: there was no candidate (NoPlayer).
	KillerNone // none
	// KillerRefusedTeammate: the candidate is the victim's teammate and is not named; the
	// death has no killer.
	KillerRefusedTeammate // refused: teammate
)

// JudgeKiller filters a killer candidate (the attacker of the victim's last damage, or the
// credited author of what killed it) by the relation at the moment the killer is named: a
// teammate is never named, even for damage it dealt before the two joined the same team.
// It returns the killer to name (NoPlayer for none). A player named as its own killer is
// left to the host's attribution rules: a player is never its own teammate.
//
// Rules: [teammate-never-credited].
func JudgeKiller(candidate PlayerID, teammates bool) (PlayerID, KillerVerdict) {
	switch {
	case candidate == NoPlayer:
		return NoPlayer, KillerNone
	case teammates:
		return NoPlayer, KillerRefusedTeammate
	}
	return candidate, KillerNamed
}

// JudgeKiller judges a killer candidate for victim when the death is committed and the
// killer named (player_death). deathRev is the relation revision at the moment the death
// was counted (the host keeps Rev() with the counted death; pass Rev() when the two
// moments are one): the candidate is refused if it is the victim's teammate at that moment
// or now, so neither a team change between the damage and the death nor one between the
// death and its commit lets a teammate be named.
//
// If deathRev cannot be rebuilt (see StampAt), the candidate is judged by the relation now
// alone and the error says why; the result is still the one to apply.
//
// Rules: [teammate-never-credited].
func (r *Registry) JudgeKiller(candidate, victim PlayerID, deathRev uint16) (PlayerID, KillerVerdict, error) {
	if candidate == NoPlayer {
		k, v := JudgeKiller(candidate, false)
		return k, v, nil
	}
	teammates := r.Teammates(candidate, victim)
	then, err := r.StampAt(candidate, victim, deathRev)
	if err == nil {
		teammates = teammates || then.Teammate
	}
	k, v := JudgeKiller(candidate, teammates)
	return k, v, err
}
