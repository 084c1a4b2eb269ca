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
// go test -bench=Format prints one line with the metrics, then logs a
// verdict per candidate:
//
//	control: control   +0.00% [-0.02%, +0.04%] same: noise floor: ...
//	control: itoa     -69.36% [-69.38%, -69.33%] faster: the interval excludes 0 and lies below the control's ...
//
// [Compare] times every implementation in batches of one shared iteration
// count, in rounds of one batch each in a balanced random order, within
// -benchtime × max(2, 1 + candidates), spread over [DefaultForks] fresh
// processes of the test binary ([Forks]). Per round it divides each time
// by the baseline's; the ratios, their intervals and the control's give
// each candidate a verdict by [verdict.Analyze]'s rule: Faster, Slower,
// Same or Undecided, with the reason. [Benchstat] runs the rounds as
// sub-benchmarks for benchstat instead, without a verdict; [Analyze]
// computes a comparison from per-round times of your own.
//
// How Compare measures, its forks and the reasons for the rule are in
// docs/statistics.md in the repository; the metrics on the benchmark line
// in docs/report.md; every message in docs/troubleshooting.md; the
// measured accuracy in docs/measurements.md.
package control
