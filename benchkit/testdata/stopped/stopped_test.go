// Package stopped holds a b.N-style benchmark that stops its timer and never
// starts it again, for benchkit's end-to-end tests. Without benchkit.Track
// testing would ramp b.N to 1e9 and take minutes; with it the benchmark
// fails at b.N = 100.
package stopped

import (
	"testing"
	"time"

	"github.com/benchkit/go-benchkit/benchkit"
)

var sink int

// work spins for about d of wall time.
func work(d time.Duration) {
	start := time.Now()
	for time.Since(start) < d {
		sink++
	}
}

// BenchmarkStopNoStart stops the timer before the loop: a 5 µs body, so
// b.N = 1e9 would take about 80 minutes.
func BenchmarkStopNoStart(b *testing.B) {
	benchkit.Track(b)
	b.StopTimer()
	for range b.N {
		work(5 * time.Microsecond)
	}
}

// BenchmarkStopInLoop stops the timer inside the loop and never restarts it.
func BenchmarkStopInLoop(b *testing.B) {
	benchkit.Track(b)
	for range b.N {
		b.StopTimer()
		work(5 * time.Microsecond)
	}
}

// BenchmarkPerIterationToggle is the legitimate per-iteration pattern: it
// must not fail.
func BenchmarkPerIterationToggle(b *testing.B) {
	benchkit.Track(b)
	for range b.N {
		b.StopTimer()
		work(2 * time.Microsecond)
		b.StartTimer()
		work(200 * time.Nanosecond)
	}
}

// BenchmarkResetAfterSetup prepares b.N inputs untimed (about 1 µs each),
// resets the timer and runs a faster loop over them (about 0.2 µs each): a
// common, legitimate pattern whose untimed time also grows with b.N, five
// times faster than its timed time. It must not fail.
func BenchmarkResetAfterSetup(b *testing.B) {
	benchkit.Track(b)
	inputs := make([]int, b.N)
	for i := range inputs {
		work(time.Microsecond)
		inputs[i] = i
	}
	b.ResetTimer()
	for _, x := range inputs {
		work(200 * time.Nanosecond)
		sink += x
	}
}
