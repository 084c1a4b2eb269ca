// Package pair is the identical pair of benchmarks that the warmup table
// (go run ./internal/accuracy warmup) runs to measure the first-position
// penalty and the warm-up's effect on it (seed 000's experiment). It lives under
// testdata so that `go test ./...` and the CI smoke run skip it.
//
// go test runs benchmarks in source order: BenchmarkWarmup must stay first.
package pair

import (
	"testing"

	"github.com/benchkit/go-benchkit/warmup"
)

// BenchmarkWarmup is the disposable first benchmark; the table selects
// it only in its "with warm-up" runs, with -test.bench='Warmup|First|Second'.
func BenchmarkWarmup(b *testing.B) { warmup.Benchmark(b) }

const sumN = 1000

var data = func() []uint64 {
	xs := make([]uint64, sumN)
	for i := range xs {
		xs[i] = uint64(i)*0x9E3779B97F4A7C15 + 1
	}
	return xs
}()

// Sum adds xs.
func Sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

// Benchmark1First and Benchmark2Second are identical: any difference
// between them is the harness, not the code.
func Benchmark1First(b *testing.B) {
	xs := data
	for b.Loop() {
		Sum(xs)
	}
}

func Benchmark2Second(b *testing.B) {
	xs := data
	for b.Loop() {
		Sum(xs)
	}
}
