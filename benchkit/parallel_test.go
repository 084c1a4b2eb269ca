package benchkit

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestInParallelBody: code at the top of a benchmark is not in a
// RunParallel body, in any ramp step; code inside the body is.
func TestInParallelBody(t *testing.T) {
	withBenchtime(t, "10x")
	var top, body atomic.Int32
	testing.Benchmark(func(b *testing.B) {
		if inParallelBody(0) {
			top.Add(1)
		}
		b.RunParallel(func(pb *testing.PB) {
			if inParallelBody(0) {
				body.Add(1)
			}
			for pb.Next() {
			}
		})
	})
	assert.Zero(t, top.Load(), "the benchmark's own goroutine")
	assert.Positive(t, body.Load(), "RunParallel's goroutines")
}
