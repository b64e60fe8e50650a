package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

// bundleOf builds a bundle of the given elements by hand (header, then each element with
// its little-endian u16 length prefix), the layout doc.go documents.
func bundleOf(elems ...[]byte) []byte {
	b := []byte{Version, byte(IDBundle)}
	for _, e := range elems {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(e)))
		b = append(b, e...)
	}
	return b
}

func encoded(t testing.TB, m Message) []byte {
	t.Helper()
	b, err := m.Append(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBundleCarriesWholeDatagrams: what a BundleWriter packs, OpenBundle gives back
// element by element, byte for byte and in order; a lone element goes bare.
func TestBundleCarriesWholeDatagrams(t *testing.T) {
	ping := encoded(t, &Ping{Seq: 7, Time: 99})
	frame := encoded(t, &RemotePlayerSync{Player: 3, Health: 100, Vehicle: NoVehicle})
	laneDgram := []byte{Version, byte(FirstTransportID), 1, 0, 0, 0, 0, 0}
	var w BundleWriter
	w.Reset(1200)
	if got := w.Bytes(); got != nil {
		t.Fatalf("an empty writer sends %x", got)
	}
	if _, err := w.Add(ping); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), ping) || w.Size() != len(ping) {
		t.Fatalf("a lone element goes bare: got %x, want %x", w.Bytes(), ping)
	}
	for _, e := range [][]byte{frame, laneDgram} {
		if _, err := w.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	want := bundleOf(ping, frame, laneDgram)
	if !bytes.Equal(w.Bytes(), want) || w.Size() != len(want) {
		t.Fatalf("bundle %x, want %x", w.Bytes(), want)
	}
	b, err := OpenBundle(w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != 3 {
		t.Fatalf("Len %d, want 3", b.Len())
	}
	for i, e := range [][]byte{ping, frame, laneDgram} {
		got, ok := b.Next()
		if !ok || !bytes.Equal(got, e) {
			t.Fatalf("element %d: %x %v, want %x", i, got, ok, e)
		}
	}
	if _, ok := b.Next(); ok {
		t.Fatal("a fourth element")
	}
	var all [][]byte
	for e := range Elements(want) {
		all = append(all, e)
	}
	if len(all) != 3 || !bytes.Equal(all[1], frame) {
		t.Fatalf("Elements yields %x", all)
	}
	all = all[:0]
	for e := range Elements(ping) {
		all = append(all, e)
	}
	if len(all) != 1 || !bytes.Equal(all[0], ping) {
		t.Fatalf("Elements of a bare datagram yields %x", all)
	}
}

// TestBundleCopyIsPatchable: the copy Add returns lies in the bundle, so a stamp patched
// there is what the recipient reads, and the log it was copied from is untouched.
func TestBundleCopyIsPatchable(t *testing.T) {
	src := encoded(t, &RemotePlayerSync{Player: 3, Health: 100, Vehicle: NoVehicle})
	orig := bytes.Clone(src)
	var w BundleWriter
	w.Reset(1200)
	_, _ = w.Add(encoded(t, &Ping{}))
	c, err := w.Add(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := PatchStamp(c, Stamp{Teammate: true, Rev: 9}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, orig) {
		t.Fatal("the source changed")
	}
	b, _ := OpenBundle(w.Bytes())
	b.Next()
	e, _ := b.Next()
	var m RemotePlayerSync
	if err := m.Decode(e); err != nil {
		t.Fatal(err)
	}
	if !m.Stamp.Teammate || m.Stamp.Rev != 9 {
		t.Fatalf("stamp %+v", m.Stamp)
	}
}

// TestBundleWriterStopsAtThePayloadSize: a writer never builds a datagram above its
// payload size; an element that does not fit is refused with ErrBundleFull and fits an
// empty writer; one above the payload size is refused even alone.
func TestBundleWriterStopsAtThePayloadSize(t *testing.T) {
	frame := encoded(t, &RemotePlayerSync{Player: 3, Health: 100, Vehicle: NoVehicle})
	for _, payload := range []int{len(frame), len(frame) + 10, 200, 1200, 1400} {
		var w BundleWriter
		w.Reset(payload)
		n := 0
		for {
			_, err := w.Add(frame)
			if errors.Is(err, ErrBundleFull) {
				break
			}
			if err != nil {
				t.Fatalf("payload %d: %v", payload, err)
			}
			n++
			if w.Size() > payload {
				t.Fatalf("payload %d: datagram of %d bytes", payload, w.Size())
			}
		}
		want := 1
		if k := (payload - HeaderSize) / (BundlePrefixSize + len(frame)); k > 1 {
			want = k
		}
		if n != want {
			t.Fatalf("payload %d: %d elements, want %d", payload, n, want)
		}
		before := bytes.Clone(w.Bytes())
		if _, err := w.Add(frame); !errors.Is(err, ErrBundleFull) || !bytes.Equal(w.Bytes(), before) {
			t.Fatalf("a refused Add changed the bundle (%v)", err)
		}
		w.Reset(payload)
		if _, err := w.Add(frame); err != nil {
			t.Fatalf("payload %d: a fresh bundle refuses: %v", payload, err)
		}
	}
	var w BundleWriter
	w.Reset(len(frame) - 1)
	if _, err := w.Add(frame); !errors.Is(err, ErrBundleTooLarge) {
		t.Fatalf("an element above the payload size: %v", err)
	}
	// The element cap.
	w.Reset(1 << 16)
	for range MaxBundleElements {
		if _, err := w.Add([]byte{Version, byte(IDPing)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Add([]byte{Version, byte(IDPing)}); !errors.Is(err, ErrBundleFull) {
		t.Fatalf("element %d: %v", MaxBundleElements+1, err)
	}
}

// TestBundleRefusedWhole: a received bundle that is truncated, holds an empty or too short
// element, nests a bundle, or carries more than MaxBundleElements is refused whole with
// its named error; the writer refuses to build the same.
func TestBundleRefusedWhole(t *testing.T) {
	ping := encoded(t, &Ping{Seq: 1})
	good := bundleOf(ping, ping)
	many := make([][]byte, MaxBundleElements+1)
	for i := range many {
		many[i] = ping
	}
	full := make([][]byte, MaxBundleElements)
	for i := range full {
		full[i] = ping
	}
	cases := []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", nil, ErrTruncated},
		{"another version", append([]byte{Version + 1}, good[1:]...), ErrVersion},
		{"a message", ping, ErrWrongMessage},
		{"no element", bundleOf(), ErrBundleEmpty},
		{"zero-length element", bundleOf(ping, nil), ErrBundleEmpty},
		{"one-byte element", bundleOf(ping, []byte{Version}), ErrBundleEmpty},
		{"half a prefix", append(bytes.Clone(good), 5), ErrBundleTruncated},
		{"element cut short", good[:len(good)-1], ErrBundleTruncated},
		{"prefix past the end", append(bundleOf(ping), 0xFF, 0, Version, byte(IDPing)), ErrBundleTruncated},
		{"nested", bundleOf(ping, bundleOf(ping, ping)), ErrBundleNested},
		{"nested alone", bundleOf(bundleOf(ping)), ErrBundleNested},
		{"too many", bundleOf(many...), ErrBundleTooMany},
	}
	for _, c := range cases {
		b, err := OpenBundle(c.b)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if _, ok := b.Next(); ok || b.Len() != 0 {
			t.Errorf("%s: a refused bundle yields an element", c.name)
		}
		n := 0
		for range Elements(c.b) {
			n++
		}
		if n != 0 && (len(c.b) >= HeaderSize && ID(c.b[1]) == IDBundle) {
			t.Errorf("%s: Elements yields %d elements of a refused bundle", c.name, n)
		}
	}
	if b, err := OpenBundle(bundleOf(full...)); err != nil || b.Len() != MaxBundleElements {
		t.Fatalf("MaxBundleElements elements: %v", err)
	}
	var w BundleWriter
	w.Reset(1200)
	for _, c := range []struct {
		e    []byte
		want error
	}{{nil, ErrBundleEmpty}, {[]byte{Version}, ErrBundleEmpty}, {good, ErrBundleNested}} {
		if _, err := w.Add(c.e); !errors.Is(err, c.want) || w.Len() != 0 {
			t.Errorf("Add(%x): %v, want %v", c.e, err, c.want)
		}
	}
}

// TestBundleDoesNotAllocate: building, opening and walking a bundle allocate nothing once
// the writer has its buffer.
func TestBundleDoesNotAllocate(t *testing.T) {
	frame := encoded(t, &RemotePlayerSync{Player: 3, Health: 100, Vehicle: NoVehicle})
	var w BundleWriter
	w.Reset(1200)
	allocs := testing.AllocsPerRun(100, func() {
		w.Reset(1200)
		for {
			c, err := w.Add(frame)
			if err != nil {
				break
			}
			_ = PatchStamp(c, Stamp{Rev: 1})
		}
		b, err := OpenBundle(w.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for _, ok := b.Next(); ok; _, ok = b.Next() {
		}
		for range Elements(w.Bytes()) {
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations", allocs)
	}
}

// FuzzOpenBundle feeds arbitrary bytes to the splitter: it never panics, a bundle it
// accepts has between 1 and MaxBundleElements elements, none shorter than a header and
// none a bundle, whose lengths and prefixes add up to the datagram exactly; and a writer
// given those elements rebuilds exactly the same bytes (or the bare element alone).
func FuzzOpenBundle(f *testing.F) {
	ping := encoded(f, &Ping{Seq: 1})
	f.Add(bundleOf(ping, ping))
	f.Add(bundleOf(ping, []byte{Version, byte(FirstTransportID), 0, 0, 0, 0, 0}))
	f.Add(bundleOf(ping, bundleOf(ping)))
	f.Add(bundleOf())
	f.Add(bundleOf(nil))
	f.Add(bundleOf(ping)[:5])
	f.Fuzz(func(t *testing.T, d []byte) {
		b, err := OpenBundle(d)
		if err != nil {
			if b.Len() != 0 {
				t.Fatalf("refused (%v) with %d elements", err, b.Len())
			}
			return
		}
		n := b.Len()
		if n < 1 || n > MaxBundleElements {
			t.Fatalf("%d elements", n)
		}
		var w BundleWriter
		w.Reset(len(d))
		total := HeaderSize
		for e, ok := b.Next(); ok; e, ok = b.Next() {
			if len(e) < HeaderSize || ID(e[1]) == IDBundle {
				t.Fatalf("element %x", e)
			}
			total += BundlePrefixSize + len(e)
			if _, err := w.Add(e); err != nil {
				t.Fatalf("the writer refuses an element OpenBundle accepted: %v", err)
			}
		}
		if total != len(d) {
			t.Fatalf("elements add up to %d of %d bytes", total, len(d))
		}
		if n > 1 && !bytes.Equal(w.Bytes(), d) {
			t.Fatalf("rebuilt %x, want %x", w.Bytes(), d)
		}
	})
}

// BenchmarkBundle packs a 1,200-byte bundle of relayed frames (each copied once and its
// stamp patched there, as a server does per recipient) and opens and walks it (as a
// receiver does); ns/element divides by the frames it holds.
func BenchmarkBundle(b *testing.B) {
	frame := encoded(b, &RemotePlayerSync{Player: 3, Health: 100, Vehicle: NoVehicle})
	var w BundleWriter
	w.Reset(1200)
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(1200)
		for {
			c, err := w.Add(frame)
			if err != nil {
				break
			}
			_ = PatchStamp(c, Stamp{Rev: 1})
		}
		bd, err := OpenBundle(w.Bytes())
		if err != nil {
			b.Fatal(err)
		}
		for _, ok := bd.Next(); ok; _, ok = bd.Next() {
			n++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/element")
}

// Append is Add's common case: the same bytes where Add would put an element beside
// others, and nothing at all where Add would have to refuse or start the bundle.
func TestBundleAppendIsAddsCommonCase(t *testing.T) {
	frame := encoded(t, &RemotePlayerSync{Player: 3, Health: 100, Vehicle: NoVehicle})
	for _, payload := range []int{len(frame), 3*len(frame) + 5, 1200} {
		var a, b BundleWriter
		a.Reset(payload)
		b.Reset(payload)
		if _, ok := b.Append(frame); ok {
			t.Fatal("the first element is Add's")
		}
		if _, err := a.Add(frame); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Add(frame); err != nil {
			t.Fatal(err)
		}
		for {
			before := b.Size()
			c, ok := b.Append(frame)
			_, err := a.Add(frame)
			if !ok {
				if err == nil || b.Size() != before {
					t.Fatalf("payload %d: Append refused what Add took (%v), or wrote", payload, err)
				}
				break
			}
			if err != nil || !bytes.Equal(c, frame) || !bytes.Equal(a.Bytes(), b.Bytes()) || a.Len() != b.Len() {
				t.Fatalf("payload %d: Append and Add differ (%v)", payload, err)
			}
		}
	}
	// MaxBundleElements: Append stops where Add does.
	tiny := []byte{Version, byte(IDPing)}
	var a, b BundleWriter
	a.Reset(1 << 15)
	b.Reset(1 << 15)
	_, _ = a.Add(tiny)
	_, _ = b.Add(tiny)
	for {
		_, ok := b.Append(tiny)
		_, err := a.Add(tiny)
		if ok != (err == nil) {
			t.Fatalf("at %d elements: Append %v, Add %v", b.Len(), ok, err)
		}
		if !ok {
			break
		}
	}
	if b.Len() != MaxBundleElements {
		t.Fatalf("%d elements", b.Len())
	}
}

// Reserve is Append for a caller that writes the element itself: filled with the same
// bytes, it builds what Append builds, it refuses where Append refuses (the first element,
// the payload, MaxBundleElements), and it refuses a size no element can have, adding
// nothing when it refuses.
func TestBundleReserveIsAppendFilledByTheCaller(t *testing.T) {
	frame := encoded(t, &RemotePlayerSync{Player: 3, Health: 100, Vehicle: NoVehicle})
	ping := encoded(t, &Ping{Seq: 7})
	for _, payload := range []int{len(frame), 3*len(frame) + 5, 1200, 1 << 15} {
		var a, b BundleWriter
		a.Reset(payload)
		b.Reset(payload)
		if _, ok := b.Reserve(len(frame)); ok || b.Len() != 0 {
			t.Fatal("the first element is Add's")
		}
		if _, err := a.Add(frame); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Add(frame); err != nil {
			t.Fatal(err)
		}
		for i := 0; ; i++ {
			elem := frame
			if i%3 == 2 {
				elem = ping
			}
			for _, n := range []int{-1, 0, HeaderSize - 1, MaxBundleElement + 1} {
				if _, ok := b.Reserve(n); ok {
					t.Fatalf("Reserve(%d) took it", n)
				}
			}
			before, n := b.Size(), b.Len()
			c, ok := b.Reserve(len(elem))
			ac, aok := a.Append(elem)
			if !ok {
				if aok || b.Size() != before || b.Len() != n {
					t.Fatalf("payload %d: Reserve refused what Append took, or wrote", payload)
				}
				break
			}
			if !aok || len(c) != len(elem) || cap(c) != len(elem) {
				t.Fatalf("payload %d: Reserve gave %d bytes (cap %d) for %d, Append %v", payload, len(c), cap(c), len(elem), aok)
			}
			copy(c, elem)
			if !bytes.Equal(a.Bytes(), b.Bytes()) || a.Len() != b.Len() || !bytes.Equal(ac, c) {
				t.Fatalf("payload %d: Reserve and Append differ", payload)
			}
		}
		if _, err := OpenBundle(b.Bytes()); b.Len() > 1 && err != nil {
			t.Fatal(err)
		}
	}
	// MaxBundleElements: Reserve stops where Add does.
	tiny := []byte{Version, byte(IDPing)}
	var b BundleWriter
	b.Reset(1 << 15)
	_, _ = b.Add(tiny)
	for {
		c, ok := b.Reserve(len(tiny))
		if !ok {
			break
		}
		copy(c, tiny)
	}
	if b.Len() != MaxBundleElements {
		t.Fatalf("%d elements", b.Len())
	}
	if _, err := OpenBundle(b.Bytes()); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkBundleWriter packs twenty relayed frames into a 1,200-byte bundle, element by
// element with Add, and with the inlined Append after the first (a relay loop's way).
func BenchmarkBundleWriter(b *testing.B) {
	frame := encoded(b, &RemotePlayerSync{Player: 3, Health: 100, Vehicle: NoVehicle})
	var w BundleWriter
	b.Run("add", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			w.Reset(1200)
			for range 20 {
				_, _ = w.Add(frame)
			}
		}
	})
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			w.Reset(1200)
			_, _ = w.Add(frame)
			for range 19 {
				if _, ok := w.Append(frame); !ok {
					_, _ = w.Add(frame)
				}
			}
		}
	})
}
