package wire

import (
	"bytes"
	"os"
	"testing"

	"github.com/arbitergo/arbiter/wire/internal/wiregen"
)

// The generated methods are current: what wiregen writes from ids.go and hot.go today is
// byte for byte the file in the package.
func TestGeneratedMethodsAreCurrent(t *testing.T) {
	want, err := wiregen.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(wiregen.Output)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not what wiregen generates from ids.go and hot.go: run `go generate ./wire`", wiregen.Output)
	}
}
