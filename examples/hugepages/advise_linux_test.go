package hugepages

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// Advise advises the heap that holds a large allocation and leaves its contents as they
// were (a collapse copies the memory into the huge page).
func TestAdviseAdvisesTheHeapAndKeepsItsContents(t *testing.T) {
	const size = 32 << 20
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(i * 7)
	}
	st, err := Advise()
	if errors.Is(err, ErrUnsupported) { // a kernel built without transparent huge pages
		require.Zero(t, st.Advised)
	} else {
		require.NoError(t, err)
		require.GreaterOrEqual(t, st.Advised, int64(size), "the allocation's mapping was advised")
		require.LessOrEqual(t, st.Collapsed, st.Advised)
	}
	for i := range b {
		if b[i] != byte(i*7) {
			t.Fatalf("byte %d changed to %d", i, b[i])
		}
	}
}
