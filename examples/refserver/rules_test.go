package refserver

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The cross-package rules, each alone, at its boundaries.

func TestShotCreditRuleIdentifiesTheShotAReportAnswers(t *testing.T) {
	r := DefaultRules().ShotCredit
	for _, c := range []struct {
		name    string
		found   bool
		since   time.Duration
		relayed bool
		want    Verdict
	}{
		{"a shot of this life, relayed to the victim's life", true, time.Second, true, VerdictAccepted},
		{"at the end of the window", true, ShotCreditWindow, true, VerdictAccepted},
		{"past the window", true, ShotCreditWindow + 1, true, VerdictNoSuchAction},
		{"no such shot (number, life or kind)", false, 0, true, VerdictNoSuchAction},
		{"accepted before the victim's life began", true, time.Second, false, VerdictNotRelayed},
	} {
		require.Equal(t, c.want, r.Identify(c.found, c.since, c.relayed), c.name)
	}
	for _, c := range []struct {
		name         string
		same, credit bool
		want         Verdict
	}{
		{"its weapon, a credit left", true, true, VerdictAccepted},
		{"another weapon", false, true, VerdictWrongWeapon},
		{"every pellet already credited", true, false, VerdictNoCredit},
	} {
		require.Equal(t, c.want, r.Credit(c.same, c.credit), c.name)
	}
}

func TestDetonationRuleCreditsAnExplosionOfTheAttackersProjectileNearby(t *testing.T) {
	r := DefaultRules().Detonation
	for _, c := range []struct {
		name                   string
		found                  bool
		since                  time.Duration
		relayed, cause, within bool
		want                   Verdict
	}{
		{"its grenade, just now, near", true, 0, true, true, true, VerdictAccepted},
		{"at the end of the window", true, ExplosionWindow, true, true, true, VerdictAccepted},
		{"past the window", true, ExplosionWindow + 1, true, true, true, VerdictNoSuchAction},
		{"no such detonation", false, 0, true, true, true, VerdictNoSuchAction},
		{"before the victim's life began", true, 0, false, true, true, VerdictNotRelayed},
		{"a bullet's weapon named", true, 0, true, false, true, VerdictWrongWeapon},
		{"the victim stood far", true, 0, true, true, false, VerdictTooFar},
	} {
		require.Equal(t, c.want, r.Judge(c.found, c.since, c.relayed, c.cause, c.within), c.name)
	}
}

func TestClaimReachRuleFeedsOnlyWhatTheTargetsTraceCouldConfirm(t *testing.T) {
	r := DefaultRules().ClaimReach
	for _, c := range []struct {
		name              string
		distance          float32
		vehicle, teammate bool
		want              bool
	}{
		{"a body within reach", ClaimReach, false, false, true},
		{"a body beyond reach: the shooter missed", ClaimReach + 0.01, false, false, false},
		{"a vehicle within its reach", VehicleClaimReach, true, false, true},
		{"a vehicle beyond its reach", VehicleClaimReach + 0.01, true, false, false},
		{"a teammate's claim, even point-blank", 0, false, true, false},
		{"no distance at all", float32(math.Inf(1)), false, false, false},
	} {
		require.Equal(t, c.want, r.Feeds(c.distance, c.vehicle, c.teammate), c.name)
	}
}

func TestActionGraceRuleKeepsABlowDealtAliveTheAttackers(t *testing.T) {
	r := DefaultRules().ActionGrace
	require.True(t, r.Acted(true, false, 0), "alive and acting")
	require.True(t, r.Acted(false, true, ActionGrace), "died within the grace")
	require.False(t, r.Acted(false, true, ActionGrace+1), "died before the grace")
	require.False(t, r.Acted(false, false, 0), "not acting, no death of this life")
}

func TestRamRuleNeedsARecentDriverWithinReach(t *testing.T) {
	r := DefaultRules().Ram
	for _, c := range []struct {
		name    string
		acted   bool
		since   time.Duration
		closest float32
		want    Verdict
	}{
		{"a driver close by", true, 0, RamDistance, VerdictAccepted},
		{"out of the seat within the window", true, ContinuousWindow, 1, VerdictAccepted},
		{"out of the seat too long", true, ContinuousWindow + 1, 1, VerdictNotDriving},
		{"never drove in this life", true, -1, 1, VerdictNotDriving},
		{"too far", true, 0, RamDistance + 0.01, VerdictTooFar},
		{"paths that never overlapped", true, 0, float32(math.Inf(1)), VerdictTooFar},
		{"dead past the grace", false, 0, 1, VerdictAttackerNotAlive},
	} {
		require.Equal(t, c.want, r.Judge(c.acted, c.since, c.closest), c.name)
	}
}

func TestStealthKillRuleIsTheKnifeInReach(t *testing.T) {
	r := DefaultRules().StealthKill
	require.Equal(t, VerdictAccepted, r.Judge(true, true, StealthKillRange))
	require.Equal(t, VerdictOutOfRange, r.Judge(true, true, StealthKillRange+0.01))
	require.Equal(t, VerdictOutOfRange, r.Judge(true, true, float32(math.NaN())), "no distance is no kill")
	require.Equal(t, VerdictNotOwned, r.Judge(true, false, 1))
	require.Equal(t, VerdictWrongKind, r.Judge(false, true, 1))
}

func TestVehicleCreditRuleNamesTheLastShooterOfThisLifeWithinTheWindow(t *testing.T) {
	r := DefaultRules().VehicleCredit
	require.True(t, r.Credited(true, true, VehicleCreditWindow))
	require.False(t, r.Credited(true, true, VehicleCreditWindow+1), "too long ago")
	require.False(t, r.Credited(true, false, time.Second), "a shot of its previous life")
	require.False(t, r.Credited(false, true, time.Second), "someone else hit it last")
	require.False(t, r.Credited(true, true, -time.Second), "a hit from the future")
}

func TestProximityRuleComparesPathsWithinTheSkew(t *testing.T) {
	r := ProximityRule{Lookback: time.Second, Skew: 200 * time.Millisecond, Step: 100 * time.Millisecond}
	now := 10 * time.Second
	// a stands still at the origin; b walked past it 600 ms ago, 1 m away, then left.
	a := func(time.Duration) (Point, bool) { return Point{}, true }
	b := func(t time.Duration) (Point, bool) {
		return Point{X: float32((t - (now - 600*time.Millisecond)).Seconds()) * 10, Y: 1}, true
	}
	require.InDelta(t, 1, r.Closest(now, a, b), 1e-4, "the closest they came in the lookback")
	// b only has a path from long ago: nothing within the lookback.
	none := func(time.Duration) (Point, bool) { return Point{}, false }
	require.True(t, math.IsInf(float64(r.Closest(now, a, none)), 1))
	// Moments further apart than the skew are not compared: b stood on the spot a reached
	// only in the last 100 ms, but it left 600 ms ago.
	arrived := func(t time.Duration) (Point, bool) { return Point{}, t >= now-100*time.Millisecond }
	left := func(t time.Duration) (Point, bool) {
		if t <= now-600*time.Millisecond {
			return Point{}, true
		}
		return Point{X: 50}, true
	}
	require.InDelta(t, 50, r.Closest(now, arrived, left), 1e-4, "a meeting 500 ms apart in time is beyond the 200 ms skew")
	require.InDelta(t, 0, ProximityRule{Lookback: time.Second, Skew: time.Second, Step: 100 * time.Millisecond}.Closest(now, arrived, left), 1e-4,
		"with a skew of a second the two moments are compared")
}
