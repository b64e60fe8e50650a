package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRecordThenReplay runs `sim -record FILE` then `sim -replay FILE`: the replay says
// identical and exits 0; the same file with one byte of its last quarter changed says
// DIVERGED (naming the record) and exits 1.
func TestRecordThenReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "match.arb")
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"-duration", "10s", "-players", "4", "-record", path}, &out, &errOut), errOut.String())
	out.Reset()
	require.Equal(t, 0, run([]string{"-replay", path}, &out, &errOut), errOut.String())
	require.Contains(t, out.String(), "identical")

	b, err := os.ReadFile(path)
	require.NoError(t, err)
	// Changing bytes until one diverges: a byte may be one the World ignores (a padding
	// bit), or break the file's framing (an ErrFormat, exit 2); some byte of a datagram
	// in the last quarter diverges.
	diverged := false
	for i := len(b) * 3 / 4; i < len(b) && !diverged; i += 97 {
		bad := bytes.Clone(b)
		bad[i] ^= 0x10
		require.NoError(t, os.WriteFile(path, bad, 0o600))
		out.Reset()
		if run([]string{"-replay", path}, &out, &errOut) == 1 {
			require.Contains(t, out.String(), "DIVERGED at record ")
			diverged = true
		}
	}
	require.True(t, diverged, "a changed byte made the replay diverge")
}
