package inventory

import (
	"testing"

	"github.com/arbitergo/arbiter/internal/docrules"
)

// TestRuleNamesAreDefined: every rule the package's comments cite by name is defined
// under # Rules in doc.go.
func TestRuleNamesAreDefined(t *testing.T) { docrules.Check(t, ".", "../vitals") }
