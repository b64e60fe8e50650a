package hugepages

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A maps listing as Linux writes it: only the large anonymous private read-write
// mappings are the heap's.
const maps = `00400000-00591000 r-xp 00000000 fe:00 10020335 /usr/bin/server
00591000-0059c000 rw-p 00191000 fe:00 10020335 /usr/bin/server
0059c000-005d2000 rw-p 00000000 00:00 0
15567fc00000-155686400000 rw-p 00000000 00:00 0
155690000000-155694000000 r--p 00000000 00:00 0
1556a0000000-1556a4000000 rw-s 00000000 00:01 77 /dev/shm/x
1556b0000000-1556b4000000 rw-p 00000000 00:00 0 [heap]
1556c0000000-1556c0400000 rw-p 00000000 00:00 0
not a mapping at all
zz-1556d4000000 rw-p 00000000 00:00 0
1556e4000000-1556e0000000 rw-p 00000000 00:00 0
7ffe38a71000-7ffe38a92000 rw-p 00000000 00:00 0 [stack]`

func TestAnonymousKeepsOnlyLargePrivateReadWriteMappingsWithNoPath(t *testing.T) {
	spans, err := anonymous(strings.NewReader(maps), MinMapping)
	require.NoError(t, err)
	require.Equal(t, []span{
		{0x15567fc00000, 0x155686400000}, // 104 MiB: the Go heap
		{0x1556c0000000, 0x1556c0400000}, // exactly MinMapping
	}, spans)
}

func TestBlocksAreWholeAlignedHugePages(t *testing.T) {
	var got []uintptr
	span{lo: 3 << 20, hi: 9<<20 + 1}.blocks(func(a uintptr) { got = append(got, a) })
	require.Equal(t, []uintptr{4 << 20, 6 << 20}, got, "the block at 8 MiB ends past the span")
	got = got[:0]
	span{lo: 4 << 20, hi: 5 << 20}.blocks(func(a uintptr) { got = append(got, a) })
	require.Empty(t, got, "a span smaller than a huge page has no block")
}
