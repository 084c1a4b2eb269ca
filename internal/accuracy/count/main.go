// Package count measures how repeatable benchkit's instruction counts
// (internal/count: instructions per op under valgrind) are on a busy
// machine, and whether they tell +1% and +5% of work from identical code,
// over R repetitions.
//
//	go run ./internal/accuracy count -r 10     # the table in docs/counts.md
//	go run ./internal/accuracy count -r 2      # a smoke run
//
// It builds internal/accuracy/workloads/count three times with go test
// -c: plainly (base.test), with -tags count_plus1 (plus1.test) and with
// -tags count_plus5 (plus5.test), whose BenchmarkCompute,
// BenchmarkAlloc and BenchmarkMap do 1% and 5% more work. It starts
// -busy busy-loop processes (harness.StartBusy), which run until the
// table ends them, and measures each benchmark's native ns/op once
// per binary (-test.benchtime=200ms), the hint benchkit.Main gives the
// counter. Each repetition then compares, per workload, the base with a
// second count of itself (A/A), and +1% and +5% with the base, the way
// -benchkit.against -benchkit.count=instructions does (count.Pair: each
// count starts with -repeats processes at N2, and a pair whose
// processes' spread bounds its tolerance runs more, up to
// count.MaxRepeats a side); +1% and +5% continue the A/A pair's first
// base count, in an order that rotates between repetitions.
//
// The table has one row per workload and build, with the columns:
//
//   - instr/op: the median over repetitions (the base: its A/A pairs'
//     second counts);
//
//   - spread: (max − min)/median over repetitions, in percent: how far
//     counts of one build in fresh processes land apart;
//
//   - Δ: the median over repetitions of the change count.Pair read from
//     the base, in percent, with its range;
//
//   - changed: how many pairs count.Pair called a change: for the base
//     the A/A pairs (identical code: each is a false alarm), for +1% and
//     +5% their pairs with the base;
//
//   - right sign: for +1% and +5%, the repetitions whose Δ is positive;
//
//   - cost: the median wall time of one count (every valgrind process of
//     it, those its pair added included), and the processes it ran.
//
//   - against (time): the wall-time verdicts of -benchkit.against (its
//     default lockstep pairing, at -against-benchtime) on the same build
//     against base.test, once per repetition with the busy loops
//     running: for the base (A/A) how many were flagged faster or
//     slower, for +1% and +5% how many were called slower, and how many
//     were undecided; "–" with -against-benchtime=off.
//
// After the table come a line describing the machine (load average at
// start, before the busy loops) and the command line that reproduces the
// run. A count that fails is reported on stderr and left out. -workloads
// counts only those workloads (the table has their rows only).
package count

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
	"github.com/benchkit/go-benchkit/internal/count"
)

// config is the parsed command line.
type config struct {
	r, repeats, busy int
	budget           int64
	pkg              string
	timeout          time.Duration
	workloads        []string // of allWorkloads, in their order
	// againstBT is the -test.benchtime of the against runs, "off" for
	// none.
	againstBT string
}

// Main runs the table with the command-line arguments args (its flags,
// without the table's name): the table goes to stdout, progress and errors
// to stderr. It returns the exit status (see [harness.Main]).
func Main(args []string, stdout, stderr io.Writer) int {
	return harness.Main("count", args, stdout, stderr, parseFlags, run)
}

// parseFlags parses args into a config.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	err := harness.ParseFlags("count", args, stderr, func(fs *flag.FlagSet) {
		fs.IntVar(&c.r, "r", 10, "repetitions")
		fs.IntVar(&c.repeats, "repeats", 0, "count.Limits.Repeats: processes at N2 each count starts with (0: count.DefaultRepeats)")
		fs.IntVar(&c.busy, "busy", 2, "busy-loop processes running while the table measures")
		fs.Int64Var(&c.budget, "budget", count.DefaultBudget, "count.Limits.Budget: instructions between the two processes")
		fs.StringVar(&c.pkg, "pkg", "./internal/accuracy/workloads/count", "the workloads' package")
		fs.DurationVar(&c.timeout, "timeout", 10*time.Minute, "deadline of each native process (the counts have their own)")
		fs.StringVar(&c.againstBT, "against-benchtime", "1s", "-test.benchtime of the -benchkit.against runs beside the counts, or off")
		fs.Func("workloads", "the workloads to count, comma-separated (default "+strings.Join(allWorkloads, ",")+")", func(v string) error {
			c.workloads = nil
			for _, w := range strings.Split(v, ",") {
				if !slices.Contains(allWorkloads, w) {
					return fmt.Errorf("no workload %q: the workloads are %s", w, strings.Join(allWorkloads, ", "))
				}
				c.workloads = append(c.workloads, w)
			}
			return nil
		})
	})
	if c.workloads == nil {
		c.workloads = allWorkloads
	}
	if err == nil && (c.r < 1 || c.repeats < 0 || c.busy < 0 || c.budget < 1) {
		err = fmt.Errorf("-r and -budget must be at least 1, -repeats and -busy at least 0")
	}
	return c, err
}

// commandLine is the command that reproduces the run.
func (c config) commandLine() string {
	return harness.CommandLine("count", fmt.Sprintf("-r %d -repeats %d -busy %d -budget %d -pkg %s -timeout %v -workloads %s -against-benchtime %s",
		c.r, c.repeats, c.busy, c.budget, c.pkg, c.timeout, strings.Join(c.workloads, ","), c.againstBT), false)
}
