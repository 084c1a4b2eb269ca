// Package warmup measures what a disposable first benchmark (Benchmark of
// the module's top-level warmup package) does to the first-position
// penalty, the way seed 000 measured it: an identical pair of benchmarks,
// many separate processes, the per-process delta between the two copies,
// without and with the warm-up benchmark in first place.
//
// Run it from the module root:
//
//	go run ./internal/accuracy warmup            # 2 × 30 processes, 200ms per benchmark
//	go run ./internal/accuracy warmup -n 10 -benchtime 100ms
//
// It builds warmup/testdata/pair once with `go test -c`, then runs the test
// binary 2·n times as separate processes, each with -test.count=1: n times
// with -test.bench='First|Second' and n times with
// -test.bench='Warmup|First|Second'. The two kinds alternate (ABBA order
// by round) so that a change in machine load over the minutes the
// experiment takes falls on both rows alike. Each process's output is
// parsed with golang.org/x/perf/benchfmt, and its delta is
//
//	delta = (sec/op of Benchmark2Second / sec/op of Benchmark1First − 1) · 100
//
// The two benchmarks are identical, so the true delta is 0%. The program
// prints one markdown table, a row per kind: min, median and max delta, the
// spread (max − min, in percentage points), the middle half of the deltas
// (25th to 75th percentile, which one preempted process cannot move), and
// how many runs called the second copy faster (delta < 0), plus a line
// describing the machine (harness.MachineLine) and the time the runs took.
package warmup

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/stats"
)

// Main runs the table with the command-line arguments args (its flags,
// without the table's name): the table goes to stdout, errors and -v's
// lines to stderr. It returns the exit status (see [harness.Main]).
func Main(args []string, stdout, stderr io.Writer) int {
	return harness.Main("warmup", args, stdout, stderr, parseFlags, run)
}

// config is the parsed command line.
type config struct {
	n         int // processes per row
	benchtime string
	pkg       string
	verbose   bool
}

// parseFlags parses args into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	err := harness.ParseFlags("warmup", args, stderr, func(fs *flag.FlagSet) {
		fs.IntVar(&c.n, "n", 30, "processes per row")
		fs.StringVar(&c.benchtime, "benchtime", "200ms", "-test.benchtime of each process")
		fs.StringVar(&c.pkg, "pkg", "./warmup/testdata/pair", "package holding Benchmark1First, Benchmark2Second and BenchmarkWarmup")
		fs.BoolVar(&c.verbose, "v", false, "print each process's delta to stderr")
	})
	if err == nil && c.n < 1 {
		err = fmt.Errorf("-n %d: need at least 1 process per row", c.n)
	}
	return c, err
}

// row is one kind of process and the deltas its processes measured.
type row struct {
	name   string
	bench  string
	deltas []float64
}

// run builds the binary, measures both rows and prints the table.
func run(c config, stdout, stderr io.Writer) error {
	ws, err := harness.NewWorkspace("warmup", c.pkg)
	if err != nil {
		return fmt.Errorf("%v (run from the module root, or pass -pkg)", err)
	}
	defer ws.Close()
	rows := []*row{
		{name: "no warm-up", bench: "First|Second"},
		{name: "with warm-up", bench: "Warmup|First|Second"},
	}
	var log io.Writer
	if c.verbose {
		log = stderr
	}
	start := time.Now()
	if err := measureRows(rows, c.n, ws.Bin, c.benchtime, log); err != nil {
		return err
	}
	elapsed := time.Since(start)
	printTable(stdout, rows, c.n, c.benchtime)
	fmt.Fprintf(stdout, "\n%s; took %s\n", ws.Machine, elapsed.Round(time.Second))
	return nil
}

// measureRows runs n processes of each row, the two kinds alternating in
// ABBA order, and appends each process's delta to its row. It prints
// each delta to log, unless log is nil.
func measureRows(rows []*row, n int, bin, benchtime string, log io.Writer) error {
	for i := range n {
		order := []*row{rows[0], rows[1]}
		if i%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, r := range order {
			d, err := measure(bin, r.bench, benchtime)
			if err != nil {
				return fmt.Errorf("run %d (%s): %v", i+1, r.name, err)
			}
			r.deltas = append(r.deltas, d)
			if log != nil {
				fmt.Fprintf(log, "run %2d %-13s delta %+.2f%%\n", i+1, r.name, d)
			}
		}
	}
	return nil
}

// printTable writes the title line and a table row per kind; every row
// holds n ≥ 1 deltas.
func printTable(w io.Writer, rows []*row, n int, benchtime string) {
	fmt.Fprintf(w, "Identical pair, Benchmark2Second vs Benchmark1First (truth 0%%), %d processes per row, -benchtime=%s, -count=1\n\n", n, benchtime)
	fmt.Fprintln(w, "| | min | median | max | spread (max − min) | middle half (p25 … p75) | runs calling the second copy faster |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, r := range rows {
		s := slices.Sorted(slices.Values(r.deltas))
		q := func(p float64) float64 { v, _ := stats.Quantile(s, p); return v }
		faster := 0
		for _, d := range s {
			if d < 0 {
				faster++
			}
		}
		fmt.Fprintf(w, "| %s | %+.2f%% | %+.2f%% | %+.2f%% | %.2f pts | %+.2f%% … %+.2f%% | %d/%d |\n",
			r.name, s[0], q(0.5), s[len(s)-1], s[len(s)-1]-s[0], q(0.25), q(0.75), faster, len(s))
	}
}

// measure runs the test binary once and returns the per-process delta.
func measure(bin, bench, benchtime string) (float64, error) {
	out, _, err := harness.Run(bin, []string{"-test.run=^$", "-test.bench=" + bench, "-test.benchtime=" + benchtime, "-test.count=1"}, nil, 0)
	if err != nil {
		return 0, err
	}
	return delta(bytes.NewReader(out))
}

// delta parses go test -bench output and returns (second/first − 1)·100
// from the sec/op of Benchmark2Second and Benchmark1First.
func delta(r io.Reader) (float64, error) {
	var first, second float64
	br := benchfmt.NewReader(r, "output")
	for br.Scan() {
		res, ok := br.Result().(*benchfmt.Result)
		if !ok {
			continue // a syntax error or unit line; the pair's lines are checked below
		}
		v, ok := res.Value("sec/op")
		if !ok {
			continue
		}
		switch string(res.Name.Base()) {
		case "1First":
			first = v
		case "2Second":
			second = v
		}
	}
	if err := br.Err(); err != nil {
		return 0, err
	}
	if first <= 0 || second <= 0 {
		return 0, errors.New("output lacks a positive sec/op for Benchmark1First or Benchmark2Second")
	}
	return (second/first - 1) * 100, nil
}
