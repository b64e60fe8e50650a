package match

import (
	"testing"

	"github.com/arbitergo/arbiter/internal/docrules"
)

// TestRuleNamesAreDefined: every rule the package's comments cite by name is defined
// under # Rules in its doc.go or in the doc.go of the package the citation names.
func TestRuleNamesAreDefined(t *testing.T) {
	docrules.Check(t, ".", "../../vitals", "../../inventory", "../../lifecycle", "../../teams", "../../rewind", "../../wire", "../client", "../refserver", "../..")
}
