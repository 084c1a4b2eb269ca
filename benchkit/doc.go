// Package benchkit makes `go test -bench` numbers honest from inside your
// _test.go files. You keep writing func BenchmarkX(b *testing.B) and running
// go test -bench; benchkit audits each run, adds a few metrics to the
// benchmark's own line, and prints one report at the end.
//
//	func TestMain(m *testing.M) { benchkit.Main(m) }
//
//	func BenchmarkSum(b *testing.B) {
//		benchkit.Track(b) // cv%, wait%, timer audit, eliminated-work check
//		for b.Loop() {
//			sink.Keep(Sum(xs))
//		}
//	}
//
//	func BenchmarkSumBatches(b *testing.B) {
//		benchkit.Loop(b, func() uint64 { return Sum(xs) }) // + batchcv%, timeline
//	}
//
//	func BenchmarkProcess(b *testing.B) {
//		benchkit.LoopWithSetup(b, newInput, process) // untimed setup per iteration
//	}
//
// # Metrics
//
// [Track], [Loop] and [LoopWithSetup] add to the benchmark's line:
//
//   - cv%: the coefficient of variation of ns/op across this benchmark's
//     -count repeats so far, 100·sd/mean (sample sd), from the second
//     repeat on;
//   - wait%: the time the process's threads waited for a CPU, over the
//     run's wall time, in percent (Linux; above 100 when several waited);
//   - batchcv%: with Loop, the CV of batches a few milliseconds long
//     within the run (not a run-to-run CV).
//
// No metric is ever NaN or Inf, nothing is printed to stdout, and the
// benchmark's own ns/op is left alone. -benchkit.metrics=off (or
// BENCHKIT_METRICS=off, with or without Main) leaves them off the line;
// the report keeps them.
//
// # Checks
//
// Each run is checked. A problem is a flag: kept for the report with the
// full explanation, and logged under the benchmark's line (once per
// benchmark and kind) as a headline with the numbers and the fix:
//
//   - timer-stopped: a b.N-style benchmark that stops the timer and never
//     starts it again; it fails at the first ramp steps (b.N = 100 or
//     10000), not after testing has ramped b.N to 1e9;
//   - timer-toggling: the timer was off for more than 90% of at least
//     10 ms, across at least 16 stop-the-world pauses;
//   - setup-cost: LoopWithSetup's StopTimer/StartTimer pairs cost more
//     wall time than the work (and a run headed past 100 × -benchtime,
//     at least 2 and at most 5 minutes, fails at
//     once);
//   - eliminated: ns/op within 2.5× of an empty loop iteration (or, net of
//     the thread's run-queue wait, 2×): the compiler probably removed the
//     work; the fix is sink.Keep or sink.Opaque;
//   - allocs: fewer allocations per op than [ExpectAllocs] declared;
//   - misuse: Track twice in one run, in a benchmark that calls b.Run, or
//     in a RunParallel body.
//
// The kinds judged from timing (eliminated, timer-toggling, setup-cost)
// can be accepted for one benchmark with [Allow] and a reason. Flags warn;
// [FailOnFlags] makes them fail their benchmark, and Main's strict mode
// (-benchkit.strict) every flag not allowed, and the run. The thresholds,
// and how often each check fires on correct code, are in the repository's
// docs/troubleshooting.md and docs/measurements.md.
//
// # Main and the report
//
// [Main], called from TestMain, checks the environment and warms the
// machine up before the first benchmark, runs the tests and benchmarks,
// prints one report of everything Track, Loop, LoopWithSetup and package
// control recorded, writes the files asked for (a JSON report, a samples
// file for benchstat, an HTML report with plots, and exports for Bencher
// and github-action-benchmark), and exits with a code that includes
// benchkit's gates. [Run] does
// the same and returns the code, for a TestMain with teardown. Main's doc
// lists the settings and the exit codes; docs/report.md describes the
// report and the JSON schema benchkit-report/v1.
//
// # Comparing with another build
//
// -benchkit.against=base.test, given to one package's go test, compares
// this package's benchmarks with the same package's test binary built at
// another commit, next to an A/A control (the base again), with exact
// allocs/op and B/op changes and gates (-benchkit.gate=PCT,
// -benchkit.gate.allocs) that never fail on an undecided verdict. The
// recipe, a GitHub Actions workflow and what the control means are in
// docs/ci.md.
//
// # Limits
//
// Call Track, Loop and LoopWithSetup in leaf benchmarks, at the top,
// never inside a RunParallel body: a benchmark that calls b.Run is not
// measured itself. allocs/op and the timer state are read from
// testing.B's unexported fields through reflection (read-only, checked by
// a test); if a Go release renames them, benchkit falls back and says so
// once. Under a -cpu list, testing measures a b.Loop benchmark's first
// repeat at the previous GOMAXPROCS (golang/go#49980); the report names
// it. The contention counters and the thread's run-queue wait are Linux
// only; elsewhere they are unknown.
//
// The repository's docs/ hold the mechanics: docs/statistics.md (how the
// numbers are computed), docs/compatibility.md (every go test flag) and
// docs/troubleshooting.md (every message and its fix).
package benchkit
