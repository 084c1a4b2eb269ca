// Package seed000 reproduces seed 000's harness ("benchstat reported
// p=0.000 between a function and itself", CognatePress
// experiments.gopheria.com benchnoise/) with the ground truth built in:
// alpha and beta do the same work, plus5 does 5% more. Sum adds 1000
// uint64s (1050 for plus5); Alloc makes 200 heap allocations of 64 bytes
// (210 for plus5).
//
// bench_test.go measures them three ways: plain sub-benchmarks (the way
// the seed did, for -count + benchstat), control.Compare, and
// control.Benchstat. The groundtruth table (go run ./internal/accuracy
// groundtruth) runs the first two 30 times and counts how often each way
// gets the known answers.
package seed000

// Work sizes: the baseline's, and 5% more.
const (
	SumN    = 1000
	SumN5   = 1050
	AllocN  = 200
	AllocN5 = 210
)

// Xs is the input of Sum: SumN5 values, of which Sum reads a prefix.
var Xs = func() []uint64 {
	xs := make([]uint64, SumN5)
	for i := range xs {
		xs[i] = uint64(i)*2654435761 + 1
	}
	return xs
}()

// Sum returns the sum of xs. It is not inlined, so the work per call is
// exactly len(xs) additions plus one call.
//
//go:noinline
func Sum(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

// sinkB keeps Alloc's slices on the heap: without a store that escape
// analysis cannot see through, every allocation would go on the stack.
var sinkB []byte

// Alloc makes n heap allocations of 64 bytes and returns the last one's
// length.
//
//go:noinline
func Alloc(n int) int {
	for range n {
		sinkB = make([]byte, 64)
	}
	return len(sinkB)
}
