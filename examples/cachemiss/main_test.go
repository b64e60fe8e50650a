package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseReadsTheTableByFunction(t *testing.T) {
	out := []byte(`--------------------------------------------------------------------------------
Ir                      DLmr                DLmw
--------------------------------------------------------------------------------
18,239,666,381 (100.0%) 39,631,676 (100.0%) 19,783,368 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                     DLmr               DLmw                file:function
--------------------------------------------------------------------------------
3,431,172,503 (18.81%) 2,857,115 ( 7.21%)     2,303 ( 0.01%)  /w/examples/refserver/stream.go:github.com/arbitergo/arbiter/examples/refserver.emitInline
  907,650,989 ( 4.98%)         0                  0           /w/wire/bundle.go:github.com/arbitergo/arbiter/examples/refserver.emitInline
  276,934,159 ( 1.52%)     1,216 ( 0.00%)         .           /w/internal/interest/interest.go:github.com/arbitergo/arbiter/internal/interest.(*Manager).joinOthers
`)
	m, err := parse(out)
	require.NoError(t, err)
	require.Equal(t, cost{18239666381, 39631676, 19783368}, m["PROGRAM TOTALS"])
	require.Equal(t, cost{3431172503 + 907650989, 2857115, 2303}, m["examples/refserver.emitInline"])
	require.Equal(t, cost{276934159, 1216, 0}, m["internal/interest.(*Manager).joinOthers"])
	require.Len(t, m, 3)
}
