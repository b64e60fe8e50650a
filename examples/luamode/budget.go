package luamode

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// ErrBudget is the error a callback is aborted with when it executed more than its
// instruction budget.
var ErrBudget = errors.New("instruction budget exhausted")

// budget is a context.Context that counts the calls of Done: gopher-lua's VM, once a
// context is set (LState.SetContext), polls Done before every instruction it executes,
// so the count is the number of instructions the callback executed. Once the count
// passes the limit, Done returns a closed channel and the VM raises ErrBudget at the
// instruction it was about to run. The count, not a wall clock, decides: the same script
// with the same events is cut at the same instruction on every machine and every run.
//
// The counter is atomic because context.WithCancel (a coroutine's context) may call Done
// from its propagation goroutine; the coroutine library is not opened, so this does not
// happen today.
type budget struct {
	left  atomic.Int64
	done  chan struct{}
	fired atomic.Bool
	// host is the host's context (Options.Context): once it is done, every callback stops
	// at its next instruction.
	host context.Context
}

func newBudget(host context.Context) *budget {
	return &budget{done: make(chan struct{}), host: host}
}

// reset gives the next callback a fresh budget of n instructions.
func (b *budget) reset(n int64) {
	if b.fired.Load() {
		b.done = make(chan struct{})
		b.fired.Store(false)
	}
	b.left.Store(n)
}

// exhausted reports whether the last callback ran out of its budget or was stopped by the
// host's context.
func (b *budget) exhausted() bool { return b.fired.Load() }

// Done counts one instruction.
func (b *budget) Done() <-chan struct{} {
	if b.left.Add(-1) < 0 || b.host.Err() != nil {
		if b.fired.CompareAndSwap(false, true) {
			close(b.done)
		}
	}
	return b.done
}

// Err is the host context's error once it is done, else ErrBudget once the budget ran
// out.
func (b *budget) Err() error {
	if !b.fired.Load() {
		return nil
	}
	if err := b.host.Err(); err != nil {
		return err
	}
	return ErrBudget
}

// Deadline reports none: the budget counts instructions, not time.
func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }

// Value holds no values.
func (b *budget) Value(any) any { return nil }

var _ context.Context = (*budget)(nil)
