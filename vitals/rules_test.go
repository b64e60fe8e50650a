package vitals

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const ms = time.Millisecond

// ---- 1. The ledger ----

func TestLifeStartsAt100HealthAnd0ArmorAtTheGrant(t *testing.T) {
	p, err := NewPlayer(Config{})
	require.NoError(t, err)
	require.Equal(t, LifeNone, p.Life())
	p.NewLife(0)
	require.Equal(t, Vitals{100, 0}, p.Ledger())
	require.Equal(t, LifeSpawned, p.Life())
	// A respawn grant starts the same way, whatever the previous life held.
	_, err = p.Frame(0, FrameInput{Seq: 1, Health: 100})
	require.NoError(t, err)
	_, err = p.SetArmor(10*ms, 80)
	require.NoError(t, err)
	_, err = p.SetHealth(20*ms, 0)
	require.NoError(t, err)
	_, err = p.Died(30 * ms)
	require.NoError(t, err)
	p.NewLife(time.Second)
	require.Equal(t, Vitals{100, 0}, p.Ledger())
	require.Equal(t, LifeState(LifeSpawned), p.Life())
}

func TestFrameAboveTheLedgerIsCutAndFlagged(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 10*ms, deagle(1, Vitals{100, 0}))
	r := mustFrame(t, p, 2*time.Second, FrameInput{Seq: 2, DamageSeq: 1, Health: 100})
	require.Equal(t, FrameRaiseFlagged, r.Verdict)
	require.True(t, r.GodMode)
	require.InDelta(t, 46.2, r.GodModeExcess, 1e-3)
	wantLedger(t, p, 53.8, 0) // cut: the ledger stays
	// Armor is judged the same way.
	r = mustFrame(t, p, 2100*ms, FrameInput{Seq: 3, DamageSeq: 1, Health: 53.8, Armor: 50})
	require.Equal(t, FrameRaiseFlagged, r.Verdict)
	wantLedger(t, p, 53.8, 0)
}

func TestFrameUpToOneAboveTheLedgerIsTolerated(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 10*ms, deagle(1, Vitals{100, 0}))
	r := mustFrame(t, p, 20*ms, FrameInput{Seq: 2, DamageSeq: 1, Health: 54.8})
	require.Equal(t, FrameCounted, r.Verdict)
	require.False(t, r.GodMode)
	wantLedger(t, p, 53.8, 0) // tolerated, not taken: frames only lower
	r = mustFrame(t, p, 30*ms, FrameInput{Seq: 3, DamageSeq: 1, Health: 54.81})
	require.Equal(t, FrameRaiseFlagged, r.Verdict)
}

func TestFrameTakenBeforeAReportCreditedLessThanASecondAgoIsNotFlagged(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 100*ms, deagle(1, Vitals{100, 0}))
	// a frame taken before the hit (damage_seq 0) arrives after its report
	r := mustFrame(t, p, 1099*ms, FrameInput{Seq: 2, DamageSeq: 0, Health: 100})
	require.Equal(t, FrameRaiseExcused, r.Verdict)
	require.False(t, r.GodMode)
	wantLedger(t, p, 53.8, 0)
	// a second after the credit the excuse is over
	r = mustFrame(t, p, 1100*ms, FrameInput{Seq: 3, DamageSeq: 0, Health: 100})
	require.Equal(t, FrameRaiseFlagged, r.Verdict)
	// a frame taken after the report is never excused
	r = mustFrame(t, p, 1200*ms, FrameInput{Seq: 4, DamageSeq: 1, Health: 100})
	require.Equal(t, FrameRaiseFlagged, r.Verdict)
}

func TestOnlyServerCommandsRaiseTheLedger(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 10*ms, deagle(1, Vitals{100, 0}))
	wantLedger(t, p, 53.8, 0)
	// neither a frame nor a report (whatever it claims) raises it
	mustFrame(t, p, 20*ms, FrameInput{Seq: 2, DamageSeq: 1, Health: 200, Armor: 200})
	in := deagle(2, Vitals{200, 200})
	in.After, in.Loss = Vitals{200, 200}, 0
	mustReport(t, p, 30*ms, in)
	wantLedger(t, p, 7.61, 0) // the floor was paid, nothing rose
	// a command does
	_, err := p.SetHealth(40*ms, 150)
	require.NoError(t, err)
	wantLedger(t, p, 150, 0)
}

// ---- 2. Gamemode health commands ----

func TestSetCommandsTakeAnAbsoluteValueFrom0To200AndMayLower(t *testing.T) {
	p := livePlayer(t)
	for _, v := range []float32{200, 1, 150, 0.5} {
		r, err := p.SetHealth(0, v)
		require.NoError(t, err)
		require.Equal(t, CommandSetHealth, r.Command.Kind)
		require.Equal(t, v, r.Command.Value)
		require.Equal(t, v, p.Ledger().Health)
	}
	for _, v := range []float32{200, 0, 75} {
		r, err := p.SetArmor(0, v)
		require.NoError(t, err)
		require.Equal(t, CommandSetArmor, r.Command.Kind)
		require.Equal(t, v, p.Ledger().Armor)
	}
}

func TestAddCommandsAddUpToMaxAndNeverLower(t *testing.T) {
	p := livePlayer(t)
	_, err := p.SetHealth(0, 90)
	require.NoError(t, err)
	r, err := p.AddHealth(0, 25, 100)
	require.NoError(t, err)
	require.Equal(t, Command{Kind: CommandAddHealth, Rev: 2, Value: 25, Max: 100}, r.Command)
	wantLedger(t, p, 100, 0) // up to max
	_, err = p.AddHealth(0, 25, 50)
	require.NoError(t, err)
	wantLedger(t, p, 100, 0) // never lower
	_, err = p.AddArmor(0, 30, 20)
	require.NoError(t, err)
	wantLedger(t, p, 100, 20)
	_, err = p.AddArmor(0, 30, 10)
	require.NoError(t, err)
	wantLedger(t, p, 100, 20)
}

func TestSetHealthThenAddHealthGives75(t *testing.T) {
	p := livePlayer(t)
	_, err := p.SetHealth(0, 50)
	require.NoError(t, err)
	_, err = p.AddHealth(0, 25, 100)
	require.NoError(t, err)
	wantLedger(t, p, 75, 0)
}

func TestSetHealthZeroKillsThroughTheDeathPath(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 10*ms, deagle(1, Vitals{100, 0}))
	r, err := p.SetHealth(100*ms, 0)
	require.NoError(t, err)
	require.True(t, r.Died)
	require.Equal(t, Death{At: 100 * ms, Killer: 7, Weapon: UnknownWeapon, Reason: DeathByCommand}, r.Death)
	require.Equal(t, LifeCountedDead, p.Life())
}

func TestCommandsAreRefusedWhenTheLifeIsNotCounted(t *testing.T) {
	states := map[string]func(t *testing.T) *Player{
		"never spawned": func(t *testing.T) *Player { p, _ := NewPlayer(Config{}); return p },
		"before its first frame": func(t *testing.T) *Player {
			p, _ := NewPlayer(Config{})
			p.NewLife(0)
			return p
		},
		"counted dead": func(t *testing.T) *Player {
			p := livePlayer(t)
			_, err := p.StealthKilled(0, StealthKill{Killer: 3, Weapon: 4})
			require.NoError(t, err)
			return p
		},
		"dead": func(t *testing.T) *Player {
			p := livePlayer(t)
			_, err := p.Died(0)
			require.NoError(t, err)
			return p
		},
	}
	for name, make := range states {
		t.Run(name, func(t *testing.T) {
			p := make(t)
			before := append([]byte(nil), playerBytes(p)...)
			for _, cmd := range []func() (CommandResult, error){
				func() (CommandResult, error) { return p.SetHealth(0, 50) },
				func() (CommandResult, error) { return p.SetArmor(0, 50) },
				func() (CommandResult, error) { return p.AddHealth(0, 50, 100) },
				func() (CommandResult, error) { return p.AddArmor(0, 50, 100) },
			} {
				_, err := cmd()
				require.ErrorIs(t, err, ErrNotAlive)
			}
			require.Equal(t, before, playerBytes(p), "a refused command changed the player")
		})
	}
}

func TestEachCommandTakesTheConnectionsNextRevision(t *testing.T) {
	p := livePlayer(t)
	var revs []uint16
	r, _ := p.SetHealth(0, 90)
	revs = append(revs, r.Command.Rev)
	r, _ = p.SetArmor(0, 9)
	revs = append(revs, r.Command.Rev)
	r, _ = p.AddHealth(0, 1, 100)
	revs = append(revs, r.Command.Rev)
	r, _ = p.AddArmor(0, 1, 100)
	revs = append(revs, r.Command.Rev)
	// the revision is the connection's: it carries on across lives, through the death's zero
	_, _ = p.SetHealth(0, 0)
	_, err := p.Died(0)
	require.NoError(t, err)
	z, err := p.DeathZero(0)
	require.NoError(t, err)
	revs = append(revs, z.Rev)
	p.NewLife(time.Second)
	mustFrame(t, p, time.Second, FrameInput{Seq: 2, VitalRev: 6, Health: 100})
	r, err = p.SetHealth(time.Second, 10)
	require.NoError(t, err)
	revs = append(revs, r.Command.Rev)
	require.Equal(t, []uint16{1, 2, 3, 4, 6, 7}, revs)
	require.Equal(t, uint16(7), p.Revision())
}

// ---- 3. Health revision ----

// A frame or a report echoing a revision older than a command was created before the
// client took the command: it is judged against the ledger as of its own revision, and the
// command still applies after it (a set erases its loss, an add does not), until the
// command settles (echoed, 2 s after its acknowledgement, 15 s after it was sent); from
// then on an older echo is judged as if it echoed the command.
func TestEchoOlderThanACommandIsJudgedBeforeItUntilItSettles(t *testing.T) {
	type settle struct {
		name string
		do   func(p *Player) time.Duration // returns the moment the set settled
	}
	for _, s := range []settle{
		{"echoed", func(p *Player) time.Duration {
			mustFrame(t, p, 300*ms, FrameInput{Seq: 3, VitalRev: 1, Health: 50})
			return 300 * ms
		}},
		{"2 s after the acknowledgement", func(p *Player) time.Duration {
			require.NoError(t, p.Acknowledged(400*ms, 1))
			return 2400 * ms
		}},
		{"15 s after it was sent", func(p *Player) time.Duration { return 15100 * ms }},
	} {
		t.Run(s.name, func(t *testing.T) {
			p := livePlayer(t)
			_, err := p.SetHealth(100*ms, 50)
			require.NoError(t, err)
			r := mustFrame(t, p, 200*ms, FrameInput{Seq: 2, Health: 100})
			require.Equal(t, FrameCounted, r.Verdict, "100 before the set is no raise")
			wantLedger(t, p, 50, 0)
			from := s.do(p)
			in := colt(1, Vitals{100, 0})
			rr := mustReport(t, p, from-ms, in)
			require.Equal(t, ReportApplied, rr.Verdict)
			require.Equal(t, PlayerID(7), p.LastDamage().Attacker)
			if s.name == "echoed" {
				// it comes after the echo in the client's order: judged after the set
				wantLedger(t, p, 41.75, 0)
			} else {
				// judged before the set, which erases its loss
				require.InDelta(t, 8.25, rr.Reports[0].Deducted.Health, 1e-3)
				wantLedger(t, p, 50, 0)
				r = mustFrame(t, p, from-ms, FrameInput{Seq: 10, DamageSeq: 1, Health: 40})
				require.Equal(t, FrameCounted, r.Verdict)
				wantLedger(t, p, 50, 0)
			}
			// settled: an echo of 0 is judged as if it echoed the set
			r = mustFrame(t, p, from, FrameInput{Seq: 11, DamageSeq: 1, Health: 40})
			require.Equal(t, FrameCounted, r.Verdict)
			wantLedger(t, p, 40, 0)
		})
	}
}

func TestEchoReleasesOnlyWhatComesAfterItInTheClientsOrder(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 10*ms, deagle(1, Vitals{100, 0}))
	mustFrame(t, p, 20*ms, FrameInput{Seq: 2, DamageSeq: 1, Health: 53.8})
	_, err := p.AddHealth(100*ms, 40, 100)
	require.NoError(t, err)
	wantLedger(t, p, 93.8, 0)
	// the client was hit (report 2, echo 0) just before it took the add, then again (report 3,
	// echo 1): report 3 arrives first and echoes the add...
	r3 := colt(3, Vitals{85.55, 0})
	r3.VitalRev = 1
	require.Equal(t, ReportHeld, mustReport(t, p, 200*ms, r3).Verdict)
	// ...report 2 comes: it is taken first, in the client's order, as of revision 0 (the
	// add still applies after it), then report 3 after the add
	rr := mustReport(t, p, 210*ms, colt(2, Vitals{53.8, 0}))
	require.Equal(t, []ReportVerdict{ReportApplied, ReportApplied}, verdicts(rr.Reports))
	wantLedger(t, p, 77.3, 0)
	// a frame from before the add, overtaken by report 3's echo: it comes before that echo
	// in the client's order, but the add is in the ledger already, so it stays off it
	r := mustFrame(t, p, 220*ms, FrameInput{Seq: 3, DamageSeq: 2, Health: 45.55})
	require.Equal(t, FrameGated, r.Verdict)
	wantLedger(t, p, 77.3, 0)
}

func verdicts(os []Outcome) []ReportVerdict {
	var out []ReportVerdict
	for _, o := range os {
		out = append(out, o.Verdict)
	}
	return out
}

func TestEchoNewerThanAnythingSentIsNeverTaken(t *testing.T) {
	p := livePlayer(t)
	r := mustFrame(t, p, 10*ms, FrameInput{Seq: 2, VitalRev: 1, Health: 10})
	require.Equal(t, FrameFutureRevision, r.Verdict)
	wantLedger(t, p, 100, 0)
	in := deagle(1, Vitals{100, 0})
	in.VitalRev = 1
	require.Equal(t, ReportFutureRevision, mustReport(t, p, 20*ms, in).Verdict)
	wantLedger(t, p, 100, 0)
	require.ErrorIs(t, p.Acknowledged(30*ms, 1), ErrFutureRevision)
	require.ErrorIs(t, p.MultipliersAcknowledged(30*ms, 1), ErrFutureRevision)
}

// An echo newer than anything sent: a frame ignores it. Ignoring means nothing at all
// changes: the frame does not take the frame sequence (an honest frame with the same
// number still counts) and never waits, so it cannot later pass a report when its wait
// runs out.
func TestEchoNewerThanAnythingSentAFrameIgnoresIt(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 0, deagle(1, Vitals{100, 0}))
	wantLedger(t, p, 53.8, 0)
	r := mustFrame(t, p, 10*ms, FrameInput{Seq: 2, DamageSeq: 1, VitalRev: p.Revision() + 1, Health: 100})
	require.Equal(t, FrameFutureRevision, r.Verdict)
	require.False(t, r.GodMode)
	require.Zero(t, r.FramesCounted)
	wantLedger(t, p, 53.8, 0)
	r = mustFrame(t, p, 20*ms, FrameInput{Seq: 2, DamageSeq: 1, Health: 53.8})
	require.Equal(t, FrameCounted, r.Verdict, "the honest frame with the same number")

	// ahead of a report that has not arrived: it does not wait, so when a wait would have
	// run out it passes nothing, and the report still comes in order
	r = mustFrame(t, p, 30*ms, FrameInput{Seq: 3, DamageSeq: 2, VitalRev: p.Revision() + 1, Health: 100})
	require.Equal(t, FrameFutureRevision, r.Verdict)
	frames, reports := p.Waiting()
	require.Zero(t, frames+reports)
	p.Advance(30*ms + 2*ReportWait)
	rr := mustReport(t, p, 30*ms+2*ReportWait, colt(2, Vitals{53.8, 0}))
	require.Equal(t, ReportApplied, rr.Verdict)
	wantLedger(t, p, 45.55, 0)
}

// A command that reaches a dead client is dropped there, but its revision is still taken:
// a set_health sent while the life is counted, then a lethal hit created before the client
// took it (attribution only), the victim's death, and a new life whose frames echo the
// set's revision. The revision does not hold the new life's frames off the ledger.
func TestCommandReachingADeadClientIsDroppedButItsRevisionIsStillTaken(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 0, deagle(1, Vitals{100, 0}))
	set, err := p.SetHealth(100*ms, 80)
	require.NoError(t, err)
	require.Equal(t, uint16(1), set.Command.Rev)
	// a hit created before the client took the set: it echoes revision 0, is judged before
	// the set, and the set erases its loss
	lethal := deagle(2, Vitals{53.8, 0})
	lethal.Attacker = 9
	rr := mustReport(t, p, 150*ms, lethal)
	require.Equal(t, ReportApplied, rr.Verdict)
	require.False(t, rr.Died)
	wantLedger(t, p, 80, 0)
	require.Equal(t, PlayerID(9), p.Killer(nil))
	// the victim's DeathReport: lifecycle commits the death; the set reaches a dead client,
	// which drops it and takes revision 1
	_, err = p.Died(200 * ms)
	require.NoError(t, err)
	require.Equal(t, LifeDead, p.Life())

	p.NewLife(3 * time.Second)
	r := mustFrame(t, p, 3100*ms, FrameInput{Seq: 5, DamageSeq: 2, VitalRev: set.Command.Rev, Health: 100})
	require.Equal(t, FrameFirst, r.Verdict)
	wantLedger(t, p, 100, 0)
	// well inside SendTimeout and never acknowledged: still taken normally
	r = mustFrame(t, p, 3200*ms, FrameInput{Seq: 6, DamageSeq: 2, VitalRev: set.Command.Rev, Health: 90})
	require.Equal(t, FrameCounted, r.Verdict)
	wantLedger(t, p, 90, 0)
	rr = mustReport(t, p, 3300*ms, withRev(colt(3, Vitals{90, 0}), set.Command.Rev))
	require.Equal(t, ReportApplied, rr.Verdict)
	wantLedger(t, p, 81.75, 0)
	r = mustFrame(t, p, 3400*ms, FrameInput{Seq: 7, DamageSeq: 3, VitalRev: set.Command.Rev, Health: 81.75})
	require.Equal(t, FrameCounted, r.Verdict)
	require.False(t, r.GodMode)
}

func withRev(in ReportInput, rev uint16) ReportInput {
	in.VitalRev = rev
	return in
}

// ---- 4. The client's order ----

func TestFrameNewerThanTheLastCreditedReportWaitsForIt(t *testing.T) {
	p := livePlayer(t)
	r := mustFrame(t, p, 10*ms, FrameInput{Seq: 2, DamageSeq: 1, Health: 53.8})
	require.Equal(t, FrameWaiting, r.Verdict)
	wantLedger(t, p, 100, 0)
	rr := mustReport(t, p, 40*ms, deagle(1, Vitals{100, 0}))
	require.Equal(t, ReportApplied, rr.Verdict)
	require.Equal(t, uint16(1), rr.FramesCounted)
	wantLedger(t, p, 53.8, 0)
}

func TestWaitingFrameCountsOnItsOwnAfterReportWait(t *testing.T) {
	p := livePlayer(t)
	mustFrame(t, p, 10*ms, FrameInput{Seq: 2, DamageSeq: 1, Health: 60})
	require.Equal(t, uint16(0), p.Advance(10*ms+ReportWait-1).FramesCounted)
	e := p.Advance(10*ms + ReportWait)
	require.Equal(t, uint16(1), e.FramesCounted)
	require.Empty(t, e.Reports)
	require.False(t, p.LastDamage().Valid, "a frame gives no attribution")
	wantLedger(t, p, 60, 0) // an observation: no floor
}

func TestNewerFrameDoesNotRestartTheWait(t *testing.T) {
	p := livePlayer(t)
	mustFrame(t, p, 0, FrameInput{Seq: 2, DamageSeq: 1, Health: 60})
	mustFrame(t, p, 900*ms, FrameInput{Seq: 3, DamageSeq: 1, Health: 55})
	mustFrame(t, p, 950*ms, FrameInput{Seq: 4, DamageSeq: 2, Health: 50})
	e := p.Advance(ReportWait)
	// the first frame's wait ran out: it counts, and those waiting for the same report with it
	require.Equal(t, uint16(2), e.FramesCounted)
	wantLedger(t, p, 55, 0)
	e = p.Advance(950*ms + ReportWait)
	require.Equal(t, uint16(1), e.FramesCounted)
	wantLedger(t, p, 50, 0)
}

func TestOnlyACreditedReportReleasesAWaitingFrame(t *testing.T) {
	discarded := map[string]func(in *ReportInput){
		"uncorrelated":    func(in *ReportInput) { in.Correlated = false },
		"teammate":        func(in *ReportInput) { in.Teammate = true },
		"future revision": func(in *ReportInput) { in.VitalRev = 9 },
		"zero multiplier": func(in *ReportInput) { in.Source, in.Weapon = SourceMelee, 3 },
	}
	for name, spoil := range discarded {
		t.Run(name, func(t *testing.T) {
			p := livePlayer(t)
			_, err := p.SetMultipliers(0, Multipliers{Melee: 0, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, Predator: 1})
			require.NoError(t, err)
			mustFrame(t, p, 10*ms, FrameInput{Seq: 2, DamageSeq: 1, Health: 53.8})
			in := deagle(1, Vitals{100, 0})
			spoil(&in)
			r := mustReport(t, p, 20*ms, in)
			require.False(t, r.Verdict.Credited(), r.Verdict.String())
			require.Zero(t, r.FramesCounted)
			f, _ := p.Waiting()
			require.Equal(t, 1, f, "the frame still waits")
			// the report itself may come as it should later
			r = mustReport(t, p, 30*ms, deagle(1, Vitals{100, 0}))
			require.Equal(t, ReportApplied, r.Verdict)
			require.Equal(t, uint16(1), r.FramesCounted)
		})
	}
}

func TestHitReportDeductsTheClaimedLossArmorFirst(t *testing.T) {
	p := livePlayer(t)
	_, err := p.SetArmor(0, 30)
	require.NoError(t, err)
	mustFrame(t, p, 10*ms, FrameInput{Seq: 2, VitalRev: 1, Health: 100, Armor: 30})
	in := deagle(1, Vitals{100, 30})
	in.VitalRev = 1
	r := mustReport(t, p, 20*ms, in)
	require.Equal(t, ReportApplied, r.Verdict)
	wantLedger(t, p, 83.8, 0)
	require.InDelta(t, 16.2, r.Reports[0].Deducted.Health, 1e-3)
	require.InDelta(t, 30, r.Reports[0].Deducted.Armor, 1e-3)
}

func TestHitReportAlsoFallsToTheClaimedRemainder(t *testing.T) {
	p := livePlayer(t)
	// the client claims it had 80 left: it had lost 20 the ledger did not know of yet
	in := colt(1, Vitals{88.25, 0})
	mustReport(t, p, 10*ms, in)
	wantLedger(t, p, 80, 0)
}

func TestClientRestoringItsHealthBetweenHitsStillLosesTheClaimedLoss(t *testing.T) {
	p := livePlayer(t)
	for i, want := range []float32{53.8, 7.6, 0} {
		// the trainer puts its health back to 100 before every hit and claims 100 -> 53.8
		mustReport(t, p, time.Duration(i)*100*ms, deagle(uint16(i+1), Vitals{100, 0}))
		wantLedger(t, p, want, 0)
	}
	require.Equal(t, LifeCountedDead, p.Life())
}

func TestClaimedRemainderCountsTowardsTheLoss(t *testing.T) {
	// a game that took a hit from health although the player had armor is not charged twice
	p := livePlayer(t)
	_, err := p.SetArmor(0, 50)
	require.NoError(t, err)
	in := ReportInput{Seq: 1, VitalRev: 1, Source: SourceExplosion, Weapon: WeaponExplosion, BodyPart: BodyTorso,
		Attacker: 6, Correlated: true, Loss: 30, Before: Vitals{100, 50}, After: Vitals{70, 50}}
	mustReport(t, p, 10*ms, in)
	wantLedger(t, p, 70, 50)
	r := mustFrame(t, p, 20*ms, FrameInput{Seq: 2, DamageSeq: 1, VitalRev: 1, Health: 70, Armor: 50})
	require.Equal(t, FrameCounted, r.Verdict)
}

func TestSumReportLowersTheLedgerOnlyToTheClaimedRemainder(t *testing.T) {
	p := livePlayer(t)
	mustFrame(t, p, 10*ms, FrameInput{Seq: 2, Health: 90})
	fire := ReportInput{Seq: 1, Source: SourceFire, Weapon: WeaponFire, Attacker: 9, Correlated: true,
		Loss: 10, Before: Vitals{100, 0}, After: Vitals{90, 0}}
	r := mustReport(t, p, 20*ms, fire)
	require.Equal(t, ReportApplied, r.Verdict)
	wantLedger(t, p, 90, 0) // the frame already showed it
	require.Equal(t, Vitals{}, r.Reports[0].Deducted)
	fire.Seq, fire.Before, fire.After = 2, Vitals{90, 0}, Vitals{85, 0}
	mustReport(t, p, 30*ms, fire)
	wantLedger(t, p, 85, 0)
}

func TestReportNoNewerThanACountedFramesDamageSeqGivesAttributionAndPaysItsFloor(t *testing.T) {
	p := livePlayer(t)
	// a client that shrank the hit: its frame showed only 10 lost, the frame waited out
	mustFrame(t, p, 0, FrameInput{Seq: 2, DamageSeq: 1, Health: 90})
	p.Advance(ReportWait)
	wantLedger(t, p, 90, 0)
	in := deagle(1, Vitals{100, 0})
	in.Loss, in.After = 10, Vitals{90, 0}
	r := mustReport(t, p, ReportWait+10*ms, in)
	require.Equal(t, ReportLate, r.Verdict)
	require.Equal(t, PlayerID(7), p.LastDamage().Attacker)
	// floor 46.19: 10 came from what the frame deducted, the rest from the ledger
	wantLedger(t, p, 53.81, 0)
}

func TestFirstFrameOfALifeDoesNotTouchTheLedger(t *testing.T) {
	p, _ := NewPlayer(Config{})
	p.NewLife(0)
	r := mustFrame(t, p, 0, FrameInput{Seq: 1, Health: 0, Armor: 50})
	require.Equal(t, FrameFirst, r.Verdict)
	require.False(t, r.Died)
	require.False(t, r.GodMode)
	wantLedger(t, p, 100, 0)
	require.True(t, p.Counted())
}

func TestReportsNumberedUpToTheFirstFramesDamageSeqBelongToThePreviousLife(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 0, colt(1, Vitals{100, 0}))
	_, err := p.SetHealth(10*ms, 0)
	require.NoError(t, err)
	_, err = p.Died(20 * ms)
	require.NoError(t, err)
	p.NewLife(time.Second)
	// a report of the previous life (in flight) arrives before the new life's first frame,
	// and one after it
	r := mustReport(t, p, time.Second, colt(3, Vitals{91.75, 0}))
	require.Equal(t, ReportHeld, r.Verdict)
	fr := mustFrame(t, p, time.Second+10*ms, FrameInput{Seq: 5, DamageSeq: 4, VitalRev: 1, Health: 100})
	require.Equal(t, FrameFirst, fr.Verdict)
	require.Equal(t, []ReportVerdict{ReportPreviousLife}, verdicts(fr.Reports))
	require.Equal(t, ReportPreviousLife, mustReport(t, p, time.Second+20*ms, colt(4, Vitals{91.75, 0})).Verdict)
	require.Equal(t, ReportPreviousLife, mustReport(t, p, time.Second+20*ms, colt(2, Vitals{91.75, 0})).Verdict)
	wantLedger(t, p, 100, 0)
	// the new life's reports come after it
	in := colt(5, Vitals{100, 0})
	in.VitalRev = 1
	require.Equal(t, ReportApplied, mustReport(t, p, time.Second+30*ms, in).Verdict)
	wantLedger(t, p, 91.75, 0)
}

func TestAHitTheNewLifeTookBeforeItsFirstFrameArrivedIsTheNewLifes(t *testing.T) {
	for _, deadFrames := range []bool{true, false} {
		p := livePlayer(t)
		mustReport(t, p, 0, colt(1, Vitals{100, 0}))
		_, err := p.Died(20 * ms)
		require.NoError(t, err)
		if deadFrames {
			// the dead client's frames: it makes no reports while dead, so their
			// damage_seq is its last report of the life that ended
			r := mustFrame(t, p, 100*ms, FrameInput{Seq: 5, DamageSeq: 1, Health: 0})
			require.Equal(t, FrameNotAlive, r.Verdict)
			wantLedger(t, p, 91.75, 0)
		}
		p.NewLife(time.Second)
		// hit right after the respawn: its report (2) reaches the server before the new
		// life's first frame, which was taken after the hit (damage_seq 2)
		in := colt(2, Vitals{100, 0})
		require.Equal(t, ReportHeld, mustReport(t, p, time.Second+30*ms, in).Verdict)
		fr := mustFrame(t, p, time.Second+40*ms, FrameInput{Seq: 9, DamageSeq: 2, Health: 91.75})
		require.Equal(t, FrameFirst, fr.Verdict)
		if deadFrames {
			require.Equal(t, []ReportVerdict{ReportApplied}, verdicts(fr.Reports), "the boundary is the dead frames' damage_seq")
			wantLedger(t, p, 91.75, 0)
			require.True(t, p.LastDamage().Valid, "and the hit is attributed")
		} else {
			// without a dead frame the boundary is the first frame's damage_seq (the
			// [client-order] rule): the report is taken for the previous life's; the next
			// frames still show its loss
			require.Equal(t, []ReportVerdict{ReportPreviousLife}, verdicts(fr.Reports))
			mustFrame(t, p, time.Second+70*ms, FrameInput{Seq: 10, DamageSeq: 2, Health: 91.75})
			wantLedger(t, p, 91.75, 0)
		}
	}
}

func TestPreviousLifeWindowIsAtMost64PastTheLastAcceptedReport(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 0, colt(1, Vitals{100, 0}))
	_, _ = p.Died(10 * ms)
	p.NewLife(time.Second)
	// a first frame that claims report 1000 cannot throw away more than 64 reports
	mustFrame(t, p, time.Second, FrameInput{Seq: 9, DamageSeq: 1000, Health: 100})
	require.Equal(t, ReportPreviousLife, mustReport(t, p, time.Second, colt(65, Vitals{100, 0})).Verdict)
	require.Equal(t, ReportApplied, mustReport(t, p, time.Second, colt(66, Vitals{100, 0})).Verdict)
	wantLedger(t, p, 91.75, 0)
}

// A report credited late is accepted like one credited in order: the previous life's
// window of the next life's first frame (at most 64 past the last accepted report) counts
// from it, so a report of the previous life still in flight is never the new life's.
func TestPreviousLifeWindowCountsFromAReportCreditedLate(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 0, colt(1, Vitals{100, 0}))
	// reports 2..10 are late: a frame after them waits them out and counts alone
	mustFrame(t, p, 10*ms, FrameInput{Seq: 2, DamageSeq: 10, Health: 50})
	p.Advance(10*ms + ReportWait)
	require.Equal(t, ReportLate, mustReport(t, p, 10*ms+ReportWait+ms, colt(10, Vitals{58.25, 0})).Verdict)
	_, err := p.Died(2 * time.Second)
	require.NoError(t, err)
	p.NewLife(3 * time.Second)
	// the old life made reports up to 74 (64 past the last accepted one, 10); the new
	// life's first frame says so
	r := mustFrame(t, p, 3*time.Second, FrameInput{Seq: 9, DamageSeq: 74, Health: 100})
	require.Equal(t, FrameFirst, r.Verdict)
	for _, n := range []uint16{66, 70, 74} {
		require.Equal(t, ReportPreviousLife, mustReport(t, p, 3*time.Second+ms, colt(n, Vitals{50, 0})).Verdict, "report %d", n)
	}
	wantLedger(t, p, 100, 0)
	require.Equal(t, ReportApplied, mustReport(t, p, 3*time.Second+2*ms, colt(75, Vitals{100, 0})).Verdict)
	wantLedger(t, p, 91.75, 0)
}

func TestReportsAreTakenInTheClientsOrderWhateverOrderTheyArrive(t *testing.T) {
	// a shotgun blast: six pellet reports created in one frame, arriving in every order
	before := Vitals{100, 0}
	var pellets []ReportInput
	for i := range 6 {
		in := ReportInput{Seq: uint16(i + 1), Source: SourceBullet, Weapon: 25, BodyPart: BodyTorso, Attacker: 7,
			Correlated: true, Floor: BulletFloor(10), Loss: PlayerDamageFactor * 10, Before: before}
		in.After = deductLikeTheGame(before, in.Loss)
		before = in.After
		pellets = append(pellets, in)
	}
	for _, order := range permutations(6) {
		p := livePlayer(t)
		mustFrame(t, p, 0, FrameInput{Seq: 2, DamageSeq: 6, Health: before.Health})
		var got []ReportVerdict
		for k, i := range order {
			r := mustReport(t, p, time.Duration(k)*ms, pellets[i])
			got = append(got, verdicts(r.Reports)...)
		}
		require.Len(t, got, 6, "order %v", order)
		for _, v := range got {
			require.Equal(t, ReportApplied, v, "order %v: no pellet is late", order)
		}
		wantLedger(t, p, before.Health, 0)
		r := mustFrame(t, p, 10*ms, FrameInput{Seq: 3, DamageSeq: 6, Health: before.Health})
		require.Equal(t, FrameCounted, r.Verdict)
	}
}

func permutations(n int) [][]int {
	if n == 1 {
		return [][]int{{0}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int(nil), p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

func TestReportWaitsForAnEarlierReportAtMostReportWait(t *testing.T) {
	p := livePlayer(t)
	require.Equal(t, ReportHeld, mustReport(t, p, 0, colt(2, Vitals{91.75, 0})).Verdict)
	require.Empty(t, p.Advance(ReportWait-1).Reports)
	e := p.Advance(ReportWait)
	require.Equal(t, []ReportVerdict{ReportApplied}, verdicts(e.Reports))
	// applied over the gap: it falls to its claimed remainder, report 1's loss included
	wantLedger(t, p, 83.5, 0)
	// report 1 comes later: late, its floor is paid by what report 2 took over the gap
	r := mustReport(t, p, ReportWait+ms, colt(1, Vitals{100, 0}))
	require.Equal(t, ReportLate, r.Verdict)
	wantLedger(t, p, 83.5, 0)
}

func TestOneLossIsNeverDeductedTwice(t *testing.T) {
	p := livePlayer(t)
	// report then frame
	mustReport(t, p, 0, deagle(1, Vitals{100, 0}))
	mustFrame(t, p, 10*ms, FrameInput{Seq: 2, DamageSeq: 1, Health: 53.8})
	wantLedger(t, p, 53.8, 0)
	// frame then report
	mustFrame(t, p, 20*ms, FrameInput{Seq: 3, DamageSeq: 2, Health: 45.55})
	mustReport(t, p, 30*ms, colt(2, Vitals{53.8, 0}))
	wantLedger(t, p, 45.55, 0)
	// a duplicate
	require.Equal(t, ReportDuplicate, mustReport(t, p, 40*ms, colt(2, Vitals{53.8, 0})).Verdict)
	// a report late after its frame counted alone, with an honest loss: the frame paid it
	mustFrame(t, p, 50*ms, FrameInput{Seq: 4, DamageSeq: 3, Health: 37.3})
	p.Advance(50*ms + ReportWait)
	wantLedger(t, p, 37.3, 0)
	require.Equal(t, ReportLate, mustReport(t, p, 60*ms+ReportWait, colt(3, Vitals{45.55, 0})).Verdict)
	wantLedger(t, p, 37.3, 0)
}

// ---- 5. Damage floor ----

func TestBulletFloorIsAThirdOfTheDamageLessAHundredth(t *testing.T) {
	// the standard-tier damage of every bullet weapon of gta-sa-weapons.tsv
	for _, w := range []struct {
		id     uint8
		damage float32
		floor  float32
	}{
		{22, 25, 8.24}, {23, 40, 13.19}, {24, 140, 46.19}, {25, 10, 3.29}, {26, 10, 3.29}, {27, 15, 4.94},
		{28, 20, 6.59}, {29, 25, 8.24}, {30, 30, 9.89}, {31, 30, 9.89}, {32, 20, 6.59}, {33, 75, 24.74},
		{34, 125, 41.24}, {38, 140, 46.19},
	} {
		f := BulletFloor(w.damage)
		require.InDelta(t, w.floor, f, 1e-4, "weapon %d", w.id)
		require.Less(t, f, PlayerDamageFactor*w.damage, "weapon %d: the floor is below the game's damage", w.id)
	}
	require.Zero(t, BulletFloor(0))
	require.Zero(t, BulletFloor(-5))
	require.Zero(t, BulletFloor(float32(nan())))
}

func TestFloorUsesTheLowerTierWithinFiveSecondsOfASkillChange(t *testing.T) {
	// the Desert Eagle: 70 at poor, 140 at standard
	require.Equal(t, float32(70), TierDamage(140, 70, 0))
	require.Equal(t, float32(70), TierDamage(140, 70, SkillChangeGrace-1))
	require.Equal(t, float32(140), TierDamage(140, 70, SkillChangeGrace))
	// the lower of the two either way
	require.Equal(t, float32(70), TierDamage(70, 140, time.Second))
}

func TestShotgunFloorIsOnePellet(t *testing.T) {
	p := livePlayer(t)
	in := ReportInput{Seq: 1, Source: SourceBullet, Weapon: 25, BodyPart: BodyTorso, Attacker: 7, Correlated: true,
		Floor: BulletFloor(10), Loss: 0, Before: Vitals{100, 0}, After: Vitals{100, 0}}
	mustReport(t, p, 0, in)
	wantLedger(t, p, 96.71, 0)
}

func TestVehicleGunsFloorAtTheStandardTierAndThePredatorAtFifteen(t *testing.T) {
	p := livePlayer(t)
	in := ReportInput{Seq: 1, Source: SourceVehicleGun, Weapon: 31, BodyPart: BodyTorso, Attacker: 7, Correlated: true,
		Floor: BulletFloor(30), Before: Vitals{100, 0}, After: Vitals{100, 0}}
	mustReport(t, p, 0, in)
	wantLedger(t, p, 90.11, 0)
	in = ReportInput{Seq: 2, Source: SourcePredatorGun, Weapon: 31, BodyPart: BodyTorso, Attacker: 7, Correlated: true,
		Floor: 40, Before: Vitals{90.11, 0}, After: Vitals{90.11, 0}}
	r := mustReport(t, p, 0, in)
	require.InDelta(t, 4.94, r.Reports[0].Floor, 1e-4)
	wantLedger(t, p, 85.17, 0)
}

func TestMeleeFloorIsTheWeakestBlow(t *testing.T) {
	require.InDelta(t, 1.31, MeleeFloor(1), 1e-6)
	p := livePlayer(t)
	mustReport(t, p, 0, ReportInput{Seq: 1, Source: SourceMelee, Weapon: 0, BodyPart: BodyHead, Attacker: 4,
		Correlated: true, Before: Vitals{100, 0}, After: Vitals{100, 0}})
	wantLedger(t, p, 98.69, 0)
}

func TestFloorIsDeductedArmorFirst(t *testing.T) {
	p := livePlayer(t)
	_, _ = p.SetArmor(0, 5)
	in := colt(1, Vitals{100, 5})
	in.VitalRev, in.Loss, in.After = 1, 0, Vitals{100, 5}
	mustReport(t, p, 0, in)
	wantLedger(t, p, 96.76, 0)
}

func TestFloorBeforeIsTheLowerOfTheClaimAndTheLedger(t *testing.T) {
	// the claim is lower: the floor comes off the claim
	p := livePlayer(t)
	in := colt(1, Vitals{50, 0})
	in.Loss, in.After = 1, Vitals{49, 0}
	mustReport(t, p, 0, in)
	wantLedger(t, p, 41.76, 0)
	// the ledger is lower: the floor comes off the ledger
	in = colt(2, Vitals{100, 0})
	in.Loss, in.After = 1, Vitals{99, 0}
	mustReport(t, p, 0, in)
	wantLedger(t, p, 33.52, 0)
}

func TestNoFloorForFireSprayExplosionRamOrEnvironment(t *testing.T) {
	for i, src := range []Source{SourceExplosion, SourceRam, SourceFire, SourceSpray, SourceExtinguisher, SourceEnvironment} {
		p := livePlayer(t)
		in := ReportInput{Seq: 1, Source: src, Weapon: []uint8{51, 49, 37, 41, 42, 54}[i], BodyPart: BodyTorso,
			Attacker: 7, Correlated: src != SourceEnvironment, Floor: 50, Loss: 0.1,
			Before: Vitals{100, 0}, After: Vitals{99.9, 0}}
		r := mustReport(t, p, 0, in)
		require.Equal(t, ReportApplied, r.Verdict, src.String())
		require.Zero(t, r.Reports[0].Floor, src.String())
		wantLedger(t, p, 99.9, 0)
	}
}

func TestLateReportPaysItsFloorFirstFromWhatItsFrameDeducted(t *testing.T) {
	p := livePlayer(t)
	mustFrame(t, p, 0, FrameInput{Seq: 2, DamageSeq: 1, Health: 60})
	p.Advance(ReportWait) // the frame counted alone: 40 deducted
	r := mustReport(t, p, ReportWait+ms, deagle(1, Vitals{100, 0}))
	require.Equal(t, ReportLate, r.Verdict)
	// floor 46.19: 40 from the frame, 6.19 from the ledger
	wantLedger(t, p, 53.81, 0)
	require.InDelta(t, 6.19, r.Reports[0].Deducted.Health, 1e-3)
}

func TestOnlyTheFirstReportAfterAFramesStartDrawsOnItsLoss(t *testing.T) {
	p := livePlayer(t)
	// one frame shows two colt hits (16.5); both reports come late
	mustFrame(t, p, 0, FrameInput{Seq: 2, DamageSeq: 2, Health: 83.5})
	p.Advance(ReportWait)
	wantLedger(t, p, 83.5, 0)
	// the second report is not the first after the frame's start: it pays from the ledger
	require.Equal(t, ReportLate, mustReport(t, p, ReportWait+ms, colt(2, Vitals{91.75, 0})).Verdict)
	wantLedger(t, p, 75.26, 0)
	// the first draws on the frame's loss
	require.Equal(t, ReportLate, mustReport(t, p, ReportWait+2*ms, colt(1, Vitals{100, 0})).Verdict)
	wantLedger(t, p, 75.26, 0)
}

func TestLossFromBeforeTheLastHealthCommandPaysForNoFloor(t *testing.T) {
	p := livePlayer(t)
	mustFrame(t, p, 0, FrameInput{Seq: 2, DamageSeq: 1, Health: 60})
	p.Advance(ReportWait)
	_, err := p.SetHealth(ReportWait+ms, 100)
	require.NoError(t, err)
	mustFrame(t, p, ReportWait+100*ms, FrameInput{Seq: 3, DamageSeq: 1, VitalRev: 1, Health: 100})
	in := deagle(1, Vitals{100, 0})
	in.VitalRev = 1
	require.Equal(t, ReportLate, mustReport(t, p, ReportWait+200*ms, in).Verdict)
	// the frame's 40 came before the heal: the whole floor comes from the ledger
	wantLedger(t, p, 53.81, 0)
}

// ---- 6. Damage multipliers ----

func TestMeleeAndPredatorFloorsAreMultipliedByTheirClass(t *testing.T) {
	p := livePlayer(t)
	mc, err := p.SetMultipliers(0, Multipliers{Melee: 2, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, Predator: 3})
	require.NoError(t, err)
	require.NoError(t, p.MultipliersAcknowledged(100*ms, mc.Rev))
	at := 100*ms + MultiplierGrace
	require.Equal(t, float32(2), p.FloorMultipliers(at).Melee)
	r := mustReport(t, p, at, ReportInput{Seq: 1, Source: SourceMelee, Weapon: 5, BodyPart: BodyTorso, Attacker: 4,
		Correlated: true, Before: Vitals{100, 0}, After: Vitals{100, 0}})
	require.InDelta(t, 2.63, r.Reports[0].Floor, 1e-4)
	r = mustReport(t, p, at, ReportInput{Seq: 2, Source: SourcePredatorGun, Weapon: 31, BodyPart: BodyTorso, Attacker: 4,
		Correlated: true, Before: Vitals{100, 0}, After: Vitals{100, 0}})
	require.InDelta(t, 14.84, r.Reports[0].Floor, 1e-4)
	// and a bullet's floor is not: WeaponProperties covers it
	r = mustReport(t, p, at, colt(3, Vitals{100, 0}))
	require.InDelta(t, 8.24, r.Reports[0].Floor, 1e-4)
}

func TestFloorUsesTheLowestMultiplierUntilTwoSecondsAfterTheAck(t *testing.T) {
	p := livePlayer(t)
	low := Multipliers{Melee: 0.5, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, Predator: 1}
	high := Multipliers{Melee: 3, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 1, Predator: 1}
	// lowering: the new (lower) table applies at once
	m1, _ := p.SetMultipliers(0, low)
	require.Equal(t, float32(0.5), p.FloorMultipliers(0).Melee)
	// raising while the lower table is not settled: the lowest still applies...
	m2, _ := p.SetMultipliers(ms, high)
	require.Equal(t, float32(0.5), p.FloorMultipliers(ms).Melee)
	// ...an acknowledgement of the older table changes nothing...
	require.NoError(t, p.MultipliersAcknowledged(100*ms, m1.Rev))
	require.Equal(t, float32(0.5), p.FloorMultipliers(10*time.Second).Melee)
	// ...until 2 s after the last table was acknowledged
	require.NoError(t, p.MultipliersAcknowledged(200*ms, m2.Rev))
	require.Equal(t, float32(0.5), p.FloorMultipliers(200*ms+MultiplierGrace-1).Melee)
	require.Equal(t, float32(3), p.FloorMultipliers(200*ms+MultiplierGrace).Melee)
	// a new table starts from the settled one: lowering from 3 to 1 floors at 1 at once
	_, _ = p.SetMultipliers(5*time.Second, DefaultMultipliers)
	require.Equal(t, float32(1), p.FloorMultipliers(5*time.Second).Melee)
}

func TestZeroMultiplierRefusesTheHitEntirely(t *testing.T) {
	p := livePlayer(t)
	_, err := p.SetMultipliers(0, Multipliers{Melee: 0, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 0, Predator: 1})
	require.NoError(t, err)
	melee := ReportInput{Seq: 1, Source: SourceMelee, Weapon: 4, BodyPart: BodyTorso, Attacker: 4, Correlated: true,
		Loss: 100, Before: Vitals{100, 0}, After: Vitals{0, 0}}
	require.Equal(t, ReportZeroMultiplier, mustReport(t, p, 0, melee).Verdict)
	// the class is the weapon the damage arrives with: an unowned explosion is refused too
	env := ReportInput{Seq: 1, Source: SourceEnvironment, Weapon: WeaponExplosion, Attacker: NoPlayer,
		Loss: 100, Before: Vitals{100, 0}, After: Vitals{0, 0}}
	require.Equal(t, ReportZeroMultiplier, mustReport(t, p, 0, env).Verdict)
	wantLedger(t, p, 100, 0)
	require.Equal(t, LifeCounted, p.Life())
}

func TestMultiplierClassIsTheWeaponTheDamageArrivesWith(t *testing.T) {
	require.Equal(t, ClassExplosion, ClassOf(SourceEnvironment, WeaponExplosion))
	require.Equal(t, ClassFire, ClassOf(SourceEnvironment, WeaponFire))
	require.Equal(t, ClassNone, ClassOf(SourceEnvironment, WeaponFall))
	require.Equal(t, ClassMelee, ClassOf(SourceMelee, 24)) // a gun butt
	require.Equal(t, ClassPredator, ClassOf(SourcePredatorGun, 31))
	require.Equal(t, ClassNone, ClassOf(SourceBullet, 24))
}

// ---- 7. Death by the ledger ----

func TestHealthReachingZeroCountsTheDeath(t *testing.T) {
	t.Run("by a report", func(t *testing.T) {
		p := livePlayer(t)
		in := deagle(1, Vitals{40, 0})
		r := mustReport(t, p, 10*ms, in)
		require.True(t, r.Died)
		require.Equal(t, Death{At: 10 * ms, Killer: 7, Weapon: 24, Reason: DeathByReport}, r.Death)
	})
	t.Run("by a frame", func(t *testing.T) {
		p := livePlayer(t)
		mustReport(t, p, 0, colt(1, Vitals{100, 0}))
		r := mustFrame(t, p, 10*ms, FrameInput{Seq: 2, DamageSeq: 1, Health: 0})
		require.True(t, r.Died)
		require.Equal(t, Death{At: 10 * ms, Killer: 7, Weapon: 22, Reason: DeathByFrame}, r.Death)
	})
	t.Run("by set_health(0)", func(t *testing.T) {
		p := livePlayer(t)
		r, err := p.SetHealth(10*ms, 0)
		require.NoError(t, err)
		require.True(t, r.Died)
		require.Equal(t, DeathByCommand, r.Death.Reason)
	})
}

func TestVehicleExplosionCountsItsOccupantsDeadExceptTheKillersTeammates(t *testing.T) {
	p := livePlayer(t)
	e, err := p.VehicleExploded(10*ms, VehicleExplosion{Killer: 4})
	require.NoError(t, err)
	require.Equal(t, Death{At: 10 * ms, Killer: 4, Weapon: WeaponExplosion, Reason: DeathByVehicleExplosion}, e.Death)
	mate := livePlayer(t)
	before := append([]byte(nil), playerBytes(mate)...)
	_, err = mate.VehicleExploded(10*ms, VehicleExplosion{Killer: 4, Teammate: true})
	require.ErrorIs(t, err, ErrTeammate)
	require.Equal(t, before, playerBytes(mate))
}

func TestStealthKillCountsTheDeathWithTheStealthFlag(t *testing.T) {
	p := livePlayer(t)
	e, err := p.StealthKilled(10*ms, StealthKill{Killer: 4, Weapon: 4})
	require.NoError(t, err)
	require.Equal(t, Death{At: 10 * ms, Killer: 4, Weapon: 4, Reason: DeathByStealthKill, Stealth: true}, e.Death)
	_, err = livePlayer(t).StealthKilled(10*ms, StealthKill{Killer: 4, Weapon: 4, Teammate: true})
	require.ErrorIs(t, err, ErrTeammate)
}

func TestEachWayOfCountingADeathIsReportedSoTheEarlierDeadlineApplies(t *testing.T) {
	p := livePlayer(t)
	e, _ := p.StealthKilled(0, StealthKill{Killer: 4, Weapon: 4})
	require.True(t, e.Died)
	// the ledger reaching 0 afterwards has an earlier deadline (no 10 s): reported too
	r := mustReport(t, p, 500*ms, deagle(1, Vitals{30, 0}))
	require.True(t, r.Died)
	require.Equal(t, DeathByReport, r.Death.Reason)
	e, _ = p.VehicleExploded(600*ms, VehicleExplosion{Killer: 4})
	require.True(t, e.Died)
	// each way once
	e, _ = p.VehicleExploded(700*ms, VehicleExplosion{Killer: 4})
	require.False(t, e.Died)
}

func TestKillerComesFromTheLastDamage(t *testing.T) {
	p := livePlayer(t)
	in := colt(1, Vitals{100, 0})
	in.Attacker = 3
	mustReport(t, p, 0, in)
	e, _ := p.VehicleExploded(10*ms, VehicleExplosion{Killer: NoPlayer})
	require.Equal(t, PlayerID(3), e.Death.Killer)
	require.Equal(t, PlayerID(3), p.Killer(nil))
}

func TestTeammateIsNeverNamedKiller(t *testing.T) {
	p := livePlayer(t)
	in := colt(1, Vitals{100, 0})
	in.Attacker = 3
	mustReport(t, p, 0, in)
	// 3 joined the victim's team after dealing the damage: no killer
	require.Equal(t, NoPlayer, p.Killer(func(a PlayerID) bool { return a == 3 }))
	require.Equal(t, PlayerID(3), p.Killer(func(a PlayerID) bool { return a == 5 }))
	// a teammate's report is never credited, so never the last damage
	in = colt(2, Vitals{91.75, 0})
	in.Attacker, in.Teammate = 5, true
	require.Equal(t, ReportTeammate, mustReport(t, p, 0, in).Verdict)
	require.Equal(t, PlayerID(3), p.LastDamage().Attacker)
}

func TestOnceCountedDeadNothingRaisesTheLedgerAndCommandsAreRefused(t *testing.T) {
	p := livePlayer(t)
	mustReport(t, p, 0, deagle(1, Vitals{40, 0}))
	require.Equal(t, LifeCountedDead, p.Life())
	r := mustFrame(t, p, 10*ms, FrameInput{Seq: 2, DamageSeq: 1, Health: 100})
	require.Equal(t, FrameAfterDeath, r.Verdict)
	require.False(t, r.GodMode)
	wantLedger(t, p, 0, 0)
	_, err := p.AddHealth(20*ms, 50, 100)
	require.ErrorIs(t, err, ErrNotAlive)
	wantLedger(t, p, 0, 0)
}

func TestDeathZeroIsCriticalAndTakesTheNextRevision(t *testing.T) {
	p := livePlayer(t)
	_, err := p.DeathZero(0)
	require.ErrorIs(t, err, ErrStillAlive)
	_, _ = p.StealthKilled(0, StealthKill{Killer: 4, Weapon: 4})
	c, err := p.DeathZero(11 * time.Second)
	require.NoError(t, err)
	require.Equal(t, Command{Kind: CommandSetHealth, Rev: 1, Value: 0, Critical: true}, c)
	wantLedger(t, p, 0, 0)
	_, err = p.Died(11 * time.Second)
	require.NoError(t, err)
	c, err = p.DeathZero(12 * time.Second)
	require.NoError(t, err)
	require.Equal(t, uint16(2), c.Rev)
}

func TestDiedTakesWhatWaitsFirst(t *testing.T) {
	p := livePlayer(t)
	// the lethal report waits behind a lost report when the DeathReport arrives
	in := deagle(2, Vitals{40, 0})
	in.Attacker = 9
	mustReport(t, p, 0, in)
	mustFrame(t, p, 10*ms, FrameInput{Seq: 2, DamageSeq: 2, Health: 0})
	e, err := p.Died(20 * ms)
	require.NoError(t, err)
	require.Equal(t, []ReportVerdict{ReportApplied}, verdicts(e.Reports))
	require.False(t, e.Died, "lifecycle committed this death; vitals does not count it again")
	require.Equal(t, PlayerID(9), p.Killer(nil))
	require.Equal(t, LifeDead, p.Life())
	f, r := p.Waiting()
	require.Zero(t, f+r)
}

// ---- 8. No corrections to a living player ----

func TestNothingLowersALivingPlayersHealthBack(t *testing.T) {
	// no result of a frame, a report or the passage of time carries a command: the only
	// commands are the gamemode's and the death's zero
	for _, typ := range []reflect.Type{reflect.TypeOf(Effects{}), reflect.TypeOf(FrameResult{}), reflect.TypeOf(ReportResult{}), reflect.TypeOf(Outcome{})} {
		for i := range typ.NumField() {
			require.NotEqual(t, reflect.TypeOf(Command{}), typ.Field(i).Type, "%v.%s", typ, typ.Field(i).Name)
		}
	}
	// the death's zero is refused to a living player
	p := livePlayer(t)
	_, err := p.DeathZero(0)
	require.ErrorIs(t, err, ErrStillAlive)
	// a rejected report takes nothing and returns nothing to apply
	in := deagle(1, Vitals{100, 0})
	in.Teammate = true
	r := mustReport(t, p, 0, in)
	require.Empty(t, r.Reports)
	wantLedger(t, p, 100, 0)
}

// ---- 9. Trust in fields ----

func TestBodyPartComesFromTheWhitelist(t *testing.T) {
	for bp := range 256 {
		p := livePlayer(t)
		in := colt(1, Vitals{100, 0})
		in.BodyPart = uint8(bp)
		_, err := p.Report(0, in)
		if bp >= 3 && bp <= 9 {
			require.NoError(t, err, "body part %d", bp)
		} else {
			require.ErrorIs(t, err, ErrBodyPart, "body part %d", bp)
			wantLedger(t, p, 100, 0)
		}
	}
}

func TestBodyPartDoesNotChangeTheFloor(t *testing.T) {
	var floors []float32
	for bp := BodyTorso; bp <= BodyHead; bp++ {
		p := livePlayer(t)
		in := colt(1, Vitals{100, 0})
		in.BodyPart = bp
		floors = append(floors, mustReport(t, p, 0, in).Reports[0].Floor)
	}
	for _, f := range floors {
		require.Equal(t, floors[0], f)
	}
}

func TestClaimsAreTrustedOnlyWithinTheFloorAndTheLedger(t *testing.T) {
	p := livePlayer(t)
	// a claim above the ledger does not lift it, a loss above what is left just kills
	in := colt(1, Vitals{200, 200})
	in.Loss, in.After = 10, Vitals{200, 190}
	mustReport(t, p, 0, in)
	wantLedger(t, p, 90, 0)
	in = colt(2, Vitals{90, 0})
	in.Loss, in.After = 300, Vitals{-50, 0} // the game went below zero: read as 0
	r := mustReport(t, p, 0, in)
	require.True(t, r.Died)
	wantLedger(t, p, 0, 0)
}

func TestReportNumbersAreMonotonic(t *testing.T) {
	p := livePlayer(t)
	for i := uint16(1); i <= 70; i++ {
		in := ReportInput{Seq: i, Source: SourceEnvironment, Weapon: WeaponFall, Attacker: NoPlayer,
			Before: Vitals{100, 0}, After: Vitals{100, 0}}
		mustReport(t, p, 0, in)
	}
	stale := ReportInput{Seq: 6, Source: SourceEnvironment, Weapon: WeaponFall, Attacker: NoPlayer, Before: Vitals{100, 0}, After: Vitals{100, 0}}
	require.Equal(t, ReportStale, mustReport(t, p, 0, stale).Verdict)
	stale.Seq = 69
	require.Equal(t, ReportDuplicate, mustReport(t, p, 0, stale).Verdict)
	stale.Seq = 70 + ReportWindow + 1
	require.Equal(t, ReportTooFarAhead, mustReport(t, p, 0, stale).Verdict)
}

func TestHitWithoutCorrelationIsNotCredited(t *testing.T) {
	p := livePlayer(t)
	in := deagle(1, Vitals{100, 0})
	in.Correlated = false
	r := mustReport(t, p, 0, in)
	require.Equal(t, ReportUncorrelated, r.Verdict)
	require.False(t, p.LastDamage().Valid)
	wantLedger(t, p, 100, 0)
}

func TestFrameDamageSeqOnlyAffectsTheOrder(t *testing.T) {
	p := livePlayer(t)
	// a made-up damage_seq releases nothing and credits nothing: the frame waits, then
	// counts alone
	r := mustFrame(t, p, 0, FrameInput{Seq: 2, DamageSeq: 30000, Health: 90})
	require.Equal(t, FrameWaiting, r.Verdict)
	e := p.Advance(ReportWait)
	require.Equal(t, uint16(1), e.FramesCounted)
	require.False(t, p.LastDamage().Valid)
	wantLedger(t, p, 90, 0)
}

// ---- 10. The god-mode suspicion detector ----

func suspicionPlayer(t *testing.T) *Player { return livePlayer(t) }

func TestSuspicionFlagsAVictimWhoseFeltLossStaysBelowTenPercentOfTheClaimed(t *testing.T) {
	p := suspicionPlayer(t)
	// 24 accepted hits claimed by shooters, 46.2 each; the victim confirms none and shows
	// only 40 lost in its frames
	for i := range 24 {
		s, err := p.HitClaimed(time.Duration(i)*100*ms, 46.2)
		require.NoError(t, err)
		require.False(t, s.Raised)
	}
	mustFrame(t, p, 3*time.Second, FrameInput{Seq: 2, Health: 60})
	s := p.Suspect(ClaimGrace + 3*time.Second)
	require.True(t, s.Raised, "%+v", s)
	require.Equal(t, 24, s.Hits)
	require.InDelta(t, 40, s.Felt, 1e-3)
	require.InDelta(t, 24*46.2, s.Claimed, 1e-2)
	wantLedger(t, p, 60, 0) // it never changes health
	// raised once, not again while the condition holds
	require.False(t, p.Suspect(ClaimGrace+4*time.Second).Raised)
}

func TestSuspicionNeedsAMinimumOfEvidence(t *testing.T) {
	p := suspicionPlayer(t)
	// one hit fewer than the minimum, no loss at all: below the minimum number of hits
	for i := range DefaultSuspicionMinHits - 1 {
		_, _ = p.HitClaimed(time.Duration(i)*100*ms, 46.2)
	}
	require.False(t, p.Suspect(10*time.Second).Raised)
	// the minimum number of tiny hits: below the minimum claimed loss
	q := suspicionPlayer(t)
	for i := range DefaultSuspicionMinHits {
		_, _ = q.HitClaimed(time.Duration(i)*100*ms, 3)
	}
	require.False(t, q.Suspect(10*time.Second).Raised)
}

func TestSuspicionWaitsForTheVictimsReportsBeforeJudgingAClaim(t *testing.T) {
	p := suspicionPlayer(t)
	// an M4 burst at 400 ms round trip: every claim arrives long before the victim's report
	before := Vitals{100, 0}
	for i := range 20 {
		now := time.Duration(i) * 90 * ms
		_, _ = p.HitClaimed(now, PlayerDamageFactor*30)
		require.False(t, p.Suspect(now).Raised)
		if i >= 5 { // the report of the hit claimed 450 ms ago
			in := colt(uint16(i-4), before)
			in.Weapon, in.Loss, in.Floor = 31, PlayerDamageFactor*30, BulletFloor(30)
			in.After = deductLikeTheGame(before, in.Loss)
			before = in.After
			mustReport(t, p, now, in)
		}
	}
	for i := range 40 {
		require.False(t, p.Suspect(2*time.Second+time.Duration(i)*100*ms).Raised)
	}
}

func TestSuspicionIgnoresHitsOnAVictimThatIsAlreadyDying(t *testing.T) {
	p := suspicionPlayer(t)
	// a minigun keeps hitting for a round trip after the victim died of its third hit
	before := Vitals{100, 0}
	for i := range 25 {
		now := time.Duration(i) * 20 * ms
		_, _ = p.HitClaimed(now, PlayerDamageFactor*140)
		if i >= 20 && i < 23 {
			in := deagle(uint16(i-19), before)
			before = in.After
			mustReport(t, p, now, in)
		}
	}
	require.Equal(t, LifeCountedDead, p.Life())
	for i := range 40 {
		require.False(t, p.Suspect(time.Duration(i)*250*ms).Raised)
	}
}

func TestOneLostReportNeverRaisesSuspicion(t *testing.T) {
	p := suspicionPlayer(t)
	before := Vitals{100, 0}
	for i := range 12 {
		now := time.Duration(i) * 100 * ms
		_, _ = p.HitClaimed(now, PlayerDamageFactor*25)
		in := colt(uint16(i+1), before)
		before = in.After
		if i == 5 { // lost: only the frame shows it
			mustFrame(t, p, now, FrameInput{Seq: uint16(i + 2), DamageSeq: in.Seq, Health: in.After.Health})
			continue
		}
		mustReport(t, p, now, in)
	}
	p.Advance(2 * time.Second) // the reports behind the lost one wait for it, then count
	s := p.Suspect(ClaimGrace + 2*time.Second)
	require.False(t, s.Raised, "%+v", s)
	require.Equal(t, 11, s.Confirmed)
	wantLedger(t, p, 1, 0)
}

func TestConfigZeroIsTheDefaultsAndBadFieldsAreRefused(t *testing.T) {
	c, err := Config{}.withDefaults()
	require.NoError(t, err)
	require.Equal(t, Config{SuspicionWindow: DefaultSuspicionWindow, SuspicionRatio: DefaultSuspicionRatio,
		SuspicionMinHits: DefaultSuspicionMinHits, SuspicionMinClaimed: DefaultSuspicionMinClaimed}, c)
	for _, bad := range []Config{
		{SuspicionWindow: time.Second}, {SuspicionWindow: time.Hour}, {SuspicionWindow: -time.Second},
		{SuspicionRatio: -0.1}, {SuspicionRatio: 1.5}, {SuspicionRatio: float32(nan())},
		{SuspicionMinHits: -1}, {SuspicionMinHits: 1 << 30},
		{SuspicionMinClaimed: -5}, {SuspicionMinClaimed: float32(inf())},
	} {
		_, err := NewPlayer(bad)
		require.ErrorIs(t, err, ErrConfig, "%+v", bad)
	}
	c, err = Config{SuspicionWindow: 7500 * ms}.withDefaults()
	require.NoError(t, err)
	require.Equal(t, 8*time.Second, c.SuspicionWindow)
}

// ---- strings ----

func TestEveryVerdictHasADeterministicName(t *testing.T) {
	seen := map[string]bool{}
	for v := FrameCounted; v <= FrameNotAlive; v++ {
		require.NotContains(t, v.String(), "(", v)
		require.False(t, seen["f"+v.String()])
		seen["f"+v.String()] = true
	}
	for v := ReportApplied; v <= ReportNotAlive; v++ {
		require.NotContains(t, v.String(), "(", v)
		require.False(t, seen["r"+v.String()])
		seen["r"+v.String()] = true
	}
	for s := SourceBullet; s < sourceEnd; s++ {
		require.NotContains(t, s.String(), "(")
	}
	for r := DeathByReport; r <= DeathByStealthKill; r++ {
		require.NotContains(t, r.String(), "(")
	}
	for c := ClassNone; c <= ClassPredator; c++ {
		require.NotContains(t, c.String(), "(")
	}
	for k := CommandSetHealth; k <= CommandAddArmor; k++ {
		require.NotContains(t, k.String(), "(")
	}
	for l := LifeNone; l <= LifeDead; l++ {
		require.NotContains(t, l.String(), "(")
	}
	require.Equal(t, "FrameVerdict(99)", FrameVerdict(99).String())
	require.Equal(t, "ReportVerdict(99)", ReportVerdict(99).String())
	require.Equal(t, "add_health rev 3 value 25 max 100", Command{Kind: CommandAddHealth, Rev: 3, Value: 25, Max: 100}.String())
	require.Equal(t, "death by stealth_kill at 1s killer 4 weapon 4 stealth",
		Death{At: time.Second, Killer: 4, Weapon: 4, Reason: DeathByStealthKill, Stealth: true}.String())
	require.True(t, errors.Is(ErrNotAlive, ErrNotAlive))
}

// TestNumbersAndRevisionsWrapAround: a long connection runs report numbers, frame numbers
// and health revisions past 65535; order, duplicates and the revision gate hold across the
// wrap.
func TestNumbersAndRevisionsWrapAround(t *testing.T) {
	p := livePlayer(t)
	now := time.Duration(0)
	noop := func(seq uint16, rev uint16) ReportInput {
		return ReportInput{Seq: seq, VitalRev: rev, Source: SourceEnvironment, Weapon: WeaponFall, Attacker: NoPlayer,
			Before: Vitals{100, 0}, After: Vitals{100, 0}}
	}
	rev := uint16(0)
	for i := 1; i <= 70000; i++ {
		now += ms
		seq := uint16(i)
		if i%1000 == 0 { // a command now and then, echoed at once
			r, err := p.SetArmor(now, float32(i%100))
			require.NoError(t, err)
			rev = r.Command.Rev
		}
		if i%7 == 0 { // two reports swapped on the way
			require.Equal(t, ReportHeld, mustReport(t, p, now, noop(seq+1, rev)).Verdict, "i=%d", i)
			r := mustReport(t, p, now, noop(seq, rev))
			require.Equal(t, []ReportVerdict{ReportApplied, ReportApplied}, verdicts(r.Reports), "i=%d", i)
			require.Equal(t, ReportDuplicate, mustReport(t, p, now, noop(seq+1, rev)).Verdict, "i=%d", i)
			continue
		}
		if i%7 == 1 && i > 1 {
			continue // taken with the swap
		}
		require.Equal(t, ReportApplied, mustReport(t, p, now, noop(seq, rev)).Verdict, "i=%d", i)
		require.Equal(t, FrameCounted, mustFrame(t, p, now, FrameInput{Seq: uint16(i + 1), DamageSeq: seq, VitalRev: rev,
			Health: 100, Armor: p.Ledger().Armor}).Verdict, "i=%d", i)
	}
	require.Equal(t, uint16(70), p.Revision())
	// past the wrap, an echo of the previous revision is still judged before the newer
	// command, which applies after it
	_, err := p.SetHealth(now, 50)
	require.NoError(t, err)
	r := mustFrame(t, p, now+ms, FrameInput{Seq: 70002 - 65536, DamageSeq: 70000 - 65536, VitalRev: rev, Health: 40})
	require.Equal(t, FrameCounted, r.Verdict)
	wantLedger(t, p, 50, float32(70000%100))
	r = mustFrame(t, p, now+2*ms, FrameInput{Seq: 70003 - 65536, DamageSeq: 70000 - 65536, VitalRev: rev + 1, Health: 45})
	require.Equal(t, FrameCounted, r.Verdict)
	wantLedger(t, p, 45, float32(70000%100))
}
