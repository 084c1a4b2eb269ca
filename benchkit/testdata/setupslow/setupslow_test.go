// Package setupslow holds benchkit.LoopWithSetup benchmarks whose untimed setup
// dwarfs the timed work, for benchkit's end-to-end tests.
// Without the runaway guard BenchmarkSlowSetup would run for about 40
// minutes at -benchtime=1s: testing grows b.N until f's 100 ns reach 1s.
package setupslow

import (
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/benchkit"
)

var sink int

// spin spins for about d of wall time.
func spin(d time.Duration) int {
	start := time.Now()
	n := 0
	for time.Since(start) < d {
		n++
	}
	return n
}

// work is about 100 ns of arithmetic.
func work(x int) int {
	for i := range 60 {
		x = x*31 + i
	}
	return x
}

// BenchmarkSlowSetup is the reproducer: a 200 µs setup, a 100 ns f.
func BenchmarkSlowSetup(b *testing.B) {
	benchkit.LoopWithSetup(b, func() int { return spin(200 * time.Microsecond) }, work)
}

// BenchmarkCheapSetup has a setup cheaper than its f: it must pass.
func BenchmarkCheapSetup(b *testing.B) {
	benchkit.LoopWithSetup(b, func() int { return sink + 1 }, func(x int) int { return spin(20*time.Microsecond) + x })
}
