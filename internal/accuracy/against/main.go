package against

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/child"
)

// config is the parsed command line.
type config struct {
	r         int
	benchtime string
	rounds    int
	count     int
	load      int
	methods   []string
	scenarios []string
	timeout   time.Duration
	snapshot  string // a file for the table so far, after each repetition
	log       string // a file of every repetition measured, read back on start
}

// The methods and scenarios, in table order.
var (
	allMethods   = []string{"lockstep", "rounds", "plain"}
	allScenarios = []string{"A/A", "A/A rebuilt", "+2%", "+5%"}
)

// Main runs the table with the command-line arguments args (its flags,
// without the table's name): the table goes to stdout, progress and errors
// to stderr. It returns the exit status (see [harness.Main]).
func Main(args []string, stdout, stderr io.Writer) int {
	return harness.Main("against", args, stdout, stderr, parseFlags, run)
}

// parseFlags parses args into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	var methods, scenarios string
	err := harness.ParseFlags("against", args, stderr, func(fs *flag.FlagSet) {
		fs.IntVar(&c.r, "r", 20, "repetitions")
		fs.StringVar(&c.benchtime, "benchtime", "1s", "-test.benchtime of every run (go test's default)")
		fs.IntVar(&c.rounds, "rounds", 10, "-benchkit.rounds: triples (lockstep) or rounds")
		fs.IntVar(&c.count, "count", 10, "plain: -test.count of each side")
		fs.IntVar(&c.load, "load", 0, "busy-loop processes running during the whole table")
		fs.StringVar(&methods, "methods", strings.Join(allMethods, ","), "the methods, comma-separated")
		fs.StringVar(&scenarios, "scenarios", "aa,rebuilt,plus2,plus5", "the scenarios, comma-separated: aa, rebuilt, plus2, plus5")
		fs.DurationVar(&c.timeout, "timeout", 20*time.Minute, "deadline of each run")
		fs.StringVar(&c.snapshot, "snapshot", "", "after each repetition, write the table so far to this `file`")
		fs.StringVar(&c.log, "log", "", "append each repetition to this `file`, and count the repetitions it holds toward -r")
	})
	if err != nil {
		return c, err
	}
	if c.r < 1 || c.rounds < 2 || c.count < 2 || c.load < 0 {
		return c, fmt.Errorf("-r must be ≥ 1, -rounds and -count ≥ 2 and -load ≥ 0")
	}
	if c.methods, err = pick(methods, allMethods, nil); err != nil {
		return c, err
	}
	names := map[string]string{"aa": "A/A", "rebuilt": "A/A rebuilt", "plus2": "+2%", "plus5": "+5%"}
	c.scenarios, err = pick(scenarios, allScenarios, names)
	return c, err
}

// pick parses a comma-separated list of names (aliases maps a name to its
// value) and returns the values in the order of all.
func pick(list string, all []string, aliases map[string]string) ([]string, error) {
	want := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		v := strings.TrimSpace(n)
		if a, ok := aliases[v]; ok {
			v = a
		}
		if !slices.Contains(all, v) {
			return nil, fmt.Errorf("%q is not one of %s", n, strings.Join(all, ", "))
		}
		want[v] = true
	}
	var out []string
	for _, v := range all {
		if want[v] {
			out = append(out, v)
		}
	}
	return out, nil
}

// run builds the binaries, runs the repetitions and prints the table.
func run(c config, stdout, stderr io.Writer) error {
	dir, remove, err := child.TempDir("against-table-") // removed on SIGINT too
	if err != nil {
		return err
	}
	defer remove()
	bins, err := build(dir)
	if err != nil {
		return err
	}
	var cells []*cell
	for _, s := range c.scenarios {
		for _, m := range c.methods {
			cells = append(cells, &cell{scenario: s, method: m})
		}
	}
	settings, err := settingsOf(c, bins["A/A"])
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
	printTable(stdout, cells)
	fmt.Fprintln(stdout)
	if measured != "" { // a table read whole from its log names its machines in the footer only
		fmt.Fprintf(stdout, "%s · %d busy loops\n", measured, c.load)
	}
	fmt.Fprintln(stdout, harness.CommandLine("against",
		fmt.Sprintf("-r %d -benchtime %s -rounds %d -count %d -load %d", c.r, c.benchtime, c.rounds, c.count, c.load), false))
	if read.n > 0 {
		fmt.Fprintln(stdout, read.describe(c.log))
	}
	return nil
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
		if err := repetition(c, i, cells, bins, dir, settings, machine, stderr); err != nil {
			return "", err
		}
	}
	return machine, nil
}

// repetition measures repetition i (from 0) of every cell, in an order
// that rotates with i, and logs it and writes the snapshot if asked to.
func repetition(c config, i int, cells []*cell, bins map[string]string, dir, settings, machine string, stderr io.Writer) error {
	l := logged{Settings: settings, Rep: i + 1, Time: time.Now().UTC(), Machine: machine}
	for k := range cells {
		cl := cells[(k+i)%len(cells)]
		outs, wall, err := measure(c, cl.method, bins["A/A"], bins[cl.scenario], dir)
		if err != nil {
			fmt.Fprintf(stderr, "against: repetition %d, %s %s left out: %v\n", i+1, cl.scenario, cl.method, err)
			continue
		}
		cl.add(outs, wall)
		l.Cells = append(l.Cells, loggedRep{Scenario: cl.scenario, Method: cl.method, Outcomes: outs, WallNs: int64(wall)})
	}
	fmt.Fprintf(stderr, "against: repetition %d of %d done\n", i+1, c.r)
	if c.log != "" {
		if err := appendLog(c.log, l); err != nil {
			return err
		}
	}
	if c.snapshot != "" {
		return writeSnapshot(c.snapshot, cells, i+1)
	}
	return nil
}

// build compiles the workloads' test binary four ways into dir and
// returns them by scenario.
func build(dir string) (map[string]string, error) {
	const pkg = "./internal/accuracy/workloads/against"
	bins := map[string]string{}
	for _, b := range []struct{ scenario, name, flag string }{
		{"A/A", "base", ""}, {"A/A rebuilt", "rebuilt", "-trimpath"},
		{"+2%", "plus2", "-tags=against_plus2"}, {"+5%", "plus5", "-tags=against_plus5"},
	} {
		var flags []string
		if b.flag != "" {
			flags = append(flags, b.flag)
		}
		bin, err := harness.BuildAs(pkg, dir, b.name, flags...)
		if err != nil {
			return nil, err
		}
		bins[b.scenario] = bin
	}
	return bins, nil
}

// writeSnapshot writes the table of the first reps repetitions to path.
func writeSnapshot(path string, cells []*cell, reps int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "after %d repetitions, %s\n\n", reps, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	printTable(&b, cells)
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
