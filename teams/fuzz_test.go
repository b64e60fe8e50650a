package teams

import (
	"errors"
	"fmt"
	"testing"

	"github.com/arbitergo/arbiter/internal/revision"
)

// decodeOps turns fuzz bytes into team operations, four bytes each.
func decodeOps(data []byte) []op {
	var ops []op
	for len(data) >= 4 {
		b := data[:4]
		data = data[4:]
		ops = append(ops, op{
			kind: b[0] % numOps,
			p:    opPlayers[int(b[1])%len(opPlayers)],
			t:    opTeams[int(b[2])%len(opTeams)],
			on:   b[3]&1 != 0,
			def: Team{
				Name:         opNames[int(b[3]>>1)%len(opNames)],
				Color:        uint32(b[3]) * 0x01010101,
				FriendlyFire: b[3]&0x80 != 0,
			},
		})
	}
	return ops
}

// FuzzRegistryOperations runs any sequence of team operations on a Registry and on the
// naive reference: no panic, every stamp agrees with the reference, refused operations
// change nothing, the revision moves exactly on group changes and never backwards.
func FuzzRegistryOperations(f *testing.F) {
	f.Add([]byte{
		opCreate, 0, 0, 0, // team 1 "red"
		opConnect, 0, 0, 0,
		opConnect, 1, 0, 0,
		opJoin, 0, 0, 0,
		opJoin, 1, 0, 0,
		opSetFF, 0, 0, 1,
		opSetFF, 0, 0, 0,
		opRemove, 0, 0, 0,
		opDisconnect, 0, 0, 0,
	})
	f.Add([]byte{opCreate, 8, 13, 9, opConnect, 16, 0, 0, opJoin, 16, 10, 0, opDisconnect, 16, 0, 0})
	f.Add([]byte{opCreate, 0, 0, 12, opChange, 0, 0, 14, opLeave, 17, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4*400 {
			data = data[:4*400]
		}
		h := newHarness(func(format string, args ...any) {
			t.Fatalf("%s", fmt.Sprintf(format, args...))
		})
		for _, o := range decodeOps(data) {
			h.step(o)
		}
	})
}

// FuzzTrackerNewest feeds a tracker stamps from a few senders in any order: it never
// panics, a sender out of range is ignored, and each sender's newest stamp is the one
// with the newest revision seen (the revisions stay within half the space, where the
// order is total).
func FuzzTrackerNewest(f *testing.F) {
	f.Add(uint16(65530), []byte{1, 2, 3, 0, 200, 7, 9, 0})
	f.Add(uint16(0), []byte{0xff, 0xff, 0, 0, 3, 3})
	f.Fuzz(func(t *testing.T, base uint16, data []byte) {
		var tr Tracker
		senders := []PlayerID{0, 1, MaxPlayers - 1, MaxPlayers, NoPlayer}
		newest := map[PlayerID]uint16{}
		for len(data) >= 3 {
			sender := senders[int(data[0])%len(senders)]
			rev := base + (uint16(data[1])<<4 | uint16(data[2]&0xf)) // within 4096 of base
			s := Stamp{Teammate: data[2]&0x10 != 0, Rev: rev}
			data = data[3:]
			took := tr.Observe(sender, s)
			if sender >= MaxPlayers {
				if took {
					t.Fatalf("sender %d out of range was taken", sender)
				}
				continue
			}
			old, had := newest[sender]
			if want := !had || revision.Newer(rev, old); took != want {
				t.Fatalf("sender %d: stamp %v taken=%v, newest was %d (had %v)", sender, s, took, old, had)
			}
			if took {
				newest[sender] = rev
			}
			got, ok := tr.Newest(sender)
			if !ok || got.Rev != newest[sender] {
				t.Fatalf("sender %d: newest %v, want rev %d", sender, got, newest[sender])
			}
			if took && got != s {
				t.Fatalf("sender %d: newest %v, want %v", sender, got, s)
			}
		}
	})
}

// FuzzJudgeExplosion judges any facts of a vehicle explosion: no panic, bad facts are
// refused without touching dst, and good facts keep every rule: one fate per occupant in
// order; with an author, its teammates are spared and everyone else dies with the author
// as killer; without one, everyone dies; a teammate is never named killer.
func FuzzJudgeExplosion(f *testing.F) {
	f.Add(uint16(3), uint16(1), []byte{1, 1, 3, 0, 2, 2, 0xff, 0})
	f.Add(uint16(0xffff), uint16(0), []byte{1, 1, 3, 1, 2, 1, 1, 1})
	f.Fuzz(func(t *testing.T, killer, killerGroup uint16, data []byte) {
		e := Explosion{Killer: PlayerID(killer), KillerGroup: killerGroup % 4}
		for len(data) >= 4 && len(e.Occupants) < MaxOccupants+2 {
			o := Occupant{
				Player:            PlayerID(data[0] % 12),
				Group:             uint16(data[1] % 4),
				LastAttacker:      PlayerID(data[2]),
				LastAttackerGroup: uint16(data[3] % 4),
			}
			switch data[2] {
			case 0xff:
				o.LastAttacker = NoPlayer
			case 0xfe:
				o.LastAttacker = MaxPlayers
			}
			e.Occupants = append(e.Occupants, o)
			data = data[4:]
		}
		dst := make([]Fate, 1, 16)
		dst[0] = Fate{Player: 42}
		got, err := JudgeExplosion(e, dst)
		if err != nil {
			if len(got) != 1 || got[0] != dst[0] {
				t.Fatalf("refused facts (%v) changed dst: %v", err, got)
			}
			if !errors.Is(err, ErrOccupants) && !errors.Is(err, ErrPlayerOutOfRange) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		fates := got[1:]
		if len(fates) != len(e.Occupants) {
			t.Fatalf("%d fates for %d occupants", len(fates), len(e.Occupants))
		}
		for i, fate := range fates {
			o := e.Occupants[i]
			if fate.Player != o.Player {
				t.Fatalf("fate %d is of player %d, occupant %d", i, fate.Player, o.Player)
			}
			authorMate := e.Killer != NoPlayer && AreTeammates(e.Killer, e.KillerGroup, o.Player, o.Group)
			switch {
			case authorMate:
				if fate.Outcome != SparedTeammateOfAuthor || fate.Outcome.Dies() || fate.Killer != NoPlayer {
					t.Fatalf("teammate of the author: %v", fate)
				}
			case e.Killer != NoPlayer:
				if fate.Outcome != KilledByAuthor || fate.Killer != e.Killer {
					t.Fatalf("with an author: %v", fate)
				}
			default:
				if !fate.Outcome.Dies() {
					t.Fatalf("without an author everyone dies: %v", fate)
				}
				if fate.Killer != NoPlayer && (fate.Killer != o.LastAttacker ||
					AreTeammates(o.LastAttacker, o.LastAttackerGroup, o.Player, o.Group)) {
					t.Fatalf("killer through the last damage: %v of %+v", fate, o)
				}
			}
		}
	})
}
