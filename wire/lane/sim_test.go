package lane

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// Two lanes connected by the deterministic lossy network of helpers_test.go, driven
// the way a host drives them: each lane is polled when its NextDeadline comes (rounded up
// to the host's tick), every datagram is received when the network delivers it, and
// Deliver and PopAcked are drained after every Receive. The run checks, as it goes:
//
//   - every message is delivered exactly once, in order, with its bytes intact;
//   - every datagram follows the framing table and fits the MTU;
//   - a message is retransmitted only when unacknowledged for Retransmit, and then
//     without delay (at the first poll at or after its deadline);
//   - every acknowledgement is reported once, in sequence order, at the time of the
//     Receive that brought it, with the time of the first transmission, and only for a
//     message the peer really has together with every message before it;
//   - an ordinary message is refused only at the soft cap, a critical one never;
//   - every internal invariant of both lanes (laneCheck).
//
// At the end of the run every accepted message must be delivered and acknowledged and both
// lanes must be idle (no acknowledgement ping-pong).

// laneSimProfile is one network and traffic setting.
type laneSimProfile struct {
	name       string
	cfg        Config
	links      [2]laneLink
	tick       time.Duration // the host polls on this grid; 0 polls at the exact deadline
	msgs       int           // queue attempts per side
	produceFor time.Duration // attempts are spread over [0, produceFor)
	burst      int           // an attempt queues up to this many messages at once
	maxLen     int           // payload length 5..maxLen
	critical   float64       // probability that a message is critical
	start      Seq           // first sequence number of both directions
	settle     time.Duration // time allowed after production to finish
	wantRefuse bool          // the soft cap must refuse some ordinary messages
}

// laneSimSide is one host and its lane.
type laneSimSide struct {
	lane      *Lane
	sent      [][]byte        // accepted payloads; index = seq - start
	firstTx   []time.Duration // first transmission of each accepted message, -1 if none
	lastTx    []time.Duration
	popped    []bool
	got       int // messages of the peer delivered so far
	refused   int // ordinary messages refused at the soft cap
	nextPoll  time.Duration
	broke     error
	lastPolls int
}

// laneSimResult summarizes a run.
type laneSimResult struct {
	end                  time.Duration // the run ended (both lanes idle)
	lastDelivery         time.Duration // the last message was delivered
	lastAck              time.Duration // the last acknowledgement was reported
	delivered, refused   int
	retransmits, lost    int
	datagrams, bytesSent int
}

func laneSimPayload(rng *rand.Rand, id int, critical bool, maxLen int) []byte {
	n := 5 + rng.IntN(maxLen-4)
	p := make([]byte, n)
	binary.LittleEndian.PutUint32(p, uint32(id))
	if critical {
		p[4] = 1
	}
	for i := 5; i < n; i++ {
		p[i] = byte(rng.Uint32())
	}
	return p
}

// laneRunSim runs one profile with one seed and returns an error describing the first
// broken promise.
func laneRunSim(pr laneSimProfile, seed uint64) (laneSimResult, error) {
	var res laneSimResult
	rng := rand.New(rand.NewPCG(seed, 0x1a4e))
	net := &laneNet{rng: rand.New(rand.NewPCG(seed, 0x6e6574)), links: pr.links}
	var sides [2]*laneSimSide
	for i := range sides {
		l, err := New(pr.cfg)
		if err != nil {
			return res, err
		}
		laneStartAt(l, pr.start)
		sides[i] = &laneSimSide{lane: l}
	}
	rto := sides[0].lane.lim.retransmit

	// The production schedule: attempts at random times, in time order.
	type attempt struct {
		at   time.Duration
		side int
	}
	var plan []attempt
	for s := range sides {
		for range pr.msgs {
			plan = append(plan, attempt{time.Duration(rng.Int64N(int64(pr.produceFor))), s})
		}
	}
	slices.SortStableFunc(plan, func(a, b attempt) int { return int(a.at - b.at) })

	deadline := pr.produceFor + pr.settle
	now := time.Duration(0)
	idle := func() bool {
		for i, s := range sides {
			peer := sides[1-i]
			if s.broke != nil || peer.got != len(s.sent) || s.lane.Stats().Queued != 0 {
				return false
			}
			if _, ok := s.lane.NextDeadline(); ok {
				return false
			}
		}
		return len(plan) == 0 && len(net.q) == 0
	}
	for step := 0; ; step++ {
		if step > 2_000_000 {
			return res, fmt.Errorf("no end after %d steps at %v", step, now)
		}
		// The next event: a production attempt, a datagram arrival or a poll.
		t := laneNever
		if len(plan) > 0 {
			t = plan[0].at
		}
		if at, ok := net.nextAt(); ok {
			t = min(t, at)
		}
		for _, s := range sides {
			if s.broke != nil {
				continue
			}
			if at, ok := s.lane.NextDeadline(); ok {
				if pr.tick > 0 {
					at = (at + pr.tick - 1) / pr.tick * pr.tick
				}
				s.nextPoll = max(at, now)
				t = min(t, s.nextPoll)
			} else {
				s.nextPoll = laneNever
			}
		}
		if t == laneNever {
			break
		}
		if t > deadline {
			now = deadline
			break
		}
		now = max(now, t)

		// Production.
		for len(plan) > 0 && plan[0].at <= now {
			a := plan[0]
			plan = plan[1:]
			s := sides[a.side]
			if s.broke != nil {
				continue
			}
			k := 1
			if pr.burst > 1 {
				k = 1 + rng.IntN(pr.burst)
			}
			for range k {
				critical := rng.Float64() < pr.critical
				p := laneSimPayload(rng, len(s.sent), critical, pr.maxLen)
				before := s.lane.Stats()
				seq, err := s.lane.Queue(now, p, critical)
				switch {
				case err == nil:
					if want := pr.start + Seq(len(s.sent)); seq != want {
						return res, fmt.Errorf("queue gave seq %d, want %d", seq, want)
					}
					s.sent = append(s.sent, p)
					s.firstTx = append(s.firstTx, -1)
					s.lastTx = append(s.lastTx, -1)
					s.popped = append(s.popped, false)
				case errors.Is(err, ErrSoftCap):
					if critical {
						return res, fmt.Errorf("critical message refused by the soft cap at %v", now)
					}
					lim := s.lane.lim
					if before.Queued < lim.softCap && before.QueuedBytes+len(p) <= lim.softBytes {
						return res, fmt.Errorf("ordinary message refused below the soft cap: %+v", before)
					}
					if after := s.lane.Stats(); after != before {
						return res, fmt.Errorf("a refused message changed the stats")
					}
					s.refused++
				default:
					return res, fmt.Errorf("queue at %v: %w", now, err)
				}
			}
		}

		// Arrivals.
		for {
			f, ok := net.pop(now)
			if !ok {
				break
			}
			s, sender := sides[f.to], sides[1-f.to]
			if s.broke != nil {
				continue
			}
			if err := s.lane.Receive(now, f.data); err != nil {
				return res, fmt.Errorf("receive at %v: %w", now, err)
			}
			for p, ok := s.lane.Deliver(); ok; p, ok = s.lane.Deliver() {
				if len(p) < 5 {
					return res, fmt.Errorf("delivered a %d-byte payload", len(p))
				}
				id := int(binary.LittleEndian.Uint32(p))
				if id != s.got {
					return res, fmt.Errorf("delivered message %d, want %d (order or duplicate)", id, s.got)
				}
				if id >= len(sender.sent) || !bytes.Equal(p, sender.sent[id]) {
					return res, fmt.Errorf("message %d delivered with other bytes", id)
				}
				s.got++
				res.delivered++
				res.lastDelivery = now
			}
			peer := sender.lane // the lane that acknowledged s's messages
			for a, ok := s.lane.PopAcked(); ok; a, ok = s.lane.PopAcked() {
				i := int(a.Seq - pr.start)
				if i < 0 || i >= len(s.sent) {
					return res, fmt.Errorf("ack of unknown message %d", a.Seq)
				}
				if s.popped[i] {
					return res, fmt.Errorf("message %d acknowledged twice", a.Seq)
				}
				if i > 0 && !s.popped[i-1] {
					return res, fmt.Errorf("message %d reported acknowledged before message %d", i, i-1)
				}
				s.popped[i] = true
				res.lastAck = now
				if a.At != now || a.Sent != s.firstTx[i] || a.Critical != (s.sent[i][4] == 1) {
					return res, fmt.Errorf("ack %+v at %v, first sent %v", a, now, s.firstTx[i])
				}
				if !s.lane.Acked(a.Seq) {
					return res, fmt.Errorf("popped ack of %d but Acked says no", a.Seq)
				}
				if laneDiff(a.Seq, peer.recvNext) >= 0 {
					return res, fmt.Errorf("message %d acknowledged but the peer does not have it and all before it", a.Seq)
				}
			}
		}

		// Polls.
		for i, s := range sides {
			if s.broke != nil || s.nextPoll > now {
				continue
			}
			for k := 0; ; k++ {
				if k > 1000 {
					return res, fmt.Errorf("poll does not run dry at %v", now)
				}
				d, err := s.lane.Poll(now, nil)
				if err != nil {
					s.broke = err
					break
				}
				if len(d) == 0 {
					break
				}
				if len(d) > s.lane.lim.mtu {
					return res, fmt.Errorf("datagram of %d bytes above MTU %d", len(d), s.lane.lim.mtu)
				}
				g, err := laneDecode(d)
				if err != nil {
					return res, fmt.Errorf("poll built a bad datagram: %w", err)
				}
				for _, r := range g.records {
					j := int(r.seq - pr.start)
					if j < 0 || j >= len(s.sent) || !bytes.Equal(r.payload, s.sent[j]) {
						return res, fmt.Errorf("record %d does not carry the queued bytes", r.seq)
					}
					if s.lastTx[j] >= 0 {
						gap := now - s.lastTx[j]
						if gap < rto || gap >= rto+max(pr.tick, 1) {
							return res, fmt.Errorf("message %d retransmitted %v after its last transmission", r.seq, gap)
						}
						res.retransmits++
					} else {
						s.firstTx[j] = now
					}
					s.lastTx[j] = now
				}
				res.datagrams++
				res.bytesSent += len(d)
				net.send(now, i, d)
			}
			// Nothing due may be left behind by a poll that ran dry.
			l := s.lane
			if s.broke == nil {
				for seq := l.una; seq != l.sndMax; seq++ {
					if sl := l.sndSlot(seq); sl.flags&laneHeld == 0 && sl.lastSent+rto <= now {
						return res, fmt.Errorf("message %d overdue after the poll at %v", seq, now)
					}
				}
			}
		}

		for i, s := range sides {
			if err := laneCheck(s.lane); err != nil {
				return res, fmt.Errorf("lane %d at %v: %w", i, now, err)
			}
		}
		if len(plan) == 0 && idle() {
			break
		}
	}
	res.end = now
	res.lost = net.lost
	for i, s := range sides {
		if s.broke != nil {
			return res, fmt.Errorf("lane %d broke: %w", i, s.broke)
		}
		if got := sides[1-i].got; got != len(s.sent) {
			return res, fmt.Errorf("lane %d: %d of %d messages delivered by %v", i, got, len(s.sent), now)
		}
		for j, p := range s.popped {
			if !p {
				return res, fmt.Errorf("lane %d: message %d never reported acknowledged", i, j)
			}
		}
		if at, ok := s.lane.NextDeadline(); ok {
			return res, fmt.Errorf("lane %d not idle at the end (deadline %v)", i, at)
		}
		res.refused += s.refused
	}
	if pr.wantRefuse && res.refused == 0 {
		return res, fmt.Errorf("the soft cap never refused a message")
	}
	return res, nil
}

func laneSymmetric(l laneLink) [2]laneLink { return [2]laneLink{l, l} }

var laneSimProfiles = []laneSimProfile{
	{
		name:  "400ms RTT, 30ms jitter, 5% loss",
		links: laneSymmetric(laneLink{oneWay: 200 * time.Millisecond, jitter: 30 * time.Millisecond, loss: 0.05}),
		tick:  10 * time.Millisecond, msgs: 150, produceFor: 8 * time.Second, burst: 4, maxLen: 80,
		critical: 0.2, settle: 20 * time.Second,
	},
	{
		name:  "heavy loss, duplication and reordering",
		links: laneSymmetric(laneLink{oneWay: 20 * time.Millisecond, jitter: 200 * time.Millisecond, loss: 0.3, dup: 0.2}),
		msgs:  120, produceFor: 5 * time.Second, burst: 3, maxLen: 60, critical: 0.3, settle: 20 * time.Second,
	},
	{
		name: "burst losses",
		links: laneSymmetric(laneLink{oneWay: 60 * time.Millisecond, jitter: 30 * time.Millisecond, loss: 0.02,
			enterBad: 0.05, leaveBad: 0.25, dup: 0.05}),
		tick: 5 * time.Millisecond, msgs: 150, produceFor: 6 * time.Second, burst: 6, maxLen: 100,
		critical: 0.2, settle: 20 * time.Second,
	},
	{
		name:  "big payloads, small buffers",
		cfg:   Config{ReceiveBytes: 4 * MaxPayload, InFlightBytes: 3000},
		links: laneSymmetric(laneLink{oneWay: 40 * time.Millisecond, jitter: 80 * time.Millisecond, loss: 0.1, dup: 0.1}),
		msgs:  60, produceFor: 3 * time.Second, burst: 8, maxLen: MaxPayload, critical: 0.2,
		settle: 30 * time.Second,
	},
	{
		name:  "across the 32-bit wrap",
		links: laneSymmetric(laneLink{oneWay: 30 * time.Millisecond, jitter: 40 * time.Millisecond, loss: 0.1, dup: 0.1}),
		tick:  10 * time.Millisecond, msgs: 200, produceFor: 4 * time.Second, burst: 4, maxLen: 40,
		critical: 0.2, start: 1<<32 - 300, settle: 20 * time.Second,
	},
	{
		name:  "flood at 400ms RTT reaches the soft cap",
		links: laneSymmetric(laneLink{oneWay: 200 * time.Millisecond, jitter: 30 * time.Millisecond, loss: 0.05}),
		tick:  10 * time.Millisecond, msgs: 150, produceFor: 500 * time.Millisecond, burst: 8, maxLen: 30,
		critical: 0.1, settle: 30 * time.Second, wantRefuse: true,
	},
}

// TestLaneDeliversEveryMessageOnceInOrderUnderLossDuplicationAndReordering runs every
// profile over many seeds.
func TestLaneDeliversEveryMessageOnceInOrderUnderLossDuplicationAndReordering(t *testing.T) {
	seeds := 32
	if testing.Short() || laneRaceEnabled {
		seeds = 3 // the race detector slows the simulation tenfold and has no goroutines to watch
	}
	for _, pr := range laneSimProfiles {
		t.Run(pr.name, func(t *testing.T) {
			var total laneSimResult
			for seed := uint64(1); seed <= uint64(seeds); seed++ {
				res, err := laneRunSim(pr, seed)
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				total.delivered += res.delivered
				total.retransmits += res.retransmits
				total.lost += res.lost
				total.refused += res.refused
				total.datagrams += res.datagrams
			}
			t.Logf("%d seeds: %d delivered, %d datagrams, %d lost, %d retransmissions, %d refused at the soft cap",
				seeds, total.delivered, total.datagrams, total.lost, total.retransmits, total.refused)
		})
	}
}

// TestLaneBurstOfLossesDoesNotStallTheStream: every message lost in a blackout is sent
// again within one retransmission period of the link's return, not one per round trip.
func TestLaneBurstOfLossesDoesNotStallTheStream(t *testing.T) {
	const oneWay = 200 * time.Millisecond
	pr := laneSimProfile{
		links: [2]laneLink{
			{oneWay: oneWay, blackFrom: 0, blackTo: 2 * time.Second},
			{oneWay: oneWay},
		},
		msgs: 60, produceFor: time.Second, maxLen: 40, critical: 0.3, settle: 10 * time.Second,
	}
	res, err := laneRunSim(pr, 7)
	if err != nil {
		t.Fatal(err)
	}
	// Every message went out before 2 s, so its next retransmission leaves before 2.25 s
	// and arrives 200 ms later; the acknowledgement takes 200 ms more.
	if limit := 2*time.Second + Retransmit + oneWay; res.lastDelivery > limit {
		t.Fatalf("last message delivered at %v, want by %v", res.lastDelivery, limit)
	}
	if limit := 2*time.Second + Retransmit + 2*oneWay; res.lastAck > limit {
		t.Fatalf("last acknowledgement at %v, want by %v", res.lastAck, limit)
	}
	t.Logf("%d messages: last delivered at %v, last acknowledged at %v, %d retransmissions",
		res.delivered, res.lastDelivery, res.lastAck, res.retransmits)
}

// TestLaneNoRetransmissionWhenAcksArriveWithin250ms: on a clean link with a round trip
// below Retransmit nothing is sent twice, and at 400 ms each message is sent twice at
// most ([lane-retransmit]'s fixed timer fires once before the acknowledgement can arrive).
func TestLaneNoRetransmissionWhenAcksArriveWithin250ms(t *testing.T) {
	for _, tc := range []struct {
		oneWay  time.Duration
		perMsgs float64
	}{
		{100 * time.Millisecond, 0},
		{200 * time.Millisecond, 1},
	} {
		pr := laneSimProfile{
			links: laneSymmetric(laneLink{oneWay: tc.oneWay}),
			msgs:  200, produceFor: 4 * time.Second, maxLen: 40, settle: 5 * time.Second,
		}
		res, err := laneRunSim(pr, 3)
		if err != nil {
			t.Fatal(err)
		}
		if got := float64(res.retransmits) / float64(res.delivered); got > tc.perMsgs {
			t.Errorf("one-way %v: %.2f retransmissions per message, want at most %v", tc.oneWay, got, tc.perMsgs)
		}
	}
}

// TestLanePeerThatStopsAcknowledgingIsDisconnected: when every acknowledgement is lost, the
// sender gives the link up exactly LinkTimeout after the first transmission of its
// oldest message, and its critical messages were never dropped before that.
func TestLanePeerThatStopsAcknowledgingIsDisconnected(t *testing.T) {
	a := newTestLane(t, Config{})
	if _, err := a.Queue(0, []byte("PlayerWasted"), true); err != nil {
		t.Fatal(err)
	}
	now := time.Duration(0)
	sends := 0
	for {
		at, ok := a.NextDeadline()
		if !ok {
			t.Fatal("no deadline while a message is unacknowledged")
		}
		now = at
		d, err := a.Poll(now, nil)
		if err != nil {
			if !errors.Is(err, ErrLinkTimeout) || !errors.Is(err, ErrMustDisconnect) {
				t.Fatalf("poll error %v", err)
			}
			break
		}
		if len(d) > 0 {
			sends++
		}
	}
	if now != LinkTimeout {
		t.Fatalf("link given up at %v, want %v", now, LinkTimeout)
	}
	if want := int(LinkTimeout / Retransmit); sends != want {
		t.Fatalf("message sent %d times in %v, want %d (every %v)", sends, LinkTimeout, want, Retransmit)
	}
	if a.State() != MustDisconnect {
		t.Fatalf("state %v", a.State())
	}
}
