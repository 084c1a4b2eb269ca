// Package wander measures which of two reasons makes a benchmark's median
// differ between fresh processes on a quiet machine: the machine changing
// speed over time (another guest on a shared host, invisible to this one
// as wait% or steal time), or something fixed per process (a map's hash
// seed, heap or stack placement).
//
//	go run ./internal/accuracy wander                        # the table in docs/measurements.md
//	go run ./internal/accuracy wander -procs 2 -count 2 -long 3 -benchtime 100ms   # a smoke run
//
// It builds -pkg (internal/accuracy/workloads/signals: BenchmarkSteady's
// sum, sort and map)
// with go test -c, then runs two experiments with the same binary on the
// benchmarks -bench selects (any package's: -pkg ./mypkg -bench
// '^BenchmarkX$' asks the same question of your own benchmark and
// machine, if its TestMain calls benchkit.Main, whose JSON report wander
// reads):
//
//   - -procs fresh processes one after another, each with
//     -test.count=<-count>: every process measures each workload -count
//     times in a row, so the spread of one process's runs is the spread at
//     a fixed process over a few seconds, and the spread of the processes'
//     medians is the run-to-run spread (the truth the signals table sizes
//     runs-needed against);
//   - one process with -test.count=<-long>: the same workloads in one
//     process, run after run, over a minute or more.
//
// Every process has a deadline (-timeout) and writes a JSON report
// (-benchkit.json), from which wander reads each workload's per-run ns/op.
// A failed process is reported on stderr with its output and fails the
// table (Main returns 1).
//
// The table has one row per workload, with the columns:
//
//   - median: the median over processes of each process's median, in ns/op;
//   - between processes: the CV of the processes' medians, in percent;
//   - within a process: the median over processes of the CV of each
//     process's -count runs, in percent;
//   - r with sum: Pearson's correlation, across processes, of the
//     workload's log median with sum's (the first row: sum when present,
//     else the first name in order) in the same process: near 1 when the workloads slow down together, which a
//     machine-wide cause does and a per-process one (map's hash seed)
//     does not;
//   - CV of its ratio to sum: the CV across processes of the workload's
//     median over sum's in the same process. An interleaved comparison
//     (control.Compare) cancels what moves both alike; this is what it
//     cannot cancel, between work of different kinds;
//   - one process, -long runs: the CV of the long process's runs, their
//     max/min, and the lag-1 autocorrelation of the run sequence (near 0
//     for independent runs, towards 1 when the level wanders slowly).
//
// Reading it: when one process's long sequence spreads about as much as
// separate processes do, and far more than a process's few consecutive
// runs, the spread comes from the machine changing over tens of seconds,
// which no fresh process escapes and no single run can see. When separate
// processes spread far more than one process's long sequence, something
// fixed per process differs.
package wander

import (
	"io"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// Main runs the table with the command-line arguments args (its flags,
// without the table's name): the table goes to stdout, errors and -v's
// lines to stderr. It returns the exit status (see [harness.Main]).
func Main(args []string, stdout, stderr io.Writer) int {
	return harness.Main("wander", args, stdout, stderr, parseFlags, run)
}
