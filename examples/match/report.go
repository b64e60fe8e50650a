package match

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Report is what a match measured. Every count is over honest players (every player of a
// match is honest). It is deterministic: the same Config gives the same Report.
type Report struct {
	// Seed is the match's seed.
	Seed uint64 `json:"seed"`
	// Players is the number of (honest) players.
	Players int `json:"players"`
	// DurationSeconds is the simulated time of play.
	DurationSeconds float64 `json:"duration_s"`
	// RTTMinMs and RTTMaxMs are the range of the players' round-trip times.
	RTTMinMs float64 `json:"rtt_min_ms"`
	RTTMaxMs float64 `json:"rtt_max_ms"`
	// JitterMs is the width of the uniform jitter of each datagram.
	JitterMs float64 `json:"jitter_ms"`
	// Loss is the probability that a datagram is lost, each way.
	Loss float64 `json:"loss"`

	// Frames is the number of PlayerSync frames the clients sent.
	Frames int `json:"frames"`
	// Reports is the number of damage reports the clients created.
	Reports int `json:"reports"`
	// Shots is the number of WeaponShots the clients fired.
	Shots int `json:"shots"`
	// Deaths is the number of deaths the server committed.
	Deaths int `json:"deaths"`
	// Respawns is the number of respawns after a death the clients made.
	Respawns int `json:"respawns"`
	// Commands is the number of gamemode commands the gamemode issued.
	Commands int `json:"commands"`

	// HonestWronged is the sum of the parts in Wronged: every way the server wronged an
	// honest player. The project's promise is that it is 0.
	HonestWronged int `json:"honest_wronged"`
	// Wronged are the parts of HonestWronged.
	Wronged Wronged `json:"wronged"`

	// Credited is the number of damage reports the server credited (player_damage).
	Credited int `json:"credited"`
	// Sources counts the damage reports the clients created, by source.
	Sources map[string]int `json:"sources"`
	// Deathways counts the committed deaths by how they were committed.
	Deathways map[string]int `json:"death_commits"`
	// Events counts the server's events by kind.
	Events map[string]int `json:"events"`
	// Network is what the simulated network did.
	Network NetworkReport `json:"network"`
	// Race is the measurement of commands racing damage (Config.Race and the counts of
	// frames arriving before their report, which every match measures).
	Race RaceReport `json:"race"`
	// Weapons is the measurement of the weapon store's rules: old shots of guns a command
	// took, the server's count against the client's, continuous fire.
	Weapons WeaponsReport `json:"weapons"`
	// Rates is the worst an honest player's traffic came to the server's per-connection
	// caps (refserver's FrameRate, DatagramRate, ProjectileRate and their bursts).
	Rates RateReport `json:"rates"`
	// Suspicions counts god-mode and vehicle_god_mode suspicion flags raised on honest
	// players. A flag changes
	// nothing (the detector never touches health), so it is not a wrong, but a detector
	// that flags honest players is worth knowing about.
	Suspicions int `json:"suspicions"`
	// Origins is where the honest players' shots and projectiles started and exploded, as
	// the server judged them against what it accepted of the players: the worst case the
	// server's tolerances (refserver.OriginReach, SeatedOriginReach, ThrowSlack, ...) are
	// sized from.
	Origins OriginReport `json:"origins"`
	// Cheaters says what each cheating player obtained (Config.Cheaters).
	Cheaters []CheaterReport `json:"cheaters,omitempty"`
	// CheatsGained sums what the cheats gained that the records say they must not. The
	// promise is 0.
	CheatsGained int `json:"cheats_gained"`
	// Incidents describes the first wrongs, for a reader (at most MaxIncidents).
	Incidents []string `json:"incidents,omitempty"`
	// Vehicles is what the server's seat table and vehicle guns saw.
	Vehicles VehicleReport `json:"vehicles"`
}

// VehicleReport is the server's count of seats and its worst accepted cases, which the
// tolerances EntryReach and VehicleGunSlack must cover with a margin (in an honest match
// every accepted case is an honest one).
type VehicleReport struct {
	// Entries counts seats granted; EntriesRefused the frames refused for their seat claim.
	Entries        int `json:"entries"`
	EntriesRefused int `json:"entries_refused"`
	// WorstEntryM is the largest distance between a player's accepted position and its
	// vehicle's at a granted entry (refserver.EntryReach).
	WorstEntryM float64 `json:"worst_entry_m"`
	// WorstGunOriginM is the largest distance beyond the mount reach and the speed's lag at
	// which an accepted vehicle shot started (refserver.VehicleGunSlack).
	WorstGunOriginM float64 `json:"worst_gun_origin_m"`
	// CopiesChecked counts the (honest player, vehicle) pairs the vehicle copies check
	// compared ([vehicle-copies-current]; none without streaming).
	CopiesChecked int `json:"copies_checked"`
	// CopiesStale counts copies of a parked vehicle standing farther than
	// VehicleCheckSlack from the server's pose.
	CopiesStale int `json:"copies_stale"`
	// CopiesMissing counts vehicles within VehicleCheckReach of a player at two checks in a
	// row of which it had no copy.
	CopiesMissing int `json:"copies_missing"`
	// CopiesLingering counts copies a player kept of a vehicle beyond VehicleCheckBeyond at
	// two checks in a row (not the one it sits in).
	CopiesLingering int `json:"copies_lingering"`
	// Shows and Hides count the VehicleShows and VehicleHides the honest clients applied.
	Shows int `json:"shows"`
	Hides int `json:"hides"`
	// WorstParkedCopyM is the farthest a copy of a parked vehicle stood from the server's
	// pose, in metres.
	WorstParkedCopyM float64 `json:"worst_parked_copy_m"`
}

// Wronged counts the ways an honest player was wronged.
type Wronged struct {
	// EarlyDeaths: deaths the server committed while the victim's own client was alive.
	EarlyDeaths int `json:"early_deaths"`
	// CutFrames: frames of an honest client cut as god mode.
	CutFrames int `json:"cut_frames"`
	// RefusedShots: shots, projectiles, blows or stealth kills of an honest client the
	// server refused although the client fired them in a life the server held alive.
	RefusedShots int `json:"refused_shots"`
	// RefusedCommands: gamemode commands refused for a player the server held alive and
	// counted.
	RefusedCommands int `json:"refused_commands"`
	// Disagreements: hits an honest victim reported that the server neither credited nor
	// may discard by a domain package's rule, and, after the match settled, players whose health,
	// armor, weapons or life the server and the client disagree on.
	Disagreements int `json:"disagreements"`
	// RefusedEntries: frames of an honest client refused for the seat they claim (the
	// client got into a seat the server did not grant).
	RefusedEntries int `json:"refused_entries"`
	// RateLimited: datagrams, frames and launches of an honest client a per-connection cap
	// of the server refused, relays of it the relay log had no room for, and refusal
	// diagnostics of it suppressed (refserver.ConnStats).
	RateLimited int `json:"rate_limited"`
}

// Sum returns the total of the parts.
func (w Wronged) Sum() int {
	return w.EarlyDeaths + w.CutFrames + w.RefusedShots + w.RefusedCommands + w.Disagreements + w.RefusedEntries + w.RateLimited
}

// RateReport is the worst an honest player's traffic came to the server's per-connection
// caps over the match: the peaks of its gates (how far ahead of the sustained rate its
// datagrams, frames and launches arrived: the burst used, one interval of the rate
// deducted) and its busiest second.
type RateReport struct {
	// DatagramsPerSecond and FramesPerSecond are the most datagrams (and PlayerSync
	// frames) the server received from one honest player within one second.
	DatagramsPerSecond int `json:"datagrams_per_second"`
	FramesPerSecond    int `json:"frames_per_second"`
	// DatagramBurstMs, FrameBurstMs and ProjectileBurstMs are the deepest the gates
	// (refserver.DatagramRate, FrameRate, ProjectileRate) of an honest player ran ahead of
	// their sustained rate: compare with DatagramBurst, FrameBurst, ProjectileBurst.
	DatagramBurstMs   float64 `json:"datagram_burst_ms"`
	FrameBurstMs      float64 `json:"frame_burst_ms"`
	ProjectileBurstMs float64 `json:"projectile_burst_ms"`
}

// NetworkReport is what the simulated network did to the datagrams.
type NetworkReport struct {
	// Datagrams is the number of datagrams sent, both ways.
	Datagrams int `json:"datagrams"`
	// Lost is how many of them the network lost.
	Lost int `json:"lost"`
	// Duplicated is how many it delivered twice.
	Duplicated int `json:"duplicated"`
	// Overtaken is how many arrived after a datagram sent later on the same link.
	Overtaken int `json:"overtaken"`
	// Bytes is the number of bytes sent.
	Bytes int `json:"bytes"`
	// Retransmissions counts the reliable lanes' retransmissions, both ways.
	Retransmissions int `json:"retransmissions"`
	// RTTMedianMs is the median of the round-trip times the server measured at the end.
	RTTMedianMs float64 `json:"rtt_median_ms"`
}

// OriginReport is, over the honest players, the largest distance of each kind the server
// measured for an accepted action (refserver.Reach), in metres.
type OriginReport struct {
	// ShotOnFoot and ShotSeated: from a shot's origin to the shooter's accepted path, on
	// foot and from a vehicle's seat (a drive-by).
	ShotOnFoot float64 `json:"shot_on_foot_m"`
	ShotSeated float64 `json:"shot_seated_m"`
	// Launch: from a projectile's launch to the owner's accepted path.
	Launch float64 `json:"launch_m"`
	// Thrown: from a thrown projectile's launch to its detonation.
	Thrown float64 `json:"thrown_m"`
	// LostLaunch: from the detonation of a projectile whose launch was lost to the owner's
	// accepted path.
	LostLaunch float64 `json:"lost_launch_m"`
}

// RaceReport is the health ledger's measurements, reproduced ([race-measurement],
// [fixed-windows-rejected]).
type RaceReport struct {
	// SetHealth is the number of set_health commands whose crossing was measured.
	SetHealth int `json:"set_health"`
	// Crossed is how many of them crossed a damage report created before the client
	// applied them (the report reached the server after the command was sent).
	Crossed int `json:"crossed"`
	// Windows says, for each fixed time window of RaceWindows (the rejected alternative,
	// [fixed-windows-rejected]), on how many commands it would have corrupted the ledger: a report from
	// before the command applied after the window, or one from after it ignored inside.
	Windows []WindowResult `json:"windows"`
	// RevisionCorrupted is how many the revision rule corrupted (the server's real
	// ledger disagreeing with the client once the command settled): the promise is 0.
	RevisionCorrupted int `json:"revision_corrupted"`
	// ReportedHits is the number of hit reports whose first frame after them was seen.
	ReportedHits int `json:"reported_hits"`
	// FramesFirst is how many of them the server received the frame echoing the report
	// before the report itself ([frames-first]: 32 % at 0-30 ms of jitter).
	FramesFirst int `json:"frames_first"`
	// FramesFirstPercent is FramesFirst as a percentage of ReportedHits.
	FramesFirstPercent float64 `json:"frames_first_percent"`
}

// WindowResult is what one fixed time window would have done to the race's commands.
type WindowResult struct {
	// WindowMs is the window.
	WindowMs float64 `json:"window_ms"`
	// Corrupted is the number of commands on which it would have corrupted the ledger.
	Corrupted int `json:"corrupted"`
}

// MaxIncidents caps the incidents a report lists.
const MaxIncidents = 20

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// String formats the report for a reader.
func (r Report) String() string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("arbiter match  seed %d  %d players  %.0f s  rtt %.0f-%.0f ms  jitter %.0f ms  loss %.1f %%\n",
		r.Seed, r.Players, r.DurationSeconds, r.RTTMinMs, r.RTTMaxMs, r.JitterMs, r.Loss*100)
	p("\n  frames %d   shots %d   damage reports %d (credited %d)\n", r.Frames, r.Shots, r.Reports, r.Credited)
	p("  deaths %d   respawns %d   gamemode commands %d\n", r.Deaths, r.Respawns, r.Commands)
	p("\n  damage reports by source:%s\n", formatCounts(r.Sources))
	p("  deaths by commit:%s\n", formatCounts(r.Deathways))
	p("\n  honest players wronged: %d\n", r.HonestWronged)
	w := r.Wronged
	p("    early deaths %d, cut frames %d, refused shots %d, refused commands %d,\n", w.EarlyDeaths, w.CutFrames, w.RefusedShots, w.RefusedCommands)
	p("    disagreements %d, refused entries %d, rate limited %d   (god-mode suspicions raised, which change nothing: %d)\n", w.Disagreements, w.RefusedEntries, w.RateLimited, r.Suspicions)
	for _, s := range r.Incidents {
		p("    - %s\n", s)
	}
	if len(r.Cheaters) > 0 {
		p("\n  cheaters (what each gained that the records forbid; the promise is 0):\n")
		for _, c := range r.Cheaters {
			p("    player %2d %-13s gained %d   forged %d datagrams (%d shots), refused %d, flagged %d\n", c.Player, c.Cheat, c.Gained, c.Forged, c.ForgedShots, c.Refused, c.Flagged)
			if g := c.Gains; g != nil {
				p("        by measure: health %d, ammo %d, damage %d, kills %d, others %d%s\n", g.Health, g.Ammo, g.Damage, g.Kills, g.Others,
					strings.ReplaceAll(formatCounts(c.Findings), ",", ";"))
			}
		}
	}
	o := r.Origins
	p("\n  honest origins as the server judged them (largest): shots %.2f m on foot, %.2f m seated; launches %.2f m;\n", o.ShotOnFoot, o.ShotSeated, o.Launch)
	p("    thrown %.1f m from launch to detonation; lost launches' detonations %.1f m from the owner's path\n", o.Thrown, o.LostLaunch)
	v := r.Vehicles
	p("\n  seats granted %d, entry frames refused %d; worst honest entry %.2f m, worst vehicle gun origin %.2f m beyond the mount\n",
		v.Entries, v.EntriesRefused, v.WorstEntryM, v.WorstGunOriginM)
	n := r.Network
	p("  network: %d datagrams, %d lost, %d duplicated, %d overtaken, %d lane retransmissions, median rtt %.0f ms\n",
		n.Datagrams, n.Lost, n.Duplicated, n.Overtaken, n.Retransmissions, n.RTTMedianMs)
	wp := r.Weapons
	p("  weapons taken mid-life from honest players: %d; old shots fired before the take applied: %d, the latest %.0f ms after the take and the round trip (window: round trip + %.0f ms)\n",
		wp.Overwrites, wp.OldShots, wp.OldShotLatestMs, wp.OldShotMarginMs)
	p("  continuous fire: honest clients sprayed %d rounds, the server charged %d; its count below a client's: %d times\n",
		wp.Sprayed, wp.FireCharged, wp.CountBelow)
	rt := r.Rates
	p("  busiest honest second: %d datagrams, %d frames; worst bursts ahead of the caps' rates: datagrams %.0f ms, frames %.0f ms, launches %.0f ms\n",
		rt.DatagramsPerSecond, rt.FramesPerSecond, rt.DatagramBurstMs, rt.FrameBurstMs, rt.ProjectileBurstMs)
	rc := r.Race
	p("  frames that arrived before their report: %d of %d hit reports (%.1f %%)\n", rc.FramesFirst, rc.ReportedHits, rc.FramesFirstPercent)
	if rc.SetHealth > 0 {
		p("  set_health commands crossing a damage report created before they applied: %d of %d\n", rc.Crossed, rc.SetHealth)
		for _, w := range rc.Windows {
			p("    a fixed %4.0f ms window around each command would corrupt the ledger on %d of them\n", w.WindowMs, w.Corrupted)
		}
		p("    the revision rule corrupted it on %d\n", rc.RevisionCorrupted)
	}
	return b.String()
}

func formatCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s %d,", k, m[k])
	}
	return strings.TrimSuffix(b.String(), ",")
}
