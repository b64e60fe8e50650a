//go:build ignore

// gen writes methods.go and hot.go (see package wire/internal/wiregen); `go generate ./wire` runs it.
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
	hot, err := wiregen.GenerateHot(".")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(wiregen.HotOutput, hot, 0o644); err != nil {
		log.Fatal(err)
	}
}
