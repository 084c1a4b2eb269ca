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
// go test -bench=Format prints one line with the baseline's ns/op, each
// implementation's <name>-ns/op, each candidate's and the control's
// <name>/<base>-% (median time ratio to the baseline, in percent: 100 is
// equal, 104.9 is 4.9% slower), the
// calibrated closure-ns/op and the number of rounds, then logs a verdict
// per candidate:
//
//	control: control   +0.00% [-0.02%, +0.04%] same: noise floor: ...
//	control: itoa     -69.36% [-69.38%, -69.33%] faster: the interval excludes 0 and lies below the control's ...
//
// # How it measures
//
// [Compare] calibrates one iteration count on the baseline (batches of
// about 50µs, [BatchTime]), runs a discarded warm-up round, then runs
// rounds of one batch per implementation in balanced random order until a
// budget of -benchtime × max(2, 1 + candidates) is spent. Per
// round it divides each implementation's time by the baseline's. The
// median of those ratios, with a sign-test confidence interval corrected
// for the number of intervals (Bonferroni), is the estimate; [Analyze]
// states the verdict rule. A difference is called only when its interval
// excludes zero and lies beyond the control's interval; when the control
// itself is off zero, every verdict is Undecided and says why.
//
// # Options
//
// [With] carries options: [Gate] fails the benchmark on a decided
// regression beyond a threshold (never on an undecided one), [Confidence],
// [Negligible], [Seed], [BatchTime] and [Bootstrap].
//
//	control.With(control.Gate(5)).Compare(b, old, new)
//
// # benchstat mode
//
// [Rounds] registers sub-benchmarks round=<r>/impl=<name>, control
// included, in a new order every round, for
//
//	go test -run='^$' -bench=X -count=1 | benchstat -col /impl -ignore /round -
//
// # Closure overhead
//
// Every call goes through the func() T closure given to [Func], which
// costs a nanosecond or two. A measured time is work + overhead, so a
// ratio is (w₂+o)/(w₁+o): for nanosecond-scale work it is pulled toward
// 1 and the percentage toward 0. Compare measures o (closure-ns/op) and
// warns when it exceeds a tenth of the baseline; it does not subtract it,
// since a subtraction of two noisy numbers can turn a small time negative.
//
// Package control never imports package benchkit; its results reach
// benchkit's end-of-run report through an internal registry.
package control
