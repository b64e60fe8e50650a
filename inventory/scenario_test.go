package inventory

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/arbitergo/arbiter/internal/scenario"
)

// The scenario driver. Each file in testdata/scenarios/ holds scenarios read
// with datadriven: a "# name" comment, then one "run" block (a new inventory of the default
// catalogue) whose input is a list of timed inputs, one per line (see internal/scenario):
//
//	<time> <command> [<weapon>] [key=value ...]
//
// A weapon is its id or a name of scenarioWeapons (m4, colt, deagle, ...). Commands:
//
//	give <w> ammo=N [current=true]       Inventory.Give
//	take <w>                             Inventory.Take
//	frame [<w>] [rev=R] total=T clip=C [fire=true]
//	                                     Inventory.Frame holding w (fists without one),
//	                                     echoing revision R (the current one by default)
//	ack rev=R                            Inventory.Acknowledged
//	shot <w> [len=L] [props=R] [alive=false]
//	                                     Inventory.Shot: a ray of length L (20) under
//	                                     weapon properties revision R (0)
//	projectile <w> [alive=false]         Inventory.Projectile
//	respawn-grant life=G                 Inventory.RespawnGrant of generation G
//
// The block's output, written by the driver (go test ./inventory -run Scenario -rewrite
// regenerates it), has one line per input: the String form of what the inventory returned
// ("error: ..." for an error), then after "|" the held weapon, the revision and the store
// (weapon:total/clip of each slot that holds a weapon).

// scenarioWeapons names the weapons the scenarios use.
var scenarioWeapons = map[string]uint8{
	"fists": Fists, "knife": wKnife, "grenade": wGrenade, "colt": wColt, "silenced": wSilenced,
	"deagle": wDeagle, "shotgun": wShotgun, "sawnoff": wSawnOff, "spas": wSpas, "uzi": wUzi,
	"mp5": wMP5, "ak": wAK, "m4": wM4, "tec9": wTec9, "rifle": wRifle, "sniper": wSniper,
	"rpg": wRPG, "flame": wFlame, "minigun": wMinigun, "satchel": wSatchel, "spraycan": wSpraycan,
}

func weaponArg(l scenario.Line) uint8 {
	w := l.Word(0)
	if id, ok := scenarioWeapons[w]; ok {
		return id
	}
	n, err := strconv.ParseUint(w, 10, 8)
	if err != nil {
		l.Fatalf("weapon %q: want an id or one of the names", w)
	}
	return uint8(n)
}

func storeState(inv *Inventory) string {
	var b strings.Builder
	fmt.Fprintf(&b, "held=%d rev=%d store=[", inv.Held(), inv.Rev())
	first := true
	for _, s := range inv.Slots() {
		if s.Weapon == 0 {
			continue
		}
		if !first {
			b.WriteByte(' ')
		}
		first = false
		fmt.Fprintf(&b, "%d:%d/%d", s.Weapon, s.Total, s.Clip)
	}
	b.WriteByte(']')
	return b.String()
}

func runInventoryScenario(t *testing.T, input string) string {
	inv := newInv(t)
	var out strings.Builder
	for _, l := range scenario.Lines(t, input) {
		head := l.Verb
		if len(l.Words) > 0 {
			head += " " + strings.Join(l.Words, " ")
		}
		got, err := runInventoryEvent(l, inv)
		if err != nil {
			got = "error: " + err.Error()
		}
		fmt.Fprintf(&out, "%-7s %s: %s | %s\n", l.Time, head, got, storeState(inv))
	}
	return out.String()
}

func runInventoryEvent(l scenario.Line, inv *Inventory) (string, error) {
	now := l.At
	switch l.Verb {
	case "give":
		m, err := inv.Give(now, weaponArg(l), uint16(l.Uint("ammo", 16, 0)), l.Bool("current", false))
		return m.String(), err
	case "take":
		m, err := inv.Take(now, weaponArg(l))
		return m.String(), err
	case "frame":
		w := Fists
		if len(l.Words) > 0 {
			w = weaponArg(l)
		}
		f := Frame{
			WeaponRev: uint16(l.Uint("rev", 16, uint64(inv.Rev()))), Weapon: w,
			Total: uint16(l.Uint("total", 16, 0)), Clip: uint16(l.Uint("clip", 16, 0)),
			FireHeld: l.Bool("fire", false),
		}
		return inv.Frame(now, f).String(), nil
	case "ack":
		if err := inv.Acknowledged(now, uint16(l.Uint("rev", 16, 0))); err != nil {
			return "", err
		}
		return "acknowledged", nil
	case "shot":
		s := shotOf(weaponArg(l), uint16(l.Uint("props", 16, 0)), l.F32("len", 20))
		return inv.Shot(now, l.Bool("alive", true), s).String(), nil
	case "respawn-grant":
		if inv.RespawnGrant(uint16(l.Uint("life", 16, 0))) {
			return "cleared", nil
		}
		return "nothing cleared", nil
	case "projectile":
		return inv.Projectile(now, l.Bool("alive", true), weaponArg(l)).String(), nil
	}
	l.Fatalf("unknown command %q", l.Verb)
	return "", nil
}

// TestScenario runs every scenario file in testdata/scenarios/.
func TestScenario(t *testing.T) {
	datadriven.Walk(t, "testdata/scenarios", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "run" {
				d.Fatalf(t, "unknown command %q: want run", d.Cmd)
			}
			return runInventoryScenario(t, d.Input)
		})
	})
}
