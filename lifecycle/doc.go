// Package lifecycle owns whether each player is alive and which life it is on: the death
// commit, the respawn grant, and the lifecycle edges that tell the other players about
// both, under the rules below, and the wait for the victim's report of a death the
// server counted ([report-wait]).
//
// # Rules
//
// The rules below are the package's contract, each under a short stable name that code,
// tests and the other packages cite. The sections after this one say how each works.
//
//   - [server-commits-death] Only the server commits a death, once per life, on the
//     victim's DeathReport or when its wait for that report runs out; a client's "alive"
//     is never relayed as it is and never commits a death. The server relays its own life
//     state, and never a living player at lethal health.
//   - [report-wait] After the server counted a death (the ledger reached 0, a vehicle
//     explosion, a stealth kill), it waits for the victim's DeathReport for
//     ReportWaitBase + 2 x RTT (RTT counted up to MaxCountedRTT), StealthKillExtra longer
//     for a stealth kill, then commits the death itself.
//   - [death-epoch] Each life has a number (death_epoch). A client echoes its own in every
//     frame, report, request and combat message; whatever names an earlier life is
//     refused, so the grant resets combat correlation (ours: the per-packet life check of
//     combat traffic).
//   - [respawn-idempotent] A dead client repeats its RespawnRequest on a timer; the server
//     decides the moment (the respawn policy) and grants a new life at a point; a repeated
//     request before the new life's first frame gets the same grant, so a lost
//     RespawnPlayer heals itself.
//   - [first-living-frame] A granted life is confirmed by its first living frame (or a
//     DeathReport of it); its actions are accepted only from then on (MayAct).
//   - [lifecycle-edges] The death (PlayerWasted) and respawn (PlayerSpawned) edges go
//     reliably to the players the subject is shown to, once per life, and are critical:
//     a lane that cannot take them breaks the connection.
//   - [show-current-state] A recipient that does not see the subject gets no edges; a
//     show (PlayerShow) carries the subject's current state, its copy is built from it,
//     and the frames relayed before it are dropped (sync_seq).
//   - [player-token] Every edge carries the connection's token, so an edge never hits a
//     new player on a reused id.
//   - [default-pose] Ours: the death poses are our list of the game's death animations; a
//     pose not on it is replaced by PoseDefault.
//   - [respawn-delay] Ours: the respawn policy is a fixed delay after the commit
//     (DefaultRespawnDelay), overridable per death.
//
// # State and edges
//
// A life has two sides. The state (alive? which generation?) is what the server stamps into
// every relayed frame and what a late show builds its copy from. The edges (a death with its
// pose, a respawn at a point) are events: a receiver that missed one could not rebuild it
// from later state, so they travel as critical messages on the reliable lane. The server
// owns both; the client's own alive bit and generation are read, never relayed.
//
// A World holds the players of one game world by id. Each connection gets a Handle: its id
// and a player token unique among the connections of the World, so an input or an edge
// meant for a departed player never touches a new player on the same id. A connection's
// life moves through phases:
//
//	Join ─► unspawned ─grant─► respawning ─first living frame─► alive
//	                               ▲                              │  │
//	                               │                    CountDeath│  │DeathReport
//	                             grant                            ▼  │
//	                               │                          dying  │
//	                               │   DeathReport, deadline, Leave│  │
//	                              dead ◄──────────────────────────┴──┘
//
// The generation (death_epoch) steps once per grant. It is counted per player id, like
// the relay sequence below: a new connection continues from the last generation of its id,
// so no frame of a new player ever carries the generation of a copy of the departed one.
//
// # The frame stamp
//
// Frame returns the Stamp for each relayed frame: the server's alive and generation, a
// per-id relay sequence, and the health to relay. While the server holds the player alive,
// a health at or below 0 is relayed as 1: nobody sees a living player at zero without a
// death edge. A frame with alive = 0 commits nothing. A frame of another generation than
// the server's is dropped: a late frame of the previous life, or a client trying to revive
// itself with a generation it was never granted. Frame does not allocate.
//
// The relay sequence (Stamp.Seq) counts the relayed frames of a player id, across lives and
// across the connections that hold the id. PlayerSpawned.SyncSeq is the sequence of the
// first frame relayed after the grant: every frame of the old life was relayed with an
// older one, and after the grant only frames of the new life are relayed. A receiver
// keeps, per copy, the oldest sequence it still accepts (Copy.Floor): the edge sets it to
// SyncSeq, each accepted frame moves it past itself, and an older frame is dropped. So a
// frame of the corpse that arrives late, after the copy was rebuilt at the spawn point,
// never moves the new copy. Because the counter survives a change of hands of the id, the
// same barrier drops late frames of a departed player.
//
// # Death
//
// The victim reports its own death (ReportDeath) with its means and its pose; a pose the
// game cannot produce (see Pose) becomes PoseDefault. The death is committed once per
// life, only for a spawned player the server holds alive and that is not respawning (a
// report that names the previous life is ignored; one that names the granted life, whose
// frames have not arrived, first confirms it: see below). A fresh commit sends PlayerWasted (with the pose, to the observers, not to the victim) and
// raises player_death (victim, killer, cause, pose). The killer and the cause are the
// server's (the counted death's, or the vitals package's last damage passed as a Blame),
// never the victim's word.
//
// The server also counts deaths itself (CountDeath; the vitals package decides when: the
// ledger at 0, an accepted vehicle explosion, an accepted stealth kill). It then waits for
// the victim's report until 2 x RTT + 1 s after the counted moment (the RTT counted up to
// 1 s), 10 s more for a stealth kill; of two counted deaths the earlier deadline applies.
// Nothing cancels the wait: leaving the vehicle does not. A report in time commits with its
// pose. Otherwise Advance commits at the deadline: player_death with the count's killer,
// PlayerWasted with the default pose, and a critical SetHealth(0) to the victim
// (Commit.SendZero); the respawn waits until the host reports that the victim acknowledged
// that zero (ZeroAcknowledged), or a late zero would kill the new life. A report arriving
// after any commit commits nothing again. A player that leaves inside the wait leaves
// dead: Leave commits the death before the id is freed.
//
// From the commit on, the player's actions are refused (MayAct is false; the host checks it
// before a shot, a damage report, a command) and only a respawn grant revives it; the
// revived player acts from the first living frame of its new life. While the server waits
// for the report (dying), the player may still act: vitals' [mutual-kill] refuses
// actions from the commit on.
//
// # Respawn
//
// The dead client repeats RespawnRequest on a timer. The server grants it when the policy
// allows: the gamemode's Decision for that death (AllowAt a moment, AtPoint a spawn point,
// Hold until decided again) or the core default (Config.RespawnDelay, 3 s, after the
// commit; at the standing spawn point, SetSpawnPoint). The request is remembered, so
// Advance grants as soon as the policy allows, without waiting for the next repeat. A grant
// starts a new generation, tells the host to reset the combat correlation of the old life
// (Grant.ResetCombat: its shots and credits, the inventory, a new vitals life), sends
// RespawnPlayer to the player and PlayerSpawned (token, generation, SyncSeq, point) to the
// observers. A repeated request before the first living frame gets the same RespawnPlayer
// again without a new generation: a lost RespawnPlayer heals itself. player_spawn is raised
// on the first living frame of the new generation (Frame returns FrameFirstOfLife).
//
// The connect spawn takes the same path: a new connection is unspawned; its RespawnRequest
// (whose generation is not checked: the client learns its generation from its first
// RespawnPlayer) is granted at once unless Config.HoldConnectSpawn or a Decision says
// otherwise, and starts the connection's first life; its first living frame raises
// player_spawn with Connect set. Until that frame, every request of the connection is a
// repeat that gets the same grant, whatever generation it names: the client asks for
// life 0, and after the id's generations wrapped the grant itself may be life 0, which
// must not read as a living player's request.
//
// # Wiring
//
// Every input is a method named after the event; every output is a returned value. The host
// carries out the outputs:
//
//   - PlayerWasted and PlayerSpawned: the host fans them out, CRITICAL on the reliable lane,
//     to the connections that have the subject streamed in at that moment (not to the
//     subject). The host owns streaming; lifecycle does not take an observer set, which
//     keeps the death and grant paths free of per-call lists. A connection that starts to
//     see the subject later gets a show built from Snapshot, never a replay of edges.
//   - RespawnPlayer: to the subject, on the reliable lane.
//   - Commit.SendZero: a CRITICAL SetHealth(0) to the victim, created by the host with the
//     vitals package's health revision; its acknowledgement goes to ZeroAcknowledged.
//   - DeathEvent and SpawnEvent: raised to the gamemode as player_death and player_spawn.
//   - Grant.ResetCombat: the host drops the old life's pending shots and credits (rewind,
//     vitals), clears the inventory and starts a new vitals life.
//
// Receivers use the same rules as the server, as pure functions the honest client model
// shares: Copy (built from a Snapshot) applies PlayerWasted and PlayerSpawned only to the
// connection and the life they name (AcceptEdge), and accepts relayed frames only of its
// life and at or past its barrier; ShouldRespawn tells the respawning client whether a
// RespawnPlayer is new.
//
// Every rule is meant to hold on a lossy, reordering network:
//
//   - a RespawnPlayer lost (or late): the client's repeated request gets the same grant;
//     the client ignores the copy it does not need (ShouldRespawn);
//   - a late frame of the old life after the grant: dropped by the server (wrong
//     generation) and by receivers (below the sync_seq barrier);
//   - a frame of the new life that overtakes PlayerSpawned at a receiver: dropped (the copy
//     is still in the old life); the next frames apply once the edge arrives;
//   - a DeathReport racing the server's own commit: whichever comes first commits, the
//     other commits nothing; a report that loses leaves the zero and its acknowledgement
//     in charge of the respawn;
//   - a frame of a new player on a reused id that overtakes the "player left": it carries
//     a newer generation than the departed player's copy and is dropped.
//
// # Where no rule decides, and what we decided
//
//   - The respawn policy is ours ([respawn-delay]): a fixed delay after the commit
//     (DefaultRespawnDelay), overridable per death.
//   - The death poses are ours ([default-pose]): our list of the game's death animations (Pose).
//   - A count that arrives after a grant but before the first living frame is not taken
//     (CountBeforeFirstFrame): the vitals package starts counting a life at its first
//     frame, and the host refuses a stealth kill of a victim that may not act yet.
//   - The grant revives (the relay and a show say alive at once), but actions wait for the
//     first living frame of the new life (MayAct), as vitals does for commands.
//   - A DeathReport of the granted generation that arrives before any living frame of it
//     (all lost or overtaken) proves that the life began: the life is confirmed and the
//     death committed, instead of leaving an honest client dead without a way back.
//   - A DeathReport handled after its deadline passed but before Advance settled it still
//     commits with its pose.
//
// A World is not safe for concurrent use; drive each World from one goroutine.
package lifecycle
