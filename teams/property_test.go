package teams

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbitergo/arbiter/internal/revision"
)

// soak runs the property test over many more seeds: go test ./teams -teams.soak=true.
var soak = flag.Bool("teams.soak", false, "run the property tests over many more seeds")

// The slots random sequences play with: a few low ids and the highest slot. Ops only ever
// touch these or ids out of range, so the reference sees every regrouped player.
var watched = []PlayerID{0, 1, 2, 3, 4, 5, 6, 7, MaxPlayers - 1}

// probes are the ids stamps are checked for: the watched slots, an unwatched free slot,
// and ids out of range.
var probes = append(append([]PlayerID{}, watched...), 500, MaxPlayers, NoPlayer)

// The teams and names random sequences draw from, bad ones included.
var (
	opTeams = []TeamID{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, MaxTeams, NoTeam, MaxTeams + 1, 0xFFFF}
	opNames = []string{"red", "blue", "green", "red", "blue", "", strings.Repeat("x", MaxTeamName+1),
		strings.Repeat("é", MaxTeamName/2), "bad\xffutf8", "tab\tname"}
	opPlayers = append(append([]PlayerID{}, watched...), watched...)
)

func init() {
	opPlayers = append(opPlayers, MaxPlayers, NoPlayer)
}

// harness applies the same operations to a Registry and to the naive reference and checks
// after each that they agree, that a refused operation left no trace, and that the
// relation revision never moved backwards.
type harness struct {
	r    *Registry
	m    *reference
	fail func(format string, args ...any)
	// relation[rev] is the stamp matrix seen at each full revision: the same revision must
	// always mean the same relations.
	relation map[uint64]string
	steps    int
}

func newHarness(fail func(string, ...any)) *harness {
	h := &harness{r: New(), m: newReference(watched), fail: fail, relation: map[uint64]string{}}
	h.check()
	return h
}

func (h *harness) step(o op) {
	h.steps++
	// A copy of the whole registry, to check that a refused operation leaves no trace, is
	// taken only when the reference expects a refusal (an unexpected one fails anyway).
	var before *Registry
	if h.m.validate(o) != nil {
		before = h.r.clone()
	}
	beforeRev := h.r.rev
	wantErr, wantMoved, wantN := h.m.apply(o)
	c, err := run(h.r, o)
	switch {
	case wantErr == nil && err != nil:
		h.fail("step %d %v: unexpected error %v", h.steps, o, err)
		return
	case wantErr != nil && !errors.Is(err, wantErr):
		h.fail("step %d %v: error %v, want %v", h.steps, o, err, wantErr)
		return
	case err != nil && !h.r.same(before):
		h.fail("step %d %v: refused with %v but changed the registry", h.steps, o, err)
		return
	}
	if h.r.rev < beforeRev || !revision.NewerOrEqual(h.r.Rev(), uint16(beforeRev)) {
		h.fail("step %d %v: revision moved backwards from %d to %d", h.steps, o, beforeRev, h.r.rev)
	}
	if h.r.rev != h.m.rev {
		h.fail("step %d %v: revision %d, reference %d", h.steps, o, h.r.rev, h.m.rev)
	}
	if c.Moved != wantMoved || c.Regrouped != wantN || c.Rev != h.r.Rev() {
		h.fail("step %d %v: change %v, want moved=%v regrouped=%d rev=%d", h.steps, o, c, wantMoved, wantN, h.r.Rev())
	}
	if c.Moved && h.r.rev != beforeRev+1 {
		h.fail("step %d %v: one operation moved the revision by %d", h.steps, o, h.r.rev-beforeRev)
	}
	h.check()
}

func (h *harness) check() {
	var matrix strings.Builder
	rev := h.r.Rev()
	for _, s := range probes {
		for _, p := range probes {
			got := h.r.Stamp(s, p)
			want := Stamp{Teammate: h.m.teammates(s, p), Rev: uint16(h.m.rev)}
			if got != want {
				h.fail("step %d: Stamp(%d, %d) = %v, reference %v", h.steps, s, p, got, want)
				return
			}
			if got.Rev != rev {
				h.fail("step %d: stamp revision %d, Rev() %d", h.steps, got.Rev, rev)
			}
			if got.Teammate {
				matrix.WriteByte('1')
			} else {
				matrix.WriteByte('0')
			}
		}
		if g, want := h.r.Group(s), h.m.group(s); g != want {
			h.fail("step %d: Group(%d) = %d, reference %d", h.steps, s, g, want)
		}
		_, connected := h.m.member[s]
		if h.r.Connected(s) != connected {
			h.fail("step %d: Connected(%d) = %v, reference %v", h.steps, s, h.r.Connected(s), connected)
		}
		if h.r.TeamOf(s) != h.m.member[s] {
			h.fail("step %d: TeamOf(%d) = %d, reference %d", h.steps, s, h.r.TeamOf(s), h.m.member[s])
		}
	}
	if prev, ok := h.relation[h.r.rev]; ok && prev != matrix.String() {
		h.fail("step %d: revision %d carries two different relations", h.steps, h.r.rev)
	}
	h.relation[h.r.rev] = matrix.String()

	if h.r.TeamCount() != len(h.m.teams) {
		h.fail("step %d: %d teams, reference %d", h.steps, h.r.TeamCount(), len(h.m.teams))
	}
	for _, t := range opTeams {
		n := 0
		for _, mt := range h.m.member {
			if mt == t && t != NoTeam {
				n++
			}
		}
		if h.r.MemberCount(t) != n {
			h.fail("step %d: MemberCount(%d) = %d, reference %d", h.steps, t, h.r.MemberCount(t), n)
		}
	}
	h.checkHistory()
}

// checkHistory compares StampAt for the last revisions with the reference's snapshots,
// and checks it forgets exactly what GroupHistory allows it to forget.
func (h *harness) checkHistory() {
	forgotten := make([]bool, len(watched))
	group := make([]uint16, len(watched))
	for back := uint64(0); back <= 16 && back <= h.m.rev; back++ {
		at := h.m.rev - back
		for i, q := range watched {
			after, total := h.m.changesAfter(q, at)
			forgotten[i] = after >= GroupHistory && total > GroupHistory
			group[i] = h.m.snaps[at][q]
		}
		for i, s := range watched {
			for j, p := range watched {
				got, err := h.r.StampAt(s, p, uint16(at))
				if forgotten[i] || forgotten[j] {
					if !errors.Is(err, ErrRevisionForgotten) {
						h.fail("step %d: StampAt(%d, %d, %d) = %v, %v; want forgotten", h.steps, s, p, at, got, err)
					}
					continue
				}
				want := Stamp{Teammate: AreTeammates(s, group[i], p, group[j]), Rev: uint16(at)}
				if err != nil || got != want {
					h.fail("step %d: StampAt(%d, %d, %d) = %v, %v; reference %v", h.steps, s, p, at, got, err, want)
				}
			}
		}
	}
	if _, err := h.r.StampAt(0, 1, h.r.Rev()+1); !errors.Is(err, ErrRevisionFuture) {
		h.fail("step %d: StampAt of the next revision: %v, want ErrRevisionFuture", h.steps, err)
	}
}

// opWeights makes the operations gamemodes use most (joins, leaves, friendly-fire
// toggles) the likeliest, while keeping every kind in play.
var opWeights = [numOps]int{
	opConnect: 14, opDisconnect: 5, opCreate: 8, opChange: 4,
	opSetFF: 10, opRemove: 3, opJoin: 40, opLeave: 16,
}

func randomOp(rng *rand.Rand) op {
	total := 0
	for _, w := range opWeights {
		total += w
	}
	o := op{kind: numOps - 1}
	for k, n := 0, rng.IntN(total); k < numOps; k++ {
		if n < opWeights[k] {
			o.kind = byte(k)
			break
		}
		n -= opWeights[k]
	}
	o.p = watched[rng.IntN(len(watched))]
	o.t = TeamID(1 + rng.IntN(4))
	if rng.IntN(12) == 0 { // an id out of range, or a bad team
		o.p = opPlayers[rng.IntN(len(opPlayers))]
		o.t = opTeams[rng.IntN(len(opTeams))]
	}
	o.on = rng.IntN(2) == 0
	o.def = Team{Name: opNames[rng.IntN(len(opNames))], Color: rng.Uint32(), FriendlyFire: rng.IntN(3) == 0}
	return o
}

// TestStampAgreesWithNaiveReferenceOverRandomTeamOperations is the property test: for
// random sequences of team operations, every stamp equals the relation computed from
// scratch by the reference, refused operations leave no trace, the relation revision
// moves exactly when a damage group changes and never backwards, and StampAt rebuilds
// the past stamps.
func TestStampAgreesWithNaiveReferenceOverRandomTeamOperations(t *testing.T) {
	seeds := 12
	if *soak {
		seeds = 400
	}
	for i := range seeds {
		seed := uint64(0x7ea5) + uint64(i)*0x9e3779b9
		rng := rand.New(rand.NewPCG(seed, seed^0xff))
		failed := false
		h := newHarness(func(format string, args ...any) {
			failed = true
			t.Errorf("seed %#x: %s", seed, fmt.Sprintf(format, args...))
		})
		for range 500 {
			h.step(randomOp(rng))
			if failed {
				t.FailNow()
			}
		}
		if h.r.rev == 0 {
			t.Fatalf("seed %#x: the sequence never moved the revision: the test exercises nothing", seed)
		}
	}
}

// TestTrackerKeepsTheNewestStampOverRandomArrivals: stamps of one sender arrive in a random
// order (duplicated, reordered, around the 16-bit wrap); the tracker always holds the one
// with the newest revision.
func TestTrackerKeepsTheNewestStampOverRandomArrivals(t *testing.T) {
	for i := range 50 {
		seed := uint64(0xc11e) + uint64(i)
		rng := rand.New(rand.NewPCG(seed, 1))
		base := uint16(rng.Uint32())
		if i%3 == 0 {
			base = 65535 - uint16(rng.IntN(500)) // straddle the wrap
		}
		var tr Tracker
		var newest uint16
		have := false
		for range 300 {
			rev := base + uint16(rng.IntN(1000))
			s := Stamp{Teammate: rev%3 == 0, Rev: rev} // the relation is a function of the revision
			took := tr.Observe(7, s)
			if !have || revision.Newer(rev, newest) {
				if !took {
					t.Fatalf("seed %d: stamp %v newer than %d was not taken", seed, s, newest)
				}
				newest, have = rev, true
			} else if took {
				t.Fatalf("seed %d: stamp %v not newer than %d was taken", seed, s, newest)
			}
			got, ok := tr.Newest(7)
			if !ok || got.Rev != newest || got.Teammate != (newest%3 == 0) {
				t.Fatalf("seed %d: newest %v, want rev %d", seed, got, newest)
			}
		}
	}
}

// TestClientViewConvergesWithTheNextPacketOfEachSender plays the promise that a
// team change needs no packet of its own: the server changes teams at random while the
// packets it stamped for one client arrive late, reordered and duplicated. At every
// moment the client's view of each sender is the true relation at the revision of the
// newest packet it has from that sender (never an older one that arrived later), and once
// the next packet of each sender arrives (within a heartbeat), its view is the server's.
func TestClientViewConvergesWithTheNextPacketOfEachSender(t *testing.T) {
	const me = PlayerID(0)
	senders := []PlayerID{1, 2, 3, 4, 5}
	type packet struct {
		sender PlayerID
		stamp  Stamp
	}
	for i := range 40 {
		seed := uint64(0xbea7) + uint64(i)
		rng := rand.New(rand.NewPCG(seed, 7))
		r := New()
		for team := TeamID(1); team <= 3; team++ {
			if err := r.CreateTeam(team, Team{Name: "t"}); err != nil {
				t.Fatal(err)
			}
		}
		for p := range PlayerID(6) {
			if err := r.Connect(p); err != nil {
				t.Fatal(err)
			}
		}
		var client Tracker
		var inFlight []packet
		for step := range 400 {
			switch n := rng.IntN(10); {
			case n < 2: // the gamemode changes something
				p := PlayerID(rng.IntN(6))
				switch rng.IntN(4) {
				case 0:
					_, _ = r.LeaveTeam(p)
				case 1:
					_, _ = r.SetFriendlyFire(TeamID(1+rng.IntN(3)), rng.IntN(2) == 0)
				default:
					_, _ = r.JoinTeam(p, TeamID(1+rng.IntN(3)))
				}
			case n < 6: // the relay stamps a packet of some sender for me
				s := senders[rng.IntN(len(senders))]
				inFlight = append(inFlight, packet{s, r.Stamp(s, me)})
			case len(inFlight) > 0: // one packet in flight arrives, in any order, maybe twice
				k := rng.IntN(len(inFlight))
				pk := inFlight[k]
				if rng.IntN(4) != 0 {
					inFlight = append(inFlight[:k], inFlight[k+1:]...)
				}
				client.Observe(pk.sender, pk.stamp)
			}
			for _, s := range senders {
				newest, known := client.Newest(s)
				if !known {
					continue
				}
				truth, err := r.StampAt(s, me, newest.Rev)
				if errors.Is(err, ErrRevisionForgotten) {
					continue
				}
				if err != nil || truth != newest {
					t.Fatalf("seed %d step %d: client holds %v from %d, the relation then was %v (%v)",
						seed, step, newest, s, truth, err)
				}
			}
		}
		// The heartbeat: the next packet of every sender arrives.
		for _, s := range senders {
			client.Observe(s, r.Stamp(s, me))
			if client.Teammate(s) != r.Teammates(s, me) {
				t.Fatalf("seed %d: after the next packet of %d the client says teammate=%v, the server %v",
					seed, s, client.Teammate(s), r.Teammates(s, me))
			}
		}
	}
}
