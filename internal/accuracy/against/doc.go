// Package against measures how often benchkit's -benchkit.against (the
// new test binary run against the base's, interleaved) and plain two-file
// benchstat (-count=10 each side) flag identical code, and how often they
// catch a 5% slowdown, over R repetitions at about the same wall time.
//
//	go run ./internal/accuracy against -r 20 -benchtime 100ms
//
// It builds benchkit/testdata/against twice with go test -c: plainly
// (base.test) and with -tags against_plus5 (plus5.test, whose
// BenchmarkWork sums 5% more elements). Each repetition runs, for each
// scenario (A/A: base.test against itself; +5%: plus5.test against
// base.test), in an order that alternates between repetitions:
//
//   - against: <new> -test.run='^$' -test.bench='^BenchmarkWork$'
//     -test.benchtime=<-benchtime> -benchkit.against=base.test
//     -benchkit.rounds=<-rounds> -benchkit.json=<tmp>, reading the
//     verdict from the JSON report;
//   - plain: base.test, then <new>, each with -test.count=<-count> and
//     the same -benchtime, compared as benchstat does
//     (golang.org/x/perf/benchmath AssumeNothing: ratio of medians,
//     Mann-Whitney U, flagged when p ≤ 0.05).
//
// With the defaults the two cost about the same: against runs 3 × 10
// processes of 2/3 × -benchtime each, plain 2 × 10 runs of -benchtime.
// The table's columns: flagged (A/A: any decided difference, or p ≤ 0.05)
// or caught (+5%: slower), wrong sign, undecided (against only), the
// median Δ and the median wall time per repetition. A line describing
// the machine and the command follows.
package against
