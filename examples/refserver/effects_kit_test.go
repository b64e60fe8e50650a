package refserver_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/simkit"
	"github.com/arbitergo/arbiter/wire"
)

// Rule [stream-effects]: a gamemode effect goes to the connections within the stream
// distance plus its margin plus its radius of it, and nobody else.
func TestStreamEffectsGoOnlyToConnectionsWithinReach(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 3)
	a, b, c := s[0], s[1], s[2]
	parkBystanders(t, k)
	b.walkTo(wire.Vec3{X: 229})  // 200 + 20 + 10 of the explosion's radius from x = 0
	c.walkTo(wire.Vec3{X: 1000}) // far beyond
	tick(t, k)
	for _, x := range s {
		x.r.Clear()
	}
	id, err := w.CreateExplosion(k.Now(), a.r.ID(), 2, wire.Vec3{}, 10)
	require.NoError(t, err)
	tick(t, k)
	require.Len(t, receivedOf[*wire.CreateExplosion](a.r), 1)
	ex := receivedOf[*wire.CreateExplosion](b.r)
	require.Len(t, ex, 1, "within distance, margin and radius")
	require.Equal(t, id, ex[0].Effect)
	require.Empty(t, receivedOf[*wire.CreateExplosion](c.r), "out of reach")
	// Its correlation is the same as ever for a recipient that got it.
	b.r.Clear()
	b.walkTo(wire.Vec3{X: 5})
	require.Equal(t, refserver.VerdictAccepted, b.hit(a.r.ID(), explosionCause, wire.Ref{Kind: wire.RefEffect, Seq: id}, 30))
	tick(t, k)
	d := eventsOf(k, refserver.EventPlayerDamage, b.r.ID())
	require.Len(t, d, 1)
	require.Equal(t, a.r.ID(), d[0].Other)
}

// Rule [stream-effects]: only the lanes an effect goes to must have room; a full lane out
// of reach refuses nothing, one within reach refuses the effect for all.
func TestStreamEffectsCheckOnlyTheLanesTheyGoTo(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 3)
	a, b, c := s[0], s[1], s[2]
	parkBystanders(t, k)
	c.walkTo(wire.Vec3{X: 1000})
	tick(t, k)
	c.r.SetSilent(true)
	var err error
	for err == nil {
		err = w.SetArmedWeapon(k.Now(), c.r.ID(), 0)
	}
	require.ErrorIs(t, err, refserver.ErrLaneFull)
	a.r.Clear()
	_, err = w.CreateFire(k.Now(), refserver.NoPlayer, wire.Vec3{X: 10}, 3)
	require.NoError(t, err, "c's full lane is out of the fire's reach")
	_, err = w.CreateExplosion(k.Now(), refserver.NoPlayer, 0, wire.Vec3{X: 990}, 5)
	require.ErrorIs(t, err, refserver.ErrLaneFull, "within c's reach")
	tick(t, k)
	require.Len(t, receivedOf[*wire.CreateFire](a.r), 1)
	require.Len(t, receivedOf[*wire.CreateFire](b.r), 1)
	require.Empty(t, receivedOf[*wire.CreateExplosion](a.r), "the refused explosion went nowhere")
}

// Rule [stream-effects]: a fire still burning is sent to a connection that comes within
// its reach later, once, with the same effect id; its reports are credited as anyone's.
// A burnt-out fire is not.
func TestStreamLiveFireIsSentOnArrival(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 3)
	a, c := s[0], s[2]
	parkBystanders(t, k)
	c.walkTo(wire.Vec3{X: 1000})
	tick(t, k)
	id, err := w.CreateFire(k.Now(), a.r.ID(), wire.Vec3{X: 10}, 3)
	require.NoError(t, err)
	tick(t, k)
	require.Empty(t, receivedOf[*wire.CreateFire](c.r))
	c.walkTo(wire.Vec3{X: 300})
	evaluate(t, k)
	require.Empty(t, receivedOf[*wire.CreateFire](c.r), "still beyond 200 + 20 + 3 m")
	c.walkTo(wire.Vec3{X: 10})
	evaluate(t, k)
	evaluate(t, k)
	fires := receivedOf[*wire.CreateFire](c.r)
	require.Len(t, fires, 1, "sent once on arrival")
	require.Equal(t, id, fires[0].Effect)
	require.Equal(t, a.r.ID(), fires[0].Creator)
	require.Equal(t, refserver.VerdictAccepted, c.hit(a.r.ID(), 37, wire.Ref{Kind: wire.RefEffect, Seq: id}, 5))
	tick(t, k)
	d := eventsOf(k, refserver.EventPlayerDamage, c.r.ID())
	require.Len(t, d, 1)
	require.Equal(t, a.r.ID(), d[0].Other, "credited to the creator")
	// Burnt out: a connection arriving later gets nothing.
	c.walkTo(wire.Vec3{X: 1000})
	evaluate(t, k)
	require.NoError(t, k.Advance(refserver.FireLifetime))
	c.r.Clear()
	c.walkTo(wire.Vec3{X: 10})
	evaluate(t, k)
	require.Empty(t, receivedOf[*wire.CreateFire](c.r))
}

// Rule [stream-effects]: every CreateFire says how long its fire has burned when it is
// sent: 0 to the connections within reach when it is lit, the time since then (in whole
// milliseconds) to one that comes within reach later.
func TestStreamLateFireCarriesItsAge(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{}, 3)
	a, c := s[0], s[2]
	parkBystanders(t, k)
	c.walkTo(wire.Vec3{X: 1000})
	tick(t, k)
	lit := k.Now()
	id, err := w.CreateFire(lit, a.r.ID(), wire.Vec3{X: 10}, 3)
	require.NoError(t, err)
	tick(t, k)
	early := receivedOf[*wire.CreateFire](a.r)
	require.Len(t, early, 1)
	require.Equal(t, wire.CreateFire{Effect: id, Creator: a.r.ID(), Position: wire.Vec3{X: 10}, Radius: 3,
		Age: 0, Stamp: early[0].Stamp}, *early[0], "lit now: nothing of it burned yet")
	require.NoError(t, k.Advance(4*time.Second+7*time.Millisecond))
	c.walkTo(wire.Vec3{X: 10})
	from := k.Now()
	evaluate(t, k)
	to := k.Now()
	late := receivedOf[*wire.CreateFire](c.r)
	require.Len(t, late, 1)
	age := time.Duration(late[0].Age) * time.Millisecond
	require.GreaterOrEqual(t, age, from-lit, "sent after c came within reach")
	require.LessOrEqual(t, age, to-lit, "sent before the evaluation ended")
	require.Less(t, age, refserver.FireLifetime)
	late[0].Age = 0
	require.Equal(t, *early[0], *late[0], "the same fire otherwise")
}

// Rule [stream-effects]: a player who comes near a burning fire late gets it with its age,
// and its honest client puts the fire out at the same moment as the client of a player who
// stood there when it was lit (the honest client burns what is left); every report either
// makes of its damage reaches the server within the fire's window and is credited to
// its creator, and nobody honest is wronged.
func TestStreamLateFireGoesOutWithTheEarlyOnes(t *testing.T) {
	k := simkit.New(simkit.Config{Seed: 1})
	link := simkit.Link{RTT: 100 * time.Millisecond}
	var ps [3]*simkit.Player
	for i, name := range []string{"creator", "early", "late"} {
		p, err := k.Join(name, link)
		require.NoError(t, err)
		ps[i] = p
	}
	creator, early, late := ps[0], ps[1], ps[2]
	require.NoError(t, k.Start())
	at := early.Position()
	require.NoError(t, late.MoveTo(wire.Vec3{X: at.X + 1000, Y: at.Y, Z: at.Z}))
	require.NoError(t, k.Advance(time.Second))
	w := k.Server()
	lit := k.Now()
	id, err := w.CreateFire(lit, creator.ID(), at, 3)
	require.NoError(t, err)
	require.NoError(t, k.Advance(4*time.Second))
	require.NoError(t, late.MoveTo(at))
	// Both stand in the fire; the world burns each every 100 ms for as long as its game
	// has the fire.
	var last [2]time.Duration
	ticks := [2]int{}
	for k.Now() < lit+refserver.FireLifetime+4*time.Second {
		require.NoError(t, k.Advance(100*time.Millisecond))
		for i, p := range []*simkit.Player{early, late} {
			if _, err := p.Client().InFire(k.Now(), id, 0.5); err == nil {
				last[i] = k.Now()
				ticks[i]++
			} else {
				require.ErrorIs(t, err, client.ErrUnknownEffect)
			}
		}
	}
	require.Positive(t, ticks[1], "the late client got the fire")
	require.Equal(t, last[0], last[1], "the late client's fire goes out with the early one's")
	require.LessOrEqual(t, last[1], lit+refserver.FireLifetime+link.RTT)
	require.NoError(t, k.Advance(2*time.Second))
	for _, p := range []*simkit.Player{early, late} {
		d := 0
		for _, e := range k.EventsOf(refserver.EventPlayerDamage) {
			if e.Player == p.ID() {
				require.Equal(t, creator.ID(), e.Other, "credited to the creator")
				d++
			}
		}
		require.Positive(t, d, "%s's fire damage was reported", p.Name())
		for _, kind := range []refserver.EventKind{refserver.EventReportUnattributed, refserver.EventReportNotCredited} {
			for _, e := range k.EventsOf(kind) {
				require.NotEqual(t, p.ID(), e.Player, "%s: %v", p.Name(), e)
			}
		}
	}
	report, err := k.Report()
	require.NoError(t, err)
	require.Zero(t, report.HonestWronged)
}

// Rule [stream-effects]: StreamConfig.Everyone sends every effect to every connection.
func TestStreamEffectsGoEverywhereWithoutStreaming(t *testing.T) {
	k, w, s := streamKit(t, refserver.Config{Stream: refserver.StreamConfig{Everyone: true}}, 2)
	s[1].walkTo(wire.Vec3{X: 3000})
	tick(t, k)
	_, err := w.CreateExplosion(k.Now(), refserver.NoPlayer, 0, wire.Vec3{}, 5)
	require.NoError(t, err)
	tick(t, k)
	require.Len(t, receivedOf[*wire.CreateExplosion](s[1].r), 1)
}
