package control_test

import (
	"fmt"
	"github.com/benchkit/go-benchkit/control/verdict"
	"strconv"
	"testing"

	"github.com/benchkit/go-benchkit/control"
)

var n = 12345

// A benchmark whose whole body is one Compare: sprintf is the baseline, a
// control copy of it is added, and itoa is the candidate. Run it with
// go test -bench=Format; the verdicts are in the log below the result.
func ExampleCompare() {
	benchmarkFormat := func(b *testing.B) {
		control.Compare(b,
			control.Func("sprintf", func() string { return fmt.Sprint(n) }),
			control.Func("itoa", func() string { return strconv.Itoa(n) }),
		)
	}
	_ = benchmarkFormat // func BenchmarkFormat(b *testing.B) in a _test.go file
}

// With carries options: here a CI gate that fails the benchmark when the
// candidate is decided slower by more than 5%, and a fixed order seed.
func ExampleWith() {
	benchmarkGate := func(b *testing.B) {
		control.With(control.Gate(5), control.Seed(1)).Compare(b,
			control.Func("old", func() string { return fmt.Sprint(n) }),
			control.Func("new", func() string { return strconv.Itoa(n) }),
		)
	}
	_ = benchmarkGate
}

// Benchstat registers round=<r>/impl=<name> sub-benchmarks for benchstat:
//
//	go test -run='^$' -bench=FormatRounds -count=1 | benchstat -col /impl -ignore /round -
func ExampleBenchstat() {
	benchmarkFormatRounds := func(b *testing.B) {
		control.Benchstat(b, 10,
			control.Func("sprintf", func() string { return fmt.Sprint(n) }),
			control.Func("itoa", func() string { return strconv.Itoa(n) }),
		)
	}
	_ = benchmarkFormatRounds
}

// Analyze is the pure core: given per-round times it computes the
// verdicts, deterministically. Here the candidate is 5% slower in every
// round, give or take a little, and the control is the baseline again.
func ExampleAnalyze() {
	base := verdict.Sample{Name: "old"}
	ctl := verdict.Sample{Name: "control"}
	cand := verdict.Sample{Name: "new"}
	for r := range 30 {
		machine := 100 + float64(r%7)    // the machine drifts between rounds
		jitter := 0.002 * float64(r%5-2) // ±0.4% per batch
		base.NsPerOp = append(base.NsPerOp, machine)
		ctl.NsPerOp = append(ctl.NsPerOp, machine*(1+jitter))
		cand.NsPerOp = append(cand.NsPerOp, machine*(1.05-jitter))
	}
	res, err := control.Analyze(base, ctl, []verdict.Sample{cand})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range append([]verdict.Estimate{res.Control}, res.Candidates...) {
		fmt.Printf("%-7s %+.2f%% [%+.2f%%, %+.2f%%] %s: %s\n", e.Name, e.DeltaPct, e.LoPct, e.HiPct, e.Verdict, e.Reason)
	}
	// Output:
	// control +0.00% [-0.20%, +0.20%] same: noise floor: a copy of old lies within [-0.20%, +0.20%]
	// new     +5.00% [+4.80%, +5.20%] slower: the interval excludes 0 and lies above the control's [-0.20%, +0.20%]
}
