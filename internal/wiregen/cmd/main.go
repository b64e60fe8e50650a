// Command wiregen writes package wire's methods.go and hot.go into the current directory
// (see package internal/wiregen); `go generate ./wire` runs it there.
package main

import (
	"fmt"
	"os"

	"github.com/arbitergo/arbiter/internal/wiregen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "wiregen:", err)
		os.Exit(1)
	}
}

func run() error {
	src, err := wiregen.Generate(".")
	if err != nil {
		return err
	}
	if err := os.WriteFile(wiregen.Output, src, 0o644); err != nil {
		return err
	}
	hot, err := wiregen.GenerateHot(".")
	if err != nil {
		return err
	}
	return os.WriteFile(wiregen.HotOutput, hot, 0o644)
}
