package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The event queue holds at most MaxPendingEvents; diagnostics stop at MaxPendingEvents -
// RecordEventReserve, so the records' events always find the reserve; the drops are
// counted.
func TestEventsAreCappedAndTheDropsCounted(t *testing.T) {
	w, err := New(Config{MaxPlayers: 16, MaxVehicles: 8, RespawnDelay: time.Second})
	require.NoError(t, err)
	for range MaxPendingEvents {
		w.raise(Event{Kind: EventPlayerJoin, Player: 1, Other: NoPlayer, Vehicle: NoVehicle})
	}
	require.Len(t, w.events, MaxPendingEvents-RecordEventReserve)
	require.Equal(t, uint64(RecordEventReserve), w.Stats().EventsDropped)
	for range RecordEventReserve + 10 {
		w.raise(Event{Kind: EventPlayerDeath, Player: 1, Other: NoPlayer, Vehicle: NoVehicle})
	}
	ev := w.Events(nil)
	require.Len(t, ev, MaxPendingEvents)
	require.Equal(t, EventPlayerDeath, ev[len(ev)-1].Kind, "the reserve took the records' events")
	require.Equal(t, uint64(RecordEventReserve+10), w.Stats().EventsDropped)
}
