// Package scenario holds the parsing helpers shared by the scenario drivers of the domain
// packages' tests (vitals, lifecycle, ...). The drivers read their testdata/ files with
// github.com/cockroachdb/datadriven: each "run" block is one scenario, a list of timed
// events, one per line:
//
//	<time> <verb> [word ...] [key=value ...]
//
// Blank lines and lines starting with # are comments. The driver writes what the world did
// after each event as the block's expected output (go test -rewrite regenerates it).
//
// Only tests import this package; the domain packages themselves import only the standard
// library.
package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Line is one event of a scenario.
type Line struct {
	At    time.Duration     // the event's time (a Go duration; a bare 0 is allowed)
	Time  string            // the time as written, to echo it in the output
	Verb  string            // the first word after the time
	Words []string          // the words without '=' that follow the verb, in order
	Args  map[string]string // the key=value arguments
	Text  string            // the line as written, for failures

	tb testing.TB
}

// Lines parses a scenario's input. A malformed line fails tb.
func Lines(tb testing.TB, input string) []Line {
	tb.Helper()
	var out []Line
	for _, raw := range strings.Split(input, "\n") {
		text := strings.TrimSpace(raw)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		l := Line{Text: text, Args: map[string]string{}, tb: tb}
		if len(fields) < 2 {
			tb.Fatalf("%q: want <time> <verb>", text)
		}
		at, err := Duration(fields[0])
		if err != nil {
			tb.Fatalf("%q: %v", text, err)
		}
		l.At, l.Time, l.Verb = at, fields[0], fields[1]
		for _, f := range fields[2:] {
			if k, v, ok := strings.Cut(f, "="); ok {
				if _, dup := l.Args[k]; dup {
					tb.Fatalf("%q: %s given twice", text, k)
				}
				l.Args[k] = v
				continue
			}
			l.Words = append(l.Words, f)
		}
		out = append(out, l)
	}
	return out
}

// Duration parses a time argument: a Go duration such as 100ms, 1s or 13100ms.
func Duration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("time %q: %w", s, err)
	}
	return d, nil
}

// Fatalf fails the scenario at l.
func (l Line) Fatalf(format string, a ...any) {
	l.tb.Helper()
	l.tb.Fatalf("%s\n\t%s", fmt.Sprintf(format, a...), l.Text)
}

// Word returns the i-th word after the verb; the line fails without it.
func (l Line) Word(i int) string {
	l.tb.Helper()
	if i >= len(l.Words) {
		l.Fatalf("want %d words after %s", i+1, l.Verb)
	}
	return l.Words[i]
}

// Has reports whether the key was given.
func (l Line) Has(key string) bool { _, ok := l.Args[key]; return ok }

// Str returns the key's value, or def.
func (l Line) Str(key, def string) string {
	if v, ok := l.Args[key]; ok {
		return v
	}
	return def
}

// F32 returns the key's value as a float32, or def.
func (l Line) F32(key string, def float32) float32 {
	l.tb.Helper()
	v, ok := l.Args[key]
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(v, 32)
	if err != nil {
		l.Fatalf("%s=%q: %v", key, v, err)
	}
	return float32(f)
}

// Uint returns the key's value as an unsigned integer of the given bits, or def.
func (l Line) Uint(key string, bits int, def uint64) uint64 {
	l.tb.Helper()
	v, ok := l.Args[key]
	if !ok {
		return def
	}
	n, err := strconv.ParseUint(v, 10, bits)
	if err != nil {
		l.Fatalf("%s=%q: %v", key, v, err)
	}
	return n
}

// Bool returns the key's value (true, 1 or yes; false, 0 or no), or def.
func (l Line) Bool(key string, def bool) bool {
	l.tb.Helper()
	v, ok := l.Args[key]
	if !ok {
		return def
	}
	switch v {
	case "true", "1", "yes":
		return true
	case "false", "0", "no":
		return false
	}
	l.Fatalf("%s=%q: want true or false", key, v)
	return false
}

// Dur returns the key's value as a time argument, or def.
func (l Line) Dur(key string, def time.Duration) time.Duration {
	l.tb.Helper()
	v, ok := l.Args[key]
	if !ok {
		return def
	}
	d, err := Duration(v)
	if err != nil {
		l.Fatalf("%s: %v", key, err)
	}
	return d
}

// F formats a float for the expected output: at most three decimals, no trailing zeros,
// so that float32 rounding (53.800003) prints as the value the scenario means (53.8).
func F(f float32) string {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return strconv.FormatFloat(float64(f), 'g', -1, 32)
	}
	s := strconv.FormatFloat(float64(f), 'f', 3, 32)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// Pair formats two floats as a/b (health/armor).
func Pair(a, b float32) string { return F(a) + "/" + F(b) }
