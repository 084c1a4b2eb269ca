package benchkit_test

import (
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/benchkit/go-benchkit/benchkit"
	"github.com/benchkit/go-benchkit/sink"
)

var data = []byte(strings.Repeat("x", 1024))

// In a _test.go file, Track is the first line of a benchmark. Its line gets
// cv% (from the second -count repeat on) and wait%, and its problems are
// logged under the line. (The examples here are compiled, not run: their
// output depends on the machine.)
func ExampleTrack() {
	benchmarkHash := func(b *testing.B) { // func BenchmarkHash(b *testing.B)
		benchkit.Track(b)
		for b.Loop() {
			sha256.Sum256(data)
		}
	}
	testing.Benchmark(benchmarkHash)
}

// Track works the same in a b.N-style loop, where the result must be kept
// alive by hand (the compiler keeps only `for b.Loop()` bodies).
func ExampleTrack_bN() {
	benchmarkHash := func(b *testing.B) {
		benchkit.Track(b)
		for range b.N {
			sink.Keep(sha256.Sum256(data))
		}
	}
	testing.Benchmark(benchmarkHash)
}

// Loop runs the b.Loop loop itself, keeping the closure's result alive, and
// adds batchcv%, the CV of batch times within one run.
func ExampleLoop() {
	benchmarkHash := func(b *testing.B) {
		benchkit.Loop(b, func() [32]byte { return sha256.Sum256(data) })
	}
	testing.Benchmark(benchmarkHash)
}

// LoopWithSetup builds a fresh input for every iteration with the timer stopped
// and measures only the work on it.
func ExampleLoopWithSetup() {
	benchmarkUpper := func(b *testing.B) {
		benchkit.LoopWithSetup(b,
			func() string { return strings.Repeat("abcdefgh", 8<<10) }, // not timed
			strings.ToUpper, // timed
		)
	}
	testing.Benchmark(benchmarkUpper)
}

// ExpectAllocs declares that the work allocates; a run that reports fewer
// allocations (the compiler removed the discarded make) is flagged.
func ExampleExpectAllocs() {
	benchmarkMake := func(b *testing.B) {
		benchkit.Track(b, benchkit.ExpectAllocs(1))
		var s []byte
		for range b.N {
			s = make([]byte, 64)
		}
		sink.Keep(s)
	}
	testing.Benchmark(benchmarkMake)
}

// FailOnFlags turns the flags into failures, for a CI job that must not
// accept a benchmark that measures nothing.
func ExampleFailOnFlags() {
	benchmarkSum := func(b *testing.B) {
		benchkit.Track(b, benchkit.FailOnFlags())
		xs := sink.Opaque([]int{3, 1, 4, 1, 5})
		for b.Loop() {
			s := 0
			for _, x := range xs {
				s += x
			}
			sink.Keep(s)
		}
	}
	testing.Benchmark(benchmarkSum)
}
