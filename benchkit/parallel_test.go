package benchkit

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func parallelSitesLen() int {
	parallelMu.RLock()
	defer parallelMu.RUnlock()
	return len(parallelSites)
}

// TestParallelSiteCachedOnce: a b.N-style benchmark's Track symbolises
// its call stack once, in the first ramp step (run1), not again in the
// later steps that testing's launch runs: the cache key must not include
// run1's or launch's frame, or the second step pays tens of µs of timed
// time, which the timer audit reads (it failed TestE2EStoppedTimer's
// -benchtime=1000x case under load).
func TestParallelSiteCachedOnce(t *testing.T) {
	withBenchtime(t, "100x")
	records(t)
	before := parallelSitesLen()
	steps := 0
	testing.Benchmark(func(b *testing.B) {
		Track(b)
		steps++
		for range b.N {
			sum(xs)
		}
	})
	assert.Equal(t, 2, steps, "run1 and launch's step")
	assert.Equal(t, before+1, parallelSitesLen(), "one cache entry for the call site across both steps")
}

// TestInParallelBody: Track at the top of a benchmark is not in a
// RunParallel body; inside the body it is.
func TestInParallelBody(t *testing.T) {
	withBenchtime(t, "10x")
	var top, body bool
	testing.Benchmark(func(b *testing.B) {
		top = inParallelBody(0)
		b.RunParallel(func(pb *testing.PB) {
			in := inParallelBody(0)
			for pb.Next() {
			}
			parallelMu.Lock()
			body = body || in
			parallelMu.Unlock()
		})
	})
	assert.False(t, top)
	assert.True(t, body)
}
