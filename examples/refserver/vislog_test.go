package refserver

import (
	"testing"
	"time"
)

// Rule [stream-reports]: the visibility log answers whether a connection had a subject
// shown at some moment of an interval, from the changes it kept, and gives the benefit of
// the doubt when it lost changes made within the interval.
func TestVisibilityLogAnswersFromTheChangesItKept(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	var l visLog
	l.add(7, ms(100), true)  // shown at 100
	l.add(7, ms(200), false) // hidden at 200
	l.add(7, ms(300), true)  // shown again at 300
	for _, c := range []struct {
		name     string
		from, to time.Duration
		seesNow  bool
		want     bool
	}{
		{"before its first show", ms(10), ms(50), true, false},
		{"while shown", ms(150), ms(160), true, true},
		{"while hidden", ms(210), ms(290), true, false},
		{"shown again within the interval", ms(250), ms(300), true, true},
		{"an instant of a hide counts as shown", ms(200), ms(200), true, true},
		{"an instant of a show counts as shown", ms(100), ms(100), true, true},
		{"after the last show", ms(400), ms(500), true, true},
	} {
		if got := l.sawDuring(7, c.from, c.to, c.seesNow); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// A subject with no change kept has been as it is now.
	if l.sawDuring(8, 0, ms(500), false) || !l.sawDuring(8, 0, ms(500), true) {
		t.Error("no change of 8: its state now")
	}
	// Other subjects' changes push 7's out: what 7 was is still told, from the oldest
	// change kept, while that is older than the interval.
	for i := range VisibilityLog {
		l.add(PlayerID(20+i), ms(400+i), i%2 == 0)
	}
	if l.n != VisibilityLog+3 {
		t.Fatalf("n %d", l.n)
	}
	if !l.sawDuring(7, ms(1000), ms(1100), true) || l.sawDuring(7, ms(1000), ms(1100), false) {
		t.Error("7's changes fell out before the interval: its state now")
	}
	// An interval that starts before the oldest change kept: changes within it may have
	// been lost, so it is given the benefit of the doubt, even for a subject never shown.
	if !l.sawDuring(9, ms(250), ms(260), false) {
		t.Error("lost changes within the interval: the benefit of the doubt")
	}
	// Past what its milliseconds count (49 days after the join): the benefit of the doubt.
	day := 24 * time.Hour
	if l.sawDuring(9, ms(2000), ms(2100), false) || !l.sawDuring(9, 50*day, 50*day+time.Second, false) {
		t.Error("49 days and more: the benefit of the doubt, and only then")
	}
}
