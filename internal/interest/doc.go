// Package interest decides who sees whom: the streaming of a world too large for every
// player to be shown to every other. It is a pure, deterministic state machine over the
// players' positions in the horizontal plane (a uniform spatial hash whose cell is the
// stream distance plus its margin) that keeps, for each recipient, the set of subjects
// shown to it, and tells the host which shows and hides to send.
//
// # Rules
//
//   - [stream-distance] A subject is shown to a recipient when it stands within Distance
//     of it, and hidden only once it stands beyond Distance+Margin (the hysteresis: a
//     player walking along the edge does not flap between shown and hidden).
//   - [stream-cap] A recipient is shown at most Cap subjects, the nearest first (ties by
//     the lower id). A subject already shown competes as if it stood Margin nearer, so
//     the cap's edge has the same hysteresis as the distance's.
//   - [stream-phase] Each recipient is re-evaluated every Every, in a phase slot of its
//     own (its id modulo Slots), so the evaluations of a large world spread over the
//     period instead of all falling on one tick.
//   - [stream-join] A recipient that joins (Place for the first time) is evaluated at
//     once, and shown to every recipient within Distance that has room under its Cap, so
//     players standing together see each other from the start.
//   - [stream-crowd] A crowd costs a bounded amount: an evaluation weighs the subjects
//     already shown to the recipient and at most MaxCrowd others within Distance (found
//     from the recipient's own cell outward), and a join offers itself to at most
//     MaxCrowd recipients within Distance; those beyond see it at their own evaluation if
//     it is among their nearest. A recipient with fewer than MaxCrowd others within
//     Distance is evaluated exactly as [stream-cap] says; in a denser crowd it is shown the
//     nearest of those weighed, and its shown set never flaps (a shown subject is always
//     weighed).
//   - [stream-standing] A world standing still costs its evaluations next to nothing: a
//     recipient's evaluation that weighed every subject within reach and kept them all
//     (fewer than Cap and than MaxCrowd) is not redone while neither it nor any player in
//     the 3x3 cells around it moves, comes or goes, and its shown set is not changed by
//     a join or a Remove; redone, it would change nothing.
//   - [stream-sent] A show is owed until the host says it went out (Sent): only then does
//     Sees report the subject seen. A hide is only reported for a subject whose show went
//     out; a show that never went out is forgotten silently.
//   - [within] Within lists the placed players within a radius of a point (the players
//     an event at that point reaches), from the grid's cells around it, or from every
//     bucket when the circle spans more than MaxWithinCells cells: exact, deterministic,
//     allocation-free into the caller's buffer.
//   - [points-index] Points indexes things other than players (a world's vehicles) the
//     same way: a uniform spatial hash of the plane, so Near finds every point within a
//     radius of a place (exactly those: points of other cells sharing a bucket are
//     skipped) by reading the cells the radius covers, and Place, Remove and Near do not
//     allocate; the index holds at most the ids it was made for.
//
// # Use
//
// Nothing here sends anything: Evaluate, Place and Remove return the changes as values
// (Change) in a slice the caller reuses, and a Manager does not allocate once its slices
// have grown. A Manager is not safe for concurrent use.
//
// The spatial hash is not shared with the rewind's broadphase: the rewind files a ball of
// every position a shot may rewind a player to, in levels by speed, and queries along a
// ray; here a point per player is queried around a point, with a cell as wide as the
// query. The two share only the idea of a bucket list.
package interest
