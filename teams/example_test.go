package teams_test

import (
	"fmt"

	"github.com/arbitergo/arbiter/teams"
)

// A small world: two teams, friendly fire off in one and on in the other.
func Example() {
	r := teams.New()
	_ = r.CreateTeam(1, teams.Team{Name: "Grove", Color: 0x00ff00ff})
	_ = r.CreateTeam(2, teams.Team{Name: "Deathmatch", Color: 0xffffffff, FriendlyFire: true})
	for p := range teams.PlayerID(4) {
		_ = r.Connect(p)
	}
	_, _ = r.JoinTeam(0, 1)
	_, _ = r.JoinTeam(1, 1)
	_, _ = r.JoinTeam(2, 2)
	_, _ = r.JoinTeam(3, 2)

	for p := range teams.PlayerID(4) {
		fmt.Printf("player %d: team %d, damage group %d\n", p, r.TeamOf(p), r.Group(p))
	}
	fmt.Println("0 and 1 are teammates:", r.Teammates(0, 1))
	fmt.Println("2 and 3 are teammates:", r.Teammates(2, 3))
	// Output:
	// player 0: team 1, damage group 1
	// player 1: team 1, damage group 1
	// player 2: team 2, damage group 0
	// player 3: team 2, damage group 0
	// 0 and 1 are teammates: true
	// 2 and 3 are teammates: false
}

// The relay stamps every packet that can hurt, for each recipient. A team change sends
// nothing: the next stamps carry it, under a newer revision.
func ExampleRegistry_Stamp() {
	r := teams.New()
	_ = r.CreateTeam(1, teams.Team{Name: "Police"})
	for p := range teams.PlayerID(3) {
		_ = r.Connect(p)
	}
	_, _ = r.JoinTeam(0, 1)
	_, _ = r.JoinTeam(1, 1)

	sender := teams.PlayerID(0)
	for _, recipient := range []teams.PlayerID{1, 2} {
		fmt.Printf("frame of %d to %d: %v\n", sender, recipient, r.Stamp(sender, recipient))
	}
	c, _ := r.JoinTeam(2, 1)
	fmt.Println("player 2 joins:", c)
	fmt.Printf("frame of %d to %d: %v\n", sender, 2, r.Stamp(sender, 2))
	// Output:
	// frame of 0 to 1: teammate@2
	// frame of 0 to 2: apart@2
	// player 2 joins: rev 3 moved, 1 regrouped
	// frame of 0 to 2: teammate@3
}

// Turning friendly fire on gives the members damage group 0; renaming moves nothing.
func ExampleRegistry_SetFriendlyFire() {
	r := teams.New()
	_ = r.CreateTeam(5, teams.Team{Name: "Army"})
	_ = r.Connect(10)
	_ = r.Connect(11)
	_, _ = r.JoinTeam(10, 5)
	_, _ = r.JoinTeam(11, 5)

	c, _ := r.SetFriendlyFire(5, true)
	fmt.Println("friendly fire on:", c, "- group", r.Group(10), "- teammates", r.Teammates(10, 11))
	c, _ = r.ChangeTeam(5, teams.Team{Name: "Armed Forces", FriendlyFire: true})
	fmt.Println("renamed:", c)
	// Output:
	// friendly fire on: rev 3 moved, 2 regrouped - group 0 - teammates false
	// renamed: rev 3 unmoved
}

// Membership is a field of the player: it leaves with the player, and a new player on
// the same id starts in no team.
func ExampleRegistry_Disconnect() {
	r := teams.New()
	_ = r.CreateTeam(1, teams.Team{Name: "Red"})
	_ = r.Connect(0)
	_ = r.Connect(1)
	_, _ = r.JoinTeam(0, 1)
	_, _ = r.JoinTeam(1, 1)

	c, _ := r.Disconnect(1)
	fmt.Println("1 leaves:", c)
	_ = r.Connect(1)
	fmt.Println("new 1: team", r.TeamOf(1), "- teammate of 0:", r.Stamp(1, 0))
	// Output:
	// 1 leaves: rev 3 moved, 1 regrouped
	// new 1: team 0 - teammate of 0: apart@3
}

// The victim's client: a shot by its own stamp, anything else by the newest stamp from
// the attacker, newest by revision even when packets arrive out of order.
func ExampleTracker() {
	var victim teams.Tracker
	attacker := teams.PlayerID(7)

	shot := teams.Stamp{Teammate: false, Rev: 41}  // a shot fired before a team change
	frame := teams.Stamp{Teammate: true, Rev: 42}  // a frame after it, arriving first
	stale := teams.Stamp{Teammate: false, Rev: 40} // an old frame arriving last
	victim.Observe(attacker, frame)
	victim.Observe(attacker, shot)
	victim.Observe(attacker, stale)

	fmt.Println("newest:", victim.Teammate(attacker))
	fmt.Println("the shot:", victim.JudgeHit(teams.Hit{Attacker: attacker, Shot: true, Stamp: shot}))
	fmt.Println("a blow:", victim.JudgeHit(teams.Hit{Attacker: attacker}))
	fmt.Println("a fall:", victim.JudgeHit(teams.Hit{Attacker: teams.NoPlayer}))
	// Output:
	// newest: true
	// the shot: applied
	// a blow: refused: teammate
	// a fall: applied
}

// JudgeHit is the client's rule as a pure function.
func ExampleJudgeHit() {
	newest := teams.Stamp{Teammate: true, Rev: 9}
	fmt.Println(teams.JudgeHit(teams.Hit{Attacker: 3, Shot: true, Stamp: teams.Stamp{Rev: 8}}, newest))
	fmt.Println(teams.JudgeHit(teams.Hit{Attacker: 3}, newest))
	// Output:
	// applied
	// refused: teammate
}

// The server judges a damage report by the relation now and by the stamp the shot
// carried, rebuilt from the revision it was relayed with.
func ExampleRegistry_JudgeReport() {
	r := teams.New()
	_ = r.CreateTeam(1, teams.Team{Name: "Red"})
	_ = r.CreateTeam(2, teams.Team{Name: "Blue"})
	for p := range teams.PlayerID(3) {
		_ = r.Connect(p)
	}
	_, _ = r.JoinTeam(0, 1)
	_, _ = r.JoinTeam(1, 1)
	_, _ = r.JoinTeam(2, 2)

	shot := teams.Action{Stamped: true, Rev: r.Rev()} // 2 shoots 0
	v, _ := r.JudgeReport(2, 0, shot)
	fmt.Println("enemy's shot:", v, v.Credited())
	v, _ = r.JudgeReport(1, 0, teams.Action{}) // a teammate's blow
	fmt.Println("teammate's blow:", v, v.Credited())

	_, _ = r.JoinTeam(2, 1) // 2 joins red while its shot is in flight
	v, _ = r.JudgeReport(2, 0, shot)
	fmt.Println("shot before the change:", v, v.Credited())
	// Output:
	// enemy's shot: credited true
	// teammate's blow: refused: teammates false
	// shot before the change: discarded: accepted before a team change false
}

// A teammate is never named killer, even for damage dealt before the two joined.
func ExampleRegistry_JudgeKiller() {
	r := teams.New()
	_ = r.CreateTeam(1, teams.Team{Name: "Red"})
	_ = r.Connect(0)
	_ = r.Connect(1)
	_, _ = r.JoinTeam(0, 1)

	lastDamage := teams.PlayerID(1) // 1 hurt 0 while they were enemies
	_, _ = r.JoinTeam(1, 1)         // then joined 0's team; 0 dies of a fall
	killer, v, _ := r.JudgeKiller(lastDamage, 0, r.Rev())
	fmt.Println(killer == teams.NoPlayer, v)
	fmt.Println(r.JudgeStealthKill(1, 0))
	// Output:
	// true refused: teammate
	// refused: teammate
}

// A vehicle explosion with a credited killer spares the killer's teammates inside; one
// without kills everyone, the last damage naming the killer unless it is a teammate.
func ExampleJudgeExplosion() {
	const killer = 5
	e := teams.Explosion{
		Killer:      killer,
		KillerGroup: 2,
		Occupants: []teams.Occupant{
			{Player: 1, Group: 2, LastAttacker: teams.NoPlayer}, // the killer's teammate
			{Player: 2, Group: 3, LastAttacker: teams.NoPlayer},
		},
	}
	fates, _ := teams.JudgeExplosion(e, nil)
	for _, f := range fates {
		fmt.Println(f)
	}
	e.Killer = teams.NoPlayer
	e.Occupants = []teams.Occupant{
		{Player: 1, Group: 2, LastAttacker: 4, LastAttackerGroup: 3},
		{Player: 2, Group: 3, LastAttacker: 4, LastAttackerGroup: 3}, // hurt by a teammate
	}
	fates, _ = teams.JudgeExplosion(e, fates[:0])
	for _, f := range fates {
		fmt.Println(f)
	}
	// Output:
	// player 1: spared: teammate of the author (killer none)
	// player 2: killed by the author (killer 5)
	// player 1: killed, killer by the last damage (killer 4)
	// player 2: killed, teammate not named (killer none)
}
