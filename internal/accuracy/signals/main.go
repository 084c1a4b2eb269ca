// Package signals measures how often the report's grades, regime calls
// and timing-only flags fire on steady, correct benchmarks and on seed
// 001's hog, over R fresh processes each, and compares the runs-needed
// the report printed with what the run-to-run CV across those processes
// asks for.
//
//	go run ./internal/accuracy signals -r 20                   # the table in docs/measurements.md
//	go run ./internal/accuracy signals -r 2 -benchtime 100ms   # a smoke run
//
// It builds two test binaries once with go test -c: -pkg
// (internal/accuracy/workloads/signals: BenchmarkSteady's sum, sort and
// map with benchkit.Loop, BenchmarkTiny's correct 1–3 ns work with
// benchkit.Track) and -hog-pkg (examples/seed001, whose
// BenchmarkMakeBuffer_Correct runs a CPU hog through the middle of its one
// run). Each repetition runs each binary once, as a fresh process,
// with -test.count=1, -test.benchtime=<-benchtime> (-tiny-benchtime for
// BenchmarkTiny, in the same process) and -benchkit.json=<file>, and reads
// the JSON report (schema benchkit-report/v1). Every process has a
// deadline (-timeout); a process that fails is reported on stderr, left
// out, and makes Main return status 1 after the table.
//
// The table has one row per workload, with the columns:
//
//   - grade E/A/N/D: how many processes got each grade (excellent,
//     acceptable, noisy, do-not-trust; unknown is left out), then, under
//     "before", the same count by the simpler rule the grade refines
//     (seed 001's thresholds applied to the batch CV, recomputed from the
//     JSON's cv_pct);
//   - regimes: processes with a regime call, then, under "before", the
//     count by the simpler rule (stats.TwoRegimes or stats.ShiftedBlock
//     on the batches, without the sustained-level condition, recomputed
//     from the samples);
//   - drift, cold: processes with a drift or a cold-start finding;
//   - elim.: processes whose row carried the "eliminated" flag (a false
//     alarm on every workload here: none is eliminated);
//   - wait%: the median over processes of the report's wait%;
//   - ns/op: the median over processes of the printed median, and the
//     run-to-run CV of those medians across processes with the grade seed
//     001's thresholds give it (what the report's grade should match);
//   - runs@5% printed lo–hi: the medians over processes without a regime
//     call of the range the report printed from batches (runs_needed and
//     runs_needed_hi), and under "before" Lehr's rule on the batch CV;
//   - runs@5% truth: Lehr's rule, ⌈16·(cv/5)²⌉ and at least 6, on the
//     run-to-run CV across the processes; the ratio hi/truth; and the
//     processes whose range, widened by a factor 2 each way, holds it.
//
// After the table come a line describing the machine (load average at
// start) and the command line that reproduces the run.
package signals

import (
	"io"

	"github.com/benchkit/go-benchkit/internal/accuracy/harness"
)

// Main runs the table with the command-line arguments args (its flags,
// without the table's name): the table goes to stdout, failures and -v's
// lines to stderr. It returns the exit status (see [harness.Main]).
func Main(args []string, stdout, stderr io.Writer) int {
	return harness.Main("signals", args, stdout, stderr, parseFlags, run)
}
