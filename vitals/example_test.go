package vitals_test

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/vitals"
)

// A player is hit by a Desert Eagle (damage 140 at the shooter's tier). Its client claims
// only 10 of loss: the ledger takes the bullet's floor anyway.
func ExamplePlayer_Report_hit() {
	p, _ := vitals.NewPlayer(vitals.Config{})
	p.NewLife(0)
	p.Frame(0, vitals.FrameInput{Seq: 1, Health: 100}) // the first frame: the life counts

	res, _ := p.Report(50*time.Millisecond, vitals.ReportInput{
		Seq: 1, Source: vitals.SourceBullet, Weapon: 24, BodyPart: vitals.BodyTorso,
		Attacker: 7, Correlated: true, // the host matched it with 7's accepted shot
		Floor: vitals.BulletFloor(140),
		Loss:  10, Before: vitals.Vitals{Health: 100}, After: vitals.Vitals{Health: 90},
	})
	fmt.Println(res.Verdict, res.Reports[0])
	fmt.Println("ledger", res.Ledger)
	// Output:
	// applied report 1 applied bullet by 7 deducted 46.19/0
	// ledger 53.81/0
}

// The gamemode heals a player while a hit is in flight: the report, created before the
// client took the heal, is judged before it (the heal erases its loss, as it did on the
// client); the client's next frames echo the heal.
func ExamplePlayer_SetHealth_commandRace() {
	p, _ := vitals.NewPlayer(vitals.Config{})
	p.NewLife(0)
	p.Frame(0, vitals.FrameInput{Seq: 1, Health: 100})
	p.Report(10*time.Millisecond, vitals.ReportInput{Seq: 1, Source: vitals.SourceBullet, Weapon: 22,
		BodyPart: 3, Attacker: 7, Correlated: true, Floor: vitals.BulletFloor(25), Loss: 8.25,
		Before: vitals.Vitals{Health: 100}, After: vitals.Vitals{Health: 91.75}})

	heal, _ := p.SetHealth(100*time.Millisecond, 100)
	fmt.Println("send", heal.Command, "ledger", heal.Ledger)

	// a second hit happened before the client applied the heal: it echoes revision 0
	r, _ := p.Report(150*time.Millisecond, vitals.ReportInput{Seq: 2, VitalRev: 0, Source: vitals.SourceBullet,
		Weapon: 22, BodyPart: 3, Attacker: 7, Correlated: true, Floor: vitals.BulletFloor(25), Loss: 8.25,
		Before: vitals.Vitals{Health: 91.75}, After: vitals.Vitals{Health: 83.5}})
	fmt.Println(r.Verdict, "ledger", r.Ledger)

	// a frame from before the heal, then one after it
	f, _ := p.Frame(160*time.Millisecond, vitals.FrameInput{Seq: 2, DamageSeq: 2, VitalRev: 0, Health: 83.5})
	fmt.Println(f.Verdict, "ledger", f.Ledger)
	f, _ = p.Frame(250*time.Millisecond, vitals.FrameInput{Seq: 3, DamageSeq: 2, VitalRev: heal.Command.Rev, Health: 100})
	fmt.Println(f.Verdict, "ledger", f.Ledger)
	// Output:
	// send set_health rev 1 value 100 ledger 100/0
	// applied ledger 100/0
	// counted ledger 100/0
	// counted ledger 100/0
}

// The ledger reaches 0: the server counts the death itself with the killer from the last
// damage. Lifecycle waits for the DeathReport (its deadline is lifecycle's) and, without
// it, commits the death and sends the critical zero.
func ExamplePlayer_Frame_deathByTheLedger() {
	p, _ := vitals.NewPlayer(vitals.Config{})
	p.NewLife(0)
	p.Frame(0, vitals.FrameInput{Seq: 1, Health: 100})
	p.Report(10*time.Millisecond, vitals.ReportInput{Seq: 1, Source: vitals.SourceBullet, Weapon: 34,
		BodyPart: 9, Attacker: 4, Correlated: true, Floor: vitals.BulletFloor(125), Loss: 41.25,
		Before: vitals.Vitals{Health: 100}, After: vitals.Vitals{Health: 58.75}})

	// the victim fell: the frame shows 0 before the fall's report was even created
	f, _ := p.Frame(500*time.Millisecond, vitals.FrameInput{Seq: 2, DamageSeq: 1, Health: 0})
	fmt.Println(f.Verdict, f.Died, f.Death)

	// no DeathReport in time: lifecycle commits
	p.Died(2 * time.Second)
	zero, _ := p.DeathZero(2 * time.Second)
	fmt.Println("killer", p.Killer(nil), "send", zero)
	// Output:
	// counted true death by frame at 500ms killer 4 weapon 34
	// killer 4 send set_health rev 1 value 0 critical
}
