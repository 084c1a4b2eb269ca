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
// function runs once per -count. It spreads the measurement over
// [DefaultForks] fresh processes (see Forks); each measures like this:
//
//  1. One iteration count is shared by every implementation, fitted on a
//     discarded warm-up so that the slowest implementation's batch takes
//     about [DefaultBatchTime] ([BatchTime]); the closure-call overhead and
//     the fixed cost of a batch are calibrated, and the latter subtracted.
//  2. Rounds follow: one batch per implementation, in an order drawn from
//     balanced random blocks (every implementation takes every position
//     once per block; [Seed] fixes the order), while the next round fits in
//     the budget: -benchtime × max(2, 1 + number of candidates), the time
//     go test would spend on the same implementations as separate
//     benchmarks. Under -benchtime=Nx it runs N rounds.
//  3. Per round, each implementation's time is divided by the baseline's;
//     the estimate is the median of those ratios with a sign-test interval,
//     Bonferroni-corrected for the number of intervals ([Analyze] states
//     the rule). A difference is called only when its interval excludes
//     zero and lies beyond the control's; when the control itself is off
//     zero, only a difference beyond it by that offset again is called,
//     and every other verdict is Undecided and says why.
//
// The calibration, the budget and the rule's reasons are in the
// repository's docs/statistics.md; their measured accuracy in
// docs/measurements.md.
//
// # Forks
//
// Rounds in one process agree with each other far better than processes
// agree with each other (heap and stack placement, the machine's state),
// so Compare re-executes the test binary [Forks](n) times, one process
// after another, each selecting exactly this benchmark with its share of
// the budget. Each fork hands its rounds back out of band, never through
// the stdout go test parses; this process combines them: each fork's
// median ratio, and Student's t-interval over the forks. The control gets
// the same treatment. The log adds every fork's delta.
//
// What forks cannot vary is code placement, fixed when the binary is
// linked: two distinct copies of identical code can differ by about half
// a percent in one build. A faster or slower verdict under ±1% (or ε, if
// smaller) says so in its reason: it may not survive a rebuild.
//
// BENCHKIT_FORKS and -benchkit.forks (registered by benchkit.Main)
// override the option (at most [MaxForks]). Forks run one at a time, each
// at the GOMAXPROCS go test prints for the run, with a deadline of 10 × its
// budget + 2 minutes, its own temporary directory, and none outlives this
// process; a fork that fails fails the benchmark with its output. On
// Linux a fork runs the very file this process runs (/proc/self/exe);
// elsewhere a test binary rebuilt while it runs is not forked. When the
// slowest implementation leaves a fork too little of the budget to
// measure, Compare uses fewer forks, each with at least 1.5 times what one
// call of every implementation says a fork needs, and says so; under
// -benchtime=Nx it runs exactly N rounds, at least 5 per fork.
//
// Compare measures within this one process, and says so in its log, with
// Forks(1), under testing.Benchmark, under a go test flag that writes a
// file (-cpuprofile, -memprofile, -blockprofile, -mutexprofile, -trace,
// -coverprofile), and when the test binary cannot be re-executed.
//
// # Metrics
//
// The benchmark's line carries:
//
//	ns/op             the baseline's median time per call (not elapsed/N)
//	<name>-ns/op      each implementation's median time per call
//	<name>/<base>-%   median time ratio to the baseline in percent, 100 =
//	                  equal (plus5/alpha-% 104.8 is +4.8%); also for the
//	                  control
//	closure-ns/op     calibrated cost of one call through the Func closure
//	rounds            measured rounds
//	allocs/op, B/op   the baseline's, with -benchmem
//	MB/s, <name>-MB/s with b.SetBytes(n): throughput, n / ns-per-op × 1e3
//
// Ratios are centred on 100 because benchstat renders a signed delta of
// 0.03 as 30.0m and cannot take a geomean of negative values. With
// -benchkit.metrics=off (or BENCHKIT_METRICS=off) the line keeps only the
// units go test prints itself; the log, the report and the JSON keep the
// rest.
//
// # Options and bad input
//
// [With] carries options: [Gate] fails the benchmark on a decided
// regression beyond a threshold (never on an undecided one),
// [Confidence], [Negligible], [Seed], [BatchTime], [Bootstrap] and
// [Forks].
//
//	control.With(control.Gate(5)).Compare(b, old, new)
//
// A bad call fails the benchmark with a message that names the
// implementation and the fix, never a panic deep inside testing: a nil
// function, a zero [Impl], an empty, duplicate, reserved ("control") or
// malformed name, a name whose metric unit collides with another, an
// invalid option, an implementation that panics (its stack is kept), a
// second Compare in one benchmark. Called from a RunParallel body or from
// two goroutines sharing b, Compare panics with the fix, since b.Fatal may
// not be called off the benchmark goroutine. An implementation slower than
// the whole budget is not a failure: the verdict is Undecided and says so.
// docs/troubleshooting.md lists every message.
//
// # benchstat mode
//
// [Benchstat] registers sub-benchmarks round=<r>/impl=<name>, control
// included, in a new order every round, for
//
//	go test -run='^$' -bench=X -count=1 | benchstat -col /impl -ignore /round -
//
// It gives no verdict; Compare is the mode that decides. Compare's own
// rounds reach benchstat too, through benchkit.Main's samples file
// (docs/report.md).
//
// # Closure overhead
//
// Every call goes through the func() T closure given to [Func], which
// costs a nanosecond or two, so for nanosecond-scale work a ratio is
// pulled toward 1. Compare measures it (closure-ns/op) and warns when it
// exceeds a tenth of the baseline; for work of a few nanoseconds, compare
// a larger unit (a loop of 100 calls inside f).
package control
