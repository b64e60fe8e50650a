package docrules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Check reports instead of failing.
type recorder struct {
	testing.TB
	errors, logs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatal(args ...any)                 { r.TB.Fatal(args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.TB.Fatalf(format, args...) }

func writePkg(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const docSrc = `// Package p is a test package.
//
// # Rules
//
//   - [only-falls] Only the server raises it.
//   - [never-cited] Nobody cites this one.
package p
`

// TestCitedRuleWithoutDefinitionFails: a comment or a string citing a name no doc.go
// defines is an error naming the file and line; a defined one is not; an index such as
// b[n-1] is not a citation.
func TestCitedRuleWithoutDefinitionFails(t *testing.T) {
	dir := writePkg(t, map[string]string{
		"doc.go": docSrc,
		"p.go": "package p\n\n// F keeps [only-falls].\nfunc F(b []int, n int) int { return b[n-1] }\n\n" +
			"// G cites [no-such-rule].\nconst G = \"see [other-missing]\"\n",
	})
	r := &recorder{TB: t}
	Check(r, dir)
	got := strings.Join(r.errors, "\n")
	for _, want := range []string{"p.go:6: cites the rule [no-such-rule]", "p.go:7: cites the rule [other-missing]"} {
		if !strings.Contains(got, want) {
			t.Errorf("errors %q lack %q", got, want)
		}
	}
	if len(r.errors) != 2 {
		t.Errorf("want 2 errors, got %d: %q", len(r.errors), r.errors)
	}
	if logs := strings.Join(r.logs, "\n"); !strings.Contains(logs, "[never-cited]") || strings.Contains(logs, "[only-falls]") {
		t.Errorf("logs %q: want only [never-cited] reported as uncited", logs)
	}
}

// TestCrossPackageCitationNeedsTheOtherDoc: a name defined only in another package's
// doc.go is known when that package is passed, and an error otherwise.
func TestCrossPackageCitationNeedsTheOtherDoc(t *testing.T) {
	other := writePkg(t, map[string]string{"doc.go": "// Package q.\n//\n//   - [their-rule] Theirs.\npackage q\n"})
	dir := writePkg(t, map[string]string{
		"doc.go": docSrc,
		"p.go":   "package p\n\n// F follows q's [their-rule] and [only-falls].\nfunc F() {}\n",
	})
	r := &recorder{TB: t}
	Check(r, dir)
	if len(r.errors) != 1 {
		t.Errorf("without q: want 1 error, got %q", r.errors)
	}
	r = &recorder{TB: t}
	Check(r, dir, other)
	if len(r.errors) != 0 {
		t.Errorf("with q: want no error, got %q", r.errors)
	}
}

// TestDuplicateDefinitionFails: a doc.go that defines one name twice is an error.
func TestDuplicateDefinitionFails(t *testing.T) {
	dir := writePkg(t, map[string]string{"doc.go": docSrc + "\n//   - [only-falls] Again.\nvar x int\n"})
	r := &recorder{TB: t}
	Check(r, dir)
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "[only-falls] more than once") {
		t.Errorf("errors %q", r.errors)
	}
}

// TestCheckScenariosWantsEveryRuleCitedByAFile: a rule of the package that no scenario
// file cites is an error, and so is a file citing a name no doc.go given defines; a rule
// of another package passed in is known.
func TestCheckScenariosWantsEveryRuleCitedByAFile(t *testing.T) {
	other := writePkg(t, map[string]string{"doc.go": "// Package q.\n//\n//   - [their-rule] Theirs.\npackage q\n"})
	dir := writePkg(t, map[string]string{"doc.go": docSrc})
	if err := os.MkdirAll(filepath.Join(dir, "testdata", "scenarios"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "testdata", "scenarios", "a.txt"),
		[]byte("# [only-falls] and [their-rule], and [nobody-defines]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	CheckScenarios(r, dir, other)
	got := strings.Join(r.errors, "\n")
	for _, want := range []string{"cites [nobody-defines], which no doc.go defines", "cites the rule [never-cited]"} {
		if !strings.Contains(got, want) {
			t.Errorf("errors %q lack %q", got, want)
		}
	}
	if len(r.errors) != 2 {
		t.Errorf("want 2 errors, got %d: %q", len(r.errors), r.errors)
	}
}
