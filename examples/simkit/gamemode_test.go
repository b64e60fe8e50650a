package simkit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/match"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// regenerate is a gamemode rule: every living player gains 5 health each time it runs, up
// to 100.
func regenerate(k *Kit, now time.Duration) {
	for _, p := range k.Players() {
		if k.Server().Alive(p.ID()) {
			_ = k.Server().AddHealth(now, p.ID(), 5, 100)
		}
	}
}

// Regeneration every second while a player is under fire never lets the server's ledger
// stay above the player's real health: once the last report and command arrived, they
// agree, no report was refused, and nobody honest was wronged, at every round trip.
func TestRegenerationUnderFireNeverOutHealsTheDamage(t *testing.T) {
	for _, tc := range []struct {
		name string
		link Link
	}{
		{"0ms", Link{}},
		{"200ms", Link{RTT: 200 * ms, Jitter: 30 * ms, Loss: 0.05}},
		{"400ms", Link{RTT: 400 * ms, Jitter: 30 * ms, Loss: 0.05}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := New(Config{Seed: 11, Gamemode: regenerate})
			a, _ := k.Join("shooter", tc.link)
			b, _ := k.Join("target", tc.link)
			shots, lowest := 0, float32(100)
			for range 12 {
				if _, err := a.Shoot(b, WeaponM4); err == nil {
					shots++
				}
				require.NoError(t, k.Advance(800*ms))
				lowest = min(lowest, b.Own().Health)
			}
			require.Less(t, lowest, float32(80), "the target was hurt faster than it healed")
			require.True(t, b.Client().Alive(), "and survived")
			healed := 0
			for _, c := range b.Client().AppendCommandLog(nil) {
				if c.Kind == wire.IDGiveHealth && !c.Dropped {
					healed++
				}
			}
			require.GreaterOrEqual(t, healed, 5, "the regeneration reached the target's game")
			r, err := k.Report()
			require.NoError(t, err)
			require.Zero(t, r.HonestWronged, "%v", r.Incidents)
			require.Zero(t, r.Wronged.CutFrames)
			credited := len(k.EventsOf(refserver.EventPlayerDamage))
			// A lost hit report (unreliable) is not credited: the frames lower the ledger.
			require.Positive(t, credited)
			require.LessOrEqual(t, credited, b.Client().Counters().Reports)
			require.LessOrEqual(t, b.Client().Counters().Reports, shots)
			require.Empty(t, k.EventsOf(refserver.EventReportNotCredited), "no report refused")
			l, err := b.Ledger()
			require.NoError(t, err)
			require.LessOrEqual(t, l.Health, b.Own().Health+vitals.RaiseTolerance, "the ledger never ends above the real health")
			require.InDelta(t, b.Own().Health, l.Health, 0.01)
		})
	}
}

// A rule on the events: a kill gives its killer 50 armor. The command reaches the
// killer's game and its ledger alike, and the victim's death is committed by its report.
func TestKillRewardArmorReachesTheKillersGameAndLedger(t *testing.T) {
	for _, rtt := range []time.Duration{0, 150 * ms, 400 * ms} {
		t.Run(rtt.String(), func(t *testing.T) {
			k := New(Config{Seed: 4, OnEvent: func(k *Kit, e refserver.Event) {
				if e.Kind == refserver.EventPlayerDeath && e.Other != refserver.NoPlayer {
					_ = k.Server().AddArmor(k.Now(), e.Other, 50, 100)
				}
			}})
			a, _ := k.Join("killer", Link{RTT: rtt, Jitter: 30 * ms})
			b, _ := k.Join("victim", Link{RTT: 100 * ms})
			require.NoError(t, k.Start())
			require.NoError(t, k.Server().SetHealth(k.Now(), b.ID(), 5))
			require.NoError(t, k.Advance(time.Second))
			armor := a.Own().Armor
			_, err := a.Shoot(b, WeaponDeagle)
			require.NoError(t, err)
			require.NoError(t, k.Advance(3*time.Second))
			require.Len(t, k.EventsOf(refserver.EventPlayerDeath), 1)
			require.Equal(t, min(armor+50, 100), a.Own().Armor, "the killer's game has its reward")
			l, err := a.Ledger()
			require.NoError(t, err)
			require.Equal(t, a.Own().Armor, l.Armor)
			r, err := k.Report()
			require.NoError(t, err)
			require.Zero(t, r.HonestWronged, "%v", r.Incidents)
		})
	}
}

// Regeneration under fire, now on a cheater: a client that echoes an old revision
// (stale_echo), one whose frames always show full health (health_frames) and one that
// mutates everything it sends (mutator) never out-heal their damage: the cheats' own
// measures count no gain, and nobody honest is wronged. The measures are live: the same
// regeneration sent behind their back (straight to k.Server()) shows up as gains, which
// is why a kit with cheaters sends its health commands through Kit.AddHealth.
func TestRegenerationNeverLetsACheaterOutHealItsDamage(t *testing.T) {
	for _, tc := range []struct {
		cheat match.Cheat
		rtt   time.Duration
	}{
		{match.CheatStaleEcho, 0},
		{match.CheatStaleEcho, 300 * ms},
		{match.CheatHealthFrames, 300 * ms},
		{match.CheatMutator, 300 * ms},
	} {
		t.Run(tc.cheat.String()+"_"+tc.rtt.String(), func(t *testing.T) {
			play := func(direct bool) match.Report {
				k := New(Config{Seed: 5, Gamemode: func(k *Kit, now time.Duration) {
					for _, p := range k.Players() {
						if !k.Server().Alive(p.ID()) {
							continue
						}
						if direct {
							_ = k.Server().AddHealth(now, p.ID(), 5, 100)
						} else {
							_ = k.AddHealth(p, 5, 100)
						}
					}
				}})
				a, _ := k.Join("shooter", Link{RTT: 200 * ms, Jitter: 30 * ms, Loss: 0.05})
				b, _ := k.JoinCheater("cheater", Link{RTT: tc.rtt, Jitter: 30 * ms, Loss: 0.05}, tc.cheat)
				for range 12 {
					_, _ = a.Shoot(b, WeaponM4)
					require.NoError(t, k.Advance(800*ms))
				}
				r, err := k.Report()
				require.NoError(t, err)
				require.Zero(t, r.HonestWronged, "%v", r.Incidents)
				require.Len(t, r.Cheaters, 1)
				require.Positive(t, r.Cheaters[0].Forged, "the cheat acted")
				return r
			}
			r := play(false)
			require.Zero(t, r.Cheaters[0].Gained, "%+v", r.Cheaters[0])
			require.Positive(t, r.Cheaters[0].Flagged, "the server caught its frames")
			require.Positive(t, play(true).Cheaters[0].Gained, "commands behind the measures' back look like gains")
		})
	}
}
