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
// prints (ns/op, allocs/op, the timed fraction of the wall time, the time
// the process waited for a CPU) under the benchmark's name, and reports on
// the benchmark's line:
//
//	BenchmarkSum-2   1000000   1021 ns/op   1.842 cv%   0.3120 wait%
//
// cv% is the coefficient of variation of ns/op across this benchmark's
// -count repeats so far (from the second repeat on: seed 001's cv.awk,
// in-process); wait% is the run-queue wait over the wall time (Linux). Both
// survive benchstat unchanged; benchstat writes values below 1 with a milli
// prefix (530.0m cv% is 0.53%). No metric is ever NaN or Inf and nothing is
// printed to stdout. The benchmark's own ns/op is left alone: Track pauses
// the timer while it works, which costs a b.Loop benchmark nothing and a
// b.N-style run about 1 µs of timed time in all (visible only with a tiny
// -benchtime=Nx).
//
// # Loop and Setup
//
// [Loop](b, f) runs `for b.Loop() { f() }` itself, which keeps f's result
// alive, and times batches of iterations so that one run (-count=1) has a
// CV, batchcv%, and a timeline for the report's strip plot, in fixed memory
// whatever b.N is. [Setup](b, setup, f) runs a per-iteration setup with the
// timer stopped, in the one order that measures f alone, and warns when
// the StopTimer/StartTimer pairs cost more wall time than the work.
//
// There is no `for k.Loop()` wrapper: the compiler keeps a loop body alive
// only when the condition is literally b.Loop(), so with a wrapper it can
// delete the work being measured.
//
// # Checks
//
// Each run is checked; a problem is a flag, logged with b.Log under the
// benchmark's line (--- BENCH:) and kept for the report:
//   - timer-stopped: a b.N-style benchmark that calls b.StopTimer() and
//     never b.StartTimer() makes testing ramp b.N to 1e9 and print about
//     0 ns/op, minutes later. Track fails it at the second ramp step (b.N =
//     100) with a message naming the missing b.StartTimer() (one step
//     later, b.N = 10000, when the machine's load could explain the untimed
//     time, and outside Linux). This flag always fails the benchmark. (With
//     b.Loop, testing already fails.)
//   - timer-toggling: the timer was off for most of the run's wall time
//     across many StopTimer/StartTimer calls.
//   - setup-cost: Setup's stop/start pairs cost more than the work.
//   - eliminated: ns/op within 2.5× of an empty loop iteration, calibrated
//     once per process: the compiler probably removed the work. The fix is
//     sink.Keep, sink.Opaque for constant inputs, or a `for b.Loop()` body;
//     go test -gcflags=-m shows what was inlined and removed.
//   - allocs: fewer allocs/op than declared with [ExpectAllocs], the exact
//     signal of removed allocating work.
//   - misuse: Track called twice in one benchmark run.
//
// Flags warn by default; with [FailOnFlags] they fail the benchmark.
//
// # Main and the report
//
// Call benchkit.Main from TestMain, `func TestMain(m *testing.M) {
// benchkit.Main(m) }`: it checks the environment and warms the machine up
// before the first benchmark, runs the tests and benchmarks, and after
// m.Run prints one report of everything Track, Loop, Setup and package
// control recorded (per-benchmark CV, contention, flags, strip plots, and
// comparisons), then exits with m's code.
//
// # Limits
//
// Track, Loop and Setup take a *testing.B: calling them from a Test does
// not compile. Call them in leaf benchmarks (a benchmark that calls b.Run
// is not measured itself and records nothing) and outside RunParallel
// bodies. Metrics appear from the run testing prints; the ramp steps of a
// b.N-style benchmark only feed the timer audit. With -benchtime=1x the
// eliminated-work check cannot see anything (one iteration's time is
// mostly the clock's own cost).
package benchkit
