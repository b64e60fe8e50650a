package luamode

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/arbitergo/arbiter/examples/refserver"
	"github.com/arbitergo/arbiter/vitals"
)

// The limits of a script.
const (
	// DefaultBudget is the instructions one callback (an event handler, a timer, the main
	// chunk) may execute when Options.Budget is zero. Measured: deathmatch.lua's largest
	// callback executes 131 instructions in the default match, 180 with 40 players, 826
	// with 200 (its score timer walks every player), Stats.MaxInstructions as
	// `go run ./examples/sim -gamemode ... -players 200` prints it; one exhausted budget
	// of 1,000,000 took 23 ms on the 2-core test machine, so 200,000 stops a runaway
	// callback within about 5 ms of the tick while leaving 240 times deathmatch's worst,
	// and 4 times a callback spending 50 instructions on each of 1000 players.
	DefaultBudget = 200_000
	// MaxTimers caps the timers a script may have pending.
	MaxTimers = 4096
	// MaxTimerDelay is the longest delay or period of a timer.
	MaxTimerDelay = 24 * time.Hour
	// MaxHandlers caps the callbacks a script may register for all events together.
	MaxHandlers = 256
	// MaxRepeat caps the length of a string.rep result, in bytes: the one library call that
	// could allocate without executing instructions.
	MaxRepeat = 1 << 20
	// CallStackSize is the Lua call depth (deeper recursion is a script error).
	CallStackSize = 200
	// RegistrySize is the Lua value stack size (a fixed size: overflowing it is a script
	// error).
	RegistrySize = 64 * 1024
)

// ErrScript is the error New returns for a script that does not compile or whose main
// chunk fails.
var ErrScript = errors.New("luamode: script")

// Options configures a Mode.
type Options struct {
	// Name is the chunk name in error messages (a file's path). Empty: "gamemode".
	Name string
	// Logger receives the script's errors, aborted callbacks and log/print output. Nil
	// discards them.
	Logger *slog.Logger
	// Budget is the instructions one callback may execute. Zero means DefaultBudget.
	Budget int64
	// Seed seeds math.random (the script's only randomness).
	Seed uint64
	// Now is the World's time when the script is loaded (the main chunk's now()).
	Now time.Duration
	// Context, when done, stops every callback at its next instruction (a host shutting
	// down). Nil: context.Background(). A context with a deadline brings the wall clock
	// into the script's runs: the instruction budget alone keeps them deterministic.
	Context context.Context
}

// Mode is a Lua gamemode bound to one refserver World. Every method runs on the World's
// goroutine: a Mode is not safe for concurrent use.
type Mode struct {
	w      World
	L      *lua.LState
	log    *slog.Logger
	name   string
	budget *budget
	limit  int64
	now    time.Duration
	rng    *rand.Rand

	handlers  [256][]*lua.LFunction // per refserver.EventKind
	nHandlers int
	timers    []timer
	nextTimer int
	due       []timer
	mult      vitals.Multipliers
	players   map[playerID]*lua.LUserData
	ids       []playerID

	stats Stats
}

// Stats counts what a Mode ran.
type Stats struct {
	// Callbacks is the callbacks called (events and timers).
	Callbacks uint64
	// Errors is the callbacks that failed with a Lua error (budget aborts included).
	Errors uint64
	// Aborted is the callbacks stopped by the instruction budget or the host's context.
	Aborted uint64
	// Panics is the callbacks stopped by a Go panic in a function they called (a bug of
	// the host or of the World, not of the script): gopher-lua recovers it as an error,
	// the Mode logs it with go_panic=true and counts it here.
	Panics uint64
	// MaxInstructions is the most instructions one callback (or the main chunk) executed:
	// what a script needs of its budget.
	MaxInstructions uint64
}

type timer struct {
	id    int
	due   time.Duration
	every time.Duration
	fn    *lua.LFunction
}

// Load reads a gamemode from a file and calls New with Options.Name defaulting to path.
func Load(w World, path string, opts Options) (*Mode, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrScript, err)
	}
	if opts.Name == "" {
		opts.Name = path
	}
	return New(w, src, opts)
}

// New compiles the script, opens a sandboxed Lua state (base without the file loaders,
// table, string, math with a seeded random; no os, io, package, debug, channel or
// coroutine), binds the facade and runs the main chunk under the budget. The main chunk
// registers its callbacks with on(event, fn) and may issue commands.
func New(w World, src []byte, opts Options) (*Mode, error) {
	if w == nil {
		return nil, fmt.Errorf("%w: nil world", ErrScript)
	}
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	m := &Mode{
		w: w, log: opts.Logger, name: opts.Name, budget: newBudget(opts.Context), limit: opts.Budget,
		now: opts.Now, rng: rand.New(rand.NewPCG(opts.Seed, 0x6c75616d6f6465)),
		mult: vitals.DefaultMultipliers, players: map[playerID]*lua.LUserData{},
	}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if m.name == "" {
		m.name = "gamemode"
	}
	if m.limit <= 0 {
		m.limit = DefaultBudget
	}
	m.L = lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: CallStackSize, RegistrySize: RegistrySize, RegistryMaxSize: RegistrySize})
	m.openLibs()
	m.bind()
	fn, err := m.L.Load(bytesReader(src), m.name)
	if err != nil {
		m.L.Close()
		return nil, fmt.Errorf("%w: %w", ErrScript, err)
	}
	m.L.SetContext(m.budget)
	if err := m.pcall(fn); err != nil {
		m.L.Close()
		return nil, fmt.Errorf("%w: %s", ErrScript, m.message(err))
	}
	return m, nil
}

// Close releases the Lua state.
func (m *Mode) Close() { m.L.Close() }

// Stats returns the counters.
func (m *Mode) Stats() Stats { return m.stats }

// Handle dispatches the World's events (drained with World.Events) to the script's
// callbacks, in order, at now. Events without a callback cost nothing.
func (m *Mode) Handle(now time.Duration, events []refserver.Event) {
	m.now = max(m.now, now)
	for i := range events {
		e := &events[i]
		hs := m.handlers[e.Kind]
		if len(hs) == 0 {
			continue
		}
		t := m.eventTable(e)
		for _, fn := range hs {
			m.callback(e.Kind.String(), fn, t)
		}
	}
}

// Tick runs the timers due at now, in order of due time then creation; a timer created by
// a timer runs at the next Tick at the earliest. A periodic timer runs at most once per
// Tick; periods missed between Ticks are skipped, not caught up.
func (m *Mode) Tick(now time.Duration) {
	m.now = max(m.now, now)
	m.due = m.due[:0]
	keep := m.timers[:0]
	for _, t := range m.timers {
		if t.due <= now {
			m.due = append(m.due, t)
			if t.every > 0 {
				t.due += t.every
				if t.due <= now {
					t.due = now + t.every
				}
				keep = append(keep, t)
			}
			continue
		}
		keep = append(keep, t)
	}
	m.timers = keep
	slices.SortFunc(m.due, func(a, b timer) int {
		if c := cmp.Compare(a.due, b.due); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	for i := range m.due {
		if t := m.due[i]; t.fn != nil { // nil: killed by an earlier callback of this Tick
			m.callback("timer "+strconv.Itoa(t.id), t.fn)
		}
	}
	m.due = m.due[:0]
}

// callback calls fn with args under a fresh budget; a Lua error is logged with its line
// and counted, and the world goes on.
func (m *Mode) callback(what string, fn *lua.LFunction, args ...lua.LValue) {
	m.stats.Callbacks++
	if err := m.pcall(fn, args...); err != nil {
		m.stats.Errors++
		aborted := m.budget.exhausted()
		if aborted {
			m.stats.Aborted++
		}
		msg := m.message(err)
		file, line := where(msg)
		var ae *lua.ApiError
		goPanic := errors.As(err, &ae) && ae.Type == lua.ApiErrorPanic
		if goPanic {
			m.stats.Panics++
		}
		m.log.Error("lua gamemode callback failed", "callback", what, "file", file, "line", line,
			"aborted", aborted, "go_panic", goPanic, "error", msg)
	}
}

func (m *Mode) pcall(fn *lua.LFunction, args ...lua.LValue) error {
	m.budget.reset(m.limit)
	err := m.L.CallByParam(lua.P{Fn: fn, NRet: 0, Protect: true}, args...)
	m.stats.MaxInstructions = max(m.stats.MaxInstructions, uint64(m.limit-max(m.budget.left.Load(), 0)))
	return err
}

// message is a Lua error's message without the stack trace.
func (m *Mode) message(err error) string {
	var ae *lua.ApiError
	if errors.As(err, &ae) && ae.Object != nil {
		return ae.Object.String()
	}
	return err.Error()
}

var wherePattern = regexp.MustCompile(`^([^\n]*?):(\d+):`)

// where extracts the chunk name and line of a Lua error message ("name:line: text").
func where(msg string) (string, int) {
	s := wherePattern.FindStringSubmatch(msg)
	if s == nil {
		return "", 0
	}
	n, _ := strconv.Atoi(s[2])
	return s[1], n
}

// ms converts the World's time to the script's milliseconds.
func ms(d time.Duration) lua.LNumber { return lua.LNumber(float64(d) / float64(time.Millisecond)) }

// duration converts a script's milliseconds to a time.Duration within 0..MaxTimerDelay.
func duration(v float64) (time.Duration, error) {
	if math.IsNaN(v) || v < 0 || v > float64(MaxTimerDelay/time.Millisecond) {
		return 0, fmt.Errorf("duration %v ms not in 0..%d", v, MaxTimerDelay/time.Millisecond)
	}
	return time.Duration(math.Round(v * float64(time.Millisecond))), nil
}
