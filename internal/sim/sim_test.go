package sim

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestEventsRunInTimeThenScheduleOrder(t *testing.T) {
	s := New(1)
	var got []string
	s.At(20*time.Millisecond, func() { got = append(got, "b") })
	s.At(10*time.Millisecond, func() { got = append(got, "a") })
	s.At(20*time.Millisecond, func() { got = append(got, "c") })
	s.At(10*time.Millisecond, func() {
		got = append(got, "a2")
		s.After(0, func() { got = append(got, "a3") })
	})
	s.RunUntil(time.Second)
	require.Equal(t, []string{"a", "a2", "a3", "b", "c"}, got)
	require.Equal(t, time.Second, s.Now())
}

func TestPastEventsRunNow(t *testing.T) {
	s := New(1)
	s.RunUntil(time.Second)
	ran := time.Duration(-1)
	s.At(0, func() { ran = s.Now() })
	s.RunFor(0)
	require.Equal(t, time.Second, ran)
}

func TestEveryStopsWhenAsked(t *testing.T) {
	s := New(1)
	var at []time.Duration
	s.Every(5*time.Millisecond, 10*time.Millisecond, func() bool {
		at = append(at, s.Now())
		return len(at) < 3
	})
	s.RunUntil(time.Second)
	require.Equal(t, []time.Duration{5 * time.Millisecond, 15 * time.Millisecond, 25 * time.Millisecond}, at)
}

// An Every's next call is queued once its function returned: what the function
// scheduled for that same time runs first, and two Everys keep their order.
func TestEveryQueuesItsNextCallAfterWhatItScheduled(t *testing.T) {
	s := New(1)
	var got []string
	n := 0
	s.Every(0, 10*time.Millisecond, func() bool {
		n++
		got = append(got, fmt.Sprintf("a%d", n))
		s.After(10*time.Millisecond, func() { got = append(got, fmt.Sprintf("x%d", n)) })
		return n < 3
	})
	s.Every(0, 10*time.Millisecond, func() bool {
		got = append(got, "b")
		return true
	})
	s.RunUntil(25 * time.Millisecond)
	require.Equal(t, []string{"a1", "b", "x1", "a2", "b", "x2", "a3", "b"}, got)
}

func TestLinkValidation(t *testing.T) {
	for _, c := range []LinkConfig{
		{Loss: math.NaN()}, {Loss: 1}, {Loss: -0.1}, {Duplicate: 2}, {Reorder: math.Inf(1)},
		{Delay: -1}, {Jitter: -1},
	} {
		require.ErrorIs(t, c.Validate(), ErrBadLink, "%+v", c)
	}
	require.NoError(t, LinkConfig{Delay: time.Millisecond, Loss: 0.05}.Validate())
	_, err := NewNetwork(New(1), LinkConfig{Loss: 1})
	require.True(t, errors.Is(err, ErrBadLink))
}

func TestDelayAndJitterBoundDelivery(t *testing.T) {
	s := New(7)
	n, err := NewNetwork(s, LinkConfig{Delay: 100 * time.Millisecond, Jitter: 30 * time.Millisecond})
	require.NoError(t, err)
	var arrivals []time.Duration
	n.Attach(2, func(from NodeID, b []byte) {
		require.Equal(t, NodeID(1), from)
		arrivals = append(arrivals, s.Now()-time.Duration(b[0])*time.Millisecond)
	})
	for i := range 200 {
		s.At(time.Duration(i)*time.Millisecond, func() { n.Send(1, 2, []byte{byte(i)}) })
	}
	s.RunUntil(2 * time.Second)
	require.Len(t, arrivals, 200)
	for _, d := range arrivals {
		require.GreaterOrEqual(t, d, 100*time.Millisecond)
		require.LessOrEqual(t, d, 130*time.Millisecond)
	}
	st := n.Stats(1, 2)
	require.Equal(t, 200, st.Sent)
	require.Equal(t, 200, st.Delivered)
	require.Positive(t, st.Overtaken, "30 ms of jitter on a 1 ms send interval reorders")
}

func TestLossDuplicationAndReorderRates(t *testing.T) {
	s := New(11)
	n, err := NewNetwork(s, LinkConfig{Delay: 10 * time.Millisecond, Loss: 0.05, Duplicate: 0.02, Reorder: 0.1})
	require.NoError(t, err)
	got := 0
	n.Attach(2, func(NodeID, []byte) { got++ })
	const total = 20000
	for i := range total {
		s.At(time.Duration(i)*time.Millisecond, func() { n.Send(1, 2, []byte{1}) })
	}
	s.RunUntil(time.Hour)
	st := n.Stats(1, 2)
	require.Equal(t, got, st.Delivered)
	require.InDelta(t, 0.05, float64(st.Lost)/total, 0.01)
	require.InDelta(t, 0.02, float64(st.Duplicated)/total, 0.01)
	require.Positive(t, st.Overtaken)
	require.Equal(t, total-st.Lost+st.Duplicated, st.Delivered)
}

func TestSameSeedSameRun(t *testing.T) {
	run := func(seed uint64) []time.Duration {
		s := New(seed)
		n, _ := NewNetwork(s, LinkConfig{Delay: 50 * time.Millisecond, Jitter: 30 * time.Millisecond, Loss: 0.1})
		var out []time.Duration
		n.Attach(2, func(NodeID, []byte) { out = append(out, s.Now()) })
		for i := range 100 {
			s.At(time.Duration(i)*time.Millisecond, func() { n.Send(1, 2, nil) })
		}
		s.RunUntil(time.Second)
		return out
	}
	require.Equal(t, run(3), run(3))
	require.NotEqual(t, run(3), run(4))
}

func TestSendCopiesTheDatagram(t *testing.T) {
	s := New(1)
	n, _ := NewNetwork(s, LinkConfig{Delay: time.Millisecond})
	var got []byte
	n.Attach(2, func(_ NodeID, b []byte) { got = append([]byte(nil), b...) })
	buf := []byte{1, 2, 3}
	n.Send(1, 2, buf)
	buf[0] = 9
	s.RunFor(time.Second)
	require.Equal(t, []byte{1, 2, 3}, got)
}

func TestDetachedNodeDropsArrivals(t *testing.T) {
	s := New(1)
	n, _ := NewNetwork(s, LinkConfig{Delay: time.Millisecond})
	got := 0
	n.Attach(2, func(NodeID, []byte) { got++ })
	n.Send(1, 2, nil)
	n.Detach(2)
	s.RunFor(time.Second)
	require.Zero(t, got)
	require.Equal(t, 1, n.Stats(1, 2).Delivered)
}

func TestFilterDecidesTheFateOfChosenDatagrams(t *testing.T) {
	s := New(1)
	n, _ := NewNetwork(s, LinkConfig{Delay: 10 * time.Millisecond})
	n.SetFilter(func(from, to NodeID, d []byte) Fate {
		switch d[0] {
		case 1:
			return Fate{Drop: true}
		case 2:
			return Fate{Delay: 100 * time.Millisecond}
		case 3:
			return Fate{Duplicate: true}
		}
		return Fate{}
	})
	var got []string
	n.Attach(2, func(_ NodeID, b []byte) { got = append(got, fmt.Sprintf("%d@%v", b[0], s.Now())) })
	for _, b := range []byte{1, 2, 3, 4} {
		n.Send(1, 2, []byte{b})
	}
	s.RunFor(time.Second)
	require.Equal(t, []string{"3@10ms", "3@10ms", "4@10ms", "2@110ms"}, got)
	st := n.Stats(1, 2)
	require.Equal(t, 1, st.Lost)
	require.Equal(t, 1, st.Duplicated)
}

// TestTimersAndDeliveriesDueTogetherRunInScheduleOrder schedules timers and deliveries due
// at the same instants, in the ring and beyond its reach (a link slower than the ring is
// long): they run in the order they were scheduled, whatever their kind.
func TestTimersAndDeliveriesDueTogetherRunInScheduleOrder(t *testing.T) {
	for _, delay := range []time.Duration{4 * time.Millisecond, 3 * time.Second} {
		s := New(1)
		n, err := NewNetwork(s, LinkConfig{Delay: delay})
		require.NoError(t, err)
		var got []string
		n.Attach(2, func(_ NodeID, b []byte) { got = append(got, string(b)) })
		due := time.Millisecond + delay
		s.At(time.Millisecond, func() {
			s.At(due, func() { got = append(got, "a") })
			n.Send(1, 2, []byte("b"))
			s.At(due, func() { got = append(got, "c") })
			n.Send(1, 2, []byte("d"))
			n.Send(1, 2, []byte("e"))
			s.At(due-1, func() { got = append(got, "first") })
			s.At(due+1, func() { got = append(got, "last") })
		})
		s.RunUntil(due + time.Second)
		require.Equal(t, []string{"first", "a", "b", "c", "d", "e", "last"}, got, "link delay %v", delay)
	}
}
