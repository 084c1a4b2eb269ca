package forks

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// allWorks are the workloads of internal/accuracy/workloads/calibrate, in
// its order; swap's rows go to a table of their own.
var allWorks = []string{"sum", "alloc", "map", "sort", swapWork}

// variants are the implementations compared with base, in table order.
var variants = []string{"same", "p2", "p5", "p10"}

// config is the parsed command line.
type config struct {
	reps      int
	benchtime string // Compare's -test.benchtime
	forks     []int
	count     int
	plainBT   string
	works     []string
	pkg       string
	timeout   time.Duration // per process
	verbose   bool
}

// method is one way of comparing: control.Compare with forks > 0 processes
// per comparison, or the plain way (forks == 0).
type method struct {
	name  string
	forks int
}

func (m method) isPlain() bool { return m.forks == 0 }

// parseFlags parses args (without the table's name) into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	var forks, works string
	err := harness.ParseFlags("forks", args, stderr, func(fs *flag.FlagSet) {
		fs.IntVar(&cfg.reps, "r", 20, "repetitions, each a fresh process per method")
		fs.StringVar(&cfg.benchtime, "benchtime", "1s", "-test.benchtime for BenchmarkCompare (its budget is this × 5 per workload)")
		fs.StringVar(&forks, "forks", "1,10", "comma-separated fork counts (BENCHKIT_FORKS) to run Compare with, each ≥ 1")
		fs.IntVar(&cfg.count, "count", 10, "-test.count for BenchmarkPlain")
		fs.StringVar(&cfg.plainBT, "plain-benchtime", "100ms", "-test.benchtime for BenchmarkPlain")
		fs.StringVar(&works, "works", strings.Join(allWorks, ","), "comma-separated workloads, a subset of "+strings.Join(allWorks, ","))
		fs.StringVar(&cfg.pkg, "pkg", "./internal/accuracy/workloads/calibrate", "package holding BenchmarkCompare and BenchmarkPlain")
		fs.DurationVar(&cfg.timeout, "timeout", 15*time.Minute, "deadline of each process")
		fs.BoolVar(&cfg.verbose, "v", false, "print each process's wall time and estimates to stderr")
	})
	if err != nil {
		return config{}, err
	}
	if cfg.reps < 1 || cfg.count < 1 || cfg.timeout <= 0 {
		return config{}, fmt.Errorf("-r %d, -count %d, -timeout %v: want -r ≥ 1, -count ≥ 1, -timeout > 0", cfg.reps, cfg.count, cfg.timeout)
	}
	if cfg.forks, err = parseForks(forks); err != nil {
		return config{}, err
	}
	if cfg.works, err = parseWorks(works); err != nil {
		return config{}, err
	}
	return cfg, nil
}

// parseForks parses "1,5" into distinct fork counts ≥ 1, in the order given.
func parseForks(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || slices.Contains(out, n) {
			return nil, fmt.Errorf("-forks %q: want distinct integers ≥ 1 separated by commas, like 1,5", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseWorks parses "sum,map" into distinct known workloads, in the
// package's order.
func parseWorks(s string) ([]string, error) {
	var out []string
	for _, w := range strings.Split(s, ",") {
		w = strings.TrimSpace(w)
		if !slices.Contains(allWorks, w) || slices.Contains(out, w) {
			return nil, fmt.Errorf("-works %q: want distinct names from %s separated by commas", s, strings.Join(allWorks, ","))
		}
		out = append(out, w)
	}
	slices.SortFunc(out, func(a, b string) int { return slices.Index(allWorks, a) - slices.Index(allWorks, b) })
	return out, nil
}

// methods returns the Compare methods, one per fork count, then plain.
func (c config) methods() []method {
	var ms []method
	for _, f := range c.forks {
		ms = append(ms, method{name: fmt.Sprintf("Compare F=%d", f), forks: f})
	}
	return append(ms, method{name: "plain -count + benchstat"})
}

// rotate returns ms rotated left by rep places.
func rotate(ms []method, rep int) []method {
	k := rep % len(ms)
	return append(slices.Clone(ms[k:]), ms[:k]...)
}

// args returns the test binary's arguments for m. Neither way gets
// benchkit.Main's warm-up.
func (c config) args(m method) []string {
	filter := "/^work=(" + strings.Join(c.works, "|") + ")$"
	if m.isPlain() {
		return []string{"-test.run=^$", "-test.bench=^BenchmarkPlain$" + filter,
			"-test.count=" + strconv.Itoa(c.count), "-test.benchtime=" + c.plainBT, "-benchkit.warmup=off"}
	}
	return []string{"-test.run=^$", "-test.bench=^BenchmarkCompare$" + filter, "-test.benchtime=" + c.benchtime, "-benchkit.warmup=off"}
}

// commandLine returns the go run command that repeats this run, with every
// flag spelled out.
func (c config) commandLine() string {
	forks := make([]string, len(c.forks))
	for i, f := range c.forks {
		forks[i] = strconv.Itoa(f)
	}
	return harness.CommandLine("forks", fmt.Sprintf("-r %d -benchtime %s -forks %s -count %d -plain-benchtime %s -works %s -pkg %s -timeout %v",
		c.reps, c.benchtime, strings.Join(forks, ","), c.count, c.plainBT, strings.Join(c.works, ","), c.pkg, c.timeout), c.verbose)
}
