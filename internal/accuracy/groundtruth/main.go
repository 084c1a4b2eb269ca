// Package groundtruth measures how often two ways of comparing benchmarks
// get known answers: it runs seed 000's harness R times with
// control.Compare and with go test -count + benchstat, and prints one
// markdown table of how often each way got them. beta is identical to
// alpha (truth 0%), plus5 does 5% more work (truth +5%).
//
//	go run ./internal/accuracy groundtruth -r 30
//
// Each repetition runs two processes of one test binary built once from
// -pkg (examples/seed000, whose TestMain calls benchkit.Main), in
// alternating order:
//
//   - control: -bench='^BenchmarkCompare$' -benchtime=<-benchtime>, one
//     control.Compare per workload; the verdict and the delta of each
//     candidate are read from the run's JSON report (-benchkit.json, its
//     "comparisons"). Flagged means a decided verdict (faster or slower).
//   - plain: -bench='^BenchmarkPlain$' -count=<-count> -benchtime=<-plain-benchtime>,
//     ordinary sub-benchmarks work=<w>/impl=<alpha|beta|plus5>, compared
//     exactly as benchstat -col /impl does: golang.org/x/perf/benchmath
//     AssumeNothing, the delta of the medians and a Mann-Whitney U test;
//     flagged means p ≤ 0.05 (benchstat prints a delta instead of ~).
//
// The table counts, per way, workload and pair: how often identical code
// was flagged (beta) or the +5% was caught with the right sign (plus5),
// wrong-sign verdicts, undecided verdicts (control only), the median and
// range of the estimated delta, and the wall time per repetition of each
// way's process (both workloads).
package groundtruth

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/report"
	"github.com/benchkit/go-benchkit/internal/stats"
)

var (
	works      = []string{"sum", "alloc"}
	pairs      = []string{"beta", "plus5"}
	methodList = []string{"control.Compare", "go test -count + benchstat"}
)

// config is the parsed command line.
type config struct {
	reps      int
	benchtime string // -benchtime of the control.Compare run
	count     int    // -count of the plain run
	plainBT   string // -benchtime of the plain run
	pkg       string
	verbose   bool
}

// obs is one estimate of one pair in one repetition (the delta in percent
// of alpha and the verdict; the table uses no interval).
type obs = harness.Estimate

type key struct{ method, work, pair string }

// Main runs the table with the command-line arguments args (its flags,
// without the table's name): the table goes to stdout, -v's lines and
// errors to stderr. It returns the exit status (see [harness.Main]).
func Main(args []string, stdout, stderr io.Writer) int {
	return harness.Main("groundtruth", args, stdout, stderr, parseFlags, run)
}

// parseFlags parses args into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	err := harness.ParseFlags("groundtruth", args, stderr, func(fs *flag.FlagSet) {
		fs.IntVar(&c.reps, "r", 30, "repetitions")
		fs.StringVar(&c.benchtime, "benchtime", "1s", "-benchtime for the control.Compare run (its budget is this × 3 per workload)")
		fs.IntVar(&c.count, "count", 10, "-count for the plain run")
		fs.StringVar(&c.plainBT, "plain-benchtime", "100ms", "-benchtime for the plain run")
		fs.StringVar(&c.pkg, "pkg", "./examples/seed000", "package holding BenchmarkCompare and BenchmarkPlain")
		fs.BoolVar(&c.verbose, "v", false, "print each repetition's numbers to stderr")
	})
	return c, err
}

// run builds the binary, runs the repetitions and prints the table.
func run(c config, stdout, stderr io.Writer) error {
	ws, err := harness.NewWorkspace("groundtruth", c.pkg)
	if err != nil {
		return err
	}
	defer ws.Close()
	data := map[key][]obs{}
	wall := map[string][]time.Duration{}
	for rep := range c.reps {
		order := methodList
		if rep%2 == 1 {
			order = []string{methodList[1], methodList[0]}
		}
		for _, m := range order {
			got, w, err := c.measure(ws, m)
			wall[m] = append(wall[m], w)
			if err != nil {
				return fmt.Errorf("repetition %d, %s: %v", rep+1, m, err)
			}
			record(data, got)
			if c.verbose {
				logRep(stderr, rep, got)
			}
		}
	}
	printTable(stdout, c, ws.Machine, data, wall)
	return nil
}

// args returns the test binary's arguments for method m.
func (c config) args(m string) []string {
	if m == methodList[0] {
		return []string{"-test.run=^$", "-test.bench=^BenchmarkCompare$", "-test.benchtime=" + c.benchtime}
	}
	return []string{"-test.run=^$", "-test.bench=^BenchmarkPlain$", "-test.count=" + strconv.Itoa(c.count), "-test.benchtime=" + c.plainBT,
		// the plain way gets no warm-up: benchkit.Main is the package's TestMain
		"-benchkit.warmup=off"}
}

// measure runs one process of method m and returns its estimates and its
// wall time: the Compare run's from its JSON report, the plain run's from
// its output.
func (c config) measure(ws *harness.Workspace, m string) (map[key]obs, time.Duration, error) {
	if m == methodList[0] {
		rep, out, wall, err := harness.RunReport(ws.Bin, filepath.Join(ws.Dir, "compare.json"), c.args(m), nil, 0)
		if err != nil {
			return nil, wall, err
		}
		got, err := compareObs(rep, out)
		return got, wall, err
	}
	out, wall, err := harness.Run(ws.Bin, c.args(m), nil, 0)
	if err != nil {
		return nil, wall, err
	}
	got, err := parsePlain(out)
	return got, wall, err
}

// record adds one process's estimates to data.
func record(data map[key][]obs, got map[key]obs) {
	for k, o := range got {
		data[k] = append(data[k], o)
	}
}

// logRep prints one process's estimates to w (-v).
func logRep(w io.Writer, rep int, got map[key]obs) {
	for k, o := range got {
		fmt.Fprintf(w, "rep %2d %-28s %-5s %-5s %+7.2f%% %s\n", rep+1, k.method, k.work, k.pair, o.Delta, o.Verdict)
	}
}

// compareObs returns the Compare run's estimate of every workload and
// pair from its JSON report rep; it fails if one is missing, naming it
// with the run's output out.
func compareObs(rep report.JSONReport, out []byte) (map[key]obs, error) {
	outs, err := harness.CompareOutcomes(rep)
	if err != nil {
		return nil, err
	}
	got := map[key]obs{}
	for _, w := range works {
		for _, p := range pairs {
			o, ok := outs[harness.WorkImpl{Work: w, Impl: p}]
			if !ok {
				return nil, fmt.Errorf("no estimate for work=%s %s in the JSON report; the run's output:\n%s", w, p, out)
			}
			got[key{methodList[0], w, p}] = o
		}
	}
	return got, nil
}

// parsePlain reads the plain run and compares as benchstat -col /impl does
// (see harness.ComparePlain).
func parsePlain(out []byte) (map[key]obs, error) {
	vals, err := harness.PlainSamples(out)
	if err != nil {
		return nil, err
	}
	got := map[key]obs{}
	for _, w := range works {
		base := vals[harness.WorkImpl{Work: w, Impl: "alpha"}]
		if len(base) == 0 {
			return nil, fmt.Errorf("no alpha results for work=%s", w)
		}
		for _, p := range pairs {
			xs := vals[harness.WorkImpl{Work: w, Impl: p}]
			if len(xs) == 0 {
				return nil, fmt.Errorf("no %s results for work=%s", p, w)
			}
			got[key{methodList[1], w, p}] = harness.ComparePlain(base, xs)
		}
	}
	return got, nil
}

// printTable writes the machine line, the markdown table, its footnotes
// and the command line that repeats the run.
func printTable(f io.Writer, c config, machine string, data map[key][]obs, wall map[string][]time.Duration) {
	fmt.Fprintf(f, "%s\n\n", machine)
	fmt.Fprintf(f, "| method | work | pair (truth) | flagged / caught | wrong sign | undecided | median Δ | Δ range (min – max) | Δ IQR | wall / rep |\n")
	fmt.Fprintf(f, "|---|---|---|---|---|---|---|---|---|---|\n")
	for _, m := range methodList {
		wallMed := harness.MedianDuration(wall[m]).Seconds()
		for _, w := range works {
			for _, p := range pairs {
				fmt.Fprintln(f, formatRow(m, w, p, data[key{m, w, p}], wallMed))
			}
		}
	}
	fmt.Fprintf(f, "\nflagged: a decided verdict (control.Compare: faster or slower) or p ≤ 0.05 (benchstat prints a delta, not ~); caught: flagged with the right sign; undecided: verdicts control.Compare refused to give (not flagged).\n")
	fmt.Fprintf(f, "wall / rep is the median wall time of that method's process per repetition (both workloads, process start included).\n")
	fmt.Fprintf(f, "command: %s\n", harness.CommandLine("groundtruth",
		fmt.Sprintf("-r %d -benchtime %s -count %d -plain-benchtime %s -pkg %s", c.reps, c.benchtime, c.count, c.plainBT, c.pkg), false))
}

// formatRow formats the row of method m, workload w and pair p from its
// estimates; wallSec is the method's median wall time in seconds.
func formatRow(m, w, p string, xs []obs, wallSec float64) string {
	var ds []float64
	var verdicts []string
	for _, o := range xs {
		ds = append(ds, o.Delta)
		verdicts = append(verdicts, o.Verdict)
	}
	t := harness.TallyVerdicts(verdicts, p != "plus5")
	truth, what := "0%", "flagged"
	wrongS := "–" // a sign is wrong only against a non-zero truth
	if p == "plus5" {
		truth, what = "+5%", "caught"
		wrongS = fmt.Sprintf("%d/%d", t.Wrong, t.N)
	}
	undS := "–"
	if m == methodList[0] {
		undS = fmt.Sprintf("%d/%d", t.Undecided, t.N)
	}
	q := func(p float64) float64 { v, _ := stats.Quantile(ds, p); return v } // 0 for no estimates
	return fmt.Sprintf("| %s | %s | %s vs alpha (%s) | %s %d/%d | %s | %s | %+.2f%% | %+.2f%% – %+.2f%% | %.2f | %.1fs |",
		m, w, p, truth, what, t.Flagged, t.N, wrongS, undS, q(0.5), q(0), q(1), q(0.75)-q(0.25), wallSec)
}
