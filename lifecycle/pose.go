package lifecycle

import "strconv"

// Pose is the death animation the victim's game played: the corpse lies the same on every
// screen because PlayerWasted carries it. The list is ours (record ADR 0017 leaves it to
// the game); it holds the animations GTA San Andreas plays for a dying ped, and a value
// that is not on it is replaced by PoseDefault. The String of a pose names the animation
// as "BLOCK/name".
type Pose uint8

// The death poses the game can produce.
const (
	// PoseDefault is PED/KO_shot_front, the plain fall backwards: the pose of a death whose
	// report named no pose the game can produce, and of every death the server committed
	// without a report.
	PoseDefault Pose = iota
	// PoseShotFace is PED/KO_shot_face, a hit in the head.
	PoseShotFace
	// PoseShotStomach is PED/KO_shot_stom, doubling over a hit in the stomach.
	PoseShotStomach
	// PoseSkidFront is PED/KO_skid_front, thrown forward while running.
	PoseSkidFront
	// PoseSkidBack is PED/KO_skid_back, thrown backward.
	PoseSkidBack
	// PoseSpinLeft is PED/KO_spin_L.
	PoseSpinLeft
	// PoseSpinRight is PED/KO_spin_R.
	PoseSpinRight
	// PoseKnockedLeft is PED/KD_left, knocked down to the left.
	PoseKnockedLeft
	// PoseKnockedRight is PED/KD_right, knocked down to the right.
	PoseKnockedRight
	// PoseFloorBack is PED/FLOOR_hit, killed lying on the back.
	PoseFloorBack
	// PoseFloorFront is PED/FLOOR_hit_f, killed lying face down.
	PoseFloorFront
	// PoseDrown is PED/DROWN.
	PoseDrown
	// PoseCarDeadLeft is PED/CAR_dead_LHS, dead in a vehicle seat on the left.
	PoseCarDeadLeft
	// PoseCarDeadRight is PED/CAR_dead_RHS, dead in a vehicle seat on the right.
	PoseCarDeadRight
	// PoseBikeFallOff is PED/BIKE_fall_off.
	PoseBikeFallOff
	// PoseBikeFallRight is PED/BIKE_fallR.
	PoseBikeFallRight
	// PoseFallCollapse is PED/FALL_collapse, a fatal landing.
	PoseFallCollapse
	// PoseKnifeStealth is KNIFE/KILL_Knife_Ped_Die, the victim's side of a stealth kill.
	PoseKnifeStealth

	// poseCount is the number of poses on the list; every Pose below it is valid.
	poseCount
)

var poseNames = [poseCount]string{
	PoseDefault:       "PED/KO_shot_front",
	PoseShotFace:      "PED/KO_shot_face",
	PoseShotStomach:   "PED/KO_shot_stom",
	PoseSkidFront:     "PED/KO_skid_front",
	PoseSkidBack:      "PED/KO_skid_back",
	PoseSpinLeft:      "PED/KO_spin_L",
	PoseSpinRight:     "PED/KO_spin_R",
	PoseKnockedLeft:   "PED/KD_left",
	PoseKnockedRight:  "PED/KD_right",
	PoseFloorBack:     "PED/FLOOR_hit",
	PoseFloorFront:    "PED/FLOOR_hit_f",
	PoseDrown:         "PED/DROWN",
	PoseCarDeadLeft:   "PED/CAR_dead_LHS",
	PoseCarDeadRight:  "PED/CAR_dead_RHS",
	PoseBikeFallOff:   "PED/BIKE_fall_off",
	PoseBikeFallRight: "PED/BIKE_fallR",
	PoseFallCollapse:  "PED/FALL_collapse",
	PoseKnifeStealth:  "KNIFE/KILL_Knife_Ped_Die",
}

// Valid reports whether the game can produce p (it is on the list).
func (p Pose) Valid() bool { return p < poseCount }

// OrDefault returns p if it is on the list, PoseDefault otherwise: the server's
// replacement of a pose the game cannot produce.
func (p Pose) OrDefault() Pose {
	if p.Valid() {
		return p
	}
	return PoseDefault
}

// String names the animation ("PED/KO_shot_face"), or "pose(200)" off the list.
func (p Pose) String() string {
	if p.Valid() {
		return poseNames[p]
	}
	return "pose(" + strconv.Itoa(int(p)) + ")"
}
