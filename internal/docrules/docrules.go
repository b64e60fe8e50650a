// Package docrules checks that the rules a package's comments cite by name are defined in
// a doc.go, so every rule a comment points at can be read on pkg.go.dev alone.
//
// A rule has a short stable name in our own words, written in square brackets with words
// joined by hyphens: [ledger-only-falls]. A package defines its rules in its doc.go, in
// the section "# Rules", one list item per rule that starts with the bracketed name:
//
//	//   - [ledger-only-falls] Only the server raises the ledger; ...
//
// Code, tests and the doc itself cite a rule by writing its bracketed name in a comment
// or a string. Check, called from a test of each package, fails for every cited name
// that no doc.go it is given defines, and logs the names the package defines that nothing
// in it cites.
package docrules

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// namePattern is a rule's bracketed name: lowercase words of letters and digits, each
// starting with a letter, joined by hyphens, at least two words (so an index such as
// b[n-1] is never taken for a rule).
var namePattern = regexp.MustCompile(`\[([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+)\]`)

// defPattern is a rule's definition in a doc.go: a list item that starts with the name.
var defPattern = regexp.MustCompile(`(?m)^//\s+- \[([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+)\]`)

// Definitions returns the rule names the doc.go in dir defines, with their line numbers.
func Definitions(dir string) (map[string]int, error) {
	src, err := os.ReadFile(filepath.Join(dir, "doc.go"))
	if err != nil {
		return nil, err
	}
	defs := map[string]int{}
	for _, m := range defPattern.FindAllSubmatchIndex(src, -1) {
		name := string(src[m[2]:m[3]])
		defs[name] = 1 + strings.Count(string(src[:m[0]]), "\n")
	}
	return defs, nil
}

// Citation is one cited rule name and where it occurs.
type Citation struct {
	Name string
	Pos  string // file:line
}

// Citations returns every rule name cited in a comment or a string literal of the .go
// files of dir (tests included), definitions included.
func Citations(dir string) ([]Citation, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Citation
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		fset := token.NewFileSet()
		file := fset.AddFile(name, -1, len(src))
		var s scanner.Scanner
		s.Init(file, src, nil, scanner.ScanComments)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok != token.COMMENT && tok != token.STRING {
				continue
			}
			for _, m := range namePattern.FindAllStringSubmatchIndex(lit, -1) {
				p := fset.Position(pos)
				line := p.Line + strings.Count(lit[:m[0]], "\n")
				out = append(out, Citation{
					Name: lit[m[2]:m[3]],
					Pos:  filepath.Base(name) + ":" + itoa(line),
				})
			}
		}
	}
	return out, nil
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// Check fails t for every rule name cited in the package in dir that neither dir's
// doc.go nor the doc.go of one of the packages in cites defines; a cross-package
// citation names the package in words ("teams' [teammate-stamp]"). It logs the rules
// dir's doc.go defines that nothing in dir cites, and fails when dir's doc.go defines a
// name twice or defines none.
func Check(t testing.TB, dir string, cites ...string) {
	t.Helper()
	own, err := Definitions(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(own) == 0 {
		t.Fatalf("%s/doc.go defines no rule (a list item starting with [a-rule-name] under # Rules)", dir)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "doc.go"))
	seen := map[string]bool{}
	for _, m := range defPattern.FindAllSubmatch(src, -1) {
		name := string(m[1])
		if seen[name] {
			t.Errorf("%s/doc.go defines [%s] more than once", dir, name)
		}
		seen[name] = true
	}
	known := knownRules(t, own, cites)
	cits, err := Citations(dir)
	if err != nil {
		t.Fatal(err)
	}
	cited := map[string]int{}
	for _, c := range cits {
		cited[c.Name]++
		if !known[c.Name] {
			t.Errorf("%s: cites the rule [%s], which no doc.go defines", c.Pos, c.Name)
		}
	}
	var unused []string
	for name := range own {
		// The definition itself counts once.
		if cited[name] <= 1 {
			unused = append(unused, name)
		}
	}
	sort.Strings(unused)
	for _, name := range unused {
		t.Logf("doc.go:%d defines [%s], which nothing else in the package cites", own[name], name)
	}
}

// CheckScenarios fails t unless the scenario files in dir/testdata/scenarios (a
// package's datadriven files) cite, between them, every rule dir's doc.go defines, and
// cite no rule that neither dir's doc.go nor one of cites' defines: so each rule of the
// package has a story that shows it.
func CheckScenarios(t testing.TB, dir string, cites ...string) {
	t.Helper()
	own, err := Definitions(dir)
	if err != nil {
		t.Fatal(err)
	}
	known := knownRules(t, own, cites)
	files, err := filepath.Glob(filepath.Join(dir, "testdata", "scenarios", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario files in %s/testdata/scenarios: %v", dir, err)
	}
	cited := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range namePattern.FindAllStringSubmatch(string(src), -1) {
			if !known[m[1]] {
				t.Errorf("%s cites [%s], which no doc.go defines", f, m[1])
			}
			cited[m[1]] = true
		}
	}
	for name := range own {
		if !cited[name] {
			t.Errorf("no scenario file in %s cites the rule [%s]", dir, name)
		}
	}
}

// knownRules is the set of names own defines or one of the doc.go files in cites does.
func knownRules(t testing.TB, own map[string]int, cites []string) map[string]bool {
	t.Helper()
	known := map[string]bool{}
	for name := range own {
		known[name] = true
	}
	for _, d := range cites {
		defs, err := Definitions(d)
		if err != nil {
			t.Fatal(err)
		}
		for name := range defs {
			known[name] = true
		}
	}
	return known
}
