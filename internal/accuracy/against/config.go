package against

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// config is the parsed command line.
type config struct {
	r         int
	benchtime string
	// rounds is -benchkit.rounds of rounds pairing; lockstep gets it only
	// when roundsSet (the table's -rounds was given), and otherwise lets
	// the product's adaptive design choose its triples.
	rounds    int
	roundsSet bool
	count     int
	load      int
	methods   []string
	scenarios []string // by name, in table order
	workloads []string // in table order
	// truthBenchtime and truthProcs shape the truth: each build's cost
	// per op from truthProcs fresh processes of truthBenchtime each (0
	// processes: no truth).
	truthBenchtime string
	truthProcs     int
	timeout        time.Duration
	snapshot       string // a file for the table so far, after each repetition
	log            string // a file of every repetition measured, read back on start
}

// The methods, in table order, and the rounds of rounds pairing unless
// -rounds says otherwise (the product's DefaultRounds).
var allMethods = []string{"lockstep", "rounds", "plain"}

const defaultRounds = 10

// parseFlags parses args into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	var methods, scens, works string
	var set *flag.FlagSet
	names, aliases := scenarioNames()
	err := harness.ParseFlags("against", args, stderr, func(fs *flag.FlagSet) {
		set = fs
		fs.IntVar(&c.r, "r", 20, "repetitions")
		fs.StringVar(&c.benchtime, "benchtime", "1s", "-test.benchtime of every run (go test's default)")
		fs.IntVar(&c.rounds, "rounds", defaultRounds, "-benchkit.rounds of rounds pairing; given, also lockstep's triples (else lockstep's adaptive design chooses)")
		fs.IntVar(&c.count, "count", 10, "plain: -test.count of each side")
		fs.IntVar(&c.load, "load", 0, "busy-loop processes running during the whole table")
		fs.StringVar(&methods, "methods", strings.Join(allMethods, ","), "the methods, comma-separated")
		fs.StringVar(&scens, "scenarios", strings.Join(defaultScenarios, ","), "the scenarios, comma-separated: "+aliasList())
		fs.StringVar(&works, "workloads", strings.Join(allWorkloads, ","), "the workloads, comma-separated")
		fs.StringVar(&c.truthBenchtime, "truth-benchtime", "10s", "the truth: -test.benchtime of each process")
		fs.IntVar(&c.truthProcs, "truth-procs", 10, "the truth: fresh processes per build (0: no truth)")
		fs.DurationVar(&c.timeout, "timeout", 20*time.Minute, "deadline of each run")
		fs.StringVar(&c.snapshot, "snapshot", "", "after each repetition, write the table so far to this `file`")
		fs.StringVar(&c.log, "log", "", "append each repetition to this `file`, and count the repetitions it holds toward -r")
	})
	if err != nil {
		return c, err
	}
	set.Visit(func(f *flag.Flag) { c.roundsSet = c.roundsSet || f.Name == "rounds" })
	if c.r < 1 || c.rounds < 2 || c.count < 2 || c.load < 0 || c.truthProcs < 0 {
		return c, fmt.Errorf("-r must be ≥ 1, -rounds and -count ≥ 2, -load and -truth-procs ≥ 0")
	}
	if c.methods, err = pick(methods, allMethods, nil); err != nil {
		return c, err
	}
	if c.workloads, err = pick(works, allWorkloads, nil); err != nil {
		return c, err
	}
	c.scenarios, err = pick(scens, names, aliases)
	return c, err
}

// aliasList is the scenarios' aliases, for -scenarios' usage.
func aliasList() string {
	var as []string
	for _, s := range scenarios {
		as = append(as, s.alias)
	}
	return strings.Join(as, ", ")
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

// flagLine is the table's flags that shape what it measures, as a
// command line gives them (-rounds only when given).
func (c config) flagLine() string {
	rounds := ""
	if c.roundsSet {
		rounds = fmt.Sprintf(" -rounds %d", c.rounds)
	}
	var aliases []string
	for _, n := range c.scenarios {
		aliases = append(aliases, scenarioNamed(n).alias)
	}
	return fmt.Sprintf("-r %d -benchtime %s%s -count %d -load %d -methods %s -scenarios %s -workloads %s -truth-benchtime %s -truth-procs %d",
		c.r, c.benchtime, rounds, c.count, c.load, strings.Join(c.methods, ","), strings.Join(aliases, ","), strings.Join(c.workloads, ","),
		c.truthBenchtime, c.truthProcs)
}
