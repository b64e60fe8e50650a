package scenario

import (
	"testing"
	"time"
)

func TestLinesParseTimeVerbWordsAndArguments(t *testing.T) {
	ls := Lines(t, `
# a comment
0       join a id=3
1500ms  frame a alive=1 hp=53.8 rtt=400ms

13s     advance
`)
	if len(ls) != 3 {
		t.Fatalf("%d lines, want 3", len(ls))
	}
	j, f, a := ls[0], ls[1], ls[2]
	if j.At != 0 || j.Time != "0" || j.Verb != "join" || j.Word(0) != "a" || j.Uint("id", 16, 0) != 3 {
		t.Fatalf("join: %+v", j)
	}
	if f.At != 1500*time.Millisecond || !f.Bool("alive", false) || f.F32("hp", 0) != 53.8 ||
		f.Dur("rtt", 0) != 400*time.Millisecond || f.Str("missing", "def") != "def" || f.Has("missing") {
		t.Fatalf("frame: %+v", f)
	}
	if a.At != 13*time.Second || a.Verb != "advance" || len(a.Words) != 0 || len(a.Args) != 0 {
		t.Fatalf("advance: %+v", a)
	}
}

func TestDurationRefusesWhatIsNoGoDuration(t *testing.T) {
	for _, s := range []string{"", "1", "ms", "1 s", "1.5"} {
		if _, err := Duration(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
	if d, err := Duration("0"); err != nil || d != 0 {
		t.Errorf("0: %v %v", d, err)
	}
}

func TestFPrintsAtMostThreeDecimals(t *testing.T) {
	for _, tc := range []struct {
		f    float32
		want string
	}{
		{100, "100"}, {53.8, "53.8"}, {100 - 46.2, "53.8"}, {45.55, "45.55"}, {0.21, "0.21"},
		{-0.0001, "0"}, {1.0 / 3, "0.333"}, {-2.5, "-2.5"},
	} {
		if got := F(tc.f); got != tc.want {
			t.Errorf("F(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
	if got := Pair(53.8, 0); got != "53.8/0" {
		t.Errorf("Pair = %q", got)
	}
}
