package simkit_test

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/vitals"
)

// A gamemode rule under test: every second each living player regenerates 5 health (the
// server's add_health), while a shooter hits the target every 800 ms. At each round trip
// nobody honest is wronged, and once the world settled the target's ledger does not stand
// above its client's real health beyond the records' tolerance.
func Example_regeneration() {
	regen := func(k *simkit.Kit, now time.Duration) {
		for _, p := range k.Players() {
			if k.Server().Alive(p.ID()) {
				_ = k.Server().AddHealth(now, p.ID(), 5, 100)
			}
		}
	}
	for _, rtt := range []time.Duration{0, 200 * time.Millisecond, 400 * time.Millisecond} {
		k := simkit.New(simkit.Config{Seed: 1, Gamemode: regen})
		link := simkit.Link{RTT: rtt, Jitter: 30 * time.Millisecond, Loss: 0.05}
		shooter, _ := k.Join("shooter", link)
		target, _ := k.Join("target", link)
		for range 12 {
			_, _ = shooter.Shoot(target, simkit.WeaponM4)
			_ = k.Advance(800 * time.Millisecond)
		}
		report, _ := k.Report()
		ledger, _ := target.Ledger()
		over := ledger.Health - target.Own().Health
		fmt.Printf("rtt %v: honest wronged %d, ledger above real health: %v\n",
			rtt, report.HonestWronged, over > vitals.RaiseTolerance)
	}
	// Output:
	// rtt 0s: honest wronged 0, ledger above real health: false
	// rtt 200ms: honest wronged 0, ledger above real health: false
	// rtt 400ms: honest wronged 0, ledger above real health: false
}
