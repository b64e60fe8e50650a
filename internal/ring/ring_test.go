package ring

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRingIsFIFO(t *testing.T) {
	r := New[int](3)
	require.Equal(t, 3, r.Cap())
	_, ok := r.Pop()
	require.False(t, ok, "an empty ring pops nothing")
	require.Nil(t, r.Last())
	for i := 1; i <= 3; i++ {
		r.Push(i)
	}
	v, ok := r.Front()
	require.True(t, ok)
	require.Equal(t, 1, v)
	require.Equal(t, []int{1, 2, 3}, r.AppendTo(nil))
	v, _ = r.Pop()
	require.Equal(t, 1, v)
	require.Equal(t, 2, r.Len())
}

func TestAFullRingDropsItsOldestAndCountsIt(t *testing.T) {
	r := New[int](2)
	for i := 1; i <= 5; i++ {
		r.Push(i)
	}
	require.Equal(t, uint64(3), r.Dropped())
	require.Equal(t, []int{4, 5}, r.AppendTo(nil))
	*r.Last() = 50
	require.Equal(t, []int{4, 50}, r.AppendTo(nil))
	r.Reset()
	require.Equal(t, 0, r.Len())
	require.Equal(t, uint64(3), r.Dropped(), "a reset keeps the drop count")
	r.Push(7)
	require.Equal(t, []int{7}, r.AppendTo(nil))
}

func TestTheZeroRingDropsEverything(t *testing.T) {
	var r Ring[string]
	r.Push("a")
	require.Equal(t, 0, r.Len())
	require.Equal(t, uint64(1), r.Dropped())
}

// The ring never grows: pushing past its room allocates nothing.
func TestPushDoesNotAllocate(t *testing.T) {
	r := New[[4]int](8)
	allocs := testing.AllocsPerRun(100, func() {
		r.Push([4]int{1})
		r.Pop()
		r.Push([4]int{2})
	})
	require.Zero(t, allocs)
}
