package against

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/child"
)

// Main runs the table with the command-line arguments args (its flags,
// without the table's name): the table goes to stdout, progress and errors
// to stderr. It returns the exit status (see [harness.Main]).
func Main(args []string, stdout, stderr io.Writer) int {
	return harness.Main("against", args, stdout, stderr, parseFlags, run)
}

// run builds the binaries, runs the repetitions and prints the table.
func run(c config, stdout, stderr io.Writer) error {
	dir, remove, err := child.TempDir("against-table-") // removed on SIGINT too
	if err != nil {
		return err
	}
	defer remove()
	bins, err := build(dir, c.scenarios)
	if err != nil {
		return err
	}
	cells := newCells(c)
	settings, err := settingsOf(c, bins["base"])
	if err != nil {
		return err
	}
	var read logRead
	if c.log != "" {
		if err := os.MkdirAll(filepath.Dir(c.log), 0o755); err != nil {
			return err // before an hour of measuring, not after it
		}
		if read, err = readLog(c.log, settings, cells); err != nil {
			return err
		}
	}
	measured, err := measureRest(c, read.n, cells, bins, dir, settings, stderr)
	if err != nil {
		return err
	}
	printTable(stdout, c.workloads, cells, nil)
	fmt.Fprintln(stdout)
	printWallRatios(stdout, c.workloads, cells)
	fmt.Fprintln(stdout)
	if measured != "" { // a table read whole from its log names its machines in the footer only
		fmt.Fprintf(stdout, "%s · %d busy loops\n", measured, c.load)
	}
	fmt.Fprintln(stdout, harness.CommandLine("against", c.flagLine(), false))
	if read.n > 0 {
		fmt.Fprintln(stdout, read.describe(c.log))
	}
	return nil
}

// newCells returns the table's cells, scenario by scenario, each with
// every method, empty.
func newCells(c config) []*cell {
	var cells []*cell
	for _, s := range c.scenarios {
		for _, m := range c.methods {
			cells = append(cells, &cell{scenario: s, method: m})
		}
	}
	return cells
}

// measureRest measures repetitions from+1 to c.r under c.load busy
// loops and returns the machine line taken before the loops started, or
// "" when the log already held every repetition.
func measureRest(c config, from int, cells []*cell, bins map[string]string, dir, settings string, stderr io.Writer) (string, error) {
	if from >= c.r {
		return "", nil
	}
	machine := harness.MachineLine()
	if c.load > 0 {
		_, stop, err := harness.StartBusy(c.load, 24*time.Hour)
		if err != nil {
			return "", err
		}
		defer stop()
	}
	for i := from; i < c.r; i++ {
		l := repetition(c, i, cells, bins, dir, stderr)
		l.Settings, l.Machine = settings, machine
		if err := keep(c, l, cells); err != nil {
			return "", err
		}
	}
	return machine, nil
}

// unit is one invocation of a repetition: a cell's method on one
// workload.
type unit struct {
	c        *cell
	workload string
}

// units are a repetition's invocations: every cell on every workload its
// scenario measures, rotated by i, so that no invocation always comes
// first.
func units(c config, i int, cells []*cell) []unit {
	var us []unit
	for _, cl := range cells {
		for _, w := range c.workloads {
			if scenarioNamed(cl.scenario).measures(w) {
				us = append(us, unit{cl, w})
			}
		}
	}
	k := i % len(us)
	return append(us[k:], us[:k]...)
}

// repetition measures repetition i (from 0) of every cell and workload,
// each in its own invocation, and returns it as a log line (without its
// settings and machine). An invocation that fails is left out, with a
// message on stderr.
func repetition(c config, i int, cells []*cell, bins map[string]string, dir string, stderr io.Writer) logged {
	l := logged{Rep: i + 1, Time: time.Now().UTC()}
	shares := map[*cell]*loggedRep{}
	for _, u := range units(c, i, cells) {
		o, wall, err := measure(c, u.c.method, u.workload, bins["base"], bins[scenarioNamed(u.c.scenario).bin], dir)
		if err != nil {
			fmt.Fprintf(stderr, "against: repetition %d, %s %s %s left out: %v\n", i+1, u.workload, u.c.scenario, u.c.method, err)
			continue
		}
		lc := shares[u.c]
		if lc == nil {
			lc = &loggedRep{Scenario: u.c.scenario, Method: u.c.method, Outcomes: map[string]outcome{}, WallsNs: map[string]int64{}}
			shares[u.c] = lc
		}
		lc.Outcomes[u.workload], lc.WallsNs[u.workload] = o, int64(wall)
	}
	for _, cl := range cells { // in table order
		if lc := shares[cl]; lc != nil {
			l.Cells = append(l.Cells, *lc)
		}
	}
	fmt.Fprintf(stderr, "against: repetition %d of %d done\n", i+1, c.r)
	return l
}

// keep adds repetition l to cells, appends it to the log and writes the
// snapshot, when asked to.
func keep(c config, l logged, cells []*cell) error {
	for _, lc := range l.Cells {
		findCell(cells, lc.Scenario, lc.Method).add(lc.Outcomes, lc.walls())
	}
	if c.log != "" {
		if err := appendLog(c.log, l); err != nil {
			return err
		}
	}
	if c.snapshot != "" {
		return writeSnapshot(c.snapshot, c.workloads, cells, l.Rep)
	}
	return nil
}

// build compiles the workloads' test binary into dir once for the base
// and once for each of scenarios (by name) that is not the base itself,
// and returns their paths by scenario.bin ("base" for the base).
func build(dir string, scens []string) (map[string]string, error) {
	const pkg = "./internal/accuracy/workloads/against"
	bins := map[string]string{}
	for _, name := range append([]string{"A/A"}, scens...) {
		s := scenarioNamed(name)
		if bins[s.bin] != "" {
			continue
		}
		var flags []string
		if s.flag != "" {
			flags = append(flags, s.flag)
		}
		bin, err := harness.BuildAs(pkg, dir, s.bin, flags...)
		if err != nil {
			return nil, err
		}
		bins[s.bin] = bin
	}
	return bins, nil
}

// writeSnapshot writes the table of the first reps repetitions to path.
func writeSnapshot(path string, workloads []string, cells []*cell, reps int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "after %d repetitions, %s\n\n", reps, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	printTable(&b, workloads, cells, nil)
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
