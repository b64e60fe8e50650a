package client

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/arbitergo/arbiter/wire"
)

// Rule [fire-burns-what-is-left]: a fire that reaches one client when it is lit (Age 0)
// and another one 4.007 s later (Age 4007) goes out in both games at the same moment,
// FireLife after it was lit: the late client burns only what is left.
func TestFireBurnsWhatIsLeftAndGoesOutWithTheEarlyOnes(t *testing.T) {
	early, late := newHarness(t, Config{}), newHarness(t, Config{})
	early.join()
	late.join()
	lit := max(early.now, late.now) + time.Second
	fire := wire.CreateFire{Effect: 9, Creator: wire.NoPlayer, Position: spawnAt, Radius: 2}
	early.at(lit)
	f := fire
	early.send(&f)
	sentLate := lit + 4007*time.Millisecond
	late.at(sentLate)
	f = fire
	f.Age = uint16((sentLate - lit) / time.Millisecond)
	late.send(&f)
	for _, at := range []time.Duration{sentLate, lit + FireLife/2, lit + FireLife} {
		for _, h := range []*harness{early, late} {
			h.at(at)
			_, err := h.c.InFire(h.now, 9, 1)
			require.NoError(t, err, "burning at %v after it was lit", at-lit)
		}
	}
	for _, h := range []*harness{early, late} {
		h.at(lit + FireLife + time.Millisecond)
		_, err := h.c.InFire(h.now, 9, 1)
		require.ErrorIs(t, err, ErrUnknownEffect, "out FireLife after it was lit, for the late client too")
	}
}

// Rule [fire-burns-what-is-left]: a fire whose Age is beyond FireLife is out when it
// arrives: dropped, together with a fire of the same id the client still held. One whose
// Age is exactly FireLife burns for the instant it arrives.
func TestFireAlreadyOutOnArrivalIsDropped(t *testing.T) {
	h := newHarness(t, Config{})
	h.join()
	h.at(h.now + time.Second)
	ages := []uint16{uint16(FireLife/time.Millisecond) + 1, wire.MaxFireAge}
	for i, age := range ages {
		h.send(&wire.CreateFire{Effect: uint16(20 + i), Creator: wire.NoPlayer, Position: spawnAt, Radius: 2, Age: age})
		_, err := h.c.InFire(h.now, uint16(20+i), 1)
		require.ErrorIs(t, err, ErrUnknownEffect, "age %d ms: out on arrival", age)
	}
	h.send(&wire.CreateFire{Effect: 30, Creator: wire.NoPlayer, Position: spawnAt, Radius: 2})
	_, err := h.c.InFire(h.now, 30, 1)
	require.NoError(t, err)
	h.send(&wire.CreateFire{Effect: 30, Creator: wire.NoPlayer, Position: spawnAt, Radius: 2, Age: ages[0]})
	_, err = h.c.InFire(h.now, 30, 1)
	require.ErrorIs(t, err, ErrUnknownEffect, "the newest word on effect 30 is that it is out")

	h.send(&wire.CreateFire{Effect: 31, Creator: wire.NoPlayer, Position: spawnAt, Radius: 2, Age: uint16(FireLife / time.Millisecond)})
	_, err = h.c.InFire(h.now, 31, 1)
	require.NoError(t, err, "its last instant")
	h.at(h.now + time.Millisecond)
	_, err = h.c.InFire(h.now, 31, 1)
	require.ErrorIs(t, err, ErrUnknownEffect)
}
