package refserver

import (
	"testing"
	"time"

	"github.com/arbitergo/arbiter/wire"
)

// Rule [stream-reports]: the visibility log answers whether a connection had a subject
// shown at some moment of an interval, from the changes it kept, and gives the benefit of
// the doubt when it lost changes made within the interval.
func TestVisibilityLogAnswersFromTheChangesItKept(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	var l visLog
	l.add(visPlayer(7), ms(100), true)  // shown at 100
	l.add(visPlayer(7), ms(200), false) // hidden at 200
	l.add(visPlayer(7), ms(300), true)  // shown again at 300
	for _, c := range []struct {
		name     string
		from, to time.Duration
		seesNow  bool
		want     bool
	}{
		{"before its first show", ms(10), ms(50), true, false},
		{"while shown", ms(150), ms(160), true, true},
		{"while hidden", ms(210), ms(290), true, false},
		{"shown again within the interval", ms(250), ms(300), true, true},
		{"an instant of a hide counts as shown", ms(200), ms(200), true, true},
		{"an instant of a show counts as shown", ms(100), ms(100), true, true},
		{"after the last show", ms(400), ms(500), true, true},
	} {
		if got := l.sawDuring(visPlayer(7), c.from, c.to, c.seesNow); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// A subject with no change kept has been as it is now.
	if l.sawDuring(visPlayer(8), 0, ms(500), false) || !l.sawDuring(visPlayer(8), 0, ms(500), true) {
		t.Error("no change of 8: its state now")
	}
	// Other subjects' changes push 7's out: what 7 was is still told, from the oldest
	// change kept, while that is older than the interval.
	for i := range VisibilityLog {
		l.add(visPlayer(PlayerID(20+i)), ms(400+i), i%2 == 0)
	}
	if l.n != VisibilityLog+3 {
		t.Fatalf("n %d", l.n)
	}
	if !l.sawDuring(visPlayer(7), ms(1000), ms(1100), true) || l.sawDuring(visPlayer(7), ms(1000), ms(1100), false) {
		t.Error("7's changes fell out before the interval: its state now")
	}
	// An interval that starts before the oldest change kept: changes within it may have
	// been lost, so it is given the benefit of the doubt, even for a subject never shown.
	if !l.sawDuring(visPlayer(9), ms(250), ms(260), false) {
		t.Error("lost changes within the interval: the benefit of the doubt")
	}
	// Past what its milliseconds count (49 days after the join): the benefit of the doubt.
	day := 24 * time.Hour
	if l.sawDuring(visPlayer(9), ms(2000), ms(2100), false) || !l.sawDuring(visPlayer(9), 50*day, 50*day+time.Second, false) {
		t.Error("49 days and more: the benefit of the doubt, and only then")
	}
}

// Rule [stream-reports] (a vehicle gun's shot): the log keeps vehicles' shows and hides
// apart from players' of the same number: vehicle 7 hidden says nothing of player 7.
func TestVisibilityLogKeepsVehiclesApartFromPlayers(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	var l visLog
	l.add(visPlayer(7), ms(100), true)   // player 7 shown at 100
	l.add(visVehicle(7), ms(150), true)  // vehicle 7 shown at 150
	l.add(visVehicle(7), ms(200), false) // vehicle 7 hidden at 200
	if !l.sawDuring(visPlayer(7), ms(300), ms(400), true) {
		t.Error("player 7 shown since 100: a vehicle's hide of the same number changed it")
	}
	if l.sawDuring(visVehicle(7), ms(300), ms(400), false) {
		t.Error("vehicle 7 hidden since 200")
	}
	if l.sawDuring(visVehicle(7), ms(10), ms(120), false) {
		t.Error("vehicle 7 was hidden before its show at 150")
	}
	if !l.sawDuring(visVehicle(7), ms(160), ms(170), false) {
		t.Error("vehicle 7 was shown from 150 to 200")
	}
	if l.sawDuring(visPlayer(7), ms(10), ms(50), true) {
		t.Error("player 7 was hidden before its show at 100")
	}
}

// Rule [stream-reports]: a connection's log records changes only. A vehicle shown anew to
// a connection that has it shown (a respawn, [stream-vehicle-left]) is no change: logged
// as a show, it would read, once the vehicle's first show has left the log, as if the
// vehicle had been hidden before it, and refuse reports of shots the client was sent.
func TestVisibilityLogRecordsAVehicleShownAnewAsNoChange(t *testing.T) {
	bw := newBenchWorldAt(t, Config{MaxPlayers: 2, MaxVehicles: 2}, nil)
	w := bw.w
	p := w.players[0]
	here := bw.frames[0].Position
	if err := w.CreateVehicle(bw.now, 1, 560, wire.Vec3{X: here.X + 50, Y: here.Y}, wire.Quat{W: 1}); err != nil {
		t.Fatal(err)
	}
	bw.flush()
	n := p.vis.n
	if !w.SeesVehicle(0, 1) || n == 0 || !p.vis.is((n-1)%VisibilityLog, visVehicle(1)) || p.vis.show&(1<<((n-1)%VisibilityLog)) == 0 {
		t.Fatalf("the car created 50 m away is shown, and its show is the log's last change (%d changes)", n)
	}
	bw.now += 33 * time.Millisecond
	if err := w.RespawnVehicle(bw.now, 1, wire.Vec3{X: here.X + 60, Y: here.Y}, wire.Quat{W: 1}); err != nil {
		t.Fatal(err)
	}
	bw.flush()
	if !w.SeesVehicle(0, 1) || p.vis.n != n {
		t.Fatalf("respawned near: shown anew (%v), no change logged (%d changes, %d before)", w.SeesVehicle(0, 1), p.vis.n, n)
	}
	bw.now += 33 * time.Millisecond
	if err := w.RespawnVehicle(bw.now, 1, wire.Vec3{X: here.X + 1000, Y: here.Y}, wire.Quat{W: 1}); err != nil {
		t.Fatal(err)
	}
	bw.flush()
	if w.SeesVehicle(0, 1) || p.vis.n != n+1 || p.vis.show&(1<<(n%VisibilityLog)) != 0 {
		t.Fatalf("respawned far: hidden (%v), the hide logged (%d changes, %d before)", !w.SeesVehicle(0, 1), p.vis.n, n)
	}
}
