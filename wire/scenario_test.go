package wire

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/arbitergo/arbiter/internal/docrules"
	"github.com/arbitergo/arbiter/internal/scenario"
)

// The scenario driver. Each file in testdata/scenarios holds scenarios read with
// datadriven: a "# name" comment citing the rules it shows by their bracketed names, then
// one "run" block whose input is a list of events, one per line (see internal/scenario):
//
//	<time> <verb> [word ...] [key=value ...]
//
// The wire has no clock: the time only orders the story (the files write 0). Within a run
// block, bytes can be kept under a name (as=<name>) and used wherever bytes are asked
// for; elsewhere bytes are written in hex, "_" may separate fields. A message's fields are
// set by the names String prints them with (vital_rev=3, stamp.teammate=true,
// position=(1,2,3) or position.x=1, hit_type=player or hit_type=1, vehicle=none for
// 0xFFFF); floats take NaN, Inf, -Inf and -0. Verbs:
//
//	encode <Msg> [field=value ...] [as=<name>]
//	                        Append: the bytes, "_" between the fields of the layout, and
//	                        "reads back as ..." when Decode gives another value (a
//	                        quantized field, a -0); or the named error
//	decode <bytes> [type=<Msg>] [edits]
//	                        Decoder.Decode (or the typed Decode of type=): the message, or
//	                        the named error
//	peek <bytes> [edits]    Peek: the id, or the named error
//	delivery <Msg> [field=value ...]
//	                        ID.Direction, ID.Delivery and Critical
//	patch-stamp <bytes> [teammate=B] [rev=N] [as=<name>] [edits]
//	                        PatchStamp on a copy: the bytes and what Decode makes of
//	                        them, or the named error
//	bundle <bytes> ... [payload=N] [as=<name>]
//	                        BundleWriter (payload size N, default 1200): each element is
//	                        added in order; one that does not fit (ErrBundleFull) starts
//	                        the next datagram, one refused otherwise is reported and
//	                        skipped. The datagrams are kept as <name>.1, <name>.2, ...
//	open-bundle <bytes> [edits]
//	                        OpenBundle: each element as Decode reads it alone (a lane
//	                        datagram by its id), or the named error
//
// The edits change the bytes before they are used, in this order: poke=AT:HEX[,AT:HEX]
// overwrites bytes from AT, a byte offset or a field's printed name (the field's first
// byte); cut=N keeps the first N bytes; extra=HEX appends bytes (repeat=N times).
//
// The block's output has one line per event, "<time> <the line as written>: <result>",
// and indented lines under it for the rest of the result (the value an encoding reads
// back as, a bundle's datagrams, its elements).
//
// Beyond printing, the driver holds every encode and decode to the wire's own rules and
// fails the test when one breaks: an encoding has its message's fixed size, decodes, and
// a refused Append leaves dst as it was; every message Decode accepts re-encodes to
// exactly its bytes. go test ./wire -run Scenario -rewrite regenerates the expected
// output.

type wireScenario struct {
	kept map[string][]byte
}

func runWireScenario(t *testing.T, input string) string {
	s := &wireScenario{kept: map[string][]byte{}}
	var out strings.Builder
	for _, l := range scenario.Lines(t, input) {
		// The line is echoed whole: a message's fields are its arguments.
		head := strings.TrimSpace(strings.TrimPrefix(l.Text, l.Time))
		first, more := s.run(l)
		fmt.Fprintf(&out, "%-7s %s: %s\n", l.Time, head, first)
		for _, m := range more {
			fmt.Fprintf(&out, "        %s\n", m)
		}
	}
	return out.String()
}

func (s *wireScenario) run(l scenario.Line) (string, []string) {
	switch l.Verb {
	case "encode":
		return s.encode(l)
	case "decode":
		return s.decode(l)
	case "peek":
		id, err := Peek(s.bytes(l, 0))
		if err != nil {
			return "error: " + err.Error(), nil
		}
		if id.Transport() && !id.Known() {
			return fmt.Sprintf("transport id 0x%02x", uint8(id)), nil
		}
		return fmt.Sprintf("%v (0x%02x)", id, uint8(id)), nil
	case "delivery":
		m := s.message(l, map[string]bool{})
		crit := "ordinary"
		if Critical(m) {
			crit = "critical"
		}
		return fmt.Sprintf("%v, %v, %s", m.ID().Direction(), m.ID().Delivery(), crit), nil
	case "patch-stamp":
		b := bytes.Clone(s.bytes(l, 0))
		st := Stamp{Teammate: l.Bool("teammate", false), Rev: uint16(l.Uint("rev", 16, 0))}
		if err := PatchStamp(b, st); err != nil {
			return "error: " + err.Error(), nil
		}
		s.keep(l, b)
		return wireHex(b), []string{"decodes as " + wireDecoded(l, b)}
	case "bundle":
		return s.bundle(l)
	case "open-bundle":
		return s.openBundle(l)
	}
	l.Fatalf("unknown verb %q (want encode, decode, peek, delivery, patch-stamp, bundle or open-bundle)", l.Verb)
	return "", nil
}

// wireEditKeys are the arguments that edit bytes; the other arguments of a verb that
// takes bytes are its own.
var wireEditKeys = []string{"poke", "cut", "extra", "repeat"}

func (s *wireScenario) encode(l scenario.Line) (string, []string) {
	m := s.message(l, map[string]bool{"as": true})
	// A refused Append returns dst as it was ([validation-both-ways]): append after
	// bytes that must survive.
	prefix := []byte{0xAA, 0xBB}
	out, err := m.Append(bytes.Clone(prefix))
	if err != nil {
		if !bytes.Equal(out, prefix) {
			l.Fatalf("a refused Append changed dst to %x", out)
		}
		return "error: " + err.Error(), nil
	}
	b := out[len(prefix):]
	if len(b) != m.ID().Size() {
		l.Fatalf("%v encodes to %d bytes, its size is %d", m.ID(), len(b), m.ID().Size())
	}
	back := New(m.ID())
	if err := back.Decode(b); err != nil {
		l.Fatalf("Decode refuses what Append wrote: %v", err)
	}
	s.keep(l, b)
	var more []string
	if back.String() != m.String() {
		more = append(more, "reads back as "+back.String())
	}
	return fmt.Sprintf("%dB %s", len(b), wireHex(b)), more
}

func (s *wireScenario) decode(l scenario.Line) (string, []string) {
	b := s.bytes(l, 0, "type")
	if !l.Has("type") {
		return wireDecoded(l, b), nil
	}
	m := New(wireID(l, l.Str("type", "")))
	if err := m.Decode(b); err != nil {
		return "error: " + err.Error(), nil
	}
	wireReencodes(l, m, b)
	return m.String(), nil
}

// wireDecoded is what a Decoder makes of b: the message or the named error.
func wireDecoded(l scenario.Line, b []byte) string {
	var d Decoder
	m, err := d.Decode(b)
	if err != nil {
		return "error: " + err.Error()
	}
	wireReencodes(l, m, b)
	return m.String()
}

// wireReencodes fails the scenario unless m, decoded from b, re-encodes to exactly b
// ([canonical-encoding]).
func wireReencodes(l scenario.Line, m Message, b []byte) {
	again, err := m.Append(nil)
	if err != nil || !bytes.Equal(again, b) {
		l.Fatalf("%v decoded from %x re-encodes to %x (%v)", m.ID(), b, again, err)
	}
}

func (s *wireScenario) bundle(l scenario.Line) (string, []string) {
	if len(l.Words) == 0 {
		l.Fatalf("bundle: want elements")
	}
	for k := range l.Args {
		if k != "payload" && k != "as" {
			l.Fatalf("bundle takes payload= and as=, not %s=", k)
		}
	}
	payload := int(l.Uint("payload", 16, 1200))
	var w BundleWriter
	w.Reset(payload)
	var more []string
	var names []string // the elements of the datagram being built, as the line names them
	var sent [][]byte
	send := func() {
		if w.Len() == 0 {
			return
		}
		b := bytes.Clone(w.Bytes())
		sent = append(sent, b)
		kind := "bare"
		if w.Len() > 1 {
			kind = "bundle of " + strconv.Itoa(w.Len())
		}
		more = append(more, fmt.Sprintf("#%d %dB %s: %s", len(sent), len(b), kind, wireBundleHex(b, names)))
		w.Reset(payload)
		names = names[:0]
	}
	for i, word := range l.Words {
		elem := s.bytesOf(l, word)
		_, err := w.Add(elem)
		if errors.Is(err, ErrBundleFull) {
			send()
			_, err = w.Add(elem)
		}
		if err != nil {
			more = append(more, fmt.Sprintf("element %d (%s) refused: %v", i+1, word, err))
			continue
		}
		names = append(names, word)
	}
	send()
	if name := l.Str("as", ""); name != "" {
		for i, b := range sent {
			s.kept[name+"."+strconv.Itoa(i+1)] = b
		}
	}
	return fmt.Sprintf("%d datagram(s)", len(sent)), more
}

// wireBundleHex prints a datagram BundleWriter built: a bare element by its name; a
// bundle as its header, then each element's length prefix in hex and its name.
func wireBundleHex(b []byte, names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	parts := []string{hex.EncodeToString(b[:HeaderSize])}
	rest := b[HeaderSize:]
	for _, n := range names {
		size := int(rest[0]) | int(rest[1])<<8
		parts = append(parts, hex.EncodeToString(rest[:BundlePrefixSize])+" "+n)
		rest = rest[BundlePrefixSize+size:]
	}
	return strings.Join(parts, " | ")
}

func (s *wireScenario) openBundle(l scenario.Line) (string, []string) {
	b, err := OpenBundle(s.bytes(l, 0))
	if err != nil {
		return "error: " + err.Error(), nil
	}
	first := fmt.Sprintf("%d element(s)", b.Len())
	var whats []string
	for e, ok := b.Next(); ok; e, ok = b.Next() {
		what := wireDecoded(l, e)
		if id, err := Peek(e); err == nil && id.Transport() {
			what = fmt.Sprintf("transport datagram, id 0x%02x", uint8(id))
		}
		whats = append(whats, fmt.Sprintf("%dB %s", len(e), what))
	}
	// Consecutive elements read alike print as one range (i..j).
	var more []string
	for i := 0; i < len(whats); {
		j := i + 1
		for j < len(whats) && whats[j] == whats[i] {
			j++
		}
		at := strconv.Itoa(i + 1)
		if j-i > 1 {
			at += ".." + strconv.Itoa(j)
		}
		more = append(more, at+": "+whats[i])
		i = j
	}
	return first, more
}

// keep stores b under the line's as= name, if it has one.
func (s *wireScenario) keep(l scenario.Line, b []byte) {
	if name := l.Str("as", ""); name != "" {
		s.kept[name] = bytes.Clone(b)
	}
}

// bytes returns the bytes the i-th word names (a kept name or hex), edited by the line's
// poke=, cut= and extra=. The line may take the other arguments in own (and as=).
func (s *wireScenario) bytes(l scenario.Line, i int, own ...string) []byte {
	for k := range l.Args {
		if !slices.Contains(wireEditKeys, k) && !slices.Contains(own, k) && k != "as" &&
			!(l.Verb == "patch-stamp" && (k == "teammate" || k == "rev")) {
			l.Fatalf("%s does not take %s=", l.Verb, k)
		}
	}
	b := bytes.Clone(s.bytesOf(l, l.Word(i)))
	if v := l.Str("poke", ""); v != "" {
		for _, p := range strings.Split(v, ",") {
			at, h, ok := strings.Cut(p, ":")
			if !ok {
				l.Fatalf("poke=%s: want AT:HEX", v)
			}
			off := wireOffset(l, b, at)
			patch := wireParseHex(l, h)
			if off+len(patch) > len(b) {
				l.Fatalf("poke=%s: past the end of %d bytes", p, len(b))
			}
			copy(b[off:], patch)
		}
	}
	if l.Has("cut") {
		n := int(l.Uint("cut", 16, 0))
		if n > len(b) {
			l.Fatalf("cut=%d: only %d bytes", n, len(b))
		}
		b = b[:n]
	}
	if v := l.Str("extra", ""); v != "" {
		for range l.Uint("repeat", 16, 1) {
			b = append(b, wireParseHex(l, v)...)
		}
	}
	return b
}

// bytesOf reads a word as a kept name or as hex.
func (s *wireScenario) bytesOf(l scenario.Line, word string) []byte {
	if b, ok := s.kept[word]; ok {
		return b
	}
	return wireParseHex(l, word)
}

func wireParseHex(l scenario.Line, h string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(h, "_", ""))
	if err != nil {
		l.Fatalf("%q is neither a kept name nor hex: %v", h, err)
	}
	return b
}

// wireOffset reads a poke position: a byte offset, or the printed name of a field of the
// message b holds (its first byte).
func wireOffset(l scenario.Line, b []byte, at string) int {
	if n, err := strconv.Atoi(at); err == nil {
		return n
	}
	if len(b) < HeaderSize || layoutOf(ID(b[1])) == nil {
		l.Fatalf("poke at %q: the bytes are no known message", at)
	}
	lay := layoutOf(ID(b[1]))
	for _, f := range lay.fields {
		if string(appendSnake(nil, f.name)) == at {
			return f.off
		}
	}
	l.Fatalf("poke at %q: %s has no such field", at, lay.name)
	return 0
}

// wireHex prints an encoding with "_" between the fields of its layout.
func wireHex(b []byte) string {
	lay := layoutOf(ID(b[1]))
	cuts := []int{HeaderSize}
	for _, f := range lay.fields {
		cuts = append(cuts, f.off)
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var parts []string
	from := 0
	for _, c := range cuts {
		parts = append(parts, hex.EncodeToString(b[from:c]))
		from = c
	}
	parts = append(parts, hex.EncodeToString(b[from:]))
	return strings.Join(parts, "_")
}

// wireID reads a message name.
func wireID(l scenario.Line, name string) ID {
	for _, id := range IDs() {
		if id.String() == name {
			return id
		}
	}
	l.Fatalf("unknown message %q", name)
	return 0
}

// message builds the message the first word names with the fields the line sets; the
// arguments in other are not fields.
func (s *wireScenario) message(l scenario.Line, other map[string]bool) Message {
	m := New(wireID(l, l.Word(0)))
	fields := wireFields(m)
	for k, v := range l.Args {
		if other[k] {
			continue
		}
		f, ok := fields[k]
		if !ok {
			names := slices.Sorted(func(yield func(string) bool) {
				for n := range fields {
					if !yield(n) {
						return
					}
				}
			})
			l.Fatalf("%v has no field %q (its fields: %s)", m.ID(), k, strings.Join(names, " "))
		}
		if err := wireSet(f, v); err != nil {
			l.Fatalf("%s=%s: %v", k, v, err)
		}
	}
	return m
}

// wireFields maps the printed names of a message's fields (String's spelling, from the
// layout's Go paths) to the settable values; a vector or quaternion field is also
// reachable component by component (position.x).
func wireFields(m Message) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	v := reflect.ValueOf(m).Elem()
	for _, f := range layoutOf(m.ID()).fields {
		if f.group {
			continue
		}
		fv := v.FieldByName(strings.Split(f.name, ".")[0])
		for _, part := range strings.Split(f.name, ".")[1:] {
			fv = fv.FieldByName(part)
		}
		name := string(appendSnake(nil, f.name))
		out[name] = fv
		if fv.Kind() == reflect.Struct {
			for i := range fv.NumField() {
				out[name+"."+strings.ToLower(fv.Type().Field(i).Name)] = fv.Field(i)
			}
		}
	}
	return out
}

// wireSet sets a field from its printed value.
func wireSet(f reflect.Value, val string) error {
	switch f.Kind() {
	case reflect.Bool:
		b, err := strconv.ParseBool(val)
		if err != nil {
			return err
		}
		f.SetBool(b)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		if _, ok := f.Interface().(fmt.Stringer); ok && f.Kind() == reflect.Uint8 {
			// An enum of the wire (RefKind, HitType, Reason): by its printed name.
			for n := range 256 {
				e := reflect.New(f.Type()).Elem()
				e.SetUint(uint64(n))
				if e.Interface().(fmt.Stringer).String() == val {
					f.SetUint(uint64(n))
					return nil
				}
			}
		}
		if val == "none" && f.Kind() == reflect.Uint16 {
			val = "0xffff"
		}
		n, err := strconv.ParseUint(val, 0, f.Type().Bits())
		if err != nil {
			return err
		}
		f.SetUint(n)
	case reflect.Float32:
		x, err := strconv.ParseFloat(val, 32)
		if err != nil {
			return err
		}
		f.SetFloat(x)
	case reflect.Struct:
		parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(val, "("), ")"), ",")
		if len(parts) != f.NumField() {
			return fmt.Errorf("want %d components in parentheses", f.NumField())
		}
		for i, p := range parts {
			if err := wireSet(f.Field(i), p); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("a field of kind %v cannot be set", f.Kind())
	}
	return nil
}

// TestScenario runs every scenario file in testdata/scenarios.
func TestScenario(t *testing.T) {
	datadriven.Walk(t, filepath.Join("testdata", "scenarios"), func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "run" || len(d.CmdArgs) > 0 {
				d.Fatalf(t, "unknown command %q: want run without arguments", d.Cmd)
			}
			return runWireScenario(t, d.Input)
		})
	})
}

// wireCitation is a rule's bracketed name, as docrules reads it (lowercase words joined
// by hyphens; written with character classes docrules does not take for a citation).
var wireCitation = regexp.MustCompile(`\[(\p{Ll}[\p{Ll}\d]*(?:-\p{Ll}[\p{Ll}\d]*)+)\]`)

// TestScenarioFilesCoverEveryRule: every rule the scenario files cite is defined in the
// wire's doc.go, and every rule of its # Rules is cited by at least one scenario file, so
// each rule has a story that shows it.
func TestScenarioFilesCoverEveryRule(t *testing.T) {
	docrules.CheckScenarios(t, ".")
}
