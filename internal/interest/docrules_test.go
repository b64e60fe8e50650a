package interest

import (
	"testing"

	"github.com/arbitergo/arbiter/internal/docrules"
)

// TestRuleNamesAreDefined: every rule the package's comments cite by name is defined
// under # Rules in its doc.go.
func TestRuleNamesAreDefined(t *testing.T) {
	docrules.Check(t, ".")
}
