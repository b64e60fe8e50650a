package wire

import (
	"bytes"
	"encoding/binary"
	"math"
	"reflect"
	"testing"
)

// The naive reference: the same messages as fixed-size mirror structs through
// encoding/binary.Write and binary.Read (reflection), converted from and to the
// message types without any validation. TestBinaryMirrorsMatchTheCodec checks that
// they produce the very same bytes, so the benchmarks compare equal work.

type playerSyncMirror struct {
	Version, ID                                     uint8
	Seq, VitalRev, DamageSeq, WeaponRev, DeathEpoch uint16
	Weapon, Flags                                   uint8
	Clip, Total                                     uint16
	Health, Armor                                   float32
	Position                                        [3]float32
	Velocity                                        [3]int16
	Facing, Vehicle                                 uint16
}

func boolBit(b bool, at uint) uint8 {
	if b {
		return 1 << at
	}
	return 0
}

func vel16(v float32) int16 { return int16(math.Round(float64(v) * VelocityScale)) }

func (r *playerSyncMirror) from(m *PlayerSync) {
	*r = playerSyncMirror{Version, uint8(IDPlayerSync), m.Seq, m.VitalRev, m.DamageSeq, m.WeaponRev, m.DeathEpoch,
		m.Weapon, boolBit(m.Alive, 0) | boolBit(m.FireHeld, 1) | m.Seat<<2, m.Clip, m.Total, m.Health, m.Armor,
		[3]float32{m.Position.X, m.Position.Y, m.Position.Z},
		[3]int16{vel16(m.Velocity.X), vel16(m.Velocity.Y), vel16(m.Velocity.Z)},
		angleToWire(m.Facing), m.Vehicle}
}

func (r *playerSyncMirror) to(m *PlayerSync) {
	*m = PlayerSync{Seq: r.Seq, VitalRev: r.VitalRev, DamageSeq: r.DamageSeq, WeaponRev: r.WeaponRev,
		DeathEpoch: r.DeathEpoch, Weapon: r.Weapon, Alive: r.Flags&1 != 0, FireHeld: r.Flags&2 != 0, Seat: r.Flags >> 2,
		Clip: r.Clip, Total: r.Total, Health: r.Health, Armor: r.Armor,
		Position: Vec3{r.Position[0], r.Position[1], r.Position[2]},
		Velocity: Vec3{float32(r.Velocity[0]) / VelocityScale, float32(r.Velocity[1]) / VelocityScale, float32(r.Velocity[2]) / VelocityScale},
		Facing:   angleFromWire(r.Facing), Vehicle: r.Vehicle}
}

type damageReportMirror struct {
	Version, ID               uint8
	DamageSeq, VitalRev       uint16
	Attacker                  PlayerID
	Weapon, BodyPart, RefKind uint8
	RefSeq                    uint16
	HealthBefore, ArmorBefore float32
	HealthAfter, ArmorAfter   float32
	Loss                      float32
}

func (r *damageReportMirror) from(m *DamageReport) {
	*r = damageReportMirror{Version, uint8(IDDamageReport), m.DamageSeq, m.VitalRev, m.Attacker, m.Weapon, m.BodyPart,
		uint8(m.Ref.Kind), m.Ref.Seq, m.HealthBefore, m.ArmorBefore, m.HealthAfter, m.ArmorAfter, m.Loss}
}

func (r *damageReportMirror) to(m *DamageReport) {
	*m = DamageReport{DamageSeq: r.DamageSeq, VitalRev: r.VitalRev, Attacker: r.Attacker, Weapon: r.Weapon,
		BodyPart: r.BodyPart, Ref: Ref{Kind: RefKind(r.RefKind), Seq: r.RefSeq}, HealthBefore: r.HealthBefore,
		ArmorBefore: r.ArmorBefore, HealthAfter: r.HealthAfter, ArmorAfter: r.ArmorAfter, Loss: r.Loss}
}

type weaponShotMirror struct {
	Version, ID                        uint8
	ShotSeq, DeathEpoch, PropertiesRev uint16
	Weapon, HitType                    uint8
	HitID                              uint16
	Origin, HitPos                     [3]float32
}

func (r *weaponShotMirror) from(m *WeaponShot) {
	*r = weaponShotMirror{Version, uint8(IDWeaponShot), m.ShotSeq, m.DeathEpoch, m.PropertiesRev, m.Weapon,
		uint8(m.HitType), m.HitID, [3]float32{m.Origin.X, m.Origin.Y, m.Origin.Z},
		[3]float32{m.HitPos.X, m.HitPos.Y, m.HitPos.Z}}
}

func (r *weaponShotMirror) to(m *WeaponShot) {
	*m = WeaponShot{ShotSeq: r.ShotSeq, DeathEpoch: r.DeathEpoch, PropertiesRev: r.PropertiesRev, Weapon: r.Weapon,
		HitType: HitType(r.HitType), HitID: r.HitID, Origin: Vec3{r.Origin[0], r.Origin[1], r.Origin[2]},
		HitPos: Vec3{r.HitPos[0], r.HitPos[1], r.HitPos[2]}}
}

func TestBinaryMirrorsMatchTheCodec(t *testing.T) {
	check := func(name string, mirror any, want []byte) {
		var buf bytes.Buffer
		if err := binary.Write(&buf, binary.LittleEndian, mirror); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s: binary.Write of the mirror differs from Append:\n% x\n% x", name, buf.Bytes(), want)
		}
	}
	ps := sampleOf(t, IDPlayerSync).(*PlayerSync)
	var psm playerSyncMirror
	psm.from(ps)
	check("PlayerSync", &psm, mustAppend(t, ps))
	var psBack PlayerSync
	psm.to(&psBack)
	if psBack != *ps {
		t.Errorf("PlayerSync mirror does not convert back: %+v", psBack)
	}
	dr := sampleOf(t, IDDamageReport).(*DamageReport)
	var drm damageReportMirror
	drm.from(dr)
	check("DamageReport", &drm, mustAppend(t, dr))
	ws := sampleOf(t, IDWeaponShot).(*WeaponShot)
	var wsm weaponShotMirror
	wsm.from(ws)
	check("WeaponShot", &wsm, mustAppend(t, ws))
}

// benchEncode and benchDecode measure the codec on one message.
func benchEncode(b *testing.B, m Message) {
	buf := make([]byte, 0, MaxSize)
	b.ReportAllocs()
	b.SetBytes(int64(m.ID().Size()))
	for b.Loop() {
		var err error
		if buf, err = m.Append(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

func benchDecode(b *testing.B, m Message) {
	enc, err := m.Append(nil)
	if err != nil {
		b.Fatal(err)
	}
	into := New(m.ID())
	b.ReportAllocs()
	b.SetBytes(int64(len(enc)))
	for b.Loop() {
		if err := into.Decode(enc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, id := range []ID{IDPlayerSync, IDDamageReport, IDWeaponShot, IDRemotePlayerSync, IDRemoteWeaponShot} {
		b.Run(id.String(), func(b *testing.B) { benchEncode(b, sampleOf(b, id)) })
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, id := range []ID{IDPlayerSync, IDDamageReport, IDWeaponShot, IDRemotePlayerSync, IDRemoteWeaponShot} {
		b.Run(id.String(), func(b *testing.B) { benchDecode(b, sampleOf(b, id)) })
	}
}

// BenchmarkDecoder measures the read loop's dispatch: Peek plus the typed Decode.
func BenchmarkDecoder(b *testing.B) {
	var dec Decoder
	for _, id := range []ID{IDPlayerSync, IDDamageReport, IDWeaponShot} {
		enc := mustAppend(b, sampleOf(b, id))
		b.Run(id.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := dec.Decode(enc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBinaryWrite is the naive reference of BenchmarkEncode.
func BenchmarkBinaryWrite(b *testing.B) {
	var buf bytes.Buffer
	b.Run("PlayerSync", func(b *testing.B) {
		ps := sampleOf(b, IDPlayerSync).(*PlayerSync)
		var r playerSyncMirror
		b.ReportAllocs()
		for b.Loop() {
			r.from(ps)
			buf.Reset()
			if err := binary.Write(&buf, binary.LittleEndian, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DamageReport", func(b *testing.B) {
		dr := sampleOf(b, IDDamageReport).(*DamageReport)
		var r damageReportMirror
		b.ReportAllocs()
		for b.Loop() {
			r.from(dr)
			buf.Reset()
			if err := binary.Write(&buf, binary.LittleEndian, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("WeaponShot", func(b *testing.B) {
		ws := sampleOf(b, IDWeaponShot).(*WeaponShot)
		var r weaponShotMirror
		b.ReportAllocs()
		for b.Loop() {
			r.from(ws)
			buf.Reset()
			if err := binary.Write(&buf, binary.LittleEndian, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBinaryRead is the naive reference of BenchmarkDecode.
func BenchmarkBinaryRead(b *testing.B) {
	var rd bytes.Reader
	b.Run("PlayerSync", func(b *testing.B) {
		enc := mustAppend(b, sampleOf(b, IDPlayerSync))
		var r playerSyncMirror
		var m PlayerSync
		b.ReportAllocs()
		for b.Loop() {
			rd.Reset(enc)
			if err := binary.Read(&rd, binary.LittleEndian, &r); err != nil {
				b.Fatal(err)
			}
			r.to(&m)
		}
	})
	b.Run("DamageReport", func(b *testing.B) {
		enc := mustAppend(b, sampleOf(b, IDDamageReport))
		var r damageReportMirror
		var m DamageReport
		b.ReportAllocs()
		for b.Loop() {
			rd.Reset(enc)
			if err := binary.Read(&rd, binary.LittleEndian, &r); err != nil {
				b.Fatal(err)
			}
			r.to(&m)
		}
	})
	b.Run("WeaponShot", func(b *testing.B) {
		enc := mustAppend(b, sampleOf(b, IDWeaponShot))
		var r weaponShotMirror
		var m WeaponShot
		b.ReportAllocs()
		for b.Loop() {
			rd.Reset(enc)
			if err := binary.Read(&rd, binary.LittleEndian, &r); err != nil {
				b.Fatal(err)
			}
			r.to(&m)
		}
	})
}

// BenchmarkWalk measures the reference codec (the walk, which the cold messages use
// for real) on the hot messages, to show what their unrolled paths save. The
// walks are called on concrete types, as the cold messages' methods do.
func BenchmarkWalk(b *testing.B) {
	ps := *sampleOf(b, IDPlayerSync).(*PlayerSync)
	dr := *sampleOf(b, IDDamageReport).(*DamageReport)
	ws := *sampleOf(b, IDWeaponShot).(*WeaponShot)
	buf := make([]byte, 0, MaxSize)
	b.Run("Encode/PlayerSync", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c := startEncode(buf[:0], IDPlayerSync)
			ps.walk(&c)
			buf, _ = c.endEncode(buf[:0])
		}
	})
	b.Run("Encode/DamageReport", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c := startEncode(buf[:0], IDDamageReport)
			dr.walk(&c)
			buf, _ = c.endEncode(buf[:0])
		}
	})
	b.Run("Encode/WeaponShot", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c := startEncode(buf[:0], IDWeaponShot)
			ws.walk(&c)
			buf, _ = c.endEncode(buf[:0])
		}
	})
	psEnc, drEnc, wsEnc := mustAppend(b, &ps), mustAppend(b, &dr), mustAppend(b, &ws)
	b.Run("Decode/PlayerSync", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, _ := startDecode(psEnc, IDPlayerSync)
			var t PlayerSync
			t.walk(&c)
			if c.endDecode() == nil {
				ps = t
			}
		}
	})
	b.Run("Decode/DamageReport", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, _ := startDecode(drEnc, IDDamageReport)
			var t DamageReport
			t.walk(&c)
			if c.endDecode() == nil {
				dr = t
			}
		}
	})
	b.Run("Decode/WeaponShot", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, _ := startDecode(wsEnc, IDWeaponShot)
			var t WeaponShot
			t.walk(&c)
			if c.endDecode() == nil {
				ws = t
			}
		}
	})
}

// mirror is a naive reference's fixed-size mirror struct of one hot message: filled from
// the message, emptied back into it, without any validation.
type mirror[M any] interface {
	from(*M)
	to(*M)
}

// benchRoundTrips measures one message's round trip (encode into a reused buffer, decode
// back into a value) three ways in one run: the codec (Append then Decode), and the naive
// references on the mirror struct, encoding/binary's Encode then Decode (reflection into a
// byte slice) and its Write then Read (reflection through an io.Writer and io.Reader).
func benchRoundTrips[M any, PM interface {
	*M
	Message
}, R any, PR interface {
	*R
	mirror[M]
}](id ID) func(*testing.B) {
	return func(b *testing.B) { benchRoundTrip[M, PM, R, PR](b, id) }
}

func benchRoundTrip[M any, PM interface {
	*M
	Message
}, R any, PR interface {
	*R
	mirror[M]
}](b *testing.B, id ID) {
	src := sampleOf(b, id).(PM)
	b.Run("wire", func(b *testing.B) {
		buf := make([]byte, 0, MaxSize)
		var back M
		b.ReportAllocs()
		for b.Loop() {
			var err error
			if buf, err = src.Append(buf[:0]); err != nil {
				b.Fatal(err)
			}
			if err := PM(&back).Decode(buf); err != nil {
				b.Fatal(err)
			}
		}
		if !reflect.DeepEqual(back, *src) {
			b.Fatalf("round trip changed the message: %+v", back)
		}
	})
	b.Run("binary.Encode+Decode", func(b *testing.B) {
		buf := make([]byte, id.Size())
		var r R
		var back M
		b.ReportAllocs()
		for b.Loop() {
			PR(&r).from((*M)(src))
			if _, err := binary.Encode(buf, binary.LittleEndian, &r); err != nil {
				b.Fatal(err)
			}
			if _, err := binary.Decode(buf, binary.LittleEndian, &r); err != nil {
				b.Fatal(err)
			}
			PR(&r).to(&back)
		}
		if !reflect.DeepEqual(back, *src) {
			b.Fatalf("round trip changed the message: %+v", back)
		}
	})
	b.Run("binary.Write+Read", func(b *testing.B) {
		var w bytes.Buffer
		var rd bytes.Reader
		var r R
		var back M
		b.ReportAllocs()
		for b.Loop() {
			PR(&r).from((*M)(src))
			w.Reset()
			if err := binary.Write(&w, binary.LittleEndian, &r); err != nil {
				b.Fatal(err)
			}
			rd.Reset(w.Bytes())
			if err := binary.Read(&rd, binary.LittleEndian, &r); err != nil {
				b.Fatal(err)
			}
			PR(&r).to(&back)
		}
		if !reflect.DeepEqual(back, *src) {
			b.Fatalf("round trip changed the message: %+v", back)
		}
	})
}

// BenchmarkRoundTrip puts the codec's round trip of the hot client messages beside
// encoding/binary's, in one run:
//
//	go test -run '^$' -bench RoundTrip -benchmem ./wire/
func BenchmarkRoundTrip(b *testing.B) {
	b.Run("PlayerSync", benchRoundTrips[PlayerSync, *PlayerSync, playerSyncMirror](IDPlayerSync))
	b.Run("DamageReport", benchRoundTrips[DamageReport, *DamageReport, damageReportMirror](IDDamageReport))
	b.Run("WeaponShot", benchRoundTrips[WeaponShot, *WeaponShot, weaponShotMirror](IDWeaponShot))
}
