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

// session is one invocation of the table: its flags, cells, builds and
// where its progress goes.
type session struct {
	c        config
	cells    []*cell
	bins     map[string]string // the builds by scenario.bin ("base" for the base)
	dir      string            // the temporary directory the builds are in
	settings string            // [settingsOf]
	code     string            // [codeHash] of the base build
	machine  string            // the machine line, "" until something is measured
	truth    *truthLine        // the truth, nil until read or measured (or for none)
	codes    codeSpan          // the code of every repetition, read or measured
	stderr   io.Writer
}

// run builds the binaries, reads the log, measures the truth and the
// repetitions still missing, and prints the table.
func run(c config, stdout, stderr io.Writer) error {
	dir, remove, err := child.TempDir("against-table-") // removed on SIGINT too
	if err != nil {
		return err
	}
	defer remove()
	s := &session{c: c, cells: newCells(c), dir: dir, stderr: stderr}
	if s.bins, err = build(dir, c.scenarios); err != nil {
		return err
	}
	if s.code, err = codeHash(s.bins["base"]); err != nil {
		return err
	}
	s.settings = settingsOf(c)
	var read logRead
	if c.log != "" {
		if err := os.MkdirAll(filepath.Dir(c.log), 0o755); err != nil {
			return err // before an hour of measuring, not after it
		}
		if read, err = readLog(c.log, s.settings, truthSetting(c), s.cells); err != nil {
			return err
		}
	}
	s.truth, s.codes = read.truth, read.codes
	if err := s.measure(read); err != nil {
		return err
	}
	s.print(stdout, read)
	return nil
}

// measure measures what the log lacks, under c.load busy loops: a check
// repetition when the log holds repetitions and none of this code (see
// [checkProblems]; it counts toward c.r, and makes a log that held c.r
// repetitions one longer), the truth unless the log held it or the table
// needs none, and the repetitions up to c.r. It sets s.machine, before
// the loops start, when it measures anything.
func (s *session) measure(read logRead) error {
	wantCheck := read.n > 0 && !read.codes.has(s.code)
	wantTruth := s.truth == nil && needsTruth(s.c)
	if !wantCheck && !wantTruth && read.n >= s.c.r {
		return nil
	}
	s.machine = harness.MachineLine()
	if s.c.load > 0 {
		_, stop, err := harness.StartBusy(s.c.load, 24*time.Hour)
		if err != nil {
			return err
		}
		defer stop()
	}
	done := read.n
	if wantCheck {
		if err := s.check(read.n); err != nil {
			return err
		}
		done++
	}
	if wantTruth {
		if err := s.measureTruth(); err != nil {
			return err
		}
	}
	for i := done; i < s.c.r; i++ {
		if err := s.keep(s.repetition(i, false)); err != nil {
			return err
		}
	}
	return nil
}

// check measures repetition i+1, the check, and keeps it if it agrees
// with the logged repetitions. It fails naming each cell and workload
// that disagrees (then the log does not stand for this code), or that
// the check could not measure.
func (s *session) check(i int) error {
	fmt.Fprintf(s.stderr, "against: the log's repetitions measured code %s, not this code (%s): repetition %d checks that they still stand\n",
		s.codes.list(), s.code, i+1)
	l := s.repetition(i, true)
	disagree, missing := checkProblems(s.c, s.cells, l)
	if len(disagree) > 0 {
		return fmt.Errorf("the check repetition on code %s disagrees with the %d logged repetitions (code %s):\n\t%s\nstart a new -log file for this code",
			s.code, i, s.codes.list(), strings.Join(disagree, "\n\t"))
	}
	if len(missing) > 0 {
		return fmt.Errorf("the check repetition on code %s could not measure %s (see above): run the table again to check again",
			s.code, strings.Join(missing, ", "))
	}
	return s.keep(l)
}

// measureTruth measures the table's truth into s.truth and logs it.
func (s *session) measureTruth() error {
	t := truthLine{Kind: truthKind, Settings: s.settings, Truth: truthSetting(s.c), Code: s.code, Time: time.Now().UTC(), Machine: s.machine}
	var err error
	if t.NsPerOp, err = measureTruth(s.c, s.bins, s.stderr); err != nil {
		return err
	}
	s.truth = &t
	if s.c.log != "" {
		return appendLog(s.c.log, t)
	}
	return nil
}

// truths are the truth Δs of s.truth; none without one.
func (s *session) truths() truths {
	if s.truth == nil {
		return nil
	}
	return s.truth.deltas()
}

// print writes the table, the wall ratios and the footer: the machine
// (when this invocation measured), the command, what the log held and
// how the truth was measured.
func (s *session) print(stdout io.Writer, read logRead) {
	printTable(stdout, s.c.workloads, s.cells, s.truths())
	fmt.Fprintln(stdout)
	if printWallRatios(stdout, s.c.workloads, s.cells) {
		fmt.Fprintln(stdout)
	}
	if s.machine != "" { // a table read whole from its log names its machines in the footer only
		fmt.Fprintf(stdout, "%s · %d busy loops\n", s.machine, s.c.load)
	}
	fmt.Fprintln(stdout, harness.CommandLine("against", s.c.flagLine(), false))
	if read.n > 0 {
		fmt.Fprintln(stdout, read.describe(s.c.log))
	}
	if len(s.codes) > 0 {
		fmt.Fprintln(stdout, s.codes.describe())
	}
	if s.truth != nil {
		fmt.Fprintln(stdout, s.truth.describe(s.c.workloads))
	}
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
// each in its own invocation, and returns it as a log line, marked as the
// check if check. An invocation that fails is left out, with a message on
// stderr.
func (s *session) repetition(i int, check bool) logged {
	l := logged{Kind: repKind, Settings: s.settings, Code: s.code, Check: check, Rep: i + 1, Time: time.Now().UTC(), Machine: s.machine}
	shares := map[*cell]*loggedRep{}
	for _, u := range units(s.c, i, s.cells) {
		o, wall, err := measure(s.c, u.c.method, u.workload, s.bins["base"], s.bins[scenarioNamed(u.c.scenario).bin], s.dir)
		if err != nil {
			fmt.Fprintf(s.stderr, "against: repetition %d, %s %s %s left out: %v\n", i+1, u.workload, u.c.scenario, u.c.method, err)
			continue
		}
		lc := shares[u.c]
		if lc == nil {
			lc = &loggedRep{Scenario: u.c.scenario, Method: u.c.method, Outcomes: map[string]outcome{}, WallsNs: map[string]int64{}}
			shares[u.c] = lc
		}
		lc.Outcomes[u.workload], lc.WallsNs[u.workload] = o, int64(wall)
	}
	for _, cl := range s.cells { // in table order
		if lc := shares[cl]; lc != nil {
			l.Cells = append(l.Cells, *lc)
		}
	}
	if check {
		fmt.Fprintf(s.stderr, "against: repetition %d, the check, done\n", i+1)
	} else {
		fmt.Fprintf(s.stderr, "against: repetition %d of %d done\n", i+1, s.c.r)
	}
	return l
}

// keep adds repetition l to the cells, appends it to the log and writes
// the snapshot, when asked to.
func (s *session) keep(l logged) error {
	s.codes.add(l.Code, l.Check)
	for _, lc := range l.Cells {
		findCell(s.cells, lc.Scenario, lc.Method).add(lc.Outcomes, lc.walls())
	}
	if s.c.log != "" {
		if err := appendLog(s.c.log, l); err != nil {
			return err
		}
	}
	if s.c.snapshot != "" {
		return writeSnapshot(s.c.snapshot, s.c.workloads, s.cells, s.truths(), l.Rep)
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
func writeSnapshot(path string, workloads []string, cells []*cell, tr truths, reps int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "after %d repetitions, %s\n\n", reps, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	printTable(&b, workloads, cells, tr)
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
