package replay

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash"
	"hash/fnv"
	"io"
	"reflect"
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// Verb is a gamemode verb of the World's facade, as a record names it.
type Verb uint8

// The recorded verbs: every facade method that changes the World.
const (
	VerbSetHealth Verb = 1 + iota
	VerbSetArmor
	VerbAddHealth
	VerbAddArmor
	VerbSetDamageMultipliers
	VerbGiveWeapon
	VerbTakeWeapon
	VerbSetWeaponAmmo
	VerbClearWeapons
	VerbSetArmedWeapon
	VerbSetWeaponSkill
	VerbSetWeaponProperties
	VerbCreateTeam
	VerbChangeTeam
	VerbRemoveTeam
	VerbSetFriendlyFire
	VerbJoinTeam
	VerbLeaveTeam
	VerbDecideRespawn
	VerbSetSpawnPoint
	VerbCreateExplosion
	VerbCreateFire
	VerbCreateVehicle
	VerbMoveVehicle
	VerbRespawnVehicle
	VerbFreezeVehicle
	VerbSetPlayerPosition
	verbCount
)

// Recorder wraps a World: a host (or a gamemode) calls the Recorder instead of the World,
// and every input is written to the record file before it is applied, and every output
// (each call's result, each drained event, each flushed datagram) is folded into the
// running hashes stored at every Flush record. The World's read-only methods (Connected,
// Vitals, Phase, ...) are the embedded World's own.
//
// A Recorder with a nil writer records and hashes nothing: it only forwards, so that a
// host can hold a Recorder whether it records or not. The World itself carries no
// recording code: its hot paths are the same with or without a Recorder.
//
// What the Recorder does not see it cannot replay: a gamemode that holds the *World
// itself and calls it directly (give a Lua gamemode, examples/luamode, the Recorder as
// its World), or a change through World.Teams()'s registry, makes the replay diverge at
// the next Flush.
type Recorder struct {
	*refserver.World

	out *bufio.Writer
	err error
	h   hashes
	on  bool   // hashing: recording, or replaying
	rec []byte // one record's encoding, reused
	a   args
}

// hashes are the three running hashes a Flush record carries and the totals of outputs.
type hashes struct {
	results, events, datagrams hash.Hash64
	nEvents, nDatagrams        uint64
	scratch                    []byte
}

func newHashes() hashes {
	return hashes{results: fnv.New64a(), events: fnv.New64a(), datagrams: fnv.New64a()}
}

// result folds a call's result into the results hash.
func (h *hashes) result(kind Kind, n int64, err error) {
	if h.results == nil {
		return
	}
	h.scratch = append(h.scratch[:0], byte(kind))
	h.scratch = binary.LittleEndian.AppendUint64(h.scratch, uint64(n))
	if err != nil {
		h.scratch = append(h.scratch, err.Error()...)
	}
	h.scratch = append(h.scratch, 0)
	_, _ = h.results.Write(h.scratch)
}

func (h *hashes) event(e *refserver.Event) {
	h.nEvents++
	_, _ = io.WriteString(h.events, e.String())
	_, _ = h.events.Write([]byte{'\n'})
}

func (h *hashes) datagram(conn refserver.PlayerID, d []byte) {
	h.nDatagrams++
	h.scratch = binary.LittleEndian.AppendUint16(h.scratch[:0], uint16(conn))
	h.scratch = binary.LittleEndian.AppendUint32(h.scratch, uint32(len(d)))
	_, _ = h.datagrams.Write(h.scratch)
	_, _ = h.datagrams.Write(d)
}

// Checkpoint is what a Flush record stores: the running hashes and totals after it.
type Checkpoint struct {
	Results, Events, Datagrams uint64
	NEvents, NDatagrams        uint64
}

func (h *hashes) checkpoint() Checkpoint {
	return Checkpoint{h.results.Sum64(), h.events.Sum64(), h.datagrams.Sum64(), h.nEvents, h.nDatagrams}
}

// NewRecorder returns a Recorder of w that writes to out (nil: record nothing). w must
// be fresh (nothing called on it yet): the replay rebuilds it from its Config. The
// header is written at once.
func NewRecorder(w *refserver.World, out io.Writer) (*Recorder, error) {
	r := &Recorder{World: w}
	if out == nil {
		return r, nil
	}
	cfg, err := json.Marshal(w.Config())
	if err != nil {
		return nil, fmt.Errorf("replay: config: %w", err)
	}
	r.out, r.on, r.h = bufio.NewWriterSize(out, 64<<10), true, newHashes()
	hdr := append([]byte(Magic), 0, 0, 0, 0, 0, 0)
	binary.LittleEndian.PutUint16(hdr[len(Magic):], Version)
	binary.LittleEndian.PutUint32(hdr[len(Magic)+2:], uint32(len(cfg)))
	r.write(append(hdr, cfg...))
	return r, r.err
}

// Err returns the first error writing the record file.
func (r *Recorder) Err() error { return r.err }

// Close writes out what is buffered and returns the first write error. It does not
// close the writer.
func (r *Recorder) Close() error {
	if r.out != nil && r.err == nil {
		r.err = r.out.Flush()
	}
	return r.err
}

// Checkpoint returns the running hashes and totals now (zero when not recording).
func (r *Recorder) Checkpoint() Checkpoint {
	if !r.on {
		return Checkpoint{}
	}
	return r.h.checkpoint()
}

func (r *Recorder) write(b []byte) {
	if r.out == nil || r.err != nil {
		return
	}
	_, r.err = r.out.Write(b)
}

// begin starts a record of kind at now in r.rec.
func (r *Recorder) begin(kind Kind, now time.Duration) {
	r.rec = append(r.rec[:0], byte(kind))
	r.rec = binary.AppendVarint(r.rec, int64(now))
}

func (r *Recorder) bytes(b []byte) {
	r.rec = binary.AppendUvarint(r.rec, uint64(len(b)))
	r.rec = append(r.rec, b...)
}

// Receive records and hands datagram to the World.
func (r *Recorder) Receive(now time.Duration, conn refserver.PlayerID, datagram []byte) error {
	if r.out != nil {
		r.begin(KindReceive, now)
		r.rec = binary.AppendUvarint(r.rec, uint64(conn))
		r.bytes(datagram)
		r.write(r.rec)
	}
	err := r.World.Receive(now, conn, datagram)
	r.h.result(KindReceive, 0, err)
	return err
}

// Handle records and hands m to the World. A message that does not encode is recorded
// empty (the replay hands the World nothing and the results hash tells).
func (r *Recorder) Handle(now time.Duration, conn refserver.PlayerID, m wire.Message) refserver.Verdict {
	if r.out != nil {
		r.begin(KindHandle, now)
		r.rec = binary.AppendUvarint(r.rec, uint64(conn))
		enc, _ := m.Append(nil)
		r.bytes(enc)
		r.write(r.rec)
	}
	v := r.World.Handle(now, conn, m)
	r.h.result(KindHandle, int64(v), nil)
	return v
}

// Tick records and ticks the World.
func (r *Recorder) Tick(now time.Duration) error {
	if r.out != nil {
		r.begin(KindTick, now)
		r.write(r.rec)
	}
	err := r.World.Tick(now)
	r.h.result(KindTick, 0, err)
	return err
}

// Kick records and kicks id.
func (r *Recorder) Kick(now time.Duration, id refserver.PlayerID) error {
	if r.out != nil {
		r.begin(KindKick, now)
		r.rec = binary.AppendUvarint(r.rec, uint64(id))
		r.write(r.rec)
	}
	err := r.World.Kick(now, id)
	r.h.result(KindKick, 0, err)
	return err
}

// Events drains the World's events into dst (recorded: the moment of a drain decides
// which events a full queue drops), hashing each.
func (r *Recorder) Events(dst []refserver.Event) []refserver.Event {
	if r.out != nil {
		r.begin(KindDrain, r.World.Now())
		r.write(r.rec)
	}
	n := len(dst)
	dst = r.World.Events(dst)
	if !r.on {
		return dst
	}
	for i := n; i < len(dst); i++ {
		r.h.event(&dst[i])
	}
	return dst
}

// Flush flushes the World through emit, hashing every datagram, and records the flush
// with the hashes after it.
func (r *Recorder) Flush(now time.Duration, emit func(conn refserver.PlayerID, datagram []byte)) error {
	if !r.on {
		return r.World.Flush(now, emit)
	}
	err := r.World.Flush(now, func(conn refserver.PlayerID, d []byte) {
		r.h.datagram(conn, d)
		emit(conn, d)
	})
	r.h.result(KindFlush, 0, err)
	if r.out != nil {
		r.begin(KindFlush, now)
		c := r.h.checkpoint()
		r.rec = binary.LittleEndian.AppendUint64(r.rec, c.Results)
		r.rec = binary.LittleEndian.AppendUint64(r.rec, c.Events)
		r.rec = binary.LittleEndian.AppendUint64(r.rec, c.Datagrams)
		r.rec = binary.AppendUvarint(r.rec, c.NEvents)
		r.rec = binary.AppendUvarint(r.rec, c.NDatagrams)
		r.write(r.rec)
	}
	return err
}

// verb records verb v at now with the arguments in r.a and folds the call's result.
func (r *Recorder) verb(now time.Duration, v Verb) {
	if r.out == nil {
		return
	}
	r.begin(KindVerb, now)
	r.rec = append(r.rec, byte(v))
	r.bytes(r.a.b)
	r.write(r.rec)
}

func (r *Recorder) start() *args { r.a.b = r.a.b[:0]; return &r.a }

func (r *Recorder) done(err error) error { r.h.result(KindVerb, 0, err); return err }

// SetHealth records and forwards the facade verb.
func (r *Recorder) SetHealth(now time.Duration, id refserver.PlayerID, value float32) error {
	a := r.start()
	a.id(id)
	a.f32(value)
	r.verb(now, VerbSetHealth)
	return r.done(r.World.SetHealth(now, id, value))
}

// SetArmor records and forwards the facade verb.
func (r *Recorder) SetArmor(now time.Duration, id refserver.PlayerID, value float32) error {
	a := r.start()
	a.id(id)
	a.f32(value)
	r.verb(now, VerbSetArmor)
	return r.done(r.World.SetArmor(now, id, value))
}

// AddHealth records and forwards the facade verb.
func (r *Recorder) AddHealth(now time.Duration, id refserver.PlayerID, amount, max float32) error {
	a := r.start()
	a.id(id)
	a.f32(amount)
	a.f32(max)
	r.verb(now, VerbAddHealth)
	return r.done(r.World.AddHealth(now, id, amount, max))
}

// AddArmor records and forwards the facade verb.
func (r *Recorder) AddArmor(now time.Duration, id refserver.PlayerID, amount, max float32) error {
	a := r.start()
	a.id(id)
	a.f32(amount)
	a.f32(max)
	r.verb(now, VerbAddArmor)
	return r.done(r.World.AddArmor(now, id, amount, max))
}

// SetDamageMultipliers records and forwards the facade verb.
func (r *Recorder) SetDamageMultipliers(now time.Duration, m vitals.Multipliers) error {
	a := r.start()
	for _, v := range [...]float32{m.Melee, m.Fire, m.Spray, m.Extinguisher, m.Explosion, m.Predator} {
		a.f32(v)
	}
	r.verb(now, VerbSetDamageMultipliers)
	return r.done(r.World.SetDamageMultipliers(now, m))
}

// GiveWeapon records and forwards the facade verb.
func (r *Recorder) GiveWeapon(now time.Duration, id refserver.PlayerID, weapon uint8, ammo uint16, current bool) error {
	a := r.start()
	a.id(id)
	a.u8(weapon)
	a.u16(ammo)
	a.flag(current)
	r.verb(now, VerbGiveWeapon)
	return r.done(r.World.GiveWeapon(now, id, weapon, ammo, current))
}

// TakeWeapon records and forwards the facade verb.
func (r *Recorder) TakeWeapon(now time.Duration, id refserver.PlayerID, weapon uint8) error {
	a := r.start()
	a.id(id)
	a.u8(weapon)
	r.verb(now, VerbTakeWeapon)
	return r.done(r.World.TakeWeapon(now, id, weapon))
}

// SetWeaponAmmo records and forwards the facade verb.
func (r *Recorder) SetWeaponAmmo(now time.Duration, id refserver.PlayerID, weapon uint8, total, clip uint16) error {
	a := r.start()
	a.id(id)
	a.u8(weapon)
	a.u16(total)
	a.u16(clip)
	r.verb(now, VerbSetWeaponAmmo)
	return r.done(r.World.SetWeaponAmmo(now, id, weapon, total, clip))
}

// ClearWeapons records and forwards the facade verb.
func (r *Recorder) ClearWeapons(now time.Duration, id refserver.PlayerID) error {
	a := r.start()
	a.id(id)
	r.verb(now, VerbClearWeapons)
	return r.done(r.World.ClearWeapons(now, id))
}

// SetArmedWeapon records and forwards the facade verb.
func (r *Recorder) SetArmedWeapon(now time.Duration, id refserver.PlayerID, weapon uint8) error {
	a := r.start()
	a.id(id)
	a.u8(weapon)
	r.verb(now, VerbSetArmedWeapon)
	return r.done(r.World.SetArmedWeapon(now, id, weapon))
}

// SetWeaponSkill records and forwards the facade verb.
func (r *Recorder) SetWeaponSkill(now time.Duration, id refserver.PlayerID, stat inventory.SkillStat, tier inventory.Tier) error {
	a := r.start()
	a.id(id)
	a.u8(uint8(stat))
	a.u8(uint8(tier))
	r.verb(now, VerbSetWeaponSkill)
	return r.done(r.World.SetWeaponSkill(now, id, stat, tier))
}

// SetWeaponProperties records and forwards the facade verb.
func (r *Recorder) SetWeaponProperties(now time.Duration, weapon uint8, damage [inventory.NumTiers]float32, rng float32) error {
	a := r.start()
	a.u8(weapon)
	for _, d := range damage {
		a.f32(d)
	}
	a.f32(rng)
	r.verb(now, VerbSetWeaponProperties)
	return r.done(r.World.SetWeaponProperties(now, weapon, damage, rng))
}

func (r *Recorder) team(id teams.TeamID, def teams.Team) {
	a := r.start()
	a.u16(uint16(id))
	a.str(def.Name)
	a.u32(def.Color)
	a.flag(def.FriendlyFire)
}

// CreateTeam records and forwards the facade verb.
func (r *Recorder) CreateTeam(id teams.TeamID, def teams.Team) error {
	r.team(id, def)
	r.verb(r.World.Now(), VerbCreateTeam)
	return r.done(r.World.CreateTeam(id, def))
}

// ChangeTeam records and forwards the facade verb.
func (r *Recorder) ChangeTeam(id teams.TeamID, def teams.Team) error {
	r.team(id, def)
	r.verb(r.World.Now(), VerbChangeTeam)
	return r.done(r.World.ChangeTeam(id, def))
}

// RemoveTeam records and forwards the facade verb.
func (r *Recorder) RemoveTeam(id teams.TeamID) error {
	r.start().u16(uint16(id))
	r.verb(r.World.Now(), VerbRemoveTeam)
	return r.done(r.World.RemoveTeam(id))
}

// SetFriendlyFire records and forwards the facade verb.
func (r *Recorder) SetFriendlyFire(id teams.TeamID, on bool) error {
	a := r.start()
	a.u16(uint16(id))
	a.flag(on)
	r.verb(r.World.Now(), VerbSetFriendlyFire)
	return r.done(r.World.SetFriendlyFire(id, on))
}

// JoinTeam records and forwards the facade verb.
func (r *Recorder) JoinTeam(player refserver.PlayerID, id teams.TeamID) error {
	a := r.start()
	a.id(player)
	a.u16(uint16(id))
	r.verb(r.World.Now(), VerbJoinTeam)
	return r.done(r.World.JoinTeam(player, id))
}

// LeaveTeam records and forwards the facade verb.
func (r *Recorder) LeaveTeam(player refserver.PlayerID) error {
	r.start().id(player)
	r.verb(r.World.Now(), VerbLeaveTeam)
	return r.done(r.World.LeaveTeam(player))
}

// The decision kinds as recorded.
const (
	decisionDefault uint8 = iota
	decisionAt
	decisionHold
)

// decision reads a lifecycle.Decision's fields (it exports none) and rebuilds it; ok is
// false when the rebuilt decision does not print as d does (the lifecycle changed its
// representation: the replay would diverge, and the record says so).
func decision(d lifecycle.Decision) (kind uint8, at time.Duration, pt lifecycle.SpawnPoint, has bool, ok bool) {
	v := reflect.ValueOf(d)
	if v.NumField() != 4 {
		return 0, 0, pt, false, false
	}
	kind = uint8(v.Field(0).Uint())
	at = time.Duration(v.Field(1).Int())
	p := v.Field(2)
	pos := p.Field(0)
	pt = lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: float32(pos.Field(0).Float()), Y: float32(pos.Field(1).Float()),
		Z: float32(pos.Field(2).Float())}, Facing: float32(p.Field(1).Float())}
	has = v.Field(3).Bool()
	return kind, at, pt, has, rebuild(kind, at, pt, has).String() == d.String()
}

func rebuild(kind uint8, at time.Duration, pt lifecycle.SpawnPoint, has bool) lifecycle.Decision {
	var d lifecycle.Decision
	switch kind {
	case decisionAt:
		d = lifecycle.AllowAt(at)
	case decisionHold:
		d = lifecycle.Hold()
	}
	if has {
		d = d.AtPoint(pt)
	}
	return d
}

func (a *args) spawn(p lifecycle.SpawnPoint) {
	a.f32(p.Pos.X)
	a.f32(p.Pos.Y)
	a.f32(p.Pos.Z)
	a.f32(p.Facing)
}

func (r *reader) spawn() lifecycle.SpawnPoint {
	return lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: r.f32(), Y: r.f32(), Z: r.f32()}, Facing: r.f32()}
}

// DecideRespawn records and forwards the facade verb.
func (r *Recorder) DecideRespawn(player refserver.PlayerID, gen uint16, d lifecycle.Decision) error {
	kind, at, pt, has, ok := decision(d)
	if !ok && r.err == nil && r.out != nil {
		r.err = fmt.Errorf("replay: cannot record the respawn decision %v", d)
	}
	a := r.start()
	a.id(player)
	a.u16(gen)
	a.u8(kind)
	a.i64(int64(at))
	a.spawn(pt)
	a.flag(has)
	r.verb(r.World.Now(), VerbDecideRespawn)
	return r.done(r.World.DecideRespawn(player, gen, d))
}

// SetSpawnPoint records and forwards the facade verb.
func (r *Recorder) SetSpawnPoint(player refserver.PlayerID, pt lifecycle.SpawnPoint) error {
	a := r.start()
	a.id(player)
	a.spawn(pt)
	r.verb(r.World.Now(), VerbSetSpawnPoint)
	return r.done(r.World.SetSpawnPoint(player, pt))
}

// CreateExplosion records and forwards the facade verb.
func (r *Recorder) CreateExplosion(now time.Duration, creator refserver.PlayerID, typ uint8, pos wire.Vec3, radius float32) (uint16, error) {
	a := r.start()
	a.id(creator)
	a.u8(typ)
	a.vec(pos)
	a.f32(radius)
	r.verb(now, VerbCreateExplosion)
	id, err := r.World.CreateExplosion(now, creator, typ, pos, radius)
	r.h.result(KindVerb, int64(id), err)
	return id, err
}

// CreateFire records and forwards the facade verb.
func (r *Recorder) CreateFire(now time.Duration, creator refserver.PlayerID, pos wire.Vec3, radius float32) (uint16, error) {
	a := r.start()
	a.id(creator)
	a.vec(pos)
	a.f32(radius)
	r.verb(now, VerbCreateFire)
	id, err := r.World.CreateFire(now, creator, pos, radius)
	r.h.result(KindVerb, int64(id), err)
	return id, err
}

// CreateVehicle records and forwards the facade verb.
func (r *Recorder) CreateVehicle(now time.Duration, id uint16, model uint16, pos wire.Vec3, rot wire.Quat) error {
	a := r.start()
	a.u16(id)
	a.u16(model)
	a.vec(pos)
	a.quat(rot)
	r.verb(now, VerbCreateVehicle)
	return r.done(r.World.CreateVehicle(now, id, model, pos, rot))
}

// MoveVehicle records and forwards the facade verb.
func (r *Recorder) MoveVehicle(now time.Duration, id uint16, pos wire.Vec3, rot wire.Quat) error {
	a := r.start()
	a.u16(id)
	a.vec(pos)
	a.quat(rot)
	r.verb(now, VerbMoveVehicle)
	return r.done(r.World.MoveVehicle(now, id, pos, rot))
}

// RespawnVehicle records and forwards the facade verb.
func (r *Recorder) RespawnVehicle(now time.Duration, id uint16, pos wire.Vec3, rot wire.Quat) error {
	a := r.start()
	a.u16(id)
	a.vec(pos)
	a.quat(rot)
	r.verb(now, VerbRespawnVehicle)
	return r.done(r.World.RespawnVehicle(now, id, pos, rot))
}

// FreezeVehicle records and forwards the facade verb.
func (r *Recorder) FreezeVehicle(now time.Duration, id uint16, frozen bool) error {
	a := r.start()
	a.u16(id)
	a.flag(frozen)
	r.verb(now, VerbFreezeVehicle)
	return r.done(r.World.FreezeVehicle(now, id, frozen))
}

// SetPlayerPosition records and forwards the facade verb.
func (r *Recorder) SetPlayerPosition(now time.Duration, id refserver.PlayerID, pos wire.Vec3, facing float32) error {
	a := r.start()
	a.id(id)
	a.vec(pos)
	a.f32(facing)
	r.verb(now, VerbSetPlayerPosition)
	return r.done(r.World.SetPlayerPosition(now, id, pos, facing))
}
