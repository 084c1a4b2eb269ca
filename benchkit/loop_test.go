package benchkit

import (
	"math/bits"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// feed records batches of a constant cost per iteration into t, as lap
// would, for iters iterations in all.
func feed(t *batcher, perIter time.Duration, iters int) {
	t.k = 1
	for done := 0; done+t.k <= iters; {
		k := t.k
		t.add(time.Duration(k) * perIter)
		done += k
	}
}

func TestBatcherIsBoundedAndUniform(t *testing.T) {
	for _, iters := range []int{1000, 1e5, 1e7, 1e9} {
		var b batcher
		feed(&b, 300*time.Nanosecond, iters)
		const usedWant = "%d iterations: %d slots used; want between %d and %d"
		assert.LessOrEqual(t, b.used, batchSlots, usedWant, iters, b.used, batchSlots/2, batchSlots)
		if iters >= 1e5 {
			assert.GreaterOrEqual(t, b.used, batchSlots/2, usedWant, iters, b.used, batchSlots/2, batchSlots)
		}
		assert.Equal(t, 1, bits.OnesCount(uint(b.k)), "%d iterations: k = %d; want a power of two", iters, b.k)
		assert.GreaterOrEqual(t, time.Duration(b.k)*300*time.Nanosecond, batchTarget,
			"%d iterations: a batch of k = %d lasts under %v", iters, b.k, batchTarget)
		for i, v := range b.perIter() {
			require.Equal(t, 300.0, v, "%d iterations: slot %d = %v ns/iteration, want 300 (slots must hold equal iteration counts)", iters, i, v)
		}
	}
}

func TestBatcherMergeKeepsTime(t *testing.T) {
	var b batcher
	b.k, b.warm = 4, true
	total := 0.0
	for i := range batchSlots + 1 {
		d := time.Duration(i+1) * time.Microsecond
		total += float64(d)
		b.add(d)
	}
	const mergedWant = "after %d batches: used %d, k %d; want %d and 8"
	require.Equal(t, batchSlots/2+1, b.used, mergedWant, batchSlots+1, b.used, b.k, batchSlots/2+1)
	require.Equal(t, 8, b.k, mergedWant, batchSlots+1, b.used, b.k, batchSlots/2+1)
	got := 0.0
	for _, s := range b.slots[:b.used] {
		got += s
	}
	// The last batch was timed at k=4 after the merge; all the time is kept.
	assert.Equal(t, total, got, "slots sum to %v, want %v", got, total)
	assert.Equal(t, float64(3*time.Microsecond), b.slots[0], "slot 0 = %v, want the first two batches merged (1µs + 2µs)", b.slots[0])
}

// TestLoopMemoryIsBounded runs Loop at b.N = 1e7 and 1e5: neither
// allocates inside the timed loop (beyond the odd runtime allocation that
// testing's process-wide count may catch), and the timeline stays within
// its slots.
func TestLoopMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 1e7 iterations")
	}
	records(t)
	var x uint64 = 12345
	for _, n := range []string{"100000x", "10000000x"} {
		withBenchtime(t, n)
		r := testing.Benchmark(func(b *testing.B) {
			Loop(b, func() uint64 { return x * 0x9e3779b97f4a7c15 })
		})
		// testing counts allocations process-wide; a runtime goroutine may
		// add one. Anything that grew with b.N would be ≥ 1e5 here.
		assert.LessOrEqual(t, r.MemAllocs, uint64(4), "-benchtime=%s: %d allocations in the timed loop; want at most a few, whatever b.N", n, r.MemAllocs)
		checkFinite(t, r)
	}
	bs := flagsFree(t)
	require.Len(t, bs.Runs, 2, "runs %+v; want two, the second at N = 1e7", bs.Runs)
	require.Equal(t, int(1e7), bs.Runs[1].N, "runs %+v; want two, the second at N = 1e7", bs.Runs)
	n := len(bs.Timeline)
	assert.GreaterOrEqual(t, n, 1, "timeline has %d points; want 1..%d", n, batchSlots)
	assert.LessOrEqual(t, n, batchSlots, "timeline has %d points; want 1..%d", n, batchSlots)
	// Not GreaterOrEqual(0): that would also reject a NaN, which this check lets through.
	assert.False(t, bs.Runs[1].WithinCV < 0, "WithinCV = %v; want a CV from ≥ 2 batches at N = 1e7", bs.Runs[1].WithinCV)
}

// flagsFree returns the single benchmark recorded (testing.Benchmark names
// every benchmark ""), failing if there are several.
func flagsFree(t *testing.T) registryBench {
	t.Helper()
	bs := registryBenchmarks()
	require.Len(t, bs, 1, "%d benchmark names recorded, want 1", len(bs))
	return bs[0]
}
