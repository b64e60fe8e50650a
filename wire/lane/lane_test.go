package lane

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/wire"
)

const laneMs = time.Millisecond

// laneFlush polls from until it runs dry and hands every datagram to to. It returns the
// number of datagrams.
func laneFlush(t testing.TB, now time.Duration, from, to *Lane) int {
	t.Helper()
	n := 0
	for {
		d := laneMustPoll(t, from, now)
		if len(d) == 0 {
			return n
		}
		n++
		if err := to.Receive(now, d); err != nil {
			t.Fatalf("receive at %v: %v", now, err)
		}
	}
}

// laneQueue queues or fails the test.
func laneQueue(t testing.TB, l *Lane, now time.Duration, p string, critical bool) Seq {
	t.Helper()
	seq, err := l.Queue(now, []byte(p), critical)
	if err != nil {
		t.Fatalf("queue %q: %v", p, err)
	}
	return seq
}

func laneStrings(ps [][]byte) []string {
	var out []string
	for _, p := range ps {
		out = append(out, string(p))
	}
	return out
}

func laneMustCheck(t testing.TB, ls ...*Lane) {
	t.Helper()
	for i, l := range ls {
		if err := laneCheck(l); err != nil {
			t.Fatalf("lane %d: %v", i, err)
		}
	}
}

func TestLaneConfigZeroMeansRecordDefaults(t *testing.T) {
	l := newTestLane(t, Config{})
	want := laneLimits{
		softCap: 512, hardCap: 1024, softBytes: 128 << 10, hardBytes: 256 << 10,
		maxPayload: 1024, mtu: 1200, inFlightBytes: 32 << 10, recvBytes: 64 << 10,
		retransmit: 250 * laneMs, linkTime: 15 * time.Second,
	}
	if l.lim != want {
		t.Fatalf("limits %+v, want %+v", l.lim, want)
	}
	if l.State() != Open || l.Err() != nil {
		t.Fatalf("new lane state %v err %v", l.State(), l.Err())
	}
}

func TestLaneConfigRejectsOutOfRange(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"negative soft cap", Config{SoftCap: -1}},
		{"negative retransmit", Config{Retransmit: -1}},
		{"soft cap above hard cap", Config{SoftCap: 2000}},
		{"hard cap above limit", Config{HardCap: MaxHardCap + 1}},
		{"payload above protocol max", Config{MaxPayload: MaxPayload + 1}},
		{"soft bytes above hard bytes", Config{SoftCapBytes: HardCapBytes + 1}},
		{"hard bytes above limit", Config{HardCapBytes: MaxHardCapBytes + 1}},
		{"soft bytes below one payload", Config{SoftCapBytes: 1000}},
		{"MTU too small for a payload", Config{MTU: MaxPayload + MaxOverhead - 1}},
		{"MTU above UDP", Config{MTU: MaxMTU + 1}},
		{"in-flight below one payload", Config{InFlightBytes: 100}},
		{"receive buffer too small", Config{ReceiveBytes: 4*MaxPayload - 1}},
		{"receive buffer above limit", Config{ReceiveBytes: MaxHardCapBytes + 1}},
		{"link timeout not above retransmit", Config{LinkTimeout: 250 * laneMs}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(tc.cfg); !errors.Is(err, ErrConfig) {
				t.Fatalf("New(%+v) = %v, want ErrConfig", tc.cfg, err)
			}
		})
	}
	// The smallest valid settings are accepted.
	if _, err := New(Config{MaxPayload: 100, MTU: 100 + MaxOverhead, SoftCapBytes: 100,
		InFlightBytes: 100, ReceiveBytes: 4 * MaxPayload, SoftCap: 1, HardCap: 1}); err != nil {
		t.Fatal(err)
	}
}

func TestLaneDeliversInTheSendersOrder(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	for i, p := range []string{"death", "spawn", "set-health"} {
		if seq := laneQueue(t, a, 0, p, false); seq != Seq(i) {
			t.Fatalf("seq %d, want %d", seq, i)
		}
	}
	if n := laneFlush(t, 10*laneMs, a, b); n != 1 {
		t.Fatalf("%d datagrams, want 1", n)
	}
	if got := laneStrings(laneDrain(b)); !slices.Equal(got, []string{"death", "spawn", "set-health"}) {
		t.Fatalf("delivered %q", got)
	}
	if _, ok := b.Deliver(); ok {
		t.Fatal("a message delivered twice")
	}
	laneMustCheck(t, a, b)
}

func TestLaneRetransmitsAfter250msAndNotBefore(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	laneQueue(t, a, 0, "x", true)
	if d := laneMustPoll(t, a, 0); len(d) == 0 {
		t.Fatal("nothing sent") // and lost
	}
	for _, step := range []struct {
		at   time.Duration
		sent bool
	}{
		{1 * laneMs, false},
		{249*laneMs + 999*time.Microsecond, false},
		{250 * laneMs, true},
		{499 * laneMs, false},
		{500 * laneMs, true},
	} {
		if at, ok := a.NextDeadline(); !ok || at > step.at && step.sent {
			t.Fatalf("deadline %v %v before the retransmission at %v", at, ok, step.at)
		}
		d := laneMustPoll(t, a, step.at)
		if (len(d) > 0) != step.sent {
			t.Fatalf("at %v: sent %v, want %v", step.at, len(d) > 0, step.sent)
		}
		if step.sent {
			if seqs := laneSeqsOf(t, d); !slices.Equal(seqs, []Seq{0}) {
				t.Fatalf("at %v: records %v", step.at, seqs)
			}
			if at, _ := a.NextDeadline(); at != step.at+Retransmit {
				t.Fatalf("next deadline %v, want %v", at, step.at+Retransmit)
			}
		}
	}
	// The last copy arrives; once its acknowledgement is back nothing is sent again.
	d := laneMustPoll(t, a, 750*laneMs)
	if err := b.Receive(760*laneMs, d); err != nil {
		t.Fatal(err)
	}
	laneFlush(t, 770*laneMs, b, a)
	for _, at := range []time.Duration{1000 * laneMs, 5 * time.Second} {
		if d := laneMustPoll(t, a, at); len(d) > 0 {
			t.Fatalf("acknowledged message sent again at %v", at)
		}
	}
	if _, ok := a.NextDeadline(); ok {
		t.Fatal("deadline pending after the acknowledgement")
	}
	if got := a.Stats().Retransmits; got != 3 {
		t.Fatalf("%d retransmissions, want 3 (250, 500, 750 ms)", got)
	}
}

func TestLaneRetransmitsEveryLostMessageInOnePeriod(t *testing.T) {
	a := newTestLane(t, Config{})
	for i := range 5 {
		laneQueue(t, a, time.Duration(i)*laneMs, fmt.Sprint(i), false)
		laneMustPoll(t, a, time.Duration(i)*laneMs) // each in its own datagram, all lost
	}
	// All five are due within the same 250 ms period and go out together.
	d := laneMustPoll(t, a, 254*laneMs)
	if seqs := laneSeqsOf(t, d); !slices.Equal(seqs, []Seq{0, 1, 2, 3, 4}) {
		t.Fatalf("retransmitted %v, want all five", seqs)
	}
}

func TestLaneSelectiveAckResendsOnlyTheLostMessage(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	for i := range 10 {
		now := time.Duration(i) * 10 * laneMs
		laneQueue(t, a, now, fmt.Sprint(i), false)
		d := laneMustPoll(t, a, now)
		if i == 3 {
			continue // lost
		}
		if err := b.Receive(now+5*laneMs, d); err != nil {
			t.Fatal(err)
		}
	}
	if got := laneStrings(laneDrain(b)); !slices.Equal(got, []string{"0", "1", "2"}) {
		t.Fatalf("delivered %q before the gap is filled", got)
	}
	ack := laneMustPoll(t, b, 100*laneMs)
	g, _ := laneDecode(ack)
	if g.ack != 3 || !slices.Equal(g.sacked, []Seq{4, 5, 6, 7, 8, 9}) {
		t.Fatalf("ack %d sacked %v, want 3 and 4..9", g.ack, g.sacked)
	}
	if err := a.Receive(110*laneMs, ack); err != nil {
		t.Fatal(err)
	}
	// Messages 4..9 are held by b: no longer queued, never resent, but not reported
	// acknowledged while b cannot deliver them.
	if s := a.Stats(); s.Queued != 1 || s.Acked != 3 {
		t.Fatalf("queued %d acked %d, want 1 and 3", s.Queued, s.Acked)
	}
	for seq := Seq(3); seq < 10; seq++ {
		if a.Acked(seq) {
			t.Fatalf("message %d reported acknowledged behind the gap", seq)
		}
	}
	// Message 3 was sent at 30 ms: only it goes out again, at 280 ms.
	if d := laneMustPoll(t, a, 279*laneMs); len(d) > 0 {
		t.Fatal("retransmission before 250 ms")
	}
	d := laneMustPoll(t, a, 280*laneMs)
	if seqs := laneSeqsOf(t, d); !slices.Equal(seqs, []Seq{3}) {
		t.Fatalf("retransmitted %v, want only 3", seqs)
	}
	if err := b.Receive(290*laneMs, d); err != nil {
		t.Fatal(err)
	}
	if got := laneStrings(laneDrain(b)); !slices.Equal(got, strings10[3:]) {
		t.Fatalf("delivered %q after the gap", got)
	}
	laneFlush(t, 300*laneMs, b, a)
	for seq := Seq(0); seq < 10; seq++ {
		if !a.Acked(seq) {
			t.Fatalf("message %d not acknowledged once the gap is filled", seq)
		}
	}
	for at := 300 * laneMs; at < 3*time.Second; at += 50 * laneMs {
		if d := laneMustPoll(t, a, at); len(d) > 0 {
			t.Fatalf("sent %v again at %v", laneSeqsOf(t, d), at)
		}
	}
	if got := a.Stats().Retransmits; got != 1 {
		t.Fatalf("%d retransmissions, want 1", got)
	}
	laneMustCheck(t, a, b)
}

var strings10 = []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

func TestLaneSoftCapRefusesOrdinaryMessagesButNotCriticalOnes(t *testing.T) {
	a := newTestLane(t, Config{})
	for i := range SoftCap {
		laneQueue(t, a, 0, "ordinary", false)
		if i%100 == 0 {
			laneMustPoll(t, a, 0) // sent or not, a message is queued until acknowledged
		}
	}
	before := laneFingerprint(a)
	if _, err := a.Queue(0, []byte("ordinary"), false); !errors.Is(err, ErrSoftCap) {
		t.Fatalf("513th ordinary message: %v, want ErrSoftCap", err)
	}
	if err := a.CanQueue(8, false); !errors.Is(err, ErrSoftCap) {
		t.Fatalf("CanQueue: %v", err)
	}
	if laneFingerprint(a) != before {
		t.Fatal("a refused message left a trace")
	}
	for i := range 10 {
		if seq := laneQueue(t, a, 0, "PlayerWasted", true); seq != Seq(SoftCap+i) {
			t.Fatalf("critical seq %d", seq)
		}
	}
	if _, err := a.Queue(0, []byte("ordinary"), false); !errors.Is(err, ErrSoftCap) {
		t.Fatalf("ordinary message above the soft cap: %v", err)
	}
	if s := a.Stats(); s.Queued != SoftCap+10 || a.State() != Open {
		t.Fatalf("queued %d, state %v", s.Queued, a.State())
	}
	laneMustCheck(t, a)
}

func TestLaneSoftCapCountsOnlyUnacknowledgedMessages(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	now := time.Duration(0)
	for range SoftCap {
		laneQueue(t, a, now, "m", false)
	}
	if err := a.CanQueue(1, false); !errors.Is(err, ErrSoftCap) {
		t.Fatal("soft cap not reached")
	}
	for a.Stats().Queued > 0 {
		now += 10 * laneMs
		laneFlush(t, now, a, b)
		laneDrain(b)
		laneFlush(t, now, b, a)
	}
	if err := a.CanQueue(1, false); err != nil {
		t.Fatalf("room after the acknowledgements: %v", err)
	}
	if got := b.Stats().Delivered; got != SoftCap {
		t.Fatalf("delivered %d", got)
	}
}

func TestLaneSoftCapBytesRefusesOrdinaryMessages(t *testing.T) {
	a := newTestLane(t, Config{})
	big := make([]byte, MaxPayload)
	for range SoftCapBytes / MaxPayload {
		if _, err := a.Queue(0, big, false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Queue(0, []byte{1}, false); !errors.Is(err, ErrSoftCap) {
		t.Fatalf("ordinary byte past the soft byte cap: %v", err)
	}
	if _, err := a.Queue(0, big, true); err != nil {
		t.Fatalf("critical message past the soft byte cap: %v", err)
	}
}

func TestLaneHardCapPutsTheLaneIntoMustDisconnect(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	// b holds a message of a's for delivery, and a holds an acknowledgement report.
	laneQueue(t, b, 0, "from b", false)
	laneFlush(t, 0, b, a)
	laneQueue(t, a, 0, "first", false)
	laneFlush(t, 0, a, b)
	laneFlush(t, 0, b, a)
	for range SoftCap {
		laneQueue(t, a, 0, "ordinary", false)
	}
	for a.Stats().Queued < HardCap {
		laneQueue(t, a, 0, "critical", true)
	}
	if a.State() != Open {
		t.Fatal("lane broke at the hard cap, not beyond it")
	}
	_, err := a.Queue(time.Second, []byte("PlayerSpawned"), true)
	if !errors.Is(err, ErrHardCap) || !errors.Is(err, ErrMustDisconnect) {
		t.Fatalf("critical message beyond the hard cap: %v", err)
	}
	if a.State() != MustDisconnect || a.State().String() != "must-disconnect" || !errors.Is(a.Err(), ErrHardCap) {
		t.Fatalf("state %v, err %v", a.State(), a.Err())
	}
	if got := a.Stats().Queued; got != HardCap {
		t.Fatalf("queued %d, want %d: the breaking message is not queued", got, HardCap)
	}
	// The host sees the state on every call and acts on it.
	if _, err := a.Queue(time.Second, []byte("x"), false); !errors.Is(err, ErrMustDisconnect) {
		t.Fatalf("queue after the break: %v", err)
	}
	if _, err := a.Queue(time.Second, []byte("x"), true); !errors.Is(err, ErrMustDisconnect) {
		t.Fatalf("critical queue after the break: %v", err)
	}
	if d, err := a.Poll(time.Second, nil); !errors.Is(err, ErrMustDisconnect) || len(d) != 0 {
		t.Fatalf("poll after the break: %d bytes, %v", len(d), err)
	}
	if err := a.Receive(time.Second, laneEncode(0, nil, 0)); !errors.Is(err, ErrMustDisconnect) {
		t.Fatalf("receive after the break: %v", err)
	}
	if _, ok := a.NextDeadline(); ok {
		t.Fatal("deadline after the break")
	}
	// What already arrived can still be read.
	if got := laneStrings(laneDrain(a)); !slices.Equal(got, []string{"from b"}) {
		t.Fatalf("delivered %q after the break", got)
	}
	if ack, ok := a.PopAcked(); !ok || ack.Seq != 0 || !a.Acked(0) {
		t.Fatalf("ack report after the break: %+v %v", ack, ok)
	}
	laneMustCheck(t, a)
}

func TestLaneHardCapBytesPutsTheLaneIntoMustDisconnect(t *testing.T) {
	a := newTestLane(t, Config{})
	big := make([]byte, MaxPayload)
	for range HardCapBytes / MaxPayload {
		if _, err := a.Queue(0, big, true); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Queue(0, []byte{1}, true); !errors.Is(err, ErrHardCap) || a.State() != MustDisconnect {
		t.Fatalf("critical byte past the hard byte cap: %v, state %v", err, a.State())
	}
	if got := a.Stats().BufferBytes; got > HardCapBytes {
		t.Fatalf("sender buffer %d above the hard byte cap", got)
	}
}

func TestLaneLinkTimeoutBreaksTheLane15sAfterTheOldestMessageWasSent(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	laneQueue(t, a, 0, "m0", true)
	laneMustPoll(t, a, 0)
	laneQueue(t, a, 10*time.Second, "m1", true)
	d := laneMustPoll(t, a, 10*time.Second) // carries m0 (retransmission) and m1
	if err := b.Receive(10*time.Second, d); err != nil {
		t.Fatal(err)
	}
	// b's acknowledgement of both is lost; a copy of m0 alone gets through and is acked.
	laneMustPoll(t, b, 10*time.Second)
	if err := b.Receive(11*time.Second, laneEncode(0, nil, 0, []byte("m0"))); err != nil {
		t.Fatal(err)
	}
	ack := laneEncode(1, nil, 0) // "everything before 1": m0 only
	if err := a.Receive(11*time.Second, ack); err != nil {
		t.Fatal(err)
	}
	// m0 was first sent at 0 and is acknowledged; m1 was first sent at 10 s.
	if _, err := a.Poll(15*time.Second, nil); err != nil {
		t.Fatalf("link timeout counted from an acknowledged message: %v", err)
	}
	if at, _ := a.NextDeadline(); at > 25*time.Second {
		t.Fatalf("deadline %v after the link timeout", at)
	}
	if _, err := a.Poll(25*time.Second-time.Nanosecond, nil); err != nil {
		t.Fatalf("link timeout before 15 s: %v", err)
	}
	_, err := a.Poll(25*time.Second, nil)
	if !errors.Is(err, ErrLinkTimeout) || !errors.Is(err, ErrMustDisconnect) || a.State() != MustDisconnect {
		t.Fatalf("at 25 s: %v, state %v", err, a.State())
	}
}

func TestLanePayloadCapRefusesLargerMessages(t *testing.T) {
	for _, tc := range []struct {
		cfg Config
		max int
	}{
		{Config{}, MaxPayload},
		{Config{MaxPayload: 100}, 100},
	} {
		a := newTestLane(t, tc.cfg)
		before := laneFingerprint(a)
		for _, critical := range []bool{false, true} {
			if _, err := a.Queue(0, make([]byte, tc.max+1), critical); !errors.Is(err, ErrPayloadTooLarge) {
				t.Fatalf("%d bytes (critical %v): %v", tc.max+1, critical, err)
			}
		}
		if laneFingerprint(a) != before || a.State() != Open {
			t.Fatal("a refused payload left a trace")
		}
		if _, err := a.Queue(0, make([]byte, tc.max), true); err != nil {
			t.Fatalf("%d bytes: %v", tc.max, err)
		}
		if d := laneMustPoll(t, a, 0); len(d) > a.lim.mtu {
			t.Fatalf("datagram %d bytes above the MTU", len(d))
		}
	}
}

func TestLaneReportsEachAcknowledgementWithItsTime(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	laneQueue(t, a, 0, "SetHealth(50)", false)
	laneQueue(t, a, 0, "SetHealth(0)", true)
	laneMustPoll(t, a, 5*laneMs) // lost
	laneQueue(t, a, 100*laneMs, "GiveArmor", false)
	d := laneMustPoll(t, a, 255*laneMs) // 0 and 1 again, 2 for the first time
	if err := b.Receive(355*laneMs, d); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.PopAcked(); ok || a.Acked(0) {
		t.Fatal("acknowledged before any acknowledgement arrived")
	}
	laneFlush(t, 455*laneMs, b, a)
	want := []Ack{
		{Seq: 0, At: 455 * laneMs, Sent: 5 * laneMs},
		{Seq: 1, At: 455 * laneMs, Sent: 5 * laneMs, Critical: true},
		{Seq: 2, At: 455 * laneMs, Sent: 255 * laneMs},
	}
	var got []Ack
	for ack, ok := a.PopAcked(); ok; ack, ok = a.PopAcked() {
		got = append(got, ack)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("acks %+v, want %+v", got, want)
	}
	for seq := Seq(0); seq < 3; seq++ {
		if !a.Acked(seq) {
			t.Fatalf("Acked(%d) false", seq)
		}
	}
	if a.Acked(3) || a.Acked(1000) {
		t.Fatal("a number never given out is acknowledged")
	}
	// A second copy of the acknowledgement reports nothing new.
	if err := a.Receive(500*laneMs, laneEncode(3, nil, 0)); err != nil {
		t.Fatal(err)
	}
	if ack, ok := a.PopAcked(); ok {
		t.Fatalf("acknowledged twice: %+v", ack)
	}
}

func TestLaneReportsAMessageAcknowledgedOnlyOnceEverythingBeforeItArrived(t *testing.T) {
	server, victim := newTestLane(t, Config{}), newTestLane(t, Config{})
	laneQueue(t, server, 0, "DamageMultipliers", false)
	lost := laneMustPoll(t, server, 0)
	zero := laneQueue(t, server, 10*laneMs, "SetHealth(0)", true)
	if err := victim.Receive(60*laneMs, laneMustPoll(t, server, 10*laneMs)); err != nil {
		t.Fatal(err)
	}
	laneFlush(t, 60*laneMs, victim, server)
	if server.Acked(zero) {
		t.Fatal("SetHealth(0) reported acknowledged while the victim cannot apply it")
	}
	if ack, ok := server.PopAcked(); ok {
		t.Fatalf("report %+v behind the gap", ack)
	}
	if err := victim.Receive(300*laneMs, lost); err != nil { // the gap fills
		t.Fatal(err)
	}
	if got := laneStrings(laneDrain(victim)); !slices.Equal(got, []string{"DamageMultipliers", "SetHealth(0)"}) {
		t.Fatalf("victim applies %q", got)
	}
	laneFlush(t, 310*laneMs, victim, server)
	var got []Ack
	for ack, ok := server.PopAcked(); ok; ack, ok = server.PopAcked() {
		got = append(got, ack)
	}
	want := []Ack{{Seq: 0, At: 310 * laneMs, Sent: 0}, {Seq: 1, At: 310 * laneMs, Sent: 10 * laneMs, Critical: true}}
	if !slices.Equal(got, want) {
		t.Fatalf("reports %+v, want %+v", got, want)
	}
}

func TestLaneAckLogDropsTheOldestReportWhenNotDrained(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	const total = AckLog + 76
	now := time.Duration(0)
	for i := 0; i < total; {
		for k := 0; k < 100 && i < total; k++ {
			laneQueue(t, a, now, "m", false)
			i++
		}
		laneFlush(t, now, a, b)
		laneDrain(b)
		laneFlush(t, now, b, a)
		now += laneMs
	}
	if s := a.Stats(); s.Acked != total || s.AckLogDropped != 76 {
		t.Fatalf("acked %d, dropped %d", s.Acked, s.AckLogDropped)
	}
	first, ok := a.PopAcked()
	if !ok || first.Seq != 76 {
		t.Fatalf("oldest kept report %+v, want seq 76", first)
	}
	n := 1
	for _, ok := a.PopAcked(); ok; _, ok = a.PopAcked() {
		n++
	}
	if n != AckLog || !a.Acked(0) {
		t.Fatalf("%d reports kept, want %d; Acked(0) %v", n, AckLog, a.Acked(0))
	}
}

func TestLaneDuplicateDatagramsDeliverOnce(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	laneQueue(t, a, 0, "PlayerWasted", true)
	laneQueue(t, a, 0, "PlayerSpawned", true)
	d := laneMustPoll(t, a, 0)
	for i := range 3 {
		if err := b.Receive(time.Duration(i)*laneMs, d); err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			laneDrain(b) // duplicates of delivered messages
		}
	}
	if got := laneStrings(laneDrain(b)); len(got) != 0 {
		t.Fatalf("duplicates delivered: %q", got)
	}
	if s := b.Stats(); s.Delivered != 2 || s.Duplicates != 4 {
		t.Fatalf("delivered %d duplicates %d", s.Delivered, s.Duplicates)
	}
	// Duplicates still oblige an acknowledgement (the last one may have been lost).
	if at, ok := b.NextDeadline(); !ok || at != 0 {
		t.Fatalf("ack deadline %v %v", at, ok)
	}
}

func TestLaneReorderedDatagramsDeliverInOrder(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	var ds [][]byte
	for i := range 3 {
		laneQueue(t, a, 0, fmt.Sprint(i), false)
		ds = append(ds, laneMustPoll(t, a, 0))
	}
	if err := b.Receive(1*laneMs, ds[2]); err != nil {
		t.Fatal(err)
	}
	if got := laneDrain(b); len(got) != 0 {
		t.Fatalf("delivered %q ahead of the gap", laneStrings(got))
	}
	if s := b.Stats(); s.Held != 1 || s.Ready != 0 {
		t.Fatalf("held %d ready %d", s.Held, s.Ready)
	}
	ack := laneMustPoll(t, b, 1*laneMs)
	if want := []byte{wire.Version, 0xF0, 0, 0, 0, 0, 1, 0b10, 0}; !bytes.Equal(ack, want) {
		t.Fatalf("ack datagram % x, want % x (ack 0, message 2 held)", ack, want)
	}
	if err := b.Receive(2*laneMs, ds[0]); err != nil {
		t.Fatal(err)
	}
	if got := laneStrings(laneDrain(b)); !slices.Equal(got, []string{"0"}) {
		t.Fatalf("delivered %q", got)
	}
	if err := b.Receive(3*laneMs, ds[1]); err != nil {
		t.Fatal(err)
	}
	if got := laneStrings(laneDrain(b)); !slices.Equal(got, []string{"1", "2"}) {
		t.Fatalf("delivered %q", got)
	}
	laneMustCheck(t, a, b)
}

func TestLaneHoldsAtMostTheWindowAheadOfDelivery(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	for i := range Window + 40 {
		laneQueue(t, a, 0, fmt.Sprint(i), false)
	}
	laneFlush(t, 0, a, b) // the first window; b's host does not drain
	laneFlush(t, 0, b, a)
	if s := b.Stats(); s.Ready != Window {
		t.Fatalf("ready %d", s.Ready)
	}
	laneFlush(t, 0, a, b) // the next 40: no room in b's window
	if s := b.Stats(); s.Dropped != 40 || s.Ready != Window || s.Held != 0 {
		t.Fatalf("dropped %d ready %d held %d", s.Dropped, s.Ready, s.Held)
	}
	laneFlush(t, 0, b, a)
	if a.Acked(Window) {
		t.Fatal("a dropped message was acknowledged")
	}
	// Once b drains, the retransmissions get in.
	if got := len(laneDrain(b)); got != Window {
		t.Fatalf("drained %d", got)
	}
	laneFlush(t, Retransmit, a, b)
	if got := len(laneDrain(b)); got != 40 {
		t.Fatalf("delivered %d after the retransmission", got)
	}
	laneMustCheck(t, a, b)
}

func TestLaneRejectsMessagesBeyondTheReceiveWindow(t *testing.T) {
	b := newTestLane(t, Config{})
	for _, seq := range []Seq{Window, Window + 1, 1 << 20, 1<<31 - 1} {
		if err := b.Receive(0, laneEncode(0, nil, seq, []byte("x"))); !errors.Is(err, ErrSeqRange) {
			t.Fatalf("message %d: %v, want ErrSeqRange", seq, err)
		}
	}
	// The last number inside the window is held; numbers far behind are duplicates.
	for _, seq := range []Seq{Window - 1, 1 << 31, 1<<32 - 1} {
		if err := b.Receive(0, laneEncode(0, nil, seq, []byte("x"))); err != nil {
			t.Fatalf("message %d: %v", seq, err)
		}
	}
	if s := b.Stats(); s.Held != 1 || s.Duplicates != 2 {
		t.Fatalf("held %d duplicates %d", s.Held, s.Duplicates)
	}
	laneMustCheck(t, b)
}

func TestLaneReceiveBufferKeepsRoomForTheMessageThatFillsTheGap(t *testing.T) {
	b := newTestLane(t, Config{ReceiveBytes: 4 * MaxPayload})
	p := func(i int) []byte { return bytes.Repeat([]byte{byte(i)}, 1000) }
	// Messages 1..4 arrive ahead of the gap at 0: three fit beside the reserve.
	for i := 1; i <= 4; i++ {
		if err := b.Receive(0, laneEncode(0, nil, Seq(i), p(i))); err != nil {
			t.Fatal(err)
		}
	}
	if s := b.Stats(); s.Held != 3 || s.Dropped != 1 || s.ReceiveBytes != 3000 {
		t.Fatalf("held %d dropped %d bytes %d", s.Held, s.Dropped, s.ReceiveBytes)
	}
	ack, _ := laneDecode(laneMustPoll(t, b, 0))
	if !slices.Equal(ack.sacked, []Seq{1, 2, 3}) {
		t.Fatalf("sacked %v: a dropped message must not be acknowledged", ack.sacked)
	}
	if err := b.Receive(0, laneEncode(0, nil, 0, p(0))); err != nil {
		t.Fatal(err)
	}
	got := laneDrain(b)
	if len(got) != 4 {
		t.Fatalf("delivered %d, want 0..3", len(got))
	}
	for i, m := range got {
		if !bytes.Equal(m, p(i)) {
			t.Fatalf("message %d has other bytes", i)
		}
	}
	laneMustCheck(t, b)
}

func TestLaneSenderTransmitsOnlyWithinTheWindow(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	for range 400 {
		laneQueue(t, a, 0, "m", false)
	}
	seen := map[Seq]bool{}
	for at := time.Duration(0); at < 2*time.Second; at += 50 * laneMs {
		for {
			d := laneMustPoll(t, a, at)
			if len(d) == 0 {
				break
			}
			for _, s := range laneSeqsOf(t, d) {
				seen[s] = true
			}
		}
	}
	if len(seen) != Window || seen[Window] {
		t.Fatalf("transmitted %d distinct messages without an acknowledgement, want %d", len(seen), Window)
	}
	if s := a.Stats(); s.Unsent != 400-Window || s.InFlight != Window {
		t.Fatalf("unsent %d in flight %d", s.Unsent, s.InFlight)
	}
	if err := b.Receive(2*time.Second, laneEncode(0, nil, 0)); err != nil {
		t.Fatal(err)
	}
	// An acknowledgement opens the window.
	if err := a.Receive(2*time.Second, laneEncode(100, nil, 0)); err != nil {
		t.Fatal(err)
	}
	last := Seq(0)
	for d := laneMustPoll(t, a, 2*time.Second); len(d) > 0; d = laneMustPoll(t, a, 2*time.Second) {
		for _, s := range laneSeqsOf(t, d) {
			last = max(last, s)
		}
	}
	if last != Window+99 {
		t.Fatalf("after an ack of 100 sent up to %d, want up to %d", last, Window+99)
	}
}

func TestLaneInFlightBytesCapHoldsNewMessages(t *testing.T) {
	a := newTestLane(t, Config{InFlightBytes: 2048})
	for range 10 {
		if _, err := a.Queue(0, make([]byte, 1000), false); err != nil {
			t.Fatal(err)
		}
	}
	sent := 0
	for d := laneMustPoll(t, a, 0); len(d) > 0; d = laneMustPoll(t, a, 0) {
		sent += len(laneSeqsOf(t, d)) // one 1000-byte message per 1200-byte datagram
	}
	if sent != 2 {
		t.Fatalf("sent %d messages of 1000 bytes under an in-flight cap of 2048", sent)
	}
	if s := a.Stats(); s.InFlight != 2 || s.InFlightBytes != 2000 || s.Unsent != 8 {
		t.Fatalf("in flight %d (%d bytes), unsent %d", s.InFlight, s.InFlightBytes, s.Unsent)
	}
	if _, ok := a.NextDeadline(); !ok {
		t.Fatal("no deadline")
	}
	if err := a.Receive(0, laneEncode(2, nil, 0)); err != nil {
		t.Fatal(err)
	}
	var after []Seq
	for d := laneMustPoll(t, a, 0); len(d) > 0; d = laneMustPoll(t, a, 0) {
		after = append(after, laneSeqsOf(t, d)...)
	}
	if !slices.Equal(after, []Seq{2, 3}) {
		t.Fatalf("after the ack sent %v", after)
	}
}

func TestLaneDatagramsFitTheMTUAndTheRecordCount(t *testing.T) {
	a := newTestLane(t, Config{})
	for range 300 {
		laneQueue(t, a, 0, "", false) // empty payloads: the record count is the limit
	}
	var counts []int
	for d := laneMustPoll(t, a, 0); len(d) > 0; d = laneMustPoll(t, a, 0) {
		counts = append(counts, len(laneSeqsOf(t, d)))
	}
	if !slices.Equal(counts, []int{MaxRecords, Window - MaxRecords}) {
		t.Fatalf("records per datagram %v", counts)
	}
	a = newTestLane(t, Config{MTU: 600, MaxPayload: 500})
	for range 50 {
		laneQueue(t, a, 0, string(make([]byte, 100)), false)
	}
	for d := laneMustPoll(t, a, 0); len(d) > 0; d = laneMustPoll(t, a, 0) {
		if len(d) > 600 {
			t.Fatalf("datagram of %d bytes above MTU 600", len(d))
		}
		if n := len(laneSeqsOf(t, d)); n != 5 && a.Stats().Unsent > 0 {
			t.Fatalf("%d records of 103 bytes in 600, want 5", n)
		}
	}
}

func TestLaneAckOnlyDatagramsAreNotAcknowledged(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	laneQueue(t, a, 0, "m", false)
	laneFlush(t, 0, a, b)
	if n := laneFlush(t, 10*laneMs, b, a); n != 1 {
		t.Fatalf("%d acknowledgement datagrams", n)
	}
	for i, l := range []*Lane{a, b} {
		if at, ok := l.NextDeadline(); ok {
			t.Fatalf("lane %d still has a deadline %v after the exchange", i, at)
		}
		if d := laneMustPoll(t, l, time.Second); len(d) != 0 {
			t.Fatalf("lane %d sent %d bytes with nothing to say", i, len(d))
		}
	}
}

func TestLaneLostAcknowledgementIsRepairedByTheRetransmission(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	laneQueue(t, a, 0, "PlayerWasted", true)
	laneFlush(t, 0, a, b)
	laneMustPoll(t, b, 0) // the acknowledgement is lost
	laneFlush(t, Retransmit, a, b)
	laneFlush(t, Retransmit, b, a)
	if !a.Acked(0) {
		t.Fatal("not acknowledged after the retransmission")
	}
	if got := b.Stats(); got.Delivered != 0 || got.Ready != 1 || got.Duplicates != 1 {
		t.Fatalf("receiver %+v", got)
	}
}

func TestLaneSequenceNumbersSurviveTheWrap(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	start := Seq(1<<32 - 3)
	laneStartAt(a, start)
	laneStartAt(b, start)
	var ds [][]byte
	var seqs []Seq
	for i := range 8 {
		seqs = append(seqs, laneQueue(t, a, 0, fmt.Sprint(i), i%2 == 0))
		ds = append(ds, laneMustPoll(t, a, 0))
	}
	if seqs[3] != 0 || seqs[2] != 1<<32-1 {
		t.Fatalf("sequence numbers %v do not wrap", seqs)
	}
	// Deliver out of order across the wrap: 5, 1, 7, 0, then the rest.
	for _, i := range []int{5, 1, 7, 0, 2, 3, 4, 6} {
		if err := b.Receive(laneMs, ds[i]); err != nil {
			t.Fatal(err)
		}
		laneMustCheck(t, b)
		laneFlush(t, laneMs, b, a)
	}
	if got := laneStrings(laneDrain(b)); !slices.Equal(got, strings10[:8]) {
		t.Fatalf("delivered %q", got)
	}
	for _, s := range seqs {
		if !a.Acked(s) {
			t.Fatalf("Acked(%d) false", s)
		}
	}
	laneMustCheck(t, a, b)
}

// laneHostileCases are datagrams that must be rejected by a lane in the state
// laneHostileLane builds: it sent messages 0..4 (none acknowledged) and received and
// delivered 0..2 of its peer.
var laneHostileCases = []struct {
	name string
	d    []byte
	want error
}{
	{"empty", []byte{}, ErrTruncated},
	{"another protocol version", []byte{2, 0xF0, 0, 0, 0, 0, 0, 0}, ErrVersion},
	{"version zero", []byte{0}, ErrVersion},
	{"a message id, not the lane's", []byte{1, 0x41, 0, 0, 0, 0, 0, 0}, ErrMalformed},
	{"another transport id", []byte{1, 0xF1, 0, 0, 0, 0, 0, 0}, ErrMalformed},
	{"header cut in the ack", []byte{1, 0xF0, 0, 0}, ErrTruncated},
	{"header cut before the count", []byte{1, 0xF0, 0, 0, 0, 0, 0}, ErrTruncated},
	{"bitmap longer than the window", append([]byte{1, 0xF0, 0, 0, 0, 0, 33}, make([]byte, 34)...), ErrMalformed},
	{"bitmap cut short", []byte{1, 0xF0, 0, 0, 0, 0, 2, 1}, ErrTruncated},
	{"bitmap ends in a zero byte", []byte{1, 0xF0, 0, 0, 0, 0, 2, 1, 0, 0}, ErrMalformed},
	{"bitmap bit past the window", append(append([]byte{1, 0xF0, 0, 0, 0, 0, 32}, make([]byte, 31)...), 0x80, 0), ErrMalformed},
	{"ack of a message never sent", laneEncode(6, nil, 0), ErrAckRange},
	{"absurd ack", laneEncode(1<<31+3, nil, 0), ErrAckRange},
	{"absurd ack far behind", laneEncode(1<<31-5, nil, 0), ErrAckRange}, // 2^31+10 before 5: not comparable
	{"ack exactly half the number space away", laneEncode(1<<31+5, nil, 0), ErrAckRange},
	{"ack before the first message ever sent", laneEncode(1<<32-1, nil, 0), ErrAckRange},
	{"selective ack of a message never sent", laneEncode(0, []byte{0b10000}, 0), ErrAckRange},
	{"count without a base", []byte{1, 0xF0, 0, 0, 0, 0, 0, 1, 3, 0}, ErrTruncated},
	{"record header cut", []byte{1, 0xF0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 1}, ErrTruncated},
	{"length beyond the datagram", []byte{1, 0xF0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 5, 0, 'a'}, ErrTruncated},
	{"huge length", []byte{1, 0xF0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0xff, 0xff}, ErrPayloadTooLarge},
	{"length above the payload cap", append([]byte{1, 0xF0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0x01, 0x04}, make([]byte, 1025)...), ErrPayloadTooLarge},
	{"first offset not zero", []byte{1, 0xF0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 1, 0, 0}, ErrMalformed},
	{"offsets not increasing", []byte{1, 0xF0, 0, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0}, ErrMalformed},
	{"message far ahead of the window", laneEncode(0, nil, 3+Window, []byte("x")), ErrSeqRange},
	{"last record beyond the window", []byte{1, 0xF0, 0, 0, 0, 0, 0, 2, 4, 0, 0, 0, 0, 0, 0, 0xff, 0, 0}, ErrSeqRange},
	{"trailing byte after the records", append(laneEncode(0, nil, 3, []byte("x")), 0), ErrTrailing},
	{"trailing byte after an empty count", append(laneEncode(0, nil, 0), 7), ErrTrailing},
}

func laneHostileLane(t testing.TB) *Lane {
	b := newTestLane(t, Config{})
	peer := newTestLane(t, Config{})
	for range 5 {
		laneQueue(t, b, 0, "mine", false)
	}
	laneMustPoll(t, b, 0)
	for range 3 {
		laneQueue(t, peer, 0, "theirs", false)
	}
	laneFlush(t, 0, peer, b)
	laneDrain(b)
	return b
}

func TestLaneRejectsHostileDatagramsWithoutATrace(t *testing.T) {
	for _, tc := range laneHostileCases {
		t.Run(tc.name, func(t *testing.T) {
			b := laneHostileLane(t)
			before := laneFingerprint(b)
			err := b.Receive(time.Second, tc.d)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Receive(% x) = %v, want %v", tc.d, err, tc.want)
			}
			if laneFingerprint(b) != before {
				t.Fatal("the rejected datagram changed the lane")
			}
			laneMustCheck(t, b)
		})
	}
}

func TestLaneRejectedDatagramsDoNotAllocate(t *testing.T) {
	b := laneHostileLane(t)
	for _, tc := range laneHostileCases {
		if n := testing.AllocsPerRun(50, func() { _ = b.Receive(time.Second, tc.d) }); n != 0 {
			t.Fatalf("%s: %v allocations", tc.name, n)
		}
	}
}

func TestLaneTimeMustNotGoBackwards(t *testing.T) {
	a := newTestLane(t, Config{})
	if _, err := a.Queue(-1, []byte("x"), false); !errors.Is(err, ErrClock) {
		t.Fatalf("negative time: %v", err)
	}
	laneQueue(t, a, 10*laneMs, "x", false)
	before := laneFingerprint(a)
	if _, err := a.Queue(5*laneMs, []byte("y"), true); !errors.Is(err, ErrClock) {
		t.Fatalf("queue: %v", err)
	}
	if _, err := a.Poll(5*laneMs, nil); !errors.Is(err, ErrClock) {
		t.Fatalf("poll: %v", err)
	}
	if err := a.Receive(5*laneMs, laneEncode(0, nil, 0)); !errors.Is(err, ErrClock) {
		t.Fatalf("receive: %v", err)
	}
	if laneFingerprint(a) != before {
		t.Fatal("a call with an earlier time changed the lane")
	}
}

func TestLaneNextDeadlineNamesTheNextDuePoll(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	if _, ok := a.NextDeadline(); ok {
		t.Fatal("a fresh lane has a deadline")
	}
	laneQueue(t, a, 10*laneMs, "m", false)
	if at, ok := a.NextDeadline(); !ok || at != 10*laneMs {
		t.Fatalf("queued message: deadline %v %v, want 10ms", at, ok)
	}
	d := laneMustPoll(t, a, 20*laneMs)
	if at, _ := a.NextDeadline(); at != 270*laneMs {
		t.Fatalf("sent message: deadline %v, want 270ms", at)
	}
	if err := b.Receive(30*laneMs, d); err != nil {
		t.Fatal(err)
	}
	if at, ok := b.NextDeadline(); !ok || at != 30*laneMs {
		t.Fatalf("owed acknowledgement: deadline %v %v, want 30ms", at, ok)
	}
	laneFlush(t, 40*laneMs, b, a)
	if _, ok := a.NextDeadline(); ok {
		t.Fatal("deadline after the acknowledgement")
	}
}

func TestLaneFramingMatchesTheTable(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	var ds [][]byte
	for _, p := range []string{"m0", "m1", "m2"} {
		laneQueue(t, a, 0, p, false)
		ds = append(ds, laneMustPoll(t, a, 0))
	}
	want0 := []byte{
		1,          // protocol version
		0xF0,       // DatagramID
		0, 0, 0, 0, // ack: a expects b's message 0
		0,          // no selective-ack bitmap
		1,          // one record
		0, 0, 0, 0, // base: message 0
		0, 2, 0, 'm', '0', // offset 0, length 2, payload
	}
	if !bytes.Equal(ds[0], want0) {
		t.Fatalf("first datagram % x, want % x", ds[0], want0)
	}
	if err := b.Receive(0, ds[0]); err != nil {
		t.Fatal(err)
	}
	if err := b.Receive(0, ds[2]); err != nil { // m1 is lost
		t.Fatal(err)
	}
	laneQueue(t, b, 0, "hi", false)
	laneQueue(t, b, 0, "yo", true)
	got := laneMustPoll(t, b, 0)
	want := []byte{
		1,          // protocol version
		0xF0,       // DatagramID
		1, 0, 0, 0, // ack: every message before 1 received
		1, 0b1, // one bitmap byte: bit 0 = message ack+1 = 2 is held
		2,          // two records
		0, 0, 0, 0, // base: b's message 0
		0, 2, 0, 'h', 'i',
		1, 2, 0, 'y', 'o',
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("datagram % x, want % x", got, want)
	}
	if len(got) != 8+1+4+2*(RecordOverhead+2) {
		t.Fatalf("size %d does not match the documented sizes", len(got))
	}
	if err := a.Receive(0, got); err != nil {
		t.Fatal(err)
	}
	ackOnly := laneMustPoll(t, a, 0)
	if want := []byte{1, 0xF0, 2, 0, 0, 0, 0, 0}; !bytes.Equal(ackOnly, want) {
		t.Fatalf("ack-only datagram % x, want % x (8 bytes)", ackOnly, want)
	}
}

func TestLaneStateString(t *testing.T) {
	for s, want := range map[State]string{Open: "open", MustDisconnect: "must-disconnect", 9: "State(9)"} {
		if got := s.String(); got != want {
			t.Errorf("%d: %q, want %q", s, got, want)
		}
	}
}

func TestLaneSteadyStateDoesNotAllocate(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	payload := make([]byte, 40)
	buf := make([]byte, 0, MTU)
	now := time.Duration(0)
	round := func() {
		now += laneMs
		for range 8 {
			if _, err := a.Queue(now, payload, false); err != nil {
				t.Fatal(err)
			}
		}
		d, _ := a.Poll(now, buf[:0])
		if err := b.Receive(now, d); err != nil {
			t.Fatal(err)
		}
		for _, ok := b.Deliver(); ok; _, ok = b.Deliver() {
		}
		d, _ = b.Poll(now, buf[:0])
		if err := a.Receive(now, d); err != nil {
			t.Fatal(err)
		}
		for _, ok := a.PopAcked(); ok; _, ok = a.PopAcked() {
		}
		a.NextDeadline()
	}
	for range 100 {
		round() // warm up: arenas and rings reach their working size
	}
	if n := testing.AllocsPerRun(200, round); n != 0 {
		t.Fatalf("%v allocations per round trip", n)
	}
}

func TestLaneCanQueueAnswersWhatQueueWouldDo(t *testing.T) {
	class := func(err error) string {
		switch {
		case err == nil:
			return "queued"
		case errors.Is(err, ErrPayloadTooLarge):
			return "too large"
		case errors.Is(err, ErrSoftCap):
			return "soft cap"
		case errors.Is(err, ErrHardCap):
			return "hard cap"
		}
		return err.Error()
	}
	rng := rand.New(rand.NewPCG(11, 12))
	a := newTestLane(t, Config{SoftCap: 20, HardCap: 40, SoftCapBytes: 2000, HardCapBytes: 5000})
	seen := map[string]bool{}
	for i := 0; a.State() == Open; i++ {
		n := rng.IntN(MaxPayload * 3 / 2)
		critical := rng.IntN(3) == 0
		want := class(a.CanQueue(n, critical))
		_, err := a.Queue(time.Duration(i), make([]byte, n), critical)
		if got := class(err); got != want {
			t.Fatalf("step %d (%d bytes, critical %v): CanQueue says %s, Queue %s", i, n, critical, want, got)
		}
		seen[want] = true
	}
	if len(seen) != 4 {
		t.Fatalf("outcomes seen: %v", seen)
	}
}

func TestLaneMemoryStaysBoundedUnderAHostilePeer(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	b := newTestLane(t, Config{})
	payload := make([]byte, MaxPayload)
	for i := range 5000 {
		// Out-of-order messages as large as allowed, anywhere in the window, never filling
		// the gap at the front; now and then the host drains.
		base := b.recvNext + 1 + Seq(rng.IntN(Window-2))
		if rng.IntN(20) == 0 {
			base = b.recvNext
		}
		if err := b.Receive(time.Duration(i), laneEncode(0, nil, base, payload[:rng.IntN(MaxPayload+1)])); err != nil {
			t.Fatal(err)
		}
		if rng.IntN(4) == 0 {
			laneDrain(b)
		}
		laneMustPoll(t, b, time.Duration(i))
		s := b.Stats()
		if s.BufferBytes > ReceiveBytes || s.ReceiveBytes > ReceiveBytes || s.Held >= Window {
			t.Fatalf("step %d: %+v above the caps", i, s)
		}
	}
	laneMustCheck(t, b)
}

func TestLaneArenaCompactionAndGrowthKeepEveryPayload(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	a := laneArena{limit: 8192}
	type entry struct {
		span laneSpan
		want []byte
	}
	var live []*entry
	for step := range 5000 {
		if len(live) > 0 && (rng.IntN(2) == 0 || a.live > 6000) {
			i := rng.IntN(len(live))
			e := live[i]
			if !bytes.Equal(a.bytes(e.span), e.want) {
				t.Fatalf("step %d: payload changed", step)
			}
			a.free(e.span)
			live = append(live[:i], live[i+1:]...)
			continue
		}
		p := make([]byte, rng.IntN(1000))
		for i := range p {
			p[i] = byte(rng.Uint32())
		}
		if a.live+len(p) > a.limit {
			continue
		}
		if a.needsRoom(len(p)) {
			var spans []*laneSpan
			for _, e := range live {
				spans = append(spans, &e.span)
			}
			a.makeRoom(len(p), spans)
		}
		live = append(live, &entry{a.put(p), p})
		var spans []laneSpan
		for _, e := range live {
			spans = append(spans, e.span)
			if !bytes.Equal(a.bytes(e.span), e.want) {
				t.Fatalf("step %d: payload changed by compaction", step)
			}
		}
		if err := laneCheckArena(&a, spans, "test"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLaneDatagramsAreRoutedByPeek(t *testing.T) {
	a := newTestLane(t, Config{})
	laneQueue(t, a, 0, "m", false)
	d := laneMustPoll(t, a, 0)
	id, err := wire.Peek(d)
	if err != nil || id != DatagramID || !id.Transport() {
		t.Fatalf("Peek of a lane datagram: id %#x, %v", uint8(id), err)
	}
	if _, err := new(wire.Decoder).Decode(d); err == nil {
		t.Fatal("a lane datagram decoded as a message")
	}
}

func TestLaneSelectiveAcksDoNotAllocate(t *testing.T) {
	b := newTestLane(t, Config{})
	buf := make([]byte, 0, MTU)
	// Messages 1, 5 and 200 are held beyond the gap at 0.
	for _, seq := range []Seq{1, 5, 200} {
		if err := b.Receive(0, laneEncode(0, nil, seq, []byte("held"))); err != nil {
			t.Fatal(err)
		}
	}
	var d []byte
	if n := testing.AllocsPerRun(100, func() {
		b.ackOwed = true
		d, _ = b.Poll(0, buf[:0])
	}); n != 0 {
		t.Fatalf("%v allocations per acknowledgement with a bitmap", n)
	}
	g, err := laneDecode(d)
	if err != nil || !slices.Equal(g.sacked, []Seq{1, 5, 200}) {
		t.Fatalf("sacked %v, %v", g.sacked, err)
	}
}

// A fresh lane has sent nothing: an acknowledgement exactly half the number space away
// from its first sequence number is not comparable and must be refused, not walked.
// (Found by FuzzLaneReceive: it used to index the empty ring.)
func TestLaneFreshLaneRefusesAnAckHalfTheNumberSpaceAway(t *testing.T) {
	l := newTestLane(t, Config{})
	for _, ack := range []Seq{1 << 31, 1<<31 + 1, 1} {
		if err := l.Receive(0, laneEncode(ack, nil, 0)); !errors.Is(err, ErrAckRange) {
			t.Fatalf("ack %d: %v", ack, err)
		}
	}
	if err := l.Receive(0, laneEncode(0, nil, 0)); err != nil {
		t.Fatal(err)
	}
	laneMustCheck(t, l)
}

// A burst grows a lane's storage to its high-water mark (never past the caps); once both
// sides fall idle (everything acknowledged, delivered and popped) the lane releases what
// grew past the kept sizes, and the next burst grows it again.
func TestAnIdleLaneReleasesWhatABurstGrew(t *testing.T) {
	a, b := newTestLane(t, Config{}), newTestLane(t, Config{})
	payload := make([]byte, 100)
	buf := make([]byte, 0, MTU)
	now := time.Duration(0)
	for burst := range 2 {
		for range SoftCap {
			if _, err := a.Queue(now, payload, false); err != nil {
				t.Fatal(err)
			}
		}
		sender := a.Stats().BufferBytes
		if sender < SoftCap*len(payload) || len(a.slots) < SoftCap {
			t.Fatalf("burst %d: the sender holds %d bytes in %d slots for %d messages", burst, sender, len(a.slots), SoftCap)
		}
		grew, grewAcks, grewRecv := false, 0, 0
		for a.Stats().Queued > 0 {
			now += laneMs
			for d, _ := a.Poll(now, buf[:0]); len(d) > 0; d, _ = a.Poll(now, buf[:0]) {
				if err := b.Receive(now, d); err != nil {
					t.Fatal(err)
				}
			}
			grewRecv = max(grewRecv, len(b.rslots))
			for _, ok := b.Deliver(); ok; _, ok = b.Deliver() {
			}
			if d, _ := b.Poll(now, buf[:0]); len(d) > 0 {
				if err := a.Receive(now, d); err != nil {
					t.Fatal(err)
				}
			}
			grewAcks = max(grewAcks, len(a.acks))
			if a.Stats().Queued > 0 {
				for _, ok := a.PopAcked(); ok; _, ok = a.PopAcked() {
				}
			}
			grew = grew || a.Stats().BufferBytes > keepArena
			laneMustCheck(t, a, b)
		}
		if !grew || grewAcks <= keepAckLog || grewRecv <= keepRecvSlots {
			t.Fatalf("burst %d: the burst did not grow the storage (acks %d, receive ring %d)", burst, grewAcks, grewRecv)
		}
		for _, ok := a.PopAcked(); ok; _, ok = a.PopAcked() {
		}
		if s := a.Stats(); s.BufferBytes != 0 || len(a.slots) > keepSlots || len(a.acks) > keepAckLog || cap(a.spans) > keepSlots {
			t.Fatalf("burst %d: the idle sender keeps %d arena bytes, %d slots, %d acks, %d scratch", burst, s.BufferBytes, len(a.slots), len(a.acks), cap(a.spans))
		}
		if s := b.Stats(); s.BufferBytes > keepArena || len(b.rslots) > keepRecvSlots {
			t.Fatalf("burst %d: the idle receiver keeps %d arena bytes, %d slots", burst, s.BufferBytes, len(b.rslots))
		}
	}
}
