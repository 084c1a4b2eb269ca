// Package control compares implementations inside one Go benchmark,
// interleaved, next to an automatic control: a second copy of the
// baseline, whose interval is the harness's own error bar in that run.
//
//	func BenchmarkFormat(b *testing.B) {
//		control.Compare(b,
//			control.Func("sprintf", func() string { return fmt.Sprint(n) }), // baseline
//			control.Func("itoa", func() string { return strconv.Itoa(n) }),
//		)
//	}
//
// go test -bench=Format prints one line with the metrics below, then logs
// a verdict per candidate:
//
//	control: control   +0.00% [-0.02%, +0.04%] same: noise floor: ...
//	control: itoa     -69.36% [-69.38%, -69.33%] faster: the interval excludes 0 and lies below the control's ...
//
// # How it measures
//
// [Compare] runs everything inside one b.Loop iteration, so the benchmark
// function runs once per -count. By default it spreads the measurement
// over fresh processes (see Forks below); each process, or this one with
// [Forks](1), measures like this:
//
//  1. One iteration count is shared by every implementation (separate
//     calibration biases ratios; nanobench measured 1.2%). It is a
//     function of the set of implementations, not of which one is the
//     baseline: calibrated first on the baseline, it is then refitted on
//     the warm-up so that the slowest implementation's batch takes about
//     50µs ([BatchTime], [DefaultBatchTime]), raised until the fastest
//     one's lasts at least 20µs, and capped where the slowest one's would
//     exceed 10 batch times; the cap wins, and both the cap and a batch
//     still too short for the clock are warned about.
//  2. The closure-call overhead is calibrated with a func() T returning
//     the zero value, through the same code path, and reported as
//     closure-ns/op. The fixed cost of a batch (its two clock reads and
//     the batch function's call, timed on batches of zero calls) is
//     measured too and subtracted from every batch, so that a ratio does
//     not depend on which implementation is the baseline.
//  3. Three warm-up rounds run every implementation once each and are
//     discarded: the first pays for a cold start (in a fresh fork the
//     first calls fault in pages and grow the heap), the last measures
//     the baseline's allocations, and each implementation's fastest batch
//     of the three sizes the batches of step 1. When that moves the count
//     by more than a quarter, three more warm-up rounds run at the new
//     count and size it again: a batch far shorter than the target times
//     its calls less precisely.
//  4. Rounds follow: one batch per implementation, in an order drawn from
//     balanced random blocks (each block of m rounds is a cyclic Latin
//     square over a fresh random permutation, rows shuffled: every
//     implementation takes every position once per block). The seed is
//     logged; [Seed] fixes it.
//  5. Rounds continue while the next one fits in the budget,
//     -benchtime × max(2, 1 + number of candidates): the time go test
//     would spend on the same implementations as separate benchmarks. The
//     control comes out of it (an A/A run, with no candidates, gets two
//     benchtimes). Calibration and warm-up count against it, and no batch
//     starts after the deadline, so the budget is overrun by at most one
//     batch. With the default -benchtime=1s, a baseline and two
//     candidates cost 3s.
//
// Under -benchtime=Nx, Compare runs N measured rounds within a budget of
// 1s per implementation and logs it; one round cannot decide, so a smoke
// run with -benchtime=1x passes quickly with an Undecided verdict. -count
// above 1 works and logs once that it multiplies the cost.
//
// Per round, each implementation's time is divided by the baseline's.
// Within one process the estimate is the median of those ratios, with a
// sign-test confidence interval corrected for the number of intervals
// (Bonferroni); [Analyze] states the verdict rule and applies it to
// per-round times without timing anything. A difference is called only
// when its interval excludes zero and lies beyond the control's interval;
// when the control itself is off zero, every verdict is Undecided and
// says why. The control's own line says "same" only when its interval is
// at most 10·ε wide (10 points with the default Negligible(1)); a wider
// noise floor is Undecided, "noise floor too wide". The reasons behind the rule, and its measured accuracy, are
// in the repository's docs/statistics.md and docs/measurements.md.
//
// # Forks
//
// Rounds in one process agree with each other far better than processes
// agree with each other: where the heap and stacks land, and the machine's
// state, are fixed for a process and move its ratios by more than its own
// interval (Mytkowicz et al., ASPLOS 2009; JMH forks for this reason). So
// Compare re-executes the test binary [DefaultForks] times, one process
// after another, each with a -test.bench pattern that selects exactly this
// benchmark (every name element quoted and anchored), -test.run='^$',
// -test.count=1, -test.cpu set to the current GOMAXPROCS, -test.benchtime
// set to the fork's share (-benchtime/F; Nx is split into rounds), the
// user's other flags, and a marker in the environment. Each fork measures
// as above and hands its rounds back through a file, never through the
// stdout go test parses; this process combines them with [AnalyzeForks]'
// rule: each fork's median ratio, and Student's t-interval over the forks
// (a two-level, cluster-level interval: Kalibera and Jones, "Rigorous
// Benchmarking in Reasonable Time", ISMM 2013). The control gets the same
// treatment, so the noise floor includes process-to-process variation.
// The log adds a line with every fork's delta.
//
// What forks cannot vary is code placement: every fork runs the same
// binary, whose functions the linker placed once. Two distinct closures
// of identical code can differ by about half a percent in one build (a
// property of that binary, different in the next build), the control
// cannot see it, and a verdict can report it: on a quiet 2-vCPU VM, ten
// forks called a distinct copy of seed 000's sum faster in 3 of 30
// repetitions, and identical copies of three other workloads in 0 of 90
// (docs/measurements.md). So a faster or slower verdict whose estimate is
// under ±1% (or ε, if smaller) keeps its verdict and adds to its reason
// that code placement alone can make a difference that small, and that it
// may not survive a rebuild.
//
// The number of processes is [Forks](n), overridden by the environment
// variable BENCHKIT_FORKS and by -benchkit.forks (which benchkit.Main
// registers). The budget is unchanged; each fork adds its start-up (the
// test binary's initialisation and TestMain; benchkit.Main prints no
// report and runs no warm-up in a fork, but a TestMain's own expensive
// setup repeats once per fork), tens of milliseconds each. Forks run one
// at a time, each with a deadline of 10 × its budget + 2 minutes, and
// none outlives this process. A fork that fails, panics or passes its
// deadline fails the benchmark with the fork's exit status and output. A
// fork that stops early (an implementation slower than its share, or
// another process holding the CPU past its budget) is left out with a
// warning when it is the only one and at least two others measured; a
// second one stops the others and makes every verdict Undecided.
//
// Compare measures within this one process, and its log says "within one
// process", with Forks(1), under -benchtime=1x, inside a fork, when
// testing.Benchmark runs it (no pattern can select it), when a go test
// flag that writes a file is set (-cpuprofile, -memprofile,
// -blockprofile, -mutexprofile, -trace, -coverprofile: the profile must
// hold the measurement, and forks would overwrite each other's), and when
// the test binary cannot be re-executed; each case but the first two is
// noted in the log.
//
// # Metrics
//
// The benchmark's line carries:
//
//	ns/op             the baseline's median time per call (not elapsed/N)
//	<name>-ns/op      each implementation's median time per call
//	                  (benchstat shows <name>-sec/op)
//	<name>/<base>-%   median time ratio to the baseline in percent, 100 =
//	                  equal (plus5/alpha-% 104.8 is +4.8%); also for the
//	                  control
//	closure-ns/op     calibrated cost of one call through the Func closure
//	rounds            measured rounds
//	allocs/op, B/op   the baseline's, with -benchmem
//	MB/s, <name>-MB/s with b.SetBytes(n): the baseline's and each
//	                  implementation's throughput, n / (its ns/op) × 1e3
//	                  (testing's own MB/s would divide n by the whole
//	                  comparison's time, since b.N is 1)
//
// go test prints four significant digits (0.1 points near 100); the log
// line has two decimals. Ratios are centred on 100 rather than reported as
// signed deltas because benchstat renders a delta of 0.03 as 30.0m
// (milli), prints ? for an interval that crosses zero, and cannot take a
// geomean of negative values. The verdicts are logged, one line each, and
// recorded for benchkit's end-of-run report.
//
// With -benchkit.metrics=off (the flag benchkit.Main registers) or
// BENCHKIT_METRICS=off, the line keeps only the units go test prints
// itself: ns/op (the baseline's), allocs/op, B/op and MB/s; the other
// implementations' times and ratios are then in the log lines, the report
// and the JSON report only.
//
// # Options
//
// [With] carries options: [Gate] fails the benchmark with b.Errorf on a
// decided regression beyond a threshold (never on an undecided one),
// [Confidence], [Negligible], [Seed], [BatchTime], [Bootstrap] (within one
// process) and [Forks].
//
//	control.With(control.Gate(5)).Compare(b, old, new)
//
// # Bad input
//
// Each case has a test (testdata/bench, run by TestTestdataBench):
//
//   - a nil function or a zero [Impl]: b.Fatalf naming the implementation
//     ("candidate 1 ("b") has a nil function: pass a func() T that does the
//     work and returns its result");
//   - an empty or whitespace name, one containing a control character
//     (NUL, ESC, …), '/', '#' or ',', a -<digits> suffix, the reserved
//     name "control", duplicate names: b.Fatalf naming the
//     implementation, the rule and the fix ([Analyze] and [AnalyzeForks]
//     return Compare's error for a baseline or candidate named "control");
//   - in Compare, a name whose metric unit is also one of Compare's own
//     units or another implementation's ("closure", whose closure-ns/op
//     is the call overhead): b.Fatalf naming the unit and the fix, since
//     the line would carry two values under one unit;
//   - an invalid option (Gate(-3), Confidence(1), …): b.Fatalf with the
//     valid range and an example;
//   - [Analyze] or [AnalyzeForks] given a time more than 1e100 or less
//     than 1e-100 times the baseline's in the same round (1 ns against
//     1e308 ns): an error naming the sample, the round and the ratio,
//     since that ratio has no finite percentage (tested in
//     TestAnalyzeExtremeTimes); no result field is ever NaN or ±Inf;
//   - an implementation that panics: b.Fatal with its name, the panic
//     value and the original stack (in Benchstat's leaves too), rather than a
//     re-raised panic, which testing can lose: it signals a benchmark's
//     end from a deferred call, so a loaded machine could print PASS and
//     exit 0 before the panic's stack was printed;
//   - an implementation slower than the whole budget: not a failure; the
//     verdict is Undecided ("measuring stopped: one call of "glacial" took
//     300.5ms, more than the whole budget of 200ms"), the line shows
//     0 rounds and no ns/op;
//   - Compare called from a RunParallel body (detected from the call stack,
//     whatever GOMAXPROCS is) or from two goroutines sharing b: a panic
//     with the fix, since b.Fatal is not allowed off the benchmark
//     goroutine; called twice: b.Fatalf;
//   - Benchstat(b, 0, …): b.Fatalf, the number of rounds must be ≥ 1;
//   - BENCHKIT_FORKS or -benchkit.forks that is not a whole number ≥ 1,
//     or Forks(0): b.Fatalf with the fix;
//   - a fork that fails, panics or passes its deadline: b.Fatalf with the
//     fork's exit status and the start and end of its output.
//
// # benchstat mode
//
// [Benchstat] registers sub-benchmarks round=<r>/impl=<name>, control
// included, in a new order every round, for
//
//	go test -run='^$' -bench=X -count=1 | benchstat -col /impl -ignore /round -
//
// Each leaf is an ordinary `for b.Loop() { f() }` benchmark; the control
// column is that run's error bar. Benchstat costs R × (k + 2) × -benchtime
// and gives no verdict; Compare is the mode that decides.
//
// Compare's own rounds reach benchstat too: under benchkit.Main with
// -benchkit.samples=s.txt, the samples file holds every round of every
// implementation as <Name>/impl=<name>, for
//
//	benchstat -filter 'samples:rounds' -col /impl s.txt
//
// (benchstat treats the rounds as independent samples; Compare's verdict
// pairs them by round).
//
// # Closure overhead
//
// Every call goes through the func() T closure given to [Func], which
// costs a nanosecond or two. A measured time is work + overhead, so a
// ratio is (w₂+o)/(w₁+o): for nanosecond-scale work it is pulled toward 1
// and the percentage toward 0. Compare measures o (closure-ns/op) and
// warns when it exceeds a tenth of the baseline; it does not subtract it,
// since a subtraction of two noisy numbers can turn a small time negative.
// For work of a few nanoseconds, compare a larger unit (a loop of 100
// calls inside f).
//
// Package control never imports package benchkit; its results reach
// benchkit's end-of-run report through an internal registry.
package control
