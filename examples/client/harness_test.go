package client

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/transport"
	"github.com/arbitergo/arbiter/wire"
)

// fakeWorld answers the client's traces with what a test configured and records them.
type fakeWorld struct {
	pellets  int
	bodyPart uint8
	models   map[uint16]uint16 // vehicle -> model
	traces   []traceCall
	client   *Client // to read the body's position during the trace
}

type traceCall struct {
	self      wire.PlayerID
	shot      Shot
	pose      Pose
	bodyAt    wire.Vec3 // Client.Position() inside the call
	vehicle   VehiclePose
	inVehicle bool
}

func (w *fakeWorld) Trace(self wire.PlayerID, s Shot, p Pose) (int, uint8) {
	call := traceCall{self: self, shot: s, pose: p}
	if w.client != nil {
		call.bodyAt = w.client.Position()
		call.vehicle, _, call.inVehicle = w.client.VehicleState()
	}
	w.traces = append(w.traces, call)
	return w.pellets, w.bodyPart
}

func (w *fakeWorld) VehicleModel(v uint16) (uint16, bool) {
	m, ok := w.models[v]
	return m, ok
}

// harness connects one Client to a server-side transport.Endpoint: the test plays the
// server with hand-crafted wire messages and reads what the client sends back.
type harness struct {
	t     testing.TB
	c     *Client
	srv   *transport.Endpoint
	world *fakeWorld
	now   time.Duration
	got   []wire.Message // every message the server received, in order
	lane  []bool         // whether each message of got came on the reliable lane
	// drop, when set, loses client datagrams it returns true for.
	drop func([]byte) bool
}

const (
	selfID    wire.PlayerID = 7
	selfToken uint32        = 70
)

func newHarness(t testing.TB, cfg Config) *harness {
	t.Helper()
	w := &fakeWorld{bodyPart: wire.BodyTorso, models: map[uint16]uint16{}}
	if cfg.World == nil {
		cfg.World = w
	}
	c, err := New(cfg)
	require.NoError(t, err)
	w.client = c
	srv, err := transport.New(transport.Server)
	require.NoError(t, err)
	return &harness{t: t, c: c, srv: srv, world: w}
}

// at moves the harness clock forward to d.
func (h *harness) at(d time.Duration) { h.t.Helper(); require.GreaterOrEqual(h.t, d, h.now); h.now = d }

// copyMsg returns a copy of a decoded message (the transport reuses its decoder).
func copyMsg(t testing.TB, m wire.Message) wire.Message {
	b, err := m.Append(nil)
	require.NoError(t, err)
	cp := wire.New(m.ID())
	require.NoError(t, cp.Decode(b))
	return cp
}

// enqueue puts server messages on their stream without delivering them.
func (h *harness) enqueue(msgs ...wire.Message) {
	h.t.Helper()
	for _, m := range msgs {
		if m.ID().Delivery() == wire.Unreliable {
			require.NoError(h.t, h.srv.Send(m))
		} else {
			_, err := h.srv.Queue(h.now, m)
			require.NoError(h.t, err)
		}
	}
}

// serverDatagrams flushes the server endpoint and returns copies of its datagrams.
func (h *harness) serverDatagrams() [][]byte {
	var out [][]byte
	require.NoError(h.t, h.srv.Flush(h.now, func(d []byte) { out = append(out, append([]byte(nil), d...)) }))
	return out
}

// send delivers server messages to the client (unreliable ones as datagrams of their own,
// reliable ones on the lane), in order.
func (h *harness) send(msgs ...wire.Message) {
	h.t.Helper()
	h.enqueue(msgs...)
	for _, d := range h.serverDatagrams() {
		require.NoError(h.t, h.c.Receive(h.now, d))
	}
}

// tick runs the client's timers.
func (h *harness) tick() { h.t.Helper(); require.NoError(h.t, h.c.Tick(h.now)) }

// flush carries what the client sends to the server and returns copies of the messages.
func (h *harness) flush() []wire.Message {
	h.t.Helper()
	var out []wire.Message
	require.NoError(h.t, h.c.Flush(h.now, func(d []byte) {
		if h.drop != nil && h.drop(d) {
			return
		}
		onLane := laneDatagram(d)
		_ = h.srv.Receive(h.now, d, func(m wire.Message) {
			out = append(out, copyMsg(h.t, m))
			h.lane = append(h.lane, onLane)
		})
	}))
	h.got = append(h.got, out...)
	return out
}

// step ticks and flushes.
func (h *harness) step() []wire.Message { h.t.Helper(); h.tick(); return h.flush() }

// run advances the clock to until in steps of dt, ticking and flushing, and returns what
// the server received.
func (h *harness) run(until, dt time.Duration) []wire.Message {
	h.t.Helper()
	var out []wire.Message
	for h.now+dt <= until {
		h.at(h.now + dt)
		out = append(out, h.step()...)
	}
	if h.now < until {
		h.at(until)
		out = append(out, h.step()...)
	}
	return out
}

// spawnAt is where join revives the client.
var spawnAt = wire.Vec3{X: 10, Y: 20, Z: 3}

// join welcomes the client and spawns it in life 1, past its settle time.
func (h *harness) join() {
	h.t.Helper()
	h.step() // Hello
	h.send(&wire.Welcome{Player: selfID, PlayerToken: selfToken, Session: h.c.Session()})
	h.step() // RespawnRequest{0}
	h.send(&wire.RespawnPlayer{DeathEpoch: 1, Position: spawnAt})
	h.step() // the first living frame
	require.True(h.t, h.c.Alive())
	h.run(h.now+h.c.cfg.SpawnSettle, 10*time.Millisecond)
}

// of returns the received messages of type T.
func of[T wire.Message](msgs []wire.Message) []T {
	var out []T
	for _, m := range msgs {
		if v, ok := m.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// lastFrame returns the newest frame the server received.
func (h *harness) lastFrame() *wire.PlayerSync {
	h.t.Helper()
	fs := of[*wire.PlayerSync](h.got)
	require.NotEmpty(h.t, fs)
	return fs[len(fs)-1]
}

// frameNow forces a frame now and returns it.
func (h *harness) frameNow() *wire.PlayerSync {
	h.t.Helper()
	h.at(h.now + transport.FrameInterval)
	fs := of[*wire.PlayerSync](h.step())
	require.Len(h.t, fs, 1)
	return fs[0]
}

// flushDeath carries what the client sent at its death and, once DeathReportDelay has
// passed, its DeathReport and first RespawnRequest; frames are left out.
func (h *harness) flushDeath() []wire.Message {
	h.t.Helper()
	got := h.flush()
	require.Empty(h.t, of[*wire.DeathReport](got), "the DeathReport waits DeathReportDelay")
	got = append(got, h.run(h.now+DeathReportDelay, 10*time.Millisecond)...)
	out := got[:0]
	for _, m := range got {
		if id := m.ID(); id != wire.IDPlayerSync && id != wire.IDVehicleSync {
			out = append(out, m)
		}
	}
	return out
}

// ids returns the ids of msgs, for order checks.
func ids(msgs []wire.Message) []wire.ID {
	out := make([]wire.ID, len(msgs))
	for i, m := range msgs {
		out[i] = m.ID()
	}
	return out
}

func laneDatagram(d []byte) bool {
	id, err := wire.Peek(d)
	return err == nil && id.Transport()
}

// shotAt is a relayed shot of shooter that the world will trace.
func shotAt(shooter wire.PlayerID, seq uint16, weapon uint8, stamp wire.Stamp) *wire.RemoteWeaponShot {
	return &wire.RemoteWeaponShot{Shooter: shooter, ShotSeq: seq, Weapon: weapon, HitType: wire.HitPlayer,
		HitID: uint16(selfID), Stamp: stamp, Origin: wire.Vec3{X: 0, Y: 20, Z: 3}, HitPos: spawnAt}
}

func giveGun(h *harness, rev uint16, weapon uint8, ammo uint16) {
	h.t.Helper()
	h.send(&wire.GiveWeapon{Rev: rev, Weapon: weapon, Ammo: ammo, SetAsCurrent: true})
}
