package refserver

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/wire"
	"github.com/arbitergo/arbiter/wire/lane"
)

// Rule [stream-hide-owed]: a show that goes out while a hide of the same id is owed (the
// lane drained between two Ticks, and the gamemode moved the vehicle next to the
// connection) cancels the debt: the hide would otherwise follow the show and drop the
// copy the client was just given.
func TestOwedVehicleHideIsCancelledByAShowBeforeTheNextTick(t *testing.T) {
	bw := newBenchWorldAt(t, Config{MaxPlayers: 2, MaxVehicles: 2}, nil)
	w := bw.w
	p := w.players[0]
	step := func() { bw.now += 33 * time.Millisecond }
	here := bw.frames[0].Position
	if err := w.CreateVehicle(bw.now, 1, 560, wire.Vec3{X: here.X + 50, Y: here.Y}, wire.Quat{W: 1}); err != nil {
		t.Fatal(err)
	}
	bw.flush()
	if !w.SeesVehicle(0, 1) {
		t.Fatal("the car created 50 m away is shown")
	}
	// Fill player 0's lane to its soft cap: its client acknowledges nothing meanwhile.
	for {
		err := w.SetArmedWeapon(bw.now, 0, inventory.Fists)
		if errors.Is(err, lane.ErrSoftCap) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// Walk 400 m away: its evaluation hides the car (and player 1), and the lane refuses
	// the hides.
	owed := w.stats.HidesOwed
	f := &bw.frames[0]
	f.Position.X += 400
	for range 10 {
		step()
		f.Seq++
		b, _ := f.Append(bw.bufs[0][:0])
		_ = w.Receive(bw.now, 0, b)
		if err := w.Tick(bw.now); err != nil {
			t.Fatal(err)
		}
		_ = w.Flush(bw.now, func(PlayerID, []byte) {})
	}
	want := []owedHide{{id: 1, token: p1token(w)}, {id: 1, vehicle: true}}
	if w.SeesVehicle(0, 1) || !slices.Equal(owedOf(w, p), want) || w.stats.HidesOwed != owed+2 {
		t.Fatalf("sees %v, owed %v (%d refused)", w.SeesVehicle(0, 1), owedOf(w, p), w.stats.HidesOwed-owed)
	}
	// The client acknowledges everything (Flushes, no Tick): the lane drains.
	for range 30 {
		step()
		bw.flush()
	}
	if q := p.ep.Lane().Stats().Queued; q >= ShowBacklogRoom {
		t.Fatalf("%d still queued", q)
	}
	if len(owedOf(w, p)) != 2 {
		t.Fatal("only a Tick pays a debt")
	}
	if err := w.MoveVehicle(bw.now, 1, wire.Vec3{X: f.Position.X + 10, Y: f.Position.Y}, wire.Quat{W: 1}); err != nil {
		t.Fatal(err)
	}
	if !w.SeesVehicle(0, 1) {
		t.Fatal("moved next to it: shown at once")
	}
	if !slices.Equal(owedOf(w, p), want[:1]) {
		t.Fatalf("the show left the car's hide owed: %v", owedOf(w, p))
	}
	if err := w.Tick(bw.now); err != nil {
		t.Fatal(err)
	}
	if !w.SeesVehicle(0, 1) || len(owedOf(w, p)) != 0 || len(w.debtors) != 0 {
		t.Fatalf("sees %v, owed %v, debtors %v", w.SeesVehicle(0, 1), owedOf(w, p), w.debtors)
	}
}

func p1token(w *World) uint32 { return uint32(w.players[1].handle.Token) }

// Rule [stream-hide-owed]: a vehicle respawned while a lane has room for commands but not
// for its new show ([stream-vehicle-show]) is hidden there, so that client drops the
// wreck; its next evaluation with room shows it repaired.
func TestRespawnedVehicleWithoutRoomForItsShowIsHidden(t *testing.T) {
	bw := newBenchWorldAt(t, Config{MaxPlayers: 2, MaxVehicles: 2}, nil)
	w := bw.w
	p := w.players[0]
	here := bw.frames[0].Position
	at := wire.Vec3{X: here.X + 50, Y: here.Y}
	if err := w.CreateVehicle(bw.now, 1, 560, at, wire.Quat{W: 1}); err != nil {
		t.Fatal(err)
	}
	bw.flush()
	for p.ep.Lane().Stats().Queued < ShowBacklogRoom+10 {
		if err := w.SetArmedWeapon(bw.now, 0, inventory.Fists); err != nil {
			t.Fatal(err)
		}
	}
	before := p.ep.Lane().Stats().Queued
	if err := w.RespawnVehicle(bw.now, 1, at, wire.Quat{W: 1}); err != nil {
		t.Fatal(err)
	}
	if w.SeesVehicle(0, 1) {
		t.Fatal("no room for the show: hidden")
	}
	if q := p.ep.Lane().Stats().Queued; q != before+2 || len(owedOf(w, p)) != 0 {
		t.Fatalf("queued %d (want the pose and the hide, %d), owed %v", q, before+2, owedOf(w, p))
	}
	for range 30 {
		bw.now += 33 * time.Millisecond
		bw.flush()
		if err := w.Tick(bw.now); err != nil {
			t.Fatal(err)
		}
	}
	if !w.SeesVehicle(0, 1) {
		t.Fatal("shown again once the lane drained")
	}
}

// owedOf is the hides p is owed, nil when none.
func owedOf(w *World, p *player) []owedHide {
	if d := w.debtOf(p); d != nil {
		return d.hides
	}
	return nil
}
