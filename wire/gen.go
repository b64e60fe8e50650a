//go:build ignore

// gen writes methods.go (see package wire/internal/wiregen); `go generate ./wire` runs it.
package main

import (
	"log"
	"os"

	"github.com/arbitergo/arbiter/wire/internal/wiregen"
)

func main() {
	src, err := wiregen.Generate(".")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(wiregen.Output, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
