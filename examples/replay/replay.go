package replay

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// Divergence is the first place a replay differed from its recording.
type Divergence struct {
	// Record is the index of the Flush record whose hashes differed (0 is the first
	// record after the header).
	Record int
	// At is that record's now.
	At time.Duration
	// What names what differed first: "results" (a call returned another error or id),
	// "events" or "datagrams", with the recorded and replayed totals.
	What string
	// Since is the index of the previous Flush record: the difference arose in the
	// records after it.
	Since int
}

func (d *Divergence) String() string {
	return fmt.Sprintf("record %d (flush at %v): %s differ, arising after record %d", d.Record, d.At, d.What, d.Since)
}

// Result is what Replay found.
type Result struct {
	// Config is the World's configuration from the header.
	Config refserver.Config
	// Records is the number of records replayed; Flushes of them were flushes.
	Records, Flushes int
	// Final is the replay's running hashes and totals at the end.
	Final Checkpoint
	// Divergence is the first divergence, nil when every Flush matched.
	Divergence *Divergence
	// Verbs counts the gamemode verbs replayed, by verb.
	Verbs map[Verb]int
	// Events are the replayed World's events, in order, when Options.Events was set.
	Events []refserver.Event
}

// Options tune Replay.
type Options struct {
	// Events makes Replay keep every event the replay drains (Result.Events): the
	// verdicts to read when a player says they were wronged.
	Events bool
	// OnEvent, if set, sees every event as the replay drains it.
	OnEvent func(e refserver.Event)
}

// Replay reads a record file, builds a fresh World from its header's Config, feeds it
// the records in order and compares the running hashes at every Flush record. It stops
// at the first divergence (Result.Divergence) or at the end; an error means the file
// could not be read or decoded (ErrFormat) or its Config is refused.
func Replay(in io.Reader, opts Options) (Result, error) {
	res := Result{Verbs: map[Verb]int{}}
	br := bufio.NewReaderSize(in, 64<<10)
	hdr := make([]byte, len(Magic)+6)
	if _, err := io.ReadFull(br, hdr); err != nil || string(hdr[:len(Magic)]) != Magic {
		return res, fmt.Errorf("%w: no header", ErrFormat)
	}
	if v := binary.LittleEndian.Uint16(hdr[len(Magic):]); v != Version {
		return res, fmt.Errorf("%w: format version %d, want %d", ErrFormat, v, Version)
	}
	n := binary.LittleEndian.Uint32(hdr[len(Magic)+2:])
	if n > MaxConfigJSON {
		return res, fmt.Errorf("%w: config of %d bytes", ErrFormat, n)
	}
	cj := make([]byte, n)
	if _, err := io.ReadFull(br, cj); err != nil {
		return res, fmt.Errorf("%w: config cut short", ErrFormat)
	}
	if err := json.Unmarshal(cj, &res.Config); err != nil {
		return res, fmt.Errorf("%w: config: %w", ErrFormat, err)
	}
	w, err := refserver.New(res.Config)
	if err != nil {
		return res, err
	}
	r := &player{rec: &Recorder{World: w, on: true, h: newHashes()}, br: br, opts: opts, res: &res}
	return res, r.run()
}

// player feeds the records to a Recorder without a writer (its hashes run).
type player struct {
	rec     *Recorder
	br      *bufio.Reader
	opts    Options
	res     *Result
	evs     []refserver.Event
	dec     wire.Decoder
	buf     []byte
	lastFl  int
	discard func(refserver.PlayerID, []byte)
}

func (p *player) bad(what string) error {
	return fmt.Errorf("%w: record %d: %s", ErrFormat, p.res.Records, what)
}

func (p *player) varint() (int64, error) {
	v, err := binary.ReadVarint(p.br)
	if err != nil {
		return 0, p.bad("cut short")
	}
	return v, nil
}

func (p *player) uvarint() (uint64, error) {
	v, err := binary.ReadUvarint(p.br)
	if err != nil {
		return 0, p.bad("cut short")
	}
	return v, nil
}

func (p *player) conn() (refserver.PlayerID, error) {
	v, err := p.uvarint()
	if err == nil && v > 0xFFFF {
		return 0, p.bad("connection out of range")
	}
	return refserver.PlayerID(v), err
}

func (p *player) payload() ([]byte, error) {
	n, err := p.uvarint()
	if err != nil {
		return nil, err
	}
	if n > MaxRecordPayload {
		return nil, p.bad(fmt.Sprintf("payload of %d bytes", n))
	}
	p.buf = append(p.buf[:0], make([]byte, n)...)
	if _, err := io.ReadFull(p.br, p.buf); err != nil {
		return nil, p.bad("cut short")
	}
	return p.buf, nil
}

func (p *player) run() error {
	p.discard = func(refserver.PlayerID, []byte) {}
	p.lastFl = -1
	for ; ; p.res.Records++ {
		k, err := p.br.ReadByte()
		if errors.Is(err, io.EOF) {
			p.res.Final = p.rec.h.checkpoint()
			return nil
		}
		if err != nil {
			return err
		}
		at, err := p.varint()
		if err != nil {
			return err
		}
		now := time.Duration(at)
		if err := p.one(Kind(k), now); err != nil {
			return err
		}
		if p.res.Divergence != nil {
			p.res.Final = p.rec.h.checkpoint()
			return nil
		}
	}
}

func (p *player) one(k Kind, now time.Duration) error {
	r := p.rec
	switch k {
	case KindReceive:
		c, err := p.conn()
		if err != nil {
			return err
		}
		d, err := p.payload()
		if err != nil {
			return err
		}
		_ = r.Receive(now, c, d)
	case KindHandle:
		c, err := p.conn()
		if err != nil {
			return err
		}
		d, err := p.payload()
		if err != nil {
			return err
		}
		m, err := p.dec.Decode(d)
		if err != nil {
			return p.bad("handled message does not decode: " + err.Error())
		}
		r.Handle(now, c, m)
	case KindTick:
		_ = r.Tick(now)
	case KindKick:
		c, err := p.conn()
		if err != nil {
			return err
		}
		_ = r.Kick(now, c)
	case KindDrain:
		p.evs = r.Events(p.evs[:0])
		for _, e := range p.evs {
			if p.opts.OnEvent != nil {
				p.opts.OnEvent(e)
			}
			if p.opts.Events {
				p.res.Events = append(p.res.Events, e)
			}
		}
	case KindFlush:
		var want Checkpoint
		var b [24]byte
		if _, err := io.ReadFull(p.br, b[:]); err != nil {
			return p.bad("cut short")
		}
		want.Results = binary.LittleEndian.Uint64(b[0:])
		want.Events = binary.LittleEndian.Uint64(b[8:])
		want.Datagrams = binary.LittleEndian.Uint64(b[16:])
		var err error
		if want.NEvents, err = p.uvarint(); err != nil {
			return err
		}
		if want.NDatagrams, err = p.uvarint(); err != nil {
			return err
		}
		_ = r.Flush(now, p.discard)
		p.res.Flushes++
		got := r.h.checkpoint()
		if what := compare(want, got); what != "" {
			p.res.Divergence = &Divergence{Record: p.res.Records, At: now, What: what, Since: p.lastFl}
		}
		p.lastFl = p.res.Records
	case KindVerb:
		v, err := p.br.ReadByte()
		if err != nil {
			return p.bad("cut short")
		}
		a, err := p.payload()
		if err != nil {
			return err
		}
		p.res.Verbs[Verb(v)]++
		return p.verb(now, Verb(v), a)
	default:
		return p.bad(fmt.Sprintf("unknown kind %d", k))
	}
	return nil
}

// compare names what differs first between the recorded and the replayed checkpoint.
func compare(want, got Checkpoint) string {
	switch {
	case want.Results != got.Results:
		return "results (a call returned another error or id)"
	case want.Events != got.Events || want.NEvents != got.NEvents:
		return fmt.Sprintf("events (recorded %d so far, replayed %d)", want.NEvents, got.NEvents)
	case want.Datagrams != got.Datagrams || want.NDatagrams != got.NDatagrams:
		return fmt.Sprintf("datagrams (recorded %d so far, replayed %d)", want.NDatagrams, got.NDatagrams)
	}
	return ""
}

// verb applies one recorded gamemode verb.
func (p *player) verb(now time.Duration, v Verb, b []byte) error {
	r := p.rec
	a := &reader{b: b}
	switch v {
	case VerbSetHealth:
		id, x := a.id(), a.f32()
		if a.err == nil {
			_ = r.SetHealth(now, id, x)
		}
	case VerbSetArmor:
		id, x := a.id(), a.f32()
		if a.err == nil {
			_ = r.SetArmor(now, id, x)
		}
	case VerbAddHealth:
		id, x, m := a.id(), a.f32(), a.f32()
		if a.err == nil {
			_ = r.AddHealth(now, id, x, m)
		}
	case VerbAddArmor:
		id, x, m := a.id(), a.f32(), a.f32()
		if a.err == nil {
			_ = r.AddArmor(now, id, x, m)
		}
	case VerbSetDamageMultipliers:
		m := vitals.Multipliers{Melee: a.f32(), Fire: a.f32(), Spray: a.f32(), Extinguisher: a.f32(),
			Explosion: a.f32(), Predator: a.f32()}
		if a.err == nil {
			_ = r.SetDamageMultipliers(now, m)
		}
	case VerbGiveWeapon:
		id, wp, am, cur := a.id(), a.u8(), a.u16(), a.flag()
		if a.err == nil {
			_ = r.GiveWeapon(now, id, wp, am, cur)
		}
	case VerbTakeWeapon:
		id, wp := a.id(), a.u8()
		if a.err == nil {
			_ = r.TakeWeapon(now, id, wp)
		}
	case VerbSetWeaponAmmo:
		id, wp, total, clip := a.id(), a.u8(), a.u16(), a.u16()
		if a.err == nil {
			_ = r.SetWeaponAmmo(now, id, wp, total, clip)
		}
	case VerbClearWeapons:
		id := a.id()
		if a.err == nil {
			_ = r.ClearWeapons(now, id)
		}
	case VerbSetArmedWeapon:
		id, wp := a.id(), a.u8()
		if a.err == nil {
			_ = r.SetArmedWeapon(now, id, wp)
		}
	case VerbSetWeaponSkill:
		id, st, tier := a.id(), inventory.SkillStat(a.u8()), inventory.Tier(a.u8())
		if a.err == nil {
			_ = r.SetWeaponSkill(now, id, st, tier)
		}
	case VerbSetWeaponProperties:
		wp := a.u8()
		var dmg [inventory.NumTiers]float32
		for i := range dmg {
			dmg[i] = a.f32()
		}
		rng := a.f32()
		if a.err == nil {
			_ = r.SetWeaponProperties(now, wp, dmg, rng)
		}
	case VerbCreateTeam, VerbChangeTeam:
		id := teams.TeamID(a.u16())
		def := teams.Team{Name: a.str(), Color: a.u32(), FriendlyFire: a.flag()}
		if a.err == nil && v == VerbCreateTeam {
			_ = r.CreateTeam(id, def)
		} else if a.err == nil {
			_ = r.ChangeTeam(id, def)
		}
	case VerbRemoveTeam:
		id := teams.TeamID(a.u16())
		if a.err == nil {
			_ = r.RemoveTeam(id)
		}
	case VerbSetFriendlyFire:
		id, on := teams.TeamID(a.u16()), a.flag()
		if a.err == nil {
			_ = r.SetFriendlyFire(id, on)
		}
	case VerbJoinTeam:
		pl, id := a.id(), teams.TeamID(a.u16())
		if a.err == nil {
			_ = r.JoinTeam(pl, id)
		}
	case VerbLeaveTeam:
		pl := a.id()
		if a.err == nil {
			_ = r.LeaveTeam(pl)
		}
	case VerbDecideRespawn:
		pl, gen, kind, at, pt, has := a.id(), a.u16(), a.u8(), a.dur(), a.spawn(), a.flag()
		if a.err == nil {
			_ = r.DecideRespawn(pl, gen, rebuild(kind, at, pt, has))
		}
	case VerbSetSpawnPoint:
		pl, pt := a.id(), a.spawn()
		if a.err == nil {
			_ = r.SetSpawnPoint(pl, pt)
		}
	case VerbCreateExplosion:
		cr, typ, pos, rad := a.id(), a.u8(), a.vec(), a.f32()
		if a.err == nil {
			_, _ = r.CreateExplosion(now, cr, typ, pos, rad)
		}
	case VerbCreateFire:
		cr, pos, rad := a.id(), a.vec(), a.f32()
		if a.err == nil {
			_, _ = r.CreateFire(now, cr, pos, rad)
		}
	case VerbCreateVehicle:
		id, model, pos, rot := a.u16(), a.u16(), a.vec(), a.quat()
		if a.err == nil {
			_ = r.CreateVehicle(now, id, model, pos, rot)
		}
	case VerbMoveVehicle:
		id, pos, rot := a.u16(), a.vec(), a.quat()
		if a.err == nil {
			_ = r.MoveVehicle(now, id, pos, rot)
		}
	case VerbRespawnVehicle:
		id, pos, rot := a.u16(), a.vec(), a.quat()
		if a.err == nil {
			_ = r.RespawnVehicle(now, id, pos, rot)
		}
	case VerbFreezeVehicle:
		id, on := a.u16(), a.flag()
		if a.err == nil {
			_ = r.FreezeVehicle(now, id, on)
		}
	case VerbSetPlayerPosition:
		id, pos, f := a.id(), a.vec(), a.f32()
		if a.err == nil {
			_ = r.SetPlayerPosition(now, id, pos, f)
		}
	default:
		return p.bad(fmt.Sprintf("unknown verb %d", v))
	}
	if a.err != nil {
		return p.bad(fmt.Sprintf("verb %d: %v", v, a.err))
	}
	return nil
}
