package sink_test

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/benchkit/go-benchkit/sink"
)

// checksum is an inlinable pure function standing in for the code under
// test. Called with its result discarded, it is removed entirely.
func checksum(x uint64) uint64 {
	x ^= x >> 31
	x *= 0x7fb5d329728ea185
	x ^= x >> 27
	return x
}

// A b.N-style benchmark keeps nothing alive by itself, a RunParallel body is
// a pb.Next() loop, and a closure's body is compiled on its own: each needs
// Keep. An input built from constants goes through Opaque, once, before the
// loop. (This example only compiles: its timings are not deterministic.)
func Example() {
	benchmarkChecksum := func(b *testing.B) {
		x := sink.Opaque(uint64(0xdeadbeef))
		for i := 0; i < b.N; i++ {
			sink.Keep(checksum(x + uint64(i)))
		}
	}
	benchmarkChecksumParallel := func(b *testing.B) {
		x := sink.Opaque(uint64(0xdeadbeef))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				sink.Keep(checksum(x))
			}
		})
	}
	fmt.Println(testing.Benchmark(benchmarkChecksum))
	fmt.Println(testing.Benchmark(benchmarkChecksumParallel))
}

// Keep costs no allocation, whatever the type, and does not move a local
// value to the heap.
func ExampleKeep() {
	allocs := testing.AllocsPerRun(1000, func() {
		sink.Keep(checksum(42))
		sink.Keep("a string")
		sink.Keep(make([]byte, 64))
		sink.Keep(struct{ x, y float64 }{1, 2})
	})
	fmt.Println("allocations per run:", allocs)
	// Output: allocations per run: 0
}

// Written as bits.OnesCount(0b10110), the count is computed by the compiler
// and a benchmark of it measures a constant. Through Opaque the compiler
// cannot know the input, so the population count runs at run time.
func ExampleOpaque() {
	x := sink.Opaque(uint(0b10110))
	fmt.Println(bits.OnesCount(x))
	// Output: 3
}
