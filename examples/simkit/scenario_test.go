package simkit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// The scenario files under testdata/scenarios run through the public driver: each prints
// what the world did (go test -rewrite regenerates the expected output).
func TestScenarios(t *testing.T) {
	RunScenarios(t, "testdata/scenarios", Config{Seed: 1})
}

// fatalTB records the driver's failure instead of failing the test.
type fatalTB struct {
	testing.TB
	msg string
}

type fatal struct{}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, a ...any) {
	f.msg = fmt.Sprintf(format, a...)
	panic(fatal{})
}

// runFails runs one block and returns the driver's failure ("" if it did not fail).
func runFails(t *testing.T, d *Driver, block string) (msg string) {
	t.Helper()
	f := &fatalTB{TB: t}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(fatal); !ok {
				panic(r)
			}
			msg = f.msg
		}
	}()
	first, rest, _ := strings.Cut(block, "\n")
	cmd, args, err := datadriven.ParseLine(first)
	if err != nil {
		t.Fatal(err)
	}
	d.Run(f, &datadriven.TestData{Pos: "test", Cmd: cmd, CmdArgs: args, Input: strings.TrimSuffix(rest, "----\n")})
	return ""
}

// A scenario line the driver does not know fails the test with a message naming what is
// wrong: an unknown command, argument, player, weapon, cheat or event kind, a missing or
// malformed value.
func TestScenarioRejectsUnknownCommandsAndArguments(t *testing.T) {
	for _, tc := range []struct{ block, want string }{
		{"jump a\n----\n", "unknown command"},
		{"join a speed=3\n----\n", "unknown argument(s) speed"},
		{"join a rtt=fast\n----\n", `rtt="fast"`},
		{"run\njoin a\njoin a\n----\n", `player "a" joined twice`},
		{"run\njoin a\nshoot a z\n----\n", `unknown player "z"`},
		{"run\njoin a\njoin b\nshoot a b bazooka\n----\n", `unknown weapon "bazooka"`},
		{"cheater m profile=wallhack\n----\n", `unknown cheat profile "wallhack"`},
		{"cheater m\n----\n", "want profile=<cheat>"},
		{"events kind=nope\n----\n", `unknown event kind "nope"`},
		{"run\njoin a\nfall a\n----\n", "want an amount"},
		{"run\njoin a\ndie a b\n----\n", `unexpected word "b"`},
		{"tick soon\n----\n", "want a duration"},
	} {
		msg := runFails(t, NewDriver(Config{Seed: 1}), tc.block)
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%q: failure %q, want it to contain %q", tc.block, msg, tc.want)
		}
	}
}

// A host's own command runs with its words and arguments, prints what it returns (an
// error as "error: ..."), and an argument it does not read fails the scenario by name.
func TestScenarioRunsTheHostsOwnCommands(t *testing.T) {
	d := NewDriver(Config{Seed: 1})
	zone := 0.0
	d.Handle("safe-zone", func(k *Kit, a *Args) (string, error) {
		zone = a.Float("radius", 10)
		if len(a.Words()) > 0 && a.Words()[0] == "off" {
			return "", fmt.Errorf("no zone to switch off")
		}
		return fmt.Sprintf("zone of %v m", zone), nil
	})
	out := d.Run(t, &datadriven.TestData{Pos: "test", Cmd: "run", Input: "safe-zone radius=25\nsafe-zone off"})
	if want := "> safe-zone radius=25\nzone of 25 m\n> safe-zone off\nerror: no zone to switch off\n"; out != want {
		t.Fatalf("output %q, want %q", out, want)
	}
	if zone != 10 {
		t.Fatalf("zone %v: the second call read the default", zone)
	}
	if msg := runFails(t, d, "safe-zone size=3\n----\n"); !strings.Contains(msg, "unknown argument(s) size") {
		t.Fatalf("failure %q", msg)
	}
}
