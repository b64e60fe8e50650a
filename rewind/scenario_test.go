package rewind

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/arbitergo/arbiter/internal/scenario"
)

// The scenario driver. Each file in testdata/scenarios (beside the fuzz corpus) holds
// scenarios read with datadriven: a "# name" comment, then one "run" block (a new World)
// whose input is a list of timed events, one per line (see internal/scenario):
//
//	<time> <verb> [word ...] [key=value ...]
//
// The run line may set the Config: players=N, vehicles=N (8 each unless set), near=M,
// vehicle-near=M, teleport=M. Players and vehicles are named by their ids. A point is
// X/Y/Z; a rotation is given as yaw=<degrees> about the vertical axis (0 unless set). Verbs:
//
//	add-player <p>                       AddPlayer
//	remove-player <p>                    RemovePlayer
//	record <p> pos=P [seat=<v>]          RecordPlayer (on foot without seat=)
//	walk <p> [<p> ...] to=T pos=P,... [vel=V,...] [every=D] [seat=<v>]
//	                                     RecordPlayer every D (33ms unless set) from the
//	                                     line's time to T, each player at its P + V·(t − the
//	                                     line's time), in the order given at each step (the
//	                                     verdicts counted are the first player's)
//	drive <v> to=T pos=P [vel=V] [yaw=Y] [turn=deg/s] [every=D] [riders=p,...]
//	          [alongside=p,...] [stand=p@P,...]
//	                                     RecordVehicle the same way, turning at turn; at each
//	                                     step the riders' frames seat them in v at its
//	                                     position, alongside's frames put them there on foot,
//	                                     and stand's on foot at their fixed points
//	move <p> pos=P, respawn <p> pos=P    MovePlayer, RespawnPlayer
//	freeze <p> on|off                    FreezePlayer
//	add-vehicle <v> pos=P [yaw=Y]        AddVehicle
//	remove-vehicle <v>                   RemoveVehicle
//	record-vehicle <v> pos=P [yaw=Y]     RecordVehicle
//	move-vehicle <v> pos=P [yaw=Y], respawn-vehicle <v> pos=P [yaw=Y]
//	freeze-vehicle <v> on|off            FreezeVehicle
//	wreck <v>                            WreckVehicle
//	seat <p>                             Seat
//	player-at <p> at=T [is=P], vehicle-at <v> at=T [is=P [yaw=Y]]
//	                                     PlayerAt, VehicleAt; with is= the output says
//	                                     whether the value is exactly that point (and pose)
//	approach <p> from=T point=P, vehicle-approach <v> from=T point=P
//	                                     PlayerApproach, VehicleApproach
//	ping <p> [as=name]                   Ping (the id is kept under the name)
//	pong <p> [ping=name[+N]] [seq=N]     Pong of the named ping (the last one unless set),
//	                                     or of the id N after it, or of the id seq; "world
//	                                     unchanged" when the World is exactly as before
//	answer <p> rtt=D                     a Ping at the line's time answered by a Pong D later
//	rtt <p> value=D                      RTTWindow answers of D back to back from the line's
//	                                     time: the estimate becomes exactly D
//	estimate <p>                         RTT ("unknown (estimate D)" before MinRTTSamples)
//	ping-due <p>                         PingDue
//	shot <p> [kind=weapon|vehicle-gun|cannon] [origin=P] [dir=V] [len=L] [from-vehicle=<v>]
//	                                     Shot (a ray along +x from 0/0/0, 100 m, unless set)
//
// The block's output, written by the driver (go test ./rewind -run Scenario -rewrite
// regenerates it), has one line per event: what the call returned ("error: ..." for an
// error). A shot writes its verdict, how far back it went and to when, then each recipient:
// its verdict, position, distance from the ray and vehicle pose, each followed by "(path)"
// when it is bit for bit the entity's accessor value at the shot's moment and "(present)"
// when it is its present one. On every shot the driver also checks that the broadphase
// agrees with the naive scan of every slot, that the shot changed nothing, and that a
// second look gives the same recipients; and after every event, that the World's
// bookkeeping is sound.

type rewindScenario struct {
	t     *testing.T
	w     *World
	pings map[string]uint16
	last  map[PlayerID]uint16
}

func parseVec(l scenario.Line, key string, def Vec3) Vec3 {
	v, ok := l.Args[key]
	if !ok {
		return def
	}
	return vecOf(l, v)
}

func vecOf(l scenario.Line, v string) Vec3 {
	f := strings.Split(v, "/")
	if len(f) != 3 {
		l.Fatalf("point %q: want X/Y/Z", v)
	}
	var n [3]float32
	for i, s := range f {
		x, err := strconv.ParseFloat(s, 32)
		if err != nil {
			l.Fatalf("point %q: %v", v, err)
		}
		n[i] = float32(x)
	}
	return Vec3{n[0], n[1], n[2]}
}

func fmtVec(v Vec3) string { return scenario.F(v.X) + "/" + scenario.F(v.Y) + "/" + scenario.F(v.Z) }

// fmtPose writes a pose as its position and its yaw in degrees, or its whole rotation when
// it is not a rotation about the vertical axis.
func fmtPose(p Pose) string {
	q := p.Rotation
	if q.X == 0 && q.Y == 0 {
		deg := 2 * math.Atan2(float64(q.Z), float64(q.W)) * 180 / math.Pi
		if deg > 180 {
			deg -= 360
		}
		if deg <= -180 {
			deg += 360
		}
		return fmtVec(p.Position) + " yaw " + scenario.F(float32(deg))
	}
	return fmtVec(p.Position) + " rot " + scenario.F(q.W) + "/" + scenario.F(q.X) + "/" + scenario.F(q.Y) + "/" + scenario.F(q.Z)
}

func poseArg(l scenario.Line, pos Vec3) Pose {
	return Pose{Position: pos, Rotation: yaw(float64(l.F32("yaw", 0)))}
}

func idOf(l scenario.Line, s string) uint16 {
	if s == "none" {
		return 0xFFFF
	}
	n, err := strconv.ParseUint(s, 10, 16)
	if err != nil {
		l.Fatalf("id %q: %v", s, err)
	}
	return uint16(n)
}

func (s *rewindScenario) pid(l scenario.Line) PlayerID  { return PlayerID(idOf(l, l.Word(0))) }
func (s *rewindScenario) vid(l scenario.Line) VehicleID { return VehicleID(idOf(l, l.Word(0))) }

func seatArg(l scenario.Line) VehicleID {
	if !l.Has("seat") {
		return NoVehicle
	}
	return VehicleID(idOf(l, l.Str("seat", "")))
}

func onOff(l scenario.Line) bool {
	switch l.Word(1) {
	case "on":
		return true
	case "off":
		return false
	}
	l.Fatalf("want on or off")
	return false
}

// exactly writes whether a value is bit for bit the one the line gave with is=.
func exactly(same bool) string {
	if same {
		return " (exactly)"
	}
	return " (not exactly)"
}

func ok(err error, out string) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return out
}

func (s *rewindScenario) answer(l scenario.Line, now time.Duration, p PlayerID, rtt time.Duration) (PongVerdict, error) {
	seq, err := s.w.Ping(now, p)
	if err != nil {
		return 0, err
	}
	s.last[p] = seq
	return s.w.Pong(now+rtt, p, seq)
}

func (s *rewindScenario) rttOf(p PlayerID) string {
	rtt, known := s.w.RTT(p)
	switch {
	case known:
		return "rtt " + rtt.String()
	case rtt != 0:
		return "rtt unknown (estimate " + rtt.String() + ")"
	}
	return "rtt unknown"
}

func (s *rewindScenario) run(l scenario.Line) string {
	w, now := s.w, l.At
	switch l.Verb {
	case "add-player":
		return ok(w.AddPlayer(now, s.pid(l)), "added")
	case "remove-player":
		return ok(w.RemovePlayer(now, s.pid(l)), "removed")
	case "record":
		v, err := w.RecordPlayer(now, s.pid(l), parseVec(l, "pos", Vec3{}), seatArg(l))
		return ok(err, v.String())
	case "walk", "drive":
		return s.move(l)
	case "move":
		return ok(w.MovePlayer(now, s.pid(l), parseVec(l, "pos", Vec3{})), "moved")
	case "respawn":
		return ok(w.RespawnPlayer(now, s.pid(l), parseVec(l, "pos", Vec3{})), "respawned")
	case "freeze":
		return ok(w.FreezePlayer(now, s.pid(l), onOff(l)), "frozen "+l.Word(1))
	case "add-vehicle":
		return ok(w.AddVehicle(now, s.vid(l), poseArg(l, parseVec(l, "pos", Vec3{}))), "added")
	case "remove-vehicle":
		return ok(w.RemoveVehicle(now, s.vid(l)), "removed")
	case "record-vehicle":
		v, err := w.RecordVehicle(now, s.vid(l), poseArg(l, parseVec(l, "pos", Vec3{})))
		return ok(err, v.String())
	case "move-vehicle":
		return ok(w.MoveVehicle(now, s.vid(l), poseArg(l, parseVec(l, "pos", Vec3{}))), "moved")
	case "respawn-vehicle":
		return ok(w.RespawnVehicle(now, s.vid(l), poseArg(l, parseVec(l, "pos", Vec3{}))), "respawned")
	case "freeze-vehicle":
		return ok(w.FreezeVehicle(now, s.vid(l), onOff(l)), "frozen "+l.Word(1))
	case "wreck":
		return ok(w.WreckVehicle(now, s.vid(l)), "wrecked")
	case "seat":
		v, err := w.Seat(s.pid(l))
		if v == NoVehicle {
			return ok(err, "on foot")
		}
		return ok(err, "in vehicle "+strconv.Itoa(int(v)))
	case "player-at":
		p, err := w.PlayerAt(l.Dur("at", now), s.pid(l))
		out := fmtVec(p)
		if l.Has("is") {
			out += exactly(p == parseVec(l, "is", Vec3{}))
		}
		return ok(err, out)
	case "vehicle-at":
		p, err := w.VehicleAt(l.Dur("at", now), s.vid(l))
		out := fmtPose(p)
		if l.Has("is") {
			out += exactly(p == poseArg(l, parseVec(l, "is", Vec3{})))
		}
		return ok(err, out)
	case "approach", "vehicle-approach":
		var a Approach
		var err error
		if l.Verb == "approach" {
			a, err = w.PlayerApproach(l.Dur("from", now), s.pid(l), parseVec(l, "point", Vec3{}))
		} else {
			a, err = w.VehicleApproach(l.Dur("from", now), s.vid(l), parseVec(l, "point", Vec3{}))
		}
		return ok(err, fmt.Sprintf("distance %s length %s span %v newest %v",
			scenario.F(float32(a.Distance)), scenario.F(float32(a.Length)), a.Span, a.Newest))
	case "ping":
		p := s.pid(l)
		seq, err := w.Ping(now, p)
		if err != nil {
			return "error: " + err.Error()
		}
		s.last[p] = seq
		if l.Has("as") {
			s.pings[l.Str("as", "")] = seq
		}
		return "ping " + strconv.Itoa(int(seq))
	case "pong":
		p := s.pid(l)
		seq := s.last[p]
		if l.Has("ping") {
			name, plus, _ := strings.Cut(l.Str("ping", ""), "+")
			got, known := s.pings[name]
			if !known {
				l.Fatalf("no ping named %q", name)
			}
			seq = got
			if plus != "" {
				n, err := strconv.ParseUint(plus, 0, 16)
				if err != nil {
					l.Fatalf("ping=%s: %v", l.Str("ping", ""), err)
				}
				seq += uint16(n)
			}
		}
		if l.Has("seq") {
			seq = uint16(l.Uint("seq", 16, 0))
		}
		before := w.clone()
		v, err := w.Pong(now, p, seq)
		out := fmt.Sprintf("pong %d %v | %s", seq, v, s.rttOf(p))
		if sameState(before, w) {
			out += " | world unchanged"
		}
		return ok(err, out)
	case "answer":
		p := s.pid(l)
		v, err := s.answer(l, now, p, l.Dur("rtt", 0))
		return ok(err, fmt.Sprintf("%v | %s", v, s.rttOf(p)))
	case "rtt":
		p, rtt := s.pid(l), l.Dur("value", 0)
		at := now
		for range RTTWindow {
			v, err := s.answer(l, at, p, rtt)
			if err != nil {
				return "error: " + err.Error()
			}
			if v != PongAccepted {
				return "pong " + v.String()
			}
			at += rtt
		}
		return fmt.Sprintf("%d pongs, the last at %v | %s", RTTWindow, at, s.rttOf(p))
	case "estimate":
		return s.rttOf(s.pid(l))
	case "ping-due":
		if w.PingDue(now, s.pid(l)) {
			return "due"
		}
		return "not due"
	case "shot":
		return s.shot(l)
	}
	l.Fatalf("unknown verb %q", l.Verb)
	return ""
}

// move runs walk and drive.
func (s *rewindScenario) move(l scenario.Line) string {
	w := s.w
	start := l.At
	every, to := l.Dur("every", 33*ms), l.Dur("to", l.At)
	yaw0, turn := float64(l.F32("yaw", 0)), float64(l.F32("turn", 0))
	var riders, alongside []PlayerID
	var standing []PlayerID
	var stands []Vec3
	for _, key := range []string{"riders", "alongside", "stand"} {
		if !l.Has(key) {
			continue
		}
		for _, f := range strings.Split(l.Str(key, ""), ",") {
			switch key {
			case "riders":
				riders = append(riders, PlayerID(idOf(l, f)))
			case "alongside":
				alongside = append(alongside, PlayerID(idOf(l, f)))
			case "stand":
				id, at, found := strings.Cut(f, "@")
				if !found {
					l.Fatalf("stand %q: want <player>@X/Y/Z", f)
				}
				standing, stands = append(standing, PlayerID(idOf(l, id))), append(stands, vecOf(l, at))
			}
		}
	}
	var walkers []PlayerID
	var wpos, wvel []Vec3
	if l.Verb == "walk" {
		for _, id := range l.Words {
			walkers = append(walkers, PlayerID(idOf(l, id)))
		}
		for _, f := range strings.Split(l.Str("pos", "0/0/0"), ",") {
			wpos = append(wpos, vecOf(l, f))
		}
		if l.Has("vel") {
			for _, f := range strings.Split(l.Str("vel", ""), ",") {
				wvel = append(wvel, vecOf(l, f))
			}
		} else {
			wvel = make([]Vec3, len(walkers))
		}
		if len(wpos) != len(walkers) || len(wvel) != len(walkers) {
			l.Fatalf("walk: want one pos and one vel per player")
		}
	}
	counts := map[RecordVerdict]int{}
	n := 0
	var last Vec3
	var lastPose Pose
	for at := start; at <= to; at += every {
		dt := float32(at-start) / float32(time.Second)
		var v RecordVerdict
		var err error
		if l.Verb == "walk" {
			for i, id := range walkers {
				q := Vec3{wpos[i].X + wvel[i].X*dt, wpos[i].Y + wvel[i].Y*dt, wpos[i].Z + wvel[i].Z*dt}
				var vi RecordVerdict
				if vi, err = w.RecordPlayer(at, id, q, seatArg(l)); err != nil {
					break
				}
				if i == 0 {
					v, last = vi, q
				}
			}
		} else {
			pos, vel := parseVec(l, "pos", Vec3{}), parseVec(l, "vel", Vec3{})
			p := Vec3{pos.X + vel.X*dt, pos.Y + vel.Y*dt, pos.Z + vel.Z*dt}
			lastPose = Pose{Position: p, Rotation: yaw(yaw0 + turn*float64(dt))}
			v, err = w.RecordVehicle(at, s.vid(l), lastPose)
			for _, r := range riders {
				if err == nil {
					_, err = w.RecordPlayer(at, r, p, s.vid(l))
				}
			}
			for _, r := range alongside {
				if err == nil {
					_, err = w.RecordPlayer(at, r, p, NoVehicle)
				}
			}
			for i, r := range standing {
				if err == nil {
					_, err = w.RecordPlayer(at, r, stands[i], NoVehicle)
				}
			}
		}
		if err != nil {
			return fmt.Sprintf("error at %v: %v", at, err)
		}
		counts[v]++
		n++
	}
	var parts []string
	for v := Started; v <= Teleported; v++ {
		if counts[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %v", counts[v], v))
		}
	}
	end := fmtVec(last)
	if l.Verb == "drive" {
		end = fmtPose(lastPose)
	}
	what := "frames"
	if l.Verb == "walk" && len(walkers) > 1 {
		what = "steps"
	}
	return fmt.Sprintf("%d %s to %v (%s), last at %s", n, what, w.Now(), strings.Join(parts, ", "), end)
}

func (s *rewindScenario) shot(l scenario.Line) string {
	w, now, shooter := s.w, l.At, s.pid(l)
	ray := Ray{Kind: WeaponRay, Origin: parseVec(l, "origin", Vec3{}), Direction: parseVec(l, "dir", Vec3{1, 0, 0}), Length: l.F32("len", 100)}
	switch l.Str("kind", "weapon") {
	case "weapon":
	case "vehicle-gun":
		ray.Kind = VehicleGunRay
	case "cannon":
		ray.Kind = CannonRay
	default:
		l.Fatalf("kind: want weapon, vehicle-gun or cannon")
	}
	if l.Has("from-vehicle") {
		ray.FromVehicle, ray.Vehicle = true, VehicleID(idOf(l, l.Str("from-vehicle", "")))
	}
	before := w.clone()
	res, err := w.Shot(now, shooter, ray, make([]Recipient, 0, 8))
	if !sameState(before, w) {
		l.Fatalf("a shot changed the world")
	}
	naive, nerr := w.shotNaive(now, shooter, ray, nil)
	if (err == nil) != (nerr == nil) || fmt.Sprint(naive) != fmt.Sprint(res) {
		l.Fatalf("naive scan disagrees: %+v, %v vs %+v, %v", naive, nerr, res, err)
	}
	if err != nil {
		return "error: " + err.Error()
	}
	again, _ := w.Shot(now, shooter, ray, nil)
	if fmt.Sprint(again) != fmt.Sprint(res) {
		l.Fatalf("a second look differs: %+v vs %+v", again, res)
	}
	out := fmt.Sprintf("%v back %v to %v", res.Verdict, res.Back, res.At)
	if len(res.Recipients) == 0 {
		return out + ": no recipients"
	}
	var rs []string
	for _, r := range res.Recipients {
		rs = append(rs, s.recipient(l, res.At, r))
	}
	return out + ": " + strings.Join(rs, "; ")
}

// recipient writes one recipient, naming where its poses come from.
func (s *rewindScenario) recipient(l scenario.Line, at time.Duration, r Recipient) string {
	w := s.w
	whence := func(path, present bool) string {
		switch {
		case path && present:
			return " (path, present)"
		case path:
			return " (path)"
		case present:
			return " (present)"
		}
		return ""
	}
	pathP, err := w.PlayerAt(at, r.Player)
	if err != nil {
		l.Fatalf("recipient %d: %v", r.Player, err)
	}
	presentP, _ := w.PlayerAt(max(w.Now(), l.At), r.Player)
	out := fmt.Sprintf("%d %v at %s%s dist %s", r.Player, r.Verdict, fmtVec(r.Position),
		whence(r.Position == pathP, r.Position == presentP), scenario.F(r.Distance))
	if r.Vehicle == NoVehicle {
		if r.VehiclePose != (Pose{}) {
			l.Fatalf("recipient %d on foot with a vehicle pose %v", r.Player, r.VehiclePose)
		}
		return out
	}
	pathV, err := w.VehicleAt(at, r.Vehicle)
	if err != nil {
		l.Fatalf("vehicle %d: %v", r.Vehicle, err)
	}
	presentV, _ := w.VehicleAt(max(w.Now(), l.At), r.Vehicle)
	return out + fmt.Sprintf(" in %d at %s%s", r.Vehicle, fmtPose(r.VehiclePose),
		whence(r.VehiclePose == pathV, r.VehiclePose == presentV))
}

func runRewindScenario(t *testing.T, d *datadriven.TestData) string {
	cfg := Config{Players: 8, Vehicles: 8}
	args := "0 run"
	for _, a := range d.CmdArgs {
		args += " " + a.String()
	}
	l := scenario.Lines(t, args)[0]
	for k := range l.Args {
		switch k {
		case "players":
			cfg.Players = int(l.Uint(k, 16, 0))
		case "vehicles":
			cfg.Vehicles = int(l.Uint(k, 16, 0))
		case "near":
			cfg.NearDistance = l.F32(k, 0)
		case "vehicle-near":
			cfg.VehicleNearDistance = l.F32(k, 0)
		case "teleport":
			cfg.TeleportDistance = l.F32(k, 0)
		default:
			l.Fatalf("unknown config %q", k)
		}
	}
	s := &rewindScenario{t: t, w: mustWorld(t, cfg), pings: map[string]uint16{}, last: map[PlayerID]uint16{}}
	var out strings.Builder
	for _, l := range scenario.Lines(t, d.Input) {
		head := l.Verb
		if len(l.Words) > 0 {
			head += " " + strings.Join(l.Words, " ")
		}
		fmt.Fprintf(&out, "%-7s %s: %s\n", l.Time, head, s.run(l))
		if err := s.w.checkInvariants(); err != nil {
			l.Fatalf("after the event: %v", err)
		}
	}
	return out.String()
}

// TestScenario runs every scenario file in testdata/scenarios.
func TestScenario(t *testing.T) {
	datadriven.Walk(t, "testdata/scenarios", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "run" {
				d.Fatalf(t, "unknown command %q: want run", d.Cmd)
			}
			return runRewindScenario(t, d)
		})
	})
}
