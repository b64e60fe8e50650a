package teams

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// fullWorld is a full server: MaxPlayers players in 20 teams, half of them with friendly
// fire on, the same in the registry and in the naive reference.
func fullWorld(b *testing.B) (*Registry, *reference) {
	b.Helper()
	r, m := New(), newReference(nil)
	for t := TeamID(1); t <= 20; t++ {
		def := Team{Name: fmt.Sprintf("team %d", t), FriendlyFire: t%2 == 0}
		if err := r.CreateTeam(t, def); err != nil {
			b.Fatal(err)
		}
		m.teams[t] = def
	}
	for p := range PlayerID(MaxPlayers) {
		team := TeamID(p % 21) // 0: no team
		if err := r.Connect(p); err != nil {
			b.Fatal(err)
		}
		m.member[p] = team
		if team != NoTeam {
			if _, err := r.JoinTeam(p, team); err != nil {
				b.Fatal(err)
			}
		}
	}
	return r, m
}

// pairs are random (sender, recipient) pairs, so the stamp is not measured on one hot
// cache line.
func pairs() [][2]PlayerID {
	rng := rand.New(rand.NewPCG(1, 2))
	ps := make([][2]PlayerID, 4096)
	for i := range ps {
		ps[i] = [2]PlayerID{PlayerID(rng.IntN(MaxPlayers)), PlayerID(rng.IntN(MaxPlayers))}
	}
	return ps
}

// BenchmarkStamp is the stamp of one relayed packet for one recipient.
func BenchmarkStamp(b *testing.B) {
	r, _ := fullWorld(b)
	ps := pairs()
	var n int
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		p := ps[i&4095]
		if r.Stamp(p[0], p[1]).Teammate {
			n++
		}
		i++
	}
	sinkInt = n
}

// BenchmarkStampNaive computes the same relation from scratch, from the team definitions
// and the membership in maps.
func BenchmarkStampNaive(b *testing.B) {
	_, m := fullWorld(b)
	ps := pairs()
	var n int
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		p := ps[i&4095]
		if (Stamp{Teammate: m.teammates(p[0], p[1]), Rev: uint16(m.rev)}).Teammate {
			n++
		}
		i++
	}
	sinkInt = n
}

// BenchmarkStampFanOut stamps one frame for every other player of a full server, as the
// relay does for each frame; ns/stamp is the cost per recipient.
func BenchmarkStampFanOut(b *testing.B) {
	r, _ := fullWorld(b)
	stamps := make([]Stamp, MaxPlayers)
	sender := PlayerID(0)
	b.ReportAllocs()
	for b.Loop() {
		for rc := range PlayerID(MaxPlayers) {
			stamps[rc] = r.Stamp(sender, rc)
		}
		sender = (sender + 1) % MaxPlayers
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/MaxPlayers, "ns/stamp")
}

// BenchmarkStampFanOutNaive is the fan-out with the naive reference.
func BenchmarkStampFanOutNaive(b *testing.B) {
	_, m := fullWorld(b)
	stamps := make([]Stamp, MaxPlayers)
	sender := PlayerID(0)
	b.ReportAllocs()
	for b.Loop() {
		for rc := range PlayerID(MaxPlayers) {
			stamps[rc] = Stamp{Teammate: m.teammates(sender, rc), Rev: uint16(m.rev)}
		}
		sender = (sender + 1) % MaxPlayers
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/MaxPlayers, "ns/stamp")
}

// BenchmarkTrackerObserveAndJudge is the client's work per packet: take its stamp, judge
// a hit by the newest.
func BenchmarkTrackerObserveAndJudge(b *testing.B) {
	var tr Tracker
	var n int
	rev := uint16(0)
	b.ReportAllocs()
	for b.Loop() {
		sender := PlayerID(rev % 64)
		tr.Observe(sender, Stamp{Teammate: rev&4 != 0, Rev: rev})
		if tr.JudgeHit(Hit{Attacker: sender}) == HitRefusedTeammate {
			n++
		}
		rev++
	}
	sinkInt = n
}

// BenchmarkJudgeReport judges a stamped report, rebuilding the shot's stamp with StampAt.
func BenchmarkJudgeReport(b *testing.B) {
	r, _ := fullWorld(b)
	ps := pairs()
	shot := Action{Stamped: true, Rev: r.Rev() - 3}
	var n int
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		p := ps[i&4095]
		if v, _ := r.JudgeReport(p[0], p[1], shot); v.Credited() {
			n++
		}
		i++
	}
	sinkInt = n
}

// BenchmarkJudgeExplosion judges a full bus exploding.
func BenchmarkJudgeExplosion(b *testing.B) {
	r, _ := fullWorld(b)
	seats := make([]Seat, MaxOccupants)
	for i := range seats {
		seats[i] = Seat{Player: PlayerID(i * 7), LastAttacker: PlayerID(i*11 + 1)}
	}
	dst := make([]Fate, 0, MaxOccupants)
	b.ReportAllocs()
	for b.Loop() {
		dst, _ = r.JudgeExplosion(21, seats, dst[:0])
	}
}

// BenchmarkSetFriendlyFireFullTeam toggles friendly fire of a team of MaxPlayers members:
// not a hot path, measured to show a large change stays cheap.
func BenchmarkSetFriendlyFireFullTeam(b *testing.B) {
	r := New()
	if err := r.CreateTeam(1, Team{Name: "all"}); err != nil {
		b.Fatal(err)
	}
	for p := range PlayerID(MaxPlayers) {
		_ = r.Connect(p)
		_, _ = r.JoinTeam(p, 1)
	}
	on := true
	b.ReportAllocs()
	for b.Loop() {
		_, _ = r.SetFriendlyFire(1, on)
		on = !on
	}
}

var sinkInt int
