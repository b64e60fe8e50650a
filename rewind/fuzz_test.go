package rewind

import (
	"encoding/binary"
	"math"
	"reflect"
	"testing"
	"time"
)

// fuzzInput reads a fuzzer's bytes as the arguments of a sequence of calls; past the end
// it reads zeros.
type fuzzInput struct{ b []byte }

func (f *fuzzInput) byte() byte {
	if len(f.b) == 0 {
		return 0
	}
	v := f.b[0]
	f.b = f.b[1:]
	return v
}

// float is mostly a small coordinate (a busy spot of the map), sometimes any float32 at
// all: NaN, ±Inf, huge, denormal.
func (f *fuzzInput) float() float32 {
	if m := f.byte(); m >= 0xF0 {
		var raw [4]byte
		for i := range raw {
			raw[i] = f.byte()
		}
		return math.Float32frombits(binary.LittleEndian.Uint32(raw[:]))
	} else {
		return float32(int8(m)) * 0.75
	}
}

func (f *fuzzInput) vec() Vec3  { return Vec3{f.float(), f.float(), f.float()} }
func (f *fuzzInput) quat() Quat { return Quat{f.float(), f.float(), f.float(), f.float()} }
func (f *fuzzInput) pose() Pose { return Pose{Position: f.vec(), Rotation: f.quat()} }
func (f *fuzzInput) player() PlayerID {
	if b := f.byte(); b != 0xFF {
		return PlayerID(b % 7) // slots 0..5 and one out of range
	}
	return NoPlayer
}
func (f *fuzzInput) vehicle() VehicleID {
	if b := f.byte(); b < 0xF0 {
		return VehicleID(b % 5) // slots 0..3 and one out of range
	}
	return NoVehicle
}

// FuzzWorld feeds a World random calls with random arguments: nothing panics, a refused
// call changes nothing, the bookkeeping stays sound, and every shot's broadphase answer
// equals the brute-force scan and keeps the rules of a recipient.
func FuzzWorld(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 1, 0, 3, 0, 1, 2, 3, 4, 5, 6, 0xF0, 10, 0, 0, 0, 5, 1, 1, 0, 0, 0, 1, 0, 40})
	f.Add([]byte{0, 0, 0, 0, 1, 1, 2, 0, 1, 10, 10, 10, 1, 0, 0, 0, 9, 0, 1, 0, 0, 0, 1, 1, 0, 0, 60, 0, 0, 1})
	f.Add([]byte{0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 8, 0, 0, 9, 0, 50, 0xF0, 0xFF, 0xFF, 0xC0, 0x7F, 0, 0, 100})
	f.Add([]byte("a long and arbitrary seed that reaches every verb of the world at least once or twice"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzInput{b: data}
		w := mustWorld(t, Config{Players: 6, Vehicles: 4, NearDistance: float32(1 + in.byte()%20),
			VehicleNearDistance: float32(1 + in.byte()%30), TeleportDistance: float32(1 + in.byte())})
		var now time.Duration
		bufA := make([]Recipient, 0, 8)
		bufB := make([]Recipient, 0, 8)
		before := &World{}
		defer func() {
			if err := w.checkInvariants(); err != nil {
				t.Fatal(err)
			}
		}()
		for steps := 0; len(in.b) > 0 && steps < 400; steps++ {
			if d := in.byte(); d >= 0xF8 {
				now -= time.Duration(d-0xF7) * ms // now and then a call from the past
			} else {
				now += time.Duration(d) * ms / 4
			}
			w.cloneInto(before)
			var err error
			switch op := in.byte() % 16; op {
			case 0:
				err = w.AddPlayer(now, in.player())
			case 1:
				err = w.RemovePlayer(now, in.player())
			case 2, 3, 4:
				_, err = w.RecordPlayer(now, in.player(), in.vec(), in.vehicle())
			case 5:
				err = w.MovePlayer(now, in.player(), in.vec())
			case 6:
				err = w.RespawnPlayer(now, in.player(), in.vec())
			case 7:
				err = w.FreezePlayer(now, in.player(), in.byte()&1 == 1)
			case 8:
				err = w.AddVehicle(now, in.vehicle(), in.pose())
			case 9:
				_, err = w.RecordVehicle(now, in.vehicle(), in.pose())
			case 10:
				switch in.byte() % 5 {
				case 0:
					err = w.MoveVehicle(now, in.vehicle(), in.pose())
				case 1:
					err = w.FreezeVehicle(now, in.vehicle(), in.byte()&1 == 1)
				case 2:
					err = w.WreckVehicle(now, in.vehicle())
				case 3:
					err = w.RespawnVehicle(now, in.vehicle(), in.pose())
				default:
					err = w.RemoveVehicle(now, in.vehicle())
				}
			case 11:
				_, err = w.Ping(now, in.player())
			case 12:
				var v PongVerdict
				v, err = w.Pong(now, in.player(), uint16(in.byte()%12))
				if err == nil && v != PongAccepted && !sameState(before, w) {
					t.Fatalf("a %v pong changed the world", v)
				}
			default:
				shooter := in.player()
				ray := Ray{Kind: RayKind(in.byte() % 4), Origin: in.vec(), Direction: in.vec(), Length: in.float() * 4}
				var got, want ShotResult
				got, err = w.Shot(now, shooter, ray, bufA)
				var errNaive error
				want, errNaive = w.shotNaive(now, shooter, ray, bufB)
				if (err == nil) != (errNaive == nil) || !reflect.DeepEqual(got, want) {
					t.Fatalf("shot %+v by %d: broadphase %+v (%v), brute force %+v (%v)", ray, shooter, got, err, want, errNaive)
				}
				if !sameState(before, w) {
					t.Fatal("a shot changed the world")
				}
				for k, r := range got.Recipients {
					if r.Player == shooter || (k > 0 && got.Recipients[k-1].Player >= r.Player) {
						t.Fatalf("recipients %+v of shooter %d", got.Recipients, shooter)
					}
					limit := w.cfg.NearDistance
					if r.Vehicle != NoVehicle {
						limit = w.cfg.VehicleNearDistance
					}
					if !(r.Distance <= limit) || !validPosition(r.Position) {
						t.Fatalf("recipient %+v (limit %v)", r, limit)
					}
				}
			}
			if err != nil && !sameState(before, w) {
				t.Fatalf("a refused call (%v) changed the world", err)
			}
			if steps%8 == 0 {
				if err := w.checkInvariants(); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
