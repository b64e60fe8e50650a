package match_test

import (
	"fmt"
	"time"

	"github.com/arbitergo/arbiter/examples/match"
)

// A short match of eight honest players at 150 ms of round trip with 5 % loss: nobody is
// wronged, and the server and every client agree on everything once it settled.
func ExampleRun() {
	r, err := match.Run(match.Config{
		Seed: 3, Players: 8, Duration: 30 * time.Second,
		RTTMin: 150 * time.Millisecond, RTTMax: 150 * time.Millisecond, Loss: 0.05,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("honest players wronged:", r.HonestWronged)
	fmt.Println("shots fired:", r.Shots > 0, "deaths:", r.Deaths > 0, "respawned:", r.Respawns == r.Deaths)
	// Output:
	// honest players wronged: 0
	// shots fired: true deaths: true respawned: true
}
