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
//		benchkit.Setup(b, newInput, process) // untimed setup per iteration
//	}
//
// # Track
//
// [Track] is one line at the top of any benchmark, `for b.Loop()` or
// `for range b.N` style. Through b.Cleanup it records the run testing
// prints (ns/op, allocs/op and B/op, the timed fraction of the wall time,
// the time the process's threads waited for a CPU, involuntary context
// switches) under the benchmark's name, for the report, and reports on the
// benchmark's line:
//
//	BenchmarkSum-2   1000000   1021 ns/op   1.842 cv%   0.3120 wait%
//
// The metrics:
//
//   - cv%: the coefficient of variation of ns/op across this benchmark's
//     -count repeats so far, 100·sd/mean with the sample standard deviation
//     (n−1), from the second repeat on;
//   - wait%: the time the process's threads spent runnable but waiting for
//     a CPU, over the run's wall time, in percent (Linux only; it can exceed
//     100 when several threads wait);
//   - batchcv%: the CV of the batch times within the run, when [Loop] ran it.
//
// -benchkit.metrics=off (with [Main]) or BENCHKIT_METRICS=off (with or
// without Main) leaves all three off the line, which then carries only
// what go test prints itself; the report and the JSON report still have
// them.
//
// All three survive benchstat unchanged; benchstat writes values below 1
// with a milli prefix (530.0m cv% is 0.53%). No metric is ever NaN or Inf
// and nothing is printed to stdout. The benchmark's own ns/op is left
// alone: Track pauses the timer while it reads its counters, which costs a
// b.Loop benchmark nothing (its first b.Loop call resets the timer) and a
// b.N-style run about 1 µs of timed time in all, visible only with a tiny
// -benchtime=Nx.
//
// # Loop and Setup
//
// [Loop](b, f) runs `for b.Loop() { f() }` itself, which keeps f's result
// alive, and times batches of iterations so that one run (-count=1) has a
// CV, batchcv%, and a timeline for the report's strip plot, in fixed memory
// whatever b.N is. [Setup](b, setup, f) runs a per-iteration setup with the
// timer stopped, in the one order that measures f alone (seed 004's
// TimerOrder bug cannot be written with it), and warns when the
// StopTimer/StartTimer pairs cost more wall time than the work.
//
// There is no `for k.Loop()` wrapper: the compiler keeps a loop body alive
// only when the condition is literally b.Loop(), so with a wrapper it can
// delete the work being measured. Loop costs about a nanosecond and a half
// per iteration more than a plain `for b.Loop()` (most of it the call
// through f); for nanosecond-scale bodies use Track with a plain loop.
//
// # Checks
//
// Each run is checked; a problem is a flag, logged with b.Log under the
// benchmark's line (--- BENCH:) with the numbers and the fix, and kept for
// the report:
//
//   - timer-stopped: a b.N-style benchmark that calls b.StopTimer() and
//     never b.StartTimer() makes testing ramp b.N to 1e9 and print about
//     0 ns/op, minutes later. Track sees b.N grow ×100 between ramp steps
//     while the timed time does not, the untimed time grow with b.N after
//     the last timed stretch, and the timer not toggled per iteration. It
//     fails the benchmark when two ramp steps in a row show it (b.N = 100,
//     then 10000), with a message naming the missing b.StartTimer(); at
//     the first (b.N = 100) when that step alone is overwhelming (the
//     timed time did not grow and at least 10 ms went untimed, unexplained
//     by waits: a body of 100 µs or more); under -benchtime=Nx at the
//     final step when its evidence is strong. One step is never enough
//     otherwise: a cold first iteration and a stall the counters miss can
//     look like a stopped timer once. This flag always fails the
//     benchmark. (With b.Loop, testing already fails.)
//   - timer-toggling: the timer was off for more than 90% of at least 10 ms
//     of wall time, across at least 16 stop-the-world pauses: per-iteration
//     StopTimer/StartTimer (about 10 µs a pair) makes the wall time balloon.
//   - setup-cost: Setup's stop/start pairs cost more wall time than the
//     measured work, and at least 10 ms.
//   - eliminated: ns/op within 2.5× of an empty loop iteration, calibrated
//     once per process and net of the thread's run-queue wait: the compiler
//     probably removed the work, or it is a few instructions timing cannot
//     tell from nothing (the assembly can: go test -gcflags=-S). The fix is
//     sink.Keep, sink.Opaque for constant inputs, or a `for b.Loop()` body;
//     go test -gcflags=-m shows what was inlined and removed.
//   - allocs: allocs/op rounds below the count declared with
//     [ExpectAllocs]: the exact signal of removed allocating work.
//   - misuse: Track called twice in one benchmark run (the second call is
//     ignored).
//
// Flags warn by default; with [FailOnFlags] they fail the benchmark, and
// with Main's strict setting any flag makes the exit code 1. A flag that
// failed its benchmark (a stopped timer, or under FailOnFlags) makes Main
// exit 1 too, even when a later -count repeat failed and go test passed.
//
// # Main and the report
//
// [Main], called from TestMain, checks the environment and warms the
// machine up before the first benchmark, runs the tests and benchmarks,
// prints one report of everything Track, Loop, Setup and package control
// recorded (to stdout, stderr, a file or nowhere: -benchkit.report),
// optionally writes a JSON report and a benchstat samples file, and exits.
// [Run] does the same and returns the exit code, for a TestMain with
// teardown. Its doc lists the settings (flags, environment variables,
// options) and the exit codes. The report's sections and every field of the
// JSON schema benchkit-report/v1 are described in docs/report.md
// (https://github.com/benchkit/go-benchkit/blob/main/docs/report.md).
//
// # Limits
//
// Track, Loop and Setup take a *testing.B: calling them from a Test does
// not compile. Call them in leaf benchmarks (a benchmark that calls b.Run
// is not measured itself and records nothing). In RunParallel benchmarks
// call Track at the top, never inside the body; there ns/op is wall time
// over b.N across goroutines and can sit under the empty-loop floor on
// several cores. Metrics appear from the run testing prints; the ramp
// steps of a b.N-style benchmark only feed the timer audit. With
// -benchtime=1x the eliminated-work check cannot see anything (one
// iteration's time is mostly the clock's own cost).
//
// The timer audit reads the benchmark thread's run-queue wait on Linux
// only; elsewhere it decides one ramp step later, and the eliminated-work
// check has no on-CPU correction. allocs/op and the timer state are read
// from testing.B's unexported fields through reflection (read-only, no
// unsafe, checked by a test); if a future Go renames them, Track falls back
// to runtime.ReadMemStats and assumes the timer runs.
package benchkit
