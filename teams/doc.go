// Package teams keeps the teams of a world, turns them into damage groups, and stamps
// into every packet that can hurt whether its sender is the recipient's teammate, so that
// the victim's client can refuse a teammate's damage before it applies it and the server
// never credits it ([teammate-refused-by-victim], [teammate-never-credited]).
//
// The victim's client applies damage at the moment of the hit, and nothing can take it
// back afterwards: the server never corrects a living player's health. So friendly fire
// has to be refused where the damage happens, on the victim's client, and that client
// has to know, for every packet, whether its sender is a teammate.
//
// # Rules
//
// The rules below are the package's contract, each under a short stable name that code,
// tests and the other packages cite. The sections after this one say how each works.
//
//   - [damage-groups] A player's damage group is its team's id while that team's friendly
//     fire is off, 0 otherwise; the group is shown with each player, teams and names never
//     go on the wire.
//   - [teammate-stamp] Every packet that can hurt carries, per recipient, a stamp: whether
//     its sender is the recipient's teammate, and the relation revision it was computed
//     at. A packet without a sender carries "not a teammate". A server effect with a
//     creator (an explosion, a fire) is stamped with the creator's relation.
//   - [teammate-refused-by-victim] The victim's client refuses a teammate's damage before
//     it applies it: a shot and a stealth kill by the stamp their own packet carried, every
//     other damage by the newest stamp received from its author. A refused hit is neither
//     applied nor reported. (Ours, for the stealth kill: it is the server's whole decision,
//     taken at its own stamp's relation, and the server commits the death whatever the
//     victim does; judged by a newer stamp of a team change made since, the victim stayed
//     alive on its screen and was committed dead by the server.)
//   - [teammate-never-credited] The server never credits damage between teammates, so it
//     never becomes the victim's last damage, and a killer is never a teammate, even for
//     damage dealt before the two joined the same team: the relation is asked again when
//     the death is committed.
//   - [explosion-spares-teammates] A vehicle explosion kills every occupant except the
//     credited killer's teammates while friendly fire is off; without a credited killer it
//     kills everyone inside.
//
// # Teams and membership
//
// Teams live on the server only: a Team has a name, a color and a friendly-fire flag, and
// is created, changed and removed by the gamemode through a Registry. A player's team is
// a field of the player's slot: Disconnect takes the player out of its team, and a new
// player connecting on the same slot starts in no team. Nothing of a team (its name, its
// color, its member list) goes on the wire.
//
// # Damage groups
//
// What goes on the wire is a player's damage group: its team id while that team's
// friendly fire is off, and 0 otherwise (no team, or friendly fire on). Two different
// players with the same non-zero group are teammates; a player is never its own teammate,
// and group 0 is nobody's teammate. Turning friendly fire on gives every member group 0:
// they can hurt each other again, and nothing is refused between them.
//
// The group is visible to everyone the player is shown to: a client compares the groups
// of two remote players (the host sends each player's Group to everyone it is shown to,
// with its frames). A gamemode with
// hidden roles (a traitor, a spy) must not express them as damage groups, or every client
// can read them.
//
// # The relation revision and the stamp
//
// The registry keeps one global relation revision, a 16-bit serial number (compared with
// internal/revision). It moves, by one, on every operation that changes the damage group
// of at least one player: joining or leaving a team whose friendly fire is off, turning a
// team's friendly fire on or off while it has members, removing a team with members whose
// friendly fire was off, a player with a non-zero group disconnecting. Every change of a
// relation is a change of a group, so the revision moves on every relation change, and a
// revision names exactly one assignment of groups: two stamps for the same pair with the
// same revision always agree. Operations that provably change no group (creating a team,
// renaming, recoloring, a player in no team joining a team whose friendly fire is on,
// removing an empty team, connecting) leave it where it is, which keeps the 16-bit space
// from being spent for nothing. The revision also orders the groups themselves: a packet
// stamped with a revision shows the groups of that revision. A large change (removing a
// team, toggling its friendly fire) moves it once, not once per member.
//
// Stamp(sender, recipient) returns {Teammate, Rev} for one recipient of one packet. The
// host stamps every relayed frame (of a player, and of a vehicle: the sender is the
// player whose client sent it), shot, projectile and detonation, and every server effect
// with a creator (the creator is the sender). It is two loads and a compare, allocates
// nothing, and never fails: an unknown or out-of-range id is simply nobody's teammate.
//
// A team change sends nothing by itself. The next packets carry the new relation: the
// host relays every shown player's frames at least once a heartbeat, so every recipient
// learns the change within one. There is no reliable relation packet: one per pair of
// players would overflow the reliable lane on a large team change.
//
// # Judging on the victim's client
//
// The client side of the rules is here too, for the honest client model and for real
// clients: JudgeHit and Tracker. A shot is judged by the stamp its own packet carried:
// the victim decides by what it knew when the shot was fired. Any other damage (melee, a
// ram, fire, an explosion, a projectile's blast, an effect with a creator) is judged by
// the newest stamp received from its author. Newest means the newest relation revision,
// not the last packet to arrive: datagrams overtake each other, and an old frame must not
// bring back an old relation. A refused hit is not applied at all: no damage, no hit
// reaction, no report; so refused damage raises no event and names no killer.
//
// # The server's refusals
//
//   - A damage report between teammates is not credited: no player_damage, and it does not
//     become the victim's last damage (JudgeReport, ReportVerdict.Credited).
//   - A hit from an action accepted before a team change is judged by what the victim knew
//     then: a shot stamped "not teammates" may be applied by the victim even though the two
//     are teammates when it lands. Only a server that held the health itself could close
//     that window. The server discards the report (ReportDiscardedTeamChange). The server
//     does not keep a stamp per recipient for this: it keeps the revision each shot was
//     relayed with, and StampAt rebuilds the victim's stamp from the last GroupHistory
//     group changes of each slot.
//   - A report whose action was stamped "teammates" is refused too
//     (ReportRefusedTeammateStamp): an honest client never sends one.
//   - A stealth kill of a teammate is refused (JudgeStealthKill).
//   - A teammate is never named killer, even for damage it dealt before the two joined the
//     same team: the candidate is judged by the relation at the moment the death was
//     counted and at the moment it is named (JudgeKiller).
//
// # Vehicle explosions
//
// Damage to a vehicle is not damage to a player, so a teammate may wreck a teammate's
// vehicle. When the explosion has a credited killer, that killer is its author on every
// client: the killer's teammates inside refuse the damage, so the server neither counts
// them dead nor gives them that killer, and everyone else inside dies with the killer
// named. An explosion without a credited killer has no author and kills everyone inside;
// the attacker of an occupant's last damage may still be its killer, unless it is the
// occupant's teammate. JudgeExplosion is that decision as a pure function of the facts.
//
// # What is open or left to the host
//
//   - Which vehicle damage makes a credited killer is the host's rule (the reference server's is ours);
//     the killer enters JudgeExplosion as a fact.
//   - A player named as its own killer (its own explosion, its own last damage) is not a
//     teammate case: the package names it, and the host's attribution rules decide.
//   - A hostile client can ignore a refusal and apply damage anyway, or refuse damage it
//     should take. The first only hurts itself and is never credited; the second is the
//     health ledger's business (vitals), not this package's.
//   - The window of non-shot damage: between a team change and the next packet of the
//     author, the victim judges melee, rams and blasts by the old relation. The server
//     never credits such a report between teammates; the window closes within a heartbeat.
//   - The server judges a vehicle explosion by the relation when it accepts it; an
//     occupant's client judges it by its newest stamp from the killer. A team change in
//     flight can make them disagree for one explosion: an occupant the server counted dead
//     that refused the damage is killed by the ledger's own death commit (SetHealth(0));
//     one the server spared that applied it reports a death the server did not count,
//     and lifecycle decides that report. No rule closes this window, as none closes the one
//     of a shot.
//   - Everything here is per slot. A report or a killer naming a player that has left
//     (and whose slot may hold someone else) must be dropped by the host before it gets
//     here (player tokens, lifecycle's [player-token]).
//   - A client's Tracker holds 16-bit revisions. It must Forget a sender when it stops
//     showing it, so that a stamp kept over a very long absence is never compared with one
//     half the revision space later.
//
// # Concurrency
//
// A Registry and a Tracker are not safe for concurrent use: one goroutine owns a world.
// The Registry's read-only methods (Stamp, StampAt, Teammates, Group, the Judge methods,
// the getters) never write, so a host may fan the relay out over several goroutines while
// no method that changes the registry runs. Everything is preallocated: no method
// allocates, except to build the error it returns and in the Append methods (which grow
// the caller's slice).
package teams
