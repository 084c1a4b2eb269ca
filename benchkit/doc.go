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
//   - batchcv%: the CV of the batch times within the run, when [Loop] ran it:
//     the spread of batches a few milliseconds long, not the run-to-run CV
//     (the report grades the interval of the run's median instead, and
//     never sizes a run count from it).
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
// b.N-style run about 1.5 µs of timed time in all, visible only with a tiny
// -benchtime=Nx.
//
// # Loop and LoopWithSetup
//
// [Loop](b, f) runs `for b.Loop() { f() }` itself, which keeps f's result
// alive, and times batches of iterations so that one run (-count=1) has a
// CV, batchcv%, and a timeline for the report's strip plot, in fixed memory
// whatever b.N is. [LoopWithSetup](b, setup, f) runs a per-iteration setup with the
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
// Each run is checked; a problem is a flag, kept for the report with the
// full explanation, and logged with b.Log under the benchmark's line
// (--- BENCH:) as a one-line headline with the numbers and the fix,
// attributed to the line of the benchmark that called Track, Loop or
// LoopWithSetup. A warning is logged the first time a benchmark raises its kind
// in the process, not under every -count repeat (the report counts the
// runs). The flags:
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
//   - setup-cost: LoopWithSetup's stop/start pairs cost more wall time than the
//     measured work, and at least 10 ms. When the setup and the pairs
//     dwarf f so much that the run is headed for more than 5 minutes
//     (testing grows b.N until f's own time reaches -benchtime: a 200 µs
//     setup before a 100 ns f would take 40 minutes), LoopWithSetup fails the
//     benchmark within its first few dozen iterations instead; never
//     under -benchtime=Nx, which bounds the run.
//   - eliminated: ns/op within 2.5× of an empty loop iteration (calibrated
//     once per process), or, net of the thread's run-queue wait, within
//     2×: the compiler probably removed the work, or it is a few
//     instructions timing cannot tell from nothing (the assembly can: go
//     test -gcflags=-S). The fix is sink.Keep, sink.Opaque for constant
//     inputs, or a `for b.Loop()` body; go test -gcflags=-m shows what was
//     inlined and removed. It is a timing-only check and can fire on
//     correct work of a few instructions: docs/measurements.md ("Report
//     signals, calibrated") counts how often.
//   - allocs: allocs/op rounds below the count declared with
//     [ExpectAllocs]: the exact signal of removed allocating work.
//   - misuse: Track called twice in one benchmark run (the second call is
//     ignored), or in a benchmark that calls b.Run.
//
// Three kinds are judged from timing: eliminated, timer-toggling and
// setup-cost. A noisy machine or a genuinely tiny body can raise them on
// correct code, so a benchmark can accept one with [Allow] and a reason;
// the report and the JSON still show it, with the reason. The others are
// certain (timer-stopped, allocs against your own declaration, misuse)
// and cannot be allowed. The report marks the timing kinds "(from
// timing)" and the JSON has "certain" per flag.
//
// Flags warn by default; with [FailOnFlags] they fail the benchmark, and
// with Main's strict setting every flag not allowed fails the benchmark
// that raised it (b.Error, so go test -json names it) and makes the exit
// code 1. A flag that failed its benchmark (a stopped timer, or under
// FailOnFlags or strict mode) makes Main exit 1 too, even when a later
// -count repeat failed and go test passed.
//
// # Main and the report
//
// [Main], called from TestMain, checks the environment and warms the
// machine up before the first benchmark, runs the tests and benchmarks,
// prints one report of everything Track, Loop, LoopWithSetup and package control
// recorded (to stdout, stderr, a file or nowhere: -benchkit.report),
// optionally writes a JSON report and a benchstat samples file, and exits.
// [Run] does the same and returns the exit code, for a TestMain with
// teardown. Its doc lists the settings (flags, environment variables,
// options) and the exit codes. The report's sections and every field of the
// JSON schema benchkit-report/v1 are described in docs/report.md
// (https://github.com/benchkit/go-benchkit/blob/main/docs/report.md).
//
// # Comparing with another build: -benchkit.against
//
// "Did this change make it slower than main?" needs the old code and the
// new in one job, interleaved. With Main in TestMain:
//
//	git worktree add /tmp/base $(git merge-base HEAD origin/main)
//	(cd /tmp/base && go test -c -o /tmp/base.test ./pkg)
//	go test -run='^$' -bench=. ./pkg -benchkit.against=/tmp/base.test
//
// (or BENCHKIT_AGAINST=/tmp/base.test). The base is the same package's
// test binary built at another commit; this binary is the new side. Main
// then runs the package's tests as usual, and the benchmarks matching
// -bench not in this process but in rounds of fresh processes: the base,
// this binary, and the base again (the A/A control), in a balanced random
// order (each of the three takes each position once per block of three
// rounds). Every process runs the whole selection once, with -count=1,
// -run='^$', -benchmem, the round's share of -benchtime, the user's other
// go test flags (-cpu, -short, …; not benchkit's own, which the base may
// not define), and none of them writes to the stdout go test parses.
//
// The budget: -benchkit.rounds rounds ([DefaultAgainstRounds], 10), each
// process with -benchtime × 2/3 (Nx: ⌈2N/3⌉x), so that by default the
// comparison costs what -count=10 of each binary costs, 20 × -benchtime
// per benchmark, plus about 40 ms of start-up (and the package's TestMain)
// per process. A process's deadline is go test's -timeout (10 minutes
// without one), and after the first round the shorter of that and 10 ×
// the slowest process so far + 2 minutes; when
// the first round says the rounds will outlast -timeout (after which go
// test kills the run), Main warns on stderr.
//
// Each process's output is read with benchfmt. Per benchmark, per round
// r, the ratios new(r)/base(r) and control(r)/base(r); Δ is the median
// ratio − 1 with the sign-test interval of the median at 97.5% (95%
// family-wise over the candidate and the control), and the verdict
// (faster, slower, same, undecided) follows control.Compare's rule: a
// difference is called only when its interval excludes 0 and lies beyond
// the control's interval, and when the control itself is off zero
// (beyond ±0.5%) nothing is decided. At least 7 complete rounds are
// needed. allocs/op and B/op are compared exactly (the median of each
// side's rounds, "varies" when rounds disagree): a change in allocs/op is
// reported even when the time is undecided.
//
// What the A/A control means here: the control is a second process of the
// same base binary in the same round, so its Δ is what this machine, this
// job and these process start-ups do to identical code: layout, frequency,
// neighbours. It is not a measure of the code difference and cannot see
// what differs between the two builds other than the code (a different Go
// version, a build flag); it is the noise floor every verdict must clear.
//
// Gates: -benchkit.gate=PCT (BENCHKIT_GATE) fails the run (exit 1) on a
// decided slowdown beyond PCT percent; -benchkit.gate.allocs
// (BENCHKIT_GATE_ALLOCS) on any increase in allocs/op. An undecided
// comparison never fails the gate, and the report says so. A process of
// this binary that fails also fails the run; a base process that fails is
// reported with its output, its benchmark is left out of the comparison
// (and skipped in the later rounds, with -test.skip), and the run goes on.
//
// Output: the report's "against" section (the binaries with their
// package, Go version, VCS revision when stamped, SHA-256; one row per
// benchmark with both sides' ns/op, Δ and interval, the control's, the
// allocs/op and B/op change and the verdict; the benchmarks found in one
// binary only, listed and not compared; the gate; failed processes with
// their output), the JSON report's "against" object with every sample,
// and the samples file's "samples: against" block, whose results carry
// "side: base|new|control" for
//
//	benchstat -col side samples.txt
//
// With GITHUB_ACTIONS=true, Main also prints ::error:: workflow commands
// for the failures and ::warning:: for a slowdown or an extra allocation
// that no gate failed on.
//
// Inside those processes Main only runs the benchmarks (no report, no
// warm-up, no files), and control.Compare measures within its process:
// the rounds of processes are the forks. Give -benchkit.against as a
// flag to one package's go test: BENCHKIT_AGAINST would reach every
// package of `go test ./...`, whose test binaries are not the base's
// package.
//
// Bad input stops Main before anything runs, with exit code 2 and the
// fix: a base file that is missing, not executable, not a Go binary, a
// Go program rather than a test binary, or the test binary of another
// package; -count (the rounds are the repeats: use -benchkit.rounds); no
// -bench; a profiling flag (every process would overwrite the file).
// The docs' CI recipe and a GitHub Actions workflow are in the
// repository's docs/ci.md and examples/ci/benchkit.yml.
//
// # Limits
//
// Track, Loop and LoopWithSetup take a *testing.B: calling them from a Test does
// not compile. Call them in leaf benchmarks: a benchmark that calls b.Run
// is not measured itself, so Track there records nothing and raises a
// misuse flag once (its log line shows only under go test -v, where
// testing prints a parent's log). In RunParallel benchmarks
// call Track at the top, never inside the body; there ns/op is wall time
// over b.N across goroutines and can sit under the empty-loop floor on
// several cores. Metrics appear from the run testing prints; the ramp
// steps of a b.N-style benchmark only feed the timer audit. With
// -benchtime=1x the eliminated-work check cannot see anything (one
// iteration's time is mostly the clock's own cost).
//
// Under -cpu lists each run is filed under the name go test prints it
// with. testing calls a benchmark's function once before it sets the
// first -cpu value (golang/go#49980), and a b.Loop benchmark measures its
// whole first repeat in that call: at the GOMAXPROCS the previous
// benchmark left. Track logs it on that run and the report names it (the
// JSON's stale_procs); use -count=2 or more and ignore that first run.
//
// The timer audit reads the benchmark thread's run-queue wait on Linux
// only; elsewhere it decides one ramp step later, and the eliminated-work
// check has no on-CPU correction. allocs/op and the timer state are read
// from testing.B's unexported fields through reflection (read-only, no
// unsafe, checked by a test); if a future Go renames them, Track falls back
// to runtime.ReadMemStats and assumes the timer runs.
package benchkit
