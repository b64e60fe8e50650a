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

// A ring allocates nothing until it is pushed to, then doubles its buffer on demand up to
// its cap, and never past it: the cap is the bound on what a peer can make it hold.
func TestARingGrowsOnDemandUpToItsCap(t *testing.T) {
	r := New[int](100)
	require.Zero(t, r.Room(), "a new ring allocates nothing")
	var rooms []int
	for i := range 1000 {
		r.Push(i)
		if len(rooms) == 0 || rooms[len(rooms)-1] != r.Room() {
			rooms = append(rooms, r.Room())
		}
	}
	require.Equal(t, []int{8, 16, 32, 64, 100}, rooms, "doubling from 8, the last step clipped to the cap")
	require.Equal(t, 100, r.Len())
	require.Equal(t, uint64(900), r.Dropped())
	got := r.AppendTo(nil)
	require.Equal(t, 900, got[0], "the oldest were dropped, in order")
	require.Equal(t, 999, got[99])
}

// Growth keeps the order of a ring whose entries wrapped around its buffer.
func TestGrowingKeepsTheOrder(t *testing.T) {
	r := New[int](32)
	for i := range 8 {
		r.Push(i)
	}
	for range 5 {
		r.Pop()
	}
	for i := 8; i < 20; i++ {
		r.Push(i) // wraps, then grows
	}
	want := []int{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}
	require.Equal(t, want, r.AppendTo(nil))
	require.Equal(t, 16, r.Room())
}

// Once its buffer reached the size the load needs (here the cap), pushing past it
// allocates nothing.
func TestPushDoesNotAllocate(t *testing.T) {
	r := New[[4]int](8)
	for range 8 {
		r.Push([4]int{})
	}
	allocs := testing.AllocsPerRun(100, func() {
		r.Push([4]int{1})
		r.Pop()
		r.Push([4]int{2})
	})
	require.Zero(t, allocs)
}
