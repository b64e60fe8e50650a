package replay_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/examples/client"
	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/examples/replay"
	"github.com/arbitergo/arbiter/inventory"
	"github.com/arbitergo/arbiter/lifecycle"
	"github.com/arbitergo/arbiter/teams"
	"github.com/arbitergo/arbiter/vitals"
	"github.com/arbitergo/arbiter/wire"
)

// recordVerbs records two players joining and every gamemode verb of the facade, each
// with arguments that change what the World sends, flushing after each.
func recordVerbs(t *testing.T) []byte {
	t.Helper()
	w, err := refserver.New(refserver.Config{MaxPlayers: 4, MaxVehicles: 4, RespawnDelay: time.Second})
	require.NoError(t, err)
	var out bytes.Buffer
	r, err := replay.NewRecorder(w, &out)
	require.NoError(t, err)
	// Two honest clients in memory: their datagrams go straight to the recorder and back.
	var cs []*client.Client
	for i := range 2 {
		c, err := client.New(client.Config{World: noWorld{}, Seed: uint64(i)})
		require.NoError(t, err)
		cs = append(cs, c)
	}
	now := time.Duration(0)
	step := func() {
		now += 10 * time.Millisecond
		for i, c := range cs {
			_ = c.Tick(now)
			if c.Alive() {
				_ = c.Move(now, wire.Vec3{X: float32(5 * i), Z: 3}, wire.Vec3{}, 0)
			}
			_ = c.Flush(now, func(d []byte) { _ = r.Receive(now, refserver.PlayerID(i), d) })
		}
		require.NoError(t, r.Tick(now))
		_ = r.Events(nil)
		require.NoError(t, r.Flush(now, func(conn refserver.PlayerID, d []byte) {
			if int(conn) < len(cs) {
				_ = cs[conn].Receive(now, d)
			}
		}))
	}
	for range 100 {
		step()
	}
	pos, rot := wire.Vec3{X: 1, Y: 2, Z: 3}, wire.Quat{W: 0.7071068, Z: 0.7071068}
	calls := []func() error{
		func() error { return r.SetHealth(now, 0, 75) },
		func() error { return r.SetArmor(now, 0, 30) },
		func() error { return r.AddHealth(now, 1, 5, 150) },
		func() error { return r.AddArmor(now, 1, 7, 100) },
		func() error {
			return r.SetDamageMultipliers(now, vitals.Multipliers{Melee: 2, Fire: 1, Spray: 1, Extinguisher: 1, Explosion: 3, Predator: 1})
		},
		func() error { return r.GiveWeapon(now, 0, 31, 120, true) },
		func() error { return r.GiveWeapon(now, 1, 24, 21, false) },
		func() error { return r.TakeWeapon(now, 1, 24) },
		func() error { return r.SetWeaponAmmo(now, 0, 31, 90, 30) },
		func() error { return r.SetArmedWeapon(now, 0, 31) },
		func() error { return r.ClearWeapons(now, 1) },
		func() error { return r.SetWeaponSkill(now, 0, inventory.SkillPistol, inventory.TierPro) },
		func() error {
			return r.SetWeaponProperties(now, 31, [inventory.NumTiers]float32{9, 10, 11}, 70)
		},
		func() error { return r.CreateTeam(1, teams.Team{Name: "red", Color: 0xFF0000FF}) },
		func() error { return r.CreateTeam(2, teams.Team{Name: "blue", Color: 0x0000FFFF}) },
		func() error { return r.ChangeTeam(2, teams.Team{Name: "azure", Color: 0x0080FFFF}) },
		func() error { return r.JoinTeam(0, 1) },
		func() error { return r.JoinTeam(1, 2) },
		func() error { return r.SetFriendlyFire(2, true) },
		func() error { return r.LeaveTeam(1) },
		func() error { return r.RemoveTeam(2) },
		func() error {
			return r.SetSpawnPoint(1, lifecycle.SpawnPoint{Pos: lifecycle.Vec3{X: 4, Y: 5, Z: 6}, Facing: 90})
		},
		func() error { _, err := r.CreateExplosion(now, 0, 2, pos, 4); return err },
		func() error { _, err := r.CreateFire(now, refserver.NoPlayer, pos, 2); return err },
		func() error { return r.CreateVehicle(now, 1, 411, pos, rot) },
		func() error { return r.MoveVehicle(now, 1, wire.Vec3{X: 7, Y: 8, Z: 9}, rot) },
		func() error { return r.FreezeVehicle(now, 1, true) },
		func() error { return r.RespawnVehicle(now, 1, pos, rot) },
		func() error { return r.SetPlayerPosition(now, 0, wire.Vec3{X: 10, Y: 11, Z: 12}, 45) },
		func() error { return r.SetHealth(now, 1, 0) }, // a death, so that a respawn is decided
		func() error {
			gen, err := r.Generation(1)
			if err != nil {
				return err
			}
			return r.DecideRespawn(1, gen, lifecycle.AllowAt(now+time.Second))
		},
	}
	for _, c := range calls {
		_ = c() // a refused verb is recorded too: its error is folded into the results
		for range 30 {
			step()
		}
	}
	for range 300 { // the respawn decided above, and the lanes' acknowledgements
		step()
	}
	require.NoError(t, r.Kick(now, 0))
	step()
	require.NoError(t, r.Close())
	return out.Bytes()
}

// TestEveryGamemodeVerbIsRecordedAndReplayed ([record-every-input]): every facade verb that changes the World
// goes into the record with its arguments, and the replay applies it to the same effect
// (the same results, events and datagrams: a value read back wrong would send another
// command).
func TestEveryGamemodeVerbIsRecordedAndReplayed(t *testing.T) {
	b := recordVerbs(t)
	res, err := replay.Replay(bytes.NewReader(b), replay.Options{Events: true})
	require.NoError(t, err)
	require.Nil(t, res.Divergence, "the replay diverged")
	verbs := map[replay.Verb]bool{}
	for _, s := range replay.Walk(b) {
		if s.Kind == replay.KindVerb {
			verbs[replay.Verb(b[s.VerbAt])] = true
		}
	}
	for v := replay.VerbSetHealth; v < replay.VerbSetPlayerPosition+1; v++ {
		require.True(t, verbs[v], "verb %d recorded", v)
	}
	require.NotEmpty(t, res.Events)
}

// TestAVerbReadBackWrongDiverges: the last argument byte of each recorded verb changed in
// turn makes the replay diverge (the results, events or datagrams tell) for at least one
// record of every verb, so the replay applies what was recorded and not something else.
func TestAVerbReadBackWrongDiverges(t *testing.T) {
	b := recordVerbs(t)
	n := 0
	diverged := map[replay.Verb]bool{}
	for _, s := range replay.Walk(b) {
		if s.Kind != replay.KindVerb || s.End == s.Payload {
			continue
		}
		v := replay.Verb(b[s.VerbAt])
		bad := bytes.Clone(b)
		bad[s.End-1] ^= 0x01 // the verb's last argument byte: a flag, a float's exponent, a high byte
		res, err := replay.Replay(bytes.NewReader(bad), replay.Options{})
		require.NoError(t, err, "verb %d", v)
		diverged[v] = diverged[v] || res.Divergence != nil
		n++
	}
	for v := replay.VerbSetHealth; v <= replay.VerbSetPlayerPosition; v++ {
		require.True(t, diverged[v], "verb %d with its last argument byte changed must diverge", v)
	}
	require.Greater(t, n, 20)
}

// noWorld is the clients' game world: no ray hits anything.
type noWorld struct{}

func (noWorld) Trace(wire.PlayerID, client.Shot, client.Pose) (int, uint8) { return 0, 0 }
func (noWorld) VehicleModel(uint16) (uint16, bool)                         { return 0, false }
