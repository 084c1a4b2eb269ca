// Package forks measures what spreading control.Compare over several
// fresh processes (its forks) does to its intervals and verdicts, next to
// plain go test -count + benchstat: how often each way gets known answers
// on the workloads of internal/accuracy/workloads/calibrate, over R
// repetitions that are each a fresh process, and whether a ratio depends
// on which side is the baseline.
//
//	go run ./internal/accuracy forks -r 20                    # 1s Compare, forks 1 and 10 (the default)
//	go run ./internal/accuracy forks -r 2 -benchtime 50ms -count 2 -plain-benchtime 10ms -forks 1,2
//
// It builds the test binary of -pkg once with go test -c. Each repetition
// then runs, as separate processes, in an order rotated by one place per
// repetition (so each method takes each position equally often):
//
//   - for each fork count F in -forks, "Compare F=<F>": the binary with
//     -test.run='^$' -test.bench='^BenchmarkCompare$/^work=(<works>)$'
//     -test.benchtime=<-benchtime> -benchkit.json=<a file in the run's
//     temporary directory> and BENCHKIT_FORKS=<F> in the environment, so
//     that Compare spreads its rounds over F processes;
//   - "plain": the binary with -test.run='^$'
//     -test.bench='^BenchmarkPlain$/^work=(<works>)$' -test.count=<-count>
//     -test.benchtime=<-plain-benchtime>.
//
// Both run with -benchkit.warmup=off: the package's TestMain must call
// benchkit.Main (internal/accuracy/workloads/calibrate's does), which
// defines the -benchkit flags, and neither way gets its warm-up.
//
// Every process has a deadline (-timeout). A process that fails, passes its
// deadline or prints output that cannot be read is reported with its
// output on stderr, its repetition is left out of that method's rows, and
// Main returns status 1 after printing the table.
//
// Compare's estimate, interval and verdict for each implementation are
// read from the process's JSON report (its "comparisons"); an estimate
// without an interval counts as not covered and adds no width. The plain
// way is compared exactly as benchstat -col /impl does:
// golang.org/x/perf/benchmath AssumeNothing, the ratio of the medians of
// the -count samples, and a Mann-Whitney U test, flagged when p ≤ 0.05
// (benchstat prints a delta instead of ~).
//
// The table has a row per method × workload × variant (same, p2, p5,
// p10), every variant against base, with the columns:
//
//   - coverage: k/n, the repetitions whose printed interval contains the
//     median of the n estimates of that row (the footnote says why the
//     median and not the nominal size); "–" for the plain way, which
//     prints no interval on the ratio;
//   - width: the median interval width, in percentage points, over the
//     repetitions with an interval ("–" for plain, or when none has one);
//   - flagged / caught: for same (truth 0%), the repetitions with a decided
//     verdict (faster or slower; p ≤ 0.05 for plain); for p2, p5 and p10,
//     the repetitions that called the variant slower (p ≤ 0.05 with a
//     positive delta for plain);
//   - wrong sign: for p2, p5 and p10, the repetitions that called it
//     faster;
//   - undecided: the repetitions where Compare refused a verdict (Compare
//     only);
//   - median Δ and Δ range: the median, minimum and maximum of the n
//     estimates, in percent of base;
//   - wall / rep: the median wall time of that method's process, all its
//     workloads together, process start-up and the children's included.
//
// The swap workload (FNV-1a against a word fold of 1 KiB, about 20×
// apart, compared both ways round) has a table of its own, after the
// first one's footnotes: per method and baseline, the median ratio
// fnv/fold over the repetitions and its range; for Compare, the coverage
// of each printed interval (as a ratio) of the median over both
// baselines' repetitions pooled, and the median interval width; and the
// baseline gap, the median with fold as the baseline over the median with
// fnv as the baseline, minus one. The plain way has one row, since the
// same samples give the ratio either way round.
//
// After the tables come footnotes, a line describing the machine (Go
// version, CPU model, CPU count, load average at start, UTC date) and the
// command line that reproduces the run, every flag spelled out.
package forks

import (
	"errors"
	"fmt"
	"io"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// Main runs the table with the command-line arguments args (its flags,
// without the table's name): the table goes to stdout, failures and -v's
// lines to stderr. It returns the exit status (see [harness.Main]).
func Main(args []string, stdout, stderr io.Writer) int {
	return harness.Main("forks", args, stdout, stderr, parseFlags, run)
}

// errFailed reports that some processes failed; their output has already
// been printed.
var errFailed = errors.New("some processes failed (see above); their repetitions are left out of the table")

// run builds the binary, runs the repetitions and prints the table.
func run(cfg config, stdout, stderr io.Writer) error {
	ws, err := harness.NewWorkspace("forks", cfg.pkg)
	if err != nil {
		return err
	}
	defer ws.Close()
	methods := cfg.methods()
	res := newResults()
	failed := 0
	for rep := range cfg.reps {
		for _, m := range rotate(methods, rep) {
			if !runMethod(stderr, cfg, ws, m, rep, res) {
				failed++
			}
		}
	}
	printTable(stdout, cfg, methods, res)
	fmt.Fprintf(stdout, "\n%s\n\ncommand: %s\n", ws.Machine, cfg.commandLine())
	if failed > 0 {
		return fmt.Errorf("%d of %d processes failed: %w", failed, cfg.reps*len(methods), errFailed)
	}
	return nil
}
