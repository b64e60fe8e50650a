package lifecycle

//go:generate go tool stringer -type=Pose -linecomment

// Pose is the death animation the victim's game played: the corpse lies the same on every
// screen because PlayerWasted carries it. The list is ours ([default-pose]; the game
// decides the animation); it holds the animations GTA San Andreas plays for a dying ped, and a value
// that is not on it is replaced by PoseDefault. The String of a pose names the animation
// as "BLOCK/name".
type Pose uint8

// The death poses the game can produce.
const (
	// PoseDefault is PED/KO_shot_front, the plain fall backwards: the pose of a death whose
	// report named no pose the game can produce, and of every death the server committed
	// without a report.
	PoseDefault Pose = iota // PED/KO_shot_front
	// PoseShotFace is PED/KO_shot_face, a hit in the head.
	PoseShotFace // PED/KO_shot_face
	// PoseShotStomach is PED/KO_shot_stom, doubling over a hit in the stomach.
	PoseShotStomach // PED/KO_shot_stom
	// PoseSkidFront is PED/KO_skid_front, thrown forward while running.
	PoseSkidFront // PED/KO_skid_front
	// PoseSkidBack is PED/KO_skid_back, thrown backward.
	PoseSkidBack // PED/KO_skid_back
	// PoseSpinLeft is PED/KO_spin_L.
	PoseSpinLeft // PED/KO_spin_L
	// PoseSpinRight is PED/KO_spin_R.
	PoseSpinRight // PED/KO_spin_R
	// PoseKnockedLeft is PED/KD_left, knocked down to the left.
	PoseKnockedLeft // PED/KD_left
	// PoseKnockedRight is PED/KD_right, knocked down to the right.
	PoseKnockedRight // PED/KD_right
	// PoseFloorBack is PED/FLOOR_hit, killed lying on the back.
	PoseFloorBack // PED/FLOOR_hit
	// PoseFloorFront is PED/FLOOR_hit_f, killed lying face down.
	PoseFloorFront // PED/FLOOR_hit_f
	// PoseDrown is PED/DROWN.
	PoseDrown // PED/DROWN
	// PoseCarDeadLeft is PED/CAR_dead_LHS, dead in a vehicle seat on the left.
	PoseCarDeadLeft // PED/CAR_dead_LHS
	// PoseCarDeadRight is PED/CAR_dead_RHS, dead in a vehicle seat on the right.
	PoseCarDeadRight // PED/CAR_dead_RHS
	// PoseBikeFallOff is PED/BIKE_fall_off.
	PoseBikeFallOff // PED/BIKE_fall_off
	// PoseBikeFallRight is PED/BIKE_fallR.
	PoseBikeFallRight // PED/BIKE_fallR
	// PoseFallCollapse is PED/FALL_collapse, a fatal landing.
	PoseFallCollapse // PED/FALL_collapse
	// PoseKnifeStealth is KNIFE/KILL_Knife_Ped_Die, the victim's side of a stealth kill.
	PoseKnifeStealth // KNIFE/KILL_Knife_Ped_Die

	// poseCount is the number of poses on the list; every Pose below it is valid.
	poseCount
)

// Valid reports whether the game can produce p (it is on the list).
func (p Pose) Valid() bool { return p < poseCount }

// OrDefault returns p if it is on the list, PoseDefault otherwise: the server's
// replacement of a pose the game cannot produce.
//
// Rules: [default-pose].
func (p Pose) OrDefault() Pose {
	if p.Valid() {
		return p
	}
	return PoseDefault
}
