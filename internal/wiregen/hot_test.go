package wiregen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeWire writes a package with the span bounds and one hot message's walk, as wire
// spells them.
func fakeWire(t *testing.T, walk string) string {
	t.Helper()
	dir := t.TempDir()
	src := `package wire

type span uint8

const spanAny span = 0

func (s span) bounds() (lo, hi float32) {
	switch s {
	}
	return -1, 1
}

type PlayerSync struct{ Seq, Other uint16 }

` + walk
	if err := os.WriteFile(filepath.Join(dir, "msg.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A rule that reads a field the walk does not put on the wire cannot be checked by the
// fast Decode (it would read the old value of the destination): generation refuses it.
func TestHotRefusesARuleOnAFieldOffTheWire(t *testing.T) {
	dir := fakeWire(t, `func (m *PlayerSync) walk(c *codec) {
	c.u16(&m.Seq, "Seq")
	c.rule(m.Other == 0 || m.Seq == 0, "Seq", kindNonCanonical, "text")
}
`)
	w, err := loadWalks(dir)
	if err != nil {
		t.Fatal(err)
	}
	ops, err := w.flatten("PlayerSync")
	if err != nil {
		t.Fatal(err)
	}
	g := &gen{w: w, typ: "PlayerSync", id: "IDPlayerSync", ops: ops, size: size(ops), b: new(bytes.Buffer)}
	if err := g.decodeMethod(); err == nil || !strings.Contains(err.Error(), "does not decode") {
		t.Fatalf("decodeMethod = %v, want the rule refused", err)
	}
}

// A codec call the generator does not know is an error, not a silently missing field.
func TestHotRefusesAnUnknownCodecCall(t *testing.T) {
	dir := fakeWire(t, `func (m *PlayerSync) walk(c *codec) {
	c.u16(&m.Seq, "Seq")
	c.varint(&m.Other, "Other")
}
`)
	w, err := loadWalks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.flatten("PlayerSync"); err == nil || !strings.Contains(err.Error(), "varint") {
		t.Fatalf("flatten = %v, want the unknown call named", err)
	}
}
