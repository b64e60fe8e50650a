package wire

import (
	"bytes"
	"os"
	"testing"

	"github.com/arbitergo/arbiter/internal/wiregen"
)

// The generated methods are current: what wiregen writes from ids.go today is byte for
// byte the file in the package.
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
		t.Fatalf("%s is not what wiregen generates from ids.go: run `go generate ./wire`", wiregen.Output)
	}
}

// The generated fast paths are current: what wiregen writes from the walks today is byte
// for byte hot.go, so a changed walk cannot leave a stale fast path behind.
func TestGeneratedFastPathsAreCurrent(t *testing.T) {
	want, err := wiregen.GenerateHot(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(wiregen.HotOutput)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not what wiregen generates from the walks: run `go generate ./wire`", wiregen.HotOutput)
	}
}
