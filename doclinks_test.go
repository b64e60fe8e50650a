package arbiter

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docFiles are the Markdown files whose relative links TestDocLinksResolve checks.
var docFiles = []string{"README.md", "docs/performance-history.md"}

// linkPattern is a Markdown inline link: [text](target).
var linkPattern = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinksResolve: every relative link of the README and the docs names a file or a
// directory of the repository, and every #anchor a heading of the Markdown file it points
// into (GitHub's anchors: the heading in lower case, spaces as hyphens, punctuation
// dropped). A link that moved with a section, or a heading renamed, fails here.
func TestDocLinksResolve(t *testing.T) {
	for _, file := range docFiles {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range linkPattern.FindAllStringSubmatch(string(src), -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			if path == "" {
				path = file
			} else {
				path = filepath.Join(filepath.Dir(file), path)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %q: %v", file, target, err)
				continue
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(path, ".md") {
				t.Errorf("%s: link %q: an anchor into a file that is not Markdown", file, target)
				continue
			}
			anchors, err := headingAnchors(path)
			if err != nil {
				t.Fatal(err)
			}
			if !anchors[anchor] {
				t.Errorf("%s: link %q: %s has no heading with that anchor", file, target, path)
			}
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of the Markdown file at
// path, outside fenced code blocks (a repeated heading's second anchor, with its -1
// suffix, is left out: no link here needs it).
func headingAnchors(path string) (map[string]bool, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	anchors := map[string]bool{}
	fenced := false
	for line := range strings.SplitSeq(string(src), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		anchors[anchorOf(title)] = true
	}
	return anchors, nil
}

// anchorOf is GitHub's anchor of a heading: lower case, letters, digits, hyphens and
// underscores kept, each space a hyphen, everything else dropped.
func anchorOf(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}
