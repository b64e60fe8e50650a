package main

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"testing"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/refserver"
)

// page returns the metrics page of n's host as the server serves it.
func page(t *testing.T, n *memNet) string {
	t.Helper()
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(n.h.m.reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	return rec.Body.String()
}

// TestPerConnectionCapsAreCounted: what a per-connection cap refuses of a player is in
// arbiter_conn_caps_total by the cap's name once the lanes are sampled (the load test
// counts it as an honest player wronged), and an honest player's traffic adds nothing.
func TestPerConnectionCapsAreCounted(t *testing.T) {
	n := newMemNet(t, 4)
	addr := netip.MustParseAddrPort("127.0.0.1:40000")
	c := newClient(t, 1)
	n.hold(addr, c)
	for range 100 {
		n.step()
	}
	_, ok := c.PlayerID()
	require.True(t, ok, "the client joined")
	n.h.sampleLanes()
	require.NotContains(t, page(t, n), metricConnCaps+"{", "an honest client meets no cap")
	require.Contains(t, page(t, n), metricWriterWaits+" 0\n", "the socket's writer kept up: no wait counted")

	// A second of datagrams at once, and as many again: the datagram gate refuses what
	// is over its burst.
	junk := n.sentBy[c][len(n.sentBy[c])-1]
	const burst = 2 * refserver.DatagramRate
	for range burst {
		n.h.receive(n.now, addr, junk)
	}
	n.step()
	n.h.sampleLanes()
	id, _ := c.PlayerID()
	cs, err := n.h.world.ConnStats(id)
	require.NoError(t, err)
	require.Positive(t, cs.DatagramsOverRate, "the gate refused the burst's excess")
	require.Contains(t, page(t, n), metricConnCaps+`{cap="datagrams_over_rate"} `+itoa(cs.DatagramsOverRate))

	// Sampled again, nothing new is counted twice.
	n.h.sampleLanes()
	require.Contains(t, page(t, n), metricConnCaps+`{cap="datagrams_over_rate"} `+itoa(cs.DatagramsOverRate))
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }
