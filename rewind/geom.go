package rewind

import "math"

// Vec3 is a position in the game world, in metres: X and Y span the map, Z is up (the
// game's axes). The field list matches the other packages of the SDK, so the host
// converts between them with a plain type conversion.
type Vec3 struct{ X, Y, Z float32 }

// Quat is a rotation as a quaternion, W its scalar part (the identity is Quat{W: 1}).
// The world stores every rotation it accepts normalised; a rotation whose length is zero
// or not finite is refused.
type Quat struct{ W, X, Y, Z float32 }

// Pose is where a vehicle stands.
type Pose struct {
	// Position is the vehicle's position.
	Position Vec3
	// Rotation is the vehicle's orientation.
	Rotation Quat
}

// finite reports whether f is neither NaN nor ±Inf (f-f is NaN for both).
func finite(f float32) bool { return f-f == 0 }

// validPosition reports whether every coordinate of p is finite and within MaxCoordinate.
func validPosition(p Vec3) bool {
	return finite(p.X) && finite(p.Y) && finite(p.Z) &&
		abs32(p.X) <= MaxCoordinate && abs32(p.Y) <= MaxCoordinate && abs32(p.Z) <= MaxCoordinate
}

func abs32(f float32) float32 { return math.Float32frombits(math.Float32bits(f) &^ (1 << 31)) }

// normalize returns q scaled to unit length, or false if q is not finite or too short to
// have a direction.
func normalize(q Quat) (Quat, bool) {
	if !finite(q.W) || !finite(q.X) || !finite(q.Y) || !finite(q.Z) {
		return Quat{}, false
	}
	w, x, y, z := float64(q.W), float64(q.X), float64(q.Y), float64(q.Z)
	n2 := dot4(w, x, y, z, w, x, y, z)
	if !(n2 >= minQuatNorm2) {
		return Quat{}, false
	}
	inv := 1 / math.Sqrt(n2)
	return Quat{W: float32(w * inv), X: float32(x * inv), Y: float32(y * inv), Z: float32(z * inv)}, true
}

// minQuatNorm2 is the smallest squared length a rotation may have to count as one: below
// it the direction of the quaternion is rounding noise.
const minQuatNorm2 = 1e-6

// dist2 is the squared distance between a and b, in float64.
func dist2(a, b Vec3) float64 {
	dx := float64(a.X) - float64(b.X)
	dy := float64(a.Y) - float64(b.Y)
	dz := float64(a.Z) - float64(b.Z)
	return dot3(dx, dy, dz, dx, dy, dz)
}

// lerp returns the point a fraction f of the way from a to b.
func lerp(a, b Vec3, f float64) Vec3 {
	return Vec3{
		X: float32(madd(float64(a.X), float64(b.X)-float64(a.X), f)),
		Y: float32(madd(float64(a.Y), float64(b.Y)-float64(a.Y), f)),
		Z: float32(madd(float64(a.Z), float64(b.Z)-float64(a.Z), f)),
	}
}

// nlerp blends two unit rotations a fraction f of the way from a to b along the shorter
// arc and renormalises. Between two samples of one history (a few degrees apart at any
// frame rate) it differs from slerp by far less than the game's own precision.
func nlerp(a, b Quat, f float64) Quat {
	aw, ax, ay, az := float64(a.W), float64(a.X), float64(a.Y), float64(a.Z)
	bw, bx, by, bz := float64(b.W), float64(b.X), float64(b.Y), float64(b.Z)
	if dot4(aw, ax, ay, az, bw, bx, by, bz) < 0 { // q and -q are the same rotation: take the near one
		bw, bx, by, bz = -bw, -bx, -by, -bz
	}
	g := 1 - f
	w, x, y, z := madd(float64(aw*g), bw, f), madd(float64(ax*g), bx, f), madd(float64(ay*g), by, f), madd(float64(az*g), bz, f)
	n2 := dot4(w, x, y, z, w, x, y, z)
	if !(n2 > 0) { // exactly opposite inputs cannot happen after the sign flip; stay safe
		return a
	}
	inv := 1 / math.Sqrt(n2)
	return Quat{W: float32(w * inv), X: float32(x * inv), Y: float32(y * inv), Z: float32(z * inv)}
}

// segment is a shot's ray as the closed segment from its origin along a unit direction.
type segment struct {
	ox, oy, oz float64 // origin
	dx, dy, dz float64 // unit direction
	length     float64
}

// newSegment builds the segment of a ray that passed validation.
func newSegment(origin, dir Vec3, length float32) segment {
	dx, dy, dz := float64(dir.X), float64(dir.Y), float64(dir.Z)
	inv := 1 / math.Sqrt(dot3(dx, dy, dz, dx, dy, dz))
	return segment{
		ox: float64(origin.X), oy: float64(origin.Y), oz: float64(origin.Z),
		dx: dx * inv, dy: dy * inv, dz: dz * inv,
		length: float64(length),
	}
}

// dist2 is the squared distance from p to the nearest point of the segment.
func (s *segment) dist2(p Vec3) float64 {
	px := float64(p.X) - s.ox
	py := float64(p.Y) - s.oy
	pz := float64(p.Z) - s.oz
	t := dot3(px, py, pz, s.dx, s.dy, s.dz)
	if t < 0 {
		t = 0
	} else if t > s.length {
		t = s.length
	}
	ex, ey, ez := madd(px, -s.dx, t), madd(py, -s.dy, t), madd(pz, -s.dz, t)
	return dot3(ex, ey, ez, ex, ey, ez)
}

// The arithmetic below rounds every product on its own (an explicit conversion does
// that in Go), so no platform fuses a multiply and an add into one instruction and a
// World gives the same answers, bit for bit, on every platform: a match recorded on one
// machine replays on another.

// madd returns a + b*c.
func madd(a, b, c float64) float64 { return a + float64(b*c) }

// dot3 returns the dot product of (ax, ay, az) and (bx, by, bz).
func dot3(ax, ay, az, bx, by, bz float64) float64 {
	return float64(ax*bx) + float64(ay*by) + float64(az*bz)
}

// dot4 returns the dot product of two 4-vectors.
func dot4(aw, ax, ay, az, bw, bx, by, bz float64) float64 {
	return float64(aw*bw) + float64(ax*bx) + float64(ay*by) + float64(az*bz)
}
