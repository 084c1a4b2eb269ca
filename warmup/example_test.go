package warmup_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/warmup"
)

// Run before measuring anything, for example in TestMain before m.Run, and
// print what happened. Timing-dependent, so it has no checked output.
func ExampleRun() {
	r := warmup.Run(warmup.Stable(5, 0.05), warmup.Limit(time.Second))
	fmt.Println(r) // e.g. warm-up 21ms, 8 batches, stable (5 within 5%), first batch 1.07× slower than last
	for _, w := range r.Warnings {
		fmt.Println(w)
	}
}

// A Result prints as one line for a report.
func ExampleResult_String() {
	r := warmup.Result{
		Duration:    412 * time.Millisecond,
		Batches:     41,
		Converged:   true,
		FirstToLast: 1.31,
		Spread:      0.012,
		Streak:      5,
		Tolerance:   0.02,
	}
	fmt.Println(r)
	r.Converged, r.Spread, r.FirstToLast = false, 0.073, 0.95
	fmt.Println(r)
	// Output:
	// warm-up 412ms, 41 batches, stable (5 within 2%), first batch 1.31× slower than last
	// warm-up 412ms, 41 batches, not stable (last 5 spread 7.3%, want ≤ 2%), first batch 1.05× faster than last
}

// The disposable first benchmark: declare it first in the package's first
// file and discard its line.
//
//	func BenchmarkWarmup(b *testing.B) { warmup.Benchmark(b) }
func ExampleBenchmark() {
	r := testing.Benchmark(warmup.Benchmark) // what go test does with BenchmarkWarmup
	_ = r
}
