// Command cachemiss counts the last-level cache misses a streamed World's frame costs, by
// function, with valgrind's cachegrind: a deterministic count where a timed benchmark on a
// shared machine swings by 2x.
//
// A World of many players is slower per frame than a small one because its state does not
// fit the processor's last-level cache: every line a frame touches for the first time in a
// tick is a miss. The number of those lines per frame is what a change to the layout moves;
// cachegrind simulates a cache of the given size and counts them exactly, the same on
// every run of the same binary, whatever else the machine does (it models no prefetcher
// and no overlap of misses: a count, not a time).
//
// It builds the refserver test binary (or takes -bin), runs BenchmarkWorldDensity's case of
// -players players under cachegrind twice, for the two tick counts of -ticks, and prints
// the difference divided by the frames between them: the steady state's misses per frame,
// the set-up and warm-up left out. Valgrind must be installed (it is not needed by the
// tests or CI).
//
//	go run ./examples/cachemiss -players 5000
//	go run ./examples/cachemiss -players 1000 -ticks 300,1300
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

func main() {
	players := flag.Int("players", 5000, "players in the world: one of BenchmarkWorldDensity's cases (1000, 2000, 3000, 5000, 7000, 10000)")
	ticks := flag.String("ticks", "60,160", "the two tick counts to run (-benchtime), the first after the warm-up")
	ll := flag.Int("ll", 4<<20, "the simulated last-level cache's size in bytes (16-way, 64-byte lines)")
	bin := flag.String("bin", "", "a refserver test binary (go test -c ./examples/refserver); built from this checkout when empty")
	top := flag.Int("top", 30, "functions to print")
	flag.Parse()
	if err := run(*players, *ticks, *ll, *bin, *top); err != nil {
		fmt.Fprintln(os.Stderr, "cachemiss:", err)
		os.Exit(1)
	}
}

func run(players int, ticks string, ll int, bin string, top int) error {
	if _, err := exec.LookPath("valgrind"); err != nil {
		return errors.New("valgrind is not installed")
	}
	var t [2]int
	if _, err := fmt.Sscanf(ticks, "%d,%d", &t[0], &t[1]); err != nil || t[0] < 1 || t[1] <= t[0] {
		return fmt.Errorf("-ticks %q: want two counts, the second larger", ticks)
	}
	dir, err := os.MkdirTemp("", "cachemiss")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if bin == "" {
		bin = filepath.Join(dir, "refserver.test")
		build := exec.Command("go", "test", "-c", "-o", bin, "./examples/refserver")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building the test binary: %w", err)
		}
	}
	var counts [2]map[string]cost
	for i, n := range t {
		out := filepath.Join(dir, fmt.Sprintf("cg.%d", n))
		cmd := exec.Command("valgrind", "--tool=cachegrind", "--cache-sim=yes",
			fmt.Sprintf("--LL=%d,16,64", ll), "--cachegrind-out-file="+out,
			bin, "-test.run", "^$", "-test.bench", fmt.Sprintf("WorldDensity/^players=%d$", players),
			"-test.benchtime", fmt.Sprintf("%dx", n))
		// One thread, and no collection: the benchmark allocates nothing a frame, and a
		// collection cycle in one window and not the other would count its marking.
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GOGC=off")
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("valgrind: %w", err)
		}
		if !strings.Contains(stdout.String(), fmt.Sprintf("players=%d/", players)) {
			return fmt.Errorf("no BenchmarkWorldDensity case of %d players ran", players)
		}
		if counts[i], err = annotate(out); err != nil {
			return err
		}
	}
	frames := float64((t[1] - t[0]) * players)
	type row struct {
		name   string
		d      cost
		misses float64
	}
	var rows []row
	var total cost
	for name, b := range counts[1] {
		d := b.sub(counts[0][name])
		if name == "PROGRAM TOTALS" {
			total = d
			continue
		}
		rows = append(rows, row{name, d, float64(d.rd + d.wr)})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].misses > rows[j].misses })
	fmt.Printf("%d players, ticks %d to %d (%.0f frames), last-level cache %d KiB\n", players, t[0], t[1], frames, ll>>10)
	fmt.Printf("per frame: %.0f instructions, %.2f last-level misses (%.2f reads, %.2f writes)\n\n",
		float64(total.ir)/frames, float64(total.rd+total.wr)/frames, float64(total.rd)/frames, float64(total.wr)/frames)
	fmt.Println("misses/frame  reads  writes  instr/frame  function")
	for _, r := range rows[:min(top, len(rows))] {
		fmt.Printf("%12.2f %6.2f %7.2f %12.0f  %s\n", r.misses/frames, float64(r.d.rd)/frames, float64(r.d.wr)/frames, float64(r.d.ir)/frames, r.name)
	}
	return nil
}

// cost is one function's counts: instructions, last-level read and write misses.
type cost struct{ ir, rd, wr int64 }

func (c cost) sub(o cost) cost { return cost{c.ir - o.ir, c.rd - o.rd, c.wr - o.wr} }

// annotate reads cachegrind's output file through cg_annotate, by function.
func annotate(file string) (map[string]cost, error) {
	out, err := exec.Command("cg_annotate", "--show=Ir,DLmr,DLmw", "--threshold=0", "--auto=no", file).Output()
	if err != nil {
		return nil, fmt.Errorf("cg_annotate: %w", err)
	}
	return parse(out)
}

// parse reads cg_annotate's table of Ir, DLmr and DLmw by function (the rest of its output
// is skipped); a function named twice (two files) adds up.
func parse(out []byte) (map[string]cost, error) {
	// A row: three counts, each maybe followed by a percentage, then file:function.
	re := regexp.MustCompile(`^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?([\d,.]+)\s+(?:\([^)]*\)\s+)?([\d,.]+)\s+(?:\([^)]*\)\s+)?(\S.*)$`)
	m := map[string]cost{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := re.FindStringSubmatch(sc.Text())
		if f == nil {
			continue
		}
		name := f[4]
		if i := strings.LastIndex(name, ":"); i >= 0 && name != "PROGRAM TOTALS" {
			name = name[i+1:]
		}
		name = strings.TrimPrefix(name, "github.com/arbitergo/arbiter/")
		c := m[name]
		c.ir += num(f[1])
		c.rd += num(f[2])
		c.wr += num(f[3])
		m[name] = c
	}
	return m, sc.Err()
}

func num(s string) int64 {
	n, _ := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
	return n // "." (none) reads as 0
}
