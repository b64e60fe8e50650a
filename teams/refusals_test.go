package teams

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReportVerdictFollowsTheRelationNowAndTheCarriedStamp(t *testing.T) {
	tests := []struct {
		f    ReportFacts
		want ReportVerdict
	}{
		{ReportFacts{}, ReportCredited},
		{ReportFacts{Stamped: true}, ReportCredited},
		{ReportFacts{TeammatesNow: true}, ReportRefusedTeammates},
		{ReportFacts{TeammatesNow: true, Stamped: true}, ReportDiscardedTeamChange},
		{ReportFacts{TeammatesNow: true, Stamped: true, StampedTeammates: true}, ReportRefusedTeammateStamp},
		{ReportFacts{Stamped: true, StampedTeammates: true}, ReportRefusedTeammateStamp},
		{ReportFacts{StampedTeammates: true}, ReportCredited},                             // not stamped: the flag means nothing
		{ReportFacts{TeammatesNow: true, StampedTeammates: true}, ReportRefusedTeammates}, // idem
	}
	for _, tc := range tests {
		t.Run(tc.want.String(), func(t *testing.T) {
			v := JudgeReport(tc.f)
			require.Equal(t, tc.want, v, "%+v", tc.f)
			require.Equal(t, tc.want == ReportCredited, v.Credited())
		})
	}
}

func TestReportBetweenTeammatesIsNotCredited(t *testing.T) {
	r := world(t)
	v, err := r.JudgeReport(redB, redA, Action{}) // a melee blow between teammates
	require.NoError(t, err)
	require.Equal(t, ReportRefusedTeammates, v)
	require.False(t, v.Credited(), "no player_damage, no last damage")

	v, err = r.JudgeReport(blueA, redA, Action{})
	require.NoError(t, err)
	require.Equal(t, ReportCredited, v)

	shot := r.Stamp(redB, redA)
	v, err = r.JudgeReport(redB, redA, Action{Stamped: true, Rev: shot.Rev})
	require.NoError(t, err)
	require.Equal(t, ReportRefusedTeammateStamp, v, "an honest victim refuses a teammate's shot and never reports it")
}

func TestReportWithoutAnAttackerIsCredited(t *testing.T) {
	r := world(t)
	v, err := r.JudgeReport(NoPlayer, redA, Action{Stamped: true, Rev: r.Rev()})
	require.NoError(t, err)
	require.Equal(t, ReportCredited, v)
}

// The race of the record: a shot accepted and stamped "not teammates" before a team change
// lands after it. The victim decides by what it knew when the shot was fired and may apply
// it; the server discards its report.
func TestShotStampedBeforeTeamChangeLandsAfterIt(t *testing.T) {
	r := world(t)
	var victim Tracker // redA's client

	// The server accepts blueA's shot and relays it to redA; it keeps the shot's revision.
	shot := r.Stamp(blueA, redA)
	require.False(t, shot.Teammate)
	shotRev := r.Rev()

	// The gamemode moves blueA into red. Nothing is sent.
	must(t)(r.JoinTeam(blueA, red))

	// blueA's next frame overtakes the shot (the shot's datagram was delayed).
	frame := r.Stamp(blueA, redA)
	require.Equal(t, Stamp{Teammate: true, Rev: r.Rev()}, frame)
	victim.Observe(blueA, frame)
	require.True(t, victim.Teammate(blueA))

	// The shot lands: judged by its own stamp, it is applied.
	require.False(t, victim.Observe(blueA, shot), "the shot's stamp is older than the frame's")
	require.Equal(t, HitApplied, victim.JudgeHit(Hit{Attacker: blueA, Shot: true, Stamp: shot}))
	// A blow from blueA now is judged by the newest stamp: refused.
	require.Equal(t, HitRefusedTeammate, victim.JudgeHit(Hit{Attacker: blueA}))

	// The victim reports the shot's hit; they are teammates now: the server discards it.
	v, err := r.JudgeReport(blueA, redA, Action{Stamped: true, Rev: shotRev})
	require.NoError(t, err)
	require.Equal(t, ReportDiscardedTeamChange, v)
	require.False(t, v.Credited())
}

// The other direction: a shot stamped "teammates" before the two split lands after the
// split. The victim refuses it by its own stamp; a client that reports it anyway is not
// credited.
func TestShotStampedAsTeammateBeforeASplitIsRefusedOnBothSides(t *testing.T) {
	r := world(t)
	var victim Tracker
	shot := r.Stamp(redB, redA)
	require.True(t, shot.Teammate)
	must(t)(r.JoinTeam(redB, blue))
	victim.Observe(redB, r.Stamp(redB, redA))
	require.False(t, victim.Teammate(redB))

	require.Equal(t, HitRefusedTeammate, victim.JudgeHit(Hit{Attacker: redB, Shot: true, Stamp: shot}))
	v, err := r.JudgeReport(redB, redA, Action{Stamped: true, Rev: shot.Rev})
	require.NoError(t, err)
	require.Equal(t, ReportRefusedTeammateStamp, v)
}

func TestReportWithAForgottenRevisionIsJudgedByTheRelationNow(t *testing.T) {
	r := world(t)
	shotRev := r.Rev()
	for range GroupHistory + 1 {
		if r.TeamOf(blueA) == blue {
			must(t)(r.JoinTeam(blueA, red))
		} else {
			must(t)(r.JoinTeam(blueA, blue))
		}
	}
	require.True(t, r.Teammates(blueA, redA))
	v, err := r.JudgeReport(blueA, redA, Action{Stamped: true, Rev: shotRev})
	require.ErrorIs(t, err, ErrRevisionForgotten)
	require.Equal(t, ReportRefusedTeammates, v)

	_, err = r.JudgeReport(blueA, redA, Action{Stamped: true, Rev: r.Rev() + 1})
	require.ErrorIs(t, err, ErrRevisionFuture)
}

func TestStealthKillOfATeammateIsRefused(t *testing.T) {
	r := world(t)
	require.Equal(t, StealthRefusedTeammate, r.JudgeStealthKill(redB, redA))
	require.Equal(t, StealthAllowed, r.JudgeStealthKill(blueA, redA))
	require.Equal(t, StealthAllowed, r.JudgeStealthKill(nomad, redA))
	require.Equal(t, StealthRefusedTeammate, JudgeStealthKill(true))
	require.Equal(t, StealthAllowed, JudgeStealthKill(false))
}

func TestTeammateIsNeverNamedKiller(t *testing.T) {
	tests := []struct {
		name       string
		candidate  PlayerID
		teammates  bool
		wantKiller PlayerID
		want       KillerVerdict
	}{
		{"an enemy is named", blueA, false, blueA, KillerNamed},
		{"a teammate is not", redB, true, NoPlayer, KillerRefusedTeammate},
		{"no candidate", NoPlayer, false, NoPlayer, KillerNone},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, v := JudgeKiller(tc.candidate, tc.teammates)
			require.Equal(t, tc.wantKiller, k)
			require.Equal(t, tc.want, v)

			r := world(t)
			k, v, err := r.JudgeKiller(tc.candidate, redA, r.Rev())
			require.NoError(t, err)
			require.Equal(t, tc.wantKiller, k)
			require.Equal(t, tc.want, v)
		})
	}
}

// blueA hurts redA while they are enemies (credited: blueA is redA's last damage); then
// blueA joins red, and redA dies of a fall. blueA is not named.
func TestTeammateIsNotNamedKillerForDamageDealtBeforeJoiningTheSameTeam(t *testing.T) {
	r := world(t)
	v, err := r.JudgeReport(blueA, redA, Action{Stamped: true, Rev: r.Rev()})
	require.NoError(t, err)
	require.True(t, v.Credited())
	lastDamage := blueA

	must(t)(r.JoinTeam(blueA, red))
	k, kv, err := r.JudgeKiller(lastDamage, redA, r.Rev()) // the fall kills redA now
	require.NoError(t, err)
	require.Equal(t, NoPlayer, k)
	require.Equal(t, KillerRefusedTeammate, kv)
}

// redA's death is counted while blueA (its last damage) is its teammate; before the death
// is committed blueA leaves. The relation at the moment of death still refuses blueA.
func TestTeammateAtTheMomentOfDeathIsNotNamedAfterLeaving(t *testing.T) {
	r := world(t)
	must(t)(r.JoinTeam(blueA, red))
	deathRev := r.Rev() // the ledger counts redA dead
	must(t)(r.JoinTeam(blueA, blue))
	k, kv, err := r.JudgeKiller(blueA, redA, deathRev) // the commit, a moment later
	require.NoError(t, err)
	require.Equal(t, NoPlayer, k)
	require.Equal(t, KillerRefusedTeammate, kv)

	k, kv, err = r.JudgeKiller(blueA, redA, r.Rev())
	require.NoError(t, err)
	require.Equal(t, blueA, k, "dying now, after the split, blueA is named")
	require.Equal(t, KillerNamed, kv)
}

func TestKillerWithAnUnknownDeathRevisionIsJudgedByTheRelationNow(t *testing.T) {
	r := world(t)
	k, kv, err := r.JudgeKiller(redB, redA, r.Rev()+5)
	require.ErrorIs(t, err, ErrRevisionFuture)
	require.Equal(t, NoPlayer, k)
	require.Equal(t, KillerRefusedTeammate, kv)
	k, kv, err = r.JudgeKiller(blueA, redA, r.Rev()+5)
	require.ErrorIs(t, err, ErrRevisionFuture)
	require.Equal(t, blueA, k)
	require.Equal(t, KillerNamed, kv)
}

// Friendly fire turned on gives the members group 0: nothing between them is refused,
// on the victim's client or on the server.
func TestFriendlyFireToggledOnMeansGroupZeroAndNoRefusal(t *testing.T) {
	r := world(t)
	var victim Tracker
	victim.Observe(redB, r.Stamp(redB, redA))
	require.True(t, victim.Teammate(redB))

	c := must(t)(r.SetFriendlyFire(red, true))
	require.True(t, c.Moved)
	require.Zero(t, r.Group(redA))
	require.Zero(t, r.Group(redB))

	s := r.Stamp(redB, redA)
	require.Equal(t, Stamp{Teammate: false, Rev: c.Rev}, s)
	victim.Observe(redB, s)
	require.Equal(t, HitApplied, victim.JudgeHit(Hit{Attacker: redB}))
	require.Equal(t, HitApplied, victim.JudgeHit(Hit{Attacker: redB, Shot: true, Stamp: s}))

	v, err := r.JudgeReport(redB, redA, Action{Stamped: true, Rev: s.Rev})
	require.NoError(t, err)
	require.Equal(t, ReportCredited, v)
	require.Equal(t, StealthAllowed, r.JudgeStealthKill(redB, redA))
	k, kv, err := r.JudgeKiller(redB, redA, r.Rev())
	require.NoError(t, err)
	require.Equal(t, redB, k)
	require.Equal(t, KillerNamed, kv)
	fates, err := r.JudgeExplosion(redB, []Seat{{Player: redA, LastAttacker: NoPlayer}}, nil)
	require.NoError(t, err)
	require.Equal(t, []Fate{{Player: redA, Outcome: KilledByAuthor, Killer: redB}}, fates)

	// And off again: teammates once more.
	must(t)(r.SetFriendlyFire(red, false))
	require.True(t, r.Stamp(redB, redA).Teammate)
}

// redB, redA's teammate, leaves; a new player takes its id and joins blue. Nothing of the
// old player's relation carries over: not on the server, not on redA's client, not even
// through a late packet of the old player.
func TestPlayerLeavesAndANewOneTakesTheID(t *testing.T) {
	r := world(t)
	var victim Tracker
	late := r.Stamp(redB, redA) // an old packet of the leaving player, still in flight
	victim.Observe(redB, late)
	require.True(t, victim.Teammate(redB))

	must(t)(r.Disconnect(redB))
	require.NoError(t, r.Connect(redB))
	require.Equal(t, NoTeam, r.TeamOf(redB))
	must(t)(r.JoinTeam(redB, blue))

	fresh := r.Stamp(redB, redA)
	require.False(t, fresh.Teammate)
	victim.Observe(redB, fresh)
	require.False(t, victim.Observe(redB, late), "the old player's late packet is older")
	require.Equal(t, HitApplied, victim.JudgeHit(Hit{Attacker: redB}))

	v, err := r.JudgeReport(redB, redA, Action{Stamped: true, Rev: fresh.Rev})
	require.NoError(t, err)
	require.Equal(t, ReportCredited, v)
	require.Equal(t, StealthAllowed, r.JudgeStealthKill(redB, redA))
	k, _, err := r.JudgeKiller(redB, redA, r.Rev())
	require.NoError(t, err)
	require.Equal(t, redB, k)

	// The stamp of the old player's time is still the old relation.
	then, err := r.StampAt(redB, redA, late.Rev)
	require.NoError(t, err)
	require.Equal(t, late, then)
}

// A player whose group was 0 leaves and a new one takes the id: the revision does not
// move (no relation changed) and no stamp can tell the two apart, which is right: the
// relation of the slot is the same.
func TestPlayerWithoutAGroupLeavesAndANewOneTakesTheID(t *testing.T) {
	r := world(t)
	before := r.Stamp(nomad, redA)
	must(t)(r.Disconnect(nomad))
	require.NoError(t, r.Connect(nomad))
	require.Equal(t, before, r.Stamp(nomad, redA))
}

func TestVerdictStringsAreDeterministic(t *testing.T) {
	require.Equal(t, []string{"credited", "refused: teammates", "discarded: accepted before a team change",
		"refused: stamped as teammates", "ReportVerdict(0)"},
		[]string{ReportCredited.String(), ReportRefusedTeammates.String(), ReportDiscardedTeamChange.String(),
			ReportRefusedTeammateStamp.String(), ReportVerdict(0).String()})
	require.Equal(t, []string{"allowed", "refused: teammate", "StealthVerdict(9)"},
		[]string{StealthAllowed.String(), StealthRefusedTeammate.String(), StealthVerdict(9).String()})
	require.Equal(t, []string{"named", "none", "refused: teammate", "KillerVerdict(0)"},
		[]string{KillerNamed.String(), KillerNone.String(), KillerRefusedTeammate.String(), KillerVerdict(0).String()})
}
