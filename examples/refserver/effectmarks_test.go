package refserver

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// Rule [stream-effects]: a gamemode effect goes to the connections within its reach,
// found from the interest grid, and marks them as sent (a fire's late recipients are
// those without the mark); a new effect in a reused slot clears the marks of the old one
// from the connections it was sent to, not from every connection. Checked after every
// step of a random world of walking players, explosions and fires, and connections
// leaving and joining again: the new effect's marks are exactly the connections a walk
// over all of them finds within its reach, and every mark is on the slot's list.
func TestEffectMarksAreExactlyThoseSentTo(t *testing.T) {
	const players, side = 16, 900
	bw := newBenchWorldAt(t, Config{MaxPlayers: players, MaxVehicles: 1}, nil)
	w := bw.w
	rng := rand.New(rand.NewPCG(11, 5))
	at := func() wire.Vec3 { return wire.Vec3{X: rng.Float32()*side - side/2, Y: rng.Float32()*side - side/2} }
	marked := func(c PlayerID, slot int) bool {
		return w.vs.recips[c].join == w.players[c].joinSerial && w.vs.recips[c].effects[slot/64]&(1<<(slot%64)) != 0
	}
	reused, late := 0, 0
	for step := range 3000 {
		bw.now += 33 * time.Millisecond
		i := rng.IntN(players)
		switch op := rng.IntN(10); {
		case op < 5 && w.conn(PlayerID(i)) != nil:
			f := &bw.frames[i]
			f.Seq++
			f.Position = at()
			b, _ := f.Append(bw.bufs[i][:0])
			_ = w.Receive(bw.now, PlayerID(i), b)
		case op < 8:
			pos, radius := at(), 1+rng.Float32()*20
			var want []PlayerID
			for _, c := range w.conns {
				if w.effectReach(w.players[c], pos, radius) {
					want = append(want, c)
				}
			}
			slot := int(w.effectID) % MaxEffects
			if w.effects[slot].valid {
				reused++
			}
			var id uint16
			var err error
			if op == 7 {
				id, err = w.CreateFire(bw.now, NoPlayer, pos, radius)
			} else {
				id, err = w.CreateExplosion(bw.now, NoPlayer, 0, pos, radius)
			}
			if err != nil {
				continue // the slot's effect still live, or a lane full: nothing changed
			}
			var got []PlayerID
			for _, c := range w.conns {
				if marked(c, int(id)%MaxEffects) {
					got = append(got, c)
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("step %d: effect %d marks %v, within its reach %v", step, id, got, want)
			}
		case op == 8 && w.conn(PlayerID(i)) != nil:
			if err := w.Kick(bw.now, PlayerID(i)); err != nil {
				t.Fatal(err)
			}
		case op == 9 && w.conn(PlayerID(i)) == nil:
			w.Handle(bw.now, PlayerID(i), &wire.Hello{})
			bw.frames[i].Seq += 100
		}
		before := len(w.vs.sentTo[0])
		for s := range MaxEffects {
			before += len(w.vs.sentTo[s])
		}
		if err := w.Tick(bw.now); err != nil {
			t.Fatal(err)
		}
		bw.flush()
		after := len(w.vs.sentTo[0])
		for s := range MaxEffects {
			after += len(w.vs.sentTo[s])
			for _, c := range w.conns {
				if marked(c, s) && !slices.Contains(w.vs.sentTo[s], c) {
					t.Fatalf("step %d: connection %d marks slot %d but is not on its list", step, c, s)
				}
			}
		}
		late += after - before // a fire sent to a connection that came near
	}
	if reused == 0 || late == 0 {
		t.Fatalf("the walk never reused a slot (%d) or sent a fire late (%d)", reused, late)
	}
}

// BenchmarkCreateExplosion is a gamemode explosion (radius 10 m) at a random cluster of a
// world of 10,000 players over 6 km: its audience comes from the interest grid, and only
// the connections the reused slot's last effect went to are unmarked (before it, two
// walks over every connection an explosion).
func BenchmarkCreateExplosion(b *testing.B) {
	const n = 10000
	bw := newBenchWorldAt(b, Config{MaxPlayers: n, MaxVehicles: 1}, spread(n, streamSide))
	w := bw.w
	for range 10 {
		bw.tick(false)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	sent := w.stats.Commands
	b.ReportAllocs()
	for b.Loop() {
		bw.now += 20 * time.Millisecond // 256 slots outlast ExplosionWindow
		if _, err := w.CreateExplosion(bw.now, NoPlayer, 0, bw.pos(rng.IntN(n)), 10); err != nil {
			b.Fatal(err)
		}
		if w.stats.Commands%32 == 0 {
			b.StopTimer()
			bw.tick(false)
			b.StartTimer()
		}
	}
	if w.stats.Commands == sent {
		b.Fatal("no explosion")
	}
}
